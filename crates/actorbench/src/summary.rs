//! Reducing a session's runs to one summary per cell (benchmark, parameters,
//! implementation, cores): what the table, the exports and the report all show.
//!
//! Only measured runs (not warmups) that succeeded count toward the figures. Each of the
//! three times (work, wall and CPU, see [`crate::metric`]) is summarised as a [`Spread`]:
//! its values, median, min and max, the order-statistic interval of the median (95%, or
//! the range with its smaller coverage below 6 runs: [`stats::median_interval`]) and the
//! coefficient of variation; a cell whose CV on the chosen metric is over [`NOISY_CV`] is
//! *noisy*. Start-up is the median over runs of wall minus work;
//! a cell whose start-up is more than [`STARTUP_SHARE_LIMIT`] of its median wall time is
//! called out. The other figures are medians: CPU utilisation, peak RSS, context switches
//! and the chameneos fairness figures. Every failed run, warmups included, is listed.
//! Within a benchmark and parameter set, each cell's ratio is its median of the chosen
//! metric over the *reference* cell's: the fastest cell of the group, or with a baseline
//! implementation (`--baseline`), that implementation's cell at the same core count. The
//! ratio has its own 95% bootstrap interval (both cells resampled); a ratio whose interval
//! spans 1.0 is *unresolved*: the runs cannot tell the cell from its reference.
//!
//! Each event counter a cell's runs have ([`crate::counters`]) is summarised as a
//! [`Spread`] too, so that a counter can be the chosen metric. A cell whose runs on the
//! chosen metric split into two groups has them in [`CellSummary::modes`] (see
//! [`crate::modes`]).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::metric::{self, Metric, STARTUP_SHARE_LIMIT};
use crate::modes::{self, Modes};
use crate::stats;
use crate::store::{RunRecord, SessionData};

/// A cell is noisy when the coefficient of variation of its chosen time is above this.
pub const NOISY_CV: f64 = 0.05;

/// One time of a cell over its successful measured runs.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Spread {
    /// The values, in run order.
    pub values: Vec<f64>,
    /// Median (NaN when there are none).
    pub median: f64,
    /// Smallest.
    pub min: f64,
    /// Largest.
    pub max: f64,
    /// Lower end of the order-statistic interval of the median
    /// ([`stats::median_interval`]; NaN for fewer than 2 values).
    pub ci_low: f64,
    /// Upper end of that interval.
    pub ci_high: f64,
    /// The interval's exact coverage: at least 0.95 from [`stats::RUNS_FOR_95`] values on;
    /// below that the interval is the whole range and covers less (0.75 with 3 values).
    pub ci_coverage: f64,
    /// Coefficient of variation (NaN for fewer than 2 values).
    pub cv: f64,
}

/// The spread of no values, for a metric a cell does not have.
static NO_VALUES: Spread = Spread {
    values: Vec::new(),
    median: f64::NAN,
    min: f64::NAN,
    max: f64::NAN,
    ci_low: f64::NAN,
    ci_high: f64::NAN,
    ci_coverage: f64::NAN,
    cv: f64::NAN,
};

impl Spread {
    /// The spread of `values`.
    ///
    /// ```
    /// let s = actorbench::summary::Spread::of(vec![3.0, 1.0, 2.0]);
    /// assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
    /// ```
    pub fn of(values: Vec<f64>) -> Spread {
        let ci = stats::median_interval(&values);
        let (ci_low, ci_high, ci_coverage) = (ci.low, ci.high, ci.coverage);
        Spread {
            ci_coverage,
            median: stats::median(&values),
            min: stats::min(&values),
            max: stats::max(&values),
            ci_low,
            ci_high,
            cv: stats::cv(&values),
            values,
        }
    }

    /// Half the interval's width as a share of the median (NaN without an interval).
    pub fn half_width(&self) -> f64 {
        (self.ci_high - self.ci_low) / 2.0 / self.median
    }

    /// Whether the interval covers less than 95% (too few values to reach it).
    pub fn short_coverage(&self) -> bool {
        self.ci_low.is_finite() && self.ci_coverage < 0.95
    }
}

