//! A stored session told in words, as `run`, `show` and the report tell it: its header
//! lines (the environment, the machine settings and the repetitions it recorded), its
//! tables, and the note on the sessions that opening a store found abandoned.

use crate::metric;
use crate::output::{table, units};
use crate::store::{SessionData, SessionRecord, Store};
use crate::summary::{self, View};

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

/// The environment a session recorded, on one line; `None` for a session stored before
/// schema 4, which has none.
pub fn environment_line(s: &SessionRecord) -> Option<String> {
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
pub fn machine_line(s: &SessionRecord) -> Option<String> {
    if s.thp.is_empty() {
        return None;
    }
    Some(format!(
        "machine: transparent huge pages {}, CPU boost {}, cgroup CPU quota {}",
        s.thp, s.cpu_boost, s.cgroup_cpu
    ))
}

/// Prints a session's tables as `run` and `show` do: a line naming the metric the ratios
/// are on (and why, when it fell back to wall time), then the table per benchmark.
pub fn print_tables(data: &SessionData, view: &View) {
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
