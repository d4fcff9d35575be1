//! The application's side of the round trip: rules F1, F5, F6, T5 (refusals)
//! and L7 (interrupted runs keep their pending calls).

use crate::common::*;
use agui_tool_calls::events::{RunInput, Tool};
use agui_tool_calls::{
    ApplicationError, Consent, Options, ResultSource, RunStatus, Tracker, DECLINED_CONTENT,
};
use serde_json::{json, Value};

fn tools(names: &[&str]) -> Vec<Tool> {
    names
        .iter()
        .map(|n| Tool::new(n, "", json!({"type": "object"})))
        .collect()
}

/// A tracker advertising `names`, with run `r1` started.
fn with_tools(names: &[&str]) -> Tracker {
    running_with(Options {
        tools: tools(names),
        ..Options::default()
    })
}

/// Run `r1` finished leaving calls to `confirm` (c1) and `pick` (c2) pending.
fn two_pending() -> Tracker {
    let mut t = with_tools(&["confirm", "pick"]);
    feed(&mut t, &whole_call("c1", "confirm", r#"{"x":1}"#));
    feed(&mut t, &whole_call("c2", "pick", "{}"));
    feed(&mut t, &[run_finished("r1")]);
    t
}

fn tool_message(id: &str, call: &str, content: &str) -> Value {
    json!({"id": id, "role": "tool", "toolCallId": call, "content": content})
}

fn input(messages: Vec<Value>) -> RunInput {
    RunInput::from_value(json!({"threadId": "t1", "runId": "r2", "messages": messages})).unwrap()
}

fn run_started_with(run: &str, input: Value) -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t1", "runId": run, "input": input})
}

/// Asserts that a refused operation changed nothing.
fn refused<T: std::fmt::Debug>(
    t: &mut Tracker,
    op: impl FnOnce(&mut Tracker) -> Result<T, ApplicationError>,
) -> ApplicationError {
    let _ = t.take_changes();
    let (before, version) = (state_of(t), t.version());
    let err = op(t).expect_err("the operation should be refused");
    assert_eq!(state_of(t), before, "a refused operation changes nothing");
    assert_eq!(t.version(), version);
    assert!(t.take_changes().is_empty());
    refusal_agrees(&err);
    err
}

#[test]
fn f1_tools_advertised_by_options_run_input_and_start_run() {
    let mut t = Tracker::new(Options {
        tools: tools(&["from_options"]),
        ..Options::default()
    });
    t.start_run(input(vec![])).unwrap();
    t.start_run(
        RunInput::from_value(
            json!({"threadId": "t1", "runId": "r1", "messages": [], "tools": [{"name": "from_start_run"}]}),
        )
            .unwrap(),
    )
    .unwrap();
    feed(&mut t, &[run_started("r1")]);
    feed(&mut t, &whole_call("a", "from_options", "{}"));
    feed(&mut t, &whole_call("b", "from_start_run", "{}"));
    feed(&mut t, &whole_call("c", "other", "{}"));
    let advertised: Vec<bool> = t.calls().iter().map(|c| c.advertised).collect();
    assert_eq!(advertised, [true, true, false]);
    assert!(t.tool("from_start_run").is_some());
}

#[test]
fn f1_run_started_echoing_the_input_keeps_the_start_run_tools() {
    let mut t = Tracker::new(Options::default());
    let text =
        json!({"threadId": "t1", "runId": "r1", "messages": [], "tools": [{"name": "pick"}]});
    t.start_run(RunInput::from_value(text.clone()).unwrap())
        .unwrap();
    feed(&mut t, &[run_started_with("r1", text)]);
    feed(&mut t, &whole_call("c1", "pick", "{}"));
    assert!(t.call("c1").unwrap().advertised);
}

#[test]
fn f5_answer_gives_one_tool_message_keyed_by_the_call() {
    let mut t = two_pending();
    t.answer("c1", json!("done"), "m1").unwrap();
    let c1 = t.call("c1").unwrap();
    assert!(!c1.pending);
    assert_eq!(c1.results.len(), 1);
    let r = &c1.results[0];
    assert_eq!(
        (r.source, r.message_id.as_str(), &r.content, &r.error),
        (
            ResultSource::Application,
            "m1",
            &json!("done").into(),
            &None
        )
    );
    let messages: Vec<Value> = t
        .tool_messages()
        .iter()
        .map(agui_tool_calls::ToolMessage::to_value)
        .collect();
    assert_eq!(messages, [tool_message("m1", "c1", "done")]);
    assert_eq!(
        serde_json::from_str::<Value>(&agui_tool_calls::events::to_json(&t.tool_messages()))
            .unwrap(),
        json!(messages)
    );
    assert_eq!(
        t.pending_calls().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["c2"]
    );
}

#[test]
fn f5_content_parts_are_kept_as_given() {
    let mut t = two_pending();
    let parts = json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]);
    t.answer("c1", parts.clone(), "m1").unwrap();
    assert_eq!(t.tool_messages()[0].content, parts);
    let err = refused(&mut t, |t| t.answer("c2", json!({"not": "content"}), "m2"));
    assert_eq!(
        err,
        ApplicationError::InvalidContent {
            id: "c2".to_owned()
        }
    );
}

