//! Which time the figures compare: the program's own work time, the whole process's wall
//! time, or the CPU time it used.
//!
//! Every run has two clocks. The harness times the whole process from outside (*wall*,
//! or process time: spawn to exit, so VM boot, code loading and shutdown are in it), and
//! the program reports the time of the work itself (*work*, its `seconds=`: from just
//! before its runtime is created until the check is known). Start-up is wall minus work.
//! *CPU* is user plus system time from `wait4`. Ratios, geometric means, intervals and
//! the regression gate use one of them, work by default; `--metric` picks another.
//!
//! A session stored before the harness read `seconds` has no work time at all; when no
//! metric is asked for, its figures fall back to wall time and say so.
//!
//! The event counters of a run ([`crate::counters`]) are metrics too: `--metric
//! page-faults` compares cells on their page faults, and so on for every counter. A
//! counter is a count, not a time ([`Metric::is_time`]; task-clock excepted), and a run
//! without it (a session stored before counters, or a machine without a PMU for the
//! hardware ones) has no value; [`check_available`] refuses a counter metric for a
//! session that has none.

use crate::counters::Counter;
use crate::output::units;
use crate::store::RunRecord;

/// A time to compare on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// The program's own work time (`seconds=`): start-up left out.
    #[default]
    Work,
    /// The whole process's wall time, start-up included.
    Wall,
    /// User plus system CPU time of the process.
    Cpu,
    /// Event counter: CPU time of the process tree (perf task-clock), in seconds.
    TaskClock,
    /// Event counter: context switches of the process tree.
    ContextSwitches,
    /// Event counter: CPU migrations of the process tree.
    CpuMigrations,
    /// Event counter: page faults of the process tree.
    PageFaults,
    /// Event counter: retired instructions (needs a PMU).
    Instructions,
    /// Event counter: CPU cycles (needs a PMU).
    Cycles,
    /// Event counter: cache misses (needs a PMU).
    CacheMisses,
    /// Event counter: branch misses (needs a PMU).
    BranchMisses,
}

/// The share of wall time above which a cell's start-up is called out.
pub const STARTUP_SHARE_LIMIT: f64 = 0.20;

impl Metric {
    /// The flag value: `work`, `wall`, `cpu`, or a counter's name (`page-faults`).
    pub fn name(self) -> &'static str {
        match (self, self.counter()) {
            (_, Some(c)) => c.name(),
            (Metric::Work, _) => "work",
            (Metric::Wall, _) => "wall",
            _ => "cpu",
        }
    }

    /// What it is, in words: `work time`, `wall time`, `CPU time`, or a counter's name.
    pub fn label(self) -> &'static str {
        match (self, self.counter()) {
            (_, Some(c)) => c.name(),
            (Metric::Work, _) => "work time",
            (Metric::Wall, _) => "wall time",
            _ => "CPU time",
        }
    }

    /// The event counter this metric reads, if it is one.
    pub fn counter(self) -> Option<Counter> {
        Some(match self {
            Metric::Work | Metric::Wall | Metric::Cpu => return None,
            Metric::TaskClock => Counter::TaskClock,
            Metric::ContextSwitches => Counter::ContextSwitches,
            Metric::CpuMigrations => Counter::CpuMigrations,
            Metric::PageFaults => Counter::PageFaults,
            Metric::Instructions => Counter::Instructions,
            Metric::Cycles => Counter::Cycles,
            Metric::CacheMisses => Counter::CacheMisses,
            Metric::BranchMisses => Counter::BranchMisses,
        })
    }

    /// Whether its values are seconds (work, wall, CPU, task-clock) rather than counts.
    pub fn is_time(self) -> bool {
        self.counter().is_none_or(Counter::is_time)
    }

    /// A value of this metric as text: `1.234 s`, `56.3 ms`, or a count (`12.3k`).
    ///
    /// ```
    /// use actorbench::metric::Metric;
    /// assert_eq!(Metric::Wall.show(0.5), "500.0 ms");
    /// assert_eq!(Metric::PageFaults.show(15_000.0), "15.0k");
    /// ```
    pub fn show(self, v: f64) -> String {
        if self.is_time() {
            units::seconds(v)
        } else {
            units::count(v)
        }
    }

    /// This time of one run, when the run has it.
    ///
    /// ```
    /// use actorbench::metric::Metric;
    /// use actorbench::store::RunRecord;
    /// let r = RunRecord { wall_s: 1.0, work_s: Some(0.75), user_s: 0.5, sys_s: 0.25, ..Default::default() };
    /// assert_eq!(Metric::Work.of(&r), Some(0.75));
    /// assert_eq!(Metric::Wall.of(&r), Some(1.0));
    /// assert_eq!(Metric::Cpu.of(&r), Some(0.75));
    /// ```
    pub fn of(self, r: &RunRecord) -> Option<f64> {
        match (self, self.counter()) {
            (_, Some(c)) => r.counters.get(c.name()).copied(),
            (Metric::Work, _) => r.work_s,
            (Metric::Wall, _) => Some(r.wall_s),
            _ => Some(r.user_s + r.sys_s),
        }
    }
}

/// The metric a view of `runs` uses: `given`, or work time; when nothing was given and no
/// successful run has a work time (a session stored before the harness read `seconds`),
/// wall time, with a note saying so.
pub fn resolve(given: Option<Metric>, runs: &[RunRecord]) -> (Metric, Option<String>) {
    let mut ok = runs.iter().filter(|r| r.ok()).peekable();
    let has_ok = ok.peek().is_some();
    match given {
        Some(m) => (m, None),
        None if has_ok && ok.all(|r| r.work_s.is_none()) => (
            Metric::Wall,
            Some(
                "this session has no work times (it was stored before the harness read seconds=): \
                 ratios are on wall time"
                    .into(),
            ),
        ),
        None => (Metric::Work, None),
    }
}

/// Refuses a counter `metric` for sessions that have successful runs but no value of it:
/// a session stored before counters were read, or one whose machine had no PMU (for
/// the hardware counters). Time metrics always pass.
pub fn check_available(
    metric: Metric,
    sessions: &[&crate::store::SessionData],
) -> Result<(), crate::error::UsageError> {
    let Some(c) = metric.counter() else {
        return Ok(());
    };
    for d in sessions {
        let ok = d.runs.iter().filter(|r| r.ok() && !r.warmup);
        if ok.clone().next().is_some() && ok.clone().all(|r| !r.counters.contains_key(c.name())) {
            let why = if d.runs.iter().any(|r| !r.counters.is_empty()) && c.hardware() {
                "its machine had no hardware performance counters"
            } else {
                "it has no event counters (stored before the harness read them, or counting was not permitted)"
            };
            return Err(crate::error::UsageError::new(format!(
                "--metric {}: session {} has no {} counts: {why}",
                c.name(),
                d.session.id,
                c.name()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_session_falls_back_to_wall_time_and_says_so() {
        let old = RunRecord {
            status: "ok".into(),
            wall_s: 1.0,
            ..Default::default()
        };
        let new = RunRecord {
            work_s: Some(0.5),
            ..old.clone()
        };
        assert_eq!(
            resolve(None, std::slice::from_ref(&new)),
            (Metric::Work, None)
        );
        let (m, note) = resolve(None, std::slice::from_ref(&old));
        assert_eq!(m, Metric::Wall);
        assert!(note.unwrap().contains("no work times"));
        assert_eq!(resolve(Some(Metric::Work), &[old]), (Metric::Work, None));
    }
}
