//! A script: tracker options and a sequence of steps (events pushed as JSON
//! text, application calls), built from fuzz input by `arbitrary`.
//!
//! Ids, names and owners come from small sets, so that random sequences
//! reopen, answer and attribute the same calls and hit real interactions;
//! free text (deltas, content, raw events) comes from the input as is.

use arbitrary::Arbitrary;
use serde_json::{json, Map, Value};

/// A call id from a small set.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub struct Id(u8);

impl Id {
    pub fn get(self) -> String {
        format!("c{}", self.0 % 4)
    }
}

/// A message id from a small set (shared by text messages, parents, results).
#[derive(Arbitrary, Clone, Copy, Debug)]
pub struct Msg(u8);

impl Msg {
    pub fn get(self) -> String {
        format!("m{}", self.0 % 5)
    }
}

/// A tool name: `confirm` and `deploy` are advertised by the options
/// (`deploy` requires approval), `search` only by some runs.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub struct Name(u8);

impl Name {
    pub fn get(self) -> &'static str {
        ["confirm", "deploy", "search", "other"][usize::from(self.0 % 4)]
    }
}

/// A subagent, or the parent agent.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub struct Owner(u8);

impl Owner {
    pub fn get(self) -> Option<&'static str> {
        [None, None, Some("s1"), Some("s2")][usize::from(self.0 % 4)]
    }
}

/// JSON pieces an argument text is made of, so that deltas often build
/// valid documents, plus free text.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\"service\"",
    "\"a\"",
    "1",
    "-0.5e3",
    "true",
    "null",
    " ",
    "\\",
    "\\u00e9",
    "\\ud83d",
    "\\ude00",
    "é",
    "😀",
    "{\"service\":\"checkout\"}",
    "{\"a\":[1,{\"b\":\"x\"}]}",
    "1e400",
    "\u{0}",
];

#[derive(Arbitrary, Clone, Debug)]
pub enum Delta {
    Fragment(u8),
    Text(String),
}

impl Delta {
    pub fn get(&self) -> String {
        match self {
            Delta::Fragment(n) => FRAGMENTS[usize::from(*n) % FRAGMENTS.len()].to_owned(),
            Delta::Text(s) => s.clone(),
        }
    }
}

/// Result or answer content: mostly what the protocol allows, sometimes not.
#[derive(Arbitrary, Clone, Debug)]
pub enum Content {
    Str(String),
    Parts(Vec<String>),
    /// Any JSON the input spells (kept as a string when it does not parse).
    Json(String),
    Number(i32),
    Null,
}

impl Content {
    pub fn get(&self) -> Value {
        match self {
            Content::Str(s) => json!(s),
            Content::Parts(parts) => parts
                .iter()
                .map(|t| json!({"type": "text", "text": t}))
                .collect(),
            Content::Json(s) => serde_json::from_str(s).unwrap_or_else(|_| json!(s)),
            Content::Number(n) => json!(n),
            Content::Null => Value::Null,
        }
    }
}

/// A tool's parameters: a few realistic schemas, or any JSON the input
/// spells.
#[derive(Arbitrary, Clone, Debug)]
pub enum Params {
    Known(u8),
    Json(String),
}

impl Params {
    pub fn get(&self) -> Value {
        match self {
            Params::Known(n) => match n % 4 {
                0 => json!({"type": "object", "required": ["service"],
                            "properties": {"service": {"type": "string", "pattern": "^[a-z]+$"}}}),
                1 => json!({"type": "object", "additionalProperties": false,
                            "properties": {"a": {"type": "array", "items": {"$ref": "#/$defs/b"}}},
                            "$defs": {"b": {"anyOf": [{"type": "integer"}, {"type": "object"}]}}}),
                2 => Value::Null,
                _ => json!({"$ref": "#/nowhere"}),
            },
            Params::Json(s) => serde_json::from_str(s).unwrap_or(Value::Null),
        }
    }
}

#[derive(Arbitrary, Clone, Debug)]
pub struct ToolSpec {
    pub name: Name,
    pub params: Params,
}

/// A message of history (`MESSAGES_SNAPSHOT`, run input).
#[derive(Arbitrary, Clone, Debug)]
pub enum HistoryMessage {
    Assistant {
        id: Msg,
        calls: Vec<(Id, Name, Delta)>,
    },
    Tool {
        id: Msg,
        call: Id,
        content: Content,
        error: Option<String>,
    },
    User {
        id: Msg,
        content: String,
    },
}

impl HistoryMessage {
    pub fn get(&self) -> Value {
        match self {
            HistoryMessage::Assistant { id, calls } => json!({
                "id": id.get(), "role": "assistant",
                "toolCalls": calls.iter().map(|(call, name, args)| json!({
                    "id": call.get(), "type": "function",
                    "function": {"name": name.get(), "arguments": args.get()},
                })).collect::<Vec<_>>(),
            }),
            HistoryMessage::Tool {
                id,
                call,
                content,
                error,
            } => {
                let mut m = json!({"id": id.get(), "role": "tool",
                                   "toolCallId": call.get(), "content": content.get()});
                if let Some(e) = error {
                    m["error"] = json!(e);
                }
                m
            }
            HistoryMessage::User { id, content } => {
                json!({"id": id.get(), "role": "user", "content": content})
            }
        }
    }
}

