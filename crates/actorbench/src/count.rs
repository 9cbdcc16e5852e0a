//! `actorbench count BENCH --impl X`: instructions per unit of work, counted under
//! callgrind, for machines without a PMU (and for figures that do not move with load).
//!
//! **What is counted.** The implementation's program runs under `valgrind
//! --tool=callgrind --trace-children=yes`, which executes it on a synthetic CPU and counts
//! every instruction it executes (`Ir`), in every process of its tree (each process writes
//! its own `callgrind.out.PID`; the harness adds their totals up). The count does not
//! depend on the machine's load, only on the code and the interleaving of its threads.
//!
//! **Per unit of work.** A run's total includes start-up and shutdown. So the program
//! runs at two sizes, the profile's parameters (with `--param` overrides) and a larger
//! one ([`Unit::larger`]: usually the work parameter doubled), and the marginal cost is
//! `(Ir(large) - Ir(small)) / (units(large) - units(small))`: start-up cancels out. What a
//! unit is and how many a parameter set holds is one table, [`UNITS`]: a hop of the
//! threadring token, a chameneos meeting, a created actor for the trees, a message for
//! the flooding benchmarks, a round trip for the ping-pongs; for the Savina benchmarks a
//! message (fjthrput), an actor (fjcreate), a worker's request with its answer (concdict,
//! concsll), an item (bndbuffer), a meal (philosopher), a haircut (barber), a round
//! (cigsmok), a term (logmap), a transfer (banking). Where the work of a unit grows with
//! the run (concsll's list gets longer with every insert), the figure is the average over
//! the extra units, not a constant. A benchmark without a unit is refused, naming it.
//!
//! **Only native programs.** A script or a launcher that is not an ELF executable (`erl`
//! is a shell script) is refused: callgrind would count the interpreter of the wrapper.
//! A JVM is native but counts its interpreter, JIT and collector too, and slowly.
//!
//! Each run is stored like any other (status, check, wall time, and its count as the
//! counter `callgrind-ir`) in a session of kind `count`, which `show` prints as the
//! table [`render`] makes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use crate::counters::IR;
use crate::error::UsageError;
use crate::exec;
use crate::host;
use crate::one_run::OneRunOptions;
use crate::output::{table, units};
use crate::params::Params;
use crate::store::{RunRecord, SessionData, SessionRecord, Store};
use crate::suite;

/// What one unit of a benchmark's work is, and how to get a larger size.
#[derive(Debug, Clone, Copy)]
pub struct Unit {
    /// Benchmark.
    pub bench: &'static str,
    /// The unit, singular (`hop`, `message`, `actor`).
    pub unit: &'static str,
    /// The parameter the larger size changes.
    pub vary: &'static str,
    /// How the larger size sets it from the smaller one's value (and its other
    /// parameters, for skynet's power of `div`).
    pub larger: fn(u64, &Params) -> u64,
    /// Units of work in a parameter set; `None` when a parameter it needs is missing.
    pub units: fn(&Params) -> Option<f64>,
}

fn double(v: u64, _: &Params) -> u64 {
    v.max(1) * 2
}

fn plus_one(v: u64, _: &Params) -> u64 {
    v + 1
}

fn times_div(v: u64, p: &Params) -> u64 {
    v * p.get("div").unwrap_or(10)
}

fn get(p: &Params, k: &str) -> Option<f64> {
    p.get(k).map(|v| v as f64)
}

/// Actors in a fibtree of `n`: one per call, `fib(0..=2)` answering directly.
fn fib_actors(n: u64) -> f64 {
    let (mut a, mut b) = (1.0, 1.0); // actors(1), actors(2)
    if n <= 2 {
        return 1.0;
    }
    for _ in 3..=n {
        (a, b) = (b, 1.0 + a + b);
    }
    b
}

/// Actors in a skynet tree of `size` with `div` children each: size + size/div + ... + 1.
fn skynet_actors(size: u64, div: u64) -> f64 {
    let (mut total, mut level) = (0.0, size);
    while level >= 1 {
        total += level as f64;
        if level == 1 || div < 2 {
            break;
        }
        level /= div;
    }
    total
}

