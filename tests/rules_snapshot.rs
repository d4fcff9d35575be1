//! What snapshots are built from: change tracking (N1), contents (N2),
//! order (N3).

use crate::common::*;
use agui_tool_calls::{CallStatus, RunStatus};
use serde_json::json;

#[test]
fn n1_unchanged_tracker_reports_no_changes_and_keeps_its_version() {
    let mut t = running();
    feed(&mut t, &whole_call("a", "f", "{}"));
    t.take_changes();
    let version = t.version();
    // Events that change nothing a snapshot shows.
    feed(
        &mut t,
        &[
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "x"}),
            json!({"type": "RAW", "event": 1}),
        ],
    );
    assert!(t.take_changes().is_empty());
    assert_eq!(t.version(), version);
}

#[test]
fn n1_a_delta_that_adds_no_text_leaves_the_call_unchanged() {
    let mut t = running();
    feed(&mut t, &[start("a", "f"), args("a", "{\"s\":\"")]);
    t.take_changes();
    // Empty, then a lone high surrogate (as a JS producer cutting by UTF-16
    // units sends it), held until its pair arrives.
    feed(&mut t, &[args("a", "")]);
    let high = r#"{"type":"TOOL_CALL_ARGS","toolCallId":"a","delta":"\ud83d"}"#;
    t.push_json(high).unwrap();
    assert!(t.take_changes().calls.is_empty());
    let low = r#"{"type":"TOOL_CALL_ARGS","toolCallId":"a","delta":"\ude00"}"#;
    t.push_json(low).unwrap();
    assert_eq!(t.take_changes().calls.len(), 1);
    assert_eq!(t.calls()[0].args_text(), "{\"s\":\"\u{1F600}");
}

#[test]
fn n1_only_changed_calls_are_listed_with_only_their_new_text() {
    let mut t = running();
    feed(
        &mut t,
        &[
            start("a", "f"),
            args("a", "{\"x\":"),
            start("b", "g"),
            args("b", "["),
        ],
    );
    let first = t.take_changes();
    assert_eq!(
        first
            .calls
            .iter()
            .map(|c| (c.index, c.text_from))
            .collect::<Vec<_>>(),
        [(0, 0), (1, 0)]
    );
    let v0 = t.version();
    feed(&mut t, &[args("b", "1"), args("b", ",2"), args("a", "1}")]);
    assert!(t.version() > v0);
    let next = t.take_changes();
    // Change order: b changed first.
    let got: Vec<_> = next
        .calls
        .iter()
        .map(|c| {
            (
                t.calls()[c.index].id.as_str(),
                &t.calls()[c.index].args_text()[c.text_from..],
            )
        })
        .collect();
    assert_eq!(got, [("b", "1,2"), ("a", "1}")]);
    assert!(!next.run);
    // Reopened text keeps growing from where it was taken (T7).
    feed(&mut t, &[end("a"), start("a", "f")]);
    let c = t.take_changes();
    assert_eq!(c.calls[0].text_from, t.call("a").unwrap().args_text().len());
}

#[test]
fn n1_violations_and_fatal_are_reported_once() {
    let mut t = running();
    t.take_changes();
    feed(&mut t, &[result("m", "ghost", "x")]);
    let c = t.take_changes();
    assert_eq!(c.violations, 0..1);
    assert_eq!(c.unmatched_results, 0..1);
    let _ = push(&mut t, end("nope"));
    let c = t.take_changes();
    assert!(c.fatal);
    assert_eq!(c.violations, 1..2);
    let _ = push(&mut t, end("nope"));
    assert!(t.take_changes().is_empty());
}

#[test]
fn n2_state_shows_run_open_complete_pending_results_violations_fatal() {
    let mut t = running();
    feed(&mut t, &whole_call("done", "f", "{}"));
    feed(&mut t, &[result("m1", "done", "ok")]);
    feed(&mut t, &whole_call("left", "g", "{}"));
    feed(&mut t, &[start("open", "h")]);
    assert_eq!(t.run().status, RunStatus::Running);
    assert_eq!(t.call("open").unwrap().status, CallStatus::Open);
    assert_eq!(t.call("done").unwrap().results.len(), 1);
    feed(
        &mut t,
        &[end("open"), result("m2", "open", "r"), run_finished("r1")],
    );
    assert_eq!(
        t.pending_calls().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["left"]
    );
    assert_eq!(codes(&t), ["F7"]);
    assert_eq!(t.run().status, RunStatus::Finished);
    let v = push(&mut t, start("x", "f")).unwrap_err();
    assert_eq!(t.fatal(), Some(&v));
    assert_eq!(t.violations().last(), Some(&v));
}

#[test]
fn n3_calls_are_listed_in_first_start_order() {
    let mut t = running();
    feed(&mut t, &whole_call("z", "f", "{}"));
    feed(&mut t, &whole_call("a", "f", "{}"));
    feed(&mut t, &[start("z", "f"), end("z")]);
    feed(&mut t, &whole_call("m", "f", "{}"));
    let ids: Vec<_> = t.calls().iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["z", "a", "m"]);
    assert_eq!(t.call_index("m"), Some(2));
}

#[test]
fn n1_appended_text_alone_is_reported_as_text_only() {
    let mut t = running();
    feed(&mut t, &[start("a", "f"), args("a", "{\"x\":")]);
    assert!(
        !t.take_changes().calls[0].text_only,
        "a new call is more than text"
    );
    feed(&mut t, &[args("a", "1"), args("a", ",\"y\":2")]);
    let changes = t.take_changes();
    assert_eq!(changes.calls.len(), 1);
    assert!(changes.calls[0].text_only);
    feed(&mut t, &[args("a", "}"), end("a")]);
    assert!(
        !t.take_changes().calls[0].text_only,
        "closing changes the status"
    );
}
