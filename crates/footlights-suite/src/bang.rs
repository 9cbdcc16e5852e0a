//! bang: many senders flooding one receiver (BenchErl's bang).
//!
//! # On footlights
//!
//! One [`Receiver`] actor and `senders` [`Sender`] actors. Each sender, as soon as it has
//! started ([`Actor::started`]), sends `messages` [`Msg::Bang`] messages to the receiver as
//! fast as it can, then one [`Msg::Done`], and stops. The receiver counts every bang it
//! receives. Messages from one sender arrive in the order sent, so a sender's `Done` comes
//! after all its bangs; when every sender's `Done` has arrived, the receiver answers the
//! main thread with its count, which is the check. The count is not compared with
//! `senders * messages` anywhere: a lost message would show as a wrong check.

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// What the receiver receives.
pub enum Msg {
    /// One message of the flood.
    Bang,
    /// A sender has sent all its messages.
    Done,
}

/// Floods the receiver, once.
pub struct Sender {
    messages: u64,
    receiver: Addr<Receiver>,
}

impl Actor for Sender {
    /// A sender receives nothing; it only runs its start.
    type Msg = std::convert::Infallible;

    fn started(&mut self, ctx: &mut Context<Self>) {
        for _ in 0..self.messages {
            let _ = self.receiver.send(Msg::Bang);
        }
        let _ = self.receiver.send(Msg::Done);
        ctx.stop();
    }

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Self::Msg) {
        match msg {}
    }
}

/// Counts what arrives.
pub struct Receiver {
    bangs: u64,
    /// Senders that have not said `Done` yet.
    senders_left: u64,
    answer: Option<ReplyTo<u64>>,
}

impl Actor for Receiver {
    type Msg = Msg;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Bang => self.bangs += 1,
            Msg::Done => {
                self.senders_left -= 1;
                if self.senders_left == 0 {
                    if let Some(answer) = self.answer.take() {
                        let _ = answer.send(self.bangs);
                    }
                    ctx.stop();
                }
            }
        }
    }
}

/// Runs bang with `senders` and `messages` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let senders = inv.get("senders");
    let messages = inv.get("messages");
    let (answer, count) = footlights::reply::pair();
    let receiver = system.spawn(Receiver {
        bangs: 0,
        senders_left: senders,
        answer: Some(answer),
    });
    for _ in 0..senders {
        system.spawn(Sender {
            messages,
            receiver: receiver.clone(),
        });
    }
    drop(receiver);
    let bangs = run::await_answer(system, count, "the receiver's count")?;
    Ok(Outcome::new(bangs))
}
