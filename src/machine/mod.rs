//! The tracker: consumes events one at a time and keeps every call's state.
//!
//! Each event is first turned into a plan (module `plan`) with every rule
//! checked, then applied (module `apply`); a fatal violation therefore leaves
//! the state exactly as it was before the offending event.

mod application;
mod apply;
pub(crate) mod budget;
mod changes;
mod clock;
mod indices;
mod interrupts;
pub(crate) mod lanes;
mod names;
pub(crate) mod plan;
mod state;
mod subagents;
mod tools;
mod validation;

pub use application::UncoveredInterrupt;
pub use application::{
    ApplicationError, ToolMessage, UnansweredCall, ABANDONED_CONTENT, CANCELLED_CONTENT,
    DECLINED_CONTENT,
};
pub use changes::{CallChange, Changes};
pub use clock::Clock;
pub use state::{
    CallStatus, Consent, InterruptDecision, OpenInterrupt, ResultSource, RunState, RunStatus,
    StandingApproval, ToolCall, ToolResult, UnmatchedResult,
};
pub use subagents::{Subagent, SubagentStatus};
pub use validation::Validation;

use crate::args::ArgsLimits;
use crate::events::{Event, EventBody, JsonStr, Kept, Tool};
use crate::sse::{SseDecoder, SseItem};
use crate::violation::{Severity, Violation};
use crate::HashMap;
use indices::Indices;
use lanes::Lanes;
pub(crate) use names::Names;
use names::Owners;
use plan::Plan;
use std::borrow::Cow;
use tools::Tools;

/// Bounds on what one thread may make the tracker hold (rule S5); each is
/// described, with its default and what exceeding it does, in
/// `docs/limits.md`. Per-call limits (`max_args_bytes`, `max_depth`) mark
/// the call and the stream goes on; the others are fatal.
// In the declarations, every field may be left out (the default applies).
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "camelCase"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes of argument text per call.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub max_args_bytes: usize,
    /// Deepest nesting of arrays and objects in arguments.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub max_depth: usize,
    /// Most tool calls per thread; one more is fatal.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub max_calls: usize,
    /// Most bytes of one event: its JSON text, or an event-stream line or
    /// event's data; more is fatal.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub max_event_bytes: usize,
    /// Most bytes the thread may retain, all told (argument text, results,
    /// ids, names, history); more is fatal.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub max_thread_bytes: usize,
    /// Most bytes of one id or name (call, message, thread and run ids,
    /// tool names, `subagentRunId`); more is fatal.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub max_id_bytes: usize,
    /// Most message ids per thread (an id in the owner table and among the
    /// ids in use counts twice); one more is fatal.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub max_messages: usize,
    /// Most chunk lanes open at once, for tool calls and for text messages
    /// each; one more is fatal.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub max_lanes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        let args = ArgsLimits::default();
        Limits {
            max_args_bytes: args.max_bytes,
            max_depth: args.max_depth,
            max_calls: 10_000,
            max_event_bytes: 4 << 20,
            max_thread_bytes: 64 << 20,
            max_id_bytes: 1024,
            max_messages: 100_000,
            max_lanes: 1_000,
        }
    }
}

/// How a tracker is set up.
///
/// ```
/// use agui_tool_calls::{events::Tool, Options, Tracker};
/// use serde_json::json;
///
/// let options = Options {
///     tools: vec![Tool::new("confirm", "Ask the user", json!({"type": "object"}))],
///     ..Options::default()
/// };
/// let tracker = Tracker::new(options);
/// assert!(tracker.tool("confirm").is_some());
/// ```
// Declared as the JS constructor's options object (js/wire.d.ts), which
// `wire::parse_options` reads: every field may be left out.
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "camelCase"))]
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Tools the application advertises for every run (rule F1).
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub tools: Vec<Tool>,
    /// The stream is a fragment: it need not begin with a run event (L1).
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub fragment: bool,
    /// Tools whose calls must be approved before the application may answer
    /// or fail them (rule S3); declining is always allowed.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub require_approval: Vec<String>,
    /// Bounds on what one thread may make the tracker hold (rule S5).
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    pub limits: Limits,
}

