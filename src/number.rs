//! JSON numbers read as JavaScript reads them: a double, correctly rounded
//! (`JSON.parse`, `Number(text)`), and an integer kept exact where
//! `serde_json` keeps one (within `u64`, or `i64` when negative).
//!
//! The wasm module links no float parser for it: the binding
//! (`wasm::host`) hands over the host's `Number` (`set_float_reader`),
//! which reads a number as the application's own JavaScript does. Native builds read with the standard
//! library's parser, correctly rounded too. `serde_json`'s parser, used
//! before, is not correctly rounded, and its table of powers of ten alone
//! was 2.5 KB of the module.

use serde_json::Number;
use std::sync::OnceLock;

/// What reads a JSON number's text as a double (`NaN` for none).
pub(crate) type FloatReader = fn(&str) -> f64;

static READER: OnceLock<FloatReader> = OnceLock::new();

/// Makes `reader` the one every tracker reads numbers with, from now on
/// (the first call wins; later ones change nothing). The wasm binding
/// calls it with the host's `Number` before it makes a tracker: the
/// module has no float parser of its own.
#[cfg(target_arch = "wasm32")]
pub(crate) fn set_float_reader(reader: FloatReader) {
    let _ = READER.set(reader);
}

/// What writes a double as JavaScript's `String(f)` does.
#[cfg(target_arch = "wasm32")]
pub(crate) type FloatWriter = fn(f64) -> String;

#[cfg(target_arch = "wasm32")]
static WRITER: OnceLock<FloatWriter> = OnceLock::new();

/// Makes `writer` the one messages write numbers with (the first call
/// wins), as `set_float_reader` does for reading: in the wasm module, the
/// host's `String`.
#[cfg(target_arch = "wasm32")]
pub(crate) fn set_float_writer(writer: FloatWriter) {
    let _ = WRITER.set(writer);
}

/// `f` as JavaScript's `String(f)` writes it (`schema::value::number_text`
/// in native builds); empty before the binding installs the host's.
#[cfg(target_arch = "wasm32")]
pub(crate) fn write(f: f64) -> String {
    WRITER.get().map(|w| w(f)).unwrap_or_default()
}

/// The double the checked JSON number `text` reads as (infinite past
/// `f64`'s range, as in JavaScript).
pub(crate) fn float(text: &str) -> f64 {
    READER
        .get()
        .map_or_else(|| default_reader(text), |read| read(text))
}

#[cfg(not(target_arch = "wasm32"))]
fn default_reader(text: &str) -> f64 {
    text.parse().unwrap_or(f64::NAN)
}

/// No reader installed: the binding always installs the host's first.
#[cfg(target_arch = "wasm32")]
fn default_reader(_: &str) -> f64 {
    f64::NAN
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
