//! The JS binding: a thin layer over the pure core, compiled for wasm32 only.
//!
//! It speaks JSON text in both directions: `JSON.stringify`/`JSON.parse` run
//! at native speed in the host, and the core parses events without an
//! intermediate value. What changed comes back as a change record
//! ([`crate::wire`]), or for text appended to one open call, the commonest
//! change, as a few numbers in memory the JS layer reads directly; the
//! hand-written JS layer (`js/snapshot.js`) folds it into frozen snapshots.

mod clock;
mod host;
mod regexp;
mod sse_log;
mod text_change;

use crate::wire::{self, json_text, ChangeRecord, RefusalRecord, SummaryRecord};
use crate::{ApplicationError, Changes, Tracker};
use sse_log::SseLog;
use std::rc::Rc;
use text_change::TextChange;
use wasm_bindgen::prelude::*;

/// The module's allocator: Talc, in place of the standard library's
/// dlmalloc, which it replaces for 1.x KB less of the page and no loss of
/// speed (`docs/size.md`). Single-threaded wasm (no atomics) is what this
/// module is built for; it grows the memory as dlmalloc did, and frees
/// and merges neighbouring blocks, so a hostile stream's churn is bounded
/// by what the limits let it hold at once.
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The core tracker as JS sees it. Applications use the `ToolCallTracker`
/// class of `js/`, which wraps it.
#[wasm_bindgen]
pub struct WasmTracker {
    tracker: Tracker,
    /// What event streams leave for the JS layer: the data of each event
    /// the tracker accepted since the last `takeEvents`, kept only while
    /// the application listens (`onEvent`), or the checker's line
    /// positions (`takeLines`); otherwise nothing is copied.
    log: SseLog,
    /// The last change `takeChange` reported (see [`TextChange`]).
    change: TextChange,
    /// The last full change record `takeChange` made, for `takeRecord`.
    record: String,
    /// What `takeChange` last took, kept for its capacity.
    changes: Changes,
    /// The `toolCallId` and `subagentRunId` of the last `feedArgs` that
    /// sent them: a call's deltas come in a row, and the JS layer sends
    /// the two only when either changes (up to two strings less to
    /// allocate, copy and free per delta).
    args_id: String,
    args_owner: Option<String>,
}

/// What `takeChange` found: nothing changed.
const UNCHANGED: usize = 0;
/// What `takeChange` found: a change `takeRecord` gives the record of.
const RECORDED: usize = 1;

/// The operations of [`WasmTracker::operate`], as `js/tracker.js` numbers them.
const OP_APPROVE: u8 = 0;
const OP_DECLINE: u8 = 1;
const OP_ANSWER: u8 = 2;
const OP_FAIL: u8 = 3;
const OP_RESOLVE_INTERRUPT: u8 = 4;
const OP_CANCEL_INTERRUPT: u8 = 5;
/// `startRun`: 6; `restore`: 7.
const OP_RESTORE: u8 = 7;
/// `abortRun`, its reason in `a` (never refused).
const OP_ABORT_RUN: u8 = 8;
/// `positions`, the ids in `id`, as a JSON array (never refused).
const OP_POSITIONS: u8 = 9;
/// `save` (never refused), `load` (the saved text in `id`), and
/// `revokeApproval` (the tool's name in `id`, never refused).
const OP_SAVE: u8 = 10;
const OP_LOAD: u8 = 11;
const OP_REVOKE_APPROVAL: u8 = 12;

/// What [`WasmTracker::text`] returns, as the JS layer numbers it:
/// `takeEvents`, `toolMessages`, `summaryWithoutViolations`; 3 is
/// `violationsJson`; 4 `keptMessages` (rule F10); 5 `takeLines`.
const TEXT_EVENTS: u8 = 0;
const TEXT_TOOL_MESSAGES: u8 = 1;
const TEXT_SUMMARY: u8 = 2;
const TEXT_KEPT_MESSAGES: u8 = 4;
const TEXT_LINES: u8 = 5;

