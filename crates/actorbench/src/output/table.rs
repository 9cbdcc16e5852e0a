//! The per-benchmark table printed at the end of `actorbench run` and by `actorbench show`.
//!
//! One block per benchmark and parameter set: a row per implementation and core count
//! with the columns of [`super::columns`] (work, wall and start-up time, the ratio to the
//! fastest on the chosen metric, CPU, memory, context switches, fairness, runs, notes);
//! then every failed run on a line of its own.

use std::fmt::Write;

use crate::output::columns;
use crate::summary::{Group, failure_lines};

/// Renders `groups` as aligned text tables.
pub fn render(groups: &[Group]) -> String {
    let mut out = String::new();
    for g in groups {
        let _ = writeln!(out, "{}  {}", g.bench, g.params);
        let mut rows: Vec<Vec<String>> = vec![columns::header(g)];
        rows.extend(g.cells.iter().map(|c| columns::row(g, c)));
        out.push_str(&align(&rows, &columns::numeric(g)));
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
