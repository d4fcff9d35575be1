//! No input may panic, and a fatal event changes nothing (validate-then-apply).

use crate::common::state_of;
use agui_tool_calls::{Options, Tracker};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn pick<T: Clone + std::fmt::Debug + 'static>(items: &'static [T]) -> impl Strategy<Value = T> {
    proptest::sample::select(items)
}

fn opt(field: &str, value: Option<&str>, e: &mut Map<String, Value>) {
    if let Some(v) = value {
        e.insert(field.to_owned(), json!(v));
    }
}

/// One event from a small vocabulary, so sequences hit real interactions.
fn event() -> impl Strategy<Value = Value> {
    (
        0u8..17,
        pick(&[Some("a"), Some("b"), Some("c"), None]),
        pick(&[Some("f"), Some("g"), None]),
        pick(&[None, Some("s1"), Some("s2")]),
        pick(&[None, Some("m1"), Some("m2")]),
        pick(&["", "{", "\"x\":1", "}", "[1,", "\u{e9}"]),
    )
        .prop_map(|(kind, id, name, owner, parent, delta)| {
            let mut e = Map::new();
            let ty = match kind {
                0 => "RUN_STARTED",
                1 => "RUN_FINISHED",
                2 => "RUN_ERROR",
                3 | 4 => "TOOL_CALL_START",
                5 | 6 => "TOOL_CALL_ARGS",
                7 => "TOOL_CALL_END",
                8 | 9 => "TOOL_CALL_CHUNK",
                10 => "TOOL_CALL_RESULT",
                11 => "TEXT_MESSAGE_START",
                12 => "TEXT_MESSAGE_CHUNK",
                13 => "MESSAGES_SNAPSHOT",
                14 => "SUBAGENT_FINISHED",
                15 => "STEP_STARTED",
                _ => "SOMETHING_ELSE",
            };
            e.insert("type".into(), json!(ty));
            e.insert("threadId".into(), json!("t"));
            e.insert("runId".into(), json!(id.unwrap_or("r")));
            e.insert("message".into(), json!("m"));
            match ty {
                "TOOL_CALL_START" | "TOOL_CALL_ARGS" | "TOOL_CALL_END" | "TOOL_CALL_RESULT" => {
                    e.insert("toolCallId".into(), json!(id.unwrap_or("a")));
                    e.insert("toolCallName".into(), json!(name.unwrap_or("f")));
                    e.insert("delta".into(), json!(delta));
                    e.insert("messageId".into(), json!(parent.unwrap_or("m3")));
                    e.insert("content".into(), json!(delta));
                    opt("parentMessageId", parent, &mut e);
                }
                "TOOL_CALL_CHUNK" => {
                    opt("toolCallId", id, &mut e);
                    opt("toolCallName", name, &mut e);
                    opt("parentMessageId", parent, &mut e);
                    e.insert("delta".into(), json!(delta));
                }
                "TEXT_MESSAGE_START" => {
                    e.insert("messageId".into(), json!(parent.unwrap_or("m1")));
                }
                "TEXT_MESSAGE_CHUNK" => opt("messageId", parent, &mut e),
                "MESSAGES_SNAPSHOT" => {
                    e.insert(
                        "messages".into(),
                        json!([{"id": parent.unwrap_or("m1"), "role": "assistant", "toolCalls": [
                            {"id": id.unwrap_or("a"), "type": "function",
                             "function": {"name": name.unwrap_or("f"), "arguments": delta}}]},
                            {"id": "tm", "role": "tool", "toolCallId": id.unwrap_or("b"), "content": "x"}]),
                    );
                }
                "SUBAGENT_FINISHED" => {
                    e.insert("subagentRunId".into(), json!(owner.unwrap_or("s1")));
                }
                _ => {}
            }
            if let Some(o) = owner {
                e.insert("subagentRunId".into(), json!(o));
            }
            Value::Object(e)
        })
}

fn full_state(t: &Tracker) -> String {
    format!("{}|{:?}|{}", state_of(t), t.violations(), t.version())
}

fn check_sequence(fragment: bool, events: &[Value]) -> Result<(), TestCaseError> {
    let mut t = Tracker::new(Options {
        fragment,
        ..Options::default()
    });
    let mut texts: Vec<String> = Vec::new();
    for e in events {
        let before = state_of(&t);
        let was_fatal = t.fatal().cloned();
        let frozen = full_state(&t);
        match t.push_json(&e.to_string()) {
            Ok(()) => prop_assert!(was_fatal.is_none()),
            Err(v) => {
                // A rejected event leaves no half-applied change...
                prop_assert_eq!(state_of(&t), before);
                // ...and after a fatal, later pushes change nothing at all.
                if let Some(f) = was_fatal {
                    prop_assert_eq!(&v, &f);
                    prop_assert_eq!(full_state(&t), frozen);
                }
            }
        }
        for change in t.take_changes().calls {
            let text = t.calls()[change.index].args_text();
            texts.resize(t.calls().len(), String::new());
            prop_assert_eq!(texts[change.index].len(), change.text_from);
            texts[change.index].push_str(&text[change.text_from..]);
        }
    }
    for (i, call) in t.calls().iter().enumerate() {
        prop_assert_eq!(texts[i].as_str(), call.args_text());
    }
    Ok(())
}

