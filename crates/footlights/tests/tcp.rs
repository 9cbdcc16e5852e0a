//! The key-value server of `examples/kv` over real sockets on 127.0.0.1: many concurrent
//! clients, some pipelining, some reading slowly, some disconnecting abruptly (a reset
//! in the middle of a request). Every acknowledged `SET` must be readable afterwards, and
//! once every client has gone, no connection actor may be left. None of this is timed:
//! the slow readers pause to be slow, not to synchronise, and the one wait (for the
//! connection actors to stop after their clients went away) polls an outcome under a
//! generous deadline that only turns a hang into a failure.
#![cfg(not(loom))]

#[path = "../examples/kv/server.rs"]
#[allow(dead_code)] // the example's binary uses what the test does not
mod server;

use std::net::SocketAddr;
use std::time::Duration;

use footlights::System;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

mod common;
use common::PATIENCE;

/// Clients of each kind. Together they move some 50 MB through the server (mostly the
/// slow readers' large values), 5 to 30 s in a debug build on a loaded 2-core machine;
/// the clients' hang guard is five times the usual patience.
const STEADY: usize = 48;
const PIPELINING: usize = 16;
const SLOW: usize = 8;
const ABRUPT: usize = 32;
/// Requests per client.
const REQUESTS: usize = 200;

async fn connect(address: SocketAddr) -> (BufReader<OwnedReadHalf>, OwnedWriteHalf) {
    let stream = TcpStream::connect(address)
        .await
        .expect("the server accepts");
    let (read, write) = stream.into_split();
    (BufReader::new(read), write)
}

async fn response(read: &mut BufReader<OwnedReadHalf>) -> String {
    let mut line = String::new();
    read.read_line(&mut line).await.expect("a response");
    assert!(line.ends_with('\n'), "a whole response line, got {line:?}");
    line.pop();
    line
}

/// One request at a time; returns the keys acknowledged, with their values.
async fn steady(address: SocketAddr, client: usize) -> Vec<(String, String)> {
    let (mut read, mut write) = connect(address).await;
    let mut acked = Vec::new();
    for i in 0..REQUESTS {
        let (key, value) = (
            format!("steady-{client}-{i}"),
            format!("value {i} of {client}"),
        );
        write
            .write_all(format!("SET {key} {value}\n").as_bytes())
            .await
            .expect("a write");
        assert_eq!(response(&mut read).await, "OK");
        acked.push((key, value));
        if i % 10 == 9 {
            // Read back one of its own, and ask something malformed.
            let (key, value) = &acked[i - 5];
            write
                .write_all(format!("GET {key}\n").as_bytes())
                .await
                .expect("a write");
            assert_eq!(response(&mut read).await, format!("VALUE {value}"));
            write
                .write_all(b"FETCH everything\n")
                .await
                .expect("a write");
            assert!(response(&mut read).await.starts_with("ERR unknown command"));
        }
    }
    acked
}

/// The value every slow reader asks for, again and again: large, so that its responses
/// overflow the socket buffers between the server and a client that does not read.
fn big_value() -> String {
    "b".repeat(60 * 1024)
}

