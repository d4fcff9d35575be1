//! The thread loop: `next_run` completes the history (rules F5, F6, A5),
//! `abort_run` ends a run locally (rule L5), over several turns.

mod common;

use agui_tool_calls::events::Tool;
use agui_tool_calls::{
    ApplicationError, CallStatus, Options, RunStatus, Tracker, ABANDONED_CONTENT,
};
use common::*;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

fn tracker() -> Tracker {
    Tracker::new(Options {
        tools: vec![Tool::new("confirm", "", json!({"type": "object"}))],
        ..Options::default()
    })
}

fn user(id: &str) -> Value {
    json!({"id": id, "role": "user", "content": id})
}

fn input(run: &str, messages: &[Value]) -> Value {
    json!({"threadId": "t1", "runId": run, "messages": messages, "context": [], "forwardedProps": {"x": 1}})
}

fn messages(v: &Value) -> &Vec<Value> {
    v["messages"].as_array().expect("messages")
}

/// The strict history check: each assistant tool call followed at once by
/// exactly one tool message each; no tool message without its call; no call
/// of `earlier` lost; the user messages in order.
fn check_history(history: &[Value], earlier_calls: &[&str], users: &[&str]) {
    let mut k = 0;
    let mut seen_calls = HashSet::new();
    let mut seen_messages = HashSet::new();
    while k < history.len() {
        let m = &history[k];
        let id = m["id"].as_str().expect("message id");
        assert!(seen_messages.insert(id.to_owned()), "message {id} twice");
        k += 1;
        match m["role"].as_str() {
            Some("tool") => panic!("tool message {id} without its call just before"),
            Some("assistant") => {
                for call in m["toolCalls"].as_array().into_iter().flatten() {
                    let cid = call["id"].as_str().unwrap();
                    assert!(seen_calls.insert(cid.to_owned()), "call {cid} twice");
                    let answer = history.get(k).unwrap_or_else(|| panic!("{cid} unanswered"));
                    assert_eq!(answer["role"], "tool", "after {id}: {answer}");
                    assert_eq!(answer["toolCallId"], cid, "answers out of order after {id}");
                    assert!(seen_messages.insert(answer["id"].as_str().unwrap().to_owned()));
                    k += 1;
                }
            }
            _ => {}
        }
    }
    for c in earlier_calls {
        assert!(seen_calls.contains(*c), "call {c} lost");
    }
    let in_order: Vec<&str> = history
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(in_order, users);
}

/// The answer each call got in `history`.
fn answers(history: &[Value]) -> HashMap<String, Value> {
    history
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| (m["toolCallId"].as_str().unwrap().to_owned(), m.clone()))
        .collect()
}

fn run_events(t: &mut Tracker, run: &str, body: &[Value]) {
    feed(t, &[run_started(run)]);
    feed(t, body);
    feed(t, &[run_finished(run)]);
}

fn text(id: &str) -> [Value; 3] {
    [
        json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": "hi"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": id}),
    ]
}

