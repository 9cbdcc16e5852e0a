//! Which harness process owns a session, and whether it is still alive.
//!
//! A session is stored as `running` when it starts and gets its final status when it
//! ends; a harness killed outright (`SIGKILL`, a power cut) never writes that status. To
//! tell such a session from one that is really still running (another harness on this
//! machine, or on another machine writing to the same PostgreSQL store), each session
//! records its owner: `host=H boot=B pid=P start=T`, the host name, the kernel's boot id
//! (`/proc/sys/kernel/random/boot_id`, new at every boot), the harness's pid and its start
//! time in clock ticks since boot (`/proc/PID/stat`, field 22; a pid can be reused, a pid
//! with its start time cannot within one boot).
//!
//! The owner is judged only on its own host: there, it is gone when the machine has
//! rebooted since (another boot id) or no process has that pid and start time. A session
//! owned by another host is left alone; that host's next harness judges it.

/// Who owns a session, parsed from its `owner` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// Host name.
    pub host: String,
    /// Kernel boot id.
    pub boot: String,
    /// Process id.
    pub pid: i32,
    /// Start time in clock ticks since boot.
    pub start: u64,
}

impl Owner {
    /// This process.
    pub fn me() -> Owner {
        let pid = std::process::id() as i32;
        Owner {
            host: host_name(),
            boot: boot_id(),
            pid,
            start: start_time(pid).unwrap_or(0),
        }
    }

    /// Reads `host=H boot=B pid=P start=T`; `None` for anything else (an empty owner
    /// from a session stored before owners were recorded).
    pub fn parse(text: &str) -> Option<Owner> {
        let mut host = None;
        let mut boot = None;
        let mut pid = None;
        let mut start = None;
        for word in text.split_whitespace() {
            match word.split_once('=')? {
                ("host", v) => host = Some(v.to_string()),
                ("boot", v) => boot = Some(v.to_string()),
                ("pid", v) => pid = v.parse().ok(),
                ("start", v) => start = v.parse().ok(),
                _ => {}
            }
        }
        Some(Owner {
            host: host?,
            boot: boot?,
            pid: pid?,
            start: start?,
        })
    }

    /// Whether the owner is known to be gone: on this host, and either the machine has
    /// rebooted since or no process has its pid and start time. `false` for another
    /// host's owner (it cannot be judged from here).
    pub fn is_gone(&self) -> bool {
        let me = Owner::me();
        if self.host != me.host {
            return false;
        }
        if self.boot != me.boot {
            return true;
        }
        start_time(self.pid) != Some(self.start)
    }
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "host={} boot={} pid={} start={}",
            self.host, self.boot, self.pid, self.start
        )
    }
}

fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into `buf`.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "unknown".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let name = String::from_utf8_lossy(&buf[..end]).trim().to_string();
    // Spaces would break the `key=value` words.
    let name = name.replace(char::is_whitespace, "_");
    if name.is_empty() {
        "unknown".into()
    } else {
        name
    }
}

fn boot_id() -> String {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
}

/// A live (not zombie) process's start time in clock ticks since boot.
fn start_time(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the parenthesised command name: state is field 3, start time 22.
    let (_, rest) = stat.rsplit_once(") ")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    if matches!(fields.first(), Some(&"Z") | Some(&"X")) {
        return None;
    }
    fields.get(22 - 3)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_finished_one_is_gone() {
        let me = Owner::me();
        assert!(me.start > 0);
        assert_eq!(Owner::parse(&me.to_string()), Some(me.clone()));
        assert!(!me.is_gone());

        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id() as i32;
        child.wait().unwrap();
        let dead = Owner {
            pid,
            start: 1,
            ..me.clone()
        };
        assert!(dead.is_gone());
        let rebooted = Owner {
            boot: "another-boot".into(),
            ..me.clone()
        };
        assert!(rebooted.is_gone());
        let elsewhere = Owner {
            host: "another-host".into(),
            pid,
            ..me
        };
        assert!(!elsewhere.is_gone());
        assert_eq!(Owner::parse(""), None);
        assert_eq!(Owner::parse("host=a pid=1"), None);
    }
}
