//! Invariants of a tracker, checked after every step of a script.

use crate::script::Step;
use agui_tool_calls::events::RunInput;
use agui_tool_calls::{
    CallStatus, ToolCall, ToolMessage, Tracker, Violation, ABANDONED_CONTENT, CANCELLED_CONTENT,
};

/// What a reader of the tracker sees, violations aside: every call, the run,
/// unmatched results, and the tool messages for the next run. A refused
/// event or operation must leave it as it was.
pub fn observable(t: &Tracker) -> String {
    format!(
        "{:?}|{:?}|{:?}|{:?}",
        t.calls(),
        t.run(),
        t.unmatched_results(),
        t.tool_messages()
    )
}

/// [`observable`], with what only the tracker's history decides: every
/// violation, the fatal one and how many events were seen. Two trackers fed
/// the same events agree on it.
pub fn summary(t: &Tracker) -> String {
    format!(
        "{}|{:?}|{:?}|{}",
        observable(t),
        t.violations(),
        t.fatal(),
        t.events_seen()
    )
}

/// Every open call's partial value is well formed: the cut is a character
/// boundary, its UTF-16 offset agrees, and `text[..cut] + suffix` parses.
pub fn check_partials(t: &Tracker) {
    for call in t.calls() {
        let Some(p) = call.partial() else { continue };
        assert_eq!(call.status, CallStatus::Open);
        let text = call.args_text();
        assert!(text.is_char_boundary(p.cut), "cut {} in {text:?}", p.cut);
        assert_eq!(text[..p.cut].encode_utf16().count(), p.cut_utf16);
        let json = format!("{}{}", &text[..p.cut], p.suffix);
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&json) {
            panic!("partial value {json:?} of {text:?} is not JSON: {e}");
        }
    }
}

/// What a binding rebuilt from [`Tracker::take_changes`]: each call's text,
/// from the new parts only. It must equal the tracker's own.
#[derive(Default)]
pub struct Mirror {
    texts: Vec<String>,
}

impl Mirror {
    pub fn take(&mut self, t: &mut Tracker) {
        let changes = t.take_changes();
        self.texts.resize(t.calls().len(), String::new());
        for change in changes.calls {
            let text = t.calls()[change.index].args_text();
            let known = &mut self.texts[change.index];
            assert_eq!(
                known.len(),
                change.text_from,
                "text_from of call {}",
                change.index
            );
            known.push_str(&text[change.text_from..]);
        }
        for (known, call) in self.texts.iter().zip(t.calls()) {
            assert_eq!(known, call.args_text());
        }
        assert!(t.take_changes().is_empty(), "a second take finds nothing");
    }
}

/// Runs one step and checks what it may and may not change.
pub fn run_step(t: &mut Tracker, step: &Step, mirror: &mut Mirror) {
    let fatal_before = t.fatal().cloned();
    // A clone prints as the original did (maps keep their layout when
    // cloned), so the comparisons below are made only on refusal.
    let before = t.clone();
    let violations_before = before.violations();
    let refused = match step {
        Step::Event(e) => push(t, &e.to_json()),
        Step::Raw(text) => push(t, text),
        Step::Approve(id) => t.approve(&id.get()).is_err(),
        Step::Answer(id, content, msg) => t.answer(&id.get(), content.get(), &msg.get()).is_err(),
        Step::Fail(id, error, content, msg) => t
            .fail(
                &id.get(),
                error,
                content.as_ref().map(|c| c.get().into()),
                &msg.get(),
            )
            .is_err(),
        Step::Decline(id, reason, msg) => {
            t.decline(&id.get(), reason.as_deref(), &msg.get()).is_err()
        }
        Step::StartRun(input) => {
            let text = input.get("next").to_string();
            let input = RunInput::from_json(&text).expect("a generated run input reads");
            // Checking an input changes nothing and agrees with starting.
            let unanswered = t.check_input(&input);
            let result = t.start_run(input);
            if !unanswered.is_empty() {
                assert!(result.is_err(), "{unanswered:?} left, yet the run started");
            }
            result.is_err()
        }
        Step::StartRunRaw(text) => t.start_run_json(text).is_err(),
        Step::TakeChanges => {
            mirror.take(t);
            false
        }
    };
    if refused {
        match step {
            // An event refused is fatal: recorded once, then the stream stops.
            Step::Event(_) | Step::Raw(_) => {
                let fatal = t.fatal().expect("a refused event is fatal").clone();
                if let Some(fatal_before) = fatal_before {
                    // Refused at the door: nothing moves, not even a counter.
                    assert_eq!(fatal, fatal_before);
                    assert_eq!(t.version(), before.version());
                    assert_eq!(t.events_seen(), before.events_seen());
                    assert_eq!(t.violations(), violations_before);
                } else {
                    assert_eq!(
                        observable(t),
                        observable(&before),
                        "a fatal event changed the state"
                    );
                    assert_eq!(
                        &t.violations()[..violations_before.len()],
                        violations_before
                    );
                    assert_eq!(t.violations().last(), Some(&fatal));
                }
            }
            // A refused operation changes nothing at all.
            _ => assert_eq!(format!("{t:?}"), format!("{before:?}")),
        }
    } else {
        assert!(fatal_before.is_none() || !matches!(step, Step::Event(_) | Step::Raw(_)));
        // Violations are only ever appended; a repeat of an earlier one
        // raises that entry's count instead (the log bounds them).
        assert_appended(t.violations(), violations_before);
    }
    check_partials(t);
    check_lists(t);
}

/// `now` is `before` with entries appended, each earlier entry the same but
/// for a count that may only have grown.
fn assert_appended(now: &[Violation], before: &[Violation]) {
    assert!(now.len() >= before.len(), "a violation was dropped");
    for (n, b) in now.iter().zip(before) {
        assert!(n.count >= b.count, "a violation's count shrank");
        assert_eq!(
            Violation {
                count: b.count,
                ..n.clone()
            },
            *b
        );
    }
}

fn push(t: &mut Tracker, text: &str) -> bool {
    let before = t.fatal().cloned();
    match t.push_json(text) {
        Ok(()) => false,
        Err(v) => {
            if let Some(before) = before {
                assert_eq!(v, before, "a stopped tracker repeats its fatal error");
            }
            assert_eq!(t.fatal(), Some(&v));
            true
        }
    }
}

/// The derived lists agree with the calls.
fn check_lists(t: &Tracker) {
    for (i, call) in t.calls().iter().enumerate() {
        assert_eq!(
            t.call_index(&call.id),
            Some(i),
            "ids are unique and indexed"
        );
        if call.pending {
            assert_eq!(call.status, CallStatus::Complete, "{} pending", call.id);
        }
        if call.arguments().is_some() {
            assert_eq!(call.status, CallStatus::Complete);
        }
    }
    for message in t.tool_messages() {
        let call = t
            .call(&message.tool_call_id)
            .expect("a tool message answers a known call");
        assert!(
            call.answered() || closes(&message, call),
            "{message:?} neither answers nor closes {call:?}"
        );
    }
}

/// Whether `message` is the closing message of a call its run left
/// unanswered (rules F11 and L8): abandoned, or cancelled, and not pending.
fn closes(message: &ToolMessage, call: &ToolCall) -> bool {
    let (error, content) = if call.cancelled {
        ("cancelled", CANCELLED_CONTENT)
    } else {
        ("abandoned", ABANDONED_CONTENT)
    };
    !call.pending
        && message.id.starts_with(&format!("{}:closed", call.id))
        && message.error.as_deref() == Some(error)
        && message.content.get() == serde_json::to_string(content).unwrap()
}
