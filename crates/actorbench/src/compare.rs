//! `actorbench compare A B`: did B get slower or faster than A?
//!
//! Cells (benchmark, parameters, implementation, cores) are matched between the two
//! sessions. For each cell measured successfully in both, the ratio of medians B/A is
//! given with a two-sided Mann-Whitney U test on the wall times (exact for small samples,
//! see [`crate::stats::mann_whitney`]). A cell is a *regression* when B is slower by more
//! than the threshold and the test is significant (p < alpha), an *improvement* in the
//! mirror case, and *unchanged* otherwise. A cell that succeeded in A and has no
//! successful run in B is *broken*, which also counts as a regression. Cells in only one
//! session are listed. The exit status is 1 when anything regressed, so CI can gate on it.
//! With one run per side no difference can be significant, which the output says.

use std::fmt::Write;

use anyhow::Result;

use crate::error::UsageError;
use crate::metric::{self, Metric};
use crate::output::{table, units};
use crate::stats;
use crate::store::{SessionData, Store};
use crate::summary::{self, CellSummary, View};

/// Output format of `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// Aligned text for the terminal.
    Text,
    /// A Markdown table fit for a pull request.
    Markdown,
}

/// How one cell changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Benchmark.
    pub bench: String,
    /// Parameters.
    pub params: String,
    /// Implementation.
    pub implementation: String,
    /// Cores.
    pub cores: i64,
    /// Median wall in A.
    pub a: f64,
    /// Median wall in B.
    pub b: f64,
    /// B / A.
    pub ratio: f64,
    /// Mann-Whitney p-value (1 when not computable).
    pub p: f64,
    /// `regression`, `improvement`, `unchanged`, `broken`, `fixed`, `only in A`, `only in B`.
    pub verdict: &'static str,
}

/// Compares two loaded sessions.
pub fn changes(
    a: &SessionData,
    b: &SessionData,
    metric: Metric,
    threshold_pct: f64,
    alpha: f64,
) -> Vec<Change> {
    let cells = |d: &SessionData| -> Vec<CellSummary> {
        summary::summarise_with(
            &d.runs,
            &View {
                metric: Some(metric),
            },
        )
        .into_iter()
        .flat_map(|g| g.cells)
        .collect()
    };
    let (ca, cb) = (cells(a), cells(b));
    let same = |x: &CellSummary, y: &CellSummary| {
        x.bench == y.bench
            && x.params == y.params
            && x.implementation == y.implementation
            && x.cores == y.cores
    };
    let t = threshold_pct / 100.0;
    let mut out = Vec::new();
    for x in &ca {
        let base = Change {
            bench: x.bench.clone(),
            params: x.params.clone(),
            implementation: x.implementation.clone(),
            cores: x.cores,
            a: x.time(metric).median,
            b: f64::NAN,
            ratio: f64::NAN,
            p: 1.0,
            verdict: "only in A",
        };
        let Some(y) = cb.iter().find(|y| same(x, y)) else {
            out.push(base);
            continue;
        };
        let mut c = Change {
            b: y.time(metric).median,
            ..base
        };
        c.verdict = match (
            x.time(metric).values.is_empty(),
            y.time(metric).values.is_empty(),
        ) {
            (true, true) => "failing in both",
            (false, true) => "broken",
            (true, false) => "fixed",
            (false, false) => {
                c.ratio = y.time(metric).median / x.time(metric).median;
                c.p = stats::mann_whitney(&x.time(metric).values, &y.time(metric).values)
                    .map_or(1.0, |m| m.p);
                if c.p < alpha && c.ratio > 1.0 + t {
                    "regression"
                } else if c.p < alpha && c.ratio < 1.0 - t {
                    "improvement"
                } else {
                    "unchanged"
                }
            }
        };
        out.push(c);
    }
    for y in cb.iter().filter(|y| !ca.iter().any(|x| same(x, y))) {
        out.push(Change {
            bench: y.bench.clone(),
            params: y.params.clone(),
            implementation: y.implementation.clone(),
            cores: y.cores,
            a: f64::NAN,
            b: y.time(metric).median,
            ratio: f64::NAN,
            p: 1.0,
            verdict: "only in B",
        });
    }
    out
}

/// Whether a change fails the gate.
pub fn is_regression(c: &Change) -> bool {
    matches!(c.verdict, "regression" | "broken")
}

