//! The results store: every session and every run, in an SQLite file (the embedded
//! default) or in a PostgreSQL database (a fleet's shared history).
//!
//! `--db` names either: a path is an SQLite file (bundled SQLite), a `postgres://` or
//! `postgresql://` URL a PostgreSQL database. Both hold the same schema, made by the same
//! numbered migrations in each dialect ([`migrations`]), and every command reads and
//! writes through [`Store`], whose queries are written once for both ([`backend`]).
//!
//! Schema (version 6):
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
//! - Since version 4, `session` also holds a unique `uid` (so [`import`] recognises what
//!   it copied before), the harness's version, its owner process ([`crate::owner`]) and
//!   the environment ([`crate::environment`]): CPU governor, SMT, load averages before and
//!   after, the CPUs other processes used meanwhile and the busy verdict. Status
//!   `abandoned` marks a session whose harness died without ending it: whenever a store
//!   is opened, each `running` session owned by a harness on this host that is gone is
//!   marked so, its finished runs kept and its end set to the start of its last run.
//! - Since version 5, `session` also holds what else shapes a measurement
//!   ([`crate::machine`]): transparent huge pages (`thp`), CPU boost (`cpu_boost`), the
//!   cgroup CPU quota (`cgroup_cpu`), and the runtime knobs of the harness's environment
//!   (`env_knobs`, `K=V` words) with whether they reached the runs (`env_mode`: `clean`
//!   or `inherit`, see [`crate::knobs`]); `session_impl` holds the SHA-256 of the files
//!   each implementation's runs executed (`binary_sha256`).
//! - Since version 6, `run_counter(run_id, name, value)` holds each run's event counts
//!   ([`crate::counters`]: page faults, context switches, ... and, where a PMU is,
//!   instructions and cycles; `callgrind-ir` for a `count` session), one row per counter
//!   that could be read, and `session.kind` says what made the session: `run`, or
//!   `count` ([`crate::count`]).
//!
//! Each run row is inserted in its own transaction as soon as the run finishes (commits
//! are durable when the call returns), so a crash or Ctrl-C loses nothing that was
//! already measured. Two harnesses may write to one store at once: every write is one
//! statement or one transaction, ids come from the database, SQLite waits up to
//! [`backend::SQLITE_BUSY_TIMEOUT`] for the other writer's lock, and PostgreSQL's
//! transactions do not interfere.

pub mod backend;
pub mod import;
pub mod migrations;
mod records;

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use backend::{Db, SQLITE_BUSY_TIMEOUT};
pub use backend::{Row, Value};
pub use records::{CellRecord, ImplRecord, RunRecord, SessionData, SessionRecord};

use crate::error::UsageError;
use crate::owner::Owner;

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = migrations::SQLITE.len() as i64;

/// Whether `--db` names a PostgreSQL database (a `postgres://` or `postgresql://` URL)
/// rather than an SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// A URL with its password, if any, replaced by `***`, for messages (see
/// [`crate::secrets`]).
pub fn redact(url: &str) -> String {
    crate::secrets::redact(url)
}

/// A session that was left `running` by a harness that is gone, as marked on opening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Abandoned {
    /// The session.
    pub id: i64,
    /// Its finished runs, all kept.
    pub runs: i64,
}

/// An open results store.
pub struct Store {
    db: RefCell<Db>,
    /// The file, for an SQLite store.
    file: Option<PathBuf>,
    /// What to call it in messages: the file, or the URL without its password.
    name: String,
    abandoned: Vec<Abandoned>,
}

