//! logmap: logistic-map series computed through rate actors (Savina's logistic map).
//!
//! # On footlights
//!
//! `series` [`Series`] actors, as many [`Rate`] actors, and a [`Tally`]; series `i` asks
//! rate actor `i` only. Rate actor `i` has the rate `R + i*D` (`R = rate/10000`,
//! `D = increment/10000`, the product rounded before the sum), and series `i` starts from
//! `(i+1)/(series+1)`. A series sends its current term with its address to its rate
//! actor ([`Compute`]), which answers `(r*x)*(1-x)`; the answer becomes the current term,
//! the series adds `floor(x * 2^32)` to its sum, and asks again, `terms` times in all, one
//! request in flight. It then reports its sum to the tally and stops. The tally's sum is
//! the check.

use footlights::{Actor, Addr, Context, System};
use suite_contract::{Invocation, Outcome};

use crate::run;
use crate::tally::Tally;

/// A request for the next term after `x`, answered to `from`.
pub struct Compute {
    x: f64,
    from: Addr<Series>,
}

/// Computes next terms at one rate.
pub struct Rate {
    r: f64,
}

impl Actor for Rate {
    type Msg = Compute;

    fn handle(&mut self, _ctx: &mut Context<Self>, Compute { x, from }: Compute) {
        let _ = from.send((self.r * x) * (1.0 - x));
    }
}

/// One series of terms.
pub struct Series {
    x: f64,
    /// The sum of `floor(x * 2^32)` over the terms received.
    sum: u64,
    /// Terms still to compute.
    left: u64,
    rate: Addr<Rate>,
    tally: Addr<Tally>,
}

impl Series {
    /// Asks for the next term, or reports the last.
    fn next(&mut self, ctx: &mut Context<Self>) {
        if self.left == 0 {
            let _ = self.tally.send((self.sum, 0));
            return ctx.stop();
        }
        self.left -= 1;
        let from = ctx.addr();
        let _ = self.rate.send(Compute { x: self.x, from });
    }
}

impl Actor for Series {
    /// The next term.
    type Msg = f64;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.next(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, x: f64) {
        self.x = x;
        let scaled = (x * 4_294_967_296.0).floor() as u64;
        self.sum = self.sum.wrapping_add(scaled);
        self.next(ctx);
    }
}

/// Runs logmap with `terms`, `series`, `rate` and `increment` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let series = inv.get("series");
    let base = inv.get("rate") as f64 / 10000.0;
    let increment = inv.get("increment") as f64 / 10000.0;
    let (tally, sums) = Tally::spawn(system, series);
    for i in 0..series {
        let offset = i as f64 * increment;
        let rate = system.spawn(Rate { r: base + offset });
        system.spawn(Series {
            x: (i + 1) as f64 / (series + 1) as f64,
            sum: 0,
            left: inv.get("terms"),
            rate,
            tally: tally.clone(),
        });
    }
    drop(tally);
    let (sum, _) = run::await_answer(system, sums, "the series' reports")?;
    Ok(Outcome::new(sum))
}
