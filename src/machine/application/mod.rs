//! What the application does with the calls a run leaves it: approve,
//! answer, fail or decline each one (rules S3, F5; module `decisions`), then
//! check and start the run that continues the thread (rule F6; module
//! `next_run`).
//!
//! The core stays pure: message ids come from the caller, and every
//! operation either succeeds or changes nothing and says why.
//!
//! ```
//! use agui_tool_calls::{events::Tool, Options, Tracker};
//! use serde_json::json;
//!
//! let mut t = Tracker::new(Options {
//!     tools: vec![Tool::new("confirm", "", json!({"type": "object"}))],
//!     ..Options::default()
//! });
//! for e in [
//!     r#"{"type":"RUN_STARTED","threadId":"t","runId":"r1"}"#,
//!     r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"confirm"}"#,
//!     r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
//!     r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}"#,
//! ] {
//!     t.push_json(e).unwrap();
//! }
//! // The next run may not leave c1 dangling.
//! let err = t.start_run_json(r#"{"threadId":"t","runId":"r2","messages":[]}"#).unwrap_err();
//! assert!(err.to_string().contains("c1 (confirm)"));
//!
//! t.answer("c1", json!("yes"), "m1").unwrap();
//! let messages: Vec<_> = t.tool_messages().iter().map(|m| m.to_value()).collect();
//! assert_eq!(messages, [json!({"id": "m1", "role": "tool", "toolCallId": "c1", "content": "yes"})]);
//! t.start_run(agui_tool_calls::events::RunInput { messages: vec![], tools: None, stripped: vec![], resume: None })
//!     .unwrap_err(); // the answer must actually be in the input
//! let input = json!({"threadId": "t", "runId": "r2", "messages": messages}).to_string();
//! t.start_run_json(&input).unwrap();
//! assert!(t.tool_messages().is_empty());
//! ```

mod abort;
mod decisions;
mod interrupts;
mod next_run;
mod saved;
mod standing;

pub use decisions::DECLINED_CONTENT;
pub use interrupts::UncoveredInterrupt;
pub use next_run::{UnansweredCall, ABANDONED_CONTENT, CANCELLED_CONTENT};

use crate::events::payload::FieldError;
use crate::events::Opaque;
use crate::machine::ResultSource;
use crate::quote::quoted;
use crate::schema::ValidationError;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// A tool message the application produced (rule F5), for the next run's
/// `messages`: `{id, role: "tool", toolCallId, content, error?}`.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolMessage {
    /// The message id the application gave.
    pub id: String,
    /// The call it answers.
    pub tool_call_id: String,
    /// A string or a list of content parts, kept as given.
    pub content: Opaque,
    /// Set for failures and declined calls.
    pub error: Option<String>,
}

impl ToolMessage {
    /// The message as a `serde_json` value. Content `serde_json` cannot
    /// represent (nesting deeper than 128 levels, `1e400`) reads as `null`:
    /// `to_json` of the message keeps it exact.
    pub fn to_value(&self) -> Value {
        let mut message = serde_json::Map::new();
        message.insert("id".into(), self.id.clone().into());
        message.insert("role".into(), "tool".into());
        message.insert("toolCallId".into(), self.tool_call_id.clone().into());
        let content = self.content.to_value().unwrap_or(Value::Null);
        message.insert("content".into(), content);
        if let Some(error) = &self.error {
            message.insert("error".into(), error.clone().into());
        }
        Value::Object(message)
    }
}

/// The message as `@ag-ui/core` spells a `ToolMessage`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Spelled<'a> {
    id: &'a str,
    role: &'static str,
    tool_call_id: &'a str,
    content: &'a Opaque,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

impl Serialize for ToolMessage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Spelled {
            id: &self.id,
            role: "tool",
            tool_call_id: &self.tool_call_id,
            content: &self.content,
            error: self.error.as_deref(),
        }
        .serialize(serializer)
    }
}

