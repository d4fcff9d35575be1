//! Interrupts and resume: rules I1-I6 (`basic/patterns/interrupt-resume.mdx`).

use crate::common::*;
use agui_tool_calls::events::{Opaque, ResumeStatus, RunInput, Tool};
use agui_tool_calls::{
    ApplicationError, Clock, Consent, InterruptDecision, Options, RunStatus, Tracker,
};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};

fn interrupted(run: &str, interrupts: Value) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": run,
           "outcome": {"type": "interrupt", "interrupts": interrupts}})
}

/// Run `r1` called the backend tool `transfer` (c1) and stopped for its
/// approval (i1) and a question (i2).
fn approval_pending(options: Options) -> Tracker {
    let mut t = running_with(options);
    feed(&mut t, &whole_call("c1", "transfer", r#"{"amount":5}"#));
    feed(
        &mut t,
        &[interrupted(
            "r1",
            json!([
                {"id": "i1", "reason": "tool_approval", "toolCallId": "c1", "message": "Send 5?"},
                {"id": "i2", "reason": "input_required",
                 "responseSchema": {"type": "object", "required": ["region"],
                                    "properties": {"region": {"type": "string"}}}},
            ]),
        )],
    );
    t
}

fn transfer_tool() -> Options {
    let schema = json!({"type": "object", "required": ["amount"],
                        "properties": {"amount": {"type": "integer", "maximum": 10}}});
    Options {
        tools: vec![Tool::new("transfer", "", schema)],
        ..Options::default()
    }
}

fn input(value: Value) -> RunInput {
    let mut whole = json!({"threadId": "t1", "runId": "r2", "messages": []});
    whole
        .as_object_mut()
        .unwrap()
        .extend(value.as_object().unwrap().clone());
    RunInput::from_value(whole).unwrap()
}

fn opaque(v: Value) -> Opaque {
    Opaque::from(v)
}

fn everything(t: &Tracker) -> String {
    format!("{}|{:?}", state_of(t), t.interrupts())
}

/// Asserts that a refused operation changed nothing.
fn refused(
    t: &mut Tracker,
    op: impl FnOnce(&mut Tracker) -> Result<(), ApplicationError>,
) -> ApplicationError {
    let _ = t.take_changes();
    let (before, version) = (everything(t), t.version());
    let err = op(t).expect_err("the operation should be refused");
    assert_eq!(everything(t), before, "a refused operation changes nothing");
    assert_eq!(t.version(), version);
    assert!(t.take_changes().is_empty());
    refusal_agrees(&err);
    err
}

#[test]
fn i1_interrupt_outcome_opens_typed_interrupts_in_order() {
    let mut t = running();
    feed(
        &mut t,
        &[interrupted(
            "r1",
            json!([
                {"id": "i1", "reason": "confirm", "message": "Sure?", "toolCallId": "cx",
                 "responseSchema": {"type": "boolean"}, "expiresAt": "2999-01-01T00:00:00Z",
                 "metadata": {"k": [1]}, "subagentRunId": "s1", "vendor": {"x": 1}},
                {"id": "i2", "reason": "input"},
            ]),
        )],
    );
    assert_eq!(t.run().status, RunStatus::Interrupted);
    let open = t.interrupts();
    assert_eq!(open.len(), 2);
    let i = &open[0].interrupt;
    assert_eq!((i.id.as_str(), i.reason.as_str()), ("i1", "confirm"));
    assert_eq!(i.message.as_deref(), Some("Sure?"));
    assert_eq!(i.tool_call_id.as_deref(), Some("cx"));
    assert_eq!(
        i.response_schema.as_ref().unwrap().get(),
        r#"{"type":"boolean"}"#
    );
    assert_eq!(i.expires_at.as_deref(), Some("2999-01-01T00:00:00Z"));
    assert_eq!(i.metadata.as_ref().unwrap().get(), r#"{"k":[1]}"#);
    assert_eq!(i.subagent_run_id.as_deref(), Some("s1"));
    // Stripped, with a warning naming its path (rule P2), as the 1.0
    // client strips it: written back without it.
    assert_eq!(open[1].interrupt.id, "i2");
    assert_eq!(open[1].decision, InterruptDecision::Open);
    let written = agui_tool_calls::events::to_json(i);
    assert!(!written.contains("vendor"), "{written}");
    assert_eq!(t.violations()[0].code, "P2");
    // Open until the next run starts.
    t.cancel_interrupt("i1").unwrap();
    t.cancel_interrupt("i2").unwrap();
    feed(&mut t, &[run_started("r2")]);
    assert!(t.interrupts().is_empty());
}

#[test]
fn p2_undescribed_properties_of_an_interrupt_are_stripped_naming_each() {
    let mut t = running();
    t.push_json(
        r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":{"type":"interrupt",
            "interrupts":[{"id":"i1","x":1,"reason":"r","y":2,"x":3}]}}"#,
    )
    .unwrap();
    let i = &t.interrupts()[0].interrupt;
    assert_eq!(
        agui_tool_calls::events::to_json(i),
        r#"{"id":"i1","reason":"r"}"#
    );
    let warned: Vec<(&str, &str)> = t
        .violations()
        .iter()
        .map(|v| (v.code, v.message.as_str()))
        .collect();
    assert_eq!(
        warned,
        [
            (
                "P2",
                "outcome.interrupts[0].x is not a property 1.0 describes: removed"
            ),
            (
                "P2",
                "outcome.interrupts[0].y is not a property 1.0 describes: removed"
            ),
        ]
    );
    assert_eq!(t.violations()[0].count, 2, "x twice, one entry counted");
    assert_eq!(t.run().status, RunStatus::Interrupted);
    // Many of them, and many interrupts, are read in one pass each; the
    // warnings are bounded by the violation log.
    let wide: Vec<String> = (0..20_000).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let many: Vec<String> = (0..20_000)
        .map(|i| format!(r#"{{"id":"i{}","reason":"r"}}"#, i % 10_000))
        .collect();
    let mut t = running();
    t.push_json(&format!(
        r#"{{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":{{"type":"interrupt",
            "interrupts":[{{"id":"w","reason":"r",{}}},{}]}}}}"#,
        wide.join(","),
        many.join(",")
    ))
    .unwrap();
    assert_eq!(t.interrupts().len(), 10_001);
    assert!(t.violations().len() <= 1_001);
    assert_eq!(t.run().status, RunStatus::Interrupted);
}

