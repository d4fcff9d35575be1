//! The saved thread (`save`): plain JSON an application keeps across a
//! page reload and gives back to `Tracker::load` (read by
//! `events::saved`). It holds what the thread's history cannot bring back:
//! the open interrupts and their decisions, each call's consent and its
//! answer no run input carried yet, the standing approvals and the
//! violations. Its `version` is the format's, `events::saved::SAVED_VERSION`.

use super::names;
use super::records::{json_text, InterruptRecord, Object, WriteJson};
use crate::events::saved::SAVED_VERSION;
use crate::events::Opaque;
use crate::{Consent, ResultSource, StandingApproval, Tracker, Violation};
use serde::Serialize;

/// A saved thread.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SavedRecord<'a> {
    /// The format: 1.
    version: u32,
    interrupts: Vec<InterruptRecord<'a>>,
    /// The calls the user decided on, or answered without a run carrying
    /// the answer yet.
    calls: Vec<SavedCallRecord<'a>>,
    standing_approvals: &'a [StandingApproval],
    violations: &'a [Violation],
}

/// One call's decisions.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct SavedCallRecord<'a> {
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional, type = "Consent"))]
    consent: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    consent_from: Option<&'a str>,
    /// The application's answer no run input carried yet.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    answer: Option<SavedAnswerRecord<'a>>,
}

/// An answer no run input carried yet.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct SavedAnswerRecord<'a> {
    message_id: &'a str,
    content: &'a Opaque,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    error: Option<&'a str>,
}

impl<'a> SavedRecord<'a> {
    /// The record of `tracker`'s thread.
    pub fn new(tracker: &'a Tracker) -> Self {
        let mut interrupts = Vec::with_capacity(tracker.interrupts().len());
        for open in tracker.interrupts() {
            interrupts.push(InterruptRecord::new(open));
        }
        let mut calls = Vec::new();
        for (i, call) in tracker.calls().iter().enumerate() {
            let answer = if tracker.undelivered.contains(&i) {
                call.results
                    .iter()
                    .rfind(|r| r.source == ResultSource::Application)
            } else {
                None
            };
            if call.consent == Consent::Unrequested && answer.is_none() {
                continue;
            }
            calls.push(SavedCallRecord {
                id: &call.id,
                consent: (call.consent != Consent::Unrequested)
                    .then(|| names::consent(&call.consent)),
                consent_from: call.consent_from.as_deref(),
                answer: answer.map(|r| SavedAnswerRecord {
                    message_id: &r.message_id,
                    content: &r.content,
                    error: r.error.as_deref(),
                }),
            });
        }
        SavedRecord {
            version: SAVED_VERSION,
            interrupts,
            calls,
            standing_approvals: tracker.standing_approvals(),
            violations: tracker.violations(),
        }
    }
}

/// The saved thread of `tracker`, as JSON text (see `SavedRecord`).
///
/// ```
/// use agui_tool_calls::{wire, Options, Tracker};
///
/// let t = Tracker::new(Options::default());
/// assert_eq!(
///     wire::save(&t),
///     r#"{"version":1,"interrupts":[],"calls":[],"standingApprovals":[],"violations":[]}"#
/// );
/// ```
pub fn save(tracker: &Tracker) -> String {
    json_text(&SavedRecord::new(tracker))
}

// Written by hand like the other records (see `records::write`): the
// derived `Serialize` impls stay the source of the declarations and the
// reference the tests compare this text with.
impl WriteJson for SavedRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.num("version", u64::from(self.version));
        o.val("interrupts", &self.interrupts[..]);
        o.val("calls", &self.calls[..]);
        o.val("standingApprovals", self.standing_approvals);
        o.val("violations", self.violations);
        o.end();
    }
}

impl WriteJson for SavedCallRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("id", self.id);
        o.opt_str("consent", self.consent);
        o.opt_str("consentFrom", self.consent_from);
        o.opt("answer", self.answer.as_ref());
        o.end();
    }
}

impl WriteJson for SavedAnswerRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("messageId", self.message_id);
        o.val("content", self.content);
        o.opt_str("error", self.error);
        o.end();
    }
}

/// The declarations of this module's types.
#[cfg(test)]
pub(super) fn declarations(cfg: &ts_rs::Config) -> Vec<String> {
    use super::declarations::declaration as d;
    vec![
        d::<SavedRecord>(cfg),
        d::<SavedCallRecord>(cfg),
        d::<SavedAnswerRecord>(cfg),
    ]
}
