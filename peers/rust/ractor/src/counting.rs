//! counting on ractor: a producer sends increments to a counter, then asks for the value.
//!
//! Both are ractor actors. Main `call!`s the producer with `Run`; the producer casts
//! `count` `Increment`s to the counter and then `call!`s it with `Get`, awaiting the
//! reply inside its handler (mailboxes are FIFO per sender, so `Get` is answered after
//! every increment is counted). It replies that value to main.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, call, cast};
use suite_contract::Outcome;

/// Messages of the counter.
pub enum CounterMsg {
    /// Add one.
    Increment,
    /// Reply the current value.
    Get(RpcReplyPort<u64>),
}

/// Messages of the producer.
pub enum ProducerMsg {
    /// Send the increments, ask for the value and reply it.
    Run(RpcReplyPort<u64>),
}

/// The counter's behaviour.
struct Counter;

impl Actor for Counter {
    type Msg = CounterMsg;
    type State = u64;
    type Arguments = ();

    async fn pre_start(
        &self,
        _myself: ActorRef<CounterMsg>,
        (): (),
    ) -> Result<u64, ActorProcessingErr> {
        Ok(0)
    }

    async fn handle(
        &self,
        _myself: ActorRef<CounterMsg>,
        message: CounterMsg,
        value: &mut u64,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            CounterMsg::Increment => *value += 1,
            CounterMsg::Get(reply) => {
                let _ = reply.send(*value);
            }
        }
        Ok(())
    }
}

/// The producer's behaviour.
struct Producer;

impl Actor for Producer {
    type Msg = ProducerMsg;
    type State = (u64, ActorRef<CounterMsg>);
    type Arguments = (u64, ActorRef<CounterMsg>);

    async fn pre_start(
        &self,
        _myself: ActorRef<ProducerMsg>,
        args: Self::Arguments,
    ) -> Result<Self::State, ActorProcessingErr> {
        Ok(args)
    }

    async fn handle(
        &self,
        _myself: ActorRef<ProducerMsg>,
        ProducerMsg::Run(reply): ProducerMsg,
        (count, counter): &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        for _ in 0..*count {
            cast!(counter, CounterMsg::Increment).expect("counter stopped");
        }
        let value = call!(counter, CounterMsg::Get).expect("counter did not answer");
        let _ = reply.send(value);
        Ok(())
    }
}

/// Counts `count` increments; the check is the value the counter answers.
pub async fn run(count: u64) -> Result<Outcome, String> {
    let (counter, _) = Actor::spawn(None, Counter, ())
        .await
        .map_err(|e| format!("cannot spawn the counter: {e}"))?;
    let (producer, _) = Actor::spawn(None, Producer, (count, counter.clone()))
        .await
        .map_err(|e| format!("cannot spawn the producer: {e}"))?;
    let value = call!(producer, ProducerMsg::Run).map_err(|e| format!("producer failed: {e}"))?;
    let outcome = Outcome::new(value);
    producer.stop(None);
    counter.stop(None);
    Ok(outcome)
}
