//! The per-benchmark table printed at the end of `actorbench run` and by `actorbench show`.
//!
//! One block per benchmark and parameter set: a row per implementation and core count
//! with the median wall time and its min-max range, the ratio to the fastest, CPU
//! utilisation, peak RSS, voluntary/involuntary context switches, fairness (chameneos)
//! and how many measured runs succeeded; then every failed run on a line of its own.

use std::fmt::Write;

use crate::output::units;
use crate::summary::{Group, failure_lines};

/// Renders `groups` as aligned text tables.
pub fn render(groups: &[Group]) -> String {
    let mut out = String::new();
    for g in groups {
        let _ = writeln!(out, "{}  {}", g.bench, g.params);
        let fair = g.cells.iter().any(|c| c.fairness_jain.is_some()) || g.bench == "chameneos";
        let mut header = vec![
            "implementation",
            "cores",
            "median wall",
            "min - max",
            "vs fastest",
            "CPU",
            "peak RSS",
            "ctx vol/invol",
        ];
        if fair {
            header.push("fairness CV / Jain");
        }
        header.push("ok");
        let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
        for c in &g.cells {
            let mut row = vec![
                c.implementation.clone(),
                c.cores.to_string(),
                units::seconds(c.wall_median),
                if c.ok > 0 {
                    format!(
                        "{} - {}",
                        units::seconds(c.wall_min),
                        units::seconds(c.wall_max)
                    )
                } else {
                    "-".into()
                },
                units::ratio(c.ratio),
                units::percent(c.cpu_util),
                units::bytes(c.max_rss_bytes),
                format!(
                    "{} / {}",
                    units::count(c.voluntary_switches),
                    units::count(c.involuntary_switches)
                ),
            ];
            if fair {
                row.push(match (c.fairness_cv, c.fairness_jain) {
                    (Some(cv), Some(j)) => format!("{cv:.3} / {j:.4}"),
                    _ => "-".into(),
                });
            }
            row.push(format!("{}/{}", c.ok, c.measured));
            rows.push(row);
        }
        out.push_str(&align(
            &rows,
            &[false, true, true, true, true, true, true, true, true, true],
        ));
        let failures: Vec<String> = g.cells.iter().flat_map(failure_lines).collect();
        if !failures.is_empty() {
            let _ = writeln!(out, "  failures:");
            for f in failures {
                let _ = writeln!(out, "    {f}");
            }
        }
        out.push('\n');
    }
    out
}

/// Aligns rows into columns (two spaces apart, indented by two); `right[i]` right-aligns
/// column `i`.
pub fn align(rows: &[Vec<String>], right: &[bool]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::from(" ");
        for (i, cell) in r.iter().enumerate() {
            let pad = width[i] - cell.chars().count();
            line.push(' ');
            if right.get(i).copied().unwrap_or(false) {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            }
            line.push(' ');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
