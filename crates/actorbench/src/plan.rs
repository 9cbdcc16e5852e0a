//! The run matrix and the order it runs in.
//!
//! A *cell* is one combination of benchmark, parameter set, implementation and core
//! count. Every cell gets `warmup` warmup runs followed by `reps` measured runs. The
//! order of all those runs is one of:
//!
//! - **interleaved** (default): round by round; each round runs every cell once, the
//!   warmup rounds first. Consecutive runs cycle through the implementations, so a slow
//!   drift of the machine (thermal, other load) hits every implementation alike. The
//!   implementations of one benchmark point take turns at going first (round `r` starts
//!   the group at its `r`-th implementation): the first run after a change of benchmark
//!   or core count can pay for the change (fresh memory pages, caches, frequency), and a
//!   fixed order would charge that to the same implementation every time.
//! - **random**: all runs shuffled (a ChaCha8 generator seeded with the seed stored with the
//!   session); each cell's first `warmup` runs in the shuffled order are its warmups.
//! - **grouped**: each cell's runs back to back, cell after cell (the thesis's order).
//!
//! Within a round, cells go benchmark by benchmark (suite order), then parameter set,
//! then core count, then implementation.

use crate::params::Params;

/// One cell of the matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// Benchmark name.
    pub bench: String,
    /// Its parameters.
    pub params: Params,
    /// Implementation name.
    pub implementation: String,
    /// Cores (pinned CPUs and thread count).
    pub cores: usize,
}

/// One run to do: which cell, which repetition of which phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// Index into the cell list.
    pub cell: usize,
    /// Repetition within its phase, from 0.
    pub rep: u32,
    /// A warmup run.
    pub warmup: bool,
}

/// The run order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// Round-robin over all cells, so drift hits all alike.
    Interleaved,
    /// Seeded shuffle of all runs.
    Random,
    /// Each cell's runs back to back.
    Grouped,
}

impl Order {
    /// The order's name.
    pub fn name(self) -> &'static str {
        match self {
            Order::Interleaved => "interleaved",
            Order::Random => "random",
            Order::Grouped => "grouped",
        }
    }
}

/// What interleaved order runs before a measured run that would follow a run of
/// something else: one more warmup run of the same cell (stored, marked as a warmup, not
/// counted), so that the measured run does not pay for the change (see
/// [`crate::rounds`], "Settling").
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Settle {
    /// Nothing: a measured run may follow any other.
    Off,
    /// After a run of another benchmark point or core count: every measured run follows a
    /// run of its own benchmark point and core count (one more run per benchmark point and
    /// core count a round).
    Group,
    /// After a run of any other cell: every measured run follows a run of its own cell
    /// (up to twice the runs).
    Cell,
}

impl Settle {
    /// The setting's name.
    pub fn name(self) -> &'static str {
        match self {
            Settle::Off => "off",
            Settle::Group => "group",
            Settle::Cell => "cell",
        }
    }

    /// Whether a measured run of `cell`, in groups of `group` cells, needs a settling run
    /// when the last run was of `last` (`None`: no run yet, so nothing changed).
    ///
    /// ```
    /// use actorbench::plan::Settle;
    /// assert!(Settle::Group.needed(Some(0), 2, 2));
    /// assert!(!Settle::Group.needed(Some(0), 2, 1));
    /// assert!(Settle::Cell.needed(Some(0), 2, 1));
    /// assert!(!Settle::Cell.needed(None, 2, 1));
    /// ```
    pub fn needed(self, last: Option<usize>, group: usize, cell: usize) -> bool {
        let group = group.max(1);
        match (self, last) {
            (Settle::Off, _) | (_, None) => false,
            (Settle::Group, Some(last)) => last / group != cell / group,
            (Settle::Cell, Some(last)) => last != cell,
        }
    }
}

/// The cells for these benchmarks (each with its parameter sets), implementations and
/// core counts, in round order.
pub fn cells(
    benches: &[(String, Vec<Params>)],
    implementations: &[String],
    cores: &[usize],
) -> Vec<Cell> {
    let mut out = Vec::new();
    for (bench, sets) in benches {
        for params in sets {
            for &k in cores {
                for imp in implementations {
                    out.push(Cell {
                        bench: bench.clone(),
                        params: params.clone(),
                        implementation: imp.clone(),
                        cores: k,
                    });
                }
            }
        }
    }
    out
}

