//! The store on both backends: SQLite always, PostgreSQL when `ACTORBENCH_TEST_PG_URL`
//! names a server (required when `CI=true`). Every test here runs the same code on each.

mod common;

use std::path::Path;

use actorbench::owner::Owner;
use actorbench::store::import::import;
use actorbench::store::{CellRecord, ImplRecord, RunRecord, SessionRecord, Store};
use common::{Fixture, backends, pg_server, text};

fn session(started: &str) -> SessionRecord {
    SessionRecord {
        started_at: started.into(),
        git_commit: "abc".into(),
        host_cpu: "cpu 'quoted' \"twice\"; DROP TABLE run; --".into(),
        host_cores: 2,
        host_memory_bytes: 24 << 30,
        host_kernel: "Linux".into(),
        command_line: "actorbench run".into(),
        profile: "quick".into(),
        settings: "{\"reps\": 5}".into(),
        suite_path: "/x/suite.toml".into(),
        harness_version: "actorbench 0.1.0 (abc)".into(),
        cpu_governor: "none".into(),
        smt: "notsupported".into(),
        load_before: "0.10 0.20 0.30".into(),
        ..Default::default()
    }
}

fn run(session_id: i64, seq: i64, implementation: &str) -> RunRecord {
    RunRecord {
        session_id,
        seq,
        implementation: implementation.into(),
        bench: "threadring".into(),
        params: "actors=3 hops=10".into(),
        cores: 2,
        rep: seq,
        warmup: seq == 0,
        started_at: format!("2026-11-23T10:00:{seq:02}Z"),
        command: "FAKE_THREADS=2 ./fake.sh right threadring actors=3 hops=10".into(),
        status: if seq % 3 == 2 { "exit" } else { "ok" }.into(),
        exit_code: Some(0),
        signal: None,
        wall_s: 0.123456789,
        work_s: if seq % 2 == 0 { Some(0.1) } else { None },
        user_s: 0.1,
        sys_s: 0.02,
        cpu_util: 0.98,
        max_rss_bytes: 6 << 20,
        voluntary_switches: 3,
        involuntary_switches: 4,
        expected_check: Some("2".into()),
        check_value: Some("2".into()),
        result_line: Some("result bench=threadring check=2 seconds=0.1".into()),
        counts: None,
        fairness_stddev: Some(0.5),
        fairness_cv: None,
        fairness_jain: Some(0.9999),
        fairness_min: Some(1),
        fairness_max: None,
        fairness_ideal: Some(2.5),
        stdout_bytes: 42,
        stderr_bytes: 0,
        stderr_tail: "ünïcödé ✓".into(),
        detail: String::new(),
        // Every other run has event counters (schema 6), the rest none.
        counters: if seq % 2 == 1 {
            [
                ("page-faults".to_string(), 100.0 + seq as f64),
                ("task-clock".to_string(), 0.0125),
            ]
            .into()
        } else {
            Default::default()
        },
        ..Default::default()
    }
}

/// Writes one session with two implementations, five runs and a cell; returns its id.
fn write_session(store: &Store, started: &str, end: bool) -> i64 {
    let id = store.begin_session(&session(started)).unwrap();
    for name in ["a", "b"] {
        store
            .put_impl(
                id,
                &ImplRecord {
                    name: name.into(),
                    language: "sh".into(),
                    version: "1.0".into(),
                    status: "available".into(),
                    run_template: "./fake.sh {bench} {params}".into(),
                    ..Default::default()
                },
            )
            .unwrap();
    }
    // Updating an implementation keeps its place.
    store
        .put_impl(
            id,
            &ImplRecord {
                name: "a".into(),
                status: "build-failed".into(),
                detail: "boom".into(),
                ..Default::default()
            },
        )
        .unwrap();
    for seq in 0..5 {
        store.insert_run(&run(id, seq, "b")).unwrap();
    }
    store
        .put_cells(
            id,
            &[CellRecord {
                implementation: "b".into(),
                bench: "threadring".into(),
                params: "actors=3 hops=10".into(),
                cores: 2,
                measured: 4,
                stop: "reps".into(),
            }],
        )
        .unwrap();
    if end {
        store
            .put_environment_after(id, "1.00 0.50 0.25", Some(0.75), "busy, really")
            .unwrap();
        store
            .end_session(id, "complete", "2026-11-23T10:01:00Z")
            .unwrap();
    }
    id
}

