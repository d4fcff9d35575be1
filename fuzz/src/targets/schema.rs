//! Schema compile and validate: an arbitrary schema and an arbitrary
//! instance, both JSON, in both default drafts, directly and as a stream
//! supplies them to the tracker. Never panics; `is_valid` agrees with
//! `validate`; what a validation keeps is bounded.
//!
//! Input: the schema's JSON text, a zero byte, the instance's JSON text,
//! and optionally a second zero byte and two bytes `k`: the instance is
//! then an array of `k` copies of it (at most 1 MiB of text), the large
//! instances whose failures are counted but not all kept, and whose work
//! the step budget bounds.
//!
//! Schemas with `pattern` or `patternProperties` are compiled only as the
//! tracker compiles a stream's schema (every pattern refused): the native
//! engine backtracks (a 474-byte schema matched against its own keys ran
//! past the 10 s timeout), the known class of docs/limits.md. Patterns from
//! the stream are never run; the application's own are trusted. The JSON
//! Schema Test Suite covers pattern semantics.

use agui_tool_calls::schema::{
    Draft, Failures, Pattern, PatternEngine, RegressEngine, Schema, MAX_ERRORS, MAX_ERROR_TEXT,
};
use agui_tool_calls::value::Value as Ours;
use agui_tool_calls::{Options, Tracker, Validation};
use serde_json::{json, Value};

/// The largest instance text a copied instance may reach: a quarter of the
/// tracker's default `maxArgsBytes`, so that one execution (four
/// validations and a tracker, under the sanitizer) stays near a second.
const MAX_INSTANCE_BYTES: usize = 1024 * 1024;

/// Checks what the module says on one input; a failure panics.
pub fn run(data: &[u8]) {
    let (schema, rest) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &b"null"[..]),
    };
    let (instance, copies) = match rest.iter().position(|&b| b == 0) {
        Some(at) if rest.len() >= at + 3 => (
            &rest[..at],
            Some(usize::from(u16::from_le_bytes([
                rest[at + 1],
                rest[at + 2],
            ]))),
        ),
        _ => (rest, None),
    };
    let Ok(schema) = serde_json::from_slice::<Value>(schema) else {
        return;
    };
    let mut instance = serde_json::from_slice::<Value>(instance).unwrap_or(Value::Null);
    if let Some(k) = copies {
        let one = instance.to_string().len() + 1;
        instance = Value::Array(vec![instance; k.min(MAX_INSTANCE_BYTES / one)]);
    }
    let patterns = has_pattern(&schema);
    let (ours, our_instance) = (Ours::from(schema.clone()), Ours::from(instance.clone()));
    for draft in [Draft::Draft2020, Draft::Draft7] {
        if !patterns {
            check(
                Schema::compile_with_default(&ours, draft, &RegressEngine),
                &ours,
                &our_instance,
            );
        }
        check(
            Schema::compile_with_default(&ours, draft, &Refusing),
            &ours,
            &our_instance,
        );
    }
    from_the_stream(&schema, &instance, &ours, &our_instance);
}

/// Refuses every pattern, as the tracker does for a schema only the
/// stream supplies.
struct Refusing;

impl PatternEngine for Refusing {
    fn compile(&self, _: &str) -> Result<Box<dyn Pattern>, String> {
        Err("refused".into())
    }
}

fn check(
    compiled: Result<Schema, agui_tool_calls::schema::SchemaError>,
    schema: &Ours,
    instance: &Ours,
) {
    match compiled {
        Ok(compiled) => {
            let failures = compiled.validate(instance);
            assert_eq!(
                compiled.is_valid(instance),
                failures.is_empty(),
                "{failures:?}"
            );
            bounded(&failures);
            // A schema validates itself as an instance without trouble.
            bounded(&compiled.validate(schema));
        }
        Err(e) => assert!(e.path.is_empty() || e.path.starts_with('/'), "{e}"),
    }
}

/// What one validation keeps: at most `MAX_ERRORS` failures and a last
/// `limit` error, each path a JSON Pointer and its text cut.
fn bounded(failures: &Failures) {
    let kept = &failures.errors;
    assert!(kept.len() <= MAX_ERRORS + 1, "{} kept", kept.len());
    assert!(failures.count >= kept.len());
    if kept.len() == MAX_ERRORS + 1 {
        assert_eq!(kept[MAX_ERRORS].keyword, "limit");
    }
    let cap = MAX_ERROR_TEXT + '…'.len_utf8();
    for e in kept {
        assert!(e.path.is_empty() || e.path.starts_with('/'), "{e}");
        assert!(e.path.len() <= cap && e.message.len() <= cap, "{e}");
    }
}

/// The schema as `RUN_STARTED.input.tools` brings it, the instance as one
/// call's arguments: the tracker's verdict agrees with the validator's
/// (patterns refused), keeps what it bounds, and stays within its budget.
/// (`ours`, `our_instance`: the same, as the crate's values.)
fn from_the_stream(schema: &Value, instance: &Value, ours: &Ours, our_instance: &Ours) {
    let mut t = Tracker::new(Options::default());
    let tool = json!({"name": "f", "description": "", "parameters": schema});
    let started =
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": {"tools": [tool]}});
    if t.push_json(&started.to_string()).is_err() {
        return; // an event past `maxEventBytes`, or not a run input
    }
    let text = instance.to_string();
    let mut events =
        vec![json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"})];
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + 512 * 1024).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        events.push(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": &text[at..end]}));
        at = end;
    }
    events.push(json!({"type": "TOOL_CALL_END", "toolCallId": "c"}));
    for event in &events {
        if t.push_json(&event.to_string()).is_err() {
            return;
        }
    }
    assert!(t.retained_bytes() <= Options::default().limits.max_thread_bytes);
    let call = t.call("c").expect("the call");
    if call.args_error().is_some() {
        // Deeper than `maxDepth`: invalid with the reader's error, if checked.
        match &call.validation {
            Validation::Unvalidated => {}
            Validation::Invalid(f) => assert!(f.is_empty(), "{f:?}"),
            Validation::Valid => panic!("arguments past the reader's limit are valid"),
        }
        return;
    }
    let validation = &call.validation;
    let expected = Schema::compile(ours, &Refusing)
        .ok()
        .filter(|_| !schema.is_null());
    match (validation, expected) {
        (Validation::Unvalidated, None) => {}
        (Validation::Valid, Some(s)) => assert!(s.is_valid(our_instance)),
        (Validation::Invalid(failures), Some(s)) => {
            assert!(!s.is_valid(our_instance));
            bounded(failures);
            assert_eq!(failures, &s.validate(our_instance));
        }
        (v, s) => panic!("tracker says {v:?}, the schema compiles: {}", s.is_some()),
    }
}

/// Whether a `pattern` or `patternProperties` keyword appears anywhere
/// (as read, so an escaped key counts too).
fn has_pattern(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if map.contains_key("pattern") || map.contains_key("patternProperties") {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}
