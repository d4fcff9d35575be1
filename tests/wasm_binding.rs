//! The wasm binding, run by wasm-bindgen-test in Node and in headless Chromium.
#![cfg(target_arch = "wasm32")]

use agui_tool_calls::wasm::WasmTracker;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn push_json_reports_the_call_and_its_arguments() {
    let mut tracker = WasmTracker::new();
    tracker.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#);
    tracker.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search"}"#);
    let changes =
        tracker.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":1}"}"#);
    let changes: serde_json::Value = serde_json::from_str(&changes).unwrap();
    assert_eq!(changes["calls"][0]["id"], "c1");
    assert_eq!(changes["calls"][0]["argsText"], r#"{"q":1}"#);
    assert!(changes["fatal"].is_null());
}

#[wasm_bindgen_test]
fn t1_args_for_an_unknown_call_is_reported_as_fatal() {
    let mut tracker = WasmTracker::new();
    tracker.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#);
    let changes = tracker.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"nope","delta":"x"}"#);
    let changes: serde_json::Value = serde_json::from_str(&changes).unwrap();
    assert_eq!(changes["fatal"]["code"], "T1");
    assert_eq!(changes["fatal"]["eventIndex"], 1);
}
