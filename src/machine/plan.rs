//! Validation: each event becomes a plan of primitive operations, every
//! rule checked before anything changes (validate-then-apply). A rejected
//! event leaves the tracker exactly as it was.

use super::indices::Indices;
use super::lanes::{owner_name, LaneKey, ToolChunk};
use super::state::{CallStatus, ResultSource, RunStatus, ToolResult};
use super::subagents::{SubagentOp, SubagentStatus};
use super::{Names, Tracker};
use crate::events::{
    Event, EventBody, Family, JsonStr, Message, Opaque, Outcome, Stripped, Text, Tool,
};
use crate::quote::{quoted, quoted_list, quoted_or_none};
use crate::violation::{Severity, Violation};

/// Which call an operation acts on.
#[derive(Clone, Copy, Debug)]
pub(crate) enum CallRef {
    Index(usize),
    /// The call the last `Start` of the plan opened.
    Last,
}

/// What an event's `metadata` or an encrypted value goes to (rule F10).
#[derive(Debug)]
pub(crate) enum Target {
    Call(CallRef),
    /// A message, by id.
    Message(String),
}

/// A call (re)opened by `TOOL_CALL_START` or an opening chunk.
#[derive(Debug)]
pub(crate) struct Start {
    pub id: String,
    pub name: String,
    pub parent: Option<String>,
    pub owner: Option<String>,
    /// The closed call it reopens (rule T7).
    pub reopen: Option<usize>,
    /// The chunk lane that holds it open.
    pub lane: Option<LaneKey>,
}

/// One primitive change; applying an op never fails.
///
/// The rare large payloads (a start, a result, a violation) are boxed: an
/// op is as big as its largest variant, and the commonest, a delta's
/// `Args`, is built and moved at that size on every event.
#[derive(Debug)]
pub(crate) enum Op<'a> {
    /// Ends a call.
    End(usize),
    Abandon(usize),
    ClearToolLane(LaneKey),
    ClearTextLane(LaneKey),
    ClearAllLanes,
    Start(Box<Start>),
    Args(CallRef, JsonStr<'a>),
    Result {
        call: Option<usize>,
        tool_call_id: String,
        result: Box<ToolResult>,
    },
    MessageOwner(String, Option<String>),
    TextLane(LaneKey, String),
    /// An event's `metadata`, merged into what it builds (rule F10).
    Merge(Target, Opaque),
    /// `REASONING_ENCRYPTED_VALUE`: the value and its type, replacing
    /// what the target held (rule F10).
    Encrypted(Target, Opaque, Option<Opaque>),
    RunStarted {
        thread_id: String,
        run_id: String,
        parent_run_id: Option<String>,
    },
    RunFinished {
        result: Option<Opaque>,
        outcome: Option<Outcome>,
    },
    RunError {
        message: String,
        code: Option<String>,
    },
    /// The application ended the run locally ([`Tracker::abort_run`]).
    RunAborted {
        reason: Option<String>,
    },
    /// Replaces the tools advertised by run input (rule F1); `true` when
    /// the stream's `RUN_STARTED.input` gives them, not the application.
    RunTools(Option<Vec<Tool>>, bool),
    /// History; `run_input` when a run input carries it (rule F5).
    Seed {
        messages: Vec<Message>,
        run_input: bool,
    },
    Record(Box<Violation>),
    /// The subagent tree (rule A8).
    Subagent(SubagentOp),
}

/// A plan's ops, in order. The first is held in place: most events make
/// one op, and a plan that allocated its list paid an allocation and a
/// free on every event (a tenth of the core's time per argument delta).
#[derive(Default)]
pub(crate) struct Ops<'a> {
    /// The first op, if any.
    pub first: Option<Op<'a>>,
    /// The ops after it (none while `first` is empty). Readers handle
    /// `first` and then these, in plain loops: a chained iterator weighed
    /// more in the module.
    pub rest: Vec<Op<'a>>,
}

