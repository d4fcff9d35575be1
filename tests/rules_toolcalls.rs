//! Tool-call streaming: rules T1-T12.

use crate::common::*;
use agui_tool_calls::args::ArgsErrorKind;
use agui_tool_calls::{CallStatus, ResultSource, Severity};
use serde_json::json;

#[test]
fn t1_args_for_never_started_call_is_fatal() {
    let mut t = running();
    let v = push(&mut t, args("nope", "{}")).unwrap_err();
    assert_eq!((v.code, v.tool_call_id.as_deref()), ("T1", Some("nope")));
    assert_eq!(v.event_index, 1);
    assert!(v.message.starts_with(""), "{}", v.message);
}

#[test]
fn t1_args_for_closed_call_is_fatal() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    let before = state_of(&t);
    assert_eq!(fatal_code(&mut t, args("c1", "x")), "T1");
    assert_eq!(state_of(&t), before);
    // Refused from now on, with the same error.
    let again = push(&mut t, run_finished("r1")).unwrap_err();
    assert_eq!(Some(&again), t.fatal());
}

#[test]
fn t2_end_for_call_not_open_is_fatal() {
    let mut t = running();
    assert_eq!(fatal_code(&mut t, end("c1")), "T2");
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    assert_eq!(fatal_code(&mut t, end("c1")), "T2");
}

#[test]
fn t3_start_of_open_call_is_fatal() {
    let mut t = running();
    feed(&mut t, &[start("c1", "f"), args("c1", "{")]);
    let before = state_of(&t);
    assert_eq!(fatal_code(&mut t, start("c1", "f")), "T3");
    assert_eq!(state_of(&t), before);
}

#[test]
fn t4_text_is_the_deltas_concatenated_exactly() {
    let mut t = running();
    feed(
        &mut t,
        &[
            start("c1", "f"),
            args("c1", "not "),
            args("c1", ""),
            args("c1", "json \u{e9}\u{1F600} {"),
            end("c1"),
        ],
    );
    let call = t.call("c1").unwrap();
    assert_eq!(call.args_text(), "not json \u{e9}\u{1F600} {");
    assert_eq!(call.status, CallStatus::Complete);
    assert!(t.fatal().is_none() && t.violations().is_empty());
}