/// The unit of work of every benchmark of the contract.
pub const UNITS: &[Unit] = &[
    Unit {
        bench: "threadring",
        unit: "hop",
        vary: "hops",
        larger: double,
        units: |p| get(p, "hops"),
    },
    Unit {
        bench: "chameneos",
        unit: "meeting",
        vary: "meetings",
        larger: double,
        units: |p| get(p, "meetings"),
    },
    Unit {
        bench: "big",
        unit: "ping and pong",
        vary: "pings",
        larger: double,
        units: |p| Some(get(p, "workers")? * get(p, "pings")?),
    },
    Unit {
        bench: "fannkuch",
        unit: "permutation",
        vary: "n",
        larger: plus_one,
        units: |p| Some((1..=p.get("n")?).map(|k| k as f64).product()),
    },
    Unit {
        bench: "fibtree",
        unit: "actor",
        vary: "n",
        larger: plus_one,
        units: |p| Some(fib_actors(p.get("n")?)),
    },
    Unit {
        bench: "skynet",
        unit: "actor",
        vary: "size",
        larger: times_div,
        units: |p| Some(skynet_actors(p.get("size")?, p.get("div").unwrap_or(10))),
    },
    Unit {
        bench: "spreading",
        unit: "actor",
        vary: "depth",
        larger: plus_one,
        units: |p| Some(2f64.powi(p.get("depth")? as i32 + 1) - 1.0),
    },
    Unit {
        bench: "mixed",
        unit: "token pass",
        vary: "token",
        larger: double,
        units: |p| Some(get(p, "rings")? * get(p, "reps")? * (get(p, "token")? + 1.0)),
    },
    Unit {
        bench: "bang",
        unit: "message",
        vary: "messages",
        larger: double,
        units: |p| Some(get(p, "senders")? * get(p, "messages")?),
    },
    Unit {
        bench: "serialmsg",
        unit: "message",
        vary: "messages",
        larger: double,
        units: |p| Some(get(p, "pairs")? * get(p, "messages")?),
    },
    Unit {
        bench: "pingpong",
        unit: "round trip",
        vary: "pings",
        larger: double,
        units: |p| get(p, "pings"),
    },
    Unit {
        bench: "counting",
        unit: "message",
        vary: "count",
        larger: double,
        units: |p| get(p, "count"),
    },
    Unit {
        bench: "fjthrput",
        unit: "message",
        vary: "messages",
        larger: double,
        units: |p| Some(get(p, "actors")? * get(p, "messages")?),
    },
    Unit {
        bench: "fjcreate",
        unit: "actor",
        vary: "actors",
        larger: double,
        units: |p| get(p, "actors"),
    },
    Unit {
        bench: "concdict",
        unit: "request and answer",
        vary: "messages",
        larger: double,
        units: |p| Some(get(p, "workers")? * get(p, "messages")?),
    },
    Unit {
        bench: "concsll",
        unit: "request and answer",
        vary: "messages",
        larger: double,
        units: |p| Some(get(p, "workers")? * get(p, "messages")?),
    },
    Unit {
        bench: "bndbuffer",
        unit: "item",
        vary: "items",
        larger: double,
        units: |p| Some(get(p, "producers")? * get(p, "items")?),
    },
    Unit {
        bench: "philosopher",
        unit: "meal",
        vary: "rounds",
        larger: double,
        units: |p| Some(get(p, "philosophers")? * get(p, "rounds")?),
    },
    Unit {
        bench: "barber",
        unit: "haircut",
        vary: "haircuts",
        larger: double,
        units: |p| get(p, "haircuts"),
    },
    Unit {
        bench: "cigsmok",
        unit: "round",
        vary: "rounds",
        larger: double,
        units: |p| get(p, "rounds"),
    },
    Unit {
        bench: "logmap",
        unit: "term",
        vary: "terms",
        larger: double,
        units: |p| Some(get(p, "series")? * get(p, "terms")?),
    },
    Unit {
        bench: "banking",
        unit: "transfer",
        vary: "transactions",
        larger: double,
        units: |p| get(p, "transactions"),
    },
];

