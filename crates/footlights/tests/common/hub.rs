//! A hub and its clients: a chatty group (chameneos's meeting place reduced to its
//! traffic) whose tug of war between two workers makes the system label groups, and which
//! teaches the wake threshold that waking does not pay.

use footlights::{Actor, Addr, Context, ReplyTo, System, reply};

use super::PATIENCE;

/// Answers every request at once (chameneos's meeting place, reduced to its traffic).
pub struct Hub;

pub struct Ask(Addr<Client>);

impl Actor for Hub {
    type Msg = Ask;
    fn handle(&mut self, _: &mut Context<Self>, Ask(client): Ask) {
        let _ = client.send(ClientMsg::Answer);
    }
}

/// Asks the hub again each time it is answered, `left` times, then reports how many
/// answers it received.
pub struct Client {
    hub: Addr<Hub>,
    left: u64,
    answered: u64,
    done: Option<ReplyTo<u64>>,
}

pub enum ClientMsg {
    Go(Addr<Client>, ReplyTo<u64>),
    Answer,
}

impl Actor for Client {
    type Msg = ClientMsg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: ClientMsg) {
        match msg {
            ClientMsg::Go(me, done) => {
                self.done = Some(done);
                let _ = self.hub.send(Ask(me));
            }
            ClientMsg::Answer => {
                self.answered += 1;
                self.left -= 1;
                if self.left == 0 {
                    if let Some(done) = self.done.take() {
                        let _ = done.send(self.answered);
                    }
                    ctx.stop();
                } else {
                    let _ = self.hub.send(Ask(ctx.addr()));
                }
            }
        }
    }
}

/// A hub and `clients` clients, `asks` requests each, to the end and quiescence; every
/// client must have been answered exactly `asks` times.
pub fn hub_phase(system: &System, clients: usize, asks: u64) {
    let hub = system.spawn(Hub);
    let finished: Vec<_> = (0..clients)
        .map(|_| {
            let client = system.spawn(Client {
                hub: hub.clone(),
                left: asks,
                answered: 0,
                done: None,
            });
            let (done, finished) = reply::pair();
            client.send(ClientMsg::Go(client.clone(), done)).unwrap();
            finished
        })
        .collect();
    for f in finished {
        let answered = f
            .wait_timeout(PATIENCE)
            .expect("a client finished")
            .unwrap();
        assert_eq!(answered, asks, "every request is answered once");
    }
    super::quiet(system);
}
