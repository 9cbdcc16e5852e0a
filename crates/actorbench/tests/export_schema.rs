//! The JSON export is a versioned format that `schema/export.schema.json` describes: an
//! export of a real session (counters, two modes, a failure) validates against it, and
//! the schema is strict enough to reject the old shape (settings as one string).

mod common;

use common::{Fixture, text};
use serde_json::Value;

fn schema() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/schema/export.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn errors(schema: &Value, doc: &Value) -> Vec<String> {
    let v = jsonschema::validator_for(schema).expect("the schema is valid JSON Schema");
    v.iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn an_export_validates_against_the_schema() {
    let fx = Fixture::new(&["jitter", "fail"]);
    let out = fx.run(&[
        "run",
        "--cores",
        "1",
        "--reps",
        "6",
        "--warmup",
        "0",
        "--no-report",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let (json, stderr) = text(&fx.run(&["export", "--format", "json"]));
    let doc: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_eq!(doc["format"], "actorbench-session");
    assert_eq!(
        doc["format_version"],
        actorbench::export::json::FORMAT_VERSION
    );
    assert_eq!(doc["session"]["settings"]["repetitions"]["mode"], "fixed");
    assert_eq!(doc["session"]["kind"], "run");
    let jitter = &doc["summary"][0]["cells"][0];
    assert_eq!(jitter["implementation"], "jitter");
    assert_eq!(jitter["modes"]["low_n"], 3, "{jitter:#}");
    let schema = schema();
    let found = errors(&schema, &doc);
    assert!(found.is_empty(), "{found:#?}");

    // The schema is not vacuous: settings as a string, an unknown field or a missing
    // version are each rejected.
    let mut old = doc.clone();
    old["session"]["settings"] = Value::String("{}".into());
    assert!(!errors(&schema, &old).is_empty());
    let mut extra = doc.clone();
    extra["surprise"] = Value::Bool(true);
    assert!(!errors(&schema, &extra).is_empty());
    let mut unversioned = doc;
    unversioned
        .as_object_mut()
        .unwrap()
        .remove("format_version");
    assert!(!errors(&schema, &unversioned).is_empty());
}
