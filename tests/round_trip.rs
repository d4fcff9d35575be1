//! A frontend-tool round trip across two runs (rules F1, F2, F5, F6).

use crate::common::*;
use agui_tool_calls::{ApplicationError, ResultSource, RunStatus, Tracker};
use serde_json::{json, Value};

fn tools() -> Value {
    json!([
        {"name": "confirm_deploy", "description": "Ask before deploying",
         "parameters": {"type": "object", "properties": {"env": {"type": "string"}}}},
        {"name": "pick_date", "description": "Show a date picker", "parameters": {"type": "object"}}
    ])
}

/// The history the agent holds after run 1: its assistant message with the
/// three calls and the backend result.
fn run1_history() -> Vec<Value> {
    let call = |id: &str, name: &str, arguments: &str| json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}});
    vec![
        json!({"id": "u1", "role": "user", "content": "Deploy on a good day"}),
        json!({"id": "a1", "role": "assistant", "toolCalls": [
            call("call_weather", "get_weather", r#"{"city":"Oslo"}"#),
            call("call_1", "confirm_deploy", r#"{"env":"prod"}"#),
            call("call_2", "pick_date", "{}"),
        ]}),
        json!({"id": "tr1", "role": "tool", "toolCallId": "call_weather", "content": "sunny"}),
    ]
}

/// Run 1: two frontend calls (advertised by the echoed input) and one
/// backend call answered in-stream; the run finishes with both frontend
/// calls pending.
fn after_run1() -> Tracker {
    let mut t = Tracker::new(Default::default());
    let text =
        |id: &str| json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"});
    feed(
        &mut t,
        &[
            json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1", "input": {
                "threadId": "t1", "runId": "r1", "tools": tools(),
                "messages": [{"id": "u1", "role": "user", "content": "Deploy on a good day"}]}}),
            text("a1"),
            json!({"type": "TOOL_CALL_START", "toolCallId": "call_weather",
                   "toolCallName": "get_weather", "parentMessageId": "a1"}),
            args("call_weather", r#"{"city":"Oslo"}"#),
            end("call_weather"),
            result("tr1", "call_weather", "sunny"),
            json!({"type": "TOOL_CALL_START", "toolCallId": "call_1",
                   "toolCallName": "confirm_deploy", "parentMessageId": "a1"}),
            args("call_1", r#"{"env":"#),
            args("call_1", r#""prod"}"#),
            end("call_1"),
            json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "call_2",
                   "toolCallName": "pick_date", "parentMessageId": "a1", "delta": "{}"}),
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
                   "outcome": {"type": "success", "pendingToolCallIds": ["call_1", "call_2"]}}),
        ],
    );
    t
}

fn run2_input(t: &Tracker, tool_messages: Vec<Value>) -> Value {
    let mut messages = run1_history();
    messages.extend(tool_messages);
    assert!(t.fatal().is_none());
    json!({"threadId": "t1", "runId": "r2", "state": {}, "context": [], "forwardedProps": {},
           "tools": tools(), "messages": messages})
}

#[test]
fn round_trip_two_runs_leave_nothing_pending() {
    let mut t = after_run1();
    assert!(t.violations().is_empty(), "{:?}", t.violations());
    let pending: Vec<&str> = t.pending_calls().map(|c| c.id.as_str()).collect();
    assert_eq!(pending, ["call_1", "call_2"]);
    assert!(t.pending_calls().all(|c| c.advertised));

    // The application executes one call and the user declines the other.
    t.answer("call_1", json!("Deployed to prod."), "tm-1")
        .unwrap();
    t.decline("call_2", Some("no date suits"), "tm-2").unwrap();
    let messages: Vec<Value> = t
        .tool_messages()
        .iter()
        .map(agui_tool_calls::ToolMessage::to_value)
        .collect();
    assert_eq!(messages.len(), 2);
    let keys: Vec<&str> = messages
        .iter()
        .map(|m| m["toolCallId"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["call_1", "call_2"]);
    assert!(messages.iter().all(|m| m["role"] == "tool"));
    assert_eq!(messages[1]["error"], "declined");

    // Run 2 continues the thread with both answers.
    let input = run2_input(&t, messages);
    t.start_run_json(&input.to_string()).unwrap();
    assert!(t.tool_messages().is_empty());
    feed(
        &mut t,
        &[
            json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r2", "input": input}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "a2", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a2", "delta": "Done."}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "a2"}),
            run_finished("r2"),
        ],
    );
    assert_eq!(t.run().status, RunStatus::Finished);
    assert_eq!(t.run().runs_started, 2);
    assert!(t.pending_calls().next().is_none());
    assert!(t.violations().is_empty(), "{:?}", t.violations());
    for id in ["call_1", "call_2"] {
        let results = &t.call(id).unwrap().results;
        assert_eq!(results.len(), 1, "{id}: the echo adds no second answer");
        assert_eq!(results[0].source, ResultSource::Application);
    }
    assert_eq!(t.calls().len(), 3, "history adds no call the stream showed");
}

#[test]
fn round_trip_forgetting_an_answer_is_refused_and_changes_nothing() {
    let mut t = after_run1();
    t.answer("call_1", json!("Deployed to prod."), "tm-1")
        .unwrap();
    t.decline("call_2", None, "tm-2").unwrap();
    let only_first = vec![t.tool_messages()[0].to_value()];
    let input = run2_input(&t, only_first);
    let _ = t.take_changes();
    let (before, version) = (state_of(&t), t.version());
    let err = t.start_run_json(&input.to_string()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the next run's input leaves 1 pending tool call unanswered: call_2 (pick_date; its answer is not in the input)"
    );
    assert!(matches!(err, ApplicationError::Unanswered(ref c) if c.len() == 1));
    assert_eq!(state_of(&t), before);
    assert_eq!(t.version(), version);
    assert!(t.take_changes().is_empty());
    assert_eq!(t.tool_messages().len(), 2, "both still to be sent");
}

#[test]
fn round_trip_unanswered_calls_are_named_before_any_answer() {
    let mut t = after_run1();
    let input = run2_input(&t, vec![]);
    let err = t.start_run_json(&input.to_string()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the next run's input leaves 2 pending tool calls unanswered: call_1 (confirm_deploy), call_2 (pick_date)"
    );
}
