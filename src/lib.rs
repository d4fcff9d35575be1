//! The tool-call state machine of the AG-UI protocol.
//!
//! Events go in one at a time (as typed values or JSON text); the [`Tracker`]
//! keeps the state of every tool call of a thread across runs and reports
//! what changed since it was last asked, so a binding can build immutable
//! snapshots in time proportional to the change.
//!
//! ```
//! use agui_tool_calls::{Options, Tracker};
//!
//! let mut tracker = Tracker::new(Options::default());
//! tracker.push_json(r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#).unwrap();
//! tracker.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search"}"#).unwrap();
//! tracker.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":\"rust\"}"}"#).unwrap();
//! assert_eq!(tracker.calls()[0].args_text(), r#"{"q":"rust"}"#);
//! ```
//!
//! Data flows one way: raw bytes ([`sse`]) -> events ([`events`]) ->
//! machine ([`machine`], [`chunks`], [`args`]) -> changes ([`snapshot`]).

pub mod args;
pub mod chunks;
pub mod events;
pub mod machine;
mod quote;
pub mod schema;
pub mod snapshot;
pub mod sse;
pub mod violation;
pub mod violation_log;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use events::{Event, EventBody, EventError, Outcome, Tool};
pub use machine::{
    ApplicationError, CallStatus, Consent, Limits, Options, ResultSource, RunState, RunStatus,
    ToolCall, ToolMessage, ToolResult, Tracker, UnansweredCall, UnmatchedResult, Validation,
    DECLINED_CONTENT,
};
pub use snapshot::{CallChange, Changes};
pub use violation::{Severity, Violation};
