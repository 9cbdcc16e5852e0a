//! `actorbench run`: one measuring session, from the suite file to the stored table.
//!
//! 1. Validate everything the user gave (suite file, names, parameters, cores, reps,
//!    timeout) and open the database: any problem is a [`UsageError`] before anything is
//!    written.
//! 2. Probe each chosen implementation: a missing toolchain is skipped with one line
//!    naming what is missing and how to install it. Without `--impl` the configuration
//!    variants (`variant_of` in the suite file) are left out, and one line names them.
//! 3. Store the session row (host, commit, command line, versions), build each available
//!    implementation once (a failed build is recorded and that implementation skipped).
//! 4. Run the planned jobs in order, each judged and committed as soon as it ends, with a
//!    progress bar and ETA. Ctrl-C kills the running process group, marks the session
//!    `interrupted` and says where it is.
//! 5. Print the table per benchmark, write the requested exports and the report.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use crate::environment;
use crate::error::UsageError;
use crate::exec;
use crate::export::{self, Format};
use crate::host;
use crate::params::{self, Params};
use crate::plan::{self, Order};
use crate::repetitions::{Repetitions, Stop};
use crate::rounds;
use crate::store::{CellRecord, ImplRecord, SessionRecord, Store};
use crate::suite::{self, Implementation, Profile, Suite};
use crate::summary::{self, View};
use crate::toolchain::{self, Availability};
use crate::trial::{self, Trial};

/// Everything `actorbench run` takes.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// `--suite`.
    pub suite: Option<PathBuf>,
    /// `--impl`.
    pub implementations: Vec<String>,
    /// `--bench`.
    pub benches: Vec<String>,
    /// `--profile`.
    pub profile: Profile,
    /// `--param`, each `key=value` or `bench.key=value`.
    pub params: Vec<String>,
    /// `--sweep`: run each benchmark's sweep.
    pub sweep: bool,
    /// `--cores` (empty: 1 to the number of CPUs).
    pub cores: Vec<usize>,
    /// `--reps`: a fixed number of measured runs per cell.
    pub reps: Option<u32>,
    /// `--min-reps` (adaptive).
    pub min_reps: Option<u32>,
    /// `--max-reps` (adaptive).
    pub max_reps: Option<u32>,
    /// `--target-ci`: target half-width of the 95% interval, percent of the median.
    pub target_ci: Option<f64>,
    /// `--warmup`.
    pub warmup: u32,
    /// `--timeout` in seconds.
    pub timeout: f64,
    /// `--memory-limit` as given (a size or `off`); `None`: the default, three quarters
    /// of the memory available at the start (see [`crate::memory`]).
    pub memory_limit: Option<String>,
    /// `--order`.
    pub order: Order,
    /// `--settle`: what settles a measured run in interleaved order (see
    /// [`crate::rounds`]).
    pub settle: crate::plan::Settle,
    /// `--seed` for the random order.
    pub seed: Option<u64>,
    /// `--budget` in seconds as given (0: none): stop at a round boundary when the next
    /// round would not fit. Without it, adaptive quick-profile sessions get
    /// [`QUICK_BUDGET_SECONDS`].
    pub budget: Option<f64>,
    /// `--db`.
    pub db: Option<PathBuf>,
    /// `--export-json`.
    pub export_json: Option<PathBuf>,
    /// `--export-csv`.
    pub export_csv: Option<PathBuf>,
    /// `--export-markdown`.
    pub export_markdown: Option<PathBuf>,
    /// `--no-report`.
    pub no_report: bool,
    /// `--no-build`: run the programs as they are.
    pub no_build: bool,
    /// `--install-missing`: run the install steps of missing implementations first.
    pub install_missing: bool,
    /// `--inherit-env`: let the runtime knobs of the caller's environment reach the runs
    /// (see [`crate::knobs`]); by default they are removed.
    pub inherit_env: bool,
    /// `--report-dir`.
    pub report_dir: Option<PathBuf>,
    /// `--metric`: the time the tables, exports and report compare on.
    pub view: View,
}

