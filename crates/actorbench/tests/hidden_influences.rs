//! What could change a result without a trace is kept out or recorded: runtime knobs of
//! the caller's environment do not reach the runs (unless `--inherit-env`) and are stored
//! either way; a session whose runs all failed exits 1; the files that ran are hashed,
//! the machine's settings recorded, and an untracked file makes the commit `-dirty`.

mod common;

use std::process::Command;

use actorbench::store::Store;
use common::{Fixture, ONE_RUN, text};

/// A suite whose implementation `knob` fails when `FOOTLIGHTS_SCHEDULER` reaches it.
fn knob_suite() -> Fixture {
    let f = Fixture::with(
        &[],
        "[[implementation]]\nname = \"knob\"\nlanguage = \"sh\"\nrun = \"./knob.sh {bench} {params}\"\n\
         threads_env = \"FAKE_THREADS\"\navailable = \"true\"\nversion = \"echo knob 1.0\"\n",
    );
    std::fs::write(
        f.path().join("knob.sh"),
        "#!/bin/sh\nif [ -n \"$FOOTLIGHTS_SCHEDULER\" ]; then echo \"unknown scheduler $FOOTLIGHTS_SCHEDULER\" >&2; exit 3; fi\n\
         exec ./fake.sh right \"$@\"\n",
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(f.path().join("knob.sh"))
        .status()
        .unwrap();
    f
}

fn show(f: &Fixture) -> String {
    let o = f.run(&["show"]);
    assert!(o.status.success(), "{}", text(&o).1);
    text(&o).0
}

#[test]
fn runtime_knobs_of_the_shell_are_kept_from_runs_and_recorded() {
    let f = knob_suite();
    let o = f
        .cmd(ONE_RUN)
        .env("FOOTLIGHTS_SCHEDULER", "bogus")
        .env("GOGC", "off")
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert!(o.status.success(), "the knob reached the run: {err}");
    assert!(
        err.contains("removed from every run: FOOTLIGHTS_SCHEDULER=bogus GOGC=off"),
        "{err}"
    );
    let s = Store::open_existing(&f.db())
        .unwrap()
        .resolve_session(None)
        .unwrap();
    assert_eq!(
        (s.env_mode.as_str(), s.env_knobs.as_str()),
        ("clean", "FOOTLIGHTS_SCHEDULER=bogus GOGC=off")
    );
    assert!(show(&f).contains("removed from every run: FOOTLIGHTS_SCHEDULER=bogus GOGC=off"));
    let json = f.run(&["export", "--format", "json"]);
    assert!(
        text(&json)
            .0
            .contains("\"env_knobs\": \"FOOTLIGHTS_SCHEDULER=bogus GOGC=off\"")
    );
}

#[test]
fn inherited_knobs_are_recorded_and_a_session_that_only_failed_exits_1() {
    let f = knob_suite();
    let o = f
        .cmd(ONE_RUN)
        .arg("--inherit-env")
        .env("FOOTLIGHTS_SCHEDULER", "bogus")
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("all 1 runs failed"), "{err}");
    let s = Store::open_existing(&f.db())
        .unwrap()
        .resolve_session(None)
        .unwrap();
    assert_eq!(
        (s.env_mode.as_str(), s.env_knobs.as_str(), s.status.as_str()),
        ("inherit", "FOOTLIGHTS_SCHEDULER=bogus", "complete")
    );
    assert!(
        show(&f).contains("inherited by every run (--inherit-env): FOOTLIGHTS_SCHEDULER=bogus")
    );
}

#[test]
fn binaries_machine_and_untracked_files_are_recorded() {
    let f = Fixture::new(&["right"]);
    std::fs::write(f.path().join(".gitignore"), "results.sqlite*\n").unwrap();
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .current_dir(f.path())
            .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "git {args:?}: {}", text(&o).1);
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "fixture"]);
    let o = f.run(ONE_RUN);
    assert!(o.status.success(), "{}", text(&o).1);
    let store = Store::open_existing(&f.db()).unwrap();
    let first = store.resolve_session(None).unwrap();
    assert!(
        !first.git_commit.ends_with("-dirty"),
        "{}",
        first.git_commit
    );
    // The program's hash, as sha256sum computes it.
    let sum = Command::new("sha256sum")
        .arg(f.path().join("fake.sh"))
        .output()
        .unwrap();
    let hex = text(&sum).0.split_whitespace().next().unwrap().to_string();
    let imp = &store.impls(first.id).unwrap()[0];
    assert_eq!(imp.binary_sha256, format!("fake.sh={hex}"));
    assert!(!first.thp.is_empty() && !first.cpu_boost.is_empty() && !first.cgroup_cpu.is_empty());
    let shown = show(&f);
    assert!(shown.contains(&format!("sha256 fake.sh={hex}")), "{shown}");
    assert!(
        shown.contains("machine: transparent huge pages "),
        "{shown}"
    );
    assert!(shown.contains(", CPU boost ") && shown.contains(", cgroup CPU quota "));
    drop(store);

    // A new file git does not know changes a build as much as an edit.
    std::fs::write(f.path().join("new_source.rs"), "fn main() {}\n").unwrap();
    let o = f.run(ONE_RUN);
    assert!(o.status.success(), "{}", text(&o).1);
    let second = Store::open_existing(&f.db())
        .unwrap()
        .resolve_session(None)
        .unwrap();
    assert_eq!(second.git_commit, format!("{}-dirty", first.git_commit));
}