/// Why an application operation was refused; the tracker is unchanged.
#[derive(Clone, Debug, PartialEq)]
pub enum ApplicationError {
    /// No call has this id.
    UnknownCall {
        /// The call's id.
        id: String,
    },
    /// The call is still streaming: nothing acts on its arguments yet (T5).
    Open {
        /// The call's id.
        id: String,
    },
    /// The call was open when its run failed (L5); there is nothing to answer.
    Abandoned {
        /// The call's id.
        id: String,
    },
    /// The call already has an answer.
    Answered {
        /// The call's id.
        id: String,
        /// Who answered it.
        by: ResultSource,
    },
    /// Approving a call the application declined.
    Declined {
        /// The call's id.
        id: String,
    },
    /// The call is neither pending nor a call to an advertised tool: until
    /// its run finishes it is the producer's to answer.
    NotTheApplications {
        /// The call's id.
        id: String,
        /// The tool the call invokes.
        name: String,
    },
    /// The tool requires approval (rule S3) and the call has none.
    ApprovalRequired {
        /// The call's id.
        id: String,
        /// The tool the call invokes.
        name: String,
    },
    /// The message id is already used in the thread.
    MessageIdInUse {
        /// The message id.
        message_id: String,
    },
    /// Content must be a string or a list of content parts.
    InvalidContent {
        /// The call's id.
        id: String,
    },
    /// The run input leaves these calls unanswered (rule F6).
    Unanswered(Vec<UnansweredCall>),
    /// The run input could not be read: the field at fault, by its path.
    MalformedInput(FieldError),
    /// A run is active or a call is open: the next run cannot start yet.
    RunActive,
    /// The stream stopped on a fatal violation; the tracker follows no
    /// further run.
    Stopped {
        /// The fatal rule's id.
        code: &'static str,
    },
    /// The run input's history would exceed a limit (rule S5).
    Limit(String),
    /// No open interrupt has this id (rule I4).
    UnknownInterrupt {
        /// The interrupt's id.
        id: String,
    },
    /// The interrupt is already resolved or cancelled (rule I4).
    InterruptCovered {
        /// The interrupt's id.
        id: String,
    },
    /// The interrupt expired: it can only be cancelled (rule I5).
    InterruptExpired {
        /// The interrupt's id.
        id: String,
    },
    /// The payload fails the interrupt's `responseSchema` (rule I4).
    InvalidPayload {
        /// The interrupt's id.
        id: String,
        /// Each failure, with its instance path and keyword.
        errors: Vec<ValidationError>,
    },
    /// The edited arguments fail the tool's schema (rule I4).
    InvalidEditedArgs {
        /// The interrupt's id.
        id: String,
        /// The call it approves.
        tool_call_id: String,
        /// Each failure, with its instance path and keyword.
        errors: Vec<ValidationError>,
    },
    /// The call awaits an interrupt's approval: only a resume entry
    /// answers it (rule I3).
    AwaitingInterrupt {
        /// The call's id.
        id: String,
        /// The interrupt it awaits.
        interrupt_id: String,
    },
    /// The run input's `resume` list leaves these interrupts uncovered, or
    /// resolves them though they expired (rule I5).
    Uncovered(Vec<UncoveredInterrupt>),
    /// A saved thread that cannot be loaded: what is wrong, naming the
    /// field by its path ([`Tracker::load`](crate::Tracker::load)).
    Saved(FieldError),
}

impl fmt::Display for ApplicationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ApplicationError::{
            Abandoned, Answered, ApprovalRequired, AwaitingInterrupt, Declined, InterruptCovered,
            InterruptExpired, InvalidContent, InvalidEditedArgs, InvalidPayload, Limit,
            MalformedInput, MessageIdInUse, NotTheApplications, Open, RunActive, Saved, Stopped,
            Unanswered, Uncovered, UnknownCall, UnknownInterrupt,
        };
        match self {
            Saved(e) => write!(f, "the saved thread cannot be restored: {}", e.message()),
            UnknownCall { id } => write!(f, "no tool call {} in this thread", quoted(id)),
            Open { id } => write!(
                f,
                "tool call {} is still open: its arguments are not complete until TOOL_CALL_END",
                quoted(id)
            ),
            Abandoned { id } => write!(f, "tool call {} was abandoned when its run failed", quoted(id)),
            Answered { id, by } => write!(
                f,
                "tool call {} is already answered {}",
                quoted(id),
                match by {
                    ResultSource::Stream => "by the agent in the stream",
                    ResultSource::History => "in the conversation history",
                    ResultSource::Application => "by the application",
                }
            ),
            Declined { id } => write!(f, "tool call {} was declined; it cannot be approved", quoted(id)),
            NotTheApplications { id, name } => write!(
                f,
                "tool call {} ({name}) is not the application's to answer: it is not pending and its tool is not advertised",
                quoted(id)
            ),
            ApprovalRequired { id, name } => write!(
                f,
                "tool call {} ({name}) must be approved before it is answered",
                quoted(id)
            ),
            MessageIdInUse { message_id } => {
                write!(f, "message id {} is already used in this thread", quoted(message_id))
            }
            InvalidContent { id } => write!(
                f,
                "the answer to tool call {} must be a string or a list of content parts",
                quoted(id)
            ),
            Unanswered(calls) => next_run::describe_unanswered(f, calls),
            MalformedInput(e) => write!(f, "the run input is malformed: {}", e.message()),
            RunActive => write!(
                f,
                "a run is active or a tool call is open: the next run cannot start yet"
            ),
            Stopped { code } => write!(
                f,
                "the stream stopped on a fatal violation ({code}); the tracker follows no further run"
            ),
            Limit(message) => write!(f, "the run input exceeds a limit: {message}"),
            UnknownInterrupt { id } => write!(f, "no open interrupt {} in this thread", quoted(id)),
            InterruptCovered { id } => {
                write!(f, "interrupt {} is already resolved or cancelled", quoted(id))
            }
            InterruptExpired { id } => write!(
                f,
                "interrupt {} has expired: it can only be cancelled",
                quoted(id)
            ),
            InvalidPayload { id, errors } => {
                write!(f, "the payload for interrupt {} is invalid: ", quoted(id))?;
                describe_errors(f, errors)
            }
            InvalidEditedArgs {
                id,
                tool_call_id,
                errors,
            } => {
                write!(
                    f,
                    "the edited arguments for tool call {} (interrupt {}) do not match the tool's schema: ",
                    quoted(tool_call_id),
                    quoted(id)
                )?;
                describe_errors(f, errors)
            }
            AwaitingInterrupt { id, interrupt_id } => write!(
                f,
                "tool call {} awaits interrupt {}: resolve or cancel the interrupt instead",
                quoted(id),
                quoted(interrupt_id)
            ),
            Uncovered(interrupts) => interrupts::describe_uncovered(f, interrupts),
        }
    }
}

