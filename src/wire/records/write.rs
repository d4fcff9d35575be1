//! The records written as JSON text by hand: what the binding sends is
//! written here, field by field, instead of by the records' derived
//! `Serialize` impls. Those stay, as the source of the TypeScript
//! declarations and as the reference the tests compare this writer with
//! (`tests/wire_records.rs`: the same text for every record of every
//! fixture stream); but each derived impl, with `serde_json`'s serializer,
//! instantiated a map and a sequence writer of its own per record type
//! (13 KB of code in the wasm module).
//!
//! A new field of a record: add it to the struct (its serde attributes
//! spell its key and when it is left out), then one line to the struct's
//! `write_json` below, in the same place, with the same key and the same
//! condition (`opt_*` for `skip_serializing_if = "Option::is_none"`).

use super::{
    ArgsErrorRecord, CallRecord, ChangeRecord, ChangedSubagents, InterruptRecord, OpenInterrupts,
    OutcomeRecord, PartialRecord, RefusalRecord, ResultRecord, RunRecord, SubagentRecord,
    SummaryRecord, UnansweredRecord, UncoveredRecord, UnmatchedRecord, UnmatchedResults,
};
use crate::events::{Interrupt, Opaque};
use crate::machine::{StandingApproval, ToolMessage};
use crate::schema::ValidationError;
use crate::violation::{Severity, Violation};

/// A value the binding sends, written as compact JSON text.
pub trait WriteJson {
    /// Appends the value's JSON text to `out`.
    fn write_json(&self, out: &mut Vec<u8>);
}

/// `value` as compact JSON text, as `events::to_json` writes it.
pub fn json_text<T: WriteJson + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(128);
    value.write_json(&mut out);
    // Every piece written is UTF-8: `str`s, checked JSON text, ASCII.
    String::from_utf8(out).unwrap_or_default()
}

/// A JSON string, escaped as `serde_json` and `JSON.stringify` escape one:
/// `"` and `\` after a backslash, a control character by its short escape
/// (`\n`, `\t`...) or as `\u00xx`. Written here: `serde_json`'s serializer,
/// for this alone, cost the module its writer and error types too.
pub(crate) fn string(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    out.push(b'"');
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape = match b {
            b'"' | b'\\' => b,
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            0..=0x1f => b'u',
            _ => continue,
        };
        out.extend_from_slice(&bytes[from..i]);
        out.extend_from_slice(&[b'\\', escape]);
        if escape == b'u' {
            out.extend_from_slice(&[
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 15)],
            ]);
        }
        from = i + 1;
    }
    out.extend_from_slice(&bytes[from..]);
    out.push(b'"');
}

/// A whole number, in decimal.
pub(crate) fn number(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// An object being written: each field's key, then its value.
pub(in crate::wire) struct Object<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Object<'a> {
    pub(in crate::wire) fn new(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Object { out, first: true }
    }

    /// Writes the comma before a field but the first; returns where the
    /// field goes.
    fn next(&mut self) -> &mut Vec<u8> {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.out
    }

    /// Writes `"key":` (a key of ours: nothing to escape) and returns where
    /// the value goes.
    fn key(&mut self, key: &str) -> &mut Vec<u8> {
        self.next();
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
        self.out
    }

    pub(in crate::wire) fn str(&mut self, key: &str, value: &str) {
        string(self.key(key), value);
    }

    pub(in crate::wire) fn opt_str(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.str(key, value);
        }
    }

    pub(in crate::wire) fn num(&mut self, key: &str, value: u64) {
        number(self.key(key), value);
    }

    fn opt_num(&mut self, key: &str, value: Option<usize>) {
        if let Some(value) = value {
            self.num(key, value as u64);
        }
    }

    fn bool(&mut self, key: &str, value: bool) {
        self.key(key)
            .extend_from_slice(if value { b"true" } else { b"false" });
    }

    /// For `skip_serializing_if = "std::ops::Not::not"`.
    fn opt_true(&mut self, key: &str, value: bool) {
        if value {
            self.bool(key, true);
        }
    }

    pub(in crate::wire) fn val<T: WriteJson + ?Sized>(&mut self, key: &str, value: &T) {
        value.write_json(self.key(key));
    }

    pub(in crate::wire) fn opt<T: WriteJson + ?Sized>(&mut self, key: &str, value: Option<&T>) {
        if let Some(value) = value {
            self.val(key, value);
        }
    }

    /// For `skip_serializing_if` an empty list.
    fn list<T: WriteJson>(&mut self, key: &str, items: &[T]) {
        if !items.is_empty() {
            self.val(key, items);
        }
    }

    pub(in crate::wire) fn end(self) {
        self.out.push(b'}');
    }
}

