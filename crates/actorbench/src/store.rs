//! The results store: one SQLite file holding every session and every run.
//!
//! Schema (version 3):
//!
//! - `schema_version(version)`: the migrations applied; each migration is one SQL batch
//!   applied in its own transaction, in order, so an older file is brought up to date
//!   when it is opened and a newer one is refused.
//! - `session`: one row per `actorbench run`: start and end times, status (`running`,
//!   `complete`, `interrupted`), git commit, host (CPU model, cores, memory, kernel), the
//!   command line, the profile and settings, the suite file.
//! - `session_impl`: per session and implementation: language, toolchain version, run
//!   template, and whether it was available, missing or failed to build (with why);
//!   since version 2 also the implementation it is a configuration variant of (empty for
//!   none) and its extra environment as `K=V` words, which is what tells variants apart.
//! - `run`: one row per process run, warmups and failures included: its cell
//!   (implementation, benchmark, parameters, cores), repetition, status, exit code or
//!   signal, every figure of [`crate::measure::Measurement`], the expected and printed
//!   check, the chameneos counts and fairness, output sizes and the tail of stderr; since
//!   version 3 also `work_s`, the work time the program printed (`seconds=`), NULL for a
//!   run without a valid one (every failed run's and every run stored before version 3).
//!   Start-up is `wall_s - work_s`; it is derived, not stored.
//! - `cell` (since version 3): per session and cell (implementation, benchmark, parameters,
//!   cores), how many measured runs it got and why it stopped there (`reps`: the fixed
//!   count; `target-ci`: its interval became tight enough; `max-reps`; `budget`: the time
//!   budget ran out; `interrupted`). Written when the session ends; a session stored
//!   before version 3, or killed, has no rows here, and its counts come from `run`.
//!
//! Each run row is inserted in its own transaction as soon as the run finishes (SQLite
//! commits are durable when the call returns), so a crash or Ctrl-C loses nothing that
//! was already measured.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::Serialize;

use crate::error::UsageError;

