//! The rare nested payloads (run input, history messages, outcome), read
//! from `serde_json::Value`s. Errors name the field by its path.

use super::{HistoryCall, Message, Outcome, RunInput, Tool};
use serde_json::{Map, Value};

type Fields = Map<String, Value>;

fn object(v: Value, path: &str) -> Result<Fields, String> {
    match v {
        Value::Object(map) => Ok(map),
        _ => Err(format!("field \"{path}\" must be an object")),
    }
}

fn array(v: Value, path: &str) -> Result<Vec<Value>, String> {
    match v {
        Value::Array(items) => Ok(items),
        _ => Err(format!("field \"{path}\" must be an array")),
    }
}

fn required_string(map: &mut Fields, key: &str, path: &str) -> Result<String, String> {
    match map.remove(key) {
        Some(Value::String(s)) => Ok(s),
        None => Err(format!("missing field \"{path}.{key}\"")),
        Some(_) => Err(format!("field \"{path}.{key}\" must be a string")),
    }
}

/// An optional string; `null` reads as absent.
fn optional_string(map: &mut Fields, key: &str, path: &str) -> Result<Option<String>, String> {
    match map.remove(key) {
        Some(Value::String(s)) => Ok(Some(s)),
        None | Some(Value::Null) => Ok(None),
        Some(_) => Err(format!("field \"{path}.{key}\" must be a string")),
    }
}

/// An optional array; `null` reads as absent.
fn optional_array(map: &mut Fields, key: &str, path: &str) -> Result<Option<Vec<Value>>, String> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => array(v, &format!("{path}.{key}")).map(Some),
    }
}

/// The `input` of `RUN_STARTED` (a `RunAgentInput`): its messages and tools.
pub(super) fn run_input(v: Value) -> Result<RunInput, String> {
    let mut map = object(v, "input")?;
    let messages = match map.remove("messages") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => messages(v, "input.messages")?,
    };
    let tools = match optional_array(&mut map, "tools", "input")? {
        None => None,
        Some(items) => Some(tools(items)?),
    };
    Ok(RunInput { messages, tools })
}

fn tools(items: Vec<Value>) -> Result<Vec<Tool>, String> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let path = format!("input.tools[{i}]");
        let mut map = object(item, &path)?;
        out.push(Tool {
            name: required_string(&mut map, "name", &path)?,
            description: optional_string(&mut map, "description", &path)?.unwrap_or_default(),
            parameters: map.remove("parameters").unwrap_or(Value::Null),
        });
    }
    Ok(out)
}

/// A list of history messages at `path`.
pub(super) fn messages(v: Value, path: &str) -> Result<Vec<Message>, String> {
    let items = array(v, path)?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        out.push(message(item, &format!("{path}[{i}]"))?);
    }
    Ok(out)
}

fn message(v: Value, path: &str) -> Result<Message, String> {
    let mut map = object(v, path)?;
    let id = required_string(&mut map, "id", path)?;
    let role = required_string(&mut map, "role", path)?;
    let tool_call_id = optional_string(&mut map, "toolCallId", path)?;
    if role == "tool" && tool_call_id.is_none() {
        return Err(format!("missing field \"{path}.toolCallId\""));
    }
    let mut tool_calls = Vec::new();
    if let Some(items) = optional_array(&mut map, "toolCalls", path)? {
        for (i, item) in items.into_iter().enumerate() {
            tool_calls.push(history_call(item, &format!("{path}.toolCalls[{i}]"))?);
        }
    }
    Ok(Message {
        id,
        role,
        owner: optional_string(&mut map, "subagentRunId", path)?,
        content: map.remove("content"),
        tool_calls,
        tool_call_id,
        error: optional_string(&mut map, "error", path)?,
    })
}

fn history_call(v: Value, path: &str) -> Result<HistoryCall, String> {
    let mut map = object(v, path)?;
    let id = required_string(&mut map, "id", path)?;
    let fpath = format!("{path}.function");
    let mut function = match map.remove("function") {
        Some(v) => object(v, &fpath)?,
        None => return Err(format!("missing field \"{fpath}\"")),
    };
    Ok(HistoryCall {
        id,
        name: required_string(&mut function, "name", &fpath)?,
        arguments: required_string(&mut function, "arguments", &fpath)?,
    })
}

/// `RUN_FINISHED.outcome`: `success` or `interrupt` (rule L7).
pub(super) fn outcome(v: Value) -> Result<Outcome, String> {
    let mut map = object(v, "outcome")?;
    let kind = required_string(&mut map, "type", "outcome")?;
    match kind.as_str() {
        "success" => {
            let ids =
                match optional_array(&mut map, "pendingToolCallIds", "outcome")? {
                    None => None,
                    Some(items) => Some(
                        items
                            .into_iter()
                            .map(|v| match v {
                                Value::String(s) => Ok(s),
                                _ => Err("field \"outcome.pendingToolCallIds\" must hold strings"
                                    .to_owned()),
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                    ),
                };
            Ok(Outcome::Success {
                pending_tool_call_ids: ids,
            })
        }
        "interrupt" => {
            let interrupts = optional_array(&mut map, "interrupts", "outcome")?.unwrap_or_default();
            if interrupts.is_empty() {
                return Err("field \"outcome.interrupts\" must be a non-empty array".into());
            }
            Ok(Outcome::Interrupt { interrupts })
        }
        _ => Err("field \"outcome.type\" must be \"success\" or \"interrupt\"".into()),
    }
}
