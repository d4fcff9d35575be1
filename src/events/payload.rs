//! The rare nested payloads (run input, history messages, outcome), read
//! shallowly from raw JSON text: only the fields the tracker uses are read,
//! everything else is skipped or kept as given. Errors name the field by
//! its path.

use super::json::{self, Fields, Kind, Raw, Scalar};
use super::strip::{self, Stripped};
use super::{HistoryCall, Kept, Message, Opaque, Outcome, RunInput, Tool};
use crate::value::Value;

/// One field of a payload is wrong: where it is, as data, and a message
/// that names it.
///
/// ```
/// use agui_tool_calls::{ApplicationError, Options, Tracker};
///
/// let mut t = Tracker::new(Options::default());
/// let err = t.start_run_json(r#"{"threadId":"t","runId":"r","messages":[{"role":"user"}]}"#);
/// let Err(ApplicationError::MalformedInput(e)) = err else { panic!() };
/// assert_eq!(e.path(), "messages[0].id");
/// assert_eq!(e.message(), r#"missing field "messages[0].id""#);
/// ```
// Boxed: every reader of the payloads returns it, and a `Result` holding
// two strings inline made each of them larger in the wasm module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError(Box<(String, String)>);

impl FieldError {
    pub(crate) fn new(path: String, message: String) -> Self {
        FieldError(Box::new((path, message)))
    }

    /// An error about the value as a whole: its path is empty.
    pub(crate) fn whole(message: String) -> Self {
        Self::new(String::new(), message)
    }

    /// The field's path from the event (or the saved thread, or the run
    /// input): keys joined by `.`, list items as `[i]`; empty for the
    /// value as a whole.
    pub fn path(&self) -> &str {
        &self.0 .0
    }

    /// What is wrong, naming the field by its path.
    pub fn message(&self) -> &str {
        &self.0 .1
    }

    /// The path and the message.
    pub fn into_parts(self) -> (String, String) {
        *self.0
    }
}

/// Where only a message is kept (the options), the message.
impl From<FieldError> for String {
    fn from(e: FieldError) -> String {
        e.into_parts().1
    }
}

pub(super) fn object<'a>(v: Raw<'a>, path: &str) -> Result<Fields<'a>, FieldError> {
    Fields::of(v).ok_or_else(|| must_be(path, "", "an object"))
}

/// `field "path.key" must be what` (`path` alone when `key` is empty): one
/// writer for the nested payloads' type errors, rather than a `format!`
/// per field and per module in the wasm module.
pub(crate) fn must_be(path: &str, key: &str, what: &str) -> FieldError {
    named("field \"", path, key, &["\" must be ", what])
}

/// `field "path.key"` and `rest`.
pub(crate) fn field_error(path: &str, key: &str, rest: &str) -> FieldError {
    named("field \"", path, key, &["\"", rest])
}

/// `missing field "path.key"`.
pub(crate) fn missing(path: &str, key: &str) -> FieldError {
    named("missing field \"", path, key, &["\""])
}

/// `before`, the path `path.key`, then `after`.
fn named(before: &str, path: &str, key: &str, after: &[&str]) -> FieldError {
    let path = key_path(path, key);
    let mut message = String::from(before);
    message.push_str(&path);
    for part in after {
        message.push_str(part);
    }
    FieldError::new(path, message)
}

/// `path[i]`: one function for every list's item paths, rather than a
/// `format!` at each (each is code of its own in the wasm module).
pub(crate) fn item_path(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// `path.key` (`path` alone when `key` is empty), as [`item_path`].
pub(crate) fn key_path(path: &str, key: &str) -> String {
    let mut m = String::with_capacity(path.len() + key.len() + 1);
    push_path(&mut m, path, key);
    m
}

fn push_path(m: &mut String, path: &str, key: &str) {
    m.push_str(path);
    if !key.is_empty() {
        if !path.is_empty() {
            m.push('.');
        }
        m.push_str(key);
    }
}

fn array<'a>(v: Raw<'a>, path: &str) -> Result<Vec<Raw<'a>>, FieldError> {
    json::items(v).ok_or_else(|| must_be(path, "", "an array"))
}

/// A string field; lone surrogates read as U+FFFD.
fn string(v: Raw<'_>) -> Option<String> {
    match json::scalar(v) {
        Scalar::Str(s) => Some(s.into_text().into_owned()),
        _ => None,
    }
}

pub(super) fn required_string(map: &Fields, key: &str, path: &str) -> Result<String, FieldError> {
    match map.get(key) {
        Some(v) => string(v).ok_or_else(|| must_be(path, key, "a string")),
        None => Err(missing(path, key)),
    }
}

/// An optional string; `null` reads as absent.
fn optional_string(map: &Fields, key: &str, path: &str) -> Result<Option<String>, FieldError> {
    match map.get(key).filter(|&v| json::kind(v) != Kind::Null) {
        None => Ok(None),
        Some(v) => string(v)
            .map(Some)
            .ok_or_else(|| must_be(path, key, "a string")),
    }
}