fn json<T: serde::Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap()
}

#[test]
fn every_record_round_trips_on_each_backend() {
    let dir = tempfile::tempdir().unwrap();
    for (db, _keep) in backends(dir.path()) {
        let store = Store::create(Path::new(&db)).unwrap();
        let id = write_session(&store, "2026-11-23T10:00:00Z", true);
        drop(store);
        let store = Store::open_existing(Path::new(&db)).unwrap();
        let s = store.resolve_session(None).unwrap();
        assert_eq!(s.id, id);
        assert_eq!(s.status, "complete", "{db}");
        assert_eq!(s.host_cpu, session("").host_cpu);
        assert_eq!(s.uid.len(), 32);
        assert_eq!(Owner::parse(&s.owner), Some(Owner::me()));
        assert_eq!(
            (
                s.load_after.as_deref(),
                s.others_cpu,
                s.busy.as_str(),
                s.ended_at.as_deref()
            ),
            (
                Some("1.00 0.50 0.25"),
                Some(0.75),
                "busy, really",
                Some("2026-11-23T10:01:00Z")
            )
        );
        let impls = store.impls(id).unwrap();
        assert_eq!(
            impls
                .iter()
                .map(|i| (i.name.as_str(), i.status.as_str()))
                .collect::<Vec<_>>(),
            [("a", "build-failed"), ("b", "available")]
        );
        let runs = store.runs(id).unwrap();
        assert_eq!(runs.len(), 5);
        for (seq, r) in runs.iter().enumerate() {
            let mut want = run(id, seq as i64, "b");
            want.id = r.id;
            assert_eq!(json(r), json(&want), "{db}");
        }
        assert_eq!(store.run_counts(id).unwrap(), (5, 1));
        assert_eq!(store.cells(id).unwrap().len(), 1);
        assert_eq!(store.sessions().unwrap().len(), 1);
        assert!(store.session(id + 1).unwrap().is_none());
        assert_eq!(
            store.session_by_uid(&s.uid).unwrap().map(|x| x.id),
            Some(id)
        );
    }
}

#[test]
fn a_session_of_a_dead_harness_is_marked_abandoned_and_keeps_its_runs() {
    let dir = tempfile::tempdir().unwrap();
    for (db, _keep) in backends(dir.path()) {
        let store = Store::create(Path::new(&db)).unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id() as i32;
        child.wait().unwrap();
        let me = Owner::me();
        let dead = Owner {
            pid,
            start: 1,
            ..me.clone()
        };
        let elsewhere = Owner {
            host: "another-host".into(),
            ..dead.clone()
        };
        let mut ids = Vec::new();
        for owner in [&dead, &elsewhere, &me] {
            let id = store
                .begin_session(&SessionRecord {
                    owner: owner.to_string(),
                    ..session("2026-11-23T09:00:00Z")
                })
                .unwrap();
            for seq in 0..3 {
                store.insert_run(&run(id, seq, "a")).unwrap();
            }
            ids.push(id);
        }
        assert!(store.abandoned().is_empty());
        drop(store);

        let store = Store::open_existing(Path::new(&db)).unwrap();
        assert_eq!(store.abandoned().len(), 1, "{db}");
        assert_eq!(
            (store.abandoned()[0].id, store.abandoned()[0].runs),
            (ids[0], 3)
        );
        let dead = store.session(ids[0]).unwrap().unwrap();
        assert_eq!(dead.status, "abandoned");
        assert_eq!(dead.ended_at.as_deref(), Some("2026-11-23T10:00:02Z"));
        assert_eq!(store.runs(ids[0]).unwrap().len(), 3);
        // Another host's session and a live harness's are left running.
        for id in &ids[1..] {
            assert_eq!(store.session(*id).unwrap().unwrap().status, "running");
        }
        drop(store);
        // Marking happens once.
        assert!(
            Store::open_existing(Path::new(&db))
                .unwrap()
                .abandoned()
                .is_empty()
        );
    }
}

