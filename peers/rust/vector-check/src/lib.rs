//! Runs a suite binary the way the harness does, as a process, and checks it against the
//! contract: every line of the shared test vectors at the given thread counts (the check,
//! and a work time `seconds` that is positive and no longer than the process's wall time),
//! and every shape of bad input.
//!
//! Each peer's integration test is a few lines over this crate (there the binary's path
//! is `env!("CARGO_BIN_EXE_ractor-suite")`):
//!
//! ```no_run
//! let suite = vector_check::Suite::new("target/release/ractor-suite", "TOKIO_WORKER_THREADS");
//! vector_check::check_vectors(&suite, &[1, 2]);
//! vector_check::check_bad_input(&suite);
//! ```
//!
//! The vectors file is `$VECTORS` if set, else the repository's `docs/vectors.tsv`
//! (`../../docs/vectors.tsv`); a
//! relative path is taken from `peers/rust` (the workspace root). Every run has a time
//! limit ([`RUN_LIMIT`]); a run that exceeds it is killed and reported as a hang, so a
//! broken benchmark fails the test instead of stalling it. Failures are collected and
//! reported together, one line each.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long one run may take before it counts as a hang.
pub const RUN_LIMIT: Duration = Duration::from_secs(120);

/// The default vectors file, relative to `peers/rust`.
pub const DEFAULT_VECTORS: &str = "../../docs/vectors.tsv";

/// A suite binary and the environment variable that sets its thread count.
#[derive(Clone, Debug)]
pub struct Suite {
    binary: PathBuf,
    thread_var: &'static str,
}

/// What one process run produced.
#[derive(Clone, Debug)]
pub struct Run {
    /// The exit code, or `None` if it was killed (signal or time limit).
    pub status: Option<i32>,
    /// Everything written on stdout.
    pub stdout: String,
    /// Everything written on stderr.
    pub stderr: String,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// Whether the run was killed for exceeding [`RUN_LIMIT`].
    pub timed_out: bool,
}

/// One line of the vectors file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vector {
    /// The benchmark name.
    pub bench: String,
    /// The `NAME=VALUE` arguments.
    pub params: Vec<String>,
    /// The check the program must print.
    pub check: String,
    /// The 1-based line number in the file, for messages.
    pub line: usize,
}

impl Suite {
    /// The binary at `binary` (as `env!("CARGO_BIN_EXE_...")` gives it), whose threads
    /// are set by the environment variable `thread_var`.
    pub fn new(binary: impl Into<PathBuf>, thread_var: &'static str) -> Suite {
        Suite {
            binary: binary.into(),
            thread_var,
        }
    }

    /// Runs the binary with `args`, with `threads` in its thread variable if given (and
    /// the variable removed otherwise), killing it after [`RUN_LIMIT`].
    pub fn run(&self, args: &[&str], threads: Option<u32>) -> Run {
        let mut command = Command::new(&self.binary);
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match threads {
            Some(t) => command.env(self.thread_var, t.to_string()),
            None => command.env_remove(self.thread_var),
        };
        let start = Instant::now();
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.binary.display()));
        let stdout = drain(child.stdout.take().expect("piped stdout"));
        let stderr = drain(child.stderr.take().expect("piped stderr"));
        let mut timed_out = false;
        let status = loop {
            match child.try_wait().expect("waiting for the suite process") {
                Some(status) => break status,
                None if start.elapsed() > RUN_LIMIT => {
                    timed_out = true;
                    let _ = child.kill();
                    break child.wait().expect("reaping the killed suite process");
                }
                None => thread::sleep(Duration::from_millis(5)),
            }
        };
        let elapsed = start.elapsed();
        Run {
            status: status.code(),
            stdout: stdout.join().expect("stdout reader"),
            stderr: stderr.join().expect("stderr reader"),
            elapsed,
            timed_out,
        }
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// The path of the vectors file: `$VECTORS` or [`DEFAULT_VECTORS`], relative paths taken
/// from `peers/rust`.
pub fn vectors_path() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let given = std::env::var_os("VECTORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_VECTORS));
    if given.is_absolute() {
        given
    } else {
        root.join(given)
    }
}

/// Parses the vectors file: tab-separated `bench`, space-separated params, `check`;
/// lines starting with `#` and blank lines are skipped.
///
/// ```
/// let v = vector_check::parse_vectors("# header\nthreadring\tactors=3 hops=10\t2\n").unwrap();
/// assert_eq!(v[0].bench, "threadring");
/// assert_eq!(v[0].params, ["actors=3", "hops=10"]);
/// assert_eq!((v[0].check.as_str(), v[0].line), ("2", 2));
/// ```
pub fn parse_vectors(text: &str) -> Result<Vec<Vector>, String> {
    let mut vectors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [bench, params, check] = fields[..] else {
            return Err(format!(
                "line {}: expected 3 tab-separated fields: {line:?}",
                i + 1
            ));
        };
        vectors.push(Vector {
            bench: bench.trim().to_owned(),
            params: params.split_whitespace().map(str::to_owned).collect(),
            check: check.trim().to_owned(),
            line: i + 1,
        });
    }
    Ok(vectors)
}

