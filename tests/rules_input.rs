//! Input: rules E2, E3, and the tracker's limits (S5).

use crate::common::*;
use agui_tool_calls::args::ArgsErrorKind;
use agui_tool_calls::{CallStatus, Limits, Options, Severity, Tracker};
use serde_json::json;

fn refused_as_e2(t: &mut Tracker, text: &str) -> String {
    let v = t.push_json(text).unwrap_err();
    assert_eq!(v.code, "E2", "{v}");
    v.message
}

#[test]
fn e2_wrong_type_names_event_index_and_field() {
    let mut t = running();
    feed(
        &mut t,
        &[start("c1", "f"), args("c1", "{"), args("c1", "}")],
    );
    let m = refused_as_e2(
        &mut t,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":5}"#,
    );
    assert_eq!(m, r#"TOOL_CALL_ARGS: field "delta" must be a string"#);
    assert_eq!(t.fatal().unwrap().event_index, 4);
}

#[test]
fn e2_missing_required_field() {
    let mut t = running();
    let m = refused_as_e2(&mut t, r#"{"type":"TOOL_CALL_START","toolCallId":"c1"}"#);
    assert_eq!(m, r#"TOOL_CALL_START: missing field "toolCallName""#);
    let mut t = running();
    let m = refused_as_e2(
        &mut t,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c"}"#,
    );
    assert!(m.contains("\"content\""), "{m}");
}

#[test]
fn e2_not_an_object_or_no_string_type() {
    for text in [
        "[1,2]",
        "\"x\"",
        "nul",
        "{}",
        r#"{"type":7}"#,
        r#"{"type":"RUN_STARTED"} x"#,
    ] {
        let mut t = Tracker::new(Options::default());
        let v = t.push_json(text).unwrap_err();
        assert_eq!((v.code, v.event_index), ("E2", 0), "{text}: {v}");
    }
}

#[test]
fn e2_nested_payload_errors_name_the_path() {
    let mut t = running();
    let m = refused_as_e2(
        &mut t,
        r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","function":{"name":3,"arguments":""}}]}]}"#,
    );
    assert!(
        m.contains(r#""messages[0].toolCalls[0].function.name""#),
        "{m}"
    );
}

#[test]
fn e2_errors_carry_the_field_path_as_data() {
    // Top-level fields, nested payload fields, and the value as a whole.
    for (text, path) in [
        (
            r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":5}"#,
            Some("delta"),
        ),
        (
            r#"{"type":"TOOL_CALL_START","toolCallId":"c1"}"#,
            Some("toolCallName"),
        ),
        (r#"{"type":7}"#, Some("type")),
        (r#"{"toolCallId":"c1"}"#, Some("type")),
        (
            r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","timestamp":1.5}"#,
            Some("timestamp"),
        ),
        (
            r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","function":{"name":3,"arguments":""}}]}]}"#,
            Some("messages[0].toolCalls[0].function.name"),
        ),
        (
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[]}}"#,
            Some("outcome.interrupts"),
        ),
        ("[1,2]", None),
        ("nul", None),
    ] {
        let mut t = running();
        let v = t.push_json(text).unwrap_err();
        assert_eq!((v.code, v.path.as_deref()), ("E2", path), "{text}: {v}");
        // The path is the one the message names, not parsed from it.
        if let Some(p) = path {
            assert!(v.message.contains(&format!("\"{p}\"")), "{}", v.message);
        }
    }
    let mut t = Tracker::new(Options::default());
    let v = t
        .push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"messages":[{"role":"user"}]}}"#)
        .unwrap_err();
    assert_eq!(v.path.as_deref(), Some("input.messages[0].id"));
}

#[test]
fn e2_violations_past_the_reader_name_the_field_at_fault() {
    let mut t = running();
    // T2: an END for no open call: the toolCallId.
    let v = t
        .push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"nope"}"#)
        .unwrap_err();
    assert_eq!((v.code, v.path.as_deref()), ("T2", Some("toolCallId")));
    // E3: an unknown type; P2: a property 1.0 does not describe, by its path.
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "SOMETHING_NEW"}),
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "success", "vendor": 1}}),
        ],
    );
    let paths: Vec<_> = t
        .violations()
        .iter()
        .map(|v| (v.code, v.path.as_deref()))
        .collect();
    assert_eq!(
        paths,
        [("E3", Some("type")), ("P2", Some("outcome.vendor"))]
    );
    // L2: the event as a whole is out of place: no one field is at fault.
    let mut t = running();
    let v = t
        .push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r2"}"#)
        .unwrap_err();
    assert_eq!((v.code, v.path.as_deref()), ("L2", None));
}

