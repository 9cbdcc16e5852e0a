//! JSON export: `{ "session": {...}, "implementations": [...], "cells": [...], "runs":
//! [...], "metric": "work", "summary": [...] }`, pretty-printed. Each run carries `wall_s`
//! and `work_s`; each summarised cell its work, wall and CPU time spreads, start-up and
//! ratio (on `metric`). Non-finite numbers become `null`.

use anyhow::Result;
use serde_json::json;

use super::Exporter;
use crate::metric;
use crate::store::SessionData;
use crate::summary::{self, View};

/// The JSON exporter.
pub struct Json;

impl Exporter for Json {
    fn export(&self, data: &SessionData, view: &View) -> Result<String> {
        let groups = summary::summarise_session(data, view);
        let (metric, note) = metric::resolve(view.metric, &data.runs);
        let doc = json!({
            "session": data.session,
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
