//! Which values of an open call's partial value are complete (rule T5).
//!
//! The partial value is `text[..cut] + suffix`, and the suffix closes, one
//! character each, the values still open: the top-level value, its last
//! member, that member's last member, and so on (the *open spine*). Every
//! other value of the partial value was closed by the text, so it never
//! changes again while the call streams (a key the producer repeats
//! excepted: JSON reads the last one). Reading the spine back from the
//! partial text is a walk of that text; nothing here runs per delta.

use super::ArgsReader;

/// One step of a path into a value: an object key or an array index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathStep<'a> {
    /// An object member.
    Key(&'a str),
    /// An array element.
    Index(usize),
}

impl ArgsReader {
    /// Whether the value at `path` of the partial value is complete (it
    /// can no longer change while the call streams); `None` while the
    /// partial value has nothing there.
    ///
    /// ```
    /// use agui_tool_calls::args::{ArgsLimits, ArgsReader, PathStep};
    ///
    /// let mut args = ArgsReader::new(ArgsLimits::default());
    /// args.push(r#"{"url":"https://exa"#).unwrap();
    /// assert_eq!(args.complete_at(&[PathStep::Key("url")]), Some(false));
    /// args.push(r#"mple.com","tags":["a""#).unwrap();
    /// assert_eq!(args.complete_at(&[PathStep::Key("url")]), Some(true));
    /// assert_eq!(args.complete_at(&[PathStep::Key("tags")]), Some(false));
    /// assert_eq!(args.complete_at(&[PathStep::Key("tags"), PathStep::Index(0)]), Some(true));
    /// assert_eq!(args.complete_at(&[PathStep::Key("size")]), None);
    /// ```
    pub fn complete_at(&self, path: &[PathStep]) -> Option<bool> {
        let partial = self.partial()?;
        let text = format!("{}{}", &self.text()[..partial.cut], partial.suffix);
        let open = partial.suffix.len();
        let b = text.as_bytes();
        let mut at = ws(b, 0);
        // Whether the value at `at` is on the open spine, and its depth.
        let mut on_spine = open > 0;
        for (depth, step) in path.iter().enumerate() {
            let (start, last) = member(b, at, *step)?;
            at = start;
            on_spine = on_spine && last && depth + 1 < open;
        }
        Some(!on_spine)
    }

    /// The top-level members of an object text so far, in text order, each
    /// with whether it is complete ([`complete_at`](Self::complete_at)).
    ///
    /// ```
    /// use agui_tool_calls::args::{ArgsLimits, ArgsReader};
    ///
    /// let mut args = ArgsReader::new(ArgsLimits::default());
    /// args.push(r#"{"a":1,"b":"x"#).unwrap();
    /// assert_eq!(args.fields(), [("a".to_owned(), true), ("b".to_owned(), false)]);
    /// ```
    pub fn fields(&self) -> Vec<(String, bool)> {
        let Some(partial) = self.partial() else {
            return Vec::new();
        };
        let text = format!("{}{}", &self.text()[..partial.cut], partial.suffix);
        let b = text.as_bytes();
        let mut out: Vec<(String, bool)> = Vec::new();
        let at = ws(b, 0);
        if b.get(at) != Some(&b'{') {
            return out;
        }
        members(b, at, |key, _, last| {
            let complete = !(last && partial.suffix.len() > 1);
            // A repeated key: the last one is the value.
            out.retain(|(k, _)| k != key);
            out.push((key.to_owned(), complete));
        });
        out
    }
}

/// The start of the value `step` names in the container at `at`, and
/// whether it is the container's last member; a repeated key names its
/// last occurrence, as JSON reads it.
fn member(b: &[u8], at: usize, step: PathStep) -> Option<(usize, bool)> {
    let mut found = None;
    match (b.get(at)?, step) {
        (b'{', PathStep::Key(want)) => members(b, at, |key, start, last| {
            if key == want {
                found = Some((start, last));
            }
        }),
        (b'[', PathStep::Index(want)) => {
            let mut i = 0;
            members(b, at, |_, start, last| {
                if i == want {
                    found = Some((start, last));
                }
                i += 1;
            });
        }
        _ => {}
    }
    found
}

/// Calls `each(key, value start, last)` for every member of the object or
/// array at `at` (the key is empty for an array element). The text is
/// well-formed JSON.
fn members(b: &[u8], at: usize, mut each: impl FnMut(&str, usize, bool)) {
    let object = b[at] == b'{';
    let mut i = ws(b, at + 1);
    while b.get(i).is_some_and(|&c| c != b'}' && c != b']') {
        let mut key = String::new();
        if object {
            let end = skip(b, i);
            key = serde_json::from_slice(&b[i..end]).unwrap_or_default();
            i = ws(b, ws(b, end) + 1);
        }
        let start = i;
        i = ws(b, skip(b, i));
        let last = b.get(i) != Some(&b',');
        each(&key, start, last);
        if !last {
            i = ws(b, i + 1);
        }
    }
}

/// The end of the value starting at `i`.
fn skip(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    let mut in_string = false;
    while let Some(&c) = b.get(i) {
        i += 1;
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => {
                    in_string = false;
                    if depth == 0 {
                        return i;
                    }
                }
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t' if depth == 0 => return i - 1,
            _ => {}
        }
    }
    i
}

/// The first byte at or after `i` that is not whitespace.
fn ws(b: &[u8], mut i: usize) -> usize {
    while b
        .get(i)
        .is_some_and(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t'))
    {
        i += 1;
    }
    i
}
