//! Standing approvals (rule S3): the user approves one call and, with it,
//! every later call to its tool in the thread whose arguments pass the
//! tool's schema; nothing is approved that no user decision covers.

use crate::common::*;
use agui_tool_calls::events::Tool;
use agui_tool_calls::{ApplicationError, Consent, Options, StandingApproval, Tracker};
use proptest::prelude::*;
use serde_json::{json, Value};

/// `deploy` (requiring approval, `service` a required string) and `pick`
/// are advertised; `loose` is advertised without a schema. Run `r1` runs.
fn guarded() -> Tracker {
    let service = json!({"type": "object", "properties": {"service": {"type": "string"}},
                         "required": ["service"]});
    running_with(Options {
        tools: vec![
            Tool::new("deploy", "", service),
            Tool::new("pick", "", json!({"type": "object"})),
            Tool::new("loose", "", Value::Null),
        ],
        require_approval: vec!["deploy".to_owned()],
        ..Options::default()
    })
}

const VALID: &str = r#"{"service":"checkout"}"#;

fn consent<'a>(t: &'a Tracker, id: &str) -> (Consent, Option<&'a str>) {
    let call = t.call(id).unwrap();
    (call.consent, call.consent_from.as_deref())
}

fn standing(tool: &str, id: &str) -> StandingApproval {
    StandingApproval {
        tool: tool.to_owned(),
        tool_call_id: id.to_owned(),
    }
}

