//! The small commands over a stored database: `list`, `show`, `export`, `report` and
//! `history`.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::describe;
use crate::export::{self, Format};
use crate::output::{table, units};
use crate::store::Store;
use crate::summary::View;

/// Opens the database named by `--db`, or the default one beside the suite file.
pub fn open_db(db: Option<&Path>, suite: Option<&Path>) -> Result<Store> {
    let suite = match suite {
        Some(s) => Some(s.to_path_buf()),
        None => crate::suite::find_default(),
    };
    let store = Store::open_existing(&crate::session::db_path(db, suite.as_deref()))?;
    describe::say_abandoned(&store);
    Ok(store)
}

/// `actorbench import SOURCE`: copies SOURCE's sessions into the store `--db` names
/// (created if needed), one line per session and a summary (see [`crate::store::import`]).
pub fn import(db: Option<&Path>, suite: Option<&Path>, source: &Path) -> Result<i32> {
    let from = Store::open_existing(source)?;
    describe::say_abandoned(&from);
    let suite = match suite {
        Some(s) => Some(s.to_path_buf()),
        None => crate::suite::find_default(),
    };
    let to = Store::create(&crate::session::db_path(db, suite.as_deref()))?;
    describe::say_abandoned(&to);
    let done = crate::store::import::import(&from, &to)?;
    for (a, b, runs) in &done.copied {
        println!("copied session {a} as {b} ({runs} runs)");
    }
    for (a, b) in &done.already {
        println!("session {a} is already there as {b}: skipped");
    }
    for a in &done.running {
        println!("session {a} is still running: not copied (import again once it has ended)");
    }
    let sessions = done.copied.len();
    let runs: usize = done.copied.iter().map(|c| c.2).sum();
    println!(
        "imported {sessions} session{} ({runs} runs) from {} into {}; {} already there",
        if sessions == 1 { "" } else { "s" },
        from.location(),
        to.location(),
        done.already.len()
    );
    Ok(0)
}

