//! Running one process: pinned, in its own process group, output capped, time-limited.
//!
//! The sequence for a run:
//!
//! 1. `fork`; in the child, before `exec`: `setpgid(0, 0)` (its own process group, so a
//!    Ctrl-C at the terminal reaches the harness, not the benchmark, and the whole group
//!    can be killed at once), `PR_SET_PDEATHSIG` (it is killed if the harness dies; the
//!    rest of its group is ended by the [`crate::guardian`]) and `sched_setaffinity` to
//!    the first `k` CPUs the harness may use (what `taskset` did in the thesis). Affinity
//!    is inherited by every thread and child the program makes.
//!    With [`Spec::counters`], the hook then waits until the harness has opened the
//!    event counters on it (see [`crate::counters`] for why there and how).
//! 2. Two threads drain stdout and stderr into [`Captured`] buffers (capped: the first
//!    16 MiB and last 64 KiB of stdout, the first and last 64 KiB of stderr).
//! 3. A watchdog thread sleeps until the deadline; if the run is still going it kills
//!    the process group with `SIGKILL`. With a memory limit it wakes every
//!    [`memory::PERIOD`] to sample the group's resident memory, and kills the group
//!    when it is over the limit.
//! 4. The harness blocks in `waitid(WEXITED | WNOWAIT)`: the child has exited but is not
//!    reaped, so its pid (and thus its process-group id) cannot be reused. It reads the
//!    clock, marks the run finished (under the lock the watchdog and the Ctrl-C handler
//!    take before they kill, so neither can kill after this point), kills whatever is
//!    left of the group (helpers the program left behind would otherwise hold the pipes
//!    open), and only then reaps the child with `wait4`, which yields the rusage; then it
//!    reads the event counters.
//!
//! [`interrupt_all`] is what the Ctrl-C handler calls: it kills every live run's group
//! and marks those runs interrupted.

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::capture::{self, Captured};
use crate::counters::{self, Counts};
use crate::guardian;
use crate::measure::Measurement;
use crate::memory::{self, GroupRss};

/// Bytes of stdout kept from the start: room for a chameneos result line with a million
/// creatures' counts (about 8 MB), still a fixed bound for a program that floods.
pub const STDOUT_HEAD: usize = 16 * 1024 * 1024;
/// Bytes of stdout kept from the end.
pub const STDOUT_TAIL: usize = 64 * 1024;
/// Bytes of stderr kept from the start and from the end.
pub const STDERR_KEEP: usize = 64 * 1024;

/// What to run.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Program and arguments; exec'd directly.
    pub argv: Vec<String>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// Variables of the harness's environment the process does not inherit (the runtime
    /// knobs of [`crate::knobs`]); `env` sets its own after these are removed.
    pub env_remove: Vec<String>,
    /// Working directory.
    pub cwd: PathBuf,
    /// CPUs to pin to; `None` leaves the affinity alone.
    pub cpus: Option<Vec<usize>>,
    /// Wall-clock limit; the whole process group is killed when it passes.
    pub timeout: Duration,
    /// Resident-memory limit for the whole process group, in bytes; the group is killed
    /// when a sample finds it over (see [`crate::memory`]). `None`: no limit.
    pub memory_limit: Option<u64>,
    /// Count events over the process tree ([`crate::counters`]).
    pub counters: bool,
}

/// How a process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
}

/// Why the harness killed a run, if it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Killed {
    /// The timeout passed.
    Timeout,
    /// The user pressed Ctrl-C (or the harness got SIGTERM).
    Interrupted,
    /// The group held more resident memory than the limit.
    MemoryLimit {
        /// What the group held at the sample that found it over, in bytes.
        held: u64,
        /// The limit, in bytes.
        limit: u64,
    },
}

/// Everything known about a finished process.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub exit: Exit,
    /// Set when the harness killed it.
    pub killed: Option<Killed>,
    /// Its figures.
    pub measurement: Measurement,
    /// Its standard output, capped.
    pub stdout: Captured,
    /// Its standard error, capped.
    pub stderr: Captured,
    /// Its event counts (empty without [`Spec::counters`] or when none could be opened).
    pub counters: Counts,
}

impl Outcome {
    /// Exit status 0 and not killed.
    pub fn success(&self) -> bool {
        self.exit == Exit::Code(0) && self.killed.is_none()
    }
}

#[derive(Default)]
struct GuardState {
    finished: bool,
    killed: Option<Killed>,
}

/// Shared between the waiting thread, the watchdog and the interrupt handler.
struct Guard {
    pgid: libc::pid_t,
    state: Mutex<GuardState>,
    wake: Condvar,
}

