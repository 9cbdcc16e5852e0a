//! `actorbench run` against fake implementations: right and wrong answers, failures,
//! a hang killed by the timeout, a flood of output, a 200 MB allocation and pinning,
//! all in one session that goes on past every failure and stores every run.

mod common;

use actorbench::store::{RunRecord, Store};
use common::{Fixture, ONE_RUN, text};

fn runs_of<'a>(runs: &'a [RunRecord], name: &str) -> Vec<&'a RunRecord> {
    runs.iter().filter(|r| r.implementation == name).collect()
}

#[test]
fn one_session_keeps_every_kind_of_run() {
    let modes = [
        "right", "wrong", "fail", "crash", "hang", "flood", "alloc", "cpus",
    ];
    let fx = Fixture::new(&modes);
    let cores = if actorbench::exec::allowed_cpus().len() >= 2 {
        "1,2"
    } else {
        "1"
    };
    let json = fx.path().join("out.json");
    let out = fx.run(&[
        "run",
        "--cores",
        cores,
        "--reps",
        "1",
        "--warmup",
        "1",
        // Long enough for the 200 MB allocation on a loaded machine (3 s was not, at a
        // load average of 40); the hang still costs only this long per run.
        "--timeout",
        "8",
        "--export-json",
        json.to_str().unwrap(),
        "--no-report",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );

    let store = Store::open_existing(&fx.db()).unwrap();
    let session = store.resolve_session(None).unwrap();
    assert_eq!(session.status, "complete");
    let runs = store.runs(session.id).unwrap();
    let ncores = cores.split(',').count();
    // Every cell ran warmup + reps times, failures included, but for the hang: a cell
    // whose run timed out (here its warmup) gets no more runs. With two core counts the
    // measured round also settles each (one more warmup of the cell that goes first,
    // `wrong` in that round's rotation), since the run before each was of the other.
    let measured = runs.iter().filter(|r| !r.warmup).count();
    assert_eq!(measured, modes.len() * ncores - ncores, "{runs:#?}");
    let settled = if ncores == 2 { 2 } else { 0 };
    assert_eq!(
        runs.len() - measured,
        modes.len() * ncores + settled,
        "{runs:#?}"
    );
    assert_eq!(
        runs_of(&runs, "wrong").iter().filter(|r| r.warmup).count(),
        ncores + settled
    );
    assert!(runs_of(&runs, "hang").iter().all(|r| r.warmup));

    for r in runs_of(&runs, "right") {
        assert_eq!(r.status, "ok");
        assert_eq!(r.check_value.as_deref(), Some("2"));
        assert!(r.wall_s > 0.0);
    }
    for r in runs_of(&runs, "wrong") {
        assert_eq!(r.status, "wrong-answer");
        assert!(r.detail.contains("expected check=2"), "{}", r.detail);
    }
    for r in runs_of(&runs, "fail") {
        assert_eq!((r.status.as_str(), r.exit_code), ("exit", Some(3)));
        assert!(r.stderr_tail.contains("boom: deliberate failure"));
    }
    for r in runs_of(&runs, "crash") {
        assert_eq!(
            (r.status.as_str(), r.signal),
            ("signal", Some(libc::SIGSEGV as i64))
        );
    }
    for r in runs_of(&runs, "hang") {
        assert_eq!(r.status, "timeout");
        assert!(r.wall_s >= 2.9 && r.wall_s < 60.0, "{}", r.wall_s);
    }
    for r in runs_of(&runs, "flood") {
        assert_eq!(r.status, "bad-output");
        assert!(r.stdout_bytes >= 40_000_000, "{}", r.stdout_bytes);
    }
    for r in runs_of(&runs, "alloc") {
        assert_eq!(r.status, "ok", "{r:?}");
        assert!(
            r.max_rss_bytes >= 200 << 20,
            "peak RSS {} < 200 MiB",
            r.max_rss_bytes
        );
    }
    let first = actorbench::exec::allowed_cpus();
    for r in runs_of(&runs, "cpus") {
        assert_eq!(r.status, "ok", "{r:?}");
        let line = r.result_line.clone().unwrap();
        let want_cpus = if r.cores == 1 {
            first[0].to_string()
        } else {
            format!("{}-{}", first[0], first[1])
        };
        assert!(line.contains(&format!(" cpus={want_cpus} ")), "{line}");
        assert!(line.ends_with(&format!(" threads={}", r.cores)), "{line}");
    }
    // The session's metadata.
    assert!(
        !session.host_cpu.is_empty() && session.host_cores >= 1 && session.host_memory_bytes > 0
    );
    assert!(session.command_line.contains("run"));
    let impls = store.impls(session.id).unwrap();
    assert!(impls.iter().all(|i| i.version == "fake 1.0"), "{impls:?}");

    // The table lists failures plainly; the export has every run.
    assert!(stdout.contains("threadring  actors=3 hops=10"), "{stdout}");
    assert!(
        stdout.contains("failures:")
            && stdout.contains("hang 1 core warmup 1: timeout (killed after 8 s)"),
        "{stdout}"
    );
    let exported: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(exported["runs"].as_array().unwrap().len(), runs.len());
}

#[test]
fn install_missing_installs_a_missing_toolchain_before_the_session() {
    // `late` becomes available once its install step has made its marker file.
    let extra = "[[implementation]]\nname = \"late\"\nlanguage = \"sh\"\n\
                 run = \"./fake.sh right {bench} {params}\"\nthreads_env = \"T\"\n\
                 available = \"test -f late.marker\"\nversion = \"cat late.marker\"\n\
                 install_hint = \"touch late.marker\"\ninstall = [\"echo late 3.0 > late.marker\"]\n";
    let fx = Fixture::with(&["right"], extra);
    let args = ONE_RUN;
    // Without the flag it is skipped, and the line says how to install it.
    let out = fx.run(args);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("skipping late (sh) is not available")
            && stderr.contains("install: touch late.marker")
            && stderr.contains("`actorbench run --install-missing` runs its install steps"),
        "{stderr}"
    );
    assert!(!fx.path().join("late.marker").exists());
    // With it, its steps run first and it is measured.
    let mut with = args.to_vec();
    with.push("--install-missing");
    let out = fx.run(&with);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("late is missing"), "{stderr}");
    assert!(stdout.contains("late: installed (late 3.0)"), "{stdout}");
    let store = Store::open_existing(&fx.db()).unwrap();
    let session = store.resolve_session(None).unwrap();
    let late = store
        .impls(session.id)
        .unwrap()
        .into_iter()
        .find(|i| i.name == "late")
        .unwrap();
    assert_eq!(
        (late.status.as_str(), late.version.as_str()),
        ("available", "late 3.0")
    );
    assert!(
        store
            .runs(session.id)
            .unwrap()
            .iter()
            .any(|r| r.implementation == "late" && r.ok())
    );
}

