//! URI references and JSON Pointers, as far as `$id` and `$ref` need them.
//!
//! Only resolution inside one document is needed (nothing is fetched), so
//! this is the RFC 3986 reference-resolution algorithm and no more.

use crate::split::{split, split_once};
use crate::value::Value;

/// The base URI of a document that declares no `$id` of its own.
pub(crate) const DEFAULT_BASE: &str = "json-schema:///root";

/// The parts of a URI reference (RFC 3986 section 3).
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn parse(s: &str) -> Parts<'_> {
    let (rest, fragment) = match split_once(s, b'#') {
        Some((a, f)) => (a, Some(f)),
        None => (s, None),
    };
    let (rest, query) = match split_once(rest, b'?') {
        Some((a, q)) => (a, Some(q)),
        None => (rest, None),
    };
    // `split_once` and `get` rather than slicing by index: no panicking path (and its
    // formatting code) in the wasm.
    let (scheme, rest) = match split_once(rest, b':') {
        Some((s, r)) if is_scheme(s) => (Some(s), r),
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.bytes().position(|b| b == b'/').unwrap_or(r.len());
            (r.get(..end), r.get(end..).unwrap_or(""))
        }
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

fn is_scheme(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Resolves `reference` against the absolute `base` (RFC 3986 section 5.2).
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = parse(reference);
    let b = parse(base);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dots(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dots(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_owned();
                query = r.query.or(b.query);
            } else {
                path = if r.path.starts_with('/') {
                    remove_dots(r.path)
                } else {
                    remove_dots(&merge(&b, r.path))
                };
                query = r.query;
            }
        }
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

fn merge(base: &Parts<'_>, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{path}");
    }
    // A byte search: `rsplit_once('/')` links a reverse `char` searcher.
    match base.path.bytes().rposition(|b| b == b'/') {
        Some(slash) => format!("{}/{path}", base.path.get(..slash).unwrap_or_default()),
        None => path.to_owned(),
    }
}

fn remove_dots(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    // A loop, not a `collect` (a generic instantiation of its own).
    let mut segments: Vec<&str> = Vec::new();
    for seg in split(path, b'/') {
        segments.push(seg);
    }
    let last = segments.len().saturating_sub(1);
    for (i, seg) in segments.iter().enumerate() {
        match *seg {
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if i == last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    // Joined by hand: no `[&str]::join` is linked into the wasm module.
    let mut joined = String::with_capacity(path.len());
    for (i, seg) in out.iter().enumerate() {
        if i > 0 {
            joined.push('/');
        }
        joined.push_str(seg);
    }
    joined
}

/// Splits a URI into the part before `#` and the fragment (empty when absent).
pub(crate) fn split_fragment(uri: &str) -> (&str, &str) {
    split_once(uri, b'#').unwrap_or((uri, ""))
}

/// Decodes `%XX` escapes; a malformed escape is kept as it is.
pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(crate::digits::hex_value)
            .and_then(|b| u8::try_from(b).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

/// Escapes one reference token of a JSON Pointer (`~` and `/`).
pub(crate) fn escape_token(token: &str) -> String {
    // One pass by hand: `str::replace` by `char` links a searcher of its own.
    let mut out = String::with_capacity(token.len());
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// Unescapes one reference token of a JSON Pointer: `~1` is `/`, then `~0`
/// is `~` (so `~01` is `~1`). Char by char: `str::replace` with a string
/// pattern links core's two-way searcher.
fn unescape_token(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        let mut ahead = chars.clone();
        match ahead.next() {
            Some('1') => out.push('/'),
            Some('0') => out.push('~'),
            _ => {
                out.push('~');
                continue;
            }
        }
        chars = ahead;
    }
    out
}

/// Follows a JSON Pointer (already percent-decoded) into `root`.
pub(crate) fn pointer_get<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let mut here = root;
    for raw in split(pointer.strip_prefix("/")?, b'/') {
        let token = unescape_token(raw);
        here = match here {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => {
                items.get(usize::try_from(crate::digits::decimal(&token)?).ok()?)?
            }
            _ => return None,
        };
    }
    Some(here)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_references() {
        let base = "http://example.com/a/b/c.json";
        assert_eq!(resolve(base, "d.json"), "http://example.com/a/b/d.json");
        assert_eq!(resolve(base, "../d.json"), "http://example.com/a/d.json");
        assert_eq!(resolve(base, "/x"), "http://example.com/x");
        assert_eq!(resolve(base, "#foo"), "http://example.com/a/b/c.json#foo");
        assert_eq!(resolve(base, "urn:x:y#/a"), "urn:x:y#/a");
        assert_eq!(resolve("http://h", "d"), "http://h/d");
    }

    #[test]
    fn pointers_decode_escapes() {
        let v = json!({"a/b": {"c~d": [1, 2]}, "e%f": 3});
        assert_eq!(pointer_get(&v, "/a~1b/c~0d/1"), Some(&json!(2)));
        assert_eq!(pointer_get(&v, &percent_decode("/e%25f")), Some(&json!(3)));
        assert_eq!(pointer_get(&v, "/missing"), None);
        assert_eq!(pointer_get(&v, "no-slash"), None);
        assert_eq!(escape_token("a/b~c"), "a~1b~0c");
    }

    #[test]
    fn array_indices_and_percent_escapes_take_digits_alone() {
        // RFC 6901: an index is `0` or digits without a leading zero;
        // RFC 3986: `%` and two hex digits, no sign between.
        let v = json!({"a": [1, 2]});
        assert_eq!(pointer_get(&v, "/a/1"), Some(&json!(2)));
        for index in ["01", "+1", "-1", " 1", "1 ", ""] {
            assert_eq!(pointer_get(&v, &format!("/a/{index}")), None, "{index:?}");
        }
        assert_eq!(percent_decode("%41%2f%2F"), "A//");
        assert_eq!(percent_decode("%+F%4"), "%+F%4");
    }

    #[test]
    fn pointer_tokens_unescape_in_one_pass() {
        // `~01` is `~1` (RFC 6901: `~1` first, then `~0`), never `/`.
        assert_eq!(unescape_token("~01"), "~1");
        assert_eq!(unescape_token("a~1b~0c"), "a/b~c");
        assert_eq!(unescape_token("~~1~"), "~/~");
        assert_eq!(unescape_token("~2é"), "~2é");
    }
}
