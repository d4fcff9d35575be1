//! JSON equality as JSON Schema defines it (`1` equals `1.0`), and the
//! number questions the keywords ask.
//!
//! Equality goes through a canonical text: two values are equal exactly when
//! their canonical texts are. That serves `const`, `enum` and, by sorting,
//! `uniqueItems` in O(n log n), and it walks the value with an explicit stack
//! so a deep instance cannot overflow the call stack.

use serde_json::{Number, Value};
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
                // serde_json's map (a B-tree: this crate does not enable
                // `preserve_order`) already iterates in key order; sorting
                // here would link one more sort into the wasm.
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
    if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.2e18 {
        // Integral floats print like the integers they equal.
        let _ = write!(out, "{}", Number::from(f as i64));
    } else {
        // serde_json's own formatting (shortest round-trip), not core's
        // float formatting, which would add kilobytes to the wasm.
        let _ = write!(out, "{n}");
    }
}

/// `f` as JSON writes it.
pub(crate) fn number_text(f: f64) -> String {
    Number::from_f64(f)
        .map(|n| n.to_string())
        .unwrap_or_default()
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
    use serde_json::json;

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
    fn deep_values_do_not_overflow() {
        let mut v = json!(null);
        for _ in 0..100_000 {
            v = Value::Array(vec![v]);
        }
        assert!(canonical(&v).starts_with("[[[["));
        // Dropping a deep Value recurses inside serde_json: unwind it by hand.
        while let Value::Array(mut items) = v {
            v = items.pop().unwrap_or(Value::Null);
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
