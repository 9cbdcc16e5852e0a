//! The gate's family and its honesty about what it can see: unfinished sessions are
//! refused, `--impl` makes the family of tests, each cell says the smallest regression it
//! could have flagged, the Mann-Whitney note follows the real run counts, `--json` is for
//! bots, and the machine's state is part of the mismatch check.

mod common;

use actorbench::store::{SessionRecord, Store};
use common::{Cell, Fixture, session, text};

fn same(_: &mut SessionRecord) {}

const STEADY: &[f64] = &[1.0, 1.01, 0.99, 1.02, 0.98];

fn store(fx: &Fixture) -> Store {
    Store::create(&fx.db()).unwrap()
}

fn compare(fx: &Fixture, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["compare"];
    all.extend(args);
    let out = fx.run(&all);
    let (o, e) = text(&out);
    (out.status.code(), o, e)
}

#[test]
fn an_interrupted_or_abandoned_session_is_refused_unless_allowed() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    let a = session(&st, &[("x", "b", "n=1", 1, STEADY)], same);
    // B measured only one of A's two cells before it stopped.
    let full = session(
        &st,
        &[("x", "b", "n=1", 1, STEADY), ("y", "b", "n=1", 1, STEADY)],
        same,
    );
    for status in ["interrupted", "abandoned"] {
        let b = session(&st, &[("x", "b", "n=1", 1, STEADY)], same);
        st.end_session(b, status, "2026-11-23T10:06:00Z").unwrap();
        // Either way round: an unfinished baseline passes every cell it did not measure.
        let (code, _, err) = compare(&fx, &[&b.to_string(), &full.to_string()]);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains(&format!("session {b} (A) is {status}, not complete"))
                && err.contains("--allow-incomplete"),
            "{err}"
        );
        let (code, out, err) =
            compare(&fx, &[&a.to_string(), &b.to_string(), "--allow-incomplete"]);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(
            out.contains(&format!("incomplete: session {b} (B) is {status}")),
            "{out}"
        );
    }
}

