//! JSON export, a versioned format described by a JSON Schema in the repository
//! (`crates/actorbench/schema/export.schema.json`):
//!
//! ```text
//! { "format": "actorbench-session", "format_version": 2,
//!   "session": {..., "settings": {...}}, "implementations": [...], "cells": [...],
//!   "runs": [...], "metric": "work", "metric_note": null, "summary": [...] }
//! ```
//!
//! pretty-printed. The session's settings are an object with their own fields (the
//! repetition mode, the budget, the seed, ...), not a string to parse again. Each run
//! carries `wall_s`, `work_s` and its event `counters`; each summarised cell its work,
//! wall and CPU time spreads, each counter's spread, start-up, ratio (on `metric`) and
//! its two `modes` when its runs split. Non-finite numbers become `null`.
//!
//! Versions: 1 was the unversioned export (settings as one string, no counters);
//! 2 added `format`, `format_version`, settings as an object, counters, `kind` and
//! `modes`. A change to the format raises [`FORMAT_VERSION`] and the schema with it.

use anyhow::Result;
use serde_json::{Value, json};

use super::Exporter;
use crate::metric;
use crate::store::SessionData;
use crate::summary::{self, View};

/// The `format` field of every export.
pub const FORMAT: &str = "actorbench-session";
/// The `format_version` this build writes.
pub const FORMAT_VERSION: u32 = 2;

/// The JSON exporter.
pub struct Json;

impl Exporter for Json {
    fn export(&self, data: &SessionData, view: &View) -> Result<String> {
        let groups = summary::summarise_session(data, view);
        let (metric, note) = metric::resolve(view.metric, &data.runs);
        let mut session = serde_json::to_value(&data.session)?;
        // Every session since settings were kept stores a JSON object; anything else is
        // kept as its text, under `text`, so that `settings` is always an object.
        session["settings"] = match serde_json::from_str::<Value>(&data.session.settings) {
            Ok(v @ Value::Object(_)) => v,
            _ => json!({ "text": data.session.settings }),
        };
        let doc = json!({
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "session": session,
            "implementations": data.implementations,
            "cells": data.cells,
            "runs": data.runs,
            "metric": metric,
            "metric_note": note,
            "summary": groups,
        });
        Ok(serde_json::to_string_pretty(&doc)? + "\n")
    }
}