/// The tool-call state machine of one thread.
///
/// ```
/// use agui_tool_calls::{Options, Tracker};
///
/// let mut t = Tracker::new(Options::default());
/// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
/// let err = t.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"x"}"#).unwrap_err();
/// assert_eq!(err.code, "T2");
/// // Refused from now on, with the same error; the state stays readable.
/// assert_eq!(t.push_json(r#"{"type":"RUN_ERROR","message":"m"}"#), Err(err));
/// assert_eq!(t.run().run_id.as_deref(), Some("r"));
/// ```
#[derive(Clone, Debug)]
pub struct Tracker {
    pub(crate) options: Options,
    pub(crate) calls: Vec<ToolCall>,
    pub(crate) by_id: HashMap<String, usize>,
    /// Open calls, by index (so, in first-start order).
    pub(crate) open: Indices,
    pub(crate) run: RunState,
    /// Calls (re)opened in the current run.
    pub(crate) run_calls: Vec<usize>,
    pub(crate) option_tools: Tools,
    pub(crate) run_tools: Tools,
    /// Run tools whose schema only the stream supplied: none of the
    /// application's tools of that name has the same `parameters`.
    pub(crate) stream_schemas: Names,
    /// The schemas of the tools the application's last run input gave
    /// ([`Tracker::start_run`]), by tool name.
    pub(crate) application_tools: Tools,
    /// Each known message's owner, numbered by `owners` (rule A1).
    pub(crate) messages: HashMap<String, usize>,
    /// The owners `messages` and the text lanes name.
    pub(crate) owners: Owners,
    /// Other message ids the thread uses: tool messages (results) and the
    /// parent messages calls name. With `messages`, every id in use.
    pub(crate) message_ids: Names,
    /// The order in which the thread's message ids were first seen (text
    /// messages, parent messages, history): where calls happened between
    /// them (see [`Tracker::message_position`]).
    pub(crate) message_seq: HashMap<String, usize>,
    /// Calls whose application answer no run input has carried yet
    /// (rule F5), by index, so in start order.
    pub(crate) undelivered: Indices,
    /// Abandoned calls with no answer that no run input has closed yet
    /// (rule F11), by index: `tool_messages` lists a closing message for
    /// each, since the application's history may hold the call.
    pub(crate) unclosed: Indices,
    pub(crate) lanes: Lanes,
    pub(crate) violations: crate::violation_log::ViolationLog,
    pub(crate) unmatched: Vec<UnmatchedResult>,
    pub(crate) fatal: Option<Violation>,
    pub(crate) events_seen: usize,
    pub(crate) version: u64,
    pub(crate) changes: changes::Bookkeeping,
    pub(crate) schemas: validation::Schemas,
    /// Bytes the thread retains, as rule S5 counts them (`budget`).
    pub(crate) retained: usize,
    /// The event-stream decoder of [`Tracker::push_sse`].
    pub(crate) sse: SseDecoder,
    /// The call argument text last went to (see [`Tracker::call_index`]).
    pub(crate) last_call: usize,
    /// The open interrupts of the thread, in order (rule I1).
    pub(crate) interrupts: Vec<OpenInterrupt>,
    /// What messages keep for the next history (rule F10), by id, through
    /// `kept_at`: only those that keep something.
    pub(crate) kept_messages: Vec<(String, Kept)>,
    pub(crate) kept_at: HashMap<String, usize>,
    /// A run input was declared (`start_run`) and no `RUN_STARTED` came
    /// since: `abort_run` then ends that run, which never started.
    pub(crate) declared: bool,
    /// Reads the time and `expiresAt` (rule I5).
    pub(crate) clock: Clock,
    /// The user's standing approvals, one per tool, in the order given
    /// (rule S3).
    pub(crate) standing: Vec<StandingApproval>,
    /// The announced subagents, in first-announced order (rule A8).
    pub(crate) subagents: Vec<subagents::Subagent>,
    pub(crate) subagent_ids: HashMap<String, usize>,
    /// The owners this run's calls, messages and results were attributed
    /// to, so that announcing one of them afterwards is flagged (rule
    /// A10). Added to only with something the thread keeps.
    pub(crate) tagged: Names,
}

