//! Opaque payloads (rules S4, F5, T9): result content, a run's `result`,
//! interrupts, history message content and run input `state` are kept as
//! the text given (key order, number spelling) and never refused for their
//! depth or their numbers' range. Events are JSON text here: `serde_json`
//! values could not spell `1e400` or keep `-0`.

use crate::common::*;
use agui_tool_calls::events::{to_json, Opaque};
use agui_tool_calls::{Outcome, Tracker};

/// Content that `serde_json::Value` would rewrite or refuse: keys out of
/// order, `-0`, an integer above 2^53, one above u64, `1e400` (in a text
/// part's `metadata`, which the schema leaves open).
const AWKWARD: &str = r#"[{"text":"x","type":"text","metadata":{"z":1,"a":-0,"big":9007199254740993,"huge":123456789012345678901234567890,"inf":1e400,"f":1.50}}]"#;

/// Content holding one text part whose `metadata` is [`nested`].
fn nested_part(depth: usize) -> String {
    format!(
        r#"[{{"type":"text","text":"x","metadata":{}}}]"#,
        nested(depth)
    )
}

/// `[[[ ... "x" ... ]]]`, `depth` arrays deep.
fn nested(depth: usize) -> String {
    format!("{}\"x\"{}", "[".repeat(depth), "]".repeat(depth))
}

fn push_text(t: &mut Tracker, text: &str) {
    if let Err(v) = t.push_json(text) {
        panic!("refused: {v}");
    }
}

fn completed_c1() -> Tracker {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    t
}

fn result_with(content: &str) -> String {
    format!(
        r#"{{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":{content}}}"#
    )
}

#[test]
fn s4_result_content_is_kept_byte_exact() {
    let mut t = completed_c1();
    push_text(&mut t, &result_with(AWKWARD));
    assert_eq!(t.calls()[0].results[0].content.get(), AWKWARD);
}

#[test]
fn s4_deep_result_content_is_kept_not_refused() {
    for depth in [123, 129, 10_000] {
        let mut t = completed_c1();
        let content = nested_part(depth);
        push_text(&mut t, &result_with(&content));
        assert_eq!(t.calls()[0].results[0].content.get(), content);
    }
}

#[test]
fn s4_deep_unread_fields_do_not_overflow_the_stack() {
    // 100,000 levels: skipped without recursion, and valid JSON.
    let mut t = Tracker::new(Default::default());
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    push_text(
        &mut t,
        &format!(r#"{{"type":"RUN_STARTED","threadId":"t","runId":"r","x":{deep}}}"#),
    );
    push_text(
        &mut t,
        &format!(r#"{{"type":"CUSTOM","name":"n","value":{deep}}}"#),
    );
}

#[test]
fn s4_run_input_state_and_forwarded_props_are_skipped_whatever_they_hold() {
    let mut t = Tracker::new(Default::default());
    let deep = nested(500);
    push_text(
        &mut t,
        &format!(
            r#"{{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{{"threadId":"t","runId":"r",
              "state":{{"n":1e400,"deep":{deep}}},"forwardedProps":{AWKWARD},"messages":[],"tools":[]}}}}"#
        ),
    );
    feed(&mut t, &[run_finished("r")]);
    t.start_run_json(&format!(
        r#"{{"threadId":"t","runId":"r2","state":{deep},"forwardedProps":{{"x":1e400}},"messages":[]}}"#
    ))
    .unwrap();
}

#[test]
fn s4_history_message_content_is_kept_byte_exact() {
    let mut t = running();
    let deep = nested(300);
    push_text(
        &mut t,
        &format!(
            r#"{{"type":"MESSAGES_SNAPSHOT","messages":[
              {{"id":"a","role":"assistant","content":{deep},"toolCalls":[{{"id":"h1","type":"function",
                "function":{{"name":"f","arguments":"{{}}"}}}}]}},
              {{"id":"tm","role":"tool","toolCallId":"h1","content":{AWKWARD}}}]}}"#
        ),
    );
    assert_eq!(t.call("h1").unwrap().results[0].content.get(), AWKWARD);
}