/// The unit of `bench`.
///
/// ```
/// use actorbench::count::unit_of;
/// use actorbench::params::Params;
/// let u = unit_of("threadring").unwrap();
/// let p = Params::parse_words(["actors=503", "hops=1000"]).unwrap();
/// assert_eq!(((u.units)(&p), u.unit), (Some(1000.0), "hop"));
/// ```
pub fn unit_of(bench: &str) -> Option<&'static Unit> {
    UNITS.iter().find(|u| u.bench == bench)
}

/// Whether `program` (as the run template names it) is an ELF executable: its path
/// relative to `dir` when it has a slash, else found on `PATH`.
pub fn native_program(program: &str, dir: &Path) -> Result<PathBuf, String> {
    let path = if program.contains('/') {
        dir.join(program)
    } else {
        std::env::var_os("PATH")
            .into_iter()
            .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .map(|d| d.join(program))
            .find(|p| p.is_file())
            .ok_or_else(|| format!("{program} is not on PATH"))?
    };
    let mut magic = [0u8; 4];
    use std::io::Read;
    std::fs::File::open(&path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if &magic != b"\x7fELF" {
        return Err(format!(
            "{} is not a native executable (a script or wrapper): callgrind would count its interpreter",
            path.display()
        ));
    }
    Ok(path)
}

/// The sum of the `totals:` (or `summary:`) lines of callgrind's output files in `dir`.
pub fn callgrind_total(dir: &Path) -> Result<u64> {
    let mut total = 0u64;
    let mut files = 0;
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("callgrind.out"))
        {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("totals:"))
            .or_else(|| text.lines().find_map(|l| l.strip_prefix("summary:")));
        let Some(line) = line else { continue };
        let first = line.split_whitespace().next().unwrap_or("");
        total += first
            .parse::<u64>()
            .map_err(|e| anyhow::anyhow!("{}: bad total {first:?}: {e}", path.display()))?;
        files += 1;
    }
    if files == 0 {
        anyhow::bail!("callgrind wrote no output in {}", dir.display());
    }
    Ok(total)
}

