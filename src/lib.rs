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
//! machine ([`machine`], with its chunk lanes, and [`args`]) -> changes
//! ([`Changes`]).

// Every dependency of the library earns its place (docs/design.md); a declared,
// unused one fails `cargo clippy -- -D warnings`. Only here, not in Cargo.toml:
// the test builds share the dev-dependencies and would each warn.
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

pub mod args;
pub mod events;
pub mod machine;
mod quote;
pub mod rules;
pub mod schema;
pub mod sse;
pub mod violation;
pub mod violation_log;
pub mod wire;
mod words;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use events::{Event, EventBody, EventError, Interrupt, Kept, Outcome, Tool};
pub use machine::{
    ApplicationError, CallStatus, Consent, Limits, Options, ResultSource, RunState, RunStatus,
    StandingApproval, ToolCall, ToolMessage, ToolResult, Tracker, UnansweredCall, UnmatchedResult,
    Validation, ABANDONED_CONTENT, CANCELLED_CONTENT, DECLINED_CONTENT,
};
pub use machine::{CallChange, Changes};
pub use machine::{Clock, InterruptDecision, OpenInterrupt, UncoveredInterrupt};
pub use machine::{Subagent, SubagentStatus};
pub use violation::{Severity, Violation};
