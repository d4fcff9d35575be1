//! Rules S1 and S2 in the tracker: arguments of advertised tools are
//! validated against the tool's `parameters` schema when the call closes.

mod common;

use agui_tool_calls::events::Tool;
use agui_tool_calls::{Options, Tracker, Validation};
use common::*;
use serde_json::{json, Value};

fn deploy_tool() -> Tool {
    Tool::new(
        "confirm_deploy",
        "Ask before deploying",
        json!({
            "type": "object",
            "properties": {
                "service": {"type": "string"},
                "version": {"type": "string", "pattern": "^v\\d+\\.\\d+\\.\\d+$"},
                "replicas": {"type": "integer", "minimum": 1, "maximum": 20}
            },
            "required": ["service", "version", "replicas"],
            "additionalProperties": false
        }),
    )
}

fn with_tools(tools: Vec<Tool>) -> Tracker {
    running_with(Options {
        tools,
        ..Options::default()
    })
}

fn closed(t: &mut Tracker, id: &str, name: &str, args: &Value) -> Validation {
    feed(t, &whole_call(id, name, &args.to_string()));
    t.call(id).unwrap().validation.clone()
}

#[test]
fn s1_valid_arguments_of_an_advertised_tool_are_valid() {
    let mut t = with_tools(vec![deploy_tool()]);
    let v = closed(
        &mut t,
        "c1",
        "confirm_deploy",
        &json!({"service": "api", "version": "v1.2.3", "replicas": 3}),
    );
    assert_eq!(v, Validation::Valid);
}

#[test]
fn s1_each_failure_names_the_instance_path_and_keyword() {
    let mut t = with_tools(vec![deploy_tool()]);
    let v = closed(
        &mut t,
        "c1",
        "confirm_deploy",
        &json!({"service": 7, "version": "1.2", "replicas": 50, "force": true}),
    );
    let Validation::Invalid(errors) = v else {
        panic!("expected invalid, got {v:?}");
    };
    let mut found: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e.path.as_str(), e.keyword))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("/force", "additionalProperties"),
            ("/replicas", "maximum"),
            ("/service", "type"),
            ("/version", "pattern"),
        ]
    );
    assert!(errors.iter().all(|e| !e.message.is_empty()));
    assert_eq!(t.fatal(), None, "an invalid call is not a stream violation");
}

#[test]
fn s1_text_that_does_not_parse_is_invalid_with_the_parse_error_on_the_call() {
    let mut t = with_tools(vec![deploy_tool()]);
    feed(&mut t, &whole_call("c1", "confirm_deploy", "{\"service\":"));
    let call = t.call("c1").unwrap();
    assert_eq!(call.validation, Validation::Invalid(vec![]));
    assert!(call.arguments().unwrap().is_err());
}

#[test]
fn s1_tools_advertised_by_the_run_input_are_validated() {
    let mut t = Tracker::new(Options::default());
    let mut started = run_started("r1");
    started["input"] = json!({
        "threadId": "t", "runId": "r1", "messages": [],
        "tools": [{"name": "pick", "description": "", "parameters": {"type": "object", "required": ["n"]}}]
    });
    feed(&mut t, &[started]);
    assert!(
        matches!(closed(&mut t, "c1", "pick", &json!({})), Validation::Invalid(e) if e[0].keyword == "required")
    );
    assert_eq!(
        closed(&mut t, "c2", "pick", &json!({"n": 1})),
        Validation::Valid
    );
}

#[test]
fn s1_a_reopened_call_is_validated_again_at_its_next_end() {
    let mut t = with_tools(vec![Tool::new(
        "f",
        "",
        json!({"type": "array", "maxItems": 1}),
    )]);
    feed(&mut t, &whole_call("c1", "f", "[1"));
    assert_eq!(
        t.call("c1").unwrap().validation,
        Validation::Invalid(vec![])
    );
    feed(&mut t, &[start("c1", "f")]);
    assert_eq!(
        t.call("c1").unwrap().validation,
        Validation::Unvalidated,
        "open again"
    );
    feed(&mut t, &[args("c1", "]"), end("c1")]);
    assert_eq!(t.call("c1").unwrap().validation, Validation::Valid);
}

#[test]
fn s1_a_remote_ref_is_never_fetched_the_call_stays_unvalidated() {
    let remote = json!({"$ref": "https://example.com/schemas/deploy.json"});
    let mut t = with_tools(vec![Tool::new("f", "", remote)]);
    assert_eq!(
        closed(&mut t, "c1", "f", &json!({})),
        Validation::Unvalidated
    );
}

#[test]
fn s2_calls_with_no_schema_to_check_are_unvalidated() {
    let mut t = with_tools(vec![Tool::new("no_params", "", Value::Null)]);
    assert_eq!(
        closed(&mut t, "c1", "no_params", &json!({})),
        Validation::Unvalidated
    );
    assert_eq!(
        closed(&mut t, "c2", "backend_tool", &json!({})),
        Validation::Unvalidated
    );
    assert!(!t.call("c2").unwrap().advertised);
}

#[test]
fn s1_history_calls_are_validated_when_seeded() {
    let mut t = with_tools(vec![deploy_tool()]);
    let snapshot = json!({"type": "MESSAGES_SNAPSHOT", "messages": [{
        "id": "m1", "role": "assistant",
        "toolCalls": [{"id": "h1", "type": "function", "function": {"name": "confirm_deploy", "arguments": "{\"service\":\"x\"}"}}]
    }]});
    feed(&mut t, &[snapshot]);
    assert!(
        matches!(&t.call("h1").unwrap().validation, Validation::Invalid(e) if e.iter().any(|e| e.keyword == "required"))
    );
}
