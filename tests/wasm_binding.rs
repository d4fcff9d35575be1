//! The wasm binding, run by wasm-bindgen-test in Node and in headless Chromium.
#![cfg(target_arch = "wasm32")]

use agui_tool_calls::wasm::WasmTracker;
use serde_json::{json, Value};
use wasm_bindgen_test::wasm_bindgen_test;

fn record(text: String) -> Value {
    serde_json::from_str(&text).expect("a change record is JSON")
}

fn started() -> WasmTracker {
    let mut tracker = WasmTracker::new("{}", false).unwrap();
    tracker.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#);
    tracker
}

#[wasm_bindgen_test]
fn a_change_record_carries_only_the_appended_text() {
    let mut tracker = started();
    let r = record(
        tracker
            .push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search"}"#),
    );
    assert_eq!(r["calls"][0]["id"], "c1");
    assert_eq!(r["calls"][0]["status"], "open");
    assert_eq!(r["calls"][0]["append"], "");
    assert!(r.get("run").is_none(), "the run did not change");
    assert!(r["fatal"].is_null());
    // A delta and nothing else: the short record [version, index, append, cut, suffix].
    tracker.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":"}"#);
    let r =
        record(tracker.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"\"é"}"#));
    assert_eq!(r[1], 0);
    assert_eq!(r[2], "\"é");
    assert_eq!((&r[3], &r[4]), (&json!(7), &json!("\"}")));
}

#[wasm_bindgen_test]
fn a_delta_that_hits_a_limit_gets_the_full_record() {
    let mut tracker = WasmTracker::new(r#"{"limits":{"maxArgsBytes":4}}"#, false).unwrap();
    tracker.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#);
    tracker.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#);
    let r = record(
        tracker.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"[1,2,3]"}"#),
    );
    assert_eq!(r["calls"][0]["argsError"]["kind"], "limit");
    assert_eq!(r["violations"][0]["code"], "S5");
}

#[wasm_bindgen_test]
fn an_unchanged_tracker_reports_the_same_version_and_nothing_else() {
    let mut tracker = started();
    let first = record(tracker.take_changes());
    let second = record(tracker.take_changes());
    assert_eq!(first["version"], second["version"]);
    assert_eq!(second["calls"], json!([]));
}

#[wasm_bindgen_test]
fn t1_args_for_an_unknown_call_is_reported_as_fatal() {
    let mut tracker = started();
    let r =
        record(tracker.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"nope","delta":"x"}"#));
    assert_eq!(r["fatal"]["code"], "T1");
    assert_eq!(r["fatal"]["eventIndex"], 1);
    assert_eq!(r["fatal"]["toolCallId"], "nope");
}

#[wasm_bindgen_test]
fn e1_sse_bytes_split_inside_a_utf8_sequence_are_decoded() {
    let mut tracker = WasmTracker::new("{}", false).unwrap();
    let stream = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\r\n\r\n\
                  data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"n\"}\n\n\
                  data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c\",\"delta\":\"😀\"}\n\n";
    let bytes = stream.as_bytes();
    let split = stream.find('😀').unwrap() + 2;
    tracker.push_sse_bytes(&bytes[..split]);
    let r = record(tracker.push_sse_bytes(&bytes[split..]));
    assert_eq!(r[2], "😀", "the short record of a text-only change");
}

#[wasm_bindgen_test]
fn options_with_an_unknown_key_are_refused() {
    assert!(WasmTracker::new(r#"{"tols":[]}"#, false).is_err());
}

#[wasm_bindgen_test]
fn e1_event_stream_events_are_kept_only_when_asked_and_only_once_accepted() {
    let body = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
                data: {\"type\":\"CUSTOM\",\"name\":\"x\",\"value\":1}\n\n\
                data: {\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"nope\"}\n\n";
    let mut kept = WasmTracker::new("{}", true).unwrap();
    kept.push_sse_text(body);
    let events: Value = serde_json::from_str(&kept.take_events()).unwrap();
    assert_eq!(
        events.as_array().unwrap().len(),
        2,
        "not the refused TOOL_CALL_END"
    );
    assert_eq!(events[1]["name"], "x");
    assert_eq!(kept.take_events(), "[]");
    let mut plain = WasmTracker::new("{}", false).unwrap();
    plain.push_sse_text(body);
    assert_eq!(plain.take_events(), "[]");
}

#[wasm_bindgen_test]
fn l5_abort_and_positions_through_the_binding() {
    let mut tracker = started();
    tracker.push_json(r#"{"type":"TEXT_MESSAGE_START","messageId":"a1","role":"assistant"}"#);
    tracker.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#);
    let r = record(tracker.abort_run(Some("stop".into())));
    assert_eq!(r["run"]["status"], "aborted");
    assert_eq!(r["run"]["error"], "stop");
    assert_eq!(r["calls"][0]["status"], "abandoned");
    assert_eq!(tracker.positions("a1\0u9"), [0, -1, 1]);
    assert_eq!(tracker.positions(""), [1]);
}
