//! serialmsg on ractor: generators send to their receivers through one dispatcher.
//!
//! Generators, receivers, the dispatcher and a sink are ractor actors. Once every pair
//! is spawned, main casts each generator `Start`; it casts the dispatcher `messages`
//! `Deliver`s, each carrying its receiver's `ActorRef` and a `Data` payload, then one
//! carrying `End`, and stops. The dispatcher casts each payload on to the addressed
//! receiver. Mailboxes are FIFO per sender, and all of one generator's traffic goes
//! through the one dispatcher, so `End` reaches a receiver after all its data. A receiver
//! counts data and on `End` casts its count to the sink, which adds the counts and, when
//! every receiver has reported, answers on the `RpcReplyPort` it was started with.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// Messages of the dispatcher.
pub enum DispatcherMsg {
    /// Forward `payload` to `to`.
    Deliver {
        /// The addressed receiver.
        to: ActorRef<ReceiverMsg>,
        /// What to forward.
        payload: ReceiverMsg,
    },
}

/// Messages of a receiver (and the payloads the dispatcher forwards).
pub enum ReceiverMsg {
    /// One message from the generator.
    Data,
    /// The generator has sent everything.
    End,
}

/// Messages of a generator.
pub enum GeneratorMsg {
    /// Send all messages.
    Start,
}

/// Messages of the sink.
pub enum SinkMsg {
    /// A receiver's final count.
    Received(u64),
}

/// The dispatcher's behaviour.
struct Dispatcher;

impl Actor for Dispatcher {
    type Msg = DispatcherMsg;
    type State = ();
    type Arguments = ();

    async fn pre_start(
        &self,
        _myself: ActorRef<DispatcherMsg>,
        (): (),
    ) -> Result<(), ActorProcessingErr> {
        Ok(())
    }

    async fn handle(
        &self,
        _myself: ActorRef<DispatcherMsg>,
        DispatcherMsg::Deliver { to, payload }: DispatcherMsg,
        _state: &mut (),
    ) -> Result<(), ActorProcessingErr> {
        cast!(to, payload).expect("receiver stopped");
        Ok(())
    }
}

/// A receiver's behaviour.
struct Receiver;

impl Actor for Receiver {
    type Msg = ReceiverMsg;
    type State = (u64, ActorRef<SinkMsg>);
    type Arguments = ActorRef<SinkMsg>;

    async fn pre_start(
        &self,
        _myself: ActorRef<ReceiverMsg>,
        sink: ActorRef<SinkMsg>,
    ) -> Result<Self::State, ActorProcessingErr> {
        Ok((0, sink))
    }

    async fn handle(
        &self,
        myself: ActorRef<ReceiverMsg>,
        message: ReceiverMsg,
        (count, sink): &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            ReceiverMsg::Data => *count += 1,
            ReceiverMsg::End => {
                cast!(sink, SinkMsg::Received(*count)).expect("sink stopped");
                myself.stop(None);
            }
        }
        Ok(())
    }
}

/// A generator's behaviour.
struct Generator;

/// A generator's state.
struct GeneratorState {
    messages: u64,
    receiver: ActorRef<ReceiverMsg>,
    dispatcher: ActorRef<DispatcherMsg>,
}

impl Actor for Generator {
    type Msg = GeneratorMsg;
    type State = GeneratorState;
    type Arguments = GeneratorState;

    async fn pre_start(
        &self,
        _myself: ActorRef<GeneratorMsg>,
        state: GeneratorState,
    ) -> Result<GeneratorState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<GeneratorMsg>,
        GeneratorMsg::Start: GeneratorMsg,
        state: &mut GeneratorState,
    ) -> Result<(), ActorProcessingErr> {
        let deliver = |payload| DispatcherMsg::Deliver {
            to: state.receiver.clone(),
            payload,
        };
        for _ in 0..state.messages {
            cast!(state.dispatcher, deliver(ReceiverMsg::Data)).expect("dispatcher stopped");
        }
        cast!(state.dispatcher, deliver(ReceiverMsg::End)).expect("dispatcher stopped");
        myself.stop(None);
        Ok(())
    }
}

/// The sink's behaviour.
struct Sink;

/// The sink's state.
struct SinkState {
    receivers_left: u64,
    total: u64,
    reply: Option<RpcReplyPort<u64>>,
}

impl Actor for Sink {
    type Msg = SinkMsg;
    type State = SinkState;
    type Arguments = (u64, RpcReplyPort<u64>);

    async fn pre_start(
        &self,
        _myself: ActorRef<SinkMsg>,
        (pairs, reply): Self::Arguments,
    ) -> Result<SinkState, ActorProcessingErr> {
        Ok(SinkState {
            receivers_left: pairs,
            total: 0,
            reply: Some(reply),
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<SinkMsg>,
        SinkMsg::Received(count): SinkMsg,
        state: &mut SinkState,
    ) -> Result<(), ActorProcessingErr> {
        state.total += count;
        state.receivers_left -= 1;
        if state.receivers_left == 0 {
            if let Some(reply) = state.reply.take() {
                let _ = reply.send(state.total);
            }
            myself.stop(None);
        }
        Ok(())
    }
}

/// `pairs` generators each send `messages` messages through the dispatcher; the check
/// is the total the receivers counted.
pub async fn run(pairs: u64, messages: u64) -> Result<Outcome, String> {
    let (reply, answer) = ractor::concurrency::oneshot();
    let (sink, _) = Actor::spawn(None, Sink, (pairs, reply.into()))
        .await
        .map_err(|e| format!("cannot spawn the sink: {e}"))?;
    let (dispatcher, _) = Actor::spawn(None, Dispatcher, ())
        .await
        .map_err(|e| format!("cannot spawn the dispatcher: {e}"))?;
    let mut generators = Vec::with_capacity(pairs as usize);
    for pair in 0..pairs {
        let (receiver, _) = Actor::spawn(None, Receiver, sink.clone())
            .await
            .map_err(|e| format!("cannot spawn receiver {pair}: {e}"))?;
        let state = GeneratorState {
            messages,
            receiver,
            dispatcher: dispatcher.clone(),
        };
        let (generator, _) = Actor::spawn(None, Generator, state)
            .await
            .map_err(|e| format!("cannot spawn generator {pair}: {e}"))?;
        generators.push(generator);
    }
    for generator in &generators {
        cast!(generator, GeneratorMsg::Start).map_err(|e| format!("starting a generator: {e}"))?;
    }
    let total = answer
        .await
        .map_err(|_| "the sink stopped before every receiver reported")?;
    let outcome = Outcome::new(total);
    dispatcher.stop(None);
    Ok(outcome)
}
