//! Shallow reading of JSON text: an object's fields and an array's items as
//! raw text, and strings decoded as `JSON.parse` reads them.
//!
//! The syntax of the whole text is checked first, by the crate's own
//! scanner ([`super::fields::check`], or the one-pass event scan of module
//! `fields`): without recursion and without reading numbers, so neither
//! depth nor range can refuse valid JSON, and what it accepts is what
//! `serde_json`'s syntax check accepts (tests and a fuzz target hold it to
//! that). Parts are then found by a small scanner over the checked text and
//! kept as raw text ([`Raw`]): opaque payloads stay exactly as given, and
//! only what the tracker reads is read further.
//! Strings are decoded here, not by `serde_json`, which refuses a lone
//! surrogate escape (`"\ud83d"`): valid JSON, and what `JSON.stringify`
//! writes for a string cut inside a surrogate pair. A lone surrogate becomes
//! U+FFFD, except at the edges of a string, where it is kept apart
//! ([`JsonStr`]) so argument deltas can rejoin a split pair.

use super::Text;
use crate::value::{Map, Value};
use std::borrow::Cow;

/// The exact text of one JSON value, borrowed from checked input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw<'a>(&'a str);

impl<'a> Raw<'a> {
    /// `text` if it is one JSON value, surrounding whitespace trimmed. The
    /// syntax is checked without recursion and without reading numbers (no
    /// depth or range limit) or surrogates ([`super::fields::check`]); an
    /// error is worded as `serde_json` words it.
    pub(crate) fn checked(text: &'a str) -> Result<Raw<'a>, String> {
        super::fields::check(text)?;
        // Checked, the text is one value between JSON whitespace, so ASCII
        // trimming takes exactly that whitespace (a byte loop, where
        // `trim_matches` with a closure was generic char-decoding code).
        Ok(Raw(text.trim_ascii()))
    }

    /// Text the one-pass event scan (module `fields`) checked: one JSON
    /// value, without surrounding whitespace.
    pub(crate) fn new(text: &'a str) -> Raw<'a> {
        Raw(text)
    }

    pub(crate) fn get(self) -> &'a str {
        self.0
    }

    /// The part from byte `from` to byte `to`; indices from the scanner
    /// below always fall on ASCII bytes.
    fn slice(self, from: usize, to: usize) -> Raw<'a> {
        Raw(self.0.get(from..to).unwrap_or_default())
    }
}

/// What replaces a surrogate that has no other half.
pub const REPLACEMENT: char = '\u{FFFD}';

/// A decoded JSON string, in UTF-8.
///
/// ```
/// use agui_tool_calls::events::JsonStr;
/// use std::borrow::Cow;
///
/// let s = JsonStr::new(Cow::Borrowed("ok"));
/// assert_eq!(s.into_text(), "ok");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonStr<'a> {
    /// The text; a lone surrogate inside it reads as U+FFFD.
    pub text: Text<'a>,
    /// A low surrogate (`\udc00`-`\udfff`) the string began with: the second
    /// half of a pair whose first half ended the previous delta.
    pub low_first: Option<u16>,
    /// A high surrogate (`\ud800`-`\udbff`) the string ended with: the first
    /// half of a pair the next delta completes.
    pub high_last: Option<u16>,
}

impl<'a> JsonStr<'a> {
    /// A string with no lone surrogate at its edges.
    pub fn new(text: Text<'a>) -> Self {
        JsonStr {
            text,
            low_first: None,
            high_last: None,
        }
    }

    /// Nothing at all: no text and no half pair.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.low_first.is_none() && self.high_last.is_none()
    }

    /// The string on its own: a lone surrogate at an edge becomes U+FFFD,
    /// as a lone surrogate becomes when a JS string is encoded as UTF-8.
    pub fn into_text(self) -> Text<'a> {
        if self.low_first.is_none() && self.high_last.is_none() {
            return self.text;
        }
        let mut out = String::with_capacity(self.text.len() + 6);
        if self.low_first.is_some() {
            out.push(REPLACEMENT);
        }
        out.push_str(&self.text);
        if self.high_last.is_some() {
            out.push(REPLACEMENT);
        }
        Cow::Owned(out)
    }
}