impl Store {
    /// Opens the store `db` names for writing: an SQLite file (created with its directory
    /// if needed) or a PostgreSQL URL. Any failure is a [`UsageError`]: it is not usable.
    pub fn create(db: &Path) -> Result<Store> {
        let text = db.to_string_lossy();
        if is_postgres_url(&text) {
            return Self::postgres(&text);
        }
        let bad = |e: String| {
            UsageError::new(format!(
                "cannot write the results database {}: {e}",
                db.display()
            ))
        };
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| bad(e.to_string()))?;
        }
        if db.is_dir() {
            return Err(bad("it is a directory".into()).into());
        }
        let conn = rusqlite::Connection::open(db).map_err(|e| bad(e.to_string()))?;
        conn.busy_timeout(SQLITE_BUSY_TIMEOUT)
            .map_err(|e| bad(e.to_string()))?;
        let mut store = Store::wrap(Db::Sqlite(conn), Some(db.to_path_buf()));
        store
            .db
            .get_mut()
            .migrate()
            .map_err(|e| bad(format!("{e:#}")))?;
        store.mark_abandoned()?;
        Ok(store)
    }

    /// Opens an existing store: an SQLite file (missing, or not a results store: a
    /// [`UsageError`]) or a PostgreSQL URL (brought up to date like [`Store::create`]).
    pub fn open_existing(db: &Path) -> Result<Store> {
        let text = db.to_string_lossy();
        if is_postgres_url(&text) {
            return Self::postgres(&text);
        }
        if !db.is_file() {
            return Err(UsageError::new(format!(
                "no results database at {} (run `actorbench run` first, or pass --db PATH)",
                db.display()
            ))
            .into());
        }
        let bad = |e: String| {
            UsageError::new(format!(
                "cannot read the results database {}: {e}",
                db.display()
            ))
        };
        use rusqlite::OpenFlags;
        let conn = rusqlite::Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_WRITE)
            .or_else(|_| {
                rusqlite::Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY)
            })
            .map_err(|e| bad(e.to_string()))?;
        let _ = conn.busy_timeout(SQLITE_BUSY_TIMEOUT);
        let mut store = Store::wrap(Db::Sqlite(conn), Some(db.to_path_buf()));
        let version = store.version().map_err(|e| bad(format!("{e:#}")))?;
        if version == 0 {
            return Err(bad("it holds no actorbench results".into()).into());
        }
        if version > SCHEMA_VERSION {
            return Err(bad(format!(
                "schema version {version} is newer than this actorbench ({SCHEMA_VERSION})"
            ))
            .into());
        }
        if version < SCHEMA_VERSION {
            store
                .db
                .get_mut()
                .migrate()
                .map_err(|e| bad(format!("{e:#}")))?;
        }
        // A read-only file cannot be marked; it is read as it is.
        if store.mark_abandoned().is_err() {
            store.abandoned.clear();
        }
        Ok(store)
    }

    fn postgres(url: &str) -> Result<Store> {
        let name = redact(url);
        let bad =
            |e: String| UsageError::new(format!("cannot use the results database {name}: {e}"));
        let mut config: postgres::Config = url
            .parse()
            .map_err(|e: postgres::Error| bad(format!("{e:#}")))?;
        crate::pgpass::fill(&mut config);
        let client = config
            .connect(postgres::NoTls)
            .map_err(|e| bad(format!("{e:#}")))?;
        let mut store = Store::wrap(Db::Postgres(Box::new(client)), None);
        store.name = name.clone();
        store
            .db
            .get_mut()
            .migrate()
            .map_err(|e| bad(format!("{e:#}")))?;
        store.mark_abandoned()?;
        Ok(store)
    }

    fn wrap(db: Db, file: Option<PathBuf>) -> Store {
        Store {
            db: RefCell::new(db),
            name: file
                .as_ref()
                .map(|f| f.display().to_string())
                .unwrap_or_default(),
            file,
            abandoned: Vec::new(),
        }
    }

    /// The store as messages name it: the file, or the URL without its password.
    pub fn location(&self) -> &str {
        &self.name
    }

    /// The SQLite file, if this store is one.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The directory beside an SQLite store, for the report; `None` for PostgreSQL.
    pub fn dir(&self) -> Option<PathBuf> {
        self.file
            .as_ref()
            .map(|f| f.parent().unwrap_or(Path::new(".")).to_path_buf())
    }

    /// Whether this store is a PostgreSQL database.
    pub fn is_postgres(&self) -> bool {
        self.db.borrow().is_postgres()
    }

    /// The sessions marked `abandoned` when this store was opened.
    pub fn abandoned(&self) -> &[Abandoned] {
        &self.abandoned
    }

    /// The schema version.
    pub fn version(&self) -> Result<i64> {
        self.db.borrow_mut().version()
    }

    fn execute(&self, sql: &str, params: &[Value]) -> Result<u64> {
        self.db.borrow_mut().execute(sql, params)
    }

    fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
        self.db.borrow_mut().query(sql, params)
    }

    /// Runs `f` in one transaction: everything it writes is committed together, or
    /// nothing is when it fails.
    pub fn atomically<T>(&self, f: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        self.db.borrow_mut().begin()?;
        match f(self) {
            Ok(v) => {
                self.db.borrow_mut().batch("COMMIT")?;
                Ok(v)
            }
            Err(e) => {
                let _ = self.db.borrow_mut().batch("ROLLBACK");
                Err(e)
            }
        }
    }

    /// Marks every `running` session whose owner, a harness on this host, is gone as
    /// `abandoned` (see the module docs); remembers them for [`Store::abandoned`].
    fn mark_abandoned(&mut self) -> Result<()> {
        let running = self.query(
            "SELECT id, owner, started_at FROM session WHERE status = 'running' ORDER BY id",
            &[],
        )?;
        for row in running {
            let (id, owner, started) = (row.int(0)?, row.text(1)?, row.text(2)?);
            if !Owner::parse(&owner).is_some_and(|o| o.is_gone()) {
                continue;
            }
            let last = self.query(
                "SELECT max(started_at), count(*) FROM run WHERE session_id = $1",
                &[id.into()],
            )?;
            let (ended, runs) = match last.first() {
                Some(r) => (r.opt_text(0)?.unwrap_or(started), r.int(1)?),
                None => (started, 0),
            };
            let changed = self.execute(
                "UPDATE session SET status = 'abandoned', ended_at = $1
                 WHERE id = $2 AND status = 'running'",
                &[ended.into(), id.into()],
            )?;
            if changed == 1 {
                self.abandoned.push(Abandoned { id, runs });
            }
        }
        Ok(())
    }

    /// Inserts a new session (status `running`) and returns its id. Its `uid` and
    /// `owner` are made here when empty: a new random id, and this process.
    pub fn begin_session(&self, s: &SessionRecord) -> Result<i64> {
        let mut s = s.clone();
        if s.uid.is_empty() {
            s.uid = uuid::Uuid::new_v4().simple().to_string();
        }
        if s.owner.is_empty() {
            s.owner = Owner::me().to_string();
        }
        if s.kind.is_empty() {
            s.kind = "run".into();
        }
        s.status = "running".into();
        s.ended_at = None;
        self.insert_session(&s)
    }

    /// Inserts a session row as it is (status included); returns its new id.
    fn insert_session(&self, s: &SessionRecord) -> Result<i64> {
        let rows = self.query(
            &insert_sql("session", &SESSION_COLUMNS[1..]),
            &session_values(s),
        )?;
        rows.first()
            .context("no id returned for the new session")?
            .int(0)
    }

    /// Records (or updates) what a session knows about an implementation.
    pub fn put_impl(&self, session: i64, r: &ImplRecord) -> Result<()> {
        self.execute(
            "INSERT INTO session_impl (session_id, name, language, version, status, detail, run_template,
                variant_of, env, binary_sha256)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             ON CONFLICT (session_id, name) DO UPDATE SET language = excluded.language,
                version = excluded.version, status = excluded.status, detail = excluded.detail,
                run_template = excluded.run_template, variant_of = excluded.variant_of, env = excluded.env,
                binary_sha256 = excluded.binary_sha256",
            &[
                session.into(),
                (&r.name).into(),
                (&r.language).into(),
                (&r.version).into(),
                (&r.status).into(),
                (&r.detail).into(),
                (&r.run_template).into(),
                (&r.variant_of).into(),
                (&r.env).into(),
                (&r.binary_sha256).into(),
            ],
        )?;
        Ok(())
    }

    /// Replaces a session's settings (JSON): `run` adds what its repetitions came to.
    pub fn set_settings(&self, session: i64, settings: &str) -> Result<()> {
        self.execute(
            "UPDATE session SET settings = $1 WHERE id = $2",
            &[settings.into(), session.into()],
        )?;
        Ok(())
    }

    /// Marks a session ended with `status` at `ended_at`.
    pub fn end_session(&self, session: i64, status: &str, ended_at: &str) -> Result<()> {
        self.execute(
            "UPDATE session SET status = $1, ended_at = $2 WHERE id = $3",
            &[status.into(), ended_at.into(), session.into()],
        )?;
        Ok(())
    }

    /// Records the environment when a session ended: load averages, the CPUs other
    /// processes used meanwhile, and the busy verdict.
    pub fn put_environment_after(
        &self,
        session: i64,
        load_after: &str,
        others_cpu: Option<f64>,
        busy: &str,
    ) -> Result<()> {
        self.execute(
            "UPDATE session SET load_after = $1, others_cpu = $2, busy = $3 WHERE id = $4",
            &[
                load_after.into(),
                (&others_cpu).into(),
                busy.into(),
                session.into(),
            ],
        )?;
        Ok(())
    }

    /// Inserts one run with its counters, committed together before returning; returns
    /// its id.
    pub fn insert_run(&self, r: &RunRecord) -> Result<i64> {
        if r.counters.is_empty() {
            return self.insert_run_in(r);
        }
        self.atomically(|s| s.insert_run_in(r))
    }

    /// [`Store::insert_run`] inside a transaction the caller holds (or none, when the run
    /// has no counters).
    fn insert_run_in(&self, r: &RunRecord) -> Result<i64> {
        let rows = self.query(&insert_sql("run", &RUN_COLUMNS[1..]), &run_values(r))?;
        let id = rows
            .first()
            .context("no id returned for the new run")?
            .int(0)?;
        for (name, value) in &r.counters {
            self.execute(
                "INSERT INTO run_counter (run_id, name, value) VALUES ($1, $2, $3)",
                &[id.into(), name.into(), (*value).into()],
            )?;
        }
        Ok(id)
    }

    /// Records, all at once, how many measured runs each cell got and why it stopped.
    pub fn put_cells(&self, session: i64, cells: &[CellRecord]) -> Result<()> {
        self.atomically(|s| s.insert_cells(session, cells))
    }

    /// [`Store::put_cells`] inside a transaction the caller holds.
    fn insert_cells(&self, session: i64, cells: &[CellRecord]) -> Result<()> {
        {
            for c in cells {
                self.execute(
                    "INSERT INTO cell (session_id, implementation, bench, params, cores, measured, stop)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (session_id, implementation, bench, params, cores)
                     DO UPDATE SET measured = excluded.measured, stop = excluded.stop",
                    &[
                        session.into(),
                        (&c.implementation).into(),
                        (&c.bench).into(),
                        (&c.params).into(),
                        c.cores.into(),
                        c.measured.into(),
                        (&c.stop).into(),
                    ],
                )?;
            }
            Ok(())
        }
    }

    /// The cells' stopping records of a session.
    pub fn cells(&self, session: i64) -> Result<Vec<CellRecord>> {
        self.query(
            "SELECT implementation, bench, params, cores, measured, stop FROM cell
             WHERE session_id = $1 ORDER BY rowid",
            &[session.into()],
        )?
        .iter()
        .map(|r| {
            Ok(CellRecord {
                implementation: r.text(0)?,
                bench: r.text(1)?,
                params: r.text(2)?,
                cores: r.int(3)?,
                measured: r.int(4)?,
                stop: r.text(5)?,
            })
        })
        .collect()
    }

    /// Every session, oldest first.
    pub fn sessions(&self) -> Result<Vec<SessionRecord>> {
        self.query(
            &format!("{} ORDER BY id", select_sql("session", SESSION_COLUMNS)),
            &[],
        )?
        .iter()
        .map(session_from_row)
        .collect()
    }

    /// The session `id`, if it exists.
    pub fn session(&self, id: i64) -> Result<Option<SessionRecord>> {
        self.query(
            &format!("{} WHERE id = $1", select_sql("session", SESSION_COLUMNS)),
            &[id.into()],
        )?
        .first()
        .map(session_from_row)
        .transpose()
    }

    /// The session with this `uid`, if the store has it.
    pub fn session_by_uid(&self, uid: &str) -> Result<Option<SessionRecord>> {
        self.query(
            &format!("{} WHERE uid = $1", select_sql("session", SESSION_COLUMNS)),
            &[uid.into()],
        )?
        .first()
        .map(session_from_row)
        .transpose()
    }

    /// The newest session's id.
    pub fn latest_session(&self) -> Result<Option<i64>> {
        let rows = self.query("SELECT max(id) FROM session", &[])?;
        rows.first().map_or(Ok(None), |r| r.opt_int(0))
    }

    /// Resolves a session argument (`12`, `latest`, or none for latest) to a stored session.
    pub fn resolve_session(&self, arg: Option<&str>) -> Result<SessionRecord> {
        let id = match arg {
            None | Some("latest") | Some("last") => self.latest_session()?.ok_or_else(|| {
                UsageError::new(format!(
                    "the results database {} holds no sessions yet",
                    self.name
                ))
            })?,
            Some(s) => s.parse::<i64>().map_err(|_| {
                UsageError::new(format!("'{s}' is not a session: give a session number (see `actorbench list`) or 'latest'"))
            })?,
        };
        self.session(id)?.ok_or_else(|| {
            UsageError::new(format!(
                "no session {id} in {} (see `actorbench list`)",
                self.name
            ))
            .into()
        })
    }

    /// The implementations a session saw, in the order they were recorded.
    pub fn impls(&self, session: i64) -> Result<Vec<ImplRecord>> {
        self.query(
            "SELECT name, language, version, status, detail, run_template, variant_of, env, binary_sha256
             FROM session_impl
             WHERE session_id = $1 ORDER BY rowid",
            &[session.into()],
        )?
        .iter()
        .map(|r| {
            Ok(ImplRecord {
                name: r.text(0)?,
                language: r.text(1)?,
                version: r.text(2)?,
                status: r.text(3)?,
                detail: r.text(4)?,
                run_template: r.text(5)?,
                variant_of: r.text(6)?,
                env: r.text(7)?,
                binary_sha256: r.text(8)?,
            })
        })
        .collect()
    }

    /// Number of runs and failed runs in a session.
    pub fn run_counts(&self, session: i64) -> Result<(i64, i64)> {
        let rows = self.query(
            "SELECT count(*), CAST(coalesce(sum(CASE WHEN status <> 'ok' THEN 1 ELSE 0 END), 0) AS BIGINT)
             FROM run WHERE session_id = $1",
            &[session.into()],
        )?;
        let r = rows.first().context("no counts returned")?;
        Ok((r.int(0)?, r.int(1)?))
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
        self.select_runs("WHERE session_id = $1 ORDER BY seq, id", &[session.into()])
    }

    /// Every run of one benchmark and implementation in every session, by session then
    /// run order: what `history` reads.
    pub fn runs_of(&self, bench: &str, implementation: &str) -> Result<Vec<RunRecord>> {
        self.select_runs(
            "WHERE bench = $1 AND implementation = $2 ORDER BY session_id, seq, id",
            &[bench.into(), implementation.into()],
        )
    }

    /// Runs matching `filter` (a WHERE and ORDER BY clause with `$n` parameters on the
    /// `run` table), each with its counters.
    fn select_runs(&self, filter: &str, params: &[Value]) -> Result<Vec<RunRecord>> {
        let mut runs: Vec<RunRecord> = self
            .query(
                &format!("{} {filter}", select_sql("run", RUN_COLUMNS)),
                params,
            )?
            .iter()
            .map(run_from_row)
            .collect::<Result<_>>()?;
        let counters = self.query(
            &format!(
                "SELECT run_counter.run_id, run_counter.name, run_counter.value
                 FROM run_counter JOIN run ON run.id = run_counter.run_id {filter}"
            ),
            params,
        )?;
        let at: std::collections::HashMap<i64, usize> =
            runs.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
        for row in &counters {
            if let Some(&i) = at.get(&row.int(0)?) {
                runs[i].counters.insert(row.text(1)?, row.real(2)?);
            }
        }
        Ok(runs)
    }
}

