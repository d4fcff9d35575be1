//! Property tests of the thread budget (rule S5): whatever the deltas,
//! the count of retained bytes is never less than the argument text the
//! tracker keeps. Deltas carry lone surrogates at every edge (a pair cut
//! between deltas is rejoined, a half alone becomes U+FFFD, one still held
//! at the end of the call becomes U+FFFD), through streamed calls, chunks,
//! ends, lane changes, run ends and errors, and reopenings.

use agui_tool_calls::args::{ArgsLimits, ArgsReader, Tail};
use agui_tool_calls::events::JsonStr;
use agui_tool_calls::{CallStatus, Limits, Options, Tracker};
use proptest::prelude::*;
use std::borrow::Cow;

/// A delta: what it begins with, its text, what it ends with.
#[derive(Clone, Debug)]
struct Delta {
    low_first: bool,
    text: &'static str,
    high_last: bool,
}

impl Delta {
    /// The inside of a JSON string literal spelling it.
    fn literal(&self) -> String {
        let mut s = String::new();
        if self.low_first {
            s.push_str(r"\ude00");
        }
        s.push_str(self.text);
        if self.high_last {
            s.push_str(r"\ud83d");
        }
        s
    }

    /// As the event decoder gives it (the middle's escapes decoded).
    fn json_str(&self) -> JsonStr<'static> {
        let (_, text) = TEXTS.iter().find(|(t, _)| *t == self.text).unwrap();
        let mut d = JsonStr::new(Cow::Borrowed(text));
        d.low_first = self.low_first.then_some(0xDE00);
        d.high_last = self.high_last.then_some(0xD83D);
        d
    }
}

/// Middles of deltas as JSON spells them, and decoded: plain, multibyte,
/// a pair, a lone half inside (U+FFFD in the text), nothing.
const TEXTS: [(&str, &str); 9] = [
    ("", ""),
    ("a", "a"),
    (r#"{\"k\":\""#, r#"{"k":""#),
    ("é", "é"),
    ("😀", "😀"),
    (r"\ud83d\ude00", "😀"),
    (r"x\udc00y", "x\u{FFFD}y"),
    (r"\ud800 ", "\u{FFFD} "),
    ("0123456789", "0123456789"),
];

fn delta() -> impl Strategy<Value = Delta> {
    let texts = prop::sample::select(TEXTS.iter().map(|(t, _)| *t).collect::<Vec<_>>());
    (any::<bool>(), texts, any::<bool>()).prop_map(|(low_first, text, high_last)| Delta {
        low_first,
        text,
        high_last,
    })
}

/// What the stream does next, to one of three calls; the event is chosen
/// from the tracker's state so that most are accepted.
#[derive(Clone, Debug)]
enum Step {
    /// Arguments: `TOOL_CALL_ARGS` to a streamed call, a chunk otherwise
    /// (opening, reopening or continuing the call in the parent's lane).
    Args(usize, Delta),
    /// `TOOL_CALL_END` to a streamed call; else `TOOL_CALL_START`
    /// (a new call or a reopening).
    EndOrStart(usize),
    /// A step event: it closes the parent's chunk lane.
    CloseLane,
    /// The run finishes (streamed calls ended first) and a new one starts.
    NextRun,
    /// The run fails, abandoning what is open, and a new one starts.
    RunError,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => (0..3usize, delta()).prop_map(|(c, d)| Step::Args(c, d)),
        3 => (0..3usize).prop_map(Step::EndOrStart),
        1 => Just(Step::CloseLane),
        1 => Just(Step::NextRun),
        1 => Just(Step::RunError),
    ]
}

const IDS: [&str; 3] = ["a", "b", "c"];

/// Drives one tracker, remembering which call the parent's lane holds.
struct Driver {
    t: Tracker,
    lane: Option<usize>,
}

impl Driver {
    fn open(&self, c: usize) -> bool {
        self.t
            .call(IDS[c])
            .is_some_and(|call| call.status == CallStatus::Open)
    }