#[test]
fn i1_a_malformed_interrupt_is_fatal_naming_the_field() {
    for (interrupt, field) in [
        (
            json!({"id": "i1"}),
            r#"missing field "outcome.interrupts[0].reason""#,
        ),
        (
            json!({"id": 1, "reason": "r"}),
            r#"field "outcome.interrupts[0].id" must be a string"#,
        ),
        (
            json!({"id": "i1", "reason": "r", "message": null}),
            r#""outcome.interrupts[0].message" must be a string"#,
        ),
        (
            json!({"id": "i1", "reason": "r", "responseSchema": true}),
            r#""outcome.interrupts[0].responseSchema" must be an object"#,
        ),
        (
            json!({"id": "i1", "reason": "r", "metadata": []}),
            r#""outcome.interrupts[0].metadata" must be an object"#,
        ),
        (
            json!("i1"),
            r#"field "outcome.interrupts[0]" must be an object"#,
        ),
    ] {
        let mut t = running();
        let v = push(&mut t, interrupted("r1", json!([interrupt]))).unwrap_err();
        assert_eq!(v.code, "E2");
        assert!(v.message.contains(field), "{} lacks {field}", v.message);
        assert_eq!(
            t.run().status,
            RunStatus::Running,
            "the state before it stays"
        );
    }
}

#[test]
fn i2_two_interrupts_with_one_id_are_a_violation() {
    let mut t = running();
    feed(
        &mut t,
        &[interrupted(
            "r1",
            json!([{"id": "i1", "reason": "a"}, {"id": "i1", "reason": "b"}]),
        )],
    );
    assert_eq!(codes(&t), ["I2"]);
    assert_eq!(t.violations()[0].event_index, 1);
    assert_eq!(t.interrupts().len(), 1, "the first one stands");
    assert_eq!(t.interrupts()[0].interrupt.reason, "a");
}