/// `actorbench list`: one line per session.
pub fn list(store: &Store) -> Result<i32> {
    let sessions = store.sessions()?;
    if sessions.is_empty() {
        println!("no sessions in {}", store.location());
        return Ok(0);
    }
    let mut rows = vec![
        [
            "session",
            "started",
            "status",
            "profile",
            "runs",
            "failed",
            "implementations",
            "commit",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>(),
    ];
    for s in &sessions {
        let (runs, failed) = store.run_counts(s.id)?;
        let impls: Vec<String> = store
            .impls(s.id)?
            .into_iter()
            .map(|i| {
                let mut notes = Vec::new();
                if !i.variant_of.is_empty() {
                    notes.push(format!("variant of {}", i.variant_of));
                }
                if i.status != "available" {
                    notes.push(i.status);
                }
                if notes.is_empty() {
                    i.name
                } else {
                    format!("{} ({})", i.name, notes.join(", "))
                }
            })
            .collect();
        rows.push(vec![
            s.id.to_string(),
            s.started_at.clone(),
            if s.busy.is_empty() {
                s.status.clone()
            } else {
                format!("{} (busy)", s.status)
            },
            if s.kind == "count" {
                format!("{} (count)", s.profile)
            } else {
                s.profile.clone()
            },
            runs.to_string(),
            failed.to_string(),
            impls.join(", "),
            s.git_commit.chars().take(12).collect(),
        ]);
    }
    print!(
        "{}",
        table::align(
            &rows,
            &[true, false, false, false, true, true, false, false]
        )
    );
    Ok(0)
}

/// `actorbench show [SESSION]`: the session's header and tables again.
pub fn show(store: &Store, session: Option<&str>, view: &View) -> Result<i32> {
    let s = store.resolve_session(session)?;
    let data = store.load(&s)?;
    view.check(&data.runs)?;
    println!(
        "session {} ({}{}): {} to {}, {} profile",
        s.id,
        s.status,
        if s.kind == "count" { ", count" } else { "" },
        s.started_at,
        s.ended_at.as_deref().unwrap_or("?"),
        s.profile
    );
    println!(
        "host: {}, {} cores, {}, {}; commit {}",
        s.host_cpu,
        s.host_cores,
        units::bytes(s.host_memory_bytes as f64),
        s.host_kernel,
        s.git_commit
    );
    println!("command: {}", s.command_line);
    if let Some(line) = describe::environment_line(&s) {
        println!("{line}");
    }
    if let Some(line) = describe::machine_line(&s) {
        println!("{line}");
    }
    if let Some(line) = crate::knobs::note(&s.env_mode, &s.env_knobs) {
        println!("{line}");
    }
    if !s.busy.is_empty() {
        println!("busy machine: {}; its figures may be noisy", s.busy);
    }
    for i in &data.implementations {
        let mut extra = if i.status == "available" {
            String::new()
        } else {
            format!(" [{}]", i.status)
        };
        if !i.variant_of.is_empty() {
            extra.push_str(&format!("; variant of {}", i.variant_of));
            if !i.env.is_empty() {
                extra.push_str(&format!(" with {}", i.env));
            }
        }
        if !i.binary_sha256.is_empty() {
            extra.push_str(&format!("; sha256 {}", i.binary_sha256));
        }
        println!(
            "  {} ({}): {}{extra}",
            i.name,
            i.language,
            if i.version.is_empty() {
                "-"
            } else {
                &i.version
            }
        );
    }
    println!();
    if s.kind == "count" {
        print!("{}", crate::count::render(&data));
    } else if data.runs.is_empty() {
        println!("no runs were recorded in this session");
    } else {
        if let Some(line) = describe::repetitions_line(&data.session.settings) {
            println!("{line}");
        }
        describe::print_tables(&data, view);
    }
    Ok(0)
}

/// `actorbench export [SESSION] --format F [--out FILE]`.
pub fn export(
    store: &Store,
    session: Option<&str>,
    format: Format,
    out: Option<PathBuf>,
    view: &View,
) -> Result<i32> {
    let s = store.resolve_session(session)?;
    let data = store.load(&s)?;
    view.check(&data.runs)?;
    let out = out.unwrap_or_else(|| PathBuf::from("-"));
    export::write(format, &data, view, &out)?;
    if out.as_os_str() != "-" {
        eprintln!("wrote {}", out.display());
    }
    Ok(0)
}

/// `actorbench report [SESSION] [--out DIR]`: writes the HTML report of a stored session.
pub fn report(
    store: &Store,
    session: Option<&str>,
    out: Option<PathBuf>,
    view: &View,
) -> Result<i32> {
    let s = store.resolve_session(session)?;
    let data = store.load(&s)?;
    view.check(&data.runs)?;
    if data.runs.is_empty() {
        crate::usage!(
            "session {} has no runs: nothing to report (status: {})",
            s.id,
            s.status
        );
    }
    if s.kind == "count" {
        crate::usage!(
            "session {} holds instruction counts (kind count), not timings: see `actorbench show {}`",
            s.id,
            s.id
        );
    }
    let dir = out.unwrap_or_else(|| crate::report::default_report_dir(store));
    let histories = crate::report::history::for_report(store, &data, view)?;
    let index = crate::report::write(&data, view, &histories, &dir)?;
    println!("{}", index.display());
    Ok(0)
}

/// `actorbench history`: prints the table, and writes the SVG time series when asked.
pub fn history(store: &Store, q: &crate::history::Query, svg: Option<&Path>) -> Result<i32> {
    let h = crate::history::load(store, q)?;
    print!("{}", h.render());
    if let Some(path) = svg {
        let fig = crate::report::history::figure(std::slice::from_ref(&h), &h.bench)?;
        std::fs::write(path, fig.svg)
            .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(0)
}
