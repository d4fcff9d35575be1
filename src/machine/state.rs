//! What the tracker knows: calls, their results, and the run.

use crate::args::{ArgsError, ArgsReader, Partial};
use crate::events::{Interrupt, Kept, Opaque, Outcome};
use crate::value::Value;

/// Where a call stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallStatus {
    /// Started, not yet ended: its text is a prefix (rule T5).
    Open,
    /// Ended: the text is complete (rule T6).
    Complete,
    /// Open when its run failed (rule L5); never pending.
    Abandoned,
}

/// Whether the application let a call be executed (rule S3). Only the
/// application changes it; the tracker never approves on its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Consent {
    /// Neither approved nor declined yet.
    #[default]
    Unrequested,
    /// [`Tracker::approve`](crate::Tracker::approve) was called.
    Approved,
    /// [`Tracker::decline`](crate::Tracker::decline) was called.
    Declined,
}

/// The user's approval of every later call to one tool in this thread
/// (rule S3), given when approving one call.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StandingApproval {
    /// The tool whose calls it approves.
    pub tool: String,
    /// The call the user approved when giving it.
    pub tool_call_id: String,
}

/// Where a result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultSource {
    /// A `TOOL_CALL_RESULT` event.
    Stream,
    /// A tool message of history (`MESSAGES_SNAPSHOT`, run input; rule A5).
    History,
    /// The application's own answer.
    Application,
}

/// One result answering a call (rule T9): a tool message of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    /// The tool message's id.
    pub message_id: String,
    /// A string or an array of content parts, kept as given (opaque).
    pub content: Opaque,
    /// `error`, when the result reports a failure.
    pub error: Option<String>,
    /// The subagent the result is attributed to (rule A7), unchecked.
    pub owner: Option<String>,
    /// Where the result came from.
    pub source: ResultSource,
    /// The event that carried it, for stream results.
    pub event_index: Option<usize>,
    /// The producer answered a frontend call (rule F4): kept, but it does
    /// not answer the call, which stays pending for the application.
    pub rejected: bool,
}

impl ToolResult {
    /// The application's answer (`answer`, `decline`, `fail`, or one a
    /// saved thread brings back): no event carried it.
    pub(crate) fn from_application(
        message_id: String,
        content: Opaque,
        error: Option<String>,
    ) -> Self {
        ToolResult {
            message_id,
            content,
            error,
            owner: None,
            source: ResultSource::Application,
            event_index: None,
            rejected: false,
        }
    }

    /// Whether this result answers its call.
    pub fn answers(&self) -> bool {
        !self.rejected
    }
}

/// A result whose call the tracker never saw (rule T10).
#[derive(Clone, Debug, PartialEq)]
pub struct UnmatchedResult {
    /// `toolCallId`: the tool call.
    pub tool_call_id: String,
    /// The result.
    pub result: ToolResult,
}

