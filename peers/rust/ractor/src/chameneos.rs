//! chameneos on ractor: creatures meet in pairs at one meeting-place actor.
//!
//! The meeting place and every creature are ractor actors. A creature casts
//! `Meet { id, colour, from }` (its own `ActorRef` as `from`) and asks again only once its
//! meeting is confirmed. The place keeps at most one waiting creature: the next request
//! pairs with it, both get `Met` with the partner's id and the complementary colour, and
//! the place counts the meeting. Since every creature has at most one request outstanding,
//! the waiting creature is never the one asking; a creature that is nevertheless told it
//! met itself counts that, and the run fails.
//!
//! After `meetings` meetings the place answers every further request (each creature makes
//! exactly one more, or is already waiting) with `Stop`. A stopped creature reports its
//! own meeting count to main over a tokio channel and ends. Main gathers one report per
//! creature: the counts in creature order, and their sum as the check.

use peer_kernels::tally::Tally;

use ractor::{Actor, ActorProcessingErr, ActorRef, cast};
use suite_contract::Outcome;
use tokio::sync::mpsc;

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

/// Messages of the meeting place.
pub enum PlaceMsg {
    /// A creature asks for a meeting.
    Meet {
        /// The creature's 0-based id.
        id: usize,
        /// Its current colour.
        colour: Colour,
        /// Where to send the answer.
        from: ActorRef<CreatureMsg>,
    },
}

/// Messages of a creature.
pub enum CreatureMsg {
    /// Ask for the first meeting.
    Start,
    /// A meeting happened, with this partner; take this colour.
    Met {
        /// The partner's id.
        partner: usize,
        /// The new colour.
        colour: Colour,
    },
    /// No more meetings: report and end.
    Stop,
}

/// What a stopped creature reports to main.
struct Report {
    id: usize,
    meetings: u64,
    met_itself: u64,
}

/// The meeting place's behaviour.
struct Place;

/// The meeting place's state.
struct PlaceState {
    meetings_left: u64,
    waiting: Option<(usize, Colour, ActorRef<CreatureMsg>)>,
}

impl Actor for Place {
    type Msg = PlaceMsg;
    type State = PlaceState;
    type Arguments = u64;

    async fn pre_start(
        &self,
        _myself: ActorRef<PlaceMsg>,
        meetings: u64,
    ) -> Result<PlaceState, ActorProcessingErr> {
        Ok(PlaceState {
            meetings_left: meetings,
            waiting: None,
        })
    }

    async fn handle(
        &self,
        _myself: ActorRef<PlaceMsg>,
        PlaceMsg::Meet { id, colour, from }: PlaceMsg,
        state: &mut PlaceState,
    ) -> Result<(), ActorProcessingErr> {
        if state.meetings_left == 0 {
            cast!(from, CreatureMsg::Stop).expect("creature stopped early");
            return Ok(());
        }
        match state.waiting.take() {
            None => state.waiting = Some((id, colour, from)),
            Some((other_id, other_colour, other)) => {
                let colour = colour.complement(other_colour);
                cast!(
                    from,
                    CreatureMsg::Met {
                        partner: other_id,
                        colour
                    }
                )
                .expect("creature stopped early");
                cast!(
                    other,
                    CreatureMsg::Met {
                        partner: id,
                        colour
                    }
                )
                .expect("creature stopped early");
                state.meetings_left -= 1;
            }
        }
        Ok(())
    }
}

/// A creature's behaviour.
struct Creature;

/// A creature's state.
struct CreatureState {
    id: usize,
    colour: Colour,
    meetings: u64,
    met_itself: u64,
    place: ActorRef<PlaceMsg>,
    reports: mpsc::UnboundedSender<Report>,
}

impl CreatureState {
    fn ask(&self, myself: ActorRef<CreatureMsg>) {
        let request = PlaceMsg::Meet {
            id: self.id,
            colour: self.colour,
            from: myself,
        };
        cast!(self.place, request).expect("meeting place stopped");
    }
}

impl Actor for Creature {
    type Msg = CreatureMsg;
    type State = CreatureState;
    type Arguments = (usize, ActorRef<PlaceMsg>, mpsc::UnboundedSender<Report>);

    async fn pre_start(
        &self,
        _myself: ActorRef<CreatureMsg>,
        (id, place, reports): Self::Arguments,
    ) -> Result<CreatureState, ActorProcessingErr> {
        let colour = [Colour::Blue, Colour::Red, Colour::Yellow][id % 3];
        Ok(CreatureState {
            id,
            colour,
            meetings: 0,
            met_itself: 0,
            place,
            reports,
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<CreatureMsg>,
        message: CreatureMsg,
        state: &mut CreatureState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            CreatureMsg::Start => state.ask(myself),
            CreatureMsg::Met { partner, colour } => {
                state.meetings += 1;
                if partner == state.id {
                    state.met_itself += 1;
                }
                state.colour = colour;
                state.ask(myself);
            }
            CreatureMsg::Stop => {
                let _ = state.reports.send(Report {
                    id: state.id,
                    meetings: state.meetings,
                    met_itself: state.met_itself,
                });
                myself.stop(None);
            }
        }
        Ok(())
    }
}

/// Runs `meetings` meetings among `creatures` creatures; the check is the sum of the
/// creatures' own counts, printed with the counts.
pub async fn run(creatures: u64, meetings: u64) -> Result<Outcome, String> {
    let creatures = creatures as usize;
    let (place, _) = Actor::spawn(None, Place, meetings)
        .await
        .map_err(|e| format!("cannot spawn the meeting place: {e}"))?;
    let (reports_tx, mut reports_rx) = mpsc::unbounded_channel();
    let mut herd = Vec::with_capacity(creatures);
    for id in 0..creatures {
        let (creature, _) = Actor::spawn(None, Creature, (id, place.clone(), reports_tx.clone()))
            .await
            .map_err(|e| format!("cannot spawn creature {id}: {e}"))?;
        herd.push(creature);
    }
    drop(reports_tx);
    for creature in &herd {
        cast!(creature, CreatureMsg::Start).map_err(|e| format!("starting a creature: {e}"))?;
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
