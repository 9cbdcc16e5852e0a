//! The small commands over a stored database: `list`, `show`, `export` and `report`.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::export::{self, Format};
use crate::metric;
use crate::output::{table, units};
use crate::store::Store;
use crate::summary::{self, View};

/// Opens the database named by `--db`, or the default one beside the suite file.
pub fn open_db(db: Option<&Path>, suite: Option<&Path>) -> Result<Store> {
    let suite = match suite {
        Some(s) => Some(s.to_path_buf()),
        None => crate::suite::find_default(),
    };
    let store = Store::open_existing(&crate::session::db_path(db, suite.as_deref()))?;
    say_abandoned(&store);
    Ok(store)
}

/// `actorbench import SOURCE`: copies SOURCE's sessions into the store `--db` names
/// (created if needed), one line per session and a summary (see [`crate::store::import`]).
pub fn import(db: Option<&Path>, suite: Option<&Path>, source: &Path) -> Result<i32> {
    let from = Store::open_existing(source)?;
    say_abandoned(&from);
    let suite = match suite {
        Some(s) => Some(s.to_path_buf()),
        None => crate::suite::find_default(),
    };
    let to = Store::create(&crate::session::db_path(db, suite.as_deref()))?;
    say_abandoned(&to);
    let done = crate::store::import::import(&from, &to)?;
    for (a, b, runs) in &done.copied {
        println!("copied session {a} as {b} ({runs} runs)");
    }
    for (a, b) in &done.already {
        println!("session {a} is already there as {b}: skipped");
    }
    for a in &done.running {
        println!("session {a} is still running: not copied (import again once it has ended)");
    }
    let sessions = done.copied.len();
    let runs: usize = done.copied.iter().map(|c| c.2).sum();
    println!(
        "imported {sessions} session{} ({runs} runs) from {} into {}; {} already there",
        if sessions == 1 { "" } else { "s" },
        from.location(),
        to.location(),
        done.already.len()
    );
    Ok(0)
}

/// Says which sessions opening the store marked `abandoned` (their harness died).
pub fn say_abandoned(store: &Store) {
    for a in store.abandoned() {
        eprintln!(
            "session {} was left running by a harness that is gone: marked abandoned, its {} finished run{} kept",
            a.id,
            a.runs,
            if a.runs == 1 { "" } else { "s" }
        );
    }
}

/// Where the report goes unless told: `report/` beside an SQLite store, `results/report`
/// in the current directory for a PostgreSQL store.
pub fn default_report_dir(store: &Store) -> PathBuf {
    store
        .dir()
        .unwrap_or_else(|| PathBuf::from("results"))
        .join("report")
}

