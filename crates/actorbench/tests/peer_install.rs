//! Installing peers on a fresh machine: Debian packages through apt-get itself (package
//! lists updated first, non-interactive, no shell), every install command time-limited;
//! the Rust peers count as available only when their crates are fetched; and a directory
//! given as `--suite` is named as one.

mod common;

use std::time::Instant;

use common::{Fixture, text};

const APT_PEERS: &str = r#"
[[implementation]]
name = "debpkg"
language = "sh"
run = "./fake.sh right {bench} {params}"
threads_env = "T"
available = "test -f apt.marker"
install_hint = "apt-get install libfoo-dev"
apt = ["libfoo-dev", "bar"]

[[implementation]]
name = "debpkg2"
language = "sh"
run = "./fake.sh right {bench} {params}"
threads_env = "T"
available = "test -f apt.marker"
apt = ["baz"]

[[implementation]]
name = "stuck"
language = "sh"
run = "./fake.sh right {bench} {params}"
threads_env = "T"
available = "false"
install = ["sleep 60"]
"#;

/// A stand-in for apt-get: logs its environment and arguments, and "installs".
const FAKE_APT: &str = "#!/bin/sh\n\
    if [ -t 0 ]; then tty=tty; else tty=notty; fi\n\
    echo \"$DEBIAN_FRONTEND $tty $*\" >> apt.log\n\
    [ \"$1\" = install ] && touch apt.marker\n\
    exit 0\n";

#[test]
fn debian_packages_are_installed_non_interactively_after_an_update() {
    let fx = Fixture::with(&[], APT_PEERS);
    let apt = fx.path().join("fake-apt");
    std::fs::write(&apt, FAKE_APT).unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&apt)
        .status()
        .unwrap();
    let out = fx
        .cmd(&["peers", "install", "debpkg", "debpkg2", "--force"])
        .env("ACTORBENCH_APT_GET", &apt)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let log = std::fs::read_to_string(fx.path().join("apt.log")).unwrap();
    // One update, first; then each install, all non-interactive and without a terminal.
    assert_eq!(
        log.lines().collect::<Vec<_>>(),
        [
            "noninteractive notty update",
            "noninteractive notty install -y --no-install-recommends libfoo-dev bar",
            "noninteractive notty install -y --no-install-recommends baz",
        ],
        "{stdout}"
    );
    assert!(stdout.contains("installed: debpkg, debpkg2"), "{stdout}");
}

#[test]
fn an_install_step_that_hangs_is_killed_at_the_timeout() {
    let fx = Fixture::with(&[], APT_PEERS);
    let t = Instant::now();
    let out = fx.run(&["peers", "install", "stuck", "--timeout", "1"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("install step `sleep 60` timed out after 1 s"),
        "{stderr}"
    );
    assert!(t.elapsed().as_secs() < 30);
    let out = fx.run(&["peers", "install", "stuck", "--timeout", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_bad_package_name_is_refused_with_its_place() {
    let fx = Fixture::with(
        &[],
        "[[implementation]]\nname = \"bad\"\nlanguage = \"sh\"\nrun = \"./fake.sh right {bench} {params}\"\n\
         threads_env = \"T\"\napt = [\"ok-pkg\", \"rm -rf /\"]\n",
    );
    let out = fx.run(&["peers"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("apt: 'rm -rf /' is not a Debian package name")
            && stderr.contains("suite.toml:12:"),
        "{stderr}"
    );
}

#[test]
fn a_directory_as_suite_is_called_a_directory() {
    let fx = Fixture::new(&["right"]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_actorbench"))
        .args(["--suite"])
        .arg(fx.path())
        .arg("peers")
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("is a directory; give the suite file")
            && !stderr.contains("does not exist"),
        "{stderr}"
    );
}

#[test]
fn the_rust_peers_are_missing_until_their_crates_are_fetched() {
    // The project's own suite: with an empty cargo home nothing is fetched, so actix,
    // ractor and kameo must count as missing (and `peers install` would fetch them).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let suite = actorbench::suite::load(&root.join("suite.toml")).unwrap();
    let empty = tempfile::tempdir().unwrap();
    for name in ["actix", "ractor", "kameo"] {
        let imp = suite.implementation(name).unwrap();
        let check = imp.available.as_deref().unwrap();
        let out = std::process::Command::new("sh")
            .args(["-c", check])
            .current_dir(&root)
            .env("CARGO_HOME", empty.path())
            .env("CARGO_NET_OFFLINE", "true")
            .output()
            .unwrap();
        assert!(
            !out.status.success(),
            "{name}: `{check}` passed with no crates fetched"
        );
        assert!(!imp.install.is_empty(), "{name} has no fetch step");
    }
}
