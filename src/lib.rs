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
//! Data flows one way: raw bytes (module `sse`) -> events (`events`) ->
//! machine (`machine`, with its chunk lanes, and `args`) -> changes
//! ([`Changes`]).
//!
//! # What is public
//!
//! The crate's surface is its root: [`Tracker`] and how it is set up
//! ([`Options`], [`Limits`], [`Clock`], [`PatternEngine`]); the events it
//! reads ([`Event`], [`EventBody`] and the types their fields hold, such as
//! [`RunInput`] and [`Opaque`]); what its methods return (the snapshot
//! types [`ToolCall`], [`RunState`], [`Subagent`], [`OpenInterrupt`] and
//! their parts, the [`Changes`] since it was last asked, [`Violation`]s
//! with their [`Severity`]); the errors ([`ApplicationError`],
//! [`EventError`], [`FieldError`], [`ArgsError`]); and [`save`], the text
//! [`Tracker::load`] reads. Every type a public item names is exported
//! here (the `unnameable_types` lint holds it to that).
//!
//! The modules stay the crate's own: the argument reader, the schema
//! compiler, the event-stream decoder, the rule table and the records the
//! wasm binding sends are how the tracker works, not what it offers, and
//! may change with any release: they are hidden from the documentation,
//! public only so that the crate's tests, fuzz targets and examples reach
//! them.

// Every dependency of the library earns its place (docs/design.md); a declared,
// unused one fails `cargo clippy -- -D warnings`. Only here, not in Cargo.toml:
// the test builds share the dev-dependencies and would each warn.
#![cfg_attr(not(test), warn(unused_crate_dependencies))]
// Every type a public item names is exported at the root.
#![warn(unnameable_types)]

/// `serde_json::json!`, as the crate's own value (`value::Value`): for
/// the unit tests of code that reads values.
#[cfg(test)]
macro_rules! json {
    ($($json:tt)+) => {
        $crate::value::Value::from(serde_json::json!($($json)+))
    };
}

// The modules are the crate's own, hidden from its documentation (the
// surface is the root's; see the top of this file); the tests, fuzz
// targets and examples reach them. Hidden, not `pub(crate)`: measured,
// crate-private modules made the wasm module compress 0.2 KB worse.
#[doc(hidden)]
pub mod args;
mod digits;
#[doc(hidden)]
pub mod events;
#[doc(hidden)]
pub mod hashing;
mod heapsort;
mod host;
#[doc(hidden)]
pub mod machine;
mod number;
mod quote;
#[doc(hidden)]
pub mod rules;
#[doc(hidden)]
pub mod schema;

mod hash_map;
/// The crate's hash map (`hash_map`), its keyed `SipHash` salted in the
/// wasm module (`hashing`).
pub(crate) use hash_map::HashMap;
mod split;
#[doc(hidden)]
pub mod sse;
#[doc(hidden)]
pub mod value;
#[doc(hidden)]
pub mod violation;
#[doc(hidden)]
pub mod violation_log;
#[doc(hidden)]
pub mod wire;
mod words;

#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod wasm;

pub use args::{ArgsError, ArgsErrorKind, Partial, PathStep};
pub use events::{
    Event, EventBody, EventError, Family, FieldError, HistoryCall, Interrupt, JsonStr, Kept,
    Message, Opaque, Outcome, ResumeEntry, ResumeStatus, RunInput, Stripped, SubagentStart, Text,
    Tool,
};
pub use machine::{
    ApplicationError, CallStatus, Consent, Limits, Options, ResultSource, RunState, RunStatus,
    StandingApproval, ToolCall, ToolMessage, ToolResult, Tracker, UnansweredCall, UnmatchedResult,
    Validation, ABANDONED_CONTENT, CANCELLED_CONTENT, DECLINED_CONTENT,
};
pub use machine::{CallChange, Changes};
pub use machine::{Clock, InterruptDecision, OpenInterrupt, UncoveredInterrupt};
pub use machine::{Subagent, SubagentStatus};
pub use schema::{Failures, Pattern, PatternEngine, ValidationError};
pub use violation::{Severity, Violation};
pub use wire::save;
