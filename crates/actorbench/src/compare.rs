//! `actorbench compare A B`: a regression gate that CI can trust.
//!
//! Cells (benchmark, parameters, implementation, cores) are matched between the two
//! sessions and judged on one time (`--metric`, work time by default); the change of the
//! process's wall time is shown beside it. The rules, in the order they apply:
//!
//! 1. **Comparable sessions.** A session that did not finish (`interrupted`,
//!    `abandoned`, or still `running`) is refused (exit 2) unless `--allow-incomplete`:
//!    its unmeasured cells would pass as "only in B" or "fixed". Sessions measured on
//!    different hosts (CPU model, cores, memory, kernel), with different profiles, CPU
//!    governors, SMT, busy verdicts, transparent huge pages, CPU boost, cgroup CPU quota
//!    or runtime knobs (each only when both sessions recorded it), or with different
//!    toolchain versions of an implementation both ran are refused (exit 2) unless
//!    `--allow-mismatch`, which prints each difference. `--impl a,b` restricts the
//!    comparison, and so Holm's family, to those implementations' cells.
//! 2. **Failures.** A cell that passed in A (successful runs and no failed one) and has a
//!    failed run in B, or that has successful runs in A and none in B, is *broken*. A cell
//!    with successful runs in A that B does not have at all is *missing in B*. Both fail
//!    the gate. (A cell that only failed in A and is gone or still failing in B is listed,
//!    not held against B; one that failed in A and passes in B is *fixed*.)
//! 3. **Enough runs.** A cell is tested only when each side has at least [`MIN_RUNS`]
//!    successful measured runs, counted cell by cell; with the Mann-Whitney test it also
//!    needs enough runs for the smallest p-value that test can give to be below alpha.
//!    Otherwise it is *too few runs*, which fails the gate: a gate that cannot test a
//!    cell does not pass it.
//! 4. **The test.** Welch's t-test on the logarithms of the times (the default; a change is
//!    a ratio, and a t-test has power with few runs) or the Mann-Whitney U test (no
//!    assumption about the distribution, but with 5 runs a side it can never go below
//!    p = 0.008). The p-values of all tested cells are adjusted together with Holm's
//!    method, so testing 190 cells does not flag several by chance. Each tested cell
//!    also gets the smallest regression it could have detected ([`detectable`]): the
//!    least slowdown of B (B's runs, rescaled) that its test would flag at `alpha / m`,
//!    the level Holm's first step gives a lone regression among `m` tested cells, and no
//!    less than the threshold. When the smallest p-value Mann-Whitney can give with a
//!    cell's real run counts, times `m`, is not below alpha, the output says that no
//!    lone regression there could be flagged.
//! 5. **The verdict.** A tested cell is a *regression* when its median got worse by more
//!    than `--threshold` percent, the test points the same way and its adjusted p is below
//!    `--alpha`; an *improvement* in the mirror case; otherwise *unchanged*.
//!
//! Exit status: 0 when no cell failed the gate, 1 when one did (a regression, a broken or
//! missing cell, too few runs), 2 for bad input (including incomparable sessions), 3 for a
//! store or I/O error. `--format markdown` writes a pull-request comment: the verdict, the
//! failing cells, and every cell in a fold; `--format json` (or `--json`) one JSON object
//! for CI bots, with every cell's figures and verdict.

use std::fmt::Write;

use anyhow::Result;

use crate::error::{EXIT_FAILED, EXIT_OK, UsageError};
use crate::metric::Metric;
use crate::output::{table, units};
use crate::stats;
use crate::store::{SessionData, Store};
use crate::summary::{self, CellSummary, View};

/// Successful measured runs each side of a cell needs before it is tested.
pub const MIN_RUNS: usize = 3;

/// Output format of `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// Aligned text for the terminal.
    Text,
    /// A Markdown comment fit for a pull request.
    Markdown,
    /// One JSON object, for CI bots.
    Json,
}

/// The statistical test of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Test {
    /// Welch's t-test on log times.
    #[default]
    Welch,
    /// The Mann-Whitney U test (exact for small samples).
    MannWhitney,
}

impl Test {
    /// Its name in the output.
    pub fn label(self) -> &'static str {
        match self {
            Test::Welch => "Welch's t-test on log times",
            Test::MannWhitney => "Mann-Whitney U test",
        }
    }
}