/// One tool call of the thread.
///
/// ```
/// use agui_tool_calls::{CallStatus, Options, Tracker};
///
/// let mut t = Tracker::new(Options::default());
/// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
/// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#).unwrap();
/// t.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\":1}"}"#).unwrap();
/// let call = t.call("c1").unwrap();
/// assert_eq!(call.status, CallStatus::Open);
/// assert!(call.arguments().is_none()); // nothing final before the end (T5)
/// t.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#).unwrap();
/// assert!(t.call("c1").unwrap().final_parse().unwrap().is_ok());
/// let args = t.call("c1").unwrap().arguments().unwrap().unwrap();
/// assert_eq!(args.get("a").and_then(|a| a.as_u64()), Some(1));
/// ```
#[derive(Clone, Debug)]
pub struct ToolCall {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// `parentMessageId`: the assistant message that carries the call.
    pub parent_message_id: Option<String>,
    /// The subagent the call belongs to; `None` is the parent agent.
    pub owner: Option<String>,
    /// The run in which the call was last (re)opened; `None` for calls
    /// known from history or seen before any run.
    pub run_id: Option<String>,
    /// Open, complete or abandoned.
    pub status: CallStatus,
    /// How many times a closed call was reopened (rule T7).
    pub reopen_count: u32,
    /// Every result, in arrival order (rules T9, T12, F4).
    pub results: Vec<ToolResult>,
    /// The call names an advertised tool: a frontend call (rule F1).
    pub advertised: bool,
    /// Closed, unanswered, left by a finished run (rule F2).
    pub pending: bool,
    /// Closed, unanswered, left by a cancelled run (rule L8): not pending;
    /// the next run's history answers it as cancelled unless the
    /// application answers it first.
    pub cancelled: bool,
    /// Known from conversation history rather than streamed (rule A5).
    pub from_history: bool,
    /// What the application decided (rule S3).
    pub consent: Consent,
    /// When a standing approval approved the call: the call on which the
    /// user gave it; `None` when the user decided on this call itself.
    pub consent_from: Option<String>,
    /// The open interrupt that asks for this call's approval (rule I3): the
    /// call is not pending, and only a resume entry answers it.
    pub awaiting_interrupt: Option<String>,
    /// Whether the arguments satisfy the tool's schema (rules S1, S2).
    pub validation: super::Validation,
    /// The index of the event that last closed the call (end, chunk lane
    /// change, run end or error), so a report can place what its arguments
    /// turned out to be; `None` while open or when known from history.
    pub closed_at: Option<usize>,
    /// Its `encryptedValue`, `encryptedValueType` and `metadata`, as the
    /// stream (or history) delivered them, for the next history (rule F10).
    pub kept: Kept,
    pub(crate) args: ArgsReader,
    /// An argument limit hit while streaming (rule S5).
    pub(crate) args_error: Option<ArgsError>,
    /// The chunk lane holding the call open, if a chunk opened it.
    pub(crate) lane: Option<Option<String>>,
    pub(crate) dirty: bool,
    /// Changed otherwise than by appended text since the last take.
    pub(crate) meta_dirty: bool,
    pub(crate) taken_len: usize,
    /// Where the call happened among the thread's messages: how many
    /// message ids the tracker had seen when it started.
    pub(crate) seq: usize,
}

impl ToolCall {
    pub(crate) fn new(id: String, name: String, args: ArgsReader) -> Self {
        ToolCall {
            id,
            name,
            parent_message_id: None,
            owner: None,
            run_id: None,
            status: CallStatus::Open,
            reopen_count: 0,
            results: Vec::new(),
            advertised: false,
            pending: false,
            cancelled: false,
            from_history: false,
            consent: Consent::Unrequested,
            consent_from: None,
            awaiting_interrupt: None,
            validation: super::Validation::Unvalidated,
            closed_at: None,
            kept: Kept::default(),
            args,
            args_error: None,
            lane: None,
            dirty: false,
            meta_dirty: false,
            taken_len: 0,
            seq: 0,
        }
    }

    /// The argument text so far: the deltas concatenated (rule T4).
    pub fn args_text(&self) -> &str {
        self.args.text()
    }

    /// While the call is open, a best-effort reading of its prefix, marked
    /// partial by its type (rule T5); `None` once closed.
    pub fn partial(&self) -> Option<Partial> {
        match self.status {
            CallStatus::Open => self.args.partial(),
            _ => None,
        }
    }

    /// While the call is open, whether the value at `path` of its partial
    /// value is complete: once `Some(true)`, that value never changes
    /// while the call streams (the argument reader's `complete_at`). `None`
    /// once closed (every value is then complete) or while nothing is there.
    pub fn complete_at(&self, path: &[crate::args::PathStep]) -> Option<bool> {
        match self.status {
            CallStatus::Open => self.args.complete_at(path),
            _ => None,
        }
    }

    /// [`ToolCall::partial`] without allocating: its suffix appended to
    /// `suffix`, its cut in UTF-16 code units returned.
    pub fn partial_into(&self, suffix: &mut String) -> Option<usize> {
        match self.status {
            CallStatus::Open => self.args.partial_into(suffix),
            _ => None,
        }
    }

