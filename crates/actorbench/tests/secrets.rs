//! No credential is stored or shown: a password in `--db` (or in an older session's stored
//! command line) never reaches `show`, the JSON export or the report, and the database
//! can be named by `ACTORBENCH_DB` instead of the command line.

mod common;

use actorbench::store::{SessionRecord, Store};
use common::{Fixture, ONE_RUN, text};

const SECRET: &str = "s3cretXY";

/// Every file under `dir`, read as text.
fn all_text(dir: &std::path::Path) -> String {
    let mut out = String::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.push_str(&all_text(&p));
        } else {
            out.push_str(&String::from_utf8_lossy(&std::fs::read(&p).unwrap()));
        }
    }
    out
}

/// `actorbench --suite ... --db DB` in the fixture's directory.
fn on(f: &Fixture, db: &str) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_actorbench"));
    c.current_dir(f.path())
        .arg("--suite")
        .arg(f.path().join("suite.toml"))
        .args(["--db", db]);
    c
}

/// `show`, `export --format json` and `report` of the latest session on `db`, as text.
fn everything_shown(f: &Fixture, db: &str) -> String {
    let mut seen = String::new();
    for args in [
        vec!["show"],
        vec!["export", "--format", "json"],
        vec!["export", "--format", "markdown"],
    ] {
        let o = on(f, db).args(&args).output().unwrap();
        assert!(o.status.success(), "{args:?}: {}", text(&o).1);
        let (out, err) = text(&o);
        seen.push_str(&out);
        seen.push_str(&err);
    }
    let report = f.path().join("report-out");
    let o = on(f, db)
        .args(["report", "--out"])
        .arg(&report)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o).1);
    seen.push_str(&all_text(&report));
    seen
}

#[test]
fn a_stored_command_line_is_shown_without_its_password() {
    // A session stored with a password in its command line (as before redaction): every
    // way of reading it hides the password.
    let f = Fixture::new(&["right"]);
    let db = f.db();
    let store = Store::create(&db).unwrap();
    common::session(
        &store,
        &[(
            "right",
            "threadring",
            "actors=3 hops=10",
            1,
            &[0.1, 0.1, 0.1],
        )],
        |s: &mut SessionRecord| {
            s.command_line = format!(
                "actorbench run --db 'postgres://actorbench:{SECRET}@db.example/postgres' --note 'host=h password={SECRET}'"
            );
        },
    );
    drop(store);
    let seen = everything_shown(&f, &db.display().to_string());
    assert!(!seen.contains(SECRET), "the password was shown");
    assert!(
        seen.contains("postgres://actorbench:***@db.example/postgres"),
        "{seen}"
    );
    assert!(seen.contains("password=***"));
}

#[test]
fn a_password_in_the_database_url_is_never_stored() {
    let Some(server) = common::pg_server() else {
        return;
    };
    let pg = common::PgDatabase::new(&server);
    // The test server trusts its socket's users, so any password connects; the harness
    // must still never write it anywhere.
    let url = pg
        .url
        .replacen("://actorbench@", &format!("://actorbench:{SECRET}@"), 1);
    assert!(
        url.contains(SECRET),
        "the test server's URL has an unexpected user: {url}"
    );
    let f = Fixture::new(&["right"]);
    let json = f.path().join("out.json");
    let o = on(&f, &url)
        .args(ONE_RUN)
        .arg("--export-json")
        .arg(&json)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(!out.contains(SECRET) && !err.contains(SECRET), "{err}");
    assert!(!std::fs::read_to_string(&json).unwrap().contains(SECRET));
    let store = Store::open_existing(std::path::Path::new(&pg.url)).unwrap();
    let s = store.resolve_session(None).unwrap();
    let mut raw = postgres::Client::connect(&pg.url, postgres::NoTls).unwrap();
    let stored: String = raw
        .query_one("SELECT command_line FROM session WHERE id = $1", &[&s.id])
        .unwrap()
        .get(0);
    assert!(!stored.contains(SECRET), "stored: {stored}");
    assert!(stored.contains("actorbench:***@"), "stored: {stored}");
    let seen = everything_shown(&f, &url);
    assert!(!seen.contains(SECRET));
}

#[test]
fn the_database_can_come_from_the_environment() {
    let f = Fixture::new(&["right"]);
    let db = f.path().join("from-env.sqlite");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_actorbench"))
        .current_dir(f.path())
        .env("ACTORBENCH_DB", &db)
        .args(ONE_RUN)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(db.is_file(), "ACTORBENCH_DB was not used");
    let s = Store::open_existing(&db)
        .unwrap()
        .resolve_session(None)
        .unwrap();
    assert!(!s.command_line.contains("from-env"), "{}", s.command_line);
    // `--help` does not print the variable's value.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_actorbench"))
        .env("ACTORBENCH_DB", format!("postgres://u:{SECRET}@h/d"))
        .arg("--help")
        .output()
        .unwrap();
    let (out, _) = text(&o);
    assert!(
        out.contains("ACTORBENCH_DB") && !out.contains(SECRET),
        "{out}"
    );
}
