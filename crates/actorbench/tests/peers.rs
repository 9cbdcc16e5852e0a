//! `actorbench peers` and `actorbench peers install`.

mod common;

use common::{Fixture, text};

const PEERS: &str = r#"
[[implementation]]
name = "later"
language = "sh"
run = "./fake.sh right {bench} {params}"
threads_env = "T"
available = "test -f installed.marker"
version = "cat installed.marker"
install_hint = "touch installed.marker"
install = ["echo preparing", "echo later 2.0 > installed.marker"]

[[implementation]]
name = "broken"
language = "sh"
run = "./fake.sh right {bench} {params}"
threads_env = "T"
available = "false"
install_hint = "cannot be installed"
install = ["echo first step", "exit 7", "echo never"]

[[implementation]]
name = "manual"
language = "sh"
run = "./fake.sh right {bench} {params}"
threads_env = "T"
available = "false"
install_hint = "ask the admin"
"#;

#[test]
fn lists_availability_and_versions() {
    let fx = Fixture::with(&["right"], PEERS);
    let out = fx.run(&["peers"]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(0));
    let line = |name: &str| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap()
            .to_string()
    };
    assert!(
        line("right").contains("available") && line("right").contains("fake 1.0"),
        "{stdout}"
    );
    assert!(
        line("later").contains("missing") && line("later").contains("touch installed.marker"),
        "{stdout}"
    );
    assert!(stdout.contains("3 missing"), "{stdout}");
}

#[test]
fn installs_what_is_missing_and_stops_on_a_failing_step() {
    let fx = Fixture::with(&["right"], PEERS);
    let out = fx.run(&["peers", "install", "later", "right"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("later: $ echo preparing")
            && stdout.contains("later: installed (later 2.0)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("right: available, nothing to install"),
        "{stdout}"
    );
    let (stdout, _) = text(&fx.run(&["peers"]));
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("later") && l.contains("available")),
        "{stdout}"
    );

    let out = fx.run(&["peers", "install", "broken"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("first step") && !stdout.contains("never"),
        "{stdout}"
    );
    assert!(
        stderr.contains("broken: install step `exit 7` failed"),
        "{stderr}"
    );

    let out = fx.run(&["peers", "install", "manual"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("ask the admin"));
    assert_eq!(
        fx.run(&["peers", "install", "nosuch"]).status.code(),
        Some(2)
    );
}

/// The real suite's order: an implementation with no install steps (go) comes before
/// others that have them; `peers install` must still install those, report each one,
/// and fail only because of the one whose step failed.
const MIXED: &str = r#"
[[implementation]]
name = "manual"
language = "sh"
run = "./fake.sh right {bench} {params}"
threads_env = "T"
available = "false"
install_hint = "ask the admin"

[[implementation]]
name = "broken"
language = "sh"
run = "./fake.sh right {bench} {params}"
threads_env = "T"
available = "false"
install = ["echo first step", "exit 7", "echo never"]

[[implementation]]
name = "later"
language = "sh"
run = "./fake.sh right {bench} {params}"
threads_env = "T"
available = "test -f installed.marker"
version = "cat installed.marker"
install = ["echo later 2.0 > installed.marker"]
"#;

#[test]
fn installs_every_implementation_with_steps_and_reports_each() {
    let fx = Fixture::with(&["right"], MIXED);
    let out = fx.run(&["peers", "install"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("later: installed (later 2.0)"),
        "{stdout}{stderr}"
    );
    assert!(
        stdout.contains("right: available, nothing to install"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("manual: no install steps in suite.toml; install it by hand: ask the admin"),
        "{stdout}"
    );
    assert!(
        stderr.contains("broken: install step `exit 7` failed"),
        "{stderr}"
    );
    assert!(!stdout.contains("never"), "{stdout}");
    // One summary line names each outcome.
    assert!(
        stdout.contains(
            "installed: later; failed: broken; no install steps: manual; already available: right"
        ),
        "{stdout}"
    );

    // Without the failing one, the same command succeeds: an implementation that nobody
    // named and that has no steps is reported, not a failure.
    let start = MIXED.find("[[implementation]]\nname = \"broken\"").unwrap();
    let end = MIXED.find("[[implementation]]\nname = \"later\"").unwrap();
    let without_broken = format!("{}{}", &MIXED[..start], &MIXED[end..]);
    let fx = Fixture::with(&["right"], &without_broken);
    let out = fx.run(&["peers", "install"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("later: installed (later 2.0)"), "{stdout}");
    assert!(stdout.contains("manual: no install steps"), "{stdout}");
    let (stdout, _) = text(&fx.run(&["peers"]));
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("later") && l.contains("available")),
        "{stdout}"
    );
}