/// `INSERT INTO table (a, b, ...) VALUES ($1, $2, ...) RETURNING id`.
fn insert_sql(table: &str, columns: &[&str]) -> String {
    let marks: Vec<String> = (1..=columns.len()).map(|i| format!("${i}")).collect();
    format!(
        "INSERT INTO {table} ({}) VALUES ({}) RETURNING id",
        columns.join(", "),
        marks.join(", ")
    )
}

/// `SELECT a, b, ... FROM table`.
fn select_sql(table: &str, columns: &[&str]) -> String {
    format!("SELECT {} FROM {table}", columns.join(", "))
}

/// The session table's columns, `id` first, in the order of [`session_values`] and
/// [`session_from_row`].
const SESSION_COLUMNS: &[&str] = &[
    "id",
    "started_at",
    "ended_at",
    "status",
    "git_commit",
    "host_cpu",
    "host_cores",
    "host_memory_bytes",
    "host_kernel",
    "command_line",
    "profile",
    "settings",
    "suite_path",
    "uid",
    "harness_version",
    "owner",
    "cpu_governor",
    "smt",
    "load_before",
    "load_after",
    "others_cpu",
    "busy",
    "thp",
    "cpu_boost",
    "cgroup_cpu",
    "env_mode",
    "env_knobs",
    "kind",
];

