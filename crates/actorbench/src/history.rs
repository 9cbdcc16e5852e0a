//! `actorbench history`: one cell's figure across every stored session, and where it moved.
//! (The command itself, its table and `--svg`, is [`crate::commands::history`]; the
//! report's rows are [`crate::report::history::for_report`].)
//!
//! A cell is a benchmark, a parameter set, an implementation and a core count. For each
//! session that ran it (oldest first) the history has one point: the median of the
//! session's successful measured runs on the chosen metric, with its order-statistic
//! interval, the session's start and its commit. E-divisive means
//! ([`crate::changepoint`]) run over the points' medians mark each change point: the first
//! session after the figure moved, with the commit it measured, the commit before, and the
//! change from the median of the stretch before to the median of the stretch after.
//!
//! Everything is read through [`Store`] methods, so it works on any store backend.
//! Without `--params` and `--cores`, the cell is the newest session's headline cell of
//! that benchmark and implementation: its last parameter set and highest core count.
//! `--params` is matched as a set of `key=value` words, in any order.
//!
//! **Which sessions.** A series mixes only like with like:
//!
//! - *Hosts*: by default only sessions run on this host (the host name in the session's
//!   owner record); `--host NAME` picks another, `--all-hosts` takes every one. Sessions
//!   stored before owners were recorded name no host: they are kept, shown as `?`.
//! - *Unfinished sessions* (`interrupted`, `abandoned`, still `running`) hold only part
//!   of their runs and are left out; `--include-incomplete` takes them, marked with their
//!   status.
//! - *Profiles*: each point shows its session's profile; `--profile NAME` keeps one.
//!
//! Points are ordered by their sessions' start times (then numbers), not by their
//! numbers: an imported session gets a new number, not a new start.

use std::fmt::Write;

use anyhow::Result;

use crate::changepoint::{self, ChangePoint};
use crate::error::UsageError;
use crate::metric::{self, Metric};
use crate::output::table;
use crate::stats;
use crate::store::{RunRecord, SessionRecord, Store};
use crate::summary::Spread;

/// One session's figure.
#[derive(Debug, Clone)]
pub struct Point {
    /// The session.
    pub session: i64,
    /// The host it ran on (empty when it did not record one).
    pub host: String,
    /// Its profile.
    pub profile: String,
    /// Its status (`complete` unless unfinished sessions were asked for).
    pub status: String,
    /// Its start, RFC 3339.
    pub started_at: String,
    /// The commit it measured.
    pub commit: String,
    /// Measured runs of the cell in it.
    pub measured: usize,
    /// Those that succeeded.
    pub ok: usize,
    /// The metric over its successful measured runs.
    pub spread: Spread,
}

/// Where the figure moved.
#[derive(Debug, Clone)]
pub struct Change {
    /// Index into the points of the first one after the change.
    pub at: usize,
    /// The permutation test's p-value.
    pub p: f64,
    /// Median of the stretch before.
    pub before: f64,
    /// Median of the stretch after.
    pub after: f64,
}

/// A cell's history.
#[derive(Debug, Clone)]
pub struct History {
    /// Benchmark.
    pub bench: String,
    /// Parameters.
    pub params: String,
    /// Implementation.
    pub implementation: String,
    /// Cores.
    pub cores: i64,
    /// The time shown.
    pub metric: Metric,
    /// One point per session that ran the cell, oldest first.
    pub points: Vec<Point>,
    /// Change points, oldest first.
    pub changes: Vec<Change>,
}

/// Which cell, and how far back.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Benchmark.
    pub bench: String,
    /// Implementation.
    pub implementation: String,
    /// Parameters (default: the newest session's last parameter set).
    pub params: Option<String>,
    /// Cores (default: the newest session's highest count).
    pub cores: Option<i64>,
    /// `--metric`.
    pub metric: Option<Metric>,
    /// Only sessions that started no later than this one (the report of an older
    /// session).
    pub up_to: Option<i64>,
    /// Which hosts' sessions.
    pub hosts: Hosts,
    /// `--profile`: only sessions of this profile.
    pub profile: Option<String>,
    /// `--include-incomplete`: also interrupted, abandoned and running sessions, marked.
    pub include_incomplete: bool,
}

/// The hosts whose sessions a history takes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Hosts {
    /// This host (the default).
    #[default]
    This,
    /// The named host (`--host NAME`).
    Named(String),
    /// Every host (`--all-hosts`).
    All,
}

/// The host a session ran on, from its owner record; empty when it names none.
pub fn session_host(s: &SessionRecord) -> String {
    crate::owner::Owner::parse(&s.owner)
        .map(|o| o.host)
        .unwrap_or_default()
}

