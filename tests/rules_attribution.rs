//! Attribution and subagents: rules A1-A7.

use crate::common::*;
use agui_tool_calls::{CallStatus, ResultSource};
use serde_json::{json, Value};

fn text_start(message: &str) -> Value {
    json!({"type": "TEXT_MESSAGE_START", "messageId": message, "role": "assistant"})
}

fn start_under(id: &str, name: &str, parent: &str) -> Value {
    json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": name, "parentMessageId": parent})
}

#[test]
fn a1_text_message_start_records_owner_first_writer_wins() {
    let mut t = running();
    feed(
        &mut t,
        &[
            by("s1", text_start("m1")),
            by("s1", json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"})),
            // A later writer does not take the message over.
            by("s2", text_start("m1")),
            start_under("c1", "f", "m1"),
        ],
    );
    assert_eq!(t.call("c1").unwrap().owner.as_deref(), Some("s1"));
}

#[test]
fn a2_start_disagreeing_with_parent_message_owner_is_fatal() {
    let mut t = running();
    feed(&mut t, &[by("s1", text_start("m1"))]);
    let before = state_of(&t);
    assert_eq!(
        fatal_code(&mut t, by("s2", start_under("c1", "f", "m1"))),
        "A2"
    );
    assert_eq!(state_of(&t), before);
    // A message of the parent agent cannot carry a subagent's call either.
    let mut t = running();
    feed(&mut t, &[text_start("m1")]);
    assert_eq!(
        fatal_code(&mut t, by("s1", start_under("c1", "f", "m1"))),
        "A2"
    );
}

#[test]
fn a2_untagged_call_inherits_the_message_owner() {
    let mut t = running();
    feed(
        &mut t,
        &[by("s1", text_start("m1")), start_under("c1", "f", "m1")],
    );
    assert_eq!(t.call("c1").unwrap().owner.as_deref(), Some("s1"));
    // So its own events may carry the tag.
    feed(&mut t, &[by("s1", args("c1", "{}")), by("s1", end("c1"))]);
    assert_eq!(t.call("c1").unwrap().status, CallStatus::Complete);
}

#[test]
fn a3_args_or_end_from_another_owner_is_fatal() {
    let mut t = running();
    feed(&mut t, &[by("s1", start("c1", "f"))]);
    assert_eq!(fatal_code(&mut t, by("s2", args("c1", "{}"))), "A3");
    let mut t = running();
    feed(&mut t, &[by("s1", start("c1", "f"))]);
    assert_eq!(fatal_code(&mut t, by("s2", end("c1"))), "A3");
    // A parent-agent call tagged later as a subagent's.
    let mut t = running();
    feed(&mut t, &[start("c1", "f")]);
    assert_eq!(fatal_code(&mut t, by("s1", end("c1"))), "A3");
}

#[test]
fn a3_absent_tag_is_always_accepted() {
    let mut t = running();
    feed(
        &mut t,
        &[by("s1", start("c1", "f")), args("c1", "{}"), end("c1")],
    );
    assert_eq!(t.call("c1").unwrap().status, CallStatus::Complete);
}

#[test]
fn a3_chunk_from_another_owner_is_refused_by_its_lane() {
    // The call belongs to s1 (inherited from m1) and sits in the parent's
    // lane; a chunk tagged s2 disagrees with the lane that holds the id.
    let mut t = running();
    feed(
        &mut t,
        &[
            by("s1", text_start("m1")),
            json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "a", "toolCallName": "f",
                   "parentMessageId": "m1", "delta": "{"}),
        ],
    );
    assert_eq!(t.call("a").unwrap().owner.as_deref(), Some("s1"));
    let cont = by(
        "s2",
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "a", "delta": "}"}),
    );
    assert_eq!(fatal_code(&mut t, cont), "C6");
}

#[test]
fn a4_reopen_under_another_owner_is_fatal() {
    let mut t = running();
    feed(&mut t, &[by("s1", start("c1", "f")), end("c1")]);
    let before = state_of(&t);
    assert_eq!(fatal_code(&mut t, by("s2", start("c1", "f"))), "A4");
    assert_eq!(state_of(&t), before);
}

#[test]
fn a4_reopen_under_another_owner_inherited_through_the_parent_message() {
    let mut t = running();
    feed(
        &mut t,
        &[
            start_under("c1", "f", "m1"),
            end("c1"),
            // m1 is first attributed after the call started.
            by("s1", text_start("m1")),
        ],
    );
    assert_eq!(fatal_code(&mut t, start_under("c1", "f", "m1")), "A4");
}

