//! Adaptive repetitions from the command line: each cell gets runs until its interval is
//! tight enough, between --min-reps and --max-reps; the count each cell got and why it
//! stopped are stored and shown; an explicit --reps is never cut short by a default budget.

mod common;

use actorbench::store::Store;
use common::{Fixture, text};

#[test]
fn each_cell_stops_on_its_own() {
    let fx = Fixture::new(&["steady", "jitter"]);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--warmup",
        "0",
        "--min-reps",
        "3",
        "--max-reps",
        "8",
        "--target-ci",
        "20",
        "--no-report",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "repetitions: 3 to 8 runs per cell, until the 95% interval of the median is within ±20%"
        ),
        "{stderr}"
    );
    let store = Store::open_existing(&fx.db()).unwrap();
    let cells = store.cells(1).unwrap();
    let cell = |name: &str| cells.iter().find(|c| c.implementation == name).unwrap();
    // steady (100 ms) is within ±20% as soon as it is checked, at 6 runs (the fewest whose
    // interval can cover 95%), not at its minimum of 3; jitter (50 or 150 ms) never is.
    assert_eq!(
        (cell("steady").measured, cell("steady").stop.as_str()),
        (6, "target-ci")
    );
    assert_eq!(
        (cell("jitter").measured, cell("jitter").stop.as_str()),
        (8, "max-reps")
    );
    let runs = store.runs(1).unwrap();
    assert_eq!(
        runs.iter().filter(|r| r.implementation == "steady").count(),
        6
    );
    assert_eq!(
        runs.iter().filter(|r| r.implementation == "jitter").count(),
        8
    );
    // Shown: the runs each cell got, and why the noisy one stopped.
    let jitter = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("jitter"))
        .unwrap();
    assert!(
        jitter.contains("8/8") && jitter.contains("max reps before the target interval"),
        "{jitter}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.trim_start().starts_with("steady") && l.contains("6/6"))
    );
    // Stored settings say what was asked and what it came to.
    let settings: serde_json::Value =
        serde_json::from_str(&store.resolve_session(None).unwrap().settings).unwrap();
    assert_eq!(settings["repetitions"]["mode"], "adaptive");
    assert_eq!(settings["repetitions"]["target_ci_pct"], 20.0);
    let stops = settings["outcome"]["stops"].as_str().unwrap();
    assert!(
        stops.contains("1 cell reached the target interval (6 measured runs)")
            && stops.contains("1 cell stopped at --max-reps before the target (8 measured runs)"),
        "{stops}"
    );
    let (shown, _) = text(&fx.run(&["show"]));
    assert!(shown.contains("repetitions: 3 to 8 per cell"), "{shown}");
    assert!(shown.contains(stops), "{shown}");
}

#[test]
fn an_explicit_count_wins_over_the_default_budget_and_bad_combinations_are_refused() {
    let fx = Fixture::new(&["right"]);
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
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "3 runs per cell (--reps): the quick profile's default budget is not applied to a fixed count"
        ),
        "{stderr}"
    );
    let store = Store::open_existing(&fx.db()).unwrap();
    let s: serde_json::Value =
        serde_json::from_str(&store.resolve_session(None).unwrap().settings).unwrap();
    assert_eq!(
        s["repetitions"],
        serde_json::json!({"mode": "fixed", "reps": 3})
    );
    assert_eq!(s["budget_from"], "none");
    assert_eq!(store.cells(1).unwrap()[0].stop, "reps");

    // Adaptive (the default): the profile's budget applies, and says so.
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--warmup",
        "0",
        "--max-reps",
        "3",
        "--no-report",
    ]);
    let (_, stderr) = text(&out);
    assert!(
        stderr.contains("the quick profile's default budget of 10m 00s applies"),
        "{stderr}"
    );

    for (args, needle) in [
        (
            vec!["--reps", "3", "--min-reps", "2"],
            "give one or the other",
        ),
        (
            vec!["--max-reps", "2", "--min-reps", "3"],
            "--max-reps 2 is below --min-reps 3",
        ),
        (vec!["--target-ci", "0"], "--target-ci 0"),
        (
            vec!["--order", "random"],
            "--order random shuffles a fixed number of runs",
        ),
    ] {
        let mut all = vec!["run"];
        all.extend(args);
        let out = fx.run(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        assert!(text(&out).1.contains(needle), "{all:?}: {}", text(&out).1);
    }
}
