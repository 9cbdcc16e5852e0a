//! chameneos: creatures meeting in pairs at one meeting place (contention and fairness).
//!
//! # On footlights
//!
//! Three kinds of actor:
//!
//! * a [`Creature`] per creature, with its id, its colour and its count of meetings;
//! * one [`Place`], the meeting place, which pairs creatures as their requests arrive;
//! * one [`Tally`], which collects every creature's own count at the end and answers the
//!   main thread.
//!
//! Main spawns the tally, the place and the creatures, then hands the place the creatures'
//! addresses ([`PlaceMsg::Start`]); the place tells every creature to go. A creature asks
//! for a meeting by sending [`PlaceMsg::Meet`] with its id and colour, and asks again only
//! when the place has confirmed a meeting ([`CreatureMsg::Met`]). The place keeps at most
//! one creature waiting. When a second arrives it applies [`meet`]: the two must be
//! different creatures, and both take the colour `complement(a, b)`. It tells each the
//! other's id and the new colour, and counts the meeting down. After the last meeting it
//! sends [`CreatureMsg::Stop`] to every creature and stops; requests that arrive after
//! that are dropped, since their senders' stop is already on its way.
//!
//! On stop, each creature reports its own count (and, separately, how often it was told
//! it had met itself) to the tally, which answers with the counts in creature order once
//! all have reported. The check is the sum of those counts, each counted by a creature
//! from the confirmations it received.
//!
//! A creature meeting itself fails the run twice over: the place refuses to pair a
//! creature with itself (it reports a fault to the tally, which answers with an error),
//! and the tally fails the run if any creature counted a meeting with itself.

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// A creature's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// Blue.
    Blue,
    /// Red.
    Red,
    /// Yellow.
    Yellow,
}

impl Colour {
    /// The starting colour of creature `id` (0-based): blue, red, yellow, blue, ...
    fn initial(id: usize) -> Colour {
        [Colour::Blue, Colour::Red, Colour::Yellow][id % 3]
    }

    /// The colour two creatures of colours `self` and `other` both take when they meet:
    /// the same colour if they agree, else the third one.
    pub fn complement(self, other: Colour) -> Colour {
        use Colour::*;
        match (self, other) {
            (a, b) if a == b => a,
            (Blue, Red) | (Red, Blue) => Yellow,
            (Blue, Yellow) | (Yellow, Blue) => Red,
            (Red, Yellow) | (Yellow, Red) => Blue,
            _ => unreachable!("every pair of different colours is listed"),
        }
    }
}

/// A creature waiting at, or arriving at, the meeting place: its id and colour.
type Visitor = (u32, Colour);

/// The meeting place's rule: pairs a waiting creature with an arriving one and gives the
/// colour both take, or refuses if they are the same creature.
pub fn meet(waiting: Visitor, arriving: Visitor) -> Result<Colour, String> {
    if waiting.0 == arriving.0 {
        return Err(format!(
            "the meeting place paired creature {} with itself",
            waiting.0
        ));
    }
    Ok(waiting.1.complement(arriving.1))
}

/// One creature.
pub struct Creature {
    id: u32,
    colour: Colour,
    /// Meetings confirmed by the place.
    met: u64,
    /// Confirmed meetings whose partner was this creature itself (must stay 0).
    met_itself: u64,
    place: Addr<Place>,
    tally: Addr<Tally>,
}

/// What a creature receives.
pub enum CreatureMsg {
    /// Start asking for meetings.
    Go,
    /// A meeting happened: with whom, and the colour to take.
    Met {
        /// The other creature's id.
        partner: u32,
        /// The new colour.
        colour: Colour,
    },
    /// The meetings are over: report and stop.
    Stop,
}

impl Creature {
    fn ask_for_meeting(&self) {
        // Fails only once the place has stopped, and then a stop is already on its way.
        let _ = self.place.send(PlaceMsg::Meet {
            id: self.id,
            colour: self.colour,
        });
    }
}

impl Actor for Creature {
    type Msg = CreatureMsg;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: CreatureMsg) {
        match msg {
            CreatureMsg::Go => self.ask_for_meeting(),
            CreatureMsg::Met { partner, colour } => {
                self.met += 1;
                if partner == self.id {
                    self.met_itself += 1;
                }
                self.colour = colour;
                self.ask_for_meeting();
            }
            CreatureMsg::Stop => {
                let _ = self.tally.send(TallyMsg::Report {
                    id: self.id,
                    met: self.met,
                    met_itself: self.met_itself,
                });
                ctx.stop();
            }
        }
    }
}

/// The meeting place.
pub struct Place {
    creatures: Vec<Addr<Creature>>,
    /// The creature waiting for a partner, if any.
    waiting: Option<Visitor>,
    /// Meetings still to happen.
    left: u64,
    tally: Addr<Tally>,
}

/// What the meeting place receives.
pub enum PlaceMsg {
    /// The creatures, in id order: tell them to go.
    Start(Vec<Addr<Creature>>),
    /// A creature asks for a meeting.
    Meet {
        /// Its id.
        id: u32,
        /// Its colour now.
        colour: Colour,
    },
}

impl Place {
    /// Tells every creature to stop, and stops.
    fn close(&mut self, ctx: &mut Context<Self>) {
        for creature in self.creatures.drain(..) {
            let _ = creature.send(CreatureMsg::Stop);
        }
        ctx.stop();
    }

