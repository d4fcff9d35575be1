//! The thread loop's core: `abort_run` ends a run locally (rules L5, L3),
//! and message positions say where calls happened between messages (what
//! the JS `nextRun` places made-up assistant messages by).

use crate::common::*;
use agui_tool_calls::{CallStatus, Options, RunStatus, Tracker};
use serde_json::json;

fn input(run: &str, users: &[&str]) -> String {
    let messages: Vec<_> = users
        .iter()
        .map(|id| json!({"id": id, "role": "user", "content": id}))
        .collect();
    json!({"threadId": "t1", "runId": run, "messages": messages}).to_string()
}

#[test]
fn l5_abort_run_mid_call_abandons_it_and_the_thread_goes_on() {
    let mut t = Tracker::new(Options::default());
    feed(
        &mut t,
        &[
            run_started("r1"),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "confirm", "parentMessageId": "a1"}),
            args("c1", r#"{"serv"#),
            json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "k1", "toolCallName": "f", "delta": "{"}),
        ],
    );
    t.abort_run(Some("stopped by the user"));
    assert_eq!(t.run().status, RunStatus::Aborted);
    assert_eq!(t.run().error.as_ref().unwrap().0, "stopped by the user");
    assert_eq!(t.call("c1").unwrap().status, CallStatus::Abandoned);
    assert_eq!(
        t.call("k1").unwrap().status,
        CallStatus::Abandoned,
        "the chunk lane closed too"
    );
    // A late event of the aborted run is refused (L3); the state stays readable.
    let mut late = t.clone();
    assert_eq!(fatal_code(&mut late, args("c1", "x")), "L3");
    assert_eq!(late.call("c1").unwrap().args_text(), r#"{"serv"#);
    // The thread goes on: the next input is accepted, then a new run.
    t.start_run_json(&input("r2", &["u1", "u2"])).unwrap();
    feed(&mut t, &[run_started("r2")]);
    feed(&mut t, &whole_call("c2", "confirm", "{}"));
    feed(&mut t, &[run_finished("r2")]);
    assert_eq!(t.run().status, RunStatus::Finished);
}

#[test]
fn l5_abort_with_nothing_running_changes_nothing() {
    let mut t = Tracker::new(Options::default());
    let version = t.version();
    t.abort_run(Some("x"));
    assert_eq!(t.version(), version);
    assert_eq!(t.run().status, RunStatus::Idle);
    feed(&mut t, &[run_started("r1"), run_finished("r1")]);
    let version = t.version();
    t.abort_run(None);
    assert_eq!(
        (t.version(), t.run().status),
        (version, RunStatus::Finished)
    );
}

