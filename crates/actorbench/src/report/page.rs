//! The report page: one self-contained HTML document (inline CSS and SVG, no script),
//! rendered with the `minijinja` template engine from `page.html` (which escapes every
//! value; only the figures' SVG and the stylesheet, `page.css`, go in as they are).
//!
//! Top to bottom: the title line (session, date, profile, commit); the summary table
//! (median time per benchmark and implementation at the headline cell, the ratio to the
//! reference coloured from green to red with its interval, and per implementation the
//! geometric mean of its ratios); the failures; one section per benchmark with its
//! figures, its full table and, for chameneos, the fairness table; start-up per
//! implementation and core count; the history of the session's cells across sessions;
//! and the setup needed to reproduce the session: host, runtime versions, run templates,
//! exact commands, date and commit. This file only gathers what the template shows.

use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::{BenchView, Figure, fairness, startup, views};
use crate::history::History;
use crate::metric::{self, Metric};
use crate::output::{columns, units};
use crate::stats;
use crate::store::SessionData;
use crate::summary::{self, View, failure_lines};

const TEMPLATE: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");

/// Background colour for a ratio to the fastest: green at 1, through yellow, red at 4x+.
fn ratio_color(r: f64) -> String {
    let t = (r.max(1.0).log2() / 2.0).min(1.0);
    format!("hsl({:.0}, 70%, 86%)", 130.0 * (1.0 - t))
}

/// Strips an XML declaration so the SVG can be inlined.
fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

fn figure(f: &Figure) -> Value {
    json!({ "name": f.name, "title": f.title, "caption": f.caption, "svg": inline_svg(&f.svg) })
}

