//! The options object of the JS constructor, read from JSON text.
//!
//! Read from a `serde_json::Value` by hand rather than through derived
//! `Deserialize` impls: the derived visitors link serde's type-error
//! messages, and with them float formatting, into the module.

use crate::events::Tool;
use crate::{Limits, Options};
use serde_json::{Map, Value};

type Fields = Map<String, Value>;

/// Reads the constructor's options; the error names what is wrong.
pub fn parse_options(json: &str) -> Result<Options, String> {
    // Strings as `JSON.parse` reads them: a lone surrogate is not refused.
    let value = crate::events::json::Raw::checked(json)
        .map_err(|e| e.to_string())
        .and_then(crate::events::json::value)
        .map_err(|e| format!("invalid options: {e}"))?;
    options(value).map_err(|e| format!("invalid options: {e}"))
}

fn options(value: Value) -> Result<Options, String> {
    let mut map = object(value, "the options")?;
    let tools = match map.remove("tools") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| tool(item, &format!("tools[{i}]")))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("field \"tools\" must be an array".into()),
    };
    let require_approval = match map.remove("requireApproval") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::String(name) => Ok(name),
                _ => Err(format!("field \"requireApproval[{i}]\" must be a string")),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("field \"requireApproval\" must be an array".into()),
    };
    let fragment = match map.remove("fragment") {
        None => false,
        Some(Value::Bool(b)) => b,
        Some(_) => return Err("field \"fragment\" must be a boolean".into()),
    };
    let limits = match map.remove("limits") {
        None => Limits::default(),
        Some(v) => limits(v)?,
    };
    no_other_field(&map, "")?;
    Ok(Options {
        tools,
        fragment,
        require_approval,
        limits,
    })
}

fn tool(value: Value, path: &str) -> Result<Tool, String> {
    let mut map = object(value, &format!("field \"{path}\""))?;
    let name = match map.remove("name") {
        Some(Value::String(s)) => s,
        None => return Err(format!("missing field \"{path}.name\"")),
        Some(_) => return Err(format!("field \"{path}.name\" must be a string")),
    };
    let description = match map.remove("description") {
        None => String::new(),
        Some(Value::String(s)) => s,
        Some(_) => return Err(format!("field \"{path}.description\" must be a string")),
    };
    let parameters = map.remove("parameters").unwrap_or(Value::Null);
    Ok(Tool {
        name,
        description,
        parameters,
    })
}

fn limits(value: Value) -> Result<Limits, String> {
    let mut map = object(value, "field \"limits\"")?;
    let mut limits = Limits::default();
    // One loop over the fields, not one call each: less code in the module.
    for (key, slot) in [
        ("maxArgsBytes", &mut limits.max_args_bytes),
        ("maxDepth", &mut limits.max_depth),
        ("maxCalls", &mut limits.max_calls),
        ("maxEventBytes", &mut limits.max_event_bytes),
        ("maxThreadBytes", &mut limits.max_thread_bytes),
        ("maxIdBytes", &mut limits.max_id_bytes),
        ("maxMessages", &mut limits.max_messages),
        ("maxLanes", &mut limits.max_lanes),
    ] {
        if let Some(n) = limit(&mut map, key)? {
            *slot = n;
        }
    }
    no_other_field(&map, "limits.")?;
    Ok(limits)
}

/// An optional non-negative integer; `null` reads as absent.
fn limit(map: &mut Fields, key: &str) -> Result<Option<usize>, String> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| format!("field \"limits.{key}\" must be a non-negative integer")),
    }
}

fn object(value: Value, what: &str) -> Result<Fields, String> {
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(format!("{what} must be an object")),
    }
}

/// The fields left once the known ones are taken out are unknown.
fn no_other_field(map: &Fields, prefix: &str) -> Result<(), String> {
    match map.keys().next() {
        Some(key) => Err(format!("unknown field \"{prefix}{key}\"")),
        None => Ok(()),
    }
}
