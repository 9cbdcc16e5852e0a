//! A key-value server over TCP: one footlights actor per connection, tokio for the I/O.
//!
//! The protocol is one request per line, one response line per request, in order:
//!
//! | request | response |
//! |---|---|
//! | `SET <key> <value>` | `OK` once the store holds it (the acknowledgement) |
//! | `GET <key>` | `VALUE <value>`, or `NONE` |
//! | anything else | `ERR <what was wrong>` (the connection stays open) |
//!
//! A key is one word; a value is the rest of the line. A line longer than
//! [`MAX_LINE`] bytes, or not UTF-8, gets an `ERR` and the connection is closed.
//!
//! # The actors
//!
//! * [`Store`] holds the map; it answers requests through [`ReplyTo`]s.
//! * [`Acceptor`] owns the listener: a future accepts one connection and gives the
//!   listener back with it; the continuation spawns a [`Connection`] and starts the next
//!   accept.
//! * [`Connection`] serves one client, one request at a time: a future reads a line
//!   (owning the reading half of the socket, which it gives back with the line); the
//!   continuation parses it and asks the store; a second future awaits the store's answer
//!   and writes the response (owning the writing half); its continuation counts the
//!   request and reads the next line. The actor's state is touched only in
//!   continuations, never across an `.await`. A client that stops reading fills its
//!   socket's buffers: the write waits, and the connection reads nothing more meanwhile
//!   (backpressure reaches the client through TCP). End of stream or any I/O error
//!   stops the actor, which drops the socket; nothing is left behind.
//!
//! A `SET` is acknowledged only after the store has it, so an acknowledged write is never
//! lost, whatever other clients do.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;

use footlights::{Actor, Addr, Canceled, Context, Reply, ReplyTo, System, reply};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

/// The longest request line, in bytes (with its newline).
pub const MAX_LINE: u64 = 64 * 1024;

/// The map every connection reads and writes.
#[derive(Default)]
pub struct Store {
    map: HashMap<String, String>,
}

/// What the store is asked.
pub enum StoreMsg {
    /// Sets `key` to `value`; answers once it is set.
    Set(String, String, ReplyTo<()>),
    /// Answers the value of `key`, if any.
    Get(String, ReplyTo<Option<String>>),
}

impl Actor for Store {
    type Msg = StoreMsg;
    fn handle(&mut self, _: &mut Context<Self>, msg: StoreMsg) {
        match msg {
            StoreMsg::Set(key, value, done) => {
                self.map.insert(key, value);
                let _ = done.send(());
            }
            StoreMsg::Get(key, answer) => {
                let _ = answer.send(self.map.get(&key).cloned());
            }
        }
    }
}

/// Accepts connections and spawns a [`Connection`] for each.
pub struct Acceptor {
    listener: Option<TcpListener>,
    store: Addr<Store>,
    /// Connections accepted so far.
    accepted: u64,
}

/// What the acceptor is told.
pub enum AcceptorMsg {
    /// Answers how many connections it has accepted.
    Accepted(ReplyTo<u64>),
    /// Stops accepting (the listener is closed); open connections go on.
    Stop,
}

impl Acceptor {
    /// Accepts the next connection in a future that owns the listener and gives it back.
    fn accept_next(&mut self, ctx: &mut Context<Self>) {
        let listener = self.listener.take().expect("the listener is home");
        let accept = async move {
            let accepted = listener.accept().await;
            (listener, accepted)
        };
        ctx.run_future(accept, |me: &mut Acceptor, ctx, (listener, accepted)| {
            me.listener = Some(listener);
            match accepted {
                Ok((stream, _peer)) => {
                    me.accepted += 1;
                    let _ = stream.set_nodelay(true);
                    let (read, write) = stream.into_split();
                    ctx.spawn(Connection {
                        io: Some(Io {
                            read: BufReader::new(read),
                            write,
                        }),
                        store: me.store.clone(),
                        served: 0,
                    });
                }
                // A connection that failed before it was accepted (reset, or out of file
                // descriptors): the listener goes on.
                Err(e) => eprintln!("kv: accept failed: {e}"),
            }
            me.accept_next(ctx);
        });
    }
}

impl Actor for Acceptor {
    type Msg = AcceptorMsg;
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.accept_next(ctx);
    }
    fn handle(&mut self, ctx: &mut Context<Self>, msg: AcceptorMsg) {
        match msg {
            AcceptorMsg::Accepted(answer) => {
                let _ = answer.send(self.accepted);
            }
            // The pending accept is dropped with the actor, and the listener with it.
            AcceptorMsg::Stop => ctx.stop(),
        }
    }
}

/// The two halves of a connection's socket.
struct Io {
    read: BufReader<OwnedReadHalf>,
    write: OwnedWriteHalf,
}

/// Serves one client; see the module documentation.
pub struct Connection {
    /// The socket, home between two futures (each takes it and gives it back).
    io: Option<Io>,
    store: Addr<Store>,
    served: u64,
}

/// A parsed request line.
enum Request {
    Set(String, String),
    Get(String),
}

/// What the store's answer to a request will be.
enum Pending {
    Set(Reply<()>),
    Get(Reply<Option<String>>),
    /// No request to the store: this response at once.
    Now(String),
}

