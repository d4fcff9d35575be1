//! The AG-UI events the tracker reads (the shapes of `@ag-ui/core` 1.0.0).
//!
//! Parsing reads each event's keys once into a flat record of optional
//! fields (module `raw`) and then builds the typed [`Event`] by its `type`;
//! strings are borrowed from the input where JSON escaping allows, so a
//! `TOOL_CALL_ARGS` delta is not copied before it reaches the call. Opaque
//! payloads are kept as the text given ([`Opaque`]); a lone surrogate escape
//! in a string is accepted, as `JSON.parse` accepts it (module `json`).

pub(crate) mod fields;
mod interrupts;
pub(crate) mod json;
mod kept;
mod opaque;
pub(crate) mod payload;
mod raw;
pub mod saved;
mod strip;

use crate::value::Value;
pub use interrupts::{Interrupt, ResumeEntry, ResumeStatus};
pub use json::{JsonStr, REPLACEMENT};
pub use kept::Kept;
pub use opaque::{to_json, Opaque};
pub use payload::FieldError;
use std::borrow::Cow;
pub use strip::Stripped;

/// Text borrowed from the JSON input where possible.
pub type Text<'a> = Cow<'a, str>;

/// One AG-UI event: its body, and the subagent that emitted it.
///
/// ```
/// use agui_tool_calls::events::{Event, EventBody};
///
/// let e = Event::from_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}"#).unwrap();
/// assert!(matches!(e.body, EventBody::ToolCallArgs { ref delta, .. } if delta.text == "{}"));
/// assert_eq!(e.owner, None);
///
/// let err = Event::from_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":4}"#).unwrap_err();
/// assert_eq!(err.message(), r#"TOOL_CALL_ARGS: field "delta" must be a string"#);
/// assert_eq!(err.path(), Some("delta"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Event<'a> {
    /// `subagentRunId`: the subagent that emitted the event; `None` is the
    /// parent agent. For `SUBAGENT_*` events it names the subagent itself.
    pub owner: Option<Text<'a>>,
    /// `metadata`, an object, as given: merged into the call or message
    /// the event builds (rule F10); `None` when absent.
    pub metadata: Option<Opaque>,
    /// What the event says.
    pub body: EventBody<'a>,
}

