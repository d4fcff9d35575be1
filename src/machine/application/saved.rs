//! Loading a saved thread (`Tracker::load`): what its history alone cannot
//! bring back after a page reload (open interrupts and their decisions,
//! consent and standing approvals, answers no run carried yet,
//! violations). Everything is checked before anything changes: a refused
//! value leaves the tracker as it was.

use super::ApplicationError;
use crate::events::payload::{field_error, item_path, FieldError};
use crate::events::saved::{self, Saved};
use crate::machine::budget::{answer_bytes, limit_message};
use crate::machine::{
    CallStatus, Consent, Names, OpenInterrupt, RunStatus, StandingApproval, ToolResult, Tracker,
    Validation,
};
use crate::violation::Severity;
use crate::violation_log::{MAX_KEPT_VIOLATIONS, MAX_MESSAGE_BYTES};
use std::mem::size_of;

impl Tracker {
    /// Brings back a saved thread ([`crate::wire::save`], JS `tracker.save()`)
    /// into a tracker that holds the thread's history
    /// ([`Tracker::restore`]) and nothing else of its own: no run active,
    /// no open interrupts or standing approvals. Refused, changing nothing,
    /// with [`ApplicationError::Saved`] naming the field (a value of
    /// another format version, a call the history does not hold, an id
    /// over `max_id_bytes`, a standing approval's record that does not add
    /// up, ...), or [`ApplicationError::Limit`] past the thread's budget.
    /// An answer the history already carries is left out (the history
    /// wins).
    ///
    /// ```
    /// use agui_tool_calls::{events::Tool, Consent, Options, Tracker};
    /// use serde_json::json;
    ///
    /// let options = Options { tools: vec![Tool::new("f", "", json!({}))], ..Options::default() };
    /// let history = r#"{"messages":[{"id":"a1","role":"assistant","toolCalls":[
    ///     {"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}]}"#;
    /// let mut t = Tracker::new(options.clone());
    /// t.restore_json(history).unwrap();
    /// t.approve("c1").unwrap();
    /// let saved = agui_tool_calls::wire::save(&t);
    ///
    /// let mut reloaded = Tracker::new(options);
    /// reloaded.restore_json(history).unwrap();
    /// reloaded.load(&saved).unwrap();
    /// assert_eq!(reloaded.call("c1").unwrap().consent, Consent::Approved);
    /// ```
    pub fn load(&mut self, text: &str) -> Result<(), ApplicationError> {
        // The page's module is built without the feature (the JS package's
        // main entry): the reader and checks below are then left out of it
        // (`docs/size.md`, "Saved threads in a module of their own").
        if cfg!(not(feature = "saved-threads")) {
            return Err(ApplicationError::Saved(FieldError::whole(
                "this module leaves them out (import the tracker from agui-tool-calls/full)".into(),
            )));
        }
        if self.run.status == RunStatus::Running || !self.open.is_empty() {
            return Err(ApplicationError::RunActive);
        }
        if !self.interrupts.is_empty() || !self.standing.is_empty() {
            return Err(ApplicationError::Saved(FieldError::whole(
                "a saved thread is loaded into a tracker with no interrupts or standing approvals of its own".into(),
            )));
        }
        let limit = self.options.limits.max_event_bytes;
        if text.len() > limit {
            let m = limit_message("the saved value", limit, "maxEventBytes");
            return Err(ApplicationError::Saved(FieldError::whole(m)));
        }
        let saved = saved::read(text).map_err(ApplicationError::Saved)?;
        let cost = self.check_saved(&saved)?;
        self.apply_saved(saved);
        self.retained += cost;
        self.changes.run = true;
        self.version += 1;
        Ok(())
    }