#[test]
fn i2_a_frontend_call_ending_in_an_interrupt_is_a_violation() {
    let mut t = running_with(transfer_tool());
    feed(&mut t, &whole_call("c1", "transfer", r#"{"amount":1}"#));
    feed(
        &mut t,
        &[interrupted("r1", json!([{"id": "i1", "reason": "ask"}]))],
    );
    assert_eq!(codes(&t), ["I2"]);
    assert_eq!(t.violations()[0].tool_call_id.as_deref(), Some("c1"));
    assert!(
        t.call("c1").unwrap().pending,
        "the call stays the application's"
    );
    // An approval of a backend call is no frontend call.
    let t = approval_pending(Options::default());
    assert!(!codes(&t).contains(&"I2"));
}

#[test]
fn i3_a_call_an_interrupt_names_awaits_it_and_is_not_pending() {
    let mut t = approval_pending(Options::default());
    let call = t.call("c1").unwrap();
    assert_eq!(call.awaiting_interrupt.as_deref(), Some("i1"));
    assert!(!call.pending);
    assert_eq!(t.pending_calls().count(), 0);
    assert!(
        codes(&t).is_empty(),
        "no F7 for a call awaiting approval: {:?}",
        codes(&t)
    );
    // The application cannot answer it: only the resume entry does.
    let err = refused(&mut t, |t| t.answer("c1", json!("done"), "m1"));
    assert!(
        matches!(err, ApplicationError::AwaitingInterrupt { ref interrupt_id, .. } if interrupt_id == "i1")
    );
    refused(&mut t, |t| t.approve("c1"));
    // No tool message is required, and none answers it.
    let resume = json!({"resume": [{"interruptId": "i1", "status": "resolved", "payload": true},
                                   {"interruptId": "i2", "status": "cancelled"}],
                        "messages": [{"id": "m9", "role": "tool", "toolCallId": "c1", "content": "x"}]});
    assert!(t.check_input(&input(json!({}))).is_empty());
    t.start_run(input(resume)).unwrap();
    assert!(t.call("c1").unwrap().results.is_empty());
    // Once the resuming run starts, the call is the stream's again.
    feed(&mut t, &[run_started("r2"), result("m2", "c1", "sent")]);
    let call = t.call("c1").unwrap();
    assert_eq!(call.awaiting_interrupt, None);
    assert!(call.answered());
}

#[test]
fn i3_an_interrupt_naming_a_call_never_seen_is_a_warning() {
    let mut t = running();
    feed(
        &mut t,
        &[interrupted(
            "r1",
            json!([{"id": "i1", "reason": "r", "toolCallId": "ghost"}]),
        )],
    );
    assert_eq!(codes(&t), ["I3"]);
    assert_eq!(t.violations()[0].tool_call_id.as_deref(), Some("ghost"));
    assert_eq!(t.interrupts().len(), 1);
}

#[test]
fn i4_resolving_and_cancelling_record_the_decision_and_consent() {
    let mut t = approval_pending(Options::default());
    let v = t.version();
    t.resolve_interrupt("i1", Some(opaque(json!({"approved": true}))), None)
        .unwrap();
    assert!(t.version() > v);
    assert_eq!(t.call("c1").unwrap().consent, Consent::Approved);
    assert!(t.take_changes().run, "the interrupts changed");
    t.resolve_interrupt("i2", Some(opaque(json!({"region": "eu"}))), None)
        .unwrap();
    let entries = t.resume_entries();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0].interrupt_id, "i1");
    assert_eq!(entries[0].status, ResumeStatus::Resolved);
    assert_eq!(
        entries[0].payload.as_ref().unwrap().get(),
        r#"{"approved":true}"#
    );

    let mut t = approval_pending(Options::default());
    t.cancel_interrupt("i1").unwrap();
    assert_eq!(t.call("c1").unwrap().consent, Consent::Declined);
    assert_eq!(t.interrupts()[0].decision, InterruptDecision::Cancelled);
    assert_eq!(t.resume_entries()[0].status, ResumeStatus::Cancelled);
    assert_eq!(
        t.resume_entries().len(),
        1,
        "undecided interrupts have no entry"
    );
}

