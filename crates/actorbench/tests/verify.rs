//! `actorbench verify`: vectors at each thread count, the bad-input cases, and the closing
//! `N passed, M failed` line; nothing skipped silently.

mod common;

use common::{Fixture, implementation, text};

const VECTORS: &str = "# bench\tparams\tcheck\nthreadring\tactors=3 hops=10\t2\nthreadring\tactors=503 hops=0\t1\n\
                       chameneos\tcreatures=3 meetings=600\t1200\n";

fn fixture(extra: &str) -> Fixture {
    let fx = Fixture::with(&["contract", "wrong"], extra);
    std::fs::write(fx.path().join("vectors.tsv"), VECTORS).unwrap();
    fx
}

#[test]
fn a_compliant_implementation_passes_everything() {
    let fx = fixture("");
    let out = fx.run(&[
        "verify",
        "--impl",
        "contract",
        "--threads",
        "1",
        "--vectors",
        "vectors.tsv",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    // 3 vectors at 1 thread + 5 bad-input cases.
    assert_eq!(
        stdout.lines().last(),
        Some("8 passed, 0 failed"),
        "{stdout}"
    );
}

#[test]
fn wrong_answers_and_bad_input_handling_fail_with_a_list() {
    let fx = fixture("");
    let out = fx.run(&[
        "verify",
        "--impl",
        "wrong",
        "--threads",
        "1",
        "--vectors",
        "vectors.tsv",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("wrong threadring actors=3 hops=10 at 1 thread: printed check=999999, the vector says check=2"), "{stdout}");
    assert!(
        stdout.contains("wrong bad input `fannkuch n=13`: exit status 0, expected 2"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().last(),
        Some("0 passed, 8 failed"),
        "{stdout}"
    );
}

#[test]
fn unavailable_implementations_fail_when_named_and_are_skipped_loudly_otherwise() {
    let ghost = implementation("ghost", "right")
        .replace("available = \"sh -c true\"", "available = \"false\"");
    let fx = fixture(&ghost);
    let out = fx.run(&[
        "verify",
        "--impl",
        "ghost",
        "--threads",
        "1",
        "--vectors",
        "vectors.tsv",
    ]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("ghost (sh) is not available") && stdout.ends_with("0 passed, 1 failed\n"),
        "{stdout}"
    );

    let out = fx.run(&["verify", "--threads", "1", "--vectors", "vectors.tsv"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "wrong still fails");
    assert!(
        stderr.contains("SKIPPED ghost (sh) is not available"),
        "{stderr}"
    );
    assert_eq!(
        stdout.lines().last(),
        Some("8 passed, 8 failed, 8 skipped"),
        "{stdout}"
    );
}

#[test]
fn default_thread_counts_and_bad_arguments() {
    let fx = fixture("");
    let out = fx.run(&["verify", "--impl", "contract", "--vectors", "vectors.tsv"]);
    let (stdout, _) = text(&out);
    let n = actorbench::exec::allowed_cpus().len().min(2);
    assert_eq!(
        stdout.lines().last(),
        Some(format!("{} passed, 0 failed", 3 * n + 5).as_str()),
        "{stdout}"
    );
    for args in [
        vec!["verify", "--impl", "nosuch", "--vectors", "vectors.tsv"],
        vec!["verify", "--vectors", "missing.tsv"],
        vec!["verify", "--threads", "999", "--vectors", "vectors.tsv"],
    ] {
        let out = fx.run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out).1);
    }
    std::fs::write(fx.path().join("bad.tsv"), "threadring\tactors=3\n").unwrap();
    let out = fx.run(&["verify", "--vectors", "bad.tsv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("bad.tsv:1:"), "{}", text(&out).1);
}

#[test]
fn a_failed_build_is_a_failure() {
    let broken = implementation("broken", "contract")
        .replace("language = \"sh\"", "language = \"sh\"\nbuild = \"exit 1\"");
    let fx = fixture(&broken);
    let out = fx.run(&[
        "verify",
        "--impl",
        "broken",
        "--threads",
        "1",
        "--vectors",
        "vectors.tsv",
    ]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("broken: build failed, so its 8 tests were not run"),
        "{stdout}"
    );
}

#[test]
fn a_hanging_implementation_gives_up_after_three_timeouts() {
    let fx = Fixture::new(&["hang"]);
    let vectors: String = (0..6)
        .map(|i| format!("threadring\tactors=3 hops={i}\t{}\n", i % 3 + 1))
        .collect();
    std::fs::write(fx.path().join("v.tsv"), vectors).unwrap();
    let out = fx.run(&[
        "verify",
        "--impl",
        "hang",
        "--threads",
        "1",
        "--vectors",
        "v.tsv",
        "--timeout",
        "1",
    ]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("hang: 3 vector runs not attempted after 3 timeouts in a row"),
        "{stdout}"
    );
    // 6 vectors + 5 bad-input cases, all failed (the bad-input cases time out too).
    assert_eq!(
        stdout.lines().last(),
        Some("0 passed, 11 failed"),
        "{stdout}"
    );
}

#[test]
fn variants_are_verified_only_when_named_and_said_to_be_left_out() {
    let variant = implementation("contract-alt", "contract").replace(
        "language = \"sh\"",
        "variant_of = \"contract\"\nlanguage = \"sh\"\nenv = { FAKE_ALT = \"1\" }",
    );
    let fx = fixture(&variant);
    let note = "not verified: configuration variants run only when named with --impl: contract-alt (of contract)";
    let out = fx.run(&["verify", "--threads", "1", "--vectors", "vectors.tsv"]);
    let (stdout, stderr) = text(&out);
    assert!(
        stderr.contains("verifying contract, wrong against") && stderr.contains(note),
        "{stderr}"
    );
    let tail: Vec<&str> = stdout.lines().rev().take(2).collect();
    assert_eq!(tail, ["8 passed, 8 failed", note], "{stdout}");

    let out = fx.run(&[
        "verify",
        "--impl",
        "contract-alt",
        "--threads",
        "1",
        "--vectors",
        "vectors.tsv",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(!stdout.contains("not verified") && !stderr.contains("not verified"));
    assert_eq!(
        stdout.lines().last(),
        Some("8 passed, 0 failed"),
        "{stdout}"
    );
}

#[test]
fn a_vector_run_without_a_valid_work_time_fails() {
    let fx = fixture(
        &(implementation("noseconds", "noseconds") + &implementation("longseconds", "longseconds")),
    );
    for (name, why) in [
        ("noseconds", "bad-output: result line lacks seconds="),
        (
            "longseconds",
            "bad-output: seconds=1000 is longer than the process's wall time",
        ),
    ] {
        let out = fx.run(&[
            "verify",
            "--impl",
            name,
            "--threads",
            "1",
            "--vectors",
            "vectors.tsv",
        ]);
        let (stdout, _) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert!(
            stdout.contains(&format!(
                "{name} threadring actors=3 hops=10 at 1 thread: {why}"
            )),
            "{stdout}"
        );
    }
}