impl Tracker {
    /// A tracker for a new thread.
    pub fn new(options: Options) -> Self {
        Tracker::with_pattern_engine(options, validation::default_engine())
    }

    /// A tracker that compiles the `pattern`s of tool schemas with `engine`
    /// (ECMAScript semantics expected; the wasm binding passes the host's
    /// `RegExp`).
    pub fn with_pattern_engine(
        mut options: Options,
        engine: std::rc::Rc<dyn crate::schema::PatternEngine>,
    ) -> Self {
        // The tools move into their table (nothing reads `options.tools`
        // again): cloning them would link `Value::clone` (size).
        let mut option_tools = Tools::default();
        for tool in std::mem::take(&mut options.tools) {
            option_tools.insert(std::rc::Rc::new(tool));
        }
        // The decoder reads 0 as no limit; here 0 admits no event, so
        // its bound is the least there is.
        let sse = SseDecoder::with_limit(options.limits.max_event_bytes.max(1));
        Tracker {
            options,
            calls: Vec::new(),
            by_id: HashMap::default(),
            open: Indices::default(),
            run: RunState::idle(),
            run_calls: Vec::new(),
            option_tools,
            run_tools: Tools::default(),
            stream_schemas: Names::default(),
            application_tools: Tools::default(),
            messages: HashMap::default(),
            owners: Owners::default(),
            message_ids: Names::default(),
            message_seq: HashMap::default(),
            undelivered: Indices::default(),
            unclosed: Indices::default(),
            lanes: Lanes::default(),
            violations: Default::default(),
            unmatched: Vec::new(),
            fatal: None,
            events_seen: 0,
            version: 0,
            changes: Default::default(),
            schemas: validation::Schemas::new(engine),
            retained: 0,
            sse,
            last_call: 0,
            interrupts: Vec::new(),
            kept_messages: Vec::new(),
            kept_at: HashMap::default(),
            declared: false,
            clock: Clock::default(),
            standing: Vec::new(),
            subagents: Vec::new(),
            subagent_ids: HashMap::default(),
            tagged: Names::default(),
        }
    }

    /// Reads one event from JSON text (rule E2 for malformed events).
    pub fn push_json(&mut self, text: &str) -> Result<(), Violation> {
        if let Some(f) = &self.fatal {
            return Err(f.clone());
        }
        if text.len() > self.options.limits.max_event_bytes {
            return Err(self.stop_too_long("the event's JSON text"));
        }
        match Event::from_json(text) {
            Ok(ref mut event) => self.push_event(event),
            Err(e) => {
                let index = self.events_seen;
                let (path, message) = e.field.into_parts();
                let mut v = Violation::new(e.code, Severity::Fatal, index, message);
                if !path.is_empty() {
                    v.path = Some(path);
                }
                Err(self.stop(v))
            }
        }
    }

    /// Reads one `TOOL_CALL_ARGS` event given as its fields, exactly as
    /// [`Tracker::push_json`] reads `{"type":"TOOL_CALL_ARGS","timestamp":
    /// ...,"subagentRunId":...,"toolCallId":...,"delta":...}`, the JSON
    /// text `JSON.stringify` makes of them (the timestamp, in milliseconds,
    /// and the subagent only when given; rule S5 counts the text's length):
    /// a binding's event objects need not become JSON to cross. The strings
    /// are whole text (no lone surrogate half).
    ///
    /// ```
    /// use agui_tool_calls::{Options, Tracker};
    ///
    /// let mut t = Tracker::new(Options::default());
    /// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
    /// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search"}"#).unwrap();
    /// t.push_args("c1", r#"{"q":"#, None, None).unwrap();
    /// t.push_args("c1", r#""x"}"#, Some(1_764_518_800_198), None).unwrap();
    /// assert_eq!(t.calls()[0].args_text(), r#"{"q":"x"}"#);
    /// ```
    pub fn push_args(
        &mut self,
        tool_call_id: &str,
        delta: &str,
        timestamp: Option<u64>,
        subagent_run_id: Option<&str>,
    ) -> Result<(), Violation> {
        if let Some(f) = &self.fatal {
            return Err(f.clone());
        }
        let len = args_event_json_len(tool_call_id, delta, timestamp, subagent_run_id);
        if len > self.options.limits.max_event_bytes {
            return Err(self.stop_too_long("the event's JSON text"));
        }
        self.push_event(&mut Event {
            owner: subagent_run_id.map(Cow::Borrowed),
            metadata: None,
            body: EventBody::ToolCallArgs {
                tool_call_id: Cow::Borrowed(tool_call_id),
                delta: JsonStr::new(Cow::Borrowed(delta)),
            },
        })
    }

