//! The subagent tree: rules A8-A10.

use crate::common::*;
use agui_tool_calls::{Limits, Options, SubagentStatus, Tracker};
use serde_json::{json, Value};

fn started(id: &str, name: &str, extra: Value) -> Value {
    let mut e = json!({"type": "SUBAGENT_STARTED", "subagentRunId": id, "name": name});
    for (k, v) in extra.as_object().unwrap() {
        e[k] = v.clone();
    }
    e
}

fn finished(id: &str, outcome: Option<Value>) -> Value {
    let mut e = json!({"type": "SUBAGENT_FINISHED", "subagentRunId": id});
    if let Some(o) = outcome {
        e["outcome"] = o;
    }
    e
}

fn errored(id: &str) -> Value {
    json!({"type": "SUBAGENT_ERROR", "subagentRunId": id, "message": "boom", "code": "E42"})
}

fn ids<'a>(t: &'a Tracker, subagent: &'a str) -> Vec<&'a str> {
    t.subagent_calls(subagent).map(|c| c.id.as_str()).collect()
}

/// A call of the parent agent starts s1, whose call starts s2 (nested).
fn nested() -> Tracker {
    let mut t = running();
    feed(
        &mut t,
        &[
            start("c1", "research"),
            end("c1"),
            started(
                "s1",
                "researcher",
                json!({"parentToolCallId": "c1", "parentMessageId": "m1", "description": "finds"}),
            ),
            by("s1", start("c2", "delegate")),
            by("s1", end("c2")),
            started(
                "s2",
                "reader",
                json!({"parentToolCallId": "c2", "parentSubagentRunId": "s1"}),
            ),
            by("s2", start("c3", "confirm")),
            by("s2", args("c3", "{}")),
            by("s2", end("c3")),
        ],
    );
    t
}

#[test]
fn a8_subagents_form_a_tree_of_calls() {
    let mut t = nested();
    let s1 = t.subagent("s1").unwrap();
    assert_eq!(s1.name, "researcher");
    assert_eq!(s1.description.as_deref(), Some("finds"));
    assert_eq!(s1.parent_tool_call_id.as_deref(), Some("c1"));
    assert_eq!(s1.parent_message_id.as_deref(), Some("m1"));
    assert_eq!(s1.parent_subagent_run_id, None);
    assert_eq!(s1.status, SubagentStatus::Running);
    let s2 = t.subagent("s2").unwrap();
    assert_eq!(s2.parent_subagent_run_id.as_deref(), Some("s1"));
    assert_eq!(s2.parent_tool_call_id.as_deref(), Some("c2"));
    assert_eq!(ids(&t, "s1"), ["c2"]);
    assert_eq!(ids(&t, "s2"), ["c3"]);
    feed(
        &mut t,
        &[
            finished(
                "s2",
                Some(json!({"type": "suspended", "interruptIds": ["i1"]})),
            ),
            errored("s1"),
        ],
    );
    let s2 = t.subagent("s2").unwrap();
    assert_eq!(s2.status, SubagentStatus::Suspended);
    assert_eq!(s2.interrupt_ids, ["i1"]);
    let s1 = t.subagent("s1").unwrap();
    assert_eq!(s1.status, SubagentStatus::Errored);
    assert_eq!(s1.error, Some(("boom".to_owned(), Some("E42".to_owned()))));
    assert_eq!(
        t.subagents()
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>(),
        ["s1", "s2"]
    );
    // The nested subagent's frontend call is pending like any other.
    push(&mut t, run_finished("r1")).unwrap();
    assert!(codes(&t).iter().all(|c| *c == "F7"), "{:?}", t.violations());
    assert!(t.pending_calls().any(|c| c.id == "c3"));
}

#[test]
fn a8_finished_outcomes_read_as_success_or_suspended() {
    let mut t = running();
    feed(
        &mut t,
        &[
            started("s1", "a", json!({})),
            finished("s1", None),
            started("s2", "b", json!({})),
            finished("s2", Some(json!({"type": "success"}))),
            started("s3", "c", json!({})),
            finished("s3", Some(json!({"type": "suspended"}))),
            started("s4", "d", json!({})),
            // A type 1.0 does not describe is stripped: success (P1).
            finished("s4", Some(json!({"type": "paused"}))),
        ],
    );
    let status = |id| t.subagent(id).unwrap().status;
    assert_eq!(status("s1"), SubagentStatus::Finished);
    assert_eq!(status("s2"), SubagentStatus::Finished);
    assert_eq!(status("s3"), SubagentStatus::Suspended);
    assert!(t.subagent("s3").unwrap().interrupt_ids.is_empty());
    assert_eq!(status("s4"), SubagentStatus::Finished);
    assert_eq!(codes(&t), ["P1"]);
}

