//! Rules S1 and S2 in the tracker: arguments of advertised tools are
//! validated against the tool's `parameters` schema when the call closes.

use crate::common::*;
use agui_tool_calls::events::Tool;
use agui_tool_calls::schema::{Failures, MAX_ERRORS, MAX_ERROR_TEXT, MAX_SUBSCHEMAS};
use agui_tool_calls::{Limits, Options, Tracker, Validation};
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
    let Validation::Invalid(Failures { errors, .. }) = v else {
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
    assert_eq!(call.validation, Validation::Invalid(Failures::default()));
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
        matches!(closed(&mut t, "c1", "pick", &json!({})), Validation::Invalid(e) if e.errors[0].keyword == "required")
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
        Validation::Invalid(Failures::default())
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
        matches!(&t.call("h1").unwrap().validation, Validation::Invalid(e) if e.errors.iter().any(|e| e.keyword == "required"))
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
        Validation::Invalid(f) if f.errors[0].keyword == "required"
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
        Validation::Invalid(f) if f.errors[0].keyword == "pattern"
    ));
    // A tool given by the application's own run input, then echoed.
    let mut t = Tracker::new(Options::default());
    let input = json!({"threadId": "t", "runId": "r9", "messages": [], "tools": [{"name": "confirm_deploy", "description": "",
        "parameters": deploy_tool().parameters}]});
    t.start_run_json(&input.to_string()).unwrap();
    run_with_input_tools(&mut t, &[deploy_tool()]);
    assert!(matches!(
        closed(&mut t, "c1", "confirm_deploy", &args),
        Validation::Invalid(f) if f.errors[0].keyword == "pattern"
    ));
    // The same name with another schema is the stream's own.
    let mut t = Tracker::new(Options {
        tools: vec![deploy_tool()],
        ..Options::default()
    });
    let mut altered = deploy_tool();
    let mut parameters = serde_json::Value::from(altered.parameters);
    parameters["properties"]["version"]["pattern"] = json!("^v");
    altered.parameters = parameters.into();
    run_with_input_tools(&mut t, &[altered]);
    assert_eq!(
        closed(&mut t, "c1", "confirm_deploy", &args),
        Validation::Unvalidated
    );
}

/// The application's own ordinary schema: a list of strings.
fn list_tool() -> Tool {
    Tool::new(
        "f",
        "",
        json!({"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string"}}}}),
    )
}

/// `{"l": [0,0,...]}` with `n` numbers where strings are due.
fn numbers(n: usize) -> String {
    format!("{{\"l\":[{}0]}}", "0,".repeat(n - 1))
}

#[test]
fn s5_the_schema_errors_kept_per_call_are_bounded_and_counted() {
    let mut t = with_tools(vec![list_tool()]);
    feed(&mut t, &whole_call("c1", "f", &numbers(20_000)));
    let Validation::Invalid(failures) = &t.call("c1").unwrap().validation else {
        panic!("expected invalid");
    };
    assert_eq!(failures.count, 20_000);
    assert_eq!(failures.errors.len(), MAX_ERRORS);
    assert_eq!(failures.errors[0].path, "/l/0");
    // What is kept counts towards the thread's budget.
    let kept: usize = failures
        .errors
        .iter()
        .map(|e| e.path.len() + e.message.len())
        .sum();
    let text = numbers(20_000).len();
    assert!(t.retained_bytes() >= text + kept, "{}", t.retained_bytes());
}

#[test]
fn s5_a_stream_schemas_long_required_name_is_cut_in_every_kept_message() {
    // A 1,000-character name required of each of 20,000 items: every
    // failure's message quotes it.
    let mut t = Tracker::new(Options::default());
    let name = "n".repeat(1000);
    let schema = json!({"type": "array", "items": {"required": [name]}});
    run_with_input_tools(&mut t, &[Tool::new("f", "", schema)]);
    let text = format!("[{}{{}}]", "{},".repeat(19_999));
    let Validation::Invalid(failures) =
        closed(&mut t, "c1", "f", &serde_json::from_str(&text).unwrap())
    else {
        panic!("expected invalid");
    };
    assert_eq!(failures.count, 20_000);
    assert_eq!(failures.errors.len(), MAX_ERRORS);
    for e in &failures.errors {
        assert!(e.message.len() <= MAX_ERROR_TEXT + 3, "{}", e.message.len());
    }
    assert!(t.retained_bytes() < 2 * text.len() + MAX_ERRORS * (2 * MAX_ERROR_TEXT + 64));
}