fn describe_errors(f: &mut fmt::Formatter<'_>, errors: &[ValidationError]) -> fmt::Result {
    for (n, e) in errors.iter().enumerate() {
        if n > 0 {
            f.write_str("; ")?;
        }
        write!(f, "{e}")?;
    }
    Ok(())
}

impl ApplicationError {
    /// The calls the refusal is about: the one operated on, or each call a
    /// run input leaves unanswered (the JS layer names its kind:
    /// `wire::refusal_kind`).
    ///
    /// ```
    /// use agui_tool_calls::ApplicationError;
    ///
    /// let e = ApplicationError::Open { id: "c1".into() };
    /// assert_eq!(e.tool_call_ids(), ["c1"]);
    /// ```
    pub fn tool_call_ids(&self) -> Vec<&str> {
        use ApplicationError::{
            Abandoned, Answered, ApprovalRequired, AwaitingInterrupt, Declined, InvalidContent,
            InvalidEditedArgs, NotTheApplications, Open, Unanswered, UnknownCall,
        };
        match self {
            InvalidEditedArgs { tool_call_id, .. } => vec![tool_call_id.as_str()],
            UnknownCall { id }
            | AwaitingInterrupt { id, .. }
            | Open { id }
            | Abandoned { id }
            | Answered { id, .. }
            | Declined { id }
            | NotTheApplications { id, .. }
            | ApprovalRequired { id, .. }
            | InvalidContent { id } => vec![id.as_str()],
            Unanswered(calls) => {
                let mut ids = Vec::with_capacity(calls.len());
                for c in calls {
                    ids.push(c.tool_call_id.as_str());
                }
                ids
            }
            _ => Vec::new(),
        }
    }

    /// The interrupts the refusal is about: the one operated on, or each
    /// one a run input leaves uncovered.
    ///
    /// ```
    /// use agui_tool_calls::ApplicationError;
    ///
    /// let e = ApplicationError::InterruptCovered { id: "i1".into() };
    /// assert_eq!(e.interrupt_ids(), ["i1"]);
    /// ```
    pub fn interrupt_ids(&self) -> Vec<&str> {
        use ApplicationError::{
            AwaitingInterrupt, InterruptCovered, InterruptExpired, InvalidEditedArgs,
            InvalidPayload, Uncovered, UnknownInterrupt,
        };
        match self {
            UnknownInterrupt { id }
            | InterruptCovered { id }
            | InterruptExpired { id }
            | InvalidPayload { id, .. }
            | InvalidEditedArgs { id, .. }
            | AwaitingInterrupt {
                interrupt_id: id, ..
            } => vec![id.as_str()],
            Uncovered(list) => {
                let mut ids = Vec::with_capacity(list.len());
                for u in list {
                    ids.push(u.interrupt_id.as_str());
                }
                ids
            }
            _ => Vec::new(),
        }
    }

    /// The schema failures a refused payload or edited arguments have.
    pub fn validation_errors(&self) -> &[ValidationError] {
        match self {
            ApplicationError::InvalidPayload { errors, .. }
            | ApplicationError::InvalidEditedArgs { errors, .. } => errors,
            _ => &[],
        }
    }
}

impl std::error::Error for ApplicationError {}

#[cfg(test)]
mod tests {
    use super::ApplicationError;

    /// Ids are quoted as JSON strings, like every other message's ids, not
    /// with `{:?}` (whose escaping machinery the wasm module leaves out).
    #[test]
    fn refusal_messages_quote_ids_as_json() {
        let e = ApplicationError::UnknownCall {
            id: "c\"1\u{1}".into(),
        };
        assert_eq!(e.to_string(), r#"no tool call "c\"1\u0001" in this thread"#);
        let e = ApplicationError::MessageIdInUse {
            message_id: "m\u{7f}".into(),
        };
        assert_eq!(
            e.to_string(),
            "message id \"m\u{7f}\" is already used in this thread"
        );
    }
}
