//! Command templates: `target/release/footlights-suite {bench} {params}`.
//!
//! A run template is split into words the way a shell would split a simple command, with
//! the `shlex` crate (whitespace separates words; `'…'` keeps everything literally, `"…"`
//! keeps whitespace and honours `\"` and `\\`; a backslash outside quotes escapes the next
//! character), but it is never run by a shell: the harness execs the program directly, so `wait4` measures
//! the program itself and not a shell around it.
//!
//! Placeholders: `{bench}` and `{threads}` are replaced inside any word; `{params}` must be
//! a word of its own and expands to one word per parameter (`actors=503 hops=1000000`).

/// The placeholders a template may use.
pub const PLACEHOLDERS: &[&str] = &["{bench}", "{params}", "{threads}"];

/// Splits a template into words as a POSIX shell would (`shlex`); an unterminated quote
/// or a trailing backslash is an error.
pub fn split(template: &str) -> Result<Vec<String>, String> {
    shlex::split(template)
        .ok_or_else(|| "unterminated quote or trailing backslash in the run template".into())
}

/// Checks a split run template: not empty, `{params}` only as a whole word, no unknown
/// `{placeholder}`.
pub fn check_words(words: &[String]) -> Result<(), String> {
    if words.is_empty() {
        return Err("the run template is empty".into());
    }
    for w in words {
        if w.contains("{params}") && w != "{params}" {
            return Err(format!(
                "'{{params}}' must be a word of its own, not part of '{w}'"
            ));
        }
        check_placeholders(w)?;
    }
    Ok(())
}

/// Rejects `{name}` placeholders other than the known ones in `text`.
pub fn check_placeholders(text: &str) -> Result<(), String> {
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let tail = &rest[start..];
        if let Some(end) = tail.find('}') {
            let ph = &tail[..=end];
            let looks_like_placeholder = ph.len() > 2
                && ph[1..ph.len() - 1]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_');
            if looks_like_placeholder && !PLACEHOLDERS.contains(&ph) {
                return Err(format!(
                    "unknown placeholder {ph} (known: {})",
                    PLACEHOLDERS.join(", ")
                ));
            }
            rest = &tail[end + 1..];
        } else {
            break;
        }
    }
    Ok(())
}

/// Replaces `{bench}` and `{threads}` in one piece of text.
pub fn fill(text: &str, bench: &str, threads: usize) -> String {
    text.replace("{bench}", bench)
        .replace("{threads}", &threads.to_string())
}

/// The argv for one run: the template's words with every placeholder filled in.
pub fn expand(words: &[String], bench: &str, params: &[String], threads: usize) -> Vec<String> {
    let mut argv = Vec::with_capacity(words.len() + 4);
    for w in words {
        if w == "{params}" {
            argv.extend(params.iter().cloned());
        } else {
            argv.push(fill(w, bench, threads));
        }
    }
    argv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;

    #[test]
    fn splits_like_a_shell_and_expands() {
        let w = split(r#"erl +S {threads}:{threads} -eval 'a b' "c \"d\"" e\ f {bench} {params}"#)
            .unwrap();
        assert_eq!(
            w,
            [
                "erl",
                "+S",
                "{threads}:{threads}",
                "-eval",
                "a b",
                "c \"d\"",
                "e f",
                "{bench}",
                "{params}"
            ]
        );
        check_words(&w).unwrap();
        let p = Params::parse_words(["n=3", "m=4"]).unwrap();
        let argv = expand(&w, "fannkuch", &p.words(), 2);
        assert_eq!(&argv[1..3], ["+S", "2:2"]);
        assert_eq!(&argv[7..], ["fannkuch", "n=3", "m=4"]);
        assert!(split("a 'b").is_err());
        assert!(check_words(&split("x --p={params}").unwrap()).is_err());
        assert!(check_words(&split("x {bnch}").unwrap()).is_err());
        assert!(check_words(&split("x -e '{a, b}'").unwrap()).is_ok());
    }
}