    /// The parsed arguments, only once the call is complete (rules T5, T6):
    /// the value, or why the text is not one (parse or limit error). The
    /// value is parsed from the text on each call: the tracker keeps only
    /// the text (the binding's JS parses its own copy).
    /// An empty text reads as `{}` (rule F9: a zero-argument tool whose
    /// producer sent no `TOOL_CALL_ARGS`, as the 1.0 reference reads it);
    /// the text itself stays empty.
    pub fn arguments(&self) -> Option<Result<Value, ArgsError>> {
        (self.status == CallStatus::Complete).then(|| {
            if self.args_text().is_empty() {
                return Ok(Value::Object(Default::default()));
            }
            self.args.finish()
        })
    }

    /// [`ToolCall::arguments`] without the value: only once the call is
    /// complete, whether its text parses, or why not. Answered by the
    /// reader, which checked each byte as it came.
    pub fn final_parse(&self) -> Option<Result<(), ArgsError>> {
        (self.status == CallStatus::Complete).then(|| {
            if self.args_text().is_empty() {
                return Ok(());
            }
            self.args.check()
        })
    }

    /// The argument limit the text hit while streaming, if any (rule S5).
    pub fn args_error(&self) -> Option<&ArgsError> {
        self.args_error.as_ref()
    }

    /// Where the call happened among the thread's messages: how many
    /// message ids the tracker had seen when it first started (see
    /// [`Tracker::message_position`](crate::Tracker::message_position)).
    pub fn position(&self) -> usize {
        self.seq
    }

    /// Whether some result answers the call.
    pub fn answered(&self) -> bool {
        self.results.iter().any(ToolResult::answers)
    }
}

/// Where the current run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// No run event yet.
    Idle,
    /// Between `RUN_STARTED` and its end.
    Running,
    /// Finished with no outcome or a `success` outcome.
    Finished,
    /// Finished with an `interrupt` outcome.
    Interrupted,
    /// Finished with a `cancelled` outcome (rule L8): the producer stopped
    /// the run; neither a success nor a failure.
    Cancelled,
    /// `RUN_ERROR` ended it.
    Errored,
    /// Ended locally by [`Tracker::abort_run`](crate::Tracker::abort_run):
    /// the user stopped it or the stream went away without a terminal event.
    Aborted,
}

/// The latest run of the thread (rules L6, L7).
#[derive(Clone, Debug, PartialEq)]
pub struct RunState {
    /// Where the run is.
    pub status: RunStatus,
    /// `threadId`: the conversation thread.
    pub thread_id: Option<String>,
    /// `runId`: the run.
    pub run_id: Option<String>,
    /// `parentRunId`: the run that started this one, when nested.
    pub parent_run_id: Option<String>,
    /// `outcome`: how the run ended, when given.
    pub outcome: Option<Outcome>,
    /// `RUN_FINISHED.result`, kept as given (opaque).
    pub result: Option<Opaque>,
    /// `RUN_ERROR`'s message and code.
    pub error: Option<(String, Option<String>)>,
    /// How many runs have started.
    pub runs_started: u32,
}

impl RunState {
    pub(crate) fn idle() -> Self {
        RunState {
            status: RunStatus::Idle,
            thread_id: None,
            run_id: None,
            parent_run_id: None,
            outcome: None,
            result: None,
            error: None,
            runs_started: 0,
        }
    }
}

/// What the application decided about an open interrupt (rule I4).
#[derive(Clone, Debug, PartialEq)]
pub enum InterruptDecision {
    /// Not decided yet: the next run's input may not leave it uncovered.
    Open,
    /// Resolved: the resume entry carries this payload (absent: none).
    Resolved(Option<Opaque>),
    /// Cancelled: the resume entry abandons it.
    Cancelled,
}

/// An interrupt of the thread's most recent interrupted run, open until
/// the next run starts (rule I1), with the application's decision.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenInterrupt {
    /// The interrupt, as the outcome gave it.
    pub interrupt: Interrupt,
    /// What the application decided (rule I4).
    pub decision: InterruptDecision,
}
