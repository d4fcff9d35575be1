//! Chunk lanes: `TOOL_CALL_CHUNK` and `TEXT_MESSAGE_CHUNK` expanded into
//! the streaming pattern (rules C1-C7).
//!
//! Each owner (`subagentRunId`, `None` for the parent agent) has one lane,
//! holding at most one open chunked item: a tool call or a text message.
//! A chunk with another id closes the lane's item and opens its own; an
//! explicit event closes its own lane first (rule C5).

use super::plan::{CallRef, Op, Plan};
use super::{indices, Tracker};
use crate::events::{JsonStr, Text};
use crate::quote::{quoted, quoted_or_none};
use crate::violation::Violation;
use std::collections::HashMap;

/// A lane's key: the owner, `None` for the parent agent.
pub(crate) type LaneKey = Option<String>;

/// The open chunked items, by lane.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lanes {
    /// The call each lane holds open (an index into the calls).
    pub tool: HashMap<LaneKey, usize>,
    /// The message each lane holds open.
    pub text: HashMap<LaneKey, String>,
    /// The lane holding each open chunked message.
    pub text_by_message: HashMap<String, LaneKey>,
}

impl Lanes {
    pub fn is_empty(&self) -> bool {
        self.tool.is_empty() && self.text.is_empty()
    }

    pub fn clear_text(&mut self, key: &LaneKey) {
        if let Some(message) = self.text.remove(key) {
            self.text_by_message.remove(&message);
        }
    }

    pub fn open_text(&mut self, key: LaneKey, message: String) {
        self.clear_text(&key);
        self.text_by_message.insert(message.clone(), key.clone());
        self.text.insert(key, message);
    }
}

/// A `TOOL_CALL_CHUNK`'s fields.
pub(crate) struct ToolChunk<'a> {
    pub owner: Option<Text<'a>>,
    pub id: Option<Text<'a>>,
    pub name: Option<Text<'a>>,
    pub parent: Option<Text<'a>>,
    pub delta: Option<JsonStr<'a>>,
}

impl Tracker {
    /// The lane a tool chunk belongs to (rules C4, C6).
    fn tool_chunk_lane(&self, plan: &Plan, chunk: &ToolChunk) -> Result<LaneKey, Violation> {
        let holder = chunk
            .id
            .as_deref()
            .and_then(|id| self.by_id.get(id))
            .and_then(|&i| self.calls[i].lane.clone());
        if let Some(owner) = chunk.owner.as_deref() {
            if let Some(lane) = holder.filter(|lane| lane.as_deref() != Some(owner)) {
                return Err(plan.fatal(
                    "C6",
                    format!(
                        "TOOL_CALL_CHUNK from owner {} for call {}, held open by the lane of {}",
                        owner_name(Some(owner)),
                        quoted(chunk.id.as_deref().unwrap_or_default()),
                        owner_name(lane.as_deref())
                    ),
                ));
            }
            return Ok(Some(owner.to_owned()));
        }
        if let Some(lane) = holder {
            return Ok(lane);
        }
        if chunk.id.is_some() || self.lanes.tool.contains_key(&None) {
            return Ok(None);
        }
        self.only_lane(plan, self.lanes.tool.keys(), "TOOL_CALL_CHUNK")
    }