#[test]
fn missing_toolchain_is_skipped_with_its_hint() {
    let extra = "[[implementation]]\nname = \"ghost\"\nlanguage = \"Nothing\"\nrun = \"ghost {bench} {params}\"\n\
                 threads_env = \"T\"\navailable = \"ghost-toolchain-xyz --version\"\n\
                 install_hint = \"apt-get install ghost\"\n";
    let fx = Fixture::with(&["right"], extra);
    let out = fx.run(ONE_RUN);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let skip: Vec<&str> = stderr.lines().filter(|l| l.contains("ghost")).collect();
    assert_eq!(skip.len(), 1, "{stderr}");
    assert!(
        skip[0].contains("ghost-toolchain-xyz") && skip[0].contains("apt-get install ghost"),
        "{}",
        skip[0]
    );
    assert!(
        stdout.contains("right") && stdout.contains("not run: ghost (missing)"),
        "{stdout}"
    );
}

#[test]
fn failed_build_is_recorded_and_the_rest_runs() {
    let extra = "[[implementation]]\nname = \"broken\"\nlanguage = \"sh\"\nbuild = \"echo compiling; echo 'syntax error' >&2; exit 1\"\n\
                 run = \"./fake.sh right {bench} {params}\"\nthreads_env = \"T\"\n";
    let fx = Fixture::with(&["right"], extra);
    let out = fx.run(ONE_RUN);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("build of broken failed") && stderr.contains("syntax error"),
        "{stderr}"
    );
    assert!(
        stdout.contains("not run: broken (build-failed)"),
        "{stdout}"
    );
}

