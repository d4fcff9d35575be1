//! The wasm binding, run by wasm-bindgen-test in Node and in headless Chromium.
#![cfg(target_arch = "wasm32")]

use agui_tool_calls::hashing;
use agui_tool_calls::wasm::WasmTracker;
use serde_json::{json, Value};
use std::hash::BuildHasher;
use wasm_bindgen_test::wasm_bindgen_test;

fn record(text: String) -> Value {
    serde_json::from_str(&text).expect("a change record is JSON")
}

/// A change header's numbers, each a whole number.
fn whole(header: &[f64; 6]) -> [i64; 6] {
    header.map(|x| {
        assert!(x.fract() == 0.0, "{x} is whole");
        x as i64
    })
}

/// Input read, then what changed as one whole `ChangeRecord` in JSON.
trait ReadThenRecord {
    fn push_json(&mut self, text: &str) -> String;
    fn push_sse_bytes(&mut self, chunk: &[u8]) -> String;
    fn push_sse_text(&mut self, chunk: &str) -> String;
}

impl ReadThenRecord for WasmTracker {
    fn push_json(&mut self, text: &str) -> String {
        self.feed_json(text);
        self.take_changes()
    }
    fn push_sse_bytes(&mut self, chunk: &[u8]) -> String {
        self.feed_sse(chunk);
        self.take_changes()
    }
    fn push_sse_text(&mut self, chunk: &str) -> String {
        self.feed_sse(chunk.as_bytes());
        self.take_changes()
    }
}

fn started() -> WasmTracker {
    let mut tracker = WasmTracker::new("{}", 0).unwrap();
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
    // A delta and nothing else: no record, the header [version, index,
    // text address, append bytes, suffix bytes, cut] and the text.
    tracker.feed_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":"}"#);
    let address = tracker.take_change(false);
    tracker.feed_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"\"é"}"#);
    assert_eq!(
        tracker.take_change(false),
        address,
        "one header, at one address"
    );
    let (header, text) = tracker.text_change();
    assert_eq!(address, std::ptr::from_ref(header) as usize);
    let [_, index, address, append, suffix, cut] = whole(header);
    assert_eq!(index, 0);
    assert_eq!(Ok(address), i64::try_from(text.as_ptr() as usize));
    assert_eq!((append, suffix, cut), (3, 2, 7));
    assert_eq!(std::str::from_utf8(text), Ok("\"é\"}"));
    // Nothing new: nothing to read.
    assert_eq!(tracker.take_change(false), 0);
    // Asked whole, any change (even none) is a record.
    tracker.feed_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"x"}"#);
    assert_eq!(tracker.take_change(true), 1);
    let r = record(tracker.take_record());
    assert_eq!(
        (
            &r["calls"][0]["append"],
            &r["calls"][0]["partial"]["suffix"]
        ),
        (&json!("x"), &json!("\"}"))
    );
    assert_eq!(tracker.take_change(true), 1);
    assert_eq!(record(tracker.take_record())["calls"], json!([]));
}

#[wasm_bindgen_test]
fn a_change_other_than_appended_text_is_a_record_taken_once() {
    let mut tracker = started();
    tracker.feed_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#);
    assert_eq!(tracker.take_change(false), 1);
    let r = record(tracker.take_record());
    assert_eq!(r["calls"][0]["id"], "c1");
    assert_eq!(tracker.take_record(), "");
    // A delta that ends the partial value (no cut yet) still takes the header.
    tracker.feed_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":" "}"#);
    assert!(tracker.take_change(false) > 1);
    let [.., append, suffix, cut] = whole(tracker.text_change().0);
    assert_eq!((append, suffix, cut), (1, 0, -1));
    let text = tracker.text_change().1;
    assert_eq!(text, b" ");
}

