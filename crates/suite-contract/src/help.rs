//! The `--help` text: usage, output, exit statuses and where the thread count comes from,
//! then every benchmark with what it stresses, its parameters (quick default and range),
//! the check a correct run prints, and the seed parameters.

use std::fmt::Write as _;

use crate::bench::Bench;

/// The help text for a suite program called `program`, ending in a newline.
///
/// ```
/// let help = suite_contract::help_text("kameo-suite");
/// assert!(help.starts_with("Usage: kameo-suite BENCH [NAME=VALUE ...]"));
/// assert!(help.contains("hops"));
/// assert!(help.contains("1000000"));
/// assert!(help.contains("Savina default"));
/// ```
pub fn help_text(program: &str) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_help(&mut out, program);
    out
}

fn write_help(out: &mut String, program: &str) -> std::fmt::Result {
    writeln!(out, "Usage: {program} BENCH [NAME=VALUE ...]")?;
    writeln!(out, "       {program} --help")?;
    writeln!(out)?;
    writeln!(
        out,
        "Runs one benchmark of the actor benchmark suite and prints one line on stdout:"
    )?;
    writeln!(
        out,
        "  result bench=NAME check=VALUE seconds=S [KEY=VALUE ...]"
    )?;
    writeln!(
        out,
        "S is the work time in seconds: from just before the runtime starts until the check is known."
    )?;
    writeln!(
        out,
        "Parameters not given take their quick values. Values are non-negative decimal integers."
    )?;
    writeln!(
        out,
        "Exit status: 0 on success, 1 if the run fails, 2 on bad input (one line on stderr)."
    )?;
    writeln!(
        out,
        "Worker threads are not a parameter: the runtime reads its own setting\n\
         (footlights: FOOTLIGHTS_THREADS; Tokio-based runtimes: TOKIO_WORKER_THREADS)."
    )?;
    writeln!(out)?;
    writeln!(out, "Benchmarks (parameter: quick value, inclusive range):")?;
    let width = Bench::ALL
        .iter()
        .flat_map(|b| b.params())
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0);
    for bench in Bench::ALL {
        writeln!(out)?;
        writeln!(out, "  {bench}: {}", bench.stresses())?;
        for p in bench.params() {
            writeln!(
                out,
                "    {:<width$}  quick {:<10}  range {}..={}",
                p.name, p.quick, p.min, p.max
            )?;
        }
        if bench == Bench::Skynet {
            writeln!(out, "    size must be a power of div (div^0 = 1 allowed)")?;
        }
        if bench == Bench::Logmap {
            writeln!(
                out,
                "    rate and increment are in units of 1/10000 (rate=34600 is 3.46)"
            )?;
        }
        writeln!(out, "    check: {}", bench.check())?;
        writeln!(out, "    seed: {}", bench.seed())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_benchmark_parameter_default_range_and_seed() {
        let help = help_text("x");
        for bench in Bench::ALL {
            assert!(help.contains(&format!("  {bench}: ")), "{bench}");
            assert!(help.contains(bench.seed()), "{bench}");
            assert!(help.contains(bench.check()), "{bench}");
            // The benchmark's own block: from its heading to the next blank line (names
            // such as `messages` recur in several benchmarks).
            let block = help
                .split("\n\n")
                .find(|b| b.starts_with(&format!("  {bench}: ")))
                .unwrap_or_else(|| panic!("no block for {bench}"));
            for p in bench.params() {
                let range = format!("range {}..={}", p.min, p.max);
                let line = block
                    .lines()
                    .find(|l| {
                        l.trim_start().starts_with(&format!("{} ", p.name)) && l.contains(&range)
                    })
                    .unwrap_or_else(|| panic!("{bench} {}", p.name));
                assert!(line.contains(&format!("quick {}", p.quick)), "{line}");
            }
        }
        assert!(help.contains("FOOTLIGHTS_THREADS"));
        assert!(help.ends_with('\n'));
    }
}