/// Figures for one cell.
#[derive(Debug, Clone, Serialize)]
pub struct CellSummary {
    /// Benchmark.
    pub bench: String,
    /// Canonical parameters.
    pub params: String,
    /// Implementation.
    pub implementation: String,
    /// Cores.
    pub cores: i64,
    /// Measured runs that succeeded.
    pub ok: usize,
    /// Measured runs in all.
    pub measured: usize,
    /// Work time (`seconds=`) of the successful measured runs.
    pub work: Spread,
    /// Wall time of the whole process, same runs.
    pub wall: Spread,
    /// CPU time (user + system), same runs.
    pub cpu_time: Spread,
    /// Median start-up (wall - work) in seconds; NaN without work times.
    pub startup: f64,
    /// Start-up over median wall time; NaN without work times.
    pub startup_share: f64,
    /// The chosen metric's median over the reference cell's (the fastest of its group, or
    /// the baseline implementation's at the same cores); NaN when either has none.
    pub ratio: f64,
    /// Lower end of the ratio's 95% bootstrap interval (NaN for the reference itself, or
    /// with fewer than 2 runs on a side).
    pub ratio_low: f64,
    /// Upper end of that interval.
    pub ratio_high: f64,
    /// Whether this cell is its group's reference.
    pub reference: bool,
    /// Median CPU utilisation ((user+sys)/wall).
    pub cpu_util: f64,
    /// Median peak RSS in bytes.
    pub max_rss_bytes: f64,
    /// Median voluntary context switches.
    pub voluntary_switches: f64,
    /// Median involuntary context switches.
    pub involuntary_switches: f64,
    /// Median coefficient of variation of chameneos counts.
    pub fairness_cv: Option<f64>,
    /// Median Jain's index of chameneos counts.
    pub fairness_jain: Option<f64>,
    /// Median stddev of chameneos counts.
    pub fairness_stddev: Option<f64>,
    /// Failed runs, warmups included.
    pub failures: Vec<RunRecord>,
    /// Why its repetitions stopped, as stored (`reps`, `target-ci`, `max-reps`, `failing`,
    /// `budget`, `interrupted`); `None` for sessions stored before the harness kept it.
    pub stop: Option<String>,
    /// Each event counter over the same runs, by name (only those the runs have).
    pub counters: BTreeMap<String, Spread>,
    /// The two groups its runs split into on the chosen metric, if they do.
    pub modes: Option<Modes>,
}

impl CellSummary {
    /// The spread of `metric`.
    pub fn time(&self, metric: Metric) -> &Spread {
        match (metric, metric.counter()) {
            (_, Some(c)) => self.counters.get(c.name()).unwrap_or(&NO_VALUES),
            (Metric::Work, _) => &self.work,
            (Metric::Wall, _) => &self.wall,
            _ => &self.cpu_time,
        }
    }

    /// Whether start-up takes more than [`STARTUP_SHARE_LIMIT`] of the wall time.
    pub fn startup_dominates(&self) -> bool {
        self.startup_share > STARTUP_SHARE_LIMIT
    }

    /// Whether `metric` varies by more than [`NOISY_CV`] from run to run.
    pub fn noisy(&self, metric: Metric) -> bool {
        self.time(metric).cv > NOISY_CV
    }

    /// Whether the ratio's interval spans 1.0 (the runs cannot tell this cell from its
    /// reference).
    pub fn unresolved(&self) -> bool {
        !self.reference && self.ratio_low <= 1.0 && self.ratio_high >= 1.0
    }
}

/// A benchmark and parameter set, with its cells.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// Benchmark.
    pub bench: String,
    /// Canonical parameters.
    pub params: String,
    /// The time the ratios are on.
    pub metric: Metric,
    /// What the ratios are against: `fastest`, or the baseline implementation.
    pub reference: String,
    /// Its cells, by implementation (first-seen order) then cores.
    pub cells: Vec<CellSummary>,
}

/// How a session is summarised: on which time, against what.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// `--metric`: `None` picks work time (or wall time for a session without work times).
    pub metric: Option<Metric>,
    /// `--baseline`: ratios against this implementation (at the same cores) instead of
    /// against the fastest cell.
    pub baseline: Option<String>,
}

impl View {
    /// Checks that the baseline, if any, is an implementation of `runs`.
    pub fn check(&self, runs: &[RunRecord]) -> Result<(), crate::error::UsageError> {
        match &self.baseline {
            Some(b) if !runs.iter().any(|r| &r.implementation == b) => {
                let mut names: Vec<&str> = runs.iter().map(|r| r.implementation.as_str()).collect();
                names.dedup();
                names.sort_unstable();
                names.dedup();
                Err(crate::error::UsageError::new(format!(
                    "--baseline {b}: no such implementation in this session (it has: {})",
                    names.join(", ")
                )))
            }
            _ => Ok(()),
        }
    }
}

/// Summarises a stored session: [`summarise_with`] its runs, and each cell's stopping
/// record attached.
pub fn summarise_session(data: &SessionData, view: &View) -> Vec<Group> {
    let mut groups = summarise_with(&data.runs, view);
    for g in &mut groups {
        for c in &mut g.cells {
            c.stop = data
                .cells
                .iter()
                .find(|r| {
                    r.bench == c.bench
                        && r.params == c.params
                        && r.implementation == c.implementation
                        && r.cores == c.cores
                })
                .map(|r| r.stop.clone());
        }
    }
    groups
}

