//! `actorbench count`: instructions per unit of work under callgrind, stored as a session
//! of kind `count` and shown by `show`. The program is `sh` running a loop of `hops`
//! iterations, so the count per hop is the shell's cost of one iteration: positive, and
//! the same at both sizes, so start-up cancels out.

mod common;

use actorbench::store::Store;
use common::{Fixture, text};

const LOOP: &str = r#"#!/bin/sh
bench=$1; shift
for a in "$@"; do
  case $a in hops=*) hops=${a#hops=} ;; actors=*) actors=${a#actors=} ;; esac
done
i=0
while [ $i -lt "$hops" ]; do i=$((i + 1)); done
echo "result bench=$bench check=$(( hops % actors + 1 )) seconds=0.000001"
"#;

fn fixture() -> Fixture {
    let extra = "[[implementation]]\nname = \"loop\"\nlanguage = \"sh\"\n\
         run = \"sh ./loop.sh {bench} {params}\"\nthreads_env = \"LOOP_THREADS\"\n\
         available = \"true\"\nversion = \"echo loop 1\"\ninstall_hint = \"none\"\n\n";
    let fx = Fixture::with(&["right"], extra);
    std::fs::write(fx.path().join("loop.sh"), LOOP).unwrap();
    fx
}

#[test]
fn counts_instructions_per_hop_under_callgrind() {
    let fx = fixture();
    let out = fx.run(&[
        "count",
        "threadring",
        "--impl",
        "loop",
        "--param",
        "hops=300",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("instructions per hop: "), "{stdout}");

    let store = Store::open_existing(&fx.db()).unwrap();
    let s = store.resolve_session(None).unwrap();
    assert_eq!((s.kind.as_str(), s.status.as_str()), ("count", "complete"));
    let data = store.load(&s).unwrap();
    assert_eq!(data.runs.len(), 2);
    assert_eq!(data.runs[0].params, "actors=3 hops=300");
    assert_eq!(data.runs[1].params, "actors=3 hops=600");
    let ir: Vec<f64> = data
        .runs
        .iter()
        .map(|r| r.counters["callgrind-ir"])
        .collect();
    assert!(data.runs.iter().all(|r| r.ok()), "{:#?}", data.runs);
    assert!(ir[1] > ir[0], "{ir:?}");
    let per_hop = actorbench::count::per_unit(&data).unwrap();
    // One iteration of a shell loop (a test, an arithmetic expansion, an assignment) is
    // about 12,000 instructions in dash 0.5; start-up (about 270,000) is not in it.
    assert!((50.0..50_000.0).contains(&per_hop), "{per_hop} {ir:?}");
    assert!(ir[0] > 300.0 * per_hop, "start-up is in the totals: {ir:?}");

    let (shown, _) = text(&fx.run(&["show"]));
    assert!(
        shown.contains("(complete, count)") && shown.contains("instructions per hop"),
        "{shown}"
    );
    // A count session has no timings to draw.
    assert_eq!(fx.run(&["report"]).status.code(), Some(2));
}

#[test]
fn a_script_is_refused_with_the_reason() {
    let fx = fixture();
    // `right` runs ./fake.sh directly: a script, not a native program.
    let out = fx.run(&["count", "threadring", "--impl", "right"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(stderr.contains("is not a native executable"), "{stderr}");
    let out = fx.run(&["count", "nosuch", "--impl", "loop"]);
    assert_eq!(out.status.code(), Some(2));
}
