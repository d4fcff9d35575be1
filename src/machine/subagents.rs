//! The subagent tree (rules A8-A10): each invocation `SUBAGENT_STARTED`
//! announces, with the call or subagent that spawned it and where it
//! stands. Its calls are the calls it owns ([`ToolCall::owner`]).

use super::plan::{Op, Plan};
use super::state::ToolCall;
use super::Tracker;
use crate::events::{Opaque, SubagentStart};
use crate::quote::quoted;
use crate::violation::{Severity, Violation};

/// Where a subagent invocation stands (rule A8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubagentStatus {
    /// Announced, not yet closed.
    Running,
    /// `SUBAGENT_FINISHED` with no outcome or a success one.
    Finished,
    /// `SUBAGENT_FINISHED` with a `suspended` outcome: paused awaiting
    /// outside input; a later run may continue it under the same id.
    Suspended,
    /// `SUBAGENT_ERROR`.
    Errored,
    /// Still running when its run failed (`RUN_ERROR`) or the application
    /// aborted it.
    Abandoned,
}

/// One announced subagent invocation (rule A8).
///
/// ```
/// use agui_tool_calls::{Options, SubagentStatus, Tracker};
///
/// let mut t = Tracker::new(Options::default());
/// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
/// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"research"}"#).unwrap();
/// t.push_json(r#"{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"researcher","parentToolCallId":"c1"}"#).unwrap();
/// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"search","subagentRunId":"s1"}"#).unwrap();
/// let s = &t.subagents()[0];
/// assert_eq!((s.name.as_str(), s.parent_tool_call_id.as_deref()), ("researcher", Some("c1")));
/// assert_eq!(s.status, SubagentStatus::Running);
/// assert_eq!(t.subagent_calls("s1").map(|c| c.id.as_str()).collect::<Vec<_>>(), ["c2"]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Subagent {
    /// `subagentRunId`: the invocation.
    pub id: String,
    /// `name`: the subagent.
    pub name: String,
    /// `description`, for display.
    pub description: Option<String>,
    /// `parentToolCallId`: the call that spawned it.
    pub parent_tool_call_id: Option<String>,
    /// `parentSubagentRunId`: the invocation that spawned it; `None` is
    /// the parent agent.
    pub parent_subagent_run_id: Option<String>,
    /// `parentMessageId`: the message that held the spawning call.
    pub parent_message_id: Option<String>,
    /// Where it stands.
    pub status: SubagentStatus,
    /// The interrupts a suspended invocation raised itself (may be empty).
    pub interrupt_ids: Vec<String>,
    /// `SUBAGENT_ERROR`'s message and code.
    pub error: Option<(String, Option<String>)>,
    /// `SUBAGENT_FINISHED.result`: its return value, opaque, kept as given.
    pub result: Option<Opaque>,
    /// The run (`runs_started`) that last announced it.
    pub(crate) run: u32,
    /// Changed since the binding last took changes.
    pub(crate) dirty: bool,
}

/// A change to the subagent tree, planned then applied.
#[derive(Debug)]
pub(crate) enum SubagentOp {
    /// Announces (or, in a later run, continues) an invocation.
    Start(String, Box<SubagentStart>),
    /// Closes the invocation at this index.
    End {
        index: usize,
        status: SubagentStatus,
        interrupt_ids: Vec<String>,
        error: Option<(String, Option<String>)>,
        result: Option<Opaque>,
    },
}

impl Tracker {
    /// The announced subagents, in the order first announced (rule A8).
    pub fn subagents(&self) -> &[Subagent] {
        &self.subagents
    }

    /// The subagent announced as `id`.
    pub fn subagent(&self, id: &str) -> Option<&Subagent> {
        self.subagent_ids.get(id).map(|&i| &self.subagents[i])
    }