/// A session's values for every column but `id`.
fn session_values(s: &SessionRecord) -> Vec<Value> {
    vec![
        (&s.started_at).into(),
        (&s.ended_at).into(),
        (&s.status).into(),
        (&s.git_commit).into(),
        (&s.host_cpu).into(),
        s.host_cores.into(),
        s.host_memory_bytes.into(),
        (&s.host_kernel).into(),
        (&s.command_line).into(),
        (&s.profile).into(),
        (&s.settings).into(),
        (&s.suite_path).into(),
        (&s.uid).into(),
        (&s.harness_version).into(),
        (&s.owner).into(),
        (&s.cpu_governor).into(),
        (&s.smt).into(),
        (&s.load_before).into(),
        (&s.load_after).into(),
        (&s.others_cpu).into(),
        (&s.busy).into(),
        (&s.thp).into(),
        (&s.cpu_boost).into(),
        (&s.cgroup_cpu).into(),
        (&s.env_mode).into(),
        (&s.env_knobs).into(),
        (&s.kind).into(),
    ]
}

fn session_from_row(r: &Row) -> Result<SessionRecord> {
    Ok(SessionRecord {
        id: r.int(0)?,
        started_at: r.text(1)?,
        ended_at: r.opt_text(2)?,
        status: r.text(3)?,
        git_commit: r.text(4)?,
        host_cpu: r.text(5)?,
        host_cores: r.int(6)?,
        host_memory_bytes: r.int(7)?,
        host_kernel: r.text(8)?,
        // Redacted on reading too, for sessions stored before passwords were kept out.
        command_line: crate::secrets::redact(&r.text(9)?),
        profile: r.text(10)?,
        settings: r.text(11)?,
        suite_path: r.text(12)?,
        uid: r.text(13)?,
        harness_version: r.text(14)?,
        owner: r.text(15)?,
        cpu_governor: r.text(16)?,
        smt: r.text(17)?,
        load_before: r.text(18)?,
        load_after: r.opt_text(19)?,
        others_cpu: r.opt_real(20)?,
        busy: r.text(21)?,
        thp: r.text(22)?,
        cpu_boost: r.text(23)?,
        cgroup_cpu: r.text(24)?,
        env_mode: r.text(25)?,
        env_knobs: r.text(26)?,
        kind: r.text(27)?,
    })
}

