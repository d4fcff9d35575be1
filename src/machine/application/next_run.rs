//! The run that continues the thread (rules F1, F5, F6): the tool messages
//! it must carry, the check of its input, and seeding the tracker from it.

use super::{ApplicationError, ToolMessage};
use crate::events::RunInput;
use crate::machine::plan::{Op, Plan};
use crate::machine::{ResultSource, RunStatus, Tracker};
use serde_json::Value;
use std::collections::HashSet;
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
        self.undelivered
            .iter()
            .filter_map(|&i| {
                let call = &self.calls[i];
                let answer = call
                    .results
                    .iter()
                    .rfind(|r| r.source == ResultSource::Application)?;
                Some(ToolMessage {
                    id: answer.message_id.clone(),
                    tool_call_id: call.id.clone(),
                    content: answer.content.clone(),
                    error: answer.error.clone(),
                })
            })
            .collect()
    }

    /// The calls a run input leaves unanswered (rule F6), in start order:
    /// every pending call, and every call the application answered whose
    /// answer no run input carried yet, needs a `role: "tool"` message with
    /// its `toolCallId` in `input.messages`. Empty when the input may
    /// continue the thread.
    pub fn check_input(&self, input: &RunInput) -> Vec<UnansweredCall> {
        let answered: HashSet<&str> = input
            .messages
            .iter()
            .filter(|m| m.role == "tool")
            .filter_map(|m| m.tool_call_id.as_deref())
            .collect();
        self.calls
            .iter()
            .enumerate()
            .filter(|(i, c)| c.pending || self.undelivered.contains(i))
            .filter(|(_, c)| !answered.contains(c.id.as_str()))
            .map(|(i, c)| UnansweredCall {
                tool_call_id: c.id.clone(),
                tool_name: c.name.clone(),
                answer_left_out: self.undelivered.contains(&i),
            })
            .collect()
    }

    /// [`Tracker::check_input`] of a `RunAgentInput` given as JSON text.
    pub fn check_input_json(&self, text: &str) -> Result<Vec<UnansweredCall>, ApplicationError> {
        Ok(self.check_input(&read_input(text)?))
    }

    /// The application starts the next run with `input`: refused, changing
    /// nothing, when the input leaves a call unanswered (rule F6); else its
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
        let mut plan = Plan::new(self.events_seen);
        plan.ops.push(Op::RunTools(input.tools));
        self.plan_seed(&mut plan, input.messages, true)
            .map_err(|v| ApplicationError::Limit(v.message))?;
        self.apply(plan);
        Ok(())
    }

    /// The input to send for the next run: `input` (a `RunAgentInput`)
    /// with its `messages` completed so that every completed call of the
    /// thread sits in its assistant message's `toolCalls`, followed at once
    /// by exactly one tool message per call (the ordering rules are those
    /// of module `history`); other fields pass through. The completed
    /// input is then declared as by [`Tracker::start_run`]. Refused,
    /// changing nothing, when a pending call has no answer (naming each),
    /// a run is active, or the input is malformed. Feeding the result back
    /// in adds nothing.
    ///
    /// ```
    /// use agui_tool_calls::{events::Tool, Options, Tracker};
    /// use serde_json::json;
    ///
    /// let mut t = Tracker::new(Options {
    ///     tools: vec![Tool::new("confirm", "", json!({}))],
    ///     ..Options::default()
    /// });
    /// for e in [
    ///     r#"{"type":"RUN_STARTED","threadId":"t","runId":"r1"}"#,
    ///     r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"confirm","parentMessageId":"a1"}"#,
    ///     r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
    ///     r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}"#,
    /// ] {
    ///     t.push_json(e).unwrap();
    /// }
    /// let user = json!({"id": "u1", "role": "user", "content": "deploy"});
    /// let input = json!({"threadId": "t", "runId": "r2", "messages": [user]});
    /// assert!(t.next_run(input.clone()).unwrap_err().to_string().contains("c1 (confirm)"));
    /// t.answer("c1", json!("yes"), "m1").unwrap();
    /// let next = t.next_run(input).unwrap();
    /// let roles: Vec<_> = next["messages"].as_array().unwrap().iter().map(|m| m["role"].clone()).collect();
    /// assert_eq!(roles, ["user", "assistant", "tool"]);
    /// assert_eq!(next["messages"][1]["id"], "a1");
    /// assert_eq!(next["messages"][2]["toolCallId"], "c1");
    /// assert!(t.tool_messages().is_empty());
    /// ```
    pub fn next_run(&mut self, input: Value) -> Result<Value, ApplicationError> {
        if let Some(fatal) = &self.fatal {
            return Err(ApplicationError::Stopped { code: fatal.code });
        }
        if self.run.status == RunStatus::Running || !self.open.is_empty() {
            return Err(ApplicationError::RunActive);
        }
        let Value::Object(mut fields) = input else {
            return Err(ApplicationError::MalformedInput(
                "the run input must be an object".into(),
            ));
        };
        let messages = match fields.remove("messages") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(messages)) => messages,
            Some(_) => {
                return Err(ApplicationError::MalformedInput(
                    "field \"messages\" must be an array".into(),
                ))
            }
        };
        // Checked as history first, so an error names the input's own index.
        let mut check = serde_json::Map::new();
        check.insert("messages".into(), Value::Array(messages.clone()));
        RunInput::from_value(Value::Object(check))
            .map_err(|e| ApplicationError::MalformedInput(e.message))?;
        let completed = self
            .complete_history(&messages)
            .map_err(ApplicationError::Unanswered)?;
        fields.insert("messages".into(), Value::Array(completed));
        let output = Value::Object(fields);
        let declared = RunInput::from_value(output.clone())
            .map_err(|e| ApplicationError::MalformedInput(e.message))?;
        self.start_run(declared)?;
        Ok(output)
    }

    /// [`Tracker::next_run`] with a `RunAgentInput` given as JSON text;
    /// returns the completed input as JSON text.
    pub fn next_run_json(&mut self, text: &str) -> Result<String, ApplicationError> {
        let input: Value = serde_json::from_str(text)
            .map_err(|e| ApplicationError::MalformedInput(format!("invalid JSON: {e}")))?;
        let output = self.next_run(input)?;
        Ok(serde_json::to_string(&output).unwrap_or_default())
    }

    /// [`Tracker::start_run`] with a `RunAgentInput` given as JSON text.
    pub fn start_run_json(&mut self, text: &str) -> Result<(), ApplicationError> {
        let input = read_input(text)?;
        self.start_run(input)
    }
}

fn read_input(text: &str) -> Result<RunInput, ApplicationError> {
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
