//! Ids and names as messages show them: quoted, as JSON string literals.
//!
//! `{:?}` would do much the same, but links the `Debug` escaping machinery
//! and its Unicode tables into the wasm module; the records' JSON string
//! writer is there anyway.

/// `s` between double quotes, with quotes, backslashes and control
/// characters escaped as in JSON.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = Vec::with_capacity(s.len() + 2);
    crate::wire::json_string(&mut out, s);
    // Escaping keeps UTF-8 UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Cuts `text` to at most `max` bytes at a character boundary, marking the
/// cut with `…` (so the result may hold `max` + 3 bytes): messages quote
/// what a stream sent, and what is kept must stay bounded.
pub(crate) fn cut(text: &mut String, max: usize) {
    if text.len() > max {
        text.truncate(head(text, max).len());
        text.push('…');
    }
}

/// The longest start of `text` of at most `max` bytes that ends at a
/// character boundary.
pub(crate) fn head(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// An optional id: quoted, or `none`.
pub(crate) fn quoted_or_none(s: Option<&str>) -> String {
    s.map_or_else(|| "none".to_owned(), quoted)
}

/// A list of ids: `["a", "b"]`. Built by hand: `[String]::join` would be
/// one more instantiation of the joining code in the wasm module.
pub(crate) fn quoted_list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::from("[");
    for item in items {
        if out.len() > 1 {
            out.push_str(", ");
        }
        out.push_str(&quoted(item));
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes_like_json() {
        assert_eq!(quoted("c1"), "\"c1\"");
        assert_eq!(quoted("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(quoted_or_none(None), "none");
        assert_eq!(quoted_or_none(Some("m")), "\"m\"");
        assert_eq!(quoted_list(["a", "b"]), r#"["a", "b"]"#);
        assert_eq!(quoted_list([]), "[]");
    }

    #[test]
    fn quoting_escapes_every_character_as_serde_json_does() {
        let mut chars: Vec<char> = (0..=0x7f_u8).map(char::from).collect();
        chars.extend(['\u{80}', 'é', '\u{2028}', '\u{FFFD}', '😀']);
        for c in chars {
            let s = format!("a{c}b{c}");
            assert_eq!(quoted(&s), serde_json::to_string(&s).unwrap(), "{c:?}");
        }
    }
}