/// The run table's columns, `id` first, in the order of [`run_values`] and
/// [`run_from_row`].
const RUN_COLUMNS: &[&str] = &[
    "id",
    "session_id",
    "seq",
    "implementation",
    "bench",
    "params",
    "cores",
    "rep",
    "warmup",
    "started_at",
    "command",
    "status",
    "exit_code",
    "signal",
    "wall_s",
    "work_s",
    "user_s",
    "sys_s",
    "cpu_util",
    "max_rss_bytes",
    "voluntary_switches",
    "involuntary_switches",
    "expected_check",
    "check_value",
    "result_line",
    "counts",
    "fairness_stddev",
    "fairness_cv",
    "fairness_jain",
    "fairness_min",
    "fairness_max",
    "fairness_ideal",
    "stdout_bytes",
    "stderr_bytes",
    "stderr_tail",
    "detail",
];

/// A run's values for every column but `id`.
fn run_values(r: &RunRecord) -> Vec<Value> {
    vec![
        r.session_id.into(),
        r.seq.into(),
        (&r.implementation).into(),
        (&r.bench).into(),
        (&r.params).into(),
        r.cores.into(),
        r.rep.into(),
        r.warmup.into(),
        (&r.started_at).into(),
        (&r.command).into(),
        (&r.status).into(),
        (&r.exit_code).into(),
        (&r.signal).into(),
        r.wall_s.into(),
        (&r.work_s).into(),
        r.user_s.into(),
        r.sys_s.into(),
        r.cpu_util.into(),
        r.max_rss_bytes.into(),
        r.voluntary_switches.into(),
        r.involuntary_switches.into(),
        (&r.expected_check).into(),
        (&r.check_value).into(),
        (&r.result_line).into(),
        (&r.counts).into(),
        (&r.fairness_stddev).into(),
        (&r.fairness_cv).into(),
        (&r.fairness_jain).into(),
        (&r.fairness_min).into(),
        (&r.fairness_max).into(),
        (&r.fairness_ideal).into(),
        r.stdout_bytes.into(),
        r.stderr_bytes.into(),
        (&r.stderr_tail).into(),
        (&r.detail).into(),
    ]
}

