//! The flat reader: one pass over an event's keys into optional fields.
//!
//! No intermediate `serde_json::Value` for the event itself (most traffic
//! is `TOOL_CALL_ARGS`); only the rare opaque payloads become values.

use super::{passed_over_family, payload, Event, EventBody, EventError, Text};
use serde::de::{Deserialize, Deserializer, Error, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// A field read as a string, null, or anything else (the wrong type).
#[derive(Debug)]
enum Scalar<'a> {
    Str(Text<'a>),
    Null,
    Wrong,
}

impl<'de> Deserialize<'de> for Scalar<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Scalar::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Scalar::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Scalar::Str(Cow::Owned(v)))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Scalar::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Scalar::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Scalar::Wrong)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Scalar::Wrong)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Scalar::Wrong)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Scalar::Wrong)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar::Wrong)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar::Wrong)
    }
}

/// The keys the tracker reads; any other key is skipped unread.
#[derive(Clone, Copy)]
enum Key {
    Type,
    ThreadId,
    RunId,
    ParentRunId,
    Input,
    Result,
    Outcome,
    Message,
    Code,
    MessageId,
    Role,
    Delta,
    ToolCallId,
    ToolCallName,
    ParentMessageId,
    Content,
    Error,
    Messages,
    SubagentRunId,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E>(self, v: &str) -> Result<Key, E> {
        Ok(match v {
            "type" => Key::Type,
            "threadId" => Key::ThreadId,
            "runId" => Key::RunId,
            "parentRunId" => Key::ParentRunId,
            "input" => Key::Input,
            "result" => Key::Result,
            "outcome" => Key::Outcome,
            "message" => Key::Message,
            "code" => Key::Code,
            "messageId" => Key::MessageId,
            "role" => Key::Role,
            "delta" => Key::Delta,
            "toolCallId" => Key::ToolCallId,
            "toolCallName" => Key::ToolCallName,
            "parentMessageId" => Key::ParentMessageId,
            "content" => Key::Content,
            "error" => Key::Error,
            "messages" => Key::Messages,
            "subagentRunId" => Key::SubagentRunId,
            _ => Key::Other,
        })
    }
}

