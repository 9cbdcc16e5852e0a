//! The whole process protocol of a suite program, so that every `main.rs` is one call.
//!
//! 1. `--help` or `-h` anywhere among the arguments: print [`help_text`] on stdout, exit 0.
//! 2. Otherwise [`parse`] the arguments; bad input prints `error: MESSAGE` (the
//!    [`ContractError`](crate::ContractError)) as the only line on stderr and exits 2.
//! 3. Run the benchmark. `Err(message)` prints `error: BENCH: MESSAGE` on stderr and exits
//!    1; so does a panic. `Ok(outcome)` prints the result line on stdout and exits 0.
//!
//! The work time (`seconds=` in the result line) starts just before the run function is
//! called, after the arguments are parsed; the program creates its runtime inside that
//! function, and the time ends when it builds its [`Outcome`] (see `output.rs`).
//!
//! [`run_main`] also installs a panic hook for the run: a panic on *any* thread (an
//! actor's, a runtime worker's) prints `error: BENCH: panic at FILE:LINE: MESSAGE` and
//! ends the process with status 1 at once. Actor runtimes tend to catch a panicking
//! actor and carry on without it; in a benchmark that would leave the run waiting for a
//! reply that never comes, and the contract says a failed run must never hang.

use std::any::Any;
use std::ffi::OsString;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Instant;

use crate::bench::Bench;
use crate::help::help_text;
use crate::output::Outcome;
use crate::parse::{Invocation, parse};

/// Exit status of a successful run (and of `--help`).
pub const EXIT_OK: u8 = 0;
/// Exit status of a run that failed.
pub const EXIT_RUN_FAILED: u8 = 1;
/// Exit status of bad input.
pub const EXIT_BAD_INPUT: u8 = 2;

/// Runs a suite program on the process's own arguments and returns its exit code; call
/// it as the whole body of `main`. `run` creates the actor system or runtime itself, so
/// that its start is part of the measured work time.
///
/// ```no_run
/// use suite_contract::{run_main, Bench, Outcome};
/// use std::process::ExitCode;
///
/// fn main() -> ExitCode {
///     run_main("toy-suite", |inv| match inv.bench() {
///         Bench::Counting => Ok(Outcome::new(inv.get("count"))),
///         other => Err(format!("{other} is not implemented")),
///     })
/// }
/// ```
pub fn run_main<F>(program: &str, run: F) -> ExitCode
where
    F: FnOnce(&Invocation) -> Result<Outcome, String>,
{
    let args = std::env::args_os().skip(1).map(lossy);
    let status = run_args(
        program,
        args,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
        |inv| {
            exit_on_panic(inv.bench());
            run(inv)
        },
    );
    ExitCode::from(status)
}

/// The protocol of [`run_main`] on given arguments (without the program name) and
/// streams, returning the exit status instead of exiting, and without the process-wide
/// panic hook (a panic inside `run` on the calling thread is still caught and reported).
///
/// ```
/// use suite_contract::{run_args, Outcome};
///
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let status = run_args("toy", ["fibtree", "n=10"], &mut out, &mut err, |inv| {
///     Ok(Outcome::new(inv.get("n") * 2))
/// });
/// assert_eq!(status, 0);
/// let out = String::from_utf8(out).unwrap();
/// assert!(out.starts_with("result bench=fibtree check=20 seconds=0."), "{out}");
/// assert!(err.is_empty());
///
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let status = run_args("toy", ["fibtree", "n=41"], &mut out, &mut err, |_| unreachable!());
/// assert_eq!(status, 2);
/// assert_eq!(String::from_utf8(err).unwrap(), "error: fibtree: n=41 is out of range (0..=40)\n");
///
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let status = run_args("toy", ["pingpong"], &mut out, &mut err, |_| Err("pong lost".into()));
/// assert_eq!(status, 1);
/// assert!(out.is_empty());
/// assert_eq!(String::from_utf8(err).unwrap(), "error: pingpong: pong lost\n");
/// ```
pub fn run_args<I, S, O, E, F>(program: &str, args: I, out: &mut O, err: &mut E, run: F) -> u8
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
    O: Write,
    E: Write,
    F: FnOnce(&Invocation) -> Result<Outcome, String>,
{
    let args: Vec<S> = args.into_iter().collect();
    if wants_help(&args) {
        return match out
            .write_all(help_text(program).as_bytes())
            .and_then(|()| out.flush())
        {
            Ok(()) => EXIT_OK,
            Err(e) => {
                let _ = writeln!(err, "error: cannot write help: {e}");
                EXIT_RUN_FAILED
            }
        };
    }
    let invocation = match parse(&args) {
        Ok(invocation) => invocation,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let bench = invocation.bench();
    let started = Instant::now();
    let result = panic::catch_unwind(AssertUnwindSafe(|| run(&invocation)))
        .unwrap_or_else(|payload| Err(format!("panic: {}", panic_message(payload.as_ref()))));
    match result {
        Ok(outcome) => {
            let line = outcome.line(bench, started);
            match writeln!(out, "{line}").and_then(|()| out.flush()) {
                Ok(()) => EXIT_OK,
                Err(e) => {
                    let _ = writeln!(err, "error: {bench}: cannot write the result: {e}");
                    EXIT_RUN_FAILED
                }
            }
        }
        Err(message) => {
            let _ = writeln!(err, "error: {bench}: {message}");
            EXIT_RUN_FAILED
        }
    }
}

/// Whether the arguments ask for help: `--help` or `-h` anywhere.
///
/// ```
/// assert!(suite_contract::wants_help(["threadring", "-h"]));
/// assert!(suite_contract::wants_help(["--help"]));
/// assert!(!suite_contract::wants_help(["threadring", "hops=1"]));
/// ```
pub fn wants_help<I, S>(args: I) -> bool
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    args.into_iter()
        .any(|a| matches!(a.as_ref(), "--help" | "-h"))
}

/// Replaces the panic hook: report one line and exit with status 1, from any thread.
fn exit_on_panic(bench: Bench) {
    panic::set_hook(Box::new(move |info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let thread = std::thread::current();
        let thread = thread.name().unwrap_or("unnamed");
        eprintln!(
            "error: {bench}: panic{place} (thread {thread}): {}",
            panic_message(info.payload())
        );
        std::process::exit(i32::from(EXIT_RUN_FAILED));
    }));
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_owned()
    }
}

