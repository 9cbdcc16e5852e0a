//! chameneos on actix: creatures meet in pairs at one meeting-place actor.
//!
//! The meeting place and every creature are actix actors, all on main's arbiter: every
//! meeting goes through the one place, so creatures on other arbiters only add a
//! cross-thread hop to each request and confirmation (at two arbiters as fast, for twice
//! the CPU time, peers/README.md). A creature `do_send`s the place `Meet` with its id, colour and own `Addr`,
//! and asks again only once its meeting is confirmed. The place keeps at most one waiting
//! creature: the next request pairs with it, both get `Met` with the partner's id and the
//! complementary colour, and the place counts the meeting. Every creature has at most one
//! request outstanding, so the waiting creature is never the one asking; a creature told
//! it met itself counts that, and the run fails.
//!
//! After `meetings` meetings the place answers every further request (each creature makes
//! exactly one more, or is already waiting) with `Stop`. A stopped creature reports its
//! own meeting count to main over a tokio channel and stops. Main gathers one report per
//! creature: the counts in creature order, and their sum as the check.

use peer_kernels::tally::Tally;

use actix::prelude::*;
use suite_contract::Outcome;
use tokio::sync::mpsc;

/// A creature's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    Blue,
    Red,
    Yellow,
}

impl Colour {
    /// The colour both creatures take after meeting: the same colour if they agree,
    /// else the third one.
    fn complement(self, other: Colour) -> Colour {
        use Colour::*;
        match (self, other) {
            (a, b) if a == b => a,
            (Blue, Red) | (Red, Blue) => Yellow,
            (Blue, Yellow) | (Yellow, Blue) => Red,
            _ => Blue,
        }
    }
}

/// The meeting place.
struct Place {
    meetings_left: u64,
    waiting: Option<(usize, Colour, Addr<Creature>)>,
}

impl Actor for Place {
    type Context = Context<Self>;
}

/// A creature asks for a meeting.
#[derive(Message)]
#[rtype(result = "()")]
struct Meet {
    id: usize,
    colour: Colour,
    from: Addr<Creature>,
}

impl Handler<Meet> for Place {
    type Result = ();

    fn handle(&mut self, Meet { id, colour, from }: Meet, _ctx: &mut Context<Self>) {
        if self.meetings_left == 0 {
            from.do_send(Stop);
            return;
        }
        match self.waiting.take() {
            None => self.waiting = Some((id, colour, from)),
            Some((other_id, other_colour, other)) => {
                let colour = colour.complement(other_colour);
                from.do_send(Met {
                    partner: other_id,
                    colour,
                });
                other.do_send(Met {
                    partner: id,
                    colour,
                });
                self.meetings_left -= 1;
            }
        }
    }
}

/// What a stopped creature reports to main.
struct Report {
    id: usize,
    meetings: u64,
    met_itself: u64,
}

/// A creature.
struct Creature {
    id: usize,
    colour: Colour,
    meetings: u64,
    met_itself: u64,
    place: Addr<Place>,
    reports: mpsc::UnboundedSender<Report>,
}

impl Creature {
    fn ask_for_meeting(&self, ctx: &Context<Self>) {
        self.place.do_send(Meet {
            id: self.id,
            colour: self.colour,
            from: ctx.address(),
        });
    }
}

impl Actor for Creature {
    type Context = Context<Self>;
}

/// Ask for the first meeting.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

/// A meeting happened, with this partner; take this colour.
#[derive(Message)]
#[rtype(result = "()")]
struct Met {
    partner: usize,
    colour: Colour,
}

/// No more meetings: report and stop.
#[derive(Message)]
#[rtype(result = "()")]
struct Stop;

impl Handler<Start> for Creature {
    type Result = ();

    fn handle(&mut self, _: Start, ctx: &mut Context<Self>) {
        self.ask_for_meeting(ctx);
    }
}

impl Handler<Met> for Creature {
    type Result = ();

    fn handle(&mut self, Met { partner, colour }: Met, ctx: &mut Context<Self>) {
        self.meetings += 1;
        if partner == self.id {
            self.met_itself += 1;
        }
        self.colour = colour;
        self.ask_for_meeting(ctx);
    }
}

impl Handler<Stop> for Creature {
    type Result = ();

    fn handle(&mut self, _: Stop, ctx: &mut Context<Self>) {
        let _ = self.reports.send(Report {
            id: self.id,
            meetings: self.meetings,
            met_itself: self.met_itself,
        });
        ctx.stop();
    }
}

/// Runs `meetings` meetings among `creatures` creatures; the check is the sum of the
/// creatures' own counts, printed with the counts.
pub async fn run(creatures: u64, meetings: u64) -> Result<Outcome, String> {
    let creatures = creatures as usize;
    let place = Place {
        meetings_left: meetings,
        waiting: None,
    }
    .start();
    let (reports_tx, mut reports_rx) = mpsc::unbounded_channel();
    let herd: Vec<Addr<Creature>> = (0..creatures)
        .map(|id| {
            let place = place.clone();
            let reports = reports_tx.clone();
            Creature {
                id,
                colour: [Colour::Blue, Colour::Red, Colour::Yellow][id % 3],
                meetings: 0,
                met_itself: 0,
                place,
                reports,
            }
            .start()
        })
        .collect();
    drop(reports_tx);
    for creature in &herd {
        creature.do_send(Start);
    }
    let mut tally = Tally::new(creatures);
    for _ in 0..creatures {
        let report = reports_rx
            .recv()
            .await
            .ok_or("creatures stopped without reporting")?;
        tally.record(report.id, report.meetings, report.met_itself)?;
    }
    let (check, counts) = tally.finish()?;
    Ok(Outcome::new(check).with("counts", counts))
}
