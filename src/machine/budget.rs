//! Rule S5: what a thread retains, and the bounds on it.
//!
//! Every event is charged, once planned and before anything changes, for
//! what applying it would keep: argument text, parsed arguments, results,
//! ids and names, history, recorded violations. A plan that would take the
//! thread past [`Limits::max_thread_bytes`](super::Limits), or brings an id
//! longer than `max_id_bytes`, a message id past `max_messages` or a lane
//! past `max_lanes`, is refused as fatal: what it carries cannot be dropped
//! without the later events being misread. The count is of heap bytes as
//! the tracker holds them (a parsed `[0,0,0]` costs far more than its
//! text), approximated from above per entry; it only grows, so a value
//! replaced (a reopened call's arguments) stays counted.
//!
//! Slots a later event replaces rather than adds to (the run's ids, result
//! and error, the advertised tools) are bounded by `max_event_bytes` and
//! not counted.

use super::plan::{CallRef, Op, Plan};
use super::state::{ToolCall, ToolResult};
use super::Tracker;
use crate::events::Message;
use crate::violation::Violation;
use serde_json::Value;
use std::collections::HashSet;
use std::mem::size_of;

/// What a map or set entry costs beyond its key and value: hashing,
/// control bytes and spare capacity, rounded up.
const ENTRY: usize = 32;

/// Heap bytes a parsed JSON value holds, counted without recursion (the
/// value may be as deep as its text allows).
pub(crate) fn value_bytes(value: &Value) -> usize {
    let mut total = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        total += size_of::<Value>();
        match v {
            Value::String(s) => total += s.len(),
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                for (key, item) in map {
                    total += size_of::<String>() + key.len() + ENTRY;
                    stack.push(item);
                }
            }
            _ => {}
        }
    }
    total
}

fn text_bytes(s: &str) -> usize {
    size_of::<String>() + s.len()
}

fn opt_bytes(s: Option<&str>) -> usize {
    s.map_or(0, str::len)
}

/// A result as kept on its call (or as an unmatched result).
pub(crate) fn result_bytes(r: &ToolResult) -> usize {
    size_of::<ToolResult>()
        + r.message_id.len()
        + value_bytes(&r.content)
        + opt_bytes(r.error.as_deref())
        + opt_bytes(r.owner.as_deref())
}

/// A recorded violation.
pub(crate) fn violation_bytes(v: &Violation) -> usize {
    size_of::<Violation>()
        + v.message.len()
        + opt_bytes(v.tool_call_id.as_deref())
        + opt_bytes(v.message_id.as_deref())
}

/// A new call: the call itself, its id twice (the call and the index by
/// id), its name, parent and owner.
fn call_bytes(id: &str, name: &str, parent: Option<&str>, owner: Option<&str>) -> usize {
    size_of::<ToolCall>()
        + 2 * text_bytes(id)
        + ENTRY
        + name.len()
        + opt_bytes(parent)
        + opt_bytes(owner)
}

/// What one plan would add, and the counts it would raise.
struct Charge {
    cost: usize,
    /// Message ids the tracker does not know yet.
    new_messages: HashSet<String>,
    new_tool_lanes: usize,
    new_text_lanes: usize,
    /// The call the plan is mostly about, for the error.
    call: Option<String>,
}

impl Tracker {
    /// Charges a plan for what it would retain, checking every bound of
    /// rule S5 that is fatal; on success `plan.cost` holds the bytes to add
    /// when it is applied, and the arguments of calls it ends are parsed.
    pub(crate) fn charge(&self, plan: &mut Plan) -> Result<(), Violation> {
        let mut ops = std::mem::take(&mut plan.ops);
        let result = self.charge_ops(plan, &mut ops);
        plan.ops = ops;
        let charge = result?;
        let limits = &self.options.limits;
        if self.message_count + charge.new_messages.len() > limits.max_messages {
            return Err(plan.fatal(
                "S5",
                format!(
                    "a message id more than the limit of {} message ids per thread (limits.maxMessages)",
                    limits.max_messages
                ),
            ));
        }
        for (new, open, what) in [
            (charge.new_tool_lanes, self.lanes.tool.len(), "tool-call"),
            (charge.new_text_lanes, self.lanes.text.len(), "text-message"),
        ] {
            if new > 0 && open + new > limits.max_lanes {
                return Err(plan.fatal(
                    "S5",
                    format!(
                        "a {what} chunk lane more than the limit of {} open lanes (limits.maxLanes)",
                        limits.max_lanes
                    ),
                ));
            }
        }
        if charge.cost > 0 && self.retained.saturating_add(charge.cost) > limits.max_thread_bytes {
            let v = plan.fatal(
                "S5",
                format!(
                    "the thread would retain {} bytes, more than the limit of {} bytes (limits.maxThreadBytes); this event adds {}",
                    self.retained.saturating_add(charge.cost),
                    limits.max_thread_bytes,
                    charge.cost
                ),
            );
            return Err(match &charge.call {
                Some(id) => v.with_call(id),
                None => v,
            });
        }
        plan.cost = charge.cost;
        Ok(())
    }

