//! The contract's test vectors (`docs/vectors.tsv`), each run as a process on 1, 2, 16 and
//! 64 worker threads, and on 16 and 64 told they have as many CPUs (the check, and a work
//! time `seconds` that is positive and within the process's wall time).

mod common;

use std::fs;

use common::{repo_root, suite, suite_with};
use suite_contract::split_seconds;

/// One line of `docs/vectors.tsv`.
struct Vector {
    bench: String,
    params: Vec<String>,
    check: String,
}

fn vectors() -> Vec<Vector> {
    let text = fs::read_to_string(repo_root().join("docs/vectors.tsv")).expect("docs/vectors.tsv");
    let vectors: Vec<Vector> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "bad vector line {line:?}");
            Vector {
                bench: fields[0].to_owned(),
                params: fields[1].split_whitespace().map(str::to_owned).collect(),
                check: fields[2].to_owned(),
            }
        })
        .collect();
    assert!(vectors.len() >= 30, "only {} vectors", vectors.len());
    vectors
}

/// The value of parameter `name` in `params` (`name=value`).
fn param(params: &[String], name: &str) -> u64 {
    params
        .iter()
        .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {name} in {params:?}"))
        .parse()
        .unwrap()
}

/// Checks one run of a vector; returns what is wrong with it, if anything.
fn check_vector(vector: &Vector, threads: &str, cpus: Option<&str>) -> Result<(), String> {
    let args: Vec<&str> = std::iter::once(vector.bench.as_str())
        .chain(vector.params.iter().map(String::as_str))
        .collect();
    let env: Vec<(&str, &str)> = cpus.map(|c| ("FOOTLIGHTS_CPUS", c)).into_iter().collect();
    let run = suite_with(&args, Some(threads), &env);
    let context = format!("{args:?} on {threads} threads ({cpus:?} CPUs): {run:?}");
    if run.status != Some(0) {
        return Err(format!("exit status {:?}; {context}", run.status));
    }
    let expected = format!("result bench={} check={}", vector.bench, vector.check);
    let Some(line) = run.stdout.strip_suffix('\n').filter(|l| !l.contains('\n')) else {
        return Err(format!("stdout is not exactly one line; {context}"));
    };
    // The work time is present and positive; the rest of the line is checked without it.
    let (line, seconds) = split_seconds(line).map_err(|e| format!("{e}; {context}"))?;
    if seconds > run.elapsed.as_secs_f64() {
        return Err(format!(
            "seconds={seconds} exceeds the wall time; {context}"
        ));
    }
    let line = line.as_str();
    if vector.bench != "chameneos" {
        return if line == expected {
            Ok(())
        } else {
            Err(format!("expected {expected:?}; {context}"))
        };
    }
    // chameneos: `counts` has one entry per creature, and they add up to 2 * meetings.
    let Some(counts) = line
        .strip_prefix(&expected)
        .and_then(|rest| rest.strip_prefix(" counts="))
    else {
        return Err(format!("expected {expected:?} then counts; {context}"));
    };
    let counts: Vec<u64> = counts
        .split(',')
        .map(|c| c.parse().map_err(|_| format!("bad count {c:?}; {context}")))
        .collect::<Result<_, _>>()?;
    let creatures = param(&vector.params, "creatures");
    let meetings = param(&vector.params, "meetings");
    if counts.len() as u64 != creatures {
        return Err(format!(
            "{} counts for {creatures} creatures; {context}",
            counts.len()
        ));
    }
    if counts.iter().sum::<u64>() != 2 * meetings {
        return Err(format!("counts do not add up to 2*{meetings}; {context}"));
    }
    Ok(())
}

fn every_vector_passes(threads: &str) {
    every_vector_passes_with(threads, None);
}

/// `cpus`: the CPUs the runtime is told it has (`FOOTLIGHTS_CPUS`), else its own count.
fn every_vector_passes_with(threads: &str, cpus: Option<&str>) {
    let failures: Vec<String> = vectors()
        .iter()
        .filter_map(|v| check_vector(v, threads, cpus).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_vector_passes_on_one_thread() {
    every_vector_passes("1");
}

#[test]
fn every_vector_passes_on_two_threads() {
    every_vector_passes("2");
}

/// Past two cores, on paper and in code (issue 15, point 6): the machine has two cores,
/// but every benchmark must stay correct on the 16 and 64 workers of larger machines, and
/// oversubscribed here (at most as many awake for shared work as there are CPUs, the
/// others parked and started only when woken; see also the test after these two).
#[test]
fn every_vector_passes_on_16_threads() {
    every_vector_passes("16");
}

#[test]
fn every_vector_passes_on_64_threads() {
    every_vector_passes("64");
}

/// As on a machine of 16 and 64 CPUs: the runtime is told it has as many CPUs as workers,
/// so every worker starts and may be awake for shared work (the rule that keeps at most
/// as many awake as CPUs limits nothing), and here, on two cores, they park, search and
/// steal far more than on two. Without it, the workers beyond this machine's CPUs start
/// only for work pinned to them, which the two tests above check.
#[test]
fn every_vector_passes_on_16_and_64_threads_all_awake() {
    every_vector_passes_with("16", Some("16"));
    every_vector_passes_with("64", Some("64"));
}

/// Chameneos with more creatures than meetings: some creatures never meet, and every
/// count is still reported, in creature order. The program itself fails the run if the
/// meeting place ever pairs a creature with itself, so a clean exit is part of the check.
#[test]
fn chameneos_reports_every_creature_even_idle_ones() {
    for threads in ["1", "2"] {
        let run = suite(&["chameneos", "creatures=9", "meetings=2"], Some(threads));
        assert_eq!(run.status, Some(0), "{run:?}");
        let counts = common::result_without_seconds(&run)
            .split_once(" counts=")
            .map(|(_, c)| {
                c.split(',')
                    .map(|n| n.parse::<u64>().unwrap())
                    .collect::<Vec<_>>()
            })
            .expect("counts");
        assert_eq!(counts.len(), 9);
        assert_eq!(counts.iter().sum::<u64>(), 4);
        assert!(counts.iter().all(|&c| c <= 2), "{counts:?}");
        let run = suite(&["chameneos", "creatures=2", "meetings=0"], Some(threads));
        let line = common::result_without_seconds(&run);
        assert_eq!(line, "result bench=chameneos check=0 counts=0,0", "{run:?}");
    }
}

/// Several neighbourhoods starting at once: a ping must never reach a worker before it
/// knows its neighbourhood (a start-up race seen once at workers=4000 on two threads).
#[test]
fn big_neighbourhoods_start_cleanly() {
    for _ in 0..5 {
        let run = suite(&["big", "workers=3000", "pings=5", "hood=100"], Some("2"));
        let line = common::result_without_seconds(&run);
        assert_eq!(line, "result bench=big check=15000", "{run:?}");
    }
}
