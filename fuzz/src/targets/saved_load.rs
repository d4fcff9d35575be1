//! Any text as a saved thread (`Tracker::load`) into a tracker rebuilt from
//! a fixed history, sometimes with tiny limits: no panic; a refusal names
//! a field or a limit and changes nothing (calls, run, interrupts,
//! standing approvals, violations, retained bytes), and the tracker then
//! loads a good value; a value taken stays within `maxThreadBytes` and the
//! violation cap, and saving it again gives a value a second tracker loads
//! into the same saved thread.

use crate::check::summary;
use agui_tool_calls::events::Tool;
use agui_tool_calls::{wire, ApplicationError, Limits, Options, Tracker};
use serde_json::json;

const HISTORY: &str = r#"{"messages":[{"id":"u1","role":"user","content":"go"},
  {"id":"a1","role":"assistant","toolCalls":[
    {"id":"d1","type":"function","function":{"name":"deploy","arguments":"{\"service\":\"x\"}"}},
    {"id":"d2","type":"function","function":{"name":"deploy","arguments":"{\"service\":\"y\"}"}},
    {"id":"p1","type":"function","function":{"name":"pick","arguments":"{}"}}]},
  {"id":"t1","role":"tool","toolCallId":"p1","content":"blue"}]}"#;

fn tracker(tiny: bool) -> Tracker {
    let schema = json!({"type": "object", "required": ["service"]});
    let mut limits = Limits::default();
    if tiny {
        limits.max_id_bytes = 6;
        limits.max_event_bytes = 2048;
        limits.max_thread_bytes = 4096;
    }
    let mut t = Tracker::new(Options {
        tools: vec![
            Tool::new("deploy", "", schema),
            Tool::new("pick", "", json!({})),
        ],
        require_approval: vec!["deploy".to_owned()],
        limits,
        ..Options::default()
    });
    t.restore_json(HISTORY).expect("the history restores");
    t
}

fn state(t: &Tracker) -> String {
    format!(
        "{}|{:?}|{:?}|{}|{}",
        summary(t),
        t.interrupts(),
        t.standing_approvals(),
        t.retained_bytes(),
        wire::save(t)
    )
}

/// Checks what the module says on one input; a failure panics.
pub fn run(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let tiny = flags & 1 == 1;
    let mut t = tracker(tiny);
    let before = state(&t);
    match t.load(text) {
        Err(e) => {
            match &e {
                ApplicationError::Saved(e) => {
                    let m = e.message();
                    assert!(
                        m.contains("field \"saved")
                            || m.starts_with("not JSON")
                            || m.contains("limits."),
                        "{m}"
                    );
                    // The path, when there is one, is the field the message names.
                    assert!(e.path().is_empty() || m.contains(e.path()), "{m}");
                }
                ApplicationError::Limit(m) => assert!(m.contains("limits.maxThreadBytes"), "{m}"),
                other => panic!("unexpected refusal {other:?}"),
            }
            assert_eq!(state(&t), before, "a refusal changes nothing");
            t.load(r#"{"version":1,"calls":[{"id":"d1","consent":"declined"}]}"#)
                .expect("still usable");
        }
        Ok(()) => {
            let limits = Limits::default();
            let max = if tiny { 4096 } else { limits.max_thread_bytes };
            assert!(t.retained_bytes() <= max, "past the budget");
            assert!(t.violations().len() <= 1002, "past the violation cap");
            let saved = wire::save(&t);
            let mut again = tracker(tiny);
            again.load(&saved).expect("a saved value loads");
            assert_eq!(wire::save(&again), saved, "saved again the same");
        }
    }
}
