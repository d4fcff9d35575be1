//! Saving a thread (`wire::save`) and loading it into a tracker rebuilt
//! from the thread's history after a page reload (`Tracker::load`, rules
//! F8, I1, S3, S5): what the history alone cannot bring back comes back,
//! and a hostile or corrupted value is refused whole, naming the field.

use crate::common::*;
use agui_tool_calls::events::{to_json, Tool};
use agui_tool_calls::{wire, ApplicationError, Consent, Limits, Options, Tracker};
use proptest::prelude::*;
use serde_json::{json, Value};

fn options() -> Options {
    let service = json!({"type": "object", "properties": {"service": {"type": "string"}},
                         "required": ["service"]});
    Options {
        tools: vec![
            Tool::new("deploy", "", service),
            Tool::new("pick", "", json!({"type": "object"})),
        ],
        require_approval: vec!["deploy".to_owned()],
        ..Options::default()
    }
}

const VALID: &str = r#"{"service":"checkout"}"#;

/// The history the application keeps: the assistant message holding the
/// calls of run r1 (d1, d2, d3 to `deploy`, p1 to `pick`, b1 to the
/// backend tool `transfer`).
fn history() -> Value {
    let call = |id: &str, name: &str, args: &str| json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}});
    json!({"messages": [
        {"id": "u1", "role": "user", "content": "deploy"},
        {"id": "a1", "role": "assistant", "toolCalls": [
            call("d1", "deploy", VALID), call("d2", "deploy", VALID), call("d3", "deploy", VALID),
            call("p1", "pick", "{}"), call("b1", "transfer", "{}")]}]})
}

/// Run r1 streamed the calls of [`history`] and ended in an interrupt
/// asking approval of b1 and a question; the user approved d1 for every
/// `deploy` call (so d2 and d3 too), answered d2 and p1, resolved the
/// approval, and a warning was recorded.
fn lived() -> Tracker {
    let mut t = running_with(options());
    for (id, name, text) in [
        ("d1", "deploy", VALID),
        ("d2", "deploy", VALID),
        ("d3", "deploy", VALID),
        ("p1", "pick", "{}"),
        ("b1", "transfer", "{}"),
    ] {
        let mut start = start(id, name);
        start["parentMessageId"] = json!("a1");
        feed(&mut t, &[start, args(id, text), end(id)]);
    }
    feed(
        &mut t,
        &[
            result("r-x", "nobody", "stray"), // T10
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
                   "outcome": {"type": "interrupt", "interrupts": [
                       {"id": "i1", "reason": "tool_call", "toolCallId": "b1", "vendor": [1, {"k": 2}]},
                       {"id": "i2", "reason": "input_required",
                        "responseSchema": {"type": "object", "required": ["region"]}}]}}),
        ],
    );
    t.approve_and_remember("d1").unwrap();
    t.answer("d2", json!("deployed"), "m-d2").unwrap();
    t.answer("p1", json!([{"type": "text", "text": "blue"}]), "m-p1")
        .unwrap();
    t.resolve_interrupt("i1", Some(json!({"approved": true}).into()), None)
        .unwrap();
    t
}

/// A fresh tracker after the reload, rebuilt from the history.
fn reloaded() -> Tracker {
    let mut t = Tracker::new(options());
    t.restore_json(&history().to_string()).unwrap();
    t
}

/// What must come back, and must not change on a refusal.
fn everything(t: &Tracker) -> String {
    let messages: Vec<Value> = t
        .tool_messages()
        .iter()
        .map(agui_tool_calls::ToolMessage::to_value)
        .collect();
    format!(
        "{}|{:?}|{:?}|{:?}|{:?}|{}",
        state_of(t),
        t.interrupts(),
        t.standing_approvals(),
        t.violations(),
        messages,
        t.version()
    )
}