/// A `RunAgentInput` (the parts the tracker reads, and some it ignores).
#[derive(Arbitrary, Clone, Debug)]
pub struct RunInputSpec {
    pub messages: Vec<HistoryMessage>,
    pub tools: Option<Vec<ToolSpec>>,
}

impl RunInputSpec {
    pub fn get(&self, run: &str) -> Value {
        let mut input = json!({
            "threadId": "t", "runId": run,
            "messages": self.messages.iter().map(HistoryMessage::get).collect::<Vec<_>>(),
            "state": {}, "context": [], "forwardedProps": {},
        });
        if let Some(tools) = &self.tools {
            input["tools"] = tools
                .iter()
                .map(|t| json!({"name": t.name.get(), "description": "", "parameters": t.params.get()}))
                .collect();
        }
        input
    }
}

/// One event, by type; any of them may come from a subagent.
#[derive(Arbitrary, Clone, Debug)]
pub enum Body {
    RunStarted {
        run: Id,
        parent_run: Option<Id>,
        input: Option<RunInputSpec>,
    },
    RunFinished {
        run: Id,
        outcome: Option<(bool, Vec<Id>)>,
    },
    RunError {
        message: String,
    },
    ToolCallStart {
        id: Id,
        name: Name,
        parent: Option<Msg>,
    },
    ToolCallArgs {
        id: Id,
        delta: Delta,
    },
    ToolCallEnd {
        id: Id,
    },
    ToolCallChunk {
        id: Option<Id>,
        name: Option<Name>,
        parent: Option<Msg>,
        delta: Option<Delta>,
    },
    ToolCallResult {
        message: Msg,
        id: Id,
        content: Content,
        error: Option<String>,
    },
    TextMessageStart {
        message: Msg,
    },
    TextMessageContent {
        message: Msg,
        delta: String,
    },
    TextMessageEnd {
        message: Msg,
    },
    TextMessageChunk {
        message: Option<Msg>,
        delta: Option<String>,
    },
    MessagesSnapshot {
        messages: Vec<HistoryMessage>,
    },
    Subagent {
        kind: u8,
        /// `parentToolCallId` of a start; also whether a finish is suspended.
        parent_call: Option<Id>,
        /// `parentSubagentRunId` of a start.
        parent_subagent: Owner,
    },
    Other {
        kind: u8,
    },
}

#[derive(Arbitrary, Clone, Debug)]
pub struct EventSpec {
    pub owner: Owner,
    pub body: Body,
}

