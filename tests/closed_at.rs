//! `ToolCall::closed_at`: the event that last closed a call, whatever closed
//! it (an end, a chunk lane moving on, a run error), so a report can place
//! what the call's arguments turned out to be.

use agui_tool_calls::{Options, Tracker};

fn replay(lines: &[&str]) -> Tracker {
    let mut tracker = Tracker::new(Options::default());
    for line in lines {
        let _ = tracker.push_json(line);
    }
    tracker
}

#[test]
fn closed_at_is_the_end_event_and_moves_with_a_reopen() {
    let tracker = replay(&[
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
        r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x"}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{}"}"#,
    ]);
    assert_eq!(tracker.calls()[0].closed_at, None, "open: not closed yet");
    let tracker = replay(&[
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
        r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#,
        r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#,
    ]);
    assert_eq!(tracker.calls()[0].closed_at, Some(4));
}

#[test]
fn closed_at_is_the_event_that_closed_a_chunked_call_or_abandoned_it() {
    let tracker = replay(&[
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
        r#"{"type":"TOOL_CALL_CHUNK","toolCallId":"a","toolCallName":"x","delta":"{}"}"#,
        r#"{"type":"TOOL_CALL_CHUNK","toolCallId":"b","toolCallName":"y","delta":"{"}"#,
        r#"{"type":"RUN_ERROR","message":"boom"}"#,
    ]);
    assert_eq!(
        tracker.calls()[0].closed_at,
        Some(2),
        "the next chunk's call closed it"
    );
    assert_eq!(
        tracker.calls()[1].closed_at,
        Some(3),
        "the run error abandoned it"
    );
}
