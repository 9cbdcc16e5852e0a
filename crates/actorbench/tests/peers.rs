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
