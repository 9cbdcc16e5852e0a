//! `actorbench history`: one cell across sessions and commits, with the change point
//! E-divisive means finds and the commit it came with; and the report's history figure.

mod common;

use std::path::Path;

use actorbench::store::Store;
use common::{Fixture, backends, session, text};

/// On each store backend (SQLite, and PostgreSQL when `ACTORBENCH_TEST_PG_URL` is set).
#[test]
fn history_names_the_commit_where_a_cell_moved() {
    let fx = Fixture::new(&[]);
    for (db, _keep) in backends(fx.path()) {
        history_on(&fx, &db);
    }
}

fn history_on(fx: &Fixture, db: &str) {
    let st = Store::create(Path::new(db)).unwrap();
    let run = |args: &[&str]| fx.cmd(&[]).args(args).arg("--db").arg(db).output().unwrap();
    // Eight sessions of one cell: four at about 1.0 s, then four at about 1.3 s from the
    // fifth commit on. Another cell (2 cores) stays put.
    let levels = [1.0, 1.01, 0.99, 1.0, 1.3, 1.31, 1.29, 1.3];
    for (i, level) in levels.iter().enumerate() {
        let times: Vec<f64> = [0.99, 1.0, 1.01].iter().map(|t| t * level).collect();
        session(
            &st,
            &[
                ("x", "b", "n=1", 1, &times),
                ("x", "b", "n=1", 2, &[0.5, 0.51, 0.49]),
            ],
            |s| s.git_commit = format!("c{}aaaaaaaaaaaaaaaa", i + 1),
        );
    }
    let out = run(&["history", "b", "--impl", "x", "--cores", "1"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.starts_with("b n=1, x, 1 core: work time across 8 sessions"),
        "{stdout}"
    );
    let marked: Vec<&str> = stdout
        .lines()
        .filter(|l| l.ends_with("change point"))
        .collect();
    assert_eq!(marked.len(), 1, "{stdout}");
    assert!(marked[0].trim_start().starts_with("5 "), "{stdout}");
    assert!(
        stdout.contains("session 5 (commit c5aaaaaaaaaa): +30.0%")
            && stdout.contains("the commit before: c4aaaaaaaaaa (session 4)"),
        "{stdout}"
    );
    // The other cell has no change point; the default cell is the highest core count.
    let (flat, _) = text(&run(&["history", "b", "--impl", "x"]));
    assert!(flat.starts_with("b n=1, x, 2 cores"), "{flat}");
    assert!(!flat.lines().any(|l| l.ends_with("change point")), "{flat}");
    // The time series as SVG.
    let svg = fx.path().join("h.svg");
    let out = run(&[
        "history",
        "b",
        "--impl",
        "x",
        "--cores",
        "1",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("change point"),
        "{svg}"
    );
    // Unknown cells are bad input.
    for args in [
        vec!["history", "b", "--impl", "nosuch"],
        vec!["history", "b", "--impl", "x", "--cores", "7"],
        vec!["history", "b", "--impl", "x", "--params", "n=abc"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out).1);
    }
}

#[test]
fn the_report_draws_the_history_of_its_cells() {
    let fx = Fixture::new(&["right"]);
    for _ in 0..2 {
        let out = fx.run(&["run", "--cores", "1", "--reps", "3", "--warmup", "0"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    }
    let html = std::fs::read_to_string(fx.path().join("report/index.html")).unwrap();
    assert!(
        html.contains("data-figure=\"threadring-history\"")
            && html.contains("threadring: history across sessions"),
        "no history figure"
    );
    assert!(fx.path().join("report/threadring-history.svg").exists());
    // The first session's own report has no history yet.
    let out = fx.run(&[
        "report",
        "1",
        "--out",
        fx.path().join("r1").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let html = std::fs::read_to_string(fx.path().join("r1/index.html")).unwrap();
    assert!(html.contains("No history yet"), "{html}");
}