    /// Reads one typed event.
    pub fn push(&mut self, mut event: Event<'_>) -> Result<(), Violation> {
        self.push_event(&mut event)
    }

    /// [`Tracker::push`], the event taken by reference: passed by value,
    /// it was copied on every call (a `memory.copy` per event in wasm).
    fn push_event(&mut self, event: &mut Event<'_>) -> Result<(), Violation> {
        if let Some(f) = &self.fatal {
            return Err(f.clone());
        }
        let index = self.events_seen;
        // The plan is filled and applied where it lies: moved, it was
        // copied.
        let mut plan = Plan::new(index);
        match self.plan(&mut plan, event) {
            Ok(()) => {
                self.events_seen += 1;
                self.apply(&mut plan);
                Ok(())
            }
            Err(v) => Err(self.stop(v)),
        }
    }

    /// Reads raw `text/event-stream` bytes, split anywhere (even inside a
    /// UTF-8 sequence): each dispatched event's data is one event as JSON
    /// (rule E1). A line or an event longer than `max_event_bytes` is fatal
    /// (rule S5) as soon as the decoder holds that many bytes.
    ///
    /// ```
    /// use agui_tool_calls::{Limits, Options, Tracker};
    ///
    /// let limits = Limits { max_event_bytes: 1024, ..Limits::default() };
    /// let mut t = Tracker::new(Options { limits, ..Options::default() });
    /// t.push_sse(b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n").unwrap();
    /// let line_without_end = vec![b'x'; 2000];
    /// assert_eq!(t.push_sse(&line_without_end).unwrap_err().code, "S5");
    /// ```
    pub fn push_sse(&mut self, bytes: &[u8]) -> Result<(), Violation> {
        self.push_sse_with(bytes, |_, _| {})
    }

