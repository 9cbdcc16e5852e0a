//! The soak's actor: a node that handles tokens and passes them on, asks other nodes,
//! and fails as its program says.
//!
//! What must survive a restart (the FIFO bookkeeping of the node's sends and receipts,
//! its periodic tick) lives in [`NodeShared`], which the node's factory hands to every
//! instance; the addresses of other nodes come from the program's [`Directory`], so that
//! no factory holds an address (the directory is emptied when the program ends, which
//! frees every node).

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use footlights::{Actor, Addr, AskError, Canceled, Context, ReplyTo, TimerHandle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::ledger::{LEDGER, Token, Via, bump};
use super::plan::Plan;

/// A node's messages.
pub enum Msg {
    Token(Token),
    /// A request of a chain: ask the next node, then answer one more than it did.
    Chain(ReplyTo<u64>),
    /// Answers how many tokens this node has handled.
    Get(ReplyTo<u64>),
    Tick,
}

/// Every node's address, by index (`None` once the program has ended).
#[derive(Default)]
pub struct Directory(RwLock<Vec<Option<Addr<Node>>>>);

impl Directory {
    pub fn set(&self, i: usize, addr: Addr<Node>) {
        let mut all = self.0.write().unwrap();
        if all.len() <= i {
            all.resize(i + 1, None);
        }
        all[i] = Some(addr);
    }

    pub fn get(&self, i: usize) -> Option<Addr<Node>> {
        self.0.read().unwrap().get(i).cloned().flatten()
    }

    pub fn clear(&self) {
        let all = std::mem::take(&mut *self.0.write().unwrap());
        drop(all);
    }
}

/// What a node keeps across restarts.
pub struct NodeShared {
    /// The last sequence number sent to each node.
    pub out: Mutex<Vec<u64>>,
    /// The last sequence number received from each sender (nodes, then the driver).
    pub seen: Mutex<Vec<u64>>,
    /// The instances made so far (each seeds its own generator from it).
    pub instances: AtomicU32,
    pub tick: Mutex<Option<TimerHandle>>,
}

impl NodeShared {
    pub fn new(nodes: usize) -> NodeShared {
        NodeShared {
            out: Mutex::new(vec![0; nodes]),
            seen: Mutex::new(vec![0; nodes + 1]),
            instances: AtomicU32::new(0),
            tick: Mutex::new(None),
        }
    }
}

/// Counts an ask once: answered, canceled, timed out, or dropped unrun with its asker.
pub struct AskGuard {
    resolved: bool,
}

impl AskGuard {
    pub fn new() -> AskGuard {
        bump(&LEDGER.asks);
        AskGuard { resolved: false }
    }

    pub fn timed(mut self, outcome: &Result<u64, AskError>) {
        self.resolved = true;
        bump(match outcome {
            Ok(_) => &LEDGER.asks_answered,
            Err(AskError::Canceled) => &LEDGER.asks_canceled,
            Err(AskError::TimedOut) => &LEDGER.asks_timed_out,
        });
    }

    pub fn plain(mut self, outcome: &Result<u64, Canceled>) {
        self.resolved = true;
        bump(match outcome {
            Ok(_) => &LEDGER.asks_answered,
            Err(Canceled) => &LEDGER.asks_canceled,
        });
    }
}

impl Drop for AskGuard {
    fn drop(&mut self) {
        if !self.resolved {
            bump(&LEDGER.asks_dropped);
        }
    }
}

/// One instance of a node.
pub struct Node {
    index: usize,
    plan: Arc<Plan>,
    shared: Arc<NodeShared>,
    dir: Arc<Directory>,
    rng: ChaCha8Rng,
    targets: Vec<usize>,
    /// Addresses of the targets, looked up once.
    known: Vec<Option<Addr<Node>>>,
    handled: u64,
}

impl Node {
    /// A fresh instance of node `index`.
    pub fn new(
        index: usize,
        plan: &Arc<Plan>,
        shared: &Arc<NodeShared>,
        dir: &Arc<Directory>,
    ) -> Node {
        let instance = shared.instances.fetch_add(1, Ordering::Relaxed);
        let seed =
            plan.seed ^ ((index as u64) << 32) ^ u64::from(instance).wrapping_mul(0x9E37_79B9);
        Node {
            index,
            plan: Arc::clone(plan),
            shared: Arc::clone(shared),
            dir: Arc::clone(dir),
            rng: ChaCha8Rng::seed_from_u64(seed),
            targets: plan.targets(index),
            known: vec![None; plan.nodes],
            handled: 0,
        }
    }

    fn roll(&mut self, ppm: u32) -> bool {
        ppm > 0 && self.rng.random_range(0..1_000_000) < ppm
    }

    fn addr_of(&mut self, j: usize) -> Option<Addr<Node>> {
        if self.known[j].is_none() {
            self.known[j] = self.dir.get(j);
        }
        self.known[j].clone()
    }

    /// Sends a token with `hops` left to target `j`, directly (numbered, for the FIFO
    /// check).
    fn send_direct(&mut self, ctx: &mut Context<Self>, j: usize, hops: u32) {
        let Some(to) = self.addr_of(j) else { return };
        let seq = {
            let mut out = self.shared.out.lock().unwrap();
            out[j] += 1;
            out[j]
        };
        let token = Token::new(self.index as u32, j as u32, seq, hops, Via::Direct);
        if let Err(e) = ctx.send(&to, Msg::Token(token)) {
            if let Msg::Token(t) = e.into_inner() {
                t.returned();
            }
        }
    }

    /// Passes a token with `hops` left on, directly, by a timer, or through a future.
    fn pass_on(&mut self, ctx: &mut Context<Self>, hops: u32) {
        let j = self.targets[self.rng.random_range(0..self.targets.len())];
        if self.roll(self.plan.timer_ppm) {
            if let Some(to) = self.addr_of(j) {
                let token = Token::new(self.index as u32, j as u32, 0, hops, Via::Timer);
                to.send_after(Duration::from_millis(1), Msg::Token(token));
            }
        } else if self.roll(self.plan.future_ppm) {
            let token = Token::new(self.index as u32, j as u32, 0, hops, Via::Future);
            ctx.run_future(
                async move { token },
                move |me: &mut Node, ctx, token: Token| {
                    // The successor first (see `Node::token`).
                    let hops = token.hops;
                    me.send_direct(ctx, j, hops);
                    token.handled();
                },
            );
        } else {
            self.send_direct(ctx, j, hops);
        }
    }

    /// Asks a target how many tokens it handled, with a timeout or not.
    fn ask_someone(&mut self, ctx: &mut Context<Self>) {
        let j = self.targets[self.rng.random_range(0..self.targets.len())];
        let Some(to) = self.addr_of(j) else { return };
        let Ok(reply) = to.ask(Msg::Get) else { return };
        let guard = AskGuard::new();
        if self.rng.random_bool(0.5) {
            ctx.then_timeout(reply, Duration::from_millis(2), move |_, _, out| {
                guard.timed(&out)
            });
        } else {
            ctx.then(reply, move |_, _, out| guard.plain(&out));
        }
    }

    fn token(&mut self, ctx: &mut Context<Self>, token: Token) {
        if token.seq != 0 {
            let mut seen = self.shared.seen.lock().unwrap();
            let last = &mut seen[token.from as usize];
            if token.seq <= *last {
                LEDGER.violation(format!(
                    "node {} got token {} from {} after {}: FIFO broken or handled twice",
                    self.index, token.seq, token.from, *last
                ));
            }
            *last = token.seq;
        }
        if self.roll(self.plan.panic_ppm) {
            bump(&LEDGER.panics);
            token.lost();
            panic!("soak: injected panic");
        }
        // The token's successor is made before the token ends, as the runtime counts an
        // actor scheduled before it counts it idle: so the count of tokens in flight
        // never reads zero while a successor is still to come. The other way round, the
        // driver could read zero between the two and, the successor being a timer's (in
        // the wheel, where it keeps no actor scheduled), find the system quiescent and
        // check the balance while that token waited out its millisecond.
        let hops = token.hops;
        if hops > 0 {
            self.pass_on(ctx, hops - 1);
        }
        token.handled();
        self.handled += 1;
        if self.roll(self.plan.ask_ppm) {
            self.ask_someone(ctx);
        }
        if self.roll(self.plan.stop_self_ppm) {
            bump(&LEDGER.stops);
            ctx.stop();
        }
    }
}

impl Actor for Node {
    type Msg = Msg;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.plan.ticks {
            let every = ctx.send_interval(Duration::from_millis(3), || Msg::Tick);
            // A restarted node keeps one tick, not one per instance.
            if let Some(old) = self.shared.tick.lock().unwrap().replace(every) {
                old.cancel();
            }
        }
    }

    fn handle(&mut self, ctx: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Token(token) => self.token(ctx, token),
            Msg::Get(reply) => {
                let _ = reply.send(self.handled);
            }
            Msg::Chain(reply) => match self
                .plan
                .asks_next(self.index)
                .and_then(|j| self.addr_of(j))
            {
                Some(next) => match next.ask(Msg::Chain) {
                    Ok(answer) => {
                        let guard = AskGuard::new();
                        ctx.then(answer, move |_, _, out| {
                            let _ = reply.send(out.as_ref().map_or(0, |n| n + 1));
                            guard.plain(&out);
                        });
                    }
                    Err(_) => {
                        let _ = reply.send(0);
                    }
                },
                None => {
                    let _ = reply.send(1);
                }
            },
            Msg::Tick => {}
        }
    }
}
