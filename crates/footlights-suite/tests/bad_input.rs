//! Bad input as a new user would type it: exit status 2 and one line on stderr that names
//! the benchmark, the parameter and the value; `--help`; and a bad thread count.

mod common;

use common::suite;
use suite_contract::Bench;

/// Runs `args` and checks the contract's shape of a bad-input failure: status 2, nothing on
/// stdout, exactly `error: MESSAGE` on stderr.
fn rejected(args: &[&str], message: &str) {
    let run = suite(args, Some("2"));
    assert_eq!(run.status, Some(2), "{args:?}: {run:?}");
    assert_eq!(run.stdout, "", "{args:?}");
    assert_eq!(run.stderr, format!("error: {message}\n"), "{args:?}");
}

#[test]
fn the_contract_cases_exit_two_with_one_line() {
    let known = Bench::known_list();
    rejected(&[], &format!("no benchmark given (known: {known})"));
    rejected(
        &["foo"],
        &format!("unknown benchmark 'foo' (known: {known})"),
    );
    rejected(
        &["threadring", "hops"],
        "threadring: argument 'hops' is not NAME=VALUE",
    );
    rejected(
        &["threadring", "foo=1"],
        "threadring: unknown parameter foo=1 (known: actors, hops)",
    );
    rejected(
        &["threadring", "hops=1", "hops=5"],
        "threadring: parameter hops=5 given twice",
    );
    rejected(
        &["threadring", "hops=abc"],
        "threadring: hops=abc is not a non-negative integer",
    );
    rejected(
        &["fannkuch", "n=13"],
        "fannkuch: n=13 is out of range (3..=12)",
    );
    rejected(
        &["skynet", "size=1000", "div=7"],
        "skynet: size=1000 is not a power of div=7",
    );
}

#[test]
fn more_mistakes_a_user_makes() {
    rejected(
        &["big", "hood=-1"],
        "big: hood=-1 is not a non-negative integer",
    );
    rejected(
        &["big", "hood=0"],
        "big: hood=0 is out of range (1..=1000000)",
    );
    rejected(
        &["chameneos", "creatures=1"],
        "chameneos: creatures=1 is out of range (2..=1000000)",
    );
    rejected(
        &["fibtree", "n=41"],
        "fibtree: n=41 is out of range (0..=40)",
    );
    rejected(
        &["spreading", "depth=1e3"],
        "spreading: depth=1e3 is not a non-negative integer",
    );
    rejected(
        &["Threadring"],
        &format!(
            "unknown benchmark 'Threadring' (known: {})",
            Bench::known_list()
        ),
    );
    rejected(
        &["skynet", "div=4"],
        "skynet: size=100000 is not a power of div=4",
    );
}

#[test]
fn the_savina_benchmarks_name_the_bad_parameter() {
    rejected(
        &["banking", "accounts=1"],
        "banking: accounts=1 is out of range (2..=1000000)",
    );
    rejected(
        &["logmap", "rate=36001"],
        "logmap: rate=36001 is out of range (0..=36000)",
    );
    rejected(
        &["logmap", "rate=3.46"],
        "logmap: rate=3.46 is not a non-negative integer",
    );
    rejected(
        &["concsll", "write_pct=101"],
        "concsll: write_pct=101 is out of range (0..=100)",
    );
    rejected(
        &["bndbuffer", "buffer=0"],
        "bndbuffer: buffer=0 is out of range (1..=1000000)",
    );
    rejected(
        &["philosopher", "forks=2"],
        "philosopher: unknown parameter forks=2 (known: philosophers, rounds)",
    );
    rejected(
        &["barber", "cut=1", "cut=2"],
        "barber: parameter cut=2 given twice",
    );
}

#[test]
fn help_lists_benchmarks_parameters_defaults_and_seeds() {
    for flag in ["--help", "-h"] {
        let run = suite(&[flag], None);
        assert_eq!(run.status, Some(0), "{run:?}");
        assert_eq!(run.stderr, "");
        assert!(
            run.stdout
                .starts_with("Usage: footlights-suite BENCH [NAME=VALUE ...]")
        );
        for bench in Bench::ALL {
            assert!(run.stdout.contains(&format!("  {bench}: ")), "{bench}");
            assert!(run.stdout.contains(bench.seed()), "{bench} seed");
            for p in bench.params() {
                assert!(
                    run.stdout
                        .lines()
                        .any(|l| l.trim_start().starts_with(p.name)
                            && l.contains(&format!("quick {}", p.quick))),
                    "{bench} {}",
                    p.name
                );
            }
        }
    }
}

#[test]
fn a_bad_thread_count_is_a_run_error() {
    for value in ["0", "two", ""] {
        let run = suite(&["pingpong", "pings=10"], Some(value));
        assert_eq!(run.status, Some(1), "{value:?}: {run:?}");
        assert_eq!(run.stdout, "");
        assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
        assert!(run.stderr.starts_with("error: pingpong: "), "{run:?}");
        assert!(run.stderr.contains("FOOTLIGHTS_THREADS"), "{run:?}");
    }
}

#[test]
fn a_bad_scheduler_policy_or_placement_is_a_run_error_naming_the_variable() {
    for (var, value, accepted) in [
        ("FOOTLIGHTS_SCHEDULER", "stealing", "steal, share, stages"),
        ("FOOTLIGHTS_POLICY", "threads", "task, thread, inline"),
        ("FOOTLIGHTS_PLACEMENT", "", "manual, observe, auto"),
    ] {
        let run = common::suite_with(&["pingpong", "pings=10"], Some("1"), &[(var, value)]);
        assert_eq!(run.status, Some(1), "{var}: {run:?}");
        assert_eq!(run.stdout, "");
        assert!(run.stderr.starts_with("error: pingpong: "), "{run:?}");
        assert!(run.stderr.contains(var), "{run:?}");
        assert!(run.stderr.contains(accepted), "{run:?}");
    }
}

#[test]
fn every_runtime_configuration_gives_the_same_answers() {
    let configurations: [&[(&str, &str)]; 5] = [
        &[("FOOTLIGHTS_SCHEDULER", "share")],
        &[("FOOTLIGHTS_SCHEDULER", "stages")],
        &[("FOOTLIGHTS_POLICY", "thread")],
        &[("FOOTLIGHTS_POLICY", "inline")],
        &[("FOOTLIGHTS_PLACEMENT", "auto")],
    ];
    for env in configurations {
        for (args, check) in [
            (&["threadring", "actors=503", "hops=1000"][..], "498"),
            (&["chameneos", "creatures=10", "meetings=6000"][..], "12000"),
            (&["fibtree", "n=10"][..], "55"),
            (
                &["mixed", "rings=4", "ring_size=50", "token=100", "reps=2"][..],
                "8",
            ),
        ] {
            let run = common::suite_with(args, Some("2"), env);
            let expected = format!("result bench={} check={check}", args[0]);
            let line = common::result_without_seconds(&run);
            assert!(
                line == expected || line.starts_with(&format!("{expected} ")),
                "{env:?}: {run:?}"
            );
        }
    }
}

#[test]
fn quick_defaults_run_without_parameters() {
    let run = suite(&["fibtree"], Some("2"));
    let line = common::result_without_seconds(&run);
    assert_eq!(line, "result bench=fibtree check=6765", "{run:?}");
    let run = suite(&["threadring", "hops=7"], Some("1"));
    let line = common::result_without_seconds(&run);
    assert_eq!(line, "result bench=threadring check=8", "{run:?}");
}
