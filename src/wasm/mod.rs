//! The JS binding: a thin layer over the pure core, compiled for wasm32 only.
//!
//! It speaks JSON text in both directions: `JSON.stringify`/`JSON.parse` run
//! at native speed in the host, and the core parses events without an
//! intermediate value. Each call returns a change record ([`records`]); the
//! hand-written JS layer (`js/snapshot.js`) folds it into frozen snapshots.

mod options;
mod records;
mod regexp;

use crate::sse::SseDecoder;
use crate::{ApplicationError, Tracker};
use records::{ChangeRecord, RefusalRecord, SummaryRecord};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The core tracker as JS sees it. Applications use the `ToolCallTracker`
/// class of `js/`, which wraps it.
#[wasm_bindgen]
pub struct WasmTracker {
    tracker: Tracker,
    sse: SseDecoder,
}

#[wasm_bindgen]
impl WasmTracker {
    /// A tracker configured by the options object, as JSON text.
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> Result<WasmTracker, JsError> {
        let options = options::parse_options(options_json).map_err(|e| JsError::new(&e))?;
        Ok(WasmTracker {
            tracker: Tracker::with_pattern_engine(options, Rc::new(regexp::HostRegExpEngine)),
            sse: SseDecoder::new(),
        })
    }

    /// Reads one event given as JSON text; returns the change record. A
    /// fatal violation is reported in the record (`fatal`), not thrown.
    #[wasm_bindgen(js_name = pushJson)]
    pub fn push_json(&mut self, text: &str) -> String {
        let _ = self.tracker.push_json(text);
        self.take_changes()
    }

    /// Reads raw `text/event-stream` text; each dispatched event's data is
    /// one event as JSON.
    #[wasm_bindgen(js_name = pushSseText)]
    pub fn push_sse_text(&mut self, chunk: &str) -> String {
        self.sse.push_str(chunk, push_data(&mut self.tracker));
        self.take_changes()
    }

    /// Reads raw `text/event-stream` bytes, split anywhere (even inside a
    /// UTF-8 sequence).
    #[wasm_bindgen(js_name = pushSseBytes)]
    pub fn push_sse_bytes(&mut self, chunk: &[u8]) -> String {
        self.read_sse_bytes(chunk);
        self.take_changes()
    }

    /// Reads one event given as JSON text, without a change record; returns
    /// whether the stream is still good. For consumers that read a whole
    /// stream and look at the end state only (the stream checker).
    #[wasm_bindgen(js_name = feedJson)]
    pub fn feed_json(&mut self, text: &str) -> bool {
        self.tracker.push_json(text).is_ok()
    }

    /// Like [`WasmTracker::push_sse_bytes`], without a change record.
    #[wasm_bindgen(js_name = feedSse)]
    pub fn feed_sse(&mut self, chunk: &[u8]) -> bool {
        self.read_sse_bytes(chunk);
        self.tracker.fatal().is_none()
    }

    /// The whole state, without argument text or values (see
    /// `SummaryRecord`), as JSON.
    pub fn summary(&self) -> String {
        serde_json::to_string(&SummaryRecord::new(&self.tracker, true)).unwrap_or_default()
    }

    /// The summary with `violations` left empty: a report reads them in
    /// pages with [`WasmTracker::violations_json`], so millions of warnings
    /// never become one string.
    #[wasm_bindgen(js_name = summaryWithoutViolations)]
    pub fn summary_without_violations(&self) -> String {
        serde_json::to_string(&SummaryRecord::new(&self.tracker, false)).unwrap_or_default()
    }

    /// How many violations the tracker holds.
    #[wasm_bindgen(js_name = violationCount)]
    pub fn violation_count(&self) -> usize {
        self.tracker.violations().len()
    }

