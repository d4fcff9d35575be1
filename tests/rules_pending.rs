//! Pending calls at run end: rules F2, F3, F4, F7 (and F1's advertising).

use crate::common::*;
use agui_tool_calls::events::Tool;
use agui_tool_calls::{Options, Severity, Tracker};
use serde_json::{json, Value};

fn with_tools(names: &[&str]) -> Tracker {
    let tools = names
        .iter()
        .map(|n| Tool::new(n, "", json!({"type": "object"})))
        .collect();
    running_with(Options {
        tools,
        ..Options::default()
    })
}

fn finished_with_pending(ids: &[&str]) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
           "outcome": {"type": "success", "pendingToolCallIds": ids}})
}

fn pending_ids(t: &Tracker) -> Vec<&str> {
    t.pending_calls().map(|c| c.id.as_str()).collect()
}

#[test]
fn f2_closed_unanswered_calls_of_the_run_are_pending_in_start_order() {
    let mut t = with_tools(&["confirm"]);
    feed(
        &mut t,
        &[
            start("b", "confirm"),
            start("a", "backend"),
            end("a"),
            args("b", "{}"),
            end("b"),
        ],
    );
    feed(&mut t, &whole_call("c", "backend", "{}"));
    feed(&mut t, &[result("m1", "c", "ok")]);
    assert!(
        pending_ids(&t).is_empty(),
        "nothing is pending before the run finishes"
    );
    feed(&mut t, &[run_finished("r1")]);
    assert_eq!(pending_ids(&t), ["b", "a"]);
    assert!(t.call("b").unwrap().advertised);
    assert!(
        !t.call("a").unwrap().advertised,
        "listed, flagged unadvertised"
    );
}

#[test]
fn f2_run_input_tools_advertise() {
    let mut t = Tracker::new(Options::default());
    feed(
        &mut t,
        &[
            json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1",
                 "input": {"messages": [], "tools": [{"name": "pick", "description": "d", "parameters": {}}]}}),
        ],
    );
    feed(&mut t, &whole_call("c1", "pick", "{}"));
    assert!(t.call("c1").unwrap().advertised);
    assert!(t.tool("pick").is_some());
}

#[test]
fn f3_declared_pending_ids_disagreeing_is_violation() {
    let mut t = running();
    feed(&mut t, &whole_call("a", "f", "{}"));
    feed(&mut t, &whole_call("b", "f", "{}"));
    feed(&mut t, &[finished_with_pending(&["b", "a"])]);
    let v: Vec<_> = t.violations().iter().filter(|v| v.code == "F3").collect();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].severity, Severity::Violation);
    assert_eq!(pending_ids(&t), ["a", "b"], "the derived list stands");
}

#[test]
fn f3_matching_or_empty_declared_ids_are_fine() {
    for declared in [vec!["a", "b"], vec![]] {
        let mut t = running();
        feed(&mut t, &whole_call("a", "f", "{}"));
        feed(&mut t, &whole_call("b", "f", "{}"));
        feed(&mut t, &[finished_with_pending(&declared)]);
        assert!(!codes(&t).contains(&"F3"), "{declared:?}");
    }
}

#[test]
fn f4_stream_result_for_frontend_call_is_violation_and_call_stays_pending() {
    let mut t = with_tools(&["confirm"]);
    feed(&mut t, &whole_call("c1", "confirm", "{}"));
    feed(
        &mut t,
        &[result("m1", "c1", "fabricated"), run_finished("r1")],
    );
    assert_eq!(codes(&t), ["F4"]);
    let c1 = t.call("c1").unwrap();
    assert!(c1.pending);
    assert!(c1.results[0].rejected);
    assert_eq!(c1.results[0].content, json!("fabricated"));
}

#[test]
fn f7_unadvertised_call_left_unanswered_is_warning() {
    let mut t = with_tools(&["confirm"]);
    feed(&mut t, &whole_call("a", "mystery", "{}"));
    feed(&mut t, &whole_call("b", "confirm", "{}"));
    feed(&mut t, &[run_finished("r1")]);
    assert_eq!(codes(&t), ["F7"]);
    let v = &t.violations()[0];
    assert_eq!(
        (v.severity, v.tool_call_id.as_deref()),
        (Severity::Warning, Some("a"))
    );
}
