//! `footlights-suite`: the benchmark suite on the footlights runtime (built out in its own issue).

fn main() {
    eprintln!("footlights-suite: not built yet");
    std::process::exit(2);
}
