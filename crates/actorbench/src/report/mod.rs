//! The report: the thesis's figures, generated from the results store.
//!
//! `write` turns one stored session into `index.html` (self-contained: inline SVG and
//! CSS, no script, no network) plus one `.svg` file per figure, in a directory. For each
//! benchmark it draws:
//!
//! - wall time against the swept parameter (or against cores, when the session ran one
//!   parameter set), one line per implementation ([`time`]; thesis Figs. 4, 7, 12);
//! - speedup T(k0)/T(k) and parallel efficiency against cores with the ideal line
//!   ([`speedup`]; Figs. 6, 9, 14), when the session ran more than one core count;
//! - CPU utilisation ([`cpu`]; Figs. 5, 8, 13) and peak memory ([`memory`]; Tables 3, 4,
//!   9) against the same x as the time figure;
//! - for chameneos, box plots of meetings per creature and the standard deviation table
//!   ([`fairness`]; Figs. 10, 11 and Table 7).
//!
//! Times are the chosen metric's (work time by default, see [`crate::metric`]). Once per
//! session, [`startup`] draws each implementation's start-up (wall - work) against cores.
//!
//! Every point carries its min-max spread and every failure is marked ([`chart`]). The
//! page ([`page`]) opens with a summary: the median time per benchmark and
//! implementation, its ratio to the fastest (coloured), and each implementation's
//! geometric mean of ratios; then the host, versions, commands, date and commit.
//!
//! Unless told, the report goes to [`default_report_dir`]; the flame graphs that
//! `actorbench profile` left in its [`PROFILES`] subdirectory are linked ([`profiles`]),
//! and [`history::for_report`] gathers the cells' histories the page shows.

pub mod chart;
pub mod cpu;
pub mod fairness;
pub mod history;
pub mod memory;
pub mod page;
pub mod speedup;
pub mod startup;
pub mod time;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::metric::Metric;
use crate::params::Params;
use crate::store::{RunRecord, SessionData, Store};
use crate::summary::{self, Group, View};

/// One drawn figure.
#[derive(Debug, Clone)]
pub struct Figure {
    /// File stem, unique in the report (`threadring-time`).
    pub name: String,
    /// Heading.
    pub title: String,
    /// One sentence under it.
    pub caption: String,
    /// The SVG document.
    pub svg: String,
}

/// What the figures of one benchmark are drawn from.
pub struct BenchView<'a> {
    /// Benchmark.
    pub bench: String,
    /// Its parameter sets, in the order they ran.
    pub groups: Vec<Group>,
    /// The parameter that varies across the sets, if more than one set ran.
    pub swept: Option<String>,
    /// Implementations in session order.
    pub implementations: Vec<String>,
    /// Core counts, ascending.
    pub cores: Vec<i64>,
    /// Every run of this benchmark.
    pub runs: Vec<&'a RunRecord>,
    /// The time the figures show.
    pub metric: Metric,
}

impl<'a> BenchView<'a> {
    /// The value of the swept parameter in a group.
    pub fn x_of(&self, g: &Group) -> f64 {
        let p = Params::parse_words(g.params.split_whitespace()).unwrap_or_default();
        self.swept
            .as_deref()
            .and_then(|s| p.get(s))
            .map_or(0.0, |v| v as f64)
    }

    /// Successful measured runs of one cell.
    pub fn ok_runs(&self, params: &str, implementation: &str, cores: i64) -> Vec<&'a RunRecord> {
        self.runs
            .iter()
            .copied()
            .filter(|r| {
                r.params == params && r.implementation == implementation && r.cores == cores
            })
            .filter(|r| r.ok() && !r.warmup)
            .collect()
    }

    /// The colour index of an implementation.
    pub fn color_of(&self, implementation: &str) -> usize {
        self.implementations
            .iter()
            .position(|i| i == implementation)
            .unwrap_or(0)
    }
}

