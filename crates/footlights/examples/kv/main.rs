//! A key-value server over TCP, one footlights actor per connection, tokio for the I/O
//! (`server.rs` has the protocol and the actors).
//!
//! ```sh
//! cargo run --release -p footlights --features tokio --example kv -- 127.0.0.1:7878
//! printf 'SET greeting hello world\nGET greeting\n' | nc -q1 127.0.0.1 7878
//! ```
//!
//! prints `OK` and `VALUE hello world`. The address defaults to 127.0.0.1:7878; the
//! server runs until it is interrupted.

// The integration test (tests/tcp.rs) uses more of the server than this binary does.
#[allow(dead_code)]
mod server;

use std::net::SocketAddr;
use std::process::ExitCode;

use footlights::System;

fn main() -> ExitCode {
    let arg = std::env::args().nth(1);
    let text = arg.as_deref().unwrap_or("127.0.0.1:7878");
    let address: SocketAddr = match text.parse() {
        Ok(address) => address,
        Err(e) => {
            eprintln!("kv: {text:?} is not an address like 127.0.0.1:7878: {e}");
            return ExitCode::from(2);
        }
    };
    let system = match System::builder().build() {
        Ok(system) => system,
        Err(e) => {
            eprintln!("kv: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = match server::start(&system, address) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("kv: cannot listen on {address}: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "kv: listening on {} ({} workers)",
        server.local,
        system.threads()
    );
    loop {
        std::thread::park();
    }
}
