//! Chunks: rules C1-C7.

use crate::common::*;
use agui_tool_calls::CallStatus;
use serde_json::{json, Value};

fn chunk(id: Option<&str>, name: Option<&str>, delta: &str) -> Value {
    let mut e = json!({"type": "TOOL_CALL_CHUNK", "delta": delta});
    if let Some(id) = id {
        e["toolCallId"] = json!(id);
    }
    if let Some(name) = name {
        e["toolCallName"] = json!(name);
    }
    e
}

fn text_chunk(id: Option<&str>, delta: &str) -> Value {
    let mut e = json!({"type": "TEXT_MESSAGE_CHUNK", "role": "assistant", "delta": delta});
    if let Some(id) = id {
        e["messageId"] = json!(id);
    }
    e
}

#[test]
fn c1_first_chunk_must_carry_id_and_name() {
    let mut t = running();
    assert_eq!(fatal_code(&mut t, chunk(Some("a"), None, "{}")), "C1");
    let mut t = running();
    assert_eq!(fatal_code(&mut t, chunk(None, Some("f"), "{}")), "C1");
    assert!(t.calls().is_empty());
}

#[test]
fn c2_continuation_with_conflicting_name_is_fatal() {
    let mut t = running();
    feed(&mut t, &[chunk(Some("a"), Some("f"), "{")]);
    let before = state_of(&t);
    assert_eq!(fatal_code(&mut t, chunk(Some("a"), Some("g"), "}")), "C2");
    assert_eq!(state_of(&t), before);
}

#[test]
fn c2_continuation_with_conflicting_parent_is_fatal() {
    let mut t = running();
    let mut open = chunk(Some("a"), Some("f"), "{");
    open["parentMessageId"] = json!("m1");
    feed(&mut t, &[open]);
    // Repeating the same values is fine.
    let mut same = chunk(None, Some("f"), "");
    same["parentMessageId"] = json!("m1");
    feed(&mut t, &[same]);
    let mut other = chunk(None, None, "}");
    other["parentMessageId"] = json!("m2");
    assert_eq!(fatal_code(&mut t, other), "C2");
}

#[test]
fn c3_chunks_expand_into_start_args_end() {
    let mut t = running();
    feed(
        &mut t,
        &[
            chunk(Some("a"), Some("f"), "{\"x\""),
            chunk(None, None, ":1"),
            chunk(Some("a"), None, "}"),
        ],
    );
    let a = t.call("a").unwrap();
    assert_eq!((a.status, a.args_text()), (CallStatus::Open, "{\"x\":1}"));
    // Another id closes the open chunked call and opens the new one.
    feed(&mut t, &[chunk(Some("b"), Some("g"), "")]);
    let a = t.call("a").unwrap();
    assert_eq!(a.status, CallStatus::Complete);
    assert_eq!(a.arguments().unwrap().unwrap(), json!({"x": 1}));
    let b = t.call("b").unwrap();
    assert_eq!((b.status, b.args_text()), (CallStatus::Open, ""));
}

#[test]
fn c3_opening_chunk_for_closed_call_reopens_it() {
    let mut t = running();
    feed(&mut t, &whole_call("a", "f", "{\"x\":"));
    feed(
        &mut t,
        &[chunk(Some("a"), Some("f"), "2}"), run_finished("r1")],
    );
    let a = t.call("a").unwrap();
    assert_eq!((a.reopen_count, a.args_text()), (1, "{\"x\":2}"));
    assert_eq!(a.status, CallStatus::Complete);
}

#[test]
fn c4_one_lane_per_owner() {
    let mut t = running();
    feed(
        &mut t,
        &[
            by("s1", chunk(Some("a"), Some("f"), "{\"s\":")),
            by("s2", chunk(Some("b"), Some("g"), "[")),
            by("s1", chunk(None, None, "1}")),
            by("s2", chunk(None, None, "2]")),
        ],
    );
    assert_eq!(t.call("a").unwrap().args_text(), "{\"s\":1}");
    assert_eq!(t.call("b").unwrap().args_text(), "[2]");
    assert_eq!(t.call("a").unwrap().owner.as_deref(), Some("s1"));
    // Both stay open: each lane holds its own call.
    assert!(t.calls().iter().all(|c| c.status == CallStatus::Open));
}

#[test]
fn c4_untagged_chunk_goes_to_parent_lane_else_the_only_open_one() {
    let mut t = running();
    feed(
        &mut t,
        &[
            by("s1", chunk(Some("a"), Some("f"), "[")),
            chunk(None, None, "1"),
        ],
    );
    assert_eq!(t.call("a").unwrap().args_text(), "[1");
    feed(
        &mut t,
        &[chunk(Some("p"), Some("g"), "{"), chunk(None, None, "}")],
    );
    assert_eq!(t.call("p").unwrap().args_text(), "{}");
    assert_eq!(t.call("a").unwrap().args_text(), "[1");
}

