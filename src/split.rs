//! Text split at an ASCII byte, found by byte: `str::split` and
//! `split_once` with a `char` pattern link core's `char` searcher and
//! its iterator into the wasm module, for separators that are all ASCII
//! here (`/`, `#`, `?`, `:`, NUL, space). An ASCII byte never falls inside
//! a character, so each piece is a `str` again.

/// `text` before and after the first `byte`, as `str::split_once`.
pub(crate) fn split_once(text: &str, byte: u8) -> Option<(&str, &str)> {
    let at = text.bytes().position(|b| b == byte)?;
    Some((text.get(..at)?, text.get(at + 1..)?))
}

/// The pieces of `text` between each `byte`, as `str::split`: one more
/// than there are separators, empty ones included.
pub(crate) fn split(text: &str, byte: u8) -> Split<'_> {
    Split {
        rest: Some(text),
        byte,
    }
}

/// The iterator of [`split`].
pub(crate) struct Split<'a> {
    rest: Option<&'a str>,
    byte: u8,
}

impl<'a> Iterator for Split<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        if let Some((piece, after)) = split_once(rest, self.byte) {
            self.rest = Some(after);
            return Some(piece);
        }
        self.rest = None;
        Some(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_those_of_the_standard_library() {
        for text in [
            "",
            "/",
            "a",
            "a/b",
            "/a/",
            "//",
            "é/ü/",
            "a/b/c/d",
            "日本/語",
        ] {
            assert_eq!(
                split(text, b'/').collect::<Vec<_>>(),
                text.split('/').collect::<Vec<_>>(),
                "{text:?}"
            );
            assert_eq!(split_once(text, b'/'), text.split_once('/'), "{text:?}");
        }
    }
}