impl<'a> Ops<'a> {
    // Inlined: a call per op moved the op once more.
    #[inline]
    pub fn push(&mut self, op: Op<'a>) {
        // `first` is filled first and never emptied but by consuming.
        if self.first.is_none() {
            self.first = Some(op);
        } else {
            self.rest.push(op);
        }
    }
}

/// The operations of one event, and the calls they close so far.
pub(crate) struct Plan<'a> {
    pub index: usize,
    pub ops: Ops<'a>,
    /// Calls an earlier op of this plan closes. A sorted list, one
    /// hash-set instantiation less in the wasm module: plans close calls in
    /// ascending runs (the lanes', sorted, then the open set's), so an
    /// insert moves at most the lanes' entries (`maxLanes`).
    closing: Indices,
    new_calls: usize,
    /// The bytes applying the plan makes the thread retain (rule S5).
    pub cost: usize,
}

impl Plan<'_> {
    pub fn new(index: usize) -> Self {
        Plan {
            index,
            ops: Ops::default(),
            closing: Indices::default(),
            new_calls: 0,
            cost: 0,
        }
    }

    /// A fatal violation at this event.
    pub fn fatal(&self, code: &'static str, message: impl Into<String>) -> Violation {
        self.violation(code, Severity::Fatal, message)
    }

    pub fn violation(
        &self,
        code: &'static str,
        severity: Severity,
        message: impl Into<String>,
    ) -> Violation {
        Violation::new(code, severity, self.index, message)
    }

    pub fn record(&mut self, v: Violation) {
        self.ops.push(Op::Record(Box::new(v)));
    }

    pub fn end(&mut self, index: usize) {
        if self.closing.insert(index) {
            self.ops.push(Op::End(index));
        }
    }

    pub fn abandon(&mut self, index: usize) {
        if self.closing.insert(index) {
            self.ops.push(Op::Abandon(index));
        }
    }

    /// Merges an event's `metadata`, when it has one, into `target`.
    pub fn merge(&mut self, target: Target, metadata: Option<Opaque>) {
        if let Some(m) = metadata {
            self.ops.push(Op::Merge(target, m));
        }
    }
}

impl Tracker {
    /// Whether a call is open once the plan's earlier ops are applied.
    fn open_in(&self, plan: &Plan, index: usize) -> bool {
        self.calls[index].status == CallStatus::Open && !plan.closing.contains(&index)
    }