impl WriteJson for str {
    fn write_json(&self, out: &mut Vec<u8>) {
        string(out, self);
    }
}

impl<T: WriteJson + ?Sized> WriteJson for &T {
    fn write_json(&self, out: &mut Vec<u8>) {
        (**self).write_json(out);
    }
}

/// `null` for none, as serde writes a field it does not skip.
impl<T: WriteJson> WriteJson for Option<T> {
    fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            Some(value) => value.write_json(out),
            None => out.extend_from_slice(b"null"),
        }
    }
}

impl<T: WriteJson> WriteJson for [T] {
    fn write_json(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            item.write_json(out);
        }
        out.push(b']');
    }
}

impl<T: WriteJson> WriteJson for Vec<T> {
    fn write_json(&self, out: &mut Vec<u8>) {
        self.as_slice().write_json(out);
    }
}

/// The change record's `counted`: `[index, count]` pairs.
impl WriteJson for (usize, u64) {
    fn write_json(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        number(out, self.0 as u64);
        out.push(b',');
        number(out, self.1);
        out.push(b']');
    }
}

/// As given.
impl WriteJson for Opaque {
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.get().as_bytes());
    }
}

impl WriteJson for StandingApproval {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("tool", &self.tool);
        o.str("toolCallId", &self.tool_call_id);
        o.end();
    }
}

/// As `Interrupt`'s own `Serialize` writes it: the string fields, then the
/// objects (a property the schema does not describe was stripped, rule P2).
impl WriteJson for Interrupt {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("id", &self.id);
        o.str("reason", &self.reason);
        o.opt_str("message", self.message.as_deref());
        o.opt_str("toolCallId", self.tool_call_id.as_deref());
        o.opt_str("expiresAt", self.expires_at.as_deref());
        o.opt_str("subagentRunId", self.subagent_run_id.as_deref());
        o.opt("responseSchema", self.response_schema.as_ref());
        o.opt("metadata", self.metadata.as_ref());
        o.end();
    }
}

impl WriteJson for Violation {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("code", self.code);
        o.str(
            "severity",
            match self.severity {
                Severity::Fatal => "fatal",
                Severity::Violation => "violation",
                Severity::Warning => "warning",
            },
        );
        o.str("message", &self.message);
        o.num("eventIndex", self.event_index as u64);
        o.opt_str("toolCallId", self.tool_call_id.as_deref());
        o.opt_str("messageId", self.message_id.as_deref());
        o.opt_str("path", self.path.as_deref());
        o.num("count", self.count);
        o.end();
    }
}

impl WriteJson for ValidationError {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("path", &self.path);
        o.str("keyword", self.keyword);
        o.str("message", &self.message);
        o.end();
    }
}

/// As `@ag-ui/core` spells a `ToolMessage`.
impl WriteJson for ToolMessage {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("id", &self.id);
        o.str("role", "tool");
        o.str("toolCallId", &self.tool_call_id);
        o.val("content", &self.content);
        o.opt_str("error", self.error.as_deref());
        o.end();
    }
}

impl WriteJson for ChangeRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.num("version", self.version);
        o.opt("run", self.run.as_ref());
        o.val("calls", &self.calls);
        o.val("violations", self.violations);
        o.list("counted", self.counted);
        if !self.unmatched_results.is_empty() {
            o.val("unmatchedResults", &self.unmatched_results);
        }
        o.val("fatal", &self.fatal);
        o.opt("interrupts", self.interrupts.as_ref());
        o.opt("standingApprovals", self.standing_approvals);
        if !self.subagents.is_empty() {
            o.val("subagents", &self.subagents);
        }
        o.end();
    }
}

impl WriteJson for OpenInterrupts<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, open) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            InterruptRecord::new(open).write_json(out);
        }
        out.push(b']');
    }
}

impl WriteJson for ChangedSubagents<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        let mut first = true;
        for &i in self.1 {
            if !first {
                out.push(b',');
            }
            first = false;
            SubagentRecord::new(i, &self.0[i]).write_json(out);
        }
        out.push(b']');
    }
}

impl WriteJson for SubagentRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.num("index", self.index as u64);
        o.str("subagentRunId", self.subagent_run_id);
        o.str("name", self.name);
        o.str("status", self.status);
        o.opt_str("description", self.description);
        o.opt_str("parentToolCallId", self.parent_tool_call_id);
        o.opt_str("parentSubagentRunId", self.parent_subagent_run_id);
        o.opt_str("parentMessageId", self.parent_message_id);
        o.list("interruptIds", self.interrupt_ids);
        o.opt_str("error", self.error);
        o.opt_str("code", self.code);
        o.opt("result", self.result);
        o.end();
    }
}