#[test]
fn i4_a_payload_failing_the_response_schema_is_refused_with_path_and_keyword() {
    let mut t = approval_pending(Options::default());
    let err = refused(&mut t, |t| {
        t.resolve_interrupt("i2", Some(opaque(json!({"region": 7}))), None)
    });
    let errors = err.validation_errors();
    assert_eq!(errors[0].path, "/region");
    assert_eq!(errors[0].keyword, "type");
    assert_eq!(err.interrupt_ids(), ["i2"]);
    assert!(err.to_string().contains("type at \"/region\""), "{err}");
    let err = refused(&mut t, |t| {
        t.resolve_interrupt("i2", Some(opaque(json!({}))), None)
    });
    assert_eq!(err.validation_errors()[0].keyword, "required");
    t.resolve_interrupt("i2", Some(opaque(json!({"region": "eu"}))), None)
        .unwrap();
}

#[test]
fn i4_edited_args_are_validated_against_the_tools_schema_and_ride_the_payload() {
    let mut t = approval_pending(transfer_tool());
    let err = refused(&mut t, |t| {
        t.resolve_interrupt("i1", None, Some(opaque(json!({"amount": 50}))))
    });
    assert!(
        matches!(err, ApplicationError::InvalidEditedArgs { ref tool_call_id, .. } if tool_call_id == "c1")
    );
    assert_eq!(err.validation_errors()[0].path, "/amount");
    assert_eq!(err.validation_errors()[0].keyword, "maximum");
    assert_eq!(err.tool_call_ids(), ["c1"]);
    refused(&mut t, |t| {
        t.resolve_interrupt("i1", None, Some(opaque(json!([1]))))
    });
    refused(&mut t, |t| {
        t.resolve_interrupt("i2", None, Some(opaque(json!({"amount": 1}))))
    });
    t.resolve_interrupt(
        "i1",
        Some(opaque(json!({"approved": true}))),
        Some(opaque(json!({"amount": 7}))),
    )
    .unwrap();
    let payload = t.resume_entries()[0].payload.clone().unwrap();
    assert_eq!(
        payload.to_value().unwrap(),
        json!({"approved": true, "editedArgs": {"amount": 7}})
    );
    assert_eq!(t.call("c1").unwrap().consent, Consent::Approved);
}

#[test]
fn i4_unknown_or_already_covered_interrupts_are_refused() {
    let mut t = approval_pending(Options::default());
    let err = refused(&mut t, |t| t.resolve_interrupt("nope", None, None));
    assert_eq!(
        err,
        ApplicationError::UnknownInterrupt { id: "nope".into() }
    );
    refused(&mut t, |t| t.cancel_interrupt("nope"));
    t.cancel_interrupt("i1").unwrap();
    let err = refused(&mut t, |t| t.resolve_interrupt("i1", None, None));
    assert_eq!(err, ApplicationError::InterruptCovered { id: "i1".into() });
    refused(&mut t, |t| t.cancel_interrupt("i1"));
}

#[test]
fn i5_a_resuming_input_must_cover_every_open_interrupt() {
    let mut t = approval_pending(Options::default());
    let uncovered = t.check_resume(&input(json!({})));
    let ids: Vec<_> = uncovered.iter().map(|u| u.interrupt_id.as_str()).collect();
    assert_eq!(ids, ["i1", "i2"]);
    let before = everything(&t);
    let err = t
        .start_run(input(
            json!({"resume": [{"interruptId": "i2", "status": "cancelled"}]}),
        ))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"the next run's input leaves 1 interrupt uncovered: "i1""#
    );
    assert_eq!(err.interrupt_ids(), ["i1"]);
    assert_eq!(everything(&t), before);
    // Omission is not abandonment; an explicit cancellation is.
    let all = json!({"resume": [{"interruptId": "i1", "status": "cancelled"},
                               {"interruptId": "i2", "status": "resolved", "payload": {"region": "eu"}}]});
    assert!(t.check_resume(&input(all.clone())).is_empty());
    t.start_run(input(all)).unwrap();
    assert!(codes(&t).is_empty());
}

static NOW: AtomicU64 = AtomicU64::new(0);

fn now() -> f64 {
    NOW.load(Ordering::SeqCst) as f64
}