#[test]
fn f8_a_saved_thread_brings_back_interrupts_consent_standing_answers_and_violations() {
    let before = lived();
    let saved = wire::save(&before);
    // The hand-written text is what the record's derived impl writes.
    assert_eq!(saved, to_json(&wire::SavedRecord::new(&before)));
    let mut after = reloaded();
    after.load(&saved).unwrap();

    assert_eq!(after.interrupts(), before.interrupts());
    assert_eq!(after.standing_approvals(), before.standing_approvals());
    assert_eq!(after.violations(), before.violations());
    for id in ["d1", "d2", "d3", "p1", "b1"] {
        let (a, b) = (after.call(id).unwrap(), before.call(id).unwrap());
        assert_eq!(
            (a.consent, &a.consent_from),
            (b.consent, &b.consent_from),
            "{id}"
        );
        assert_eq!(a.awaiting_interrupt, b.awaiting_interrupt, "{id}");
    }
    assert_eq!(
        after.call("d3").unwrap().consent_from.as_deref(),
        Some("d1")
    );
    assert_eq!(after.tool_messages(), before.tool_messages());
    // Saved again, it is the same value: nothing was lost or added.
    assert_eq!(wire::save(&after), saved);
    // The thread goes on: the standing approval covers the next call, and
    // d3 (approved, unanswered) must still be answered.
    let err = after
        .start_run_json(r#"{"threadId":"t","runId":"r9","messages":[]}"#)
        .unwrap_err();
    assert!(err.to_string().contains("d3"), "{err}");
    after.answer("d1", json!("deployed"), "m-d1").unwrap();
    after.answer("d3", json!("deployed"), "m-d3").unwrap();
    after.cancel_interrupt("i2").unwrap();
    let mut messages = history()["messages"].as_array().unwrap().clone();
    messages.extend(
        after
            .tool_messages()
            .iter()
            .map(agui_tool_calls::ToolMessage::to_value),
    );
    let input = json!({"threadId": "t", "runId": "r2", "messages": messages, "resume": [
        {"interruptId": "i1", "status": "resolved", "payload": {"approved": true}},
        {"interruptId": "i2", "status": "cancelled"}]});
    after.start_run_json(&input.to_string()).unwrap();
    feed(&mut after, &[run_started("r2")]);
    feed(&mut after, &whole_call("d4", "deploy", VALID));
    assert_eq!(
        after.call("d4").unwrap().consent_from.as_deref(),
        Some("d1")
    );
}

#[test]
fn f8_an_answer_the_history_already_carries_is_left_out() {
    let before = lived();
    let saved = wire::save(&before);
    let mut history = history();
    history["messages"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "m-d2", "role": "tool", "toolCallId": "d2", "content": "deployed"}));
    let mut after = Tracker::new(options());
    after.restore_json(&history.to_string()).unwrap();
    after.load(&saved).unwrap();
    let ids: Vec<_> = after
        .tool_messages()
        .iter()
        .map(|m| m.tool_call_id.clone())
        .collect();
    assert_eq!(ids, ["p1"]);
    assert_eq!(
        after.call("d2").unwrap().consent_from.as_deref(),
        Some("d1")
    );
}

fn refused(t: &mut Tracker, saved: &str) -> String {
    let before = everything(t);
    let err = t.load(saved).expect_err("refused");
    assert_eq!(everything(t), before, "a refusal changes nothing");
    err.to_string()
}

/// `lived()`'s saved value with `edit` applied.
fn edited(edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(&wire::save(&lived())).unwrap();
    edit(&mut v);
    v.to_string()
}

#[test]
fn f8_a_value_of_another_version_is_refused_saying_so() {
    let mut t = reloaded();
    let future = refused(&mut t, &edited(|v| v["version"] = json!(2)));
    assert!(
        future.contains("\"saved.version\" is above 1: saved by a newer version"),
        "{future}"
    );
    for bad in [json!(0), json!("1"), json!(1.5), Value::Null] {
        let e = refused(&mut t, &edited(|v| v["version"] = bad));
        assert!(e.contains("field \"saved.version\" must be 1"), "{e}");
    }
    let e = refused(
        &mut t,
        &edited(|v| drop(v.as_object_mut().unwrap().remove("version"))),
    );
    assert!(e.contains("missing field \"saved.version\""), "{e}");
    t.load(&wire::save(&lived())).unwrap();
}