    /// The events for one step.
    fn events(&self, step: &Step) -> Vec<String> {
        let start = |c: usize| {
            format!(
                r#"{{"type":"TOOL_CALL_START","toolCallId":"{}","toolCallName":"f"}}"#,
                IDS[c]
            )
        };
        let end = |c: usize| format!(r#"{{"type":"TOOL_CALL_END","toolCallId":"{}"}}"#, IDS[c]);
        let run_started = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#.to_owned();
        match step {
            Step::Args(c, d) if self.open(*c) && self.lane != Some(*c) => vec![format!(
                r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"{}","delta":"{}"}}"#,
                IDS[*c],
                d.literal()
            )],
            Step::Args(c, d) => vec![format!(
                r#"{{"type":"TOOL_CALL_CHUNK","toolCallId":"{}","toolCallName":"f","delta":"{}"}}"#,
                IDS[*c],
                d.literal()
            )],
            Step::EndOrStart(c) if self.open(*c) && self.lane != Some(*c) => vec![end(*c)],
            Step::EndOrStart(c) if self.open(*c) => vec![start((c + 1) % 3)],
            Step::EndOrStart(c) => vec![start(*c)],
            Step::CloseLane => vec![r#"{"type":"STEP_STARTED","stepName":"s"}"#.to_owned()],
            Step::NextRun => {
                let mut events: Vec<String> = (0..3)
                    .filter(|&c| self.open(c) && self.lane != Some(c))
                    .map(end)
                    .collect();
                events.push(r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#.to_owned());
                events.push(run_started);
                events
            }
            Step::RunError => vec![
                r#"{"type":"RUN_ERROR","message":"m"}"#.to_owned(),
                run_started,
            ],
        }
    }

    /// Notes which call the parent's lane holds after an accepted event.
    fn note(&mut self, step: &Step, event: &str) {
        self.lane = match step {
            Step::Args(c, _) if event.contains("TOOL_CALL_CHUNK") => Some(*c),
            _ => None,
        };
    }
}

fn kept(t: &Tracker) -> usize {
    t.calls().iter().map(|c| c.args_text().len()).sum()
}

fn run(limits: Limits, steps: &[Step]) -> Result<(), TestCaseError> {
    let mut d = Driver {
        t: Tracker::new(Options {
            limits,
            ..Options::default()
        }),
        lane: None,
    };
    d.t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#)
        .unwrap();
    let base = d.t.retained_bytes();
    for step in steps {
        for event in d.events(step) {
            let (retained, text) = (d.t.retained_bytes(), kept(&d.t));
            let accepted = d.t.push_json(&event).is_ok();
            let (added, appended) = (d.t.retained_bytes() - retained, kept(&d.t) - text);
            prop_assert!(
                added >= appended,
                "{event}: {added} charged, {appended} appended"
            );
            // Argument events keep nothing but text: charged exactly.
            let text_only = ["TOOL_CALL_ARGS", "TOOL_CALL_END"]
                .iter()
                .any(|ty| event.contains(ty));
            if text_only {
                prop_assert_eq!(added, appended, "{}", event);
            }
            prop_assert!(d.t.retained_bytes() - base >= kept(&d.t));
            prop_assert!(d.t.retained_bytes() <= limits.max_thread_bytes);
            if !accepted {
                return Ok(());
            }
            d.note(step, &event);
        }
    }
    Ok(())
}

fn limits() -> impl Strategy<Value = Limits> {
    (
        prop::sample::select(vec![8usize, 24, 64, 4 << 20]),
        prop::sample::select(vec![1200usize, 2000, 64 << 20]),
    )
        .prop_map(|(max_args_bytes, max_thread_bytes)| Limits {
            max_args_bytes,
            max_thread_bytes,
            ..Limits::default()
        })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(2_000)
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn s5_the_budget_counts_at_least_the_argument_text_kept(
        limits in limits(),
        steps in prop::collection::vec(step(), 0..60),
    ) {
        run(limits, &steps)?;
    }

    #[test]
    fn s5_a_readers_tail_counts_exactly_what_it_appends(
        max_bytes in prop::sample::select(vec![6usize, 16, 4 << 20]),
        deltas in prop::collection::vec(delta(), 0..30),
        close_at in prop::option::of(0..30usize),
    ) {
        let mut reader = ArgsReader::new(ArgsLimits { max_bytes, ..ArgsLimits::default() });
        let mut tail = Tail::new(max_bytes);
        for (i, d) in deltas.iter().enumerate() {
            let before = reader.text().len();
            let counted = if close_at == Some(i) {
                let counted = tail.close();
                reader.close();
                counted
            } else {
                let counted = tail.push_delta(&d.json_str());
                let _ = reader.push_delta(&d.json_str());
                counted
            };
            prop_assert_eq!(counted, reader.text().len() - before);
            prop_assert_eq!(tail, reader.tail());
        }
    }
}
