//! Rules I4-I6: the application resolves or cancels each open interrupt,
//! and the next run's `resume` list must cover every one of them.

use super::ApplicationError;
use crate::events::{Opaque, ResumeEntry, ResumeStatus, RunInput};
use crate::machine::plan::Plan;
use crate::machine::{Consent, InterruptDecision, Names, Tracker};
use crate::quote::quoted;
use crate::schema::{Schema, ValidationError};
use crate::violation::{Severity, Violation};
use crate::HashMap;

/// An open interrupt a run input leaves uncovered, or resolves after it
/// expired (rule I5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncoveredInterrupt {
    /// The interrupt's id.
    pub interrupt_id: String,
    /// The input resolves it, but it expired: it can only be cancelled.
    pub expired: bool,
}

impl Tracker {
    /// Resolves an open interrupt (rule I4): the next run's resume entry
    /// carries `payload`. The payload must satisfy the interrupt's
    /// `responseSchema` when it has one. For a tool-call approval,
    /// `edited_args` (an object, validated against the tool's schema) rides
    /// the payload as its `editedArgs`, and the call's consent becomes
    /// approved (rule S3). Refused, changing nothing, for an unknown, already
    /// decided or expired interrupt, or a payload or arguments that fail.
    ///
    /// ```
    /// use agui_tool_calls::{Consent, Options, Tracker};
    /// use serde_json::json;
    ///
    /// let mut t = Tracker::new(Options::default());
    /// for e in [
    ///     r#"{"type":"RUN_STARTED","threadId":"t","runId":"r1"}"#,
    ///     r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"transfer"}"#,
    ///     r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
    ///     r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r1","outcome":{"type":"interrupt",
    ///        "interrupts":[{"id":"i1","reason":"tool_approval","toolCallId":"c1"}]}}"#,
    /// ] {
    ///     t.push_json(e).unwrap();
    /// }
    /// assert!(t.pending_calls().next().is_none()); // awaiting approval, not pending
    /// t.resolve_interrupt("i1", Some(json!({"approved": true}).into()), None).unwrap();
    /// assert_eq!(t.call("c1").unwrap().consent, Consent::Approved);
    /// let resume: Vec<_> = t.resume_entries().iter().map(|e| e.interrupt_id.clone()).collect();
    /// assert_eq!(resume, ["i1"]);
    /// ```
    pub fn resolve_interrupt(
        &mut self,
        id: &str,
        payload: Option<Opaque>,
        edited_args: Option<Opaque>,
    ) -> Result<(), ApplicationError> {
        let k = self.undecided(id)?;
        let expires_at = self.interrupts[k].interrupt.expires_at.as_deref();
        if expires_at.is_some_and(|at| self.expired(at)) {
            return Err(ApplicationError::InterruptExpired { id: id.to_owned() });
        }
        let payload = match edited_args {
            None => payload,
            Some(args) => Some(self.with_edited_args(k, payload, &args)?),
        };
        let interrupt = &self.interrupts[k].interrupt;
        if let (Some(schema), Some(payload)) = (&interrupt.response_schema, &payload) {
            let errors = validate(schema, payload);
            if !errors.is_empty() {
                return Err(ApplicationError::InvalidPayload {
                    id: id.to_owned(),
                    errors,
                });
            }
        }
        let cost = payload.as_ref().map_or(0, |p| p.get().len());
        if let Some(message) = self.over_budget(cost) {
            return Err(ApplicationError::Limit(message));
        }
        self.retained += cost;
        self.decide(k, InterruptDecision::Resolved(payload), Consent::Approved);
        Ok(())
    }

    /// Cancels an open interrupt (rule I4): the next run's resume entry
    /// abandons it. An expired interrupt can still be cancelled. A tool-call
    /// approval's call is then declined (rule S3).
    pub fn cancel_interrupt(&mut self, id: &str) -> Result<(), ApplicationError> {
        let k = self.undecided(id)?;
        self.decide(k, InterruptDecision::Cancelled, Consent::Declined);
        Ok(())
    }