    /// [`Tracker::push_sse`], also handing `seen` each event the decoder
    /// dispatched, with whether the tracker accepted it, and each line
    /// that sets no field (with `false`): what a binding's event listeners
    /// or a checker's line positions are made of.
    ///
    /// ```
    /// use agui_tool_calls::{sse::SseItem, Options, Tracker};
    ///
    /// let mut t = Tracker::new(Options::default());
    /// let mut lines = Vec::new();
    /// let stream = b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
    ///     data: {}\n\n";
    /// let _ = t.push_sse_with(stream, |item, accepted| {
    ///     if let SseItem::Event(e) = item {
    ///         lines.push((e.line, accepted));
    ///     }
    /// });
    /// assert_eq!(lines, [(1, true), (3, false)]);
    /// ```
    pub fn push_sse_with(
        &mut self,
        bytes: &[u8],
        mut seen: impl FnMut(SseItem<'_>, bool),
    ) -> Result<(), Violation> {
        if let Some(f) = &self.fatal {
            return Err(f.clone());
        }
        let mut sse = std::mem::take(&mut self.sse);
        sse.read_bytes(bytes, |item| {
            // A fatal violation stays in the tracker, read below.
            let accepted = match &item {
                SseItem::Event(event) => self.push_json(event.data).is_ok(),
                SseItem::Unknown(..) => false,
            };
            seen(item, accepted);
        });
        let overflow = sse.overflow().is_some();
        self.sse = sse;
        if overflow && self.fatal.is_none() {
            self.stop_too_long("an event-stream line or event");
        }
        match &self.fatal {
            Some(f) => Err(f.clone()),
            None => Ok(()),
        }
    }

    /// Where the event-stream input read so far is cut
    /// ([`SseDecoder::open_line`]): the line of an event not yet ended, or
    /// of the line or event that outgrew `max_event_bytes`; 0 for none.
    pub fn sse_open_line(&self) -> usize {
        self.sse.open_line()
    }

    /// [`Tracker::push_sse`] for text already decoded (read as its UTF-8
    /// bytes, which decode to the same text).
    pub fn push_sse_str(&mut self, text: &str) -> Result<(), Violation> {
        self.push_sse(text.as_bytes())
    }

    /// Rule S5: the event being read is longer than `max_event_bytes`.
    fn stop_too_long(&mut self, what: &str) -> Violation {
        let index = self.events_seen;
        let message = format!(
            "{what} exceeds the limit of {} bytes per event (limits.maxEventBytes)",
            self.options.limits.max_event_bytes
        );
        self.stop(Violation::new("S5", Severity::Fatal, index, message))
    }

    /// Records a fatal violation; every later event gets the same error.
    fn stop(&mut self, v: Violation) -> Violation {
        self.events_seen += 1;
        self.fatal = Some(v.clone());
        self.violations.record(v.clone());
        self.version += 1;
        v
    }

    /// Every call, in the order first started (rule N3).
    pub fn calls(&self) -> &[ToolCall] {
        &self.calls
    }

    /// The call with this id.
    pub fn call(&self, id: &str) -> Option<&ToolCall> {
        self.call_index(id).map(|i| &self.calls[i])
    }

    /// The index of the call with this id in [`Tracker::calls`].
    ///
    /// The call the last argument text went to is tried first: a stream's
    /// deltas mostly follow one another to one call, and comparing a short
    /// id costs less than hashing it. Other ids are looked up in `by_id`,
    /// which keeps `SipHash`: ids come from the stream, and with a hasher
    /// an attacker can collide every lookup would cost the whole table.
    pub fn call_index(&self, id: &str) -> Option<usize> {
        match self.calls.get(self.last_call) {
            // Ids are unique: `by_id` maps this id to this call.
            Some(call) if call.id == id => Some(self.last_call),
            _ => self.by_id.get(id).copied(),
        }
    }

    /// The thread's open interrupts, in the order the interrupt outcome
    /// listed them, each with the application's decision (rules I1, I4).
    pub fn interrupts(&self) -> &[OpenInterrupt] {
        &self.interrupts
    }

    /// What each message keeps for the next history (rule F10), as its
    /// stream or history delivered it: `encryptedValue` (with its type)
    /// from `REASONING_ENCRYPTED_VALUE`, `metadata` merged from its text
    /// events, or both as history restated them. Only messages that keep
    /// something, in the order they first did; a call's are on the call
    /// ([`ToolCall::kept`]).
    ///
    /// ```
    /// use agui_tool_calls::{Options, Tracker};
    ///
    /// let mut t = Tracker::new(Options::default());
    /// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
    /// t.push_json(r#"{"type":"TEXT_MESSAGE_START","messageId":"a1","role":"assistant","metadata":{"k":1}}"#).unwrap();
    /// let (id, kept) = &t.kept_messages()[0];
    /// assert_eq!((id.as_str(), kept.metadata.as_ref().unwrap().get()), ("a1", r#"{"k":1}"#));
    /// ```
    pub fn kept_messages(&self) -> &[(String, Kept)] {
        &self.kept_messages
    }

    /// Sets how the tracker reads the time and `expiresAt` (rule I5); a
    /// binding passes the host's `Date`.
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// The latest run.
    pub fn run(&self) -> &RunState {
        &self.run
    }

    /// Every violation, fatal included, in the order first recorded;
    /// repeats are counted (`count`), and past
    /// 1000 distinct ones (`MAX_KEPT_VIOLATIONS`) the rest
    /// are counted in one last entry.
    pub fn violations(&self) -> &[Violation] {
        self.violations.entries()
    }

    /// The fatal violation that stopped the stream, if any.
    pub fn fatal(&self) -> Option<&Violation> {
        self.fatal.as_ref()
    }

    /// Calls a finished run left for the application (rule F2), in the
    /// order they were started.
    pub fn pending_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.calls.iter().filter(|c| c.pending)
    }

