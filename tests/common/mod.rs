//! Helpers shared by the rule tests: events as `json!` values.

use agui_tool_calls::events::to_json;
use agui_tool_calls::wire::{self, json_text, ChangeRecord, RefusalRecord, SummaryRecord};
use agui_tool_calls::{ApplicationError, CallChange, Changes, Options, Tracker, Violation};
use serde_json::{json, Value};

/// Pushes one event given as a JSON value; then checks the records the
/// binding would send (`records_agree`).
pub fn push(t: &mut Tracker, event: Value) -> Result<(), Violation> {
    let pushed = t.push_json(&event.to_string());
    records_agree(t);
    pushed
}

/// The binding's hand-written records (`wire::json_text`) are the text the
/// records' derived `Serialize` impls write (`events::to_json`): a change
/// record of everything (every call, its text from the middle, every
/// subagent, violation and unmatched result, a repeat), the summary, the
/// violations, the tool messages and the saved thread. Skipped on large
/// trackers, where it would make a test quadratic.
pub fn records_agree(t: &Tracker) {
    if t.calls().len() > 64 || t.violations().len() > 64 || t.unmatched_results().len() > 64 {
        return;
    }
    let changes = Changes {
        calls: (0..t.calls().len())
            .map(|index| CallChange {
                index,
                text_from: t.calls()[index].args_text().len() / 2,
                text_only: false,
            })
            .collect(),
        subagents: (0..t.subagents().len()).collect(),
        run: true,
        violations: 0..t.violations().len(),
        violations_counted: if t.violations().is_empty() {
            vec![]
        } else {
            vec![(0, 2)]
        },
        unmatched_results: 0..t.unmatched_results().len(),
        fatal: t.fatal().is_some(),
    };
    let change = ChangeRecord::new(t, &changes);
    assert_eq!(json_text(&change), to_json(&change));
    for with_violations in [false, true] {
        let summary = SummaryRecord::new(t, with_violations);
        assert_eq!(json_text(&summary), to_json(&summary));
    }
    assert_eq!(json_text(t.violations()), to_json(t.violations()));
    let messages = t.tool_messages();
    assert_eq!(json_text(&messages), to_json(&messages));
    assert_eq!(wire::save(t), to_json(&wire::SavedRecord::new(t)));
}

/// The refusal's hand-written record is the text its derived `Serialize`
/// impl writes (as `records_agree`).
pub fn refusal_agrees(e: &ApplicationError) {
    let record = RefusalRecord::new(e);
    assert_eq!(json_text(&record), to_json(&record));
}

/// Pushes events that must all be accepted.
pub fn feed(t: &mut Tracker, events: &[Value]) {
    for (i, e) in events.iter().enumerate() {
        if let Err(v) = push(t, e.clone()) {
            panic!("event {i} refused: {v}");
        }
    }
}

/// A tracker that has started run `r1`.
pub fn running() -> Tracker {
    running_with(Options::default())
}

pub fn running_with(options: Options) -> Tracker {
    let mut t = Tracker::new(options);
    feed(&mut t, &[run_started("r1")]);
    t
}

/// Pushes an event that must be refused, and returns the fatal code.
pub fn fatal_code(t: &mut Tracker, event: Value) -> &'static str {
    let v = push(t, event).expect_err("the event should be fatal");
    assert_eq!(t.fatal(), Some(&v));
    v.code
}

/// The codes of every recorded violation, in order.
pub fn codes(t: &Tracker) -> Vec<&'static str> {
    t.violations().iter().map(|v| v.code).collect()
}

pub fn run_started(run: &str) -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t1", "runId": run})
}

pub fn run_finished(run: &str) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": run})
}

pub fn start(id: &str, name: &str) -> Value {
    json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": name})
}

pub fn args(id: &str, delta: &str) -> Value {
    json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": delta})
}

pub fn end(id: &str) -> Value {
    json!({"type": "TOOL_CALL_END", "toolCallId": id})
}

pub fn result(message: &str, id: &str, content: &str) -> Value {
    json!({"type": "TOOL_CALL_RESULT", "messageId": message, "toolCallId": id, "content": content})
}

/// Adds `subagentRunId` to an event.
pub fn by(owner: &str, mut event: Value) -> Value {
    event["subagentRunId"] = json!(owner);
    event
}

/// A complete call: start, one delta, end.
pub fn whole_call(id: &str, name: &str, text: &str) -> [Value; 3] {
    [start(id, name), args(id, text), end(id)]
}

/// Everything a snapshot shows except the violations, for "nothing
/// changed" comparisons.
pub fn state_of(t: &Tracker) -> String {
    format!("{:?}|{:?}|{:?}", t.calls(), t.run(), t.unmatched_results())
}
