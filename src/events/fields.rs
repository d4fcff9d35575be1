//! An event object's fields, by name, read in one pass over its text.
//!
//! The pass checks the JSON syntax and notes where each field the tracker
//! reads lies, so the event's bytes are walked once (`serde_json`'s check,
//! then a second scan for the fields, walked them twice) and nothing is
//! allocated. It takes only what it is sure of: any text it does not take
//! (invalid JSON, an escaped key, nesting deeper than [`MAX_FAST_DEPTH`],
//! not an object) goes the slow way, `serde_json`'s check and the field scan
//! of module `json`, which words the error as before. So the pass may be
//! stricter than `serde_json`, never looser: every text it takes is one
//! `serde_json` takes, with the same fields (a test and a fuzz target hold it
//! to that).

use super::json::{Fields, Raw};

/// The fields the tracker reads from an event object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key {
    Type,
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
    Delta,
    ToolCallId,
    ToolCallName,
    ParentMessageId,
    Content,
    Error,
    Messages,
}

/// Each key's name on the wire, in the order of [`Key`].
const NAMES: [&str; 19] = [
    "type",
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
    "delta",
    "toolCallId",
    "toolCallName",
    "parentMessageId",
    "content",
    "error",
    "messages",
];

impl Key {
    /// The field's name, as errors give it.
    pub(crate) fn name(self) -> &'static str {
        NAMES[self as usize]
    }

    /// The key named `name`, if the tracker reads that field. Its length
    /// and first byte pick the one candidate, compared once: most fields
    /// an event has are known ones, and a name is read per field.
    fn of(name: &str) -> Option<Key> {
        let key = match (name.len(), *name.as_bytes().first()?) {
            (4, b't') => Key::Type,
            (4, b'c') => Key::Code,
            (4, b'r') => Key::Role,
            (5, b'r') => Key::RunId,
            (5, b'i') => Key::Input,
            (5, b'd') => Key::Delta,
            (5, b'e') => Key::Error,
            (6, b'r') => Key::Result,
            (7, b'o') => Key::Outcome,
            (7, b'm') => Key::Message,
            (7, b'c') => Key::Content,
            (8, b't') => Key::ThreadId,
            (8, b'm') => Key::Messages,
            (9, b'm') => Key::MessageId,
            (10, b't') => Key::ToolCallId,
            (11, b'p') => Key::ParentRunId,
            (12, b't') => Key::ToolCallName,
            (13, b's') => Key::SubagentRunId,
            (15, b'p') => Key::ParentMessageId,
            _ => return None,
        };
        (key.name() == name).then_some(key)
    }
}

/// The fields of one event object the tracker reads, each as raw JSON
/// text; a repeated key keeps its last value, as `JSON.parse` does.
#[derive(Debug, Default)]
pub(crate) struct EventFields<'a> {
    slots: [Option<Raw<'a>>; 19],
}

