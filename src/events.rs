//! The AG-UI events the tracker reads, parsed from JSON text.
//!
//! PLACEHOLDER: the first slice knows the run and tool-call events only.

use serde::Deserialize;

/// One AG-UI event, as far as tool calls are concerned.
///
/// ```
/// use agui_tool_calls::events::Event;
///
/// let e = Event::from_json(r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#).unwrap();
/// assert!(matches!(e, Event::ToolCallEnd { .. }));
/// ```
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(
    tag = "type",
    rename_all = "SCREAMING_SNAKE_CASE",
    rename_all_fields = "camelCase"
)]
pub enum Event {
    RunStarted {
        thread_id: String,
        run_id: String,
    },
    RunFinished {
        thread_id: String,
        run_id: String,
    },
    RunError {
        message: String,
    },
    ToolCallStart {
        tool_call_id: String,
        tool_call_name: String,
        #[serde(default)]
        parent_message_id: Option<String>,
    },
    ToolCallArgs {
        tool_call_id: String,
        delta: String,
    },
    ToolCallEnd {
        tool_call_id: String,
    },
}

impl Event {
    /// Parses one event from JSON text; the error names what is wrong.
    pub fn from_json(text: &str) -> Result<Event, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}