/// Whether two parameter texts hold the same `key=value` words, in any order.
pub fn same_params(a: &str, b: &str) -> bool {
    fn words(s: &str) -> Vec<&str> {
        let mut w: Vec<&str> = s.split_whitespace().collect();
        w.sort_unstable();
        w
    }
    words(a) == words(b)
}

/// The sessions `q` takes, oldest start first.
fn chosen_sessions(store: &Store, q: &Query) -> Result<Vec<SessionRecord>> {
    let mut sessions = store.sessions()?;
    sessions.sort_by(|a, b| (&a.started_at, a.id).cmp(&(&b.started_at, b.id)));
    if let Some(last) = q.up_to
        && let Some(pos) = sessions.iter().position(|s| s.id == last)
    {
        sessions.truncate(pos + 1);
    }
    let host = match &q.hosts {
        Hosts::This => Some(crate::owner::Owner::me().host),
        Hosts::Named(h) => Some(h.clone()),
        Hosts::All => None,
    };
    sessions.retain(|s| {
        let h = session_host(s);
        host.as_ref().is_none_or(|want| h.is_empty() || &h == want)
            && q.profile.as_ref().is_none_or(|p| &s.profile == p)
            && (q.include_incomplete || s.status == "complete")
    });
    Ok(sessions)
}

/// Reads a cell's history from the store; an unknown cell is a [`UsageError`].
pub fn load(store: &Store, q: &Query) -> Result<History> {
    let sessions = chosen_sessions(store, q)?;
    let mut runs = store.runs_of(&q.bench, &q.implementation)?;
    runs.retain(|r| sessions.iter().any(|s| s.id == r.session_id));
    if runs.is_empty() {
        let which = match &q.hosts {
            Hosts::This => " on this host",
            Hosts::Named(_) => " on that host",
            Hosts::All => "",
        };
        crate::usage!(
            "no stored runs of {} on {} in the finished sessions{which} (see `actorbench list`; \
             --all-hosts, --include-incomplete)",
            q.bench,
            q.implementation
        );
    }
    // The newest session by start time that ran it.
    let newest = sessions
        .iter()
        .rev()
        .find(|s| runs.iter().any(|r| r.session_id == s.id))
        .map_or(0, |s| s.id);
    let params = match &q.params {
        Some(p) => {
            let given = crate::params::Params::parse_words(p.split_whitespace())
                .map_err(|e| UsageError::new(format!("--params {p}: {e}")))?
                .to_string();
            runs.iter()
                .find(|r| same_params(&r.params, &given))
                .map_or(given, |r| r.params.clone())
        }
        None => runs
            .iter()
            .rfind(|r| r.session_id == newest)
            .map(|r| r.params.clone())
            .unwrap_or_default(),
    };
    let cores = match q.cores {
        Some(k) => k,
        None => runs
            .iter()
            .filter(|r| r.session_id == newest && r.params == params)
            .map(|r| r.cores)
            .max()
            .unwrap_or(1),
    };
    runs.retain(|r| same_params(&r.params, &params) && r.cores == cores);
    if runs.is_empty() {
        crate::usage!(
            "no stored runs of {} {params} on {} at {cores} cores",
            q.bench,
            q.implementation
        );
    }
    let (metric, _) = metric::resolve(q.metric, &runs);
    Ok(build(q, &params, cores, metric, &runs, &sessions))
}

fn build(
    q: &Query,
    params: &str,
    cores: i64,
    metric: Metric,
    runs: &[RunRecord],
    sessions: &[SessionRecord],
) -> History {
    let mut points: Vec<Point> = Vec::new();
    for s in sessions {
        let mine: Vec<&RunRecord> = runs
            .iter()
            .filter(|r| r.session_id == s.id && !r.warmup)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let values: Vec<f64> = mine
            .iter()
            .filter(|r| r.ok())
            .filter_map(|r| metric.of(r))
            .collect();
        points.push(Point {
            session: s.id,
            host: session_host(s),
            profile: s.profile.clone(),
            status: s.status.clone(),
            started_at: s.started_at.clone(),
            commit: s.git_commit.clone(),
            measured: mine.len(),
            ok: mine.iter().filter(|r| r.ok()).count(),
            spread: Spread::of(values),
        });
    }
    let changes = changes(&points);
    History {
        bench: q.bench.clone(),
        params: params.to_string(),
        implementation: q.implementation.clone(),
        cores,
        metric,
        points,
        changes,
    }
}

