//! The HTML report of a session (figures arrive with the report issue).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::export::Exporter;
use crate::store::SessionData;

/// Writes `dir/index.html` for `data`; returns its path.
pub fn write(data: &SessionData, dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let md = crate::export::markdown::Markdown.export(data)?;
    let html = format!(
        "<!doctype html><meta charset=utf-8><title>actorbench</title><pre>{}</pre>",
        md.replace('&', "&amp;").replace('<', "&lt;")
    );
    let index = dir.join("index.html");
    std::fs::write(&index, html).with_context(|| format!("writing {}", index.display()))?;
    Ok(index)
}