impl EventSpec {
    /// The event as JSON text.
    pub fn to_json(&self) -> String {
        let mut e = Map::new();
        let mut put = |k: &str, v: Value| {
            e.insert(k.to_owned(), v);
        };
        let ty = match &self.body {
            Body::RunStarted {
                run,
                parent_run,
                input,
            } => {
                let run = format!("r{}", run.get());
                put("threadId", json!("t"));
                if let Some(p) = parent_run {
                    put("parentRunId", json!(format!("r{}", p.get())));
                }
                if let Some(input) = input {
                    put("input", input.get(&run));
                }
                put("runId", json!(run));
                "RUN_STARTED"
            }
            Body::RunFinished { run, outcome } => {
                put("threadId", json!("t"));
                put("runId", json!(format!("r{}", run.get())));
                match outcome {
                    Some((true, ids)) => put(
                        "outcome",
                        json!({"type": "success",
                               "pendingToolCallIds": ids.iter().map(|i| i.get()).collect::<Vec<_>>()}),
                    ),
                    Some((false, ids)) => put(
                        "outcome",
                        json!({"type": "interrupt",
                               "interrupts": ids.iter().map(|i| json!({"id": i.get(), "reason": "ask"})).collect::<Vec<_>>()}),
                    ),
                    None => {}
                }
                "RUN_FINISHED"
            }
            Body::RunError { message } => {
                put("message", json!(message));
                "RUN_ERROR"
            }
            Body::ToolCallStart { id, name, parent } => {
                put("toolCallId", json!(id.get()));
                put("toolCallName", json!(name.get()));
                if let Some(p) = parent {
                    put("parentMessageId", json!(p.get()));
                }
                "TOOL_CALL_START"
            }
            Body::ToolCallArgs { id, delta } => {
                put("toolCallId", json!(id.get()));
                put("delta", json!(delta.get()));
                "TOOL_CALL_ARGS"
            }
            Body::ToolCallEnd { id } => {
                put("toolCallId", json!(id.get()));
                "TOOL_CALL_END"
            }
            Body::ToolCallChunk {
                id,
                name,
                parent,
                delta,
            } => {
                if let Some(id) = id {
                    put("toolCallId", json!(id.get()));
                }
                if let Some(name) = name {
                    put("toolCallName", json!(name.get()));
                }
                if let Some(p) = parent {
                    put("parentMessageId", json!(p.get()));
                }
                if let Some(d) = delta {
                    put("delta", json!(d.get()));
                }
                "TOOL_CALL_CHUNK"
            }
            Body::ToolCallResult {
                message,
                id,
                content,
                error,
            } => {
                put("messageId", json!(message.get()));
                put("toolCallId", json!(id.get()));
                put("content", content.get());
                if let Some(err) = error {
                    put("error", json!(err));
                }
                "TOOL_CALL_RESULT"
            }
            Body::TextMessageStart { message } => {
                put("messageId", json!(message.get()));
                put("role", json!("assistant"));
                "TEXT_MESSAGE_START"
            }
            Body::TextMessageContent { message, delta } => {
                put("messageId", json!(message.get()));
                put("delta", json!(delta));
                "TEXT_MESSAGE_CONTENT"
            }
            Body::TextMessageEnd { message } => {
                put("messageId", json!(message.get()));
                "TEXT_MESSAGE_END"
            }
            Body::TextMessageChunk { message, delta } => {
                if let Some(m) = message {
                    put("messageId", json!(m.get()));
                }
                if let Some(d) = delta {
                    put("delta", json!(d));
                }
                "TEXT_MESSAGE_CHUNK"
            }
            Body::MessagesSnapshot { messages } => {
                put(
                    "messages",
                    messages.iter().map(HistoryMessage::get).collect(),
                );
                "MESSAGES_SNAPSHOT"
            }
            Body::Subagent {
                kind,
                parent_call,
                parent_subagent,
            } => match kind % 3 {
                0 => {
                    put("name", json!("helper"));
                    if let Some(call) = parent_call {
                        put("parentToolCallId", json!(call.get()));
                    }
                    if let Some(parent) = parent_subagent.get() {
                        put("parentSubagentRunId", json!(parent));
                    }
                    "SUBAGENT_STARTED"
                }
                1 => {
                    if let Some(call) = parent_call {
                        put(
                            "outcome",
                            json!({"type": "suspended", "interruptIds": [call.get()]}),
                        );
                    }
                    "SUBAGENT_FINISHED"
                }
                _ => {
                    put("message", json!("failed"));
                    "SUBAGENT_ERROR"
                }
            },
            Body::Other { kind } => [
                "STEP_STARTED",
                "STATE_DELTA",
                "CUSTOM",
                "RAW",
                "REASONING_START",
                "SOMETHING_ELSE",
            ][usize::from(kind % 6)],
        };
        e.insert("type".to_owned(), json!(ty));
        match (self.owner.get(), &self.body) {
            // A subagent event names its subagent.
            (None, Body::Subagent { .. }) => {
                e.insert("subagentRunId".to_owned(), json!("s1"));
            }
            (Some(owner), _) => {
                e.insert("subagentRunId".to_owned(), json!(owner));
            }
            (None, _) => {}
        }
        Value::Object(e).to_string()
    }
}

/// One thing the script does to the tracker.
#[derive(Arbitrary, Clone, Debug)]
pub enum Step {
    /// A plausible event.
    Event(EventSpec),
    /// Any text, pushed as one event.
    Raw(String),
    Approve(Id),
    Answer(Id, Content, Msg),
    Fail(Id, String, Option<Content>, Msg),
    Decline(Id, Option<String>, Msg),
    StartRun(RunInputSpec),
    /// Any text as a run input.
    StartRunRaw(String),
    /// The binding reads what changed.
    TakeChanges,
}

/// Tracker options, with limits small enough to be met now and then.
#[derive(Arbitrary, Clone, Debug)]
pub struct OptionsSpec {
    pub fragment: bool,
    pub small_limits: Option<(u8, u8, u8)>,
}

impl OptionsSpec {
    pub fn get(&self) -> agui_tool_calls::Options {
        use agui_tool_calls::events::Tool;
        let mut options = agui_tool_calls::Options {
            tools: vec![
                Tool::new("confirm", "", Params::Known(0).get()),
                Tool::new("deploy", "", Params::Known(1).get()),
            ],
            fragment: self.fragment,
            require_approval: vec!["deploy".to_owned()],
            ..Default::default()
        };
        if let Some((bytes, depth, calls)) = self.small_limits {
            options.limits.max_args_bytes = usize::from(bytes);
            options.limits.max_depth = usize::from(depth % 8);
            options.limits.max_calls = usize::from(calls % 6);
        }
        options
    }
}

/// What the tracker target runs.
#[derive(Arbitrary, Clone, Debug)]
pub struct Script {
    pub options: OptionsSpec,
    pub steps: Vec<Step>,
}
