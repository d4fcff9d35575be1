//! JSON equality as JSON Schema defines it (`1` equals `1.0`), and the
//! number questions the keywords ask.
//!
//! Equality goes through a canonical text: two values are equal exactly when
//! their canonical texts are. That serves `const`, `enum` and, by sorting,
//! `uniqueItems` in O(n log n), and it walks the value with an explicit stack
//! so a deep instance cannot overflow the call stack.

use crate::value::{Number, Value};
use std::fmt::Write;

/// The canonical text of `value`: object keys sorted, integral numbers
/// written as integers, everything else as JSON.
pub(crate) fn canonical(value: &Value) -> String {
    enum Step<'v> {
        Value(&'v Value),
        Text(&'static str),
        Key(&'v str),
    }
    let mut out = String::new();
    let mut stack = vec![Step::Value(value)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Text(t) => out.push_str(t),
            Step::Key(k) => {
                write_string(&mut out, k);
                out.push(':');
            }
            Step::Value(Value::Array(items)) => {
                out.push('[');
                stack.push(Step::Text("]"));
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push(Step::Value(item));
                    if i > 0 {
                        stack.push(Step::Text(","));
                    }
                }
            }
            Step::Value(Value::Object(map)) => {
                out.push('{');
                stack.push(Step::Text("}"));
                // The map iterates in key order already (`crate::value::Map`).
                for (i, (k, v)) in map.iter().enumerate().rev() {
                    stack.push(Step::Value(v));
                    stack.push(Step::Key(k));
                    if i > 0 {
                        stack.push(Step::Text(","));
                    }
                }
            }
            Step::Value(Value::String(s)) => write_string(&mut out, s),
            Step::Value(Value::Number(n)) => write_number(&mut out, n),
            Step::Value(Value::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
            Step::Value(Value::Null) => out.push_str("null"),
        }
    }
    out
}

fn write_string(out: &mut String, s: &str) {
    // Only needs to be injective, not valid JSON: escape the delimiter and
    // the escape character.
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

fn write_number(out: &mut String, n: &Number) {
    let f = n.as_f64().unwrap_or(f64::NAN);
    let _ = if let Some(i) = n.as_i64() {
        write!(out, "{i}")
    } else if let Some(u) = n.as_u64() {
        write!(out, "{u}")
    } else if f.fract() == 0.0 && f.abs() < 9.2e18 {
        // Integral floats print like the integers they equal.
        write!(out, "{}", f as i64)
    } else {
        // Any other double by its bits: exact, and no float formatting
        // (serde_json's alone is 2 KB of the page).
        write!(out, "f{}", f.to_bits())
    };
}

/// `f` as JavaScript's `String(f)` writes it, for messages: the shortest
/// decimal that reads back as `f`, positional from 1e-6 up to 1e21 and
/// exponential beyond (`0.1`, `0.0000015`, `1.5e-7`, `1e+21`).
///
/// Found by trying 1 to 17 significant digits, each read back as the
/// tracker reads numbers (`crate::number`, the host's `Number` in the wasm
/// module), not by a float formatter: `serde_json`'s and `core`'s each add
/// about 2 KB gzip to the page. Digits come from `f64` arithmetic, exact up
/// to 15 digits; at 16 and 17 they walk towards `f` as the candidates read
/// back.
///
/// In the wasm module, the host's `String(f)` itself (`crate::number`):
/// this search is not linked there.
#[cfg(target_arch = "wasm32")]
pub(crate) fn number_text(f: f64) -> String {
    crate::number::write(f)
}

/// (Native builds: the search, read back by `crate::number::float`.)
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn number_text(f: f64) -> String {
    // Below 2^53 every integer is a double, and its digits are its text.
    if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
        return (f as i64).to_string();
    }
    if !f.is_finite() {
        return String::new();
    }
    let abs = f.abs();
    // The decimal exponent of the first significant digit: a guess that
    // may be one off near a power of ten; `digits_text` corrects it.
    let mut exp = 0i32;
    let mut rest = abs;
    while rest >= 10.0 {
        rest /= 10.0;
        exp += 1;
    }
    while rest < 1.0 {
        rest *= 10.0;
        exp -= 1;
    }
    let read = |text: &str| Some(crate::number::float(text)).filter(|f| f.is_finite());
    // Should a reader not be correctly rounded, a few doubles would be
    // read from no 17-digit text: those are written with the 17 digits the
    // scaling gives.
    let mut nearest = String::new();
    for p in 1..=17i32 {
        // `abs` scaled to `p` digits before the point, rounded.
        let shift = p - 1 - exp;
        // In two steps: 10^shift alone overflows for the smallest doubles.
        let scaled = if shift >= 0 {
            abs * 10f64.powi(shift / 2) * 10f64.powi(shift - shift / 2)
        } else {
            abs / 10f64.powi(-shift)
        };
        let mut digits = scaled.round() as u64;
        // Up to 15 digits the scaling is exact enough; past them it may be
        // some units off, so the candidate walks towards `f` as it reads.
        let steps = if p < 16 { 1 } else { 64 };
        let mut previous = None;
        nearest = digits_text(f < 0.0, digits, p, exp);
        for _ in 0..steps {
            let text = digits_text(f < 0.0, digits, p, exp);
            let Some(back) = read(&text) else { break };
            if back.to_bits() == f.to_bits() {
                return text;
            }
            let up = (back < f) != (f < 0.0);
            if previous == Some(!up) {
                break;
            }
            previous = Some(up);
            digits = if up {
                digits.saturating_add(1)
            } else {
                digits.saturating_sub(1)
            };
        }
    }
    nearest
}

/// `-`? then `digits`, taken as `p` significant digits whose first stands
/// at 10^`e` (one more digit, from rounding up, moves it to 10^(e+1)), as
/// JavaScript writes a number.
#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::cast_possible_wrap)] // a u64 has at most 20 digits
fn digits_text(negative: bool, digits: u64, p: i32, e: i32) -> String {
    let mut d = digits.to_string();
    let e = e + d.len() as i32 - p;
    // ASCII digits: a byte search (a `char` pattern links a searcher).
    let kept = d.bytes().rposition(|b| b != b'0').map_or(1, |i| i + 1);
    d.truncate(kept);
    let mut out = String::from(if negative { "-" } else { "" });
    let len = d.len() as i32;
    if (-6..21).contains(&e) {
        if e < 0 {
            out.push_str("0.");
            (0..-e - 1).for_each(|_| out.push('0'));
            out.push_str(&d);
        } else if e + 1 >= len {
            out.push_str(&d);
            (0..e + 1 - len).for_each(|_| out.push('0'));
        } else {
            let (int, frac) = d.split_at(e as usize + 1);
            out.push_str(int);
            out.push('.');
            out.push_str(frac);
        }
    } else {
        let (first, rest) = d.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let _ = write!(out, "e{}{e}", if e > 0 { "+" } else { "" });
    }
    out
}

/// Whether `n` has no fractional part (so `1.0` is an integer).
pub(crate) fn is_integer(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Whether `n` is a multiple of `m` (`m` > 0).
pub(crate) fn is_multiple_of(n: &Number, m: f64) -> bool {
    if let (Some(a), true) = (n.as_i64(), m.fract() == 0.0 && m.abs() < 9.2e18) {
        return a % (m as i64) == 0;
    }
    let q = n.as_f64().unwrap_or(f64::NAN) / m;
    if !q.is_finite() {
        return false;
    }
    // Decimal fractions are inexact in binary (0.0075 / 0.0001 is
    // 74.99999999999999), so allow a rounding error relative to the quotient.
    (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_numbers_share_a_text() {
        assert_eq!(canonical(&json!(1)), canonical(&json!(1.0)));
        assert_eq!(
            canonical(&json!({"b": [1, {"x": -2.0}], "a": "s"})),
            canonical(&json!({"a": "s", "b": [1.0, {"x": -2}]}))
        );
        assert_ne!(canonical(&json!(1)), canonical(&json!(true)));
        assert_ne!(canonical(&json!("a\",\"b")), canonical(&json!(["a", "b"])));
        assert_ne!(canonical(&json!(0.5)), canonical(&json!(0.25)));
    }

    #[test]
    fn an_object_is_written_in_key_order() {
        assert_eq!(
            canonical(&json!({"b": "x", "a": [true, null], "c": {}, "d": {"z": false, "y": "w"}})),
            r#"{"a":[true,null],"b":"x","c":{},"d":{"y":"w","z":false}}"#
        );
    }

    #[test]
    fn deep_values_do_not_overflow() {
        let mut v = json!(null);
        for _ in 0..100_000 {
            v = Value::Array(vec![v]);
        }
        assert!(canonical(&v).starts_with("[[[["));
        // Dropping a deep Value recurses: unwind it by hand.
        while let Value::Array(mut items) = v {
            v = items.pop().unwrap_or(Value::Null);
        }
    }

    #[test]
    fn numbers_read_as_javascript_writes_them() {
        for (f, text) in [
            (0.1, "0.1"),
            (-0.1, "-0.1"),
            (0.3, "0.3"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1.5e-7, "1.5e-7"),
            (1e-7, "1e-7"),
            (1.5e-6, "0.0000015"),
            (123.456, "123.456"),
            (1e21, "1e+21"),
            (1.2345e21, "1.2345e+21"),
            (9.3e18, "9300000000000000000"),
            (5e-324, "5e-324"),
            (42.0, "42"),
            (-7.0, "-7"),
            (2.0f64.powi(60), "1152921504606847000"),
            (1e23, "1e+23"),
            (0.000_001, "0.000001"),
            (1.0 / 3.0, "0.3333333333333333"),
        ] {
            assert_eq!(number_text(f), text, "{f:e}");
        }
        // What the tracker prints is a number it read (from an argument or
        // a schema, correctly rounded: `crate::number`). The text reads back
        // as the number, in at most 17 digits; where the digits are exact
        // (up to 15 of them, a power of ten up to 22 away, below 10^15,
        // where JavaScript's positional form stays within 15 digits too) in
        // at most as many digits as it was written with. Random texts of 1
        // to 17 digits, every exponent.
        let read = |t: &str| Some(crate::number::float(t));
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for f in [f64::MAX, f64::MIN_POSITIVE, -f64::MAX] {
            assert_eq!(read(&number_text(f)), Some(f));
        }
        for _ in 0..20_000 {
            let len = (next() % 17 + 1) as usize;
            let mantissa: String = (0..len)
                .map(|i| {
                    char::from(b'0' + (next() % 10) as u8 + u8::from(i == 0 && next() % 10 == 0))
                })
                .collect();
            let mantissa = mantissa.replace(':', "9");
            let exponent = (next() % 600) as i32 - 320;
            let sign = if next() % 2 == 0 { "-" } else { "" };
            let written = format!("{sign}{mantissa}e{exponent}");
            let Some(f) = read(&written).filter(|f| *f != 0.0) else {
                continue;
            };
            let text = number_text(f);
            // Significant digits: neither the sign, the point, nor leading
            // or trailing zeros.
            let digits = |t: &str| {
                t.split('e')
                    .next()
                    .unwrap()
                    .replace(['-', '.'], "")
                    .trim_matches('0')
                    .len()
            };
            assert_eq!(read(&text), Some(f), "{written} as {text}");
            assert!(digits(&text) <= 17, "{written} as {text}");
            if len <= 15 && (-22..=22).contains(&exponent) && f.abs() < 1e15 {
                assert!(digits(&text) <= len, "{written} as {text}");
            }
        }
    }

    #[test]
    fn multiples_tolerate_decimal_rounding() {
        let n = |v: Value| v.as_number().cloned().unwrap();
        assert!(is_multiple_of(&n(json!(0.0075)), 0.0001));
        assert!(!is_multiple_of(&n(json!(0.00751)), 0.0001));
        assert!(is_multiple_of(&n(json!(10)), 2.0));
        assert!(!is_multiple_of(&n(json!(7)), 2.0));
        assert!(!is_multiple_of(&n(json!(1e308)), 0.123456789));
        assert!(is_integer(&n(json!(1.0))));
        assert!(!is_integer(&n(json!(1.5))));
    }
}