#[test]
fn l5_a_declared_run_whose_request_fails_before_run_started_is_aborted_with_the_reason() {
    let mut t = Tracker::new(Options::default());
    feed(
        &mut t,
        &[
            run_started("r1"),
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1", "result": {"ok": true}}),
        ],
    );
    t.start_run_json(&input("r2", &["u1"])).unwrap();
    let calls = format!("{:?}", t.calls());
    let version = t.version();
    // The request failed (HTTP 500) or the client refused the stream before
    // its RUN_STARTED: the run declared is the one aborted, with the reason.
    t.abort_run(Some(r#"HTTP 500: {"error":"overloaded"}"#));
    assert!(t.version() > version);
    let run = t.run();
    assert_eq!(run.status, RunStatus::Aborted);
    assert_eq!(
        run.error.as_ref().map(|(m, _)| m.as_str()),
        Some(r#"HTTP 500: {"error":"overloaded"}"#)
    );
    assert_eq!(
        (run.result.as_ref(), run.outcome.as_ref(), run.runs_started),
        (None, None, 1)
    );
    assert_eq!(run.thread_id.as_deref(), Some("t1"));
    assert_eq!(format!("{:?}", t.calls()), calls, "no call changes");
    // Once: nothing is declared any more.
    let version = t.version();
    t.abort_run(Some("again"));
    assert_eq!(t.version(), version);
    // The thread goes on: the input declared again, its run started.
    t.start_run_json(&input("r2", &["u1"])).unwrap();
    feed(&mut t, &[run_started("r2"), run_finished("r2")]);
    assert_eq!(t.run().status, RunStatus::Finished);
    // A run that started is not aborted by a late call for the declared one.
    t.abort_run(Some("late"));
    assert_eq!(t.run().status, RunStatus::Finished);
}

#[test]
fn l5_abort_without_reason_leaves_no_error() {
    let mut t = running();
    t.abort_run(None);
    assert_eq!(t.run().status, RunStatus::Aborted);
    assert_eq!(t.run().error, None);
}

#[test]
fn calls_know_where_they_happened_between_messages() {
    let mut t = Tracker::new(Options::default());
    t.start_run_json(&input("r1", &["u1"])).unwrap();
    feed(
        &mut t,
        &[
            run_started("r1"),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "a1"}),
        ],
    );
    feed(&mut t, &whole_call("c1", "f", "{}"));
    feed(
        &mut t,
        &[
            json!({"type": "TOOL_CALL_START", "toolCallId": "c2", "toolCallName": "f", "parentMessageId": "a2"}),
        ],
    );
    feed(
        &mut t,
        &[
            end("c2"),
            result("m1", "c1", "ok"),
            result("m2", "c2", "ok"),
            run_finished("r1"),
        ],
    );
    t.start_run_json(&input("r2", &["u1", "u2"])).unwrap();
    let at = |id: &str| t.message_position(id);
    assert_eq!(
        (at("u1"), at("a1"), at("a2"), at("u2")),
        (Some(0), Some(1), Some(2), Some(3))
    );
    // c1 after a1; c2 after its parent a2 (named first by the call), both before u2.
    assert_eq!(t.call("c1").unwrap().position(), 2);
    assert_eq!(t.call("c2").unwrap().position(), 3);
}

/// Rule S5: a thread's next run restates its whole history, turn after
/// turn; what the thread already holds (messages, calls, what they keep,
/// answers) is not charged again, so the budget grows with the thread, not
/// with the number of times it was restated.
#[test]
fn s5_a_history_restated_every_turn_is_charged_once() {
    let mut t = Tracker::new(Options::default());
    let mut history = Vec::new();
    let mut after_turn = Vec::new();
    for turn in 0..6 {
        let (user, assistant, call, answer) = (
            format!("u{turn}"),
            format!("a{turn}"),
            format!("c{turn}"),
            format!("m{turn}"),
        );
        history.push(json!({"id": user, "role": "user", "content": "x".repeat(500)}));
        let input = json!({"threadId": "t1", "runId": format!("r{turn}"), "messages": history});
        t.start_run_json(&input.to_string()).unwrap();
        let declared = t.retained_bytes();
        // Declared again, unchanged (an app retrying the request): nothing more.
        t.start_run_json(&input.to_string()).unwrap();
        assert_eq!(t.retained_bytes(), declared, "turn {turn}");
        feed(&mut t, &[run_started(&format!("r{turn}"))]);
        feed(&mut t, &whole_call(&call, "confirm", r#"{"n":1}"#));
        feed(&mut t, &[run_finished(&format!("r{turn}"))]);
        t.answer(&call, json!("yes"), &answer).unwrap();
        history.push(json!({"id": assistant, "role": "assistant", "metadata": {"turn": turn},
            "toolCalls": [{"id": call, "type": "function", "function": {"name": "confirm", "arguments": r#"{"n":1}"#}, "encryptedValue": "sig"}]}));
        history.push(json!({"id": answer, "role": "tool", "toolCallId": call, "content": "yes"}));
        after_turn.push(t.retained_bytes());
    }
    // Each turn adds what that turn made, about the same every turn: the
    // restated history costs nothing once held.
    let growth: Vec<usize> = after_turn.windows(2).map(|w| w[1] - w[0]).collect();
    let (least, most) = (growth.iter().min().unwrap(), growth.iter().max().unwrap());
    assert!(most - least <= 256, "{growth:?}");
}

/// Rule S5 with F10: agents send a `MESSAGES_SNAPSHOT` of the whole thread
/// every run. What a message or call keeps (metadata, an encrypted
/// value) that the snapshot restates unchanged is not charged again: a
/// long thread of reasoning-model turns is not stopped for restating its
/// signatures. A snapshot that changes them is charged what they grew.
#[test]
fn s5_a_snapshot_restating_kept_values_every_run_is_charged_once() {
    let mut t = Tracker::new(Options::default());
    let mut history = Vec::new();
    let mut after_turn = Vec::new();
    let signature = "s".repeat(4_000);
    for turn in 0..6 {
        let (assistant, call) = (format!("a{turn}"), format!("c{turn}"));
        history.push(json!({"id": assistant, "role": "assistant", "metadata": {"turn": turn, "pad": "p".repeat(2_000)},
            "toolCalls": [{"id": call, "type": "function", "function": {"name": "search", "arguments": "{}"},
                "encryptedValue": signature}]}));
        let snapshot = json!({"type": "MESSAGES_SNAPSHOT", "messages": history});
        feed(
            &mut t,
            &[run_started(&format!("r{turn}")), snapshot.clone()],
        );
        let once = t.retained_bytes();
        // The same snapshot again (a second one in the run): nothing more.
        feed(&mut t, &[snapshot, run_finished(&format!("r{turn}"))]);
        assert_eq!(t.retained_bytes(), once, "turn {turn}");
        after_turn.push(t.retained_bytes());
    }
    let growth: Vec<usize> = after_turn.windows(2).map(|w| w[1] - w[0]).collect();
    let (least, most) = (growth.iter().min().unwrap(), growth.iter().max().unwrap());
    assert!(most - least <= 256, "{growth:?}");

    // A snapshot that grows what a known call keeps is charged the growth.
    let before = t.retained_bytes();
    history[0]["toolCalls"][0]["encryptedValue"] = json!("s".repeat(9_000));
    feed(
        &mut t,
        &[
            run_started("r6"),
            json!({"type": "MESSAGES_SNAPSHOT", "messages": history}),
        ],
    );
    assert!(
        t.retained_bytes() >= before + 5_000,
        "{} -> {}",
        before,
        t.retained_bytes()
    );
    assert_eq!(
        t.call("c0")
            .unwrap()
            .kept
            .encrypted_value
            .as_ref()
            .unwrap()
            .get()
            .len(),
        9_002
    );
}
