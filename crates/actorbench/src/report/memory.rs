//! Peak resident memory (`ru_maxrss`) against the same x as the time figure (thesis
//! Tables 3, 4 and 9 as a figure).

use anyhow::Result;

use super::chart::{self, Unit};
use super::{BenchView, Figure, stem, time};

/// The peak memory figure of a benchmark.
pub fn figure(v: &BenchView<'_>) -> Result<Figure> {
    let c = time::by_x(v, "peak RSS (MiB)", Unit::Plain, |r| {
        r.max_rss_bytes as f64 / (1024.0 * 1024.0)
    });
    Ok(Figure {
        name: stem(&[&v.bench, "memory"]),
        title: format!("{}: peak memory", v.bench),
        caption: "Peak resident set size of the whole process, from wait4 rusage.".into(),
        svg: chart::line_chart(&c)?,
    })
}
