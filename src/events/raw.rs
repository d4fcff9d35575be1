//! The flat reader: one pass over an event's keys, each value kept as raw
//! text, then the typed event built by its `type`.
//!
//! No intermediate `serde_json::Value` for the event (most traffic is
//! `TOOL_CALL_ARGS`); opaque payloads stay raw text ([`Opaque`]), and only
//! the rare nested payloads the tracker reads are read further.

use super::fields::{plain_args, EventFields, Key};
use super::json::{self, JsonStr, Kind, Raw, Scalar};
use super::{
    passed_over_family, payload, strip, Event, EventBody, EventError, Opaque, SubagentStart, Text,
};

/// Field checks for one event type, naming the type in every error.
struct Check<'f, 'a> {
    event_type: &'f str,
    fields: &'f EventFields<'a>,
}

impl<'a> Check<'_, 'a> {
    fn raw(&self, name: Key) -> Option<Raw<'a>> {
        self.fields.get(name)
    }

    /// A required string, lone surrogates at its edges kept apart.
    fn required_str(&self, name: Key) -> Result<JsonStr<'a>, EventError> {
        match self.raw(name).map(json::scalar) {
            Some(Scalar::Str(s)) => Ok(s),
            None => Err(self.error(payload::missing(name.name(), ""))),
            Some(_) => Err(self.wrong(name)),
        }
    }

    /// An optional string, lone surrogates at its edges kept apart; `null`
    /// reads as absent.
    fn optional_str(&self, name: Key) -> Result<Option<JsonStr<'a>>, EventError> {
        match self.raw(name).map(json::scalar) {
            Some(Scalar::Str(s)) => Ok(Some(s)),
            None | Some(Scalar::Null) => Ok(None),
            Some(Scalar::Wrong) => Err(self.wrong(name)),
        }
    }

    fn required(&self, name: Key) -> Result<Text<'a>, EventError> {
        self.required_str(name).map(JsonStr::into_text)
    }

    fn optional(&self, name: Key) -> Result<Option<Text<'a>>, EventError> {
        Ok(self.optional_str(name)?.map(JsonStr::into_text))
    }

    /// A field present, as its JSON text.
    fn opaque(&self, name: Key) -> Opaque {
        self.raw(name).map_or_else(Opaque::null, Opaque::from_raw)
    }

    /// Whether the field is `null` (a retired spelling of none, rule P3).
    fn is_null(&self, name: Key) -> bool {
        self.raw(name).is_some_and(|v| json::kind(v) == Kind::Null)
    }

    /// A field that is absent or `null` reads as `None`.
    fn present(&self, name: Key) -> Option<Raw<'a>> {
        self.raw(name).filter(|&v| json::kind(v) != Kind::Null)
    }

    fn wrong(&self, name: Key) -> EventError {
        self.error(payload::must_be(name.name(), "", "a string"))
    }

    /// E2 at the field `e` names, the message naming the event's type first.
    fn error(&self, e: payload::FieldError) -> EventError {
        let (path, message) = e.into_parts();
        let message = format!("{}: {message}", self.event_type);
        payload::FieldError::new(path, message).into()
    }
}

/// Reads one event from JSON text: a `TOOL_CALL_ARGS` event as
/// `JSON.stringify` writes it by fixed bytes ([`plain_args`]), any other
/// by [`read_fields`], which reads the same event from such text.
pub(super) fn read(text: &str) -> Result<Event<'_>, EventError> {
    match plain_args(text) {
        Some((id, delta, owner)) => Ok(Event {
            owner: owner.map(Text::Borrowed),
            metadata: None,
            body: EventBody::ToolCallArgs {
                tool_call_id: Text::Borrowed(id),
                delta: json::decode(delta),
            },
        }),
        None => read_fields(text),
    }
}

/// Reads one event from JSON text, in one pass ([`EventFields::scan`]);
/// text that is not an object is checked again, to word the error.
fn read_fields(text: &str) -> Result<Event<'_>, EventError> {
    let mut fields = EventFields::default();
    let Some(()) = fields.scan(text) else {
        return Err(EventError::e2(match Raw::checked(text) {
            Err(e) => format!("invalid JSON: {e}"),
            Ok(raw) => format!("not an event object: found {}", json::describe(raw)),
        }));
    };
    build(&fields)
}

