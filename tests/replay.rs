//! A realistic two-run stream replayed end to end: a backend call answered
//! in-stream, two subagents streaming interleaved chunks, a frontend call
//! left pending and answered by the next run's input, and a reopen.

use agui_tool_calls::events::Tool;
use agui_tool_calls::{CallStatus, Options, Outcome, ResultSource, RunStatus, Tracker};
use serde_json::json;

const STREAM: &str = r#"
{"type":"RUN_STARTED","threadId":"th","runId":"r1","input":{"threadId":"th","runId":"r1","messages":[{"id":"u1","role":"user","content":"Plan a trip"}],"tools":[{"name":"confirm_booking","description":"Ask the user","parameters":{"type":"object"}}],"state":{},"context":[],"forwardedProps":{}}}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Searching."}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"TOOL_CALL_START","toolCallId":"search","toolCallName":"web_search","parentMessageId":"m1"}
{"type":"TOOL_CALL_ARGS","toolCallId":"search","delta":"{\"q\":"}
{"type":"TOOL_CALL_ARGS","toolCallId":"search","delta":"\"Lisbon"}
{"type":"TOOL_CALL_ARGS","toolCallId":"search","delta":"\"}"}
{"type":"TOOL_CALL_END","toolCallId":"search"}
{"type":"TOOL_CALL_RESULT","messageId":"tr1","toolCallId":"search","content":"3 results","role":"tool"}
{"type":"SUBAGENT_STARTED","subagentRunId":"flights","name":"flights"}
{"type":"SUBAGENT_STARTED","subagentRunId":"hotels","name":"hotels"}
{"type":"TEXT_MESSAGE_CHUNK","subagentRunId":"flights","messageId":"mf","role":"assistant","delta":"Looking"}
{"type":"TEXT_MESSAGE_CHUNK","subagentRunId":"hotels","messageId":"mh","role":"assistant","delta":"Looking"}
{"type":"TOOL_CALL_CHUNK","subagentRunId":"flights","toolCallId":"f1","toolCallName":"find_flights","parentMessageId":"mf","delta":"{\"to\":"}
{"type":"TOOL_CALL_CHUNK","subagentRunId":"hotels","toolCallId":"h1","toolCallName":"find_hotels","parentMessageId":"mh","delta":"{\"city\""}
{"type":"TOOL_CALL_CHUNK","subagentRunId":"flights","delta":"\"LIS\""}
{"type":"TOOL_CALL_CHUNK","subagentRunId":"hotels","toolCallId":"h1","delta":":\"Lisbon\"}"}
{"type":"TOOL_CALL_CHUNK","subagentRunId":"flights","toolCallId":"f1","delta":"}"}
{"type":"TOOL_CALL_CHUNK","subagentRunId":"hotels","toolCallId":"h2","toolCallName":"hotel_prices","parentMessageId":"mh","delta":"{\"n\":2}"}
{"type":"SUBAGENT_FINISHED","subagentRunId":"flights"}
{"type":"TOOL_CALL_RESULT","messageId":"tf1","toolCallId":"f1","content":[{"type":"text","text":"TP123"}],"subagentRunId":"flights"}
{"type":"SUBAGENT_FINISHED","subagentRunId":"hotels"}
{"type":"TOOL_CALL_RESULT","messageId":"th1","toolCallId":"h1","content":"Hotel A","subagentRunId":"hotels"}
{"type":"TOOL_CALL_RESULT","messageId":"th2","toolCallId":"h2","content":"120 EUR","subagentRunId":"hotels"}
{"type":"STEP_STARTED","stepName":"confirm"}
{"type":"TOOL_CALL_START","toolCallId":"confirm","toolCallName":"confirm_booking","parentMessageId":"m2"}
{"type":"TOOL_CALL_ARGS","toolCallId":"confirm","delta":"{\"flight\":\"TP123\",\"hotel\":\"Hotel A\"}"}
{"type":"TOOL_CALL_END","toolCallId":"confirm"}
{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"success","pendingToolCallIds":["confirm"]}}
{"type":"RUN_STARTED","threadId":"th","runId":"r2","input":{"threadId":"th","runId":"r2","messages":[{"id":"m2","role":"assistant","toolCalls":[{"id":"confirm","type":"function","function":{"name":"confirm_booking","arguments":"{\"flight\":\"TP123\",\"hotel\":\"Hotel A\"}"}}]},{"id":"tc","role":"tool","toolCallId":"confirm","content":"approved"}],"tools":[{"name":"confirm_booking","description":"Ask the user","parameters":{"type":"object"}}]}}
{"type":"TOOL_CALL_START","toolCallId":"note","toolCallName":"save_note","parentMessageId":"m3"}
{"type":"TOOL_CALL_ARGS","toolCallId":"note","delta":"{\"text\":\"Bon"}
{"type":"TOOL_CALL_END","toolCallId":"note"}
{"type":"TOOL_CALL_START","toolCallId":"note","toolCallName":"save_note","parentMessageId":"m3"}
{"type":"TOOL_CALL_ARGS","toolCallId":"note","delta":" voyage\"}"}
{"type":"TOOL_CALL_END","toolCallId":"note"}
{"type":"RUN_FINISHED","threadId":"th","runId":"r2"}
"#;

fn replay(options: Options) -> Tracker {
    let mut t = Tracker::new(options);
    for (i, line) in STREAM.lines().filter(|l| !l.is_empty()).enumerate() {
        if let Err(v) = t.push_json(line) {
            panic!("event {i} refused: {v}");
        }
    }
    t
}

