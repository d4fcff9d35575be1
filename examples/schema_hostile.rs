//! Hostile schemas and instances against the tracker's validator, natively:
//! the time `TOOL_CALL_END` (and the run start that brings a schema) takes,
//! and the errors kept. Peak memory is the process's (`/usr/bin/time -v`).
//!
//! Run with `cargo run --release --example schema_hostile -- <scenario>`,
//! scenarios: `wide-errors`, `long-required`, `enum`, `properties`,
//! `exclusive`. The same streams run against the wasm module in
//! `bench/hostile.bench.mjs`.

use agui_tool_calls::events::Tool;
use agui_tool_calls::{Options, Tracker, Validation};
use serde_json::{json, Value};
use std::time::Instant;

/// Pushes `event`, failing loudly if it is refused.
fn push(t: &mut Tracker, event: &Value) {
    if let Err(v) = t.push_json(&event.to_string()) {
        panic!("event refused: {v}");
    }
}

/// One call to `name` whose argument text is `text`, in deltas of 2 MiB;
/// returns the seconds its `TOOL_CALL_END` took.
fn call(t: &mut Tracker, id: &str, name: &str, text: &str) -> f64 {
    push(
        t,
        &json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": name}),
    );
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let end = (at + 2 * 1024 * 1024).min(bytes.len());
        push(
            t,
            &json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": &text[at..end]}),
        );
        at = end;
    }
    let t0 = Instant::now();
    push(t, &json!({"type": "TOOL_CALL_END", "toolCallId": id}));
    t0.elapsed().as_secs_f64()
}

/// A run whose input advertises `parameters` for tool `f` (a schema only
/// the stream supplies); returns the seconds it took to read.
fn stream_schema(t: &mut Tracker, parameters: Value) -> f64 {
    let tool = json!({"name": "f", "description": "", "parameters": parameters});
    let t0 = Instant::now();
    push(
        t,
        &json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": {"tools": [tool]}}),
    );
    t0.elapsed().as_secs_f64()
}

fn describe(t: &Tracker, id: &str) -> String {
    match &t.call(id).map(|c| &c.validation) {
        Some(Validation::Invalid(f)) => format!(
            "invalid, {} errors kept of {}, last: {:?}",
            f.errors.len(),
            f.count,
            f.errors.last().map(|e| &e.message)
        ),
        Some(v) => format!("{v:?}"),
        None => "no call".into(),
    }
}

fn main() {
    let scenario = std::env::args().nth(1).unwrap_or_default();
    let mut t;
    let mut report = Vec::new();
    match scenario.as_str() {
        "wide-errors" => {
            // The application's own schema; 2M numbers where strings are due.
            let tool = Tool::new(
                "f",
                "",
                json!({"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string"}}}}),
            );
            t = Tracker::new(Options {
                tools: vec![tool],
                ..Options::default()
            });
            push(
                &mut t,
                &json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
            );
            let text = format!("{{\"l\":[{}0]}}", "0,".repeat(2_000_000 - 1));
            for i in 0..8 {
                let id = format!("c{i}");
                let secs = call(&mut t, &id, "f", &text);
                report.push(format!(
                    "{id}: end {secs:.2} s, {}, retained {} MiB",
                    describe(&t, &id),
                    t.retained_bytes() >> 20
                ));
            }
        }
        "long-required" => {
            t = Tracker::new(Options::default());
            let name = "n".repeat(1000);
            stream_schema(
                &mut t,
                json!({"type": "array", "items": {"required": [name]}}),
            );
            let text = format!("[{}{{}}]", "{},".repeat(1_300_000));
            let secs = call(&mut t, "c", "f", &text);
            report.push(format!("end {secs:.2} s, {}", describe(&t, "c")));
        }
        "enum" => {
            t = Tracker::new(Options::default());
            let values: Vec<String> = (0..100_000).map(|i| format!("v{i}")).collect();
            let secs = stream_schema(&mut t, json!({"type": "array", "items": {"enum": values}}));
            report.push(format!("run start {secs:.2} s"));
            let items: Vec<String> = (0..100_000).map(|i| format!("w{i}")).collect();
            let secs = call(&mut t, "c", "f", &serde_json::to_string(&items).unwrap());
            report.push(format!("end {secs:.2} s, {}", describe(&t, "c")));
        }
        "properties" => {
            t = Tracker::new(Options::default());
            let props: serde_json::Map<String, Value> = (0..100_000)
                .map(|i| (format!("p{i}"), json!({"type": "string"})))
                .collect();
            let secs = stream_schema(&mut t, json!({"type": "object", "properties": props}));
            report.push(format!("run start {secs:.2} s"));
            let inst: serde_json::Map<String, Value> =
                (0..100_000).map(|i| (format!("p{i}"), json!(i))).collect();
            let secs = call(&mut t, "c", "f", &Value::Object(inst).to_string());
            report.push(format!(
                "end (compile and validate) {secs:.2} s, {}",
                describe(&t, "c")
            ));
        }
        "exclusive" => {
            t = Tracker::new(Options::default());
            stream_schema(
                &mut t,
                json!({"$schema": "http://json-schema.org/draft-04/schema#", "properties": {"n": {"maximum": 1, "exclusiveMaximum": true}}}),
            );
            call(&mut t, "c", "f", r#"{"n": 1}"#);
            report.push(describe(&t, "c"));
        }
        other => panic!("unknown scenario {other:?}"),
    }
    for line in report {
        println!("{scenario}: {line}");
    }
}