/// `actorbench list`: one line per session.
pub fn list(store: &Store) -> Result<i32> {
    let sessions = store.sessions()?;
    if sessions.is_empty() {
        println!("no sessions in {}", store.location());
        return Ok(0);
    }
    let mut rows = vec![
        [
            "session",
            "started",
            "status",
            "profile",
            "runs",
            "failed",
            "implementations",
            "commit",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>(),
    ];
    for s in &sessions {
        let (runs, failed) = store.run_counts(s.id)?;
        let impls: Vec<String> = store
            .impls(s.id)?
            .into_iter()
            .map(|i| {
                let mut notes = Vec::new();
                if !i.variant_of.is_empty() {
                    notes.push(format!("variant of {}", i.variant_of));
                }
                if i.status != "available" {
                    notes.push(i.status);
                }
                if notes.is_empty() {
                    i.name
                } else {
                    format!("{} ({})", i.name, notes.join(", "))
                }
            })
            .collect();
        rows.push(vec![
            s.id.to_string(),
            s.started_at.clone(),
            if s.busy.is_empty() {
                s.status.clone()
            } else {
                format!("{} (busy)", s.status)
            },
            if s.kind == "count" {
                format!("{} (count)", s.profile)
            } else {
                s.profile.clone()
            },
            runs.to_string(),
            failed.to_string(),
            impls.join(", "),
            s.git_commit.chars().take(12).collect(),
        ]);
    }
    print!(
        "{}",
        table::align(
            &rows,
            &[true, false, false, false, true, true, false, false]
        )
    );
    Ok(0)
}

/// The environment a session recorded, on one line; `None` for a session stored before
/// schema 4, which has none.
pub fn environment_line(s: &crate::store::SessionRecord) -> Option<String> {
    if s.harness_version.is_empty() {
        return None;
    }
    let others = s
        .others_cpu
        .map(|o| format!(", other processes {o:.2} CPUs"))
        .unwrap_or_default();
    Some(format!(
        "environment: governor {}, SMT {}, load {} before, {} after{others}; {}",
        s.cpu_governor,
        s.smt,
        s.load_before,
        s.load_after.as_deref().unwrap_or("?"),
        s.harness_version
    ))
}

/// The machine settings a session recorded (transparent huge pages, CPU boost, cgroup
/// CPU quota; see [`crate::machine`]), on one line; `None` before schema 5.
pub fn machine_line(s: &crate::store::SessionRecord) -> Option<String> {
    if s.thp.is_empty() {
        return None;
    }
    Some(format!(
        "machine: transparent huge pages {}, CPU boost {}, cgroup CPU quota {}",
        s.thp, s.cpu_boost, s.cgroup_cpu
    ))
}

/// `actorbench show [SESSION]`: the session's header and tables again.
pub fn show(store: &Store, session: Option<&str>, view: &View) -> Result<i32> {
    let s = store.resolve_session(session)?;
    let data = store.load(&s)?;
    view.check(&data.runs)?;
    println!(
        "session {} ({}{}): {} to {}, {} profile",
        s.id,
        s.status,
        if s.kind == "count" { ", count" } else { "" },
        s.started_at,
        s.ended_at.as_deref().unwrap_or("?"),
        s.profile
    );
    println!(
        "host: {}, {} cores, {}, {}; commit {}",
        s.host_cpu,
        s.host_cores,
        units::bytes(s.host_memory_bytes as f64),
        s.host_kernel,
        s.git_commit
    );
    println!("command: {}", s.command_line);
    if let Some(line) = environment_line(&s) {
        println!("{line}");
    }
    if let Some(line) = machine_line(&s) {
        println!("{line}");
    }
    if let Some(line) = crate::knobs::note(&s.env_mode, &s.env_knobs) {
        println!("{line}");
    }
    if !s.busy.is_empty() {
        println!("busy machine: {}; its figures may be noisy", s.busy);
    }
    for i in &data.implementations {
        let mut extra = if i.status == "available" {
            String::new()
        } else {
            format!(" [{}]", i.status)
        };
        if !i.variant_of.is_empty() {
            extra.push_str(&format!("; variant of {}", i.variant_of));
            if !i.env.is_empty() {
                extra.push_str(&format!(" with {}", i.env));
            }
        }
        if !i.binary_sha256.is_empty() {
            extra.push_str(&format!("; sha256 {}", i.binary_sha256));
        }
        println!(
            "  {} ({}): {}{extra}",
            i.name,
            i.language,
            if i.version.is_empty() {
                "-"
            } else {
                &i.version
            }
        );
    }
    println!();
    if s.kind == "count" {
        print!("{}", crate::count::render(&data));
    } else if data.runs.is_empty() {
        println!("no runs were recorded in this session");
    } else {
        if let Some(line) = repetitions_line(&data.session.settings) {
            println!("{line}");
        }
        print_tables(&data, view);
    }
    Ok(0)
}

/// `actorbench export [SESSION] --format F [--out FILE]`.
pub fn export(
    store: &Store,
    session: Option<&str>,
    format: Format,
    out: Option<PathBuf>,
    view: &View,
) -> Result<i32> {
    let s = store.resolve_session(session)?;
    let data = store.load(&s)?;
    view.check(&data.runs)?;
    let out = out.unwrap_or_else(|| PathBuf::from("-"));
    export::write(format, &data, view, &out)?;
    if out.as_os_str() != "-" {
        eprintln!("wrote {}", out.display());
    }
    Ok(0)
}

/// `actorbench report [SESSION] [--out DIR]`: writes the HTML report of a stored session.
pub fn report(
    store: &Store,
    session: Option<&str>,
    out: Option<PathBuf>,
    view: &View,
) -> Result<i32> {
    let s = store.resolve_session(session)?;
    let data = store.load(&s)?;
    view.check(&data.runs)?;
    if data.runs.is_empty() {
        crate::usage!(
            "session {} has no runs: nothing to report (status: {})",
            s.id,
            s.status
        );
    }
    if s.kind == "count" {
        crate::usage!(
            "session {} holds instruction counts (kind count), not timings: see `actorbench show {}`",
            s.id,
            s.id
        );
    }
    let dir = out.unwrap_or_else(|| default_report_dir(store));
    let histories = crate::history::for_report(store, &data, view)?;
    let index = crate::report::write(&data, view, &histories, &dir)?;
    println!("{}", index.display());
    Ok(0)
}

/// Prints a session's tables as `run` and `show` do: a line naming the metric the ratios
/// are on (and why, when it fell back to wall time), then the table per benchmark.
pub fn print_tables(data: &crate::store::SessionData, view: &View) {
    let (m, note) = metric::resolve(view.metric, &data.runs);
    if let Some(note) = note {
        println!("note: {note}");
    }
    println!(
        "ratios, intervals (of the median: order statistics, 95% from 6 runs, the range with its \
         coverage below; of ratios: seeded bootstrap) and CV on {} (--metric work|wall|cpu or an \
         event counter); \
         start-up = wall - work",
        m.label()
    );
    println!();
    print!("{}", table::render(&summary::summarise_session(data, view)));
}

/// `repetitions: 3 to 10 runs per cell ...; 40 cells reached the target ...`, from a
/// session's stored settings; `None` for sessions that predate it.
pub fn repetitions_line(settings: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(settings).ok()?;
    let r = &v["repetitions"];
    let mode = match r["mode"].as_str()? {
        "fixed" => format!("{} per cell (--reps)", r["reps"]),
        _ => format!(
            "{} to {} per cell, until the 95% interval is within ±{}% of the median",
            r["min_reps"], r["max_reps"], r["target_ci_pct"]
        ),
    };
    let budget = match (v["budget_s"].as_f64(), v["budget_from"].as_str()) {
        (Some(b), Some(from)) => format!("; budget {} ({from})", units::seconds(b)),
        _ => String::new(),
    };
    let outcome = v["outcome"]["stops"]
        .as_str()
        .map_or(String::new(), |s| format!("; {s}"));
    Some(format!("repetitions: {mode}{budget}{outcome}"))
}