#[test]
#[allow(clippy::too_many_lines)] // one table of corrupted values, each with the refusal it earns
fn s5_a_corrupted_saved_value_is_refused_naming_the_field_and_the_tracker_stays_usable() {
    let mut t = reloaded();
    let cases: Vec<(String, &str)> = vec![
        ("[]".into(), "field \"saved\" must be an object"),
        ("{".into(), "not JSON"),
        (
            edited(|v| v["calls"] = json!({})),
            "field \"saved.calls\" must be an array",
        ),
        (
            edited(|v| v["calls"][0]["id"] = json!(7)),
            "field \"saved.calls[0].id\" must be a string",
        ),
        (
            edited(|v| v["calls"][0]["id"] = json!("nope")),
            "field \"saved.calls[0].id\" names no call",
        ),
        (
            edited(|v| v["calls"][1] = v["calls"][0].clone()),
            "field \"saved.calls[1].id\" repeats",
        ),
        (
            edited(|v| v["calls"][0]["consent"] = json!("yes")),
            "field \"saved.calls[0].consent\" must be",
        ),
        (
            edited(|v| v["calls"][0]["id"] = json!("x".repeat(2000))),
            "field \"saved.calls[0].id\" exceeds the limit of 1024 (limits.maxIdBytes)",
        ),
        (
            edited(|v| v["interrupts"][1]["interrupt"]["id"] = json!("i1")),
            "field \"saved.interrupts[1].interrupt.id\" repeats",
        ),
        (
            edited(|v| v["interrupts"][0]["interrupt"]["reason"] = json!([])),
            "field \"saved.interrupts[0].interrupt.reason\" must be a string",
        ),
        (
            edited(|v| v["interrupts"][0]["status"] = json!("done")),
            "field \"saved.interrupts[0].status\" must be",
        ),
        (
            edited(|v| v["standingApprovals"][0]["toolCallId"] = json!("p1")),
            "field \"saved.standingApprovals[0].toolCallId\" names no call to its tool",
        ),
        (
            edited(|v| v["standingApprovals"] = json!([])),
            "consentFrom\" names no standing approval that covers this call",
        ),
        (
            edited(|v| v["violations"][0]["code"] = json!("Z9")),
            "field \"saved.violations[0].code\" must be a rule id",
        ),
        (
            edited(|v| v["violations"][0]["count"] = json!(-1)),
            "field \"saved.violations[0].count\" must be a whole number",
        ),
        (
            edited(|v| v["violations"] = json!(vec![v["violations"][0].clone(); 1003])),
            "field \"saved.violations\" must hold at most 1002 entries",
        ),
        (
            edited(|v| v["violations"][0]["message"] = json!("m".repeat(5000))),
            "field \"saved.violations[0].message\" is over",
        ),
        (
            edited(|v| v["calls"][1]["answer"]["messageId"] = json!("u1")),
            "field \"saved.calls[1].answer.messageId\" is already used",
        ),
        (
            edited(|v| v["calls"][1]["answer"]["content"] = json!({"a": 1})),
            "field \"saved.calls[1].answer.content\" must be a string or an array",
        ),
        (
            edited(|v| v["calls"][0]["id"] = json!("[".repeat(100_000))),
            "exceeds the limit of 1024 (limits.maxIdBytes)",
        ),
        (
            format!(
                r#"{{"version":1,"calls":{}}}"#,
                "[".repeat(100_000) + &"]".repeat(100_000)
            ),
            "field \"saved.calls[0]\" must be an object",
        ),
    ];
    for (saved, expected) in cases {
        let e = refused(&mut t, &saved);
        assert!(e.contains(expected), "expected {expected:?} in {e:?}");
        assert!(
            e.starts_with("the saved thread cannot be restored: "),
            "{e}"
        );
    }
    // Past the event limit, read as one event is.
    let mut small = Tracker::new(Options {
        limits: agui_tool_calls::Limits {
            max_event_bytes: 64,
            ..Default::default()
        },
        ..options()
    });
    let e = refused(&mut small, &wire::save(&lived()));
    assert!(
        e.contains("the saved value exceeds the limit of 64 (limits.maxEventBytes)"),
        "{e}"
    );
    // Past the thread's budget.
    let mut tight = Tracker::new(Options {
        limits: agui_tool_calls::Limits {
            max_thread_bytes: 6_000,
            ..Default::default()
        },
        ..options()
    });
    tight.restore_json(&history().to_string()).unwrap();
    let err = tight.load(&edited(|v| {
        v["calls"][1]["answer"]["content"] = json!("x".repeat(4_000));
    }));
    assert!(matches!(err, Err(ApplicationError::Limit(_))), "{err:?}");
    // Still usable: the good value loads.
    t.load(&wire::save(&lived())).unwrap();
    assert_eq!(t.call("d1").unwrap().consent, Consent::Approved);
}

