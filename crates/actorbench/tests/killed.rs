//! A harness killed outright (SIGKILL: no handler runs) leaves no process behind: the
//! program it was measuring and that program's own children die with it.

mod common;

use std::time::{Duration, Instant};

use actorbench::store::Store;
use common::{Fixture, ONE_RUN, text};

/// Whether `pid` is a live process (not gone, not a zombie).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z') && !rest.starts_with('X')),
        Err(_) => false,
    }
}

#[test]
fn a_killed_harness_leaves_no_child_alive() {
    let fx = Fixture::new(&["family"]);
    let mut harness = fx
        .cmd(ONE_RUN)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pids_file = fx.path().join("family.pids");
    let t = Instant::now();
    let pids: Vec<i32> = loop {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "the run never started"
        );
        std::thread::sleep(Duration::from_millis(100));
        if let Ok(text) = std::fs::read_to_string(&pids_file)
            && text.ends_with('\n')
        {
            break text
                .split_whitespace()
                .map(|p| p.parse().unwrap())
                .collect();
        }
    };
    assert_eq!(pids.len(), 2, "{pids:?}");
    assert!(pids.iter().all(|&p| alive(p)));
    // The harness's own children (the program and the guardian), from every thread.
    let mut pids = pids;
    let tasks = std::fs::read_dir(format!("/proc/{}/task", harness.id())).unwrap();
    for task in tasks.flatten() {
        let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        pids.extend(
            children
                .split_whitespace()
                .map(|p| p.parse::<i32>().unwrap()),
        );
    }
    pids.sort_unstable();
    pids.dedup();
    assert!(
        pids.len() >= 3,
        "no guardian among the harness's children: {pids:?}"
    );

    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(harness.id() as libc::pid_t, libc::SIGKILL) };
    harness.wait().unwrap();
    let t = Instant::now();
    while pids.iter().any(|&p| alive(p)) && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let survivors: Vec<i32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    for &p in &survivors {
        // SAFETY: cleaning up what the test started, so a failure leaves nothing behind.
        unsafe { libc::kill(p, libc::SIGKILL) };
    }
    assert!(
        survivors.is_empty(),
        "still alive 10 s after the harness was killed: {survivors:?} of {pids:?}"
    );

    // The session it left running is marked by the next command that opens the store.
    let out = fx.run(&["list"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "session 1 was left running by a harness that is gone: marked abandoned, its 0 finished runs kept"
        ),
        "{stderr}"
    );
    assert!(stdout.contains("abandoned"), "{stdout}");
    let store = Store::open_existing(&fx.db()).unwrap();
    assert_eq!(store.session(1).unwrap().unwrap().status, "abandoned");
}
