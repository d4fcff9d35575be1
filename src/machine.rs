//! The tracker: consumes events one at a time and keeps every call's state.
//!
//! PLACEHOLDER: the first slice enforces T1 only.

use crate::args::{ArgsLimits, ArgsReader};
use crate::events::Event;
use crate::violation::{Severity, Violation};

/// How a tracker is set up.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Limits on each call's arguments.
    pub args_limits: ArgsLimits,
}

/// Where a call stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallStatus {
    Open,
    Complete,
    Abandoned,
}

/// One tool call of the thread.
#[derive(Clone, Debug)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub status: CallStatus,
    args: ArgsReader,
}

impl ToolCall {
    /// The argument text so far.
    pub fn args_text(&self) -> &str {
        self.args.text()
    }
}

/// The tool-call state machine of one thread.
///
/// ```
/// use agui_tool_calls::{Options, Tracker};
///
/// let mut t = Tracker::new(Options::default());
/// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
/// let err = t.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"x"}"#).unwrap_err();
/// assert_eq!(err.code, "T2");
/// ```
#[derive(Debug)]
pub struct Tracker {
    options: Options,
    calls: Vec<ToolCall>,
    events_seen: usize,
    fatal: Option<Violation>,
}

impl Tracker {
    pub fn new(options: Options) -> Self {
        Tracker {
            options,
            calls: Vec::new(),
            events_seen: 0,
            fatal: None,
        }
    }

    /// Every call, in the order first started.
    pub fn calls(&self) -> &[ToolCall] {
        &self.calls
    }

    /// The fatal violation that stopped the stream, if any.
    pub fn fatal(&self) -> Option<&Violation> {
        self.fatal.as_ref()
    }

    /// Reads one event from JSON text.
    pub fn push_json(&mut self, text: &str) -> Result<(), Violation> {
        if let Some(f) = &self.fatal {
            return Err(f.clone());
        }
        let index = self.events_seen;
        let result = Event::from_json(text)
            .map_err(|e| Violation::new("E2", Severity::Fatal, index, e))
            .and_then(|event| self.apply(index, event));
        self.events_seen += 1;
        if let Err(v) = &result {
            self.fatal = Some(v.clone());
        }
        result
    }

    fn open_call(&mut self, id: &str) -> Option<&mut ToolCall> {
        self.calls
            .iter_mut()
            .find(|c| c.id == id && c.status == CallStatus::Open)
    }

    fn apply(&mut self, index: usize, event: Event) -> Result<(), Violation> {
        match event {
            Event::ToolCallStart {
                tool_call_id,
                tool_call_name,
                ..
            } => {
                let args = ArgsReader::new(self.options.args_limits);
                self.calls.push(ToolCall {
                    id: tool_call_id,
                    name: tool_call_name,
                    status: CallStatus::Open,
                    args,
                });
            }
            Event::ToolCallArgs {
                tool_call_id,
                delta,
            } => {
                let call = self.open_call(&tool_call_id).ok_or_else(|| {
                    Violation::new(
                        "T1",
                        Severity::Fatal,
                        index,
                        "TOOL_CALL_ARGS for a call that is not open",
                    )
                    .with_call(&tool_call_id)
                })?;
                let _ = call.args.push(&delta);
            }
            Event::ToolCallEnd { tool_call_id } => {
                let call = self.open_call(&tool_call_id).ok_or_else(|| {
                    Violation::new(
                        "T2",
                        Severity::Fatal,
                        index,
                        "TOOL_CALL_END for a call that is not open",
                    )
                    .with_call(&tool_call_id)
                })?;
                call.status = CallStatus::Complete;
            }
            Event::RunStarted { .. } | Event::RunFinished { .. } | Event::RunError { .. } => {}
        }
        Ok(())
    }
}