    fn confirm(&self, id: u32, partner: u32, colour: Colour) {
        let _ = self.creatures[id as usize].send(CreatureMsg::Met { partner, colour });
    }
}

impl Actor for Place {
    type Msg = PlaceMsg;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: PlaceMsg) {
        match msg {
            PlaceMsg::Start(creatures) => {
                self.creatures = creatures;
                if self.left == 0 {
                    self.close(ctx);
                } else {
                    for creature in &self.creatures {
                        let _ = creature.send(CreatureMsg::Go);
                    }
                }
            }
            PlaceMsg::Meet { id, colour } => {
                let Some(waiting) = self.waiting.take() else {
                    self.waiting = Some((id, colour));
                    return;
                };
                match meet(waiting, (id, colour)) {
                    Ok(colour) => {
                        self.confirm(waiting.0, id, colour);
                        self.confirm(id, waiting.0, colour);
                        self.left -= 1;
                        if self.left == 0 {
                            self.close(ctx);
                        }
                    }
                    Err(fault) => {
                        let _ = self.tally.send(TallyMsg::Fault(fault));
                        self.close(ctx);
                    }
                }
            }
        }
    }
}

/// Collects the creatures' counts and answers the run.
pub struct Tally {
    counts: Vec<Option<u64>>,
    missing: usize,
    met_itself: u64,
    answer: Option<ReplyTo<Result<Vec<u64>, String>>>,
}

/// What the tally receives.
pub enum TallyMsg {
    /// A creature's own count, sent when it stops.
    Report {
        /// The creature.
        id: u32,
        /// Meetings it had.
        met: u64,
        /// Meetings it was told it had with itself.
        met_itself: u64,
    },
    /// The meeting place broke a rule: the run fails.
    Fault(String),
}

impl Tally {
    fn answer(&mut self, ctx: &mut Context<Self>, outcome: Result<Vec<u64>, String>) {
        if let Some(answer) = self.answer.take() {
            let _ = answer.send(outcome);
        }
        ctx.stop();
    }
}

impl Actor for Tally {
    type Msg = TallyMsg;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: TallyMsg) {
        match msg {
            TallyMsg::Fault(fault) => self.answer(ctx, Err(fault)),
            TallyMsg::Report {
                id,
                met,
                met_itself,
            } => {
                let slot = &mut self.counts[id as usize];
                if slot.replace(met).is_some() {
                    let fault = format!("creature {id} reported twice");
                    return self.answer(ctx, Err(fault));
                }
                self.met_itself += met_itself;
                self.missing -= 1;
                if self.missing > 0 {
                    return;
                }
                let outcome = if self.met_itself > 0 {
                    Err(format!(
                        "creatures counted {} meetings with themselves",
                        self.met_itself
                    ))
                } else {
                    Ok(self.counts.iter().map(|c| c.unwrap_or(0)).collect())
                };
                self.answer(ctx, outcome);
            }
        }
    }
}

/// Runs chameneos with `creatures` and `meetings` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let creatures = inv.get("creatures") as usize;
    let meetings = inv.get("meetings");

    let (answer, counts) = footlights::reply::pair();
    let tally = system.spawn(Tally {
        counts: vec![None; creatures],
        missing: creatures,
        met_itself: 0,
        answer: Some(answer),
    });
    let place = system.spawn(Place {
        creatures: Vec::new(),
        waiting: None,
        left: meetings,
        tally: tally.clone(),
    });
    let all: Vec<Addr<Creature>> = (0..creatures)
        .map(|id| {
            system.spawn(Creature {
                id: id as u32,
                colour: Colour::initial(id),
                met: 0,
                met_itself: 0,
                place: place.clone(),
                tally: tally.clone(),
            })
        })
        .collect();
    drop(tally);
    place
        .send(PlaceMsg::Start(all))
        .map_err(|_| "the meeting place stopped before it started".to_string())?;
    drop(place);

    let counts = run::await_answer(system, counts, "the creatures' counts")??;
    let total: u64 = counts.iter().sum();
    let list: Vec<String> = counts.iter().map(u64::to_string).collect();
    Ok(Outcome::new(total).with("counts", list.join(",")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::*;

    #[test]
    fn complement_is_the_third_colour_or_the_same() {
        for c in [Blue, Red, Yellow] {
            assert_eq!(c.complement(c), c);
        }
        assert_eq!(Blue.complement(Red), Yellow);
        assert_eq!(Red.complement(Yellow), Blue);
        assert_eq!(Yellow.complement(Blue), Red);
        for a in [Blue, Red, Yellow] {
            for b in [Blue, Red, Yellow] {
                assert_eq!(a.complement(b), b.complement(a));
            }
        }
    }

    #[test]
    fn initial_colours_cycle() {
        let colours: Vec<Colour> = (0..4).map(Colour::initial).collect();
        assert_eq!(colours, [Blue, Red, Yellow, Blue]);
    }

    #[test]
    fn the_place_refuses_to_pair_a_creature_with_itself() {
        assert_eq!(meet((3, Blue), (4, Red)), Ok(Yellow));
        let err = meet((3, Blue), (3, Blue)).unwrap_err();
        assert!(err.contains("creature 3 with itself"), "{err}");
    }
}