/// Change points over the points that have a median.
fn changes(points: &[Point]) -> Vec<Change> {
    let idx: Vec<usize> = (0..points.len())
        .filter(|&i| points[i].spread.median.is_finite())
        .collect();
    let xs: Vec<f64> = idx.iter().map(|&i| points[i].spread.median).collect();
    let cps: Vec<ChangePoint> = changepoint::e_divisive(&xs, &changepoint::Options::default());
    let mut bounds: Vec<usize> = vec![0];
    bounds.extend(cps.iter().map(|c| c.index));
    bounds.push(xs.len());
    cps.iter()
        .enumerate()
        .map(|(n, c)| Change {
            at: idx[c.index],
            p: c.p,
            before: stats::median(&xs[bounds[n]..c.index]),
            after: stats::median(&xs[c.index..bounds[n + 2]]),
        })
        .collect()
}

impl History {
    /// `threadring actors=503 hops=1000000, footlights, 2 cores`.
    pub fn cell(&self) -> String {
        format!(
            "{} {}, {}, {} core{}",
            self.bench,
            self.params,
            self.implementation,
            self.cores,
            if self.cores == 1 { "" } else { "s" }
        )
    }

    /// One line per change point: where, with which commit, by how much.
    pub fn change_lines(&self) -> Vec<String> {
        self.changes
            .iter()
            .map(|c| {
                let p = &self.points[c.at];
                let prev = self.points[..c.at]
                    .iter()
                    .rev()
                    .find(|p| p.spread.median.is_finite());
                format!(
                    "session {} (commit {}): {:+.1}%, {} to {} (p = {:.3}){}",
                    p.session,
                    short(&p.commit),
                    (c.after / c.before - 1.0) * 100.0,
                    self.metric.show(c.before),
                    self.metric.show(c.after),
                    c.p,
                    prev.map_or(String::new(), |q| format!(
                        "; the commit before: {} (session {})",
                        short(&q.commit),
                        q.session
                    ))
                )
            })
            .collect()
    }

    /// The history as a text table with its change points.
    pub fn render(&self) -> String {
        let mut out = format!(
            "{}: {} across {} session{}\n",
            self.cell(),
            self.metric.label(),
            self.points.len(),
            if self.points.len() == 1 { "" } else { "s" }
        );
        let mut rows = vec![
            [
                "session", "started", "host", "profile", "commit", "ok", "median", "95% CI",
                "change", "mark",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        ];
        let mut prev: Option<f64> = None;
        for (i, p) in self.points.iter().enumerate() {
            let s = &p.spread;
            let change = match prev {
                Some(x) if s.median.is_finite() => format!("{:+.1}%", (s.median / x - 1.0) * 100.0),
                _ => "-".into(),
            };
            if s.median.is_finite() {
                prev = Some(s.median);
            }
            rows.push(vec![
                p.session.to_string(),
                p.started_at.clone(),
                if p.host.is_empty() {
                    "?".into()
                } else {
                    p.host.clone()
                },
                p.profile.clone(),
                short(&p.commit),
                format!("{}/{}", p.ok, p.measured),
                self.metric.show(s.median),
                if s.ci_low.is_finite() {
                    format!(
                        "{} - {}",
                        self.metric.show(s.ci_low),
                        self.metric.show(s.ci_high)
                    )
                } else {
                    "-".into()
                },
                change,
                [
                    (p.status != "complete").then(|| p.status.clone()),
                    (p.ok > 0 && s.values.is_empty()).then(|| {
                        if self.metric.counter().is_some() {
                            format!("no {} counts", self.metric.label())
                        } else {
                            format!("no {} (use --metric wall)", self.metric.label())
                        }
                    }),
                    self.changes
                        .iter()
                        .any(|c| c.at == i)
                        .then(|| "change point".to_string()),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", "),
            ]);
        }
        out.push_str(&table::align(
            &rows,
            &[
                true, false, false, false, false, true, true, true, true, false,
            ],
        ));
        let _ = writeln!(
            out,
            "change points (E-divisive means, permutation test p < 0.05): {}",
            if self.changes.is_empty() {
                if self.points.len() < 6 {
                    "none (at least 6 sessions are needed to find one)".to_string()
                } else {
                    "none".to_string()
                }
            } else {
                String::new()
            }
        );
        for l in self.change_lines() {
            let _ = writeln!(out, "  {l}");
        }
        out
    }
}

/// A commit shortened to 12 characters, keeping a `-dirty` mark.
fn short(commit: &str) -> String {
    let dirty = commit.ends_with("-dirty");
    let base: String = commit.trim_end_matches("-dirty").chars().take(12).collect();
    if dirty { format!("{base}-dirty") } else { base }
}
