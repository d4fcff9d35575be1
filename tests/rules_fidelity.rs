//! Rule F10: what a call or an assistant message carries for its producer
//! alone (`encryptedValue`, `encryptedValueType`, `metadata`) is kept as
//! the stream or history delivered it, for the next history.

use crate::common::*;
use agui_tool_calls::{Kept, Limits, Options, RunStatus, Tracker};
use serde_json::{json, Value};

/// What call `id` keeps, as JSON texts (absent: `None`).
fn call_kept(t: &Tracker, id: &str) -> [Option<String>; 3] {
    texts(&t.call(id).unwrap().kept)
}

fn texts(k: &Kept) -> [Option<String>; 3] {
    [&k.encrypted_value, &k.encrypted_value_type, &k.metadata]
        .map(|o| o.as_ref().map(|o| o.get().to_owned()))
}

fn message_kept(t: &Tracker, id: &str) -> Option<[Option<String>; 3]> {
    t.kept_messages()
        .iter()
        .find(|(m, _)| m == id)
        .map(|(_, k)| texts(k))
}

/// What a field keeps: this JSON text.
#[allow(clippy::unnecessary_wraps)]
fn some(text: &str) -> Option<String> {
    Some(text.to_owned())
}

fn with(mut event: Value, key: &str, value: Value) -> Value {
    event[key] = value;
    event
}

fn encrypted(subtype: &str, entity: &str, value: &str) -> Value {
    json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": subtype, "entityId": entity, "encryptedValue": value})
}

