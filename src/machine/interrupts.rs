//! Rules I1-I3: the interrupts an interrupt outcome leaves open, the calls
//! they ask approval for, and what the outcome must not carry.

use super::state::{InterruptDecision, OpenInterrupt};
use super::Tracker;
use crate::events::Interrupt;
use crate::quote::{quoted, quoted_list};
use crate::violation::{Severity, Violation};

impl Tracker {
    /// Rule I1: the outcome's interrupts become the thread's open ones, in
    /// order; a repeated id is a violation (I2) and stays out of the list.
    /// Each call an interrupt names awaits it (I3).
    pub(crate) fn open_interrupts(&mut self, index: usize, interrupts: &[Interrupt]) {
        self.close_interrupts();
        // A set of the ids so far: an outcome may list thousands.
        let mut ids = super::Names::default();
        for interrupt in interrupts {
            if !ids.insert(interrupt.id.clone()) {
                let message = format!(
                    "two interrupts with id {} in one run",
                    quoted(&interrupt.id)
                );
                self.record(Violation::new("I2", Severity::Violation, index, message));
                continue;
            }
            if let Some(call) = &interrupt.tool_call_id {
                self.await_approval(index, call, &interrupt.id);
            }
            self.interrupts.push(OpenInterrupt {
                interrupt: interrupt.clone(),
                decision: InterruptDecision::Open,
            });
        }
        self.changes.run = true;
    }

    /// Rule I3: the call awaits the interrupt; one the thread never saw is
    /// a warning.
    fn await_approval(&mut self, index: usize, tool_call_id: &str, interrupt_id: &str) {
        if let Some(i) = self.call_index(tool_call_id) {
            let call = &mut self.calls[i];
            call.awaiting_interrupt = Some(interrupt_id.to_owned());
            call.pending = false;
            // Only the interrupt's resolution approves it now (rule S3): a
            // standing approval does not answer the agent's own question.
            if call.consent_from.take().is_some() {
                call.consent = super::Consent::Unrequested;
            }
            self.touch(i);
        } else {
            let message = format!(
                "interrupt {} asks approval of tool call {}, which was never seen",
                quoted(interrupt_id),
                quoted(tool_call_id)
            );
            let v = Violation::new("I3", Severity::Warning, index, message).with_call(tool_call_id);
            self.record(v);
        }
    }

    /// The next run starts: the interrupts it resumes close, and the calls
    /// that awaited them are the stream's again.
    pub(crate) fn close_interrupts(&mut self) {
        for open in std::mem::take(&mut self.interrupts) {
            let call = open.interrupt.tool_call_id.as_deref();
            if let Some(i) = call.and_then(|id| self.call_index(id)) {
                if self.calls[i].awaiting_interrupt.as_deref() == Some(&open.interrupt.id) {
                    self.calls[i].awaiting_interrupt = None;
                    self.touch(i);
                }
            }
            self.changes.run = true;
        }
    }

    /// Rule I2: a frontend call rides the success outcome, never an
    /// interrupt; `pending` are the calls the run left pending.
    pub(crate) fn check_frontend_calls_interrupted(&mut self, index: usize, pending: &[usize]) {
        let mut frontend: Vec<&str> = Vec::new();
        for &i in pending {
            if self.calls[i].advertised {
                frontend.push(&self.calls[i].id);
            }
        }
        if let Some(&first) = frontend.first() {
            let message = format!(
                "the run called frontend tool calls {} and ended with the interrupt outcome; a frontend call rides the success outcome",
                quoted_list(frontend.iter().copied())
            );
            let v = Violation::new("I2", Severity::Violation, index, message).with_call(first);
            self.record(v);
        }
    }

    fn record(&mut self, v: Violation) {
        self.violations.record(v);
    }
}
