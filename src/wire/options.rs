//! The options object of the JS constructor, read from JSON text.
//!
//! Read from a `serde_json::Value` by hand rather than through derived
//! `Deserialize` impls: the derived visitors link serde's type-error
//! messages, and with them float formatting, into the module.

use crate::events::payload::{item_path, missing, must_be};
use crate::events::Tool;
use crate::value::{Map, Value};
use crate::{Limits, Options};

/// Reads the constructor's options; the error names what is wrong.
pub fn parse_options(json: &str) -> Result<Options, String> {
    // Strings as `JSON.parse` reads them: a lone surrogate is not refused.
    crate::events::json::Raw::checked(json)
        .and_then(crate::events::json::value)
        .and_then(options)
        .map_err(|e| format!("invalid options: {e}"))
}

// Each object is read in one pass over its fields, by value, in the order
// given: taking them out with `Map::remove` would link the map's removal
// code into the module for options read once.

fn options(value: Value) -> Result<Options, String> {
    let mut options = Options::default();
    for (key, value) in object(value).ok_or("the options must be an object")? {
        match key.as_str() {
            "tools" => match value {
                Value::Array(items) => {
                    for (i, item) in items.into_iter().enumerate() {
                        options.tools.push(tool(item, &item_path("tools", i))?);
                    }
                }
                _ => return Err("field \"tools\" must be an array".into()),
            },
            "requireApproval" => match value {
                Value::Array(items) => {
                    for (i, item) in items.into_iter().enumerate() {
                        let Value::String(name) = item else {
                            let path = item_path("requireApproval", i);
                            return Err(must_be(&path, "", "a string").into());
                        };
                        options.require_approval.push(name);
                    }
                }
                _ => return Err("field \"requireApproval\" must be an array".into()),
            },
            "fragment" => match value {
                Value::Bool(b) => options.fragment = b,
                _ => return Err("field \"fragment\" must be a boolean".into()),
            },
            "limits" => options.limits = limits(value)?,
            _ => return Err(unknown_field("", &key)),
        }
    }
    Ok(options)
}

fn tool(value: Value, path: &str) -> Result<Tool, String> {
    let mut name = None;
    let mut description = String::new();
    let mut parameters = Value::Null;
    for (key, value) in object(value).ok_or_else(|| must_be(path, "", "an object"))? {
        match (key.as_str(), value) {
            ("name", Value::String(s)) => name = Some(s),
            ("name", _) => return Err(must_be(path, "name", "a string").into()),
            ("description", Value::String(s)) => description = s,
            ("description", _) => return Err(must_be(path, "description", "a string").into()),
            ("parameters", v) => parameters = v,
            // Other fields of a tool are the application's: kept out, not refused.
            _ => {}
        }
    }
    let name = name.ok_or_else(|| missing(path, "name"))?;
    Ok(Tool {
        name,
        description,
        parameters,
    })
}

fn limits(value: Value) -> Result<Limits, String> {
    let mut limits = Limits::default();
    for (key, value) in object(value).ok_or_else(|| must_be("limits", "", "an object"))? {
        // One table of the fields, not one arm each: less code in the module.
        let slot = match key.as_str() {
            "maxArgsBytes" => &mut limits.max_args_bytes,
            "maxDepth" => &mut limits.max_depth,
            "maxCalls" => &mut limits.max_calls,
            "maxEventBytes" => &mut limits.max_event_bytes,
            "maxThreadBytes" => &mut limits.max_thread_bytes,
            "maxIdBytes" => &mut limits.max_id_bytes,
            "maxMessages" => &mut limits.max_messages,
            "maxLanes" => &mut limits.max_lanes,
            _ => return Err(unknown_field("limits.", &key)),
        };
        if let Some(n) = limit(&key, &value)? {
            *slot = n;
        }
    }
    Ok(limits)
}

/// An optional non-negative integer; `null` reads as absent.
fn limit(key: &str, value: &Value) -> Result<Option<usize>, String> {
    match value {
        Value::Null => Ok(None),
        v => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| must_be("limits", key, "a non-negative integer").into()),
    }
}

fn object(value: Value) -> Option<Map> {
    match value {
        Value::Object(map) => Some(map),
        _ => None,
    }
}

fn unknown_field(prefix: &str, key: &str) -> String {
    format!("unknown field \"{prefix}{key}\"")
}

#[cfg(test)]
mod tests {
    use super::parse_options;

    #[test]
    fn each_error_names_the_field() {
        let cases = [
            ("[]", "the options must be an object"),
            (r#"{"tools":1}"#, r#"field "tools" must be an array"#),
            (r#"{"tools":[1]}"#, r#"field "tools[0]" must be an object"#),
            (
                r#"{"tools":[{"name":1}]}"#,
                r#"field "tools[0].name" must be a string"#,
            ),
            (
                r#"{"tools":[{"name":"a","description":1}]}"#,
                r#"field "tools[0].description" must be a string"#,
            ),
            (r#"{"tools":[{}]}"#, r#"missing field "tools[0].name""#),
            (
                r#"{"requireApproval":["a",2]}"#,
                r#"field "requireApproval[1]" must be a string"#,
            ),
            (r#"{"fragment":1}"#, r#"field "fragment" must be a boolean"#),
            (r#"{"limits":1}"#, r#"field "limits" must be an object"#),
            (
                r#"{"limits":{"maxDepth":-1}}"#,
                r#"field "limits.maxDepth" must be a non-negative integer"#,
            ),
            (r#"{"limits":{"x":1}}"#, r#"unknown field "limits.x""#),
            (r#"{"x":1}"#, r#"unknown field "x""#),
        ];
        for (json, message) in cases {
            let error = parse_options(json).err();
            assert_eq!(error, Some(format!("invalid options: {message}")), "{json}");
        }
    }
}