fn call_with_parent(id: &str, name: &str, parent: &str) -> [Value; 3] {
    [
        json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": name, "parentMessageId": parent}),
        args(id, r#"{"service":"checkout"}"#),
        end(id),
    ]
}

/// Five turns: answered, declined, failed, a backend call with a streamed
/// result next to a parentless frontend call, answered again; the app keeps
/// only user messages and whatever `next_run` gave it last.
#[test]
fn f6_five_turns_every_next_run_is_a_complete_history() {
    let mut t = tracker();
    let mut history = vec![user("u1")];
    let mut users = vec!["u1"];
    let mut calls: Vec<&str> = Vec::new();
    let turns: [(&str, Vec<Value>, &str); 5] = [
        (
            "r1",
            [&text("a1")[..], &call_with_parent("c1", "confirm", "a1")].concat(),
            "c1",
        ),
        ("r2", call_with_parent("c2", "confirm", "a2").to_vec(), "c2"),
        ("r3", call_with_parent("c3", "confirm", "a3").to_vec(), "c3"),
        (
            "r4",
            [
                &call_with_parent("b4", "search", "a4")[..],
                &[result("m-b4", "b4", "found")],
                &whole_call("c4", "confirm", "{}"),
            ]
            .concat(),
            "c4",
        ),
        ("r5", call_with_parent("c5", "confirm", "a5").to_vec(), "c5"),
    ];
    let mut next = t.next_run(input("r1", &history)).unwrap();
    for (n, (run, body, frontend)) in turns.iter().enumerate() {
        run_events(&mut t, run, body);
        match n {
            1 => t
                .decline(frontend, Some("no"), &format!("m-{frontend}"))
                .unwrap(),
            2 => t
                .fail(frontend, "boom", None, &format!("m-{frontend}"))
                .unwrap(),
            _ => t
                .answer(frontend, json!("ok"), &format!("m-{frontend}"))
                .unwrap(),
        }
        if n == 3 {
            calls.push("b4");
        }
        calls.push(frontend);
        // The app adds the next user message to what it sent last time.
        history = messages(&next).clone();
        let u = ["u2", "u3", "u4", "u5", "u6"][n];
        history.push(user(u));
        users.push(u);
        next = t.next_run(input(&format!("{run}-next"), &history)).unwrap();
        check_history(messages(&next), &calls, &users);
        assert_eq!(
            next["forwardedProps"],
            json!({"x": 1}),
            "other fields pass through"
        );
        assert!(
            t.tool_messages().is_empty(),
            "turn {n}: the run carried every answer"
        );
    }
    let all = answers(messages(&next));
    assert_eq!(all["c1"]["content"], "ok");
    assert_eq!(all["c2"]["error"], "declined");
    assert_eq!(all["c3"]["error"], "boom");
    assert_eq!(all["b4"]["content"], "found");
    assert_eq!(all["b4"]["id"], "m-b4");
    // The call with no parent got a made-up assistant message of its own.
    let holder = messages(&next)
        .iter()
        .find(|m| m["toolCalls"][0]["id"] == "c4")
        .unwrap();
    assert_eq!(holder["id"], "c4:assistant");
    // Calls go where they happened: c1 after u1, before u2.
    let ids: Vec<&str> = messages(&next)
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(&ids[..4], ["u1", "a1", "m-c1", "u2"]);
}

#[test]
fn f6_feeding_the_output_back_adds_nothing() {
    let mut t = tracker();
    let first = t.next_run(input("r1", &[user("u1")])).unwrap();
    run_events(&mut t, "r1", &call_with_parent("c1", "confirm", "a1"));
    t.answer("c1", json!("ok"), "m1").unwrap();
    let mut history = messages(&first).clone();
    history.push(user("u2"));
    let once = t.next_run(input("r2", &history)).unwrap();
    feed(&mut t, &[run_started("r2"), run_finished("r2")]);
    let twice = t.next_run(once.clone()).unwrap();
    assert_eq!(twice, once);
    assert_eq!(messages(&once).len(), 4);
}

#[test]
fn f6_the_parent_message_in_the_input_gets_the_call_and_stray_answers_move() {
    let mut t = tracker();
    run_events(
        &mut t,
        "r1",
        &[&text("a1")[..], &call_with_parent("c1", "confirm", "a1")].concat(),
    );
    t.answer("c1", json!("ok"), "m1").unwrap();
    let a1 = json!({"id": "a1", "role": "assistant", "content": "hi"});
    // The app put the answer before the message and twice: one is kept, after a1.
    let answer = json!({"id": "m1", "role": "tool", "toolCallId": "c1", "content": "ok"});
    let other = json!({"id": "m9", "role": "tool", "toolCallId": "c1", "content": "again"});
    let next = t
        .next_run(input("r2", &[user("u1"), answer, a1, other, user("u2")]))
        .unwrap();
    let out = messages(&next);
    let ids: Vec<&str> = out.iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["u1", "a1", "m1", "u2"]);
    assert_eq!(out[1]["content"], "hi");
    assert_eq!(
        out[1]["toolCalls"][0]["function"]["arguments"],
        r#"{"service":"checkout"}"#
    );
}

#[test]
fn f6_refuses_naming_each_unanswered_call_and_changes_nothing() {
    let mut t = tracker();
    run_events(
        &mut t,
        "r1",
        &[
            &whole_call("c1", "confirm", "{}")[..],
            &whole_call("c2", "confirm", "{}"),
        ]
        .concat(),
    );
    let before = state_of(&t);
    let err = t.next_run(input("r2", &[user("u1")])).unwrap_err();
    assert!(matches!(err, ApplicationError::Unanswered(ref c) if c.len() == 2));
    let text = err.to_string();
    assert!(
        text.contains("c1 (confirm)") && text.contains("c2 (confirm)"),
        "{text}"
    );
    assert_eq!(state_of(&t), before);
}