/// Splits a session into per-benchmark views.
pub fn views<'a>(data: &'a SessionData, view: &View) -> Vec<BenchView<'a>> {
    let groups = summary::summarise_session(data, view);
    let (metric, _) = crate::metric::resolve(view.metric, &data.runs);
    let mut implementations: Vec<String> = Vec::new();
    for r in &data.runs {
        if !implementations.contains(&r.implementation) {
            implementations.push(r.implementation.clone());
        }
    }
    let mut out: Vec<BenchView<'_>> = Vec::new();
    for g in groups {
        match out.iter_mut().find(|v| v.bench == g.bench) {
            Some(v) => v.groups.push(g),
            None => out.push(BenchView {
                bench: g.bench.clone(),
                runs: data.runs.iter().filter(|r| r.bench == g.bench).collect(),
                groups: vec![g],
                swept: None,
                implementations: implementations.clone(),
                cores: Vec::new(),
                metric,
            }),
        }
    }
    for v in &mut out {
        let sets: Vec<Params> = v
            .groups
            .iter()
            .map(|g| Params::parse_words(g.params.split_whitespace()).unwrap_or_default())
            .collect();
        if sets.len() > 1 {
            v.swept = sets[0]
                .iter()
                .map(|(k, _)| k.to_string())
                .find(|k| sets.iter().any(|s| s.get(k) != sets[0].get(k)));
            let x = |g: &Group| {
                let p = Params::parse_words(g.params.split_whitespace()).unwrap_or_default();
                v.swept.as_deref().and_then(|s| p.get(s)).unwrap_or(0)
            };
            v.groups.sort_by_key(x);
        }
        let mut cores: Vec<i64> = v.runs.iter().map(|r| r.cores).collect();
        cores.sort();
        cores.dedup();
        v.cores = cores;
        v.implementations
            .retain(|i| v.runs.iter().any(|r| &r.implementation == i));
    }
    out
}

/// Every figure of a session, benchmark by benchmark.
pub fn figures(data: &SessionData, view: &View) -> Result<Vec<(String, Vec<Figure>)>> {
    let mut out = Vec::new();
    for v in views(data, view) {
        let mut figs = Vec::new();
        figs.push(time::figure(&v)?);
        figs.extend(speedup::figures(&v)?);
        figs.push(cpu::figure(&v)?);
        figs.push(memory::figure(&v)?);
        figs.extend(fairness::figures(&v)?);
        out.push((v.bench.clone(), figs));
    }
    Ok(out)
}

/// The directory, inside a report directory, that holds the flame graphs `actorbench
/// profile` writes.
pub const PROFILES: &str = "profiles";

/// Where the report goes unless told: `report/` beside an SQLite store, `results/report`
/// in the current directory for a PostgreSQL store.
pub fn default_report_dir(store: &Store) -> PathBuf {
    store
        .dir()
        .unwrap_or_else(|| PathBuf::from("results"))
        .join("report")
}

/// The flame graphs in `report_dir/profiles`, by file name, for the report's links.
pub fn profiles(report_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(report_dir.join(PROFILES))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    names.sort();
    names
}

/// Writes `dir/index.html` and `dir/<figure>.svg` for a session, with the histories of
/// its cells across sessions (see [`history::for_report`]); returns the index path.
pub fn write(
    data: &SessionData,
    view: &View,
    histories: &[(String, Vec<crate::history::History>)],
    dir: &Path,
) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let figures = figures(data, view)?;
    let startup = startup::figure(data)?;
    let history_figures = histories
        .iter()
        .map(|(bench, hs)| history::figure(hs, bench))
        .collect::<Result<Vec<Figure>>>()?;
    for f in figures
        .iter()
        .flat_map(|(_, figs)| figs.iter())
        .chain(startup.iter())
        .chain(history_figures.iter())
    {
        let path = dir.join(format!("{}.svg", f.name));
        std::fs::write(&path, &f.svg).with_context(|| format!("writing {}", path.display()))?;
    }
    let html = page::render(
        data,
        view,
        &figures,
        startup.as_ref(),
        histories,
        &history_figures,
        &profiles(dir),
    )?;
    let index = dir.join("index.html");
    std::fs::write(&index, html).with_context(|| format!("writing {}", index.display()))?;
    Ok(index)
}

/// A figure file stem from parts: lowercase, `[a-z0-9-]`.
pub fn stem(parts: &[&str]) -> String {
    parts
        .iter()
        .map(|p| {
            p.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '-'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("-")
}
