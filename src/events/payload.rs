//! The rare nested payloads (run input, history messages, outcome), read
//! shallowly from raw JSON text: only the fields the tracker uses are read,
//! everything else is skipped or kept as given. Errors name the field by
//! its path.

use super::json::{self, Fields, Kind, Raw, Scalar};
use super::strip::{self, Stripped};
use super::{HistoryCall, Kept, Message, Opaque, Outcome, RunInput, Tool};
use serde_json::Value;

pub(super) fn object<'a>(v: Raw<'a>, path: &str) -> Result<Fields<'a>, String> {
    Fields::of(v).ok_or_else(|| must_be(path, "", "an object"))
}

/// `field "path.key" must be what` (`path` alone when `key` is empty): one
/// writer for the nested payloads' type errors, rather than a `format!`
/// per field and per module in the wasm module.
pub(super) fn must_be(path: &str, key: &str, what: &str) -> String {
    let mut m = field_error(path, key, " must be ");
    m.push_str(what);
    m
}

/// `field "path.key"` and `rest`.
pub(super) fn field_error(path: &str, key: &str, rest: &str) -> String {
    let mut m = String::from("field \"");
    push_path(&mut m, path, key);
    m.push('"');
    m.push_str(rest);
    m
}

/// `missing field "path.key"`.
pub(super) fn missing(path: &str, key: &str) -> String {
    let mut m = String::from("missing field \"");
    push_path(&mut m, path, key);
    m.push('"');
    m
}

fn push_path(m: &mut String, path: &str, key: &str) {
    m.push_str(path);
    if !key.is_empty() {
        m.push('.');
        m.push_str(key);
    }
}

fn array<'a>(v: Raw<'a>, path: &str) -> Result<Vec<Raw<'a>>, String> {
    json::items(v).ok_or_else(|| must_be(path, "", "an array"))
}

/// A string field; lone surrogates read as U+FFFD.
fn string(v: Raw<'_>) -> Option<String> {
    match json::scalar(v) {
        Scalar::Str(s) => Some(s.into_text().into_owned()),
        _ => None,
    }
}

pub(super) fn required_string(map: &Fields, key: &str, path: &str) -> Result<String, String> {
    match map.get(key) {
        Some(v) => string(v).ok_or_else(|| must_be(path, key, "a string")),
        None => Err(missing(path, key)),
    }
}

/// An optional string; `null` reads as absent.
fn optional_string(map: &Fields, key: &str, path: &str) -> Result<Option<String>, String> {
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
) -> Result<Option<Vec<Raw<'a>>>, String> {
    match map.get(key).filter(|&v| json::kind(v) != Kind::Null) {
        None => Ok(None),
        Some(v) => array(v, &format!("{path}.{key}")).map(Some),
    }
}

/// The `input` of `RUN_STARTED` (a `RunAgentInput`): its messages and tools.
/// `state`, `forwardedProps` and the rest are skipped unread.
pub(super) fn run_input(v: Raw<'_>) -> Result<RunInput, String> {
    let map = object(v, "input")?;
    let mut stripped = Vec::new();
    let messages = match map.get("messages").filter(|&v| json::kind(v) != Kind::Null) {
        None => Vec::new(),
        Some(v) => messages(v, "input.messages", &mut stripped)?,
    };
    let tools = match optional_array(&map, "tools", "input")? {
        None => None,
        Some(items) => Some(tools(items)?),
    };
    let resume = match map.get("resume") {
        None => None,
        Some(v) => super::interrupts::resume(v)?,
    };
    Ok(RunInput {
        messages,
        tools,
        stripped,
        resume,
    })
}

fn tools(items: Vec<Raw<'_>>) -> Result<Vec<Tool>, String> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let path = format!("input.tools[{i}]");
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
fn parameters(map: &Fields, path: &str) -> Result<Value, String> {
    match map.get("parameters") {
        None => Ok(Value::Null),
        Some(v) => json::value(v)
            .map_err(|e| format!("field \"{path}.parameters\" cannot be read as a schema: {e}")),
    }
}

/// A list of history messages at `path`; what the processing model strips
/// from their content goes to `stripped` (rule P1).
pub(super) fn messages(
    v: Raw<'_>,
    path: &str,
    stripped: &mut Vec<Stripped>,
) -> Result<Vec<Message>, String> {
    let items = array(v, path)?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        out.push(message(item, &format!("{path}[{i}]"), stripped)?);
    }
    Ok(out)
}

fn message(v: Raw<'_>, path: &str, stripped: &mut Vec<Stripped>) -> Result<Message, String> {
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
            tool_calls.push(history_call(item, &format!("{path}.toolCalls[{i}]"))?);
        }
    }
    let content = match map.get("content") {
        // Content parts are the tool and user messages' (rule P1).
        Some(c) if role == "tool" || role == "user" => {
            Some(strip::content(c, &format!("{path}.content"), stripped)?)
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

fn history_call(v: Raw<'_>, path: &str) -> Result<HistoryCall, String> {
    let map = object(v, path)?;
    let id = required_string(&map, "id", path)?;
    let fpath = format!("{path}.function");
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
fn kept(map: &Fields, path: &str) -> Result<Kept, String> {
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

/// `RUN_FINISHED.outcome`: `success`, `interrupt` or `cancelled` (rules L7,
/// L8); `None` for a type 1.0 does not describe, stripped (rule P1).
/// Properties an outcome does not describe are reported (rule P2): the
/// outcome shown is rebuilt from what is read, so they never reach it.
pub(super) fn outcome(v: Raw<'_>, stripped: &mut Vec<Stripped>) -> Result<Option<Outcome>, String> {
    let map = object(v, "outcome")?;
    let kind = required_string(&map, "type", "outcome")?;
    let described: &[&str] = match kind.as_str() {
        "success" => &["type", "pendingToolCallIds"],
        "interrupt" => &["type", "interrupts"],
        "cancelled" => &["type"],
        other => {
            stripped.push(strip::unknown_outcome(other));
            return Ok(None);
        }
    };
    strip::check_closed(&map, "outcome", described, stripped);
    known_outcome(&map, &kind, stripped).map(Some)
}

/// An outcome of a type 1.0 describes.
fn known_outcome(
    map: &Fields,
    kind: &str,
    stripped: &mut Vec<Stripped>,
) -> Result<Outcome, String> {
    match kind {
        "success" => {
            let ids = match optional_array(map, "pendingToolCallIds", "outcome")? {
                None => None,
                // A loop: a `collect` into `Result<Vec<_>, _>` is a generic
                // instantiation of its own in the wasm module.
                Some(items) => {
                    let mut ids = Vec::with_capacity(items.len());
                    for v in items {
                        let Some(id) = string(v) else {
                            let rest = " must hold strings";
                            return Err(field_error("outcome", "pendingToolCallIds", rest));
                        };
                        ids.push(id);
                    }
                    Some(ids)
                }
            };
            Ok(Outcome::Success {
                pending_tool_call_ids: ids,
            })
        }
        "interrupt" => {
            let items = optional_array(map, "interrupts", "outcome")?.unwrap_or_default();
            Ok(Outcome::Interrupt {
                interrupts: super::interrupts::interrupts(items, stripped)?,
            })
        }
        // "cancelled": `outcome` passes only the three types 1.0 describes.
        _ => Ok(Outcome::Cancelled),
    }
}
