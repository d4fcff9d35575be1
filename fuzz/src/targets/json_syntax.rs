//! Any text as JSON: the tracker's one-pass syntax check takes exactly what
//! `serde_json`'s check takes, and an event is refused as invalid JSON
//! exactly when `serde_json` refuses its text.

use agui_tool_calls::events::{Event, Opaque};
use serde::de::IgnoredAny;

/// Checks what the module says on one input; a failure panics.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let valid = serde_json::from_str::<IgnoredAny>(text).is_ok();
    assert_eq!(Opaque::from_json(text).is_ok(), valid, "{text:?}");
    let refused_as_invalid = match Event::from_json(text) {
        Ok(_) => false,
        // No path: the text is no event at all (an event type of its own
        // may start the message of a field's error with the same words).
        Err(e) => e.path().is_none() && e.message().starts_with("invalid JSON"),
    };
    assert_eq!(refused_as_invalid, !valid, "{text:?}");
}