/// Everything `compare` takes besides the two sessions.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--metric` (`None`: work time, or wall for sessions without work times).
    pub metric: Option<Metric>,
    /// `--threshold`: smallest change, in percent, that counts.
    pub threshold_pct: f64,
    /// `--alpha`: significance level after the Holm adjustment.
    pub alpha: f64,
    /// `--test`.
    pub test: Test,
    /// `--allow-mismatch`: compare sessions measured differently.
    pub allow_mismatch: bool,
    /// `--allow-incomplete`: compare a session that did not finish.
    pub allow_incomplete: bool,
    /// `--impl`: compare only these implementations' cells (empty: all).
    pub implementations: Vec<String>,
    /// `--format`.
    pub format: CompareFormat,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            metric: None,
            threshold_pct: 5.0,
            alpha: 0.05,
            test: Test::Welch,
            allow_mismatch: false,
            allow_incomplete: false,
            implementations: Vec::new(),
            format: CompareFormat::Text,
        }
    }
}

/// How one cell changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Significantly slower, by more than the threshold.
    Regression,
    /// Significantly faster, by more than the threshold.
    Improvement,
    /// Tested, and no significant change over the threshold.
    Unchanged,
    /// Not enough successful runs on a side to test.
    TooFewRuns,
    /// Passed in A; failed runs (or no successful one) in B.
    Broken,
    /// Successful runs in A; not in B at all.
    MissingInB,
    /// Only failures in A; successful runs in B.
    Fixed,
    /// No successful run on either side.
    FailingInBoth,
    /// Only failures in A, and not in B.
    OnlyInA,
    /// New in B.
    OnlyInB,
}

impl Verdict {
    /// Its name in the output.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Regression => "regression",
            Verdict::Improvement => "improvement",
            Verdict::Unchanged => "unchanged",
            Verdict::TooFewRuns => "too few runs",
            Verdict::Broken => "broken",
            Verdict::MissingInB => "missing in B",
            Verdict::Fixed => "fixed",
            Verdict::FailingInBoth => "failing in both",
            Verdict::OnlyInA => "only in A",
            Verdict::OnlyInB => "only in B",
        }
    }

    /// Whether it fails the gate.
    pub fn fails_gate(self) -> bool {
        matches!(
            self,
            Verdict::Regression | Verdict::TooFewRuns | Verdict::Broken | Verdict::MissingInB
        )
    }
}

/// How one cell changed, with the figures behind the verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Benchmark.
    pub bench: String,
    /// Parameters.
    pub params: String,
    /// Implementation.
    pub implementation: String,
    /// Cores.
    pub cores: i64,
    /// Median in A (NaN when none).
    pub a: f64,
    /// Median in B (NaN when none).
    pub b: f64,
    /// Successful measured runs in A.
    pub n_a: usize,
    /// Successful measured runs in B.
    pub n_b: usize,
    /// B / A.
    pub ratio: f64,
    /// The 95% bootstrap interval of B / A (NaN when not tested).
    pub ratio_ci: (f64, f64),
    /// B / A of the medians of the process's wall time, whatever the metric (NaN when a
    /// side has none).
    pub wall_ratio: f64,
    /// The test's p-value, when the cell was tested.
    pub p: Option<f64>,
    /// The p-value after Holm's adjustment over every tested cell.
    pub p_holm: Option<f64>,
    /// The smallest B / A its test could have flagged as a regression, alone among the
    /// tested cells (see [`detectable`]); infinite when none could be, NaN when untested.
    pub detectable: f64,
    /// The verdict.
    pub verdict: Verdict,
    /// Why, for a verdict that needs a reason.
    pub why: String,
    /// What `a` and `b` are medians of.
    pub metric: Metric,
}

impl Change {
    /// `bench params implementation k cores`, to name the cell.
    pub fn cell(&self) -> String {
        format!(
            "{} {} {} {} core{}",
            self.bench,
            self.params,
            self.implementation,
            self.cores,
            if self.cores == 1 { "" } else { "s" }
        )
    }
}

