//! The linear-time pattern matcher (used for schemas the stream supplies)
//! gives ECMAScript's verdict: random patterns and texts, checked against
//! `regress`, an ECMAScript engine.
#![cfg(not(target_arch = "wasm32"))]

use agui_tool_calls::schema::{LinearEngine, PatternEngine, RegressEngine};
use proptest::prelude::*;

/// Pattern pieces over a small alphabet, so that texts over the same
/// alphabet often match.
fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_owned()),
        Just("b".to_owned()),
        Just(".".to_owned()),
        Just(r"\d".to_owned()),
        Just(r"\w".to_owned()),
        Just(r"\s".to_owned()),
        Just(r"\S".to_owned()),
        Just("[ab]".to_owned()),
        Just("[^a]".to_owned()),
        Just("[a-c1]".to_owned()),
        Just(r"[\d-]".to_owned()),
        Just(r"[\-]".to_owned()),
        Just(r"\u0061".to_owned()),
        Just("^".to_owned()),
        Just("$".to_owned()),
        Just(r"\b".to_owned()),
        Just(r"\B".to_owned()),
    ]
}

fn pattern() -> impl Strategy<Value = String> {
    let quantified = (atom(), 0..8usize).prop_map(|(a, q)| {
        let anchor = matches!(a.as_str(), "^" | "$" | r"\b" | r"\B");
        let q = ["", "", "*", "+", "?", "{2}", "{0,2}", "*?"][if anchor { 0 } else { q }];
        format!("{a}{q}")
    });
    let seq = prop::collection::vec(quantified, 0..4).prop_map(|v| v.concat());
    seq.prop_recursive(3, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| v.concat()),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a}|{b}")),
            (inner.clone(), 0..5usize)
                .prop_map(|(a, q)| { format!("(?:{a}){}", ["", "*", "+", "?", "{1,2}"][q]) }),
            (inner, 0..3usize).prop_map(|(a, q)| format!("({a}){}", ["", "*", "+"][q])),
        ]
    })
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just('a'),
            Just('b'),
            Just('1'),
            Just(' '),
            Just('-'),
            Just('é')
        ],
        0..8,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn s1_linear_matcher_agrees_with_ecmascript(p in pattern(), texts in prop::collection::vec(text(), 4)) {
        let linear = LinearEngine.compile(&p).map_err(|e| TestCaseError::fail(format!("{p}: {e}")))?;
        let reference = RegressEngine.compile(&p).map_err(|e| TestCaseError::fail(format!("{p}: {e}")))?;
        for t in &texts {
            prop_assert_eq!(linear.is_match(t), reference.is_match(t), "/{}/ on {:?}", p, t);
        }
    }
}

#[test]
fn s1_linear_matcher_refuses_what_ecmascript_refuses() {
    for p in ["(", "a{2,1}", "[z-a]", "a**", r"\a", "]", "{", r"\c1"] {
        assert!(RegressEngine.compile(p).is_err(), "regress accepts {p}");
        assert!(LinearEngine.compile(p).is_err(), "{p}");
    }
}