/// The typed content of an event, by `type`.
#[derive(Clone, Debug, PartialEq)]
pub enum EventBody<'a> {
    /// `RUN_STARTED`.
    RunStarted {
        /// `threadId`: the conversation thread.
        thread_id: Text<'a>,
        /// `runId`: the run.
        run_id: Text<'a>,
        /// `parentRunId`: the run that started this one, when nested.
        parent_run_id: Option<Text<'a>>,
        /// The `RunAgentInput` the run was started with, when echoed.
        /// Boxed: the event's size is its largest variant's, and every event
        /// (a `TOOL_CALL_ARGS` delta on the fixed path too) is built at it.
        input: Option<Box<RunInput>>,
    },
    /// `RUN_FINISHED`.
    RunFinished {
        /// `threadId`: the conversation thread.
        thread_id: Text<'a>,
        /// `runId`: the run.
        run_id: Text<'a>,
        /// Opaque, kept as given.
        result: Option<Opaque>,
        /// `outcome`: how the run ended, when given. An outcome of a type
        /// 1.0 does not describe is stripped (rule P1): `None`, success.
        outcome: Option<Outcome>,
        /// The paths stripped as unrecognised material (rule P1), for the
        /// warnings; empty for a stream that holds none.
        stripped: Vec<Stripped>,
    },
    /// `RUN_ERROR`.
    RunError {
        /// The human-readable message.
        message: Text<'a>,
        /// An error code, when the producer gives one.
        code: Option<Text<'a>>,
    },
    /// `TEXT_MESSAGE_START`.
    TextMessageStart {
        /// `messageId`: the message.
        message_id: Text<'a>,
        /// `role`, as sent.
        role: Option<Text<'a>>,
    },
    /// `TEXT_MESSAGE_CONTENT`.
    TextMessageContent {
        /// `messageId`: the message.
        message_id: Text<'a>,
        /// `delta`: the next piece of text.
        delta: Text<'a>,
    },
    /// `TEXT_MESSAGE_END`.
    TextMessageEnd {
        /// `messageId`: the message.
        message_id: Text<'a>,
    },
    /// `TEXT_MESSAGE_CHUNK`.
    TextMessageChunk {
        /// `messageId`: the message.
        message_id: Option<Text<'a>>,
        /// `role`, as sent.
        role: Option<Text<'a>>,
        /// `delta`: the next piece of text.
        delta: Option<Text<'a>>,
    },
    /// `TOOL_CALL_START`.
    ToolCallStart {
        /// `toolCallId`: the tool call.
        tool_call_id: Text<'a>,
        /// `toolCallName`: the tool the call invokes.
        tool_call_name: Text<'a>,
        /// `parentMessageId`: the assistant message that carries the call.
        parent_message_id: Option<Text<'a>>,
        /// `parentMessageId` was `null`, a retired spelling of none (rule
        /// P3), read as absent, for the warning.
        null_parent: bool,
    },
    /// `TOOL_CALL_ARGS`.
    ToolCallArgs {
        /// `toolCallId`: the tool call.
        tool_call_id: Text<'a>,
        /// A lone surrogate at either edge is kept apart, to be joined with
        /// the other half in the next or previous delta (rule T4).
        delta: JsonStr<'a>,
    },
    /// `TOOL_CALL_END`.
    ToolCallEnd {
        /// `toolCallId`: the tool call.
        tool_call_id: Text<'a>,
    },
    /// `TOOL_CALL_CHUNK`.
    ToolCallChunk {
        /// `toolCallId`: the tool call.
        tool_call_id: Option<Text<'a>>,
        /// `toolCallName`: the tool the call invokes.
        tool_call_name: Option<Text<'a>>,
        /// `parentMessageId`: the assistant message that carries the call.
        parent_message_id: Option<Text<'a>>,
        /// As the delta of [`EventBody::ToolCallArgs`].
        delta: Option<JsonStr<'a>>,
        /// As on [`EventBody::ToolCallStart`].
        null_parent: bool,
    },
    /// `TOOL_CALL_RESULT`.
    ToolCallResult {
        /// `messageId`: the message.
        message_id: Text<'a>,
        /// `toolCallId`: the tool call.
        tool_call_id: Text<'a>,
        /// A string, or an array of content parts: opaque data (rule T9),
        /// kept as given, but for the parts stripped (rule P1).
        content: Opaque,
        /// `error`, when the result reports a failure.
        error: Option<Text<'a>>,
        /// The paths stripped from `content` (rule P1), for the warnings.
        stripped: Vec<Stripped>,
    },
    /// `REASONING_ENCRYPTED_VALUE`: an artefact to store with the call or
    /// message it names and return unmodified (rule F10).
    EncryptedValue {
        /// `subtype`, as sent: `tool-call` or `message`; another string is
        /// a member 1.1 does not describe (rule P1: the event is removed).
        subtype: Text<'a>,
        /// `entityId`: the call or message.
        entity_id: Text<'a>,
        /// `encryptedValue`, a JSON string as given.
        value: Opaque,
        /// `encryptedValueType`, a JSON string as given.
        value_type: Option<Opaque>,
    },
    /// `MESSAGES_SNAPSHOT`.
    MessagesSnapshot {
        /// The messages, in order.
        messages: Vec<Message>,
        /// What the processing model stripped from their content (rule P1).
        stripped: Vec<Stripped>,
    },
    /// `SUBAGENT_STARTED` (rule A8); boxed, as `RUN_STARTED`'s input.
    SubagentStarted(Box<SubagentStart>),
    /// `SUBAGENT_FINISHED` (rule A8).
    SubagentFinished {
        /// The interrupt ids of a `suspended` outcome; `None` is success
        /// (absent, `success`, or a type 1.0 does not describe, stripped).
        suspended: Option<Vec<String>>,
        /// `result`: the subagent's return value, opaque, kept as given
        /// (a `null` reads as absent, rule P3).
        result: Option<Opaque>,
        /// What the processing model stripped from the outcome (P1, P2).
        stripped: Vec<Stripped>,
    },
    /// `SUBAGENT_ERROR` (rule A8).
    SubagentError {
        /// What went wrong, for a person to read.
        message: Text<'a>,
        /// A machine-readable code, when given.
        code: Option<Text<'a>>,
    },
    /// An event the tracker passes over, kept by family for lane closing
    /// (rule C5). An unknown type has [`Family::Unknown`] (rule E3).
    Other {
        /// The event type's family.
        family: Family,
        /// The `type`, as sent.
        event_type: Text<'a>,
    },
}