fn build<'a>(fields: &EventFields<'a>) -> Result<Event<'a>, EventError> {
    let event_type = match fields.get(Key::Type).map(json::scalar) {
        Some(Scalar::Str(t)) => t.into_text(),
        None => return Err(payload::missing("type", "").into()),
        Some(_) => return Err(payload::must_be("type", "", "a string").into()),
    };
    let c = Check {
        event_type: &event_type,
        fields,
    };
    let owner = match c.raw(Key::SubagentRunId).map(json::kind) {
        Some(Kind::Null) => {
            let mut e = c.error(payload::field_error(
                "subagentRunId",
                "",
                " is null; it must be omitted",
            ));
            e.code = "A6";
            return Err(e);
        }
        _ => c.optional(Key::SubagentRunId)?,
    };
    timestamp(&c)?;
    // Rule P3: an object whenever present (`null` included), on every event.
    let metadata = match c.raw(Key::Metadata) {
        None => None,
        Some(v) if json::kind(v) == Kind::Object => Some(Opaque::from_raw(v)),
        Some(_) => return Err(c.error(payload::must_be("metadata", "", "an object"))),
    };
    let body = body(&c, &event_type)?;
    if matches!(
        body,
        EventBody::SubagentStarted(_)
            | EventBody::SubagentFinished { .. }
            | EventBody::SubagentError { .. }
    ) && owner.is_none()
    {
        return Err(c.error(payload::missing("subagentRunId", "")));
    }
    Ok(Event {
        owner,
        metadata,
        body,
    })
}

/// Rule P3: a `timestamp`, when present, is a safe integer (a whole
/// number within +-(2^53 - 1)), as the 1.0 schema and `@ag-ui/client` 1.0
/// read it: `1.0`, `1e3` and `-1` are; `1712.5`, `2^53`, `"1"` and `null`
/// are not.
fn timestamp(c: &Check<'_, '_>) -> Result<(), EventError> {
    let Some(raw) = c.raw(Key::Timestamp) else {
        return Ok(());
    };
    let text = raw.get();
    let number = json::describe(raw) == "a number";
    if number && safe_integer(text) {
        return Ok(());
    }
    let got = if number && text.len() <= 32 {
        text
    } else {
        json::describe(raw)
    };
    Err(c.error(payload::field_error(
        "timestamp",
        "",
        &format!(" must be a safe integer (got {got})"),
    )))
}

/// Whether checked JSON number text is a whole number within +-(2^53 - 1),
/// read from its bytes (float parsing cost the page 5 KB gzip): `1.50e1` is
/// 15, whole; `15e-1` is not. More than 17 significant digits is refused
/// (beyond 2^53, or a fraction finer than a double holds).
fn safe_integer(text: &str) -> bool {
    const MAX: u64 = 9_007_199_254_740_991;
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    // The value is `digits * 10^scale`.
    let (mut digits, mut count, mut scale, mut fraction) = (0u64, 0, 0i64, false);
    while let Some(&c) = b.get(i) {
        match c {
            b'.' => fraction = true,
            b'0'..=b'9' => {
                scale -= i64::from(fraction);
                if digits > 0 || c != b'0' {
                    count += 1;
                    if count > 17 {
                        return false;
                    }
                    digits = digits * 10 + u64::from(c - b'0');
                }
            }
            _ => break,
        }
        i += 1;
    }
    let mut exponent = 0i64;
    let negative = b.get(i + 1) == Some(&b'-');
    for &c in b.iter().skip(i + 1) {
        if c.is_ascii_digit() {
            // Capped: beyond it the value is out of range or not whole.
            exponent = (exponent * 10 + i64::from(c - b'0')).min(1_000);
        }
    }
    scale += if negative { -exponent } else { exponent };
    while scale < 0 && digits % 10 == 0 && digits > 0 {
        digits /= 10;
        scale += 1;
    }
    if digits == 0 {
        return true;
    }
    if !(0..=16).contains(&scale) {
        return false;
    }
    (0..scale)
        .try_fold(digits, |v, _| v.checked_mul(10))
        .is_some_and(|v| v <= MAX)
}

