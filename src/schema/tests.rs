//! Behaviour of the validator beyond the conformance suite: what errors
//! say, the limits, and the choices the suite does not cover.

use super::*;
use serde_json::json;
use std::cell::Cell;

fn compile(schema: Value) -> Schema {
    Schema::compile(&schema, &RegressEngine).unwrap()
}

fn errors(schema: Value, instance: Value) -> Vec<(String, &'static str)> {
    compile(schema)
        .validate(&instance)
        .into_iter()
        .map(|e| (e.path, e.keyword))
        .collect()
}

#[test]
fn s1_errors_name_the_instance_path_and_keyword() {
    let schema = json!({
        "type": "object",
        "required": ["items"],
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "n": {"minimum": 1}},
                },
            },
            "a/b": {"type": "boolean"},
        },
    });
    let found = errors(
        schema,
        json!({"items": [{"name": 3}, {"n": 0}], "a/b": null}),
    );
    assert_eq!(
        found,
        vec![
            ("/a~1b".to_owned(), "type"),
            ("/items/0/name".to_owned(), "type"),
            ("/items/1/n".to_owned(), "minimum"),
        ]
    );
    let e = &compile(json!({"required": ["q"]})).validate(&json!({}))[0];
    assert_eq!(e.path, "");
    assert_eq!(e.message, "missing required property \"q\"");
}

#[test]
fn s1_every_failure_is_reported() {
    let found = errors(
        json!({"properties": {"a": {"type": "string"}, "b": {"maxLength": 1}}, "required": ["c"]}),
        json!({"a": 1, "b": "xy"}),
    );
    let keywords: Vec<&str> = found.iter().map(|e| e.1).collect();
    assert_eq!(keywords, ["required", "type", "maxLength"]);
}

#[test]
fn s1_a_ref_cycle_ends_in_a_depth_error_not_an_overflow() {
    for schema in [
        json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
        json!({"allOf": [{"$ref": "#"}]}),
        json!({"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/b"}]}, "b": {"not": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"}),
    ] {
        let s = compile(schema);
        assert!(!s.is_valid(&json!(1)));
        let errs = s.validate(&json!(1));
        assert_eq!(errs.last().map(|e| e.keyword), Some("limit"));
    }
    // A cut-off under `not` must not turn into a pass.
    let negated =
        compile(json!({"$defs": {"a": {"not": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"}));
    assert!(!negated.is_valid(&json!(1)));
}

#[test]
fn s1_exponential_branching_is_cut_off_by_the_step_budget() {
    // Forty levels, each trying the next twice, ending in `false`: shallow
    // enough for the depth limit, 2^40 applications without the budget.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = json!({"$ref": format!("#/$defs/a{}", i + 1)});
        defs.insert(format!("a{i}"), json!({"anyOf": [next, next]}));
    }
    defs.insert("a40".into(), json!(false));
    let s = compile(json!({"$defs": defs, "$ref": "#/$defs/a0"}));
    let errs = s.validate(&json!(1));
    assert_eq!(errs.last().map(|e| e.message.contains("steps")), Some(true));
}

#[test]
fn s1_a_deep_instance_is_bounded_by_the_depth_limit() {
    let schema = compile(json!({"type": "array", "items": {"$ref": "#"}}));
    let mut deep = json!([]);
    for _ in 0..1000 {
        deep = json!([deep]);
    }
    let errs = schema.validate(&deep);
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].keyword, "limit");
    assert!(errs[0].path.starts_with("/0/0/0"));
    // Within the limit, the same schema validates.
    let mut shallow = json!([]);
    for _ in 0..50 {
        shallow = json!([shallow]);
    }
    assert!(schema.is_valid(&shallow));
}

#[test]
fn s1_a_remote_ref_is_a_schema_error_and_never_fetched() {
    let err = Schema::compile(
        &json!({"properties": {"a": {"$ref": "https://example.com/s.json"}}}),
        &RegressEngine,
    )
    .unwrap_err();
    assert_eq!(err.path, "/properties/a/$ref");
    assert!(err.message.contains("https://example.com/s.json"));
}

#[test]
fn s1_a_malformed_schema_or_pattern_is_a_schema_error() {
    let bad_pattern = json!({"properties": {"p": {"pattern": "(unclosed"}}});
    let err = Schema::compile(&bad_pattern, &RegressEngine).unwrap_err();
    assert_eq!(err.path, "/properties/p");
    assert!(err.message.contains("invalid pattern"));
    let not_a_schema = json!({"items": 3});
    assert_eq!(
        Schema::compile(&not_a_schema, &RegressEngine)
            .unwrap_err()
            .path,
        "/items"
    );
    let mut too_deep = json!({});
    for _ in 0..200 {
        too_deep = json!({"not": too_deep});
    }
    let err = Schema::compile(&too_deep, &RegressEngine).unwrap_err();
    assert!(err.message.contains("too deeply"));
}

#[test]
fn s1_array_form_items_is_tuple_validation_without_schema_keyword() {
    let s = compile(
        json!({"items": [{"type": "string"}, {"type": "number"}], "additionalItems": false}),
    );
    assert!(s.is_valid(&json!(["a", 1])));
    assert!(!s.is_valid(&json!([1, "a"])));
    assert!(!s.is_valid(&json!(["a", 1, null])));
}

#[test]
fn s1_draft07_ref_replaces_its_siblings() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"s": {"type": "string"}},
        "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}},
    });
    let s = compile(schema.clone());
    assert!(s.is_valid(&json!({"a": "long"})));
    // The same schema read as 2020-12 applies both.
    let mut newer = schema;
    newer["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    assert!(!compile(newer).is_valid(&json!({"a": "long"})));
}