    /// Results for calls the tracker never saw (rule T10).
    pub fn unmatched_results(&self) -> &[UnmatchedResult] {
        &self.unmatched
    }

    /// Where message `id` first appeared in the thread (streamed, named as
    /// a parent, or in history), counting message ids in the order seen.
    /// With [`ToolCall::position`] it says where a call happened between
    /// messages: the next run's history places it there (JS `nextRun`).
    ///
    /// ```
    /// use agui_tool_calls::{Options, Tracker};
    ///
    /// let mut t = Tracker::new(Options::default());
    /// t.start_run_json(r#"{"threadId":"t","runId":"r2","messages":[{"id":"u1","role":"user","content":"hi"}]}"#).unwrap();
    /// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
    /// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#).unwrap();
    /// assert_eq!(t.message_position("u1"), Some(0));
    /// assert_eq!(t.call("c1").unwrap().position(), 1); // after u1
    /// assert_eq!(t.message_position("u2"), None);
    /// ```
    pub fn message_position(&self, id: &str) -> Option<usize> {
        self.message_seq.get(id).copied()
    }

    /// An advertised tool, by name (rule F1).
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.run_tools
            .get(name)
            .or_else(|| self.option_tools.get(name))
    }

    /// How many events were pushed, the refused fatal one included.
    pub fn events_seen(&self) -> usize {
        self.events_seen
    }

    /// A counter that grows on every change of state.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Bytes the thread retains, as the budget of
    /// [`Limits::max_thread_bytes`] counts them (rule S5).
    pub fn retained_bytes(&self) -> usize {
        self.retained
    }

    pub(crate) fn args_limits(&self) -> ArgsLimits {
        ArgsLimits {
            max_bytes: self.options.limits.max_args_bytes,
            max_depth: self.options.limits.max_depth,
        }
    }
}

/// The length of `{"type":"TOOL_CALL_ARGS","timestamp":<t>,"toolCallId":<id>,
/// "delta":<delta>}` (no timestamp when `None`) as `JSON.stringify` writes
/// it, in UTF-8 bytes: what [`Tracker::push_json`] would have been given.
fn args_event_json_len(
    tool_call_id: &str,
    delta: &str,
    timestamp: Option<u64>,
    subagent_run_id: Option<&str>,
) -> usize {
    const FRAME: usize = r#"{"type":"TOOL_CALL_ARGS","toolCallId":,"delta":}"#.len();
    const TIMESTAMP: usize = r#""timestamp":,"#.len();
    const OWNER: usize = r#""subagentRunId":,"#.len();
    let timestamp = timestamp.map_or(0, |t| TIMESTAMP + digits(t));
    let owner = subagent_run_id.map_or(0, |o| OWNER + json_string_len(o));
    FRAME + json_string_len(tool_call_id) + json_string_len(delta) + timestamp + owner
}

/// How many decimal digits write `n`.
fn digits(mut n: u64) -> usize {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

/// A string's length as a JSON string literal, quotes included, escaped
/// as `JSON.stringify` escapes it (`"`, `\` and the control characters):
/// what `wire::json_string` writes. Its own table, not that writer's: one
/// shared escape function cost the module 109 bytes.
fn json_string_len(s: &str) -> usize {
    let escapes: usize = s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | 0x08 | 0x0c | b'\n' | b'\r' | b'\t' => 1,
            0..=0x1f => 5,
            _ => 0,
        })
        .sum();
    2 + s.len() + escapes
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_json_strings_length_is_what_the_string_writer_writes() {
        let mut chars: Vec<char> = (0..=0x7f_u8).map(char::from).collect();
        chars.extend(['é', '\u{2028}', '😀']);
        for c in chars {
            let s = format!("a{c}");
            let mut written = Vec::new();
            crate::wire::json_string(&mut written, &s);
            assert_eq!(super::json_string_len(&s), written.len(), "{c:?}");
        }
    }
}
