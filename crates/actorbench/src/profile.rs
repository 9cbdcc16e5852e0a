//! `actorbench profile BENCH --impl X [--cores K]`: one run recorded with `perf record
//! -g`, drawn as a flame graph.
//!
//! 1. Check that `perf` is installed and may record (`perf_event_paranoid`, a container's
//!    seccomp filter): a short `perf record` of `true` must succeed; otherwise the error
//!    names why (perf's own message).
//! 2. Build the implementation, then run it once like a measured run (pinned to the first
//!    `k` CPUs with `k` threads, checked against the contract) under `perf record -g -F
//!    999`, which samples the call stacks of the program and of every thread and child it
//!    makes (perf inherits its events, as [`crate::counters`] does). On a machine
//!    without a PMU perf samples on the CPU clock instead of cycles.
//! 3. `perf script` turns the samples into text, and the `inferno` crate folds the stacks
//!    (its port of `stackcollapse-perf`) and draws the SVG (its port of `flamegraph.pl`).
//!
//! The SVG goes to `--out`, by default `profiles/BENCH-IMPL-Kc.svg` in the report
//! directory, where the session report links every profile it finds
//! ([`crate::report::profiles`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use inferno::collapse::Collapse;

use crate::error::UsageError;
use crate::exec;
use crate::host;
use crate::one_run::OneRunOptions;

/// What `actorbench profile` takes.
#[derive(Debug, Clone)]
pub struct ProfileOptions {
    /// The run to record (its `--db` serves only to find the default report directory).
    pub run: OneRunOptions,
    /// `--out`: the SVG file.
    pub out: Option<PathBuf>,
}

/// Why perf cannot record here, or `Ok` when it can.
pub fn perf_usable() -> Result<(), String> {
    let dir = std::env::temp_dir();
    let data = dir.join(format!("actorbench-perf-check-{}.data", std::process::id()));
    let cmd = format!(
        "perf record -q -g -o {} -- true",
        host::quote(&data.display().to_string())
    );
    let o = exec::shell(&cmd, &dir, Duration::from_secs(30));
    let _ = std::fs::remove_file(&data);
    match o {
        Err(e) => Err(format!("could not run perf: {e}")),
        Ok(o) if o.success() => Ok(()),
        Ok(o) => {
            let text = format!("{}{}", o.stderr.text(), o.stdout.text());
            let why = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("no message")
                .to_string();
            let paranoid = crate::counters::paranoid()
                .map_or(String::new(), |p| format!("; perf_event_paranoid is {p}"));
            Err(match o.exit {
                exec::Exit::Code(127) => {
                    "perf is not installed (Debian: apt-get install linux-perf)".to_string()
                }
                _ => format!("perf record does not work here: {why}{paranoid}"),
            })
        }
    }
}

/// Folds `perf script` output into a flame graph SVG.
pub fn flame_graph(perf_script: &[u8], title: &str) -> Result<String> {
    let mut folded = Vec::new();
    inferno::collapse::perf::Folder::default()
        .collapse(perf_script, &mut folded)
        .context("folding the stacks")?;
    let folded = String::from_utf8_lossy(&folded).into_owned();
    if folded.trim().is_empty() {
        anyhow::bail!("perf recorded no samples (the run was too short?)");
    }
    let mut opts = inferno::flamegraph::Options::default();
    opts.title = title.to_string();
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut opts, folded.lines(), &mut svg)
        .context("drawing the flame graph")?;
    Ok(String::from_utf8_lossy(&svg).into_owned())
}