    fn charge_ops(&self, plan: &Plan, ops: &mut [Op]) -> Result<Charge, Violation> {
        let mut c = Charge {
            cost: 0,
            new_messages: HashSet::new(),
            new_tool_lanes: 0,
            new_text_lanes: 0,
            call: None,
        };
        // The text length of the call the last `Start` (re)opened.
        let mut last_len = 0;
        for op in ops.iter_mut() {
            match op {
                Op::End(i, parsed) => {
                    let call = &self.calls[*i];
                    c.call.get_or_insert_with(|| call.id.clone());
                    let arguments = match &call.args_error {
                        Some(e) => Err(e.clone()),
                        None => call.args.finish(),
                    };
                    if let Ok(value) = &arguments {
                        c.cost += value_bytes(value);
                    }
                    *parsed = Some(arguments);
                }
                Op::Start(s) => {
                    self.check_id(plan, "toolCallId", &s.id)?;
                    self.check_id(plan, "toolCallName", &s.name)?;
                    self.check_opt_id(plan, "parentMessageId", s.parent.as_deref())?;
                    self.check_opt_id(plan, "subagentRunId", s.owner.as_deref())?;
                    c.call.get_or_insert_with(|| s.id.clone());
                    last_len = s.reopen.map_or(0, |i| self.calls[i].args_text().len());
                    if s.reopen.is_none() {
                        c.cost +=
                            call_bytes(&s.id, &s.name, s.parent.as_deref(), s.owner.as_deref());
                        if let Some(p) = &s.parent {
                            self.note_message(&mut c, p);
                        }
                    }
                    if let Some(key) = &s.lane {
                        self.check_opt_id(plan, "subagentRunId", key.as_deref())?;
                        if !self.lanes.tool.contains_key(key) {
                            c.new_tool_lanes += 1;
                            c.cost += ENTRY + opt_bytes(key.as_deref());
                        }
                    }
                }
                Op::Args(call, delta) => {
                    let (len, refused, id) = match call {
                        CallRef::Index(i) => {
                            let call = &self.calls[*i];
                            (
                                call.args_text().len(),
                                call.args_error.is_some(),
                                Some(&call.id),
                            )
                        }
                        CallRef::Last => (last_len, false, None),
                    };
                    if let Some(id) = id {
                        c.call.get_or_insert_with(|| id.clone());
                    }
                    // A delta past the per-call limit is refused, not kept.
                    if !refused && len + delta.len() <= self.options.limits.max_args_bytes {
                        c.cost += delta.len();
                    }
                }
                Op::Result {
                    call,
                    tool_call_id,
                    result,
                } => {
                    self.check_id(plan, "toolCallId", tool_call_id)?;
                    self.check_id(plan, "messageId", &result.message_id)?;
                    self.check_opt_id(plan, "subagentRunId", result.owner.as_deref())?;
                    c.call.get_or_insert_with(|| tool_call_id.clone());
                    c.cost += result_bytes(result) + ENTRY + result.message_id.len();
                    if call.is_none() {
                        c.cost += text_bytes(tool_call_id);
                    }
                    self.note_message(&mut c, &result.message_id);
                }
                Op::MessageOwner(message, owner) => {
                    self.check_id(plan, "messageId", message)?;
                    self.check_opt_id(plan, "subagentRunId", owner.as_deref())?;
                    if !self.messages.contains_key(message.as_str()) {
                        c.cost += ENTRY + text_bytes(message) + opt_bytes(owner.as_deref());
                    }
                    self.note_message(&mut c, message);
                }
                Op::TextLane(key, message) => {
                    self.check_opt_id(plan, "subagentRunId", key.as_deref())?;
                    self.check_id(plan, "messageId", message)?;
                    if !self.lanes.text.contains_key(key) {
                        c.new_text_lanes += 1;
                    }
                    c.cost += 2 * (ENTRY + message.len() + opt_bytes(key.as_deref()));
                }
                Op::RunStarted {
                    thread_id,
                    run_id,
                    parent_run_id,
                } => {
                    self.check_id(plan, "threadId", thread_id)?;
                    self.check_id(plan, "runId", run_id)?;
                    self.check_opt_id(plan, "parentRunId", parent_run_id.as_deref())?;
                }
                Op::Seed { messages, .. } => self.charge_seed(plan, &mut c, messages)?,
                Op::Record(v) => c.cost += violation_bytes(v),
                Op::Abandon(_)
                | Op::ClearToolLane(_)
                | Op::ClearTextLane(_)
                | Op::ClearAllLanes
                | Op::RunFinished { .. }
                | Op::RunError { .. }
                | Op::RunTools(..) => {}
            }
        }
        Ok(c)
    }

