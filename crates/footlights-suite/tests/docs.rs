//! docs/benchmarks.md, the contract, agrees with the code (suite-contract's table of
//! benchmarks).

mod common;

use std::fs;

use common::repo_root;
use suite_contract::Bench;

/// The quick parameters of `bench` as the tables write them: `actors=503 hops=1000000`.
fn quick(bench: Bench) -> String {
    bench
        .params()
        .iter()
        .map(|p| format!("{}={}", p.name, p.quick))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The table row of `bench` in a markdown file (the line starting with its quoted name),
/// split into cells.
fn row(markdown: &str, bench: Bench) -> Option<Vec<String>> {
    let start = format!("| `{bench}` |");
    let line = markdown.lines().find(|l| l.starts_with(&start))?;
    Some(
        line.trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().to_owned())
            .collect(),
    )
}

#[test]
fn our_table_has_every_benchmark_with_its_quick_values_and_ranges() {
    let ours = fs::read_to_string(repo_root().join("docs/benchmarks.md")).unwrap();
    for bench in Bench::ALL {
        let cells = row(&ours, bench).unwrap_or_else(|| panic!("no row for {bench}"));
        assert_eq!(cells[2], format!("`{}`", quick(bench)), "{bench} quick");
        for p in bench.params() {
            let range = format!("{} {}..={}", p.name, p.min, p.max);
            assert!(
                cells[3].contains(&range),
                "{bench}: {range} not in {:?}",
                cells[3]
            );
        }
    }
}
