//! An event object's fields, by name, read in one pass over its text, and
//! the check of any JSON text's syntax ([`check`]).
//!
//! The pass checks the JSON syntax and notes where each field the tracker
//! reads lies, so the event's bytes are walked once (`serde_json`'s check,
//! then a second scan for the fields, walked them twice) and nothing is
//! allocated for a flat event. The check takes exactly what `serde_json`'s
//! syntax check took (tests and a fuzz target hold it to that): nesting at
//! any depth, numbers of any size, any `\u` escape (a lone surrogate too).
//! Events that are not objects, or not JSON, are checked again to word
//! the error.

use super::json::{decode, Raw};

/// The fields the tracker reads from an event object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key {
    // The keys of every `TOOL_CALL_ARGS` event first: [`Key::of`] tries
    // the names in this order.
    Type,
    ToolCallId,
    Delta,
    SubagentRunId,
    ThreadId,
    RunId,
    ParentRunId,
    Input,
    Result,
    Outcome,
    Message,
    Code,
    MessageId,
    Role,
    ToolCallName,
    ParentMessageId,
    Content,
    Error,
    Messages,
    Timestamp,
    Name,
    Description,
    ParentSubagentRunId,
    ParentToolCallId,
    Metadata,
    Subtype,
    EntityId,
    EncryptedValue,
    EncryptedValueType,
}

/// Each key's name on the wire, in the order of [`Key`].
const NAMES: [&str; 29] = [
    "type",
    "toolCallId",
    "delta",
    "subagentRunId",
    "threadId",
    "runId",
    "parentRunId",
    "input",
    "result",
    "outcome",
    "message",
    "code",
    "messageId",
    "role",
    "toolCallName",
    "parentMessageId",
    "content",
    "error",
    "messages",
    "timestamp",
    "name",
    "description",
    "parentSubagentRunId",
    "parentToolCallId",
    "metadata",
    "subtype",
    "entityId",
    "encryptedValue",
    "encryptedValueType",
];

/// Every key, in the order of [`NAMES`].
const KEYS: [Key; 29] = [
    Key::Type,
    Key::ToolCallId,
    Key::Delta,
    Key::SubagentRunId,
    Key::ThreadId,
    Key::RunId,
    Key::ParentRunId,
    Key::Input,
    Key::Result,
    Key::Outcome,
    Key::Message,
    Key::Code,
    Key::MessageId,
    Key::Role,
    Key::ToolCallName,
    Key::ParentMessageId,
    Key::Content,
    Key::Error,
    Key::Messages,
    Key::Timestamp,
    Key::Name,
    Key::Description,
    Key::ParentSubagentRunId,
    Key::ParentToolCallId,
    Key::Metadata,
    Key::Subtype,
    Key::EntityId,
    Key::EncryptedValue,
    Key::EncryptedValueType,
];

impl Key {
    /// The field's name, as errors give it.
    pub(crate) fn name(self) -> &'static str {
        NAMES[self as usize]
    }

    /// The key named `name` (its UTF-8 bytes), if the tracker reads that
    /// field. Most names differ in length, compared first.
    fn of(name: &[u8]) -> Option<Key> {
        let i = NAMES
            .iter()
            .position(|n| n.len() == name.len() && n.as_bytes() == name)?;
        KEYS.get(i).copied()
    }
}

/// The fields of one event object the tracker reads, each as raw JSON
/// text; a repeated key keeps its last value, as `JSON.parse` does.
#[derive(Debug, Default)]
pub(crate) struct EventFields<'a> {
    slots: [Option<Raw<'a>>; 29],
}