fn run_from_row(r: &Row) -> Result<RunRecord> {
    Ok(RunRecord {
        id: r.int(0)?,
        session_id: r.int(1)?,
        seq: r.int(2)?,
        implementation: r.text(3)?,
        bench: r.text(4)?,
        params: r.text(5)?,
        cores: r.int(6)?,
        rep: r.int(7)?,
        warmup: r.bool(8)?,
        started_at: r.text(9)?,
        command: r.text(10)?,
        status: r.text(11)?,
        exit_code: r.opt_int(12)?,
        signal: r.opt_int(13)?,
        wall_s: r.real(14)?,
        work_s: r.opt_real(15)?,
        user_s: r.real(16)?,
        sys_s: r.real(17)?,
        cpu_util: r.real(18)?,
        max_rss_bytes: r.int(19)?,
        voluntary_switches: r.int(20)?,
        involuntary_switches: r.int(21)?,
        expected_check: r.opt_text(22)?,
        check_value: r.opt_text(23)?,
        result_line: r.opt_text(24)?,
        counts: r.opt_text(25)?,
        fairness_stddev: r.opt_real(26)?,
        fairness_cv: r.opt_real(27)?,
        fairness_jain: r.opt_real(28)?,
        fairness_min: r.opt_int(29)?,
        fairness_max: r.opt_int(30)?,
        fairness_ideal: r.opt_real(31)?,
        stdout_bytes: r.int(32)?,
        stderr_bytes: r.int(33)?,
        stderr_tail: r.text(34)?,
        detail: r.text(35)?,
        counters: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::migrations::SQLITE as MIGRATIONS;
    use super::*;
    use rusqlite::Connection;

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
    fn a_version_3_file_gets_a_uid_for_each_session() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v3.sqlite");
        let conn = Connection::open(&path).unwrap();
        for m in &MIGRATIONS[..3] {
            conn.execute_batch(m).unwrap();
        }
        conn.execute_batch(
            "CREATE TABLE schema_version (version INTEGER NOT NULL);
             INSERT INTO schema_version (version) VALUES (1), (2), (3);
             INSERT INTO session (started_at, status, git_commit, host_cpu, host_cores, host_memory_bytes,
                host_kernel, command_line, profile, settings, suite_path)
                VALUES ('t', 'complete', '', '', 1, 0, '', '', 'quick', '{}', ''),
                       ('u', 'running', '', '', 1, 0, '', '', 'quick', '{}', '');",
        )
        .unwrap();
        drop(conn);
        let s = Store::open_existing(&path).unwrap();
        assert_eq!(s.version().unwrap(), SCHEMA_VERSION);
        let all = s.sessions().unwrap();
        assert_eq!(all.len(), 2);
        assert!(all.iter().all(|x| x.uid.len() == 32));
        assert_ne!(all[0].uid, all[1].uid);
        // A running session from before owners were recorded cannot be judged: left alone.
        assert_eq!(all[1].status, "running");
        assert!(s.abandoned().is_empty());
    }

    #[test]
    fn a_version_5_file_gains_counters_and_kinds_and_both_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v5.sqlite");
        let conn = Connection::open(&path).unwrap();
        for m in &MIGRATIONS[..5] {
            conn.execute_batch(m).unwrap();
        }
        conn.execute_batch(
            "CREATE TABLE schema_version (version INTEGER NOT NULL);
             INSERT INTO schema_version (version) VALUES (1), (2), (3), (4), (5);
             INSERT INTO session (started_at, status, git_commit, host_cpu, host_cores, host_memory_bytes,
                host_kernel, command_line, profile, settings, suite_path, uid)
                VALUES ('t', 'complete', '', '', 1, 0, '', '', 'quick', '{}', '', 'abc');
             INSERT INTO run (session_id, seq, implementation, bench, params, cores, rep, warmup, started_at,
                command, status, wall_s, user_s, sys_s, cpu_util, max_rss_bytes, voluntary_switches,
                involuntary_switches, stdout_bytes, stderr_bytes, stderr_tail, detail)
                VALUES (1, 0, 'old', 'b', 'n=1', 1, 0, 0, 't', 'c', 'ok', 0.5, 0.4, 0.1, 1.0, 0, 0, 0, 0, 0, '', '');",
        )
        .unwrap();
        drop(conn);
        let s = Store::open_existing(&path).unwrap();
        assert_eq!(s.version().unwrap(), SCHEMA_VERSION);
        let old = s.session(1).unwrap().unwrap();
        assert_eq!(old.kind, "run");
        assert!(s.runs(1).unwrap()[0].counters.is_empty());
        let id = s
            .begin_session(&SessionRecord {
                kind: "count".into(),
                ..Default::default()
            })
            .unwrap();
        let counters: std::collections::BTreeMap<String, f64> =
            [("page-faults".into(), 1234.0), ("task-clock".into(), 0.25)].into();
        for seq in 0..2 {
            s.insert_run(&RunRecord {
                session_id: id,
                seq,
                status: "ok".into(),
                counters: counters.clone(),
                ..Default::default()
            })
            .unwrap();
        }
        assert_eq!(s.session(id).unwrap().unwrap().kind, "count");
        let back = s.runs(id).unwrap();
        assert_eq!(back.len(), 2);
        assert!(back.iter().all(|r| r.counters == counters));
        // A new session without a kind is a run.
        let plain = s.begin_session(&SessionRecord::default()).unwrap();
        assert_eq!(s.session(plain).unwrap().unwrap().kind, "run");
    }

    #[test]
    fn redacts_passwords() {
        assert_eq!(
            redact("postgres://u:pw@h:5432/db?sslmode=off"),
            "postgres://u:***@h:5432/db?sslmode=off"
        );
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert!(is_postgres_url("postgresql://h/db") && !is_postgres_url("results/a.sqlite"));
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
