//! Schema compile and validate: an arbitrary schema and an arbitrary
//! instance, both JSON, in both default drafts. Never panics; `is_valid`
//! agrees with `validate`.
//!
//! Input: the schema's JSON text, a zero byte, the instance's JSON text.
//!
//! Schemas with `pattern` or `patternProperties` are passed over: the native
//! engine backtracks (a 474-byte schema matched against its own keys ran
//! past the 10 s timeout), the known class of docs/limits.md. Patterns from
//! the stream are never run; the application's own are trusted. The JSON
//! Schema Test Suite covers pattern semantics.

#![no_main]

use agui_tool_calls::schema::{Draft, RegressEngine, Schema};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let (schema, instance) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &b"null"[..]),
    };
    let Ok(schema) = serde_json::from_slice::<Value>(schema) else {
        return;
    };
    if has_pattern(&schema) {
        return;
    }
    let instance = serde_json::from_slice::<Value>(instance).unwrap_or(Value::Null);
    for draft in [Draft::Draft2020, Draft::Draft7] {
        match Schema::compile_with_default(&schema, draft, &RegressEngine) {
            Ok(compiled) => {
                let errors = compiled.validate(&instance);
                assert_eq!(
                    compiled.is_valid(&instance),
                    errors.is_empty(),
                    "{errors:?}"
                );
                for e in &errors.errors {
                    assert!(e.path.is_empty() || e.path.starts_with('/'), "{e}");
                }
                // A schema validates itself as an instance without trouble.
                let _ = compiled.validate(&schema);
            }
            Err(e) => assert!(e.path.is_empty() || e.path.starts_with('/'), "{e}"),
        }
    }
});

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