/// Writes every request (a `SET` of its own key and a `GET`) from a task of its own, and
/// reads every response meanwhile. A pipelining client `GET`s the key it has just set; a
/// slow reader `GET`s the big value, reads nothing for a while, then reads in small
/// steps with a small receive buffer: the server's writes to it fill the socket and wait,
/// so its connection stops reading requests, and the client's own writes wait in turn
/// (backpressure through TCP, end to end).
async fn pipelining(address: SocketAddr, client: usize, slow: bool) -> Vec<(String, String)> {
    let (mut read, mut write) = if slow {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
        let (read, write) = socket
            .connect(address)
            .await
            .expect("the server accepts")
            .into_split();
        (BufReader::new(read), write)
    } else {
        connect(address).await
    };
    let kind = if slow { "slow" } else { "pipe" };
    let count = if slow { REQUESTS / 2 } else { REQUESTS };
    let requests: Vec<(String, String)> = (0..count)
        .map(|i| (format!("{kind}-{client}-{i}"), format!("{i} of {client}")))
        .collect();
    let writer = {
        let requests = requests.clone();
        tokio::spawn(async move {
            for (key, value) in &requests {
                let get = if slow { "big" } else { key };
                write
                    .write_all(format!("SET {key} {value}\nGET {get}\n").as_bytes())
                    .await
                    .expect("a write");
            }
            write
        })
    };
    let big = big_value();
    if slow {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for (i, (_, value)) in requests.iter().enumerate() {
        if slow && i % 10 == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert_eq!(response(&mut read).await, "OK");
        let want = if slow { &big } else { value };
        assert_eq!(response(&mut read).await, format!("VALUE {want}"));
    }
    drop(writer.await.expect("the writer"));
    requests
}

/// Sets some keys, reads some of the acknowledgements, then resets the connection in the
/// middle of a request. Returns only the keys whose acknowledgement it read.
async fn abrupt(address: SocketAddr, client: usize) -> Vec<(String, String)> {
    let (mut read, mut write) = connect(address).await;
    let sent = 5 + client % 20;
    let read_acks = sent - client % 3; // some acknowledgements are never read
    for i in 0..sent {
        write
            .write_all(format!("SET abrupt-{client}-{i} {i}\n").as_bytes())
            .await
            .expect("a write");
    }
    let mut acked = Vec::new();
    for i in 0..read_acks {
        assert_eq!(response(&mut read).await, "OK");
        acked.push((format!("abrupt-{client}-{i}"), i.to_string()));
    }
    write.write_all(b"SET abrupt-half").await.expect("a write");
    // Reset rather than close: the server sees an error, not a clean end of stream.
    let stream = read.into_inner().reunite(write).expect("the two halves");
    // A zero linger never blocks: the close sends a reset at once.
    #[allow(deprecated)]
    stream.set_linger(Some(Duration::ZERO)).expect("SO_LINGER");
    drop(stream);
    acked
}

#[test]
fn no_acknowledged_write_is_lost_and_no_connection_actor_is_left() {
    let system = System::builder()
        .threads(2)
        .build()
        .expect("a system starts");
    let server = server::start(&system, "127.0.0.1:0".parse().expect("an address"))
        .expect("the server starts");
    let address = server.local;
    assert_eq!(
        system.metrics().live_actors(),
        2,
        "the store and the acceptor"
    );

    let clients = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a client runtime");
    clients.block_on(async {
        let (mut read, mut write) = connect(address).await;
        let set = format!("SET big {}\n", big_value());
        write.write_all(set.as_bytes()).await.expect("a write");
        assert_eq!(response(&mut read).await, "OK");
    });
    let acked: Vec<(String, String)> = clients.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for c in 0..STEADY {
            tasks.spawn(steady(address, c));
        }
        for c in 0..PIPELINING {
            tasks.spawn(pipelining(address, c, false));
        }
        for c in 0..SLOW {
            tasks.spawn(pipelining(address, c, true));
        }
        for c in 0..ABRUPT {
            tasks.spawn(abrupt(address, c));
        }
        let mut acked = vec![("big".to_owned(), big_value())];
        let all = async {
            while let Some(done) = tasks.join_next().await {
                acked.extend(done.expect("a client succeeds"));
            }
        };
        tokio::time::timeout(5 * PATIENCE, all)
            .await
            .expect("the clients finish in time");
        acked
    });
    let clients_total = STEADY + PIPELINING + SLOW + ABRUPT;
    assert!(acked.len() > (STEADY + PIPELINING) * REQUESTS + SLOW * REQUESTS / 2);

    // Every acknowledged write reads back, through a fresh connection.
    clients.block_on(async {
        let (mut read, mut write) = connect(address).await;
        for (key, value) in &acked {
            write
                .write_all(format!("GET {key}\n").as_bytes())
                .await
                .expect("a write");
            assert_eq!(response(&mut read).await, format!("VALUE {value}"), "{key}");
        }
        // Bad input gets an error line, and the connection goes on.
        write
            .write_all(b"SET lonely\n\nGET a b\n")
            .await
            .expect("a write");
        for _ in 0..3 {
            assert!(response(&mut read).await.starts_with("ERR "));
        }
    });
    assert_eq!(
        server::accepted(&server),
        Ok(clients_total as u64 + 2),
        "every client was served by a connection of its own"
    );

    // Every connection actor stops once its client has gone (the verifier's too).
    common::until_live(&system, 2);
    drop(clients);

    // Stopping the acceptor closes the listener.
    server
        .acceptor
        .send(server::AcceptorMsg::Stop)
        .expect("it runs");
    common::quiet(&system); // its stop, which drops the listener, has ended
    assert!(server.acceptor.is_stopped());
    assert!(
        std::net::TcpStream::connect(address).is_err(),
        "nobody listens"
    );
    assert_eq!(system.metrics().live_actors(), 1, "the store");
}
