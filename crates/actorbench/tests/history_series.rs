//! `history` keeps a series like with like: this host's finished sessions by default,
//! ordered by start time, with `--params` matched as a set of words.

mod common;

use actorbench::owner::Owner;
use actorbench::store::{SessionRecord, Store};
use common::{Fixture, session, text};

fn owned_by(host: &str, started: &str) -> impl Fn(&mut SessionRecord) {
    let (host, started) = (host.to_string(), started.to_string());
    move |s: &mut SessionRecord| {
        s.owner = format!("host={host} boot=b pid=1 start=1");
        s.started_at = started.clone();
        s.git_commit = format!("commit-{}", started.replace([':', '-'], ""));
    }
}

/// The session numbers in `history`'s table, top to bottom.
fn listed(stdout: &str) -> Vec<i64> {
    stdout
        .lines()
        .skip(2)
        .map_while(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

#[test]
fn history_filters_hosts_and_unfinished_sessions_and_orders_by_start() {
    let fx = Fixture::new(&[]);
    let st = Store::create(&fx.db()).unwrap();
    let me = Owner::me().host;
    let cell = |t: f64| [("x", "b", "m=2 n=1", 1, vec![t, t * 1.01, t * 0.99])];
    let put = |t: f64, tweak: &dyn Fn(&mut SessionRecord)| {
        let c = cell(t);
        let cells: Vec<common::Cell<'_>> = c
            .iter()
            .map(|(a, b, p, k, v)| (*a, *b, *p, *k, v.as_slice()))
            .collect();
        session(&st, &cells, |s| tweak(s))
    };
    // Imported late, so numbered after the session that followed it.
    let s1 = put(1.0, &owned_by(&me, "2026-11-23T14:38:19Z"));
    let s2 = put(1.1, &owned_by(&me, "2026-11-23T14:37:57Z"));
    let s3 = put(5.0, &owned_by("elsewhere", "2026-11-23T14:39:00Z"));
    let s4 = put(1.2, &owned_by(&me, "2026-11-23T14:40:00Z"));
    st.end_session(s4, "interrupted", "2026-11-23T14:41:00Z")
        .unwrap();
    let s5 = put(1.3, &owned_by(&me, "2026-11-23T14:42:00Z"));
    st.end_session(s5, "abandoned", "2026-11-23T14:43:00Z")
        .unwrap();
    drop(st);
    let history = |extra: &[&str]| {
        let mut args = vec!["history", "b", "--impl", "x", "--params", "n=1 m=2"];
        args.extend(extra);
        let out = fx.run(&args);
        let (o, e) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {e}");
        o
    };
    // This host, finished sessions, by start time; the parameters given in another order.
    let out = history(&[]);
    assert_eq!(listed(&out), [s2, s1], "{out}");
    assert!(out.contains(&me), "{out}");
    let out = history(&["--host", "elsewhere"]);
    assert_eq!(listed(&out), [s3], "{out}");
    let out = history(&["--all-hosts"]);
    assert_eq!(listed(&out), [s2, s1, s3], "{out}");
    let out = history(&["--include-incomplete"]);
    assert_eq!(listed(&out), [s2, s1, s4, s5], "{out}");
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with(&format!("{s4} ")) && l.contains("interrupted"))
            && out
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{s5} ")) && l.contains("abandoned")),
        "{out}"
    );
    // No session of another profile: nothing to show, said as bad input.
    let out = fx.run(&["history", "b", "--impl", "x", "--profile", "seed"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out).0);
}
