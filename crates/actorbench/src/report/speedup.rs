//! Speedup and parallel efficiency against cores (thesis Figs. 6, 9, 14).
//!
//! Times are the view's metric (work time by default). With `k0` the smallest core count
//! run (normally 1), speedup at `k` is
//! `T(k0) / T(k)` of the medians, scaled by `k0` so that the ideal line is `y = k`;
//! efficiency is speedup / k (ideal 1). The bars span the extreme ratios
//! `min T(k0) / max T(k)` to `max T(k0) / min T(k)`. With a sweep, the largest parameter
//! set is used (where parallelism has the most to work with). Nothing is drawn when the
//! session ran one core count.

use anyhow::Result;

use super::chart::{self, LineChart, Point, Series, Unit};
use super::{BenchView, Figure, stem};
use crate::stats;

/// Speedup and efficiency figures of a benchmark (none with a single core count).
pub fn figures(v: &BenchView<'_>) -> Result<Vec<Figure>> {
    if v.cores.len() < 2 {
        return Ok(Vec::new());
    }
    let g = v.groups.last().expect("a view has a group");
    let k0 = v.cores[0];
    let mut speedup = Vec::new();
    let mut efficiency = Vec::new();
    for imp in &v.implementations {
        let walls = |k: i64| {
            v.ok_runs(&g.params, imp, k)
                .iter()
                .filter_map(|r| v.metric.of(r))
                .collect::<Vec<f64>>()
        };
        let base = walls(k0);
        let mut sp = Vec::new();
        let mut ef = Vec::new();
        for &k in &v.cores {
            let w = walls(k);
            let failed = v
                .runs
                .iter()
                .filter(|r| {
                    r.params == g.params && &r.implementation == imp && r.cores == k && !r.ok()
                })
                .count();
            let scale = k0 as f64;
            let (y, lo, hi) = if base.is_empty() || w.is_empty() {
                (f64::NAN, f64::NAN, f64::NAN)
            } else {
                (
                    scale * stats::median(&base) / stats::median(&w),
                    scale * stats::min(&base) / stats::max(&w),
                    scale * stats::max(&base) / stats::min(&w),
                )
            };
            let failed = failed + usize::from(base.is_empty() && k != k0);
            let kf = k as f64;
            sp.push(Point {
                x: kf,
                y,
                lo,
                hi,
                failed,
            });
            ef.push(Point {
                x: kf,
                y: y / kf,
                lo: lo / kf,
                hi: hi / kf,
                failed,
            });
        }
        let color = chart::color(v.color_of(imp));
        speedup.push(Series {
            label: imp.clone(),
            color,
            bold: true,
            points: sp,
        });
        efficiency.push(Series {
            label: imp.clone(),
            color,
            bold: true,
            points: ef,
        });
    }
    let ks: Vec<f64> = v.cores.iter().map(|&k| k as f64).collect();
    let sp_chart = LineChart {
        title: format!("{} ({}): speedup", v.bench, g.params),
        x_label: "cores".into(),
        y_label: format!("speedup T({k0})/T(k)"),
        series: speedup,
        ideal: Some(("ideal".into(), ks.iter().map(|&k| (k, k)).collect())),
        integer_x: true,
        y_unit: Unit::Plain,
        y_from_zero: true,
        marks: None,
    };
    let ef_chart = LineChart {
        title: format!("{} ({}): parallel efficiency", v.bench, g.params),
        x_label: "cores".into(),
        y_label: "efficiency (speedup / cores)".into(),
        series: efficiency,
        ideal: Some(("ideal".into(), ks.iter().map(|&k| (k, 1.0)).collect())),
        integer_x: true,
        y_unit: Unit::Percent,
        y_from_zero: true,
        marks: None,
    };
    Ok(vec![
        Figure {
            name: stem(&[&v.bench, "speedup"]),
            title: format!("{}: speedup", v.bench),
            caption: format!(
                "Median T({k0})/T(k) with the ideal line; bars span the extreme ratios."
            ),
            svg: chart::line_chart(&sp_chart)?,
        },
        Figure {
            name: stem(&[&v.bench, "efficiency"]),
            title: format!("{}: parallel efficiency", v.bench),
            caption: "Speedup divided by cores; 100% is perfect scaling.".into(),
            svg: chart::line_chart(&ef_chart)?,
        },
    ])
}