const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE session (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    status TEXT NOT NULL,
    git_commit TEXT NOT NULL,
    host_cpu TEXT NOT NULL,
    host_cores INTEGER NOT NULL,
    host_memory_bytes INTEGER NOT NULL,
    host_kernel TEXT NOT NULL,
    command_line TEXT NOT NULL,
    profile TEXT NOT NULL,
    settings TEXT NOT NULL,
    suite_path TEXT NOT NULL
);
CREATE TABLE session_impl (
    session_id INTEGER NOT NULL REFERENCES session(id),
    name TEXT NOT NULL,
    language TEXT NOT NULL,
    version TEXT NOT NULL,
    status TEXT NOT NULL,
    detail TEXT NOT NULL,
    run_template TEXT NOT NULL,
    PRIMARY KEY (session_id, name)
);
CREATE TABLE run (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES session(id),
    seq INTEGER NOT NULL,
    implementation TEXT NOT NULL,
    bench TEXT NOT NULL,
    params TEXT NOT NULL,
    cores INTEGER NOT NULL,
    rep INTEGER NOT NULL,
    warmup INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    command TEXT NOT NULL,
    status TEXT NOT NULL,
    exit_code INTEGER,
    signal INTEGER,
    wall_s REAL NOT NULL,
    user_s REAL NOT NULL,
    sys_s REAL NOT NULL,
    cpu_util REAL NOT NULL,
    max_rss_bytes INTEGER NOT NULL,
    voluntary_switches INTEGER NOT NULL,
    involuntary_switches INTEGER NOT NULL,
    expected_check TEXT,
    check_value TEXT,
    result_line TEXT,
    counts TEXT,
    fairness_stddev REAL,
    fairness_cv REAL,
    fairness_jain REAL,
    fairness_min INTEGER,
    fairness_max INTEGER,
    fairness_ideal REAL,
    stdout_bytes INTEGER NOT NULL,
    stderr_bytes INTEGER NOT NULL,
    stderr_tail TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX run_by_session ON run(session_id, bench, implementation, cores);
"#,
    r#"
ALTER TABLE session_impl ADD COLUMN variant_of TEXT NOT NULL DEFAULT '';
ALTER TABLE session_impl ADD COLUMN env TEXT NOT NULL DEFAULT '';
"#,
    r#"
ALTER TABLE run ADD COLUMN work_s REAL;
CREATE TABLE cell (
    session_id INTEGER NOT NULL REFERENCES session(id),
    implementation TEXT NOT NULL,
    bench TEXT NOT NULL,
    params TEXT NOT NULL,
    cores INTEGER NOT NULL,
    measured INTEGER NOT NULL,
    stop TEXT NOT NULL,
    PRIMARY KEY (session_id, implementation, bench, params, cores)
);
"#,
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// A session as stored.
#[derive(Debug, Clone, Serialize, Default)]
pub struct SessionRecord {
    /// Row id, the session's number.
    pub id: i64,
    /// RFC 3339 UTC start time.
    pub started_at: String,
    /// RFC 3339 UTC end time, once ended.
    pub ended_at: Option<String>,
    /// `running`, `complete` or `interrupted`.
    pub status: String,
    /// `git rev-parse HEAD` of the suite's checkout (`-dirty` appended when modified).
    pub git_commit: String,
    /// CPU model name.
    pub host_cpu: String,
    /// CPUs the harness could use.
    pub host_cores: i64,
    /// Total memory in bytes.
    pub host_memory_bytes: i64,
    /// Kernel name and release.
    pub host_kernel: String,
    /// The harness's command line.
    pub command_line: String,
    /// `quick` or `seed`.
    pub profile: String,
    /// Reps, warmup, timeout, order, cores and sweep, as JSON.
    pub settings: String,
    /// The suite file used.
    pub suite_path: String,
}

/// An implementation as a session saw it.
#[derive(Debug, Clone, Serialize, Default)]
pub struct ImplRecord {
    /// Implementation name.
    pub name: String,
    /// Its language.
    pub language: String,
    /// Its toolchain version (first line of the version command), or empty.
    pub version: String,
    /// `available`, `missing` or `build-failed`.
    pub status: String,
    /// Why it is missing or failed to build.
    pub detail: String,
    /// Its run template.
    pub run_template: String,
    /// The implementation it is a configuration variant of, or empty.
    pub variant_of: String,
    /// Its extra environment as written in the suite, `K=V` words, or empty.
    pub env: String,
}

/// One run as stored.
#[derive(Debug, Clone, Serialize, Default)]
pub struct RunRecord {
    /// Row id.
    pub id: i64,
    /// Session it belongs to.
    pub session_id: i64,
    /// Position in the session's order.
    pub seq: i64,
    /// Implementation name.
    pub implementation: String,
    /// Benchmark name.
    pub bench: String,
    /// Canonical parameters, `actors=503 hops=1000000`.
    pub params: String,
    /// CPUs it was pinned to, and its thread count.
    pub cores: i64,
    /// Repetition number within its phase (warmup or measured), from 0.
    pub rep: i64,
    /// A warmup run (kept, not counted in the statistics).
    pub warmup: bool,
    /// RFC 3339 UTC start time.
    pub started_at: String,
    /// The command that ran (argv joined, with the thread environment).
    pub command: String,
    /// `ok`, `wrong-answer`, `bad-output`, `exit`, `signal`, `timeout` or `spawn`.
    pub status: String,
    /// Exit status, when it exited.
    pub exit_code: Option<i64>,
    /// Signal number, when a signal ended it.
    pub signal: Option<i64>,
    /// Wall seconds of the whole process, measured by the harness.
    pub wall_s: f64,
    /// Work seconds the program printed (`seconds=`, its in-process time of the work);
    /// `None` when it printed no valid one.
    pub work_s: Option<f64>,
    /// User CPU seconds.
    pub user_s: f64,
    /// System CPU seconds.
    pub sys_s: f64,
    /// (user + sys) / wall.
    pub cpu_util: f64,
    /// Peak RSS in bytes.
    pub max_rss_bytes: i64,
    /// Voluntary context switches.
    pub voluntary_switches: i64,
    /// Involuntary context switches.
    pub involuntary_switches: i64,
    /// The check the harness expected.
    pub expected_check: Option<String>,
    /// The check the program printed.
    pub check_value: Option<String>,
    /// The result line as printed.
    pub result_line: Option<String>,
    /// Chameneos counts, comma-separated.
    pub counts: Option<String>,
    /// Chameneos: stddev of the counts.
    pub fairness_stddev: Option<f64>,
    /// Chameneos: coefficient of variation.
    pub fairness_cv: Option<f64>,
    /// Chameneos: Jain's index.
    pub fairness_jain: Option<f64>,
    /// Chameneos: smallest count.
    pub fairness_min: Option<i64>,
    /// Chameneos: largest count.
    pub fairness_max: Option<i64>,
    /// Chameneos: the ideal count 2M/C.
    pub fairness_ideal: Option<f64>,
    /// Bytes the program wrote to stdout.
    pub stdout_bytes: i64,
    /// Bytes the program wrote to stderr.
    pub stderr_bytes: i64,
    /// The last part of its stderr (failures only).
    pub stderr_tail: String,
    /// What went wrong, in words (failures only).
    pub detail: String,
}

impl RunRecord {
    /// Whether the run succeeded with the right answer.
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }
}