    /// The calls subagent `id` owns, in start order (a scan of the calls:
    /// for reports, not for every event).
    pub fn subagent_calls<'t>(&'t self, id: &'t str) -> impl Iterator<Item = &'t ToolCall> + 't {
        self.calls
            .iter()
            .filter(move |c| c.owner.as_deref() == Some(id))
    }

    fn running_in_run(&self, i: usize) -> bool {
        self.subagents[i].run == self.run.runs_started
    }

    /// `SUBAGENT_STARTED` (rules A8-A10, S5).
    pub(crate) fn plan_subagent_start(
        &self,
        plan: &mut Plan,
        id: String,
        start: Box<SubagentStart>,
    ) -> Result<(), Violation> {
        let known = self.subagent_ids.get(id.as_str()).copied();
        let again = known.and_then(|i| match self.subagents[i].status {
            SubagentStatus::Running => Some("is already running"),
            _ if self.running_in_run(i) => Some("already ended in this run"),
            _ => None,
        });
        let parent = start.parent_subagent_run_id.as_deref();
        let orphan = parent
            .filter(|p| !(self.subagent_ids.get(*p)).is_some_and(|&i| self.running_in_run(i)));
        let message = if let Some(why) = again {
            format!("SUBAGENT_STARTED for subagent {}, which {why}", quoted(&id))
        } else if let Some(parent) = orphan {
            format!(
                "subagent {} names parent subagent {}, which was not announced in this run",
                quoted(&id),
                quoted(parent)
            )
        } else if known.is_none()
            && self.calls.len() + self.subagents.len() >= self.options.limits.max_calls
        {
            let limit = self.options.limits.max_calls;
            let message = format!(
                "subagent {} exceeds the limit of {limit} tool calls and subagents per thread",
                quoted(&id)
            );
            return Err(plan.fatal("S5", message));
        } else {
            if let Some(call) = &start.parent_tool_call_id {
                if !self.by_id.contains_key(call.as_str()) {
                    let message = format!(
                        "subagent {} names parent call {}, which the thread never saw",
                        quoted(&id),
                        quoted(call)
                    );
                    let v = plan
                        .violation("A10", Severity::Warning, message)
                        .with_call(call);
                    plan.record(v);
                }
            }
            if self.tagged.contains(&id) {
                // The announcement must come first; the events are kept
                // and the tree finds them by owner.
                let message = format!(
                    "subagent {} announced after events attributed to it in this run",
                    quoted(&id)
                );
                let v = plan.violation("A10", Severity::Warning, message);
                plan.record(v);
            }
            plan.ops.push(Op::Subagent(SubagentOp::Start(id, start)));
            return Ok(());
        };
        Err(plan.fatal("A9", message))
    }

    /// Rule A10: a call started under an invocation that already ended in
    /// this run; kept, attributed as tagged. (One started under an id not
    /// announced yet is flagged when the announcement comes.)
    pub(crate) fn check_subagent_ended(&self, plan: &mut Plan, call: &str, owner: Option<&str>) {
        let Some(&i) = owner.and_then(|o| self.subagent_ids.get(o)) else {
            return;
        };
        if self.subagents[i].status != SubagentStatus::Running && self.running_in_run(i) {
            let message = format!(
                "tool call {} started under subagent {}, which already ended in this run",
                quoted(call),
                quoted(&self.subagents[i].id)
            );
            let v = plan
                .violation("A10", Severity::Warning, message)
                .with_call(call);
            plan.record(v);
        }
    }

    /// `SUBAGENT_FINISHED` / `SUBAGENT_ERROR` (rules A8, A9).
    pub(crate) fn plan_subagent_end(
        &self,
        plan: &mut Plan,
        id: &str,
        status: SubagentStatus,
        interrupt_ids: Vec<String>,
        error: Option<(String, Option<String>)>,
        result: Option<Opaque>,
    ) -> Result<(), Violation> {
        match self.subagent_ids.get(id) {
            Some(&index) if self.subagents[index].status == SubagentStatus::Running => {
                plan.ops.push(Op::Subagent(SubagentOp::End {
                    index,
                    status,
                    interrupt_ids,
                    error,
                    result,
                }));
                Ok(())
            }
            _ => {
                let ty = if error.is_some() {
                    "SUBAGENT_ERROR"
                } else {
                    "SUBAGENT_FINISHED"
                };
                let message = format!("{ty} for subagent {}, which is not running", quoted(id));
                Err(plan.fatal("A9", message))
            }
        }
    }

    /// The run ends: `RUN_FINISHED` with an invocation running is fatal
    /// (rule A9, naming each); `RUN_ERROR` and the application's abort
    /// abandon them.
    pub(crate) fn plan_subagents_left_running(
        &self,
        plan: &mut Plan,
        finished: bool,
    ) -> Result<(), Violation> {
        // Plain loops: an iterator chain over the subagents is code of its
        // own in the wasm module.
        let mut running = String::new();
        for s in &self.subagents {
            if s.status == SubagentStatus::Running {
                running.push_str(if running.is_empty() { "[" } else { ", " });
                running.push_str(&quoted(&s.id));
            }
        }
        if finished && !running.is_empty() {
            running.insert_str(0, "RUN_FINISHED while subagents are running: ");
            running.push(']');
            return Err(plan.fatal("A9", running));
        }
        for index in 0..self.subagents.len() {
            if self.subagents[index].status == SubagentStatus::Running {
                plan.ops.push(Op::Subagent(SubagentOp::End {
                    index,
                    status: SubagentStatus::Abandoned,
                    interrupt_ids: Vec::new(),
                    error: None,
                    result: None,
                }));
            }
        }
        Ok(())
    }

    pub(crate) fn apply_subagent(&mut self, op: SubagentOp) {
        let index = match op {
            SubagentOp::Start(id, start) => {
                let start = *start;
                let subagent = Subagent {
                    id,
                    name: start.name,
                    description: start.description,
                    parent_tool_call_id: start.parent_tool_call_id,
                    parent_subagent_run_id: start.parent_subagent_run_id,
                    parent_message_id: start.parent_message_id,
                    status: SubagentStatus::Running,
                    interrupt_ids: Vec::new(),
                    error: None,
                    result: None,
                    run: self.run.runs_started,
                    dirty: false,
                };
                if let Some(&i) = self.subagent_ids.get(subagent.id.as_str()) {
                    // Continued in a later run: what it says now stands
                    // (marked changed once, as before).
                    let dirty = self.subagents[i].dirty;
                    self.subagents[i] = Subagent { dirty, ..subagent };
                    i
                } else {
                    let i = self.subagents.len();
                    self.subagent_ids.insert(subagent.id.clone(), i);
                    self.subagents.push(subagent);
                    i
                }
            }
            SubagentOp::End {
                index,
                status,
                interrupt_ids,
                error,
                result,
            } => {
                let s = &mut self.subagents[index];
                s.status = status;
                s.interrupt_ids = interrupt_ids;
                s.error = error;
                s.result = result;
                index
            }
        };
        let s = &mut self.subagents[index];
        if !s.dirty {
            s.dirty = true;
            self.changes.subagents.push(index);
        }
    }
}

/// The bytes a new subagent keeps (rule S5): the record, its id twice
/// (the record and the index by id) and its strings.
pub(crate) fn subagent_bytes(id: &str, start: &SubagentStart) -> usize {
    let opt = |s: &Option<String>| s.as_deref().map_or(0, str::len);
    std::mem::size_of::<Subagent>()
        + 2 * id.len()
        + start.name.len()
        + opt(&start.description)
        + opt(&start.parent_tool_call_id)
        + opt(&start.parent_subagent_run_id)
        + opt(&start.parent_message_id)
}