/// Decodes a JSON string literal, quotes included, whose syntax was
/// checked already (escapes well formed, no control characters). Borrows
/// when there is no escape. Never panics, even on unchecked text.
pub(crate) fn decode(literal: &str) -> JsonStr<'_> {
    let body = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or_default();
    // A byte loop: the strings are short, and `contains` calls `memchr`.
    if !body.bytes().any(|b| b == b'\\') {
        return JsonStr::new(Cow::Borrowed(body));
    }
    let bytes = body.as_bytes();
    let mut out = JsonStr::default();
    let mut text = String::with_capacity(body.len());
    // `run` starts the plain text not yet copied; `i` is the scan position.
    let (mut run, mut i) = (0, 0);
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        text.push_str(body.get(run..i).unwrap_or_default());
        let escape_at = i;
        let kind = bytes.get(i + 1).copied().unwrap_or(b'\\');
        i += 2;
        match kind {
            b'u' => {
                let unit = hex4(body, i);
                i += 4;
                match unit {
                    0xD800..=0xDBFF => match low_escape(body, i) {
                        Some(low) => {
                            text.push(pair(unit, low));
                            i += 6;
                        }
                        None if i >= bytes.len() => out.high_last = Some(unit),
                        None => text.push(REPLACEMENT),
                    },
                    0xDC00..=0xDFFF if escape_at == 0 => out.low_first = Some(unit),
                    _ => text.push(char::from_u32(unit.into()).unwrap_or(REPLACEMENT)),
                }
            }
            b'n' => text.push('\n'),
            b't' => text.push('\t'),
            b'r' => text.push('\r'),
            b'b' => text.push('\u{8}'),
            b'f' => text.push('\u{c}'),
            // `"`, `\` and `/` stand for themselves: the next run of
            // plain text starts at the character, the commonest escapes
            // in argument deltas costing no push of their own.
            _ => {
                run = i - 1;
                continue;
            }
        }
        run = i.min(bytes.len());
    }
    text.push_str(body.get(run..).unwrap_or_default());
    out.text = Cow::Owned(text);
    out
}

/// The four hex digits at `at`; a lone low surrogate's value (read as
/// U+FFFD) if they are missing, which checked text never has.
fn hex4(body: &str, at: usize) -> u16 {
    body.as_bytes()
        .get(at..at + 4)
        .and_then(crate::digits::hex_value)
        .unwrap_or(0xDFFF)
}

/// A `\uXXXX` low surrogate escape at `at`, if there is one.
fn low_escape(body: &str, at: usize) -> Option<u16> {
    let escape = body.get(at..at + 6)?;
    if !escape.starts_with("\\u") {
        return None;
    }
    let unit = hex4(escape, 2);
    (0xDC00..=0xDFFF).contains(&unit).then_some(unit)
}

/// The character a high and a low surrogate stand for.
pub(crate) fn pair(high: u16, low: u16) -> char {
    let code = 0x1_0000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
    char::from_u32(code).unwrap_or(REPLACEMENT)
}

/// The kind of a JSON value, from its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    String,
    Null,
    Object,
    Array,
    /// A number or a boolean.
    Other,
}

pub(crate) fn kind(raw: Raw<'_>) -> Kind {
    match raw.get().as_bytes().first() {
        Some(b'"') => Kind::String,
        Some(b'n') => Kind::Null,
        Some(b'{') => Kind::Object,
        Some(b'[') => Kind::Array,
        _ => Kind::Other,
    }
}

/// A field read as a string, null, or anything else (the wrong type).
#[derive(Debug)]
pub(crate) enum Scalar<'a> {
    Str(JsonStr<'a>),
    Null,
    Wrong,
}