#[test]
fn impl_makes_the_family_that_holm_corrects_over() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    // footlights is 8% slower (alone, p about 0.005); twenty quiet peer cells dilute it.
    let a_times: &[f64] = &[1.00, 1.02, 1.04, 1.06, 1.08];
    let b_times: &[f64] = &[1.08, 1.10, 1.12, 1.14, 1.16];
    let peers: Vec<String> = (0..20).map(|i| format!("peer{i:02}")).collect();
    let cells = |foot: &'static [f64]| -> Vec<Cell<'_>> {
        let mut c: Vec<Cell<'_>> = vec![("footlights", "b", "n=1", 1, foot)];
        c.extend(peers.iter().map(|n| (n.as_str(), "b", "n=1", 1, STEADY)));
        c
    };
    let a = session(&st, &cells(a_times), same).to_string();
    let b = session(&st, &cells(b_times), same).to_string();
    let (code, out, _) = compare(&fx, &[&a, &b]);
    assert_eq!(code, Some(0), "diluted over 21 cells: {out}");
    let (code, out, err) = compare(&fx, &[&a, &b, "--impl", "footlights"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("REGRESSION") && !out.contains("peer00"),
        "{out}"
    );
    assert!(
        out.contains("over the 1 cell tested (footlights only)"),
        "{out}"
    );
    let (code, _, err) = compare(&fx, &[&a, &b, "--impl", "nosuch"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--impl nosuch: neither session"), "{err}");
}

#[test]
fn each_cell_says_the_smallest_regression_it_could_detect() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    let wide: &[f64] = &[0.8, 1.0, 1.2, 0.9, 1.1];
    let a = session(
        &st,
        &[
            ("tight", "b", "n=1", 1, STEADY),
            ("wide", "b", "n=1", 1, wide),
        ],
        same,
    )
    .to_string();
    let b = session(
        &st,
        &[
            ("tight", "b", "n=1", 1, STEADY),
            ("wide", "b", "n=1", 1, wide),
        ],
        same,
    )
    .to_string();
    let (code, out, _) = compare(&fx, &[&a, &b, "--json"]);
    assert_eq!(code, Some(0), "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["gate"], "passed");
    let detect = |name: &str| {
        doc["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["implementation"] == name)
            .unwrap()["detectable_ratio"]
            .as_f64()
            .unwrap()
    };
    // A tight cell sees a small regression, a noisy one only a large one; none sees
    // less than the threshold (5%).
    let (t, w) = (detect("tight"), detect("wide"));
    assert!((1.05..1.10).contains(&t), "tight: {t}");
    assert!(w > 1.2, "wide: {w}");
    // Check the tight cell's figure: B made that much slower is flagged, a bit less not.
    for (factor, expect) in [(t * 1.01, Some(1)), (1.0 + (t - 1.0) * 0.8, Some(0))] {
        let slower: Vec<f64> = STEADY.iter().map(|x| x * factor).collect();
        let st = store(&fx);
        let one_a = session(&st, &[("tight", "b", "n=1", 1, STEADY)], same).to_string();
        let one_b = session(&st, &[("tight", "b", "n=1", 1, &slower)], same).to_string();
        let (code, out, _) = compare(&fx, &[&one_a, &one_b]);
        assert_eq!(code, expect, "x{factor}: {out}");
    }
    let (_, text_out, _) = compare(&fx, &[&a, &b]);
    assert!(text_out.contains("detectable"), "{text_out}");
}

#[test]
fn the_mann_whitney_note_follows_the_real_run_counts() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    let ten: Vec<f64> = (0..10).map(|i| 1.0 + 0.001 * f64::from(i)).collect();
    let four: &[f64] = &[1.0, 1.01, 0.99, 1.02];
    let names: Vec<String> = (0..10).map(|i| format!("i{i}")).collect();
    // Ten cells of 10 vs 10 runs: the smallest p is 1.1e-5, so every lone regression can
    // be flagged and there is nothing to warn about.
    let cells: Vec<Cell<'_>> = names
        .iter()
        .map(|n| (n.as_str(), "b", "n=1", 1, ten.as_slice()))
        .collect();
    let a = session(&st, &cells, same).to_string();
    let b = session(&st, &cells, same).to_string();
    let (_, out, _) = compare(&fx, &[&a, &b, "--test", "mann-whitney"]);
    assert!(!out.contains("cannot flag"), "{out}");
    // Two cells of 4 vs 4: the smallest p is 2/70 = 0.029, times 2 is not below 0.05.
    let two: Vec<Cell<'_>> = names[..2]
        .iter()
        .map(|n| (n.as_str(), "b", "n=1", 1, four))
        .collect();
    let a = session(&st, &two, same).to_string();
    let b = session(&st, &two, same).to_string();
    let (_, out, _) = compare(&fx, &[&a, &b, "--test", "mann-whitney"]);
    assert!(
        out.contains("Mann-Whitney cannot flag a lone regression in 2 cells of them (4 vs 4 runs: smallest p 0.029"),
        "{out}"
    );
}

#[test]
fn governor_smt_and_a_busy_machine_are_mismatches() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    let recorded = |s: &mut SessionRecord| {
        s.harness_version = "actorbench 0.1.0 (test)".into();
        s.cpu_governor = "performance".into();
        s.smt = "off".into();
    };
    let a = session(&st, &[("x", "b", "n=1", 1, STEADY)], recorded).to_string();
    let b = session(&st, &[("x", "b", "n=1", 1, STEADY)], |s| {
        recorded(s);
        s.cpu_governor = "powersave".into();
        s.smt = "on (active)".into();
        s.busy = "load average 3.00 at the start on 2 CPUs".into();
    })
    .to_string();
    let (code, _, err) = compare(&fx, &[&a, &b]);
    assert_eq!(code, Some(2), "{err}");
    for needle in [
        "CPU governor: performance in A, powersave in B",
        "SMT: off in A, on (active) in B",
        "machine: quiet in A, busy in B",
    ] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    let (code, out, _) = compare(&fx, &[&a, &b, "--allow-mismatch"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("mismatch: CPU governor"), "{out}");
}