#[test]
fn t5_open_call_has_text_but_no_final_arguments() {
    let mut t = running();
    feed(&mut t, &[start("c1", "f"), args("c1", r#"{"city":"Pa"#)]);
    let call = t.call("c1").unwrap();
    assert_eq!(call.args_text(), r#"{"city":"Pa"#);
    assert!(call.arguments().is_none());
    feed(&mut t, &[args("c1", r#"ris"}"#), end("c1")]);
    let call = t.call("c1").unwrap();
    assert!(call.partial().is_none(), "no partial value once closed");
    assert_eq!(call.arguments().unwrap().unwrap(), json!({"city": "Paris"}));
}

#[test]
fn t6_unparseable_text_is_recorded_not_fatal() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{\"a\": tru"));
    let call = t.call("c1").unwrap();
    assert_eq!(call.status, CallStatus::Complete);
    let err = call.arguments().unwrap().unwrap_err();
    assert_eq!(err.kind, ArgsErrorKind::Parse);
    assert!(t.violations().is_empty() && t.fatal().is_none());
}

#[test]
fn t7_reopen_appends_to_the_text_and_counts() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{\"a\":"));
    assert!(t.call("c1").unwrap().arguments().unwrap().is_err());
    feed(&mut t, &[start("c1", "f"), args("c1", "1}")]);
    let call = t.call("c1").unwrap();
    assert_eq!(call.status, CallStatus::Open);
    assert!(call.arguments().is_none());
    assert_eq!(call.reopen_count, 1);
    feed(&mut t, &[end("c1")]);
    let call = t.call("c1").unwrap();
    assert_eq!(call.args_text(), "{\"a\":1}");
    assert_eq!(call.arguments().unwrap().unwrap(), json!({"a": 1}));
    assert_eq!(t.calls().len(), 1);
}

#[test]
fn t7_reopen_in_a_later_run_moves_the_call_to_that_run() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{"));
    feed(
        &mut t,
        &[
            run_finished("r1"),
            run_started("r2"),
            start("c1", "f"),
            args("c1", "}"),
        ],
    );
    let call = t.call("c1").unwrap();
    assert_eq!(call.run_id.as_deref(), Some("r2"));
    assert!(!call.pending);
}

#[test]
fn t8_reopen_with_other_name_is_fatal() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    let before = state_of(&t);
    assert_eq!(fatal_code(&mut t, start("c1", "g")), "T8");
    assert_eq!(state_of(&t), before);
}

#[test]
fn t8_reopen_with_other_parent_is_fatal() {
    let with_parent = |p: &str| json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": p});
    let mut t = running();
    feed(&mut t, &[with_parent("m1"), end("c1")]);
    assert_eq!(fatal_code(&mut t, with_parent("m2")), "T8");
    // Present versus absent counts.
    let mut t = running();
    feed(&mut t, &[with_parent("m1"), end("c1")]);
    assert_eq!(fatal_code(&mut t, start("c1", "f")), "T8");
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    assert_eq!(fatal_code(&mut t, with_parent("m1")), "T8");
}

#[test]
fn t9_result_is_a_message_of_its_own_and_does_not_reopen() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    let parts = json!([{"type": "text", "text": "42"}]);
    feed(
        &mut t,
        &[
            json!({"type": "TOOL_CALL_RESULT", "messageId": "m9", "toolCallId": "c1",
                 "content": parts, "role": "tool", "error": "partial"}),
        ],
    );
    let call = t.call("c1").unwrap();
    assert_eq!(call.status, CallStatus::Complete);
    assert_eq!(call.reopen_count, 0);
    let r = &call.results[0];
    assert_eq!(
        (r.message_id.as_str(), &r.content),
        ("m9", &parts.clone().into())
    );
    assert_eq!(r.error.as_deref(), Some("partial"));
    assert_eq!(r.source, ResultSource::Stream);
    assert_eq!(r.event_index, Some(4));
    // Opaque content: text that looks like events changes nothing.
    feed(
        &mut t,
        &[result(
            "m10",
            "c1",
            r#"data: {"type":"TOOL_CALL_START","toolCallId":"x","toolCallName":"y"}"#,
        )],
    );
    assert_eq!(t.calls().len(), 1);
}

#[test]
fn t10_result_for_unknown_call_is_warning() {
    let mut t = running();
    feed(&mut t, &[result("m1", "ghost", "hi")]);
    let v = &t.violations()[0];
    assert_eq!((v.code, v.severity), ("T10", Severity::Warning));
    assert_eq!(v.tool_call_id.as_deref(), Some("ghost"));
    assert_eq!(t.unmatched_results()[0].tool_call_id, "ghost");
    assert!(t.calls().is_empty());
}

#[test]
fn t11_result_for_open_call_is_violation() {
    let mut t = running();
    feed(&mut t, &[start("c1", "f"), result("m1", "c1", "early")]);
    assert_eq!(codes(&t), ["T11"]);
    assert_eq!(t.violations()[0].severity, Severity::Violation);
    let call = t.call("c1").unwrap();
    assert_eq!(call.status, CallStatus::Open);
    assert_eq!(call.results.len(), 1);
    // Processing continues.
    feed(&mut t, &[end("c1"), run_finished("r1")]);
    assert!(!t.call("c1").unwrap().pending);
}

#[test]
fn t12_second_result_is_warning() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    feed(&mut t, &[result("m1", "c1", "one")]);
    assert!(t.violations().is_empty());
    feed(&mut t, &[result("m2", "c1", "two")]);
    assert_eq!(codes(&t), ["T12"]);
    assert_eq!(t.violations()[0].severity, Severity::Warning);
    assert_eq!(t.call("c1").unwrap().results.len(), 2);
}

#[test]
fn t3_interleaved_deltas_each_reach_their_own_call() {
    // The call a delta went to is tried first for the next one: deltas
    // that alternate between calls, and ids that share a prefix, still
    // find their own call.
    let mut t = running();
    feed(
        &mut t,
        &[start("c1", "f"), start("c10", "f"), start("c", "f")],
    );
    for (id, delta) in [
        ("c1", "[1"),
        ("c1", ",2"),
        ("c10", "[3"),
        ("c1", "]"),
        ("c", "{}"),
        ("c10", "]"),
    ] {
        feed(&mut t, &[args(id, delta)]);
    }
    let texts: Vec<(&str, &str)> = t
        .calls()
        .iter()
        .map(|c| (c.id.as_str(), c.args_text()))
        .collect();
    assert_eq!(texts, [("c1", "[1,2]"), ("c10", "[3]"), ("c", "{}")]);
    assert_eq!(
        (t.call_index("c10"), t.call_index("c"), t.call_index("c2")),
        (Some(1), Some(2), None)
    );
    // A delta for a call that is not open is still refused, named.
    feed(&mut t, &[end("c")]);
    assert_eq!(fatal_code(&mut t, args("c", "x")), "T1");
}