#[test]
fn f10_a_calls_metadata_merges_from_its_events_last_write_wins_without_recursing() {
    let mut t = running();
    feed(
        &mut t,
        &[
            with(
                start("c1", "f"),
                "metadata",
                json!({"a": 1, "b": {"x": 1}, "2": "two"}),
            ),
            with(
                args("c1", "{"),
                "metadata",
                json!({"b": {"y": 2}, "c": [3], "1": "one"}),
            ),
            args("c1", "}"),
            with(end("c1"), "metadata", json!({"a": null})),
        ],
    );
    // `{...kept, ...incoming}`: each key where first seen, with its last
    // value (`json!` writes keys sorted).
    assert_eq!(
        call_kept(&t, "c1"),
        [
            None,
            None,
            some(r#"{"2":"two","a":null,"b":{"y":2},"1":"one","c":[3]}"#)
        ]
    );
    // Chunks: the opening chunk's, and a continuation carrying metadata alone.
    feed(
        &mut t,
        &[
            json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "k1", "toolCallName": "f", "delta": "{", "metadata": {"usage": 1}}),
            json!({"type": "TOOL_CALL_CHUNK", "metadata": {"usage": 2, "finish": "stop"}}),
            json!({"type": "TOOL_CALL_CHUNK", "delta": "}"}),
            run_finished("r1"),
        ],
    );
    assert_eq!(
        call_kept(&t, "k1")[2],
        some(r#"{"usage":2,"finish":"stop"}"#)
    );
    assert_eq!(t.call("k1").unwrap().args_text(), "{}");
    // A repeated key in one object keeps its first place and its last value.
    feed(&mut t, &[run_started("r2"), start("c2", "f")]);
    t.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"c2","metadata":{"z":1,"y":2,"z":3}}"#)
        .unwrap();
    t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c3","toolCallName":"f","metadata":{"z":1,"y":2,"z":3}}"#)
        .unwrap();
    t.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"c3","metadata":{"q":0}}"#)
        .unwrap();
    assert_eq!(call_kept(&t, "c3")[2], some(r#"{"z":3,"y":2,"q":0}"#));
    assert_eq!(codes(&t), ["F7", "F7"], "no warning about metadata");
}

#[test]
fn f10_an_encrypted_value_is_stored_with_the_call_or_message_it_names() {
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "a1"}),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": "a1"}),
            end("c1"),
            with(
                encrypted("tool-call", "c1", "sig-1"),
                "encryptedValueType",
                json!("anthropic.signature"),
            ),
            encrypted("message", "a1", "blob"),
        ],
    );
    assert_eq!(
        call_kept(&t, "c1"),
        [some(r#""sig-1""#), some(r#""anthropic.signature""#), None]
    );
    assert_eq!(
        message_kept(&t, "a1"),
        Some([some(r#""blob""#), None, None])
    );
    // A new value replaces the old with its type; none removes the old type.
    feed(&mut t, &[encrypted("tool-call", "c1", "sig-2")]);
    assert_eq!(call_kept(&t, "c1")[..2], [some(r#""sig-2""#), None]);
    // Kept byte for byte: never read, never re-encoded.
    t.push_json(r#"{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c1","encryptedValue":"\ud800\u0041"}"#)
        .unwrap();
    assert_eq!(call_kept(&t, "c1")[0], some(r#""\ud800\u0041""#));
    assert!(t.violations().is_empty(), "{:?}", t.violations());
    // A call never seen: a warning, dropped; a message the tracker does not
    // hold (a reasoning message): none of its business; an unknown subtype:
    // the event is removed (rule P1). None fails the run.
    let before = state_of(&t);
    feed(
        &mut t,
        &[
            encrypted("tool-call", "nope", "x"),
            encrypted("message", "reasoning-1", "x"),
            encrypted("hologram", "c1", "x"),
        ],
    );
    assert_eq!(state_of(&t), before);
    assert_eq!(message_kept(&t, "reasoning-1"), None);
    assert_eq!(codes(&t), ["F10", "P1"]);
    assert_eq!(
        t.violations()[1].message,
        r#"subtype "hologram" is not one 1.1 describes: event removed"#
    );
    feed(&mut t, &[run_finished("r1")]);
    assert_eq!(t.run().status, RunStatus::Finished);
}

#[test]
fn f10_a_malformed_encrypted_value_is_fatal_naming_the_field() {
    for (event, message) in [
        (
            json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "c1"}),
            r#"REASONING_ENCRYPTED_VALUE: missing field "encryptedValue""#,
        ),
        (
            with(
                encrypted("tool-call", "c1", "x"),
                "encryptedValue",
                json!(5),
            ),
            r#"REASONING_ENCRYPTED_VALUE: field "encryptedValue" must be a string"#,
        ),
        (
            json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": 5, "entityId": "c1", "encryptedValue": "x"}),
            r#"REASONING_ENCRYPTED_VALUE: field "subtype" must be a string"#,
        ),
        (
            with(
                encrypted("tool-call", "c1", "x"),
                "encryptedValueType",
                json!(1),
            ),
            r#"REASONING_ENCRYPTED_VALUE: field "encryptedValueType" must be a string"#,
        ),
    ] {
        let mut t = running();
        let v = push(&mut t, event).unwrap_err();
        assert_eq!((v.code, v.message.as_str()), ("E2", message));
    }
}

#[test]
fn p3_an_event_metadata_that_is_not_an_object_is_fatal() {
    for metadata in [json!("x"), json!(null), json!([1]), json!(5)] {
        for event in [
            start("c1", "f"),
            json!({"type": "CUSTOM", "name": "n", "value": 1}),
        ] {
            let mut t = running();
            let v = push(&mut t, with(event, "metadata", metadata.clone())).unwrap_err();
            assert_eq!(v.code, "E2");
            assert!(
                v.message.ends_with(r#"field "metadata" must be an object"#),
                "{}",
                v.message
            );
        }
    }
}

#[test]
fn f10_an_encrypted_value_closes_no_chunk_lane() {
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "k1", "toolCallName": "f", "delta": "{\"a\":"}),
            encrypted("tool-call", "k1", "sig"),
            json!({"type": "TOOL_CALL_CHUNK", "delta": "1}"}),
            run_finished("r1"),
        ],
    );
    let call = t.call("k1").unwrap();
    assert_eq!(call.args_text(), r#"{"a":1}"#);
    assert_eq!(
        call.kept.encrypted_value.as_ref().unwrap().get(),
        r#""sig""#
    );
}

#[test]
fn f10_text_events_metadata_is_the_messages() {
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant", "metadata": {"m": 1}}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": "Hi", "metadata": {"m": 2, "n": 1}}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "a1", "metadata": {"done": true}}),
            json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "a2", "delta": "x", "metadata": {"k": 1}}),
            json!({"type": "TEXT_MESSAGE_CHUNK", "metadata": {"k": 2}}),
            // A message nothing opened keeps nothing.
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "zz", "delta": "x", "metadata": {"k": 1}}),
        ],
    );
    assert_eq!(
        message_kept(&t, "a1"),
        Some([None, None, some(r#"{"m":2,"n":1,"done":true}"#)])
    );
    assert_eq!(
        message_kept(&t, "a2"),
        Some([None, None, some(r#"{"k":2}"#)])
    );
    assert_eq!(message_kept(&t, "zz"), None);
}

fn history(call: Value, message: Value) -> Value {
    let mut assistant = json!({"id": "a1", "role": "assistant", "toolCalls": [call]});
    for (k, v) in message.as_object().unwrap() {
        assistant[k] = v.clone();
    }
    json!({"threadId": "t1", "runId": "r1", "messages": [{"id": "u1", "role": "user", "content": "hi"}, assistant]})
}

#[test]
fn f10_history_carries_what_calls_and_assistant_messages_keep() {
    let call = json!({"id": "h1", "type": "function", "function": {"name": "f", "arguments": "{}"},
        "encryptedValue": "sig", "encryptedValueType": "t", "metadata": {"k": [1]}});
    let saved = history(
        call.clone(),
        json!({"encryptedValue": "blob", "metadata": {"m": 1}}),
    );
    let mut t = Tracker::new(Options::default());
    t.restore_json(&saved.to_string()).unwrap();
    assert_eq!(
        call_kept(&t, "h1"),
        [some(r#""sig""#), some(r#""t""#), some(r#"{"k":[1]}"#)]
    );
    assert_eq!(
        message_kept(&t, "a1"),
        Some([some(r#""blob""#), None, some(r#"{"m":1}"#)])
    );
    // A run input (the application's own history) does not replace what
    // the tracker holds.
    let bare =
        json!({"id": "h1", "type": "function", "function": {"name": "f", "arguments": "{}"}});
    let mut input = history(bare.clone(), json!({}));
    input["messages"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "m1", "role": "tool", "toolCallId": "h1", "content": "ok"}));
    t.start_run_json(&input.to_string()).unwrap();
    assert_eq!(call_kept(&t, "h1")[0], some(r#""sig""#));
    assert_eq!(message_kept(&t, "a1").unwrap()[0], some(r#""blob""#));
    // A MESSAGES_SNAPSHOT restating them replaces it: an artefact it omits
    // is withdrawn.
    feed(&mut t, &[run_started("r2")]);
    let snapshot = json!({"type": "MESSAGES_SNAPSHOT", "messages": history(with(bare, "metadata", json!({"new": 1})), json!({}))["messages"]});
    feed(&mut t, &[snapshot]);
    assert_eq!(call_kept(&t, "h1"), [None, None, some(r#"{"new":1}"#)]);
    assert_eq!(message_kept(&t, "a1"), Some([None, None, None]));
    // Malformed: named.
    let bad = history(with(call, "encryptedValue", json!(1)), json!({}));
    let err = Tracker::new(Options::default())
        .restore_json(&bad.to_string())
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"field "messages[1].toolCalls[0].encryptedValue" must be a string"#),
        "{err}"
    );
}

#[test]
fn s5_what_calls_and_messages_keep_counts_towards_the_thread_budget() {
    let options = || Options {
        limits: Limits {
            max_thread_bytes: 64 << 10,
            ..Limits::default()
        },
        ..Options::default()
    };
    // One merge keeps the merged object anew: repeated metadata is charged
    // every time, so the work of merging is bounded by the budget too.
    let mut t = Tracker::new(options());
    feed(
        &mut t,
        &[
            run_started("r1"),
            with(
                start("c1", "f"),
                "metadata",
                json!({"pad": "x".repeat(4_000)}),
            ),
        ],
    );
    let mut refused = None;
    for n in 0..100 {
        if let Err(v) = push(&mut t, with(args("c1", "1"), "metadata", json!({"n": n}))) {
            refused = Some((n, v));
            break;
        }
    }
    let (n, v) = refused.expect("the budget stops the merges");
    assert!(n > 5, "{n}");
    assert_eq!(v.code, "S5");
    // An encrypted value too large for the thread.
    let mut t = Tracker::new(options());
    feed(&mut t, &[run_started("r1"), start("c1", "f")]);
    let v = push(&mut t, encrypted("tool-call", "c1", &"x".repeat(70 << 10))).unwrap_err();
    assert_eq!(v.code, "S5");
    assert!(t.call("c1").unwrap().kept.is_empty());
}