/// What `SUBAGENT_STARTED` says about the invocation it announces; its id
/// is the event's `subagentRunId` ([`Event::owner`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SubagentStart {
    /// `name`: the subagent, reusable across invocations.
    pub name: String,
    /// `description`, for display.
    pub description: Option<String>,
    /// `parentSubagentRunId`: the invocation that spawned this one.
    pub parent_subagent_run_id: Option<String>,
    /// `parentToolCallId`: the tool call that spawned it.
    pub parent_tool_call_id: Option<String>,
    /// `parentMessageId`: the message that held the spawning call.
    pub parent_message_id: Option<String>,
}

/// The family of an event type, as rule C5 groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `RUN_*` events.
    Run,
    /// `TEXT_MESSAGE_*` events.
    Text,
    /// `TOOL_CALL_*` events.
    Tool,
    /// `STATE_*` events.
    State,
    /// `STEP_*` events.
    Step,
    /// `REASONING_*` and `THINKING_*` events.
    Reasoning,
    /// `CUSTOM` events.
    Custom,
    /// `MESSAGES_SNAPSHOT`.
    Messages,
    /// `RAW` events.
    Raw,
    /// `ACTIVITY_*` events.
    Activity,
    /// `SUBAGENT_*` events.
    Subagent,
    /// A type this tracker does not know (rule E3).
    Unknown,
}

/// `RUN_FINISHED.outcome` (rules L7, L8). One variant per outcome type
/// 1.0 describes; a type it does not describe never gets here (rule P1).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The run completed; the producer may list the calls it left pending.
    Success {
        /// `pendingToolCallIds`: the calls the producer says are left pending.
        pending_tool_call_ids: Option<Vec<String>>,
    },
    /// The run stopped to ask; `interrupts` is never empty (rule I1).
    Interrupt {
        /// The interrupts, in order.
        interrupts: Vec<Interrupt>,
    },
    /// The producer stopped the run before it completed, for a reason that
    /// is not a failure (rule L8): neither success nor failure, and it
    /// waits for nothing.
    Cancelled,
}

/// The parts of a `RunAgentInput` the tracker reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunInput {
    /// The messages, in order.
    pub messages: Vec<Message>,
    /// `None` when the input has no `tools` key.
    pub tools: Option<Vec<Tool>>,
    /// What the processing model stripped from the messages' content
    /// (rule P1), for the warnings of a stream's `RUN_STARTED.input`.
    pub stripped: Vec<Stripped>,
    /// `resume`: the answers to the open interrupts (rule I5); `None` when
    /// the input has none.
    pub resume: Option<Vec<ResumeEntry>>,
}

impl RunInput {
    /// Reads the application's `RunAgentInput` from JSON text: `threadId`,
    /// `runId` and `messages` are required, and every field the tracker
    /// reads is type-checked (`messages`, `tools`, `context`, `resume`);
    /// `state`, `forwardedProps` and unknown keys are tolerated. An error
    /// names the field by its path, also given as data (E2).
    ///
    /// ```
    /// use agui_tool_calls::events::RunInput;
    ///
    /// let input = RunInput::from_json(r#"{"threadId":"t","runId":"r2","messages":[
    ///   {"id":"m1","role":"tool","toolCallId":"c1","content":"ok"}],"tools":[]}"#).unwrap();
    /// assert_eq!(input.messages[0].tool_call_id.as_deref(), Some("c1"));
    ///
    /// let e = RunInput::from_json(r#"{"threadId":"t","runId":"r2","messages":[{"role":"user"}]}"#)
    ///     .unwrap_err();
    /// assert_eq!(e.path(), Some("messages[0].id"));
    /// ```
    pub fn from_json(text: &str) -> Result<RunInput, EventError> {
        Self::read(text, payload::InputFrom::Application)
    }

