//! Where a PostgreSQL password comes from when `--db` (or `ACTORBENCH_DB`) has none, as
//! libpq users expect: `PGPASSWORD`, else the password file. The `postgres` crate reads
//! neither, so the harness does it before connecting.
//!
//! The password file is `PGPASSFILE`, else `~/.pgpass`. Each line is
//! `hostname:port:database:username:password`; `#` starts a comment line; `*` in any of
//! the first four fields matches anything; `\:` and `\\` stand for `:` and `\`. The first
//! line that matches is used. As in libpq, a connection through a Unix socket matches the
//! host name `localhost` (or the socket directory itself), the port defaults to 5432, the
//! user to the login name and the database to the user, and a file that group or others
//! may read is ignored with a warning.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use postgres::config::Host;

/// The connection's fields a password-file line is matched against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The host name, or `localhost` for a Unix socket.
    pub host: String,
    /// The socket directory, for a Unix socket.
    pub socket_dir: Option<String>,
    /// The port.
    pub port: u16,
    /// The database.
    pub database: String,
    /// The user.
    pub user: String,
}

impl Target {
    /// The fields of a parsed connection, with libpq's defaults filled in.
    pub fn of(config: &postgres::Config) -> Target {
        let user = config
            .get_user()
            .map(str::to_string)
            .or_else(|| std::env::var("PGUSER").ok())
            .or_else(|| std::env::var("USER").ok())
            .unwrap_or_default();
        let (host, socket_dir) = match config.get_hosts().first() {
            Some(Host::Tcp(h)) => (h.clone(), None),
            Some(Host::Unix(p)) => ("localhost".into(), Some(p.display().to_string())),
            None => ("localhost".into(), None),
        };
        Target {
            host,
            socket_dir,
            port: config.get_ports().first().copied().unwrap_or(5432),
            database: config.get_dbname().unwrap_or(&user).to_string(),
            user,
        }
    }
}

/// Fills in the password of `config` from `PGPASSWORD` or the password file when it has
/// none; returns where it came from (`PGPASSWORD`, the file), or `None`.
pub fn fill(config: &mut postgres::Config) -> Option<String> {
    fill_from(
        config,
        std::env::var("PGPASSWORD").ok(),
        password_file().as_deref(),
    )
}

/// [`fill`] with the environment's `PGPASSWORD` and password file given.
pub fn fill_from(
    config: &mut postgres::Config,
    pgpassword: Option<String>,
    file: Option<&Path>,
) -> Option<String> {
    if config.get_password().is_some() {
        return None;
    }
    if let Some(pw) = pgpassword {
        config.password(pw);
        return Some("PGPASSWORD".into());
    }
    let file = file?;
    let text = readable_file(file)?;
    let pw = lookup(&text, &Target::of(config))?;
    config.password(pw);
    Some(file.display().to_string())
}

/// `PGPASSFILE`, else `~/.pgpass`.
fn password_file() -> Option<PathBuf> {
    if let Some(f) = std::env::var_os("PGPASSFILE") {
        return Some(PathBuf::from(f));
    }
    std::env::var_os("HOME").map(|h| Path::new(&h).join(".pgpass"))
}

/// The file's text, unless it is missing or others may read it (then libpq ignores it
/// too, and the harness says why).
fn readable_file(file: &Path) -> Option<String> {
    let meta = std::fs::metadata(file).ok()?;
    if !meta.is_file() {
        return None;
    }
    if meta.permissions().mode() & 0o077 != 0 {
        eprintln!(
            "warning: password file {} has group or world access; it is ignored (chmod 0600 it)",
            file.display()
        );
        return None;
    }
    std::fs::read_to_string(file).ok()
}

/// The password of the first line of a password file that matches `t`.
pub fn lookup(text: &str, t: &Target) -> Option<String> {
    let port = t.port.to_string();
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f = fields(l);
            (f.len() >= 5).then_some(f)
        })
        .find(|f| {
            let m = |field: &str, value: &str| field == "*" || field == value;
            (m(&f[0], &t.host) || t.socket_dir.as_deref().is_some_and(|d| m(&f[0], d)))
                && m(&f[1], &port)
                && m(&f[2], &t.database)
                && m(&f[3], &t.user)
        })
        .map(|f| f[4..].join(":"))
}

/// The `:`-separated fields of a line, with `\:` and `\\` unescaped.
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.last_mut().expect("never empty").push(n);
                }
            }
            ':' => out.push(String::new()),
            c => out.last_mut().expect("never empty").push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(url: &str) -> Target {
        Target::of(&url.parse::<postgres::Config>().unwrap())
    }

    #[test]
    fn matches_lines_like_libpq() {
        let file = "# comment\n\
                    db.example:5432:bench:alice:first\n\
                    *:5433:*:alice:any\\:host\n\
                    localhost:*:*:bob:socket\n\
                    *:*:*:*:fallback\n";
        let t = target("postgres://alice@db.example/bench");
        assert_eq!((t.port, t.database.as_str()), (5432, "bench"));
        assert_eq!(lookup(file, &t).as_deref(), Some("first"));
        let t = target("postgres://alice@other:5433/x");
        assert_eq!(lookup(file, &t).as_deref(), Some("any:host"));
        let t = target("postgres://bob@%2Fvar%2Frun%2Fpostgresql/bench");
        assert_eq!(t.host, "localhost");
        assert_eq!(lookup(file, &t).as_deref(), Some("socket"));
        let t = target("postgres://carol@h/d");
        assert_eq!(lookup(file, &t).as_deref(), Some("fallback"));
        assert_eq!(lookup("h:1:d:u\n", &t), None);
    }

    #[test]
    fn fills_in_a_missing_password() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pgpass");
        std::fs::write(&file, "*:*:bench:alice:fromfile\n").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        let parse = |u: &str| u.parse::<postgres::Config>().unwrap();
        // A password in the URL wins.
        let mut c = parse("postgres://alice:inurl@h/bench");
        assert_eq!(fill_from(&mut c, Some("env".into()), Some(&file)), None);
        assert_eq!(c.get_password(), Some(&b"inurl"[..]));
        // Then PGPASSWORD, then the file.
        let mut c = parse("postgres://alice@h/bench");
        fill_from(&mut c, Some("env".into()), Some(&file));
        assert_eq!(c.get_password(), Some(&b"env"[..]));
        let mut c = parse("postgres://alice@h/bench");
        assert!(fill_from(&mut c, None, Some(&file)).is_some());
        assert_eq!(c.get_password(), Some(&b"fromfile"[..]));
        // A file others may read is ignored, as libpq does.
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let mut c = parse("postgres://alice@h/bench");
        assert_eq!(fill_from(&mut c, None, Some(&file)), None);
        assert_eq!(c.get_password(), None);
    }
}