/// The jobs for `n_cells` cells with `warmup` + `reps` runs each, in `order`. Cells come
/// in groups of `group` consecutive cells (the implementations of one benchmark point and
/// core count, as [`cells`] lays them out), whose order rotates from round to round.
pub fn schedule(
    n_cells: usize,
    group: usize,
    warmup: u32,
    reps: u32,
    order: Order,
    seed: u64,
) -> Vec<Job> {
    let group = group.max(1);
    let per_cell = warmup + reps;
    let phase = |i: u32| {
        if i < warmup {
            (i, true)
        } else {
            (i - warmup, false)
        }
    };
    let mut jobs = Vec::with_capacity(n_cells * per_cell as usize);
    match order {
        Order::Interleaved => {
            for i in 0..per_cell {
                let (rep, warm) = phase(i);
                jobs.extend(
                    round(n_cells, group, i, |_| true)
                        .into_iter()
                        .map(|cell| Job {
                            cell,
                            rep,
                            warmup: warm,
                        }),
                );
            }
        }
        Order::Grouped => {
            for cell in 0..n_cells {
                jobs.extend((0..per_cell).map(|i| {
                    let (rep, warm) = phase(i);
                    Job {
                        cell,
                        rep,
                        warmup: warm,
                    }
                }));
            }
        }
        Order::Random => {
            let mut cells: Vec<usize> = (0..n_cells)
                .flat_map(|c| std::iter::repeat_n(c, per_cell as usize))
                .collect();
            use rand::SeedableRng;
            use rand::seq::SliceRandom;
            cells.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
            let mut seen = vec![0u32; n_cells];
            for cell in cells {
                let (rep, warm) = phase(seen[cell]);
                seen[cell] += 1;
                jobs.push(Job {
                    cell,
                    rep,
                    warmup: warm,
                });
            }
        }
    }
    jobs
}

/// The cells of interleaved round number `round` (from 0) that `active` keeps, in the
/// round's order: groups of `group` consecutive cells (the implementations of one
/// benchmark point and core count), each group starting at its `round`-th cell and
/// wrapping around, so that every implementation takes its turn at going first.
///
/// ```
/// let r = actorbench::plan::round(6, 3, 1, |c| c != 4);
/// assert_eq!(r, [1, 2, 0, 5, 3]);
/// ```
pub fn round(
    n_cells: usize,
    group: usize,
    round: u32,
    active: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let group = group.max(1);
    let mut out = Vec::with_capacity(n_cells);
    for start in (0..n_cells).step_by(group) {
        let size = group.min(n_cells - start);
        out.extend(
            (0..size)
                .map(|j| start + (j + round as usize) % size)
                .filter(|&c| active(c)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_runs_every_job_once_with_warmups_first() {
        for order in [Order::Interleaved, Order::Random, Order::Grouped] {
            let jobs = schedule(5, 2, 1, 3, order, 7);
            assert_eq!(jobs.len(), 20);
            for cell in 0..5 {
                let mine: Vec<&Job> = jobs.iter().filter(|j| j.cell == cell).collect();
                assert!(mine[0].warmup && mine[1..].iter().all(|j| !j.warmup));
                assert_eq!(
                    mine[1..].iter().map(|j| j.rep).collect::<Vec<_>>(),
                    [0, 1, 2]
                );
            }
        }
        let jobs = schedule(3, 1, 0, 2, Order::Interleaved, 0);
        assert_eq!(
            jobs.iter().map(|j| j.cell).collect::<Vec<_>>(),
            [0, 1, 2, 0, 1, 2]
        );
    }

    #[test]
    fn interleaved_rounds_rotate_which_implementation_goes_first() {
        // Two groups (benchmark points) of three implementations, three rounds.
        let jobs = schedule(6, 3, 0, 3, Order::Interleaved, 0);
        let cells: Vec<usize> = jobs.iter().map(|j| j.cell).collect();
        assert_eq!(
            cells,
            [0, 1, 2, 3, 4, 5, 1, 2, 0, 4, 5, 3, 2, 0, 1, 5, 3, 4]
        );
        // A last, smaller group rotates within itself.
        let jobs = schedule(5, 3, 0, 2, Order::Interleaved, 0);
        let cells: Vec<usize> = jobs.iter().map(|j| j.cell).collect();
        assert_eq!(cells, [0, 1, 2, 3, 4, 1, 2, 0, 4, 3]);
    }

    #[test]
    fn cells_cycle_implementations_fastest() {
        let p = vec![("b".to_string(), vec![Params::new()])];
        let c = cells(&p, &["x".into(), "y".into()], &[1, 2]);
        let names: Vec<(String, usize)> = c
            .iter()
            .map(|c| (c.implementation.clone(), c.cores))
            .collect();
        assert_eq!(
            names,
            [
                ("x".into(), 1),
                ("y".into(), 1),
                ("x".into(), 2),
                ("y".into(), 2)
            ]
        );
    }
}