    /// Reads saved history, `{messages, tools?}` (or a whole
    /// `RunAgentInput`), as `restore` takes it: only `messages` is required.
    pub fn from_history_json(text: &str) -> Result<RunInput, EventError> {
        Self::read(text, payload::InputFrom::History)
    }

    fn read(text: &str, from: payload::InputFrom) -> Result<RunInput, EventError> {
        let raw =
            json::Raw::checked(text).map_err(|e| EventError::e2(format!("invalid JSON: {e}")))?;
        payload::run_input(raw, from).map_err(EventError::from)
    }

    /// Reads a `RunAgentInput` from a JSON value.
    pub fn from_value(value: serde_json::Value) -> Result<RunInput, EventError> {
        RunInput::from_json(&value.to_string())
    }
}

/// A tool the application advertises (`Tool` of `@ag-ui/core`).
///
/// ```
/// use agui_tool_calls::events::Tool;
/// use serde_json::json;
///
/// let tool = Tool::new("confirm", "Ask the user", json!({"type": "object"}));
/// assert_eq!(tool.name, "confirm");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Tool {
    /// The name.
    pub name: String,
    /// What the tool does, for the model.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub description: String,
    /// The tool's parameters, a JSON Schema.
    #[cfg_attr(test, ts(type = "unknown", optional = nullable))]
    pub parameters: Value,
}

impl Tool {
    /// A tool from its three parts.
    pub fn new(name: &str, description: &str, parameters: impl Into<Value>) -> Self {
        Tool {
            name: name.to_owned(),
            description: description.to_owned(),
            parameters: parameters.into(),
        }
    }
}

/// A message of conversation history (the fields the tracker reads).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The id.
    pub id: String,
    /// `role`, as sent.
    pub role: String,
    /// `subagentRunId` on the message, when present: its owner.
    pub owner: Option<String>,
    /// Opaque, kept as given.
    pub content: Option<Opaque>,
    /// The calls an assistant message carries.
    pub tool_calls: Vec<HistoryCall>,
    /// The call a tool message answers.
    pub tool_call_id: Option<String>,
    /// A tool message's error.
    pub error: Option<String>,
    /// An assistant message's `encryptedValue`, `encryptedValueType` and
    /// `metadata` (rule F10).
    pub kept: Kept,
}

/// A tool call as it appears on an assistant message of history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryCall {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The argument text, exactly as given.
    pub arguments: String,
    /// Its `encryptedValue`, `encryptedValueType` and `metadata` (rule F10).
    pub kept: Kept,
}

/// Why an event could not be read: the rule broken, and the field.
///
/// ```
/// use agui_tool_calls::Event;
///
/// let err = Event::from_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1"}"#).unwrap_err();
/// assert_eq!(err.code, "E2");
/// assert_eq!(err.path(), Some("toolCallName"));
/// assert_eq!(err.message(), r#"TOOL_CALL_START: missing field "toolCallName""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventError {
    /// The rule broken: `E2` (malformed), or `A6` (`subagentRunId: null`).
    pub code: &'static str,
    /// The field at fault and the message naming the event type and field;
    /// an empty path when the text is no event at all.
    pub field: payload::FieldError,
}

impl EventError {
    fn e2(message: String) -> Self {
        EventError {
            code: "E2",
            field: payload::FieldError::whole(message),
        }
    }

    /// What is wrong, naming the event type and field where known.
    pub fn message(&self) -> &str {
        self.field.message()
    }

    /// The field at fault, as a path in the event (`toolCallId`,
    /// `input.messages[2].id`); `None` when the text is no event at all.
    pub fn path(&self) -> Option<&str> {
        Some(self.field.path()).filter(|p| !p.is_empty())
    }
}

/// A wrong field of the payload: E2 at its path.
impl From<payload::FieldError> for EventError {
    fn from(field: payload::FieldError) -> Self {
        EventError { code: "E2", field }
    }
}

/// Where no event is concerned (the application's run input), the field.
impl From<EventError> for payload::FieldError {
    fn from(e: EventError) -> Self {
        e.field
    }
}

