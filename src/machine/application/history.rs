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
use serde_json::{Map, Value};
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

/// One pass over the input's messages, by index. Only map types the
/// tracker already uses (`String` keys): each new instantiation of a hash
/// map costs the wasm module a few kilobytes.
struct Input<'m> {
    messages: &'m [Value],
    /// Every message id of the input.
    ids: HashSet<String>,
    /// Assistant message id -> the index of the first one.
    assistants: HashMap<String, usize>,
    /// Call id -> the index of the first assistant message holding it.
    calls: HashMap<String, usize>,
    /// Call id -> the index of the first tool message answering it.
    answers: HashMap<String, usize>,
    /// For each tool message, the next one answering the same call.
    next_answer: Vec<Option<usize>>,
}

impl<'m> Input<'m> {
    fn new(messages: &'m [Value]) -> Self {
        let mut input = Input {
            messages,
            ids: HashSet::new(),
            assistants: HashMap::new(),
            calls: HashMap::new(),
            answers: HashMap::new(),
            next_answer: vec![None; messages.len()],
        };
        let mut last_answer: HashMap<String, usize> = HashMap::new();
        for (k, m) in messages.iter().enumerate() {
            let id = str_field(m, "id");
            input.ids.insert(id.to_owned());
            match str_field(m, "role") {
                "assistant" => {
                    input.assistants.entry(id.to_owned()).or_insert(k);
                    for call in tool_calls(m) {
                        let call = str_field(call, "id").to_owned();
                        input.calls.entry(call).or_insert(k);
                    }
                }
                "tool" => {
                    let call = str_field(m, "toolCallId");
                    match last_answer.insert(call.to_owned(), k) {
                        Some(previous) => input.next_answer[previous] = Some(k),
                        None => {
                            input.answers.insert(call.to_owned(), k);
                        }
                    }
                }
                _ => {}
            }
        }
        input
    }