impl Guard {
    /// Kills the group unless the run has finished; records why.
    fn kill(&self, why: Killed) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if !st.finished {
            st.killed.get_or_insert(why);
            // SAFETY: plain syscall; the group leader is not reaped while `finished` is
            // false, so `pgid` still names this run's group.
            unsafe { libc::killpg(self.pgid, libc::SIGKILL) };
        }
    }
}

static LIVE: Mutex<Vec<Arc<Guard>>> = Mutex::new(Vec::new());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Kills every live run's process group and makes [`interrupted`] true from now on.
pub fn interrupt_all() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for g in live {
        g.kill(Killed::Interrupted);
    }
}

/// Whether [`interrupt_all`] has been called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Installs the Ctrl-C / SIGTERM handler that calls [`interrupt_all`] (once per process).
pub fn install_interrupt_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(interrupt_all);
    });
}

/// The CPUs this process may run on, in ascending order.
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: `set` is a plain bit set, zero-initialised, and sched_getaffinity writes at
    // most `size_of::<cpu_set_t>()` bytes into it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            let n = std::thread::available_parallelism().map_or(1, |n| n.get());
            return (0..n).collect();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// Runs `spec` to its end (or its timeout) and measures it. An error means it could not
/// be started at all (no such program, say).
pub fn run(spec: &Spec) -> std::io::Result<Outcome> {
    let (program, args) = spec
        .argv
        .split_first()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty command"))?;
    let program = resolve_program(program, spec);
    let mut cmd = Command::new(&program);
    for k in &spec.env_remove {
        cmd.env_remove(k);
    }
    cmd.args(args)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&spec.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // SAFETY: a zeroed cpu_set_t is the empty set; CPU_SET writes inside it.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &c in spec.cpus.iter().flatten() {
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    let pin = spec.cpus.is_some();
    // SAFETY: the closure runs in the child between fork and exec, and calls only
    // async-signal-safe functions (prctl, getppid, sched_setaffinity) on values built
    // before the fork; it allocates nothing (a raw OS error needs no allocation).
    // PR_SET_PDEATHSIG: the child gets SIGKILL when the thread that forked it ends; that
    // thread is this one, which waits for the child below, so it is the harness's death
    // that fires it (see `guardian` for the subtlety and for the child's own children).
    // If the harness died before the prctl, the child has been reparented: it stops.
    // `wait_for_harness` (counters) is the same kind of code: close, getpid, write and
    // read on descriptors made before the fork.
    let parent = std::process::id() as libc::pid_t;
    let handshake = if spec.counters {
        counters::Handshake::new().ok()
    } else {
        None
    };
    let child_end = handshake.as_ref().map(counters::Handshake::child_end);
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            if pin && libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            if let Some(end) = child_end {
                end.wait_for_harness()?;
            }
            Ok(())
        });
    }

    let started = Instant::now();
    let mut pending = handshake.map(counters::Handshake::start);
    let spawned = cmd.spawn();
    if let Some(p) = &mut pending {
        p.spawned();
    }
    let mut child = spawned?;
    let armed = pending.and_then(counters::Pending::finish);
    let pid = child.id() as libc::pid_t;
    guardian::watch(pid);
    let guard = Arc::new(Guard {
        pgid: pid,
        state: Mutex::new(GuardState::default()),
        wake: Condvar::new(),
    });
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(guard.clone());
    if interrupted() {
        guard.kill(Killed::Interrupted);
    }

    let out = Arc::new(Mutex::new(Captured::new(STDOUT_HEAD, STDOUT_TAIL)));
    let err = Arc::new(Mutex::new(Captured::new(STDERR_KEEP, STDERR_KEEP)));
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let mut readers = 0;
    if let Some(s) = child.stdout.take() {
        let (sink, tx) = (out.clone(), done_tx.clone());
        std::thread::spawn(move || {
            capture::drain(s, sink);
            let _ = tx.send(());
        });
        readers += 1;
    }
    if let Some(s) = child.stderr.take() {
        let (sink, tx) = (err.clone(), done_tx.clone());
        std::thread::spawn(move || {
            capture::drain(s, sink);
            let _ = tx.send(());
        });
        readers += 1;
    }
    drop(done_tx);

    let watchdog = {
        let guard = guard.clone();
        let deadline = started + spec.timeout;
        let limit = spec.memory_limit;
        std::thread::spawn(move || {
            let mut rss = limit.map(|_| GroupRss::new(pid));
            let mut st = guard.state.lock().unwrap_or_else(|e| e.into_inner());
            while !st.finished {
                let now = Instant::now();
                if now >= deadline {
                    drop(st);
                    guard.kill(Killed::Timeout);
                    return;
                }
                let wait = match rss {
                    Some(_) => (deadline - now).min(memory::PERIOD),
                    None => deadline - now,
                };
                st = guard
                    .wake
                    .wait_timeout(st, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if let (false, Some(rss), Some(limit)) = (st.finished, rss.as_mut(), limit) {
                    // Read /proc without the lock: the waiting thread must not block on it.
                    drop(st);
                    let held = rss.sample();
                    if held > limit {
                        guard.kill(Killed::MemoryLimit { held, limit });
                        return;
                    }
                    st = guard.state.lock().unwrap_or_else(|e| e.into_inner());
                }
            }
        })
    };

    // Wait for the exit without reaping, so the pid stays ours.
    loop {
        // SAFETY: siginfo is plain data written by the kernel.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if rc == 0 {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let killed = {
        let mut st = guard.state.lock().unwrap_or_else(|e| e.into_inner());
        st.finished = true;
        // Leftover helpers in the group would keep the pipes open: end them too.
        // SAFETY: the leader is a zombie, so the group id is still this run's.
        unsafe { libc::killpg(pid, libc::SIGKILL) };
        st.killed
    };
    guard.wake.notify_all();
    let _ = watchdog.join();
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|g| !Arc::ptr_eq(g, &guard));

    guardian::release(pid);
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data written by the kernel.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
        if rc == pid {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let st = std::process::ExitStatus::from_raw(status);
    let exit = match (st.code(), st.signal()) {
        (Some(c), _) => Exit::Code(c),
        (None, Some(s)) => Exit::Signal(s),
        _ => Exit::Code(-1),
    };
    // A process outside the group (a daemon that called setsid) may still hold a pipe:
    // wait a little for the readers, then take what they have.
    for _ in 0..readers {
        if done_rx.recv_timeout(Duration::from_secs(2)).is_err() {
            break;
        }
    }
    let stdout = out.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let stderr = err.lock().unwrap_or_else(|e| e.into_inner()).clone();
    drop(child);
    Ok(Outcome {
        exit,
        killed,
        measurement: Measurement::from_rusage(&ru, wall),
        stdout,
        stderr,
        counters: armed.map(counters::Armed::read).unwrap_or_default(),
    })
}