#[wasm_bindgen_test]
fn a_delta_that_hits_a_limit_gets_the_full_record() {
    let mut tracker = WasmTracker::new(r#"{"limits":{"maxArgsBytes":4}}"#, 0).unwrap();
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
    let mut tracker = WasmTracker::new("{}", 0).unwrap();
    let stream = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\r\n\r\n\
                  data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"n\"}\n\n\
                  data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c\",\"delta\":\"😀\"}\n\n";
    let bytes = stream.as_bytes();
    let split = stream.find('😀').unwrap() + 2;
    tracker.push_sse_bytes(&bytes[..split]);
    tracker.feed_sse(&bytes[split..]);
    assert!(tracker.take_change(false) > 1, "text appended to one call");
    let (header, text) = tracker.text_change();
    assert_eq!(&text[..header[3] as usize], "😀".as_bytes());
}

/// The id maps' hashes are keyed by bits the host drew before the first
/// tracker (`RandomState`'s keys are predictable addresses in wasm): ids
/// that collide under one page's keys do not collide under another's.
#[wasm_bindgen_test]
fn the_id_maps_hash_with_the_salt_the_host_drew() {
    let _tracker = started();
    let salt = hashing::installed_salt().expect("the binding installs its host");
    assert_ne!(salt, [0, 0]);
    let ours = hashing::Salted::default();
    for id in ["call_1", "call_2", ""] {
        assert_eq!(
            ours.hash_one(id),
            hashing::Salted::with_salt(salt).hash_one(id)
        );
    }
}

#[wasm_bindgen_test]
fn options_with_an_unknown_key_are_refused() {
    assert!(WasmTracker::new(r#"{"tols":[]}"#, 0).is_err());
}

#[wasm_bindgen_test]
fn e1_event_stream_events_are_kept_only_when_asked_and_only_once_accepted() {
    let body = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
                data: {\"type\":\"CUSTOM\",\"name\":\"x\",\"value\":1}\n\n\
                data: {\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"nope\"}\n\n";
    let mut kept = WasmTracker::new("{}", 1).unwrap();
    kept.push_sse_text(body);
    let events: Value = serde_json::from_str(&kept.text(0, 0, 0)).unwrap();
    assert_eq!(
        events.as_array().unwrap().len(),
        2,
        "not the refused TOOL_CALL_END"
    );
    assert_eq!(events[1]["name"], "x");
    assert_eq!(kept.text(0, 0, 0), "[]");
    let mut plain = WasmTracker::new("{}", 0).unwrap();
    plain.push_sse_text(body);
    assert_eq!(plain.text(0, 0, 0), "[]");
}

#[wasm_bindgen_test]
fn e1_an_event_streams_lines_are_logged_for_the_checker() {
    // Every event, accepted or not, at the line of its first data field;
    // each line that sets no field, negated, with its first 40 bytes; the
    // line where the input is cut first.
    let body = "\u{FEFF}: hi\n\
                data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
                {\"type\":\"CUSTOM\",\"name\":\"a JSON Lines event much longer than forty bytes\"}\n\
                data: {\"type\":\"TOOL_CALL_END\",\r\ndata: \"toolCallId\":\"nope\"}\r\n\r\n\
                data: {\"type\":";
    let mut lines = WasmTracker::new("{}", 2).unwrap();
    lines.push_sse_text(body);
    let expected = r#"[8,2,-4,"{\"type\":\"CUSTOM\",\"name\":\"a JSON Lines ev",5]"#;
    assert_eq!(lines.text(5, 0, 0), expected);
    assert_eq!(lines.text(5, 0, 0), "[8]", "taken once");
    let mut with_data = WasmTracker::new("{}", 3).unwrap();
    with_data.push_sse_text(body);
    let entries: Value = serde_json::from_str(&with_data.text(5, 0, 0)).unwrap();
    assert_eq!(
        entries[2],
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#
    );
    assert_eq!(
        entries[6],
        "{\"type\":\"TOOL_CALL_END\",\n\"toolCallId\":\"nope\"}"
    );
    // No log: nothing kept.
    let mut plain = WasmTracker::new("{}", 0).unwrap();
    plain.push_sse_text(body);
    assert_eq!(plain.text(5, 0, 0), "[8]");
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

/// The module's whole linear memory, in bytes (it only ever grows).
fn wasm_memory_bytes() -> f64 {
    use wasm_bindgen::JsCast;
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    f64::from(
        memory
            .buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length(),
    )
}

const MEMORY_CEILING: f64 = 256.0 * 1024.0 * 1024.0;

/// The events of call `id` with 4 MiB of arguments, at the per-call limit,
/// in two deltas (one would exceed the event limit).
fn call_at_the_limit(id: &str) -> [String; 4] {
    let half = "x".repeat((2 << 20) - 8);
    let first = serde_json::to_string(&format!("[\"{half}")).unwrap();
    let second = serde_json::to_string(&format!("{half}\"]")).unwrap();
    [
        format!(r#"{{"type":"TOOL_CALL_START","toolCallId":"{id}","toolCallName":"f"}}"#),
        format!(r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"{id}","delta":{first}}}"#),
        format!(r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"{id}","delta":{second}}}"#),
        format!(r#"{{"type":"TOOL_CALL_END","toolCallId":"{id}"}}"#),
    ]
}

/// Whether the tests run in a browser page. The runner there polls the page
/// and gives up on a test that holds the thread for 20 s; the two tests that
/// parse 32 MiB of arguments (seconds in a debug build) run in Node only.
fn in_browser() -> bool {
    js_sys::Reflect::has(&js_sys::global(), &"document".into()).unwrap_or(false)
}

#[wasm_bindgen_test]
fn s5_an_endless_event_stream_line_is_stopped_below_256_mb() {
    let mut tracker = WasmTracker::new("{}", 0).unwrap();
    tracker.push_sse_bytes(
        b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: ",
    );
    let chunk = vec![b'a'; 1 << 16];
    let mut fatal = Value::Null;
    // 320 MiB of one line, unless the tracker stops it first.
    for _ in 0..5 * 1024 {
        let r = record(tracker.push_sse_bytes(&chunk));
        if !r["fatal"].is_null() {
            fatal = r["fatal"].clone();
            break;
        }
        assert!(
            wasm_memory_bytes() < MEMORY_CEILING,
            "the line is held in memory"
        );
    }
    assert_eq!(fatal["code"], "S5");
    assert_eq!(fatal["eventIndex"], 1);
    // Fed on, the stopped tracker holds nothing more.
    for _ in 0..1024 {
        tracker.push_sse_bytes(&chunk);
    }
    assert!(wasm_memory_bytes() < MEMORY_CEILING);
}

#[wasm_bindgen_test]
fn s5_many_calls_with_arguments_at_the_call_limit_are_stopped_below_256_mb() {
    if in_browser() {
        return;
    }
    let mut tracker = started();
    let mut fatal = Value::Null;
    for i in 0..10_000 {
        for event in call_at_the_limit(&format!("c{i}")) {
            let r = record(tracker.push_json(&event));
            if !r["fatal"].is_null() {
                fatal = r["fatal"].clone();
            }
        }
        if !fatal.is_null() {
            break;
        }
        assert!(wasm_memory_bytes() < MEMORY_CEILING, "call {i}");
    }
    assert_eq!(fatal["code"], "S5");
    assert!(fatal["message"]
        .as_str()
        .unwrap()
        .contains("limits.maxThreadBytes"));
    assert!(wasm_memory_bytes() < MEMORY_CEILING);
}

/// The validation of a call whose schema, from `RUN_STARTED.input.tools`
/// only, gives its string `s` the pattern `pattern`.
fn stream_pattern_verdict(pattern: &str, s: &str) -> serde_json::Value {
    let mut tracker = WasmTracker::new("{}", 0).unwrap();
    let tool = json!({"name": "f", "parameters": {"type": "object",
        "properties": {"s": {"type": "string", "pattern": pattern}}}});
    let run = json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r",
        "input": {"threadId": "t", "runId": "r", "messages": [], "tools": [tool]}});
    tracker.push_json(&run.to_string());
    let args = json!({ "s": s }).to_string();
    for event in [
        json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": args}),
    ] {
        tracker.push_json(&event.to_string());
    }
    let r = record(tracker.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#));
    assert_eq!(r["calls"][0]["status"], "complete");
    r["calls"][0]["validation"].clone()
}

#[wasm_bindgen_test]
fn s5_a_backtracking_pattern_from_the_stream_does_not_hang_the_host() {
    // First a pattern that fails at once: run, it would make the call
    // invalid. Without the guard the test fails here, instead of hanging
    // on the pattern below (a synchronous call in wasm has no timeout).
    assert_eq!(stream_pattern_verdict("^b$", "a"), "unvalidated");
    // `^(a+)+$` against 29 `a` and a `!`: 45 s in the host's RegExp before.
    let s = format!("{}!", "a".repeat(29));
    assert_eq!(stream_pattern_verdict("^(a+)+$", &s), "unvalidated");
}

#[wasm_bindgen_test]
fn s5_a_spent_budget_then_arguments_of_millions_of_values_stay_below_256_mb() {
    if in_browser() {
        return;
    }
    // Arguments at the call limit, all zeros, two million values, after 7
    // calls of 4 MiB (28 of the budget's 64 MiB): the end parses nothing
    // into memory (the text was read as it came), so it passes, and the
    // module stays below the ceiling.
    let mut tracker = started();
    for i in 0..7 {
        for event in call_at_the_limit(&format!("a{i}")) {
            let r = record(tracker.push_json(&event));
            assert!(r["fatal"].is_null(), "call {i}");
        }
    }
    // Arguments of two million zeros, in two deltas.
    let zeros = serde_json::to_string(&"0,".repeat((1 << 20) - 16)).unwrap();
    tracker.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}"#);
    tracker.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"["}"#);
    for _ in 0..2 {
        tracker.push_json(&format!(
            r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":{zeros}}}"#
        ));
    }
    tracker.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"0]"}"#);
    let r = record(tracker.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#));
    assert!(r["fatal"].is_null());
    assert_eq!(r["calls"][0]["status"], "complete");
    assert_eq!(r["calls"][0]["parsed"], true);
    assert!(wasm_memory_bytes() < MEMORY_CEILING);
}
