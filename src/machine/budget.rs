//! Rule S5: what a thread retains, and the bounds on it.
//!
//! Every event is charged, once planned and before anything changes, for
//! what applying it would keep: argument text (no parsed value is kept),
//! results, ids and names, history. Argument text is charged for exactly
//! the bytes appended, counted by the reader's own rules ([`Tail`]): a
//! surrogate pair rejoined across deltas, or U+FFFD for a half alone, is
//! more than the delta's text. A plan that would take the
//! thread past [`Limits::max_thread_bytes`](super::Limits), or brings an id
//! longer than `max_id_bytes`, a message id past `max_messages` or a lane
//! past `max_lanes`, is refused as fatal: what it carries cannot be dropped
//! without the later events being misread. The count is of heap bytes as
//! the tracker holds them, approximated from above per entry; it only
//! grows: what is later dropped stays counted.
//!
//! Slots a later event replaces rather than adds to (the run's ids, result
//! and error, the advertised tools) are bounded by `max_event_bytes` and
//! not counted; the tools' names are ids all the same (`max_id_bytes`).

use super::lanes::LaneKey;
use super::plan::{CallRef, Op, Ops, Plan, Start, Target};
use super::state::{ToolCall, ToolResult};
use super::subagents::{subagent_bytes, SubagentOp};
use super::{Names, Tracker};
use crate::args::Tail;
use crate::events::{Kept, Message, Opaque};
use crate::violation::Violation;
use std::mem::size_of;

/// What a map or set entry costs beyond its key and value: hashing,
/// control bytes and spare capacity, rounded up.
const ENTRY: usize = 32;

/// `what exceeds the limit of N (limits.option)`: every S5 message of the
/// plan names the option to raise.
pub(crate) fn limit_message(what: &str, limit: usize, option: &str) -> String {
    format!("{what} exceeds the limit of {limit} (limits.{option})")
}

/// Opaque payloads are kept as their JSON text.
fn opaque_bytes(o: &Opaque) -> usize {
    size_of::<Opaque>() + o.get().len()
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
        + opaque_bytes(&r.content)
        + opt_bytes(r.error.as_deref())
        + opt_bytes(r.owner.as_deref())
}

/// [`result_bytes`] of an application's answer (no owner), from its parts:
/// a saved answer is charged before it is built.
pub(crate) fn answer_bytes(message_id: &str, content: &Opaque, error: Option<&str>) -> usize {
    size_of::<ToolResult>() + message_id.len() + opaque_bytes(content) + opt_bytes(error)
}

