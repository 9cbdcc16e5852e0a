//! Start-up per implementation and core count: how long each process ran before and after
//! the work it timed itself (`wall - seconds`: VM or JVM boot, loading code, shutdown and
//! exit).
//!
//! A cell's start-up is the median over its successful measured runs; an implementation's
//! figure at `k` cores is the median over its cells (every benchmark and parameter set) at
//! `k`, with a bar from the smallest to the largest cell. Drawn against cores, one line per
//! implementation, and tabulated by the page. Nothing is drawn for a session without work
//! times.

use anyhow::Result;

use super::Figure;
use super::chart::{self, LineChart, Point, Series, Unit};
use crate::stats;
use crate::store::SessionData;
use crate::summary;

/// One implementation's start-up at one core count.
#[derive(Debug, Clone)]
pub struct StartupRow {
    /// Implementation.
    pub implementation: String,
    /// Cores.
    pub cores: i64,
    /// Median over its cells of their median start-up, seconds.
    pub median: f64,
    /// Smallest cell's start-up.
    pub min: f64,
    /// Largest cell's start-up.
    pub max: f64,
    /// Median over its cells of start-up as a share of wall time.
    pub share: f64,
    /// Cells it is taken over.
    pub cells: usize,
}

/// Start-up rows, by implementation (first-seen order) then cores.
pub fn rows(data: &SessionData) -> Vec<StartupRow> {
    let cells: Vec<summary::CellSummary> = summary::summarise(&data.runs)
        .into_iter()
        .flat_map(|g| g.cells)
        .filter(|c| c.startup.is_finite())
        .collect();
    let mut keys: Vec<(String, i64)> = Vec::new();
    for c in &cells {
        let k = (c.implementation.clone(), c.cores);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys.sort_by_key(|(i, k)| (cells.iter().position(|c| &c.implementation == i), *k));
    keys.into_iter()
        .map(|(imp, k)| {
            let mine: Vec<&summary::CellSummary> = cells
                .iter()
                .filter(|c| c.implementation == imp && c.cores == k)
                .collect();
            let s: Vec<f64> = mine.iter().map(|c| c.startup).collect();
            let share: Vec<f64> = mine.iter().map(|c| c.startup_share).collect();
            StartupRow {
                implementation: imp,
                cores: k,
                median: stats::median(&s),
                min: stats::min(&s),
                max: stats::max(&s),
                share: stats::median(&share),
                cells: mine.len(),
            }
        })
        .collect()
}

/// The start-up figure of a session; `None` when it has no work times.
pub fn figure(data: &SessionData) -> Result<Option<Figure>> {
    let rows = rows(data);
    if rows.is_empty() {
        return Ok(None);
    }
    let mut impls: Vec<&str> = Vec::new();
    for r in &rows {
        if !impls.contains(&r.implementation.as_str()) {
            impls.push(&r.implementation);
        }
    }
    let series = impls
        .iter()
        .enumerate()
        .map(|(i, imp)| Series {
            label: imp.to_string(),
            color: chart::color(i),
            bold: true,
            points: rows
                .iter()
                .filter(|r| r.implementation == *imp)
                .map(|r| Point {
                    x: r.cores as f64,
                    y: r.median,
                    lo: r.min,
                    hi: r.max,
                    failed: 0,
                })
                .collect(),
        })
        .collect();
    let c = LineChart {
        title: "start-up (wall - work)".into(),
        x_label: "cores".into(),
        y_label: "start-up".into(),
        series,
        integer_x: true,
        y_unit: Unit::Seconds,
        y_from_zero: true,
        ..Default::default()
    };
    Ok(Some(Figure {
        name: "startup".into(),
        title: "Start-up per implementation and core count".into(),
        caption: "Process wall time minus the program's own work time (seconds=): VM boot, loading, shutdown. \
                  Median over the benchmarks' cells; bars span the smallest to the largest cell."
            .into(),
        svg: chart::line_chart(&c)?,
    }))
}
