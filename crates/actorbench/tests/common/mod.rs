//! Shared helpers for the integration tests: a temporary suite of fake implementations
//! (one shell script whose first argument picks how it misbehaves) and a way to run the
//! `actorbench` binary on it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use actorbench::store::{ImplRecord, RunRecord, SessionRecord, Store};

/// The fake implementation. `fake.sh MODE BENCH PARAMS...`; it understands threadring and
/// chameneos parameters and answers per MODE. Its `seconds=` is the time from just after
/// its own start-up (`boot` sleeps 0.2 s before that) until the answer, read with `date`,
/// except in the timed modes (`slow`, `steady`, `jitter`), which report the time they
/// planned to sleep, so that the statistics tests do not depend on the machine's load.
pub const FAKE: &str = r#"#!/bin/sh
mode=$1; bench=$2; shift 2
[ "$mode" = boot ] && sleep 0.2
t0=$(date +%s%N)
actors=503; hops=1000000; creatures=70; meetings=200000
for a in "$@"; do
  case $a in
    actors=*) actors=${a#actors=} ;;
    hops=*) hops=${a#hops=} ;;
    creatures=*) creatures=${a#creatures=} ;;
    meetings=*) meetings=${a#meetings=} ;;
  esac
done
seconds() {
  ns=$(( $(date +%s%N) - t0 )); [ $ns -gt 0 ] || ns=1
  printf '%d.%09d' $(( ns / 1000000000 )) $(( ns % 1000000000 ))
}
answer() {
  s=${planned:-$(seconds)}
  case $bench in
    threadring) echo "result bench=threadring check=$(( hops % actors + 1 )) seconds=$s$1" ;;
    chameneos)
      each=$(( 2 * meetings / creatures )); extra=$(( 2 * meetings - each * creatures ))
      counts=$(( each + extra )); i=1
      while [ $i -lt $creatures ]; do counts="$counts,$each"; i=$(( i + 1 )); done
      echo "result bench=chameneos check=$(( 2 * meetings )) seconds=$s counts=$counts$1" ;;
    *) echo "error: unknown benchmark '$bench' (known: threadring, chameneos)" >&2; exit 2 ;;
  esac
}
case $mode in
  right|boot) answer "" ;;
  wrong) echo "result bench=$bench check=999999 seconds=$(seconds)" ;;
  noseconds) echo "result bench=threadring check=$(( hops % actors + 1 ))" ;;
  badseconds) echo "result bench=threadring check=$(( hops % actors + 1 )) seconds=abc" ;;
  longseconds) echo "result bench=threadring check=$(( hops % actors + 1 )) seconds=1000" ;;
  fail) echo "boom: deliberate failure" >&2; exit 3 ;;
  crash) kill -SEGV $$ ;;
  hang) sleep 1000 ;;
  flood) yes floodfloodfloodfloodfloodflood | head -c 40000000; answer "" ;;
  alloc) exec python3 -c "import time; t = time.monotonic(); x = b'x' * (200 << 20); print('result bench=threadring check=$(( hops % actors + 1 )) seconds=%.9f' % max(time.monotonic() - t, 1e-9))" ;;
  cpus) answer " cpus=$(grep Cpus_allowed_list /proc/self/status | cut -f2) threads=$FAKE_THREADS" ;;
  # The timed modes sleep, then report the planned time as their work time, so that the
  # figures the statistics tests check do not depend on how busy the machine is (the
  # process's wall time still covers the sleep, so seconds <= wall holds).
  slow) sleep 0.3; planned=0.3 answer "" ;;
  steady) sleep 0.1; planned=0.1 answer "" ;;
  jitter)
    n=$(cat jitter.count 2>/dev/null || echo 0); echo $(( n + 1 )) > jitter.count
    if [ $(( n % 2 )) = 0 ]; then sleep 0.05; planned=0.05 answer ""; else sleep 0.15; planned=0.15 answer ""; fi ;;
  hog)
    # 200 MB held for 30 s by a child process (not exec'd: the group's memory counts).
    python3 -c "import time; x = b'x' * (200 << 20); time.sleep(30)"
    answer "" ;;
  family)
    # A program with a child of its own (as a shell script, BEAM or a build has): both
    # pids go to family.pids, then it waits for ever.
    sleep 1000 &
    echo "$$ $!" >> family.pids
    wait ;;
  contract)
    # A fake that also honours the contract's bad-input rules (for verify).
    for a in "$@"; do
      case $a in
        *=*[!0-9]*|*=) echo "error: $bench: $a is not a non-negative integer" >&2; exit 2 ;;
      esac
    done
    case $bench in
      threadring) for a in "$@"; do case $a in actors=*|hops=*) ;; *) echo "error: threadring: unknown parameter $a (known: actors, hops)" >&2; exit 2 ;; esac; done ;;
      fannkuch) echo "error: fannkuch: $1 is out of range (3..=12)" >&2; exit 2 ;;
      skynet) echo "error: skynet: $1 is not a power of $2" >&2; exit 2 ;;
      chameneos) ;;
      *) echo "error: unknown benchmark '$bench' (known: threadring, chameneos)" >&2; exit 2 ;;
    esac
    answer "" ;;