impl<'a> EventFields<'a> {
    /// The value of `key`, if the event has it.
    pub(crate) fn get(&self, key: Key) -> Option<Raw<'a>> {
        self.slots[key as usize]
    }

    fn set(&mut self, name: &str, value: Raw<'a>) {
        if let Some(key) = Key::of(name) {
            self.slots[key as usize] = Some(value);
        }
    }

    /// The known fields of an object read by the slow way.
    pub(crate) fn from_fields(fields: &Fields<'a>) -> Self {
        let mut out = EventFields::default();
        for (name, value) in fields.iter() {
            out.set(name, value);
        }
        out
    }

    /// The fields of `text`, if it is a JSON object the one pass takes;
    /// `None` sends the text the slow way.
    pub(crate) fn scan(text: &'a str) -> Option<Self> {
        let mut out = EventFields::default();
        let mut s = Scanner {
            b: text.as_bytes(),
            i: 0,
        };
        s.ws();
        s.eat(b'{')?;
        s.ws();
        if s.peek()? == b'}' {
            s.i += 1;
        } else {
            loop {
                let key_start = s.i + 1;
                if s.string()? {
                    return None; // an escaped key: decoded the slow way
                }
                let name = text.get(key_start..s.i - 1)?;
                s.ws();
                s.eat(b':')?;
                s.ws();
                let start = s.i;
                s.value()?;
                out.set(name, Raw::new(text.get(start..s.i)?));
                s.ws();
                match s.next()? {
                    b',' => s.ws(),
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        s.ws();
        (s.i == s.b.len()).then_some(out)
    }
}

/// Deepest nesting of arrays and objects inside an event the one pass
/// takes (a bit per level in a `u64`); deeper events go the slow way,
/// which has no depth limit.
pub(crate) const MAX_FAST_DEPTH: u32 = 64;

/// A position in JSON text, checked as it moves. Every step moves forward
/// or stops, so no text can make it loop; nothing indexes out of bounds.
struct Scanner<'b> {
    b: &'b [u8],
    i: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// A string, from its opening quote to just past its closing one:
    /// whether it holds an escape. No control character unescaped; every
    /// escape one of JSON's (a `\u` escape any four hex digits, so a lone
    /// surrogate passes, as in `serde_json`'s check). The loop over the
    /// bytes is the hot one of the pass: it keeps its index local.
    fn string(&mut self) -> Option<bool> {
        let b = self.b;
        let mut i = self.i;
        if !matches!(b.get(i), Some(b'"')) {
            return None;
        }
        i += 1;
        let mut escaped = false;
        loop {
            let c = *b.get(i)?;
            i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    match *b.get(i)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 1,
                        b'u' => {
                            let hex = b.get(i + 1..i + 5)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            i += 5;
                        }
                        _ => return None,
                    }
                }
                0..=0x1F => return None,
                _ => {}
            }
        }
        self.i = i;
        Some(escaped)
    }

    /// A number, as JSON's grammar has it (no leading zero, no lone sign,
    /// digits on both sides of the point and after the exponent).
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => self.digits(),
            _ => return None,
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
        let start = self.i;
        self.digits();
        (self.i > start).then_some(())
    }

    /// A string, literal or number: one value without parts.
    fn scalar(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b't' => self.word(b"true"),
            b'f' => self.word(b"false"),
            b'n' => self.word(b"null"),
            _ => self.number(),
        }
    }

    fn word(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| self.i = end)
    }

    /// An object key and its colon, whitespace around.
    fn key(&mut self) -> Option<()> {
        self.string()?;
        self.ws();
        self.eat(b':')?;
        self.ws();
        Some(())
    }

    /// One value of any kind. Arrays and objects are walked without
    /// recursion: a bit per open level says whether it is an object.
    fn value(&mut self) -> Option<()> {
        let mut objects = 0u64;
        let mut depth = 0u32;
        loop {
            // At the start of a value.
            let open = self.peek()?;
            if matches!(open, b'{' | b'[') {
                if depth == MAX_FAST_DEPTH {
                    return None;
                }
                self.i += 1;
                depth += 1;
                objects = objects << 1 | u64::from(open == b'{');
                self.ws();
                let close = if open == b'{' { b'}' } else { b']' };
                if self.peek()? != close {
                    if open == b'{' {
                        self.key()?;
                    }
                    continue;
                }
                self.i += 1;
                depth -= 1;
                objects >>= 1;
            } else {
                self.scalar()?;
            }
            // After a value: close levels until one goes on, or the
            // outermost value ends.
            loop {
                if depth == 0 {
                    return Some(());
                }
                self.ws();
                let in_object = objects & 1 == 1;
                match self.next()? {
                    b',' => {
                        self.ws();
                        if in_object {
                            self.key()?;
                        }
                        break;
                    }
                    b'}' if in_object => {}
                    b']' if !in_object => {}
                    _ => return None,
                }
                depth -= 1;
                objects >>= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::IgnoredAny;

    /// Every key, in the order of [`NAMES`].
    const KEYS: [Key; 19] = [
        Key::Type,
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
        Key::Delta,
        Key::ToolCallId,
        Key::ToolCallName,
        Key::ParentMessageId,
        Key::Content,
        Key::Error,
        Key::Messages,
    ];

    /// The slow way's fields of `text`, if `serde_json` takes it as an
    /// object.
    fn slow(text: &str) -> Option<Vec<Option<String>>> {
        serde_json::from_str::<IgnoredAny>(text).ok()?;
        let fields = Fields::of(Raw::checked(text).ok()?)?;
        let f = EventFields::from_fields(&fields);
        Some(
            KEYS.iter()
                .map(|&k| f.get(k).map(|r| r.get().to_owned()))
                .collect(),
        )
    }

    fn fast(text: &str) -> Option<Vec<Option<String>>> {
        let f = EventFields::scan(text)?;
        Some(
            KEYS.iter()
                .map(|&k| f.get(k).map(|r| r.get().to_owned()))
                .collect(),
        )
    }

    /// The one pass takes only what the slow way takes, with the same
    /// fields.
    fn agrees(text: &str) -> bool {
        match fast(text) {
            Some(fields) => slow(text) == Some(fields),
            None => true,
        }
    }

    #[test]
    fn every_key_is_found_by_its_name() {
        for key in KEYS {
            assert_eq!(Key::of(key.name()), Some(key));
        }
        for name in ["", "typo", "types", "Type", "timestamp", "rawEvent"] {
            assert_eq!(Key::of(name), None);
        }
    }

    #[test]
    fn e2_one_pass_reads_events_as_the_slow_way() {
        for text in [
            r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\\u00e9\ud83d"}"#,
            r#" { "type" : "RUN_STARTED" , "threadId":"t", "runId":"r","input":{"messages":[{"a":[1,-0.5e+3,true,false,null,{}]}],"tools":[]}} "#,
            r#"{"type":"X","timestamp":1700000000000,"rawEvent":[[[]]],"delta":"x","delta":"y"}"#,
            "{}",
            "{\"type\":\"\u{e9}\u{1F600}\",\"content\":[\"a\",{\"b\":\"]}\"}]}",
        ] {
            assert!(fast(text).is_some(), "{text}");
            assert!(agrees(text), "{text}");
        }
    }

    #[test]
    fn e2_one_pass_leaves_to_the_slow_way_what_it_does_not_take() {
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(65), "]".repeat(65));
        for text in [
            "",
            "[]",
            "\"x\"",
            r#"{"t\u0079pe":"RUN_STARTED"}"#,
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
            &deep,
        ] {
            assert!(fast(text).is_none(), "{text}");
        }
        let at_limit = format!("{{\"a\":{}{}}}", "[".repeat(64), "]".repeat(64));
        assert!(fast(&at_limit).is_some() && agrees(&at_limit));
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
