//! Standing approvals (rule S3): the user approves one call and every
//! later call to its tool in this thread. A standing approval approves
//! only a call whose arguments passed its tool's schema, never one that
//! awaits an interrupt, and the call records on which call the user gave
//! it (`ToolCall::consent_from`).

use super::ApplicationError;
use crate::machine::{CallStatus, Consent, StandingApproval, Tracker, Validation};
use std::mem::size_of;

impl Tracker {
    /// Approves a complete call as [`Tracker::approve`] does and gives a
    /// standing approval for its tool: every call to that tool awaiting a
    /// decision, and every later one, is approved by it once its arguments
    /// pass the tool's schema. Giving it again for the same tool keeps the
    /// first.
    ///
    /// ```
    /// use agui_tool_calls::{events::Tool, Consent, Options, Tracker};
    /// use serde_json::json;
    ///
    /// let mut t = Tracker::new(Options {
    ///     tools: vec![Tool::new("deploy", "", json!({"type": "object"}))],
    ///     ..Options::default()
    /// });
    /// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
    /// for id in ["c1", "c2"] {
    ///     t.push_json(&format!(r#"{{"type":"TOOL_CALL_START","toolCallId":"{id}","toolCallName":"deploy"}}"#)).unwrap();
    ///     t.push_json(&format!(r#"{{"type":"TOOL_CALL_END","toolCallId":"{id}"}}"#)).unwrap();
    ///     if id == "c1" {
    ///         t.approve_and_remember("c1").unwrap();
    ///     }
    /// }
    /// let c2 = t.call("c2").unwrap();
    /// assert_eq!(c2.consent, Consent::Approved);
    /// assert_eq!(c2.consent_from.as_deref(), Some("c1"));
    /// ```
    pub fn approve_and_remember(&mut self, id: &str) -> Result<(), ApplicationError> {
        let i = self.settled_call(id)?;
        let tool = self.calls[i].name.clone();
        let known = self.standing_index(&tool).is_some();
        let cost = size_of::<StandingApproval>() + tool.len() + id.len();
        if !known {
            if let Some(message) = self.over_budget(cost) {
                return Err(ApplicationError::Limit(message));
            }
        }
        self.approve(id)?;
        // The user decided on this call itself.
        if self.calls[i].consent_from.take().is_some() {
            self.changed(i);
        }
        if !known {
            self.retained += cost;
            self.standing.push(StandingApproval {
                tool,
                tool_call_id: id.to_owned(),
            });
            self.changes.run = true;
            self.version += 1;
            for j in 0..self.calls.len() {
                if self.cover_by_standing(j) {
                    self.changed(j);
                }
            }
        }
        Ok(())
    }

    /// Withdraws the standing approval for `tool`: later calls need the
    /// user again, and a call it approved that is not answered yet is back
    /// to `unrequested`. Without one, nothing changes.
    pub fn revoke_approval(&mut self, tool: &str) {
        let Some(k) = self.standing_index(tool) else {
            return;
        };
        self.standing.remove(k);
        self.changes.run = true;
        self.version += 1;
        for i in 0..self.calls.len() {
            let call = &mut self.calls[i];
            if call.name == tool && call.consent_from.is_some() && !call.answered() {
                call.consent = Consent::Unrequested;
                call.consent_from = None;
                self.changed(i);
            }
        }
    }

    /// The user's standing approvals, one per tool, in the order given.
    pub fn standing_approvals(&self) -> &[StandingApproval] {
        &self.standing
    }

    /// Approves call `i` by the standing approval for its tool, when there
    /// is one and the call awaits a decision: complete, unanswered, not
    /// awaiting an interrupt, the application's (pending or advertised),
    /// and its arguments valid against the tool's schema (a call with no
    /// schema to vouch for its arguments is never covered, rule S2).
    /// Whether it did; the caller marks the call changed.
    pub(crate) fn cover_by_standing(&mut self, i: usize) -> bool {
        let call = &self.calls[i];
        let awaits = call.status == CallStatus::Complete
            && call.consent == Consent::Unrequested
            && call.validation == Validation::Valid
            && call.awaiting_interrupt.is_none()
            && (call.pending || call.advertised)
            && !call.answered();
        let Some(k) = self.standing_index(&call.name) else {
            return false;
        };
        if !awaits {
            return false;
        }
        let from = self.standing[k].tool_call_id.clone();
        let call = &mut self.calls[i];
        call.consent = Consent::Approved;
        call.consent_from = Some(from);
        true
    }

    /// The standing approval of `tool`: one search, with a plain loop,
    /// for the three operations that look one up (each `any`, `position`
    /// or `find` with its closure is code of its own in the wasm module).
    fn standing_index(&self, tool: &str) -> Option<usize> {
        for (k, s) in self.standing.iter().enumerate() {
            if s.tool == tool {
                return Some(k);
            }
        }
        None
    }
}