/// The body of an event of type `event_type` (the text `c` names it by).
#[allow(clippy::too_many_lines)] // one arm per event type, in the order the protocol lists them
fn body<'a>(c: &Check<'_, 'a>, event_type: &Text<'a>) -> Result<EventBody<'a>, EventError> {
    Ok(match c.event_type {
        "RUN_STARTED" => EventBody::RunStarted {
            thread_id: c.required(Key::ThreadId)?,
            run_id: c.required(Key::RunId)?,
            parent_run_id: c.optional(Key::ParentRunId)?,
            input: match c.present(Key::Input) {
                None => None,
                Some(v) => Some(Box::new(
                    payload::run_input(v, payload::InputFrom::Stream).map_err(|e| c.error(e))?,
                )),
            },
        },
        "RUN_FINISHED" => {
            let mut stripped = Vec::new();
            EventBody::RunFinished {
                thread_id: c.required(Key::ThreadId)?,
                run_id: c.required(Key::RunId)?,
                result: c.present(Key::Result).map(Opaque::from_raw),
                // A null outcome or result is a retired spelling of none (rule P3).
                outcome: match c.present(Key::Outcome) {
                    None => None,
                    Some(v) => payload::outcome(v, &mut stripped).map_err(|e| c.error(e))?,
                },
                stripped: {
                    for key in [Key::Outcome, Key::Result] {
                        if c.is_null(key) {
                            stripped.push(strip::retired_null(key.name()));
                        }
                    }
                    stripped
                },
            }
        }
        "RUN_ERROR" => EventBody::RunError {
            message: c.required(Key::Message)?,
            code: c.optional(Key::Code)?,
        },
        "TEXT_MESSAGE_START" => EventBody::TextMessageStart {
            message_id: c.required(Key::MessageId)?,
            role: c.optional(Key::Role)?,
        },
        "TEXT_MESSAGE_CONTENT" => EventBody::TextMessageContent {
            message_id: c.required(Key::MessageId)?,
            delta: c.required(Key::Delta)?,
        },
        "TEXT_MESSAGE_END" => EventBody::TextMessageEnd {
            message_id: c.required(Key::MessageId)?,
        },
        "TEXT_MESSAGE_CHUNK" => EventBody::TextMessageChunk {
            message_id: c.optional(Key::MessageId)?,
            role: c.optional(Key::Role)?,
            delta: c.optional(Key::Delta)?,
        },
        "TOOL_CALL_START" => EventBody::ToolCallStart {
            tool_call_id: c.required(Key::ToolCallId)?,
            tool_call_name: c.required(Key::ToolCallName)?,
            parent_message_id: c.optional(Key::ParentMessageId)?,
            null_parent: c.is_null(Key::ParentMessageId),
        },
        "TOOL_CALL_ARGS" => EventBody::ToolCallArgs {
            tool_call_id: c.required(Key::ToolCallId)?,
            delta: c.required_str(Key::Delta)?,
        },
        "TOOL_CALL_END" => EventBody::ToolCallEnd {
            tool_call_id: c.required(Key::ToolCallId)?,
        },
        "TOOL_CALL_CHUNK" => EventBody::ToolCallChunk {
            tool_call_id: c.optional(Key::ToolCallId)?,
            tool_call_name: c.optional(Key::ToolCallName)?,
            parent_message_id: c.optional(Key::ParentMessageId)?,
            delta: c.optional_str(Key::Delta)?,
            null_parent: c.is_null(Key::ParentMessageId),
        },
        "TOOL_CALL_RESULT" => tool_call_result(c)?,
        "MESSAGES_SNAPSHOT" => {
            let mut stripped = Vec::new();
            EventBody::MessagesSnapshot {
                messages: match c.raw(Key::Messages) {
                    Some(v) => {
                        payload::messages(v, "messages", &mut stripped).map_err(|e| c.error(e))?
                    }
                    None => return Err(c.error(payload::missing("messages", ""))),
                },
                stripped,
            }
        }
        // The values kept as their JSON text, as given (opaque, rule F10).
        "REASONING_ENCRYPTED_VALUE" => EventBody::EncryptedValue {
            subtype: c.required(Key::Subtype)?,
            entity_id: c.required(Key::EntityId)?,
            value: c
                .required_str(Key::EncryptedValue)
                .map(|_| c.opaque(Key::EncryptedValue))?,
            value_type: c
                .optional_str(Key::EncryptedValueType)?
                .map(|_| c.opaque(Key::EncryptedValueType)),
        },
        "SUBAGENT_STARTED" => EventBody::SubagentStarted(subagent_start(c)?),
        "SUBAGENT_FINISHED" => {
            let mut stripped = Vec::new();
            EventBody::SubagentFinished {
                suspended: match c.present(Key::Outcome) {
                    None => None,
                    Some(v) => {
                        payload::subagent_outcome(v, &mut stripped).map_err(|e| c.error(e))?
                    }
                },
                result: c.present(Key::Result).map(Opaque::from_raw),
                stripped: {
                    // As on RUN_FINISHED: a retired spelling of none (P3).
                    if c.is_null(Key::Result) {
                        stripped.push(strip::retired_null(Key::Result.name()));
                    }
                    stripped
                },
            }
        }
        "SUBAGENT_ERROR" => EventBody::SubagentError {
            message: c.required(Key::Message)?,
            code: c.optional(Key::Code)?,
        },
        other => EventBody::Other {
            family: passed_over_family(other),
            event_type: event_type.clone(),
        },
    })
}

