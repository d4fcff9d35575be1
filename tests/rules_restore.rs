//! A thread restored from history and the calls runs left behind: a call
//! history leaves unanswered is pending again (rule F8), and a call a run
//! abandoned that the application's history holds is closed by the next
//! input, whichever path builds it (rule F11).

use crate::common::*;
use agui_tool_calls::{
    events::Tool, ApplicationError, CallStatus, Options, Tracker, ABANDONED_CONTENT,
};
use serde_json::{json, Value};

fn tools() -> Vec<Tool> {
    vec![Tool::new("confirm", "Ask", json!({"type": "object"}))]
}

fn with_tools() -> Tracker {
    Tracker::new(Options {
        tools: tools(),
        ..Options::default()
    })
}

fn assistant(id: &str, calls: &[(&str, &str)]) -> Value {
    let calls: Vec<_> = calls
        .iter()
        .map(|(id, name)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": "{}"}}))
        .collect();
    json!({"id": id, "role": "assistant", "toolCalls": calls})
}

fn tool(id: &str, call: &str) -> Value {
    json!({"id": id, "role": "tool", "toolCallId": call, "content": "ok"})
}

fn user(id: &str) -> Value {
    json!({"id": id, "role": "user", "content": id})
}

fn input(messages: &[Value]) -> String {
    json!({"threadId": "t1", "runId": "r", "messages": messages}).to_string()
}

fn pending(t: &Tracker) -> Vec<&str> {
    t.pending_calls().map(|c| c.id.as_str()).collect()
}

fn unanswered(e: ApplicationError) -> Vec<(String, bool)> {
    match e {
        ApplicationError::Unanswered(calls) => calls
            .into_iter()
            .map(|c| (c.tool_call_id, c.answer_left_out))
            .collect(),
        other => panic!("expected Unanswered, got {other:?}"),
    }
}

/// The history a page saved before it reloaded: an earlier call answered,
/// the last assistant message's call to an advertised tool not.
fn saved() -> Vec<Value> {
    vec![
        user("u1"),
        assistant("a1", &[("c0", "confirm")]),
        tool("m0", "c0"),
        user("u2"),
        assistant("a2", &[("c1", "confirm"), ("b1", "search")]),
        tool("m1", "b1"),
    ]
}

#[test]
fn f8_restored_history_leaves_its_unanswered_frontend_call_pending() {
    let mut t = with_tools();
    t.restore_json(&input(&saved())).unwrap();
    assert_eq!(pending(&t), ["c1"], "c0 and b1 are answered in history");
    let c1 = t.call("c1").unwrap();
    assert!(c1.from_history && c1.advertised);
    assert_eq!(c1.status, CallStatus::Complete);
    // Nothing answers it on the user's behalf: the next run must.
    let err = t.start_run_json(&input(&saved())).unwrap_err();
    assert_eq!(unanswered(err), [("c1".to_owned(), false)]);
    t.answer("c1", json!("approved"), "m2").unwrap();
    let mut next = saved();
    next.push(t.tool_messages()[0].to_value());
    t.start_run_json(&input(&next)).unwrap();
    assert!(pending(&t).is_empty());
}

#[test]
fn f8_a_messages_snapshot_or_run_started_input_restores_pending_calls() {
    let snapshot = json!({"type": "MESSAGES_SNAPSHOT", "messages": saved()});
    let mut t = with_tools();
    feed(&mut t, &[run_started("r1"), snapshot, run_finished("r1")]);
    assert_eq!(pending(&t), ["c1"]);

    let mut t = with_tools();
    let replay = json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1",
        "input": {"threadId": "t1", "runId": "r1", "messages": saved(), "tools": [], "context": [], "state": {}, "forwardedProps": {}}});
    feed(&mut t, &[replay]);
    // The replayed input advertises nothing: only the options' tools count.
    assert_eq!(pending(&t), ["c1"]);
}

#[test]
fn f8_unadvertised_or_already_known_calls_are_not_made_pending() {
    let mut t = Tracker::new(Options::default());
    t.restore_json(&input(&saved())).unwrap();
    assert!(pending(&t).is_empty(), "confirm is not advertised here");

    // A call the tracker streamed and saw answered stays answered when the
    // history sent back lacks its answer: what the tracker knows wins.
    let mut t = with_tools();
    feed(&mut t, &[run_started("r1")]);
    feed(&mut t, &whole_call("c1", "confirm", "{}"));
    feed(&mut t, &[run_finished("r1")]);
    t.answer("c1", json!("yes"), "m9").unwrap();
    t.restore_json(&input(&[assistant("a2", &[("c1", "confirm")])]))
        .unwrap();
    assert!(pending(&t).is_empty());
}

#[test]
fn f8_the_input_that_would_restore_an_unanswered_call_is_refused() {
    // A fresh tracker given the saved history as the next run's input: the
    // call is the user's to answer, the run may not skip it.
    let mut t = with_tools();
    let err = t.start_run_json(&input(&saved())).unwrap_err();
    assert_eq!(unanswered(err), [("c1".to_owned(), false)]);
    assert!(t.calls().is_empty(), "a refusal changes nothing");
    // Advertised by the input's own tools counts the same.
    let mut t = Tracker::new(Options::default());
    let with = json!({"threadId": "t1", "runId": "r", "messages": saved(), "tools": [{"name": "confirm", "description": ""}]});
    let err = t.start_run_json(&with.to_string()).unwrap_err();
    assert_eq!(unanswered(err), [("c1".to_owned(), false)]);
    let without = json!({"threadId": "t1", "runId": "r", "messages": saved()});
    t.start_run_json(&without.to_string()).unwrap();
}

