//! The records the wasm binding sends the JS layer (`agui_tool_calls::wire`),
//! as JSON: what a change record carries and what it leaves to summaries,
//! unmatched results (rule T10), and the fast path's tuple.

use crate::common::*;
use agui_tool_calls::events::to_json;
use agui_tool_calls::wire::{ChangeRecord, SummaryRecord};
use agui_tool_calls::Tracker;
use serde_json::{json, Value};

/// The change record of what changed since the last take, as a value.
fn take(t: &mut Tracker) -> Value {
    let changes = t.take_changes();
    serde_json::from_str(&to_json(&ChangeRecord::new(t, &changes))).unwrap()
}

#[test]
fn change_records_leave_out_args_bytes_which_summaries_carry() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", r#"{"q":"é"}"#));
    let record = take(&mut t);
    let call = &record["calls"][0];
    assert_eq!(call["append"], r#"{"q":"é"}"#);
    assert!(call.get("argsBytes").is_none(), "{call}");
    assert!(call.get("closedAt").is_none(), "{call}");

    let summary: Value = serde_json::from_str(&to_json(&SummaryRecord::new(&t, true))).unwrap();
    let call = &summary["calls"][0];
    assert_eq!(call["argsBytes"], 10); // bytes of UTF-8
    assert_eq!(call["closedAt"], 3);
    assert_eq!(call["append"], "");
}

#[test]
fn t10_unmatched_results_are_sent_once_in_the_change_record() {
    let mut t = running();
    take(&mut t);
    push(&mut t, result("m1", "ghost", "orphan")).unwrap();
    let record = take(&mut t);
    assert_eq!(
        record["unmatchedResults"],
        json!([{
            "toolCallId": "ghost",
            "result": {"messageId": "m1", "content": "orphan", "source": "stream"}
        }])
    );
    feed(&mut t, &whole_call("c1", "f", "{}"));
    assert!(take(&mut t).get("unmatchedResults").is_none());
}

#[test]
fn a_delta_alone_is_the_text_change_the_binding_sends_without_a_record() {
    let mut t = running();
    feed(&mut t, &[start("c1", "f")]);
    assert!(
        t.take_changes().text_appended_only().is_none(),
        "a start is a record"
    );
    feed(&mut t, &[args("c1", r#"{"q":"ab"#)]);
    t.take_changes();
    push(&mut t, args("c1", "c")).unwrap();
    let changes = t.take_changes();
    let only = changes
        .text_appended_only()
        .expect("a delta alone is a text change");
    let call = &t.calls()[only.index];
    let partial = call.partial().expect("a partial value");
    // [index, append, cut, suffix], as the header carries them: the cut in
    // UTF-16 units.
    assert_eq!(
        (
            only.index,
            &call.args_text()[only.text_from..],
            partial.cut_utf16,
            partial.suffix.as_str()
        ),
        (0, "c", 9, "\"}")
    );
}

#[test]
fn s5_a_schema_error_record_counts_the_failures_it_does_not_carry() {
    use agui_tool_calls::events::Tool;
    use agui_tool_calls::Options;
    let tool = Tool::new("f", "", json!({"items": {"type": "string"}}));
    let mut t = running_with(Options {
        tools: vec![tool],
        ..Options::default()
    });
    let text = format!("[{}0]", "0,".repeat(999));
    feed(&mut t, &whole_call("c1", "f", &text));
    let record = take(&mut t);
    let error = &record["calls"][0]["argsError"];
    assert_eq!(error["kind"], "schema");
    assert_eq!(error["errorCount"], 1000);
    assert_eq!(error["errors"].as_array().unwrap().len(), 100);
    assert_eq!(
        error["message"],
        "arguments do not match the schema of f: 1000 errors, the first 100 kept"
    );
    feed(&mut t, &whole_call("c2", "f", "[1]"));
    let record = take(&mut t);
    let error = &record["calls"][0]["argsError"];
    assert_eq!(error["errorCount"], 1);
    assert_eq!(
        error["message"],
        "arguments do not match the schema of f: 1 error"
    );
}
