//! Lone surrogate escapes (rules E2, T4): valid JSON, and what
//! `JSON.stringify` writes for a JS string cut inside a surrogate pair.
//! Events are written as JSON text here, since `serde_json` cannot hold a
//! lone surrogate in a value.

use crate::common::*;
use agui_tool_calls::{CallStatus, Options, Tracker};
use serde_json::json;

/// `TOOL_CALL_ARGS` for call `c1`, the delta given as the inside of a JSON
/// string literal (escapes as written).
fn args_text(delta_literal: &str) -> String {
    format!(r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{delta_literal}"}}"#)
}

fn push_all(t: &mut Tracker, events: &[String]) {
    for (i, e) in events.iter().enumerate() {
        if let Err(v) = t.push_json(e) {
            panic!("event {i} refused: {v}");
        }
    }
}

fn open_c1() -> Tracker {
    let mut t = running();
    feed(&mut t, &[start("c1", "f")]);
    t
}

#[test]
fn t4_a_surrogate_pair_split_across_deltas_is_joined() {
    let mut t = open_c1();
    push_all(&mut t, &[args_text(r#"{\"q\":\"a\ud83d"#)]);
    // The high half waits for its pair: the text never holds half a char.
    assert_eq!(t.calls()[0].args_text(), r#"{"q":"a"#);
    let call = &t.calls()[0];
    let partial = call.partial().unwrap();
    assert_eq!(
        format!("{}{}", &call.args_text()[..partial.cut], partial.suffix),
        r#"{"q":"a"}"#
    );
    push_all(&mut t, &[args_text(r#"\ude00b\"}"#), end("c1").to_string()]);
    let call = &t.calls()[0];
    assert_eq!(call.args_text(), "{\"q\":\"a\u{1F600}b\"}");
    assert_eq!(
        call.arguments().unwrap().unwrap(),
        json!({"q": "a\u{1F600}b"})
    );
    assert!(t.violations().is_empty());
}

#[test]
fn t4_a_pair_split_with_each_half_alone_in_its_delta() {
    let mut t = open_c1();
    push_all(
        &mut t,
        &[
            args_text(r#"[\""#),
            args_text(r"\ud83d"),
            args_text(r"\ude00"),
            args_text(r#"\"]"#),
            end("c1").to_string(),
        ],
    );
    assert_eq!(
        t.calls()[0].arguments().unwrap().unwrap(),
        json!(["\u{1F600}"])
    );
}

#[test]
fn t4_a_pair_split_across_tool_call_chunks_is_joined() {
    let mut t = running();
    push_all(
        &mut t,
        &[
            r#"{"type":"TOOL_CALL_CHUNK","toolCallId":"c1","toolCallName":"f","delta":"[\"\ud83d"}"#
                .to_owned(),
            r#"{"type":"TOOL_CALL_CHUNK","delta":"\ude00\"]"}"#.to_owned(),
            run_finished("r1").to_string(),
        ],
    );
    let call = &t.calls()[0];
    assert_eq!(call.status, CallStatus::Complete);
    assert_eq!(call.args_text(), "[\"\u{1F600}\"]");
}

#[test]
fn t4_a_half_left_alone_becomes_a_replacement_character() {
    let mut t = open_c1();
    push_all(
        &mut t,
        &[
            // A high half not followed by a low one...
            args_text(r#"[\"\ud83d"#),
            args_text(r#"x\",\""#),
            // ...a low half with no high one before it...
            args_text(r#"\ude00\",\"\ud800"#),
            // ...and a high half still waiting at the end.
            end("c1").to_string(),
        ],
    );
    assert_eq!(
        t.calls()[0].args_text(),
        "[\"\u{FFFD}x\",\"\u{FFFD}\",\"\u{FFFD}"
    );
}

#[test]
fn t4_text_changes_report_the_joined_character_once() {
    let mut t = open_c1();
    let _ = t.take_changes();
    let mut seen = String::new();
    for delta in [r#"\"\ud83d"#, r"\ude00\ud83d", r#"\ude01\""#] {
        push_all(&mut t, &[args_text(delta)]);
        for change in t.take_changes().calls {
            assert_eq!(change.text_from, seen.len());
            seen.push_str(&t.calls()[change.index].args_text()[change.text_from..]);
        }
    }
    assert_eq!(seen, "\"\u{1F600}\u{1F601}\"");
}

#[test]
fn e2_lone_surrogates_elsewhere_read_as_replacement_characters() {
    let mut t = Tracker::new(Options::default());
    push_all(
        &mut t,
        &[
            r#"{"type":"RUN_STARTED","threadId":"t\ud800","runId":"r\udc00"}"#.to_owned(),
            r#"{"type":"TOOL_CALL_START","toolCallId":"c\ud83d","toolCallName":"\ude00f","parentMessageId":"m\ud800x"}"#.to_owned(),
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\ud800x","delta":"\ud83d"}"#.to_owned(),
            r#"{"type":"CUSTOM","name":"n","value":{"\udc00":"\ud800"},"\ud800":1}"#.to_owned(),
            r#"{"type":"TOOL_CALL_END","toolCallId":"c\ud83d"}"#.to_owned(),
            r#"{"type":"TOOL_CALL_RESULT","messageId":"tm\ud800","toolCallId":"c\ud83d","content":"ok"}"#.to_owned(),
        ],
    );
    let call = t.call("c\u{FFFD}").expect("the id reads with U+FFFD");
    assert_eq!(call.name, "\u{FFFD}f");
    assert_eq!(call.parent_message_id.as_deref(), Some("m\u{FFFD}x"));
    assert_eq!(call.results[0].message_id, "tm\u{FFFD}");
    assert_eq!(t.run().thread_id.as_deref(), Some("t\u{FFFD}"));
    assert!(t.violations().is_empty(), "{:?}", t.violations());
}

#[test]
fn e2_lone_surrogates_in_history_and_run_input_are_not_fatal() {
    let mut t = running();
    push_all(
        &mut t,
        &[r#"{"type":"MESSAGES_SNAPSHOT","messages":[
            {"id":"a\ud800","role":"assistant","toolCalls":[{"id":"h\udc00","type":"function",
              "function":{"name":"f","arguments":"[\"\ud83d\"]"}}]},
            {"id":"tm","role":"tool","toolCallId":"h\udc00","content":"\ud800"}]}"#
            .to_owned()],
    );
    let call = t.call("h\u{FFFD}").unwrap();
    assert_eq!(call.args_text(), "[\"\u{FFFD}\"]");
    // Opaque content keeps the escape as given.
    assert_eq!(call.results[0].content.get(), r#""\ud800""#);
    feed(&mut t, &[run_finished("r1")]);
    t.start_run_json(
        r#"{"threadId":"t","runId":"r2","messages":[{"id":"u","role":"user","content":"\udc00"}],"state":"\ud800"}"#,
    )
    .unwrap();
}

#[test]
fn e2_lone_surrogates_in_a_tool_schema_read_as_replacement_characters() {
    let mut t = Tracker::new(Options::default());
    push_all(
        &mut t,
        &[
            r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"messages":[],"tools":[
              {"name":"f","description":"\ud800","parameters":{"type":"object","description":"a\udc00",
               "properties":{"q\ud800":{"type":"string","const":"\ud83d"}}}}]}}"#
                .to_owned(),
            r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#.to_owned(),
            args_text(r#"{\"q\ufffd\":\"\ufffd\"}"#),
            end("c1").to_string(),
        ],
    );
    let tool = t.tool("f").unwrap();
    assert_eq!(tool.description, "\u{FFFD}");
    assert_eq!(
        tool.parameters.get("description").and_then(|d| d.as_str()),
        Some("a\u{FFFD}")
    );
    assert_eq!(t.calls()[0].validation, agui_tool_calls::Validation::Valid);
    // Schemas are read as values: nesting stays bounded (E2), as before.
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let mut t = Tracker::new(Options::default());
    let v = t
        .push_json(&format!(
            r#"{{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{{"tools":[{{"name":"f","parameters":{deep}}}]}}}}"#
        ))
        .unwrap_err();
    assert_eq!(v.code, "E2");
    assert!(
        v.message.contains("nests deeper than 128 levels"),
        "{}",
        v.message
    );
}

/// Pushes `event` (JSON text) and says whether anything changed: the
/// version, the changes taken, the retained bytes.
fn changed_by(t: &mut Tracker, event: &str) -> (bool, bool, bool) {
    let _ = t.take_changes();
    let (version, retained) = (t.version(), t.retained_bytes());
    push_all(t, &[event.to_owned()]);
    (
        t.version() != version,
        !t.take_changes().is_empty(),
        t.retained_bytes() != retained,
    )
}

#[test]
fn t4_a_delta_of_only_a_held_high_surrogate_changes_nothing() {
    let mut t = open_c1();
    push_all(&mut t, &[args_text(r#"[\""#)]);
    // Nothing to show until the pair is whole: no version, no change.
    assert_eq!(
        changed_by(&mut t, &args_text(r"\ud83d")),
        (false, false, false)
    );
    assert_eq!(t.calls()[0].args_text(), "[\"");
    // The low half brings the character: everything moves.
    assert_eq!(
        changed_by(&mut t, &args_text(r"\ude00")),
        (true, true, true)
    );
    assert_eq!(t.calls()[0].args_text(), "[\"\u{1F600}");
}

#[test]
fn t4_an_empty_delta_changes_nothing() {
    let mut t = open_c1();
    push_all(&mut t, &[args_text("[")]);
    assert_eq!(changed_by(&mut t, &args_text("")), (false, false, false));
    // Nor does it let a held high half go: the pair still joins after it.
    push_all(&mut t, &[args_text(r#"\"\ud83d"#)]);
    assert_eq!(changed_by(&mut t, &args_text("")), (false, false, false));
    push_all(&mut t, &[args_text(r#"\ude00\"]"#), end("c1").to_string()]);
    assert_eq!(t.calls()[0].args_text(), "[\"\u{1F600}\"]");
}