/// `actorbench compare`: prints the comparison; exit 1 when anything regressed.
pub fn run(
    store: &Store,
    a: &str,
    b: &str,
    metric: Option<Metric>,
    threshold_pct: f64,
    alpha: f64,
    format: CompareFormat,
) -> Result<i32> {
    if !(threshold_pct.is_finite() && threshold_pct >= 0.0) {
        crate::usage!("--threshold {threshold_pct}: give a non-negative percentage");
    }
    if !(alpha > 0.0 && alpha < 1.0) {
        crate::usage!("--alpha {alpha}: give a significance level between 0 and 1");
    }
    let load = |arg: &str| -> Result<SessionData> {
        let s = store.resolve_session(Some(arg))?;
        let d = store.load(&s)?;
        if d.runs.is_empty() {
            return Err(UsageError::new(format!("session {} has no runs to compare", s.id)).into());
        }
        Ok(d)
    };
    let (da, db) = (load(a)?, load(b)?);
    let both: Vec<_> = da.runs.iter().chain(&db.runs).cloned().collect();
    let (metric, _) = metric::resolve(metric, &both);
    let ch = changes(&da, &db, metric, threshold_pct, alpha);
    let min_n = |d: &SessionData| {
        summary::summarise(&d.runs)
            .iter()
            .flat_map(|g| g.cells.iter().map(|c| c.ok))
            .max()
            .unwrap_or(0)
    };
    let few = min_n(&da) < 4 || min_n(&db) < 4;
    let regressions = ch.iter().filter(|c| is_regression(c)).count();
    let improvements = ch.iter().filter(|c| c.verdict == "improvement").count();
    let title = format!(
        "Session {} (A) vs session {} (B): {regressions} regression{}, {improvements} improvement{} (threshold {threshold_pct}%, p < {alpha}, Mann-Whitney U)",
        da.session.id,
        db.session.id,
        if regressions == 1 { "" } else { "s" },
        if improvements == 1 { "" } else { "s" },
    );
    let fmt_p = |p: f64| {
        if p < 0.001 {
            "<0.001".to_string()
        } else {
            format!("{p:.3}")
        }
    };
    let fmt_r = |r: f64| {
        if r.is_finite() {
            format!("{:+.1}%", (r - 1.0) * 100.0)
        } else {
            "-".into()
        }
    };
    match format {
        CompareFormat::Text => {
            println!("{title}");
            let mut rows = vec![
                [
                    "benchmark",
                    "parameters",
                    "implementation",
                    "cores",
                    "A median",
                    "B median",
                    "change",
                    "p",
                    "verdict",
                ]
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
            ];
            for c in &ch {
                rows.push(vec![
                    c.bench.clone(),
                    c.params.clone(),
                    c.implementation.clone(),
                    c.cores.to_string(),
                    units::seconds(c.a),
                    units::seconds(c.b),
                    fmt_r(c.ratio),
                    fmt_p(c.p),
                    c.verdict.to_uppercase_if(is_regression(c)),
                ]);
            }
            print!(
                "{}",
                table::align(
                    &rows,
                    &[false, false, false, true, true, true, true, true, false]
                )
            );
        }
        CompareFormat::Markdown => {
            let mut s = format!(
                "### {title}\n\n| benchmark | parameters | implementation | cores | A median | B median | change | p | verdict |\n|---|---|---|---:|---:|---:|---:|---:|---|\n"
            );
            for c in &ch {
                let verdict = if is_regression(c) {
                    format!("**{}**", c.verdict)
                } else {
                    c.verdict.to_string()
                };
                let _ = writeln!(
                    s,
                    "| {} | `{}` | {} | {} | {} | {} | {} | {} | {verdict} |",
                    c.bench,
                    c.params,
                    c.implementation,
                    c.cores,
                    units::seconds(c.a),
                    units::seconds(c.b),
                    fmt_r(c.ratio),
                    fmt_p(c.p)
                );
            }
            print!("{s}");
        }
    }
    if few {
        println!(
            "note: fewer than 4 successful runs per cell on a side: with so few, no difference can reach p < 0.05 (use --reps 5)"
        );
    }
    Ok(if regressions > 0 { 1 } else { 0 })
}

trait Shout {
    fn to_uppercase_if(&self, yes: bool) -> String;
}

impl Shout for &str {
    fn to_uppercase_if(&self, yes: bool) -> String {
        if yes {
            self.to_uppercase()
        } else {
            self.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{RunRecord, SessionRecord};

    fn session(id: i64, walls: &[f64], status: &str) -> SessionData {
        SessionData {
            session: SessionRecord {
                id,
                ..Default::default()
            },
            implementations: vec![],
            cells: vec![],
            runs: walls
                .iter()
                .map(|&w| RunRecord {
                    implementation: "x".into(),
                    bench: "b".into(),
                    params: "n=1".into(),
                    cores: 1,
                    status: status.into(),
                    wall_s: w,
                    ..Default::default()
                })
                .collect(),
        }
    }

    #[test]
    fn flags_significant_regressions_over_the_threshold() {
        let a = session(1, &[1.0, 1.01, 0.99, 1.02, 0.98], "ok");
        let slower = session(2, &[1.5, 1.52, 1.49, 1.51, 1.48], "ok");
        let c = changes(&a, &slower, Metric::Wall, 5.0, 0.05);
        assert_eq!(c[0].verdict, "regression");
        assert!(is_regression(&c[0]));
        let faster = session(3, &[0.5, 0.51, 0.49, 0.52, 0.48], "ok");
        assert_eq!(
            changes(&a, &faster, Metric::Wall, 5.0, 0.05)[0].verdict,
            "improvement"
        );
        let noise = session(4, &[1.0, 1.02, 0.97, 1.01, 0.99], "ok");
        assert_eq!(
            changes(&a, &noise, Metric::Wall, 5.0, 0.05)[0].verdict,
            "unchanged"
        );
        let slightly = session(5, &[1.03, 1.04, 1.03, 1.05, 1.04], "ok");
        assert_eq!(
            changes(&a, &slightly, Metric::Wall, 5.0, 0.05)[0].verdict,
            "unchanged",
            "under the threshold"
        );
        let broken = session(6, &[1.0], "timeout");
        assert_eq!(
            changes(&a, &broken, Metric::Wall, 5.0, 0.05)[0].verdict,
            "broken"
        );
    }
}
