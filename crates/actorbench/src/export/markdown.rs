//! Markdown export: a heading with the session's host, commit and versions, then one
//! table per benchmark and parameter set, and the failures as a list.

use std::fmt::Write;

use anyhow::Result;

use super::Exporter;
use crate::output::units;
use crate::store::SessionData;
use crate::summary::{self, failure_lines};

/// The Markdown exporter.
pub struct Markdown;

impl Exporter for Markdown {
    fn export(&self, data: &SessionData) -> Result<String> {
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
        for g in summary::summarise(&data.runs) {
            let fair = g.cells.iter().any(|c| c.fairness_jain.is_some());
            let _ = writeln!(out, "### {} `{}`\n", g.bench, g.params);
            let _ = write!(
                out,
                "| implementation | cores | median wall | min - max | vs fastest | CPU | peak RSS | ctx vol / invol |"
            );
            if fair {
                out.push_str(" fairness CV / Jain |");
            }
            out.push_str(" ok |\n|---|---:|---:|---:|---:|---:|---:|---:|");
            if fair {
                out.push_str("---:|");
            }
            out.push_str("---:|\n");
            for c in &g.cells {
                let _ = write!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} | {} / {} |",
                    c.implementation,
                    c.cores,
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
                    units::count(c.voluntary_switches),
                    units::count(c.involuntary_switches)
                );
                if fair {
                    let f = match (c.fairness_cv, c.fairness_jain) {
                        (Some(cv), Some(j)) => format!("{cv:.3} / {j:.4}"),
                        _ => "-".into(),
                    };
                    let _ = write!(out, " {f} |");
                }
                let _ = writeln!(out, " {}/{} |", c.ok, c.measured);
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