/// Groups and summarises runs with the default view (work time).
pub fn summarise(runs: &[RunRecord]) -> Vec<Group> {
    summarise_with(runs, &View::default())
}

/// Groups and summarises runs, keeping the order in which benchmarks, parameter sets and
/// implementations first appear.
pub fn summarise_with(runs: &[RunRecord], view: &View) -> Vec<Group> {
    let (metric, _) = metric::resolve(view.metric, runs);
    let mut groups: Vec<Group> = Vec::new();
    let mut impl_order: Vec<&str> = Vec::new();
    for r in runs {
        if !impl_order.contains(&r.implementation.as_str()) {
            impl_order.push(&r.implementation);
        }
        let g = match groups
            .iter_mut()
            .position(|g| g.bench == r.bench && g.params == r.params)
        {
            Some(i) => &mut groups[i],
            None => {
                groups.push(Group {
                    bench: r.bench.clone(),
                    params: r.params.clone(),
                    metric,
                    reference: view.baseline.clone().unwrap_or_else(|| "fastest".into()),
                    cells: Vec::new(),
                });
                groups.last_mut().unwrap()
            }
        };
        if !g
            .cells
            .iter()
            .any(|c| c.implementation == r.implementation && c.cores == r.cores)
        {
            g.cells.push(empty_cell(r));
        }
    }
    for g in &mut groups {
        for c in &mut g.cells {
            let mine: Vec<&RunRecord> = runs
                .iter()
                .filter(|r| {
                    r.bench == g.bench
                        && r.params == g.params
                        && r.implementation == c.implementation
                        && r.cores == c.cores
                })
                .collect();
            fill(c, &mine);
            c.modes = modes::two_modes(&c.time(metric).values);
        }
        g.cells.sort_by_key(|c| {
            (
                impl_order.iter().position(|i| *i == c.implementation),
                c.cores,
            )
        });
        ratios(g, view.baseline.as_deref());
    }
    groups
}

/// Sets each cell's ratio to its reference and the ratio's interval.
fn ratios(g: &mut Group, baseline: Option<&str>) {
    let metric = g.metric;
    let fastest = g
        .cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.time(metric).median.is_finite())
        .min_by(|a, b| a.1.time(metric).median.total_cmp(&b.1.time(metric).median))
        .map(|(i, _)| i);
    let reference_of = |c: &CellSummary| match baseline {
        None => fastest,
        Some(b) => g
            .cells
            .iter()
            .position(|r| r.implementation == b && r.cores == c.cores)
            .filter(|&i| g.cells[i].time(metric).median.is_finite()),
    };
    let refs: Vec<Option<usize>> = g.cells.iter().map(reference_of).collect();
    let spreads: Vec<Spread> = g.cells.iter().map(|c| c.time(metric).clone()).collect();
    for (i, (c, r)) in g.cells.iter_mut().zip(refs).enumerate() {
        let Some(r) = r else { continue };
        let (mine, theirs) = (&spreads[i], &spreads[r]);
        c.ratio = mine.median / theirs.median;
        c.reference = i == r;
        if !c.reference {
            (c.ratio_low, c.ratio_high) = stats::bootstrap_ratio(&mine.values, &theirs.values);
        }
    }
}

fn empty_cell(r: &RunRecord) -> CellSummary {
    CellSummary {
        bench: r.bench.clone(),
        params: r.params.clone(),
        implementation: r.implementation.clone(),
        cores: r.cores,
        ok: 0,
        measured: 0,
        work: Spread::of(Vec::new()),
        wall: Spread::of(Vec::new()),
        cpu_time: Spread::of(Vec::new()),
        startup: f64::NAN,
        startup_share: f64::NAN,
        ratio: f64::NAN,
        ratio_low: f64::NAN,
        ratio_high: f64::NAN,
        reference: false,
        cpu_util: f64::NAN,
        max_rss_bytes: f64::NAN,
        voluntary_switches: f64::NAN,
        involuntary_switches: f64::NAN,
        fairness_cv: None,
        fairness_jain: None,
        fairness_stddev: None,
        failures: Vec::new(),
        stop: None,
        counters: BTreeMap::new(),
        modes: None,
    }
}

