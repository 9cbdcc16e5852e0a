//! `actorbench profile`: one run under `perf record -g`, drawn as a flame graph SVG that
//! the session report links; where perf cannot record, a usage error that says why.

mod common;

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

#[test]
fn profile_writes_a_flame_graph_the_report_links() {
    let extra = "[[implementation]]\nname = \"loop\"\nlanguage = \"sh\"\n\
         run = \"sh ./loop.sh {bench} {params}\"\nthreads_env = \"LOOP_THREADS\"\n\
         available = \"true\"\nversion = \"echo loop 1\"\ninstall_hint = \"none\"\n\n";
    let fx = Fixture::with(&["right"], extra);
    std::fs::write(fx.path().join("loop.sh"), LOOP).unwrap();
    let out = fx.run(&[
        "run", "--impl", "loop", "--cores", "1", "--reps", "1", "--warmup", "0",
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));

    let out = fx.run(&[
        "profile",
        "threadring",
        "--impl",
        "loop",
        "--param",
        "hops=40000",
    ]);
    let (stdout, stderr) = text(&out);
    if let Err(why) = actorbench::profile::perf_usable() {
        assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
        assert!(
            stderr.contains("profile needs perf") && stderr.contains(&why),
            "{stderr}"
        );
        eprintln!("profile: perf cannot record here ({why}); checked the error only");
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let svg_path = fx.path().join("report/profiles/threadring-loop-1c.svg");
    assert_eq!(stdout.trim(), svg_path.display().to_string());
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.contains("<svg") && svg.contains("loop threadring actors=3 hops=40000"));
    // The shell that ran the loop is in the stacks.
    assert!(
        svg.contains("dash") || svg.contains("sh"),
        "{}",
        &svg[..svg.len().min(2000)]
    );

    let out = fx.run(&["report"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let page = std::fs::read_to_string(fx.path().join("report/index.html")).unwrap();
    assert!(
        page.contains(r#"href="profiles/threadring-loop-1c.svg""#),
        "no link"
    );
    assert!(page.contains("event counters"));
}