#[test]
fn a4_untagged_reopen_without_parent_is_accepted() {
    let mut t = running();
    feed(
        &mut t,
        &[
            by("s1", start("c1", "f")),
            end("c1"),
            start("c1", "f"),
            end("c1"),
        ],
    );
    let call = t.call("c1").unwrap();
    assert_eq!((call.reopen_count, call.owner.as_deref()), (1, Some("s1")));
}

#[test]
fn a5_history_seeds_owners_calls_and_answers() {
    let mut t = running();
    let history = json!([
        {"id": "u1", "role": "user", "content": "hi"},
        {"id": "m1", "role": "assistant", "subagentRunId": "s1", "toolCalls": [
            {"id": "h1", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\":1}"}},
            {"id": "h2", "type": "function", "function": {"name": "other", "arguments": "oops"}}
        ]},
        {"id": "t1", "role": "tool", "toolCallId": "h1", "content": "found"}
    ]);
    feed(
        &mut t,
        &[json!({"type": "MESSAGES_SNAPSHOT", "messages": history.clone()})],
    );
    let h1 = t.call("h1").unwrap();
    assert_eq!(h1.status, CallStatus::Complete);
    assert!(h1.from_history);
    assert_eq!(h1.owner.as_deref(), Some("s1"));
    assert_eq!(h1.parent_message_id.as_deref(), Some("m1"));
    assert_eq!(h1.arguments().unwrap().unwrap(), json!({"q": 1}));
    assert_eq!(h1.results[0].source, ResultSource::History);
    assert_eq!(h1.results[0].content, json!("found"));
    let h2 = t.call("h2").unwrap();
    assert_eq!(h2.args_text(), "oops");
    assert!(h2.arguments().unwrap().is_err());
    assert!(h2.results.is_empty());
    // The same history again changes nothing (answers are keyed by message id).
    feed(
        &mut t,
        &[json!({"type": "MESSAGES_SNAPSHOT", "messages": history})],
    );
    assert_eq!(t.call("h1").unwrap().results.len(), 1);
    assert_eq!(t.calls().len(), 2);
    // The seeded owner binds later calls under m1.
    assert_eq!(
        fatal_code(&mut t, by("s2", start_under("c9", "f", "m1"))),
        "A2"
    );
}

#[test]
fn a5_run_input_messages_answer_pending_calls() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "confirm", "{}"));
    feed(&mut t, &[run_finished("r1")]);
    assert!(t.call("c1").unwrap().pending);
    feed(
        &mut t,
        &[
            json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r2", "input": {
            "threadId": "t1", "runId": "r2", "state": {}, "tools": [], "context": [],
            "forwardedProps": {},
            "messages": [
                {"id": "a1", "role": "assistant", "toolCalls": [
                    {"id": "c1", "type": "function", "function": {"name": "confirm", "arguments": "{}"}}]},
                {"id": "tm1", "role": "tool", "toolCallId": "c1", "content": "yes"}
            ]}}),
        ],
    );
    let c1 = t.call("c1").unwrap();
    assert!(!c1.pending);
    assert!(!c1.from_history, "the streamed call wins over history");
    assert_eq!(c1.results[0].message_id, "tm1");
}

#[test]
fn a6_null_subagent_run_id_is_fatal() {
    let mut t = running();
    let mut e = start("c1", "f");
    e["subagentRunId"] = Value::Null;
    assert_eq!(fatal_code(&mut t, e), "A6");
    assert!(t.calls().is_empty());
}

#[test]
fn a6_null_parent_message_id_reads_as_absent() {
    let mut t = running();
    let mut e = start("c1", "f");
    e["parentMessageId"] = Value::Null;
    feed(&mut t, &[e, end("c1"), start("c1", "f")]);
    assert_eq!(t.call("c1").unwrap().parent_message_id, None);
}

#[test]
fn a7_result_carries_its_own_unchecked_attribution() {
    let mut t = running();
    feed(&mut t, &[by("s1", start("c1", "f")), end("c1")]);
    feed(&mut t, &[by("s2", result("m1", "c1", "done"))]);
    let call = t.call("c1").unwrap();
    assert_eq!(call.results[0].owner.as_deref(), Some("s2"));
    assert!(t.violations().is_empty());
}