/// What came of reading one line.
enum Line {
    /// A whole line (without its newline).
    Request(String),
    /// The client closed the connection (a partial last line is dropped unanswered).
    End,
    /// Too long, or not UTF-8: answered with `ERR`, then the connection closes.
    Bad(&'static str),
}

impl Connection {
    /// Reads the next request line in a future that owns the reading half.
    fn read_next(&mut self, ctx: &mut Context<Self>) {
        let mut io = self.io.take().expect("the socket is home");
        let read = async move {
            let line = read_line(&mut io.read).await;
            (io, line)
        };
        ctx.run_future(read, |me: &mut Connection, ctx, (io, line)| {
            me.io = Some(io);
            match line {
                Ok(Line::Request(text)) => me.answer(ctx, parse(&text)),
                Ok(Line::Bad(what)) => me.respond(ctx, Pending::Now(format!("ERR {what}")), true),
                // The client went away (or reset the connection): nothing more to do.
                Ok(Line::End) | Err(_) => ctx.stop(),
            }
        });
    }

    /// Sends a parsed request to the store (if it needs the store), then responds.
    fn answer(&mut self, ctx: &mut Context<Self>, request: Result<Request, String>) {
        let pending = match request {
            Ok(Request::Set(key, value)) => self
                .store
                .ask(|done| StoreMsg::Set(key, value, done))
                .map_or_else(
                    |_| Pending::Now("ERR the store stopped".into()),
                    Pending::Set,
                ),
            Ok(Request::Get(key)) => self
                .store
                .ask(|answer| StoreMsg::Get(key, answer))
                .map_or_else(
                    |_| Pending::Now("ERR the store stopped".into()),
                    Pending::Get,
                ),
            Err(what) => Pending::Now(format!("ERR {what}")),
        };
        self.respond(ctx, pending, false);
    }

    /// Awaits the store's answer and writes the response line in a future that owns the
    /// writing half; then reads the next request, or closes if `last`.
    fn respond(&mut self, ctx: &mut Context<Self>, pending: Pending, last: bool) {
        let mut io = self.io.take().expect("the socket is home");
        let write = async move {
            let mut line = match pending {
                Pending::Set(done) => done.await.map(|()| "OK".to_owned()),
                Pending::Get(value) => value.await.map(|v| match v {
                    Some(v) => format!("VALUE {v}"),
                    None => "NONE".to_owned(),
                }),
                Pending::Now(line) => Ok(line),
            }
            .unwrap_or_else(|Canceled| "ERR the store stopped".to_owned());
            line.push('\n');
            let written = io.write.write_all(line.as_bytes()).await;
            (io, written)
        };
        ctx.run_future(write, move |me: &mut Connection, ctx, (io, written)| {
            me.io = Some(io);
            if written.is_err() || last {
                return ctx.stop(); // the client went away, or must be closed
            }
            me.served += 1;
            me.read_next(ctx);
        });
    }
}

impl Actor for Connection {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.read_next(ctx);
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

/// Reads one line of at most [`MAX_LINE`] bytes.
async fn read_line(read: &mut BufReader<OwnedReadHalf>) -> io::Result<Line> {
    let mut bytes = Vec::new();
    let n = read.take(MAX_LINE).read_until(b'\n', &mut bytes).await?;
    if bytes.last() != Some(&b'\n') {
        return Ok(if n as u64 == MAX_LINE {
            Line::Bad("line too long")
        } else {
            Line::End
        });
    }
    bytes.pop();
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Line::Request(text),
        Err(_) => Line::Bad("not UTF-8"),
    })
}

/// Parses a request line; `Err` says what is wrong with it.
fn parse(line: &str) -> Result<Request, String> {
    let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
    match command {
        "SET" => match rest.split_once(' ') {
            Some((key, value)) if !key.is_empty() => Ok(Request::Set(key.into(), value.into())),
            _ => Err("SET needs a key and a value: SET <key> <value>".into()),
        },
        "GET" if !rest.is_empty() && !rest.contains(' ') => Ok(Request::Get(rest.into())),
        "GET" => Err("GET needs one key: GET <key>".into()),
        "" => Err("empty request".into()),
        other => Err(format!("unknown command {other:?} (SET or GET)")),
    }
}

/// A running server: its address and its two long-lived actors.
pub struct Server {
    /// Where it listens.
    pub local: SocketAddr,
    /// The acceptor.
    pub acceptor: Addr<Acceptor>,
    /// The store.
    pub store: Addr<Store>,
}

/// Binds `address` and starts serving on `system` (built with the `tokio` feature).
pub fn start(system: &System, address: SocketAddr) -> io::Result<Server> {
    let listener = std::net::TcpListener::bind(address)?;
    listener.set_nonblocking(true)?;
    let local = listener.local_addr()?;
    // Registering with the reactor needs its context; the system's runtime provides it.
    let listener = {
        let _context = system.tokio().enter();
        TcpListener::from_std(listener)?
    };
    let store = system.spawn(Store::default());
    let acceptor = system.spawn(Acceptor {
        listener: Some(listener),
        store: store.clone(),
        accepted: 0,
    });
    Ok(Server {
        local,
        acceptor,
        store,
    })
}

/// How many connections `server` has accepted so far.
pub fn accepted(server: &Server) -> Result<u64, Canceled> {
    let (answer, accepted) = reply::pair();
    if server.acceptor.send(AcceptorMsg::Accepted(answer)).is_err() {
        return Err(Canceled);
    }
    accepted.wait()
}