/// Valid events of every kind the machine reads, for the byte mutations
/// of `arbitrary_bytes_never_panic` to start from (so some mutants still
/// parse and reach the machine).
const TEMPLATES: &[&str] = &[
    r#"{"type":"RUN_STARTED","threadId":"t","runId":"r2"}"#,
    r#"{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"f"}"#,
    r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\":[1,\"\\u00e9\"]"}"#,
    r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
    r#"{"type":"TOOL_CALL_CHUNK","toolCallId":"c3","toolCallName":"g","delta":"{}"}"#,
    r#"{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c1","content":[{"t":1}]}"#,
    r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m","role":"tool","toolCallId":"c1","content":"x"}]}"#,
    r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r1","outcome":{"type":"success"}}"#,
];

/// A fresh tracker with run `r1` started and call `c1` open, so each
/// generated input meets a machine with some state.
fn primed() -> Tracker {
    let mut t = Tracker::new(Options::default());
    t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r1"}"#)
        .unwrap();
    t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#)
        .unwrap();
    t
}

/// Pushes one generated input into a fresh primed tracker; whether it was
/// accepted. A refused input must leave the state as it was.
fn push_fresh(text: &str) -> Result<bool, TestCaseError> {
    let mut t = primed();
    let before = state_of(&t);
    let accepted = t.push_json(text).is_ok();
    if !accepted {
        prop_assert_eq!(state_of(&t), before);
    }
    let _ = t.take_changes();
    Ok(accepted)
}

/// Arbitrary bytes, or a template event with one byte replaced, inserted
/// or removed.
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..64),
        (pick(TEMPLATES), any::<usize>(), 0u8..3, any::<u8>()).prop_map(|(t, at, op, b)| {
            let mut bytes = t.as_bytes().to_vec();
            let at = at % bytes.len();
            match op {
                0 => bytes[at] = b,
                1 => bytes.insert(at, b),
                _ => {
                    bytes.remove(at);
                }
            }
            bytes
        }),
    ]
}

/// Runs `property` on `cases` generated inputs, each against a fresh
/// tracker; returns how many inputs the tracker accepted.
fn run_fresh<S: Strategy>(
    strategy: S,
    cases: u32,
    property: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) -> usize {
    let accepted = std::cell::Cell::new(0);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases,
        ..ProptestConfig::default()
    });
    let result = runner.run(&strategy, |input| {
        if property(input)? {
            accepted.set(accepted.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    accepted.get()
}

#[test]
fn arbitrary_bytes_never_panic() {
    let accepted = run_fresh(bytes(), 600, |bytes| {
        push_fresh(&String::from_utf8_lossy(&bytes))
    });
    // Each input meets a fresh tracker: some mutants must get past the
    // parser into the machine, or the property tests the parser alone.
    assert!(accepted >= 30, "only {accepted} of 600 inputs accepted");
}

#[test]
fn arbitrary_strings_never_panic() {
    let framing = pick(&[
        ("", ""),
        ("{\"type\":\"RUN_STARTED\",", ""),
        ("{\"type\":", ""),
        (
            "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"",
            "\"}",
        ),
        ("{\"type\":\"CUSTOM\",\"name\":\"", "\",\"value\":1}"),
    ]);
    let accepted = run_fresh(("\\PC{0,80}", framing), 600, |(text, (prefix, suffix))| {
        let framed = push_fresh(&format!("{prefix}{text}{suffix}"))?;
        let bare = push_fresh(&text)?;
        Ok(framed || bare)
    });
    assert!(accepted >= 30, "only {accepted} of 600 inputs accepted");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn well_formed_sequences_never_panic_and_fatal_freezes_state(
        fragment in any::<bool>(),
        events in proptest::collection::vec(event(), 0..40),
    ) {
        let mut all = vec![json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r0"})];
        all.extend(events);
        check_sequence(fragment, &all)?;
    }
}

#[test]
fn deep_nesting_is_no_stack_overflow() {
    // Valid JSON at any depth in a part the tracker does not read: skipped
    // without recursion (rule S4); see also `rules_opaque.rs`.
    let mut t = Tracker::new(Options::default());
    let deep = format!(
        "{{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"x\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    t.push_json(&deep).unwrap();
    // Unbalanced, it is malformed (E2), still without recursion.
    let mut t = Tracker::new(Options::default());
    let unbalanced = format!("{{\"type\":\"RUN_STARTED\",\"x\":{}", "[".repeat(100_000));
    assert_eq!(t.push_json(&unbalanced).unwrap_err().code, "E2");
    let mut t = Tracker::new(Options::default());
    t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#)
        .unwrap();
    t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}"#)
        .unwrap();
    let delta = serde_json::to_string(&"[".repeat(100_000)).unwrap();
    t.push_json(&format!(
        r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":{delta}}}"#
    ))
    .unwrap();
    t.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#)
        .unwrap();
    assert!(t.calls()[0].arguments().unwrap().is_err());
}