#[test]
fn l7_run_result_and_interrupts_are_kept_byte_exact() {
    let mut t = running();
    push_text(
        &mut t,
        &format!(
            r#"{{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","result":{AWKWARD},
              "outcome":{{"type":"interrupt","interrupts":[
                {{"id":"i1","reason":"r","metadata":{{"m":{AWKWARD}}},"responseSchema":{{"s":{}}},"extra":{AWKWARD}}}]}}}}"#,
            nested(200)
        ),
    );
    assert_eq!(t.run().result.as_ref().unwrap().get(), AWKWARD);
    match &t.run().outcome {
        Some(Outcome::Interrupt { interrupts }) => {
            let i = &interrupts[0];
            assert_eq!(
                i.metadata.as_ref().unwrap().get(),
                format!(r#"{{"m":{AWKWARD}}}"#)
            );
            assert_eq!(
                i.response_schema.as_ref().unwrap().get(),
                format!(r#"{{"s":{}}}"#, nested(200))
            );
            // Stripped (rule P2): see rules_interrupts.rs.
            assert!(!agui_tool_calls::events::to_json(i).contains("extra"));
        }
        other => panic!("not an interrupt: {other:?}"),
    }
}

#[test]
fn f5_the_application_answer_is_kept_byte_exact_at_any_depth() {
    let mut t = completed_c1();
    feed(&mut t, &[run_finished("r1")]);
    let deep = nested_part(1_000);
    t.answer("c1", Opaque::from_json(&deep).unwrap(), "m1")
        .unwrap();
    let message = to_json(&t.tool_messages()[0]);
    assert_eq!(
        message,
        format!(r#"{{"id":"m1","role":"tool","toolCallId":"c1","content":{deep}}}"#)
    );
    let mut t = completed_c1();
    feed(&mut t, &[run_finished("r1")]);
    t.answer("c1", Opaque::from_json(AWKWARD).unwrap(), "m1")
        .unwrap();
    assert_eq!(t.tool_messages()[0].content.get(), AWKWARD);
    // What goes back in the next run's input is accepted as it came out.
    let input = format!(
        r#"{{"threadId":"t","runId":"r2","messages":[{}]}}"#,
        to_json(&t.tool_messages()[0])
    );
    t.start_run_json(&input).unwrap();
}

#[test]
fn e2_only_valid_json_is_read() {
    // The checks `serde_json` made while building values still apply to
    // the whole event, opaque parts included.
    for (text, expected) in [
        (
            "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"a\u{1}\"}",
            "control character",
        ),
        (
            r#"{"type":"RUN_ERROR","message":"m",}"#,
            "key must be a string",
        ),
        (r#"{"type":"RUN_ERROR","message":"\x"}"#, "invalid escape"),
        (r#"{"type":"CUSTOM","value":[1,2}"#, "expected"),
        (r#"{"type":"CUSTOM","value":01}"#, "invalid number"),
        (
            r#"{"type":"RUN_ERROR","message":"m"} x"#,
            "trailing characters",
        ),
        (r#"{"type":"RUN_ERROR","message":"m""#, "EOF"),
        (r#"{"type":"RUN_ERROR","message":"m","#, "EOF"),
    ] {
        let mut t = completed_c1();
        let v = t.push_json(text).unwrap_err();
        assert_eq!(v.code, "E2", "{text}");
        assert!(v.message.contains(expected), "{text}: {}", v.message);
        assert!(v.message.contains("invalid JSON"), "{}", v.message);
    }
    let mut t = running();
    let v = t.push_json("[1]").unwrap_err();
    assert!(
        v.message.ends_with("not an event object: found an array"),
        "{}",
        v.message
    );
}
