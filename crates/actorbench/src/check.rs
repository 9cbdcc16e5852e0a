//! Judging an answer: the expected check, computed from the parameters as the contract
//! defines it, against the `result` line the program printed.
//!
//! The program's standard output must be exactly one line `result bench=NAME check=VALUE
//! seconds=S ...` (other `key=value` pairs are allowed). The verdict is one of:
//!
//! - `ok`: the line is there, names the benchmark, and its check equals the expected one
//!   (for chameneos also: `counts` has one entry per creature and sums to `2*meetings`);
//! - `bad-output`: no result line, a malformed one (including a missing or invalid
//!   `seconds`), or anything else on stdout;
//! - `wrong-answer`: a well-formed line with the wrong check, bench or counts.
//!
//! `seconds` is the program's own work time (see [`work_seconds`]): a positive number, no
//! longer than the wall time the harness measured around the whole process. The harness
//! takes start-up as wall time minus `seconds`.
//!
//! Expected checks are closed forms of the parameters except for fannkuch, whose checksum
//! and maximum flips for `n` come from a table of known values or, for other `n`, from a
//! plain sequential fannkuch-redux computed here, and the ten Savina benchmarks, whose
//! checks come from a sequential simulation of their generator draws (`savina.rs`).

use crate::fairness::Fairness;
use crate::params::Params;

/// The check value the contract expects for `bench` with `params`.
pub fn expected(bench: &str, p: &Params) -> Option<String> {
    let g = |name: &str| p.get(name).map(u128::from);
    Some(match bench {
        "threadring" => ((g("hops")? % g("actors")?.max(1)) + 1).to_string(),
        "chameneos" => (2 * g("meetings")?).to_string(),
        "big" => (g("workers")? * g("pings")?).to_string(),
        "fannkuch" => {
            let (checksum, flips) = fannkuch(p.get("n")? as usize);
            format!("{checksum}:{flips}")
        }
        "fibtree" => fib(p.get("n")?).to_string(),
        "skynet" => {
            let size = g("size")?;
            (size * size.saturating_sub(1) / 2).to_string()
        }
        "spreading" => (1u128 << p.get("depth")?.min(100)).to_string(),
        "mixed" => (g("rings")? * g("reps")?).to_string(),
        "bang" => (g("senders")? * g("messages")?).to_string(),
        "serialmsg" => (g("pairs")? * g("messages")?).to_string(),
        "pingpong" => g("pings")?.to_string(),
        "counting" => g("count")?.to_string(),
        _ => {
            // The Savina ten: a sequential simulation of the same draws (savina.rs).
            let spec = crate::contract::find(bench)?;
            let values: Option<Vec<u64>> = spec.params.iter().map(|s| p.get(s.name)).collect();
            return crate::savina::expected(bench, &values?);
        }
    })
}

fn fib(n: u64) -> u128 {
    let (mut a, mut b) = (0u128, 1u128);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

/// Fannkuch-redux checksum and maximum flips for `n`: the contract's known values, or a
/// sequential computation for the small `n` the contract does not list.
pub fn fannkuch(n: usize) -> (i64, u32) {
    match n {
        7 => (228, 16),
        10 => (73196, 38),
        11 => (556355, 51),
        12 => (3968050, 65),
        _ => fannkuch_sequential(n),
    }
}

/// Fannkuch-redux, one thread: walk the permutations of `0..n` in the benchmark's order
/// (each next permutation rotates a prefix, driven by a factorial-base counter); for each,
/// count the prefix reversals until the first element is 0; the checksum adds the count
/// for even and subtracts it for odd permutation indices.
pub fn fannkuch_sequential(n: usize) -> (i64, u32) {
    if n == 0 {
        return (0, 0);
    }
    let mut perm: Vec<usize> = (0..n).collect();
    let mut work = vec![0usize; n];
    let mut count = vec![0usize; n];
    let (mut checksum, mut max_flips, mut index) = (0i64, 0u32, 0u64);
    let mut r = n;
    loop {
        while r > 1 {
            count[r - 1] = r;
            r -= 1;
        }
        work.copy_from_slice(&perm);
        let mut flips = 0u32;
        while work[0] != 0 {
            let k = work[0];
            work[..=k].reverse();
            flips += 1;
        }
        max_flips = max_flips.max(flips);
        checksum += if index % 2 == 0 {
            flips as i64
        } else {
            -(flips as i64)
        };
        // Next permutation: rotate the first r+1 elements left by one, as long as the
        // counter for that position runs out.
        loop {
            if r == n {
                return (checksum, max_flips);
            }
            perm[..=r].rotate_left(1);
            count[r] -= 1;
            if count[r] > 0 {
                break;
            }
            r += 1;
        }
        index += 1;
    }
}

/// A parsed `result` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultLine {
    /// The line as printed.
    pub raw: String,
    /// Its `key=value` pairs in order.
    pub fields: Vec<(String, String)>,
}

impl ResultLine {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// How an answer was judged.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Right.
    Ok,
    /// No well-formed result line, or other output on stdout.
    BadOutput(String),
    /// Well formed, but wrong.
    WrongAnswer(String),
}