#[test]
fn i5_an_expired_interrupt_can_only_be_cancelled() {
    let noon = 1_767_268_800_000; // 2026-01-01T12:00:00Z
    NOW.store(noon - 1, Ordering::SeqCst);
    let mut t = running();
    t.set_clock(Clock {
        now_ms: now,
        ..Clock::default()
    });
    feed(
        &mut t,
        &[interrupted(
            "r1",
            json!([{"id": "i1", "reason": "r", "expiresAt": "2026-01-01T12:00:00Z"},
                   {"id": "i2", "reason": "r", "expiresAt": "not a date"}]),
        )],
    );
    // Resolved before it expired...
    t.resolve_interrupt("i1", Some(opaque(json!(1))), None)
        .unwrap();
    t.resolve_interrupt("i2", Some(opaque(json!(2))), None)
        .unwrap();
    let resolved = input(json!({"resume": [
        {"interruptId": "i1", "status": "resolved", "payload": 1},
        {"interruptId": "i2", "status": "resolved", "payload": 2}]}));
    assert!(t.check_resume(&resolved).is_empty());
    // ...and sent at noon: refused, naming it; a date that does not parse never expires.
    NOW.store(noon, Ordering::SeqCst);
    let err = t.start_run(resolved).unwrap_err();
    refusal_agrees(&err);
    assert!(
        matches!(&err, ApplicationError::Uncovered(list) if list.len() == 1 && list[0].expired)
    );
    assert!(
        err.to_string()
            .contains(r#""i1" (resolved after it expired"#),
        "{err}"
    );
    let cancelled = input(json!({"resume": [
        {"interruptId": "i1", "status": "cancelled"},
        {"interruptId": "i2", "status": "resolved", "payload": 2}]}));
    t.start_run(cancelled).unwrap();

    // Resolving one already expired is refused at once; cancelling is not.
    let mut t = running();
    t.set_clock(Clock {
        now_ms: now,
        ..Clock::default()
    });
    feed(
        &mut t,
        &[interrupted(
            "r1",
            json!([{"id": "i1", "reason": "r", "expiresAt": "2026-01-01"}]),
        )],
    );
    let err = refused(&mut t, |t| t.resolve_interrupt("i1", None, None));
    assert_eq!(err, ApplicationError::InterruptExpired { id: "i1".into() });
    t.cancel_interrupt("i1").unwrap();
}

#[test]
fn i6_a_resume_entry_naming_no_open_interrupt_is_a_warning() {
    let mut t = approval_pending(Options::default());
    let resume = json!({"resume": [{"interruptId": "i1", "status": "cancelled"},
                                  {"interruptId": "i2", "status": "cancelled"},
                                  {"interruptId": "stale", "status": "cancelled"}]});
    t.start_run(input(resume)).unwrap();
    assert_eq!(codes(&t), ["I6"]);
    assert!(t.violations()[0].message.contains(r#""stale""#));
}

#[test]
fn i6_a_resume_list_continuing_no_interrupted_run_is_a_warning() {
    let mut t = running();
    feed(&mut t, &[run_finished("r1")]);
    t.start_run(input(json!({"resume": []}))).unwrap();
    assert!(
        codes(&t).is_empty(),
        "an empty list answers nothing and says nothing"
    );
    t.start_run(input(
        json!({"resume": [{"interruptId": "i1", "status": "cancelled"}]}),
    ))
    .unwrap();
    assert_eq!(codes(&t), ["I6"]);
}

#[test]
fn i5_a_malformed_resume_list_is_named() {
    let t = running();
    for (resume, field) in [
        (
            json!({"status": "cancelled"}),
            r#"missing field "resume[0].interruptId""#,
        ),
        (
            json!({"interruptId": "i1", "status": "maybe"}),
            r#""resume[0].status" must be"#,
        ),
        (
            json!({"interruptId": "i1", "status": "resolved", "payload": null}),
            r#""resume[0].payload" must not be null"#,
        ),
    ] {
        let text =
            json!({"threadId": "t", "runId": "r", "messages": [], "resume": [resume]}).to_string();
        let err = t.check_resume_json(&text).unwrap_err();
        assert!(err.to_string().contains(field), "{err} lacks {field}");
    }
}
