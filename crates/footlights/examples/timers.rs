//! Timers in a small service: a client polls a backend on an interval and gives up on
//! slow answers with a timeout; a session expires after a quiet spell, its timeout reset
//! by each touch; and a reminder is sent from outside the runtime.
//!
//! `cargo run --release -p footlights --example timers`
//!
//! Nothing here blocks a worker: the backend answers later with `run_later`, the client
//! waits for answers with `then_timeout`, and the session's expiry is a message it sends
//! itself with `send_after`, cancelled by dropping the guard that holds it.

use std::time::{Duration, Instant};

use footlights::{Actor, Addr, AskError, Context, ReplyTo, System, TimerGuard, TimerHandle};

/// Answers a request for `n` after `n` milliseconds, without holding its worker.
struct Backend;

impl Actor for Backend {
    type Msg = (u64, ReplyTo<u64>);
    fn handle(&mut self, ctx: &mut Context<Self>, (n, reply): Self::Msg) {
        ctx.run_later(Duration::from_millis(n), move |_, _| {
            let _ = reply.send(n * n);
        });
    }
}

/// Every 10 ms asks the backend for the next number, waiting at most 27 ms for each answer;
/// after ten polls it stops polling and reports.
struct Client {
    backend: Addr<Backend>,
    polls: u64,
    every: Option<TimerHandle>,
    answers: Vec<Result<u64, AskError>>,
    report: Option<ReplyTo<Vec<Result<u64, AskError>>>>,
}

enum ClientMsg {
    Poll,
}

impl Actor for Client {
    type Msg = ClientMsg;
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.every = Some(ctx.send_interval(Duration::from_millis(10), || ClientMsg::Poll));
    }
    fn handle(&mut self, ctx: &mut Context<Self>, ClientMsg::Poll: ClientMsg) {
        self.polls += 1;
        // Requests 5, 10, 15, ... ms of work: the ones over 27 ms time out.
        let n = 5 * self.polls;
        let reply = self
            .backend
            .ask(|r| (n, r))
            .expect("the backend is running");
        ctx.then_timeout(reply, Duration::from_millis(27), |client, ctx, answer| {
            client.answers.push(answer);
            if client.answers.len() == 10 {
                let _ = client.report.take().map(|r| r.send(client.answers.clone()));
                ctx.stop();
            }
        });
        if self.polls == 10 {
            self.every.take().expect("polling").cancel();
        }
    }
}

/// A session that expires after 30 ms without a touch.
struct Session {
    expiry: Option<TimerGuard>,
    touches: u32,
    opened: Instant,
    expired: Option<ReplyTo<(u32, Duration)>>,
}

enum SessionMsg {
    Touch,
    Expire,
}

impl Session {
    const IDLE: Duration = Duration::from_millis(30);
}

impl Actor for Session {
    type Msg = SessionMsg;
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.expiry = Some(ctx.send_after(Session::IDLE, SessionMsg::Expire).guard());
    }
    fn handle(&mut self, ctx: &mut Context<Self>, msg: SessionMsg) {
        match msg {
            SessionMsg::Touch => {
                self.touches += 1;
                // The old guard is dropped, cancelling the old expiry.
                self.expiry = Some(ctx.send_after(Session::IDLE, SessionMsg::Expire).guard());
            }
            SessionMsg::Expire => {
                let open = self.opened.elapsed();
                let _ = self.expired.take().map(|r| r.send((self.touches, open)));
                ctx.stop();
            }
        }
    }
}

/// Prints what it is reminded of.
struct Diary;

impl Actor for Diary {
    type Msg = (&'static str, ReplyTo<()>);
    fn handle(&mut self, _: &mut Context<Self>, (note, done): Self::Msg) {
        println!("diary: {note}");
        let _ = done.send(());
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let system = System::builder().build()?;

    // A client polling a backend, with a timeout on each answer.
    let backend = system.spawn(Backend);
    let (report, answers) = footlights::reply::pair();
    drop(system.spawn(Client {
        backend,
        polls: 0,
        every: None,
        answers: Vec::new(),
        report: Some(report),
    }));

    // A session touched four times, 10 ms apart (from outside the runtime), then left.
    let (expired, expiry) = footlights::reply::pair();
    let session = system.spawn(Session {
        expiry: None,
        touches: 0,
        opened: Instant::now(),
        expired: Some(expired),
    });
    for k in 1..=4 {
        session.send_after(Duration::from_millis(10 * k), SessionMsg::Touch);
    }
    drop(session);

    // A reminder from outside, and one that is cancelled before it is due.
    let diary = system.spawn(Diary);
    let (done, written) = footlights::reply::pair();
    diary.send_after(
        Duration::from_millis(50),
        ("the reminder set from main", done),
    );
    let (never, _) = footlights::reply::pair();
    let cancelled = diary.send_after(Duration::from_secs(60), ("never written", never));
    println!("cancelled the minute-long reminder: {}", cancelled.cancel());

    let answers = answers.wait()?;
    let ok = answers.iter().filter(|a| a.is_ok()).count();
    let timed_out = answers
        .iter()
        .filter(|a| **a == Err(AskError::TimedOut))
        .count();
    println!("client: {ok} answers in time, {timed_out} timed out: {answers:?}");
    let (touches, open) = expiry.wait()?;
    println!(
        "session: expired after {touches} touches, open for {:.0} ms (at least 70)",
        open.as_secs_f64() * 1000.0
    );
    written.wait()?;
    // The backend's answers to the timed-out requests may still be due: nobody waits for
    // them any more, and the shutdown drops them.
    println!("timers still pending: {}", system.pending_timers());
    system.shutdown();
    Ok(())
}
