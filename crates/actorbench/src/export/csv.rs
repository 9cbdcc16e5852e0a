//! CSV export: a header and one row per run (warmups and failures included, marked), every
//! stored figure as a column. Fields are quoted per RFC 4180 when they hold a comma, a
//! quote or a line break.

use anyhow::Result;

use super::Exporter;
use crate::store::SessionData;

/// The CSV exporter.
pub struct Csv;

const HEADER: &[&str] = &[
    "session",
    "seq",
    "implementation",
    "bench",
    "params",
    "cores",
    "rep",
    "warmup",
    "started_at",
    "status",
    "exit_code",
    "signal",
    "wall_s",
    "user_s",
    "sys_s",
    "cpu_util",
    "max_rss_bytes",
    "voluntary_switches",
    "involuntary_switches",
    "expected_check",
    "check",
    "fairness_stddev",
    "fairness_cv",
    "fairness_jain",
    "fairness_min",
    "fairness_max",
    "fairness_ideal",
    "stdout_bytes",
    "stderr_bytes",
    "detail",
    "counts",
];

impl Exporter for Csv {
    fn export(&self, data: &SessionData) -> Result<String> {
        let mut out = HEADER.join(",") + "\n";
        let opt = |v: Option<String>| v.unwrap_or_default();
        for r in &data.runs {
            let row: Vec<String> = vec![
                r.session_id.to_string(),
                r.seq.to_string(),
                r.implementation.clone(),
                r.bench.clone(),
                r.params.clone(),
                r.cores.to_string(),
                r.rep.to_string(),
                r.warmup.to_string(),
                r.started_at.clone(),
                r.status.clone(),
                opt(r.exit_code.map(|v| v.to_string())),
                opt(r.signal.map(|v| v.to_string())),
                r.wall_s.to_string(),
                r.user_s.to_string(),
                r.sys_s.to_string(),
                r.cpu_util.to_string(),
                r.max_rss_bytes.to_string(),
                r.voluntary_switches.to_string(),
                r.involuntary_switches.to_string(),
                opt(r.expected_check.clone()),
                opt(r.check_value.clone()),
                opt(r.fairness_stddev.map(|v| v.to_string())),
                opt(r.fairness_cv.map(|v| v.to_string())),
                opt(r.fairness_jain.map(|v| v.to_string())),
                opt(r.fairness_min.map(|v| v.to_string())),
                opt(r.fairness_max.map(|v| v.to_string())),
                opt(r.fairness_ideal.map(|v| v.to_string())),
                r.stdout_bytes.to_string(),
                r.stderr_bytes.to_string(),
                r.detail.clone(),
                opt(r.counts.clone()),
            ];
            out.push_str(&row.iter().map(|f| field(f)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        Ok(out)
    }
}

fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
