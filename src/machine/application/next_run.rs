//! The run that continues the thread (rules F1, F5, F6): the tool messages
//! it must carry, the check of its input, and seeding the tracker from it.

use super::{ApplicationError, ToolMessage};
use crate::events::RunInput;
use crate::machine::plan::{Op, Plan};
use crate::machine::{Names, ResultSource, RunStatus, Tracker};
use std::fmt;

/// A call the next run's input leaves unanswered (rule F6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnansweredCall {
    /// The call's id.
    pub tool_call_id: String,
    /// The tool it calls.
    pub tool_name: String,
    /// The application answered the call, but the input does not carry
    /// that answer (see [`Tracker::tool_messages`]).
    pub answer_left_out: bool,
}

impl Tracker {
    /// The tool messages the application produced that no run input has
    /// carried yet, in the order their calls were started: the next run's
    /// `messages` must include them. A message stops being listed once a
    /// run input ([`Tracker::start_run`] or `RUN_STARTED.input`) carries a
    /// tool message for its call.
    pub fn tool_messages(&self) -> Vec<ToolMessage> {
        // Loops rather than `collect` over adapters (size).
        let mut messages = Vec::new();
        for &i in &self.undelivered {
            let call = &self.calls[i];
            let answer = call
                .results
                .iter()
                .rfind(|r| r.source == ResultSource::Application);
            if let Some(answer) = answer {
                messages.push(ToolMessage {
                    id: answer.message_id.clone(),
                    tool_call_id: call.id.clone(),
                    content: answer.content.clone(),
                    error: answer.error.clone(),
                });
            }
        }
        messages
    }

    /// The calls a run input leaves unanswered (rule F6), in start order:
    /// every pending call, and every call the application answered whose
    /// answer no run input carried yet, needs a `role: "tool"` message with
    /// its `toolCallId` in `input.messages`. Empty when the input may
    /// continue the thread.
    pub fn check_input(&self, input: &RunInput) -> Vec<UnansweredCall> {
        // Owned ids, as in `plan_seed`.
        let mut answered = Names::default();
        for m in input.messages.iter().filter(|m| m.role == "tool") {
            if let Some(id) = &m.tool_call_id {
                answered.insert(id.clone());
            }
        }
        let mut unanswered = Vec::new();
        for (i, c) in self.calls.iter().enumerate() {
            let undelivered = self.undelivered.contains(&i);
            if (c.pending || undelivered) && !answered.contains(&c.id) {
                unanswered.push(UnansweredCall {
                    tool_call_id: c.id.clone(),
                    tool_name: c.name.clone(),
                    answer_left_out: undelivered,
                });
            }
        }
        unanswered
    }

    /// [`Tracker::check_input`] of a `RunAgentInput` given as JSON text.
    pub fn check_input_json(&self, text: &str) -> Result<Vec<UnansweredCall>, ApplicationError> {
        Ok(self.check_input(&read_input(text)?))
    }

    /// The application starts the next run with `input`: refused, changing
    /// nothing, when the input leaves a call unanswered (rule F6) or an open
    /// interrupt uncovered (rule I5); else its
    /// tools are advertised (F1), its messages seed the history like
    /// `RUN_STARTED.input` (A5) and its tool messages deliver the
    /// application's answers. The run itself starts with the stream's
    /// `RUN_STARTED`, which may echo the same input.
    pub fn start_run(&mut self, input: RunInput) -> Result<(), ApplicationError> {
        if let Some(fatal) = &self.fatal {
            return Err(ApplicationError::Stopped { code: fatal.code });
        }
        if self.run.status == RunStatus::Running || !self.open.is_empty() {
            return Err(ApplicationError::RunActive);
        }
        let unanswered = self.check_input(&input);
        if !unanswered.is_empty() {
            return Err(ApplicationError::Unanswered(unanswered));
        }
        let uncovered = self.check_resume(&input);
        if !uncovered.is_empty() {
            return Err(ApplicationError::Uncovered(uncovered));
        }
        let mut plan = Plan::new(self.events_seen);
        self.plan_resume_warnings(&mut plan, &input);
        plan.ops.push(Op::RunTools(input.tools, false));
        self.plan_seed(&mut plan, input.messages, true)
            .and_then(|()| self.charge(&mut plan))
            .map_err(|v| ApplicationError::Limit(v.message))?;
        self.apply(&mut plan);
        Ok(())
    }

    /// [`Tracker::start_run`] with a `RunAgentInput` given as JSON text.
    pub fn start_run_json(&mut self, text: &str) -> Result<(), ApplicationError> {
        let input = read_input(text)?;
        self.start_run(input)
    }
}

pub(super) fn read_input(text: &str) -> Result<RunInput, ApplicationError> {
    RunInput::from_json(text).map_err(|e| ApplicationError::MalformedInput(e.message))
}

/// `the next run's input leaves 2 pending tool calls unanswered: c1 (f), c2 (g)`.
pub(super) fn describe_unanswered(
    f: &mut fmt::Formatter<'_>,
    calls: &[UnansweredCall],
) -> fmt::Result {
    let plural = if calls.len() == 1 { "" } else { "s" };
    write!(
        f,
        "the next run's input leaves {} pending tool call{plural} unanswered: ",
        calls.len()
    )?;
    for (n, call) in calls.iter().enumerate() {
        if n > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{} ({}", call.tool_call_id, call.tool_name)?;
        if call.answer_left_out {
            f.write_str("; its answer is not in the input")?;
        }
        f.write_str(")")?;
    }
    Ok(())
}
