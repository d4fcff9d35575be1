//! Run lifecycle: rules L1-L8.

use crate::common::*;
use agui_tool_calls::{CallStatus, Options, Outcome, RunStatus, Tool, Tracker};
use serde_json::{json, Value};

#[test]
fn l1_first_event_must_be_run_started() {
    let mut t = Tracker::new(Options::default());
    assert_eq!(fatal_code(&mut t, start("c1", "f")), "L1");
    assert!(t.calls().is_empty());
}

#[test]
fn l1_run_error_may_come_first() {
    let mut t = Tracker::new(Options::default());
    feed(&mut t, &[json!({"type": "RUN_ERROR", "message": "no"})]);
    assert_eq!(t.run().status, RunStatus::Errored);
}

#[test]
fn l1_fragment_may_begin_mid_run() {
    let mut t = Tracker::new(Options {
        fragment: true,
        ..Options::default()
    });
    feed(&mut t, &[start("c1", "f"), args("c1", "{}"), end("c1")]);
    assert_eq!(t.calls()[0].status, CallStatus::Complete);
    assert_eq!(t.calls()[0].run_id, None);
    feed(&mut t, &[run_started("r2")]);
    assert_eq!(t.run().status, RunStatus::Running);
}

#[test]
fn l2_run_started_while_running_is_fatal() {
    let mut t = running();
    assert_eq!(fatal_code(&mut t, run_started("r2")), "L2");
    assert_eq!(t.run().run_id.as_deref(), Some("r1"));
}

#[test]
fn l3_after_run_finished_only_run_started_or_error() {
    let mut t = running();
    feed(&mut t, &[run_finished("r1")]);
    assert_eq!(fatal_code(&mut t, start("c1", "f")), "L3");

    let mut t = running();
    feed(
        &mut t,
        &[
            run_finished("r1"),
            json!({"type": "RUN_ERROR", "message": "late"}),
        ],
    );
    assert_eq!(t.run().status, RunStatus::Errored);

    let mut t = running();
    feed(&mut t, &[run_finished("r1")]);
    assert_eq!(
        fatal_code(&mut t, json!({"type": "CUSTOM", "name": "x", "value": 1})),
        "L3"
    );
}

#[test]
fn l3_after_run_error_only_run_started() {
    let mut t = running();
    feed(&mut t, &[json!({"type": "RUN_ERROR", "message": "boom"})]);
    assert_eq!(
        fatal_code(&mut t, json!({"type": "RUN_ERROR", "message": "again"})),
        "L3"
    );
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "RUN_ERROR", "message": "boom"}),
            run_started("r2"),
        ],
    );
    assert_eq!(t.run().status, RunStatus::Running);
}

#[test]
fn l4_run_finished_with_open_calls_is_fatal_naming_every_one() {
    let mut t = running();
    feed(
        &mut t,
        &[start("a", "f"), start("b", "g"), start("c", "h"), end("b")],
    );
    let before = state_of(&t);
    let v = push(&mut t, run_finished("r1")).unwrap_err();
    assert_eq!(v.code, "L4");
    assert!(
        v.message.contains("\"a\"") && v.message.contains("\"c\""),
        "{}",
        v.message
    );
    assert!(!v.message.contains("\"b\""));
    assert_eq!(v.tool_call_id.as_deref(), Some("a"));
    assert_eq!(state_of(&t), before);
    assert_eq!(t.run().status, RunStatus::Running);
}

#[test]
fn l4_chunked_call_closed_by_run_finished_is_not_left_open() {
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "a", "toolCallName": "f", "delta": "{}"}),
            run_finished("r1"),
        ],
    );
    assert_eq!(t.calls()[0].status, CallStatus::Complete);
    assert_eq!(t.run().status, RunStatus::Finished);
}

#[test]
fn l5_run_error_abandons_open_calls_without_violation() {
    let mut t = running();
    feed(
        &mut t,
        &[
            start("a", "f"),
            args("a", "{\"x\""),
            start("b", "g"),
            end("b"),
        ],
    );
    feed(
        &mut t,
        &[json!({"type": "RUN_ERROR", "message": "boom", "code": "E"})],
    );
    assert_eq!(t.call("a").unwrap().status, CallStatus::Abandoned);
    assert_eq!(t.call("a").unwrap().args_text(), "{\"x\"");
    assert_eq!(t.call("b").unwrap().status, CallStatus::Complete);
    assert!(t.violations().is_empty());
    assert_eq!(t.pending_calls().count(), 0);
    assert_eq!(
        t.run().error,
        Some(("boom".to_owned(), Some("E".to_owned())))
    );
}