#[test]
fn e2_keys_in_any_order_and_unknown_fields_tolerated() {
    let mut t = Tracker::new(Options::default());
    feed(
        &mut t,
        &[
            json!({"runId": "r1", "extra": {"deep": [1, {"x": null}]}, "threadId": "t1", "type": "RUN_STARTED"}),
        ],
    );
    t.push_json(r#"{"toolCallName":"f","timestamp":12,"toolCallId":"c\"1","type":"TOOL_CALL_START","rawEvent":{}}"#)
        .unwrap();
    assert_eq!(t.calls()[0].id, "c\"1");
}

#[test]
fn e3_unknown_event_type_is_warning_and_passed_over() {
    let mut t = running();
    feed(
        &mut t,
        &[json!({"type": "SOMETHING_NEW", "x": 1}), start("c1", "f")],
    );
    assert_eq!(codes(&t), ["E3"]);
    assert_eq!(t.violations()[0].severity, Severity::Warning);
    assert_eq!(t.calls().len(), 1);
}

#[test]
fn e3_repeats_of_one_unknown_type_are_one_warning_with_a_count() {
    let mut t = running();
    let mut events = vec![json!({"type": "SOMETHING_NEW"}); 500];
    events.push(json!({"type": "SOMETHING_ELSE"}));
    events.push(json!({"type": "SOMETHING_NEW"}));
    feed(&mut t, &events);
    assert_eq!(codes(&t), ["E3", "E3"]);
    let counts: Vec<(usize, u64)> = t
        .violations()
        .iter()
        .map(|v| (v.event_index, v.count))
        .collect();
    assert_eq!(counts, [(1, 501), (501, 1)]);
}

#[test]
fn e3_known_passed_over_types_are_not_warned() {
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "STATE_SNAPSHOT", "snapshot": {}}),
            json!({"type": "THINKING_START"}),
            json!({"type": "RAW", "event": 1}),
        ],
    );
    assert!(t.violations().is_empty());
}

#[test]
fn s5_one_call_more_than_the_limit_is_fatal() {
    let limits = Limits {
        max_calls: 2,
        ..Limits::default()
    };
    let mut t = running_with(Options {
        limits,
        ..Options::default()
    });
    feed(&mut t, &whole_call("a", "f", "{}"));
    feed(&mut t, &whole_call("b", "f", "{}"));
    // Reopening an existing call does not count.
    feed(&mut t, &[start("a", "f"), end("a")]);
    assert_eq!(fatal_code(&mut t, start("c", "f")), "S5");
    assert_eq!(t.calls().len(), 2);
}

#[test]
fn s5_argument_limit_marks_the_call_and_keeps_going() {
    let limits = Limits {
        max_args_bytes: 8,
        ..Limits::default()
    };
    let mut t = running_with(Options {
        limits,
        ..Options::default()
    });
    feed(
        &mut t,
        &[
            start("a", "f"),
            args("a", "{\"k\":"),
            args("a", "\"long\"}"),
            args("a", "x"),
            end("a"),
        ],
    );
    let a = t.call("a").unwrap();
    assert_eq!(a.status, CallStatus::Complete);
    assert_eq!(a.args_error().unwrap().kind, ArgsErrorKind::Limit);
    assert_eq!(
        a.arguments().unwrap().unwrap_err().kind,
        ArgsErrorKind::Limit
    );
    assert_eq!(codes(&t), ["S5"]);
    feed(&mut t, &whole_call("b", "f", "{}"));
    assert!(t.fatal().is_none());
}