    /// The resume entries of the application's decisions, in the order of
    /// the interrupts (rule I5): what the next run's `resume` carries.
    /// Undecided interrupts have none.
    pub fn resume_entries(&self) -> Vec<ResumeEntry> {
        let mut entries = Vec::new();
        for open in &self.interrupts {
            let (status, payload) = match &open.decision {
                InterruptDecision::Open => continue,
                InterruptDecision::Resolved(payload) => (ResumeStatus::Resolved, payload.clone()),
                InterruptDecision::Cancelled => (ResumeStatus::Cancelled, None),
            };
            entries.push(ResumeEntry {
                interrupt_id: open.interrupt.id.clone(),
                status,
                payload,
            });
        }
        entries
    }

    /// Rule I5: the open interrupts a run input's `resume` list leaves
    /// uncovered, or resolves though they expired, in order. Empty when
    /// the input may start.
    pub fn check_resume(&self, input: &RunInput) -> Vec<UncoveredInterrupt> {
        let entries = input.resume.as_deref().unwrap_or_default();
        // Each id's first entry, found in one step (lists may be long).
        // (Keys owned: the map type of the tracker's id index, one hash-map
        // instantiation less in the wasm module.)
        let mut by_id: HashMap<String, usize> = HashMap::default();
        for (k, e) in entries.iter().enumerate() {
            by_id.get_or_insert_with(e.interrupt_id.clone(), || k);
        }
        let mut uncovered = Vec::new();
        for open in &self.interrupts {
            let interrupt = &open.interrupt;
            let entry = by_id.get(interrupt.id.as_str()).map(|&k| &entries[k]);
            let expired = || {
                interrupt
                    .expires_at
                    .as_deref()
                    .is_some_and(|at| self.expired(at))
            };
            let problem = match entry {
                None => Some(false),
                Some(e) if e.status == ResumeStatus::Resolved && expired() => Some(true),
                Some(_) => None,
            };
            if let Some(expired) = problem {
                uncovered.push(UncoveredInterrupt {
                    interrupt_id: interrupt.id.clone(),
                    expired,
                });
            }
        }
        uncovered
    }

    /// [`Tracker::check_resume`] of a `RunAgentInput` given as JSON text.
    pub fn check_resume_json(
        &self,
        text: &str,
    ) -> Result<Vec<UncoveredInterrupt>, ApplicationError> {
        Ok(self.check_resume(&super::next_run::read_input(text)?))
    }

    /// Rule I6: warnings for resume entries that answer nothing, recorded
    /// with the run input's start.
    pub(crate) fn plan_resume_warnings(&self, plan: &mut Plan, input: &RunInput) {
        let entries = input.resume.as_deref().unwrap_or_default();
        if entries.is_empty() {
            return;
        }
        let at = plan.index;
        let warn = |message: String| Violation::new("I6", Severity::Warning, at, message);
        if self.interrupts.is_empty() {
            plan.record(warn(format!(
                "run input: a resume list of {} entries, but the input continues no interrupted run",
                entries.len()
            )));
            return;
        }
        let mut open = Names::default();
        for o in &self.interrupts {
            open.insert(o.interrupt.id.clone());
        }
        for entry in entries {
            if !open.contains(&entry.interrupt_id) {
                plan.record(warn(format!(
                    "run input: resume entry {} names no open interrupt",
                    quoted(&entry.interrupt_id)
                )));
            }
        }
    }

    /// The index of an open interrupt the application has not decided yet.
    fn undecided(&self, id: &str) -> Result<usize, ApplicationError> {
        let Some(k) = self.interrupts.iter().position(|o| o.interrupt.id == id) else {
            return Err(ApplicationError::UnknownInterrupt { id: id.to_owned() });
        };
        if self.interrupts[k].decision != InterruptDecision::Open {
            return Err(ApplicationError::InterruptCovered { id: id.to_owned() });
        }
        Ok(k)
    }