#[test]
fn l5_run_error_abandons_a_chunked_call_too() {
    let mut t = running();
    feed(
        &mut t,
        &[
            json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "a", "toolCallName": "f", "delta": "{"}),
            json!({"type": "RUN_ERROR", "message": "boom"}),
        ],
    );
    assert_eq!(t.call("a").unwrap().status, CallStatus::Abandoned);
    assert!(t.call("a").unwrap().arguments().is_none());
}

#[test]
fn l6_several_runs_keep_earlier_calls_and_reset_run_bookkeeping() {
    let mut t = running();
    feed(&mut t, &whole_call("a", "f", "{}"));
    feed(&mut t, &[run_finished("r1"), run_started("r2")]);
    assert_eq!(t.run().run_id.as_deref(), Some("r2"));
    assert_eq!(t.run().outcome, None);
    feed(&mut t, &whole_call("b", "g", "{}"));
    feed(
        &mut t,
        &[
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r2",
                 "outcome": {"type": "success", "pendingToolCallIds": ["b"]}}),
        ],
    );
    // Run r2's derived pending list is its own calls only: no F3.
    assert!(!codes(&t).contains(&"F3"), "{:?}", t.violations());
    let ids: Vec<_> = t
        .calls()
        .iter()
        .map(|c| (c.id.as_str(), c.run_id.as_deref()))
        .collect();
    assert_eq!(ids, [("a", Some("r1")), ("b", Some("r2"))]);
    assert_eq!(t.run().runs_started, 2);
}

#[test]
fn l7_outcome_and_status_are_shown() {
    let mut t = running();
    feed(&mut t, &[run_finished("r1")]);
    assert_eq!(t.run().status, RunStatus::Finished);
    assert_eq!(t.run().outcome, None);

    feed(
        &mut t,
        &[
            run_started("r2"),
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r2", "result": {"k": 1},
                 "outcome": {"type": "success"}}),
        ],
    );
    assert_eq!(t.run().status, RunStatus::Finished);
    assert_eq!(
        t.run().outcome,
        Some(Outcome::Success {
            pending_tool_call_ids: None
        })
    );
    assert_eq!(t.run().result.as_ref().unwrap().get(), r#"{"k":1}"#);

    feed(
        &mut t,
        &[
            run_started("r3"),
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r3",
                 "outcome": {"type": "interrupt", "interrupts": [{"id": "i1", "reason": "ask"}]}}),
        ],
    );
    assert_eq!(t.run().status, RunStatus::Interrupted);
    assert!(
        matches!(&t.run().outcome, Some(Outcome::Interrupt { interrupts }) if interrupts.len() == 1)
    );
}

#[test]
fn l7_interrupt_outcome_without_interrupts_is_malformed() {
    let mut t = running();
    let code = fatal_code(
        &mut t,
        json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
               "outcome": {"type": "interrupt", "interrupts": []}}),
    );
    assert_eq!(code, "E2");
}

fn cancelled(run: &str) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": run, "outcome": {"type": "cancelled"}})
}