    /// The violations `from..to` (clamped to those held), as a JSON array.
    #[wasm_bindgen(js_name = violationsJson)]
    pub fn violations_json(&self, from: usize, to: usize) -> String {
        let all = self.tracker.violations();
        let to = to.min(all.len());
        let from = from.min(to);
        serde_json::to_string(&all[from..to]).unwrap_or_default()
    }

    /// Records the user's approval of a completed call (rule S3).
    pub fn approve(&mut self, id: &str) -> Result<String, JsValue> {
        self.applied(|t| t.approve(id))
    }

    /// Declines a completed call: answered by a tool message saying so.
    pub fn decline(
        &mut self,
        id: &str,
        reason: Option<String>,
        message_id: &str,
    ) -> Result<String, JsValue> {
        self.applied(|t| t.decline(id, reason.as_deref(), message_id))
    }

    /// Answers a completed call; `content_json` is a string or content
    /// parts, as JSON.
    pub fn answer(
        &mut self,
        id: &str,
        content_json: &str,
        message_id: &str,
    ) -> Result<String, JsValue> {
        let content = serde_json::from_str(content_json).map_err(|e| {
            JsValue::from(JsError::new(&format!("answer content is not JSON: {e}")))
        })?;
        self.applied(|t| t.answer(id, content, message_id))
    }

    /// Answers a completed call with a failure.
    pub fn fail(
        &mut self,
        id: &str,
        error: &str,
        content: Option<String>,
        message_id: &str,
    ) -> Result<String, JsValue> {
        let content = content.map(serde_json::Value::String);
        self.applied(|t| t.fail(id, error, content, message_id))
    }

    /// Checks the next run's input (rule F6) and advertises its tools;
    /// refused with an error naming each unanswered call.
    #[wasm_bindgen(js_name = startRun)]
    pub fn start_run(&mut self, input_json: &str) -> Result<String, JsValue> {
        self.applied(|t| t.start_run_json(input_json))
    }

    /// The application's answers for the next run's `messages`, as JSON.
    #[wasm_bindgen(js_name = toolMessages)]
    pub fn tool_messages(&self) -> String {
        serde_json::to_string(&self.tracker.tool_messages()).unwrap_or_default()
    }

    /// What changed since the last record: a `ChangeRecord`, or for a delta
    /// appended to one open call and nothing else, the short array of
    /// `records::text_only_record`.
    #[wasm_bindgen(js_name = takeChanges)]
    pub fn take_changes(&mut self) -> String {
        let changes = self.tracker.take_changes();
        if let Some(record) = records::text_only_record(&self.tracker, &changes) {
            return record;
        }
        let record = ChangeRecord::new(&self.tracker, &changes);
        // Serialising plain records of strings, numbers and JSON values
        // cannot fail; an empty string would make the JS layer throw.
        serde_json::to_string(&record).unwrap_or_default()
    }
}

impl WasmTracker {
    /// Runs an application operation; its change record, or its refusal
    /// thrown as a `RefusalRecord` in JSON text, which the JS layer turns
    /// into a `ToolCallRefusedError` (the tracker is then unchanged).
    fn applied(
        &mut self,
        operation: impl FnOnce(&mut Tracker) -> Result<(), ApplicationError>,
    ) -> Result<String, JsValue> {
        operation(&mut self.tracker).map_err(|e| {
            let record = serde_json::to_string(&RefusalRecord::new(&e)).unwrap_or_default();
            JsValue::from_str(&record)
        })?;
        Ok(self.take_changes())
    }

    /// Pushes each event the bytes complete.
    fn read_sse_bytes(&mut self, chunk: &[u8]) {
        self.sse.push_bytes(chunk, push_data(&mut self.tracker));
    }
}

/// What a dispatched event-stream event becomes: its data, pushed as one
/// event; a fatal violation stays in the tracker, where the caller reads it.
fn push_data(tracker: &mut Tracker) -> impl FnMut(crate::sse::SseEvent<'_>) + '_ {
    |event| {
        let _ = tracker.push_json(event.data);
    }
}
