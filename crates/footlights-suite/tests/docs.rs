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

/// The first ```rust block of a Markdown file.
fn first_rust_example(path: &str) -> String {
    let text = fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = text
        .find("```rust\n")
        .unwrap_or_else(|| panic!("{path} has no rust block"));
    let body = &text[start + "```rust\n".len()..];
    body[..body.find("```").expect("a closed block")].to_owned()
}

/// The repository README's first example is the crate README's, which the crate runs as a
/// doctest (and which is packaged with the crate).
#[test]
fn the_readme_example_is_the_crates_doctested_one() {
    assert_eq!(
        first_rust_example("README.md"),
        first_rust_example("crates/footlights/README.md"),
        "README.md's first example differs from crates/footlights/README.md's"
    );
}

/// The `quick = { ... }` line of `bench` in suite.toml, as `name=value` words in the
/// contract's order (suite.toml's tables write `name = value, ...`).
fn suite_quick(suite: &str, bench: Bench) -> Option<String> {
    let mut lines = suite
        .lines()
        .skip_while(|l| *l != format!("name = \"{bench}\""));
    lines.next()?;
    let table = lines
        .find_map(|l| l.strip_prefix("quick = {"))?
        .trim_end_matches('}');
    let mut pairs: Vec<(String, String)> = table
        .split(',')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let order = |name: &str| bench.params().iter().position(|p| p.name == name);
    pairs.sort_by_key(|(k, _)| order(k));
    Some(
        pairs
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

#[test]
fn the_suite_file_measures_the_contracts_quick_values() {
    let suite = fs::read_to_string(repo_root().join("suite.toml")).unwrap();
    for bench in Bench::ALL {
        assert_eq!(
            suite_quick(&suite, bench).as_deref(),
            Some(quick(bench).as_str()),
            "suite.toml's quick values for {bench}"
        );
    }
}