#[test]
fn s1_numbers_compare_by_value() {
    let s = compile(json!({"type": "integer", "const": 1, "enum": [1.0, 2]}));
    assert!(s.is_valid(&json!(1.0)));
    assert!(s.is_valid(&json!(1)));
    assert!(!s.is_valid(&json!(1.5)));
    let unique = compile(json!({"uniqueItems": true}));
    assert!(!unique.is_valid(&json!([{"a": 1}, {"a": 1.0}])));
    assert!(unique.is_valid(&json!([1, true, "1"])));
}

#[test]
fn s1_string_lengths_count_code_points() {
    let s = compile(json!({"maxLength": 2, "minLength": 2}));
    assert!(s.is_valid(&json!("💩é")));
    assert!(!s.is_valid(&json!("abc")));
}

#[test]
fn s1_patterns_follow_ecmascript_semantics() {
    // In ECMAScript `\d` is ASCII only, even with the `u` flag; patterns
    // are not anchored.
    let s = compile(json!({"pattern": "^\\d+$"}));
    assert!(s.is_valid(&json!("123")));
    assert!(!s.is_valid(&json!("١٢٣")));
    let unanchored = compile(json!({"patternProperties": {"x": {"type": "null"}}}));
    assert!(!unanchored.is_valid(&json!({"axb": 1})));
}

#[test]
fn s1_unevaluated_properties_report_the_extra_property() {
    let found = errors(
        json!({"allOf": [{"properties": {"a": true}}], "unevaluatedProperties": false}),
        json!({"a": 1, "extra": 2}),
    );
    assert_eq!(found, vec![("/extra".to_owned(), "unevaluatedProperties")]);
}

/// An engine that counts compilations, standing in for a host `RegExp`.
struct Counting(Cell<usize>);

impl PatternEngine for Counting {
    fn compile(&self, source: &str) -> Result<Box<dyn Pattern>, String> {
        self.0.set(self.0.get() + 1);
        RegressEngine.compile(source)
    }
}

#[test]
fn s1_patterns_are_compiled_once_by_the_given_engine() {
    let engine = Counting(Cell::new(0));
    let s = Schema::compile(
        &json!({"pattern": "^a", "patternProperties": {"^b": {}}}),
        &engine,
    )
    .unwrap();
    for _ in 0..3 {
        assert!(s.is_valid(&json!("abc")));
        assert!(!s.is_valid(&json!("cab")));
    }
    assert_eq!(engine.0.get(), 2);
}