    /// The payload carrying `editedArgs`, checked against the tool's schema.
    fn with_edited_args(
        &mut self,
        k: usize,
        payload: Option<Opaque>,
        args: &Opaque,
    ) -> Result<Opaque, ApplicationError> {
        let interrupt = &self.interrupts[k].interrupt;
        let id = interrupt.id.clone();
        let invalid = |message: &str| ApplicationError::InvalidPayload {
            id: id.clone(),
            errors: vec![ValidationError {
                path: String::new(),
                keyword: "editedArgs",
                message: message.to_owned(),
            }],
        };
        let Some(call) = interrupt
            .tool_call_id
            .as_deref()
            .and_then(|c| self.call_index(c))
        else {
            return Err(invalid(
                "editedArgs apply to a tool-call approval of a known call",
            ));
        };
        if !args.get().starts_with('{') {
            return Err(invalid("editedArgs must be an object"));
        }
        let errors = args
            .read()
            .map(|value| self.validate_args(call, &value))
            .unwrap_or_default();
        if !errors.is_empty() {
            return Err(ApplicationError::InvalidEditedArgs {
                id,
                tool_call_id: self.calls[call].id.clone(),
                errors,
            });
        }
        // Written into the payload's text, which stays as given.
        // No slicing by index: a slice that could panic links the panic's
        // formatting (and Unicode tables) into the wasm module.
        let inner = |p: &Opaque| {
            let text = p.get().strip_prefix("{")?.strip_suffix("}")?;
            // JSON text: only JSON whitespace surrounds its members, which
            // `trim_ascii` takes (no Unicode whitespace tables linked).
            Some(text.trim_ascii().to_owned())
        };
        let fields = match &payload {
            None => String::new(),
            Some(p) => match inner(p) {
                Some(fields) => fields,
                None => return Err(invalid("a payload carrying editedArgs must be an object")),
            },
        };
        let comma = if fields.is_empty() { "" } else { "," };
        let text = format!(r#"{{{fields}{comma}"editedArgs":{}}}"#, args.get());
        Ok(Opaque::from_json(&text).unwrap_or_else(|_| args.clone()))
    }

    /// Records a decision; a tool-call approval's call gets `consent`.
    fn decide(&mut self, k: usize, decision: InterruptDecision, consent: Consent) {
        self.interrupts[k].decision = decision;
        let call = self.interrupts[k].interrupt.tool_call_id.as_deref();
        if let Some(i) = call.and_then(|id| self.call_index(id)) {
            self.calls[i].consent = consent;
            self.calls[i].consent_from = None;
            self.touch(i);
        }
        self.changes.run = true;
        self.version += 1;
    }
}

/// `payload` against a `responseSchema` carried from the stream: its
/// patterns are not run (as for the stream's tool schemas, rule S5), and a
/// schema that does not compile validates nothing.
fn validate(schema: &Opaque, payload: &Opaque) -> Vec<ValidationError> {
    let (Some(schema), Some(payload)) = (schema.read(), payload.read()) else {
        return Vec::new();
    };
    match Schema::compile(&schema, &crate::machine::validation::StreamPatterns) {
        Ok(schema) => schema.validate(&payload).errors,
        Err(_) => Vec::new(),
    }
}

/// `the next run's input leaves 2 interrupts uncovered: "i1", "i2" (expired: only cancelling covers it)`.
pub(super) fn describe_uncovered(
    f: &mut std::fmt::Formatter<'_>,
    list: &[UncoveredInterrupt],
) -> std::fmt::Result {
    let plural = if list.len() == 1 { "" } else { "s" };
    write!(
        f,
        "the next run's input leaves {} interrupt{plural} uncovered: ",
        list.len()
    )?;
    for (n, u) in list.iter().enumerate() {
        if n > 0 {
            f.write_str(", ")?;
        }
        f.write_str(&quoted(&u.interrupt_id))?;
        if u.expired {
            f.write_str(" (resolved after it expired: only cancelling covers it)")?;
        }
    }
    Ok(())
}
