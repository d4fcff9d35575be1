//! The complete history for the next run ([`Tracker::next_run`]): every
//! completed call in its assistant message's `toolCalls`, followed at once
//! by exactly one tool message per call.
//!
//! Ordering rules (documented in the package README):
//! 1. The input's messages keep their order; an assistant message gets the
//!    completed calls that name it (`parentMessageId`) appended to its
//!    `toolCalls`.
//! 2. A call whose assistant message the input lacks goes into a made-up
//!    assistant message (the `parentMessageId` as its id, or
//!    `<toolCallId>:assistant` for a call without one; parentless calls of
//!    one run sharing a place share one message). It is placed after the
//!    last input message the tracker had seen when the call started, else
//!    before the first one it saw later, else at the end.
//! 3. Every assistant message is followed at once by one tool message per
//!    call, in `toolCalls` order: the input's own tool message for the call
//!    (moved there if it was elsewhere), else the answer the tracker
//!    recorded (the application's answer, a decline, a failure, the
//!    producer's streamed result, a result of history). A tool message
//!    that answers a call otherwise (a second one, a producer's refused
//!    answer to a frontend call) is left out.
//! 4. A call that will never be answered (abandoned when its run failed or
//!    was aborted, or completed in such a run without an answer) is closed
//!    by a tool message `<toolCallId>:closed` with error `"abandoned"`; an
//!    abandoned call the input does not hold is left out.
//! 5. A pending call (a frontend call not answered) refuses the input.
//! 6. Tool messages for calls no message holds are passed through in place.

use super::UnansweredCall;
use crate::machine::{CallStatus, ToolCall, ToolResult, Tracker};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};

/// The content of the tool message closing a call that will never be
/// answered.
pub const ABANDONED_CONTENT: &str =
    "This tool call was not completed: its run ended before the call was answered.";

/// The `error` of that tool message.
const ABANDONED_ERROR: &str = "abandoned";

/// A made-up assistant message holding calls the input had no message for.
struct Group {
    /// Where it goes: before the input message at this index (or at the end).
    slot: usize,
    /// The parent message id the calls name, if any.
    parent: Option<String>,
    owner: Option<String>,
    calls: Vec<usize>,
}

/// What calls sharing a made-up message agree on: slot (or none, for calls
/// naming a parent), parent, run, owner.
type GroupKey<'a> = (usize, Option<&'a str>, Option<&'a str>, Option<&'a str>);

/// One pass over the input's messages, by index.
struct Input<'m> {
    messages: &'m [Value],
    /// Every message id of the input.
    ids: HashSet<&'m str>,
    /// Assistant message id -> index.
    assistants: HashMap<&'m str, usize>,
    /// Call id -> the index of the first assistant message holding it.
    calls: HashMap<&'m str, usize>,
    /// Call id -> the indices of the tool messages answering it, in order.
    answers: HashMap<&'m str, Vec<usize>>,
}

impl<'m> Input<'m> {
    fn new(messages: &'m [Value]) -> Self {
        let mut input = Input {
            messages,
            ids: HashSet::new(),
            assistants: HashMap::new(),
            calls: HashMap::new(),
            answers: HashMap::new(),
        };
        for (k, m) in messages.iter().enumerate() {
            let id = str_field(m, "id");
            input.ids.insert(id);
            match str_field(m, "role") {
                "assistant" => {
                    input.assistants.entry(id).or_insert(k);
                    for call in tool_calls(m) {
                        input.calls.entry(str_field(call, "id")).or_insert(k);
                    }
                }
                "tool" => input
                    .answers
                    .entry(str_field(m, "toolCallId"))
                    .or_default()
                    .push(k),
                _ => {}
            }
        }
        input
    }
}

