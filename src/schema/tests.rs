//! Behaviour of the validator beyond the conformance suite: what errors
//! say, the limits, and the choices the suite does not cover.

use super::*;
use crate::value::Map;
use std::cell::Cell;

fn compile(schema: Value) -> Schema {
    Schema::compile(&schema, &RegressEngine).unwrap()
}

fn errors(schema: Value, instance: Value) -> Vec<(String, &'static str)> {
    compile(schema)
        .validate(&instance)
        .errors
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
    let e = &compile(json!({"required": ["q"]}))
        .validate(&json!({}))
        .errors[0];
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
        let errs = s.validate(&json!(1)).errors;
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
    let mut defs = Map::new();
    for i in 0..40 {
        let next = json!({"$ref": format!("#/$defs/a{}", i + 1)});
        defs.insert(format!("a{i}"), json!({"anyOf": [next, next]}));
    }
    defs.insert("a40".into(), json!(false));
    let s = compile(json!({"$defs": defs, "$ref": "#/$defs/a0"}));
    let errs = s.validate(&json!(1)).errors;
    assert_eq!(errs.last().map(|e| e.message.contains("steps")), Some(true));
}

#[test]
fn s1_a_deep_instance_is_bounded_by_the_depth_limit() {
    let schema = compile(json!({"type": "array", "items": {"$ref": "#"}}));
    let mut deep = json!([]);
    for _ in 0..1000 {
        deep = json!([deep]);
    }
    let errs = schema.validate(&deep).errors;
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
    let mut newer = schema.as_object().unwrap().clone();
    newer.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    assert!(!compile(Value::Object(newer)).is_valid(&json!({"a": "long"})));
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

/// The steps one validation of `instance` takes, and whether it passed,
/// with a budget too large to matter.
fn steps(schema: &Schema, instance: &Value) -> (bool, usize) {
    validate::run_within(&schema.graph, instance, None, usize::MAX)
}

#[test]
fn s5_failures_are_counted_but_only_the_first_are_kept() {
    let s = compile(json!({"type": "array", "items": {"type": "string"}}));
    let failures = s.validate(&json!(vec![0; 10_000]));
    assert_eq!(failures.count, 10_000);
    assert_eq!(failures.errors.len(), MAX_ERRORS);
    assert!(failures.truncated());
    // The first, in order.
    assert_eq!(failures.errors[0].path, "/0");
    assert_eq!(
        failures.errors[MAX_ERRORS - 1].path,
        format!("/{}", MAX_ERRORS - 1)
    );
    assert!(!s.is_valid(&json!(vec![0; 10_000])));
    let few = s.validate(&json!([0, "a", 1]));
    assert_eq!(
        (few.count, few.errors.len(), few.truncated()),
        (2, 2, false)
    );
}

#[test]
fn s5_kept_paths_and_messages_are_cut() {
    // A stream's schema names a property of 1,000 characters; the instance
    // has keys as long.
    let name = "n".repeat(1000);
    let key = "k/".repeat(500);
    let s = compile(json!({"items": {"required": [name]}, "additionalProperties": false}));
    let failures = s.validate(&json!([{}, {}]));
    assert_eq!(failures.count, 2);
    let cap = MAX_ERROR_TEXT + '…'.len_utf8();
    for e in &failures.errors {
        assert!(e.message.len() <= cap, "{}", e.message.len());
        assert!(e.message.starts_with("missing required property \"nnn"));
        assert!(e.message.ends_with('…'));
    }
    let nested = compile(json!({"additionalProperties": {"additionalProperties": false}}));
    let failures = nested.validate(&json!({&key: {&key: 1}}));
    let path = &failures.errors[0].path;
    assert!(path.len() <= cap, "{}", path.len());
    assert!(path.starts_with("/k~1k~1k~1"), "{path}");
    assert!(path.ends_with('…'));
    assert!(failures.errors[0].message.len() <= cap);
}

#[test]
fn s5_a_cut_off_validation_keeps_its_limit_error_after_the_kept_failures() {
    // 30,000 names required of each of 100 items: 3M lookups, past the budget.
    let names: Vec<String> = (0..30_000).map(|i| format!("p{i}")).collect();
    let s = compile(json!({"items": {"required": names}}));
    let failures = s.validate(&json!(vec![json!({}); 100]));
    assert_eq!(failures.errors.len(), MAX_ERRORS + 1);
    let last = failures.errors.last().unwrap();
    assert_eq!(last.keyword, "limit");
    assert!(last.message.contains("2000000 steps"), "{}", last.message);
    // Not a count of the instance's failures: the budget stopped it.
    assert!(failures.count < 100 * 30_000);
}

#[test]
fn s5_an_enum_lookup_is_one_step_whatever_the_enum_size() {
    let values: Vec<String> = (0..100_000).map(|i| format!("v{i}")).collect();
    let s = compile(json!({"items": {"enum": values}}));
    assert_eq!(steps(&s, &json!(["v99999"])), (true, 3));
    assert_eq!(steps(&s, &json!(["w"])), (false, 3));
    let items: Vec<String> = (0..1000).map(|i| format!("v{}", i * 7)).collect();
    let (ok, taken) = steps(&s, &json!(items));
    assert!(ok);
    assert!(taken < 3 * 1000, "{taken}");
    // Equal by value, as before: 1.0 is in [1].
    assert!(compile(json!({"enum": [1, {"a": [2.0]}]})).is_valid(&json!({"a": [2]})));
}

#[test]
fn s5_every_keywords_work_counts_towards_the_step_budget() {
    let long = "x".repeat(64 * 1000);
    let names: Vec<String> = (0..10_000).map(|i| format!("p{i}")).collect();
    let keys: Map = names.iter().map(|n| (n.clone(), json!(1))).collect();
    let at_least = |schema: Value, instance: Value, work: usize| {
        let (_, taken) = steps(&compile(schema.clone()), &instance);
        assert!(taken >= work, "{schema}: {taken} steps, expected {work}");
    };
    // The bytes a value's canonical text takes, for `enum` and `const`.
    at_least(json!({"const": "a"}), json!(long), 1000);
    at_least(json!({"enum": ["a"]}), json!(long), 1000);
    // Every name looked up.
    at_least(json!({"required": names}), json!({}), 10_000);
    at_least(
        json!({"properties": {"a": true}}),
        Value::Object(keys.clone()),
        10_000,
    );
    at_least(
        json!({"dependentRequired": {"p1": names}}),
        Value::Object(keys),
        10_000,
    );
    // Every item, with a boolean schema too.
    at_least(json!({"items": true}), json!(vec![0; 10_000]), 10_000);
    at_least(json!({"uniqueItems": true}), json!([long, 1]), 1000);
    at_least(json!({"maxLength": 1}), json!(long), 1000);
}

#[test]
fn s5_a_spent_budget_makes_the_instance_invalid_with_a_limit_error() {
    // The enum of a stream schema, against an array of values not in it:
    // cheap per item now, but the budget still bounds the items' count.
    let values: Vec<String> = (0..1000).map(|i| format!("v{i}")).collect();
    let s = compile(json!({"items": {"enum": values}}));
    let mut out = Failures::default();
    let (ok, taken) =
        validate::run_within(&s.graph, &json!(vec!["v1"; 5000]), Some(&mut out), 1000);
    assert!(!ok);
    assert!(taken <= 1000 + 3, "{taken}");
    assert_eq!(out.errors.last().map(|e| e.keyword), Some("limit"));
}

#[test]
fn s5_a_schema_of_too_many_subschemas_does_not_compile() {
    let props = |n: usize| -> Map { (0..n).map(|i| (format!("p{i}"), json!({}))).collect() };
    // The root is one of them.
    assert!(Schema::compile(
        &json!({"properties": props(MAX_SUBSCHEMAS - 1)}),
        &RegressEngine
    )
    .is_ok());
    let err = Schema::compile(
        &json!({"properties": props(MAX_SUBSCHEMAS)}),
        &RegressEngine,
    )
    .unwrap_err();
    assert_eq!(err.message, "more than 20000 subschemas");
    assert!(err.path.starts_with("/properties/p"), "{}", err.path);
}

#[test]
fn s1_draft04_boolean_exclusive_bounds_are_exclusive() {
    let draft04 = |bounds: Value| {
        let mut schema = bounds.as_object().unwrap().clone();
        schema.insert(
            "$schema".into(),
            json!("http://json-schema.org/draft-04/schema#"),
        );
        compile(Value::Object(schema))
    };
    let max = draft04(json!({"maximum": 1, "exclusiveMaximum": true}));
    assert!(!max.is_valid(&json!(1)));
    assert!(max.is_valid(&json!(0.5)));
    assert_eq!(
        max.validate(&json!(1)).errors[0].keyword,
        "exclusiveMaximum"
    );
    let min = draft04(json!({"minimum": 1, "exclusiveMinimum": true}));
    assert!(!min.is_valid(&json!(1)));
    assert!(min.is_valid(&json!(1.5)));
    // `false` leaves the bound inclusive.
    let inclusive = draft04(json!({"maximum": 1, "exclusiveMaximum": false}));
    assert!(inclusive.is_valid(&json!(1)));
    assert!(!inclusive.is_valid(&json!(2)));
    // Without `$schema` too (providers leave it out), and the numeric form.
    let bare = compile(json!({"maximum": 1, "exclusiveMaximum": true}));
    assert!(!bare.is_valid(&json!(1)));
    let numeric = compile(json!({"exclusiveMaximum": 1}));
    assert!(!numeric.is_valid(&json!(1)));
    assert!(numeric.is_valid(&json!(0)));
}