/// Runs `actorbench count`; returns the exit status (1 when a run failed).
pub fn run(opts: &OneRunOptions) -> Result<i32> {
    let one = opts.resolve()?;
    let (suite, suite_path, bench, imp) = (&one.suite, &one.suite_path, &one.bench, &one.imp);
    let unit = unit_of(&bench.name).ok_or_else(|| {
        UsageError::new(format!(
            "count: no unit of work is defined for {}",
            bench.name
        ))
    })?;
    let cores = one.cores;
    let small = one.params.clone();
    let Some(v) = small.get(unit.vary) else {
        crate::usage!(
            "count {}: the {} profile has no {}; give --param {}=N",
            bench.name,
            opts.profile.name(),
            unit.vary,
            unit.vary
        );
    };
    let mut large = small.clone();
    large.set(unit.vary, (unit.larger)(v, &small));
    bench
        .spec
        .validate(&large)
        .map_err(|e| UsageError::new(format!("count: the larger size {large}: {e}")))?;
    let (Some(u_small), Some(u_large)) = ((unit.units)(&small), (unit.units)(&large)) else {
        crate::usage!(
            "count {}: {small} does not give every parameter its unit ({}) needs",
            bench.name,
            unit.unit
        );
    };
    let (argv0, _) = imp.command(&bench.name, &small, cores);
    let program = argv0.first().cloned().unwrap_or_default();
    one.check_toolchain("count")?;
    let valgrind = toolchain_version("valgrind --version").ok_or_else(|| {
        UsageError::new("count needs valgrind (Debian: apt-get install valgrind); it was not found")
    })?;

    let store = Store::create(&crate::session::db_path(
        opts.db.as_deref(),
        Some(suite_path),
    ))?;
    crate::describe::say_abandoned(&store);
    one.build("count")?;
    // Checked after the build, which may be what makes the program.
    native_program(&program, &suite.dir)
        .map_err(|e| UsageError::new(format!("count: {} runs {program}: {e}", imp.name)))?;

    let h = host::describe();
    let settings = serde_json::json!({
        "tool": "valgrind --tool=callgrind --trace-children=yes",
        "valgrind": valgrind,
        "unit": unit.unit,
        "vary": unit.vary,
        "sizes": [small.to_string(), large.to_string()],
        "units": [u_small, u_large],
        "cores": cores,
        "timeout_s": opts.timeout,
        "env": crate::knobs::Mode::Clean.name(),
    });
    let knobs_found = crate::knobs::found();
    let session = store.begin_session(&SessionRecord {
        kind: "count".into(),
        thp: crate::machine::thp(),
        cpu_boost: crate::machine::cpu_boost(),
        cgroup_cpu: crate::machine::cgroup_cpu(),
        env_mode: crate::knobs::Mode::Clean.name().into(),
        env_knobs: crate::knobs::words(&knobs_found),
        started_at: host::now_rfc3339(),
        git_commit: host::git_commit(&suite.dir),
        host_cpu: h.cpu.clone(),
        host_cores: h.cores as i64,
        host_memory_bytes: h.memory_bytes as i64,
        host_kernel: h.kernel.clone(),
        command_line: host::command_line(),
        profile: opts.profile.name().into(),
        settings: settings.to_string(),
        suite_path: suite_path.display().to_string(),
        harness_version: crate::environment::harness_version(),
        ..Default::default()
    })?;
    let (_, mut records) = crate::session::probe(suite, &[imp]);
    let (argv, _) = imp.command(&bench.name, &small, cores);
    for r in &mut records {
        r.binary_sha256 = crate::binary_hash::of_command(&argv, &suite.dir);
        store.put_impl(session, r)?;
    }
    eprintln!(
        "session {session} (count): {} {} under callgrind at {small} and {large}",
        imp.name, bench.name
    );
    let clean = crate::knobs::Mode::Clean.name();
    if let Some(note) = crate::knobs::note(clean, &crate::knobs::words(&knobs_found)) {
        eprintln!("{note}");
    }
    let mut failed = 0;
    for (seq, params) in [&small, &large].into_iter().enumerate() {
        let Some(mut rec) = count_one(imp, &bench.name, params, cores, opts, &suite.dir)? else {
            store.end_session(session, "interrupted", &host::now_rfc3339())?;
            return Ok(130);
        };
        rec.session_id = session;
        rec.seq = seq as i64;
        if !rec.ok() {
            failed += 1;
            eprintln!("FAILED {}", crate::summary::failure_line(&rec));
        }
        store.insert_run(&rec)?;
    }
    store.end_session(session, "complete", &host::now_rfc3339())?;
    let record = store.session(session)?.expect("just written");
    print!("{}", render(&store.load(&record)?));
    Ok(if failed > 0 { 1 } else { 0 })
}

/// First line of a command's output, if it ran.
fn toolchain_version(cmd: &str) -> Option<String> {
    let o = exec::shell(cmd, Path::new("."), Duration::from_secs(30)).ok()?;
    o.success().then(|| {
        o.stdout
            .text()
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
    })
}

