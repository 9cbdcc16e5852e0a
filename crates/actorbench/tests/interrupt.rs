//! Ctrl-C in the middle of a session: the running process group is killed, every
//! finished run is in the database, and the session is marked interrupted.

mod common;

use std::time::{Duration, Instant};

use actorbench::store::Store;
use common::Fixture;

#[test]
fn interrupted_session_keeps_every_finished_run() {
    let fx = Fixture::new(&["slow", "fail"]);
    let child = fx
        .cmd(&[
            "run",
            "--cores",
            "1",
            "--reps",
            "200",
            "--warmup",
            "0",
            "--no-report",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until a few runs are stored.
    let t = Instant::now();
    loop {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "no runs stored in time"
        );
        std::thread::sleep(Duration::from_millis(200));
        let Ok(store) = Store::open_existing(&fx.db()) else {
            continue;
        };
        let Ok(Some(id)) = store.latest_session() else {
            continue;
        };
        if store.runs(id).map(|r| r.len()).unwrap_or(0) >= 4 {
            break;
        }
    }
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let t = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        t.elapsed() < Duration::from_secs(20),
        "took {:?} to stop",
        t.elapsed()
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");

    let store = Store::open_existing(&fx.db()).unwrap();
    let session = store.resolve_session(None).unwrap();
    assert_eq!(session.status, "interrupted");
    assert!(session.ended_at.is_some());
    let runs = store.runs(session.id).unwrap();
    assert!(runs.len() >= 4 && runs.len() < 400);
    // The message says how many runs were kept and where.
    let kept = format!(
        "keeps the {} finished runs in {}",
        runs.len(),
        fx.db().display()
    );
    assert!(stderr.contains(&kept), "{stderr}\nexpected: {kept}");
    assert!(stderr.contains(&format!("actorbench show {}", session.id)));
    // Failed runs were kept too, and no run was recorded for the killed process.
    assert!(
        runs.iter()
            .any(|r| r.implementation == "fail" && r.status == "exit")
    );
    assert!(
        runs.iter()
            .filter(|r| r.implementation == "slow")
            .all(|r| r.ok())
    );
    // seq has no gaps: every finished run was committed.
    for (i, r) in runs.iter().enumerate() {
        assert_eq!(r.seq, i as i64);
    }
}
