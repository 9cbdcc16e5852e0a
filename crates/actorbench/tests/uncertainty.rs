//! Uncertainty from the command line: each cell's interval of the median and
//! its coefficient of variation, each ratio's own interval against the fastest or a
//! `--baseline`, the noisy and unresolved flags, in the table, the exports and the report;
//! and the same numbers every time (the bootstrap is seeded).

mod common;

use common::{Fixture, implementation, text};

fn row<'a>(table: &'a str, name: &str) -> &'a str {
    table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name) && l.contains('x'))
        .unwrap_or_else(|| panic!("no row for {name} in\n{table}"))
}

#[test]
fn intervals_flags_and_baselines() {
    let fx = Fixture::with(
        &["steady", "jitter", "slow"],
        &implementation("twin", "steady"),
    );
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "6",
        "--warmup",
        "0",
        "--no-report",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for col in ["CI95 ±", "CV", "vs fastest (work)", "ratio CI95", "notes"] {
        assert!(stdout.contains(col), "{col}: {stdout}");
    }
    // jitter alternates 50 and 150 ms: noisy.
    assert!(row(&stdout, "jitter").contains("noisy (CV"), "{stdout}");
    // steady and twin are the same program: whichever is slower cannot be told from the
    // fastest.
    let (s, t) = (row(&stdout, "steady"), row(&stdout, "twin"));
    assert!(
        s.contains("unresolved vs fastest") || t.contains("unresolved vs fastest"),
        "{stdout}"
    );
    // slow (300 ms) is resolved: about 3x, its interval well above 1.
    let slow = row(&stdout, "slow");
    assert!(!slow.contains("unresolved"), "{slow}");
    let interval = slow
        .split_whitespace()
        .find(|w| w.contains('-') && w.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .unwrap();
    let (lo, hi) = interval.split_once('-').unwrap();
    let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
    assert!(lo > 2.0 && hi < 4.0 && lo <= hi, "{slow}");

    // Seeded: show gives the same table twice.
    let a = text(&fx.run(&["show"])).0;
    let b = text(&fx.run(&["show"])).0;
    assert_eq!(a, b);

    // Against a baseline: slow is 1.00x, the others below 1, each with an interval.
    let (based, _) = text(&fx.run(&["show", "--baseline", "slow"]));
    assert!(based.contains("vs slow (work)"), "{based}");
    assert!(row(&based, "slow").contains("1.00x"), "{based}");
    assert!(row(&based, "steady").contains("0.3"), "{based}");
    let bad = fx.run(&["show", "--baseline", "nosuch"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad).1.contains("--baseline nosuch"),
        "{}",
        text(&bad).1
    );
    let bad = fx.run(&["run", "--baseline", "nosuch"]);
    assert_eq!(bad.status.code(), Some(2));

    // JSON: every figure with its interval.
    let (json, _) = text(&fx.run(&["export", "--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    for c in doc["summary"][0]["cells"].as_array().unwrap() {
        let w = &c["work"];
        let (lo, med, hi) = (
            w["ci_low"].as_f64().unwrap(),
            w["median"].as_f64().unwrap(),
            w["ci_high"].as_f64().unwrap(),
        );
        assert!(lo <= med && med <= hi, "{c}");
        assert!(w["cv"].as_f64().unwrap() >= 0.0, "{c}");
        if c["reference"] == false {
            assert!(c["ratio_low"].as_f64().unwrap() <= c["ratio_high"].as_f64().unwrap());
        }
    }
    // Markdown: the same columns as the terminal.
    let (md, _) = text(&fx.run(&["export", "--format", "markdown"]));
    assert!(
        md.contains("| CI95 ± | CV |") && md.contains("noisy (CV"),
        "{md}"
    );
    // The summary CSV: one row per cell with the intervals.
    let (csv, _) = text(&fx.run(&["export", "--format", "cells-csv"]));
    let header = csv.lines().next().unwrap();
    for col in [
        "median_s",
        "ci_low_s",
        "ci_high_s",
        "cv",
        "ratio",
        "ratio_low",
        "ratio_high",
        "noisy",
        "unresolved",
    ] {
        assert!(header.split(',').any(|h| h == col), "{col}: {header}");
    }
    assert_eq!(csv.lines().count(), 5, "{csv}");
}