/// Runs `actorbench profile`; returns the exit status (1 when the run failed its check).
pub fn run(opts: &ProfileOptions) -> Result<i32> {
    let one = opts.run.resolve()?;
    one.check_toolchain("profile")?;
    let (suite, bench, imp, params, cores) =
        (&one.suite, &one.bench, &one.imp, &one.params, one.cores);
    perf_usable().map_err(|why| UsageError::new(format!("profile needs perf: {why}")))?;
    let out = match &opts.out {
        Some(p) => p.clone(),
        None => {
            let db = crate::session::db_path(opts.run.db.as_deref(), Some(&one.suite_path));
            let report = db.parent().unwrap_or(Path::new(".")).join("report");
            report
                .join(crate::report::PROFILES)
                .join(format!("{}-{}-{cores}c.svg", bench.name, imp.name))
        }
    };
    one.build("profile")?;

    let work = std::env::temp_dir().join(format!(
        "actorbench-profile-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::create_dir_all(&work)?;
    let data = work.join("perf.data");
    let (argv, env) = imp.command(&bench.name, params, cores);
    let mut full: Vec<String> = vec![
        "perf".into(),
        "record".into(),
        "-q".into(),
        "-g".into(),
        "-F".into(),
        "999".into(),
        "-o".into(),
        data.display().to_string(),
        "--".into(),
    ];
    let program = argv.first().cloned().unwrap_or_default();
    full.push(
        if program.contains('/') && Path::new(&program).is_relative() {
            suite.dir.join(&program).display().to_string()
        } else {
            program
        },
    );
    full.extend(argv.iter().skip(1).cloned());
    let knobs = crate::knobs::words(&crate::knobs::found());
    if let Some(note) = crate::knobs::note(crate::knobs::Mode::Clean.name(), &knobs) {
        eprintln!("{note}");
    }
    eprintln!(
        "profiling {} {} {params} on {cores} core{} with perf",
        imp.name,
        bench.name,
        if cores == 1 { "" } else { "s" }
    );
    let o = exec::run(&exec::Spec {
        argv: full,
        env,
        env_remove: crate::knobs::to_remove(crate::knobs::Mode::Clean),
        cwd: suite.dir.clone(),
        cpus: Some(exec::allowed_cpus().into_iter().take(cores).collect()),
        timeout: Duration::from_secs_f64(opts.run.timeout),
        memory_limit: None,
        counters: false,
    })?;
    if o.killed == Some(exec::Killed::Interrupted) {
        let _ = std::fs::remove_dir_all(&work);
        return Ok(130);
    }
    let judged = crate::check::judge(
        &bench.name,
        params,
        &o.stdout.text(),
        o.stdout.truncated(),
        o.measurement.wall_s,
    );
    let verdict_ok = o.success() && judged.verdict == crate::check::Verdict::Ok;
    if !o.success() {
        let _ = std::fs::remove_dir_all(&work);
        return Err(crate::error::Failure(format!(
            "profile: the run under perf failed ({:?}); its stderr ends with: {}",
            o.killed
                .map_or(format!("{:?}", o.exit), |k| format!("{k:?}")),
            o.stderr.tail_text(600).trim()
        ))
        .into());
    }
    let script = exec::run(&exec::Spec {
        argv: vec![
            "perf".into(),
            "script".into(),
            "-i".into(),
            data.display().to_string(),
        ],
        env: Vec::new(),
        env_remove: Vec::new(),
        cwd: work.clone(),
        cpus: None,
        timeout: Duration::from_secs(600),
        memory_limit: None,
        counters: false,
    })?;
    let _ = std::fs::remove_dir_all(&work);
    if !script.success() || script.stdout.truncated() {
        anyhow::bail!(
            "perf script failed{}: {}",
            if script.stdout.truncated() {
                " (its output was too large to keep; try a smaller --param)"
            } else {
                ""
            },
            script.stderr.tail_text(600).trim()
        );
    }
    let title = format!("{} {} {params}, {cores} core(s)", imp.name, bench.name);
    let svg = flame_graph(script.stdout.text().as_bytes(), &title)?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(&out, svg).with_context(|| format!("writing {}", out.display()))?;
    println!("{}", out.display());
    if !verdict_ok {
        eprintln!(
            "warning: the profiled run's answer was not right: {:?}",
            judged.verdict
        );
        return Ok(1);
    }
    Ok(0)
}
