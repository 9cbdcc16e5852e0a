//! The report page: one self-contained HTML document (inline CSS and SVG, no script).
//!
//! Top to bottom: the title line (session, date, profile, commit); the summary table
//! (median time per benchmark and implementation at the headline cell, the ratio to the
//! fastest coloured from green to red, and per implementation the geometric mean of its
//! ratios); the failures; one section per benchmark with its figures, its full table and,
//! for chameneos, the fairness table; and the setup needed to reproduce the session:
//! host, runtime versions, run templates, exact commands, date and commit.

use std::fmt::Write;

use super::{BenchView, Figure, fairness, startup, views};
use crate::metric::{self, Metric};
use crate::output::{columns, units};
use crate::stats;
use crate::store::SessionData;
use crate::summary::{self, View, failure_lines};

const CSS: &str = r#"
:root { --ink: #1d2330; --muted: #5b6475; --line: #e3e6ec; --bg: #fafbfc; --accent: #d55e00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color: var(--ink); background: var(--bg); }
main { max-width: 1360px; margin: 0 auto; padding: 28px 32px 64px; }
header { border-bottom: 3px solid var(--accent); padding-bottom: 12px; margin-bottom: 24px; }
h1 { font-size: 28px; margin: 0 0 4px; letter-spacing: -0.01em; }
h2 { font-size: 21px; margin: 40px 0 8px; padding-top: 8px; border-top: 1px solid var(--line); }
h3 { font-size: 16px; margin: 20px 0 6px; }
.sub, .note, figcaption { color: var(--muted); }
.sub code { font-size: 13px; }
table { border-collapse: collapse; margin: 8px 0 16px; background: #fff; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: 5px 10px; text-align: right; white-space: nowrap; }
th { background: #f1f3f6; font-weight: 600; }
td.l, th.l { text-align: left; }
td.fail { color: #b00020; font-weight: 600; }
tr.gm td { font-weight: 700; border-top: 2px solid #c9ced8; }
.ratio { display: inline-block; min-width: 3.6em; padding: 0 6px; border-radius: 4px; margin-top: 2px; }
.unresolved { outline: 2px dashed #7a8699; outline-offset: 1px; }
.scroll { overflow-x: auto; }
table.summary td, table.summary th { white-space: normal; }
table.summary td.t { text-align: center; min-width: 6.5em; }
table.summary .time { display: block; font-size: 13px; }
.figs { display: grid; grid-template-columns: repeat(auto-fill, minmax(600px, 1fr)); gap: 18px; }
figure { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 10px 6px; }
figure svg { display: block; width: 100%; height: auto; }
figcaption { font-size: 13px; padding: 4px 6px; }
.banner { background: #fdecea; border: 1px solid #f5c2c0; color: #8a1c14; padding: 10px 14px; border-radius: 6px; margin: 12px 0; }
.ok { background: #e8f5ec; border: 1px solid #bfe3c9; color: #1e5a32; padding: 8px 14px; border-radius: 6px; }
ul.failures { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: #fff; border: 1px solid var(--line); padding: 8px 10px; overflow-x: auto; border-radius: 6px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dt { color: var(--muted); }
dd { margin: 0; }
td.wrap code { white-space: pre-wrap; word-break: break-all; }
nav { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 14px; margin: -8px 0 8px; }
nav a { color: var(--muted); text-decoration: none; border-bottom: 1px dotted #b8bfcc; }
details summary { cursor: pointer; color: var(--muted); margin: 6px 0; }
"#;

/// HTML-escapes text.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

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

/// Renders the page.
pub fn render(
    data: &SessionData,
    view: &View,
    figures: &[(String, Vec<Figure>)],
    startup_figure: Option<&Figure>,
    histories: &[(String, Vec<crate::history::History>)],
    history_figures: &[Figure],
) -> String {
    let s = &data.session;
    let vs = views(data, view);
    let (metric, metric_note) = metric::resolve(view.metric, &data.runs);
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>actorbench: session {} ({})</title><style>{CSS}</style></head><body><main>",
        s.id,
        esc(&s.started_at)
    );
    let _ = write!(
        h,
        "<header><h1>Actor runtimes, side by side</h1><div class=\"sub\">actorbench session {} · {} · {} profile · \
         commit <code>{}</code> · {} on {} cores · status: {}</div></header>",
        s.id,
        esc(&s.started_at),
        esc(&s.profile),
        esc(&s.git_commit),
        esc(&s.host_cpu),
        s.host_cores,
        esc(&s.status)
    );
    h.push_str("<nav><a href=\"#summary\">Summary</a><a href=\"#failures\">Failures</a>");
    for v in &vs {
        let _ = write!(h, "<a href=\"#bench-{0}\">{0}</a>", esc(&v.bench));
    }
    h.push_str(
        "<a href=\"#startup\">Start-up</a><a href=\"#history\">History</a><a href=\"#setup\">How this was measured</a></nav>",
    );
    let ok_runs = data.runs.iter().filter(|r| r.ok()).count();
    if s.status != "complete" {
        let _ = write!(
            h,
            "<div class=\"banner\">This session is <b>{}</b>: it holds only the runs that finished.</div>",
            esc(&s.status)
        );
    }
    if ok_runs == 0 {
        let _ = write!(
            h,
            "<div class=\"banner\"><b>Every run in this session failed</b> ({} runs): there are no timings to \
             compare. The failures are listed below and marked in every figure.</div>",
            data.runs.len()
        );
    }

    // Summary.
    h.push_str("<section id=\"summary\"><h2>Summary</h2>");
    if let Some(note) = &metric_note {
        let _ = write!(h, "<p class=\"banner\">{}</p>", esc(note));
    }
    summary_table(&mut h, &vs, metric, view.baseline.as_deref());
    h.push_str("</section>");

    // Failures.
    let groups = summary::summarise_session(data, view);
    let failures: Vec<(String, String)> = groups
        .iter()
        .flat_map(|g| {
            g.cells.iter().flat_map(move |c| {
                failure_lines(c)
                    .into_iter()
                    .map(move |l| (format!("{} {}", g.bench, g.params), l))
            })
        })
        .collect();
    h.push_str("<section id=\"failures\"><h2>Failures</h2>");
    if failures.is_empty() {
        let _ = write!(
            h,
            "<p class=\"ok\">No failures: all {} runs printed the expected check.</p>",
            data.runs.len()
        );
    } else {
        let n = data.runs.iter().filter(|r| !r.ok()).count();
        let _ = write!(
            h,
            "<p>{n} of {} runs failed. Every failure is kept in the database and marked in the figures.</p><ul class=\"failures\">",
            data.runs.len()
        );
        for (what, line) in failures {
            let _ = write!(h, "<li>{}: {}</li>", esc(&what), esc(&line));
        }
        h.push_str("</ul>");
    }
    h.push_str("</section>");

    // Benchmarks.
    for (v, (bench, figs)) in vs.iter().zip(figures) {
        let _ = write!(
            h,
            "<section id=\"bench-{}\"><h2>{}</h2>",
            esc(bench),
            esc(bench)
        );
        let sets: Vec<String> = v
            .groups
            .iter()
            .map(|g| format!("<code>{}</code>", esc(&g.params)))
            .collect();
        let _ = write!(
            h,
            "<p class=\"note\">Parameters: {}.</p><div class=\"figs\">",
            sets.join(", ")
        );
        for f in figs {
            h.push_str(&figure_html(f));
        }
        h.push_str("</div>");
        let rows = fairness::table(v);
        if !rows.is_empty() {
            h.push_str(
                "<h3>Fairness (thesis Table 7)</h3><table><tr><th class=\"l\">parameters</th><th class=\"l\">implementation</th>\
                 <th>cores</th><th>stddev</th><th>CV</th><th>Jain's index</th><th>min / ideal</th><th>max / ideal</th><th>runs</th></tr>",
            );
            for r in rows {
                let f = |x: f64, d: usize| {
                    if x.is_finite() {
                        format!("{x:.d$}")
                    } else {
                        "-".into()
                    }
                };
                let _ = write!(
                    h,
                    "<tr><td class=\"l\"><code>{}</code></td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    esc(&r.params),
                    esc(&r.implementation),
                    r.cores,
                    f(r.stddev, 1),
                    f(r.cv, 4),
                    f(r.jain, 4),
                    f(r.min_max_of_ideal.0, 3),
                    f(r.min_max_of_ideal.1, 3),
                    r.runs
                );
            }
            h.push_str("</table>");
        }
        h.push_str("<h3>All cells</h3>");
        for g in &v.groups {
            cells_table(&mut h, g);
        }
        h.push_str("</section>");
    }

    startup_section(&mut h, data, startup_figure);
    history_section(&mut h, histories, history_figures);

    // Setup.
    h.push_str("<section id=\"setup\"><h2>How this was measured</h2><dl>");
    let dl = |h: &mut String, k: &str, v: &str| {
        let _ = write!(h, "<dt>{}</dt><dd>{}</dd>", esc(k), v);
    };
    dl(
        &mut h,
        "host",
        &esc(&format!(
            "{}, {} cores, {} memory, {}",
            s.host_cpu,
            s.host_cores,
            units::bytes(s.host_memory_bytes as f64),
            s.host_kernel
        )),
    );
    dl(&mut h, "started", &esc(&s.started_at));
    dl(&mut h, "ended", &esc(s.ended_at.as_deref().unwrap_or("-")));
    dl(
        &mut h,
        "commit",
        &format!("<code>{}</code>", esc(&s.git_commit)),
    );
    dl(
        &mut h,
        "suite file",
        &format!("<code>{}</code>", esc(&s.suite_path)),
    );
    dl(
        &mut h,
        "settings",
        &format!("<code>{}</code>", esc(&s.settings)),
    );
    dl(
        &mut h,
        "command",
        &format!("<code>{}</code>", esc(&s.command_line)),
    );
    h.push_str("</dl><h3>Runtimes</h3><div class=\"scroll\"><table><tr><th class=\"l\">implementation</th><th class=\"l\">language</th><th class=\"l\">toolchain version</th><th class=\"l\">status</th><th class=\"l\">run template</th></tr>");
    for i in &data.implementations {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l{}\">{}</td><td class=\"l wrap\"><code>{}</code></td></tr>",
            esc(&i.name),
            if i.variant_of.is_empty() {
                String::new()
            } else {
                format!(" (variant of {})", esc(&i.variant_of))
            },
            esc(&i.language),
            esc(if i.version.is_empty() {
                "-"
            } else {
                &i.version
            }),
            if i.status == "available" { "" } else { " fail" },
            esc(&i.status),
            esc(&if i.env.is_empty() {
                i.run_template.clone()
            } else {
                format!("{} {}", i.env, i.run_template)
            })
        );
    }
    h.push_str("</table></div><h3>Exact commands</h3><p class=\"note\">The first run of each implementation (the thread count and the parameters change from run to run):</p><pre>");
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut first: Vec<&str> = Vec::new();
    for r in &data.runs {
        let key = (r.implementation.clone(), r.bench.clone());
        if !first.contains(&r.implementation.as_str()) {
            first.push(&r.implementation);
            let _ = writeln!(h, "{}", esc(&r.command));
        }
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    let _ = write!(
        h,
        "</pre><details><summary>One command per implementation and benchmark ({})</summary><pre>",
        seen.len()
    );
    let mut listed: Vec<(String, String)> = Vec::new();
    for r in &data.runs {
        let key = (r.implementation.clone(), r.bench.clone());
        if !listed.contains(&key) {
            listed.push(key);
            let _ = writeln!(h, "{}", esc(&r.command));
        }
    }
    h.push_str("</pre></details>");
    h.push_str("<p class=\"note\">Each run is one process pinned to the first k CPUs with its runtime's thread count set to k; \
               wall time on a monotonic clock, CPU time, peak RSS and context switches from wait4. Generated by actorbench.</p></section>");
    h.push_str("</main></body></html>\n");
    h
}

/// The summary: per benchmark (rows) and implementation (columns), the headline cell's
/// median and ratio; the last row is each implementation's geometric mean of ratios.
fn summary_table(h: &mut String, vs: &[BenchView<'_>], metric: Metric, baseline: Option<&str>) {
    let mut impls: Vec<String> = Vec::new();
    for v in vs {
        for i in &v.implementations {
            if !impls.contains(i) {
                impls.push(i.clone());
            }
        }
    }
    let _ = write!(
        h,
        "<p class=\"note\">Median {} at the highest core count and the largest parameter set of each benchmark; \
         the coloured figure is the ratio to {} (1.00 is the reference), with its 95% bootstrap interval under it; \
         <span class=\"unresolved\">a dashed outline</span> marks a ratio whose interval spans 1.00 (unresolved: the runs \
         cannot tell it from the reference). The last row is the \
         geometric mean of each implementation's ratios over the benchmarks it completed.</p>\
         <div class=\"scroll\"><table class=\"summary\"><tr><th class=\"l\">benchmark</th><th class=\"l\">parameters</th><th>cores</th>",
        metric.label(),
        baseline.map_or("the fastest implementation".to_string(), |b| format!(
            "{} at the same core count",
            esc(b)
        ))
    );
    for i in &impls {
        let _ = write!(h, "<th>{}</th>", esc(i));
    }
    h.push_str("</tr>");
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); impls.len()];
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
        let _ = write!(
            h,
            "<tr><td class=\"l\"><a href=\"#bench-{0}\">{0}</a></td><td class=\"l\"><code>{1}</code></td><td>{k}</td>",
            esc(&v.bench),
            esc(&g.params)
        );
        for (j, imp) in impls.iter().enumerate() {
            match cell(imp) {
                None => h.push_str("<td class=\"t\">-</td>"),
                Some(c) if !c.time(metric).median.is_finite() => {
                    let _ = write!(
                        h,
                        "<td class=\"t fail\">failed<br>({}/{} ok)</td>",
                        c.ok, c.measured
                    );
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
                    let unresolved = lo <= 1.0 && hi >= 1.0;
                    let interval = if lo.is_finite() {
                        format!("<span class=\"time note\">{lo:.2}–{hi:.2}</span>")
                    } else {
                        String::new()
                    };
                    let warn = if c.ok < c.measured {
                        format!(
                            " <span class=\"fail\" title=\"failed runs\">✗{}</span>",
                            c.measured - c.ok
                        )
                    } else {
                        String::new()
                    };
                    let _ = write!(
                        h,
                        "<td class=\"t\"><span class=\"time\">{}</span><span class=\"ratio{}\" style=\"background:{}\"{}>{}</span>{warn}{interval}</td>",
                        units::seconds(c.time(metric).median),
                        if unresolved { " unresolved" } else { "" },
                        ratio_color(r),
                        if unresolved {
                            " title=\"unresolved: the interval spans 1.00\""
                        } else {
                            ""
                        },
                        units::ratio(r).replace('x', "×")
                    );
                }
            }
        }
        h.push_str("</tr>");
    }
    let _ = write!(
        h,
        "<tr class=\"gm\"><td class=\"l\" colspan=\"3\">geometric mean of ratios</td>"
    );
    for r in &ratios {
        if r.is_empty() {
            h.push_str("<td class=\"t\">-</td>");
        } else {
            let g = stats::geometric_mean(r);
            let _ = write!(
                h,
                "<td class=\"t\"><span class=\"ratio\" style=\"background:{}\">{:.2}×</span><span class=\"time note\">{} benchmarks</span></td>",
                ratio_color(g),
                g,
                r.len()
            );
        }
    }
    h.push_str("</tr></table></div>");
}

fn cells_table(h: &mut String, g: &summary::Group) {
    let header = columns::header(g);
    let numeric = columns::numeric(g);
    let _ = write!(
        h,
        "<table><tr><th class=\"l\" colspan=\"{}\"><code>{}</code></th></tr><tr>",
        header.len(),
        esc(&g.params)
    );
    for (text, &num) in header.iter().zip(&numeric) {
        let _ = write!(
            h,
            "<th{}>{}</th>",
            if num { "" } else { " class=\"l\"" },
            esc(text)
        );
    }
    h.push_str("</tr>");
    for c in &g.cells {
        h.push_str("<tr>");
        for ((text, &num), name) in columns::row(g, c).iter().zip(&numeric).zip(&header) {
            let failed = name == "ok" && c.ok < c.measured;
            let class = match (num, failed) {
                (_, true) => " class=\"fail\"",
                (false, _) => " class=\"l\"",
                _ => "",
            };
            let _ = write!(h, "<td{class}>{}</td>", esc(text));
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");
}

/// Figure markup: the inline SVG with its caption and a link to its file.
fn figure_html(f: &Figure) -> String {
    format!(
        "<figure id=\"fig-{name}\" data-figure=\"{name}\">{}<figcaption><b>{}.</b> {} <a href=\"{name}.svg\">SVG</a></figcaption></figure>",
        inline_svg(&f.svg),
        esc(&f.title),
        esc(&f.caption),
        name = esc(&f.name),
    )
}

/// History across sessions: a figure per benchmark and the change points found.
fn history_section(
    h: &mut String,
    histories: &[(String, Vec<crate::history::History>)],
    figures: &[Figure],
) {
    h.push_str("<section id=\"history\"><h2>History</h2>");
    if histories.is_empty() {
        h.push_str(
            "<p class=\"note\">No history yet: no cell of this session was run in an earlier session of this \
             database. <code>actorbench history BENCH --impl IMPL</code> shows one cell across sessions.</p></section>",
        );
        return;
    }
    h.push_str(
        "<p class=\"note\">Each implementation's headline cell in every session up to this one. Change points are \
         found with E-divisive means (permutation test, p &lt; 0.05) and named with the commit they first appear \
         in.</p><div class=\"figs\">",
    );
    for f in figures {
        h.push_str(&figure_html(f));
    }
    h.push_str("</div>");
    let lines: Vec<(String, String)> = histories
        .iter()
        .flat_map(|(_, hs)| hs.iter())
        .flat_map(|hist| {
            hist.change_lines()
                .into_iter()
                .map(move |l| (hist.cell(), l))
        })
        .collect();
    if lines.is_empty() {
        h.push_str("<p>No change points.</p>");
    } else {
        h.push_str("<h3>Change points</h3><ul>");
        for (cell, line) in lines {
            let _ = write!(h, "<li>{}: {}</li>", esc(&cell), esc(&line));
        }
        h.push_str("</ul>");
    }
    h.push_str("</section>");
}

/// Start-up per implementation and core count: the figure and its table.
fn startup_section(h: &mut String, data: &SessionData, figure: Option<&Figure>) {
    h.push_str("<section id=\"startup\"><h2>Start-up</h2>");
    let Some(f) = figure else {
        h.push_str(
            "<p class=\"note\">No start-up figures: no run of this session reported its work time (seconds=).</p></section>",
        );
        return;
    };
    let _ = write!(
        h,
        "<p class=\"note\">Start-up is the process's wall time minus the work time the program reports (seconds=). \
         A cell whose start-up is over {} of its wall time is noted in its table.</p><div class=\"figs\">{}</div>",
        units::percent(metric::STARTUP_SHARE_LIMIT),
        figure_html(f),
    );
    h.push_str(
        "<table><tr><th class=\"l\">implementation</th><th>cores</th><th>median start-up</th><th>smallest - largest cell</th>\
         <th>share of wall</th><th>cells</th></tr>",
    );
    for r in startup::rows(data) {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{} - {}</td><td>{}</td><td>{}</td></tr>",
            esc(&r.implementation),
            r.cores,
            units::seconds(r.median),
            units::seconds(r.min),
            units::seconds(r.max),
            units::percent(r.share),
            r.cells
        );
    }
    h.push_str("</table></section>");
}
