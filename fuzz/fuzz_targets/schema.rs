//! Schema compile and validate: an arbitrary schema and an arbitrary
//! instance, both JSON, in both default drafts. Never panics; `is_valid`
//! agrees with `validate`.
//!
//! Input: the schema's JSON text, a zero byte, the instance's JSON text.

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
                for e in &errors {
                    assert!(e.path.is_empty() || e.path.starts_with('/'), "{e}");
                }
                // A schema validates itself as an instance without trouble.
                let _ = compiled.validate(&schema);
            }
            Err(e) => assert!(e.path.is_empty() || e.path.starts_with('/'), "{e}"),
        }
    }
});