/// Every field any event type reads, all optional. A repeated key keeps
/// its last value, as `JSON.parse` does.
#[derive(Default)]
pub(super) struct RawEvent<'a> {
    event_type: Option<Scalar<'a>>,
    thread_id: Option<Scalar<'a>>,
    run_id: Option<Scalar<'a>>,
    parent_run_id: Option<Scalar<'a>>,
    message: Option<Scalar<'a>>,
    code: Option<Scalar<'a>>,
    message_id: Option<Scalar<'a>>,
    role: Option<Scalar<'a>>,
    delta: Option<Scalar<'a>>,
    tool_call_id: Option<Scalar<'a>>,
    tool_call_name: Option<Scalar<'a>>,
    parent_message_id: Option<Scalar<'a>>,
    error: Option<Scalar<'a>>,
    subagent_run_id: Option<Scalar<'a>>,
    input: Option<Value>,
    result: Option<Value>,
    outcome: Option<Value>,
    content: Option<Value>,
    messages: Option<Value>,
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = RawEvent<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an event object")
    }

    // Every other kind of value is refused here, with our own message:
    // serde's default type errors would link float formatting.
    fn visit_bool<E: Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(not_an_object("a boolean"))
    }
    fn visit_i64<E: Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(not_an_object("a number"))
    }
    fn visit_u64<E: Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(not_an_object("a number"))
    }
    fn visit_f64<E: Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(not_an_object("a number"))
    }
    fn visit_str<E: Error>(self, _: &str) -> Result<Self::Value, E> {
        Err(not_an_object("a string"))
    }
    fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
        Err(not_an_object("null"))
    }
    fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
        Err(not_an_object("null"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(not_an_object("an array"))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawEvent<'de>, A::Error> {
        let mut raw = RawEvent::default();
        while let Some(key) = map.next_key::<Key>()? {
            let slot = match key {
                Key::Type => &mut raw.event_type,
                Key::ThreadId => &mut raw.thread_id,
                Key::RunId => &mut raw.run_id,
                Key::ParentRunId => &mut raw.parent_run_id,
                Key::Message => &mut raw.message,
                Key::Code => &mut raw.code,
                Key::MessageId => &mut raw.message_id,
                Key::Role => &mut raw.role,
                Key::Delta => &mut raw.delta,
                Key::ToolCallId => &mut raw.tool_call_id,
                Key::ToolCallName => &mut raw.tool_call_name,
                Key::ParentMessageId => &mut raw.parent_message_id,
                Key::Error => &mut raw.error,
                Key::SubagentRunId => &mut raw.subagent_run_id,
                Key::Input | Key::Result | Key::Outcome | Key::Content | Key::Messages => {
                    let value = map.next_value::<Value>()?;
                    let slot = match key {
                        Key::Input => &mut raw.input,
                        Key::Result => &mut raw.result,
                        Key::Outcome => &mut raw.outcome,
                        Key::Content => &mut raw.content,
                        _ => &mut raw.messages,
                    };
                    *slot = Some(value);
                    continue;
                }
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = Some(map.next_value::<Scalar<'de>>()?);
        }
        Ok(raw)
    }
}

fn not_an_object<E: Error>(found: &str) -> E {
    E::custom(format_args!("found {found}"))
}

/// Field checks for one event type, naming the type in every error.
struct Check<'t> {
    event_type: &'t str,
}

impl Check<'_> {
    fn required<'a>(&self, field: Option<Scalar<'a>>, name: &str) -> Result<Text<'a>, EventError> {
        match field {
            Some(Scalar::Str(s)) => Ok(s),
            None => Err(self.error(format!("missing field \"{name}\""))),
            Some(_) => Err(self.wrong(name)),
        }
    }

    /// An optional string; `null` reads as absent.
    fn optional<'a>(
        &self,
        field: Option<Scalar<'a>>,
        name: &str,
    ) -> Result<Option<Text<'a>>, EventError> {
        match field {
            Some(Scalar::Str(s)) => Ok(Some(s)),
            None | Some(Scalar::Null) => Ok(None),
            Some(Scalar::Wrong) => Err(self.wrong(name)),
        }
    }

    fn wrong(&self, name: &str) -> EventError {
        self.error(format!("field \"{name}\" must be a string"))
    }

    fn error(&self, what: String) -> EventError {
        EventError::e2(format!("{}: {what}", self.event_type))
    }
}

