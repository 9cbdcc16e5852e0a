//! `actorbench compare A B` as a CI gate: its rules, each tried from the command line on
//! sessions made by running fake implementations or written straight into a store.
//!
//! - a cell with too few runs to test is not "unchanged" (the check takes the smallest
//!   count, cell by cell);
//! - a cell that passed in A and is missing or failed in B fails the gate;
//! - sessions from different hosts, profiles or toolchain versions are refused unless
//!   `--allow-mismatch`;
//! - the p-values are corrected for the number of cells (Holm);
//! - exit codes: 0 no regression, 1 regression, 2 usage, 3 store or I/O error;
//! - `--format markdown` is fit for a pull-request comment.

mod common;

use actorbench::store::{ImplRecord, SessionRecord, Store};
use common::{Cell, Fixture, session, text};

fn same(_: &mut SessionRecord) {}

const STEADY: &[f64] = &[1.0, 1.01, 0.99, 1.02, 0.98];

fn store(fx: &Fixture) -> Store {
    Store::create(&fx.db()).unwrap()
}

#[test]
fn too_few_runs_in_a_cell_is_not_unchanged() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    let a = session(
        &st,
        &[("x", "b", "n=1", 1, STEADY), ("y", "b", "n=1", 1, STEADY)],
        same,
    );
    // y has 5 runs in B, so the largest count is 5; x has only 2, twice as slow.
    let b = session(
        &st,
        &[
            ("x", "b", "n=1", 1, &[2.0, 2.02]),
            ("y", "b", "n=1", 1, STEADY),
        ],
        same,
    );
    let out = fx.run(&["compare", &a.to_string(), &b.to_string()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let x = stdout.lines().find(|l| l.contains(" x ")).unwrap();
    assert!(x.contains("TOO FEW RUNS"), "{stdout}");
    assert!(stdout.contains("x has 5 runs in A and 2 in B"), "{stdout}");
}

#[test]
fn a_cell_that_passed_in_a_and_is_missing_or_failing_in_b_fails_the_gate() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    let a = session(
        &st,
        &[("x", "b", "n=1", 1, STEADY), ("y", "b", "n=1", 1, STEADY)],
        same,
    );
    let b = session(&st, &[("x", "b", "n=1", 1, STEADY)], same);
    let out = fx.run(&["compare", &a.to_string(), &b.to_string()]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let y = stdout.lines().find(|l| l.contains(" y ")).unwrap();
    assert!(y.contains("MISSING IN B"), "{stdout}");

    // One failed run of five in B, the rest as fast as before: broken.
    let c = session(
        &st,
        &[
            ("x", "b", "n=1", 1, &[1.0, 1.01, -120.0, 0.99, 1.02]),
            ("y", "b", "n=1", 1, STEADY),
        ],
        same,
    );
    let out = fx.run(&["compare", &a.to_string(), &c.to_string()]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let x = stdout.lines().find(|l| l.contains(" x ")).unwrap();
    assert!(x.contains("BROKEN"), "{stdout}");
    // A cell that only ever failed, and is gone in B, is no failure of B's.
    let d = session(
        &st,
        &[("x", "b", "n=1", 1, STEADY), ("z", "b", "n=1", 1, &[-1.0])],
        same,
    );
    let e = session(&st, &[("x", "b", "n=1", 1, STEADY)], same);
    let out = fx.run(&["compare", &d.to_string(), &e.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).0);
}

#[test]
fn sessions_from_different_hosts_profiles_or_toolchains_are_refused() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    let cells: &[Cell<'_>] = &[("x", "b", "n=1", 1, STEADY)];
    let a = session(&st, cells, same);
    let host = session(&st, cells, |s| s.host_cpu = "Other CPU".into());
    let profile = session(&st, cells, |s| s.profile = "seed".into());
    let toolchain = session(&st, cells, same);
    st.put_impl(
        toolchain,
        &ImplRecord {
            name: "x".into(),
            language: "sh".into(),
            version: "fake 2.0".into(),
            status: "available".into(),
            ..Default::default()
        },
    )
    .unwrap();
    for (b, needle) in [
        (host, "host CPU: Test CPU in A, Other CPU in B"),
        (profile, "profile: quick in A, seed in B"),
        (toolchain, "x toolchain: fake 1.0 in A, fake 2.0 in B"),
    ] {
        let out = fx.run(&["compare", &a.to_string(), &b.to_string()]);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
        assert!(
            stderr.contains(needle) && stderr.contains("--allow-mismatch"),
            "{stderr}"
        );
        let out = fx.run(&[
            "compare",
            &a.to_string(),
            &b.to_string(),
            "--allow-mismatch",
        ]);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
        assert!(stdout.contains(&format!("mismatch: {needle}")), "{stdout}");
    }
}

#[test]
fn p_values_are_corrected_for_the_number_of_cells() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    // Each cell is about 8% slower in B: on its own a significant regression, but not
    // once twenty such tests are corrected for (Holm).
    let a_times: &[f64] = &[1.00, 1.02, 1.04, 1.06, 1.08];
    let b_times: &[f64] = &[1.08, 1.10, 1.12, 1.14, 1.16];
    let names: Vec<String> = (0..20).map(|i| format!("i{i:02}")).collect();
    let cells = |t: &'static [f64]| -> Vec<Cell<'_>> {
        names
            .iter()
            .map(|n| (n.as_str(), "b", "n=1", 1, t))
            .collect()
    };
    let a = session(&st, &cells(a_times), same);
    let b = session(&st, &cells(b_times), same);
    let one_a = session(&st, &cells(a_times)[..1], same);
    let one_b = session(&st, &cells(b_times)[..1], same);

    let out = fx.run(&["compare", &one_a.to_string(), &one_b.to_string()]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "alone it regressed: {stdout}");

    let out = fx.run(&["compare", &a.to_string(), &b.to_string()]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("0 regressions") && stdout.contains("Holm"),
        "{stdout}"
    );
}

#[test]
fn exit_codes_tell_a_regression_from_bad_input_and_from_an_io_error() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    let a = session(&st, &[("x", "b", "n=1", 1, STEADY)], same);
    let slower: Vec<f64> = STEADY.iter().map(|t| t * 2.0).collect();
    let b = session(&st, &[("x", "b", "n=1", 1, &slower)], same);
    let (a, b) = (a.to_string(), b.to_string());
    assert_eq!(fx.run(&["compare", &b, &a]).status.code(), Some(0));
    assert_eq!(fx.run(&["compare", &a, &b]).status.code(), Some(1));
    assert_eq!(fx.run(&["compare", &a, "99"]).status.code(), Some(2));
    assert_eq!(
        fx.run(&["compare", &a, &b, "--alpha", "2"]).status.code(),
        Some(2)
    );
    // Writing to a full device is an I/O error.
    let out = fx.run(&["export", &a, "--format", "csv", "--out", "/dev/full"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out).1);
}

