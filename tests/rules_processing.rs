//! The processing model (`basic/processing.mdx`): rules P1-P3, and F9's
//! reading of an empty argument text. Each verdict here is the one
//! `@ag-ui/client` 1.0 reaches on the same event (tests/js/reference.test.mjs
//! holds the two side by side).

use crate::common::*;
use agui_tool_calls::{Options, RunStatus, Tool, Tracker, Validation};
use serde_json::{json, Value};

/// A result for `c1` whose content is `parts`, JSON text (kept in its key
/// order, which `json!` would sort).
fn result_parts(parts: &str) -> String {
    format!(r#"{{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":{parts}}}"#)
}

/// A tracker with `c1` complete, and the result `parts` pushed.
fn with_result(parts: &str) -> Tracker {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    t.push_json(&result_parts(parts)).unwrap();
    t
}

fn messages(t: &Tracker) -> Vec<(&'static str, String)> {
    t.violations()
        .iter()
        .map(|v| (v.code, v.message.clone()))
        .collect()
}

#[test]
fn p1_an_unrecognised_content_part_is_dropped_with_a_warning_naming_its_path() {
    let t = with_result(r#"[{"type":"text","text":"a"},{"type":"hologram","x":1}]"#);
    assert_eq!(
        t.calls()[0].results[0].content.get(),
        r#"[{"type":"text","text":"a"}]"#
    );
    assert_eq!(
        messages(&t),
        [(
            "P1",
            r#"content[1].type "hologram" is not a content part 1.0 describes: part removed"#
                .to_owned()
        )]
    );
    assert_eq!(t.violations()[0].tool_call_id.as_deref(), Some("c1"));
}

#[test]
fn p1_a_media_part_with_an_unrecognised_source_is_removed_whole() {
    let t = with_result(
        r#"[{"type":"image","source":{"type":"ipfs","value":"Qm"}},
            {"type":"document","source":{"type":"url","value":"https://x/y.pdf"}}]"#,
    );
    assert_eq!(
        t.calls()[0].results[0].content.get(),
        r#"[{"type":"document","source":{"type":"url","value":"https://x/y.pdf"}}]"#
    );
    assert_eq!(codes(&t), ["P1"]);
    assert!(t.violations()[0].message.contains("content[0].source.type"));
}

#[test]
fn p1_content_without_anything_to_strip_is_kept_byte_exact() {
    let text = r#"{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":[ {"text" : "a","type":"text","metadata":{"x":-0}} ]}"#;
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    t.push_json(text).unwrap();
    assert_eq!(
        t.calls()[0].results[0].content.get(),
        r#"[ {"text" : "a","type":"text","metadata":{"x":-0}} ]"#
    );
    assert!(t.violations().is_empty());
}

#[test]
fn p1_history_message_content_is_stripped_too() {
    let mut t = running();
    let snapshot = r#"{"type":"MESSAGES_SNAPSHOT","messages":[
        {"id":"a","role":"assistant","toolCalls":[
            {"id":"h1","type":"function","function":{"name":"f","arguments":"{}"}}]},
        {"id":"tm","role":"tool","toolCallId":"h1",
         "content":[{"type":"text","text":"ok"},{"type":"hologram"}]}]}"#;
    t.push_json(snapshot).unwrap();
    assert_eq!(
        t.call("h1").unwrap().results[0].content.get(),
        r#"[{"type":"text","text":"ok"}]"#
    );
    assert_eq!(codes(&t), ["P1"]);
    assert!(t.violations()[0]
        .message
        .contains("messages[1].content[1].type"));
}

#[test]
fn p2_undescribed_properties_of_parts_sources_and_outcomes_are_stripped() {
    let t = with_result(
        r#"[{"type":"text","text":"a","citations":[]},
            {"type":"image","source":{"type":"url","value":"u","etag":"x"}}]"#,
    );
    assert_eq!(
        t.calls()[0].results[0].content.get(),
        r#"[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","value":"u"}}]"#
    );
    assert_eq!(
        messages(&t),
        [
            (
                "P2",
                "content[0].citations is not a property 1.0 describes: removed".to_owned()
            ),
            (
                "P2",
                "content[1].source.etag is not a property 1.0 describes: removed".to_owned()
            )
        ]
    );
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
                 "outcome": {"type": "success", "note": "x"}}),
        ],
    );
    assert_eq!(codes(&t), ["P2"]);
    assert_eq!(t.run().status, RunStatus::Finished);
}