#[test]
fn a8_malformed_subagent_events_name_the_field() {
    for (event, field) in [
        (
            json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1"}),
            "name",
        ),
        (
            json!({"type": "SUBAGENT_STARTED", "name": "a"}),
            "subagentRunId",
        ),
        (
            json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "a", "parentToolCallId": 4}),
            "parentToolCallId",
        ),
        (
            json!({"type": "SUBAGENT_ERROR", "subagentRunId": "s1"}),
            "message",
        ),
        (
            json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1", "outcome": {"type": "suspended", "interruptIds": [1]}}),
            "interruptIds",
        ),
    ] {
        let mut t = running();
        let err = push(&mut t, event).unwrap_err();
        assert_eq!(err.code, "E2");
        assert!(err.message.contains(field), "{}", err.message);
        assert_eq!(err.event_index, 1);
        assert!(t.subagents().is_empty());
    }
}

#[test]
fn a8_run_error_and_abort_abandon_running_subagents_without_violation() {
    let mut t = running();
    feed(
        &mut t,
        &[
            started("s1", "a", json!({})),
            json!({"type": "RUN_ERROR", "message": "down"}),
        ],
    );
    assert_eq!(t.subagent("s1").unwrap().status, SubagentStatus::Abandoned);
    assert!(codes(&t).is_empty());
    feed(&mut t, &[run_started("r2"), started("s2", "b", json!({}))]);
    t.abort_run(None);
    assert_eq!(t.subagent("s2").unwrap().status, SubagentStatus::Abandoned);
    assert!(codes(&t).is_empty());
}

#[test]
fn a8_a_suspended_subagent_continues_in_a_later_run() {
    let mut t = running();
    feed(
        &mut t,
        &[
            started("s1", "a", json!({})),
            finished("s1", Some(json!({"type": "suspended"}))),
            run_finished("r1"),
            run_started("r2"),
            started("s1", "a", json!({})),
        ],
    );
    assert_eq!(t.subagent("s1").unwrap().status, SubagentStatus::Running);
    assert_eq!(t.subagents().len(), 1);
    assert!(codes(&t).is_empty());
}

#[test]
fn a8_changes_list_each_changed_subagent_once() {
    let mut t = running();
    t.take_changes();
    feed(
        &mut t,
        &[started("s1", "a", json!({})), finished("s1", None)],
    );
    assert_eq!(t.take_changes().subagents, [0]);
    assert!(t.take_changes().is_empty());
    // Suspended, then continued by the next run before anyone took changes.
    feed(
        &mut t,
        &[
            started("s2", "b", json!({})),
            finished("s2", Some(json!({"type": "suspended"}))),
            run_finished("r1"),
            run_started("r2"),
            started("s2", "b", json!({})),
        ],
    );
    assert_eq!(t.take_changes().subagents, [1]);
}

#[test]
fn a8_subagents_count_against_the_call_limit() {
    let limits = Limits {
        max_calls: 2,
        ..Limits::default()
    };
    let mut t = running_with(Options {
        limits,
        ..Options::default()
    });
    feed(&mut t, &[start("c1", "f"), started("s1", "a", json!({}))]);
    let before = state_of(&t);
    assert_eq!(fatal_code(&mut t, started("s2", "b", json!({}))), "S5");
    assert_eq!(state_of(&t), before);
    assert_eq!(t.subagents().len(), 1);
    // A call past the limit counts the subagents too.
    let mut t = running_with(Options {
        limits,
        ..Options::default()
    });
    feed(
        &mut t,
        &[started("s1", "a", json!({})), started("s2", "b", json!({}))],
    );
    assert_eq!(fatal_code(&mut t, start("c1", "f")), "S5");
}

#[test]
fn a8_subagent_strings_are_charged_to_the_thread_budget() {
    let limits = Limits {
        max_thread_bytes: 4_000,
        ..Limits::default()
    };
    let mut t = running_with(Options {
        limits,
        ..Options::default()
    });
    let long = "d".repeat(5_000);
    let err = push(&mut t, started("s1", "a", json!({"description": long}))).unwrap_err();
    assert_eq!(err.code, "S5");
    assert!(t.subagents().is_empty());
}