pub(crate) fn scalar(raw: Raw<'_>) -> Scalar<'_> {
    match kind(raw) {
        Kind::String => Scalar::Str(decode(raw.get())),
        Kind::Null => Scalar::Null,
        _ => Scalar::Wrong,
    }
}

/// What a value is, for messages: `found a number`.
pub(crate) fn describe(raw: Raw<'_>) -> &'static str {
    match raw.get().as_bytes().first() {
        Some(b'"') => "a string",
        Some(b'n') => "null",
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        _ => "a number",
    }
}

/// An object's fields in order, each value as raw JSON text.
#[derive(Debug, Default)]
pub(crate) struct Fields<'a> {
    fields: Vec<(Text<'a>, Raw<'a>)>,
    /// The object's text, as given.
    text: &'a str,
}

impl<'a> Fields<'a> {
    /// The fields of an object, or `None` for any other value.
    pub(crate) fn of(raw: Raw<'a>) -> Option<Fields<'a>> {
        let b = raw.get().as_bytes();
        if !matches!(b.first(), Some(b'{')) {
            return None;
        }
        let mut fields = Vec::new();
        let mut i = skip_ws(b, 1);
        // Checked text: `"key" : value` pairs separated by commas.
        while matches!(b.get(i), Some(b'"')) {
            let key_end = string_end(b, i);
            let key = decode(raw.slice(i, key_end).get()).into_text();
            let start = skip_ws(b, skip_ws(b, key_end) + 1);
            let end = value_end(b, start);
            fields.push((key, raw.slice(start, end)));
            i = skip_ws(b, end);
            if !matches!(b.get(i), Some(b',')) {
                break;
            }
            i = skip_ws(b, i + 1);
        }
        Some(Fields {
            fields,
            text: raw.get(),
        })
    }

    /// The object's text, as given.
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    /// The fields in order, each key decoded.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&str, Raw<'a>)> {
        self.fields.iter().map(|(k, v)| (k.as_ref(), *v))
    }

    /// The keys, in order (a repeated key each time it appears).
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.fields.iter().map(|(k, _)| k.as_ref())
    }

    /// The value of `key`; a repeated key keeps its last value, as
    /// `JSON.parse` does.
    pub(crate) fn get(&self, key: &str) -> Option<Raw<'a>> {
        self.fields
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|&(_, v)| v)
    }
}

/// The items of an array, or `None` for any other value.
pub(crate) fn items(raw: Raw<'_>) -> Option<Vec<Raw<'_>>> {
    let b = raw.get().as_bytes();
    if !matches!(b.first(), Some(b'[')) {
        return None;
    }
    let mut items = Vec::new();
    let mut i = skip_ws(b, 1);
    while i < b.len() && b[i] != b']' {
        let end = value_end(b, i);
        items.push(raw.slice(i, end));
        i = skip_ws(b, end);
        if !matches!(b.get(i), Some(b',')) {
            break;
        }
        i = skip_ws(b, i + 1);
    }
    Some(items)
}

/// How deep [`value`] reads, as `serde_json` does: a JSON Schema is read as
/// a value, and no real one nests this deep.
const VALUE_DEPTH: usize = 128;

/// Checked JSON text as the crate's value (`crate::value`), strings
/// decoded as above (a lone surrogate reads as U+FFFD instead of refusing
/// the text), numbers as `crate::number` reads them (out of `f64` range
/// is an error), an object's members sorted once with the last of a key
/// kept.
///
/// ```text
/// {"description":"\ud800"} -> {"description":"\u{FFFD}"}
/// ```
pub(crate) fn value(raw: Raw<'_>) -> Result<Value, String> {
    value_at(raw, VALUE_DEPTH)
}

fn value_at(raw: Raw<'_>, depth: usize) -> Result<Value, String> {
    let nested = || {
        depth
            .checked_sub(1)
            .ok_or_else(|| format!("nests deeper than {VALUE_DEPTH} levels"))
    };
    match kind(raw) {
        Kind::String => Ok(Value::String(decode(raw.get()).into_text().into_owned())),
        Kind::Object => {
            let depth = nested()?;
            let fields = Fields::of(raw).unwrap_or_default().fields;
            let mut members = Vec::with_capacity(fields.len());
            for (key, item) in fields {
                members.push((key.into_owned(), value_at(item, depth)?));
            }
            Ok(Value::Object(Map::from_members(members)))
        }
        Kind::Array => {
            let depth = nested()?;
            let items = items(raw).unwrap_or_default();
            // A loop, not a `collect` into `Result<Vec<_>, _>` (a generic
            // instantiation of its own in the wasm module).
            let mut values = Vec::with_capacity(items.len());
            for item in items {
                values.push(value_at(item, depth)?);
            }
            Ok(Value::Array(values))
        }
        Kind::Null => Ok(Value::Null),
        // A number, read as JavaScript reads it (`crate::number`); only
        // one out of `f64`'s range fails (the text is checked).
        Kind::Other => match raw.get() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            number => crate::number::number(number)
                .map(Value::Number)
                .ok_or_else(|| "number out of range".to_owned()),
        },
    }
}

/// The scanner: positions in checked JSON text, without recursion. Every
/// step moves forward, so even unchecked text cannot make it loop. Bytes
/// are compared with `matches!`, not `== Some(&b'x')`, which at the
/// size-first optimisation level stays a call to `Option::eq` per byte.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Just past the closing quote of the string whose opening quote is at `i`.
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    b.len()
}