#[test]
fn p2_open_objects_arrive_whole() {
    // A part's metadata is open: nothing in it is stripped.
    let t = with_result(r#"[{"type":"text","text":"a","metadata":{"anything":{"at":"all"}}}]"#);
    assert!(t.violations().is_empty());
    assert!(t.calls()[0].results[0]
        .content
        .get()
        .contains(r#""anything":{"at":"all"}"#));
}

#[test]
fn p3_a_timestamp_that_is_not_a_safe_integer_is_fatal_naming_the_field() {
    for bad in [
        json!(1712.5),
        json!(9_007_199_254_740_992_u64),
        json!("1"),
        Value::Null,
    ] {
        let mut t = running();
        let mut event = start("c1", "f");
        event["timestamp"] = bad.clone();
        let v = push(&mut t, event).expect_err("fatal");
        assert_eq!(v.code, "E2", "{bad}");
        assert!(
            v.message
                .contains(r#"field "timestamp" must be a safe integer"#),
            "{v}"
        );
        assert!(t.calls().is_empty(), "nothing of the event was applied");
    }
    // As the 1.0 schema and client read it: whole numbers, negative ones too.
    for good in [
        json!(0),
        json!(1_764_518_800_198_u64),
        json!(-1),
        json!(1e3),
    ] {
        let mut t = running();
        let mut event = start("c1", "f");
        event["timestamp"] = good;
        push(&mut t, event).unwrap();
    }
    // Read from the number's digits, as `JSON.parse` then `Number.isSafeInteger` read it.
    for (spelling, safe) in [
        ("1.50e1", true),
        ("-0", true),
        ("0.0e-5", true),
        ("9007199254740991", true),
        ("-9007199254740991", true),
        ("15e-1", false),
        ("1e16", false),
        ("9007199254740992", false),
        ("0.001e2", false),
    ] {
        let mut t = running();
        let text = format!(
            r#"{{"type":"TOOL_CALL_START","timestamp":{spelling},"toolCallId":"c1","toolCallName":"f"}}"#
        );
        assert_eq!(t.push_json(&text).is_ok(), safe, "{spelling}");
    }
    // A plain args event with a timestamp past the fast path's 15 digits.
    let mut t = running();
    feed(&mut t, &[start("c1", "f")]);
    let text =
        r#"{"type":"TOOL_CALL_ARGS","timestamp":90071992547409920,"toolCallId":"c1","delta":"{"}"#;
    assert_eq!(t.push_json(text).unwrap_err().code, "E2");
}

#[test]
fn p3_a_malformed_known_value_in_a_content_part_is_fatal() {
    for (parts, field) in [
        (r#"[{"type":"text","text":5}]"#, "content[0].text"),
        ("[null]", "content[0]"),
        (
            r#"[{"type":"image","source":{"type":"data","value":"AA"}}]"#,
            "content[0].source.mimeType",
        ),
        (
            r#"[{"type":"text","text":"a","metadata":null}]"#,
            "content[0].metadata",
        ),
        (r#"[{"text":"a"}]"#, "content[0].type"),
    ] {
        let mut t = running();
        feed(&mut t, &whole_call("c1", "f", "{}"));
        let v = t.push_json(&result_parts(parts)).expect_err("fatal");
        assert_eq!(v.code, "E2");
        assert!(v.message.contains(&format!("\"{field}\"")), "{v}");
        assert!(t.calls()[0].results.is_empty());
    }
}

#[test]
fn p3_retired_shapes_are_translated() {
    // A binary part is stripped, with a warning.
    let t = with_result(r#"[{"type":"binary","mimeType":"image/png","data":"AA"}]"#);
    assert_eq!(t.calls()[0].results[0].content.get(), "[]");
    assert_eq!(codes(&t), ["P3"]);
    // Null outcome, result and parentMessageId read as absent.
    let mut t = running();
    let mut s = start("c1", "f");
    s["parentMessageId"] = Value::Null;
    feed(&mut t, &[s, end("c1")]);
    assert_eq!(t.call("c1").unwrap().parent_message_id, None);
    feed(
        &mut t,
        &[
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1", "outcome": null, "result": null}),
        ],
    );
    assert_eq!(t.run().status, RunStatus::Finished);
    assert_eq!((&t.run().outcome, &t.run().result), (&None, &None));
    // Each with a warning naming the field (F7: c1's tool is not advertised).
    assert_eq!(codes(&t), ["P3", "P3", "P3", "F7"]);
    assert!(t.violations()[0].message.contains("parentMessageId: null"));
    assert!(t.violations()[1].message.contains("outcome: null"));
}

#[test]
fn f9_a_call_closed_with_no_argument_text_reads_as_an_empty_object() {
    let tool = Tool::new(
        "now",
        "",
        json!({"type": "object", "additionalProperties": false}),
    );
    let mut t = running_with(Options {
        tools: vec![tool],
        ..Options::default()
    });
    feed(&mut t, &[start("c1", "now"), end("c1")]);
    let call = t.call("c1").unwrap();
    assert_eq!(call.args_text(), "");
    assert_eq!(call.arguments(), Some(Ok(json!({}).into())));
    assert_eq!(call.final_parse(), Some(Ok(())));
    assert_eq!(call.validation, Validation::Valid);
    // Text that is only whitespace is not empty: it holds no JSON value.
    feed(&mut t, &[start("c2", "now"), args("c2", " "), end("c2")]);
    assert!(t.call("c2").unwrap().final_parse().unwrap().is_err());
}