#[test]
fn a9_a_subagent_announced_twice_in_a_run_is_fatal() {
    let mut t = running();
    feed(&mut t, &[started("s1", "a", json!({}))]);
    let before = state_of(&t);
    assert_eq!(fatal_code(&mut t, started("s1", "other", json!({}))), "A9");
    assert_eq!(state_of(&t), before);
    assert_eq!(t.subagent("s1").unwrap().name, "a");
    // Reused once it ended in this run: fatal too.
    let mut t = running();
    feed(
        &mut t,
        &[started("s1", "a", json!({})), finished("s1", None)],
    );
    assert_eq!(fatal_code(&mut t, started("s1", "again", json!({}))), "A9");
    assert_eq!(t.subagent("s1").unwrap().status, SubagentStatus::Finished);
}

#[test]
fn a9_closing_a_subagent_that_is_not_running_is_fatal() {
    for events in [
        vec![finished("s9", None)],
        vec![errored("s8")],
        vec![
            started("s1", "a", json!({})),
            finished("s1", None),
            errored("s1"),
        ],
    ] {
        let mut t = running();
        let (last, rest) = events.split_last().unwrap();
        feed(&mut t, rest);
        let before = state_of(&t);
        let err = push(&mut t, last.clone()).unwrap_err();
        assert_eq!(err.code, "A9");
        assert!(
            err.message.contains("which is not running"),
            "{}",
            err.message
        );
        assert_eq!(state_of(&t), before);
    }
}

#[test]
fn a9_a_parent_subagent_must_be_announced_in_this_run() {
    let mut t = running();
    let err = push(
        &mut t,
        started("s2", "b", json!({"parentSubagentRunId": "s1"})),
    )
    .unwrap_err();
    assert_eq!(err.code, "A9");
    assert!(t.subagents().is_empty());
    // One announced in an earlier run is not announced in this one.
    let mut t = running();
    feed(
        &mut t,
        &[
            started("s1", "a", json!({})),
            finished("s1", Some(json!({"type": "suspended"}))),
            run_finished("r1"),
            run_started("r2"),
        ],
    );
    assert_eq!(
        fatal_code(
            &mut t,
            started("s2", "b", json!({"parentSubagentRunId": "s1"}))
        ),
        "A9"
    );
}