#[test]
fn c4_untagged_chunk_claimed_by_several_lanes_is_fatal() {
    let mut t = running();
    feed(
        &mut t,
        &[
            by("s1", chunk(Some("a"), Some("f"), "[")),
            by("s2", chunk(Some("b"), Some("g"), "[")),
        ],
    );
    let before = state_of(&t);
    assert_eq!(fatal_code(&mut t, chunk(None, None, "1")), "C4");
    assert_eq!(state_of(&t), before);
}

#[test]
fn c5_explicit_events_close_their_own_lane() {
    for closer in [
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
        json!({"type": "STATE_DELTA", "delta": []}),
        json!({"type": "STEP_STARTED", "stepName": "s"}),
        json!({"type": "REASONING_START", "messageId": "r"}),
        json!({"type": "CUSTOM", "name": "n", "value": 1}),
        start("other", "h"),
    ] {
        let mut t = running();
        feed(
            &mut t,
            &[
                chunk(Some("a"), Some("f"), "{}"),
                by("s1", chunk(Some("b"), Some("g"), "{}")),
            ],
        );
        feed(&mut t, std::slice::from_ref(&closer));
        assert_eq!(
            t.call("a").unwrap().status,
            CallStatus::Complete,
            "{closer}"
        );
        assert_eq!(t.call("b").unwrap().status, CallStatus::Open, "{closer}");
    }
}

#[test]
fn c5_raw_activity_and_subagent_started_close_nothing() {
    for passive in [
        json!({"type": "RAW", "event": {}}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "x", "activityType": "a", "content": {}}),
        by("s9", json!({"type": "SUBAGENT_STARTED", "name": "n"})),
    ] {
        let mut t = running();
        feed(
            &mut t,
            &[chunk(Some("a"), Some("f"), "{}"), passive.clone()],
        );
        assert_eq!(t.call("a").unwrap().status, CallStatus::Open, "{passive}");
    }
}

#[test]
fn c5_subagent_finished_closes_that_subagents_lane() {
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "n"}),
            chunk(Some("a"), Some("f"), "{}"),
            by("s1", chunk(Some("b"), Some("g"), "{}")),
            by("s1", json!({"type": "SUBAGENT_FINISHED"})),
        ],
    );
    assert_eq!(t.call("a").unwrap().status, CallStatus::Open);
    assert_eq!(t.call("b").unwrap().status, CallStatus::Complete);
}

#[test]
fn c5_messages_snapshot_closes_every_lane() {
    let mut t = running();
    feed(
        &mut t,
        &[
            chunk(Some("a"), Some("f"), "{}"),
            by("s1", chunk(Some("b"), Some("g"), "{}")),
            json!({"type": "MESSAGES_SNAPSHOT", "messages": []}),
        ],
    );
    assert!(t.calls().iter().all(|c| c.status == CallStatus::Complete));
}

#[test]
fn c5_explicit_args_after_chunk_find_the_call_closed() {
    let mut t = running();
    feed(&mut t, &[chunk(Some("a"), Some("f"), "{")]);
    assert_eq!(fatal_code(&mut t, args("a", "}")), "T1");
}

#[test]
fn c6_chunk_whose_owner_disagrees_with_the_lane_holding_its_id_is_fatal() {
    let mut t = running();
    feed(&mut t, &[by("s1", chunk(Some("a"), Some("f"), "{"))]);
    let before = state_of(&t);
    assert_eq!(
        fatal_code(&mut t, by("s2", chunk(Some("a"), None, "}"))),
        "C6"
    );
    assert_eq!(state_of(&t), before);
}

#[test]
fn c7_text_chunks_record_owner_and_close_the_lane() {
    let mut t = running();
    feed(
        &mut t,
        &[
            by("s1", chunk(Some("a"), Some("f"), "{}")),
            by("s1", text_chunk(Some("m1"), "hello")),
            text_chunk(None, " world"),
        ],
    );
    // The text chunk closed s1's chunked call.
    assert_eq!(t.call("a").unwrap().status, CallStatus::Complete);
    // m1 belongs to s1 (A1 through a text chunk): a parent-agent call under it is fatal.
    let mut call = start("c", "g");
    call["parentMessageId"] = json!("m1");
    assert_eq!(fatal_code(&mut t, by("s2", call)), "A2");
}

#[test]
fn c7_first_text_chunk_without_message_id_is_fatal() {
    let mut t = running();
    assert_eq!(fatal_code(&mut t, text_chunk(None, "hi")), "C7");
}