impl<'a> RawEvent<'a> {
    pub(super) fn read<D: Deserializer<'a>>(d: D) -> Result<Self, EventError> {
        d.deserialize_any(RawVisitor)
            .map_err(|e| EventError::e2(format!("not an event object: {e}")))
    }

    pub(super) fn build(mut self) -> Result<Event<'a>, EventError> {
        let event_type = match self.event_type.take() {
            Some(Scalar::Str(t)) => t,
            None => return Err(EventError::e2("missing field \"type\"".into())),
            Some(_) => return Err(EventError::e2("field \"type\" must be a string".into())),
        };
        let c = Check {
            event_type: &event_type,
        };
        let owner = match self.subagent_run_id.take() {
            Some(Scalar::Null) => {
                return Err(EventError {
                    code: "A6",
                    message: format!(
                        "{event_type}: field \"subagentRunId\" is null; it must be omitted"
                    ),
                })
            }
            other => c.optional(other, "subagentRunId")?,
        };
        let body = self.body(&c)?;
        if matches!(
            body,
            EventBody::SubagentStarted | EventBody::SubagentFinished | EventBody::SubagentError
        ) && owner.is_none()
        {
            return Err(c.error("missing field \"subagentRunId\"".into()));
        }
        let body = match body {
            EventBody::Other { family, .. } => EventBody::Other {
                family,
                event_type: event_type.clone(),
            },
            body => body,
        };
        Ok(Event { owner, body })
    }

    fn body(&mut self, c: &Check) -> Result<EventBody<'a>, EventError> {
        Ok(match c.event_type {
            "RUN_STARTED" => EventBody::RunStarted {
                thread_id: c.required(self.thread_id.take(), "threadId")?,
                run_id: c.required(self.run_id.take(), "runId")?,
                parent_run_id: c.optional(self.parent_run_id.take(), "parentRunId")?,
                input: match self.input.take() {
                    None | Some(Value::Null) => None,
                    Some(v) => Some(payload::run_input(v).map_err(|e| c.error(e))?),
                },
            },
            "RUN_FINISHED" => EventBody::RunFinished {
                thread_id: c.required(self.thread_id.take(), "threadId")?,
                run_id: c.required(self.run_id.take(), "runId")?,
                result: self.result.take(),
                outcome: match self.outcome.take() {
                    None | Some(Value::Null) => None,
                    Some(v) => Some(payload::outcome(v).map_err(|e| c.error(e))?),
                },
            },
            "RUN_ERROR" => EventBody::RunError {
                message: c.required(self.message.take(), "message")?,
                code: c.optional(self.code.take(), "code")?,
            },
            "TEXT_MESSAGE_START" => EventBody::TextMessageStart {
                message_id: c.required(self.message_id.take(), "messageId")?,
                role: c.optional(self.role.take(), "role")?,
            },
            "TEXT_MESSAGE_CONTENT" => EventBody::TextMessageContent {
                message_id: c.required(self.message_id.take(), "messageId")?,
                delta: c.required(self.delta.take(), "delta")?,
            },
            "TEXT_MESSAGE_END" => EventBody::TextMessageEnd {
                message_id: c.required(self.message_id.take(), "messageId")?,
            },
            "TEXT_MESSAGE_CHUNK" => EventBody::TextMessageChunk {
                message_id: c.optional(self.message_id.take(), "messageId")?,
                role: c.optional(self.role.take(), "role")?,
                delta: c.optional(self.delta.take(), "delta")?,
            },
            "TOOL_CALL_START" => EventBody::ToolCallStart {
                tool_call_id: c.required(self.tool_call_id.take(), "toolCallId")?,
                tool_call_name: c.required(self.tool_call_name.take(), "toolCallName")?,
                parent_message_id: c.optional(self.parent_message_id.take(), "parentMessageId")?,
            },
            "TOOL_CALL_ARGS" => EventBody::ToolCallArgs {
                tool_call_id: c.required(self.tool_call_id.take(), "toolCallId")?,
                delta: c.required(self.delta.take(), "delta")?,
            },
            "TOOL_CALL_END" => EventBody::ToolCallEnd {
                tool_call_id: c.required(self.tool_call_id.take(), "toolCallId")?,
            },
            "TOOL_CALL_CHUNK" => EventBody::ToolCallChunk {
                tool_call_id: c.optional(self.tool_call_id.take(), "toolCallId")?,
                tool_call_name: c.optional(self.tool_call_name.take(), "toolCallName")?,
                parent_message_id: c.optional(self.parent_message_id.take(), "parentMessageId")?,
                delta: c.optional(self.delta.take(), "delta")?,
            },
            "TOOL_CALL_RESULT" => self.tool_call_result(c)?,
            "MESSAGES_SNAPSHOT" => EventBody::MessagesSnapshot {
                messages: match self.messages.take() {
                    Some(v) => payload::messages(v, "messages").map_err(|e| c.error(e))?,
                    None => return Err(c.error("missing field \"messages\"".into())),
                },
            },
            "SUBAGENT_STARTED" => EventBody::SubagentStarted,
            "SUBAGENT_FINISHED" => EventBody::SubagentFinished,
            "SUBAGENT_ERROR" => EventBody::SubagentError,
            other => EventBody::Other {
                family: passed_over_family(other),
                // Replaced by the owned-or-borrowed type text in `build`.
                event_type: Cow::Borrowed(""),
            },
        })
    }

    fn tool_call_result(&mut self, c: &Check) -> Result<EventBody<'a>, EventError> {
        let message_id = c.required(self.message_id.take(), "messageId")?;
        let tool_call_id = c.required(self.tool_call_id.take(), "toolCallId")?;
        let content = match self.content.take() {
            Some(v @ (Value::String(_) | Value::Array(_))) => v,
            None => return Err(c.error("missing field \"content\"".into())),
            Some(_) => {
                return Err(c.error(
                    "field \"content\" must be a string or an array of content parts".into(),
                ))
            }
        };
        match c.optional(self.role.take(), "role")? {
            Some(role) if role != "tool" => {
                return Err(c.error("field \"role\" must be \"tool\"".into()))
            }
            _ => {}
        }
        Ok(EventBody::ToolCallResult {
            message_id,
            tool_call_id,
            content,
            error: c.optional(self.error.take(), "error")?,
        })
    }
}
