//! Small samples get honest intervals: a 3-run cell's interval of its median is its range
//! and says it covers 75%, not 95%; a hung implementation costs one timeout, not one per
//! run, and does not starve the healthy cells of the budget.

mod common;

use std::time::Instant;

use actorbench::store::Store;
use common::{Fixture, text};

#[test]
fn a_three_run_interval_says_its_real_coverage() {
    let fx = Fixture::new(&["steady"]);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--warmup",
        "0",
        "--reps",
        "3",
        "--no-report",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let row = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("steady"))
        .unwrap();
    assert!(
        row.contains("CI is the range, covers 75.0% (3 runs)"),
        "{row}"
    );
    let json = text(&fx.run(&["export", "--format", "json"])).0;
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let work = &doc["summary"][0]["cells"][0]["work"];
    assert_eq!(work["ci_low"], work["min"]);
    assert_eq!(work["ci_high"], work["max"]);
    assert_eq!(work["ci_coverage"], 0.75);
    let csv = text(&fx.run(&["export", "--format", "cells-csv"])).0;
    assert!(csv.lines().next().unwrap().contains("ci_coverage"), "{csv}");
}

#[test]
fn a_hung_cell_costs_one_timeout_and_the_budget_leaves_the_others_their_minimum() {
    let fx = Fixture::new(&["hang", "steady"]);
    let t = Instant::now();
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--timeout",
        "1",
        "--budget",
        "2",
        "--no-report",
    ]);
    let took = t.elapsed().as_secs_f64();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let store = Store::open_existing(&fx.db()).unwrap();
    let cells = store.cells(1).unwrap();
    let cell = |name: &str| cells.iter().find(|c| c.implementation == name).unwrap();
    // The hung cell timed out in its warmup and got nothing more.
    assert_eq!(
        (cell("hang").measured, cell("hang").stop.as_str()),
        (0, "timeout")
    );
    let hang_runs = store
        .runs(1)
        .unwrap()
        .into_iter()
        .filter(|r| r.implementation == "hang")
        .count();
    assert_eq!(hang_runs, 1);
    // The healthy one got at least --min-reps (3) measured runs, whatever the budget.
    assert!(cell("steady").measured >= 3, "{:?}", cell("steady"));
    assert!(took < 20.0, "took {took:.1} s");
    assert!(
        stderr.contains("1 cell was stopped after a run timed out"),
        "{stderr}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.trim_start().starts_with("hang") && l.contains("stopped after a timeout")),
        "{stdout}"
    );
}
