//! Time against the swept parameter (thesis Figs. 4, 7, 12), one line per implementation
//! at the highest core count (bold) and the lowest (thin), each point the median with the
//! order-statistic interval of the median as its bar (95%, or the range with less coverage
//! below 6 runs; see [`crate::stats::median_interval`]). A session without a sweep gets time against cores. The time is the view's
//! metric: work time unless another was chosen.

use anyhow::Result;

use super::chart::{self, LineChart, Point, Series, Unit};
use super::{BenchView, Figure, stem};
use crate::summary::Spread;

/// The time figure of a benchmark.
pub fn figure(v: &BenchView<'_>) -> Result<Figure> {
    let metric = v.metric;
    let unit = if metric.is_time() {
        Unit::Seconds
    } else {
        Unit::Plain
    };
    let c = by_x(v, metric.label(), unit, move |r| {
        metric.of(r).unwrap_or(f64::NAN)
    });
    let what = match &v.swept {
        Some(p) => format!("against {p}"),
        None => "against cores".into(),
    };
    Ok(Figure {
        name: stem(&[&v.bench, "time"]),
        title: format!("{}: {} {what}", v.bench, metric.label()),
        caption: "Median of the measured runs; bars are the order-statistic interval of the median (95% from 6 runs; \
                  below, the range of the runs, which covers less: 75% with 3); red crosses mark failed runs."
            .into(),
        svg: chart::line_chart(&c)?,
    })
}

/// A chart of `value` against the swept parameter (one series per implementation and
/// core count) or, without a sweep, against cores (one series per implementation).
pub fn by_x(
    v: &BenchView<'_>,
    what: &str,
    unit: Unit,
    value: impl Fn(&crate::store::RunRecord) -> f64,
) -> LineChart {
    let mut series = Vec::new();
    let max_cores = v.cores.last().copied().unwrap_or(1);
    let point = |params: &str, imp: &str, cores: i64, x: f64| {
        let runs = v.ok_runs(params, imp, cores);
        let vals: Vec<f64> = runs
            .iter()
            .map(|r| value(r))
            .filter(|x| x.is_finite())
            .collect();
        let failed = v
            .runs
            .iter()
            .filter(|r| {
                r.params == params && r.implementation == imp && r.cores == cores && !r.ok()
            })
            .count();
        let s = Spread::of(vals);
        let (lo, hi) = if s.ci_low.is_finite() {
            (s.ci_low, s.ci_high)
        } else {
            (s.min, s.max)
        };
        Point {
            x,
            y: s.median,
            lo,
            hi,
            failed,
        }
    };
    match &v.swept {
        Some(p) => {
            for imp in &v.implementations {
                // The highest core count bold and the lowest thin: more would be unreadable.
                let mut shown = vec![max_cores];
                if let Some(&lo) = v.cores.first().filter(|&&lo| lo != max_cores) {
                    shown.push(lo);
                }
                for k in shown {
                    let points: Vec<Point> = v
                        .groups
                        .iter()
                        .map(|g| point(&g.params, imp, k, v.x_of(g)))
                        .collect();
                    series.push(Series {
                        label: format!("{imp} ({k} core{})", if k == 1 { "" } else { "s" }),
                        color: chart::color(v.color_of(imp)),
                        bold: k == max_cores,
                        points,
                    });
                }
            }
            LineChart {
                title: format!("{}: {what}", v.bench),
                x_label: p.clone(),
                y_label: what.into(),
                series,
                y_unit: unit,
                y_from_zero: true,
                ..Default::default()
            }
        }
        None => {
            let g = &v.groups[0];
            for imp in &v.implementations {
                let points: Vec<Point> = v
                    .cores
                    .iter()
                    .map(|&k| point(&g.params, imp, k, k as f64))
                    .collect();
                series.push(Series {
                    label: imp.clone(),
                    color: chart::color(v.color_of(imp)),
                    bold: true,
                    points,
                });
            }
            LineChart {
                title: format!("{} ({}): {what}", v.bench, g.params),
                x_label: "cores".into(),
                y_label: what.into(),
                series,
                integer_x: true,
                y_unit: unit,
                y_from_zero: true,
                ..Default::default()
            }
        }
    }
}