/// Renders the page.
pub fn render(
    data: &SessionData,
    view: &View,
    figures: &[(String, Vec<Figure>)],
    startup_figure: Option<&Figure>,
    histories: &[(String, Vec<History>)],
    history_figures: &[Figure],
    profiles: &[String],
) -> Result<String> {
    let s = &data.session;
    let vs = views(data, view);
    let (metric, metric_note) = metric::resolve(view.metric, &data.runs);
    let groups = summary::summarise_session(data, view);
    let failures: Vec<String> = groups
        .iter()
        .flat_map(|g| {
            g.cells.iter().flat_map(move |c| {
                failure_lines(c)
                    .into_iter()
                    .map(move |l| format!("{} {}: {l}", g.bench, g.params))
            })
        })
        .collect();
    let benches: Vec<Value> = vs
        .iter()
        .zip(figures)
        .map(|(v, (bench, figs))| {
            json!({
                "bench": bench,
                "params": v.groups.iter().map(|g| g.params.clone()).collect::<Vec<_>>(),
                "figures": figs.iter().map(figure).collect::<Vec<_>>(),
                "fairness": fairness_rows(v),
                "tables": v.groups.iter().map(cells_table).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut first_commands: Vec<&str> = Vec::new();
    let mut first_of: Vec<&str> = Vec::new();
    let mut all_commands: Vec<&str> = Vec::new();
    let mut listed: Vec<(&str, &str)> = Vec::new();
    for r in &data.runs {
        if !first_of.contains(&r.implementation.as_str()) {
            first_of.push(&r.implementation);
            first_commands.push(&r.command);
        }
        if !listed.contains(&(r.implementation.as_str(), r.bench.as_str())) {
            listed.push((&r.implementation, &r.bench));
            all_commands.push(&r.command);
        }
    }
    let ctx = json!({
        "css": CSS,
        "s": {
            "id": s.id, "started_at": s.started_at, "ended_at": s.ended_at.as_deref().unwrap_or("-"),
            "profile": s.profile, "git_commit": s.git_commit, "host_cpu": s.host_cpu,
            "host_cores": s.host_cores, "status": s.status, "suite_path": s.suite_path,
            "settings": s.settings, "command_line": s.command_line,
            "environment": crate::describe::environment_line(s),
            "machine": crate::describe::machine_line(s),
            "knobs": crate::knobs::note(&s.env_mode, &s.env_knobs),
            "host": format!(
                "{}, {} cores, {} memory, {}",
                s.host_cpu,
                s.host_cores,
                units::bytes(s.host_memory_bytes as f64),
                s.host_kernel
            ),
        },
        "runs_total": data.runs.len(),
        "failed_runs": data.runs.iter().filter(|r| !r.ok()).count(),
        "all_failed": !data.runs.iter().any(|r| r.ok()),
        "metric_note": metric_note,
        "summary": summary_table(&vs, metric, view.baseline.as_deref()),
        "failures": failures,
        "benches": benches,
        "startup": {
            "figure": startup_figure.map(figure),
            "limit": units::percent(metric::STARTUP_SHARE_LIMIT),
            "rows": startup::rows(data).iter().map(|r| vec![
                r.implementation.clone(),
                r.cores.to_string(),
                units::seconds(r.median),
                format!("{} - {}", units::seconds(r.min), units::seconds(r.max)),
                units::percent(r.share),
                r.cells.to_string(),
            ]).collect::<Vec<_>>(),
        },
        "history": {
            "figures": history_figures.iter().map(figure).collect::<Vec<_>>(),
            "changes": histories
                .iter()
                .flat_map(|(_, hs)| hs.iter())
                .flat_map(|h| h.change_lines().into_iter().map(move |l| format!("{}: {l}", h.cell())))
                .collect::<Vec<_>>(),
        },
        "implementations": data.implementations.iter().map(|i| json!({
            "name": i.name,
            "variant_of": i.variant_of,
            "language": i.language,
            "version": if i.version.is_empty() { "-" } else { &i.version },
            "status": i.status,
            "sha256": i.binary_sha256,
            "template": if i.env.is_empty() {
                i.run_template.clone()
            } else {
                format!("{} {}", i.env, i.run_template)
            },
        })).collect::<Vec<_>>(),
        "counters_note": crate::counters::coverage(&data.runs),
        "modes": groups
            .iter()
            .flat_map(|g| {
                g.cells.iter().filter_map(move |c| {
                    let m = c.modes.as_ref()?;
                    Some(format!(
                        "{} {}: {} on {} core{}: {} runs near {}, {} near {} ({:.1} standard deviations apart)",
                        g.bench,
                        g.params,
                        c.implementation,
                        c.cores,
                        if c.cores == 1 { "" } else { "s" },
                        m.low_n,
                        g.metric.show(m.low),
                        m.high_n,
                        g.metric.show(m.high),
                        m.gap_sds
                    ))
                })
            })
            .collect::<Vec<_>>(),
        // Linked as `profiles/NAME` by the template ([`super::PROFILES`]).
        "profiles": profiles.iter().map(|p| json!({ "name": p })).collect::<Vec<_>>(),
        "first_commands": first_commands,
        "all_commands": all_commands,
    });
    let mut env = minijinja::Environment::new();
    env.add_template("page.html", TEMPLATE)
        .context("the report template")?;
    let page = env
        .get_template("page.html")
        .and_then(|t| t.render(minijinja::value::Serde(&ctx)))
        .context("rendering the report")?;
    Ok(page + "\n")
}

/// The summary: per benchmark (rows) and implementation (columns), the headline cell's
/// median and ratio to the reference with its interval; then each implementation's
/// geometric mean of ratios.
fn summary_table(vs: &[BenchView<'_>], metric: Metric, baseline: Option<&str>) -> Value {
    let mut impls: Vec<String> = Vec::new();
    for v in vs {
        for i in &v.implementations {
            if !impls.contains(i) {
                impls.push(i.clone());
            }
        }
    }
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); impls.len()];
    let mut rows = Vec::new();
    for v in vs {
        let g = v.groups.last().expect("a view has a group");
        let k = v.cores.last().copied().unwrap_or(1);
        let cell = |imp: &str| {
            g.cells
                .iter()
                .find(|c| c.implementation == imp && c.cores == k)
        };
        let reference = match baseline {
            Some(b) => cell(b).filter(|c| c.time(metric).median.is_finite()),
            None => impls
                .iter()
                .filter_map(|i| cell(i))
                .filter(|c| c.time(metric).median.is_finite())
                .min_by(|a, b| a.time(metric).median.total_cmp(&b.time(metric).median)),
        };
        let mut cells = Vec::new();
        for (j, imp) in impls.iter().enumerate() {
            cells.push(match cell(imp) {
                None => json!({ "kind": "none" }),
                Some(c) if !c.time(metric).median.is_finite() => {
                    json!({ "kind": "failed", "ok": c.ok, "measured": c.measured })
                }
                Some(c) => {
                    let r = reference
                        .map_or(f64::NAN, |f| c.time(metric).median / f.time(metric).median);
                    if r.is_finite() {
                        ratios[j].push(r);
                    }
                    let (lo, hi) = match reference {
                        Some(f) if !std::ptr::eq(f, c) => {
                            stats::bootstrap_ratio(&c.time(metric).values, &f.time(metric).values)
                        }
                        _ => (f64::NAN, f64::NAN),
                    };
                    json!({
                        "kind": "ok",
                        "time": units::seconds(c.time(metric).median),
                        "ratio": units::ratio(r).replace('x', "×"),
                        "color": ratio_color(r),
                        "unresolved": lo <= 1.0 && hi >= 1.0,
                        "interval": if lo.is_finite() { format!("{lo:.2}–{hi:.2}") } else { String::new() },
                        "failed_runs": c.measured - c.ok,
                    })
                }
            });
        }
        rows.push(json!({ "bench": v.bench, "params": g.params, "cores": k, "cells": cells }));
    }
    let geomeans: Vec<Value> = ratios
        .iter()
        .map(|r| {
            let g = stats::geometric_mean(r);
            json!({ "count": r.len(), "ratio": units::ratio(g).replace('x', "×"), "color": ratio_color(g) })
        })
        .collect();
    json!({
        "metric": metric.label(),
        "reference": baseline.map_or("the fastest implementation".to_string(), |b| format!("{b} at the same core count")),
        "impls": impls,
        "rows": rows,
        "geomeans": geomeans,
    })
}

/// One group's full table, with the columns of the terminal table.
fn cells_table(g: &summary::Group) -> Value {
    let header = columns::header(g);
    let numeric = columns::numeric(g);
    let rows: Vec<Vec<Value>> = g
        .cells
        .iter()
        .map(|c| {
            columns::row(g, c)
                .into_iter()
                .zip(&numeric)
                .zip(&header)
                .map(|((text, &num), name)| {
                    let class = if name == "ok" && c.ok < c.measured {
                        "fail"
                    } else if num {
                        ""
                    } else {
                        "l"
                    };
                    json!({ "text": text, "class": class })
                })
                .collect()
        })
        .collect();
    json!({
        "params": g.params,
        "header": header.iter().zip(&numeric).map(|(t, n)| json!({ "text": t, "numeric": n })).collect::<Vec<_>>(),
        "rows": rows,
    })
}

/// The chameneos fairness table (thesis Table 7) of a view, as text cells.
fn fairness_rows(v: &BenchView<'_>) -> Vec<Vec<String>> {
    let f = |x: f64, d: usize| {
        if x.is_finite() {
            format!("{x:.d$}")
        } else {
            "-".into()
        }
    };
    fairness::table(v)
        .into_iter()
        .map(|r| {
            vec![
                r.params,
                r.implementation,
                r.cores.to_string(),
                f(r.stddev, 1),
                f(r.cv, 4),
                f(r.jain, 4),
                f(r.min_max_of_ideal.0, 3),
                f(r.min_max_of_ideal.1, 3),
                r.runs.to_string(),
            ]
        })
        .collect()
}