/// What differs between how two sessions were measured: host, profile, toolchains.
pub fn mismatches(a: &SessionData, b: &SessionData) -> Vec<String> {
    let (sa, sb) = (&a.session, &b.session);
    let mut out = Vec::new();
    let mut differ = |what: &str, x: String, y: String| {
        if x != y {
            out.push(format!("{what}: {x} in A, {y} in B"));
        }
    };
    differ("host CPU", sa.host_cpu.clone(), sb.host_cpu.clone());
    differ(
        "host cores",
        sa.host_cores.to_string(),
        sb.host_cores.to_string(),
    );
    differ(
        "host memory",
        units::bytes(sa.host_memory_bytes as f64),
        units::bytes(sb.host_memory_bytes as f64),
    );
    differ(
        "host kernel",
        sa.host_kernel.clone(),
        sb.host_kernel.clone(),
    );
    differ("profile", sa.profile.clone(), sb.profile.clone());
    for ia in &a.implementations {
        if let Some(ib) = b.implementations.iter().find(|i| i.name == ia.name) {
            differ(
                &format!("{} toolchain", ia.name),
                ia.version.clone(),
                ib.version.clone(),
            );
        }
    }
    // What older sessions did not record is compared only when both have it.
    let mut recorded = |what: &str, x: &str, y: &str| {
        if !x.is_empty() && !y.is_empty() && x != y {
            out.push(format!("{what}: {x} in A, {y} in B"));
        }
    };
    recorded("CPU governor", &sa.cpu_governor, &sb.cpu_governor);
    recorded("SMT", &sa.smt, &sb.smt);
    let busy = |s: &crate::store::SessionRecord| {
        if s.harness_version.is_empty() {
            String::new()
        } else if s.busy.is_empty() {
            "quiet".to_string()
        } else {
            "busy".to_string()
        }
    };
    recorded("machine", &busy(sa), &busy(sb));
    recorded("transparent huge pages", &sa.thp, &sb.thp);
    recorded("CPU boost", &sa.cpu_boost, &sb.cpu_boost);
    recorded("cgroup CPU quota", &sa.cgroup_cpu, &sb.cgroup_cpu);
    let knobs = |s: &crate::store::SessionRecord| match (s.env_mode.as_str(), s.env_knobs.as_str())
    {
        ("", _) => String::new(),
        ("inherit", k) if !k.is_empty() => format!("inherited {k}"),
        _ => "none inherited".to_string(),
    };
    recorded("runtime knobs", &knobs(sa), &knobs(sb));
    out
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The smallest B / A the test would flag at level `level` (a two-sided p below it, the
/// change pointing the same way), were B's runs those of `b` rescaled to the median of
/// `a` times that ratio: the cell's own spread on both sides, shifted. Welch's test on
/// logs has it in closed form (the critical t times the standard error of the difference
/// of mean logs); for Mann-Whitney the p-value changes only where a rescaled B run
/// crosses an A run, so those ratios are searched. Infinite when no shift could be
/// flagged (too few runs for the level), NaN without two runs a side.
///
/// ```
/// use actorbench::compare::{detectable, Test};
/// let a = [1.0, 1.01, 0.99, 1.02, 0.98];
/// let r = detectable(&a, &a, Test::Welch, 0.05);
/// assert!(r > 1.01 && r < 1.05, "{r}");
/// // Mann-Whitney with 5 runs a side can never reach p < 0.005.
/// assert_eq!(detectable(&a, &a, Test::MannWhitney, 0.005), f64::INFINITY);
/// ```
pub fn detectable(a: &[f64], b: &[f64], test: Test, level: f64) -> f64 {
    if a.len() < 2 || b.len() < 2 {
        return f64::NAN;
    }
    match test {
        Test::Welch => {
            use statrs::distribution::{ContinuousCDF, StudentsT};
            let ln = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<f64>>();
            let (la, lb) = (ln(a), ln(b));
            let (va, vb) = (
                stats::variance(&la) / la.len() as f64,
                stats::variance(&lb) / lb.len() as f64,
            );
            let se2 = va + vb;
            if se2 <= 0.0 {
                // No spread at all: any change is flagged.
                return 1.0;
            }
            let df =
                se2 * se2 / (va * va / (la.len() - 1) as f64 + vb * vb / (lb.len() - 1) as f64);
            let Ok(dist) = StudentsT::new(0.0, 1.0, df) else {
                return f64::INFINITY;
            };
            // Shifting B's logs moves the difference of means one for one; the spread stays.
            let gap = stats::mean(&lb) - stats::mean(&la);
            let needed = dist.inverse_cdf(1.0 - level / 2.0) * se2.sqrt();
            // B rescaled to A's median times r: its mean log moves to mean(la) + ln r plus
            // the gap between B's mean log and its median's log.
            let offset = gap - (stats::median(b).ln() - stats::median(a).ln());
            (needed - offset).exp()
        }
        Test::MannWhitney => {
            if stats::mann_whitney_min_p(a.len(), b.len()) >= level {
                return f64::INFINITY;
            }
            let scale = stats::median(a) / stats::median(b);
            let base: Vec<f64> = b.iter().map(|y| y * scale).collect();
            let flags = |r: f64| {
                let shifted: Vec<f64> = base.iter().map(|y| y * r).collect();
                stats::mann_whitney(a, &shifted)
                    .is_some_and(|m| m.p < level && m.u < (a.len() * b.len()) as f64 / 2.0)
            };
            // Candidate ratios: where a rescaled B run passes an A run, just beyond it.
            let mut candidates: Vec<f64> = a
                .iter()
                .flat_map(|x| base.iter().map(move |y| x / y * (1.0 + 1e-9)))
                .filter(|r| *r >= 1.0)
                .collect();
            candidates.sort_by(f64::total_cmp);
            candidates.dedup();
            // Flagging grows with the ratio: find the first candidate that is flagged.
            let (mut lo, mut hi) = (0usize, candidates.len());
            while lo < hi {
                let mid = (lo + hi) / 2;
                if flags(candidates[mid]) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            candidates.get(lo).copied().unwrap_or(f64::INFINITY)
        }
    }
}

/// Compares two loaded sessions on `metric`, cell by cell (see the module docs).
pub fn changes(a: &SessionData, b: &SessionData, metric: Metric, opts: &Options) -> Vec<Change> {
    let cells = |d: &SessionData| -> Vec<CellSummary> {
        summary::summarise_with(
            &d.runs,
            &View {
                metric: Some(metric),
                baseline: None,
            },
        )
        .into_iter()
        .flat_map(|g| g.cells)
        .collect()
    };
    let chosen = |c: &CellSummary| {
        opts.implementations.is_empty() || opts.implementations.contains(&c.implementation)
    };
    let (ca, cb): (Vec<CellSummary>, Vec<CellSummary>) = (
        cells(a).into_iter().filter(chosen).collect(),
        cells(b).into_iter().filter(chosen).collect(),
    );
    let same = |x: &CellSummary, y: &CellSummary| {
        x.bench == y.bench
            && x.params == y.params
            && x.implementation == y.implementation
            && x.cores == y.cores
    };
    let t = opts.threshold_pct / 100.0;
    let change = |c: &CellSummary, a: Option<&CellSummary>, b: Option<&CellSummary>| Change {
        bench: c.bench.clone(),
        params: c.params.clone(),
        implementation: c.implementation.clone(),
        cores: c.cores,
        a: a.map_or(f64::NAN, |x| x.time(metric).median),
        b: b.map_or(f64::NAN, |y| y.time(metric).median),
        n_a: a.map_or(0, |x| x.time(metric).values.len()),
        n_b: b.map_or(0, |y| y.time(metric).values.len()),
        ratio: f64::NAN,
        ratio_ci: (f64::NAN, f64::NAN),
        metric,
        wall_ratio: match (a, b) {
            (Some(x), Some(y)) => y.wall.median / x.wall.median,
            _ => f64::NAN,
        },
        p: None,
        p_holm: None,
        detectable: f64::NAN,
        verdict: Verdict::Unchanged,
        why: String::new(),
    };
    // Each tested cell's p-value and the direction its test points (> 0: B is slower).
    let mut tested: Vec<(usize, f64, f64)> = Vec::new();
    // Each cell's times on A and B, by its index in `out` (empty when not tested).
    let mut samples: Vec<(Vec<f64>, Vec<f64>)> = Vec::new();
    let mut out = Vec::new();
    for x in &ca {
        let y = cb.iter().find(|y| same(x, y));
        let mut c = change(x, Some(x), y);
        let passed_a = c.n_a > 0 && x.failures.is_empty();
        let Some(y) = y else {
            (c.verdict, c.why) = if c.n_a > 0 {
                (
                    Verdict::MissingInB,
                    "it ran in A and not in B (not chosen, or its build failed)".into(),
                )
            } else {
                (Verdict::OnlyInA, String::new())
            };
            out.push(c);
            continue;
        };
        let failed_b = y.failures.len();
        if c.n_a > 0 && c.n_b == 0 {
            c.verdict = Verdict::Broken;
            c.why = format!(
                "no successful run in B ({})",
                plural(failed_b, "failed run")
            );
        } else if passed_a && failed_b > 0 {
            c.verdict = Verdict::Broken;
            c.why = format!("{} in B (none in A)", plural(failed_b, "failed run"));
        } else if c.n_a == 0 && c.n_b == 0 {
            c.verdict = Verdict::FailingInBoth;
        } else if c.n_a == 0 {
            c.verdict = Verdict::Fixed;
        } else {
            c.ratio = c.b / c.a;
            let (xa, xb) = (&x.time(metric).values, &y.time(metric).values);
            let min_p = stats::mann_whitney_min_p(c.n_a, c.n_b);
            if c.n_a < MIN_RUNS || c.n_b < MIN_RUNS {
                c.verdict = Verdict::TooFewRuns;
                c.why = format!(
                    "{} has {} in A and {} in B; the test needs at least {MIN_RUNS} successful runs on each side (--reps)",
                    c.implementation,
                    plural(c.n_a, "run"),
                    c.n_b
                );
            } else if opts.test == Test::MannWhitney && min_p >= opts.alpha {
                c.verdict = Verdict::TooFewRuns;
                c.why = format!(
                    "with {} and {} runs the Mann-Whitney test cannot go below p = {min_p:.3} (alpha {})",
                    c.n_a, c.n_b, opts.alpha
                );
            } else {
                let (p, direction) = match opts.test {
                    Test::Welch => {
                        let ln = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<f64>>();
                        stats::welch(&ln(xa), &ln(xb)).map_or((1.0, 0.0), |w| (w.p, w.t))
                    }
                    Test::MannWhitney => stats::mann_whitney(xa, xb)
                        .map_or((1.0, 0.0), |m| (m.p, (c.n_a * c.n_b) as f64 / 2.0 - m.u)),
                };
                c.p = Some(p);
                c.ratio_ci = stats::bootstrap_ratio(xb, xa);
                tested.push((out.len(), p, direction));
                samples.resize(out.len(), (Vec::new(), Vec::new()));
                samples.push((xa.clone(), xb.clone()));
            }
        }
        out.push(c);
    }
    let adjusted = stats::holm(&tested.iter().map(|t| t.1).collect::<Vec<f64>>());
    let level = opts.alpha / tested.len().max(1) as f64;
    for (&(i, _, direction), &adj) in tested.iter().zip(&adjusted) {
        let c = &mut out[i];
        c.p_holm = Some(adj);
        let (xa, xb) = &samples[i];
        c.detectable = detectable(xa, xb, opts.test, level).max(1.0 + t);
        let significant = adj < opts.alpha;
        c.verdict = if significant && c.ratio > 1.0 + t && direction > 0.0 {
            Verdict::Regression
        } else if significant && c.ratio < 1.0 - t && direction < 0.0 {
            Verdict::Improvement
        } else {
            Verdict::Unchanged
        };
    }
    for y in cb.iter().filter(|y| !ca.iter().any(|x| same(x, y))) {
        let mut c = change(y, None, Some(y));
        c.verdict = Verdict::OnlyInB;
        out.push(c);
    }
    out
}

/// `actorbench compare`: prints the comparison; 0 when no cell fails the gate, else 1.
pub fn run(store: &Store, a: &str, b: &str, opts: &Options) -> Result<i32> {
    if !(opts.threshold_pct.is_finite() && opts.threshold_pct >= 0.0) {
        crate::usage!(
            "--threshold {}: give a non-negative percentage",
            opts.threshold_pct
        );
    }
    if !(opts.alpha > 0.0 && opts.alpha < 1.0) {
        crate::usage!(
            "--alpha {}: give a significance level between 0 and 1",
            opts.alpha
        );
    }
    let load = |arg: &str| -> Result<SessionData> {
        let s = store.resolve_session(Some(arg))?;
        let d = store.load(&s)?;
        if d.runs.is_empty() {
            return Err(UsageError::new(format!("session {} has no runs to compare", s.id)).into());
        }
        Ok(d)
    };
    let (da, db) = (load(a)?, load(b)?);
    let mut notes: Vec<String> = Vec::new();
    for (side, d) in [("A", &da), ("B", &db)] {
        let s = &d.session;
        if s.status == "complete" {
            continue;
        }
        if !opts.allow_incomplete {
            crate::usage!(
                "session {} ({side}) is {}, not complete: its unmeasured cells would pass as \
                 missing or fixed; compare two finished sessions (or pass --allow-incomplete)",
                s.id,
                s.status
            );
        }
        notes.push(format!(
            "incomplete: session {} ({side}) is {}; it holds only the runs that finished",
            s.id, s.status
        ));
    }
    for name in &opts.implementations {
        let known = |d: &SessionData| d.runs.iter().any(|r| &r.implementation == name);
        if !known(&da) && !known(&db) {
            crate::usage!(
                "--impl {name}: neither session {} nor session {} ran it",
                da.session.id,
                db.session.id
            );
        }
    }
    let mismatched = mismatches(&da, &db);
    if !mismatched.is_empty() && !opts.allow_mismatch {
        crate::usage!(
            "session {} (A) and session {} (B) were measured differently: {}; their figures are not \
             comparable (pass --allow-mismatch to compare them anyway)",
            da.session.id,
            db.session.id,
            mismatched.join("; ")
        );
    }
    // A session stored before work times has none: compare both on wall time then (or
    // refuse an explicit --metric work), rather than call every cell of it a failure.
    let no_work = |d: &SessionData| {
        d.runs.iter().any(|r| r.ok()) && d.runs.iter().all(|r| r.work_s.is_none())
    };
    let old: Vec<i64> = [&da, &db]
        .iter()
        .filter(|d| no_work(d))
        .map(|d| d.session.id)
        .collect();
    let (metric, note) = match (opts.metric, old.is_empty()) {
        (Some(Metric::Work), false) => crate::usage!(
            "--metric work: session {} has no work times (it was stored before the harness read seconds=); \
             compare with --metric wall",
            old[0]
        ),
        (Some(m), _) => (m, None),
        (None, true) => (Metric::Work, None),
        (None, false) => (
            Metric::Wall,
            Some(format!(
                "session {} has no work times (stored before the harness read seconds=): compared on wall time",
                old[0]
            )),
        ),
    };
    crate::metric::check_available(metric, &[&da, &db])?;
    let ch = changes(&da, &db, metric, opts);
    let count = |v: Verdict| ch.iter().filter(|c| c.verdict == v).count();
    let regressions = count(Verdict::Regression);
    let improvements = count(Verdict::Improvement);
    let failing: Vec<&Change> = ch.iter().filter(|c| c.verdict.fails_gate()).collect();
    let other = failing.len() - regressions;
    let tested = ch.iter().filter(|c| c.p_holm.is_some()).count();
    let gate = if failing.is_empty() {
        "gate passed"
    } else {
        "gate failed"
    };
    let title = format!(
        "Session {} (A) vs session {} (B): {}, {}, {}: {gate}",
        da.session.id,
        db.session.id,
        plural(regressions, "regression"),
        plural(improvements, "improvement"),
        plural(other, "other failure"),
    );
    let family = if opts.implementations.is_empty() {
        String::new()
    } else {
        format!(" ({} only)", opts.implementations.join(", "))
    };
    let rule = format!(
        "Medians and change on {} (wall change: the whole process); a regression is more than {}% slower with p < {} after Holm's correction over the {} tested{family}; {}; detectable: the smallest regression each tested cell could have flagged alone.",
        metric.label(),
        opts.threshold_pct,
        opts.alpha,
        plural(tested, "cell"),
        opts.test.label()
    );
    notes.extend(mismatched.iter().map(|m| format!("mismatch: {m}")));
    notes.extend(note.map(|n| format!("note: {n}")));
    if opts.test == Test::MannWhitney && tested > 1 {
        // From the real run counts: can a lone regression in a cell reach alpha / m?
        let mut blind: Vec<(usize, usize, f64)> = Vec::new();
        for c in ch.iter().filter(|c| c.p_holm.is_some()) {
            let min_p = stats::mann_whitney_min_p(c.n_a, c.n_b);
            if min_p * tested as f64 >= opts.alpha
                && !blind.iter().any(|b| (b.0, b.1) == (c.n_a, c.n_b))
            {
                blind.push((c.n_a, c.n_b, min_p));
            }
        }
        let blind_cells = ch
            .iter()
            .filter(|c| c.p_holm.is_some() && c.detectable.is_infinite())
            .count();
        if !blind.is_empty() {
            let counts: Vec<String> = blind
                .iter()
                .map(|(x, y, p)| format!("{x} vs {y} runs: smallest p {}", fmt_small_p(*p)))
                .collect();
            notes.push(format!(
                "note: over {tested} tested cells, Mann-Whitney cannot flag a lone regression in {} of them \
                 ({}; times {tested} is not below {}); use more runs or --test welch",
                plural(blind_cells, "cell"),
                counts.join(", "),
                opts.alpha
            ));
        }
    }
    let text = match opts.format {
        CompareFormat::Text => text_report(&title, &rule, &ch, &notes),
        CompareFormat::Markdown => markdown_report(&title, &rule, &ch, &failing, &notes),
        CompareFormat::Json => {
            json_report(&da, &db, metric, opts, failing.is_empty(), &ch, &notes)?
        }
    };
    print!("{text}");
    Ok(if failing.is_empty() {
        EXIT_OK
    } else {
        EXIT_FAILED
    })
}

/// A p-value that may be tiny: `0.029`, `1.1e-5`.
fn fmt_small_p(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}

/// The comparison as one JSON object (see the README for its fields).
fn json_report(
    da: &SessionData,
    db: &SessionData,
    metric: Metric,
    opts: &Options,
    passed: bool,
    ch: &[Change],
    notes: &[String],
) -> Result<String> {
    let num = |x: f64| {
        if x.is_finite() {
            serde_json::json!(x)
        } else {
            serde_json::Value::Null
        }
    };
    let cells: Vec<serde_json::Value> = ch
        .iter()
        .map(|c| {
            serde_json::json!({
                "bench": c.bench, "params": c.params, "implementation": c.implementation,
                "cores": c.cores, "runs_a": c.n_a, "runs_b": c.n_b,
                "median_a": num(c.a), "median_b": num(c.b),
                "ratio": num(c.ratio), "ratio_low": num(c.ratio_ci.0), "ratio_high": num(c.ratio_ci.1),
                "wall_ratio": num(c.wall_ratio),
                "p": c.p, "p_holm": c.p_holm,
                "detectable_ratio": if c.detectable.is_infinite() { serde_json::json!("none") } else { num(c.detectable) },
                "verdict": c.verdict.name(), "fails_gate": c.verdict.fails_gate(),
                "why": c.why,
            })
        })
        .collect();
    let count = |v: Verdict| ch.iter().filter(|c| c.verdict == v).count();
    let doc = serde_json::json!({
        "a": da.session.id, "b": db.session.id,
        "a_uid": da.session.uid, "b_uid": db.session.uid,
        "metric": metric.name(), "test": opts.test.label(),
        "threshold_pct": opts.threshold_pct, "alpha": opts.alpha,
        "implementations": opts.implementations,
        "gate": if passed { "passed" } else { "failed" },
        "regressions": count(Verdict::Regression),
        "improvements": count(Verdict::Improvement),
        "failing": ch.iter().filter(|c| c.verdict.fails_gate()).count(),
        "notes": notes,
        "cells": cells,
    });
    Ok(serde_json::to_string_pretty(&doc)? + "\n")
}

fn fmt_p(p: Option<f64>) -> String {
    match p {
        None => "-".into(),
        Some(p) if p < 0.001 => "<0.001".into(),
        Some(p) => format!("{p:.3}"),
    }
}

fn fmt_change(r: f64) -> String {
    if r.is_finite() {
        format!("{:+.1}%", (r - 1.0) * 100.0)
    } else {
        "-".into()
    }
}

const COLUMNS: [&str; 13] = [
    "benchmark",
    "parameters",
    "implementation",
    "cores",
    "runs A/B",
    "A median",
    "B median",
    "change",
    "change CI95",
    "p (Holm)",
    "wall change",
    "detectable",
    "verdict",
];

fn cells_of(c: &Change) -> [String; 13] {
    let (lo, hi) = c.ratio_ci;
    [
        c.bench.clone(),
        c.params.clone(),
        c.implementation.clone(),
        c.cores.to_string(),
        format!("{}/{}", c.n_a, c.n_b),
        c.metric.show(c.a),
        c.metric.show(c.b),
        fmt_change(c.ratio),
        if lo.is_finite() {
            format!("{} to {}", fmt_change(lo), fmt_change(hi))
        } else {
            "-".into()
        },
        fmt_p(c.p_holm),
        fmt_change(c.wall_ratio),
        if c.detectable.is_infinite() {
            "none".into()
        } else {
            fmt_change(c.detectable)
        },
        c.verdict.name().to_string(),
    ]
}

fn text_report(title: &str, rule: &str, ch: &[Change], notes: &[String]) -> String {
    let mut s = format!("{title}\n{rule}\n");
    let mut rows = vec![COLUMNS.iter().map(|c| c.to_string()).collect::<Vec<_>>()];
    for c in ch {
        let mut row = cells_of(c).to_vec();
        if c.verdict.fails_gate() {
            row[12] = row[12].to_uppercase();
        }
        rows.push(row);
    }
    s.push_str(&table::align(
        &rows,
        &[
            false, false, false, true, true, true, true, true, true, true, true, true, false,
        ],
    ));
    for c in ch.iter().filter(|c| !c.why.is_empty()) {
        let _ = writeln!(s, "{}: {}: {}", c.verdict.name(), c.cell(), c.why);
    }
    for n in notes {
        let _ = writeln!(s, "{n}");
    }
    s
}

fn markdown_report(
    title: &str,
    rule: &str,
    ch: &[Change],
    failing: &[&Change],
    notes: &[String],
) -> String {
    let md_table = |rows: &mut dyn Iterator<Item = &Change>| {
        let mut t = format!(
            "| {} |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
            COLUMNS.join(" | ")
        );
        for c in rows {
            let mut cells = cells_of(c);
            cells[1] = format!("`{}`", cells[1]);
            if c.verdict.fails_gate() {
                cells[12] = format!("**{}**", cells[12]);
            }
            let cells: Vec<String> = cells.iter().map(|x| x.replace('|', "\\|")).collect();
            let _ = writeln!(t, "| {} |", cells.join(" | "));
        }
        t
    };
    let mut s = format!("### {title}\n\n{rule}\n\n");
    if failing.is_empty() {
        s.push_str("No cell failed the gate.\n\n");
    } else {
        s.push_str(&md_table(&mut failing.iter().copied()));
        s.push('\n');
        for c in failing.iter().filter(|c| !c.why.is_empty()) {
            let _ = writeln!(s, "- {}: `{}`: {}", c.verdict.name(), c.cell(), c.why);
        }
        s.push('\n');
    }
    for n in notes {
        let _ = writeln!(s, "> {n}\n");
    }
    let _ = write!(
        s,
        "<details><summary>All {}</summary>\n\n{}\n</details>\n",
        plural(ch.len(), "cell"),
        md_table(&mut ch.iter())
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{RunRecord, SessionRecord};

    fn session(id: i64, walls: &[f64], status: &str) -> SessionData {
        SessionData {
            session: SessionRecord {
                id,
                ..Default::default()
            },
            runs: walls
                .iter()
                .map(|&w| RunRecord {
                    implementation: "x".into(),
                    bench: "b".into(),
                    params: "n=1".into(),
                    cores: 1,
                    status: status.into(),
                    wall_s: w,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    fn verdict(a: &SessionData, b: &SessionData, test: Test) -> Verdict {
        let opts = Options {
            test,
            ..Default::default()
        };
        changes(a, b, Metric::Wall, &opts)[0].verdict
    }

    #[test]
    fn flags_significant_regressions_over_the_threshold() {
        let a = session(1, &[1.0, 1.01, 0.99, 1.02, 0.98], "ok");
        for test in [Test::Welch, Test::MannWhitney] {
            let slower = session(2, &[1.5, 1.52, 1.49, 1.51, 1.48], "ok");
            assert_eq!(verdict(&a, &slower, test), Verdict::Regression);
            let faster = session(3, &[0.5, 0.51, 0.49, 0.52, 0.48], "ok");
            assert_eq!(verdict(&a, &faster, test), Verdict::Improvement);
            let noise = session(4, &[1.0, 1.02, 0.97, 1.01, 0.99], "ok");
            assert_eq!(verdict(&a, &noise, test), Verdict::Unchanged);
            let slightly = session(5, &[1.03, 1.04, 1.03, 1.05, 1.04], "ok");
            assert_eq!(
                verdict(&a, &slightly, test),
                Verdict::Unchanged,
                "under the threshold"
            );
            let broken = session(6, &[1.0], "timeout");
            assert_eq!(verdict(&a, &broken, test), Verdict::Broken);
            assert!(Verdict::Broken.fails_gate() && !Verdict::Fixed.fails_gate());
        }
        // Mann-Whitney with three runs a side cannot reach p < 0.05 at all.
        let three = session(7, &[1.0, 1.01, 0.99], "ok");
        let three_slower = session(8, &[2.0, 2.01, 1.99], "ok");
        assert_eq!(
            verdict(&three, &three_slower, Test::MannWhitney),
            Verdict::TooFewRuns
        );
        assert_eq!(
            verdict(&three, &three_slower, Test::Welch),
            Verdict::Regression
        );
    }
}
