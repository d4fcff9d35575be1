//! Chunk lanes: `TOOL_CALL_CHUNK` and `TEXT_MESSAGE_CHUNK` expanded into
//! the streaming pattern (rules C1-C7).
//!
//! Each owner (`subagentRunId`, `None` for the parent agent) has one lane,
//! holding at most one open chunked item: a tool call or a text message.
//! A chunk with another id closes the lane's item and opens its own; an
//! explicit event closes its own lane first (rule C5).

use super::plan::{CallRef, Op, Plan, Target};
use super::{indices, Tracker};
use crate::events::{JsonStr, Opaque, Text};
use crate::quote::{quoted, quoted_or_none};
use crate::violation::Violation;
use crate::HashMap;

/// A lane's key: the owner, `None` for the parent agent.
pub(crate) type LaneKey = Option<String>;

/// One index per lane. The parent's lane is held apart so that the owners'
/// map is the crate's common `HashMap<String, usize>`: a map keyed by
/// `Option<String>` is a hash-map instantiation of its own (size).
#[derive(Clone, Debug, Default)]
pub(crate) struct LaneMap {
    parent: Option<usize>,
    owners: HashMap<String, usize>,
}

impl LaneMap {
    pub fn get(&self, key: &LaneKey) -> Option<usize> {
        match key {
            None => self.parent,
            Some(owner) => self.owners.get(owner.as_str()).copied(),
        }
    }

    pub fn contains_key(&self, key: &LaneKey) -> bool {
        self.get(key).is_some()
    }

    pub fn insert(&mut self, key: LaneKey, value: usize) {
        match key {
            None => self.parent = Some(value),
            Some(owner) => {
                self.owners.insert(owner, value);
            }
        }
    }

    pub fn remove(&mut self, key: &LaneKey) -> Option<usize> {
        match key {
            None => self.parent.take(),
            Some(owner) => self.owners.remove(owner.as_str()),
        }
    }

    pub fn len(&self) -> usize {
        self.owners.len() + usize::from(self.parent.is_some())
    }

    /// The indices, unordered (a loop: a `collect` of the chained
    /// iterators is generic code of its own, size).
    pub fn values(&self) -> Vec<usize> {
        let mut values = Vec::with_capacity(self.len());
        values.extend(self.parent);
        for &value in self.owners.values() {
            values.push(value);
        }
        values
    }

    /// Some lane's key (the only one's, when one is open).
    fn any_key(&self) -> LaneKey {
        match self.parent {
            Some(_) => None,
            None => self.owners.keys().next().cloned(),
        }
    }
}

/// The open chunked items, by lane.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lanes {
    /// The call each lane holds open (an index into the calls).
    pub tool: LaneMap,
    /// The message each lane holds open, as a slot of `text_slots`.
    pub text: LaneMap,
    /// The open messages' lanes and ids by slot; a freed slot is empty and
    /// listed in `free_slots` for reuse, so slots stay bounded by the lanes
    /// open.
    text_slots: Vec<(LaneKey, String)>,
    free_slots: Vec<usize>,
    /// The slot of each open chunked message.
    text_by_message: HashMap<String, usize>,
}

impl Lanes {
    pub fn is_empty(&self) -> bool {
        self.tool.len() == 0 && self.text.len() == 0
    }

    /// The message `key`'s lane holds open.
    pub fn text_message(&self, key: &LaneKey) -> Option<&str> {
        self.text
            .get(key)
            .map(|slot| self.text_slots[slot].1.as_str())
    }

    /// The lane holding `message` open.
    pub fn lane_of_message(&self, message: &str) -> Option<&LaneKey> {
        self.text_by_message
            .get(message)
            .map(|&slot| &self.text_slots[slot].0)
    }

    pub fn clear_text(&mut self, key: &LaneKey) {
        if let Some(slot) = self.text.remove(key) {
            let (_, message) = std::mem::take(&mut self.text_slots[slot]);
            self.text_by_message.remove(&message);
            self.free_slots.push(slot);
        }
    }

    pub fn open_text(&mut self, key: LaneKey, message: String) {
        self.clear_text(&key);
        let slot = self.free_slots.pop().unwrap_or_else(|| {
            self.text_slots.push(Default::default());
            self.text_slots.len() - 1
        });
        self.text_by_message.insert(message.clone(), slot);
        self.text_slots[slot] = (key.clone(), message);
        self.text.insert(key, slot);
    }
}