    /// The tool messages answering call `id`, in order.
    fn answers_to(&self, id: &str) -> impl Iterator<Item = &'m Value> + Clone + '_ {
        std::iter::successors(self.answers.get(id).copied(), |&k| self.next_answer[k])
            .map(|k| &self.messages[k])
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
        // Groups of one slot keep the order their first calls started in.
        let mut at_slot: Vec<Vec<usize>> = vec![Vec::new(); messages.len() + 1];
        for (g, group) in groups.iter().enumerate() {
            at_slot[group.slot].push(g);
        }
        for k in 0..=messages.len() {
            for &g in &at_slot[k] {
                self.emit_group(&groups[g], &input, &mut out, &mut emitted, &mut unanswered);
            }
            let Some(m) = messages.get(k) else { break };
            match str_field(m, "role") {
                "tool" if placed(str_field(m, "toolCallId")) => {}
                "assistant" => {
                    let mut message = m.clone();
                    let mut entries: Vec<Value> = tool_calls(m)
                        .iter()
                        .filter(|c| !emitted.contains(str_field(c, "id")))
                        .cloned()
                        .collect();
                    for &i in &extra[k] {
                        entries.push(call_entry(&self.calls[i]));
                    }
                    let ids: Vec<String> = entries
                        .iter()
                        .map(|c| str_field(c, "id").to_owned())
                        .collect();
                    // Inserted, not indexed: indexing a `Value` links the
                    // formatting of its panic message into the wasm module.
                    if let Value::Object(fields) = &mut message {
                        if !entries.is_empty() || fields.contains_key("toolCalls") {
                            fields.insert("toolCalls".into(), Value::Array(entries));
                        }
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
    fn place_calls(&self, input: &Input) -> (Vec<Vec<usize>>, Vec<Group>) {
        let slots = Slots::new(&self.message_seq, input);
        let mut extra: Vec<Vec<usize>> = vec![Vec::new(); input.messages.len()];
        let mut groups: Vec<Group> = Vec::new();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        for (i, call) in self.calls.iter().enumerate() {
            if !self.needs_placing(call, input) {
                continue;
            }
            let parent = call.parent_message_id.as_deref();
            if let Some(&k) = parent.and_then(|p| input.assistants.get(p)) {
                extra[k].push(i);
                continue;
            }
            let slot = slots.of(call.seq);
            // Calls naming one parent share its message wherever they are;
            // parentless calls share one when place, run and owner agree.
            let key = match parent {
                Some(p) => format!("p\u{0}{p}"),
                None => format!(
                    "{slot}\u{0}{}\u{0}{}",
                    call.run_id.as_deref().unwrap_or_default(),
                    call.owner.as_deref().unwrap_or_default()
                ),
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
            Some(p) if !input.ids.contains(p) => p.clone(),
            _ => self.unused_id(&first.id, "assistant", input),
        };
        let entries: Vec<Value> = group
            .calls
            .iter()
            .map(|&i| call_entry(&self.calls[i]))
            .collect();
        let mut message = Map::new();
        message.insert("id".into(), text(&id));
        message.insert("role".into(), text("assistant"));
        message.insert("toolCalls".into(), Value::Array(entries));
        if let Some(owner) = &group.owner {
            message.insert("subagentRunId".into(), text(owner));
        }
        out.push(Value::Object(message));
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
        let given = input.answers_to(id);
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
        let mut message = Map::new();
        message.insert("id".into(), text(&self.unused_id(id, "closed", input)));
        message.insert("role".into(), text("tool"));
        message.insert("toolCallId".into(), text(id));
        message.insert("content".into(), text(ABANDONED_CONTENT));
        message.insert("error".into(), text(ABANDONED_ERROR));
        if let Some(owner) = owner {
            message.insert("subagentRunId".into(), text(owner));
        }
        Value::Object(message)
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
/// A table over the thread's message order (no sort, no search).
struct Slots {
    /// For each point of the thread's message order, the input message
    /// last seen before it, if any.
    before: Vec<Option<usize>>,
    /// The input message seen first.
    first: Option<usize>,
    len: usize,
}

impl Slots {
    fn new(seq: &HashMap<String, usize>, input: &Input) -> Self {
        let mut by_seq: Vec<Option<usize>> = vec![None; seq.len()];
        for (k, m) in input.messages.iter().enumerate() {
            if let Some(&s) = seq.get(str_field(m, "id")) {
                by_seq[s] = Some(k);
            }
        }
        let mut before = Vec::with_capacity(seq.len() + 1);
        let mut last = None;
        for k in &by_seq {
            before.push(last);
            last = k.or(last);
        }
        before.push(last);
        Slots {
            before,
            first: by_seq.iter().find_map(|k| *k),
            len: input.messages.len(),
        }
    }

    /// The slot of a call started at `seq` (before the message at the slot).
    fn of(&self, seq: usize) -> usize {
        match self.before.get(seq).copied().flatten() {
            Some(k) => k + 1,
            None => self.first.unwrap_or(self.len),
        }
    }
}

/// A JSON string. Values are built by hand, not with `json!`, whose
/// conversions link serde's error formatting into the wasm module.
fn text(s: &str) -> Value {
    Value::String(s.to_owned())
}

/// A call as an assistant message's `toolCalls` entry (`@ag-ui/core`).
fn call_entry(call: &ToolCall) -> Value {
    let mut function = Map::new();
    function.insert("name".into(), text(&call.name));
    function.insert("arguments".into(), text(call.args_text()));
    let mut entry = Map::new();
    entry.insert("id".into(), text(&call.id));
    entry.insert("type".into(), text("function"));
    entry.insert("function".into(), Value::Object(function));
    Value::Object(entry)
}

/// A recorded answer as a tool message.
fn tool_message(tool_call_id: &str, answer: &ToolResult) -> Value {
    let mut message = Map::new();
    message.insert("id".into(), text(&answer.message_id));
    message.insert("role".into(), text("tool"));
    message.insert("toolCallId".into(), text(tool_call_id));
    let content = match &answer.content {
        Value::Null => text(""),
        c => c.clone(),
    };
    message.insert("content".into(), content);
    if let Some(error) = &answer.error {
        message.insert("error".into(), text(error));
    }
    if let Some(owner) = &answer.owner {
        message.insert("subagentRunId".into(), text(owner));
    }
    Value::Object(message)
}
