//! JSON numbers read as JavaScript reads them: a double, correctly rounded
//! (`JSON.parse`, `Number(text)`), and an integer kept exact where
//! `serde_json` keeps one (within `u64`, or `i64` when negative).
//!
//! The wasm module links no float parser for it: the binding installs the
//! host's `Number` (`crate::host`), which reads a number as the
//! application's own JavaScript does. Native builds read with the standard
//! library's parser, correctly rounded too. `serde_json`'s parser, used
//! before, is not correctly rounded, and its table of powers of ten alone
//! was 2.5 KB of the module.

use serde_json::Number;

/// The double the checked JSON number `text` reads as (infinite past
/// `f64`'s range, as in JavaScript).
pub(crate) fn float(text: &str) -> f64 {
    crate::host::get().map_or_else(|| default_reader(text), |host| (host.read_float)(text))
}

#[cfg(not(target_arch = "wasm32"))]
fn default_reader(text: &str) -> f64 {
    text.parse().unwrap_or(f64::NAN)
}

/// No host installed: the binding always installs it first.
#[cfg(target_arch = "wasm32")]
fn default_reader(_: &str) -> f64 {
    f64::NAN
}

/// `f` as JavaScript's `String(f)` writes it, by the host
/// (`schema::value::number_text` in native builds); empty before the
/// binding installs it.
#[cfg(target_arch = "wasm32")]
pub(crate) fn write(f: f64) -> String {
    crate::host::get()
        .map(|host| (host.write_float)(f))
        .unwrap_or_default()
}

/// Whether the checked JSON number `text` is within `f64`'s range.
/// Without an exponent, in at most 308 characters, it is below 10^308
/// (`f64::MAX` is about 1.8e308), so only an exponent's form is read: in
/// the wasm module, a call to the host.
pub(crate) fn finite(text: &str) -> bool {
    (text.len() <= 308 && !text.bytes().any(|b| matches!(b, b'e' | b'E')))
        || float(text).is_finite()
}

/// The checked JSON number `text` as a `serde_json` number: an integer
/// within `u64` (or, negative, `i64`) exactly, anything else (`-0`, a
/// fraction, an exponent, a larger integer) as its double; `None` when the
/// double is not finite (`1e400`).
pub(crate) fn number(text: &str) -> Option<Number> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    match crate::digits::decimal(digits) {
        Some(n) if !negative => return Some(Number::from(n)),
        // `-0` stays a double, as serde_json and JavaScript keep its sign.
        Some(n) if n != 0 => {
            if let Some(i) = 0i64.checked_sub_unsigned(n) {
                return Some(Number::from(i));
            }
        }
        _ => {}
    }
    Number::from_f64(float(text))
}

#[cfg(test)]
mod tests {
    use super::number;
    use serde_json::Number;

    // The tests' serde_json reads with `float_roundtrip`: correctly rounded.
    #[test]
    fn integers_stay_exact_and_the_rest_reads_as_serde_json_reads_it() {
        let cases = [
            "0",
            "-0",
            "7",
            "-7",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1.5",
            "-1.5e3",
            "1e2",
            "1E-2",
            "0.1",
            "123456789012345678901234567890",
            "2.2250738585072014e-308",
            "1.7976931348623157e308",
            "5e-324",
        ];
        for text in cases {
            let theirs: Number = text.parse().unwrap();
            let ours = number(text).unwrap();
            assert_eq!(ours, theirs, "{text}");
            assert_eq!(
                (ours.is_u64(), ours.is_i64(), ours.is_f64()),
                (theirs.is_u64(), theirs.is_i64(), theirs.is_f64()),
                "{text}"
            );
            if let (Some(a), Some(b)) = (ours.as_f64(), theirs.as_f64()) {
                assert_eq!(a.to_bits(), b.to_bits(), "{text}");
            }
        }
    }

    #[test]
    fn out_of_range_is_none_as_for_serde_json() {
        for text in ["1e400", "-1e400", "1e309"] {
            assert!(number(text).is_none(), "{text}");
            assert!(text.parse::<Number>().is_err(), "{text}");
        }
        // Below the smallest double: zero, as in JavaScript.
        assert_eq!(number("1e-400").unwrap().as_f64(), Some(0.0));
    }

    #[test]
    fn doubles_are_correctly_rounded_as_javascript_reads_them() {
        // Where serde_json's default parser is one unit off; `Number(text)`
        // and `JSON.parse` give the nearest double.
        let text = "9007199254740993.0000000001";
        assert_eq!(
            number(text).unwrap().as_f64(),
            Some(9_007_199_254_740_994.0)
        );
    }
}
