//! Rules S1 and S2 in the tracker: arguments of advertised tools are
//! validated against the tool's `parameters` schema when the call closes.

mod common;

use agui_tool_calls::events::Tool;
use agui_tool_calls::{Options, Tracker, Validation};
use common::*;
use serde_json::{json, Value};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

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
    found.sort_unstable();
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

fn hostile_tool() -> Tool {
    let schema =
        json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}});
    Tool::new("f", "", schema)
}

fn run_with_input_tools(t: &mut Tracker, tools: &[Tool]) {
    let tools: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "parameters": t.parameters}))
        .collect();
    let input = json!({"threadId": "t1", "runId": "r1", "messages": [], "tools": tools});
    feed(
        t,
        &[json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1", "input": input})],
    );
}

#[test]
fn s5_a_backtracking_pattern_from_the_stream_is_not_run() {
    // `^(a+)+$` against 29 `a` and a `!` backtracks 2^29 times in an
    // ECMAScript engine; from the stream, its schema leaves the call
    // unvalidated at once (rule S2) instead. Without that guard the test
    // must fail, not hang: it has 20 s (milliseconds with the guard).
    within(Duration::from_secs(20), || {
        let mut t = Tracker::new(Options::default());
        run_with_input_tools(&mut t, &[hostile_tool()]);
        let s = format!("{}!", "a".repeat(29));
        assert_eq!(
            closed(&mut t, "c1", "f", &json!({ "s": s })),
            Validation::Unvalidated
        );
        // The rest of the stream is read on.
        feed(&mut t, &[run_finished("r1")]);
        assert_eq!(t.pending_calls().count(), 1);
    });
}

/// Runs `f` on a thread of its own, failing if it takes longer than
/// `limit` (the thread is left behind, ended with the test process); a
/// panic inside it fails the test as its own.
fn within(limit: Duration, f: impl FnOnce() + Send + 'static) {
    let (done, finished) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        f();
        let _ = done.send(());
    });
    match finished.recv_timeout(limit) {
        Ok(()) => {}
        Err(RecvTimeoutError::Timeout) => panic!("still running after {limit:?}"),
        Err(RecvTimeoutError::Disconnected) => {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
    }
}

#[test]
fn s1_a_stream_schema_without_pattern_is_still_validated() {
    let mut t = Tracker::new(Options::default());
    let schema = json!({"type": "object", "required": ["s"]});
    run_with_input_tools(&mut t, &[Tool::new("f", "", schema)]);
    assert!(matches!(
        closed(&mut t, "c1", "f", &json!({})),
        Validation::Invalid(errors) if errors[0].keyword == "required"
    ));
}

#[test]
fn s1_the_applications_schema_echoed_by_the_stream_runs_its_patterns() {
    // The run input echoes the application's own tool: its pattern runs.
    let mut t = Tracker::new(Options {
        tools: vec![deploy_tool()],
        ..Options::default()
    });
    run_with_input_tools(&mut t, &[deploy_tool()]);
    let args = json!({"service": "api", "version": "1.2", "replicas": 3});
    assert!(matches!(
        closed(&mut t, "c1", "confirm_deploy", &args),
        Validation::Invalid(errors) if errors[0].keyword == "pattern"
    ));
    // A tool given by the application's own run input, then echoed.
    let mut t = Tracker::new(Options::default());
    let input = json!({"messages": [], "tools": [{"name": "confirm_deploy", "description": "",
        "parameters": deploy_tool().parameters}]});
    t.start_run_json(&input.to_string()).unwrap();
    run_with_input_tools(&mut t, &[deploy_tool()]);
    assert!(matches!(
        closed(&mut t, "c1", "confirm_deploy", &args),
        Validation::Invalid(errors) if errors[0].keyword == "pattern"
    ));
    // The same name with another schema is the stream's own.
    let mut t = Tracker::new(Options {
        tools: vec![deploy_tool()],
        ..Options::default()
    });
    let mut altered = deploy_tool();
    altered.parameters["properties"]["version"]["pattern"] = json!("^v");
    run_with_input_tools(&mut t, &[altered]);
    assert_eq!(
        closed(&mut t, "c1", "confirm_deploy", &args),
        Validation::Unvalidated
    );
}