#[test]
fn a9_run_finished_with_a_subagent_running_is_fatal_naming_each() {
    let mut t = running();
    feed(
        &mut t,
        &[
            started("s1", "a", json!({})),
            started("s2", "b", json!({})),
            started("s3", "c", json!({})),
            finished("s2", None),
        ],
    );
    let before = state_of(&t);
    let err = push(&mut t, run_finished("r1")).unwrap_err();
    assert_eq!(err.code, "A9");
    assert!(err.message.contains(r#""s1", "s3""#), "{}", err.message);
    assert_eq!(state_of(&t), before);
    assert_eq!(t.subagent("s1").unwrap().status, SubagentStatus::Running);
}

#[test]
fn a10_a_call_under_a_subagent_that_ended_in_this_run_is_a_warning() {
    let mut t = running();
    feed(
        &mut t,
        &[
            started("s1", "a", json!({})),
            by("s1", start("c1", "f")),
            by("s1", end("c1")),
            finished("s1", None),
            by("s1", start("c2", "f")),
        ],
    );
    assert_eq!(codes(&t), ["A10"]);
    assert_eq!(t.violations()[0].tool_call_id.as_deref(), Some("c2"));
    // Kept, and attributed as tagged.
    assert_eq!(ids(&t, "s1"), ["c1", "c2"]);
    // In a later run the id may be continued.
    feed(
        &mut t,
        &[
            by("s1", end("c2")),
            run_finished("r1"),
            run_started("r2"),
            by("s1", start("c3", "f")),
        ],
    );
    assert_eq!(codes(&t).iter().filter(|c| **c == "A10").count(), 1);
}

#[test]
fn a8_interrupt_ids_on_a_success_outcome_are_stripped() {
    let mut t = running();
    feed(
        &mut t,
        &[
            started("s1", "a", json!({})),
            finished(
                "s1",
                Some(json!({"type": "success", "interruptIds": ["i1"]})),
            ),
        ],
    );
    assert_eq!(codes(&t), ["P2"]);
    let s1 = t.subagent("s1").unwrap();
    assert_eq!(s1.status, SubagentStatus::Finished);
    assert!(s1.interrupt_ids.is_empty());
}

#[test]
fn a10_a_parent_call_the_thread_never_saw_is_a_warning() {
    let mut t = running();
    feed(
        &mut t,
        &[started("s1", "a", json!({"parentToolCallId": "nope"}))],
    );
    assert_eq!(codes(&t), ["A10"]);
    assert_eq!(t.violations()[0].tool_call_id.as_deref(), Some("nope"));
    assert_eq!(
        t.subagent("s1").unwrap().parent_tool_call_id.as_deref(),
        Some("nope")
    );
}

#[test]
fn a10_a_subagent_announced_after_events_attributed_to_it_is_a_warning() {
    let mut t = running();
    feed(
        &mut t,
        &[
            by("s1", start("early", "f")),
            by("s1", end("early")),
            start("c1", "research"),
            end("c1"),
        ],
    );
    // Attributed without an announcement: accepted, silently.
    assert!(t.violations().is_empty());
    assert!(t.subagents().is_empty());
    feed(
        &mut t,
        &[started("s1", "a", json!({"parentToolCallId": "c1"}))],
    );
    assert_eq!(codes(&t), ["A10"]);
    let v = &t.violations()[0];
    assert_eq!(v.severity, agui_tool_calls::Severity::Warning);
    assert!(
        v.message.contains(r#""s1" announced after"#),
        "{}",
        v.message
    );
    // The tree takes in the calls it streamed before.
    assert_eq!(ids(&t, "s1"), ["early"]);
    records_agree(&t);
}

#[test]
fn a10_a_message_or_result_before_the_announcement_counts_and_each_run_anew() {
    let text = json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"});
    for (event, expected) in [
        (by("s1", text), vec!["A10"]),
        (by("s1", result("m2", "gone", "x")), vec!["T10", "A10"]),
        // Another owner's events, or the parent's, say nothing about s1.
        (by("s2", start("c", "f")), vec![]),
        (start("c", "f"), vec![]),
    ] {
        let mut t = running();
        feed(&mut t, &[event, started("s1", "a", json!({}))]);
        assert_eq!(codes(&t), expected);
    }
    // Events of an earlier run came before this run's announcement.
    let mut t = running();
    feed(
        &mut t,
        &[
            by("s1", start("c1", "f")),
            by("s1", end("c1")),
            run_finished("r1"),
            run_started("r2"),
            started("s1", "a", json!({})),
        ],
    );
    assert!(codes(&t).iter().all(|c| *c != "A10"), "{:?}", codes(&t));
    assert_eq!(ids(&t, "s1"), ["c1"]);
}

#[test]
fn a8_a_finished_subagent_keeps_its_result_as_given() {
    // Key order, -0, 1.50, a number past f64 and deep nesting survive.
    let awkward = format!(
        r#"{{"z":1,"a":-0,"f":1.50,"huge":1e400,"deep":{}"x"{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let mut t = running();
    feed(&mut t, &[started("s1", "a", json!({}))]);
    let finish =
        format!(r#"{{"type":"SUBAGENT_FINISHED","subagentRunId":"s1","result":{awkward}}}"#);
    t.push_json(&finish).unwrap();
    let s1 = t.subagent("s1").unwrap();
    assert_eq!(s1.status, SubagentStatus::Finished);
    assert_eq!(s1.result.as_ref().unwrap().get(), awkward);
    records_agree(&t);
    assert!(t.violations().is_empty());
    // A null result is a retired spelling of none (P3), as on RUN_FINISHED.
    let mut nothing = finished("s2", None);
    nothing["result"] = Value::Null;
    feed(&mut t, &[started("s2", "b", json!({})), nothing]);
    assert_eq!(t.subagent("s2").unwrap().result, None);
    assert_eq!(codes(&t), ["P3"]);
    // Continued in a later run, it has no result until it finishes again.
    let mut suspended = finished("s3", Some(json!({"type": "suspended"})));
    suspended["result"] = json!("partial");
    feed(
        &mut t,
        &[
            started("s3", "c", json!({})),
            suspended,
            run_finished("r1"),
            run_started("r2"),
            started("s3", "c", json!({})),
        ],
    );
    assert_eq!(t.subagent("s3").unwrap().result, None);
    records_agree(&t);
}

#[test]
fn a8_a_subagent_result_is_charged_to_the_thread_budget() {
    let limits = Limits {
        max_thread_bytes: 4_000,
        ..Limits::default()
    };
    let mut t = running_with(Options {
        limits,
        ..Options::default()
    });
    feed(&mut t, &[started("s1", "a", json!({}))]);
    let before = state_of(&t);
    let mut big = finished("s1", None);
    big["result"] = json!("r".repeat(5_000));
    let err = push(&mut t, big).unwrap_err();
    assert_eq!(err.code, "S5");
    assert_eq!(state_of(&t), before);
    assert_eq!(t.subagent("s1").unwrap().status, SubagentStatus::Running);
}