fn fill(c: &mut CellSummary, runs: &[&RunRecord]) {
    let measured: Vec<&&RunRecord> = runs.iter().filter(|r| !r.warmup).collect();
    let good: Vec<&&&RunRecord> = measured.iter().filter(|r| r.ok()).collect();
    c.measured = measured.len();
    c.ok = good.len();
    c.failures = runs
        .iter()
        .filter(|r| !r.ok())
        .map(|r| (*r).clone())
        .collect();
    let col = |f: &dyn Fn(&RunRecord) -> f64| good.iter().map(|r| f(r)).collect::<Vec<f64>>();
    let opt_col = |f: &dyn Fn(&RunRecord) -> Option<f64>| {
        good.iter().filter_map(|r| f(r)).collect::<Vec<f64>>()
    };
    c.wall = Spread::of(col(&|r| r.wall_s));
    c.work = Spread::of(opt_col(&|r| Metric::Work.of(r)));
    c.cpu_time = Spread::of(col(&|r| r.user_s + r.sys_s));
    c.startup = stats::median(&opt_col(&|r| r.work_s.map(|w| r.wall_s - w)));
    c.startup_share = c.startup / c.wall.median;
    c.cpu_util = stats::median(&col(&|r| r.cpu_util));
    c.max_rss_bytes = stats::median(&col(&|r| r.max_rss_bytes as f64));
    c.voluntary_switches = stats::median(&col(&|r| r.voluntary_switches as f64));
    c.involuntary_switches = stats::median(&col(&|r| r.involuntary_switches as f64));
    let opt = |f: &dyn Fn(&RunRecord) -> Option<f64>| {
        let v = opt_col(f);
        (!v.is_empty()).then(|| stats::median(&v))
    };
    c.fairness_cv = opt(&|r| r.fairness_cv);
    c.fairness_jain = opt(&|r| r.fairness_jain);
    c.fairness_stddev = opt(&|r| r.fairness_stddev);
    c.counters = crate::counters::ALL
        .iter()
        .map(|k| (k.name(), opt_col(&|r| r.counters.get(k.name()).copied())))
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k.to_string(), Spread::of(v)))
        .collect();
}

/// One line describing a failed run: who, what kind, why, and the end of its stderr.
pub fn failure_line(r: &RunRecord) -> String {
    let what = if r.warmup {
        format!("warmup {}", r.rep + 1)
    } else {
        format!("rep {}", r.rep + 1)
    };
    format!(
        "{} {} {what}: {}",
        r.implementation,
        cores_label(r.cores),
        describe(r)
    )
}

/// The failures of one cell, one line per distinct failure (same status, detail and last
/// stderr line), saying which runs had it: `hang 1 core, 4 runs (warmup 1, rep 1-3): timeout ...`.
pub fn failure_lines(cell: &CellSummary) -> Vec<String> {
    let mut kinds: Vec<(String, Vec<&RunRecord>)> = Vec::new();
    for r in &cell.failures {
        let d = describe(r);
        match kinds.iter_mut().find(|(k, _)| *k == d) {
            Some((_, v)) => v.push(r),
            None => kinds.push((d, vec![r])),
        }
    }
    kinds
        .into_iter()
        .map(|(d, runs)| {
            if runs.len() == 1 {
                return failure_line(runs[0]);
            }
            let warm: Vec<i64> = runs
                .iter()
                .filter(|r| r.warmup)
                .map(|r| r.rep + 1)
                .collect();
            let reps: Vec<i64> = runs
                .iter()
                .filter(|r| !r.warmup)
                .map(|r| r.rep + 1)
                .collect();
            let mut which = Vec::new();
            if !warm.is_empty() {
                which.push(format!("warmup {}", ranges(&warm)));
            }
            if !reps.is_empty() {
                which.push(format!("rep {}", ranges(&reps)));
            }
            format!(
                "{} {}, {} runs ({}): {d}",
                cell.implementation,
                cores_label(cell.cores),
                runs.len(),
                which.join(", ")
            )
        })
        .collect()
}

fn cores_label(cores: i64) -> String {
    format!("{cores} core{}", if cores == 1 { "" } else { "s" })
}

/// Status, detail and the last line of stderr of a failed run.
fn describe(r: &RunRecord) -> String {
    let mut s = r.status.clone();
    if !r.detail.is_empty() {
        s.push_str(&format!(" ({})", r.detail));
    }
    let last = r
        .stderr_tail
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty());
    if let Some(last) = last {
        let last: String = last.chars().take(160).collect();
        s.push_str(&format!("; stderr: {last}"));
    }
    s
}

/// `1-3,5` for sorted numbers.
fn ranges(xs: &[i64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < xs.len() {
        let mut j = i;
        while j + 1 < xs.len() && xs[j + 1] == xs[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            xs[i].to_string()
        } else {
            format!("{}-{}", xs[i], xs[j])
        });
        i = j + 1;
    }
    out.join(",")
}
