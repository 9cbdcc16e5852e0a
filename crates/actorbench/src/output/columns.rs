//! The columns of the per-cell table, as text: one header and one row per cell, shared by
//! the terminal table ([`super::table`]) and the Markdown export, so both say the same.
//!
//! Per cell: implementation, cores, median work time, median wall (process) time, median
//! start-up (wall - work), the half-width of the 95% interval of the chosen metric's
//! median (as a share of it) and its coefficient of variation, the ratio to the reference
//! (the fastest, or `--baseline`) with its 95% interval, CPU utilisation, peak RSS,
//! context switches, chameneos fairness when the group has it, the median of each event
//! counter the group's runs have ([`crate::counters`]), successful over measured
//! runs, and notes: what a reader must not miss about the cell (noisy, unresolved ratio,
//! two modes, start-up over 20% of its wall time).

use crate::counters::{self, Counter};
use crate::metric::Metric;
use crate::output::units;
use crate::summary::{CellSummary, Group};

/// Whether the group's table has the fairness column.
pub fn has_fairness(g: &Group) -> bool {
    g.cells.iter().any(|c| c.fairness_jain.is_some()) || g.bench == "chameneos"
}

/// The event counters any cell of the group has, in [`counters::ALL`]'s order.
pub fn counters_of(g: &Group) -> Vec<Counter> {
    counters::ALL
        .into_iter()
        .filter(|k| g.cells.iter().any(|c| c.counters.contains_key(k.name())))
        .collect()
}

/// A counter's median in a cell, as text (`-` when the cell lacks it).
pub fn counter_text(c: &CellSummary, k: Counter) -> String {
    match c.counters.get(k.name()) {
        Some(s) if k.is_time() => units::seconds(s.median),
        Some(s) => units::count(s.median),
        None => "-".into(),
    }
}

/// The header of a group's table.
pub fn header(g: &Group) -> Vec<String> {
    let mut h: Vec<String> = ["implementation", "cores", "work", "wall", "start-up"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    if g.metric == Metric::Cpu {
        h.push("CPU time".into());
    }
    h.push("CI95 ±".into());
    h.push("CV".into());
    h.push(format!("vs {} ({})", g.reference, g.metric.name()));
    h.push("ratio CI95".into());
    for s in ["CPU", "peak RSS", "ctx vol/invol"] {
        h.push(s.into());
    }
    if has_fairness(g) {
        h.push("fairness CV / Jain".into());
    }
    for k in counters_of(g) {
        h.push(k.short().into());
    }
    h.push("ok".into());
    h.push("notes".into());
    h
}

/// Which columns of [`header`] hold numbers (right-aligned).
pub fn numeric(g: &Group) -> Vec<bool> {
    header(g)
        .iter()
        .map(|h| !matches!(h.as_str(), "implementation" | "notes"))
        .collect()
}

/// One cell's row, in the order of [`header`].
pub fn row(g: &Group, c: &CellSummary) -> Vec<String> {
    let mut row = vec![
        c.implementation.clone(),
        c.cores.to_string(),
        units::seconds(c.work.median),
        units::seconds(c.wall.median),
        units::seconds(c.startup),
    ];
    if g.metric == Metric::Cpu {
        row.push(units::seconds(c.cpu_time.median));
    }
    let t = c.time(g.metric);
    row.push(if t.half_width().is_finite() {
        format!("±{}", units::percent1(t.half_width()))
    } else {
        "-".into()
    });
    row.push(units::percent1(t.cv));
    row.push(units::ratio(c.ratio));
    row.push(if c.ratio_low.is_finite() {
        format!("{:.2}-{:.2}", c.ratio_low, c.ratio_high)
    } else {
        "-".into()
    });
    row.push(units::percent(c.cpu_util));
    row.push(units::bytes(c.max_rss_bytes));
    row.push(format!(
        "{} / {}",
        units::count(c.voluntary_switches),
        units::count(c.involuntary_switches)
    ));
    if has_fairness(g) {
        row.push(match (c.fairness_cv, c.fairness_jain) {
            (Some(cv), Some(j)) => format!("{cv:.3} / {j:.4}"),
            _ => "-".into(),
        });
    }
    for k in counters_of(g) {
        row.push(counter_text(c, k));
    }
    row.push(format!("{}/{}", c.ok, c.measured));
    row.push(notes(g, c).join("; "));
    row
}

/// What a reader must not miss about a cell, in short words.
pub fn notes(g: &Group, c: &CellSummary) -> Vec<String> {
    let mut n = Vec::new();
    if c.noisy(g.metric) {
        n.push(format!(
            "noisy (CV {})",
            units::percent1(c.time(g.metric).cv)
        ));
    }
    if c.unresolved() {
        n.push(format!("unresolved vs {}", g.reference));
    }
    let t = c.time(g.metric);
    if t.short_coverage() {
        n.push(format!(
            "CI is the range, covers {} ({} runs)",
            units::percent1(t.ci_coverage),
            t.values.len()
        ));
    }
    if let Some(m) = &c.modes {
        n.push(format!(
            "two modes: {} runs near {}, {} near {}",
            m.low_n,
            g.metric.show(m.low),
            m.high_n,
            g.metric.show(m.high)
        ));
    }
    match c.stop.as_deref() {
        Some("max-reps") => n.push("max reps before the target interval".into()),
        Some("budget") => n.push("cut short by the budget".into()),
        Some("timeout") => n.push("stopped after a timeout".into()),
        Some("interrupted") => n.push("interrupted".into()),
        _ => {}
    }
    if c.startup_dominates() {
        n.push(format!(
            "start-up {} of wall",
            units::percent(c.startup_share)
        ));
    }
    n
}
