//! Markdown export: a heading with the session's host, commit and versions, then one
//! table per benchmark and parameter set, and the failures as a list.

use std::fmt::Write;

use anyhow::Result;

use super::Exporter;
use crate::output::columns;
use crate::output::units;
use crate::store::SessionData;
use crate::summary::{self, View, failure_lines};

/// The Markdown exporter.
pub struct Markdown;

impl Exporter for Markdown {
    fn export(&self, data: &SessionData, view: &View) -> Result<String> {
        let s = &data.session;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "## actorbench session {} ({}, {} profile)\n",
            s.id, s.started_at, s.profile
        );
        let _ = writeln!(
            out,
            "Host: {} ({} cores, {}), {}. Commit `{}`. Status: {}.\n",
            s.host_cpu,
            s.host_cores,
            units::bytes(s.host_memory_bytes as f64),
            s.host_kernel,
            s.git_commit,
            s.status
        );
        let _ = writeln!(out, "| implementation | status | version |\n|---|---|---|");
        for i in &data.implementations {
            let variant = if i.variant_of.is_empty() {
                String::new()
            } else {
                format!(" (variant of {}: `{}`)", i.variant_of, escape(&i.env))
            };
            let _ = writeln!(
                out,
                "| {}{variant} | {} | {} |",
                i.name,
                i.status,
                escape(&i.version)
            );
        }
        out.push('\n');
        for g in summary::summarise_session(data, view) {
            let _ = writeln!(out, "### {} `{}`\n", g.bench, g.params);
            let header = columns::header(&g);
            let _ = writeln!(out, "| {} |", header.join(" | "));
            let align: Vec<&str> = columns::numeric(&g)
                .iter()
                .map(|&n| if n { "---:" } else { "---" })
                .collect();
            let _ = writeln!(out, "|{}|", align.join("|"));
            for c in &g.cells {
                let cells: Vec<String> = columns::row(&g, c).iter().map(|s| escape(s)).collect();
                let _ = writeln!(out, "| {} |", cells.join(" | "));
            }
            let failures: Vec<String> = g.cells.iter().flat_map(failure_lines).collect();
            if !failures.is_empty() {
                out.push_str("\nFailures:\n\n");
                for f in failures {
                    let _ = writeln!(out, "- {}", escape(&f));
                }
            }
            out.push('\n');
        }
        Ok(out)
    }
}

fn escape(s: &str) -> String {
    s.replace('|', "\\|")
}