#[test]
fn f8_restore_is_refused_while_a_run_is_active() {
    let mut t = with_tools();
    feed(&mut t, &[run_started("r1")]);
    assert_eq!(
        t.restore_json(&input(&saved())),
        Err(ApplicationError::RunActive)
    );
    assert!(t.calls().is_empty());
}

/// A run the user stopped mid-call (`abort`) or that failed (`error`).
fn abandoned(how: &str) -> Tracker {
    let mut t = with_tools();
    t.start_run_json(&input(&[user("u1")])).unwrap();
    feed(
        &mut t,
        &[
            run_started("r1"),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "confirm", "parentMessageId": "a1"}),
            args("c1", r#"{"serv"#),
        ],
    );
    if how == "abort" {
        t.abort_run(Some("the user pressed stop"));
    } else {
        feed(
            &mut t,
            &[json!({"type": "RUN_ERROR", "message": "model overloaded"})],
        );
    }
    assert_eq!(t.call("c1").unwrap().status, CallStatus::Abandoned);
    t
}

/// The application's history after the run: the half-streamed call, as an
/// `@ag-ui/client` agent keeps it.
fn half_streamed() -> Vec<Value> {
    vec![
        user("u1"),
        json!({"id": "a1", "role": "assistant", "toolCalls": [
            {"id": "c1", "type": "function", "function": {"name": "confirm", "arguments": "{\"serv"}}]}),
    ]
}

#[test]
fn f11_tool_messages_close_a_call_stopped_or_failed_mid_stream() {
    for how in ["abort", "error"] {
        let t = abandoned(how);
        let messages: Vec<_> = t
            .tool_messages()
            .iter()
            .map(agui_tool_calls::ToolMessage::to_value)
            .collect();
        assert_eq!(
            messages,
            [
                json!({"id": "c1:closed", "role": "tool", "toolCallId": "c1",
                "content": ABANDONED_CONTENT, "error": "abandoned"})
            ],
            "{how}"
        );
    }
}

#[test]
fn f11_the_next_input_holding_the_call_must_close_it() {
    let mut t = abandoned("abort");
    let mut history = half_streamed();
    history.push(user("u2"));
    let err = t.start_run_json(&input(&history)).unwrap_err();
    assert_eq!(unanswered(err), [("c1".to_owned(), true)]);
    // With toolMessages() added, as an app does each turn, it goes.
    history.extend(
        t.tool_messages()
            .iter()
            .map(agui_tool_calls::ToolMessage::to_value),
    );
    t.start_run_json(&input(&history)).unwrap();
    assert!(t.tool_messages().is_empty(), "carried: no longer listed");
}

#[test]
fn f11_an_input_without_the_call_needs_no_closing() {
    let mut t = abandoned("error");
    t.start_run_json(&input(&[user("u1"), user("u2")])).unwrap();
    assert!(t.tool_messages().is_empty());
}

#[test]
fn f11_closing_ids_avoid_ids_in_use_and_follow_call_order() {
    let mut t = with_tools();
    t.start_run_json(&input(&[user("u1")])).unwrap();
    feed(&mut t, &[run_started("r1")]);
    feed(&mut t, &whole_call("c0", "confirm", "{}"));
    feed(
        &mut t,
        &[
            start("c1", "confirm"),
            // The id the closing message would take, used by a result.
            result("c1:closed", "c9", "x"),
            json!({"type": "RUN_ERROR", "message": "m"}),
        ],
    );
    let ids: Vec<_> = t
        .tool_messages()
        .iter()
        .map(|m| (m.id.clone(), m.tool_call_id.clone()))
        .collect();
    // c0, completed in the failed run and unanswered, is closed too, first.
    assert_eq!(
        ids,
        [
            ("c0:closed".to_owned(), "c0".to_owned()),
            ("c1:closed2".to_owned(), "c1".to_owned())
        ]
    );
}

#[test]
fn f11_an_answer_the_input_carries_withdraws_the_closing() {
    let mut t = abandoned("error");
    t.start_run_json(&input(&half_streamed())).unwrap_err();
    let mut history = half_streamed();
    history.push(tool("m5", "c1"));
    t.start_run_json(&input(&history)).unwrap();
    assert!(t.tool_messages().is_empty());
}

#[test]
fn f11_a_call_completed_in_a_failed_run_and_left_unanswered_is_closed_too() {
    let mut t = with_tools();
    feed(&mut t, &[run_started("r1")]);
    feed(&mut t, &whole_call("b1", "search", "{}"));
    feed(&mut t, &whole_call("b2", "search", "{}"));
    feed(&mut t, &[result("m2", "b2", "found")]);
    feed(&mut t, &[json!({"type": "RUN_ERROR", "message": "m"})]);
    assert_eq!(t.call("b1").unwrap().status, CallStatus::Complete);
    assert!(!t.call("b1").unwrap().pending, "never pending (L5)");
    let ids: Vec<_> = t.tool_messages().iter().map(|m| m.id.clone()).collect();
    assert_eq!(ids, ["b1:closed"], "b2 is answered");
}