fn str_field<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn tool_calls(m: &Value) -> &[Value] {
    m.get("toolCalls")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

impl Tracker {
    /// The input's messages completed (see the module's rules), or the
    /// pending calls it leaves unanswered.
    pub(super) fn complete_history(
        &self,
        messages: &[Value],
    ) -> Result<Vec<Value>, Vec<UnansweredCall>> {
        let input = Input::new(messages);
        let (extra, groups) = self.place_calls(&input);
        let mut out = Vec::with_capacity(messages.len() + 2 * groups.len());
        let mut emitted: HashSet<String> = HashSet::new();
        let mut unanswered = Vec::new();
        let placed = |id: &str| input.calls.contains_key(id) || self.placed_elsewhere(id, &input);
        let mut next_group = groups.iter().peekable();
        for (k, m) in messages.iter().enumerate() {
            while let Some(g) = next_group.next_if(|g| g.slot == k) {
                self.emit_group(g, &input, &mut out, &mut emitted, &mut unanswered);
            }
            match str_field(m, "role") {
                "tool" if placed(str_field(m, "toolCallId")) => {}
                "assistant" => {
                    let mut message = m.clone();
                    let mut entries: Vec<Value> = tool_calls(m)
                        .iter()
                        .filter(|c| !emitted.contains(str_field(c, "id")))
                        .cloned()
                        .collect();
                    for &i in extra.get(&k).map(Vec::as_slice).unwrap_or_default() {
                        entries.push(call_entry(&self.calls[i]));
                    }
                    let ids: Vec<String> = entries
                        .iter()
                        .map(|c| str_field(c, "id").to_owned())
                        .collect();
                    if !entries.is_empty() || m.get("toolCalls").is_some() {
                        message["toolCalls"] = Value::Array(entries);
                    }
                    out.push(message);
                    for id in ids {
                        self.emit_answer(&id, &input, &mut out, &mut unanswered);
                        emitted.insert(id);
                    }
                }
                _ => out.push(m.clone()),
            }
        }
        for g in next_group {
            self.emit_group(g, &input, &mut out, &mut emitted, &mut unanswered);
        }
        if unanswered.is_empty() {
            Ok(out)
        } else {
            Err(unanswered)
        }
    }

    /// A call the tracker will place in a message although the input holds
    /// it in none (so its tool messages move to it).
    fn placed_elsewhere(&self, id: &str, input: &Input) -> bool {
        self.call(id).is_some_and(|c| self.needs_placing(c, input))
    }

    /// A call the input holds in no assistant message that the history
    /// must show: complete, or abandoned with a tool message in the input.
    fn needs_placing(&self, call: &ToolCall, input: &Input) -> bool {
        !input.calls.contains_key(call.id.as_str())
            && match call.status {
                CallStatus::Complete => true,
                CallStatus::Abandoned => input.answers.contains_key(call.id.as_str()),
                CallStatus::Open => false,
            }
    }

    /// The calls to add: to an input assistant message (by index) that
    /// their `parentMessageId` names, or to made-up messages, by slot.
    fn place_calls(&self, input: &Input) -> (HashMap<usize, Vec<usize>>, Vec<Group>) {
        let mut known: Vec<(usize, usize)> = input
            .messages
            .iter()
            .enumerate()
            .filter_map(|(k, m)| Some((*self.message_seq.get(str_field(m, "id"))?, k)))
            .collect();
        known.sort_unstable();
        let mut extra: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut groups: Vec<Group> = Vec::new();
        let mut by_key: HashMap<GroupKey, usize> = HashMap::new();
        for (i, call) in self.calls.iter().enumerate() {
            if !self.needs_placing(call, input) {
                continue;
            }
            let parent = call.parent_message_id.as_deref();
            if let Some(&k) = parent.and_then(|p| input.assistants.get(p)) {
                extra.entry(k).or_default().push(i);
                continue;
            }
            let slot = slot_of(&known, call.seq, input.messages.len());
            // Calls naming one parent share its message wherever they are;
            // parentless calls share one when run, owner and place agree.
            let key = match parent {
                Some(p) => (usize::MAX, Some(p), None, None),
                None => (slot, None, call.run_id.as_deref(), call.owner.as_deref()),
            };
            match by_key.get(&key) {
                Some(&g) => groups[g].calls.push(i),
                None => {
                    by_key.insert(key, groups.len());
                    groups.push(Group {
                        slot,
                        parent: parent.map(str::to_owned),
                        owner: call.owner.clone(),
                        calls: vec![i],
                    });
                }
            }
        }
        // Stable: groups of one slot keep the order their calls started in.
        groups.sort_by_key(|g| g.slot);
        (extra, groups)
    }

    fn emit_group(
        &self,
        group: &Group,
        input: &Input,
        out: &mut Vec<Value>,
        emitted: &mut HashSet<String>,
        unanswered: &mut Vec<UnansweredCall>,
    ) {
        let first = &self.calls[group.calls[0]];
        let id = match &group.parent {
            Some(p) if !input.ids.contains(p.as_str()) => p.clone(),
            _ => self.unused_id(&first.id, "assistant", input),
        };
        let entries: Vec<Value> = group
            .calls
            .iter()
            .map(|&i| call_entry(&self.calls[i]))
            .collect();
        let mut message = json!({"id": id, "role": "assistant", "toolCalls": entries});
        if let Some(owner) = &group.owner {
            message["subagentRunId"] = json!(owner);
        }
        out.push(message);
        for &i in &group.calls {
            let id = &self.calls[i].id;
            self.emit_answer(id, input, out, unanswered);
            emitted.insert(id.clone());
        }
    }

    /// The one tool message answering call `id` (rule 3 to 5 above).
    fn emit_answer(
        &self,
        id: &str,
        input: &Input,
        out: &mut Vec<Value>,
        unanswered: &mut Vec<UnansweredCall>,
    ) {
        let given = input.answers.get(id).map(Vec::as_slice).unwrap_or_default();
        let given = given.iter().map(|&k| &input.messages[k]);
        let Some(call) = self.call(id) else {
            match given.clone().next() {
                Some(m) => out.push(m.clone()),
                None => out.push(self.closing_message(id, None, input)),
            }
            return;
        };
        if let Some(answer) = call.results.iter().find(|r| r.answers()) {
            let same = given
                .clone()
                .find(|m| str_field(m, "id") == answer.message_id);
            out.push(match same {
                Some(m) => m.clone(),
                None => tool_message(id, answer),
            });
            return;
        }
        let refused = |m: &&Value| {
            let mid = str_field(m, "id");
            call.results.iter().any(|r| r.message_id == mid)
        };
        if let Some(m) = given.clone().find(|m| !refused(m)) {
            out.push(m.clone());
        } else if call.pending {
            unanswered.push(UnansweredCall {
                tool_call_id: call.id.clone(),
                tool_name: call.name.clone(),
                answer_left_out: false,
            });
        } else {
            out.push(self.closing_message(id, call.owner.as_deref(), input));
        }
    }

    /// The tool message closing a call that will never be answered.
    fn closing_message(&self, id: &str, owner: Option<&str>, input: &Input) -> Value {
        let mut message = json!({
            "id": self.unused_id(id, "closed", input),
            "role": "tool",
            "toolCallId": id,
            "content": ABANDONED_CONTENT,
            "error": ABANDONED_ERROR,
        });
        if let Some(owner) = owner {
            message["subagentRunId"] = json!(owner);
        }
        message
    }

    /// `<base>:<what>`, with a number appended while the thread or the
    /// input uses it: deterministic, so the same input completes the same.
    fn unused_id(&self, base: &str, what: &str, input: &Input) -> String {
        let used = |id: &str| {
            input.ids.contains(id)
                || self.messages.contains_key(id)
                || self.message_ids.contains(id)
        };
        let mut id = format!("{base}:{what}");
        let mut n = 2;
        while used(&id) {
            id = format!("{base}:{what}{n}");
            n += 1;
        }
        id
    }
}

/// Where a call goes among the input's messages: after the last one seen
/// before it started, else before the first seen after, else at the end.
fn slot_of(known: &[(usize, usize)], seq: usize, len: usize) -> usize {
    let p = known.partition_point(|&(s, _)| s < seq);
    if p > 0 {
        known[p - 1].1 + 1
    } else {
        known.first().map_or(len, |&(_, k)| k)
    }
}

/// A call as an assistant message's `toolCalls` entry (`@ag-ui/core`).
fn call_entry(call: &ToolCall) -> Value {
    json!({
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.args_text()},
    })
}

/// A recorded answer as a tool message.
fn tool_message(tool_call_id: &str, answer: &ToolResult) -> Value {
    let mut message = Map::new();
    message.insert("id".into(), json!(answer.message_id));
    message.insert("role".into(), json!("tool"));
    message.insert("toolCallId".into(), json!(tool_call_id));
    let content = match &answer.content {
        Value::Null => json!(""),
        c => c.clone(),
    };
    message.insert("content".into(), content);
    if let Some(error) = &answer.error {
        message.insert("error".into(), json!(error));
    }
    if let Some(owner) = &answer.owner {
        message.insert("subagentRunId".into(), json!(owner));
    }
    Value::Object(message)
}
