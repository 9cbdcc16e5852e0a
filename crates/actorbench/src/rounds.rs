//! The measuring loop of a session: which run comes next, when a cell has had enough, and
//! when the time budget says stop.
//!
//! The loop hands each job (a cell, a repetition, warmup or measured) to the caller, who
//! runs, stores and shows it, and gets the run back to decide what follows:
//!
//! - **interleaved**: round after round, every cell still running gets one run per round
//!   ([`crate::plan::round`], whose order rotates which implementation goes first); the
//!   warmup rounds come first and include every cell. A cell leaves the rounds when
//!   [`Repetitions::stop`] says it has had enough (its fixed count, or a tight enough
//!   interval, or its maximum), or as soon as one of its runs times out (`timeout`: a
//!   hung program is not given the whole timeout again and again).
//!
//!   With a budget, the budget is *spent* when, at a round boundary after the first
//!   measured round, the next round (estimated from the last one's time per cell, its
//!   settling runs included, times the cells still running) would end past it, or,
//!   checked before every run, when the session's time has passed it. From then on every
//!   cell that has had its [`Repetitions::floor`] of measured runs (`--min-reps`) is
//!   stopped (`budget`), and the cells below it keep getting rounds until they reach it:
//!   the budget never leaves a cell with fewer runs than `compare` needs because another
//!   cell was slow.
//!
//!   *Settling* (`--settle group`, the default): in each measured round, the first run
//!   of a benchmark point and core count (a group) after a run of another group is
//!   preceded by one more warmup run of the same cell, so that every measured run but a
//!   session's very first follows a run of its own benchmark point and core count.
//!   `--settle cell` does the same before every measured run that follows a run of
//!   another cell (at most twice the runs), `--settle off` never. The first run after a
//!   change pays for it in some benchmarks (skynet and spreading on the 2-CPU virtual
//!   machines of `docs/` take up to 8 and 2 times as long; the kernel hands them memory
//!   that the previous, smaller process did not touch), and rotating which
//!   implementation goes first spreads that cost evenly only over an even number of
//!   rounds: over an odd number one implementation pays it once more, which is enough
//!   to move a median from one mode to the other. With settling by group, no measured
//!   run pays for a change of benchmark. Implementations whose memory use differs still
//!   pay for following each other: the one that touches more memory runs faster after
//!   its own run than after the other's (spreading at one thread in FIFO order, 148 ms
//!   after its own run, about 400 after hand-off order's); settling by cell measures
//!   every run after its own.
//! - **grouped**: each cell's warmups and measured runs back to back, until it stops.
//! - **random**: the seeded shuffle of [`crate::plan::schedule`], fixed counts only.

use std::time::{Duration, Instant};

use anyhow::Result;

use crate::metric::Metric;
use crate::plan::{self, Job, Order, Settle};
use crate::repetitions::{Repetitions, Stop};
use crate::store::RunRecord;

/// What the loop runs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Number of cells.
    pub cells: usize,
    /// Cells per group (implementations per benchmark point and core count).
    pub group: usize,
    /// Warmup runs per cell.
    pub warmup: u32,
    /// The repetition mode.
    pub reps: Repetitions,
    /// The order.
    pub order: Order,
    /// Seed of the random order.
    pub seed: u64,
    /// Time budget in seconds (interleaved order only).
    pub budget: Option<f64>,
    /// The time adaptive stopping looks at.
    pub metric: Metric,
    /// Interleaved order: what settles a measured run that follows a run of something
    /// else (see the module documentation).
    pub settle: Settle,
}

/// How the loop ended.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Runs done.
    pub done: usize,
    /// Runs that failed.
    pub failed: usize,
    /// Measured runs per cell.
    pub measured: Vec<u32>,
    /// Why each cell stopped (`None`: the loop ended first, by an interrupt).
    pub stops: Vec<Option<Stop>>,
    /// When the budget stopped the loop: the last round's duration.
    pub budget_stopped: Option<Duration>,
}