    /// Every rule of a saved value against this tracker, and what it would
    /// retain (the saved answers the history already carries left out).
    #[allow(clippy::too_many_lines)] // the saved value's rules, list by list, in the order it lists them
    fn check_saved(&self, saved: &Saved) -> Result<usize, ApplicationError> {
        // One set for every kind of id, each kind its own prefix: one
        // hash-map call site rather than one per set (size).
        let mut seen = Names::default();
        for (k, OpenInterrupt { interrupt, .. }) in saved.interrupts.iter().enumerate() {
            self.saved_id(&interrupt.id, "interrupts", k, ".interrupt.id")?;
            if !first(&mut seen, 'i', &interrupt.id) {
                return refused("interrupts", k, ".interrupt.id", "repeats an earlier id");
            }
            if let Some(call) = &interrupt.tool_call_id {
                first(&mut seen, 'a', call);
            }
        }
        let mut cost = 0;
        for (k, s) in saved.standing.iter().enumerate() {
            let list = "standingApprovals";
            self.saved_id(&s.tool, list, k, ".tool")?;
            self.saved_id(&s.tool_call_id, list, k, ".toolCallId")?;
            if !first(&mut seen, 't', &s.tool) {
                return refused(list, k, ".tool", "repeats an earlier tool");
            }
            if self.call(&s.tool_call_id).is_none_or(|c| c.name != s.tool) {
                return refused(
                    list,
                    k,
                    ".toolCallId",
                    "names no call to its tool in the thread's history",
                );
            }
            cost += size_of::<StandingApproval>() + s.tool.len() + s.tool_call_id.len();
        }
        for (k, c) in saved.calls.iter().enumerate() {
            self.saved_id(&c.id, "calls", k, ".id")?;
            if !first(&mut seen, 'c', &c.id) {
                return refused("calls", k, ".id", "repeats an earlier id");
            }
            let Some(call) = self.call(&c.id) else {
                return refused("calls", k, ".id", "names no call in the thread's history");
            };
            if call.status != CallStatus::Complete {
                return refused("calls", k, ".id", "names a call that is not complete");
            }
            if let Some(from) = &c.consent_from {
                let given = saved
                    .standing
                    .iter()
                    .any(|s| s.tool == call.name && &s.tool_call_id == from);
                if c.consent != Consent::Approved || !given || call.validation != Validation::Valid
                {
                    return refused(
                        "calls",
                        k,
                        ".consentFrom",
                        "names no standing approval that covers this call",
                    );
                }
            }
            let Some((message_id, content, error)) = &c.answer else {
                continue;
            };
            if call.answered() {
                continue;
            }
            self.saved_id(message_id, "calls", k, ".answer.messageId")?;
            if !first(&mut seen, 'a', &c.id) {
                return refused(
                    "calls",
                    k,
                    ".answer",
                    "answers a call awaiting an interrupt",
                );
            }
            let in_use = self.messages.contains_key(message_id.as_str())
                || self.message_ids.contains(message_id.as_str());
            if in_use || !first(&mut seen, 'm', message_id) {
                return refused(
                    "calls",
                    k,
                    ".answer.messageId",
                    "is already used in the thread",
                );
            }
            cost += answer_bytes(message_id, content, error.as_deref());
        }
        let count = saved.violations.len();
        if count > MAX_KEPT_VIOLATIONS + 2 {
            let m = field_error("saved", "violations", OVER_KEPT);
            return Err(ApplicationError::Saved(m));
        }
        for (k, v) in saved.violations.iter().enumerate() {
            // A kept message is cut at the limit and ends in an ellipsis.
            if v.message.len() > MAX_MESSAGE_BYTES + 3 {
                return refused(
                    "violations",
                    k,
                    ".message",
                    "is over the 1024 bytes a violation keeps",
                );
            }
            if v.severity == Severity::Fatal && k + 1 != count {
                return refused("violations", k, "", "is fatal but not the last");
            }
        }
        if let Some(message) = self.over_budget(cost) {
            return Err(ApplicationError::Limit(message));
        }
        Ok(cost)
    }

    /// An id of entry `k` of `list` within `max_id_bytes` (rule S5).
    fn saved_id(
        &self,
        value: &str,
        list: &str,
        k: usize,
        key: &str,
    ) -> Result<(), ApplicationError> {
        let max = self.options.limits.max_id_bytes;
        if value.len() > max {
            return Err(refusal(list, k, key, None, max));
        }
        Ok(())
    }

    fn apply_saved(&mut self, saved: Saved) {
        // The tracker holds no interrupts of its own (checked): the saved
        // ones are taken whole, not moved one by one.
        for open in &saved.interrupts {
            let id = open.interrupt.tool_call_id.as_deref();
            if let Some(i) = id.and_then(|id| self.call_index(id)) {
                self.calls[i].awaiting_interrupt = Some(open.interrupt.id.clone());
                self.calls[i].pending = false;
                self.touch(i);
            }
        }
        self.interrupts = saved.interrupts;
        self.standing = saved.standing;
        for c in saved.calls {
            let Some(i) = self.call_index(&c.id) else {
                continue;
            };
            self.calls[i].consent = c.consent;
            self.calls[i].consent_from = c.consent_from;
            // An answer the history carries is left out (checked before
            // this call's own answer, the only one attached to it, is).
            let carried = self.calls[i].answered();
            if let (Some((message_id, content, error)), false) = (c.answer, carried) {
                let result = ToolResult::from_application(message_id, content, error);
                self.attach_result(Some(i), c.id, result);
                self.undelivered.insert(i);
            }
            self.touch(i);
        }
        for v in saved.violations {
            if v.severity == Severity::Fatal {
                self.fatal = Some(v.clone());
            }
            self.violations.record(v);
        }
    }
}

/// Adds `id` of `kind` to `seen`; whether it was new.
#[inline(never)]
fn first(seen: &mut Names, kind: char, id: &str) -> bool {
    let mut key = String::with_capacity(id.len() + 1);
    key.push(kind);
    key.push_str(id);
    seen.insert(key)
}

/// `field "saved.<list>[k]<key>" <what>`, or with no `what` the id limit's
/// refusal (`max`): one writer for every refusal, through the shared
/// field and limit writers rather than a `format!` of its own.
#[inline(never)]
fn refusal(list: &str, k: usize, key: &str, what: Option<&str>, max: usize) -> ApplicationError {
    let mut path = item_path(&(String::from("saved.") + list), k);
    path.push_str(key);
    ApplicationError::Saved(if let Some(what) = what {
        field_error(&path, "", &(String::from(" ") + what))
    } else {
        let message = limit_message(field_error(&path, "", "").message(), max, "maxIdBytes");
        FieldError::new(path, message)
    })
}

fn refused<T>(list: &str, k: usize, key: &str, what: &str) -> Result<T, ApplicationError> {
    Err(refusal(list, k, key, Some(what), 0))
}

/// A saved value holds at most the violations a tracker keeps: the kept
/// ones, the count of the dropped and a fatal one.
const OVER_KEPT: &str = " must hold at most 1002 entries, as many as a tracker keeps";
const _: () = assert!(MAX_KEPT_VIOLATIONS + 2 == 1002, "OVER_KEPT names the cap");