#[test]
#[allow(clippy::too_many_lines)] // the whole final state of one stream, checked in one place
fn replay_of_a_multi_run_stream_gives_the_whole_final_state() {
    let t = replay(Options::default());

    let run = t.run();
    assert_eq!(run.status, RunStatus::Finished);
    assert_eq!(
        (run.thread_id.as_deref(), run.run_id.as_deref()),
        (Some("th"), Some("r2"))
    );
    assert_eq!(run.runs_started, 2);
    assert_eq!(run.outcome, None);

    type Row<'a> = (
        &'a str,
        &'a str,
        Option<&'a str>,
        Option<&'a str>,
        CallStatus,
        &'a str,
        u32,
        bool,
        bool,
    );
    let rows: Vec<Row> = t
        .calls()
        .iter()
        .map(|c| {
            (
                c.id.as_str(),
                c.name.as_str(),
                c.owner.as_deref(),
                c.run_id.as_deref(),
                c.status,
                c.args_text(),
                c.reopen_count,
                c.pending,
                c.advertised,
            )
        })
        .collect();
    let complete = CallStatus::Complete;
    assert_eq!(
        rows,
        [
            (
                "search",
                "web_search",
                None,
                Some("r1"),
                complete,
                r#"{"q":"Lisbon"}"#,
                0,
                false,
                false
            ),
            (
                "f1",
                "find_flights",
                Some("flights"),
                Some("r1"),
                complete,
                r#"{"to":"LIS"}"#,
                0,
                false,
                false
            ),
            (
                "h1",
                "find_hotels",
                Some("hotels"),
                Some("r1"),
                complete,
                r#"{"city":"Lisbon"}"#,
                0,
                false,
                false
            ),
            (
                "h2",
                "hotel_prices",
                Some("hotels"),
                Some("r1"),
                complete,
                r#"{"n":2}"#,
                0,
                false,
                false
            ),
            (
                "confirm",
                "confirm_booking",
                None,
                Some("r1"),
                complete,
                r#"{"flight":"TP123","hotel":"Hotel A"}"#,
                0,
                false,
                true
            ),
            (
                "note",
                "save_note",
                None,
                Some("r2"),
                complete,
                r#"{"text":"Bon voyage"}"#,
                1,
                true,
                false
            ),
        ]
    );

    // Every call parsed at its end.
    for c in t.calls() {
        assert!(c.arguments().unwrap().is_ok(), "{}", c.id);
    }
    assert_eq!(
        t.call("note")
            .unwrap()
            .arguments()
            .unwrap()
            .as_ref()
            .unwrap(),
        &json!({"text": "Bon voyage"})
    );

    // Results: streamed with their attribution; the frontend call answered by history.
    let answers: Vec<(&str, &str, Option<&str>, ResultSource)> = t
        .calls()
        .iter()
        .flat_map(|c| {
            c.results.iter().map(move |r| {
                (
                    c.id.as_str(),
                    r.message_id.as_str(),
                    r.owner.as_deref(),
                    r.source,
                )
            })
        })
        .collect();
    assert_eq!(
        answers,
        [
            ("search", "tr1", None, ResultSource::Stream),
            ("f1", "tf1", Some("flights"), ResultSource::Stream),
            ("h1", "th1", Some("hotels"), ResultSource::Stream),
            ("h2", "th2", Some("hotels"), ResultSource::Stream),
            ("confirm", "tc", None, ResultSource::History),
        ]
    );
    assert_eq!(
        t.call("f1").unwrap().results[0].content,
        json!([{"type": "text", "text": "TP123"}])
    );

    // Only the unadvertised note is left, with its F7 warning.
    assert_eq!(
        t.pending_calls().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["note"]
    );
    let codes: Vec<_> = t
        .violations()
        .iter()
        .map(|v| (v.code, v.tool_call_id.as_deref()))
        .collect();
    assert_eq!(codes, [("F7", Some("note"))]);
    assert!(t.fatal().is_none());
    assert!(t.unmatched_results().is_empty());
}

#[test]
fn replay_pending_state_after_the_first_run() {
    let mut t = Tracker::new(Options {
        tools: vec![Tool::new("save_note", "", json!({}))],
        ..Options::default()
    });
    for line in STREAM.lines().filter(|l| !l.is_empty()).take(30) {
        t.push_json(line).unwrap();
    }
    assert_eq!(t.run().status, RunStatus::Finished);
    assert!(
        matches!(&t.run().outcome, Some(Outcome::Success { pending_tool_call_ids: Some(ids) }) if ids == &["confirm"])
    );
    assert_eq!(
        t.pending_calls().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["confirm"]
    );
    assert!(t.violations().is_empty(), "{:?}", t.violations());
}

#[test]
fn replay_is_identical_whatever_the_take_changes_rhythm() {
    let mut quiet = Tracker::new(Options::default());
    let mut busy = Tracker::new(Options::default());
    let mut texts = std::collections::HashMap::new();
    for line in STREAM.lines().filter(|l| !l.is_empty()) {
        quiet.push_json(line).unwrap();
        busy.push_json(line).unwrap();
        // Rebuild each call's text from the reported new parts only.
        for change in busy.take_changes().calls {
            let call = &busy.calls()[change.index];
            let text: &mut String = texts.entry(call.id.clone()).or_default();
            assert_eq!(text.len(), change.text_from);
            text.push_str(&call.args_text()[change.text_from..]);
        }
    }
    for call in quiet.calls() {
        assert_eq!(texts[&call.id], call.args_text());
    }
}