/// Reads and parses the vectors file, panicking with the path if it cannot.
pub fn load_vectors() -> Vec<Vector> {
    let path = vectors_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the vectors file {} ({e}); set VECTORS to its path",
            path.display()
        )
    });
    let vectors = parse_vectors(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!vectors.is_empty(), "{} holds no vectors", path.display());
    vectors
}

/// What is wrong with a run that should have printed `check` for `vector`, if anything.
pub fn judge(vector: &Vector, run: &Run) -> Result<(), String> {
    if run.timed_out {
        return Err(format!("no answer within {RUN_LIMIT:?} (killed)"));
    }
    if run.status != Some(0) {
        return Err(format!(
            "exit status {:?}, stderr: {}",
            run.status,
            run.stderr.trim()
        ));
    }
    let Some(line) = run.stdout.strip_suffix('\n').filter(|l| !l.contains('\n')) else {
        return Err(format!("stdout is not exactly one line: {:?}", run.stdout));
    };
    let (line, seconds) = suite_contract::split_seconds(line)?;
    if seconds > run.elapsed.as_secs_f64() {
        return Err(format!(
            "seconds={seconds} is longer than the process's wall time ({:.6} s)",
            run.elapsed.as_secs_f64()
        ));
    }
    let line = line.as_str();
    let expected = format!("result bench={} check={}", vector.bench, vector.check);
    let extra = line
        .strip_prefix(&expected)
        .filter(|rest| rest.is_empty() || rest.starts_with(' '))
        .ok_or_else(|| format!("printed {line:?}, expected {expected:?}"))?;
    if vector.bench == "chameneos" {
        check_counts(vector, extra)?;
    }
    Ok(())
}

/// chameneos: `counts=` has one entry per creature and they add up to the check.
fn check_counts(vector: &Vector, extra: &str) -> Result<(), String> {
    let counts = extra
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("counts="))
        .ok_or_else(|| format!("no counts= in {extra:?}"))?;
    let counts: Vec<u64> = counts
        .split(',')
        .map(|c| c.parse().map_err(|_| format!("bad count {c:?}")))
        .collect::<Result<_, _>>()?;
    let creatures = vector
        .params
        .iter()
        .find_map(|p| p.strip_prefix("creatures="))
        .map_or(70, |c| c.parse().expect("creatures in the vectors file"));
    if counts.len() != creatures {
        return Err(format!("{} counts for {creatures} creatures", counts.len()));
    }
    let sum: u64 = counts.iter().sum();
    if sum.to_string() != vector.check {
        return Err(format!("counts add up to {sum}, check is {}", vector.check));
    }
    Ok(())
}

