//! big: many-to-many ping/pong among many actors, in neighbourhoods.
//!
//! # On footlights
//!
//! Every worker is a [`Worker`] actor; one [`Sink`] actor collects their reports and
//! answers the main thread. Main splits the workers into neighbourhoods of `hood` (the last
//! may be smaller), spawns each neighbourhood, and hands every member the addresses of its
//! neighbourhood as one shared, immutable slice ([`Msg::Join`]): a worker names a
//! neighbour by its index in that slice, so a ping carries only the sender's index and no
//! address has to be cloned per message.
//!
//! Only when every member of a neighbourhood has been sent its `Join` does main send them
//! [`Msg::Go`]. A ping can only follow some member's `Go`, which main sent after every
//! `Join`, so each worker knows its neighbourhood before any ping reaches it.
//!
//! A worker pings a neighbour chosen uniformly at random among the others (itself if it is
//! alone), and pings again only when the pong has come back. A worker answers every ping it
//! gets with a pong, whether or not it has finished its own pings, so nobody waits for a
//! pong that never comes. After `pings` pongs a worker reports the number of pongs it
//! received to the sink. The sink adds the reports and answers once every worker has
//! reported; that sum is the check.
//!
//! The random choice is a per-worker xorshift generator seeded from the worker's number,
//! so a run needs no shared random state.
//!
//! The workers of a neighbourhood hold each other's addresses, so they stay alive (and keep
//! answering pings) until the system shuts down.

use std::sync::Arc;

use footlights::{Actor, Addr, Context, Placement, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// One worker.
pub struct Worker {
    /// Its index in its neighbourhood.
    index: u32,
    /// Its neighbourhood, itself included; set by [`Msg::Join`].
    hood: Arc<[Addr<Worker>]>,
    /// Pongs still to receive.
    left: u64,
    /// Pongs received.
    pongs: u64,
    rng: XorShift,
    sink: Addr<Sink>,
}

/// What a worker receives.
pub enum Msg {
    /// The neighbourhood, itself included.
    Join(Arc<[Addr<Worker>]>),
    /// Start pinging.
    Go,
    /// A ping from the neighbour with this index: answer with a pong.
    Ping(u32),
    /// The answer to this worker's ping.
    Pong,
}

impl Worker {
    /// Pings a random neighbour, or reports to the sink when all pings are done.
    fn next_ping(&mut self) {
        if self.left == 0 {
            let _ = self.sink.send(self.pongs);
            return;
        }
        let others = self.hood.len() as u64 - 1;
        let target = if others == 0 {
            self.index
        } else {
            // Uniform over the others: draw among `others`, then skip over ourselves.
            let k = self.rng.below(others) as u32;
            if k >= self.index { k + 1 } else { k }
        };
        let _ = self.hood[target as usize].send(Msg::Ping(self.index));
    }
}

impl Actor for Worker {
    type Msg = Msg;

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Join(hood) => self.hood = hood,
            Msg::Go => self.next_ping(),
            Msg::Ping(from) => {
                // Every neighbour is in the slice (see the module docs on `Join`).
                if let Some(neighbour) = self.hood.get(from as usize) {
                    let _ = neighbour.send(Msg::Pong);
                }
            }
            Msg::Pong => {
                self.pongs += 1;
                self.left -= 1;
                self.next_ping();
            }
        }
    }
}

/// Adds up the workers' pong counts.
pub struct Sink {
    /// Workers that have not reported yet.
    missing: u64,
    pongs: u64,
    answer: Option<ReplyTo<u64>>,
}

impl Actor for Sink {
    /// A worker's count of pongs received.
    type Msg = u64;

    fn handle(&mut self, ctx: &mut Context<Self>, pongs: u64) {
        self.pongs += pongs;
        self.missing -= 1;
        if self.missing == 0 {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.pongs);
            }
            ctx.stop();
        }
    }
}

/// A small xorshift64* generator: fast, and plenty for choosing a neighbour.
struct XorShift(u64);

impl XorShift {
    /// A generator seeded from `seed` (any value; it is mixed first).
    fn new(seed: u64) -> XorShift {
        // splitmix64 finaliser: spreads consecutive seeds, never gives 0 for them.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        XorShift((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`), by multiply-and-shift (bias below 2^-40 here).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

/// An experiment outside the contract (issue 15, point 3: what a message crossing cores
/// costs big): `BIG_PIN=hoods` pins neighbourhood `i` to stage `i`, `BIG_PIN=halves` pins
/// the first half of every neighbourhood to stage 0 and the second half to stage 1, and
/// `BIG_PIN=one` pins every worker to stage 0. Unset (the contract's runs), the runtime
/// places the workers.
#[derive(Clone, Copy)]
enum Pin {
    Runtime,
    Hoods,
    Halves,
    One,
}

impl Pin {
    /// The pinning `BIG_PIN` asks for; any value but the three is an error that names it.
    fn from_env() -> Result<Pin, String> {
        match std::env::var("BIG_PIN") {
            Err(std::env::VarError::NotPresent) => Ok(Pin::Runtime),
            Ok(value) => match value.as_str() {
                "hoods" => Ok(Pin::Hoods),
                "halves" => Ok(Pin::Halves),
                "one" => Ok(Pin::One),
                _ => Err(format!(
                    "BIG_PIN={value:?} is not one of hoods, halves, one (or unset)"
                )),
            },
            Err(std::env::VarError::NotUnicode(value)) => Err(format!(
                "BIG_PIN={value:?} is not one of hoods, halves, one (or unset)"
            )),
        }
    }

    fn placement(self, hood: u64, index: u64, size: u64) -> Placement {
        match self {
            Pin::Runtime => Placement::Default,
            Pin::Hoods => Placement::Stage(hood as usize),
            Pin::Halves => Placement::Stage(usize::from(index >= size / 2)),
            Pin::One => Placement::Stage(0),
        }
    }
}

/// Runs big with `workers`, `pings` and `hood` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let workers = inv.get("workers");
    let pings = inv.get("pings");
    let hood = inv.get("hood");
    let pin = Pin::from_env()?;

    let (answer, total) = footlights::reply::pair();
    let sink = system.spawn(Sink {
        missing: workers,
        pongs: 0,
        answer: Some(answer),
    });
    let empty: Arc<[Addr<Worker>]> = Arc::from(Vec::new());
    let mut first = 0;
    let mut hood_number = 0;
    while first < workers {
        let size = hood.min(workers - first);
        let members: Arc<[Addr<Worker>]> = (0..size)
            .map(|index| {
                let placement = pin.placement(hood_number, index, size);
                system.spawn_placed(
                    Worker {
                        index: index as u32,
                        hood: Arc::clone(&empty),
                        left: pings,
                        pongs: 0,
                        rng: XorShift::new(first + index),
                        sink: sink.clone(),
                    },
                    placement,
                )
            })
            .collect();
        let stopped = |_| "a worker stopped before it started".to_string();
        for member in members.iter() {
            member
                .send(Msg::Join(Arc::clone(&members)))
                .map_err(stopped)?;
        }
        for member in members.iter() {
            member.send(Msg::Go).map_err(stopped)?;
        }
        first += size;
        hood_number += 1;
    }
    drop(sink);

    let pongs = run::await_answer(system, total, "the sink's count of pongs")?;
    Ok(Outcome::new(pongs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = XorShift::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..10_000 {
            seen[rng.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 1500), "{seen:?}");
    }

    #[test]
    fn seeds_differ() {
        assert_ne!(XorShift::new(0).next(), XorShift::new(1).next());
    }
}
