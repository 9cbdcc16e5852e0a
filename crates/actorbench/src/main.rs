//! `actorbench`: the benchmark harness (built out in its own issue).

fn main() {
    eprintln!("actorbench: not built yet");
    std::process::exit(2);
}