/// An optional array; `null` reads as absent.
fn optional_array<'a>(
    map: &Fields<'a>,
    key: &str,
    path: &str,
) -> Result<Option<Vec<Raw<'a>>>, FieldError> {
    match map.get(key).filter(|&v| json::kind(v) != Kind::Null) {
        None => Ok(None),
        Some(v) => array(v, &key_path(path, key)).map(Some),
    }
}

/// Which fields a run input must have, by who gives it (every field read
/// is type-checked for each): a stream's `RUN_STARTED.input`, read for
/// what the tracker uses; saved history given to `restore`; the
/// application's own `RunAgentInput`, which the agent will read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputFrom {
    /// `RUN_STARTED.input`: nothing required; paths start `input.`.
    Stream,
    /// `{messages, tools?}` for `restore`: `messages` required.
    History,
    /// `startRun`/`nextRun`: `threadId`, `runId` and `messages` required.
    Application,
}

/// A run input (a `RunAgentInput`): its messages, tools and resume list.
/// `state`, `forwardedProps` and the rest are skipped unread.
pub(super) fn run_input(v: Raw<'_>, from: InputFrom) -> Result<RunInput, FieldError> {
    let at = if from == InputFrom::Stream {
        "input"
    } else {
        ""
    };
    let map = object(v, at)?;
    let must = |key| match from {
        InputFrom::Stream => false,
        InputFrom::History => key == "messages",
        InputFrom::Application => true,
    };
    for key in ["threadId", "runId"] {
        if optional_string(&map, key, at)?.is_none() && must(key) {
            return Err(missing(at, key));
        }
    }
    optional_string(&map, "parentRunId", at)?;
    if let Some(items) = optional_array(&map, "context", at)? {
        for (i, item) in items.into_iter().enumerate() {
            object(item, &item_path(&key_path(at, "context"), i))?;
        }
    }
    let mut stripped = Vec::new();
    let messages = match map.get("messages").filter(|&v| json::kind(v) != Kind::Null) {
        None if must("messages") => return Err(missing(at, "messages")),
        None => Vec::new(),
        Some(v) => messages(v, &key_path(at, "messages"), &mut stripped)?,
    };
    let tools = match optional_array(&map, "tools", at)? {
        None => None,
        Some(items) => Some(tools(items, &key_path(at, "tools"))?),
    };
    let resume = match map.get("resume") {
        None => None,
        Some(v) => super::interrupts::resume(v, &key_path(at, "resume"))?,
    };
    Ok(RunInput {
        messages,
        tools,
        stripped,
        resume,
    })
}

fn tools(items: Vec<Raw<'_>>, at: &str) -> Result<Vec<Tool>, FieldError> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let path = item_path(at, i);
        let map = object(item, &path)?;
        out.push(Tool {
            name: required_string(&map, "name", &path)?,
            description: optional_string(&map, "description", &path)?.unwrap_or_default(),
            parameters: parameters(&map, &path)?,
        });
    }
    Ok(out)
}

/// A tool's JSON Schema: read as a value, since the validator reads it.
fn parameters(map: &Fields, path: &str) -> Result<Value, FieldError> {
    match map.get("parameters") {
        None => Ok(Value::Null),
        Some(v) => json::value(v).map_err(|e| {
            field_error(
                path,
                "parameters",
                &format!(" cannot be read as a schema: {e}"),
            )
        }),
    }
}

/// A list of history messages at `path`; what the processing model strips
/// from their content goes to `stripped` (rule P1).
pub(super) fn messages(
    v: Raw<'_>,
    path: &str,
    stripped: &mut Vec<Stripped>,
) -> Result<Vec<Message>, FieldError> {
    let items = array(v, path)?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        out.push(message(item, &item_path(path, i), stripped)?);
    }
    Ok(out)
}

fn message(v: Raw<'_>, path: &str, stripped: &mut Vec<Stripped>) -> Result<Message, FieldError> {
    let map = object(v, path)?;
    let id = required_string(&map, "id", path)?;
    let role = required_string(&map, "role", path)?;
    let tool_call_id = optional_string(&map, "toolCallId", path)?;
    if role == "tool" && tool_call_id.is_none() {
        return Err(missing(path, "toolCallId"));
    }
    let mut tool_calls = Vec::new();
    if let Some(items) = optional_array(&map, "toolCalls", path)? {
        for (i, item) in items.into_iter().enumerate() {
            tool_calls.push(history_call(
                item,
                &item_path(&key_path(path, "toolCalls"), i),
            )?);
        }
    }
    let content = match map.get("content") {
        // Content parts are the tool and user messages' (rule P1).
        Some(c) if role == "tool" || role == "user" => {
            Some(strip::content(c, &key_path(path, "content"), stripped)?)
        }
        c => c.map(Opaque::from_raw),
    };
    // The messages the tracker may write back are assistant messages.
    let kept = if role == "assistant" {
        kept(&map, path)?
    } else {
        Kept::default()
    };
    Ok(Message {
        id,
        role,
        owner: optional_string(&map, "subagentRunId", path)?,
        content,
        tool_calls,
        tool_call_id,
        error: optional_string(&map, "error", path)?,
        kept,
    })
}