#[test]
fn s5_schema_errors_past_the_thread_budget_are_counted_not_kept() {
    let text = numbers(1000);
    // Room for the call and its text and a few errors, not for 100.
    let mut t = Tracker::new(Options {
        tools: vec![list_tool()],
        limits: Limits {
            max_thread_bytes: 512 + text.len() + 1500,
            ..Limits::default()
        },
        ..Options::default()
    });
    feed(&mut t, &[run_started("r1")]);
    feed(&mut t, &whole_call("c1", "f", &text));
    let Validation::Invalid(failures) = &t.call("c1").unwrap().validation else {
        panic!("expected invalid");
    };
    assert_eq!(failures.count, 1000);
    assert!(
        !failures.errors.is_empty() && failures.errors.len() < 30,
        "{}",
        failures.errors.len()
    );
    assert!(t.retained_bytes() <= 512 + text.len() + 1500);
    // The budget is spent: the next event that keeps anything is fatal.
    let v = push(&mut t, start("c2", "f")).unwrap_err();
    assert_eq!(v.code, "S5");
    assert!(v.message.contains("limits.maxThreadBytes"), "{}", v.message);
}

#[test]
fn s5_an_enum_and_properties_from_the_stream_are_looked_up_not_scanned() {
    // 20,000 enum values against 20,000 items was 4 * 10^8 comparisons.
    // (A schema of more subschemas than `MAX_SUBSCHEMAS` does not compile.)
    let mut t = Tracker::new(Options::default());
    let values: Vec<String> = (0..20_000).map(|i| format!("v{i}")).collect();
    // Properties up to half the subschemas a schema may have.
    let props: serde_json::Map<String, Value> = (0..MAX_SUBSCHEMAS / 2)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let schema = json!({"type": "object", "properties": {
        "e": {"type": "array", "items": {"enum": values}},
        "o": {"type": "object", "properties": props},
    }});
    run_with_input_tools(&mut t, &[Tool::new("f", "", schema)]);
    let items: Vec<String> = (0..20_000).map(|i| format!("v{}", 19_999 - i)).collect();
    let object: serde_json::Map<String, Value> = (0..MAX_SUBSCHEMAS / 2)
        .map(|i| (format!("p{i}"), json!("s")))
        .collect();
    let started = std::time::Instant::now();
    let v = closed(&mut t, "c1", "f", &json!({"e": items, "o": object}));
    assert_eq!(v, Validation::Valid);
    // Generous for a debug build on a loaded machine; the old scan took minutes.
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

#[test]
fn s1_a_draft04_exclusive_maximum_makes_the_bound_exclusive() {
    let mut t = Tracker::new(Options::default());
    let schema = json!({"$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object", "properties": {"n": {"maximum": 1, "exclusiveMaximum": true}}});
    run_with_input_tools(&mut t, &[Tool::new("f", "", schema)]);
    assert!(matches!(
        closed(&mut t, "c1", "f", &json!({"n": 1})),
        Validation::Invalid(f) if f.errors[0].keyword == "exclusiveMaximum"
    ));
    assert_eq!(
        closed(&mut t, "c2", "f", &json!({"n": 0.5})),
        Validation::Valid
    );
}

#[test]
fn s5_a_stream_schema_of_too_many_subschemas_leaves_its_calls_unvalidated() {
    let mut t = Tracker::new(Options::default());
    let props: serde_json::Map<String, Value> = (0..MAX_SUBSCHEMAS)
        .map(|i| (format!("p{i}"), json!({})))
        .collect();
    run_with_input_tools(&mut t, &[Tool::new("f", "", json!({"properties": props}))]);
    assert_eq!(
        closed(&mut t, "c1", "f", &json!({})),
        Validation::Unvalidated
    );
}