impl<'a> Event<'a> {
    /// Parses one event from JSON text, borrowing strings from it. Only
    /// the syntax of parts the tracker does not read is checked, without
    /// recursion: their depth is not limited.
    pub fn from_json(text: &'a str) -> Result<Event<'a>, EventError> {
        raw::read(text)
    }

    /// The family of the event's type (rule C5).
    pub fn family(&self) -> Family {
        match &self.body {
            EventBody::RunStarted { .. }
            | EventBody::RunFinished { .. }
            | EventBody::RunError { .. } => Family::Run,
            EventBody::TextMessageStart { .. }
            | EventBody::TextMessageContent { .. }
            | EventBody::TextMessageEnd { .. }
            | EventBody::TextMessageChunk { .. } => Family::Text,
            EventBody::ToolCallStart { .. }
            | EventBody::ToolCallArgs { .. }
            | EventBody::ToolCallEnd { .. }
            | EventBody::ToolCallChunk { .. }
            | EventBody::ToolCallResult { .. } => Family::Tool,
            EventBody::MessagesSnapshot { .. } => Family::Messages,
            EventBody::EncryptedValue { .. } => Family::Reasoning,
            EventBody::SubagentStarted(_)
            | EventBody::SubagentFinished { .. }
            | EventBody::SubagentError { .. } => Family::Subagent,
            EventBody::Other { family, .. } => *family,
        }
    }

    /// The event's `type`, as on the wire.
    pub fn event_type(&self) -> &str {
        match &self.body {
            EventBody::RunStarted { .. } => "RUN_STARTED",
            EventBody::RunFinished { .. } => "RUN_FINISHED",
            EventBody::RunError { .. } => "RUN_ERROR",
            EventBody::TextMessageStart { .. } => "TEXT_MESSAGE_START",
            EventBody::TextMessageContent { .. } => "TEXT_MESSAGE_CONTENT",
            EventBody::TextMessageEnd { .. } => "TEXT_MESSAGE_END",
            EventBody::TextMessageChunk { .. } => "TEXT_MESSAGE_CHUNK",
            EventBody::ToolCallStart { .. } => "TOOL_CALL_START",
            EventBody::ToolCallArgs { .. } => "TOOL_CALL_ARGS",
            EventBody::ToolCallEnd { .. } => "TOOL_CALL_END",
            EventBody::ToolCallChunk { .. } => "TOOL_CALL_CHUNK",
            EventBody::ToolCallResult { .. } => "TOOL_CALL_RESULT",
            EventBody::MessagesSnapshot { .. } => "MESSAGES_SNAPSHOT",
            EventBody::EncryptedValue { .. } => "REASONING_ENCRYPTED_VALUE",
            EventBody::SubagentStarted(_) => "SUBAGENT_STARTED",
            EventBody::SubagentFinished { .. } => "SUBAGENT_FINISHED",
            EventBody::SubagentError { .. } => "SUBAGENT_ERROR",
            EventBody::Other { event_type, .. } => event_type,
        }
    }
}

/// The family of a type the tracker passes over; `Unknown` for a type
/// `@ag-ui/core` 1.0.0 does not define.
fn passed_over_family(event_type: &str) -> Family {
    match event_type {
        "STATE_SNAPSHOT" | "STATE_DELTA" => Family::State,
        "STEP_STARTED" | "STEP_FINISHED" => Family::Step,
        "CUSTOM" => Family::Custom,
        "RAW" => Family::Raw,
        "ACTIVITY_SNAPSHOT" | "ACTIVITY_DELTA" => Family::Activity,
        "REASONING_START"
        | "REASONING_MESSAGE_START"
        | "REASONING_MESSAGE_CONTENT"
        | "REASONING_MESSAGE_END"
        | "REASONING_MESSAGE_CHUNK"
        | "REASONING_END"
        | "THINKING_START"
        | "THINKING_END"
        | "THINKING_TEXT_MESSAGE_START"
        | "THINKING_TEXT_MESSAGE_CONTENT"
        | "THINKING_TEXT_MESSAGE_END" => Family::Reasoning,
        _ => Family::Unknown,
    }
}