#[test]
fn f5_fail_sets_the_error_and_content_defaults_to_it() {
    let mut t = two_pending();
    t.fail("c1", "disk full", None, "m1").unwrap();
    t.fail("c2", "timeout", Some(json!("partial output").into()), "m2")
        .unwrap();
    let m = t.tool_messages();
    assert_eq!(
        (m[0].content.clone(), m[0].error.as_deref()),
        (json!("disk full").into(), Some("disk full"))
    );
    assert_eq!(
        (m[1].content.clone(), m[1].error.as_deref()),
        (json!("partial output").into(), Some("timeout"))
    );
    assert!(t.pending_calls().next().is_none(), "a failure is an answer");
    assert_eq!(m[0].to_value()["error"], "disk full");
}

#[test]
fn f5_decline_answers_by_saying_so() {
    let mut t = two_pending();
    t.decline("c1", None, "m1").unwrap();
    t.decline("c2", Some("not today"), "m2").unwrap();
    let m = t.tool_messages();
    assert_eq!(m[0].content, json!(DECLINED_CONTENT));
    assert_eq!(
        m[1].content,
        json!(format!("{DECLINED_CONTENT} Reason: not today"))
    );
    assert!(m.iter().all(|m| m.error.as_deref() == Some("declined")));
    assert_eq!(t.call("c1").unwrap().consent, Consent::Declined);
    assert!(t.pending_calls().next().is_none());
}

#[test]
fn f5_a_call_is_answered_once_whoever_answered_it() {
    let mut t = with_tools(&["confirm"]);
    feed(&mut t, &whole_call("c1", "confirm", "{}"));
    feed(&mut t, &whole_call("b1", "backend", "{}"));
    feed(&mut t, &[result("r-b1", "b1", "ok"), run_finished("r1")]);
    feed(
        &mut t,
        &[run_started_with(
            "r2",
            json!({"messages": [
                {"id": "a9", "role": "assistant", "toolCalls": [
                    {"id": "h1", "type": "function", "function": {"name": "confirm", "arguments": "{}"}}]},
                tool_message("t9", "h1", "old answer")]}),
        )],
    );
    t.answer("c1", json!("yes"), "m1").unwrap();
    for (id, by) in [
        ("c1", ResultSource::Application),
        ("b1", ResultSource::Stream),
        ("h1", ResultSource::History),
    ] {
        let err = refused(&mut t, |t| t.answer(id, json!("again"), "m2"));
        assert_eq!(
            err,
            ApplicationError::Answered {
                id: id.to_owned(),
                by
            }
        );
        assert!(err.to_string().contains(id), "{err}");
        refused(&mut t, |t| t.decline(id, None, "m2"));
        refused(&mut t, |t| t.fail(id, "e", None, "m2"));
    }
}