/// Runs every vector at each thread count in `threads`; panics listing every failure.
/// Each run's time is written to stderr (visible with `--nocapture`).
pub fn check_vectors(suite: &Suite, threads: &[u32]) {
    let mut failures = Vec::new();
    let vectors = load_vectors();
    for &t in threads {
        for vector in &vectors {
            let mut args = vec![vector.bench.as_str()];
            args.extend(vector.params.iter().map(String::as_str));
            let run = suite.run(&args, Some(t));
            eprintln!(
                "{:>8.3}s  {}={t}  {}",
                run.elapsed.as_secs_f64(),
                suite.thread_var,
                args.join(" ")
            );
            if let Err(why) = judge(vector, &run) {
                failures.push(format!(
                    "line {} `{}` at {}={t}: {why}",
                    vector.line,
                    args.join(" "),
                    suite.thread_var
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} runs failed:\n{}",
        failures.len(),
        vectors.len() * threads.len(),
        failures.join("\n")
    );
}

/// The bad-input cases: arguments and the exact stderr line each must produce.
pub fn bad_input_cases() -> Vec<(Vec<&'static str>, String)> {
    let known = "threadring, chameneos, big, fannkuch, fibtree, skynet, spreading, mixed, \
                 bang, serialmsg, pingpong, counting";
    vec![
        (
            vec![],
            format!("error: no benchmark given (known: {known})"),
        ),
        (
            vec!["foo"],
            format!("error: unknown benchmark 'foo' (known: {known})"),
        ),
        (
            vec!["threadring", "hops"],
            "error: threadring: argument 'hops' is not NAME=VALUE".into(),
        ),
        (
            vec!["threadring", "foo=1"],
            "error: threadring: unknown parameter foo=1 (known: actors, hops)".into(),
        ),
        (
            vec!["threadring", "hops=4", "hops=5"],
            "error: threadring: parameter hops=5 given twice".into(),
        ),
        (
            vec!["threadring", "hops=abc"],
            "error: threadring: hops=abc is not a non-negative integer".into(),
        ),
        (
            vec!["threadring", "hops=-1"],
            "error: threadring: hops=-1 is not a non-negative integer".into(),
        ),
        (
            vec!["fannkuch", "n=13"],
            "error: fannkuch: n=13 is out of range (3..=12)".into(),
        ),
        (
            vec!["fibtree", "n=41"],
            "error: fibtree: n=41 is out of range (0..=40)".into(),
        ),
        (
            vec!["chameneos", "creatures=1"],
            "error: chameneos: creatures=1 is out of range (2..=1000000)".into(),
        ),
        (
            vec!["mixed", "ring_size=1"],
            "error: mixed: ring_size=1 is out of range (2..=100000)".into(),
        ),
        (
            vec!["skynet", "size=1000", "div=7"],
            "error: skynet: size=1000 is not a power of div=7".into(),
        ),
    ]
}

/// Runs every bad-input case: exit status 2, nothing on stdout, exactly the expected
/// line on stderr. Also checks that `--help` exits 0 with the usage on stdout. Panics
/// listing every failure.
pub fn check_bad_input(suite: &Suite) {
    let mut failures = Vec::new();
    for (args, expected) in bad_input_cases() {
        let run = suite.run(&args, Some(1));
        let ok =
            run.status == Some(2) && run.stdout.is_empty() && run.stderr == format!("{expected}\n");
        if !ok {
            failures.push(format!(
                "{args:?}: status {:?}, stdout {:?}, stderr {:?}, expected {expected:?}",
                run.status, run.stdout, run.stderr
            ));
        }
    }
    for flag in ["--help", "-h"] {
        let run = suite.run(&[flag], None);
        if run.status != Some(0) || !run.stdout.starts_with("Usage: ") {
            failures.push(format!(
                "{flag}: status {:?}, stdout {:?}",
                run.status, run.stdout
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "bad input handled wrongly:\n{}",
        failures.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A successful run of one second that printed `stdout`.
    fn run_with(stdout: &str) -> Run {
        Run {
            status: Some(0),
            stdout: stdout.into(),
            stderr: String::new(),
            elapsed: Duration::from_secs(1),
            timed_out: false,
        }
    }

    fn vector(bench: &str, params: &[&str], check: &str) -> Vector {
        Vector {
            bench: bench.into(),
            params: params.iter().map(|s| s.to_string()).collect(),
            check: check.into(),
            line: 1,
        }
    }

    #[test]
    fn judge_accepts_exact_line_only() {
        let v = vector("fibtree", &["n=10"], "55");
        let ok = |line: &str| judge(&v, &run_with(line)).is_ok();
        assert!(ok("result bench=fibtree check=55 seconds=0.5\n"));
        assert!(!ok("result bench=fibtree check=550 seconds=0.5\n"));
        assert!(!ok("result bench=fibtree check=55 seconds=0.5"));
        assert!(!ok("hello\nresult bench=fibtree check=55 seconds=0.5\n"));
        assert!(ok("result bench=fibtree check=55 seconds=0.5 x=1\n"));
    }

    #[test]
    fn judge_wants_a_positive_work_time_within_the_wall_time() {
        let v = vector("fibtree", &["n=10"], "55");
        let why = |line: &str| judge(&v, &run_with(line)).unwrap_err();
        assert!(why("result bench=fibtree check=55\n").contains("no seconds="));
        assert!(why("result bench=fibtree check=55 seconds=0\n").contains("not a positive"));
        assert!(why("result bench=fibtree check=55 seconds=-1\n").contains("not a positive"));
        assert!(why("result bench=fibtree check=55 seconds=x\n").contains("not a positive"));
        assert!(why("result bench=fibtree check=55 seconds=1.5\n").contains("wall time"));
        let twice = "result bench=fibtree check=55 seconds=0.1 seconds=0.2\n";
        assert!(why(twice).contains("twice"));
    }

    #[test]
    fn judge_checks_chameneos_counts() {
        let v = vector("chameneos", &["creatures=3", "meetings=3"], "6");
        let ok = |line: &str| judge(&v, &run_with(line)).is_ok();
        assert!(ok(
            "result bench=chameneos check=6 seconds=0.1 counts=2,2,2\n"
        ));
        assert!(!ok(
            "result bench=chameneos check=6 seconds=0.1 counts=2,2\n"
        ));
        assert!(!ok(
            "result bench=chameneos check=6 seconds=0.1 counts=2,2,1\n"
        ));
        assert!(!ok("result bench=chameneos check=6 seconds=0.1\n"));
    }

    #[test]
    fn the_shared_vectors_parse() {
        let vectors = load_vectors();
        assert!(vectors.iter().any(|v| v.bench == "skynet"));
    }
}