    /// History: message owners, the calls not known yet (their argument
    /// text and parsed value) and tool messages' answers.
    fn charge_seed(
        &self,
        plan: &Plan,
        c: &mut Charge,
        messages: &[Message],
    ) -> Result<(), Violation> {
        let mut new_calls = HashSet::new();
        for (i, m) in messages.iter().enumerate() {
            self.check_id(plan, &format!("messages[{i}].id"), &m.id)?;
            self.check_opt_id(
                plan,
                &format!("messages[{i}].subagentRunId"),
                m.owner.as_deref(),
            )?;
            if !self.messages.contains_key(&m.id) {
                c.cost += ENTRY + text_bytes(&m.id) + opt_bytes(m.owner.as_deref());
            }
            self.note_message(c, &m.id);
            for (j, call) in m.tool_calls.iter().enumerate() {
                self.check_id(plan, &format!("messages[{i}].toolCalls[{j}].id"), &call.id)?;
                let field = format!("messages[{i}].toolCalls[{j}].function.name");
                self.check_id(plan, &field, &call.name)?;
                if self.by_id.contains_key(&call.id) || !new_calls.insert(call.id.as_str()) {
                    continue;
                }
                c.cost += call_bytes(&call.id, &call.name, Some(&m.id), m.owner.as_deref());
                c.cost += call.arguments.len();
                if let Ok(value) = serde_json::from_str::<Value>(&call.arguments) {
                    c.cost += value_bytes(&value);
                }
            }
            if let Some(id) = &m.tool_call_id {
                self.check_id(plan, &format!("messages[{i}].toolCallId"), id)?;
                c.cost += size_of::<ToolResult>()
                    + m.content.as_ref().map_or(0, value_bytes)
                    + opt_bytes(m.error.as_deref());
            }
        }
        Ok(())
    }

    /// Counts `id` once if no table of message ids holds it yet.
    fn note_message(&self, c: &mut Charge, id: &str) {
        if !self.messages.contains_key(id)
            && !self.message_ids.contains(id)
            && !c.new_messages.contains(id)
        {
            c.new_messages.insert(id.to_owned());
        }
    }

    fn check_opt_id(&self, plan: &Plan, field: &str, id: Option<&str>) -> Result<(), Violation> {
        id.map_or(Ok(()), |id| self.check_id(plan, field, id))
    }

    /// An id or name longer than `max_id_bytes` is fatal; the message
    /// shows its beginning only.
    fn check_id(&self, plan: &Plan, field: &str, id: &str) -> Result<(), Violation> {
        let limit = self.options.limits.max_id_bytes;
        if id.len() <= limit {
            return Ok(());
        }
        let mut head = id.len().min(32).min(limit);
        while !id.is_char_boundary(head) {
            head -= 1;
        }
        Err(plan.fatal(
            "S5",
            format!(
                "{field} of {} bytes (beginning {}...) exceeds the limit of {limit} bytes (limits.maxIdBytes)",
                id.len(),
                crate::quote::quoted(&id[..head])
            ),
        ))
    }
}