    /// Turns one event into `plan` (new, made by the caller), or the fatal
    /// violation it commits. The event is taken by reference and what the
    /// plan keeps of it moved out, and the plan is filled where the caller
    /// keeps it: either, passed or returned by value, was copied whole on
    /// the way (a `memory.copy` per event in wasm).
    pub(crate) fn plan<'a>(
        &self,
        plan: &mut Plan<'a>,
        event: &mut Event<'a>,
    ) -> Result<(), Violation> {
        self.check_lifecycle(plan, event)?;
        self.plan_lane_closing(plan, event);
        let owner = event.owner.take();
        let metadata = event.metadata.take();
        let body = &mut event.body;
        match body {
            // The commonest event, read where it lies.
            EventBody::ToolCallArgs {
                tool_call_id,
                delta,
            } => return self.plan_args(plan, tool_call_id, delta, owner.as_deref(), metadata),
            EventBody::RunStarted { .. }
            | EventBody::RunFinished { .. }
            | EventBody::RunError { .. }
            | EventBody::MessagesSnapshot { .. } => self.plan_run_event(plan, take(body))?,
            EventBody::TextMessageStart { .. }
            | EventBody::TextMessageContent { .. }
            | EventBody::TextMessageEnd { .. }
            | EventBody::TextMessageChunk { .. } => {
                self.plan_text_event(plan, take(body), owner, metadata)?;
            }
            EventBody::ToolCallStart { .. }
            | EventBody::ToolCallEnd { .. }
            | EventBody::ToolCallChunk { .. }
            | EventBody::ToolCallResult { .. } => {
                self.plan_tool_event(plan, take(body), owner, metadata)?;
            }
            EventBody::SubagentStarted(_)
            | EventBody::SubagentFinished { .. }
            | EventBody::SubagentError { .. } => {
                self.plan_subagent_event(plan, take(body), owner)?;
            }
            EventBody::EncryptedValue { .. } | EventBody::Other { .. } => {
                self.plan_aside_event(plan, take(body));
            }
        }
        self.charge(plan)
    }

    /// `TOOL_CALL_ARGS` (rules T1, A3, S5), planned and charged.
    #[inline]
    fn plan_args<'a>(
        &self,
        plan: &mut Plan<'a>,
        tool_call_id: &str,
        delta: &mut JsonStr<'a>,
        owner: Option<&str>,
        metadata: Option<Opaque>,
    ) -> Result<(), Violation> {
        let i = self.open_call(plan, tool_call_id, owner, "T1", "TOOL_CALL_ARGS")?;
        // With metadata (rare), not alone in its plan: charged in full.
        if let Some(m) = metadata {
            plan.ops.push(Op::Merge(Target::Call(CallRef::Index(i)), m));
        }
        // An empty delta appends nothing, and must not turn a high
        // surrogate held for its pair into U+FFFD as a delta that
        // does not begin with the low half would.
        if delta.is_empty() {
            return self.charge(plan);
        }
        // Alone in its plan (no lane closed before it), the delta
        // is charged by itself.
        let alone = plan.ops.first.is_none();
        // What the reader will append: the text, and the character
        // of a surrogate pair joined or left alone.
        let added = self.calls[i].args.tail().push_delta(delta);
        plan.ops
            .push(Op::Args(CallRef::Index(i), std::mem::take(delta)));
        if alone {
            self.charge_delta(plan, i, added)
        } else {
            self.charge(plan)
        }
    }

    /// `RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR` and `MESSAGES_SNAPSHOT`
    /// (rules L4, A5, A8, F1, F5, P1-P3); any other body plans nothing.
    #[inline]
    fn plan_run_event<'a>(
        &self,
        plan: &mut Plan<'a>,
        body: EventBody<'a>,
    ) -> Result<(), Violation> {
        match body {
            EventBody::RunStarted {
                thread_id,
                run_id,
                parent_run_id,
                input,
            } => {
                plan.ops.push(Op::RunStarted {
                    thread_id: thread_id.into_owned(),
                    run_id: run_id.into_owned(),
                    parent_run_id: parent_run_id.map(Text::into_owned),
                });
                if let Some(input) = input {
                    let input = *input;
                    record_stripped(plan, input.stripped, None);
                    plan.ops.push(Op::RunTools(input.tools, true));
                    self.plan_seed(plan, input.messages, true)?;
                }
            }
            EventBody::RunFinished {
                result,
                outcome,
                stripped,
                ..
            } => {
                self.check_nothing_left_open(plan)?;
                self.plan_subagents_left_running(plan, true)?;
                record_stripped(plan, stripped, None);
                plan.ops.push(Op::RunFinished { result, outcome });
            }
            EventBody::RunError { message, code } => {
                for &i in &self.open {
                    plan.abandon(i);
                }
                self.plan_subagents_left_running(plan, false)?;
                plan.ops.push(Op::RunError {
                    message: message.into_owned(),
                    code: code.map(Text::into_owned),
                });
            }
            EventBody::MessagesSnapshot { messages, stripped } => {
                record_stripped(plan, stripped, None);
                self.plan_seed(plan, messages, false)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The `TEXT_MESSAGE_*` events: a message's owner (rule A1), its
    /// `metadata` (rule F10) and chunks (rules C1-C7); any other body plans
    /// nothing.
    #[inline]
    fn plan_text_event<'a>(
        &self,
        plan: &mut Plan<'a>,
        body: EventBody<'a>,
        owner: Option<Text<'a>>,
        metadata: Option<Opaque>,
    ) -> Result<(), Violation> {
        match body {
            EventBody::TextMessageStart { message_id, .. } => {
                let message_id = message_id.into_owned();
                // The owner first: the message is then known to merge into.
                let target = metadata
                    .is_some()
                    .then(|| Target::Message(message_id.clone()));
                plan.ops
                    .push(Op::MessageOwner(message_id, owner.map(Text::into_owned)));
                if let Some(target) = target {
                    plan.merge(target, metadata);
                }
            }
            EventBody::TextMessageContent { message_id, .. }
            | EventBody::TextMessageEnd { message_id } => {
                plan.merge(Target::Message(message_id.into_owned()), metadata);
            }
            EventBody::TextMessageChunk { message_id, .. } => {
                self.plan_text_chunk(plan, owner, message_id, metadata)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// `TOOL_CALL_START`, `TOOL_CALL_END`, `TOOL_CALL_CHUNK` and
    /// `TOOL_CALL_RESULT` (their rules at `plan_start`, `open_call`,
    /// `plan_tool_chunk` and `plan_result`); any other body plans nothing.
    #[inline]
    fn plan_tool_event<'a>(
        &self,
        plan: &mut Plan<'a>,
        body: EventBody<'a>,
        owner: Option<Text<'a>>,
        metadata: Option<Opaque>,
    ) -> Result<(), Violation> {
        match body {
            EventBody::ToolCallStart {
                tool_call_id,
                tool_call_name,
                parent_message_id,
                null_parent,
            } => self
                .plan_start(
                    plan,
                    tool_call_id,
                    tool_call_name,
                    parent_message_id,
                    owner,
                    None,
                )
                .map(|()| {
                    retired_parent(plan, null_parent);
                    plan.merge(Target::Call(CallRef::Last), metadata);
                })?,
            EventBody::ToolCallEnd { tool_call_id } => {
                let i =
                    self.open_call(plan, &tool_call_id, owner.as_deref(), "T2", "TOOL_CALL_END")?;
                plan.end(i);
                plan.merge(Target::Call(CallRef::Index(i)), metadata);
            }
            EventBody::ToolCallChunk {
                tool_call_id,
                tool_call_name,
                parent_message_id,
                delta,
                null_parent,
            } => self
                .plan_tool_chunk(
                    plan,
                    ToolChunk {
                        owner,
                        id: tool_call_id,
                        name: tool_call_name,
                        parent: parent_message_id,
                        delta,
                        metadata,
                    },
                )
                .map(|()| retired_parent(plan, null_parent))?,
            EventBody::ToolCallResult {
                message_id,
                tool_call_id,
                content,
                error,
                stripped,
            } => {
                record_stripped(plan, stripped, Some(&tool_call_id));
                let result = ToolResult {
                    message_id: message_id.into_owned(),
                    content,
                    error: error.map(Text::into_owned),
                    owner: owner.map(Text::into_owned),
                    source: ResultSource::Stream,
                    event_index: Some(plan.index),
                    rejected: false,
                };
                self.plan_result(plan, tool_call_id.into_owned(), result);
            }
            _ => {}
        }
        Ok(())
    }

    /// The `SUBAGENT_*` events (rule A8), `owner` naming the subagent; any
    /// other body plans nothing.
    #[inline]
    fn plan_subagent_event<'a>(
        &self,
        plan: &mut Plan<'a>,
        body: EventBody<'a>,
        owner: Option<Text<'a>>,
    ) -> Result<(), Violation> {
        match body {
            EventBody::SubagentStarted(start) => {
                // The parser requires the id of every subagent event.
                let id = owner.map(Text::into_owned).unwrap_or_default();
                self.plan_subagent_start(plan, id, start)
            }
            EventBody::SubagentFinished {
                suspended,
                result,
                stripped,
            } => {
                record_stripped(plan, stripped, None);
                let status = match suspended {
                    Some(_) => SubagentStatus::Suspended,
                    None => SubagentStatus::Finished,
                };
                let ids = suspended.unwrap_or_default();
                let id = owner.as_deref().unwrap_or("");
                self.plan_subagent_end(plan, id, status, ids, None, result)
            }
            EventBody::SubagentError { message, code } => {
                let error = Some((message.into_owned(), code.map(Text::into_owned)));
                let id = owner.as_deref().unwrap_or("");
                let errored = SubagentStatus::Errored;
                self.plan_subagent_end(plan, id, errored, Vec::new(), error, None)
            }
            _ => Ok(()),
        }
    }

    /// The events that stand aside from assembly: an encrypted value (rule
    /// F10) and an event of a type 1.0 does not name (rule E3); any other
    /// body plans nothing.
    #[inline]
    fn plan_aside_event(&self, plan: &mut Plan, body: EventBody) {
        match body {
            EventBody::EncryptedValue {
                subtype,
                entity_id,
                value,
                value_type,
            } => self.plan_encrypted(plan, &subtype, entity_id.into_owned(), value, value_type),
            EventBody::Other {
                family: Family::Unknown,
                event_type,
            } => {
                let v = plan.violation(
                    "E3",
                    Severity::Warning,
                    format!("unknown event type {} passed over", quoted(&event_type)),
                );
                plan.record(v.with_path("type"));
            }
            _ => {}
        }
    }

    /// Rules L1-L3: which events the run status admits.
    fn check_lifecycle(&self, plan: &Plan, event: &Event) -> Result<(), Violation> {
        let ty = event.event_type();
        let starts = matches!(event.body, EventBody::RunStarted { .. });
        let errors = matches!(event.body, EventBody::RunError { .. });
        match self.run.status {
            RunStatus::Idle if !self.options.fragment && !starts && !errors => Err(plan.fatal(
                "L1",
                format!("the first event must be RUN_STARTED or RUN_ERROR, not {ty}"),
            )),
            RunStatus::Running if starts => {
                Err(plan.fatal("L2", "RUN_STARTED while a run is active"))
            }
            RunStatus::Finished | RunStatus::Interrupted | RunStatus::Cancelled
                if !starts && !errors =>
            {
                Err(plan.fatal(
                    "L3",
                    format!("{ty} after RUN_FINISHED: only RUN_STARTED or RUN_ERROR may follow"),
                ))
            }
            RunStatus::Errored if !starts => Err(plan.fatal(
                "L3",
                format!("{ty} after RUN_ERROR: only RUN_STARTED may follow"),
            )),
            RunStatus::Aborted if !starts => Err(plan.fatal(
                "L3",
                format!("{ty} after the run was aborted: only RUN_STARTED may follow"),
            )),
            _ => Ok(()),
        }
    }

    /// Rule C5: which lanes an event closes before it acts.
    fn plan_lane_closing(&self, plan: &mut Plan, event: &Event) {
        if self.lanes.is_empty() {
            return;
        }
        let own_lane = || -> LaneKey { event.owner.as_deref().map(str::to_owned) };
        match (&event.body, event.family()) {
            (EventBody::RunError { .. }, _) => self.plan_close_all_lanes(plan, true),
            (_, Family::Run | Family::Messages) => self.plan_close_all_lanes(plan, false),
            (EventBody::SubagentFinished { .. } | EventBody::SubagentError { .. }, _) => {
                self.plan_close_lane(plan, &own_lane());
            }
            // Chunks do their own lane work (rules C3, C7); an encrypted
            // value stands aside from assembly and closes nothing.
            (
                EventBody::ToolCallChunk { .. }
                | EventBody::TextMessageChunk { .. }
                | EventBody::EncryptedValue { .. },
                _,
            ) => {}
            (
                _,
                Family::Text
                | Family::Tool
                | Family::State
                | Family::Step
                | Family::Reasoning
                | Family::Custom,
            ) => self.plan_close_lane(plan, &own_lane()),
            _ => {}
        }
    }

    /// Rule L4: no call may be open when the run finishes (chunked calls
    /// were closed by the plan already).
    fn check_nothing_left_open(&self, plan: &Plan) -> Result<(), Violation> {
        let mut open: Vec<&str> = Vec::new();
        for &i in &self.open {
            if self.open_in(plan, i) {
                open.push(&self.calls[i].id);
            }
        }
        match open.first() {
            None => Ok(()),
            Some(first) => Err(plan
                .fatal(
                    "L4",
                    format!(
                        "RUN_FINISHED while tool calls are open: {}",
                        quoted_list(open.iter().copied())
                    ),
                )
                .with_call(first)),
        }
    }

    /// An open call for `TOOL_CALL_ARGS`/`TOOL_CALL_END` (rules T1, T2, A3).
    fn open_call(
        &self,
        plan: &Plan,
        id: &str,
        owner: Option<&str>,
        code: &'static str,
        what: &str,
    ) -> Result<usize, Violation> {
        let index = self.call_index(id).filter(|&i| self.open_in(plan, i));
        let Some(index) = index else {
            return Err(plan
                .fatal(
                    code,
                    format!("{what} for call {}, which is not open", quoted(id)),
                )
                .with_call(id)
                .with_path("toolCallId"));
        };
        self.check_owner(plan, index, owner, what)?;
        Ok(index)
    }

    /// Rule A3: an explicit owner must be the call's; an absent one is fine.
    pub(crate) fn check_owner(
        &self,
        plan: &Plan,
        index: usize,
        owner: Option<&str>,
        what: &str,
    ) -> Result<(), Violation> {
        let call = &self.calls[index];
        match owner {
            Some(o) if call.owner.as_deref() != Some(o) => Err(plan
                .fatal(
                    "A3",
                    format!(
                        "{what} from {} for call {}, which belongs to {}",
                        owner_name(Some(o)),
                        quoted(&call.id),
                        owner_name(call.owner.as_deref())
                    ),
                )
                .with_call(&call.id)
                .with_path("subagentRunId")),
            _ => Ok(()),
        }
    }

    /// A start or opening chunk (rules T3, T7, T8, A2, A4, S5).
    pub(crate) fn plan_start<'a>(
        &self,
        plan: &mut Plan<'a>,
        id: Text<'a>,
        name: Text<'a>,
        parent: Option<Text<'a>>,
        owner: Option<Text<'a>>,
        lane: Option<LaneKey>,
    ) -> Result<(), Violation> {
        let message_owner = parent
            .as_deref()
            .and_then(|p| self.messages.get(p))
            .map(|&o| self.owners.name(o));
        if let (Some(o), Some(m)) = (owner.as_deref(), message_owner) {
            if m != Some(o) {
                return Err(plan
                    .fatal(
                        "A2",
                        format!(
                            "tool call {} from {} names parent message {}, which belongs to {}",
                            quoted(&id),
                            owner_name(Some(o)),
                            quoted(parent.as_deref().unwrap_or_default()),
                            owner_name(m)
                        ),
                    )
                    .with_call(&id)
                    .with_path("parentMessageId"));
            }
        }
        // What the start says about its owner: explicit, or inherited from
        // its parent message; `None` when it says nothing.
        let claim: Option<Option<String>> = match &owner {
            Some(o) => Some(Some(o.to_string())),
            None => message_owner.map(|m| m.map(str::to_owned)),
        };
        let reopen = match self.by_id.get(id.as_ref()) {
            Some(&i) if self.open_in(plan, i) => {
                return Err(plan
                    .fatal(
                        "T3",
                        format!(
                            "TOOL_CALL_START for call {}, which is already open",
                            quoted(&id)
                        ),
                    )
                    .with_call(&id)
                    .with_path("toolCallId"))
            }
            Some(&i) => {
                self.check_reopen(plan, i, &name, parent.as_deref(), claim.as_ref())?;
                Some(i)
            }
            None => {
                self.check_call_limit(plan, &id)?;
                plan.new_calls += 1;
                None
            }
        };
        if let (Some(p), Some(o), None) = (&parent, &owner, message_owner) {
            // A tagged call names the owner of a message not seen yet.
            plan.ops
                .push(Op::MessageOwner(p.to_string(), Some(o.to_string())));
        }
        let owner = match reopen {
            Some(i) => self.calls[i].owner.clone(),
            None => claim.flatten(),
        };
        self.check_subagent_ended(plan, &id, owner.as_deref());
        plan.ops.push(Op::Start(Box::new(Start {
            id: id.into_owned(),
            name: name.into_owned(),
            parent: parent.map(Text::into_owned),
            owner,
            reopen,
            lane,
        })));
        Ok(())
    }

    /// Rules T8 and A4: a reopening start agrees with the call it reopens.
    fn check_reopen(
        &self,
        plan: &Plan,
        index: usize,
        name: &str,
        parent: Option<&str>,
        claim: Option<&Option<String>>,
    ) -> Result<(), Violation> {
        let call = &self.calls[index];
        if call.name != name {
            return Err(plan
                .fatal(
                    "T8",
                    format!(
                        "reopening call {} named {} as {}",
                        quoted(&call.id),
                        quoted(&call.name),
                        quoted(name)
                    ),
                )
                .with_call(&call.id)
                .with_path("toolCallName"));
        }
        if call.parent_message_id.as_deref() != parent {
            return Err(plan
                .fatal(
                    "T8",
                    format!(
                        "reopening call {} (parent message {}) with parent message {}",
                        quoted(&call.id),
                        quoted_or_none(call.parent_message_id.as_deref()),
                        quoted_or_none(parent)
                    ),
                )
                .with_call(&call.id)
                .with_path("parentMessageId"));
        }
        match claim {
            Some(o) if *o != call.owner => Err(plan
                .fatal(
                    "A4",
                    format!(
                        "reopening call {} of {} under {}",
                        quoted(&call.id),
                        owner_name(call.owner.as_deref()),
                        owner_name(o.as_deref())
                    ),
                )
                .with_call(&call.id)
                .with_path("subagentRunId")),
            _ => Ok(()),
        }
    }

    /// Rule S5: calls per thread are bounded.
    fn check_call_limit(&self, plan: &Plan, id: &str) -> Result<(), Violation> {
        // Subagents count against the same limit (rule A8).
        let kept = self.calls.len() + self.subagents.len();
        if kept + plan.new_calls >= self.options.limits.max_calls {
            return Err(plan
                .fatal(
                    "S5",
                    format!(
                        "call {} exceeds the limit of {} tool calls per thread",
                        quoted(id),
                        self.options.limits.max_calls
                    ),
                )
                .with_call(id));
        }
        Ok(())
    }

    /// A `TOOL_CALL_RESULT` (rules T9-T12, F4, A7).
    fn plan_result(&self, plan: &mut Plan, tool_call_id: String, mut result: ToolResult) {
        let Some(&i) = self.by_id.get(tool_call_id.as_str()) else {
            let v = plan
                .violation(
                    "T10",
                    Severity::Warning,
                    format!(
                        "TOOL_CALL_RESULT for call {}, which was never seen",
                        quoted(&tool_call_id)
                    ),
                )
                .with_call(&tool_call_id)
                .with_message(&result.message_id)
                .with_path("toolCallId");
            plan.record(v);
            plan.ops.push(Op::Result {
                call: None,
                tool_call_id,
                result: Box::new(result),
            });
            return;
        };
        let call = &self.calls[i];
        let still_open = self.open_in(plan, i);
        let mut flag = |code, severity, what: String| {
            let v = plan
                .violation(code, severity, what)
                .with_call(&tool_call_id)
                .with_message(&result.message_id);
            plan.ops.push(Op::Record(Box::new(v)));
        };
        if still_open {
            flag(
                "T11",
                Severity::Violation,
                format!(
                    "TOOL_CALL_RESULT for call {}, which is still open",
                    quoted(&tool_call_id)
                ),
            );
        }
        if !call.results.is_empty() {
            flag(
                "T12",
                Severity::Warning,
                format!("a second result for call {}", quoted(&tool_call_id)),
            );
        }
        if call.advertised {
            flag(
                "F4",
                Severity::Violation,
                format!(
                    "the producer answered frontend call {} ({}); the call stays pending for the application",
                    quoted(&tool_call_id),
                    quoted(&call.name)
                ),
            );
            result.rejected = true;
        }
        plan.ops.push(Op::Result {
            call: Some(i),
            tool_call_id,
            result: Box::new(result),
        });
    }

    /// `REASONING_ENCRYPTED_VALUE` (rule F10): stored with the call or the
    /// message it names. A subtype 1.1 does not describe removes the event
    /// (rule P1); a call never seen is a warning, and the value is dropped;
    /// a message the tracker does not hold (a reasoning message, say) is
    /// none of its business.
    fn plan_encrypted(
        &self,
        plan: &mut Plan,
        subtype: &str,
        entity: String,
        value: Opaque,
        value_type: Option<Opaque>,
    ) {
        let target = match subtype {
            "tool-call" => {
                if let Some(&i) = self.by_id.get(entity.as_str()) {
                    Target::Call(CallRef::Index(i))
                } else {
                    let message = format!(
                        "REASONING_ENCRYPTED_VALUE for call {}, which was never seen: dropped",
                        quoted(&entity)
                    );
                    let v = plan
                        .violation("F10", Severity::Warning, message)
                        .with_call(&entity);
                    return plan.record(v);
                }
            }
            "message" if self.message_seq.contains_key(entity.as_str()) => Target::Message(entity),
            "message" => return,
            other => {
                let message = format!(
                    "subtype {} is not one 1.1 describes: event removed",
                    quoted(other)
                );
                let v = plan.violation("P1", Severity::Warning, message);
                return plan.record(v);
            }
        };
        plan.ops.push(Op::Encrypted(target, value, value_type));
    }

    /// Conversation history (rule A5); its new calls count towards S5.
    pub(crate) fn plan_seed(
        &self,
        plan: &mut Plan,
        messages: Vec<Message>,
        run_input: bool,
    ) -> Result<(), Violation> {
        // Owned ids, in the set type of `message_ids`: no hash-table
        // instantiation of its own in the wasm module (history is rare).
        let mut new_ids = Names::default();
        for call in messages.iter().flat_map(|m| &m.tool_calls) {
            if !self.by_id.contains_key(&call.id) && new_ids.insert(call.id.clone()) {
                self.check_call_limit(plan, &call.id)?;
                plan.new_calls += 1;
            }
        }
        plan.ops.push(Op::Seed {
            messages,
            run_input,
        });
        Ok(())
    }
}

/// Rules P1-P3: a warning for each thing the processing model stripped
/// from the event, naming its path.
fn record_stripped(plan: &mut Plan, stripped: Vec<Stripped>, call: Option<&str>) {
    for s in stripped {
        let mut v = plan
            .violation(s.rule, Severity::Warning, s.message)
            .with_path(s.path);
        if let Some(id) = call {
            v = v.with_call(id);
        }
        plan.record(v);
    }
}

/// Rule P3: a `null` `parentMessageId` was read as absent; the warning.
fn retired_parent(plan: &mut Plan, null_parent: bool) {
    if null_parent {
        let message = "parentMessageId: null, a retired spelling of none, read as absent";
        let v = plan.violation("P3", Severity::Warning, message);
        plan.record(v.with_path("parentMessageId"));
    }
}

/// Moves an event's body out for planning, leaving the cheapest body in
/// its place (nothing reads the event's body after it is planned).
fn take<'a>(body: &mut EventBody<'a>) -> EventBody<'a> {
    std::mem::replace(
        body,
        EventBody::TextMessageEnd {
            message_id: Text::Borrowed(""),
        },
    )
}
