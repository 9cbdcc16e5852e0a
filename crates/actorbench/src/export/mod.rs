//! Exporting a stored session: one file per format, behind one trait.
//!
//! - [`json::Json`]: the session, its implementations, every run and the per-cell
//!   summaries, for programs;
//! - [`csv::Csv`]: one row per run, every figure, for spreadsheets and data frames;
//! - [`cells_csv::CellsCsv`]: one row per cell, its summary with intervals and flags;
//! - [`markdown::Markdown`]: the summary tables and failures, for a pull request or a doc.
//!
//! Adding a format is one new file and one line in [`Format::exporter`].

pub mod cells_csv;
pub mod csv;
pub mod json;
pub mod markdown;

use std::path::Path;

use anyhow::{Context, Result};

use crate::store::SessionData;
use crate::summary::View;

/// A way to write a session out.
pub trait Exporter {
    /// The session as this format's text, its summaries seen through `view`.
    fn export(&self, data: &SessionData, view: &View) -> Result<String>;
}

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// JSON: session, implementations, runs and summaries.
    Json,
    /// CSV: one row per run.
    Csv,
    /// CSV: one row per cell, with intervals and flags.
    CellsCsv,
    /// Markdown: summary tables and failures.
    Markdown,
}

impl Format {
    /// The exporter for this format.
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            Format::Json => Box::new(json::Json),
            Format::Csv => Box::new(csv::Csv),
            Format::CellsCsv => Box::new(cells_csv::CellsCsv),
            Format::Markdown => Box::new(markdown::Markdown),
        }
    }
}

/// Writes `data` in `format` to `path` (`-` for stdout).
pub fn write(format: Format, data: &SessionData, view: &View, path: &Path) -> Result<()> {
    let text = format.exporter().export(data, view)?;
    if path.as_os_str() == "-" {
        print!("{text}");
        return Ok(());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}