esac
"#;

/// `run` with one measured run per cell on one core, no warmup and no report: the
/// quickest whole session, for tests that look at something other than the figures.
pub const ONE_RUN: &[&str] = &[
    "run",
    "--cores",
    "1",
    "--reps",
    "1",
    "--warmup",
    "0",
    "--no-report",
];

/// A temporary directory with `fake.sh` and a `suite.toml` holding one implementation per
/// mode (named after the mode) and the given benchmark blocks.
pub struct Fixture {
    /// Keeps the directory alive.
    pub dir: tempfile::TempDir,
}

impl Fixture {
    /// A suite with implementations for `modes` and a threadring benchmark
    /// (`actors=3 hops=10`, check 2).
    pub fn new(modes: &[&str]) -> Fixture {
        Self::with(modes, "")
    }

    /// Like [`Fixture::new`], with extra TOML appended.
    pub fn with(modes: &[&str], extra: &str) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("fake.sh");
        std::fs::write(&fake, FAKE).unwrap();
        std::process::Command::new("chmod")
            .arg("+x")
            .arg(&fake)
            .status()
            .unwrap();
        let mut toml = String::new();
        for m in modes {
            toml.push_str(&implementation(m, m));
        }
        toml.push_str(
            "[[benchmark]]\nname = \"threadring\"\nquick = { actors = 3, hops = 10 }\nseed = { hops = 11 }\n\
             sweep = { param = \"hops\", quick = [1, 2], seed = [3] }\n\n",
        );
        toml.push_str(extra);
        std::fs::write(dir.path().join("suite.toml"), toml).unwrap();
        Fixture { dir }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The database file the tests use.
    pub fn db(&self) -> PathBuf {
        self.path().join("results.sqlite")
    }

    /// `actorbench --suite … --db … ARGS` run in the fixture directory.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_actorbench"));
        c.current_dir(self.path())
            .arg("--suite")
            .arg(self.path().join("suite.toml"))
            .arg("--db")
            .arg(self.db())
            .args(args);
        c
    }

    /// Runs `actorbench` with ARGS to completion.
    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().unwrap()
    }
}

/// One `[[implementation]]` block running `fake.sh MODE`.
pub fn implementation(name: &str, mode: &str) -> String {
    format!(
        "[[implementation]]\nname = \"{name}\"\nlanguage = \"sh\"\nrun = \"./fake.sh {mode} {{bench}} {{params}}\"\n\
         threads_env = \"FAKE_THREADS\"\navailable = \"sh -c true\"\nversion = \"echo fake 1.0\"\n\
         install_hint = \"nothing to install\"\n\n"
    )
}

/// Stdout and stderr as text.
pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The PostgreSQL server the store tests use, from `ACTORBENCH_TEST_PG_URL` (a URL whose
/// user may create databases; `scripts/test-postgres start DIR` makes one). `None` when it
/// is not set, which is allowed only outside CI: with `CI=true` a missing URL fails the
/// test, so CI cannot pass without testing PostgreSQL.
pub fn pg_server() -> Option<String> {
    match std::env::var("ACTORBENCH_TEST_PG_URL") {
        Ok(url) if !url.trim().is_empty() => Some(url.trim().to_string()),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true but ACTORBENCH_TEST_PG_URL is not set: the PostgreSQL store tests must run in CI"
            );
            eprintln!(
                "ACTORBENCH_TEST_PG_URL is not set: skipping the PostgreSQL half of this test"
            );
            None
        }
    }
}