    /// With neither id nor owner: the only open lane, else the parent's.
    fn only_lane<'k>(
        &self,
        plan: &Plan,
        mut keys: impl ExactSizeIterator<Item = &'k LaneKey>,
        what: &str,
    ) -> Result<LaneKey, Violation> {
        match keys.len() {
            0 => Ok(None),
            1 => Ok(keys.next().cloned().unwrap_or_default()),
            n => Err(plan.fatal(
                "C4",
                format!("{what} with neither id nor owner, and {n} subagent lanes could claim it"),
            )),
        }
    }

    /// Expands a `TOOL_CALL_CHUNK` (rules C1-C6).
    pub(crate) fn plan_tool_chunk<'a>(
        &self,
        plan: &mut Plan<'a>,
        chunk: ToolChunk<'a>,
    ) -> Result<(), Violation> {
        let key = self.tool_chunk_lane(plan, &chunk)?;
        let held = self.lanes.tool.get(&key).copied();
        let continues = match (&chunk.id, held) {
            (Some(id), Some(i)) => self.calls[i].id == *id,
            (None, Some(_)) => true,
            _ => false,
        };
        match held {
            Some(i) if continues => self.plan_continuation(plan, i, chunk),
            _ => self.plan_opening_chunk(plan, key, chunk),
        }
    }

    fn plan_continuation<'a>(
        &self,
        plan: &mut Plan<'a>,
        index: usize,
        chunk: ToolChunk<'a>,
    ) -> Result<(), Violation> {
        let call = &self.calls[index];
        if let Some(name) = chunk.name.as_deref().filter(|n| *n != call.name) {
            return Err(plan
                .fatal(
                    "C2",
                    format!(
                        "TOOL_CALL_CHUNK continuing call {} named {} repeats toolCallName {}",
                        quoted(&call.id),
                        quoted(&call.name),
                        quoted(name)
                    ),
                )
                .with_call(&call.id));
        }
        if let Some(parent) = chunk.parent.as_deref() {
            if call.parent_message_id.as_deref() != Some(parent) {
                return Err(plan
                    .fatal(
                        "C2",
                        format!(
                            "TOOL_CALL_CHUNK continuing call {} (parent message {}) repeats parentMessageId {}",
                            quoted(&call.id),
                            quoted_or_none(call.parent_message_id.as_deref()),
                            quoted(parent)
                        ),
                    )
                    .with_call(&call.id));
            }
        }
        self.check_owner(plan, index, chunk.owner.as_deref(), "TOOL_CALL_CHUNK")?;
        if let Some(delta) = chunk.delta.filter(|d| !d.is_empty()) {
            plan.ops.push(Op::Args(CallRef::Index(index), delta));
        }
        Ok(())
    }

    fn plan_opening_chunk<'a>(
        &self,
        plan: &mut Plan<'a>,
        key: LaneKey,
        chunk: ToolChunk<'a>,
    ) -> Result<(), Violation> {
        let (Some(id), Some(name)) = (chunk.id, chunk.name) else {
            return Err(plan.fatal(
                "C1",
                "the first TOOL_CALL_CHUNK of a call must carry toolCallId and toolCallName",
            ));
        };
        self.plan_close_lane(plan, &key);
        self.plan_start(plan, id, name, chunk.parent, chunk.owner, Some(key))?;
        if let Some(delta) = chunk.delta.filter(|d| !d.is_empty()) {
            plan.ops.push(Op::Args(CallRef::Last, delta));
        }
        Ok(())
    }

    /// Expands a `TEXT_MESSAGE_CHUNK` as far as ownership and lanes need
    /// (rule C7): an opening chunk starts a message and records its owner.
    pub(crate) fn plan_text_chunk<'a>(
        &self,
        plan: &mut Plan<'a>,
        owner: Option<Text<'a>>,
        message_id: Option<Text<'a>>,
    ) -> Result<(), Violation> {
        let holder = message_id
            .as_deref()
            .and_then(|m| self.lanes.text_by_message.get(m));
        let key = match (owner.as_deref(), holder) {
            (Some(o), Some(lane)) if lane.as_deref() != Some(o) => {
                return Err(plan
                    .fatal(
                        "C6",
                        format!(
                            "TEXT_MESSAGE_CHUNK from owner {} for a message held open by the lane of {}",
                            owner_name(Some(o)),
                            owner_name(lane.as_deref())
                        ),
                    )
                    .with_message(message_id.as_deref().unwrap_or_default()))
            }
            (Some(o), _) => Some(o.to_owned()),
            (None, Some(lane)) => lane.clone(),
            (None, None) if message_id.is_some() || self.lanes.text.contains_key(&None) => None,
            (None, None) => self.only_lane(plan, self.lanes.text.keys(), "TEXT_MESSAGE_CHUNK")?,
        };
        let held = self.lanes.text.get(&key);
        match (message_id, held) {
            (None, Some(_)) => Ok(()),
            (Some(m), Some(h)) if *h == m => Ok(()),
            (None, None) => Err(plan.fatal(
                "C7",
                "the first TEXT_MESSAGE_CHUNK of a message must carry messageId",
            )),
            (Some(m), _) => {
                self.plan_close_lane(plan, &key);
                let m = m.into_owned();
                plan.ops
                    .push(Op::MessageOwner(m.clone(), owner.map(Text::into_owned)));
                plan.ops.push(Op::TextLane(key, m));
                Ok(())
            }
        }
    }

    /// Closes one lane's open item: its chunked call ends (rule C5).
    pub(crate) fn plan_close_lane(&self, plan: &mut Plan, key: &LaneKey) {
        if let Some(&index) = self.lanes.tool.get(key) {
            plan.end(index);
            plan.ops.push(Op::ClearToolLane(key.clone()));
        }
        if self.lanes.text.contains_key(key) {
            plan.ops.push(Op::ClearTextLane(key.clone()));
        }
    }

    /// Closes every lane: each chunked call ends, or is abandoned when the
    /// run failed (rules C5, L5).
    pub(crate) fn plan_close_all_lanes(&self, plan: &mut Plan, abandon: bool) {
        if self.lanes.is_empty() {
            return;
        }
        let mut held: Vec<usize> = self.lanes.tool.values().copied().collect();
        indices::sort(&mut held);
        for index in held {
            if abandon {
                plan.abandon(index);
            } else {
                plan.end(index);
            }
        }
        plan.ops.push(Op::ClearAllLanes);
    }
}

/// How messages name an owner.
pub(crate) fn owner_name(owner: Option<&str>) -> String {
    match owner {
        Some(o) => format!("subagent {}", quoted(o)),
        None => "the parent agent".to_owned(),
    }
}
