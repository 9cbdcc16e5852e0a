//! The `tokio` feature: futures inside actors that need tokio's reactor (timers, sockets)
//! run, on the system's own tokio runtime or one it is given, are polled on footlights'
//! workers, and deliver their outputs to their actors. None of these tests is timed: the
//! sleeps are what the futures wait for, not how the tests synchronise, and timeouts only
//! turn a hang into a failure.
#![cfg(not(loom))]

use std::sync::mpsc;
use std::time::Duration;

use footlights::ReplyTo;
use footlights::{Actor, Context, Policy, System};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

mod common;
use common::{PATIENCE, until_live};

/// Sleeps on tokio's timer inside a future, noting the threads that polled it.
struct Sleeper {
    threads: Option<mpsc::Sender<Vec<String>>>,
}

fn thread_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("unnamed")
        .to_owned()
}

impl Actor for Sleeper {
    type Msg = u64;
    fn handle(&mut self, ctx: &mut Context<Self>, millis: u64) {
        let nap = async move {
            let before = thread_name();
            tokio::time::sleep(Duration::from_millis(millis)).await;
            vec![before, thread_name()]
        };
        ctx.run_future(nap, |me: &mut Sleeper, ctx, names| {
            let _ = me.threads.take().expect("once").send(names);
            ctx.stop();
        });
    }
}

#[test]
fn tokio_timers_work_in_futures_polled_on_footlights_workers() {
    // The pool's workers, whatever FOOTLIGHTS_POLICY says (an inline actor is run by
    // whoever wakes it, here the reactor's thread).
    let system = System::builder()
        .threads(2)
        .policy(Policy::Task)
        .build()
        .expect("a system starts");
    let mut waiting = Vec::new();
    for i in 0..100 {
        let (threads, names) = mpsc::channel();
        let sleeper = system.spawn(Sleeper {
            threads: Some(threads),
        });
        sleeper.send(1 + i % 5).expect("the sleeper runs");
        waiting.push(names);
    }
    for names in waiting {
        let names = names.recv_timeout(PATIENCE).expect("the sleep ends");
        for name in names {
            assert!(name.starts_with("footlights-worker"), "polled on {name}");
        }
    }
    // The reactor's thread may still hold a finished future's waker (an address).
    until_live(&system, 0);
}

/// Connects to an address, sends a line, and answers what came back, all with tokio's
/// sockets inside one future whose output comes back as a message.
struct Caller;

type Answer = ReplyTo<std::io::Result<String>>;

enum Call {
    To(std::net::SocketAddr, Answer),
    Back(std::io::Result<String>, Answer),
}

impl Actor for Caller {
    type Msg = Call;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: Call) {
        match msg {
            Call::To(address, answer) => {
                let call = async move {
                    let mut stream = tokio::net::TcpStream::connect(address).await?;
                    stream.write_all(b"ping\n").await?;
                    stream.shutdown().await?;
                    let mut back = String::new();
                    stream.read_to_string(&mut back).await?;
                    Ok(back)
                };
                ctx.pipe_future(call, move |back| Call::Back(back, answer));
            }
            Call::Back(back, answer) => {
                let _ = answer.send(back);
            }
        }
    }
}

#[test]
fn tokio_sockets_work_on_a_given_runtime() {
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    // An echo server on the same runtime.
    let listener = tokio
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a listener");
    let address = listener.local_addr().expect("an address");
    tokio.spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let (mut read, mut write) = stream.split();
                let _ = tokio::io::copy(&mut read, &mut write).await;
            });
        }
    });
    let system = System::builder()
        .threads(1)
        .tokio(tokio.handle().clone())
        .build()
        .expect("a system starts");
    let caller = system.spawn(Caller);
    for _ in 0..20 {
        let back = caller
            .ask(|answer| Call::To(address, answer))
            .expect("the caller runs")
            .wait_timeout(PATIENCE)
            .expect("in time")
            .expect("answered");
        assert_eq!(back.expect("the call succeeds"), "ping\n");
    }
    drop(caller);
    // The reactor's thread may still hold a finished future's waker (an address).
    until_live(&system, 0);
    drop(system);
    drop(tokio);
}

#[test]
fn a_connection_refused_comes_back_as_an_error() {
    // A port nobody listens on: bind one, note it, close it.
    let address = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let system = common::system(1);
    let caller = system.spawn(Caller);
    let back = caller
        .ask(|answer| Call::To(address, answer))
        .expect("the caller runs")
        .wait_timeout(PATIENCE)
        .expect("in time")
        .expect("answered");
    assert!(back.is_err(), "nobody listens at {address}");
}

#[test]
fn a_system_drops_its_own_runtime_without_blocking_even_inside_async_code() {
    let system = common::system(1);
    let (threads, names) = mpsc::channel();
    system
        .spawn(Sleeper {
            threads: Some(threads),
        })
        .send(1)
        .expect("the sleeper runs");
    names.recv_timeout(PATIENCE).expect("the sleep ends");
    // Dropped inside another runtime's async code, where blocking would panic.
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(async move { drop(system) });
}