/// How many measured runs a cell got in a session, and why it stopped there.
#[derive(Debug, Clone, Serialize, Default, PartialEq, Eq)]
pub struct CellRecord {
    /// Implementation name.
    pub implementation: String,
    /// Benchmark name.
    pub bench: String,
    /// Canonical parameters.
    pub params: String,
    /// Cores.
    pub cores: i64,
    /// Measured runs it got (failed ones included).
    pub measured: i64,
    /// `reps`, `target-ci`, `max-reps`, `budget` or `interrupted`.
    pub stop: String,
}

/// A whole stored session: the session row, its implementations, its cells' stopping
/// records and every run.
#[derive(Debug, Clone, Serialize, Default)]
pub struct SessionData {
    /// The session.
    pub session: SessionRecord,
    /// Its implementations.
    pub implementations: Vec<ImplRecord>,
    /// Per cell: measured runs and why it stopped (empty for sessions before schema 3).
    pub cells: Vec<CellRecord>,
    /// Its runs, in run order.
    pub runs: Vec<RunRecord>,
}

/// An open results store.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating it and its directory if needed) the store at `path` for writing.
    /// Any failure is a [`UsageError`]: the path is not usable.
    pub fn create(path: &Path) -> Result<Store> {
        let bad = |e: String| {
            UsageError::new(format!(
                "cannot write the results database {}: {e}",
                path.display()
            ))
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| bad(e.to_string()))?;
        }
        if path.is_dir() {
            return Err(bad("it is a directory".into()).into());
        }
        let conn = Connection::open(path).map_err(|e| bad(e.to_string()))?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
        };
        store.migrate().map_err(|e| bad(format!("{e:#}")))?;
        Ok(store)
    }

    /// Opens an existing store; a missing file or one that is not a results store is a
    /// [`UsageError`].
    pub fn open_existing(path: &Path) -> Result<Store> {
        if !path.is_file() {
            return Err(UsageError::new(format!(
                "no results database at {} (run `actorbench run` first, or pass --db PATH)",
                path.display()
            ))
            .into());
        }
        let bad = |e: String| {
            UsageError::new(format!(
                "cannot read the results database {}: {e}",
                path.display()
            ))
        };
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE)
            .or_else(|_| Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY))
            .map_err(|e| bad(e.to_string()))?;
        let _ = conn.busy_timeout(std::time::Duration::from_secs(10));
        let store = Store {
            conn,
            path: path.to_path_buf(),
        };
        let version = store.version().map_err(|e| bad(format!("{e:#}")))?;
        if version == 0 {
            return Err(bad("it holds no actorbench results".into()).into());
        }
        if version < SCHEMA_VERSION {
            store.migrate().map_err(|e| bad(format!("{e:#}")))?;
        } else if version > SCHEMA_VERSION {
            return Err(bad(format!(
                "schema version {version} is newer than this actorbench ({SCHEMA_VERSION})"
            ))
            .into());
        }
        Ok(store)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn version(&self) -> Result<i64> {
        let has_table: bool = self.conn.query_row(
            "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
            [],
            |r| r.get(0),
        )?;
        if !has_table {
            return Ok(0);
        }
        Ok(self.conn.query_row(
            "SELECT coalesce(max(version), 0) FROM schema_version",
            [],
            |r| r.get(0),
        )?)
    }

    fn migrate(&self) -> Result<()> {
        self.conn.busy_timeout(std::time::Duration::from_secs(10))?;
        self.conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
        )?;
        let current = self.version()?;
        if current > SCHEMA_VERSION {
            anyhow::bail!(
                "schema version {current} is newer than this actorbench ({SCHEMA_VERSION})"
            );
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
            let tx = self.conn.unchecked_transaction()?;
            tx.execute_batch(sql)
                .with_context(|| format!("migration {}", i + 1))?;
            tx.execute(
                "INSERT INTO schema_version (version) VALUES (?1)",
                [i as i64 + 1],
            )?;
            tx.commit()?;
        }
        Ok(())
    }

    /// Inserts a new session (status `running`) and returns its id.
    pub fn begin_session(&self, s: &SessionRecord) -> Result<i64> {
        self.conn.execute(
            "INSERT INTO session (started_at, ended_at, status, git_commit, host_cpu, host_cores, host_memory_bytes,
                host_kernel, command_line, profile, settings, suite_path)
             VALUES (?1, NULL, 'running', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                s.started_at,
                s.git_commit,
                s.host_cpu,
                s.host_cores,
                s.host_memory_bytes,
                s.host_kernel,
                s.command_line,
                s.profile,
                s.settings,
                s.suite_path
            ],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Records (or updates) what a session knows about an implementation.
    pub fn put_impl(&self, session: i64, r: &ImplRecord) -> Result<()> {
        self.conn.execute(
            "INSERT OR REPLACE INTO session_impl (session_id, name, language, version, status, detail, run_template,
                variant_of, env)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                session,
                r.name,
                r.language,
                r.version,
                r.status,
                r.detail,
                r.run_template,
                r.variant_of,
                r.env
            ],
        )?;
        Ok(())
    }

    /// Replaces a session's settings (JSON): `run` adds what its repetitions came to.
    pub fn set_settings(&self, session: i64, settings: &str) -> Result<()> {
        self.conn.execute(
            "UPDATE session SET settings = ?2 WHERE id = ?1",
            params![session, settings],
        )?;
        Ok(())
    }

    /// Marks a session ended with `status` at `ended_at`.
    pub fn end_session(&self, session: i64, status: &str, ended_at: &str) -> Result<()> {
        self.conn.execute(
            "UPDATE session SET status = ?2, ended_at = ?3 WHERE id = ?1",
            params![session, status, ended_at],
        )?;
        Ok(())
    }

    /// Inserts one run, committed before returning; returns its id.
    pub fn insert_run(&self, r: &RunRecord) -> Result<i64> {
        self.conn.execute(
            "INSERT INTO run (session_id, seq, implementation, bench, params, cores, rep, warmup, started_at, command,
                status, exit_code, signal, wall_s, user_s, sys_s, cpu_util, max_rss_bytes, voluntary_switches,
                involuntary_switches, expected_check, check_value, result_line, counts, fairness_stddev, fairness_cv,
                fairness_jain, fairness_min, fairness_max, fairness_ideal, stdout_bytes, stderr_bytes, stderr_tail, detail,
                work_s)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22,
                ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35)",
            params![
                r.session_id,
                r.seq,
                r.implementation,
                r.bench,
                r.params,
                r.cores,
                r.rep,
                r.warmup,
                r.started_at,
                r.command,
                r.status,
                r.exit_code,
                r.signal,
                r.wall_s,
                r.user_s,
                r.sys_s,
                r.cpu_util,
                r.max_rss_bytes,
                r.voluntary_switches,
                r.involuntary_switches,
                r.expected_check,
                r.check_value,
                r.result_line,
                r.counts,
                r.fairness_stddev,
                r.fairness_cv,
                r.fairness_jain,
                r.fairness_min,
                r.fairness_max,
                r.fairness_ideal,
                r.stdout_bytes,
                r.stderr_bytes,
                r.stderr_tail,
                r.detail,
                r.work_s
            ],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Records, all at once, how many measured runs each cell got and why it stopped.
    pub fn put_cells(&self, session: i64, cells: &[CellRecord]) -> Result<()> {
        let tx = self.conn.unchecked_transaction()?;
        for c in cells {
            tx.execute(
                "INSERT OR REPLACE INTO cell (session_id, implementation, bench, params, cores, measured, stop)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    session,
                    c.implementation,
                    c.bench,
                    c.params,
                    c.cores,
                    c.measured,
                    c.stop
                ],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The cells' stopping records of a session.
    pub fn cells(&self, session: i64) -> Result<Vec<CellRecord>> {
        let mut st = self.conn.prepare(
            "SELECT implementation, bench, params, cores, measured, stop FROM cell
             WHERE session_id = ?1 ORDER BY rowid",
        )?;
        let rows = st
            .query_map([session], |r| {
                Ok(CellRecord {
                    implementation: r.get(0)?,
                    bench: r.get(1)?,
                    params: r.get(2)?,
                    cores: r.get(3)?,
                    measured: r.get(4)?,
                    stop: r.get(5)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// Every session, oldest first.
    pub fn sessions(&self) -> Result<Vec<SessionRecord>> {
        let mut st = self
            .conn
            .prepare(&format!("{SESSION_SELECT} ORDER BY id"))?;
        let rows = st
            .query_map([], session_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// The session `id`, if it exists.
    pub fn session(&self, id: i64) -> Result<Option<SessionRecord>> {
        Ok(self
            .conn
            .query_row(
                &format!("{SESSION_SELECT} WHERE id = ?1"),
                [id],
                session_row,
            )
            .optional()?)
    }

    /// The newest session's id.
    pub fn latest_session(&self) -> Result<Option<i64>> {
        Ok(self
            .conn
            .query_row("SELECT max(id) FROM session", [], |r| r.get(0))?)
    }

    /// Resolves a session argument (`12`, `latest`, or none for latest) to a stored session.
    pub fn resolve_session(&self, arg: Option<&str>) -> Result<SessionRecord> {
        let id = match arg {
            None | Some("latest") | Some("last") => self.latest_session()?.ok_or_else(|| {
                UsageError::new(format!("the results database {} holds no sessions yet", self.path.display()))
            })?,
            Some(s) => s.parse::<i64>().map_err(|_| {
                UsageError::new(format!("'{s}' is not a session: give a session number (see `actorbench list`) or 'latest'"))
            })?,
        };
        self.session(id)?.ok_or_else(|| {
            UsageError::new(format!(
                "no session {id} in {} (see `actorbench list`)",
                self.path.display()
            ))
            .into()
        })
    }

    /// The implementations a session saw, in the order they were recorded.
    pub fn impls(&self, session: i64) -> Result<Vec<ImplRecord>> {
        let mut st = self.conn.prepare(
            "SELECT name, language, version, status, detail, run_template, variant_of, env FROM session_impl
             WHERE session_id = ?1 ORDER BY rowid",
        )?;
        let rows = st
            .query_map([session], |r| {
                Ok(ImplRecord {
                    name: r.get(0)?,
                    language: r.get(1)?,
                    version: r.get(2)?,
                    status: r.get(3)?,
                    detail: r.get(4)?,
                    run_template: r.get(5)?,
                    variant_of: r.get(6)?,
                    env: r.get(7)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// Number of runs and failed runs in a session.
    pub fn run_counts(&self, session: i64) -> Result<(i64, i64)> {
        Ok(self.conn.query_row(
            "SELECT count(*), coalesce(sum(status != 'ok'), 0) FROM run WHERE session_id = ?1",
            [session],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?)
    }

    /// A whole session.
    pub fn load(&self, session: &SessionRecord) -> Result<SessionData> {
        Ok(SessionData {
            session: session.clone(),
            implementations: self.impls(session.id)?,
            cells: self.cells(session.id)?,
            runs: self.runs(session.id)?,
        })
    }

    /// Every run of a session, in the order they ran.
    pub fn runs(&self, session: i64) -> Result<Vec<RunRecord>> {
        let mut st = self.conn.prepare(
            "SELECT id, session_id, seq, implementation, bench, params, cores, rep, warmup, started_at, command, status,
                exit_code, signal, wall_s, user_s, sys_s, cpu_util, max_rss_bytes, voluntary_switches, involuntary_switches,
                expected_check, check_value, result_line, counts, fairness_stddev, fairness_cv, fairness_jain, fairness_min,
                fairness_max, fairness_ideal, stdout_bytes, stderr_bytes, stderr_tail, detail, work_s
             FROM run WHERE session_id = ?1 ORDER BY seq, id",
        )?;
        let rows = st
            .query_map([session], |r| {
                Ok(RunRecord {
                    id: r.get(0)?,
                    session_id: r.get(1)?,
                    seq: r.get(2)?,
                    implementation: r.get(3)?,
                    bench: r.get(4)?,
                    params: r.get(5)?,
                    cores: r.get(6)?,
                    rep: r.get(7)?,
                    warmup: r.get(8)?,
                    started_at: r.get(9)?,
                    command: r.get(10)?,
                    status: r.get(11)?,
                    exit_code: r.get(12)?,
                    signal: r.get(13)?,
                    wall_s: r.get(14)?,
                    user_s: r.get(15)?,
                    sys_s: r.get(16)?,
                    cpu_util: r.get(17)?,
                    max_rss_bytes: r.get(18)?,
                    voluntary_switches: r.get(19)?,
                    involuntary_switches: r.get(20)?,
                    expected_check: r.get(21)?,
                    check_value: r.get(22)?,
                    result_line: r.get(23)?,
                    counts: r.get(24)?,
                    fairness_stddev: r.get(25)?,
                    fairness_cv: r.get(26)?,
                    fairness_jain: r.get(27)?,
                    fairness_min: r.get(28)?,
                    fairness_max: r.get(29)?,
                    fairness_ideal: r.get(30)?,
                    stdout_bytes: r.get(31)?,
                    stderr_bytes: r.get(32)?,
                    stderr_tail: r.get(33)?,
                    detail: r.get(34)?,
                    work_s: r.get(35)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }
}

const SESSION_SELECT: &str =
    "SELECT id, started_at, ended_at, status, git_commit, host_cpu, host_cores, host_memory_bytes,
    host_kernel, command_line, profile, settings, suite_path FROM session";

fn session_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SessionRecord> {
    Ok(SessionRecord {
        id: r.get(0)?,
        started_at: r.get(1)?,
        ended_at: r.get(2)?,
        status: r.get(3)?,
        git_commit: r.get(4)?,
        host_cpu: r.get(5)?,
        host_cores: r.get(6)?,
        host_memory_bytes: r.get(7)?,
        host_kernel: r.get(8)?,
        command_line: r.get(9)?,
        profile: r.get(10)?,
        settings: r.get(11)?,
        suite_path: r.get(12)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_sessions_and_runs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/r.sqlite");
        let s = Store::create(&path).unwrap();
        let id = s
            .begin_session(&SessionRecord {
                started_at: "t".into(),
                ..Default::default()
            })
            .unwrap();
        s.put_impl(
            id,
            &ImplRecord {
                name: "a".into(),
                status: "available".into(),
                ..Default::default()
            },
        )
        .unwrap();
        let run = RunRecord {
            session_id: id,
            status: "timeout".into(),
            wall_s: 1.5,
            ..Default::default()
        };
        s.insert_run(&run).unwrap();
        s.end_session(id, "complete", "u").unwrap();
        drop(s);
        let s = Store::open_existing(&path).unwrap();
        assert_eq!(s.resolve_session(None).unwrap().status, "complete");
        assert_eq!(s.runs(id).unwrap()[0].wall_s, 1.5);
        assert_eq!(s.run_counts(id).unwrap(), (1, 1));
        assert!(s.resolve_session(Some("99")).is_err());
        assert!(Store::open_existing(&dir.path().join("none.sqlite")).is_err());
        assert!(Store::create(Path::new("/dev/null/x.sqlite")).is_err());
    }

    #[test]
    fn brings_a_version_1_file_up_to_date() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v1.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_version (version INTEGER NOT NULL);
             INSERT INTO schema_version (version) VALUES (1);
             INSERT INTO session (started_at, status, git_commit, host_cpu, host_cores, host_memory_bytes,
                host_kernel, command_line, profile, settings, suite_path)
                VALUES ('t', 'complete', '', '', 1, 0, '', '', 'quick', '{}', '');
             INSERT INTO session_impl VALUES (1, 'old', 'sh', 'v', 'available', '', 'old {bench} {params}');",
        )
        .unwrap();
        drop(conn);
        let s = Store::open_existing(&path).unwrap();
        assert_eq!(s.version().unwrap(), SCHEMA_VERSION);
        let old = &s.impls(1).unwrap()[0];
        assert_eq!((old.name.as_str(), old.variant_of.as_str()), ("old", ""));
        let variant = ImplRecord {
            name: "old-fast".into(),
            variant_of: "old".into(),
            env: "MODE=fast".into(),
            ..Default::default()
        };
        s.put_impl(1, &variant).unwrap();
        let back = &s.impls(1).unwrap()[1];
        assert_eq!(
            (back.variant_of.as_str(), back.env.as_str()),
            ("old", "MODE=fast")
        );
    }

    #[test]
    fn a_version_2_file_keeps_its_runs_and_gains_work_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v2.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.execute_batch(MIGRATIONS[1]).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_version (version INTEGER NOT NULL);
             INSERT INTO schema_version (version) VALUES (1), (2);
             INSERT INTO session (started_at, status, git_commit, host_cpu, host_cores, host_memory_bytes,
                host_kernel, command_line, profile, settings, suite_path)
                VALUES ('t', 'complete', '', '', 1, 0, '', '', 'quick', '{}', '');
             INSERT INTO run (session_id, seq, implementation, bench, params, cores, rep, warmup, started_at,
                command, status, wall_s, user_s, sys_s, cpu_util, max_rss_bytes, voluntary_switches,
                involuntary_switches, stdout_bytes, stderr_bytes, stderr_tail, detail)
                VALUES (1, 0, 'old', 'b', 'n=1', 1, 0, 0, 't', 'c', 'ok', 0.5, 0.4, 0.1, 1.0, 0, 0, 0, 0, 0, '', '');",
        )
        .unwrap();
        drop(conn);
        let s = Store::open_existing(&path).unwrap();
        assert_eq!(s.version().unwrap(), SCHEMA_VERSION);
        let old = &s.runs(1).unwrap()[0];
        assert_eq!((old.wall_s, old.work_s), (0.5, None));
        let id = s
            .insert_run(&RunRecord {
                session_id: 1,
                seq: 1,
                status: "ok".into(),
                wall_s: 0.5,
                work_s: Some(0.25),
                ..Default::default()
            })
            .unwrap();
        let new = s.runs(1).unwrap().into_iter().find(|r| r.id == id).unwrap();
        assert_eq!(new.work_s, Some(0.25));
        assert!(s.cells(1).unwrap().is_empty());
        let cell = CellRecord {
            implementation: "old".into(),
            bench: "b".into(),
            params: "n=1".into(),
            cores: 1,
            measured: 2,
            stop: "target-ci".into(),
        };
        s.put_cells(1, std::slice::from_ref(&cell)).unwrap();
        assert_eq!(s.cells(1).unwrap(), [cell]);
    }

    #[test]
    fn refuses_foreign_and_newer_files() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("notes.txt");
        std::fs::write(
            &text,
            "not a database at all, just some text that is long enough",
        )
        .unwrap();
        assert!(Store::open_existing(&text).is_err());
        let newer = dir.path().join("newer.sqlite");
        Store::create(&newer).unwrap();
        let conn = Connection::open(&newer).unwrap();
        conn.execute("INSERT INTO schema_version (version) VALUES (99)", [])
            .unwrap();
        drop(conn);
        let e = Store::open_existing(&newer).err().unwrap().to_string();
        assert!(e.contains("newer"), "{e}");
        assert!(Store::create(&newer).is_err());
    }
}