#[test]
fn markdown_output_is_a_pull_request_comment() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    let a = session(
        &st,
        &[("x", "b", "n=1", 1, STEADY), ("y", "b", "n=1", 1, STEADY)],
        same,
    );
    let slower: Vec<f64> = STEADY.iter().map(|t| t * 2.0).collect();
    let b = session(
        &st,
        &[("x", "b", "n=1", 1, &slower), ("y", "b", "n=1", 1, STEADY)],
        same,
    );
    let out = fx.run(&[
        "compare",
        &a.to_string(),
        &b.to_string(),
        "--format",
        "markdown",
    ]);
    let (md, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{md}");
    assert!(md.starts_with("### "), "{md}");
    assert!(md.contains("gate failed"), "{md}");
    // The failing cell in its own table first, every cell behind a fold.
    let fold = md.find("<details>").expect("a fold");
    let x_first = md.find("| b | `n=1` | x |").expect("x row");
    assert!(x_first < fold, "{md}");
    assert!(md[fold..].contains("| b | `n=1` | y |"), "{md}");
    assert!(md.contains("**regression**"), "{md}");
}

#[test]
fn compare_gates_on_real_runs() {
    let fx = Fixture::new(&["right", "slow"]);
    let run = |fx: &Fixture| {
        let out = fx.run(&[
            "run",
            "--impl",
            "right",
            "--cores",
            "1",
            "--reps",
            "5",
            "--warmup",
            "0",
            "--no-report",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    };
    run(&fx);
    run(&fx);
    // The machine may turn busy (or quiet) between two real sessions, which is a mismatch;
    // this test is about the gate, so it compares them anyway.
    let out = fx.run(&[
        "compare",
        "1",
        "2",
        "--threshold",
        "1000",
        "--allow-mismatch",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("Session 1 (A) vs session 2 (B): 0 regressions"),
        "{stdout}"
    );
    // Work time is judged; the process's wall time is shown beside it.
    assert!(
        stdout.contains("Medians and change on work time (wall change: the whole process)")
            && stdout.contains("wall change"),
        "{stdout}"
    );
    // The same implementation name made 100x slower is a significant regression: exit 1.
    let suite = fx.path().join("suite.toml");
    let s = std::fs::read_to_string(&suite)
        .unwrap()
        .replace("./fake.sh right", "./fake.sh slow");
    std::fs::write(&suite, s).unwrap();
    run(&fx);
    let out = fx.run(&["compare", "1", "3", "--allow-mismatch"]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("REGRESSION"), "{stdout}");
    // And the reverse is an improvement, exit 0.
    let out = fx.run(&["compare", "3", "1", "--allow-mismatch"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out).0.contains("improvement"));
}

#[test]
fn a_session_from_before_work_times_is_compared_on_wall_time() {
    let fx = Fixture::new(&[]);
    let st = store(&fx);
    // An old session: its runs have wall times only.
    let old = st
        .begin_session(&SessionRecord {
            host_cpu: "Test CPU".into(),
            host_cores: 2,
            host_memory_bytes: 1 << 34,
            host_kernel: "Linux 6.1".into(),
            profile: "quick".into(),
            ..Default::default()
        })
        .unwrap();
    st.put_impl(
        old,
        &ImplRecord {
            name: "x".into(),
            version: "fake 1.0".into(),
            status: "available".into(),
            ..Default::default()
        },
    )
    .unwrap();
    for (seq, w) in STEADY.iter().enumerate() {
        st.insert_run(&actorbench::store::RunRecord {
            session_id: old,
            seq: seq as i64,
            implementation: "x".into(),
            bench: "b".into(),
            params: "n=1".into(),
            cores: 1,
            status: "ok".into(),
            wall_s: w + 0.01,
            ..Default::default()
        })
        .unwrap();
    }
    st.end_session(old, "complete", "t").unwrap();
    let new = session(&st, &[("x", "b", "n=1", 1, STEADY)], same);
    let out = fx.run(&["compare", &old.to_string(), &new.to_string()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("note: session {old} has no work times"))
            && stdout.contains("Medians and change on wall time"),
        "{stdout}"
    );
    let x = stdout.lines().find(|l| l.contains(" x ")).unwrap();
    assert!(x.contains("unchanged"), "{stdout}");
    let out = fx.run(&[
        "compare",
        &old.to_string(),
        &new.to_string(),
        "--metric",
        "work",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("--metric wall"), "{}", text(&out).1);
}
