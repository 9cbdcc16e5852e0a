//! Bad input to `actorbench run` exits with status 2, one clear line, and writes nothing.

mod common;

use common::{Fixture, text};

fn assert_refused(fx: &Fixture, args: &[&str], needle: &str) {
    let out = fx.run(args);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains(needle),
        "{args:?}: {stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    assert!(!fx.db().exists(), "{args:?} wrote the database");
}

#[test]
fn bad_run_arguments_exit_2_and_write_nothing() {
    let fx = Fixture::new(&["right"]);
    assert_refused(
        &fx,
        &["run", "--impl", "nosuch"],
        "unknown implementation 'nosuch'",
    );
    assert_refused(
        &fx,
        &["run", "--bench", "nosuch"],
        "unknown benchmark 'nosuch'",
    );
    assert_refused(&fx, &["run", "--param", "nosuch=1"], "nosuch=1");
    assert_refused(&fx, &["run", "--param", "threadring.hops=abc"], "hops=abc");
    assert_refused(
        &fx,
        &["run", "--param", "actors=0"],
        "actors=0 is out of range",
    );
    assert_refused(&fx, &["run", "--cores", "999"], "999");
    assert_refused(&fx, &["run", "--cores", "0"], "--cores 0");
    assert_refused(&fx, &["run", "--reps", "0"], "--reps 0");
    assert_refused(&fx, &["run", "--timeout", "0"], "--timeout");
    assert_refused(
        &fx,
        &["run", "--memory-limit", "lots"],
        "--memory-limit lots: not a size",
    );
    assert_refused(
        &fx,
        &["verify", "--memory-limit", "12"],
        "--memory-limit 12: under 1 MiB",
    );
    assert_refused(
        &fx,
        &["run", "--export-json", "/dev/null/x.json"],
        "/dev/null is not a directory",
    );
    assert_refused(
        &fx,
        &["run", "--report-dir", "/dev/null/r"],
        "/dev/null is not a directory",
    );
    // Clap's own errors (an unknown flag, a bad order) are exit 2 too.
    let out = fx.run(&["run", "--order", "sideways"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!fx.db().exists());
}

#[test]
fn unwritable_database_exits_2() {
    let fx = Fixture::new(&["right"]);
    let out = fx
        .cmd(&[])
        .arg("run")
        .arg("--db")
        .arg("/dev/null/x.sqlite")
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot write the results database /dev/null/x.sqlite"),
        "{stderr}"
    );
}

#[test]
fn malformed_suite_gives_line_and_column() {
    let fx = Fixture::new(&["right"]);
    let suite = fx.path().join("suite.toml");
    let good = std::fs::read_to_string(&suite).unwrap();
    for (bad, needle) in [
        (
            good.replace("quick = { actors = 3", "quick = { actors = = 3"),
            "suite.toml:",
        ),
        (
            good.replace("actors = 3,", "actorz = 3,"),
            "unknown parameter actorz=3",
        ),
        (
            good.replace("name = \"threadring\"", "name = \"threadrung\""),
            "unknown benchmark 'threadrung'",
        ),
        (good.replace("{params}", ""), "lacks {params}"),
    ] {
        std::fs::write(&suite, &bad).unwrap();
        let out = fx.run(&["run"]);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
        // FILE:LINE:COLUMN
        let loc = stderr.split("suite.toml:").nth(1).unwrap_or("");
        let mut parts = loc.split(':');
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{stderr}");
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{stderr}");
        assert!(!fx.db().exists());
    }
}

#[test]
fn read_commands_on_a_missing_database_exit_2() {
    let fx = Fixture::new(&["right"]);
    for args in [
        vec!["list"],
        vec!["show"],
        vec!["export", "--format", "csv"],
    ] {
        let out = fx.run(&args);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("no results database"), "{stderr}");
    }
}