/// Just past the value that starts at `i`.
fn value_end(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(b'"') => string_end(b, i),
        Some(b'{' | b'[') => {
            let (mut depth, mut j) = (0usize, i);
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = string_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            b.len()
        }
        // A number or a literal: up to the next delimiter.
        _ => {
            let mut j = i;
            while !matches!(
                b.get(j),
                None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            ) {
                j += 1;
            }
            j
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(json: &str) -> (String, Option<u16>, Option<u16>) {
        let s = decode(json);
        (s.text.into_owned(), s.low_first, s.high_last)
    }

    #[test]
    fn strings_decode_as_json_parse_reads_them() {
        assert_eq!(decoded(r#""plain""#), ("plain".into(), None, None));
        assert_eq!(
            decoded(r#""a\"b\\c\/d\n\t\r\b\f\u00e9\u20ac""#),
            ("a\"b\\c/d\n\t\r\u{8}\u{c}\u{e9}\u{20ac}".into(), None, None)
        );
        assert_eq!(
            decoded(r#""\ud83d\ude00""#),
            ("\u{1F600}".into(), None, None)
        );
        // Escapes that stand for themselves, next to each other and to
        // other escapes, at both ends.
        for json in [
            r#""\"\\\/""#,
            r#""\\\"x\\n\/\n\"""#,
            r#""{\"a\":\"\\\"\u00e9\\\\\"}""#,
        ] {
            let expected: String = serde_json::from_str(json).unwrap();
            assert_eq!(decoded(json), (expected, None, None), "{json}");
        }
    }

    #[test]
    fn t4_lone_surrogates_at_the_edges_are_kept_apart() {
        assert_eq!(decoded(r#""x\ud83d""#), ("x".into(), None, Some(0xD83D)));
        assert_eq!(decoded(r#""\ude00y""#), ("y".into(), Some(0xDE00), None));
        assert_eq!(
            decoded(r#""\ude00\ud83d""#),
            (String::new(), Some(0xDE00), Some(0xD83D))
        );
    }

    #[test]
    fn e2_lone_surrogates_inside_read_as_replacement() {
        assert_eq!(
            decoded(r#""a\ud83db\ude00c\ud800\ud800""#),
            ("a\u{FFFD}b\u{FFFD}c\u{FFFD}".into(), None, Some(0xD800))
        );
        assert_eq!(decode(r#""\ud800""#).into_text(), "\u{FFFD}");
        assert_eq!(
            decode(r#""\udc00z\ud800""#).into_text(),
            "\u{FFFD}z\u{FFFD}"
        );
    }

    fn shallow(text: &str) -> Vec<(String, String)> {
        let fields = Fields::of(Raw::checked(text).unwrap()).unwrap();
        fields
            .fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.get().to_owned()))
            .collect()
    }

    #[test]
    fn objects_and_arrays_split_into_raw_parts() {
        assert_eq!(
            shallow(r#" { "a" : [1, {"b}": "]"}] , "\"k\"":-0 ,"n":null,"s":"x\"}","e":{}} "#),
            [
                ("a".into(), r#"[1, {"b}": "]"}]"#.into()),
                ("\"k\"".into(), "-0".into()),
                ("n".into(), "null".into()),
                ("s".into(), r#""x\"}""#.into()),
                ("e".into(), "{}".into()),
            ]
        );
        assert!(shallow("{}").is_empty());
        let raw = Raw::checked(r#"[ 1e400 ,"a", [[]] ,{"x":[]}]"#).unwrap();
        let parts: Vec<&str> = items(raw).unwrap().iter().map(|r| r.get()).collect();
        assert_eq!(parts, ["1e400", r#""a""#, "[[]]", r#"{"x":[]}"#]);
        assert!(items(Raw::checked("[ ]").unwrap()).unwrap().is_empty());
        assert!(Raw::checked("[1,]").is_err());
    }

    #[test]
    fn unchecked_text_never_panics() {
        for text in [
            "{",
            "{\"",
            "{\"a\"",
            "{\"a\":",
            "[",
            "[1,",
            "{\"a\":[}",
            r#"["\"] ,"#,
        ] {
            let _ = Fields::of(Raw(text));
            let _ = items(Raw(text));
        }
        for text in [
            "",
            "\"",
            "\"\\",
            "\"\\u12",
            "\"\\ud800\\u",
            "\"\\uzzzz\"",
            "\"é\\",
        ] {
            let _ = decode(text).into_text();
        }
    }
}
