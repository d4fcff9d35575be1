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

fn tracker(max_event_bytes: usize, owner: Option<&str>) -> Tracker {
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
    let mut start = serde_json::json!({"type": "TOOL_CALL_START", "toolCallId": "c\"1", "toolCallName": "search"});
    if let Some(o) = owner {
        start["subagentRunId"] = o.into();
    }
    t.push_json(&start.to_string()).unwrap();
    t
}

/// Timestamps as an agent may send them: none, the shortest, a time of
/// day in milliseconds, the largest JS writes as a whole number exactly.
const TIMESTAMPS: &[Option<u64>] = &[None, Some(0), Some(1_764_518_800_198), Some((1 << 53) - 1)];

/// Subagents as an event may name them: none, a plain id, one to escape.
const OWNERS: &[Option<&str>] = &[None, Some("sub_1"), Some("s\"2\n")];

/// The JSON text of the event, as `JSON.stringify` writes it (`serde_json`
/// escapes strings the same way).
fn json_text(id: &str, delta: &str, timestamp: Option<u64>, owner: Option<&str>) -> String {
    let mut event =
        serde_json::json!({ "type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": delta });
    if let Some(t) = timestamp {
        event["timestamp"] = t.into();
    }
    if let Some(o) = owner {
        event["subagentRunId"] = o.into();
    }
    event.to_string()
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
    for &owner in OWNERS {
        let (mut fields, mut json) = (tracker(1 << 20, owner), tracker(1 << 20, owner));
        for id in ["c\"1", "unknown"] {
            for (delta, &timestamp) in DELTAS.iter().zip(TIMESTAMPS.iter().cycle()) {
                let a = fields.push_args(id, delta, timestamp, owner);
                let b = json.push_json(&json_text(id, delta, timestamp, owner));
                assert_eq!(a, b, "{id:?} {delta:?} {owner:?}");
                assert_eq!(state(&fields), state(&json), "{id:?} {delta:?}");
            }
        }
        assert!(
            !fields.violations().is_empty(),
            "the unknown call was reported"
        );
        // The known call took every delta first.
        assert_eq!(fields.calls()[0].owner.as_deref(), owner);
    }
    // From another owner than the call's: both refuse it alike (rule A3).
    let (mut fields, mut json) = (tracker(1 << 20, None), tracker(1 << 20, None));
    let a = fields.push_args("c\"1", "{", None, Some("sub_1"));
    let b = json.push_json(&json_text("c\"1", "{", None, Some("sub_1")));
    assert_eq!(a.as_ref().map_err(|v| v.code), Err("A3"));
    assert_eq!(a, b);
}

#[test]
fn s5_push_args_meets_the_event_limit_at_the_json_text_s_length() {
    for ((delta, &timestamp), &owner) in DELTAS
        .iter()
        .flat_map(|d| TIMESTAMPS.iter().map(move |t| (d, t)))
        .zip(OWNERS.iter().cycle())
    {
        // Padded (whitespace JSON allows) to be the longest event yet.
        let delta = &format!("{:64}{delta}", "");
        let len = json_text("c\"1", delta, timestamp, owner).len();
        for limit in [len - 1, len, len + 1] {
            let (mut fields, mut json) = (tracker(limit, owner), tracker(limit, owner));
            let a = fields.push_args("c\"1", delta, timestamp, owner);
            let b = json.push_json(&json_text("c\"1", delta, timestamp, owner));
            assert_eq!(a.is_err(), limit < len, "{delta:?} at {limit}");
            assert_eq!(a, b, "{delta:?} at {limit}");
            assert_eq!(state(&fields), state(&json), "{delta:?} at {limit}");
        }
    }
}
