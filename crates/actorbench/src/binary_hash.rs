//! The SHA-256 of the files a run executes, recorded per implementation with the
//! session, so two sessions of the same commit can still be told apart when the program
//! was rebuilt differently or not rebuilt at all (`--no-build`).
//!
//! For a run command `argv`, the files hashed are the program (a word with a slash is
//! taken relative to the run's directory, as [`crate::exec`] does; a bare name is looked
//! up in `PATH`) and every argument that names an existing regular file relative to that
//! directory (a jar after `-jar`, a script after `python3`). Each becomes `path=HEX`;
//! what cannot be read is `path=unreadable`. The hash is computed with the `sha2` crate.

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// `path=HEX` words for the files `argv` executes when run in `dir`.
pub fn of_command(argv: &[String], dir: &Path) -> String {
    let mut files: Vec<PathBuf> = Vec::new();
    if let Some(program) = argv.first().and_then(|p| resolve(p, dir)) {
        files.push(program);
    }
    for a in argv.iter().skip(1) {
        let p = dir.join(a);
        if !a.is_empty() && p.is_file() && !files.contains(&p) {
            files.push(p);
        }
    }
    files
        .iter()
        .map(|f| {
            let shown = f.strip_prefix(dir).unwrap_or(f).display().to_string();
            let hash = file_sha256(f).unwrap_or_else(|_| "unreadable".into());
            format!("{}={hash}", crate::host::quote(&shown))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where the program `word` is: relative to `dir` when it has a slash, else in `PATH`.
fn resolve(word: &str, dir: &Path) -> Option<PathBuf> {
    if word.contains('/') {
        let p = dir.join(word);
        return p.is_file().then_some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(word))
        .find(|p| p.is_file())
}

/// The SHA-256 of a file's contents, lower-case hex.
pub fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_the_program_and_its_file_arguments() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("prog"), "abc").unwrap();
        std::fs::write(dir.path().join("app.jar"), "").unwrap();
        // SHA-256("abc") and SHA-256("") from FIPS 180-2's examples.
        let words = of_command(
            &[
                "./prog".into(),
                "-jar".into(),
                "app.jar".into(),
                "x=1".into(),
            ],
            dir.path(),
        );
        assert_eq!(
            words,
            "prog=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad \
             app.jar=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // A bare name is found in PATH.
        assert!(of_command(&["sh".into()], dir.path()).contains("/sh="));
        assert_eq!(of_command(&["./missing".into()], dir.path()), "");
    }
}
