//! The options object of the JS constructor, read from JSON text.

use crate::events::Tool;
use crate::{Limits, Options};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsOptions {
    #[serde(default)]
    tools: Vec<JsTool>,
    #[serde(default)]
    require_approval: Vec<String>,
    #[serde(default)]
    fragment: bool,
    #[serde(default)]
    limits: JsLimits,
}

#[derive(Deserialize)]
struct JsTool {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    parameters: Value,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsLimits {
    max_args_bytes: Option<usize>,
    max_depth: Option<usize>,
    max_calls: Option<usize>,
}

/// Reads the constructor's options; the error names what is wrong.
pub fn parse_options(json: &str) -> Result<Options, String> {
    let js: JsOptions = serde_json::from_str(json).map_err(|e| format!("invalid options: {e}"))?;
    let defaults = Limits::default();
    Ok(Options {
        tools: js
            .tools
            .into_iter()
            .map(|t| Tool::new(&t.name, &t.description, t.parameters))
            .collect(),
        require_approval: js.require_approval,
        fragment: js.fragment,
        limits: Limits {
            max_args_bytes: js.limits.max_args_bytes.unwrap_or(defaults.max_args_bytes),
            max_depth: js.limits.max_depth.unwrap_or(defaults.max_depth),
            max_calls: js.limits.max_calls.unwrap_or(defaults.max_calls),
        },
    })
}
