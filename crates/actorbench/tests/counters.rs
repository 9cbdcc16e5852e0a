//! Event counters per run: stored with each run, shown in the tables, usable as
//! `--metric` in `show`, `compare` and `history`; on a machine without a PMU (the
//! project's own) the harness says so once per session and goes on.

mod common;

use actorbench::store::Store;
use common::{Fixture, text};

#[test]
fn counters_are_stored_shown_and_compared() {
    let fx = Fixture::new(&["right"]);
    let args = [
        "run",
        "--cores",
        "1",
        "--reps",
        "3",
        "--warmup",
        "0",
        "--no-report",
    ];
    for session in 1..=2 {
        let out = fx.run(&args);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
        let store = Store::open_existing(&fx.db()).unwrap();
        let runs = store.runs(session).unwrap();
        assert_eq!(runs.len(), 3);
        if runs.iter().all(|r| r.counters.is_empty()) {
            // perf_event_open not permitted here: the note says why, and nothing else
            // about counters can be checked.
            assert!(stderr.contains("no event counters"), "{stderr}");
            eprintln!("counters: not permitted on this machine; skipping the rest");
            return;
        }
        for r in &runs {
            assert!(r.counters["page-faults"] > 0.0, "{:?}", r.counters);
            assert!(r.counters["task-clock"] > 0.0, "{:?}", r.counters);
        }
        let pmu = runs.iter().any(|r| r.counters.contains_key("instructions"));
        let notes = stderr.matches("no hardware performance counters").count();
        // Said once per session (three runs), and only where there is no PMU.
        assert_eq!(notes, usize::from(!pmu), "{stderr}");
        assert!(
            stdout.contains("faults") && stdout.contains("task-clock"),
            "{stdout}"
        );
    }

    let out = fx.run(&["show", "--metric", "page-faults"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("vs fastest (page-faults)"), "{stdout}");

    let out = fx.run(&["compare", "1", "2", "--metric", "page-faults"]);
    let (stdout, stderr) = text(&out);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{stdout}\n{stderr}"
    );
    assert!(stdout.contains("page-faults"), "{stdout}");

    let out = fx.run(&[
        "history",
        "threadring",
        "--impl",
        "right",
        "--metric",
        "page-faults",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("page-faults across 2 sessions"), "{stdout}");

    let store = Store::open_existing(&fx.db()).unwrap();
    if store.runs(1).unwrap()[0]
        .counters
        .contains_key("instructions")
    {
        return;
    }
    // Without a PMU there are no instruction counts to compare: refused, saying why.
    let out = fx.run(&["compare", "1", "2", "--metric", "instructions"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("no instructions counts: its machine had no hardware performance counters"),
        "{stderr}"
    );
}
