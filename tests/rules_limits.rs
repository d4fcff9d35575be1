//! Rule S5: the bounds that keep a hostile stream from exhausting memory
//! (`docs/limits.md`): event size, the thread's retained bytes, ids and
//! names, message ids, chunk lanes.

use crate::common::*;
use agui_tool_calls::{ApplicationError, Limits, Options, Severity, Tracker, Violation};
use serde_json::json;

fn with_limits(limits: Limits) -> Tracker {
    running_with(Options {
        limits,
        ..Options::default()
    })
}

/// A fatal S5 whose message names the limit's option.
fn assert_s5(v: &Violation, option: &str) {
    assert_eq!((v.code, v.severity), ("S5", Severity::Fatal), "{v}");
    assert!(v.message.contains(option), "{v}");
}

const RUN: &[u8] = b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n";

fn sse_with_event_limit(limit: usize) -> Tracker {
    let limits = Limits {
        max_event_bytes: limit,
        ..Limits::default()
    };
    let mut t = Tracker::new(Options {
        limits,
        ..Options::default()
    });
    t.push_sse(RUN).unwrap();
    t
}

#[test]
fn s5_an_event_stream_line_without_end_is_fatal_at_the_event_limit() {
    for head in ["data: ", ": a comment ", "event: "] {
        let mut t = sse_with_event_limit(1024);
        t.push_sse(head.as_bytes()).unwrap();
        let chunk = [b'a'; 100];
        let mut refused = None;
        for _ in 0..1000 {
            if let Err(v) = t.push_sse(&chunk) {
                refused = Some(v);
                break;
            }
        }
        let v = refused.expect("the line is refused");
        assert_s5(&v, "limits.maxEventBytes");
        assert!(v.message.contains("event-stream line"), "{v}");
        assert_eq!(v.event_index, 1, "{head}");
        // The state before stays readable; later input gets the same error.
        assert_eq!(t.run().run_id.as_deref(), Some("r"));
        assert_eq!(t.push_sse(b"\n\n"), Err(v));
    }
}

#[test]
fn s5_an_event_limit_of_zero_still_bounds_an_event_stream_line() {
    // 0 admits no event at all; the decoder must not read it as "no
    // limit" and hold an endless line.
    let limits = Limits {
        max_event_bytes: 0,
        ..Limits::default()
    };
    let mut t = Tracker::new(Options {
        limits,
        ..Options::default()
    });
    let v = (0..1000)
        .find_map(|_| t.push_sse(&[b'a'; 100]).err())
        .expect("the line is refused");
    assert_s5(&v, "limits.maxEventBytes");
    assert_eq!(v.event_index, 0);
}

#[test]
fn s5_data_lines_without_a_blank_line_are_fatal_at_the_event_limit() {
    let mut t = sse_with_event_limit(1024);
    let v = (0..1000)
        .find_map(|_| t.push_sse(b"data: aaaaaaaaaaaaaaaa\n").err())
        .expect("the event is refused");
    assert_s5(&v, "limits.maxEventBytes");
}

#[test]
fn s5_event_stream_events_up_to_the_limit_are_read() {
    let event = json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"});
    let line = format!("data: {event}");
    let mut t = sse_with_event_limit(line.len());
    t.push_sse(format!("{line}\n\n").as_bytes()).unwrap();
    assert_eq!(t.calls().len(), 1);
}

