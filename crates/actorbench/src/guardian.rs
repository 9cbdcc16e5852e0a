//! The guardian: when the harness dies, every run it started dies with it.
//!
//! Each run is its own process group (see [`crate::exec`]), led by the program the
//! harness exec'd. Two mechanisms end that group when the harness is killed outright
//! (`SIGKILL`, the OOM killer, a CI timeout), where no handler of the harness can run:
//!
//! 1. **`PR_SET_PDEATHSIG`** (set in the child before `exec`, see
//!    [`crate::exec::run`]): the kernel sends the group leader `SIGKILL` when the thread
//!    that forked it ends. That is a *thread*, not the process: a child forked from a
//!    short-lived thread would be killed when that thread returns. The harness forks each
//!    run from the thread that then waits for it, so the thread outlives the child. The
//!    signal reaches only the leader: the program's own children (a shell script's
//!    commands, BEAM's `erl_child_setup`, a build's compiler processes) are not told.
//! 2. **The guardian process**, for the rest of the group. On the first run the harness
//!    forks one small process that holds one end of a Unix socket pair; the harness keeps
//!    the other end (close-on-exec, so no run inherits it). Before a run's group can be
//!    reaped the harness sends `+PGID\n`, and `-PGID\n` once the group is finished. When
//!    the harness dies, the kernel closes its end, the guardian's `read` returns 0, and
//!    the guardian sends `SIGKILL` to every group still registered, then exits. It ignores
//!    `SIGINT`, `SIGHUP`, `SIGTERM` and `SIGQUIT` (a Ctrl-C at the terminal is the
//!    harness's to handle) and lives exactly as long as the harness.
//!
//! The guardian is forked without `exec` from a process that has threads, so between the
//! fork and its `_exit` it only makes async-signal-safe calls (`close`, `close_range`,
//! `sigaction` through `signal`, `read`, `kill`, `_exit`) and never allocates or
//! panics: it parses the messages into a fixed array on its stack with checked
//! arithmetic. Writes from the harness use `send` with `MSG_NOSIGNAL`, so a guardian
//! that died cannot kill the harness with `SIGPIPE`; after such a failure the harness
//! carries on with `PR_SET_PDEATHSIG` alone.
//!
//! A process group id stays allocated while any member lives, and the harness
//! unregisters a group before it reaps the leader, so the guardian never signals a group
//! id that was reused.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::{Mutex, OnceLock};

/// Groups the guardian can hold at once (the harness runs one program at a time, plus
/// its builds and probes, so a handful is the most it sees).
const SLOTS: usize = 64;

static LINE: OnceLock<Option<Mutex<OwnedFd>>> = OnceLock::new();

/// Registers a run's process group: if the harness dies before [`release`], the group is
/// killed. Starts the guardian on first use; if it cannot be started, the run has only
/// `PR_SET_PDEATHSIG` (and the error is not fatal).
pub fn watch(pgid: libc::pid_t) {
    send(b'+', pgid);
}

/// Unregisters a finished run's process group; call it before reaping the leader.
pub fn release(pgid: libc::pid_t) {
    send(b'-', pgid);
}

fn send(op: u8, pgid: libc::pid_t) {
    let Some(line) = LINE.get_or_init(|| start().ok().map(Mutex::new)) else {
        return;
    };
    let msg = format!("{}{pgid}\n", op as char);
    let fd = line.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: sending a small buffer on a socket this process owns; MSG_NOSIGNAL turns a
    // dead peer into EPIPE instead of SIGPIPE. A short or failed send only weakens the
    // guard (the run still has PR_SET_PDEATHSIG), so the result is not checked.
    unsafe {
        libc::send(
            fd.as_raw_fd(),
            msg.as_ptr().cast(),
            msg.len(),
            libc::MSG_NOSIGNAL,
        );
    }
}

/// Forks the guardian; returns the harness's end of the socket pair.
fn start() -> io::Result<OwnedFd> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: socketpair writes two descriptors into `fds`.
    if unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    } != 0
    {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    let (ours, theirs) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // SAFETY: fork in a process that may have threads: the child runs only `guard`, which
    // makes async-signal-safe calls and never returns.
    match unsafe { libc::fork() } {
        -1 => Err(io::Error::last_os_error()),
        0 => guard(theirs.as_raw_fd(), ours.as_raw_fd()),
        _ => Ok(ours),
    }
}

/// The guardian's whole life: keep the registered groups until the harness's end of the
/// socket closes, then kill them and exit. Async-signal-safe only (see the module docs).
fn guard(theirs: libc::c_int, ours: libc::c_int) -> ! {
    // SAFETY (the whole function): only async-signal-safe calls on plain integers and
    // stack arrays; no allocation, no locks, no unwinding (every index is checked).
    unsafe {
        libc::close(ours);
        // Keep only our end, as descriptor 0: holding the harness's pipes or files open
        // would keep its readers from seeing end-of-file.
        if theirs != 0 {
            libc::dup2(theirs, 0);
        }
        if libc::close_range(1, libc::c_uint::MAX, 0) != 0 {
            for fd in 1..4096 {
                libc::close(fd);
            }
        }
        for sig in [libc::SIGINT, libc::SIGHUP, libc::SIGTERM, libc::SIGQUIT] {
            libc::signal(sig, libc::SIG_IGN);
        }
        let mut groups = [0 as libc::pid_t; SLOTS];
        let mut buf = [0u8; 512];
        let (mut op, mut value, mut digits) = (0u8, 0 as libc::pid_t, false);
        loop {
            let n = libc::read(0, buf.as_mut_ptr().cast(), buf.len());
            if n < 0 && *libc::__errno_location() == libc::EINTR {
                continue;
            }
            if n <= 0 {
                break;
            }
            for &b in buf.iter().take(n as usize) {
                match b {
                    b'+' | b'-' => (op, value, digits) = (b, 0, false),
                    b'0'..=b'9' => {
                        value = value
                            .checked_mul(10)
                            .and_then(|v| v.checked_add((b - b'0') as libc::pid_t))
                            .unwrap_or(0);
                        digits = true;
                    }
                    b'\n' if digits && value > 0 => {
                        if op == b'+' {
                            if let Some(slot) = groups.iter_mut().find(|g| **g == 0) {
                                *slot = value;
                            }
                        } else if let Some(slot) = groups.iter_mut().find(|g| **g == value) {
                            *slot = 0;
                        }
                        (op, value, digits) = (0, 0, false);
                    }
                    _ => (op, value, digits) = (0, 0, false),
                }
            }
        }
        for &g in &groups {
            if g > 0 {
                libc::kill(-g, libc::SIGKILL);
            }
        }
        libc::_exit(0)
    }
}
