//! `actorbench import`: copy the sessions of one store into another, typically a
//! machine's SQLite file into the fleet's PostgreSQL database.
//!
//! - **All or nothing.** Everything is copied in one transaction of the target: if any
//!   write fails, nothing of this import is left there.
//! - **Idempotent.** A session is known by its `uid` (schema 4; an older file gets one for
//!   each session when it is opened), not by its number, which differs between stores.
//!   A session the target already has is skipped and named, so importing the same file
//!   twice copies nothing the second time.
//! - **Only ended sessions.** A session still `running` (its harness is alive) is left
//!   out and named; import again once it has ended. A session whose harness died was
//!   marked `abandoned` when the source was opened, and is copied as such.
//!
//! Copied sessions get new numbers in the target (its own sequence); their runs keep
//! their order (`seq`), their implementations, cells and counters come along.

use anyhow::Result;

use super::Store;

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// Sessions copied: number in the source, number in the target, runs copied.
    pub copied: Vec<(i64, i64, usize)>,
    /// Sessions the target had already: number in the source, number in the target.
    pub already: Vec<(i64, i64)>,
    /// Sessions left out because they are still running (numbers in the source).
    pub running: Vec<i64>,
}

/// Copies every ended session of `source` that `target` does not have yet.
pub fn import(source: &Store, target: &Store) -> Result<Imported> {
    let mut out = Imported::default();
    let sessions = source.sessions()?;
    target.atomically(|t| {
        for s in &sessions {
            if s.status == "running" {
                out.running.push(s.id);
                continue;
            }
            if let Some(there) = t.session_by_uid(&s.uid)? {
                out.already.push((s.id, there.id));
                continue;
            }
            let data = source.load(s)?;
            let id = t.insert_session(s)?;
            for i in &data.implementations {
                t.put_impl(id, i)?;
            }
            for r in &data.runs {
                let mut r = r.clone();
                r.session_id = id;
                t.insert_run_in(&r)?;
            }
            t.insert_cells(id, &data.cells)?;
            out.copied.push((s.id, id, data.runs.len()));
        }
        Ok(())
    })?;
    Ok(out)
}