impl WriteJson for String {
    fn write_json(&self, out: &mut Vec<u8>) {
        string(out, self);
    }
}

impl WriteJson for InterruptRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.val("interrupt", self.interrupt);
        o.str("status", self.status);
        o.opt("payload", self.payload);
        o.end();
    }
}

impl WriteJson for SummaryRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.num("version", self.version);
        o.num("eventsSeen", self.events_seen as u64);
        o.val("run", &self.run);
        o.val("calls", &self.calls);
        o.val("violations", self.violations);
        o.val("fatal", &self.fatal);
        o.end();
    }
}

impl WriteJson for RunRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("status", self.status);
        o.opt_str("threadId", self.thread_id);
        o.opt_str("runId", self.run_id);
        o.opt("outcome", self.outcome.as_ref());
        o.opt("result", self.result);
        o.opt_str("error", self.error);
        o.end();
    }
}

impl WriteJson for OutcomeRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        match self {
            OutcomeRecord::Success {
                pending_tool_call_ids,
            } => {
                o.str("type", "success");
                if let Some(ids) = pending_tool_call_ids {
                    let out = o.key("pendingToolCallIds");
                    out.push(b'[');
                    for (i, id) in ids.iter().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        string(out, id);
                    }
                    out.push(b']');
                }
            }
            OutcomeRecord::Interrupt { interrupts } => {
                o.str("type", "interrupt");
                o.val("interrupts", *interrupts);
            }
            OutcomeRecord::Cancelled => o.str("type", "cancelled"),
        }
        o.end();
    }
}

impl WriteJson for CallRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.num("index", self.index as u64);
        o.str("id", self.id);
        o.str("name", self.name);
        o.opt_str("parentMessageId", self.parent_message_id);
        o.opt_str("subagentRunId", self.subagent_run_id);
        o.opt_str("runId", self.run_id);
        o.str("status", self.status);
        o.str("append", self.append);
        o.opt_num("argsBytes", self.args_bytes);
        o.opt("partial", self.partial.as_ref());
        o.bool("parsed", self.parsed);
        o.opt("argsError", self.args_error.as_ref());
        o.bool("advertised", self.advertised);
        o.str("validation", self.validation);
        o.str("consent", self.consent);
        o.opt_str("consentFrom", self.consent_from);
        o.bool("pending", self.pending);
        o.opt_true("cancelled", self.cancelled);
        o.opt_str("awaitingInterrupt", self.awaiting_interrupt);
        o.num("reopened", u64::from(self.reopened));
        o.opt("encryptedValue", self.encrypted_value);
        o.opt("encryptedValueType", self.encrypted_value_type);
        o.opt("metadata", self.metadata);
        o.opt_num("closedAt", self.closed_at);
        o.opt("result", self.result.as_ref());
        o.val("results", &self.results);
        o.end();
    }
}

impl WriteJson for PartialRecord {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.num("cut", self.cut as u64);
        o.str("suffix", &self.suffix);
        o.end();
    }
}

impl WriteJson for ArgsErrorRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("kind", self.kind);
        o.str("message", &self.message);
        o.opt_num("position", self.position);
        o.opt("errors", self.errors);
        o.opt_num("errorCount", self.error_count);
        o.end();
    }
}

impl WriteJson for ResultRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("messageId", self.message_id);
        o.val("content", self.content);
        o.opt_str("error", self.error);
        o.str("source", self.source);
        o.opt_str("subagentRunId", self.subagent_run_id);
        o.opt_true("rejected", self.rejected);
        o.end();
    }
}

impl WriteJson for UnmatchedResults<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, unmatched) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            UnmatchedRecord::new(unmatched).write_json(out);
        }
        out.push(b']');
    }
}

impl WriteJson for UnmatchedRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("toolCallId", self.tool_call_id);
        o.val("result", &self.result);
        o.end();
    }
}

impl WriteJson for RefusalRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("kind", self.kind);
        o.str("message", &self.message);
        o.val("toolCallIds", &self.tool_call_ids);
        o.list("unanswered", &self.unanswered);
        o.list("interruptIds", &self.interrupt_ids);
        o.list("uncovered", &self.uncovered);
        o.list("errors", self.errors);
        o.opt_str("path", self.path);
        o.end();
    }
}

impl WriteJson for UncoveredRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("interruptId", self.interrupt_id);
        o.bool("expired", self.expired);
        o.end();
    }
}

impl WriteJson for UnansweredRecord<'_> {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Object::new(out);
        o.str("toolCallId", self.tool_call_id);
        o.str("toolName", self.tool_name);
        o.bool("answerLeftOut", self.answer_left_out);
        o.end();
    }
}
