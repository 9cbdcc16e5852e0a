//! History across commits: each implementation's headline cell of a benchmark (its last
//! parameter set, highest core count) in every stored session up to the reported one, one
//! line per implementation against the session number, bars the 95% interval of each
//! median, and the change points found by E-divisive means ringed in red
//! ([`crate::history`]). Drawn only when at least two sessions have the cell.

use anyhow::Result;

use super::chart::{self, LineChart, Point, Series, Unit};
use super::{Figure, stem};
use crate::history::{History, Hosts, Query, load, session_host};
use crate::store::{SessionData, Store};
use crate::summary::View;

/// The history figure of one benchmark from its implementations' histories.
pub fn figure(histories: &[History], bench: &str) -> Result<Figure> {
    let mut marks = Vec::new();
    let series = histories
        .iter()
        .enumerate()
        .map(|(i, h)| {
            for c in &h.changes {
                let p = &h.points[c.at];
                marks.push((p.session as f64, p.spread.median));
            }
            Series {
                label: format!("{} ({}c)", h.implementation, h.cores),
                color: chart::color(i),
                bold: true,
                points: h
                    .points
                    .iter()
                    .map(|p| {
                        let s = &p.spread;
                        let (lo, hi) = if s.ci_low.is_finite() {
                            (s.ci_low, s.ci_high)
                        } else {
                            (s.min, s.max)
                        };
                        Point {
                            x: p.session as f64,
                            y: s.median,
                            lo,
                            hi,
                            failed: p.measured - p.ok,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let metric = histories.first().map_or("time", |h| h.metric.label());
    let params = histories.first().map_or("", |h| h.params.as_str());
    let c = LineChart {
        title: format!("{bench} ({params}): {metric} across sessions"),
        x_label: "session".into(),
        y_label: metric.into(),
        series,
        integer_x: true,
        y_unit: if histories.first().is_none_or(|h| h.metric.is_time()) {
            Unit::Seconds
        } else {
            Unit::Plain
        },
        y_from_zero: true,
        marks: Some(("change point".into(), marks)),
        ..Default::default()
    };
    Ok(Figure {
        name: stem(&[bench, "history"]),
        title: format!("{bench}: history across sessions"),
        caption: "Median per session with its 95% interval, one line per implementation at the headline cell; red \
                  rings mark change points (E-divisive means, p < 0.05)."
            .into(),
        svg: chart::line_chart(&c)?,
    })
}

/// The histories the report of `data` shows: per benchmark, each implementation's headline
/// cell (last parameter set, highest core count of the session) in every session up to
/// this one; only cells that two or more sessions ran.
pub fn for_report(
    store: &Store,
    data: &SessionData,
    view: &View,
) -> Result<Vec<(String, Vec<History>)>> {
    let mut out: Vec<(String, Vec<History>)> = Vec::new();
    for v in super::views(data, view) {
        let g = v.groups.last().expect("a view has a group");
        let k = v.cores.last().copied().unwrap_or(1);
        let mut hs = Vec::new();
        for imp in &v.implementations {
            let q = Query {
                bench: v.bench.clone(),
                implementation: imp.clone(),
                params: Some(g.params.clone()),
                cores: Some(k),
                metric: Some(v.metric),
                up_to: Some(data.session.id),
                // The session's own host (every host for one that names none).
                hosts: match session_host(&data.session) {
                    h if h.is_empty() => Hosts::All,
                    h => Hosts::Named(h),
                },
                profile: None,
                include_incomplete: false,
            };
            let h = load(store, &q)?;
            if h.points.len() >= 2 {
                hs.push(h);
            }
        }
        if !hs.is_empty() {
            out.push((v.bench.clone(), hs));
        }
    }
    Ok(out)
}