#[test]
fn import_copies_ended_sessions_once_and_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let source_path = dir.path().join("source.sqlite");
    let source = Store::create(&source_path).unwrap();
    let first = write_session(&source, "2026-11-23T08:00:00Z", true);
    let second = write_session(&source, "2026-11-23T09:00:00Z", true);
    let running = write_session(&source, "2026-11-23T10:00:00Z", false);

    for (db, keep) in backends(dir.path()) {
        let target = Store::create(Path::new(&db)).unwrap();
        // Something already there keeps its number; imported sessions follow it.
        let native = write_session(&target, "2026-11-22T00:00:00Z", true);
        let done = import(&source, &target).unwrap();
        assert_eq!(done.running, [running], "{db}");
        assert!(done.already.is_empty());
        assert_eq!(done.copied.len(), 2);
        for &(from, to, runs) in &done.copied {
            assert!(to > native);
            assert_eq!(runs, 5);
            let a = source
                .load(&source.session(from).unwrap().unwrap())
                .unwrap();
            let b = target.load(&target.session(to).unwrap().unwrap()).unwrap();
            let mut sa = json(&a.session);
            let mut sb = json(&b.session);
            sa["id"] = 0.into();
            sb["id"] = 0.into();
            assert_eq!(sa, sb);
            assert_eq!(json(&a.implementations), json(&b.implementations));
            assert_eq!(json(&a.cells), json(&b.cells));
            let strip = |runs: &[RunRecord]| {
                runs.iter()
                    .map(|r| {
                        let mut v = json(r);
                        v["id"] = 0.into();
                        v["session_id"] = 0.into();
                        v
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(strip(&a.runs), strip(&b.runs));
        }
        assert_eq!(
            done.copied.iter().map(|c| c.0).collect::<Vec<_>>(),
            [first, second]
        );

        // Again: nothing new.
        let again = import(&source, &target).unwrap();
        assert!(again.copied.is_empty());
        assert_eq!(again.already.len(), 2);
        assert_eq!(target.sessions().unwrap().len(), 3);

        // All or nothing: a target that refuses one run keeps nothing of the import.
        let fresh = match &keep {
            None => {
                let p = dir.path().join("refusing.sqlite");
                let _ = std::fs::remove_file(&p);
                let t = Store::create(&p).unwrap();
                drop(t);
                let conn = rusqlite::Connection::open(&p).unwrap();
                conn.execute_batch(
                    "CREATE TRIGGER refuse BEFORE INSERT ON run WHEN NEW.seq = 4 AND NEW.session_id > 1
                     BEGIN SELECT RAISE(ABORT, 'refused'); END;",
                )
                .unwrap();
                p.display().to_string()
            }
            Some(_) => {
                let other = common::PgDatabase::new(&pg_server().unwrap());
                let t = Store::create(Path::new(&other.url)).unwrap();
                drop(t);
                let mut c = postgres::Client::connect(&other.url, postgres::NoTls).unwrap();
                c.batch_execute(
                    "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN
                        IF NEW.seq = 4 AND NEW.session_id > 1 THEN RAISE EXCEPTION 'refused'; END IF;
                        RETURN NEW; END $$ LANGUAGE plpgsql;
                     CREATE TRIGGER refuse BEFORE INSERT ON run FOR EACH ROW EXECUTE FUNCTION refuse();",
                )
                .unwrap();
                let url = other.url.clone();
                std::mem::forget(other); // dropped with the server's other test databases
                url
            }
        };
        let refusing = Store::open_existing(Path::new(&fresh)).unwrap();
        let e = import(&source, &refusing).unwrap_err();
        assert!(format!("{e:#}").contains("refused"), "{e:#}");
        assert!(refusing.sessions().unwrap().is_empty(), "{fresh}");
    }
}

#[test]
fn two_harnesses_writing_at_once_lose_nothing() {
    let fx = Fixture::new(&["right", "fail"]);
    for (db, _keep) in backends(fx.path()) {
        let args = [
            "--db",
            db.as_str(),
            "run",
            "--cores",
            "1",
            "--reps",
            "25",
            "--warmup",
            "0",
            "--no-report",
            "--budget",
            "0",
        ];
        let spawn = || {
            std::process::Command::new(env!("CARGO_BIN_EXE_actorbench"))
                .current_dir(fx.path())
                .arg("--suite")
                .arg(fx.path().join("suite.toml"))
                .args(args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        // Both start on a store that does not exist yet: they race to create it too.
        let (a, b) = (spawn(), spawn());
        for out in [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()] {
            let (stdout, stderr) = text(&out);
            assert_eq!(out.status.code(), Some(0), "{db}\n{stdout}{stderr}");
        }
        let store = Store::open_existing(Path::new(&db)).unwrap();
        let sessions = store.sessions().unwrap();
        assert_eq!(sessions.len(), 2, "{db}");
        for s in sessions {
            assert_eq!(s.status, "complete");
            let runs = store.runs(s.id).unwrap();
            assert_eq!(runs.len(), 50, "{db}: session {}", s.id);
            for (i, r) in runs.iter().enumerate() {
                assert_eq!(r.seq, i as i64);
            }
            assert_eq!(store.run_counts(s.id).unwrap(), (50, 25));
        }
    }
}

#[test]
fn the_import_command_copies_a_file_into_another_store() {
    let fx = Fixture::new(&["right"]);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "2",
        "--warmup",
        "0",
        "--no-report",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let file = fx.db().display().to_string();
    for (db, _keep) in backends(fx.path()) {
        if db.ends_with(".sqlite") {
            continue; // the PostgreSQL target is the case that matters; SQLite is the source
        }
        let cmd = |args: &[&str]| {
            std::process::Command::new(env!("CARGO_BIN_EXE_actorbench"))
                .current_dir(fx.path())
                .arg("--db")
                .arg(&db)
                .args(args)
                .output()
                .unwrap()
        };
        let out = cmd(&["import", &file]);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
        assert!(
            stdout.contains("copied session 1 as 1 (2 runs)"),
            "{stdout}"
        );
        assert!(stdout.contains("imported 1 session (2 runs)"), "{stdout}");
        let out = cmd(&["import", &file]);
        let (stdout, _) = text(&out);
        assert_eq!(out.status.code(), Some(0));
        assert!(
            stdout.contains("session 1 is already there as 1"),
            "{stdout}"
        );
        assert!(stdout.contains("imported 0 sessions"), "{stdout}");
        let (stdout, _) = text(&cmd(&["list"]));
        assert!(stdout.contains("complete"), "{stdout}");
        let out = cmd(&["show", "1"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
        // A source that is not a store is refused, nothing written.
        let out = cmd(&["import", "/nonexistent.sqlite"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out)
                .1
                .contains("no results database at /nonexistent.sqlite")
        );
    }
}

#[test]
fn a_postgres_url_that_does_not_answer_is_bad_input() {
    let fx = Fixture::new(&["right"]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_actorbench"))
        .current_dir(fx.path())
        .args(["--db", "postgres://nobody:secret@127.0.0.1:1/none", "list"])
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot use the results database postgres://nobody:***@127.0.0.1:1/none"),
        "{stderr}"
    );
    assert!(!stderr.contains("secret"));
}

#[test]
fn both_backends_have_the_same_tables_and_columns() {
    let Some(server) = pg_server() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.sqlite");
    let sqlite = Store::create(&file).unwrap();
    let pg_db = common::PgDatabase::new(&server);
    let pg = Store::create(Path::new(&pg_db.url)).unwrap();
    assert_eq!(sqlite.version().unwrap(), pg.version().unwrap());
    drop((sqlite, pg));

    let conn = rusqlite::Connection::open(&file).unwrap();
    let mut lite: Vec<(String, String, bool)> = Vec::new();
    for table in [
        "schema_version",
        "session",
        "session_impl",
        "run",
        "cell",
        "run_counter",
    ] {
        let mut st = conn
            .prepare(&format!(
                "SELECT name, \"notnull\" FROM pragma_table_info('{table}')"
            ))
            .unwrap();
        let cols = st
            .query_map([], |r| {
                Ok((
                    table.to_string(),
                    r.get::<_, String>(0)?,
                    r.get::<_, bool>(1)?,
                ))
            })
            .unwrap();
        lite.extend(cols.map(Result::unwrap));
    }
    let mut c = postgres::Client::connect(&pg_db.url, postgres::NoTls).unwrap();
    let mut post: Vec<(String, String, bool)> = c
        .query(
            "SELECT table_name::text, column_name::text, is_nullable = 'NO' FROM information_schema.columns
             WHERE table_schema = current_schema() AND column_name <> 'rowid'",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    // SQLite reports an INTEGER PRIMARY KEY as nullable; it is the row id, never NULL.
    for c in &mut lite {
        if c.1 == "id" {
            c.2 = true;
        }
    }
    lite.sort();
    post.sort();
    assert_eq!(lite, post);
}