impl<'a> EventFields<'a> {
    /// The value of `key`, if the event has it.
    pub(crate) fn get(&self, key: Key) -> Option<Raw<'a>> {
        self.slots[key as usize]
    }

    fn set(&mut self, name: &[u8], value: Raw<'a>) {
        if let Some(key) = Key::of(name) {
            self.slots[key as usize] = Some(value);
        }
    }

    /// Reads the fields of `text` into `self` (empty), if it is a JSON
    /// object; `None` for any other text (then checked again by [`check`],
    /// which words the error). Filled in place: returned by value, the
    /// record was copied whole, a `memory.copy` on every event in wasm.
    pub(crate) fn scan(&mut self, text: &'a str) -> Option<()> {
        let out = self;
        let mut s = Scanner::at_start(text);
        s.ws();
        s.eat(b'{', "")?;
        s.ws();
        if s.peek()? == b'}' {
            s.i += 1;
        } else {
            loop {
                let (key_start, escaped) = s.key()?;
                // Compared as bytes: slicing the text checks boundaries.
                let key = s.b.get(key_start..s.key_end)?;
                let start = s.i;
                s.value()?;
                let value = Raw::new(text.get(start..s.i)?);
                if escaped {
                    // Rare: a key that needs decoding is decoded, quotes
                    // included.
                    let literal = text.get(key_start - 1..=s.key_end)?;
                    out.set(decode(literal).into_text().as_bytes(), value);
                } else {
                    out.set(key, value);
                }
                s.ws();
                match s.next()? {
                    b',' => s.ws(),
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        s.ws();
        (s.i == s.b.len()).then_some(())
    }
}

/// The strings of a `TOOL_CALL_ARGS` event written as `JSON.stringify`
/// writes one (`type`, an optional whole-number `timestamp`, an optional
/// `subagentRunId`, `toolCallId` and `delta`, in that order, no whitespace,
/// no escape in the ids; the order the Python encoder writes too): the id,
/// the delta's literal (quotes included) and the subagent's id; `None` for
/// any other text, which the general pass reads.
/// Nearly every event of a stream is one: matched as fixed bytes, it skips
/// the key lookups and the type dispatch, a quarter of the core's time per
/// event.
pub(crate) fn plain_args(text: &str) -> Option<(&str, &str, Option<&str>)> {
    const TYPE: &[u8] = br#"{"type":"TOOL_CALL_ARGS","#;
    const TIMESTAMP: &[u8] = br#""timestamp":"#;
    const OWNER: &[u8] = br#""subagentRunId":""#;
    const ID: &[u8] = br#""toolCallId":""#;
    const DELTA: &[u8] = br#","delta":""#;
    let mut s = Scanner::at_start(text);
    s.fixed(TYPE)?;
    // Which key comes next shows in its second or third letter (`"ti`,
    // `"s`, `"to`): no whole comparison is tried that then fails.
    if s.ahead(2) == Some(b'i') {
        s.fixed(TIMESTAMP)?;
        s.whole_number()?;
        s.fixed(b",")?;
    }
    let owner = match s.ahead(1) {
        Some(b's') => {
            s.fixed(OWNER)?;
            let owner = s.unescaped(text)?;
            s.fixed(b",")?;
            Some(owner)
        }
        _ => None,
    };
    s.fixed(ID)?;
    let id = s.unescaped(text)?;
    s.fixed(DELTA)?;
    let delta_start = s.i - 1;
    s.string()?;
    let delta = text.get(delta_start..s.i)?;
    s.fixed(b"}")?;
    (s.i == s.b.len()).then_some((id, delta, owner))
}

/// Whether `text` is one JSON value, whitespace around it allowed: the
/// syntax `serde_json` checks, without its depth limit. If not, what is
/// wrong and where, worded as `serde_json` words it.
pub(crate) fn check(text: &str) -> Result<(), String> {
    let mut s = Scanner::at_start(text);
    s.ws();
    if s.value().is_some() {
        s.ws();
        if s.i == s.b.len() {
            return Ok(());
        }
        s.why = Some("trailing characters");
    }
    Err(s.error())
}

/// A position in JSON text, checked as it moves. Every step moves forward
/// or stops, so no text can make it loop; nothing indexes out of bounds.
struct Scanner<'b> {
    b: &'b [u8],
    i: usize,
    /// What was wrong where the scan stopped; `None` when the text ended.
    why: Option<&'static str>,
    /// Where the last key's text ended (before its closing quote).
    key_end: usize,
}

impl<'b> Scanner<'b> {
    /// A scan from the start of `text`.
    fn at_start(text: &'b str) -> Self {
        Scanner {
            b: text.as_bytes(),
            i: 0,
            why: None,
            key_end: 0,
        }
    }

    /// `why` at the byte the scan stopped at (its column counts it), or
    /// at the end of the text, as `serde_json` words it.
    fn error(&self) -> String {
        let at = if self.why.is_some() {
            self.i + 1
        } else {
            self.b.len()
        };
        let at = at.min(self.b.len());
        let before = self.b.get(..at).unwrap_or_default();
        let line = before.split(|&c| c == b'\n').count();
        let column = at
            - before
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |n| n + 1);
        let why = self.why.unwrap_or("EOF while parsing a value");
        format!("{why} at line {line} column {column}")
    }

    /// Stops the scan at the current byte, for `why`.
    fn fail<T>(&mut self, why: &'static str) -> Option<T> {
        self.why = Some(why);
        None
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// The byte `n` places after the current one.
    fn ahead(&self, n: usize) -> Option<u8> {
        self.b.get(self.i + n).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn eat(&mut self, c: u8, why: &'static str) -> Option<()> {
        if self.peek()? == c {
            self.i += 1;
            Some(())
        } else {
            self.fail(why)
        }
    }

    /// Whitespace, if any. Called between every two tokens, and inlined:
    /// text as `JSON.stringify` writes it has none, which one comparison
    /// tells, where a call cost more than the check (measured: 3% of the
    /// wasm core's time per event; `#[inline]` alone is ignored at
    /// `opt-level = "z"`).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn ws(&mut self) {
        if self.b.get(self.i).is_some_and(|&c| c <= b' ') {
            self.skip_ws();
        }
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// A string, from just past its opening quote to just past its closing one:
    /// whether it holds an escape. No control character unescaped; every
    /// escape one of JSON's (a `\u` escape any four hex digits, so a lone
    /// surrogate passes, as in `serde_json`'s check). The loop over the
    /// bytes is the hot one of the pass: it keeps its index local.
    fn string(&mut self) -> Option<bool> {
        let b = self.b;
        let mut i = self.i;
        let mut escaped = false;
        let why = loop {
            let Some(&c) = b.get(i) else {
                self.i = i;
                return self.fail("EOF while parsing a string");
            };
            match c {
                b'"' => {
                    self.i = i + 1;
                    return Some(escaped);
                }
                b'\\' => {
                    escaped = true;
                    i += 1;
                    match b.get(i) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 1,
                        Some(b'u') => match b.get(i + 1..i + 5) {
                            Some(hex) if hex.iter().all(u8::is_ascii_hexdigit) => i += 5,
                            _ => {
                                // `serde_json` reads the four digits first.
                                i += 4;
                                break "invalid escape";
                            }
                        },
                        _ => break "invalid escape",
                    }
                }
                0..=0x1F => {
                    // `serde_json` counts the columns before it.
                    i -= 1;
                    break "control character (\\u0000-\\u001F) found while parsing a string";
                }
                _ => i += 1,
            }
        };
        self.i = i;
        self.fail(why)
    }

    /// The rest of a string whose opening quote was read, when it holds
    /// no escape: its text in `text` (the scanned bytes' own), as an id is
    /// read where it lies.
    fn unescaped<'t>(&mut self, text: &'t str) -> Option<&'t str> {
        let start = self.i;
        if self.string()? {
            return None;
        }
        text.get(start..self.i - 1)
    }

    /// `bytes` next, stepped over; `None` (and no step) otherwise.
    fn fixed(&mut self, bytes: &[u8]) -> Option<()> {
        let end = self.i + bytes.len();
        (self.b.get(self.i..end)? == bytes).then(|| self.i = end)
    }

    /// A whole number as JSON writes one: `0`, or digits without a leading
    /// zero; at most 15 of them, so surely below 2^53 (rule P3: a longer
    /// one is left to the general pass, which checks its range).
    fn whole_number(&mut self) -> Option<()> {
        let start = self.i;
        match self.next()? {
            b'0' => Some(()),
            b'1'..=b'9' => {
                self.digits();
                (self.i - start <= 15).then_some(())
            }
            _ => None,
        }
    }

    /// A number, as JSON's grammar has it (no leading zero, no lone sign,
    /// digits on both sides of the point and after the exponent).
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.i += 1;
                if matches!(self.peek(), Some(b'0'..=b'9')) {
                    return self.fail("invalid number");
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            Some(_) => return self.fail("invalid number"),
            None => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            self.some_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            self.some_digits()?;
        }
        Some(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
    }

    fn some_digits(&mut self) -> Option<()> {
        match self.peek()? {
            b'0'..=b'9' => {
                self.digits();
                Some(())
            }
            _ => self.fail("invalid number"),
        }
    }

    /// The first byte of a value: a string, literal or number is read whole.
    fn scalar(&mut self, first: u8) -> Option<()> {
        match first {
            b'"' => {
                self.i += 1;
                self.string().map(drop)
            }
            b't' => self.word(b"true"),
            b'f' => self.word(b"false"),
            b'n' => self.word(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => self.fail("expected value"),
        }
    }

    fn word(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        if self.b.get(self.i..end) == Some(word) {
            self.i = end;
            return Some(());
        }
        // At the first byte that differs, or the end of the text.
        for &c in word {
            if self.peek()? != c {
                return self.fail("expected ident");
            }
            self.i += 1;
        }
        None
    }

    /// An object key and its colon, whitespace around: where the key's
    /// text starts (it ends at `key_end`) and whether it holds an escape.
    fn key(&mut self) -> Option<(usize, bool)> {
        if self.peek()? != b'"' {
            return self.fail("key must be a string");
        }
        self.i += 1;
        let start = self.i;
        let escaped = self.string()?;
        self.key_end = self.i - 1;
        self.ws();
        self.eat(b':', "expected `:`")?;
        self.ws();
        Some((start, escaped))
    }

    /// One value of any kind. Arrays and objects are walked without
    /// recursion, so at any depth: a stack says of each open level whether
    /// it is an object (empty, and not allocated, for a flat value).
    fn value(&mut self) -> Option<()> {
        let mut objects: Vec<bool> = Vec::new();
        let walked = self.walk(&mut objects);
        if walked.is_none() && self.why.is_none() {
            self.why = Some(match objects.last() {
                Some(true) => "EOF while parsing an object",
                Some(false) => "EOF while parsing a list",
                None => "EOF while parsing a value",
            });
        }
        walked
    }

    fn walk(&mut self, objects: &mut Vec<bool>) -> Option<()> {
        loop {
            // At the start of a value.
            let open = self.peek()?;
            if matches!(open, b'{' | b'[') {
                self.i += 1;
                objects.push(open == b'{');
                self.ws();
                let close = if open == b'{' { b'}' } else { b']' };
                if self.peek()? != close {
                    if open == b'{' {
                        self.key()?;
                    }
                    continue;
                }
                self.i += 1;
                objects.pop();
            } else {
                self.scalar(open)?;
            }
            // After a value: close levels until one goes on, or the
            // outermost value ends.
            loop {
                let Some(&in_object) = objects.last() else {
                    return Some(());
                };
                self.ws();
                match self.peek()? {
                    b',' => {
                        self.i += 1;
                        self.ws();
                        if in_object {
                            self.key()?;
                        }
                        break;
                    }
                    b'}' if in_object => {}
                    b']' if !in_object => {}
                    _ if in_object => return self.fail("expected `,` or `}`"),
                    _ => return self.fail("expected `,` or `]`"),
                }
                self.i += 1;
                objects.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::json::Fields;
    use serde::de::IgnoredAny;

    /// The fields of `text` as the field scan of module `json` finds them,
    /// if `serde_json` takes it as an object.
    fn slow(text: &str) -> Option<Vec<Option<String>>> {
        serde_json::from_str::<IgnoredAny>(text).ok()?;
        let fields = Fields::of(Raw::checked(text).ok()?)?;
        Some(
            KEYS.iter()
                .map(|&k| fields.get(k.name()).map(|r| r.get().to_owned()))
                .collect(),
        )
    }

    fn fast(text: &str) -> Option<Vec<Option<String>>> {
        let mut f = EventFields::default();
        f.scan(text)?;
        Some(
            KEYS.iter()
                .map(|&k| f.get(k).map(|r| r.get().to_owned()))
                .collect(),
        )
    }

    /// The one pass takes only what the slow way takes, with the same
    /// fields, and the check takes exactly what `serde_json` takes.
    fn agrees(text: &str) -> bool {
        let serde = serde_json::from_str::<IgnoredAny>(text).is_ok();
        check(text).is_ok() == serde && fast(text) == slow(text)
    }

    #[test]
    fn every_key_is_found_by_its_name() {
        for key in KEYS {
            assert_eq!(Key::of(key.name().as_bytes()), Some(key));
        }
        for name in ["", "typo", "types", "Type", "timestamps", "rawEvent"] {
            assert_eq!(Key::of(name.as_bytes()), None);
        }
    }

    #[test]
    fn e2_one_pass_reads_events_as_the_slow_way() {
        for text in [
            r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\\u00e9\ud83d"}"#,
            r#" { "type" : "RUN_STARTED" , "threadId":"t", "runId":"r","input":{"messages":[{"a":[1,-0.5e+3,true,false,null,{}]}],"tools":[]}} "#,
            r#"{"type":"X","timestamp":1700000000000,"rawEvent":[[[]]],"delta":"x","delta":"y"}"#,
            "{}",
            r#"{"t\u0079pe":"RUN_STARTED","\"":1}"#,
            "{\"type\":\"\u{e9}\u{1F600}\",\"content\":[\"a\",{\"b\":\"]}\"}]}",
        ] {
            assert!(fast(text).is_some(), "{text}");
            assert!(agrees(text), "{text}");
        }
    }

    #[test]
    fn e2_one_pass_takes_nothing_but_a_json_object() {
        for text in [
            "",
            "[]",
            "\"x\"",
            r#"{"type":"a" "b":1}"#,
            r#"{"type":"a",}"#,
            r#"{"a":[1,]}"#,
            r#"{"a":01}"#,
            r#"{"a":-}"#,
            r#"{"a":1.}"#,
            r#"{"a":1e}"#,
            r#"{"a":.5}"#,
            r#"{"a":tru}"#,
            r#"{"a":truex}"#,
            r#"{"a":"\x"}"#,
            r#"{"a":"\u12g4"}"#,
            "{\"a\":\"\u{1}\"}",
            r#"{"a":[}"#,
            r#"{"a":{]}"#,
            r#"{"a":{"b"}}"#,
            r#"{"a":1} x"#,
            r#"{"a":1"#,
        ] {
            assert!(fast(text).is_none(), "{text}");
            assert!(agrees(text), "{text}");
        }
        // Any depth: far past `serde_json`'s limit for values.
        let deep = format!(
            "{{\"a\":{}0{}}}",
            "[{\"b\":".repeat(5000),
            "}]".repeat(5000)
        );
        assert!(fast(&deep).is_some() && check(&deep).is_ok());
        assert!(check(&deep[..deep.len() - 2]).is_err());
    }

    #[test]
    fn e2_errors_are_worded_as_serde_json_words_them() {
        for text in [
            "",
            "  ",
            "{\"a\":\"x\u{1}\"}",
            r#"{"a":"m",}"#,
            r#"{"a":"\x"}"#,
            r#"{"a":"\u12g4"}"#,
            r#"{"a":[1,2}"#,
            r#"{"a":1]"#,
            r#"{"a":01}"#,
            r#"{"a":-}"#,
            r#"{"a":1.}"#,
            r#"{"a":1e+}"#,
            r#"{"a":tru}"#,
            r#"{"a" 1}"#,
            "{1:1}",
            "{\"a\":\n  x}",
            r#"{"a":"m"} x"#,
            r#"{"a":"m""#,
            r#"{"a":"m","#,
            r#"{"a":"m"#,
            "[",
            "[1",
        ] {
            let ours = check(text).unwrap_err();
            let theirs = serde_json::from_str::<IgnoredAny>(text)
                .unwrap_err()
                .to_string();
            assert_eq!(ours, theirs, "{text:?}");
        }
    }

    #[test]
    fn e2_one_pass_never_takes_what_serde_json_refuses() {
        // Every prefix and every one-byte change of a few events, against
        // `serde_json`'s check.
        let texts = [
            r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"a\"\\\/\b\f\n\r\t\u00E9"}"#,
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","result":{"x":[1.5e-3,-0,true,null]}}"#,
        ];
        let alphabet = b" \t\n\r{}[]:,\"\\/-+.0123456789eEabfnrtu\x01\x7f";
        for text in texts {
            for end in 0..=text.len() {
                assert!(agrees(&text[..end]), "{}", &text[..end]);
            }
            for at in 0..text.len() {
                for &c in alphabet {
                    let mut bytes = text.as_bytes().to_vec();
                    bytes[at] = c;
                    let changed = String::from_utf8(bytes).unwrap();
                    assert!(agrees(&changed), "{changed}");
                }
            }
        }
    }
}