/// The judgement of one run's standard output.
#[derive(Debug, Clone)]
pub struct Judgement {
    /// The verdict.
    pub verdict: Verdict,
    /// What the harness expected.
    pub expected: Option<String>,
    /// The result line, if one was found.
    pub line: Option<ResultLine>,
    /// Chameneos counts, if printed and parseable.
    pub counts: Option<Vec<u64>>,
    /// Chameneos fairness, when the counts are valid.
    pub fairness: Option<Fairness>,
    /// The work time the program printed (`seconds=`), when it is valid.
    pub work_s: Option<f64>,
}

/// The work time of a result line: its `seconds` value, which must be a positive, finite
/// number (decimal, exponent allowed: `0.0123`, `1.2e-5`) no longer than `wall_s`, the
/// wall time of the whole process. The error says which rule was broken.
///
/// ```
/// use actorbench::check::{parse_stdout, work_seconds};
/// let line = parse_stdout("result bench=pingpong check=1 seconds=0.25").unwrap();
/// assert_eq!(work_seconds(&line, 0.3), Ok(0.25));
/// assert!(work_seconds(&line, 0.2).unwrap_err().contains("longer than"));
/// ```
pub fn work_seconds(line: &ResultLine, wall_s: f64) -> Result<f64, String> {
    let Some(raw) = line.get("seconds") else {
        return Err("result line lacks seconds= (the work time the contract requires)".into());
    };
    let number = raw
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && !raw.starts_with('+'));
    let Some(seconds) = number else {
        return Err(format!("seconds={raw} is not a positive number of seconds"));
    };
    if seconds > wall_s {
        return Err(format!(
            "seconds={raw} is longer than the process's wall time ({})",
            crate::output::units::seconds(wall_s)
        ));
    }
    Ok(seconds)
}

/// Finds the result line in `stdout`; anything else on stdout is an error.
pub fn parse_stdout(stdout: &str) -> Result<ResultLine, String> {
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    let results: Vec<&&str> = lines.iter().filter(|l| l.starts_with("result ")).collect();
    let line = match results.as_slice() {
        [] => {
            let first = lines.first().map(|l| shorten(l, 80)).unwrap_or_default();
            return Err(if lines.is_empty() {
                "no result line on stdout (stdout was empty)".into()
            } else {
                format!("no result line on stdout (it began with: {first})")
            });
        }
        [one] => one.trim_end(),
        _ => {
            return Err(format!(
                "{} result lines on stdout, expected one",
                results.len()
            ));
        }
    };
    if lines.len() > 1 {
        return Err(format!(
            "{} other lines on stdout besides the result line",
            lines.len() - 1
        ));
    }
    let mut fields = Vec::new();
    for word in line["result ".len()..].split_whitespace() {
        let Some((k, v)) = word.split_once('=') else {
            return Err(format!("malformed result line: '{word}' is not key=value"));
        };
        fields.push((k.to_string(), v.to_string()));
    }
    Ok(ResultLine {
        raw: line.to_string(),
        fields,
    })
}

fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// Judges `stdout` (and whether it was truncated) of a run of `bench` with `params` whose
/// process took `wall_s` seconds of wall time.
pub fn judge(
    bench: &str,
    params: &Params,
    stdout: &str,
    truncated: bool,
    wall_s: f64,
) -> Judgement {
    let expected = expected(bench, params);
    let mut j = Judgement {
        verdict: Verdict::Ok,
        expected: expected.clone(),
        line: None,
        counts: None,
        fairness: None,
        work_s: None,
    };
    if truncated {
        j.verdict = Verdict::BadOutput("stdout flooded: more output than the harness keeps".into());
        return j;
    }
    let line = match parse_stdout(stdout) {
        Ok(l) => l,
        Err(e) => {
            j.verdict = Verdict::BadOutput(e);
            return j;
        }
    };
    j.line = Some(line.clone());
    let Some(got_bench) = line.get("bench") else {
        j.verdict = Verdict::BadOutput("result line lacks bench=".into());
        return j;
    };
    let Some(check) = line.get("check") else {
        j.verdict = Verdict::BadOutput("result line lacks check=".into());
        return j;
    };
    if got_bench != bench {
        j.verdict = Verdict::WrongAnswer(format!("bench={got_bench}, expected bench={bench}"));
        return j;
    }
    match work_seconds(&line, wall_s) {
        Ok(s) => j.work_s = Some(s),
        Err(e) => {
            j.verdict = Verdict::BadOutput(e);
            return j;
        }
    }
    if bench == "chameneos" {
        let creatures = params.get("creatures").unwrap_or(0) as usize;
        let meetings = params.get("meetings").unwrap_or(0);
        match line.get("counts").map(parse_counts) {
            None => {
                j.verdict = Verdict::BadOutput("chameneos result line lacks counts=".into());
                return j;
            }
            Some(Err(e)) => {
                j.verdict = Verdict::BadOutput(e);
                return j;
            }
            Some(Ok(counts)) => {
                let sum: u128 = counts.iter().map(|&c| c as u128).sum();
                if counts.len() != creatures {
                    j.verdict = Verdict::WrongAnswer(format!(
                        "counts has {} entries, expected one per creature ({creatures})",
                        counts.len()
                    ));
                } else if sum != 2 * meetings as u128 {
                    j.verdict = Verdict::WrongAnswer(format!(
                        "counts sum to {sum}, expected 2*meetings = {}",
                        2 * meetings
                    ));
                } else {
                    j.fairness = Some(Fairness::of(&counts, meetings));
                }
                j.counts = Some(counts);
                if j.verdict != Verdict::Ok {
                    return j;
                }
            }
        }
    }
    match &expected {
        Some(e) if e != check => {
            j.verdict = Verdict::WrongAnswer(format!("check={check}, expected check={e}"))
        }
        None => {
            j.verdict =
                Verdict::WrongAnswer(format!("no expected check known for benchmark {bench}"))
        }
        _ => {}
    }
    j
}