#[test]
fn s5_json_text_longer_than_the_event_limit_is_fatal() {
    let limits = Limits {
        max_event_bytes: 64,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    let long = args("c", &"x".repeat(64)).to_string();
    let v = t.push_json(&long).unwrap_err();
    assert_s5(&v, "limits.maxEventBytes");
    assert_eq!(v.event_index, 1);
}

#[test]
fn s5_many_calls_with_large_arguments_stop_at_the_thread_budget() {
    let limits = Limits {
        max_thread_bytes: 256 * 1024,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    let text = format!("[\"{}\"]", "x".repeat(16 * 1024));
    let mut refused = None;
    for i in 0..100 {
        let id = format!("c{i}");
        if let Some(v) = whole_call(&id, "f", &text)
            .into_iter()
            .find_map(|e| push(&mut t, e).err())
        {
            refused = Some((i, v));
            break;
        }
    }
    let (i, v) = refused.expect("the thread budget stops the stream");
    assert_s5(&v, "limits.maxThreadBytes");
    assert_eq!(v.tool_call_id.as_deref(), Some(format!("c{i}").as_str()));
    // Each call keeps its text, and no parsed value: about 16 KiB.
    assert!((14..17).contains(&i), "stopped at call {i}");
    assert!(t.retained_bytes() <= 256 * 1024);
    assert_eq!(t.call("c0").unwrap().args_text(), text);
}

#[test]
fn s5_complete_arguments_are_kept_and_charged_as_their_text_alone() {
    // 4 KiB of `0,` would parse into 2048 values, far more than 4 KiB of
    // memory: the tracker keeps the text, and no value, so the end of the
    // call keeps nothing more and passes a budget the text nearly spends.
    let text = format!("[{}0]", "0,".repeat(2047));
    let mut t = with_limits(Limits::default());
    feed(&mut t, &[start("c", "f"), args("c", &text)]);
    let open = t.retained_bytes();
    assert!(open > text.len());
    let limits = Limits {
        max_thread_bytes: open,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    feed(&mut t, &[start("c", "f"), args("c", &text), end("c")]);
    assert_eq!(t.retained_bytes(), open);
    let call = t.call("c").unwrap();
    assert_eq!(
        call.arguments().unwrap().unwrap().as_array().unwrap().len(),
        2048
    );
    // One byte of text more is over it.
    let mut t = with_limits(limits);
    feed(&mut t, &[start("c", "f")]);
    let v = push(&mut t, args("c", &format!(" {text}"))).unwrap_err();
    assert_s5(&v, "limits.maxThreadBytes");
}

#[test]
fn s5_results_count_towards_the_thread_budget_and_repeated_warnings_do_not() {
    let limits = Limits {
        max_thread_bytes: 64 * 1024,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    feed(&mut t, &whole_call("c", "f", "{}"));
    let content = "r".repeat(8 * 1024);
    let v = (0..100)
        .find_map(|i| push(&mut t, result(&format!("m{i}"), "c", &content)).err())
        .expect("results are bounded");
    assert_s5(&v, "limits.maxThreadBytes");

    // Warnings are bounded by their log, not the budget: repeats of one are
    // one entry with a count, so they spend nothing.
    let mut t = with_limits(limits);
    for _ in 0..10_000 {
        push(&mut t, json!({"type": "NO_SUCH_EVENT"})).unwrap();
    }
    assert_eq!(t.violations().len(), 1);
    assert_eq!(t.violations()[0].count, 10_000);
}

#[test]
fn s5_events_that_retain_nothing_pass_a_spent_budget() {
    let limits = Limits {
        max_thread_bytes: 4 * 1024,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    feed(&mut t, &[start("c", "f")]);
    let v = push(&mut t, args("c", &"x".repeat(8 * 1024))).unwrap_err();
    assert_s5(&v, "limits.maxThreadBytes");
    let mut t = with_limits(limits);
    feed(&mut t, &[start("c", "f"), args("c", &"x".repeat(3 * 1024))]);
    // An end of text that parses to nothing, a finished run: nothing kept.
    feed(&mut t, &[end("c"), run_finished("r1")]);
}

#[test]
fn s5_the_applications_answer_over_the_budget_is_refused() {
    let limits = Limits {
        max_thread_bytes: 8 * 1024,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    feed(&mut t, &[start("c", "f"), end("c"), run_finished("r1")]);
    let before = state_of(&t);
    let err = t
        .answer("c", json!("a".repeat(16 * 1024)), "m1")
        .unwrap_err();
    assert!(matches!(&err, ApplicationError::Limit(m) if m.contains("limits.maxThreadBytes")));
    assert_eq!(state_of(&t), before);
    t.answer("c", json!("short"), "m1").unwrap();
}

#[test]
fn s5_an_id_or_name_longer_than_the_limit_is_fatal() {
    let limits = Limits {
        max_id_bytes: 16,
        ..Limits::default()
    };
    let long = "i".repeat(17);
    let cases = [
        ("toolCallId", start(&long, "f")),
        ("toolCallName", start("c", &long)),
        (
            "messageId",
            json!({"type": "TEXT_MESSAGE_START", "messageId": long, "role": "assistant"}),
        ),
        ("subagentRunId", by(&long, start("c", "f"))),
        ("messageId", result(&long, "c", "x")),
        (
            "messages[].toolCalls[].id",
            json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "m", "role": "assistant",
                "toolCalls": [{"id": long, "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}),
        ),
    ];
    for (field, event) in cases {
        let mut t = with_limits(limits);
        let v = push(&mut t, event).unwrap_err();
        assert_s5(&v, "limits.maxIdBytes");
        assert!(v.message.contains(field), "{field}: {v}");
        assert!(!v.message.contains(&long), "the id is shown cut: {v}");
    }
    let mut t = Tracker::new(Options {
        limits,
        ..Options::default()
    });
    let v = push(
        &mut t,
        json!({"type": "RUN_STARTED", "threadId": long, "runId": "r"}),
    );
    assert_s5(&v.unwrap_err(), "threadId");
    // A tool's name in the run input, from the stream or the application.
    let tools = json!([{"name": "f", "parameters": {}}, {"name": long, "parameters": {}}]);
    let input = json!({"threadId": "t", "runId": "r", "messages": [], "tools": tools});
    let mut t = Tracker::new(Options {
        limits,
        ..Options::default()
    });
    let v = push(
        &mut t,
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": input}),
    )
    .unwrap_err();
    assert_s5(&v, "limits.maxIdBytes");
    assert!(v.message.contains("input.tools[].name of 17 bytes"), "{v}");
    let err = Tracker::new(Options {
        limits,
        ..Options::default()
    })
    .start_run_json(&input.to_string())
    .unwrap_err();
    assert!(
        matches!(&err, ApplicationError::Limit(m) if m.contains("input.tools[].name")),
        "{err:?}"
    );
    // At the limit exactly: accepted.
    let mut t = with_limits(limits);
    feed(&mut t, &whole_call(&"i".repeat(16), "f", "{}"));
}

#[test]
fn s5_one_message_id_more_than_the_limit_is_fatal() {
    let limits = Limits {
        max_messages: 3,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    let text_start =
        |m: &str| json!({"type": "TEXT_MESSAGE_START", "messageId": m, "role": "assistant"});
    feed(&mut t, &whole_call("c", "f", "{}"));
    feed(&mut t, &[text_start("m1"), result("m2", "c", "ok")]);
    // Known ids do not count again.
    feed(&mut t, &[text_start("m1"), text_start("m3")]);
    let v = push(&mut t, text_start("m4")).unwrap_err();
    assert_s5(&v, "limits.maxMessages");
    assert_eq!(v.event_index, 8);
}

#[test]
fn s5_one_chunk_lane_more_than_the_limit_is_fatal() {
    let limits = Limits {
        max_lanes: 2,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    let chunk = |owner: &str, id: &str| {
        by(
            owner,
            json!({"type": "TOOL_CALL_CHUNK", "toolCallId": id, "toolCallName": "f", "delta": "{"}),
        )
    };
    feed(&mut t, &[chunk("s1", "a"), chunk("s2", "b")]);
    // A lane that is open already does not count again.
    feed(&mut t, &[chunk("s1", "c")]);
    let v = push(&mut t, chunk("s3", "d")).unwrap_err();
    assert_s5(&v, "limits.maxLanes");
    assert_eq!(t.calls().len(), 3);
}

#[test]
fn s5_a_realistic_thread_meets_no_default_limit() {
    // 40 runs of 10 calls each: 2 KiB of arguments, a 16 KiB result, a
    // text message; 400 calls, 800 messages, 7 MiB of results.
    let mut t = Tracker::new(Options::default());
    let text = format!("{{\"query\":\"{}\"}}", "q".repeat(2048));
    let content = "r".repeat(16 * 1024);
    for run in 0..40 {
        let run_id = format!("r{run}");
        feed(&mut t, &[run_started(&run_id)]);
        for i in 0..10 {
            let id = format!("c{run}_{i}");
            feed(&mut t, &whole_call(&id, "search", &text));
            feed(&mut t, &[result(&format!("m{run}_{i}"), &id, &content)]);
            let m = json!({"type": "TEXT_MESSAGE_START", "messageId": format!("t{run}_{i}"), "role": "assistant"});
            feed(&mut t, &[m]);
        }
        feed(&mut t, &[run_finished(&run_id)]);
    }
    assert!(t.fatal().is_none());
    assert!(codes(&t).iter().all(|&c| c != "S5"));
    let retained = t.retained_bytes();
    assert!(
        retained < Limits::default().max_thread_bytes / 4,
        "{retained}"
    );
}

/// `TOOL_CALL_ARGS` for call `c`, the delta given as the inside of a JSON
/// string literal (lone surrogate escapes as written: `serde_json` cannot
/// hold one in a value).
fn args_literal(literal: &str) -> String {
    format!(r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{literal}"}}"#)
}

/// Pushes `"` and a high surrogate, then `pairs` deltas each of a low
/// surrogate and a high one, to call `c` of a tracker with a 4 KiB thread
/// budget: each delta completes a character of 4 bytes though its own text
/// is empty. The index of the refused event and the tracker.
fn cut_pairs(first: &str, then: &str, pairs: usize) -> (Option<usize>, Tracker) {
    let limits = Limits {
        max_thread_bytes: 4096,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    feed(&mut t, &[start("c", "f")]);
    let refused = std::iter::once(first)
        .chain(std::iter::repeat_n(then, pairs))
        .find_map(|d| t.push_json(&args_literal(d)).err())
        .map(|v| {
            assert_s5(&v, "limits.maxThreadBytes");
            assert_eq!(v.tool_call_id.as_deref(), Some("c"));
            v.event_index
        });
    (refused, t)
}

#[test]
fn s5_surrogate_pairs_rejoined_across_deltas_are_charged_as_kept() {
    // Unbounded, the 5,000 deltas keep 20,001 bytes.
    let mut t = running();
    feed(&mut t, &[start("c", "f")]);
    t.push_json(&args_literal(r#"\"\ud83d"#)).unwrap();
    for _ in 0..5000 {
        t.push_json(&args_literal(r"\ude00\ud83d")).unwrap();
    }
    assert_eq!(t.call("c").unwrap().args_text().len(), 20_001);
    // Within 4 KiB they are stopped where deltas of plain 4-byte
    // characters are, and the budget holds all that is kept.
    let (refused, t) = cut_pairs(r#"\"\ud83d"#, r"\ude00\ud83d", 5000);
    let (plain, _) = cut_pairs(r#"\""#, "😀", 5000);
    assert!(refused.is_some());
    assert_eq!(refused, plain);
    let kept = t.call("c").unwrap().args_text().len();
    assert!((3000..4096).contains(&kept), "{kept}");
    assert!(t.retained_bytes() >= kept && t.retained_bytes() <= 4096);
}

#[test]
fn s5_the_replacement_for_a_half_left_alone_is_charged() {
    // A low half with no high one before it, and a high one the end
    // finds still waiting: U+FFFD each, 3 bytes the deltas' text lacks.
    let mut t = running();
    feed(&mut t, &[start("c", "f")]);
    let before = t.retained_bytes();
    t.push_json(&args_literal(r"\ude00")).unwrap();
    assert_eq!(t.retained_bytes() - before, 3);
    t.push_json(&args_literal(r"\ud83d")).unwrap();
    assert_eq!(t.retained_bytes() - before, 3);
    feed(&mut t, &[end("c")]);
    assert_eq!(t.call("c").unwrap().args_text(), "\u{FFFD}\u{FFFD}");
    assert_eq!(t.retained_bytes() - before, 6);
    // With the budget spent but for those bytes, the end is refused.
    let limits = Limits {
        max_thread_bytes: before + 5,
        ..Limits::default()
    };
    let mut t = with_limits(limits);
    feed(&mut t, &[start("c", "f")]);
    t.push_json(&args_literal(r"\ude00\ud83d")).unwrap();
    let v = push(&mut t, end("c")).unwrap_err();
    assert_s5(&v, "limits.maxThreadBytes");
}