/// A relative program path with a slash is taken relative to the run's directory.
fn resolve_program(program: &str, spec: &Spec) -> PathBuf {
    let p = PathBuf::from(program);
    if p.is_relative() && program.contains('/') {
        spec.cwd.join(p)
    } else {
        p
    }
}

/// Runs a shell command line with `sh -c` (builds, availability and version checks).
pub fn shell(command: &str, cwd: &std::path::Path, timeout: Duration) -> std::io::Result<Outcome> {
    run(&Spec {
        argv: vec!["sh".into(), "-c".into(), command.into()],
        env: Vec::new(),
        env_remove: Vec::new(),
        cwd: cwd.to_path_buf(),
        cpus: None,
        timeout,
        memory_limit: None,
        counters: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, cpus: Option<Vec<usize>>, timeout: u64) -> Outcome {
        run(&Spec {
            argv: vec!["sh".into(), "-c".into(), script.into()],
            env: vec![("X_VAR".into(), "42".into())],
            env_remove: Vec::new(),
            cwd: std::env::temp_dir(),
            cpus,
            timeout: Duration::from_secs(timeout),
            memory_limit: None,
            counters: false,
        })
        .unwrap()
    }

    #[test]
    fn captures_exit_env_and_affinity() {
        let o = sh("echo out $X_VAR; echo err >&2; exit 3", None, 30);
        assert_eq!(o.exit, Exit::Code(3));
        assert_eq!(o.stdout.text(), "out 42\n");
        assert_eq!(o.stderr.text(), "err\n");
        let first = allowed_cpus()[0];
        let o = sh(
            "grep Cpus_allowed_list /proc/self/status",
            Some(vec![first]),
            30,
        );
        assert!(
            o.stdout.text().trim().ends_with(&format!("\t{first}")),
            "{}",
            o.stdout.text()
        );
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let t = Instant::now();
        let o = sh("sleep 30 & sleep 30; echo never", None, 1);
        assert_eq!(o.killed, Some(Killed::Timeout));
        assert_eq!(o.exit, Exit::Signal(libc::SIGKILL));
        assert!(t.elapsed() < Duration::from_secs(20));
        assert_eq!(o.stdout.total(), 0);
    }

    #[test]
    fn missing_program_is_an_error() {
        let r = run(&Spec {
            argv: vec!["/nonexistent/prog".into()],
            env: vec![],
            env_remove: Vec::new(),
            cwd: std::env::temp_dir(),
            cpus: None,
            timeout: Duration::from_secs(5),
            memory_limit: None,
            counters: true,
        });
        assert!(r.is_err());
    }
}
