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

use crate::store::RunRecord;

/// A time to compare on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// The program's own work time (`seconds=`): start-up left out.
    #[default]
    Work,
    /// The whole process's wall time, start-up included.
    Wall,
    /// User plus system CPU time of the process.
    Cpu,
}

/// The share of wall time above which a cell's start-up is called out.
pub const STARTUP_SHARE_LIMIT: f64 = 0.20;

impl Metric {
    /// The flag value: `work`, `wall` or `cpu`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Work => "work",
            Metric::Wall => "wall",
            Metric::Cpu => "cpu",
        }
    }

    /// What it is, in words: `work time`, `wall time`, `CPU time`.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Work => "work time",
            Metric::Wall => "wall time",
            Metric::Cpu => "CPU time",
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
        match self {
            Metric::Work => r.work_s,
            Metric::Wall => Some(r.wall_s),
            Metric::Cpu => Some(r.user_s + r.sys_s),
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