/// Runs the plan. `execute(job, seq, remaining)` runs, stores and shows one job (its
/// sequence number in the session, and at most how many runs are left after it) and
/// returns the stored run, or `None` when the user interrupted it (the loop then ends).
pub fn run(
    plan: &Plan,
    mut execute: impl FnMut(Job, usize, usize) -> Result<Option<RunRecord>>,
) -> Result<Outcome> {
    let n = plan.cells;
    let mut st = State {
        plan,
        out: Outcome {
            measured: vec![0; n],
            stops: vec![None; n],
            ..Default::default()
        },
        values: vec![Vec::new(); n],
        warmed: vec![0; n],
    };
    match plan.order {
        Order::Random => {
            let jobs = plan::schedule(
                n,
                plan.group,
                plan.warmup,
                plan.reps.max(),
                Order::Random,
                plan.seed,
            );
            for job in jobs {
                if !st.step(job, &mut execute)? {
                    break;
                }
            }
        }
        Order::Grouped => {
            'cells: for cell in 0..n {
                while st.out.stops[cell].is_none() {
                    if !st.step(st.next_job(cell), &mut execute)? {
                        break 'cells;
                    }
                }
            }
        }
        Order::Interleaved => {
            let started = Instant::now();
            let budget = plan.budget.map(Duration::from_secs_f64);
            let mut last_round = Duration::ZERO;
            // The cell of the last run, for settling.
            let mut last: Option<usize> = None;
            for r in 0u32.. {
                let active: Vec<usize> =
                    plan::round(n, plan.group, r, |c| st.out.stops[c].is_none());
                if active.is_empty() {
                    break;
                }
                let round_started = Instant::now();
                let mut ran = 0usize;
                for &cell in &active {
                    if let Some(b) = budget
                        && st.out.budget_stopped.is_none()
                        && started.elapsed() > b
                    {
                        // Spent in the middle of a round.
                        st.out.budget_stopped = Some(last_round.max(round_started.elapsed()));
                    }
                    if st.out.budget_stopped.is_some() {
                        st.stop_at_floor();
                    }
                    if st.out.stops[cell].is_some() {
                        continue;
                    }
                    if r >= plan.warmup && plan.settle.needed(last, plan.group, cell) {
                        // One more warmup of this cell first (settling).
                        let settling = Job {
                            cell,
                            rep: st.warmed[cell],
                            warmup: true,
                        };
                        // Not counted in `ran`: the next round's estimate is the time per
                        // cell, its settling included.
                        if !st.step(settling, &mut execute)? {
                            return Ok(st.out);
                        }
                        last = Some(cell);
                        if st.out.stops[cell].is_some() {
                            // It timed out.
                            continue;
                        }
                    }
                    last = Some(cell);
                    if !st.step(st.next_job(cell), &mut execute)? {
                        return Ok(st.out);
                    }
                    ran += 1;
                }
                let took = round_started.elapsed();
                last_round = took;
                let measured_round = r >= plan.warmup;
                let still: usize = (0..n).filter(|&c| st.out.stops[c].is_none()).count();
                if let Some(b) = budget
                    && st.out.budget_stopped.is_none()
                    && measured_round
                    && still > 0
                    && ran > 0
                {
                    let next = took.mul_f64(still as f64 / ran as f64);
                    if started.elapsed() + next > b {
                        st.out.budget_stopped = Some(took);
                    }
                }
                if st.out.budget_stopped.is_some() {
                    st.stop_at_floor();
                }
            }
        }
    }
    Ok(st.out)
}

struct State<'p> {
    plan: &'p Plan,
    out: Outcome,
    values: Vec<Vec<f64>>,
    warmed: Vec<u32>,
}

