//! JSON export: `{ "session": {...}, "implementations": [...], "runs": [...],
//! "summary": [...] }`, pretty-printed. Non-finite numbers become `null`.

use anyhow::Result;
use serde_json::json;

use super::Exporter;
use crate::store::SessionData;
use crate::summary;

/// The JSON exporter.
pub struct Json;

impl Exporter for Json {
    fn export(&self, data: &SessionData) -> Result<String> {
        let groups = summary::summarise(&data.runs);
        let doc = json!({
            "session": data.session,
            "implementations": data.implementations,
            "runs": data.runs,
            "summary": groups,
        });
        Ok(serde_json::to_string_pretty(&doc)? + "\n")
    }
}