/// `SUBAGENT_STARTED`'s fields; the optional ones read in one loop (one
/// copy of the reading code in the module, not one per field).
fn subagent_start(c: &Check<'_, '_>) -> Result<Box<SubagentStart>, EventError> {
    let keys = [
        Key::Description,
        Key::ParentSubagentRunId,
        Key::ParentToolCallId,
        Key::ParentMessageId,
    ];
    let mut values: [Option<String>; 4] = Default::default();
    for i in 0..keys.len() {
        values[i] = c.optional(keys[i])?.map(Text::into_owned);
    }
    let [description, parent_subagent_run_id, parent_tool_call_id, parent_message_id] = values;
    Ok(Box::new(SubagentStart {
        name: c.required(Key::Name)?.into_owned(),
        description,
        parent_subagent_run_id,
        parent_tool_call_id,
        parent_message_id,
    }))
}

fn tool_call_result<'a>(c: &Check<'_, 'a>) -> Result<EventBody<'a>, EventError> {
    let message_id = c.required(Key::MessageId)?;
    let tool_call_id = c.required(Key::ToolCallId)?;
    let mut stripped = Vec::new();
    let content = match c.raw(Key::Content) {
        Some(v) if matches!(json::kind(v), Kind::String | Kind::Array) => {
            strip::content(v, "content", &mut stripped).map_err(|e| c.error(e))?
        }
        None => return Err(c.error(payload::missing("content", ""))),
        Some(_) => {
            return Err(c.error(payload::must_be(
                "content",
                "",
                "a string or an array of content parts",
            )))
        }
    };
    match c.optional(Key::Role)? {
        Some(role) if role != "tool" => {
            return Err(c.error(payload::must_be("role", "", "\"tool\"")))
        }
        _ => {}
    }
    Ok(EventBody::ToolCallResult {
        message_id,
        tool_call_id,
        content,
        error: c.optional(Key::Error)?,
        stripped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const TYPE: &str = r#"{"type":"TOOL_CALL_ARGS","#;

    /// The fixed-bytes path reads what the general one reads; `fixed` says
    /// whether the text took it.
    fn agrees(text: &str, fixed: bool) {
        assert_eq!(plain_args(text).is_some(), fixed, "{text}");
        assert_eq!(read(text), read_fields(text), "{text}");
    }

    #[test]
    fn e2_plain_args_events_read_as_the_general_pass_reads_them() {
        for timestamp in [
            "",
            r#""timestamp":1764518800198,"#,
            r#""timestamp":0,"#,
            r#""subagentRunId":"sub_1","#,
            r#""timestamp":7,"subagentRunId":"s","#,
            r#""subagentRunId":"","#,
        ] {
            for tail in [
                r#""c1","delta":"{\"a\":1"}"#,
                r#""c1","delta":""}"#,
                r#""","delta":"x"}"#,
                r#""cé😀","delta":"x"}"#,
                r#""c1","delta":"\ud83d"}"#,
                r#""c1","delta":"\ude00 \" \\ \/ \b\f\n\r\t \u00e9 “😀”"}"#,
                r#""c1","delta":"\ud83d\ude00"}"#,
            ] {
                agrees(&format!(r#"{TYPE}{timestamp}"toolCallId":{tail}"#), true);
            }
        }
        for (timestamp, tail) in [
            // An id with an escape, and every other spelling: the general pass.
            ("", r#""c\u0031","delta":"x"}"#),
            ("", r#""c1","delta":"x"} "#),
            ("", r#""c1","delta":"x","subagentRunId":"s"}"#),
            (r#""subagentRunId":"s\u0031","#, r#""c1","delta":"x"}"#),
            (r#""subagentRunId":null,"#, r#""c1","delta":"x"}"#),
            (
                r#""subagentRunId":"s","timestamp":1,"#,
                r#""c1","delta":"x"}"#,
            ),
            (r#""subagentRunId":"s" ,"#, r#""c1","delta":"x"}"#),
            (r#""subagentRunId":"s"#, r#""c1","delta":"x"}"#),
            ("", r#""c1", "delta":"x"}"#),
            ("", r#""c1","delta":"x","delta":"y"}"#),
            ("", r#""c1","delta":1}"#),
            ("", r#""c1","delta":null}"#),
            ("", r#""c1"}"#),
            ("", r#"1,"delta":"x"}"#),
            (r#""timestamp":1.5,"#, r#""c1","delta":"x"}"#),
            (r#""timestamp":-1,"#, r#""c1","delta":"x"}"#),
            (r#""timestamp":1e3,"#, r#""c1","delta":"x"}"#),
            (r#""timestamp":null,"#, r#""c1","delta":"x"}"#),
            (r#""timestamp":1, "#, r#""c1","delta":"x"}"#),
            (r#""rawEvent":{},"#, r#""c1","delta":"x"}"#),
            // Refused: the general pass words the error.
            (r#""timestamp":01,"#, r#""c1","delta":"x"}"#),
            (r#""timestamp":,"#, r#""c1","delta":"x"}"#),
            ("", r#""c1","delta":"x"#),
            ("", r#""c1","delta":"\x"}"#),
            ("", "\"c1\",\"delta\":\"\u{1}\"}"),
            ("", r#""c1","delta":"x"}}"#),
            ("", r#""c1","delta":"x""#),
            ("", r#""c1"#),
            ("", ""),
        ] {
            agrees(&format!(r#"{TYPE}{timestamp}"toolCallId":{tail}"#), false);
        }
        agrees(r#"{"type":"TOOL_CALL_ARGS","timestamp":1"#, false);
    }

    proptest! {
        #[test]
        fn e2_any_args_event_reads_as_the_general_pass_reads_it(
            timestamp in prop::sample::select(vec!["", "\"timestamp\":17,", "\"timestamp\":0,", "\"timestamp\":07,",
                "\"subagentRunId\":\"s1\",", "\"timestamp\":3,\"subagentRunId\":\"s\\\"\",", "\"subagentRunId\":7,"]),
            id in "[a-z0-9\"\\\\]{0,4}",
            delta in "[a-z \"\\\\/nu0-9dD8é😀\u{1}]{0,12}",
            tail in prop::sample::select(vec!["}", "} ", "", ",\"x\":1}"]),
        ) {
            let text = format!(r#"{TYPE}{timestamp}"toolCallId":"{id}","delta":"{delta}"{tail}"#);
            prop_assert_eq!(read(&text), read_fields(&text));
            let text = format!(
                r#"{TYPE}{timestamp}"toolCallId":{},"delta":{}{tail}"#,
                serde_json::to_string(&id).unwrap(),
                serde_json::to_string(&delta).unwrap()
            );
            prop_assert_eq!(read(&text), read_fields(&text));
        }
    }
}
