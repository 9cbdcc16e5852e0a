//! The per-benchmark table printed at the end of `actorbench run` and by `actorbench show`.
//!
//! One block per benchmark and parameter set: a row per implementation and core count
//! with the columns of [`super::columns`] (work, wall and start-up time, the ratio to the
//! fastest on the chosen metric, CPU, memory, context switches, fairness, runs, notes);
//! then every failed run on a line of its own.

use std::fmt::Write;

use comfy_table::{CellAlignment, Table, presets};

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
/// column `i`. The layout is comfy-table's, without borders; trailing spaces are trimmed.
pub fn align(rows: &[Vec<String>], right: &[bool]) -> String {
    let mut table = Table::new();
    table.load_style(presets::NOTHING);
    table.add_rows(rows.iter().cloned());
    for (i, column) in table.column_iter_mut().enumerate() {
        column.set_padding((if i == 0 { 2 } else { 1 }, 1));
        if right.get(i).copied().unwrap_or(false) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    let mut out = String::new();
    for line in table.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::align;

    #[test]
    fn aligns_columns_two_spaces_apart_and_indents_by_two() {
        let rows = vec![
            vec!["impl".to_string(), "time".to_string()],
            vec!["footlights".to_string(), "7 ms".to_string()],
            vec!["go".to_string(), "12.5 ms".to_string()],
        ];
        assert_eq!(
            align(&rows, &[false, true]),
            "  impl           time\n  footlights     7 ms\n  go          12.5 ms\n"
        );
    }
}