#[wasm_bindgen]
impl WasmTracker {
    /// A tracker configured by the options object, as JSON text; `log`
    /// says what event streams leave for the JS layer: 1 the events read,
    /// for `takeEvents`; 2 each event's line and each line that sets no
    /// field, for `takeLines` (3: each event's data too); 0 nothing.
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str, log: u8) -> Result<WasmTracker, JsError> {
        host::install();
        let options = wire::parse_options(options_json).map_err(|e| JsError::new(&e))?;
        let mut tracker = Tracker::with_pattern_engine(options, Rc::new(regexp::HostRegExpEngine));
        tracker.set_clock(clock::host());
        Ok(WasmTracker {
            tracker,
            log: SseLog::new(log),
            change: TextChange::default(),
            record: String::new(),
            changes: Changes::default(),
            args_id: String::new(),
            args_owner: None,
        })
    }

    /// Reads one event given as JSON text; returns whether the stream is
    /// still good. What changed is then read with `takeChange` (the JS
    /// layer); the stream checker reads the end state only.
    #[wasm_bindgen(js_name = feedJson)]
    pub fn feed_json(&mut self, text: &str) -> bool {
        self.tracker.push_json(text).is_ok()
    }

    /// Reads one `TOOL_CALL_ARGS` event given as its fields (a plain event
    /// object, read without JSON: `Tracker::push_args`): `tool_call_id`,
    /// empty for the last `feedArgs`'s id and owner (an event with an
    /// empty id crosses as JSON); `timestamp` a whole number of
    /// milliseconds or negative for none; `owner` its `subagentRunId`,
    /// read with a non-empty id only. Returns whether the stream is still
    /// good.
    #[wasm_bindgen(js_name = feedArgs)]
    pub fn feed_args(
        &mut self,
        tool_call_id: &str,
        delta: &str,
        timestamp: f64,
        owner: Option<String>,
    ) -> bool {
        if !tool_call_id.is_empty() {
            self.args_id.clear();
            self.args_id.push_str(tool_call_id);
            self.args_owner = owner;
        }
        // A whole number below 2^53 (checked in JS), so the cast is exact.
        let timestamp = (timestamp >= 0.0).then_some(timestamp as u64);
        self.tracker
            .push_args(&self.args_id, delta, timestamp, self.args_owner.as_deref())
            .is_ok()
    }

    /// Reads raw `text/event-stream` bytes, split anywhere (even inside a
    /// UTF-8 sequence); returns whether the stream is still good.
    #[wasm_bindgen(js_name = feedSse)]
    pub fn feed_sse(&mut self, chunk: &[u8]) -> bool {
        self.read_sse(chunk)
    }

    /// Text the JS layer reads now and then, through one export (each
    /// export costs the module a shim and the glue a method): `what` names
    /// it (`TEXT_*`), `from..to` are `violationsJson`'s bounds.
    pub fn text(&mut self, what: u8, from: usize, to: usize) -> String {
        match what {
            TEXT_EVENTS => self.log.take(None),
            TEXT_LINES => self.log.take(Some(self.tracker.sse_open_line())),
            TEXT_TOOL_MESSAGES => self.tool_messages(),
            TEXT_SUMMARY => self.summary_without_violations(),
            TEXT_KEPT_MESSAGES => self.kept_messages(),
            _ => self.violations_json(from, to),
        }
    }

    /// How many violations the tracker holds.
    #[wasm_bindgen(js_name = violationCount)]
    pub fn violation_count(&self) -> usize {
        self.tracker.violations().len()
    }

    /// The application operations, through one export (each export costs
    /// the module a shim and the glue a method): `op` names the operation
    /// (`OP_*`), `id` its call or interrupt (for `startRun` and `restore`,
    /// the run input as JSON; for `abortRun`, nothing; for `positions`, the
    /// ids), and `a`, `b` and `message_id` its other arguments, as the
    /// method of the same name below takes them. A new operation: a method
    /// below, a number here, and its call in `js/tracker.js`.
    pub fn operate(
        &mut self,
        op: u8,
        id: &str,
        a: Option<String>,
        b: Option<String>,
        message_id: Option<String>,
    ) -> Result<String, JsValue> {
        let message_id = message_id.as_deref().unwrap_or_default();
        match op {
            // `a` is `"tool"` for a standing approval (checked in JS).
            OP_APPROVE => self.approve(id, a.is_some()),
            OP_DECLINE => self.decline(id, a, message_id),
            OP_ANSWER => self.answer(id, a.as_deref().unwrap_or_default(), message_id),
            OP_FAIL => self.fail(id, a.as_deref().unwrap_or_default(), b, message_id),
            OP_RESOLVE_INTERRUPT => self.resolve_interrupt(id, a, b),
            OP_CANCEL_INTERRUPT => self.cancel_interrupt(id),
            OP_ABORT_RUN => Ok(self.abort_run(a)),
            OP_POSITIONS => Ok(positions_json(&self.positions(id))),
            OP_SAVE => Ok(self.save()),
            OP_LOAD => self.load(id),
            OP_REVOKE_APPROVAL => Ok(self.revoke_approval(id)),
            _ => self.start_run(id, op == OP_RESTORE),
        }
    }

    /// What changed since the last call, without a JSON record in the most
    /// common case: `0` nothing; `1` a change whose `ChangeRecord`
    /// `takeRecord` returns (any change at all with `whole`); otherwise text
    /// appended to one open call and nothing else, described by the change
    /// header at the address returned: six `f64` (see [`TextChange`]), at
    /// the same address for the tracker's life. The JS layer's hot path: a
    /// delta crosses as a few numbers and its own bytes, with nothing to
    /// serialise or parse.
    #[wasm_bindgen(js_name = takeChange)]
    pub fn take_change(&mut self, whole: bool) -> usize {
        let changes = &mut self.changes;
        self.tracker.take_changes_into(changes);
        if changes.is_empty() && !whole {
            return UNCHANGED;
        }
        if !whole && self.change.fill(&self.tracker, changes) {
            return self.change.header_address();
        }
        self.record = json_text(&ChangeRecord::new(&self.tracker, changes));
        RECORDED
    }

    /// The record `takeChange` made when it returned `1`, once.
    #[wasm_bindgen(js_name = takeRecord)]
    pub fn take_record(&mut self) -> String {
        std::mem::take(&mut self.record)
    }
}

