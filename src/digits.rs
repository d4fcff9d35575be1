//! Digits read by hand: the hex of JSON's `\uXXXX` and a URI's `%XX`
//! escapes, and the decimal whole numbers of saved threads and JSON
//! Pointer indices. The standard library's `from_str_radix` and integer
//! `parse`, which also take a sign and any radix, cost the wasm module
//! more, one copy per integer type.

/// The value of one hex digit, either case.
pub(crate) fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The value of up to four hex digits; `None` if any byte is not one.
pub(crate) fn hex_value(digits: &[u8]) -> Option<u16> {
    let mut value = 0u16;
    for &b in digits {
        value = value << 4 | u16::from(hex_digit(b)?);
    }
    Some(value)
}

/// A whole number written in decimal digits alone (no sign), as JSON and
/// JSON Pointer write one: no leading zero but in `0` itself; `None` for
/// anything else, or past `u64::MAX`.
pub(crate) fn decimal(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || (bytes[0] == b'0' && bytes.len() > 1) {
        return None;
    }
    let mut value = 0u64;
    for &b in bytes {
        if !b.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_reads_as_the_standard_library_reads_one_hex_digit() {
        for b in 0..=u8::MAX {
            let expected = char::from(b)
                .to_digit(16)
                .and_then(|d| u8::try_from(d).ok());
            assert_eq!(hex_digit(b), expected, "{b:#04x}");
        }
        assert_eq!(hex_value(b"00e9"), Some(0xE9));
        assert_eq!(hex_value(b"DFFF"), Some(0xDFFF));
        assert_eq!(hex_value(b"+0e9"), None, "no sign, unlike from_str_radix");
        assert_eq!(hex_value(b"0g00"), None);
    }

    #[test]
    fn decimals_are_digits_alone_without_leading_zeros() {
        for (text, value) in [
            ("0", Some(0)),
            ("7", Some(7)),
            ("1024", Some(1024)),
            ("18446744073709551615", Some(u64::MAX)),
            ("18446744073709551616", None),
            ("", None),
            ("01", None),
            ("+1", None),
            ("-1", None),
            ("1.0", None),
            ("1e3", None),
            (" 1", None),
        ] {
            assert_eq!(decimal(text), value, "{text:?}");
        }
    }
}
