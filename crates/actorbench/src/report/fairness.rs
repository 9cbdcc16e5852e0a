//! Chameneos fairness (thesis Figs. 10, 11 and Table 7): box plots of meetings per
//! creature, pooled over the measured runs, per implementation and core count, against
//! the ideal share 2M/C (dashed); and the table of standard deviations, coefficients of
//! variation and Jain's indices (medians over runs), rendered by the page.

use anyhow::Result;

use super::chart::{self, BoxData};
use super::{BenchView, Figure, stem};
use crate::params::Params;
use crate::stats;

/// One row of the fairness table.
#[derive(Debug, Clone)]
pub struct FairnessRow {
    /// Parameters.
    pub params: String,
    /// Implementation.
    pub implementation: String,
    /// Cores.
    pub cores: i64,
    /// Median stddev.
    pub stddev: f64,
    /// Median coefficient of variation.
    pub cv: f64,
    /// Median Jain's index.
    pub jain: f64,
    /// Smallest and largest count over the runs, as fractions of the ideal.
    pub min_max_of_ideal: (f64, f64),
    /// Runs that counted.
    pub runs: usize,
}

/// The box-plot figures (one per parameter set) of chameneos; none for other benchmarks.
pub fn figures(v: &BenchView<'_>) -> Result<Vec<Figure>> {
    if v.bench != "chameneos" {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for (i, g) in v.groups.iter().enumerate() {
        let p = Params::parse_words(g.params.split_whitespace()).unwrap_or_default();
        let ideal = 2.0 * p.get("meetings").unwrap_or(0) as f64
            / p.get("creatures").unwrap_or(1).max(1) as f64;
        let mut boxes = Vec::new();
        for imp in &v.implementations {
            for &k in &v.cores {
                let values: Vec<f64> = v
                    .ok_runs(&g.params, imp, k)
                    .iter()
                    .filter_map(|r| r.counts.as_deref())
                    .flat_map(|c| c.split(',').filter_map(|x| x.parse::<f64>().ok()))
                    .collect();
                boxes.push(BoxData {
                    label: format!("{imp} ×{k}"),
                    color: chart::color(v.color_of(imp)),
                    values,
                });
            }
        }
        out.push(Figure {
            name: stem(&[&v.bench, "fairness", &i.to_string()]),
            title: format!("{} ({}): meetings per creature", v.bench, g.params),
            caption: "Boxes span the quartiles with the median marked, whiskers reach min and max, pooled over the \
                      measured runs; the dashed line is the ideal 2M/C; ×k is the core count; a red cross means no \
                      successful run."
                .into(),
            svg: chart::box_chart(
                &format!("{}: meetings per creature ({})", v.bench, g.params),
                "meetings per creature",
                &boxes,
                Some((format!("ideal 2M/C = {}", chart::short(ideal)), ideal)),
            )?,
        });
    }
    Ok(out)
}

/// The fairness table rows of a chameneos view.
pub fn table(v: &BenchView<'_>) -> Vec<FairnessRow> {
    let mut rows = Vec::new();
    if v.bench != "chameneos" {
        return rows;
    }
    for g in &v.groups {
        for imp in &v.implementations {
            for &k in &v.cores {
                let runs = v.ok_runs(&g.params, imp, k);
                let col = |f: &dyn Fn(&crate::store::RunRecord) -> Option<f64>| {
                    stats::median(&runs.iter().filter_map(|r| f(r)).collect::<Vec<f64>>())
                };
                let min_frac = runs
                    .iter()
                    .filter_map(|r| {
                        Some(r.fairness_min? as f64 / r.fairness_ideal.filter(|i| *i > 0.0)?)
                    })
                    .fold(f64::NAN, f64::min);
                let max_frac = runs
                    .iter()
                    .filter_map(|r| {
                        Some(r.fairness_max? as f64 / r.fairness_ideal.filter(|i| *i > 0.0)?)
                    })
                    .fold(f64::NAN, f64::max);
                rows.push(FairnessRow {
                    params: g.params.clone(),
                    implementation: imp.clone(),
                    cores: k,
                    stddev: col(&|r| r.fairness_stddev),
                    cv: col(&|r| r.fairness_cv),
                    jain: col(&|r| r.fairness_jain),
                    min_max_of_ideal: (min_frac, max_frac),
                    runs: runs.len(),
                });
            }
        }
    }
    rows
}