impl WasmTracker {
    /// The whole state, without argument text or values (see
    /// `SummaryRecord`), as JSON, with `violations` left empty: a report
    /// reads them in pages with [`WasmTracker::violations_json`], so
    /// millions of warnings never become one string.
    pub fn summary_without_violations(&self) -> String {
        json_text(&SummaryRecord::new(&self.tracker, false))
    }

    /// The violations `from..to` (clamped to those held), as a JSON array.
    pub fn violations_json(&self, from: usize, to: usize) -> String {
        let all = self.tracker.violations();
        let to = to.min(all.len());
        let from = from.min(to);
        json_text(&all[from..to])
    }

    /// What messages keep for the next history (`Tracker::kept_messages`,
    /// rule F10), as JSON: `[[id, encryptedValue, encryptedValueType,
    /// metadata], ...]`, each as delivered, `null` when absent.
    pub fn kept_messages(&self) -> String {
        let mut out = String::from("[");
        for (id, kept) in self.tracker.kept_messages() {
            if out.len() > 1 {
                out.push(',');
            }
            out.push('[');
            out.push_str(&crate::quote::quoted(id));
            for value in [
                &kept.encrypted_value,
                &kept.encrypted_value_type,
                &kept.metadata,
            ] {
                out.push(',');
                out.push_str(value.as_ref().map_or("null", |v| v.get()));
            }
            out.push(']');
        }
        out.push(']');
        out
    }

    /// The application's answers for the next run's `messages`, as JSON.
    pub fn tool_messages(&self) -> String {
        json_text(&self.tracker.tool_messages())
    }

    /// Ends the active run locally (`Tracker::abort_run`); returns the
    /// change record.
    pub fn abort_run(&mut self, reason: Option<String>) -> String {
        self.tracker.abort_run(reason.as_deref());
        self.take_changes()
    }

    /// Where each message (ids separated by NUL) and then each call first
    /// appeared in the thread (`Tracker::message_position`, `-1` for an
    /// unknown id; `ToolCall::position`, in call order): for `nextRun`'s
    /// placement of calls between messages.
    pub fn positions(&self, ids: &str) -> Vec<i32> {
        // Plain loops: iterator adapters cost the module a kilobyte here.
        let calls = self.tracker.calls();
        let mut out = Vec::with_capacity(calls.len() + 8);
        // No ids at all is the empty list, not one empty id.
        if !ids.is_empty() {
            for id in crate::split::split(ids, 0) {
                out.push(self.tracker.message_position(id).map_or(-1, as_i32));
            }
        }
        for call in calls {
            out.push(as_i32(call.position()));
        }
        out
    }

    /// Records the user's approval of a completed call (rule S3); with
    /// `remember`, a standing approval of its tool too.
    pub fn approve(&mut self, id: &str, remember: bool) -> Result<String, JsValue> {
        self.applied(|t| {
            if remember {
                t.approve_and_remember(id)
            } else {
                t.approve(id)
            }
        })
    }

    /// The saved thread, as JSON text (`wire::save`).
    pub fn save(&self) -> String {
        wire::save(&self.tracker)
    }

    /// Loads a saved thread (`Tracker::load`); refused whole, naming the
    /// field.
    pub fn load(&mut self, text: &str) -> Result<String, JsValue> {
        self.applied(|t| t.load(text))
    }

    /// Withdraws the standing approval of a tool (rule S3).
    pub fn revoke_approval(&mut self, tool: &str) -> String {
        self.tracker.revoke_approval(tool);
        self.take_changes()
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
        // Kept as given: only the syntax is checked, at any depth.
        let content = crate::events::Opaque::from_json(content_json).map_err(|e| {
            JsValue::from(JsError::new(&format!("answer content is not JSON: {e}")))
        })?;
        self.applied(|t| t.answer(id, content, message_id))
    }