#[test]
fn l8_a_cancelled_run_is_neither_finished_nor_failed_and_waits_for_nothing() {
    let mut t = running_with(Options {
        tools: vec![Tool::new("confirm", "", json!({"type": "object"}))],
        ..Options::default()
    });
    feed(&mut t, &whole_call("c1", "confirm", r#"{"a":1}"#));
    feed(&mut t, &whole_call("c2", "search", "{}"));
    feed(&mut t, &[result("m2", "c2", "found"), cancelled("r1")]);
    assert_eq!(t.run().status, RunStatus::Cancelled);
    assert_eq!(t.run().outcome, Some(Outcome::Cancelled));
    // Everything delivered stays: both calls complete, with their arguments
    // and the result.
    let c1 = t.call("c1").unwrap();
    assert_eq!(c1.status, CallStatus::Complete);
    assert_eq!(c1.args_text(), r#"{"a":1}"#);
    assert_eq!(t.call("c2").unwrap().results.len(), 1);
    // It waits for nothing: no pending call, the unanswered one marked.
    assert!(!c1.pending && c1.cancelled);
    assert!(
        !t.call("c2").unwrap().cancelled,
        "an answered call is not left behind"
    );
    assert!(t.violations().is_empty(), "{:?}", t.violations());
    // The next run is an ordinary one: no input is needed to continue.
    assert_eq!(t.check_input(&Default::default()), vec![]);
    t.start_run(Default::default()).unwrap();
    feed(&mut t, &[run_started("r2"), run_finished("r2")]);
    assert_eq!(t.run().status, RunStatus::Finished);
}

#[test]
fn l8_after_a_cancelled_run_only_a_new_run_or_run_error() {
    let mut t = running();
    feed(&mut t, &[cancelled("r1")]);
    assert_eq!(fatal_code(&mut t.clone(), start("c1", "f")), "L3");
    feed(
        &mut t,
        &[json!({"type": "RUN_ERROR", "message": "flush failed"})],
    );
    assert_eq!(t.run().status, RunStatus::Errored);
}

#[test]
fn l8_a_cancelled_call_the_application_answers_is_answered_and_reopening_clears_the_mark() {
    let mut t = running_with(Options {
        tools: vec![Tool::new("confirm", "", json!({"type": "object"}))],
        ..Options::default()
    });
    feed(&mut t, &whole_call("c1", "confirm", "{}"));
    feed(&mut t, &[cancelled("r1")]);
    // The application may still answer a call to its own tool.
    t.answer(
        "c1",
        agui_tool_calls::events::Opaque::string("done anyway"),
        "a1",
    )
    .unwrap();
    assert_eq!(t.tool_messages().len(), 1);
    // A later run reopening the call clears the mark.
    feed(
        &mut t,
        &[run_started("r2"), start("c1", "confirm"), end("c1")],
    );
    assert!(!t.call("c1").unwrap().cancelled);
}

#[test]
fn l8_tool_messages_close_a_cancelled_runs_unanswered_call_until_an_input_carries_it() {
    let mut t = running_with(Options {
        tools: vec![Tool::new("confirm", "", json!({"type": "object"}))],
        ..Options::default()
    });
    feed(&mut t, &whole_call("c1", "confirm", "{}"));
    feed(&mut t, &whole_call("c2", "search", "{}"));
    feed(&mut t, &[result("m2", "c2", "found"), cancelled("r1")]);
    // The application's history (an @ag-ui/client agent's) holds c1: its
    // closing message says the run was cancelled.
    let messages = t.tool_messages();
    assert_eq!(messages.len(), 1);
    let closing = &messages[0];
    assert_eq!(
        (closing.id.as_str(), closing.tool_call_id.as_str()),
        ("c1:closed", "c1")
    );
    assert_eq!(closing.content, json!(agui_tool_calls::CANCELLED_CONTENT));
    assert_eq!(closing.error.as_deref(), Some("cancelled"));
    // An input holding the call without it would send a dangling call.
    let call =
        json!({"id": "c1", "type": "function", "function": {"name": "confirm", "arguments": "{}"}});
    let holding = |answers: Vec<Value>| {
        let mut messages = vec![json!({"id": "a1", "role": "assistant", "toolCalls": [call]})];
        messages.extend(answers);
        json!({"threadId": "t1", "runId": "r2", "messages": messages}).to_string()
    };
    let refused = t.start_run_json(&holding(vec![])).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("c1 (confirm; its answer is not in the input)"),
        "{refused}"
    );
    let carried = json!({"id": closing.id, "role": "tool", "toolCallId": "c1", "content": agui_tool_calls::CANCELLED_CONTENT, "error": "cancelled"});
    t.start_run_json(&holding(vec![carried])).unwrap();
    assert!(t.tool_messages().is_empty());
    // An input without the call needs none: the run waited for nothing.
    let mut t2 = running();
    feed(&mut t2, &whole_call("c1", "confirm", "{}"));
    feed(&mut t2, &[cancelled("r1")]);
    assert_eq!(t2.tool_messages().len(), 1);
    t2.start_run(Default::default()).unwrap();
    assert!(t2.tool_messages().is_empty());
}

#[test]
fn l8_an_unknown_outcome_is_stripped_and_the_run_reads_as_a_success() {
    let mut t = running();
    feed(&mut t, &whole_call("c1", "f", "{}"));
    feed(
        &mut t,
        &[
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
                 "outcome": {"type": "handoff", "to": "billing"}}),
        ],
    );
    assert_eq!(t.run().status, RunStatus::Finished);
    assert_eq!(t.run().outcome, None);
    assert!(
        t.call("c1").unwrap().pending,
        "a success leaves its calls pending"
    );
    assert_eq!(codes(&t), ["P1", "F7"]);
    assert!(
        t.violations()[0]
            .message
            .contains(r#"outcome.type "handoff""#),
        "{}",
        t.violations()[0].message
    );
}