fn parse_counts(s: &str) -> Result<Vec<u64>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    s.split(',')
        .map(|c| {
            c.parse::<u64>()
                .map_err(|_| format!("counts: '{c}' is not a non-negative integer"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Params {
        Params::parse_words(s.split_whitespace()).unwrap()
    }

    #[test]
    fn sequential_fannkuch_matches_the_known_values() {
        assert_eq!(fannkuch_sequential(3), (2, 2));
        assert_eq!(fannkuch_sequential(5), (11, 7));
        assert_eq!(fannkuch_sequential(7), (228, 16));
        assert_eq!(fannkuch_sequential(9), (8629, 30));
    }

    #[test]
    fn expected_checks_match_the_vectors() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/vectors.tsv");
        let text = std::fs::read_to_string(path).expect("the repository's docs/vectors.tsv");
        let mut n = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(
                expected(cols[0], &p(cols[1])).as_deref(),
                Some(cols[2]),
                "{line}"
            );
            n += 1;
        }
        assert!(n > 30);
    }

    #[test]
    fn a_long_chameneos_line_is_fine() {
        let counts = vec!["2"; 100_000].join(",");
        let line = format!("result bench=chameneos check=200000 seconds=0.5 counts={counts}\n");
        let j = judge(
            "chameneos",
            &p("creatures=100000 meetings=100000"),
            &line,
            false,
            1.0,
        );
        assert_eq!(j.verdict, Verdict::Ok);
        assert_eq!(j.fairness.unwrap().jain, 1.0);
    }

    #[test]
    fn judges_answers() {
        let params = p("actors=3 hops=10");
        let judged = |out: &str| judge("threadring", &params, out, false, 1.0).verdict;
        assert_eq!(
            judged("result bench=threadring check=2 seconds=0.01\n"),
            Verdict::Ok
        );
        assert!(matches!(
            judged("result bench=threadring check=3 seconds=0.01\n"),
            Verdict::WrongAnswer(_)
        ));
        assert!(matches!(judged(""), Verdict::BadOutput(_)));
        assert!(matches!(
            judged("hello\nresult bench=threadring check=2 seconds=0.01\n"),
            Verdict::BadOutput(_)
        ));
        let cp = p("creatures=3 meetings=3");
        let j = judge(
            "chameneos",
            &cp,
            "result bench=chameneos check=6 seconds=1e-3 counts=2,2,2",
            false,
            1.0,
        );
        assert_eq!(j.verdict, Verdict::Ok);
        assert_eq!(j.work_s, Some(1e-3));
        assert_eq!(j.fairness.unwrap().jain, 1.0);
        let j = judge(
            "chameneos",
            &cp,
            "result bench=chameneos check=6 seconds=0.1 counts=3,3",
            false,
            1.0,
        );
        assert!(matches!(j.verdict, Verdict::WrongAnswer(_)));
    }

    #[test]
    fn refuses_a_missing_or_invalid_work_time() {
        let params = p("actors=3 hops=10");
        let why =
            |line: &str, wall: f64| match judge("threadring", &params, line, false, wall).verdict {
                Verdict::BadOutput(why) => why,
                v => panic!("{line}: {v:?}"),
            };
        assert!(
            why("result bench=threadring check=2", 1.0).contains("lacks seconds="),
            "missing"
        );
        for bad in ["abc", "0", "0.000", "-0.5", "nan", "inf", "+1", ""] {
            let w = why(
                &format!("result bench=threadring check=2 seconds={bad}"),
                1.0,
            );
            assert!(
                w.contains(&format!("seconds={bad} is not a positive number")),
                "{bad}: {w}"
            );
        }
        let w = why("result bench=threadring check=2 seconds=1.5", 1.25);
        assert!(
            w.contains("seconds=1.5 is longer than the process's wall time (1.250 s)"),
            "{w}"
        );
        let ok = judge(
            "threadring",
            &params,
            "result bench=threadring check=2 seconds=1.25",
            false,
            1.25,
        );
        assert_eq!((ok.verdict, ok.work_s), (Verdict::Ok, Some(1.25)));
    }
}