fn lossy(arg: OsString) -> String {
    arg.into_string()
        .unwrap_or_else(|a| a.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(
        args: &[&str],
        run: impl FnOnce(&Invocation) -> Result<Outcome, String>,
    ) -> (u8, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let status = run_args("toy", args, &mut out, &mut err, run);
        (
            status,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn help_goes_to_stdout_and_exits_zero() {
        for args in [
            &["--help"][..],
            &["-h"],
            &["threadring", "-h"],
            &["nope", "--help"],
        ] {
            let (status, out, err) = run_with(args, |_| unreachable!());
            assert_eq!(status, 0);
            assert!(out.starts_with("Usage: toy BENCH"));
            assert!(err.is_empty());
        }
    }

    #[test]
    fn bad_input_is_one_line_on_stderr_and_exit_two() {
        let cases: &[&[&str]] = &[
            &[],
            &["foo"],
            &["threadring", "hops"],
            &["threadring", "foo=1"],
            &["threadring", "hops=1", "hops=5"],
            &["threadring", "hops=abc"],
            &["fannkuch", "n=13"],
            &["skynet", "size=1000", "div=7"],
        ];
        for args in cases {
            let (status, out, err) = run_with(args, |_| unreachable!());
            assert_eq!(status, 2, "{args:?}");
            assert!(out.is_empty(), "{args:?}");
            assert!(err.starts_with("error: "), "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.ends_with('\n'));
        }
        let (_, _, err) = run_with(&["skynet", "size=1000", "div=7"], |_| unreachable!());
        assert_eq!(err, "error: skynet: size=1000 is not a power of div=7\n");
        let (_, _, err) = run_with(&["threadring", "hops=1", "hops=5"], |_| unreachable!());
        assert_eq!(err, "error: threadring: parameter hops=5 given twice\n");
    }

    #[test]
    fn success_prints_exactly_the_result_line() {
        let (status, out, err) = run_with(&["chameneos", "creatures=3"], |inv| {
            Ok(Outcome::new(inv.get("creatures")).with("counts", "1,1,1"))
        });
        assert_eq!(status, 0);
        let (head, rest) = out.split_once(" seconds=").expect(&out);
        assert_eq!(head, "result bench=chameneos check=3");
        let (seconds, rest) = rest.split_once(' ').expect(&out);
        assert!(seconds.parse::<f64>().is_ok_and(|s| s >= 0.0), "{out}");
        assert_eq!(rest, "counts=1,1,1\n");
        assert!(err.is_empty());
    }

    /// seconds= covers what the run function does before it builds its outcome (where a
    /// program creates its runtime and does the work), and not what it does after.
    #[test]
    fn seconds_time_the_run_until_the_outcome_is_built() {
        let (status, out, _) = run_with(&["counting"], |_| {
            std::thread::sleep(std::time::Duration::from_millis(40));
            let outcome = Outcome::new(1);
            std::thread::sleep(std::time::Duration::from_millis(300));
            Ok(outcome)
        });
        assert_eq!(status, 0);
        let seconds: f64 = out
            .trim_end()
            .strip_prefix("result bench=counting check=1 seconds=")
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{out}"));
        assert!((0.040..0.300).contains(&seconds), "{out}");
    }

    #[test]
    fn run_error_is_named_and_exits_one() {
        let (status, out, err) = run_with(&["bang"], |_| Err("receiver stopped".into()));
        assert_eq!((status, out.as_str()), (1, ""));
        assert_eq!(err, "error: bang: receiver stopped\n");
    }

    #[test]
    fn panic_in_run_exits_one() {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(|_| {}));
        let (status, out, err) = run_with(&["counting"], |_| panic!("lost count"));
        panic::set_hook(previous);
        assert_eq!((status, out.as_str()), (1, ""));
        assert_eq!(err, "error: counting: panic: lost count\n");
    }

    #[test]
    fn failed_stdout_write_exits_one() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("closed"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut err = Vec::new();
        let status = run_args("toy", ["pingpong"], &mut Broken, &mut err, |_| {
            Ok(Outcome::new(1))
        });
        assert_eq!(status, 1);
        assert!(
            String::from_utf8(err)
                .unwrap()
                .contains("cannot write the result")
        );
    }
}