/// A `TOOL_CALL_CHUNK`'s fields.
pub(crate) struct ToolChunk<'a> {
    pub owner: Option<Text<'a>>,
    pub id: Option<Text<'a>>,
    pub name: Option<Text<'a>>,
    pub parent: Option<Text<'a>>,
    pub delta: Option<JsonStr<'a>>,
    /// The chunk's `metadata`: the call's, merged (rule F10).
    pub metadata: Option<Opaque>,
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
        self.only_lane(plan, &self.lanes.tool, "TOOL_CALL_CHUNK")
    }

    /// With neither id nor owner: the only open lane, else the parent's.
    fn only_lane(&self, plan: &Plan, lanes: &LaneMap, what: &str) -> Result<LaneKey, Violation> {
        match lanes.len() {
            0 => Ok(None),
            1 => Ok(lanes.any_key()),
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
        let held = self.lanes.tool.get(&key);
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
        // A continuation carrying metadata alone is legal; it reaches the call.
        plan.merge(Target::Call(CallRef::Index(index)), chunk.metadata);
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
        plan.merge(Target::Call(CallRef::Last), chunk.metadata);
        Ok(())
    }

    /// Expands a `TEXT_MESSAGE_CHUNK` as far as ownership and lanes need
    /// (rule C7): an opening chunk starts a message and records its owner.
    pub(crate) fn plan_text_chunk<'a>(
        &self,
        plan: &mut Plan<'a>,
        owner: Option<Text<'a>>,
        message_id: Option<Text<'a>>,
        metadata: Option<Opaque>,
    ) -> Result<(), Violation> {
        let holder = message_id
            .as_deref()
            .and_then(|m| self.lanes.lane_of_message(m));
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
            (None, None) => self.only_lane(plan, &self.lanes.text, "TEXT_MESSAGE_CHUNK")?,
        };
        let held = self.lanes.text_message(&key);
        let message = match (message_id, held) {
            (None, Some(h)) => h,
            (Some(m), Some(h)) if *m == *h => h,
            (None, None) => {
                return Err(plan.fatal(
                    "C7",
                    "the first TEXT_MESSAGE_CHUNK of a message must carry messageId",
                ))
            }
            (Some(m), _) => {
                self.plan_close_lane(plan, &key);
                let m = m.into_owned();
                plan.ops
                    .push(Op::MessageOwner(m.clone(), owner.map(Text::into_owned)));
                plan.merge(Target::Message(m.clone()), metadata);
                plan.ops.push(Op::TextLane(key, m));
                return Ok(());
            }
        };
        // The message the chunk continues gets its metadata (rule F10).
        if metadata.is_some() {
            plan.merge(Target::Message(message.to_owned()), metadata);
        }
        Ok(())
    }

    /// Closes one lane's open item: its chunked call ends (rule C5).
    pub(crate) fn plan_close_lane(&self, plan: &mut Plan, key: &LaneKey) {
        if let Some(index) = self.lanes.tool.get(key) {
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
        let mut held = self.lanes.tool.values();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c5_text_lane_slots_are_reused_and_parent_kept_apart() {
        let mut lanes = Lanes::default();
        for i in 0..100 {
            lanes.open_text(None, format!("m{i}"));
            lanes.open_text(Some(String::new()), format!("s{i}"));
        }
        // Two lanes open: the parent's and the subagent "" (not the parent).
        assert_eq!(lanes.text.len(), 2);
        assert_eq!(lanes.text_message(&None), Some("m99"));
        assert_eq!(lanes.text_message(&Some(String::new())), Some("s99"));
        assert_eq!(lanes.text_by_message.len(), 2);
        assert_eq!(lanes.lane_of_message("s99"), Some(&Some(String::new())));
        assert_eq!(lanes.lane_of_message("m98"), None);
        assert!(
            lanes.text_slots.len() <= 3,
            "slots grew: {}",
            lanes.text_slots.len()
        );
        lanes.clear_text(&None);
        assert_eq!(lanes.text_message(&None), None);
        assert_eq!(lanes.text.any_key(), Some(String::new()));
    }
}