    /// Answers a completed call with a failure; `content_json`, when given,
    /// is a string or content parts, as JSON.
    pub fn fail(
        &mut self,
        id: &str,
        error: &str,
        content_json: Option<String>,
        message_id: &str,
    ) -> Result<String, JsValue> {
        // Kept as given, like `answer`'s: only the syntax is checked.
        let content = match content_json {
            Some(json) => Some(crate::events::Opaque::from_json(&json).map_err(|e| {
                JsValue::from(JsError::new(&format!("fail content is not JSON: {e}")))
            })?),
            None => None,
        };
        self.applied(|t| t.fail(id, error, content, message_id))
    }

    /// Resolves an open interrupt (rule I4); `payload_json` and
    /// `edited_args_json`, when given, are JSON.
    pub fn resolve_interrupt(
        &mut self,
        id: &str,
        payload_json: Option<String>,
        edited_args_json: Option<String>,
    ) -> Result<String, JsValue> {
        let read = |json: Option<String>| match json {
            Some(json) => crate::events::Opaque::from_json(&json)
                .map(Some)
                .map_err(|e| JsValue::from(JsError::new(&format!("not JSON: {e}")))),
            None => Ok(None),
        };
        let payload = read(payload_json)?;
        let edited_args = read(edited_args_json)?;
        self.applied(|t| t.resolve_interrupt(id, payload, edited_args))
    }

    /// Cancels an open interrupt (rule I4).
    pub fn cancel_interrupt(&mut self, id: &str) -> Result<String, JsValue> {
        self.applied(|t| t.cancel_interrupt(id))
    }

    /// Checks the next run's input (rule F6) and advertises its tools;
    /// refused with an error naming each unanswered call. With `restore`,
    /// restores a thread from saved history instead (`Tracker::restore`,
    /// rule F8): one export, one instance of `applied` (size).
    pub fn start_run(&mut self, input_json: &str, restore: bool) -> Result<String, JsValue> {
        self.applied(|t| {
            let read = if restore {
                crate::events::RunInput::from_history_json
            } else {
                crate::events::RunInput::from_json
            };
            let input = read(input_json).map_err(|e| ApplicationError::MalformedInput(e.into()))?;
            if restore {
                t.restore(input)
            } else {
                t.start_run(input)
            }
        })
    }

    /// What changed since the last record, always as a whole
    /// `ChangeRecord` in JSON (the application operations' result; the JS
    /// layer reads pushed input with `takeChange`; tests read this).
    pub fn take_changes(&mut self) -> String {
        let changes = self.tracker.take_changes();
        // Opaque payloads inside are written as given (`json_text`).
        json_text(&ChangeRecord::new(&self.tracker, &changes))
    }

    /// The change header and text `takeChange` last described (for tests:
    /// JS reads them from wasm memory).
    pub fn text_change(&self) -> (&[f64; 6], &[u8]) {
        self.change.parts()
    }

    /// Runs an application operation; its change record, or its refusal
    /// thrown as a `RefusalRecord` in JSON text, which the JS layer turns
    /// into a `ToolCallRefusedError` (the tracker is then unchanged).
    fn applied(
        &mut self,
        operation: impl FnOnce(&mut Tracker) -> Result<(), ApplicationError>,
    ) -> Result<String, JsValue> {
        operation(&mut self.tracker).map_err(|e| {
            let record = json_text(&RefusalRecord::new(&e));
            JsValue::from_str(&record)
        })?;
        Ok(self.take_changes())
    }

    /// Reads event-stream bytes (the tracker decodes them, rule S5 bounding
    /// lines and events), noting what the log keeps; whether the stream is
    /// still good.
    fn read_sse(&mut self, chunk: &[u8]) -> bool {
        let log = &mut self.log;
        self.tracker
            .push_sse_with(chunk, |item, accepted| log.note(item, accepted))
            .is_ok()
    }
}

/// Positions as a JSON array of numbers: through `operate`, a list of
/// numbers needs no export and glue of its own.
fn positions_json(positions: &[i32]) -> String {
    let mut out = vec![b'['];
    for (i, &p) in positions.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if p < 0 {
            out.push(b'-');
        }
        wire::json_number(&mut out, u64::from(p.unsigned_abs()));
    }
    out.push(b']');
    // Digits, signs and commas: ASCII.
    String::from_utf8(out).unwrap_or_default()
}

/// A position as JS reads it (positions never come near `i32::MAX`: each
/// is bounded by the messages a thread holds).
fn as_i32(position: usize) -> i32 {
    i32::try_from(position).unwrap_or(i32::MAX)
}