/// One run under callgrind; `None` when interrupted.
fn count_one(
    imp: &suite::Implementation,
    bench: &str,
    params: &Params,
    cores: usize,
    opts: &OneRunOptions,
    dir: &Path,
) -> Result<Option<RunRecord>> {
    let out = tempfile_dir()?;
    let (argv, env) = imp.command(bench, params, cores);
    let mut full = vec![
        "valgrind".to_string(),
        "--tool=callgrind".into(),
        "--trace-children=yes".into(),
        format!("--callgrind-out-file={}/callgrind.out.%p", out.display()),
        format!("--log-file={}/valgrind.log.%p", out.display()),
    ];
    // The program path is resolved against the suite directory, as a run would be.
    let program = argv.first().cloned().unwrap_or_default();
    full.push(
        if program.contains('/') && Path::new(&program).is_relative() {
            dir.join(&program).display().to_string()
        } else {
            program
        },
    );
    full.extend(argv.iter().skip(1).cloned());
    let mut rec = RunRecord {
        implementation: imp.name.clone(),
        bench: bench.to_string(),
        params: params.to_string(),
        cores: cores as i64,
        started_at: host::now_rfc3339(),
        command: full
            .iter()
            .map(|a| host::quote(a))
            .collect::<Vec<_>>()
            .join(" "),
        expected_check: crate::check::expected(bench, params),
        ..Default::default()
    };
    let spec = exec::Spec {
        argv: full,
        env,
        env_remove: crate::knobs::to_remove(crate::knobs::Mode::Clean),
        cwd: dir.to_path_buf(),
        cpus: Some(exec::allowed_cpus().into_iter().take(cores).collect()),
        timeout: Duration::from_secs_f64(opts.timeout),
        memory_limit: None,
        counters: false,
    };
    let o = match exec::run(&spec) {
        Ok(o) => o,
        Err(e) => {
            rec.status = "spawn".into();
            rec.detail = format!("could not start valgrind: {e}");
            return Ok(Some(rec));
        }
    };
    if o.killed == Some(exec::Killed::Interrupted) {
        return Ok(None);
    }
    rec.wall_s = o.measurement.wall_s;
    rec.user_s = o.measurement.user_s;
    rec.sys_s = o.measurement.sys_s;
    rec.cpu_util = o.measurement.cpu_util();
    rec.max_rss_bytes = o.measurement.max_rss_bytes as i64;
    rec.stdout_bytes = o.stdout.total() as i64;
    rec.stderr_bytes = o.stderr.total() as i64;
    rec.stderr_tail = o.stderr.tail_text(crate::trial::FAILED_STDERR_TAIL);
    let j = crate::check::judge(
        bench,
        params,
        &o.stdout.text(),
        o.stdout.truncated(),
        rec.wall_s,
    );
    rec.work_s = j.work_s;
    if let Some(line) = &j.line {
        rec.result_line = Some(line.raw.clone());
        rec.check_value = line.get("check").map(str::to_string);
    }
    (rec.status, rec.detail) = match (o.killed, o.exit, &j.verdict) {
        (Some(_), _, _) => ("timeout".into(), format!("killed after {} s", opts.timeout)),
        (None, exec::Exit::Signal(s), _) => ("signal".into(), format!("ended by signal {s}")),
        (None, exec::Exit::Code(c), _) if c != 0 => {
            let log = std::fs::read_dir(&out)
                .into_iter()
                .flatten()
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("valgrind.log"))
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect::<String>();
            let last = log
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            (
                "exit".into(),
                format!("exit status {c}; valgrind: {}", last.trim()),
            )
        }
        (None, _, crate::check::Verdict::Ok) => ("ok".into(), String::new()),
        (None, _, crate::check::Verdict::BadOutput(w)) => ("bad-output".into(), w.clone()),
        (None, _, crate::check::Verdict::WrongAnswer(w)) => ("wrong-answer".into(), w.clone()),
    };
    match callgrind_total(&out) {
        Ok(ir) => {
            rec.counters.insert(IR.into(), ir as f64);
        }
        Err(e) if rec.ok() => {
            rec.status = "bad-output".into();
            rec.detail = format!("{e:#}");
        }
        Err(_) => {}
    }
    let _ = std::fs::remove_dir_all(&out);
    Ok(Some(rec))
}

