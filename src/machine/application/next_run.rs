//! The run that continues the thread (rules F1, F5, F6): the tool messages
//! it must carry, the check of its input, and seeding the tracker from it.

use super::{ApplicationError, ToolMessage};
use crate::events::RunInput;
use crate::machine::plan::{Op, Plan};
use crate::machine::{Names, ResultSource, RunStatus, Tracker};
use std::fmt;

/// The content of the tool message that closes an abandoned call (rule
/// F11; the JS `nextRun` closes one with the same words).
pub const ABANDONED_CONTENT: &str =
    "This tool call was not completed: its run ended before the call was answered.";

/// The `error` of that message.
const ABANDONED_ERROR: &str = "abandoned";

/// The content of the tool message that closes a call a cancelled run left
/// unanswered (rule L8; `CANCELLED` of the JS `next-run.js`), its `error`
/// `"cancelled"`.
pub const CANCELLED_CONTENT: &str =
    "This tool call was not completed: its run was cancelled before the call was answered.";

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
    ///
    /// A call abandoned with no answer (its run failed, or the application
    /// stopped it mid-stream), or completed in such a run and left
    /// unanswered, gets a closing message too (rule F11):
    /// `<toolCallId>:closed` (a number appended while the thread uses that
    /// id), `error: "abandoned"`, [`ABANDONED_CONTENT`]. The application's
    /// history may hold the call half-streamed (an `@ag-ui/client` agent's
    /// does), and a dangling call is one most models reject. It stops being
    /// listed once a run input answers the call, or is declared without
    /// holding it. A call a cancelled run left unanswered (rule L8) gets
    /// one too, saying so: [`CANCELLED_CONTENT`], `error: "cancelled"`.
    pub fn tool_messages(&self) -> Vec<ToolMessage> {
        // Loops rather than `collect` over adapters (size). Both sets are
        // in call order: a merge keeps the list in call order too.
        let mut messages = Vec::new();
        let mut closing = Vec::new();
        for &c in &self.unclosed {
            closing.push(c);
        }
        let mut next = 0;
        for &i in &self.undelivered {
            while next < closing.len() && closing[next] < i {
                messages.push(self.closing_message(closing[next]));
                next += 1;
            }
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
        for &c in &closing[next..] {
            messages.push(self.closing_message(c));
        }
        messages
    }

    /// The tool message closing abandoned call `i` (rule F11).
    fn closing_message(&self, i: usize) -> ToolMessage {
        let call = &self.calls[i];
        let mut id = call.id.clone() + ":closed";
        let base = id.len();
        let mut n = 1u32;
        while self.message_ids.contains(&id) || self.messages.contains_key(&id) {
            n += 1;
            id.truncate(base);
            id += &n.to_string();
        }
        let (content, error) = if call.cancelled {
            (CANCELLED_CONTENT, "cancelled")
        } else {
            (ABANDONED_CONTENT, ABANDONED_ERROR)
        };
        ToolMessage {
            id,
            tool_call_id: call.id.clone(),
            content: crate::events::Opaque::string(content),
            error: Some(error.to_owned()),
        }
    }

    /// The calls a run input leaves unanswered (rule F6), in start order:
    /// every pending call, and every call the application answered whose
    /// answer no run input carried yet, needs a `role: "tool"` message with
    /// its `toolCallId` in `input.messages`. Empty when the input may
    /// continue the thread.
    ///
    /// The input's own history counts too: a call it holds with no tool
    /// message answering it is unanswered when the tracker has its answer
    /// (an abandoned call's closing message, rule F11), or when the tracker
    /// never saw it and it calls a tool the run advertises (rule F8: a call
    /// restored from history is the user's to answer, not the next run's to
    /// skip).
    pub fn check_input(&self, input: &RunInput) -> Vec<UnansweredCall> {
        // Owned ids, as in `plan_seed`.
        let mut answered = Names::default();
        for m in input.messages.iter().filter(|m| m.role == "tool") {
            if let Some(id) = &m.tool_call_id {
                answered.insert(id.clone());
            }
        }
        let mut held = Names::default();
        let mut restored = Vec::new();
        for m in &input.messages {
            for c in &m.tool_calls {
                if held.insert(c.id.clone())
                    && !self.by_id.contains_key(&c.id)
                    && !answered.contains(&c.id)
                    && self.advertised_by(input, &c.name)
                {
                    restored.push(UnansweredCall {
                        tool_call_id: c.id.clone(),
                        tool_name: c.name.clone(),
                        answer_left_out: false,
                    });
                }
            }
        }
        let mut unanswered = Vec::new();
        for (i, c) in self.calls.iter().enumerate() {
            let undelivered = self.undelivered.contains(&i)
                || (self.unclosed.contains(&i) && held.contains(&c.id));
            if (c.pending || undelivered) && !answered.contains(&c.id) {
                unanswered.push(UnansweredCall {
                    tool_call_id: c.id.clone(),
                    tool_name: c.name.clone(),
                    answer_left_out: undelivered,
                });
            }
        }
        unanswered.append(&mut restored);
        unanswered
    }

    /// Whether a run declared with `input` advertises tool `name` (rule F1):
    /// the input's tools replace the run's, the options' stay.
    fn advertised_by(&self, input: &RunInput, name: &str) -> bool {
        if let Some(tools) = &input.tools {
            for t in tools {
                if t.name == name {
                    return true;
                }
            }
        }
        self.option_tools.get(name).is_some()
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
        self.declare(input, true)
    }

    /// A run input's history, seeded (rule A5): checked first (F6) when it
    /// starts a run; `restore`'s keeps the tools when it gives none.
    fn declare(&mut self, input: RunInput, starts: bool) -> Result<(), ApplicationError> {
        if let Some(fatal) = &self.fatal {
            return Err(ApplicationError::Stopped { code: fatal.code });
        }
        if self.run.status == RunStatus::Running || !self.open.is_empty() {
            return Err(ApplicationError::RunActive);
        }
        if starts {
            let unanswered = self.check_input(&input);
            if !unanswered.is_empty() {
                return Err(ApplicationError::Unanswered(unanswered));
            }
        }
        let uncovered = self.check_resume(&input);
        if !uncovered.is_empty() {
            return Err(ApplicationError::Uncovered(uncovered));
        }
        let mut plan = Plan::new(self.events_seen);
        self.plan_resume_warnings(&mut plan, &input);
        if starts || input.tools.is_some() {
            plan.ops.push(Op::RunTools(input.tools, false));
        }
        self.plan_seed(&mut plan, input.messages, true)
            .and_then(|()| self.charge(&mut plan))
            .map_err(|v| ApplicationError::Limit(v.message))?;
        self.apply(&mut plan);
        self.declared |= starts;
        Ok(())
    }

    /// [`Tracker::start_run`] with a `RunAgentInput` given as JSON text.
    pub fn start_run_json(&mut self, text: &str) -> Result<(), ApplicationError> {
        let input = read_input(text)?;
        self.start_run(input)
    }

    /// Restores a thread from its saved history (a page reloaded): the
    /// input's messages seed the tracker as a run input's do (rule A5), its
    /// tools, when given, are advertised (F1), and a call to an advertised
    /// tool that no tool message answers is pending again (F8), for the
    /// application to answer before the next run. No run starts and nothing
    /// is checked: the history is what was sent before. Refused, changing
    /// nothing, while a run is active or after a fatal violation.
    ///
    /// ```
    /// use agui_tool_calls::{events::Tool, Options, Tracker};
    /// use serde_json::json;
    ///
    /// let mut t = Tracker::new(Options {
    ///     tools: vec![Tool::new("confirm", "", json!({"type": "object"}))],
    ///     ..Options::default()
    /// });
    /// let saved = json!({"messages": [
    ///     {"id": "u1", "role": "user", "content": "Deploy?"},
    ///     {"id": "a1", "role": "assistant", "toolCalls": [
    ///         {"id": "c1", "type": "function", "function": {"name": "confirm", "arguments": "{}"}}]},
    /// ]});
    /// t.restore_json(&saved.to_string()).unwrap();
    /// assert_eq!(t.pending_calls().next().unwrap().id, "c1");
    /// t.answer("c1", json!("yes"), "m1").unwrap();
    /// ```
    pub fn restore(&mut self, input: RunInput) -> Result<(), ApplicationError> {
        self.declare(input, false)
    }

    /// [`Tracker::restore`] with a `RunAgentInput` (or `{messages, tools?}`)
    /// given as JSON text.
    pub fn restore_json(&mut self, text: &str) -> Result<(), ApplicationError> {
        let input = RunInput::from_history_json(text)
            .map_err(|e| ApplicationError::MalformedInput(e.into()))?;
        self.restore(input)
    }
}

pub(super) fn read_input(text: &str) -> Result<RunInput, ApplicationError> {
    RunInput::from_json(text).map_err(|e| ApplicationError::MalformedInput(e.into()))
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
