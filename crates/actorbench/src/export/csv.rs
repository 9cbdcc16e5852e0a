//! CSV export: a header and one row per run (warmups and failures included, marked), every
//! stored figure as a column, among them `wall_s` (the whole process), `work_s` (the
//! program's `seconds=`, empty when it printed no valid one) and `startup_s` (their
//! difference), then one column per event counter ([`crate::counters`], and
//! `callgrind-ir` for a `count` session), empty where a run has no such count. Written
//! with the `csv` crate, which quotes per RFC 4180.

use anyhow::Result;

use super::Exporter;
use crate::store::SessionData;
use crate::summary::View;

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
    "work_s",
    "startup_s",
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

/// The counter columns after [`HEADER`].
fn counter_columns() -> impl Iterator<Item = &'static str> {
    crate::counters::ALL
        .iter()
        .map(|c| c.name())
        .chain([crate::counters::IR])
}

impl Exporter for Csv {
    fn export(&self, data: &SessionData, _view: &View) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(HEADER.iter().copied().chain(counter_columns()))?;
        let opt = |v: Option<String>| v.unwrap_or_default();
        for r in &data.runs {
            w.write_record(
                [
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
                    opt(r.work_s.map(|v| v.to_string())),
                    opt(r.work_s.map(|v| (r.wall_s - v).to_string())),
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
                ]
                .into_iter()
                .chain(
                    counter_columns()
                        .map(|c| r.counters.get(c).map_or(String::new(), f64::to_string)),
                ),
            )?;
        }
        Ok(String::from_utf8(w.into_inner()?)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::RunRecord;

    #[test]
    fn quotes_what_needs_quoting_and_carries_both_times() {
        let data = SessionData {
            runs: vec![RunRecord {
                status: "ok".into(),
                wall_s: 1.5,
                work_s: Some(1.25),
                detail: "a, \"b\"\nc".into(),
                counters: [("page-faults".to_string(), 120.0)].into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let text = Csv.export(&data, &View::default()).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let headers = r.headers().unwrap().clone();
        let row = r.records().next().unwrap().unwrap();
        let get = |k: &str| &row[headers.iter().position(|h| h == k).unwrap()];
        assert_eq!(
            (get("wall_s"), get("work_s"), get("startup_s")),
            ("1.5", "1.25", "0.25")
        );
        assert_eq!(get("detail"), "a, \"b\"\nc");
        assert_eq!((get("page-faults"), get("instructions")), ("120", ""));
        assert!(text.contains("\"a, \"\"b\"\"\nc\""), "{text}");
    }
}