#[test]
fn f8_a_saved_fatal_violation_stops_the_tracker_again() {
    let mut broken = lived();
    let _ = push(&mut broken, end("nope")); // T2 after the run: fatal
    let code = broken.fatal().unwrap().code;
    let saved = wire::save(&broken);
    let mut t = reloaded();
    t.load(&saved).unwrap();
    assert_eq!(t.fatal().map(|v| v.code), Some(code));
    assert_eq!(t.violations().last(), broken.violations().last());
    assert!(
        push(&mut t, run_started("r2")).is_err(),
        "stopped, as before the reload"
    );
    let mut t = reloaded();
    let e = refused(
        &mut t,
        &edited(|v| {
            let fatal = json!({"code": "T2", "severity": "fatal", "message": "m", "eventIndex": 1, "count": 1});
            v["violations"].as_array_mut().unwrap().insert(0, fatal);
        }),
    );
    assert!(
        e.contains("field \"saved.violations[0]\" is fatal but not the last"),
        "{e}"
    );
}

#[test]
fn f8_loading_is_refused_while_a_run_is_active_or_into_a_tracker_with_interrupts() {
    let saved = wire::save(&lived());
    let mut t = running_with(options());
    assert_eq!(t.load(&saved), Err(ApplicationError::RunActive));
    let mut t = lived();
    refused(&mut t, &saved);
}

/// One JSON value, hostile in shape: wrong types, long strings, large
/// arrays, deep nesting.
fn junk() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        Just(json!(1e300)),
        "[a-z0-9]{0,8}".prop_map(Value::from),
        (1usize..3000).prop_map(|n| Value::from("x".repeat(n))),
        (0usize..3000).prop_map(|n| json!(vec![0; n])),
        (1usize..300).prop_map(|n| {
            let mut v = json!({});
            for _ in 0..n {
                v = json!([v]);
            }
            v
        }),
        Just(json!({"id": "d1"})),
        Just(json!([{"id": "d1", "consent": "approved"}])),
    ]
}

/// Every place of a value, as a list of steps from the root.
fn places(v: &Value, at: Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(at.clone());
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                let mut next = at.clone();
                next.push(json!(k));
                places(x, next, out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                let mut next = at.clone();
                next.push(json!(i));
                places(x, next, out);
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
        _ => unreachable!(),
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// A saved value with random places replaced by junk, entries
    /// duplicated or its text cut: loading never panics, is refused whole
    /// (nothing changes) or accepted, retains no more than the budget, and
    /// the tracker then takes the good value and goes on.
    #[test]
    fn s5_loading_a_corrupted_saved_value_never_panics_and_a_refusal_changes_nothing(
        edits in prop::collection::vec((any::<prop::sample::Index>(), junk()), 1..4),
        duplicate in any::<Option<prop::sample::Index>>(),
        cut in any::<Option<prop::sample::Index>>(),
    ) {
        let good = wire::save(&lived());
        let mut v: Value = serde_json::from_str(&good).unwrap();
        for (index, junk) in edits {
            let mut all = Vec::new();
            places(&v, Vec::new(), &mut all);
            let path = index.get(&all).clone();
            *at(&mut v, &path) = junk;
        }
        if let (Some(d), Some(calls)) = (duplicate, v.get_mut("calls").and_then(Value::as_array_mut)) {
            if !calls.is_empty() {
                let item = d.get(calls).clone();
                calls.push(item);
            }
        }
        let mut text = v.to_string();
        if let Some(c) = cut {
            let mut n = c.index(text.len());
            while !text.is_char_boundary(n) {
                n -= 1;
            }
            text.truncate(n);
        }
        let mut t = reloaded();
        let before = everything(&t);
        if t.load(&text).is_err() {
            prop_assert_eq!(everything(&t), before);
            t.load(&good).unwrap();
        }
        prop_assert!(t.retained_bytes() <= Limits::default().max_thread_bytes);
        // Usable: it reads the next run's events.
        if t.fatal().is_none() {
            feed(&mut t, &[run_started("r2")]);
            feed(&mut t, &whole_call("d9", "deploy", VALID));
        }
    }
}
