//! A hub and its clients: one actor that answers every request at once, and clients that
//! each ask it again as soon as they are answered, one request at a time (chameneos's
//! meeting place reduced to its traffic). A chatty group: two workers pull it back and
//! forth between them (a tug of war) until the system labels groups, and it teaches the
//! wake threshold that waking does not pay. With one client it is a ping-pong pair.
//! Shared by the `phases` example and the integration tests.

use footlights::{Actor, Addr, Context, Reply, ReplyTo, System, reply};

/// Answers each request at once.
pub struct Hub;

impl Actor for Hub {
    type Msg = Addr<Client>;
    fn handle(&mut self, _: &mut Context<Self>, client: Addr<Client>) {
        let _ = client.send(ClientMsg::Answer);
    }
}

/// Asks the hub, `left` times in all, one request at a time; reports the answers it got,
/// then stops.
pub struct Client {
    hub: Addr<Hub>,
    left: u64,
    answers: u64,
    done: Option<ReplyTo<u64>>,
}

/// What a client is told.
pub enum ClientMsg {
    /// Start asking; report the answers here once all are in.
    Start(ReplyTo<u64>),
    /// The hub's answer to the last request.
    Answer,
}

impl Actor for Client {
    type Msg = ClientMsg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: ClientMsg) {
        match msg {
            ClientMsg::Start(done) => self.done = Some(done),
            ClientMsg::Answer => self.answers += 1,
        }
        if self.left == 0 {
            if let Some(done) = self.done.take() {
                let _ = done.send(self.answers);
            }
            ctx.stop();
            return;
        }
        self.left -= 1;
        let _ = self.hub.send(ctx.addr());
    }
}

/// Spawns a hub and `clients` clients that ask it `asks` times each, and starts them;
/// returns where each client reports the answers it got.
pub fn start(system: &System, clients: u64, asks: u64) -> Result<Vec<Reply<u64>>, String> {
    let hub = system.spawn(Hub);
    (0..clients)
        .map(|_| {
            let client = system.spawn(Client {
                hub: hub.clone(),
                left: asks,
                answers: 0,
                done: None,
            });
            let (done, answers) = reply::pair();
            client
                .send(ClientMsg::Start(done))
                .map_err(|_| "a client stopped before it started".to_string())?;
            Ok(answers)
        })
        .collect()
}