#[test]
fn sweep_profiles_params_and_orders() {
    let fx = Fixture::new(&["right", "slow"]);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "2",
        "--warmup",
        "0",
        "--sweep",
        "--profile",
        "quick",
        "--order",
        "random",
        "--shuffle-seed",
        "3",
        "--no-report",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "1",
        "--warmup",
        "0",
        "--profile",
        "seed",
        "--order",
        "grouped",
        "--param",
        "threadring.actors=5",
        "--no-report",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let store = Store::open_existing(&fx.db()).unwrap();
    let first = store.runs(1).unwrap();
    let mut params: Vec<String> = first.iter().map(|r| r.params.clone()).collect();
    params.sort();
    params.dedup();
    assert_eq!(params, ["actors=3 hops=1", "actors=3 hops=2"]);
    assert!(first.iter().all(|r| r.ok()));
    let second = store.runs(2).unwrap();
    assert!(
        second
            .iter()
            .all(|r| r.params == "actors=5 hops=11" && r.ok()),
        "{second:?}"
    );
    assert_eq!(second[0].implementation, "right");
}

#[test]
fn list_show_and_export_a_stored_session() {
    let fx = Fixture::new(&["right", "wrong"]);
    assert!(
        fx.run(&[
            "run",
            "--cores",
            "1",
            "--reps",
            "2",
            "--warmup",
            "0",
            "--no-report"
        ])
        .status
        .success()
    );
    let (out, _) = text(&fx.run(&["list"]));
    assert!(
        out.contains("session") && out.lines().nth(1).unwrap().trim_start().starts_with('1'),
        "{out}"
    );
    let (out, _) = text(&fx.run(&["show", "1"]));
    assert!(
        out.contains("threadring  actors=3 hops=10")
            && out.contains("wrong 1 core, 2 runs (rep 1-2): wrong-answer"),
        "{out}"
    );
    let (csv, _) = text(&fx.run(&["export", "1", "--format", "csv"]));
    assert!(csv.starts_with("session,seq,implementation"));
    assert_eq!(csv.lines().count(), 5);
    let (md, _) = text(&fx.run(&["export", "latest", "--format", "markdown"]));
    assert!(
        md.contains("| implementation | cores |") && md.contains("Failures:"),
        "{md}"
    );
    let out = fx.path().join("x/s.json");
    assert!(
        fx.run(&["export", "--format", "json", "--out", out.to_str().unwrap()])
            .status
            .success()
    );
    assert!(std::fs::read_to_string(out).unwrap().contains("\"runs\""));
    for bad in [
        vec!["show", "7"],
        vec!["show", "abc"],
        vec!["export", "9", "--format", "json"],
    ] {
        let o = fx.run(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", text(&o).1);
    }
}

#[test]
fn budget_stops_at_a_round_boundary() {
    let fx = Fixture::new(&["slow"]);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "100",
        "--warmup",
        "1",
        "--budget",
        "2",
        "--no-report",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("--budget 2.000 s: stopped 1 cell after")
            && stderr.contains("1 cell was stopped by the budget"),
        "{stderr}"
    );
    let store = Store::open_existing(&fx.db()).unwrap();
    let runs = store.runs(1).unwrap();
    let measured = runs.iter().filter(|r| !r.warmup).count();
    assert!(
        runs[0].warmup && (1..100).contains(&measured),
        "{measured} measured runs"
    );
    assert!(
        stdout.contains(&format!("{measured}/{measured}")),
        "{stdout}"
    );
    let cells = store.cells(1).unwrap();
    assert_eq!(cells.len(), 1);
    assert_eq!(
        (cells[0].measured, cells[0].stop.as_str()),
        (measured as i64, "budget")
    );
    let bad = fx.run(&["run", "--budget", "10", "--order", "grouped"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_program_that_cannot_start_is_a_recorded_failure() {
    let extra = "[[implementation]]\nname = \"nobinary\"\nlanguage = \"sh\"\nrun = \"./not-built-yet {bench} {params}\"\n\
                 threads_env = \"T\"\n";
    let fx = Fixture::with(&["right"], extra);
    let out = fx.run(ONE_RUN);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("nobinary 1 core rep 1: spawn (could not start ./not-built-yet"),
        "{stdout}"
    );
    let store = Store::open_existing(&fx.db()).unwrap();
    let runs = store.runs(1).unwrap();
    assert_eq!(runs_of(&runs, "nobinary")[0].status, "spawn");
    assert_eq!(runs_of(&runs, "right")[0].status, "ok");
}

#[test]
fn a_shared_build_command_runs_once() {
    let block = |name: &str| {
        format!(
            "[[implementation]]\nname = \"{name}\"\nlanguage = \"sh\"\nbuild = \"echo built >> builds.log\"\n\
             run = \"./fake.sh right {{bench}} {{params}}\"\nthreads_env = \"T\"\n\n"
        )
    };
    let fx = Fixture::with(&[], &(block("one") + &block("two")));
    let out = fx.run(ONE_RUN);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert_eq!(
        std::fs::read_to_string(fx.path().join("builds.log")).unwrap(),
        "built\n"
    );
}

#[test]
fn no_build_runs_the_programs_as_they_are() {
    let extra = "[[implementation]]\nname = \"broken\"\nlanguage = \"sh\"\nbuild = \"exit 1\"\n\
                 run = \"./fake.sh right {bench} {params}\"\nthreads_env = \"T\"\n";
    let fx = Fixture::with(&[], extra);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "1",
        "--warmup",
        "0",
        "--no-report",
        "--no-build",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        !stderr.contains("building") && stdout.contains("1/1"),
        "{stdout}{stderr}"
    );
}

#[test]
fn variants_run_only_when_named_and_are_stored_as_variants() {
    let variant = "[[implementation]]\nname = \"right-tuned\"\nvariant_of = \"right\"\nlanguage = \"sh\"\n\
                   run = \"./fake.sh right {bench} {params}\"\nthreads_env = \"FAKE_THREADS\"\n\
                   env = { FAKE_TUNING = \"on\" }\n\n";
    let fx = Fixture::with(&["right"], variant);
    let run = |extra: &[&str]| {
        let mut args = ONE_RUN.to_vec();
        args.extend_from_slice(extra);
        let out = fx.run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
        text(&out).1
    };

    // A plain run leaves the variant out, and says so.
    let stderr = run(&[]);
    assert!(
        stderr.contains(
            "not running configuration variants (name them with --impl): right-tuned (of right)"
        ),
        "{stderr}"
    );
    let store = Store::open_existing(&fx.db()).unwrap();
    let names: Vec<String> = store
        .impls(1)
        .unwrap()
        .into_iter()
        .map(|i| i.name)
        .collect();
    assert_eq!(names, ["right"]);

    // Named, it runs with its environment, and the store knows what it varies.
    let stderr = run(&["--impl", "right,right-tuned"]);
    assert!(!stderr.contains("not running"), "{stderr}");
    let impls = store.impls(2).unwrap();
    assert_eq!(
        (impls[1].variant_of.as_str(), impls[1].env.as_str()),
        ("right", "FAKE_TUNING=on")
    );
    let runs = store.runs(2).unwrap();
    let tuned = runs_of(&runs, "right-tuned");
    assert_eq!(tuned[0].status, "ok");
    assert!(
        tuned[0]
            .command
            .starts_with("FAKE_TUNING=on FAKE_THREADS=1 ./fake.sh right"),
        "{}",
        tuned[0].command
    );

    let (listed, _) = text(&fx.run(&["list"]));
    assert!(
        listed.contains("right, right-tuned (variant of right)"),
        "{listed}"
    );
    let (shown, _) = text(&fx.run(&["show", "2"]));
    assert!(
        shown.contains("variant of right with FAKE_TUNING=on"),
        "{shown}"
    );
    let (peers, _) = text(&fx.run(&["peers"]));
    assert!(
        peers
            .lines()
            .any(|l| l.trim_start().starts_with("right-tuned")
                && l.contains("right: FAKE_TUNING=on")),
        "{peers}"
    );
}

#[test]
fn work_time_is_required_and_start_up_is_derived() {
    let fx = Fixture::new(&["right", "boot", "noseconds", "badseconds", "longseconds"]);
    let csv = fx.path().join("runs.csv");
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "2",
        "--warmup",
        "0",
        "--no-report",
        "--export-csv",
        csv.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let store = Store::open_existing(&fx.db()).unwrap();
    let runs = store.runs(1).unwrap();
    for r in runs_of(&runs, "right")
        .into_iter()
        .chain(runs_of(&runs, "boot"))
    {
        assert_eq!(r.status, "ok", "{r:?}");
        let work = r.work_s.expect("a valid seconds= is stored");
        assert!(work > 0.0 && work <= r.wall_s, "{work} vs {}", r.wall_s);
    }
    for r in runs_of(&runs, "boot") {
        let startup = r.wall_s - r.work_s.unwrap();
        assert!(
            startup >= 0.19,
            "boot sleeps 0.2 s before its work: {startup}"
        );
    }
    for (name, why) in [
        ("noseconds", "result line lacks seconds="),
        (
            "badseconds",
            "seconds=abc is not a positive number of seconds",
        ),
        (
            "longseconds",
            "seconds=1000 is longer than the process's wall time",
        ),
    ] {
        for r in runs_of(&runs, name) {
            assert_eq!(r.status, "bad-output", "{r:?}");
            assert!(r.detail.contains(why), "{name}: {}", r.detail);
            assert_eq!(r.work_s, None);
        }
        assert!(
            stdout
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{name} 1 core"))
                    && l.contains(&format!("bad-output ({why}"))),
            "{stdout}"
        );
    }
    // The table carries work, wall and start-up, ratios on work time, and calls out a
    // start-up over 20% of the wall time.
    assert!(
        stdout.contains("CV on work time (--metric work|wall|cpu or an event counter)"),
        "{stdout}"
    );
    let header = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("implementation"))
        .unwrap();
    for col in ["work", "wall", "start-up", "vs fastest (work)", "notes"] {
        assert!(header.contains(col), "{header}");
    }
    let boot = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("boot "))
        .unwrap();
    assert!(boot.contains("% of wall"), "{boot}");
    // Another metric on request: on wall time, boot's 0.2 s start-up makes right the
    // fastest by far.
    let (shown, _) = text(&fx.run(&["show", "--metric", "wall"]));
    assert!(
        shown.contains("CV on wall time") && shown.contains("vs fastest (wall)"),
        "{shown}"
    );
    let row = |name: &str| {
        shown
            .lines()
            .find(|l| l.split_whitespace().take(2).eq([name, "1"]))
            .unwrap()
            .to_string()
    };
    assert!(row("right").contains("1.00x"), "{shown}");
    let boot_ratio: f64 = row("boot")
        .split_whitespace()
        .find_map(|w| w.strip_suffix('x')?.parse().ok())
        .unwrap();
    assert!(boot_ratio > 1.5, "{shown}");
    let bad = fx.run(&["show", "--metric", "speed"]);
    assert_eq!(bad.status.code(), Some(2));
    // The CSV has both times and start-up per run.
    let text = std::fs::read_to_string(csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    for col in ["wall_s", "work_s", "startup_s"] {
        assert!(header.contains(&col), "{header:?}");
    }
    let (json, _) = self::text(&fx.run(&["export", "--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["metric"], "work");
    let cell = &doc["summary"][0]["cells"][0];
    assert!(cell["work"]["median"].as_f64().unwrap() > 0.0, "{cell}");
    assert!(cell["startup"].as_f64().is_some(), "{cell}");
}