#[test]
fn s3_a_standing_approval_approves_later_valid_calls_to_its_tool_naming_the_call_it_was_given_on() {
    let mut t = guarded();
    feed(&mut t, &whole_call("d1", "deploy", VALID));
    let version = t.version();
    t.approve_and_remember("d1").unwrap();
    assert!(t.version() > version);
    assert_eq!(
        consent(&t, "d1"),
        (Consent::Approved, None),
        "the user decided on d1"
    );
    assert_eq!(t.standing_approvals(), [standing("deploy", "d1")]);
    assert!(t.take_changes().run, "the list is sent with the run");

    feed(&mut t, &whole_call("d2", "deploy", VALID));
    feed(&mut t, &whole_call("p1", "pick", "{}"));
    assert_eq!(consent(&t, "d2"), (Consent::Approved, Some("d1")));
    assert_eq!(
        consent(&t, "p1"),
        (Consent::Unrequested, None),
        "another tool"
    );
    // Approved, so a tool requiring approval may be answered.
    t.answer("d2", json!("deployed"), "m2").unwrap();
    // In later runs of the thread too.
    feed(&mut t, &[run_finished("r1")]);
    t.start_run_json(r#"{"threadId":"t","runId":"r9","messages":[]}"#)
        .unwrap_err(); // p1, d1 unanswered
    t.answer("d1", json!("deployed"), "m1").unwrap();
    t.answer("p1", json!("a"), "m3").unwrap();
    let input = json!({"threadId": "t", "runId": "r9", "messages": t.tool_messages().iter().map(agui_tool_calls::ToolMessage::to_value).collect::<Vec<_>>()});
    t.start_run_json(&input.to_string()).unwrap();
    feed(&mut t, &[run_started("r2")]);
    feed(&mut t, &whole_call("d3", "deploy", VALID));
    assert_eq!(consent(&t, "d3"), (Consent::Approved, Some("d1")));
    // Giving it again keeps the first.
    t.approve_and_remember("d3").unwrap();
    assert_eq!(
        consent(&t, "d3"),
        (Consent::Approved, None),
        "the user decided on d3 now"
    );
    assert_eq!(t.standing_approvals(), [standing("deploy", "d1")]);
}

#[test]
fn s3_a_standing_approval_never_covers_invalid_or_unvalidated_arguments() {
    let mut t = guarded();
    feed(&mut t, &whole_call("d1", "deploy", VALID));
    feed(&mut t, &whole_call("l1", "loose", "{}"));
    t.approve_and_remember("d1").unwrap();
    t.approve_and_remember("l1").unwrap();
    feed(&mut t, &whole_call("d2", "deploy", r#"{"service":42}"#));
    feed(&mut t, &whole_call("d3", "deploy", r#"{"service":"#));
    feed(&mut t, &whole_call("l2", "loose", "{}"));
    for id in ["d2", "d3", "l2"] {
        assert_eq!(consent(&t, id), (Consent::Unrequested, None), "{id}");
    }
    let err = t.answer("d2", json!("x"), "m1").unwrap_err();
    assert!(
        matches!(err, ApplicationError::ApprovalRequired { .. }),
        "{err}"
    );
    // A reopened call loses the approval, and gets it back only if its new
    // arguments pass.
    feed(&mut t, &whole_call("d4", "deploy", VALID));
    assert_eq!(consent(&t, "d4"), (Consent::Approved, Some("d1")));
    feed(&mut t, &[start("d4", "deploy"), args("d4", "x"), end("d4")]);
    assert_eq!(consent(&t, "d4"), (Consent::Unrequested, None));
}

#[test]
fn s3_a_standing_approval_covers_the_calls_awaiting_a_decision_when_given() {
    let mut t = guarded();
    for id in ["d1", "d2", "d3"] {
        feed(&mut t, &whole_call(id, "deploy", VALID));
    }
    feed(&mut t, &[run_finished("r1")]);
    t.decline("d3", None, "m3").unwrap();
    t.approve_and_remember("d1").unwrap();
    assert_eq!(consent(&t, "d2"), (Consent::Approved, Some("d1")));
    assert_eq!(
        consent(&t, "d3"),
        (Consent::Declined, None),
        "the user's no stands"
    );
    // Declining a call a standing approval approved is the user's decision.
    t.decline("d2", None, "m2").unwrap();
    assert_eq!(consent(&t, "d2"), (Consent::Declined, None));
}

#[test]
fn s3_revoking_a_standing_approval_withdraws_it_from_unanswered_calls() {
    let mut t = guarded();
    feed(&mut t, &whole_call("d1", "deploy", VALID));
    t.approve_and_remember("d1").unwrap();
    feed(&mut t, &whole_call("d2", "deploy", VALID));
    feed(&mut t, &whole_call("d3", "deploy", VALID));
    t.answer("d2", json!("deployed"), "m2").unwrap();
    t.take_changes();
    let version = t.version();
    t.revoke_approval("deploy");
    assert!(t.version() > version);
    let changes = t.take_changes();
    assert!(changes.run);
    assert!(t.standing_approvals().is_empty());
    assert_eq!(
        consent(&t, "d1"),
        (Consent::Approved, None),
        "the user approved d1 itself"
    );
    assert_eq!(
        consent(&t, "d2"),
        (Consent::Approved, Some("d1")),
        "answered: the record stays"
    );
    assert_eq!(consent(&t, "d3"), (Consent::Unrequested, None));
    feed(&mut t, &whole_call("d4", "deploy", VALID));
    assert_eq!(consent(&t, "d4"), (Consent::Unrequested, None));
    // Revoking what is not there changes nothing.
    let version = t.version();
    t.revoke_approval("deploy");
    t.revoke_approval("nothing");
    assert_eq!(t.version(), version);
}

#[test]
fn i3_a_standing_approval_leaves_a_call_an_interrupt_asks_about_to_the_interrupt() {
    let mut t = guarded();
    feed(&mut t, &whole_call("d1", "deploy", VALID));
    t.approve_and_remember("d1").unwrap();
    feed(&mut t, &whole_call("d2", "deploy", VALID));
    assert_eq!(consent(&t, "d2"), (Consent::Approved, Some("d1")));
    feed(
        &mut t,
        &[
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
                 "outcome": {"type": "interrupt", "interrupts": [
                     {"id": "i1", "reason": "tool_call", "toolCallId": "d2"}]}}),
        ],
    );
    assert_eq!(consent(&t, "d2"), (Consent::Unrequested, None));
    t.resolve_interrupt("i1", None, None).unwrap();
    assert_eq!(consent(&t, "d2"), (Consent::Approved, None));
}

#[test]
fn s3_restored_history_calls_are_covered_when_pending_again() {
    let mut t = guarded();
    feed(&mut t, &whole_call("d1", "deploy", VALID));
    t.approve_and_remember("d1").unwrap();
    feed(&mut t, &[run_finished("r1")]);
    let history = json!({"messages": [
        {"id": "a1", "role": "assistant", "toolCalls": [
            {"id": "h1", "type": "function", "function": {"name": "deploy", "arguments": VALID}},
            {"id": "h2", "type": "function", "function": {"name": "deploy", "arguments": "{}"}}]}]});
    t.restore(agui_tool_calls::events::RunInput::from_history_json(&history.to_string()).unwrap())
        .unwrap();
    assert_eq!(consent(&t, "h1"), (Consent::Approved, Some("d1")));
    assert_eq!(consent(&t, "h2"), (Consent::Unrequested, None), "invalid");
}

/// What the application may do, in a random order.
#[derive(Clone, Debug)]
enum Step {
    Call(u8, bool),
    Approve(u8, bool),
    Decline(u8),
    Answer(u8),
    Revoke(bool),
    Reopen(u8, bool),
    Finish,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0u8..6, any::<bool>()).prop_map(|(n, v)| Step::Call(n, v)),
        (0u8..6, any::<bool>()).prop_map(|(n, r)| Step::Approve(n, r)),
        (0u8..6).prop_map(Step::Decline),
        (0u8..6).prop_map(Step::Answer),
        any::<bool>().prop_map(Step::Revoke),
        (0u8..6, any::<bool>()).prop_map(|(n, v)| Step::Reopen(n, v)),
        Just(Step::Finish),
    ]
}

proptest! {
    /// Every approved call is covered by a user decision: the user approved
    /// it, or it names a call the user approved with `remember` for its
    /// tool, whose standing approval is listed (or the call was answered
    /// before it was revoked), and its arguments are valid.
    #[test]
    fn s3_nothing_is_approved_that_no_user_decision_covers(steps in prop::collection::vec(step(), 1..40)) {
        let mut t = guarded();
        let mut remembered: Vec<(String, String)> = Vec::new();
        let mut message = 0;
        let mut running = true;
        for s in steps {
            let tool = |n: u8| if n.is_multiple_of(2) { "deploy" } else { "pick" };
            let text = |valid: bool| if valid { VALID } else { r#"{"service":1}"# };
            match s {
                Step::Call(n, valid) | Step::Reopen(n, valid) if running => {
                    let id = format!("c{n}");
                    if t.call(&id).is_none() || matches!(s, Step::Reopen(..)) {
                        let _ = push(&mut t, start(&id, tool(n)));
                        let _ = push(&mut t, args(&id, text(valid)));
                        let _ = push(&mut t, end(&id));
                    }
                }
                Step::Approve(n, remember) => {
                    let id = format!("c{n}");
                    let done = if remember { t.approve_and_remember(&id) } else { t.approve(&id) };
                    if remember && done.is_ok() {
                        remembered.push((tool(n).to_owned(), id));
                    }
                }
                Step::Decline(n) => {
                    message += 1;
                    let _ = t.decline(&format!("c{n}"), None, &format!("m{message}"));
                }
                Step::Answer(n) => {
                    message += 1;
                    let _ = t.answer(&format!("c{n}"), json!("ok"), &format!("m{message}"));
                }
                Step::Revoke(deploy) => t.revoke_approval(if deploy { "deploy" } else { "pick" }),
                Step::Finish if running => {
                    let _ = push(&mut t, run_finished("r1"));
                    running = false;
                }
                _ => {}
            }
            for call in t.calls() {
                let Some(from) = &call.consent_from else { continue };
                prop_assert_eq!(call.consent, Consent::Approved);
                prop_assert!(remembered.iter().any(|(tool, id)| tool == &call.name && id == from));
                let listed = t.standing_approvals().iter().any(|a| a.tool == call.name);
                prop_assert!(listed || call.answered(), "{} approved by a revoked approval", call.id);
                prop_assert_eq!(&call.validation, &agui_tool_calls::Validation::Valid);
            }
        }
    }
}
