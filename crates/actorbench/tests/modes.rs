//! Two modes named: a cell whose runs split into two groups says so in its notes.

mod common;

use common::{Fixture, text};

#[test]
fn a_cell_with_two_modes_is_named() {
    // `jitter` alternates runs of 0.05 s and 0.15 s of work; `steady` always takes 0.1 s.
    let fx = Fixture::new(&["jitter", "steady"]);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "6",
        "--warmup",
        "0",
        "--no-report",
        "--order",
        "grouped",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let line = |name: &str| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row in\n{stdout}"))
            .to_string()
    };
    assert!(
        line("jitter").contains("two modes: 3 runs near 50.0 ms, 3 near 150.0 ms"),
        "{stdout}"
    );
    assert!(!line("steady").contains("two modes"), "{stdout}");
}
