//! The memory limit every run gets alike: a run whose process group holds more than
//! `--memory-limit` is killed and stored as failed with the reason, and the session goes on.

mod common;

use std::time::{Duration, Instant};

use actorbench::store::Store;
use common::{Fixture, ONE_RUN, text};

#[test]
fn a_run_over_the_memory_limit_is_killed_and_stored_as_failed() {
    let fx = Fixture::new(&["right", "hog"]);
    let t = Instant::now();
    let out = fx.run(&[ONE_RUN, &["--memory-limit", "100MiB"]].concat());
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        t.elapsed() < Duration::from_secs(20),
        "the hog was not stopped: {:?}",
        t.elapsed()
    );
    assert!(
        stderr.contains("memory limit: 100.0 MiB per run"),
        "{stderr}"
    );

    let store = Store::open_existing(&fx.db()).unwrap();
    let session = store.resolve_session(None).unwrap();
    let runs = store.runs(session.id).unwrap();
    let hog = runs.iter().find(|r| r.implementation == "hog").unwrap();
    assert_eq!(hog.status, "memory-limit", "{hog:#?}");
    assert!(
        hog.detail.starts_with("memory limit: its processes held ")
            && hog.detail.ends_with("over the limit of 100.0 MiB"),
        "{}",
        hog.detail
    );
    let right = runs.iter().find(|r| r.implementation == "right").unwrap();
    assert_eq!(right.status, "ok");
    let settings: serde_json::Value = serde_json::from_str(&session.settings).unwrap();
    assert_eq!(settings["memory_limit_bytes"], 100 << 20);
    // The failure is listed under the table with its reason.
    assert!(stdout.contains("memory-limit"), "{stdout}");
}

#[test]
fn the_default_limit_is_three_quarters_of_available_memory_and_off_turns_it_off() {
    let fx = Fixture::new(&["right"]);
    let args = ONE_RUN;
    let out = fx.run(args);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("per run (3/4 of the memory available now"),
        "{stderr}"
    );
    let store = Store::open_existing(&fx.db()).unwrap();
    let session = store.resolve_session(None).unwrap();
    let settings: serde_json::Value = serde_json::from_str(&session.settings).unwrap();
    let limit = settings["memory_limit_bytes"].as_u64().unwrap();
    let available = actorbench::memory::available_bytes().unwrap();
    // Three quarters of what was available then; memory use moves a little in between.
    assert!(
        limit > available / 2 && limit < available,
        "{limit} of {available}"
    );

    let mut off = args.to_vec();
    off.extend(["--memory-limit", "off"]);
    let out = fx.run(&off);
    assert!(text(&out).1.contains("memory limit: off"));
    let session = Store::open_existing(&fx.db())
        .unwrap()
        .resolve_session(None)
        .unwrap();
    let settings: serde_json::Value = serde_json::from_str(&session.settings).unwrap();
    assert!(settings["memory_limit_bytes"].is_null());
}