/// What replacing the values `held` keeps (rule F10) by `new` adds: all
/// of `new` where nothing is held, nothing where a snapshot restates them
/// (as agents send one every run) or shrinks them. What is kept never
/// exceeds what was charged: the retained count grows by at least the
/// growth.
fn kept_growth(held: Option<&Kept>, new: &Kept) -> usize {
    new.bytes().saturating_sub(held.map_or(0, Kept::bytes))
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
#[derive(Default)]
struct Charge {
    cost: usize,
    /// Message ids the tracker does not know yet (an id the plan names
    /// twice counts twice: the bound is generous, the count cheap).
    new_messages: usize,
    new_tool_lanes: usize,
    new_text_lanes: usize,
    /// The first id longer than `max_id_bytes`: its field and length.
    long_id: Option<(&'static str, usize)>,
    /// The text of the call the last `Start` (re)opened, as the plan's
    /// ops so far leave it: what `CallRef::Last` appends to.
    last: Option<Tail>,
    /// The call the last `Start` reopened (`None`: a new call).
    last_reopened: Option<usize>,
}

impl Tracker {
    /// Charges a plan for what it would retain, checking every bound of
    /// rule S5 that is fatal; on success `plan.cost` holds the bytes to add
    /// when it is applied.
    pub(crate) fn charge(&self, plan: &mut Plan) -> Result<(), Violation> {
        let mut c = Charge::default();
        self.charge_ops(&mut c, &plan.ops);
        let limits = &self.options.limits;
        let message = if let Some((field, len)) = &c.long_id {
            let what = format!("{field} of {len} bytes");
            limit_message(&what, limits.max_id_bytes, "maxIdBytes")
        } else if self.message_count() + c.new_messages > limits.max_messages {
            limit_message("one more message id", limits.max_messages, "maxMessages")
        } else if (c.new_tool_lanes > 0
            && self.lanes.tool.len() + c.new_tool_lanes > limits.max_lanes)
            || (c.new_text_lanes > 0 && self.lanes.text.len() + c.new_text_lanes > limits.max_lanes)
        {
            limit_message("one more open chunk lane", limits.max_lanes, "maxLanes")
        } else if let Some(message) = self.over_budget(c.cost) {
            message
        } else {
            plan.cost = c.cost;
            return Ok(());
        };
        let v = plan.fatal("S5", message);
        Err(match self.call_about(&plan.ops) {
            Some(id) => v.with_call(id),
            None => v,
        })
    }

    /// The call a refused plan is mostly about, for its error: the first
    /// an op names. Found only when refused: charging a plan that passes,
    /// as nearly all do, copies no id.
    fn call_about<'o>(&'o self, ops: &'o Ops) -> Option<&'o str> {
        ops.first.iter().chain(&ops.rest).find_map(|op| match op {
            Op::End(i) | Op::Args(CallRef::Index(i), _) => Some(self.calls[*i].id.as_str()),
            Op::Start(s) => Some(s.id.as_str()),
            Op::Result { tool_call_id, .. } => Some(tool_call_id.as_str()),
            _ => None,
        })
    }

    /// [`Tracker::charge`] for a plan whose one op appends `added` bytes
    /// (what [`Tail::push_delta`] counted) of argument text to open call
    /// `i`, the commonest: only the budget can refuse it, and the general
    /// path cost a tenth more per delta.
    pub(crate) fn charge_delta(
        &self,
        plan: &mut Plan,
        i: usize,
        added: usize,
    ) -> Result<(), Violation> {
        if let Some(message) = self.over_budget(added) {
            return Err(plan.fatal("S5", message).with_call(&self.calls[i].id));
        }
        plan.cost = added;
        Ok(())
    }

    /// Why keeping `cost` more bytes would exceed `max_thread_bytes`, if
    /// it would; keeping nothing never does.
    pub(crate) fn over_budget(&self, cost: usize) -> Option<String> {
        let total = self.retained.saturating_add(cost);
        let limit = self.options.limits.max_thread_bytes;
        (cost > 0 && total > limit)
            .then(|| limit_message("what the thread would retain", limit, "maxThreadBytes"))
    }

    fn charge_ops(&self, c: &mut Charge, ops: &Ops) {
        #[cfg(debug_assertions)]
        each_text_once(ops);
        if let Some(op) = &ops.first {
            self.charge_op(c, op);
        }
        for op in &ops.rest {
            self.charge_op(c, op);
        }
    }

    /// Charges one op, each kind by the function beside it. Argument text
    /// is counted from the reader's [`Tail`] by the reader's own rules: a
    /// plan appends to or closes a call once (`each_text_once`), but for
    /// the call its `Start` (re)opens, followed in `last`.
    fn charge_op(&self, c: &mut Charge, op: &Op) {
        match op {
            Op::Start(s) => self.charge_start(c, s),
            Op::Args(call, delta) => {
                let mut alone;
                let tail = match call {
                    CallRef::Index(i) => {
                        alone = self.calls[*i].args.tail();
                        &mut alone
                    }
                    CallRef::Last => match c.last.as_mut() {
                        Some(tail) => tail,
                        None => return,
                    },
                };
                c.cost += tail.push_delta(delta);
            }
            // What closing appends: U+FFFD for a high surrogate held.
            Op::End(i) | Op::Abandon(i) => c.cost += self.calls[*i].args.tail().close(),
            Op::Result {
                call,
                tool_call_id,
                result,
            } => self.charge_result(c, *call, tool_call_id, result),
            Op::MessageOwner(message, owner) => {
                self.charge_message_owner(c, message, owner.as_deref());
            }
            Op::TextLane(key, message) => self.charge_text_lane(c, key, message),
            Op::Merge(target, metadata) => {
                c.cost += self.kept_of(c, target).merge_bytes(metadata);
            }
            Op::Encrypted(target, value, value_type) => {
                self.kept_of(c, target);
                c.cost += value.get().len() + opt_bytes(value_type.as_ref().map(Opaque::get));
            }
            Op::RunStarted {
                thread_id,
                run_id,
                parent_run_id,
            } => {
                self.check_id(c, "threadId", Some(thread_id));
                self.check_id(c, "runId", Some(run_id));
                self.check_id(c, "parentRunId", parent_run_id.as_deref());
            }
            Op::Seed {
                messages,
                run_input,
            } => self.charge_seed(c, messages, *run_input),
            // Replaced, not added to: bounded by the event, but a tool's
            // name is an id of its calls.
            Op::RunTools(tools, _) => {
                for tool in tools.iter().flatten() {
                    self.check_id(c, "input.tools[].name", Some(&tool.name));
                }
            }
            Op::Subagent(SubagentOp::Start(id, start)) => {
                self.check_id(c, "subagentRunId", Some(id));
                self.check_id(c, "name", Some(&start.name));
                self.check_id(
                    c,
                    "parentSubagentRunId",
                    start.parent_subagent_run_id.as_deref(),
                );
                self.check_id(c, "parentToolCallId", start.parent_tool_call_id.as_deref());
                self.check_id(c, "parentMessageId", start.parent_message_id.as_deref());
                c.cost += subagent_bytes(id, start);
            }
            Op::Subagent(SubagentOp::End {
                interrupt_ids,
                error,
                result,
                ..
            }) => {
                c.cost += opt_bytes(result.as_ref().map(Opaque::get));
                // A loop: a `map` and `sum` is an instantiation of its own.
                for id in interrupt_ids {
                    c.cost += text_bytes(id);
                }
                if let Some((message, code)) = error {
                    c.cost += message.len() + opt_bytes(code.as_deref());
                }
            }
            // Violations are bounded by their log (repeats counted, at
            // most `MAX_KEPT_VIOLATIONS` kept), not by the budget.
            Op::Record(_)
            | Op::ClearToolLane(_)
            | Op::ClearTextLane(_)
            | Op::ClearAllLanes
            | Op::RunFinished { .. }
            | Op::RunError { .. }
            | Op::RunAborted { .. } => {}
        }
    }

    /// What `target` keeps now (rule F10), for a change to it: a new call's
    /// and a new message entry's nothing (the entry's bytes charged here,
    /// even for a message the thread does not know, which keeps nothing).
    fn kept_of<'k>(&'k self, c: &mut Charge, target: &Target) -> &'k Kept {
        static EMPTY: Kept = Kept {
            encrypted_value: None,
            encrypted_value_type: None,
            metadata: None,
        };
        match target {
            Target::Call(CallRef::Index(i)) => &self.calls[*i].kept,
            Target::Call(CallRef::Last) => c.last_reopened.map_or(&EMPTY, |i| &self.calls[i].kept),
            Target::Message(id) => {
                if let Some(kept) = self.message_kept(id) {
                    return kept;
                }
                c.cost += 2 * (ENTRY + text_bytes(id)) + size_of::<Kept>();
                &EMPTY
            }
        }
    }

    /// A (re)opened call: the record, ids and lane a new one keeps.
    fn charge_start(&self, c: &mut Charge, s: &Start) {
        c.last_reopened = s.reopen;
        self.check_id(c, "toolCallId", Some(&s.id));
        self.check_id(c, "toolCallName", Some(&s.name));
        self.check_id(c, "parentMessageId", s.parent.as_deref());
        self.check_id(c, "subagentRunId", s.owner.as_deref());
        c.last = Some(if let Some(i) = s.reopen {
            // Closed before the plan or by an `End` of it: closing again
            // is then a no-op or what that `End` appends.
            let mut tail = self.calls[i].args.tail();
            tail.close();
            tail
        } else {
            c.cost += call_bytes(&s.id, &s.name, s.parent.as_deref(), s.owner.as_deref());
            if let Some(p) = &s.parent {
                self.charge_message(c, p);
            }
            Tail::new(self.options.limits.max_args_bytes)
        });
        if let Some(key) = &s.lane {
            self.check_id(c, "subagentRunId", key.as_deref());
            if !self.lanes.tool.contains_key(key) {
                c.new_tool_lanes += 1;
                c.cost += ENTRY + opt_bytes(key.as_deref());
            }
        }
    }

    fn charge_result(
        &self,
        c: &mut Charge,
        call: Option<usize>,
        tool_call_id: &str,
        result: &ToolResult,
    ) {
        self.check_id(c, "toolCallId", Some(tool_call_id));
        self.check_id(c, "messageId", Some(&result.message_id));
        self.check_id(c, "subagentRunId", result.owner.as_deref());
        c.cost += result_bytes(result) + ENTRY + result.message_id.len();
        if call.is_none() {
            c.cost += text_bytes(tool_call_id);
        }
        self.charge_message(c, &result.message_id);
    }

    fn charge_message_owner(&self, c: &mut Charge, message: &str, owner: Option<&str>) {
        self.check_id(c, "messageId", Some(message));
        self.check_id(c, "subagentRunId", owner);
        if !self.messages.contains_key(message) {
            c.cost += ENTRY + text_bytes(message) + opt_bytes(owner);
        }
        self.charge_message(c, message);
    }

    fn charge_text_lane(&self, c: &mut Charge, key: &LaneKey, message: &str) {
        self.check_id(c, "subagentRunId", key.as_deref());
        self.check_id(c, "messageId", Some(message));
        if !self.lanes.text.contains_key(key) {
            c.new_text_lanes += 1;
        }
        c.cost += 2 * (ENTRY + message.len() + opt_bytes(key.as_deref()));
    }

    /// History: message owners, the calls not known yet (their argument
    /// text) and tool messages' answers.
    /// What seeding `messages` keeps, as `seed` keeps it: a message, call
    /// or answer the thread already holds is not kept again (a thread's
    /// next run restates its whole history, turn after turn), and what a
    /// message or call keeps (rule F10) is charged where it is stored.
    fn charge_seed(&self, c: &mut Charge, messages: &[Message], run_input: bool) {
        // Owned ids, as in `plan_seed`.
        let mut new_calls = Names::default();
        for m in messages {
            self.check_id(c, "messages[].id", Some(&m.id));
            self.check_id(c, "messages[].subagentRunId", m.owner.as_deref());
            if !self.messages.contains_key(m.id.as_str()) {
                c.cost += ENTRY + text_bytes(&m.id) + opt_bytes(m.owner.as_deref());
            }
            self.charge_message(c, &m.id);
            if self.stores_kept(m, run_input) {
                c.cost += kept_growth(self.message_kept(&m.id), &m.kept);
            }
            for call in &m.tool_calls {
                self.check_id(c, "messages[].toolCalls[].id", Some(&call.id));
                self.check_id(c, "messages[].toolCalls[].function.name", Some(&call.name));
                if let Some(&i) = self.by_id.get(&call.id) {
                    // A snapshot may replace what a known call keeps.
                    if !run_input {
                        c.cost += kept_growth(Some(&self.calls[i].kept), &call.kept);
                    }
                    continue;
                }
                if !new_calls.insert(call.id.clone()) {
                    continue;
                }
                c.cost += call.kept.bytes();
                c.cost += call_bytes(&call.id, &call.name, Some(&m.id), m.owner.as_deref());
                c.cost += call.arguments.len();
            }
            if let Some(id) = &m.tool_call_id {
                self.check_id(c, "messages[].toolCallId", Some(id));
                if self.answer_is_new(id, &m.id, &new_calls) {
                    c.cost += size_of::<ToolResult>()
                        + m.content.as_ref().map_or(0, opaque_bytes)
                        + opt_bytes(m.error.as_deref());
                }
            }
        }
    }

    /// Whether seeding a tool message `message_id` answering `call_id`
    /// keeps it: its call is known (or seeded with it) and does not hold
    /// that result yet (as `seed_answer` decides).
    fn answer_is_new(&self, call_id: &str, message_id: &str, new_calls: &Names) -> bool {
        match self.by_id.get(call_id) {
            Some(&i) => !self.holds_result(i, message_id),
            None => new_calls.contains(call_id),
        }
    }

    /// Message ids the thread keeps: message owners and other ids in use
    /// (an id in both tables counts twice; the bound is generous).
    fn message_count(&self) -> usize {
        self.messages.len() + self.message_ids.len()
    }

    /// Counts `id` if no table of message ids holds it yet.
    fn charge_message(&self, c: &mut Charge, id: &str) {
        if !self.messages.contains_key(id) && !self.message_ids.contains(id) {
            c.new_messages += 1;
        }
    }

    /// Notes the first id or name longer than `max_id_bytes` (fatal); the
    /// message names the field and the length, not the id.
    fn check_id(&self, c: &mut Charge, field: &'static str, id: Option<&str>) {
        let limit = self.options.limits.max_id_bytes;
        let Some(id) = id.filter(|id| id.len() > limit) else {
            return;
        };
        if c.long_id.is_none() {
            c.long_id = Some((field, id.len()));
        }
    }
}

/// The invariant the charging of argument text rests on: no call's text is
/// appended to or closed twice in one plan (a call a `Start` reopens is
/// followed apart).
#[cfg(debug_assertions)]
fn each_text_once(ops: &Ops) {
    let mut seen = Vec::new();
    for op in ops.first.iter().chain(&ops.rest) {
        if let Op::Args(CallRef::Index(i), _) | Op::End(i) | Op::Abandon(i) = op {
            assert!(
                !seen.contains(i),
                "a plan touches the text of call {i} twice"
            );
            seen.push(*i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{answer_bytes, result_bytes};
    use crate::events::Opaque;
    use crate::machine::ToolResult;

    /// A saved answer is charged what the answer it becomes is charged.
    #[test]
    fn s5_an_answer_is_charged_the_same_from_its_parts() {
        for error in [None, Some("boom".to_owned())] {
            let content = Opaque::from_json(r#"[{"type":"text","text":"x"}]"#).unwrap();
            let result = ToolResult::from_application("m1".into(), content.clone(), error.clone());
            assert_eq!(
                answer_bytes("m1", &content, error.as_deref()),
                result_bytes(&result)
            );
        }
    }
}
