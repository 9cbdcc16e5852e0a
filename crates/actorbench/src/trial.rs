//! One trial: run one implementation once on one benchmark, parameter set and core count,
//! then turn what happened into a [`RunRecord`].
//!
//! The process is pinned to the first `cores` CPUs the harness may use and told to use
//! `cores` threads (through its `threads_env` variable and/or `{threads}`). Its status is
//! the first that applies: `spawn` (it could not be started), `timeout` (the harness
//! killed its group at the timeout), `memory-limit` (the harness killed its group for
//! holding more memory than the limit), `signal`, `exit` (non-zero status), then the
//! answer's verdict:
//! `bad-output`, `wrong-answer` or `ok`. A trial killed by Ctrl-C yields no record.

use std::path::Path;
use std::time::Duration;

use crate::check::{self, Verdict};
use crate::exec::{self, Exit, Killed};
use crate::host;
use crate::output::units;
use crate::params::Params;
use crate::store::RunRecord;
use crate::suite::Implementation;

/// Characters of stderr kept in the record of a failed run.
pub const FAILED_STDERR_TAIL: usize = 2000;
/// Characters of stderr kept in the record of a successful run.
pub const OK_STDERR_TAIL: usize = 300;

/// What to run.
pub struct Trial<'a> {
    /// The implementation.
    pub implementation: &'a Implementation,
    /// Benchmark name.
    pub bench: &'a str,
    /// Its parameters.
    pub params: &'a Params,
    /// Cores to pin to and threads to ask for.
    pub cores: usize,
    /// Wall-clock limit.
    pub timeout: Duration,
    /// Resident-memory limit of the run's process group, in bytes (`None`: no limit).
    pub memory_limit: Option<u64>,
    /// The suite's directory, where it runs.
    pub dir: &'a Path,
    /// Variables of the harness's environment the run does not inherit (see
    /// [`crate::knobs`]).
    pub env_remove: &'a [String],
}

/// The command of a trial as one shell-quoted line, environment first.
pub fn command_line(t: &Trial<'_>) -> String {
    let (argv, env) = t.implementation.command(t.bench, t.params, t.cores);
    env.iter()
        .map(|(k, v)| format!("{k}={}", host::quote(v)))
        .chain(argv.iter().map(|a| host::quote(a)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the trial; `None` when it was interrupted by the user.
pub fn run(t: &Trial<'_>) -> Option<RunRecord> {
    let (argv, env) = t.implementation.command(t.bench, t.params, t.cores);
    let cpus: Vec<usize> = exec::allowed_cpus().into_iter().take(t.cores).collect();
    let mut rec = RunRecord {
        implementation: t.implementation.name.clone(),
        bench: t.bench.to_string(),
        params: t.params.to_string(),
        cores: t.cores as i64,
        started_at: host::now_rfc3339(),
        command: command_line(t),
        expected_check: check::expected(t.bench, t.params),
        ..Default::default()
    };
    let spec = exec::Spec {
        argv: argv.clone(),
        env,
        env_remove: t.env_remove.to_vec(),
        cwd: t.dir.to_path_buf(),
        cpus: Some(cpus),
        timeout: t.timeout,
        memory_limit: t.memory_limit,
        counters: true,
    };
    let outcome = match exec::run(&spec) {
        Ok(o) => o,
        Err(e) => {
            if exec::interrupted() {
                return None;
            }
            rec.status = "spawn".into();
            rec.detail = format!(
                "could not start {}: {e}",
                argv.first().map_or("", String::as_str)
            );
            return Some(rec);
        }
    };
    if outcome.killed == Some(Killed::Interrupted) {
        return None;
    }
    let m = &outcome.measurement;
    rec.wall_s = m.wall_s;
    rec.user_s = m.user_s;
    rec.sys_s = m.sys_s;
    rec.cpu_util = m.cpu_util();
    rec.max_rss_bytes = m.max_rss_bytes as i64;
    rec.voluntary_switches = m.voluntary_switches as i64;
    rec.involuntary_switches = m.involuntary_switches as i64;
    rec.counters = outcome.counters.clone();
    rec.stdout_bytes = outcome.stdout.total() as i64;
    rec.stderr_bytes = outcome.stderr.total() as i64;
    match outcome.exit {
        Exit::Code(c) => rec.exit_code = Some(c as i64),
        Exit::Signal(s) => rec.signal = Some(s as i64),
    }
    let stdout = outcome.stdout.text();
    let judgement = check::judge(
        t.bench,
        t.params,
        &stdout,
        outcome.stdout.truncated(),
        m.wall_s,
    );
    rec.work_s = judgement.work_s;
    if let Some(line) = &judgement.line {
        rec.result_line = Some(line.raw.clone());
        rec.check_value = line.get("check").map(str::to_string);
    }
    if let Some(counts) = &judgement.counts {
        rec.counts = Some(
            counts
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(","),
        );
    }
    if let Some(f) = &judgement.fairness {
        rec.fairness_stddev = Some(f.stddev);
        rec.fairness_cv = Some(f.cv);
        rec.fairness_jain = Some(f.jain);
        rec.fairness_min = Some(f.min as i64);
        rec.fairness_max = Some(f.max as i64);
        rec.fairness_ideal = Some(f.ideal);
    }
    (rec.status, rec.detail) = match (outcome.killed, outcome.exit, &judgement.verdict) {
        (Some(Killed::MemoryLimit { held, limit }), _, _) => (
            "memory-limit".into(),
            format!(
                "memory limit: its processes held {}, over the limit of {}",
                units::bytes(held as f64),
                units::bytes(limit as f64)
            ),
        ),
        (Some(_), _, _) => (
            "timeout".into(),
            format!("killed after {} s", t.timeout.as_secs_f64()),
        ),
        (None, Exit::Signal(s), _) => (
            "signal".into(),
            format!("ended by signal {s} ({})", signal_name(s)),
        ),
        (None, Exit::Code(c), _) if c != 0 => ("exit".into(), format!("exit status {c}")),
        (None, _, Verdict::Ok) => ("ok".into(), String::new()),
        (None, _, Verdict::BadOutput(why)) => ("bad-output".into(), why.clone()),
        (None, _, Verdict::WrongAnswer(why)) => ("wrong-answer".into(), why.clone()),
    };
    let keep = if rec.status == "ok" {
        OK_STDERR_TAIL
    } else {
        FAILED_STDERR_TAIL
    };
    rec.stderr_tail = outcome.stderr.tail_text(keep);
    if rec.status != "ok"
        && rec.status != "bad-output"
        && rec.stdout_bytes > 0
        && rec.result_line.is_none()
    {
        rec.detail.push_str(&format!(
            "; stdout began: {}",
            stdout.chars().take(120).collect::<String>().trim()
        ));
    }
    Some(rec)
}

/// The usual name of a signal number.
pub fn signal_name(s: i32) -> &'static str {
    match s {
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGPIPE => "SIGPIPE",
        _ => "signal",
    }
}