/// The database file: `--db`, else `results/actorbench.sqlite` beside the suite file
/// (or in the current directory when there is no suite file).
pub fn db_path(given: Option<&Path>, suite: Option<&Path>) -> PathBuf {
    if let Some(p) = given {
        return p.to_path_buf();
    }
    let base = suite
        .and_then(|s| s.canonicalize().ok())
        .and_then(|s| s.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("results").join("actorbench.sqlite")
}

/// The parameter sets per chosen benchmark after `--profile`, `--sweep` and `--param`.
pub fn resolve_points(
    suite: &Suite,
    benches: &[&suite::Benchmark],
    profile: Profile,
    sweep: bool,
    overrides: &[String],
) -> Result<Vec<(String, Vec<Params>)>, UsageError> {
    // Parse the overrides: `key=value` for every chosen benchmark that has `key`,
    // `bench.key=value` for one.
    let mut parsed: Vec<(Option<String>, String, u64)> = Vec::new();
    for o in overrides {
        let (target, pair) = match o.split_once('=').and_then(|(k, _)| k.split_once('.')) {
            Some((b, _)) => (Some(b.to_string()), &o[b.len() + 1..]),
            None => (None, o.as_str()),
        };
        let (k, v) =
            params::parse_pair(pair).map_err(|e| UsageError::new(format!("--param {o}: {e}")))?;
        if let Some(b) = &target {
            let bench = suite.benchmark(b).ok_or_else(|| {
                UsageError::new(format!(
                    "--param {o}: unknown benchmark '{b}' (known: {})",
                    suite.benchmark_names()
                ))
            })?;
            if !benches.iter().any(|x| x.name == bench.name) {
                return Err(UsageError::new(format!(
                    "--param {o}: benchmark '{b}' is not among those chosen"
                )));
            }
            if bench.spec.param(&k).is_none() {
                return Err(UsageError::new(format!(
                    "--param {o}: {b}: unknown parameter {k}={v} (known: {})",
                    bench.spec.known_params()
                )));
            }
        } else if !benches.iter().any(|b| b.spec.param(&k).is_some()) {
            let names: Vec<&str> = benches.iter().map(|b| b.name.as_str()).collect();
            return Err(UsageError::new(format!(
                "--param {o}: unknown parameter {k}={v}: none of the chosen benchmarks ({}) has it",
                names.join(", ")
            )));
        }
        parsed.push((target, k, v));
    }
    let mut out = Vec::new();
    for b in benches {
        let mine: Vec<&(Option<String>, String, u64)> = parsed
            .iter()
            .filter(|(t, k, _)| {
                t.as_deref().is_none_or(|t| t == b.name) && b.spec.param(k).is_some()
            })
            .collect();
        let swept_overridden = b
            .sweep
            .as_ref()
            .is_some_and(|s| mine.iter().any(|(_, k, _)| *k == s.param));
        let mut points = b.points(profile, sweep && !swept_overridden);
        for p in &mut points {
            for (_, k, v) in &mine {
                p.set(k, *v);
            }
            b.spec.validate(p).map_err(UsageError::new)?;
        }
        out.push((b.name.clone(), points));
    }
    Ok(out)
}

/// Checks `--cores`: each between 1 and the number of CPUs; empty means all counts. The
/// result is ascending, without repeats.
pub fn resolve_cores(cores: &[usize], flag: &str) -> Result<Vec<usize>, UsageError> {
    let available = exec::allowed_cpus().len();
    if cores.is_empty() {
        return Ok((1..=available).collect());
    }
    let mut out = Vec::new();
    for &k in cores {
        if k == 0 {
            return Err(UsageError::new(format!(
                "{flag} 0: a run needs at least one core"
            )));
        }
        if k > available {
            return Err(UsageError::new(format!(
                "{flag} {k}: this machine has only {available} CPU{} available to the harness",
                if available == 1 { "" } else { "s" }
            )));
        }
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out.sort_unstable();
    Ok(out)
}

/// `--install-missing`: runs the install steps of each chosen implementation that is
/// missing (see [`crate::peers::install_one`]); what still is missing afterwards is
/// skipped by [`probe`] with its reason, as without the flag.
pub fn install_missing(suite: &Suite, chosen: &[&Implementation]) {
    for imp in chosen {
        if let Availability::Missing(why) = toolchain::availability(imp, &suite.dir) {
            eprintln!("{} is missing ({why}): installing it", imp.name);
            if let crate::peers::Installed::NoSteps(hint) =
                crate::peers::install_one(imp, &suite.dir, true, crate::peers::INSTALL_TIMEOUT)
            {
                eprintln!(
                    "{}: no install steps in suite.toml; install it by hand: {hint}",
                    imp.name
                );
            }
        }
    }
}

/// Probes implementations, printing one line for each missing one; returns the available
/// ones with their versions, and records for all.
pub fn probe<'a>(
    suite: &Suite,
    chosen: &[&'a Implementation],
) -> (Vec<(&'a Implementation, String)>, Vec<ImplRecord>) {
    let mut available = Vec::new();
    let mut records = Vec::new();
    for imp in chosen {
        let mut rec = ImplRecord {
            name: imp.name.clone(),
            language: imp.language.clone(),
            run_template: imp.run_template.clone(),
            variant_of: imp.variant_of.clone().unwrap_or_default(),
            env: imp.env_words(),
            ..Default::default()
        };
        match toolchain::availability(imp, &suite.dir) {
            Availability::Available => {
                rec.version = toolchain::version(imp, &suite.dir);
                rec.status = "available".into();
                available.push((*imp, rec.version.clone()));
            }
            Availability::Missing(why) => {
                let how = if imp.install.is_empty() && imp.apt.is_empty() {
                    ""
                } else {
                    " (or `actorbench run --install-missing` runs its install steps)"
                };
                eprintln!("skipping {}{how}", imp.missing_line(&why));
                rec.status = "missing".into();
                rec.detail = why;
            }
        }
        records.push(rec);
    }
    (available, records)
}

/// The quick profile's default time budget: the main job (`actorbench run` with no flags)
/// runs eight implementations x twelve benchmarks x every core count, about 110 s a round
/// on this project's 2-core machine; with adaptive repetitions (up to 10 runs a cell) it
/// could take half an hour, so the budget keeps it to about 10 minutes, stopping at a round
/// boundary, and the session says so. It applies only when the number of runs is
/// adaptive: an explicit `--reps` is never cut short by a default.
pub const QUICK_BUDGET_SECONDS: f64 = 600.0;

/// The budget a session runs with: `--budget` as given (0 meaning none), else
/// [`QUICK_BUDGET_SECONDS`] for a plain quick-profile session in interleaved order with
/// adaptive repetitions, else none.
pub fn effective_budget(
    given: Option<f64>,
    profile: crate::suite::Profile,
    sweep: bool,
    order: crate::plan::Order,
    fixed_reps: bool,
) -> Option<f64> {
    match given {
        Some(0.0) => None,
        Some(b) => Some(b),
        None if profile == crate::suite::Profile::Quick
            && !sweep
            && order == crate::plan::Order::Interleaved
            && !fixed_reps =>
        {
            Some(QUICK_BUDGET_SECONDS)
        }
        None => None,
    }
}

/// Runs a session; returns the process exit status (0, or 130 when interrupted).
pub fn run(opts: &RunOptions) -> Result<i32> {
    // 1. Validate everything before writing anything.
    let suite_path = suite::locate(opts.suite.as_deref())?;
    let suite = suite::load(&suite_path)?;
    let chosen = suite.select_implementations(&opts.implementations)?;
    let benches = suite.select_benchmarks_in(&opts.benches, opts.profile)?;
    let points = resolve_points(&suite, &benches, opts.profile, opts.sweep, &opts.params)?;
    let cores = resolve_cores(&opts.cores, "--cores")?;
    if let Some(b) = &opts.view.baseline
        && !chosen.iter().any(|i| &i.name == b)
    {
        crate::usage!(
            "--baseline {b}: not among the implementations to run ({})",
            chosen
                .iter()
                .map(|i| i.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let reps = Repetitions::from_flags(opts.reps, opts.min_reps, opts.max_reps, opts.target_ci)
        .map_err(UsageError::new)?;
    if !reps.is_fixed() && opts.order == Order::Random {
        crate::usage!(
            "--order random shuffles a fixed number of runs: give --reps N (adaptive repetitions need \
             --order interleaved or grouped)"
        );
    }
    if let Some(b) = opts.budget.filter(|&b| b != 0.0) {
        if !(b.is_finite() && b > 0.0) {
            crate::usage!("--budget {b}: give a positive number of seconds");
        }
        if opts.order != Order::Interleaved {
            crate::usage!("--budget works by whole rounds, so it needs --order interleaved");
        }
    }
    let budget = effective_budget(
        opts.budget,
        opts.profile,
        opts.sweep,
        opts.order,
        reps.is_fixed(),
    );
    let budget_note = match (opts.budget, budget) {
        (None, Some(b)) => Some(format!(
            "the {} profile's default budget of {} applies (--budget S to change it, 0 for none)",
            opts.profile.name(),
            crate::output::units::seconds(b)
        )),
        (None, None)
            if reps.is_fixed()
                && effective_budget(None, opts.profile, opts.sweep, opts.order, false)
                    .is_some() =>
        {
            Some(format!(
                "{}: the {} profile's default budget is not applied to a fixed count (give --budget S to cap the time)",
                reps.describe(),
                opts.profile.name()
            ))
        }
        _ => None,
    };
    if !(opts.timeout.is_finite() && opts.timeout > 0.0) {
        crate::usage!(
            "--timeout {}: give a positive number of seconds",
            opts.timeout
        );
    }
    let memory_limit =
        crate::memory::parse_limit(opts.memory_limit.as_deref()).map_err(UsageError::new)?;
    for (flag, path) in [
        ("--export-json", &opts.export_json),
        ("--export-csv", &opts.export_csv),
        ("--export-markdown", &opts.export_markdown),
    ] {
        if let Some(p) = path {
            if p.is_dir() {
                crate::usage!("{flag} {}: is a directory; give a file name", p.display());
            }
            if let Some(blocker) = p.ancestors().skip(1).find(|a| a.exists() && !a.is_dir()) {
                crate::usage!(
                    "{flag} {}: {} is not a directory",
                    p.display(),
                    blocker.display()
                );
            }
        }
    }
    if let Some(dir) = &opts.report_dir
        && let Some(blocker) = dir.ancestors().find(|a| a.exists() && !a.is_dir())
    {
        crate::usage!(
            "--report-dir {}: {} is not a directory",
            dir.display(),
            blocker.display()
        );
    }
    let db = db_path(opts.db.as_deref(), Some(&suite_path));
    let store = Store::create(&db)?;
    crate::describe::say_abandoned(&store);
    exec::install_interrupt_handler();

    // 2. Probe toolchains.
    if opts.implementations.is_empty() && !suite.variants().is_empty() {
        eprintln!(
            "not running configuration variants (name them with --impl): {}",
            suite.variants_line()
        );
    }
    if opts.install_missing {
        install_missing(&suite, &chosen);
    }
    let (available, mut records) = probe(&suite, &chosen);
    if available.is_empty() {
        return Err(crate::error::Failure(format!(
            "no implementation is available to run (chosen: {}); see `actorbench peers`",
            chosen
                .iter()
                .map(|i| i.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into());
    }

    // 3. The session row, then builds.
    let h = host::describe();
    let seed = opts.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let metric = crate::metric::resolve(opts.view.metric, &[]).0;
    // Only interleaved order settles.
    let settle = match opts.order {
        crate::plan::Order::Interleaved => opts.settle,
        _ => crate::plan::Settle::Off,
    };
    let mut settings = serde_json::json!({
        "repetitions": reps.to_json(), "warmup": opts.warmup, "timeout_s": opts.timeout,
        "order": opts.order.name(), "settle": settle.name(), "seed": seed, "cores": cores,
        "sweep": opts.sweep,
        "budget_s": budget, "memory_limit_bytes": memory_limit,
        "budget_from": match (opts.budget, budget) {
            (_, None) => "none",
            (Some(_), Some(_)) => "--budget",
            (None, Some(_)) => "profile default",
        },
        "metric": metric.name(),
        "benchmarks": benches.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
        "params": opts.params,
    });
    let cpus = exec::allowed_cpus();
    let env_mode = crate::knobs::Mode::from_flag(opts.inherit_env);
    let knobs_found = crate::knobs::found();
    let env_remove = crate::knobs::to_remove(env_mode);
    settings["env"] = env_mode.name().into();
    let load_before = environment::load_average();
    let cpu_before = environment::CpuSnapshot::take(&cpus);
    let session = store.begin_session(&SessionRecord {
        harness_version: environment::harness_version(),
        cpu_governor: environment::governor(&cpus),
        smt: environment::smt(),
        thp: crate::machine::thp(),
        cpu_boost: crate::machine::cpu_boost(),
        cgroup_cpu: crate::machine::cgroup_cpu(),
        env_mode: env_mode.name().into(),
        env_knobs: crate::knobs::words(&knobs_found),
        load_before: environment::load_text(load_before),
        started_at: host::now_rfc3339(),
        git_commit: host::git_commit(&suite.dir),
        host_cpu: h.cpu.clone(),
        host_cores: h.cores as i64,
        host_memory_bytes: h.memory_bytes as i64,
        host_kernel: h.kernel.clone(),
        command_line: host::command_line(),
        profile: opts.profile.name().into(),
        settings: settings.to_string(),
        suite_path: suite
            .path
            .canonicalize()
            .unwrap_or(suite.path.clone())
            .display()
            .to_string(),
        ..Default::default()
    })?;
    eprintln!("session {session}: results go to {}", store.location());
    if let Some(note) = crate::knobs::note(env_mode.name(), &crate::knobs::words(&knobs_found)) {
        eprintln!("{note}");
    }
    let early = environment::busy_note(load_before, None, cpus.len());
    if !early.is_empty() {
        eprintln!("warning: the machine is busy: {early}");
    }
    let environment_after = || -> Result<()> {
        let others = cpu_before.others_cpus(&environment::CpuSnapshot::take(&cpus));
        let busy = environment::busy_note(load_before, Some(others), cpus.len());
        store.put_environment_after(
            session,
            &environment::load_text(environment::load_average()),
            Some(others),
            &busy,
        )?;
        if !busy.is_empty() {
            eprintln!("busy machine: session {session} ran while {busy}; its figures may be noisy");
        }
        Ok(())
    };
    eprintln!(
        "{}",
        crate::memory::describe(memory_limit, opts.memory_limit.is_none())
    );
    let mut runnable: Vec<&Implementation> = Vec::new();
    let mut builds = toolchain::Builds::new(opts.no_build);
    for (imp, version) in &available {
        if exec::interrupted() {
            break;
        }
        if let Some(cmd) = imp.build.as_ref().filter(|_| !builds.has(imp)) {
            eprintln!(
                "building {} ({}): {cmd}",
                imp.name,
                if version.is_empty() {
                    "no version"
                } else {
                    version
                }
            );
        }
        let built = builds.build(imp, &suite.dir);
        let rec = records
            .iter_mut()
            .find(|r| r.name == imp.name)
            .expect("probed");
        if built.ok {
            runnable.push(imp);
        } else if !exec::interrupted() {
            eprintln!(
                "build of {} failed after {:.1} s; skipping it. Its output ends with:",
                imp.name, built.seconds
            );
            for line in built
                .tail
                .lines()
                .rev()
                .take(15)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                eprintln!("  | {line}");
            }
            rec.status = "build-failed".into();
            rec.detail = built.tail.clone();
        }
    }
    if let Some(first) = points.first().and_then(|(b, p)| Some((b, p.first()?))) {
        for imp in &runnable {
            let (argv, _) = imp.command(first.0, first.1, 1);
            if let Some(rec) = records.iter_mut().find(|r| r.name == imp.name) {
                rec.binary_sha256 = crate::binary_hash::of_command(&argv, &suite.dir);
            }
        }
    }
    for rec in &records {
        store.put_impl(session, rec)?;
    }

    if runnable.is_empty() && !exec::interrupted() {
        store.end_session(session, "complete", &host::now_rfc3339())?;
        return Err(crate::error::Failure(format!(
            "nothing ran in session {session}: no implementation built (see the build output above)"
        ))
        .into());
    }

    // 4. Run.
    let impl_names: Vec<String> = runnable.iter().map(|i| i.name.clone()).collect();
    let cells = plan::cells(&points, &impl_names, &cores);
    if let Some(note) = &budget_note {
        eprintln!("{note}");
    }
    eprintln!("repetitions: {}", reps.describe());
    let plan = rounds::Plan {
        cells: cells.len(),
        group: impl_names.len(),
        warmup: opts.warmup,
        reps,
        order: opts.order,
        seed,
        budget,
        metric,
        settle,
    };
    let timeout = Duration::from_secs_f64(opts.timeout);
    let started = Instant::now();
    let mut most = cells.len() * (opts.warmup + reps.max()) as usize;
    if plan.order == crate::plan::Order::Interleaved {
        // At most a settling run a round for each group (benchmark point and core count),
        // or for each cell.
        most += match plan.settle {
            crate::plan::Settle::Off => 0,
            crate::plan::Settle::Group => cells.len().div_ceil(plan.group.max(1)),
            crate::plan::Settle::Cell => cells.len(),
        } * reps.max() as usize;
    }
    let bar = progress_bar(most as u64);
    let mut reported = vec![false; cells.len()];
    let mut failed = 0usize;
    let mut next_note = 0.1;
    let outcome = rounds::run(&plan, |job, seq, remaining| {
        if exec::interrupted() {
            return Ok(None);
        }
        let cell = &cells[job.cell];
        let imp = suite
            .implementation(&cell.implementation)
            .expect("planned from the suite");
        bar.set_message(format!("{} {} {}c", cell.bench, imp.name, cell.cores));
        let t = Trial {
            implementation: imp,
            bench: &cell.bench,
            params: &cell.params,
            cores: cell.cores,
            timeout,
            memory_limit,
            dir: &suite.dir,
            env_remove: &env_remove,
        };
        let Some(mut rec) = trial::run(&t) else {
            return Ok(None);
        };
        rec.session_id = session;
        rec.seq = seq as i64;
        rec.rep = job.rep as i64;
        rec.warmup = job.warmup;
        store.insert_run(&rec)?;
        if !rec.ok() {
            failed += 1;
            // The first failure of each cell is shown now; all are listed at the end.
            if !reported[job.cell] {
                reported[job.cell] = true;
                let line = summary::failure_line(&rec);
                bar.suspend(|| eprintln!("FAILED {} {}: {line}", rec.bench, rec.params));
            }
        }
        let done = seq + 1;
        bar.set_length((done + remaining) as u64);
        bar.inc(1);
        let share = done as f64 / (done + remaining).max(1) as f64;
        if bar.is_hidden() && (share >= next_note || remaining == 0) {
            next_note = (share * 10.0).floor() / 10.0 + 0.1;
            eprintln!(
                "[{done}/at most {}] after {}, {failed} failed",
                done + remaining,
                crate::output::units::seconds(started.elapsed().as_secs_f64())
            );
        }
        Ok(Some(rec))
    })?;
    bar.finish_and_clear();
    let done = outcome.done;
    if let Some(round) = outcome.budget_stopped {
        let per_cell: Vec<u32> = outcome
            .stops
            .iter()
            .zip(&outcome.measured)
            .filter(|(s, _)| **s == Some(Stop::Budget))
            .map(|(_, &m)| m)
            .collect();
        eprintln!(
            "--budget {}: stopped {} cell{} after {} measured run{} (the last round took {}); {done} runs done",
            crate::output::units::seconds(budget.unwrap_or(0.0)),
            per_cell.len(),
            if per_cell.len() == 1 { "" } else { "s" },
            range_text(&per_cell),
            if per_cell.iter().all(|&m| m == 1) {
                ""
            } else {
                "s"
            },
            crate::output::units::seconds(round.as_secs_f64()),
        );
    }
    let cell_records: Vec<CellRecord> = cells
        .iter()
        .zip(outcome.measured.iter().zip(&outcome.stops))
        .map(|(c, (&m, stop))| CellRecord {
            implementation: c.implementation.clone(),
            bench: c.bench.clone(),
            params: c.params.to_string(),
            cores: c.cores as i64,
            measured: m as i64,
            stop: stop.unwrap_or(Stop::Interrupted).name().into(),
        })
        .collect();
    store.put_cells(session, &cell_records)?;
    let stops = stop_counts(&cell_records);
    eprintln!("repetitions: {stops}");
    settings["outcome"] = serde_json::json!({
        "runs": done,
        "measured_per_cell": range_text(&outcome.measured),
        "stops": stops,
    });
    store.set_settings(session, &settings.to_string())?;
    if exec::interrupted() {
        environment_after()?;
        store.end_session(session, "interrupted", &host::now_rfc3339())?;
        eprintln!(
            "interrupted: session {session} keeps the {done} finished runs in {}; see it with `actorbench show {session}{}`",
            store.location(),
            db_flag(opts.db.as_deref())
        );
        return Ok(130);
    }
    environment_after()?;
    store.end_session(session, "complete", &host::now_rfc3339())?;

    // 5. Present.
    let record = store.session(session)?.expect("just written");
    let data = store.load(&record)?;
    crate::describe::print_tables(&data, &opts.view);
    for i in data
        .implementations
        .iter()
        .filter(|i| i.status != "available")
    {
        println!("not run: {} ({})", i.name, i.status);
    }
    for (path, format) in [
        (&opts.export_json, Format::Json),
        (&opts.export_csv, Format::Csv),
        (&opts.export_markdown, Format::Markdown),
    ] {
        if let Some(p) = path {
            export::write(format, &data, &opts.view, p)?;
            eprintln!("wrote {}", p.display());
        }
    }
    if !opts.no_report {
        let dir = opts
            .report_dir
            .clone()
            .unwrap_or_else(|| crate::report::default_report_dir(&store));
        let written = crate::report::history::for_report(&store, &data, &opts.view)
            .and_then(|histories| crate::report::write(&data, &opts.view, &histories, &dir));
        match written {
            Ok(index) => eprintln!("report: {}", index.display()),
            Err(e) => eprintln!("warning: could not write the report: {e:#}"),
        }
    }
    eprintln!(
        "session {session}: {done} runs ({failed} failed) in {}; stored in {}",
        crate::output::units::seconds(started.elapsed().as_secs_f64()),
        store.location()
    );
    if failed >= done {
        eprintln!(
            "error: nothing ran successfully in session {session}: {}",
            if done == 0 {
                "no run was made".to_string()
            } else {
                format!("all {done} runs failed (see the failures above)")
            }
        );
        return Ok(1);
    }
    Ok(0)
}

/// `3` or `3 to 10` for the smallest and largest of some counts.
fn range_text(xs: &[u32]) -> String {
    match (xs.iter().min(), xs.iter().max()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a} to {b}"),
        _ => "0".into(),
    }
}

/// `40 cells reached the target (3 to 5 runs), 8 stopped at max-reps (10)`: how the
/// cells' repetitions ended.
pub fn stop_counts(cells: &[CellRecord]) -> String {
    let mut kinds: Vec<(&str, Vec<u32>)> = Vec::new();
    for c in cells {
        match kinds.iter_mut().find(|(k, _)| *k == c.stop) {
            Some((_, v)) => v.push(c.measured as u32),
            None => kinds.push((&c.stop, vec![c.measured as u32])),
        }
    }
    kinds
        .iter()
        .map(|(k, v)| {
            let one = v.len() == 1;
            let were = if one { "was" } else { "were" };
            let what = match *k {
                "reps" => "got its fixed count".to_string(),
                "target-ci" => "reached the target interval".to_string(),
                "max-reps" => "stopped at --max-reps before the target".to_string(),
                "failing" => "stopped after failing every run".to_string(),
                "budget" => format!("{were} stopped by the budget"),
                "timeout" => format!("{were} stopped after a run timed out"),
                _ => format!("{were} interrupted"),
            };
            let what = if one {
                what
            } else {
                what.replace("got its", "got their")
            };
            format!(
                "{} cell{} {what} ({} measured run{})",
                v.len(),
                if one { "" } else { "s" },
                range_text(v),
                if v.iter().all(|&m| m == 1) { "" } else { "s" }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn db_flag(db: Option<&Path>) -> String {
    db.map(|p| {
        let text = p.display().to_string();
        format!(" --db {}", host::quote(&crate::store::redact(&text)))
    })
    .unwrap_or_default()
}

fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} eta {eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

#[cfg(test)]
mod budget_tests {
    use super::*;
    use crate::plan::Order;
    use crate::suite::Profile;

    #[test]
    fn the_quick_main_job_gets_a_budget_and_zero_turns_it_off() {
        let quick =
            |given| effective_budget(given, Profile::Quick, false, Order::Interleaved, false);
        assert_eq!(quick(None), Some(QUICK_BUDGET_SECONDS));
        assert_eq!(quick(Some(0.0)), None);
        assert_eq!(quick(Some(90.0)), Some(90.0));
        assert_eq!(
            effective_budget(None, Profile::Seed, false, Order::Interleaved, false),
            None
        );
        assert_eq!(
            effective_budget(None, Profile::Quick, true, Order::Interleaved, false),
            None
        );
        assert_eq!(
            effective_budget(None, Profile::Quick, false, Order::Random, false),
            None
        );
        // An explicit --reps is never cut short by the default budget.
        assert_eq!(
            effective_budget(None, Profile::Quick, false, Order::Interleaved, true),
            None
        );
        assert_eq!(
            effective_budget(Some(60.0), Profile::Quick, false, Order::Interleaved, true),
            Some(60.0)
        );
    }
}