/// A fresh database on the test server, dropped when this is dropped.
pub struct PgDatabase {
    /// The URL of the new database.
    pub url: String,
    server: String,
    name: String,
}

impl PgDatabase {
    /// Creates `actorbench_test_<random>` on the server `server` (a URL).
    pub fn new(server: &str) -> PgDatabase {
        let name = format!(
            "actorbench_test_{}",
            uuid::Uuid::new_v4().simple().to_string().get(..16).unwrap()
        );
        let mut admin = postgres::Client::connect(server, postgres::NoTls)
            .unwrap_or_else(|e| panic!("cannot connect to ACTORBENCH_TEST_PG_URL: {e}"));
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        PgDatabase {
            url: with_database(server, &name),
            server: server.to_string(),
            name,
        }
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        if let Ok(mut admin) = postgres::Client::connect(&self.server, postgres::NoTls) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// `url` with its database name replaced by `name` (the query string kept).
pub fn with_database(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").expect("a postgres:// URL");
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, format!("?{q}")),
        None => (rest, String::new()),
    };
    let authority = rest.split_once('/').map_or(rest, |(a, _)| a);
    format!("{scheme}://{authority}/{name}{query}")
}

/// The stores a test should run on: a fresh SQLite file in `dir`, and a fresh PostgreSQL
/// database when the test server is given. Each comes with its `--db` value.
pub fn backends(dir: &Path) -> Vec<(String, Option<PgDatabase>)> {
    let mut out = vec![(
        dir.join(format!("store-{}.sqlite", uuid::Uuid::new_v4().simple()))
            .display()
            .to_string(),
        None,
    )];
    if let Some(server) = pg_server() {
        let db = PgDatabase::new(&server);
        out.push((db.url.clone(), Some(db)));
    }
    out
}

/// One cell of a made-up session: implementation, benchmark, parameters, cores, and the
/// work times of its runs (a negative time is a failed run).
pub type Cell<'a> = (&'a str, &'a str, &'a str, i64, &'a [f64]);

/// Writes a finished session with these cells into the store; returns its number.
pub fn session(store: &Store, cells: &[Cell<'_>], tweak: impl Fn(&mut SessionRecord)) -> i64 {
    let mut s = SessionRecord {
        started_at: "2026-11-23T10:00:00Z".into(),
        git_commit: "abc".into(),
        host_cpu: "Test CPU".into(),
        host_cores: 2,
        host_memory_bytes: 1 << 34,
        host_kernel: "Linux 6.1".into(),
        profile: "quick".into(),
        settings: "{}".into(),
        ..Default::default()
    };
    tweak(&mut s);
    let id = store.begin_session(&s).unwrap();
    let mut names: Vec<&str> = cells.iter().map(|c| c.0).collect();
    names.dedup();
    for n in names {
        store
            .put_impl(
                id,
                &ImplRecord {
                    name: n.into(),
                    language: "sh".into(),
                    version: "fake 1.0".into(),
                    status: "available".into(),
                    ..Default::default()
                },
            )
            .unwrap();
    }
    let mut seq = 0;
    for (imp, bench, params, cores, works) in cells {
        for (rep, &w) in works.iter().enumerate() {
            let ok = w > 0.0;
            store
                .insert_run(&RunRecord {
                    session_id: id,
                    seq,
                    implementation: imp.to_string(),
                    bench: bench.to_string(),
                    params: params.to_string(),
                    cores: *cores,
                    rep: rep as i64,
                    status: if ok { "ok" } else { "timeout" }.into(),
                    wall_s: w.abs() + 0.01,
                    work_s: ok.then_some(w),
                    user_s: w.abs(),
                    ..Default::default()
                })
                .unwrap();
            seq += 1;
        }
    }
    store
        .end_session(id, "complete", "2026-11-23T10:05:00Z")
        .unwrap();
    id
}