fn history_call(v: Raw<'_>, path: &str) -> Result<HistoryCall, FieldError> {
    let map = object(v, path)?;
    let id = required_string(&map, "id", path)?;
    let fpath = key_path(path, "function");
    let function = match map.get("function") {
        Some(v) => object(v, &fpath)?,
        None => return Err(missing(&fpath, "")),
    };
    Ok(HistoryCall {
        id,
        name: required_string(&function, "name", &fpath)?,
        arguments: required_string(&function, "arguments", &fpath)?,
        kept: kept(&map, path)?,
    })
}

/// A call's or a message's `encryptedValue`, `encryptedValueType` and
/// `metadata` (rule F10), as given; `null` reads as absent.
fn kept(map: &Fields, path: &str) -> Result<Kept, FieldError> {
    let field = |key, kind, what| match map.get(key).filter(|&v| json::kind(v) != Kind::Null) {
        None => Ok(None),
        Some(v) if json::kind(v) == kind => Ok(Some(Opaque::from_raw(v))),
        Some(_) => Err(must_be(path, key, what)),
    };
    Ok(Kept {
        encrypted_value: field("encryptedValue", Kind::String, "a string")?,
        encrypted_value_type: field("encryptedValueType", Kind::String, "a string")?,
        metadata: field("metadata", Kind::Object, "an object")?,
    })
}

/// The outcome types of `RUN_FINISHED` (rules L7, L8), each with the
/// properties 1.0 describes for it.
const RUN_OUTCOMES: [(&str, &[&str]); 3] = [
    ("success", &["type", "pendingToolCallIds"]),
    ("interrupt", &["type", "interrupts"]),
    ("cancelled", &["type"]),
];

/// The outcome types of `SUBAGENT_FINISHED` (rule A8).
const SUBAGENT_OUTCOMES: [(&str, &[&str]); 2] = [
    ("success", &["type"]),
    ("suspended", &["type", "interruptIds"]),
];

/// An outcome object of one of `kinds`: the kind's place in `kinds`, and
/// its fields; `None` for a type 1.0 does not describe, stripped (rule
/// P1). Properties its kind does not describe are reported (rule P2): the
/// outcome shown is rebuilt from what is read, so they never reach it.
fn typed_outcome<'a>(
    v: Raw<'a>,
    kinds: &[(&str, &[&str])],
    what: &str,
    stripped: &mut Vec<Stripped>,
) -> Result<Option<(usize, Fields<'a>)>, FieldError> {
    let map = object(v, "outcome")?;
    let kind = required_string(&map, "type", "outcome")?;
    let Some(at) = kinds.iter().position(|(name, _)| *name == kind) else {
        stripped.push(strip::unknown_outcome(&kind, what));
        return Ok(None);
    };
    strip::check_closed(&map, "outcome", kinds[at].1, stripped);
    Ok(Some((at, map)))
}

/// `RUN_FINISHED.outcome`: `success`, `interrupt` or `cancelled` (rules L7,
/// L8); `None` for a type 1.0 does not describe, stripped (rule P1).
pub(super) fn outcome(
    v: Raw<'_>,
    stripped: &mut Vec<Stripped>,
) -> Result<Option<Outcome>, FieldError> {
    let Some((kind, map)) = typed_outcome(v, &RUN_OUTCOMES, "run", stripped)? else {
        return Ok(None);
    };
    Ok(Some(match kind {
        0 => Outcome::Success {
            pending_tool_call_ids: strings(&map, "pendingToolCallIds")?,
        },
        1 => {
            let items = optional_array(&map, "interrupts", "outcome")?.unwrap_or_default();
            Outcome::Interrupt {
                interrupts: super::interrupts::interrupts(items, stripped)?,
            }
        }
        _ => Outcome::Cancelled,
    }))
}

/// `SUBAGENT_FINISHED.outcome` (rule A8): `None` for success (or a type
/// 1.0 does not describe, stripped), the interrupt ids of a suspended one.
pub(super) fn subagent_outcome(
    v: Raw<'_>,
    stripped: &mut Vec<Stripped>,
) -> Result<Option<Vec<String>>, FieldError> {
    match typed_outcome(v, &SUBAGENT_OUTCOMES, "subagent", stripped)? {
        Some((1, map)) => Ok(Some(strings(&map, "interruptIds")?.unwrap_or_default())),
        _ => Ok(None),
    }
}

/// An optional list of strings of an outcome.
fn strings(map: &Fields, key: &str) -> Result<Option<Vec<String>>, FieldError> {
    let Some(items) = optional_array(map, key, "outcome")? else {
        return Ok(None);
    };
    // A loop: a `collect` into `Result<Vec<_>, _>` is a generic
    // instantiation of its own in the wasm module.
    let mut out = Vec::with_capacity(items.len());
    for v in items {
        let Some(s) = string(v) else {
            return Err(field_error("outcome", key, " must hold strings"));
        };
        out.push(s);
    }
    Ok(Some(out))
}
