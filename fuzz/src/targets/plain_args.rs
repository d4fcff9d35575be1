//! A `TOOL_CALL_ARGS` event spelled as `JSON.stringify` spells it is read
//! by fixed bytes; the same text with one space after its `{` goes through
//! the general pass. Both must read the same event, or both refuse it.
//! Input: what follows `{"type":"TOOL_CALL_ARGS",` in the event's text.

use agui_tool_calls::events::Event;

/// Checks what the module says on one input; a failure panics.
pub fn run(data: &[u8]) {
    let Ok(tail) = std::str::from_utf8(data) else {
        return;
    };
    let fixed = format!(r#"{{"type":"TOOL_CALL_ARGS",{tail}"#);
    let general = format!(r#"{{ "type":"TOOL_CALL_ARGS",{tail}"#);
    match (Event::from_json(&fixed), Event::from_json(&general)) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{fixed:?}"),
        // The space moves the error's column, not what it is about.
        (Err(a), Err(b)) => assert_eq!(a.code, b.code, "{fixed:?}"),
        (a, b) => panic!("{fixed:?}: {a:?} against {b:?}"),
    }
}
