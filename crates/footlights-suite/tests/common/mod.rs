//! Running the built `footlights-suite` as a process, the way the harness and a user do.

#![allow(dead_code)] // Each test file uses its own part of this module.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one run may take in a test before it counts as hung.
pub const RUN_LIMIT: Duration = Duration::from_secs(120);

/// What one run of the program did.
#[derive(Debug)]
pub struct Run {
    /// The exit status (`None` if killed by a signal).
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Wall time from just before the process was started until it was seen to end.
    pub elapsed: Duration,
}

/// Runs `footlights-suite ARGS` with `FOOTLIGHTS_THREADS=threads` (unset if `None`), and
/// panics if it takes longer than [`RUN_LIMIT`].
pub fn suite(args: &[&str], threads: Option<&str>) -> Run {
    suite_with(args, threads, &[])
}

/// Like [`suite`], with extra environment variables (the runtime's other settings are
/// removed from the inherited environment first).
pub fn suite_with(args: &[&str], threads: Option<&str>, env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_footlights-suite"));
    command
        .args(args)
        .env_remove("FOOTLIGHTS_THREADS")
        .env_remove("FOOTLIGHTS_BATCH")
        .env_remove("FOOTLIGHTS_SCHEDULER")
        .env_remove("FOOTLIGHTS_POLICY")
        .env_remove("FOOTLIGHTS_PLACEMENT")
        .env_remove("FOOTLIGHTS_MAX_DEDICATED")
        .env_remove("FOOTLIGHTS_STATS")
        .env_remove("FOOTLIGHTS_CPUS")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(threads) = threads {
        command.env("FOOTLIGHTS_THREADS", threads);
    }
    let started = Instant::now();
    let mut child = command.spawn().expect("footlights-suite starts");
    // Read both pipes on their own threads so a full pipe cannot stall the child.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).map(|_| s)
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).map(|_| s)
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for footlights-suite") {
            break status;
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("footlights-suite {args:?} (threads {threads:?}) hung for {RUN_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = started.elapsed();
    Run {
        elapsed,
        status: status.code(),
        stdout: out.join().unwrap().expect("stdout is UTF-8"),
        stderr: err.join().unwrap().expect("stderr is UTF-8"),
    }
}

/// The result line of a successful run's stdout without its `seconds=S` pair (checked
/// present and positive); panics naming the run otherwise.
pub fn result_without_seconds(run: &Run) -> String {
    let line = run
        .stdout
        .strip_suffix('\n')
        .filter(|l| !l.contains('\n'))
        .unwrap_or_else(|| panic!("stdout is not exactly one line: {run:?}"));
    suite_contract::split_seconds(line)
        .unwrap_or_else(|e| panic!("{e}: {run:?}"))
        .0
}

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
