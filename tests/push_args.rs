//! `Tracker::push_args` (a binding's plain `TOOL_CALL_ARGS` objects, read
//! without JSON) reads an event exactly as `Tracker::push_json` reads the
//! JSON text `JSON.stringify` makes of it: the same calls, violations and
//! versions, and rule S5's event limit met at the same length.

use agui_tool_calls::{Limits, Options, Tracker};

/// Deltas whose JSON text escapes differently: plain, quotes and
/// backslashes, short escapes, other control characters, multi-byte text.
const DELTAS: &[&str] = &[
    "{\"q\":",
    "\"caf\u{e9} \\\"x\\\"\"",
    "a\\b\u{8}\u{c}\n\r\t",
    "\u{1}\u{1f}\u{7f} ",
    "\u{1F600}\u{2028}",
    "",
    "}",
];

fn tracker(max_event_bytes: usize) -> Tracker {
    let limits = Limits {
        max_event_bytes,
        ..Limits::default()
    };
    let mut t = Tracker::new(Options {
        limits,
        ..Options::default()
    });
    t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#)
        .unwrap();
    t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c\"1","toolCallName":"search"}"#)
        .unwrap();
    t
}

/// The JSON text of the event, as `JSON.stringify` writes it (`serde_json`
/// escapes strings the same way).
fn json_text(id: &str, delta: &str) -> String {
    serde_json::json!({ "type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": delta }).to_string()
}

fn state(t: &Tracker) -> String {
    format!(
        "{:?} {:?} {} {}",
        t.calls(),
        t.violations(),
        t.version(),
        t.events_seen()
    )
}

#[test]
fn push_args_reads_an_event_as_push_json_reads_its_json_text() {
    let (mut fields, mut json) = (tracker(1 << 20), tracker(1 << 20));
    for id in ["c\"1", "unknown"] {
        for delta in DELTAS {
            let a = fields.push_args(id, delta);
            let b = json.push_json(&json_text(id, delta));
            assert_eq!(a, b, "{id:?} {delta:?}");
            assert_eq!(state(&fields), state(&json), "{id:?} {delta:?}");
        }
    }
    assert!(
        !fields.violations().is_empty(),
        "the unknown call was reported"
    );
}

#[test]
fn s5_push_args_meets_the_event_limit_at_the_json_text_s_length() {
    for delta in DELTAS {
        // Padded (whitespace JSON allows) to be the longest event yet.
        let delta = &format!("{:64}{delta}", "");
        let len = json_text("c\"1", delta).len();
        for limit in [len - 1, len, len + 1] {
            let (mut fields, mut json) = (tracker(limit), tracker(limit));
            let a = fields.push_args("c\"1", delta);
            let b = json.push_json(&json_text("c\"1", delta));
            assert_eq!(a.is_err(), limit < len, "{delta:?} at {limit}");
            assert_eq!(a, b, "{delta:?} at {limit}");
            assert_eq!(state(&fields), state(&json), "{delta:?} at {limit}");
        }
    }
}
