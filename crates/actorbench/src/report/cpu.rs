//! CPU utilisation, (user + system) / wall, against the same x as the time figure (thesis
//! Figs. 5, 8, 13): 100% is one core kept busy, 200% two.

use anyhow::Result;

use super::chart::{self, Unit};
use super::{BenchView, Figure, stem, time};

/// The CPU utilisation figure of a benchmark.
pub fn figure(v: &BenchView<'_>) -> Result<Figure> {
    let c = time::by_x(v, "CPU utilisation", Unit::Percent, |r| r.cpu_util);
    Ok(Figure {
        name: stem(&[&v.bench, "cpu"]),
        title: format!("{}: CPU utilisation", v.bench),
        caption: "(user + system CPU time) / wall time; 100% is one core busy for the whole run."
            .into(),
        svg: chart::line_chart(&c)?,
    })
}