impl State<'_> {
    fn next_job(&self, cell: usize) -> Job {
        if self.warmed[cell] < self.plan.warmup {
            Job {
                cell,
                rep: self.warmed[cell],
                warmup: true,
            }
        } else {
            Job {
                cell,
                rep: self.out.measured[cell],
                warmup: false,
            }
        }
    }

    /// Once the budget is spent: stops every running cell that has had its floor.
    fn stop_at_floor(&mut self) {
        let floor = self.plan.reps.floor();
        for c in 0..self.plan.cells {
            if self.out.stops[c].is_none() && self.out.measured[c] >= floor {
                self.out.stops[c] = Some(Stop::Budget);
            }
        }
    }

    /// Runs at most how many more runs are left, for progress.
    fn remaining(&self) -> usize {
        let left = |c: usize| self.plan.reps.max().saturating_sub(self.out.measured[c]) as usize;
        let running = |c: &usize| self.out.stops[*c].is_none();
        let cells: usize = (0..self.plan.cells)
            .filter(running)
            .map(|c| (self.plan.warmup - self.warmed[c].min(self.plan.warmup)) as usize + left(c))
            .sum();
        if self.plan.order != Order::Interleaved {
            return cells;
        }
        let group = match self.plan.settle {
            Settle::Off => return cells,
            // A settling run before each measured run, at most.
            Settle::Cell => {
                return cells
                    + (0..self.plan.cells)
                        .filter(running)
                        .map(left)
                        .sum::<usize>();
            }
            Settle::Group => self.plan.group.max(1),
        };
        // A settling run a round for each group, while any of its cells runs.
        let settling: usize = (0..self.plan.cells)
            .step_by(group)
            .map(|g| {
                (g..(g + group).min(self.plan.cells))
                    .filter(running)
                    .map(left)
                    .max()
                    .unwrap_or(0)
            })
            .sum();
        cells + settling
    }

    /// Runs one job; false when the loop must end (interrupted).
    fn step(
        &mut self,
        job: Job,
        execute: &mut impl FnMut(Job, usize, usize) -> Result<Option<RunRecord>>,
    ) -> Result<bool> {
        let seq = self.out.done;
        let remaining = self.remaining().saturating_sub(1);
        let Some(rec) = execute(job, seq, remaining)? else {
            return Ok(false);
        };
        self.out.done += 1;
        if !rec.ok() {
            self.out.failed += 1;
        }
        let c = job.cell;
        let timed_out = rec.status == "timeout";
        if job.warmup {
            self.warmed[c] += 1;
            if timed_out {
                self.out.stops[c] = Some(Stop::Timeout);
            }
            return Ok(true);
        }
        self.out.measured[c] += 1;
        if timed_out && self.out.stops[c].is_none() {
            self.out.stops[c] = Some(Stop::Timeout);
        }
        if rec.ok()
            && let Some(v) = self.plan.metric.of(&rec)
        {
            self.values[c].push(v);
        }
        if self.out.stops[c].is_none() {
            self.out.stops[c] = self.plan.reps.stop(self.out.measured[c], &self.values[c]);
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(reps: Repetitions, order: Order) -> Plan {
        Plan {
            cells: 3,
            group: 3,
            warmup: 1,
            reps,
            order,
            seed: 1,
            budget: None,
            metric: Metric::Wall,
            settle: Settle::Off,
        }
    }

    /// Cell 0 is steady, cell 1 noisy, cell 2 always fails.
    fn fake(job: Job) -> RunRecord {
        let wall = match job.cell {
            0 => 1.0 + 0.001 * job.rep as f64,
            1 => 1.0 + 0.5 * (job.rep % 2) as f64,
            _ => 1.0,
        };
        RunRecord {
            status: if job.cell == 2 { "exit" } else { "ok" }.into(),
            wall_s: wall,
            ..Default::default()
        }
    }

    #[test]
    fn adaptive_cells_stop_on_their_own() {
        let reps = Repetitions::Adaptive {
            min: 3,
            max: 8,
            target_pct: 2.0,
        };
        for order in [Order::Interleaved, Order::Grouped] {
            let mut seen = Vec::new();
            let out = run(&plan(reps, order), |job, seq, _| {
                seen.push((seq, job));
                Ok(Some(fake(job)))
            })
            .unwrap();
            // The steady cell is checked from 6 runs on, when its interval can cover 95%.
            assert_eq!(out.measured, [6, 8, 3], "{order:?}");
            assert_eq!(
                out.stops,
                [
                    Some(Stop::TargetCi),
                    Some(Stop::MaxReps),
                    Some(Stop::Failing)
                ]
            );
            assert_eq!(out.done, 3 + 6 + 8 + 3);
            assert_eq!(out.failed, 4);
            // Warmups first, for every cell.
            for c in 0..3 {
                let first = seen.iter().find(|(_, j)| j.cell == c).unwrap().1;
                assert!(first.warmup);
            }
        }
    }

    #[test]
    fn a_fixed_count_is_exact_and_an_interrupt_ends_the_loop() {
        let out = run(&plan(Repetitions::Fixed(4), Order::Random), |job, _, _| {
            Ok(Some(fake(job)))
        })
        .unwrap();
        assert_eq!(out.measured, [4, 4, 4]);
        assert_eq!(out.stops, [Some(Stop::Reps); 3]);
        let mut n = 0;
        let out = run(
            &plan(Repetitions::Fixed(4), Order::Interleaved),
            |job, _, _| {
                n += 1;
                Ok((n <= 5).then(|| fake(job)))
            },
        )
        .unwrap();
        assert_eq!(out.done, 5);
        assert_eq!(out.stops, [None, None, None]);
    }

    #[test]
    fn a_cell_that_timed_out_gets_no_more_runs() {
        for order in [Order::Interleaved, Order::Grouped] {
            let out = run(&plan(Repetitions::Fixed(4), order), |job, _, _| {
                let mut r = fake(job);
                if job.cell == 1 {
                    r.status = "timeout".into();
                }
                Ok(Some(r))
            })
            .unwrap();
            // Its warmup timed out: no measured run, the others go on.
            assert_eq!(out.measured, [4, 0, 4], "{order:?}");
            assert_eq!(
                out.stops,
                [Some(Stop::Reps), Some(Stop::Timeout), Some(Stop::Reps)]
            );
        }
    }

    /// Two groups (benchmark points) of two implementations each, `reps` fixed runs,
    /// settled by `settle`.
    fn two_groups(reps: u32, settle: Settle) -> Plan {
        Plan {
            cells: 4,
            group: 2,
            settle,
            ..plan(Repetitions::Fixed(reps), Order::Interleaved)
        }
    }

    /// A run that ended as `status`, of one second.
    fn ended(status: &str) -> RunRecord {
        RunRecord {
            status: status.into(),
            wall_s: 1.0,
            ..Default::default()
        }
    }

    #[test]
    fn settling_puts_a_run_of_its_own_group_before_every_measured_run() {
        let settled = two_groups(3, Settle::Group);
        let mut seen = Vec::new();
        let out = run(&settled, |job, _, _| {
            seen.push(job);
            Ok(Some(ended("ok")))
        })
        .unwrap();
        assert_eq!(out.measured, [3, 3, 3, 3]);
        // The warmup round, then three rounds of two groups, each with one settling run.
        assert_eq!(out.done, 4 + 3 * (4 + 2));
        assert_eq!(seen.iter().filter(|j| j.warmup).count(), 4 + 3 * 2);
        for (k, job) in seen.iter().enumerate().filter(|(_, j)| !j.warmup) {
            assert_eq!(
                seen[k - 1].cell / 2,
                job.cell / 2,
                "run {k} follows its own group"
            );
        }
        // The second round (rotated) starts with group 0's settling run of cell 1.
        let cells: Vec<(usize, bool)> = seen[4..10].iter().map(|j| (j.cell, j.warmup)).collect();
        assert_eq!(
            cells,
            [
                (1, true),
                (1, false),
                (0, false),
                (3, true),
                (3, false),
                (2, false)
            ]
        );
        // Without warmups, a session's very first run follows no other, and is measured.
        let cold = Plan {
            warmup: 0,
            ..settled.clone()
        };
        let mut first = None;
        run(&cold, |job, _, _| {
            first.get_or_insert(job);
            Ok(Some(fake(job)))
        })
        .unwrap();
        assert!(!first.unwrap().warmup);
        // By cell: every measured run follows a run of its own cell.
        let by_cell = two_groups(3, Settle::Cell);
        let mut seen = Vec::new();
        let out = run(&by_cell, |job, _, _| {
            seen.push(job);
            Ok(Some(ended("ok")))
        })
        .unwrap();
        assert_eq!(out.measured, [3, 3, 3, 3]);
        for (k, job) in seen.iter().enumerate().filter(|(_, j)| !j.warmup) {
            assert_eq!(seen[k - 1].cell, job.cell, "run {k} follows its own cell");
        }
        assert_eq!(out.done, 4 + 3 * 4 * 2);
        // One group: nothing changes between its runs, so nothing settles.
        let one = Plan {
            cells: 2,
            group: 2,
            settle: Settle::Group,
            ..plan(Repetitions::Fixed(3), Order::Interleaved)
        };
        let out = run(&one, |job, _, _| Ok(Some(fake(job)))).unwrap();
        assert_eq!(out.done, 2 + 3 * 2);
    }

    #[test]
    fn a_settling_run_that_times_out_settles_its_group() {
        // Round 1 settles group 0 with cell 1 (it goes first), whose runs all time out
        // from then on: cell 0 then follows a run of its own group and is not settled
        // again.
        let settled = two_groups(2, Settle::Group);
        let mut seen = Vec::new();
        let out = run(&settled, |job, _, _| {
            seen.push(job);
            let hangs = job.cell == 1 && seen.len() > 4;
            Ok(Some(ended(if hangs { "timeout" } else { "ok" })))
        })
        .unwrap();
        assert_eq!(out.stops[1], Some(Stop::Timeout));
        assert_eq!(out.measured, [2, 0, 2, 2]);
        let round1: Vec<(usize, bool)> = seen[4..8].iter().map(|j| (j.cell, j.warmup)).collect();
        assert_eq!(round1, [(1, true), (0, false), (3, true), (3, false)]);
    }

    /// A plan whose runs take `each` (slept), with a budget.
    fn timed(reps: Repetitions, budget: f64) -> Plan {
        Plan {
            warmup: 0,
            budget: Some(budget),
            ..plan(reps, Order::Interleaved)
        }
    }

    #[test]
    fn the_budget_never_stops_a_cell_below_its_floor() {
        // Every run overshoots the whole budget: still each cell gets --min-reps runs.
        let reps = Repetitions::Adaptive {
            min: 3,
            max: 10,
            target_pct: 0.001,
        };
        let out = run(&timed(reps, 0.01), |job, _, _| {
            std::thread::sleep(Duration::from_millis(20));
            let mut r = fake(job);
            r.status = "ok".into();
            Ok(Some(r))
        })
        .unwrap();
        assert_eq!(out.measured, [3, 3, 3]);
        assert_eq!(out.stops, [Some(Stop::Budget); 3]);
        assert!(out.budget_stopped.is_some());
    }

    #[test]
    fn the_budget_is_checked_inside_a_round() {
        // Rounds are quick until one run of cell 0 takes far past the budget; no run may
        // start after that (every cell has had its floor of 1), though the round is not over.
        let reps = Repetitions::Adaptive {
            min: 1,
            max: 10,
            target_pct: 0.001,
        };
        let started = Instant::now();
        let mut late = Vec::new();
        let out = run(&timed(reps, 0.3), |job, _, _| {
            if started.elapsed() > Duration::from_secs_f64(0.3) {
                late.push(job);
            }
            if job.cell == 0 && job.rep == 2 {
                std::thread::sleep(Duration::from_millis(600));
            }
            let mut r = fake(job);
            r.status = "ok".into();
            Ok(Some(r))
        })
        .unwrap();
        assert!(late.is_empty(), "runs started after the budget: {late:?}");
        assert_eq!(out.stops, [Some(Stop::Budget); 3]);
        assert_eq!(out.measured[0], 3);
    }
}