/// A fresh directory for callgrind's files.
fn tempfile_dir() -> Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!(
        "actorbench-count-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Instructions per unit of a `count` session's two runs: `(Ir(large) - Ir(small)) /
/// (units(large) - units(small))`, or `None` when a run failed or the sizes are equal.
pub fn per_unit(data: &SessionData) -> Option<f64> {
    let [a, b] = data.runs.as_slice() else {
        return None;
    };
    let u = unit_of(&a.bench)?;
    let units = |r: &RunRecord| {
        let p = Params::parse_words(r.params.split_whitespace()).ok()?;
        (u.units)(&p)
    };
    let (ia, ib) = (a.counters.get(IR)?, b.counters.get(IR)?);
    let (ua, ub) = (units(a)?, units(b)?);
    (a.ok() && b.ok() && ub != ua).then(|| (ib - ia) / (ub - ua))
}

/// A `count` session as text: each size with its units and instruction total, and the
/// instructions per unit.
pub fn render(data: &SessionData) -> String {
    let Some(first) = data.runs.first() else {
        return "no runs were recorded in this count session\n".into();
    };
    let unit = unit_of(&first.bench).map_or("unit", |u| u.unit);
    let mut rows = vec![
        [
            "implementation",
            "cores",
            "parameters",
            "units",
            "instructions",
            "status",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>(),
    ];
    for r in &data.runs {
        let units = unit_of(&r.bench)
            .zip(Params::parse_words(r.params.split_whitespace()).ok())
            .and_then(|(u, p)| (u.units)(&p));
        rows.push(vec![
            r.implementation.clone(),
            r.cores.to_string(),
            r.params.clone(),
            units.map_or("-".into(), units::count),
            r.counters.get(IR).map_or("-".into(), |&v| units::count(v)),
            if r.ok() {
                r.status.clone()
            } else {
                format!("{}: {}", r.status, r.detail)
            },
        ]);
    }
    let mut out = format!(
        "{} under callgrind (instructions of the whole process tree)\n",
        first.bench
    );
    out.push_str(&table::align(
        &rows,
        &[false, true, false, true, true, false],
    ));
    match per_unit(data) {
        Some(v) => out.push_str(&format!(
            "instructions per {unit}: {v:.1} (the difference of the two totals over the difference of their units)\n"
        )),
        None => out.push_str(&format!(
            "instructions per {unit}: - (a run failed or has no count)\n"
        )),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_follow_the_benchmarks_definitions() {
        let p = |w: &str| Params::parse_words(w.split_whitespace()).unwrap();
        let units = |b: &str, w: &str| (unit_of(b).unwrap().units)(&p(w)).unwrap();
        // fibtree: one actor per call above fib(2): 1, 1, 3, 5, 9, ...
        assert_eq!(units("fibtree", "n=2"), 1.0);
        assert_eq!(units("fibtree", "n=3"), 3.0);
        assert_eq!(units("fibtree", "n=5"), 9.0);
        // docs/performance.md: fibtree n=30 is 1,664,079 actors; spreading depth=19
        // 1,048,575.
        assert_eq!(units("fibtree", "n=30"), 1_664_079.0);
        assert_eq!(units("spreading", "depth=19"), 1_048_575.0);
        assert_eq!(units("skynet", "size=1000 div=10"), 1111.0);
        assert_eq!(units("fannkuch", "n=5"), 120.0);
        assert_eq!(units("bang", "senders=10 messages=7"), 70.0);
        // The Savina benchmarks (docs/benchmarks.md): what their work parameter counts.
        assert_eq!(units("fjthrput", "actors=60 messages=2000"), 120_000.0);
        assert_eq!(units("fjcreate", "actors=20000"), 20_000.0);
        assert_eq!(
            units("concdict", "workers=20 messages=5000 write_pct=10"),
            100_000.0
        );
        assert_eq!(
            units(
                "concsll",
                "workers=20 messages=1000 write_pct=10 size_pct=1"
            ),
            20_000.0
        );
        assert_eq!(
            units(
                "bndbuffer",
                "buffer=50 producers=40 consumers=40 items=500 cost=25"
            ),
            20_000.0
        );
        assert_eq!(
            units("philosopher", "philosophers=20 rounds=5000"),
            100_000.0
        );
        assert_eq!(
            units("barber", "haircuts=1000 room=1000 arrival=1000 cut=1000"),
            1000.0
        );
        assert_eq!(units("cigsmok", "rounds=1000 smokers=200"), 1000.0);
        assert_eq!(
            units("logmap", "terms=10000 series=10 rate=34600 increment=25"),
            100_000.0
        );
        assert_eq!(
            units("banking", "accounts=1000 transactions=30000"),
            30_000.0
        );
        let sky = unit_of("skynet").unwrap();
        assert_eq!((sky.larger)(1000, &p("size=1000 div=10")), 10000);
        // Every benchmark of the contract has a unit, whose parameter is one of the
        // benchmark's own, and the larger size stays inside its range.
        for b in crate::contract::BENCHMARKS {
            let u = unit_of(b.name).unwrap_or_else(|| panic!("{} has no unit", b.name));
            let spec = b
                .param(u.vary)
                .unwrap_or_else(|| panic!("{}: {}", b.name, u.vary));
            assert!(
                spec.max >= (u.larger)(spec.min.max(1), &p("")),
                "{}",
                b.name
            );
        }
        assert!(unit_of("no-such-bench").is_none());
    }
}