#[test]
fn f6_a_malformed_input_names_the_field() {
    let mut t = tracker();
    let err = t
        .next_run(json!({"threadId": "t", "runId": "r", "messages": [{"id": "x"}]}))
        .unwrap_err();
    assert!(err.to_string().contains("messages[0].role"), "{err}");
    let err = t.next_run(json!({"messages": 3})).unwrap_err();
    assert!(err.to_string().contains("\"messages\""), "{err}");
}

#[test]
fn f6_next_run_declares_the_run_like_start_run() {
    let mut t = tracker();
    let tools = json!([{"name": "pick", "description": "", "parameters": {}}]);
    let mut i = input("r1", &[user("u1")]);
    i["tools"] = tools;
    t.next_run(i).unwrap();
    feed(&mut t, &[run_started("r1")]);
    feed(&mut t, &whole_call("p1", "pick", "{}"));
    assert!(t.call("p1").unwrap().advertised);
    // While the run is active, no next run.
    assert_eq!(
        t.next_run(input("r2", &[])).unwrap_err(),
        ApplicationError::RunActive
    );
}

#[test]
fn l5_abort_run_mid_call_abandons_it_and_the_thread_goes_on() {
    let mut t = tracker();
    t.next_run(input("r1", &[user("u1")])).unwrap();
    feed(
        &mut t,
        &[
            run_started("r1"),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "confirm", "parentMessageId": "a1"}),
            args("c1", r#"{"serv"#),
        ],
    );
    t.abort_run(Some("stopped by the user")).unwrap();
    assert_eq!(t.run().status, RunStatus::Aborted);
    assert_eq!(t.run().error.as_ref().unwrap().0, "stopped by the user");
    assert_eq!(t.call("c1").unwrap().status, CallStatus::Abandoned);
    // A late event of the aborted run is refused; no state was lost.
    let mut late = t.clone();
    assert_eq!(fatal_code(&mut late, args("c1", "x")), "L3");
    // The abandoned call is left out when the input does not hold it...
    let next = t.next_run(input("r2", &[user("u1"), user("u2")])).unwrap();
    assert_eq!(messages(&next).len(), 2);
    feed(&mut t, &[run_started("r2")]);
    feed(&mut t, &whole_call("c2", "confirm", "{}"));
    feed(&mut t, &[run_finished("r2")]);
    assert!(t.call("c2").unwrap().pending);
}

#[test]
fn l5_an_abandoned_call_the_input_holds_is_closed() {
    let mut t = tracker();
    feed(
        &mut t,
        &[
            run_started("r1"),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "confirm", "parentMessageId": "a1"}),
        ],
    );
    t.abort_run(None).unwrap();
    assert_eq!(t.run().error, None);
    // As `agent.messages` holds it: the half-streamed call, no answer.
    let a1 = json!({"id": "a1", "role": "assistant", "toolCalls": [
        {"id": "c1", "type": "function", "function": {"name": "confirm", "arguments": ""}}]});
    let next = t
        .next_run(input("r2", &[user("u1"), a1, user("u2")]))
        .unwrap();
    check_history(messages(&next), &["c1"], &["u1", "u2"]);
    let closing = &messages(&next)[2];
    assert_eq!(closing["id"], "c1:closed");
    assert_eq!(closing["content"], ABANDONED_CONTENT);
    assert_eq!(closing["error"], "abandoned");
}

#[test]
fn l5_abort_with_nothing_running_changes_nothing() {
    let mut t = tracker();
    let version = t.version();
    t.abort_run(Some("x")).unwrap();
    assert_eq!(t.version(), version);
    assert_eq!(t.run().status, RunStatus::Idle);
}

#[test]
fn f6_calls_without_parent_share_one_message_per_run() {
    let mut t = tracker();
    t.next_run(input("r1", &[user("u1")])).unwrap();
    run_events(
        &mut t,
        "r1",
        &[
            &whole_call("c1", "confirm", "{}")[..],
            &whole_call("c2", "confirm", "{}"),
        ]
        .concat(),
    );
    t.answer("c1", json!("a"), "m1").unwrap();
    t.answer("c2", json!("b"), "m2").unwrap();
    let next = t.next_run(input("r2", &[user("u1"), user("u2")])).unwrap();
    let ids: Vec<&str> = messages(&next)
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["u1", "c1:assistant", "m1", "m2", "u2"]);
}
