//! The oracle (`scripts/oracle`, Python, no actors) agrees with the contract: every check
//! in docs/vectors.tsv is the one it computes, its parameter table is suite-contract's,
//! and it rejects bad input as the programs do.

mod common;

use std::process::Command;

use common::repo_root;
use suite_contract::Bench;

/// Runs the oracle with `args` from the repository root.
fn oracle(args: &[&str]) -> std::process::Output {
    Command::new("python3")
        .arg("scripts/oracle")
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("python3 runs scripts/oracle")
}

#[test]
fn every_vector_is_what_the_oracle_computes() {
    let out = oracle(&["--verify", "docs/vectors.tsv"]);
    assert!(
        out.status.success(),
        "the oracle disagrees with docs/vectors.tsv:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_oracles_parameters_are_the_contracts() {
    let out = oracle(&["--table"]);
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    let expected: Vec<String> = Bench::ALL
        .iter()
        .flat_map(|bench| {
            bench
                .params()
                .iter()
                .map(move |p| format!("{bench} {} {} {} {}", p.name, p.quick, p.min, p.max))
        })
        .collect();
    assert_eq!(table.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn the_oracle_computes_quick_values_and_rejects_bad_input() {
    let out = oracle(&["banking", "transactions=0"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0:500500000000\n");
    let out = oracle(&["banking", "accounts=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: banking: accounts=1 is out of range (2..=1000000)\n"
    );
}