#[test]
fn f5_message_id_already_used_in_the_thread_is_refused() {
    let mut t = with_tools(&["confirm"]);
    feed(
        &mut t,
        &[json!({"type": "TEXT_MESSAGE_START", "messageId": "text1", "role": "assistant"})],
    );
    feed(
        &mut t,
        &[
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "confirm",
                 "parentMessageId": "parent1"}),
        ],
    );
    feed(&mut t, &[end("c1")]);
    feed(&mut t, &whole_call("b1", "backend", "{}"));
    feed(&mut t, &[result("res1", "b1", "ok")]);
    feed(&mut t, &[result("res2", "ghost", "ok")]);
    feed(&mut t, &whole_call("c2", "confirm", "{}"));
    feed(&mut t, &[run_finished("r1")]);
    t.answer("c2", json!("ok"), "mine").unwrap();
    for used in ["text1", "parent1", "res1", "res2", "mine"] {
        let err = refused(&mut t, |t| t.answer("c1", json!("x"), used));
        assert_eq!(
            err,
            ApplicationError::MessageIdInUse {
                message_id: used.to_owned()
            }
        );
    }
    t.answer("c1", json!("x"), "fresh").unwrap();
}

#[test]
fn f5_unknown_and_abandoned_calls_are_refused() {
    let mut t = with_tools(&["confirm"]);
    feed(&mut t, &[start("c1", "confirm")]);
    feed(&mut t, &[json!({"type": "RUN_ERROR", "message": "boom"})]);
    let err = refused(&mut t, |t| t.answer("nope", json!("x"), "m1"));
    assert_eq!(err.to_string(), r#"no tool call "nope" in this thread"#);
    let err = refused(&mut t, |t| t.answer("c1", json!("x"), "m1"));
    assert_eq!(
        err,
        ApplicationError::Abandoned {
            id: "c1".to_owned()
        }
    );
    refused(&mut t, |t| t.approve("c1"));
    refused(&mut t, |t| t.decline("c1", None, "m1"));
}

#[test]
fn f5_a_complete_frontend_call_may_be_answered_before_its_run_ends() {
    let mut t = with_tools(&["confirm"]);
    feed(&mut t, &whole_call("c1", "confirm", "{}"));
    feed(&mut t, &whole_call("b1", "backend", "{}"));
    t.answer("c1", json!("yes"), "m1").unwrap();
    let err = refused(&mut t, |t| t.answer("b1", json!("x"), "m2"));
    assert!(matches!(err, ApplicationError::NotTheApplications { .. }));
    feed(&mut t, &[run_finished("r1")]);
    assert_eq!(
        t.pending_calls().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["b1"],
        "the answered call is not pending"
    );
    // Once its run finished, an unadvertised call is the application's too.
    t.fail("b1", "unknown tool", None, "m2").unwrap();
    assert_eq!(t.tool_messages().len(), 2);
}

#[test]
fn f5_tool_messages_follow_call_start_order() {
    let mut t = two_pending();
    t.decline("c2", None, "m2").unwrap();
    t.answer("c1", json!("yes"), "m1").unwrap();
    let ids: Vec<String> = t
        .tool_messages()
        .into_iter()
        .map(|m| m.tool_call_id)
        .collect();
    assert_eq!(ids, ["c1", "c2"]);
}

#[test]
fn f5_tool_messages_stop_once_a_run_input_carries_them() {
    let mut t = two_pending();
    t.answer("c1", json!("yes"), "m1").unwrap();
    t.answer("c2", json!("no"), "m2").unwrap();
    // A snapshot from the producer is not a run input: still listed.
    feed(&mut t, &[run_started("r2")]);
    feed(
        &mut t,
        &[json!({"type": "MESSAGES_SNAPSHOT", "messages": [tool_message("m1", "c1", "yes")]})],
    );
    feed(&mut t, &[run_finished("r2")]);
    assert_eq!(t.tool_messages().len(), 2);
    feed(
        &mut t,
        &[run_started_with(
            "r3",
            json!({"messages": [tool_message("m1", "c1", "yes")]}),
        )],
    );
    let left: Vec<String> = t.tool_messages().into_iter().map(|m| m.id).collect();
    assert_eq!(left, ["m2"]);
    assert_eq!(
        t.call("c1").unwrap().results.len(),
        1,
        "no duplicate answer"
    );
}

type Op = fn(&mut Tracker) -> Result<(), ApplicationError>;

#[test]
fn f5_every_operation_marks_the_call_changed_and_bumps_the_version() {
    let mut t = two_pending();
    let _ = t.take_changes();
    let ops: [(&str, Op); 3] = [
        ("approve c1", |t| t.approve("c1")),
        ("answer c1", |t| t.answer("c1", json!("y"), "m1")),
        ("decline c2", |t| t.decline("c2", None, "m2")),
    ];
    for (what, op) in ops {
        let version = t.version();
        op(&mut t).unwrap();
        assert!(t.version() > version, "{what}");
        let changes = t.take_changes();
        assert_eq!(changes.calls.len(), 1, "{what}");
        let id = &t.calls()[changes.calls[0].index].id;
        assert_eq!(id, &what[what.len() - 2..], "{what}");
    }
    // Approving again changes nothing: same version, nothing to take.
    let version = t.version();
    t.approve("c1").unwrap();
    assert_eq!(t.version(), version);
    assert!(t.take_changes().is_empty());
}

#[test]
fn f5_failing_marks_the_call_changed() {
    let mut t = two_pending();
    let _ = t.take_changes();
    let version = t.version();
    t.fail("c1", "e", None, "m1").unwrap();
    assert_eq!(t.version(), version + 1);
    assert_eq!(t.take_changes().calls[0].index, t.call_index("c1").unwrap());
}

#[test]
fn f5_reopening_withdraws_an_answer_not_yet_delivered() {
    let mut t = with_tools(&["confirm"]);
    feed(&mut t, &whole_call("c1", "confirm", r#"{"a":"#));
    t.approve("c1").unwrap();
    t.answer("c1", json!("yes"), "m1").unwrap();
    feed(
        &mut t,
        &[start("c1", "confirm"), args("c1", "1}"), end("c1")],
    );
    let c1 = t.call("c1").unwrap();
    assert!(c1.results.is_empty(), "the answer was to other arguments");
    assert_eq!(c1.consent, Consent::Unrequested, "so was the approval");
    assert!(t.tool_messages().is_empty());
    feed(&mut t, &[run_finished("r1")]);
    assert!(t.call("c1").unwrap().pending);
    let err = refused(&mut t, |t| t.answer("c1", json!("again"), "m1"));
    assert!(matches!(err, ApplicationError::MessageIdInUse { .. }));
}

#[test]
fn f6_check_input_names_every_unanswered_pending_call() {
    let t = two_pending();
    let missing = t.check_input(&input(vec![tool_message("x", "c2", "ok")]));
    assert_eq!(missing.len(), 1);
    assert_eq!(
        (
            missing[0].tool_call_id.as_str(),
            missing[0].tool_name.as_str()
        ),
        ("c1", "confirm")
    );
    assert!(!missing[0].answer_left_out);
    let all = t.check_input(&input(vec![]));
    let ids: Vec<&str> = all.iter().map(|c| c.tool_call_id.as_str()).collect();
    assert_eq!(ids, ["c1", "c2"]);
    // Only tool messages answer.
    let user = json!({"id": "u", "role": "user", "content": "c1", "toolCallId": "c1"});
    assert_eq!(t.check_input(&input(vec![user])).len(), 2);
    assert!(t
        .check_input(&input(vec![
            tool_message("x", "c1", "ok"),
            tool_message("y", "c2", "ok")
        ]))
        .is_empty());
}

#[test]
fn f6_an_application_answer_counts_only_when_the_input_carries_it() {
    let mut t = two_pending();
    t.answer("c1", json!("yes"), "m1").unwrap();
    t.answer("c2", json!("no"), "m2").unwrap();
    let missing = t.check_input(&input(vec![tool_message("m1", "c1", "yes")]));
    assert_eq!(missing.len(), 1);
    assert!(missing[0].answer_left_out);
    let err = refused(&mut t, |t| {
        t.start_run(input(vec![tool_message("m1", "c1", "yes")]))
    });
    assert_eq!(
        err.to_string(),
        "the next run's input leaves 1 pending tool call unanswered: c2 (pick; its answer is not in the input)"
    );
    let messages = t
        .tool_messages()
        .iter()
        .map(agui_tool_calls::ToolMessage::to_value)
        .collect();
    t.start_run(input(messages)).unwrap();
    assert!(t.tool_messages().is_empty());
}

#[test]
fn f6_start_run_leaving_calls_unanswered_is_refused_naming_each() {
    let mut t = two_pending();
    let err = refused(&mut t, |t| t.start_run(input(vec![])));
    assert_eq!(
        err.to_string(),
        "the next run's input leaves 2 pending tool calls unanswered: c1 (confirm), c2 (pick)"
    );
    let ApplicationError::Unanswered(calls) = err else {
        panic!("{err:?}")
    };
    assert_eq!(calls.len(), 2);
    let err = refused(&mut t, |t| {
        t.start_run_json(r#"{"threadId": "t1", "runId": "r2", "messages": []}"#)
    });
    assert!(matches!(err, ApplicationError::Unanswered(_)));
}

#[test]
fn f6_start_run_seeds_history_and_an_echoing_run_started_agrees() {
    let mut t = two_pending();
    let text = json!({"threadId": "t1", "runId": "r2", "tools": [{"name": "late"}], "messages": [
        {"id": "a0", "role": "assistant", "toolCalls": [
            {"id": "old", "type": "function", "function": {"name": "confirm", "arguments": "{\"k\":2}"}}]},
        tool_message("t-old", "old", "earlier"),
        tool_message("t1", "c1", "yes"),
        tool_message("t2", "c2", "no"),
    ]});
    t.start_run(RunInput::from_value(text.clone()).unwrap())
        .unwrap();
    let old = t.call("old").unwrap();
    assert!(old.from_history && old.answered());
    assert_eq!(old.results[0].source, ResultSource::History);
    assert!(t.pending_calls().next().is_none());
    assert!(t.tool("late").is_some(), "the input's tools are advertised");
    assert_eq!(
        t.run().status,
        RunStatus::Finished,
        "start_run starts no run"
    );
    let before = format!("{:?}", t.calls());
    feed(&mut t, &[run_started_with("r2", text)]);
    assert_eq!(
        format!("{:?}", t.calls()),
        before,
        "the echo changes no call"
    );
    assert!(t.violations().is_empty());
    feed(&mut t, &[run_finished("r2")]);
    assert!(t.pending_calls().next().is_none());
}

#[test]
fn f6_start_run_is_refused_while_a_run_is_active_or_after_a_fatal() {
    let mut t = with_tools(&["confirm"]);
    let err = refused(&mut t, |t| t.start_run(input(vec![])));
    assert_eq!(err, ApplicationError::RunActive);
    feed(&mut t, &[run_finished("r1")]);
    push(&mut t, end("nope")).unwrap_err();
    let err = refused(&mut t, |t| t.start_run(input(vec![])));
    assert_eq!(err, ApplicationError::Stopped { code: "L3" });
}

#[test]
fn f6_input_json_is_read_and_malformed_input_named() {
    let t = two_pending();
    let missing = t
        .check_input_json(
            r#"{"threadId":"t1","runId":"r2","messages":[{"id":"x","role":"tool","toolCallId":"c1","content":"ok"}]}"#,
        )
        .unwrap();
    assert_eq!(missing[0].tool_call_id, "c2");
    let err = t
        .check_input_json(r#"{"threadId":"t1","runId":"r2","messages":[{"id":"x","role":"tool"}]}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"the run input is malformed: missing field "messages[0].toolCallId""#
    );
    // The field is data too, by its path in the input.
    let ApplicationError::MalformedInput(field) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(field.path(), "messages[0].toolCallId");
    // The application's input is a `RunAgentInput`: its ids and messages
    // are required, and every field the tracker reads is type-checked.
    for (text, path) in [
        (r#"{"runId":"r2","messages":[]}"#, "threadId"),
        (r#"{"threadId":"t1","messages":[]}"#, "runId"),
        (r#"{"threadId":"t1","runId":"r2"}"#, "messages"),
        (r#"{"threadId":1,"runId":"r2","messages":[]}"#, "threadId"),
        (
            r#"{"threadId":"t1","runId":"r2","parentRunId":2,"messages":[]}"#,
            "parentRunId",
        ),
        (
            r#"{"threadId":"t1","runId":"r2","messages":[],"context":[1]}"#,
            "context[0]",
        ),
        (
            r#"{"threadId":"t1","runId":"r2","messages":[],"tools":[{"name":"f","description":3}]}"#,
            "tools[0].description",
        ),
        (
            r#"{"threadId":"t1","runId":"r2","messages":[],"resume":[{"interruptId":"i"}]}"#,
            "resume[0].status",
        ),
    ] {
        match t.check_input_json(text) {
            Err(ApplicationError::MalformedInput(e)) => assert_eq!(e.path(), path, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert!(matches!(
        t.check_input_json("not json"),
        Err(ApplicationError::MalformedInput(_))
    ));
}

#[test]
fn f6_abandoning_the_thread_is_not_an_error() {
    let t = two_pending();
    assert!(t.violations().is_empty());
    assert!(t.fatal().is_none());
    assert_eq!(t.pending_calls().count(), 2);
}

#[test]
fn t5_answering_an_open_call_is_refused() {
    let mut t = with_tools(&["confirm"]);
    feed(&mut t, &[start("c1", "confirm"), args("c1", r#"{"a":1}"#)]);
    let err = refused(&mut t, |t| t.answer("c1", json!("x"), "m1"));
    assert_eq!(
        err.to_string(),
        r#"tool call "c1" is still open: its arguments are not complete until TOOL_CALL_END"#
    );
    refused(&mut t, |t| t.fail("c1", "e", None, "m1"));
    refused(&mut t, |t| t.approve("c1"));
    refused(&mut t, |t| t.decline("c1", None, "m1"));
    feed(&mut t, &[end("c1")]);
    t.approve("c1").unwrap();
}

#[test]
fn l7_interrupted_run_lists_its_interrupts_and_keeps_pending_calls() {
    let mut t = with_tools(&["confirm"]);
    feed(&mut t, &whole_call("c1", "confirm", "{}"));
    feed(
        &mut t,
        &[
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
                 "outcome": {"type": "interrupt", "interrupts": [{"id": "i1", "reason": "ask"}]}}),
        ],
    );
    assert_eq!(t.run().status, RunStatus::Interrupted);
    assert!(matches!(
        &t.run().outcome,
        Some(agui_tool_calls::Outcome::Interrupt { interrupts }) if interrupts[0].id == "i1" && interrupts[0].reason == "ask"
    ));
    assert!(t.call("c1").unwrap().pending);
    t.answer("c1", json!("ok"), "m1").unwrap();
}
