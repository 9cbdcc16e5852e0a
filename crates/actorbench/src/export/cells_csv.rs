//! Cells CSV export: one row per cell (benchmark, parameters, implementation, cores) with
//! its summary on the chosen metric: runs, median and its order-statistic interval with
//! that interval's coverage (`ci_coverage`, 0.95 or more from 6 runs), min,
//! max, coefficient of variation, the ratio to the reference (fastest or `--baseline`)
//! with its interval, the noisy and unresolved flags, and the work, wall and start-up
//! medians, and last whether its runs split into two modes ([`crate::modes`]). With an
//! event counter as the metric, the `median_s` to `max_s` columns hold that counter's
//! values (a count, or seconds for task-clock). For spreadsheets that want the table
//! rather than every run.

use anyhow::Result;

use super::Exporter;
use crate::store::SessionData;
use crate::summary::{self, View};

/// The cells CSV exporter.
pub struct CellsCsv;

const HEADER: &[&str] = &[
    "bench",
    "params",
    "implementation",
    "cores",
    "metric",
    "ok",
    "measured",
    "median_s",
    "ci_low_s",
    "ci_high_s",
    "ci_coverage",
    "min_s",
    "max_s",
    "cv",
    "reference",
    "ratio",
    "ratio_low",
    "ratio_high",
    "noisy",
    "unresolved",
    "work_median_s",
    "wall_median_s",
    "startup_median_s",
    "two_modes",
];

impl Exporter for CellsCsv {
    fn export(&self, data: &SessionData, view: &View) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(HEADER)?;
        let num = |v: f64| {
            if v.is_finite() {
                v.to_string()
            } else {
                String::new()
            }
        };
        for g in summary::summarise_session(data, view) {
            for c in &g.cells {
                let t = c.time(g.metric);
                w.write_record([
                    c.bench.clone(),
                    c.params.clone(),
                    c.implementation.clone(),
                    c.cores.to_string(),
                    g.metric.name().to_string(),
                    c.ok.to_string(),
                    c.measured.to_string(),
                    num(t.median),
                    num(t.ci_low),
                    num(t.ci_high),
                    num(t.ci_coverage),
                    num(t.min),
                    num(t.max),
                    num(t.cv),
                    g.reference.clone(),
                    num(c.ratio),
                    num(c.ratio_low),
                    num(c.ratio_high),
                    c.noisy(g.metric).to_string(),
                    c.unresolved().to_string(),
                    num(c.work.median),
                    num(c.wall.median),
                    num(c.startup),
                    c.modes.is_some().to_string(),
                ])?;
            }
        }
        Ok(String::from_utf8(w.into_inner()?)?)
    }
}
