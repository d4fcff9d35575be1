//! Named cases of the argument reader: the partial values users hit, the
//! final parse, reopening and the limits.

use agui_tool_calls::args::{ArgsErrorKind, ArgsLimits, ArgsReader, MAX_DEPTH_CEILING};
use serde_json::{json, Value};

fn reader() -> ArgsReader {
    ArgsReader::new(ArgsLimits::default())
}

/// The partial value after each delta (`None` = nothing usable yet).
fn partials_after(deltas: &[&str]) -> Vec<Option<Value>> {
    let mut args = reader();
    deltas
        .iter()
        .map(|d| {
            args.push(d).unwrap();
            args.partial_json()
                .map(|j| serde_json::from_str(&j).unwrap())
        })
        .collect()
}

fn fed(deltas: &[&str]) -> ArgsReader {
    let mut args = reader();
    for d in deltas {
        args.push(d).unwrap();
    }
    args
}

#[test]
fn t5_lone_minus_is_withheld_and_keeps_the_object() {
    let shown = partials_after(&[r#"{"a":1,"b":"#, "-", "2", ","]);
    assert_eq!(
        shown,
        vec![
            Some(json!({"a": 1})),
            Some(json!({"a": 1})),
            Some(json!({"a": 1})),
            Some(json!({"a": 1, "b": -2})),
        ]
    );
}

#[test]
fn t5_split_unicode_escape_never_shows_half_an_escape() {
    let shown = partials_after(&[r#"{"s":"caf"#, r"\", "u00", "e", "9", r#"!"}"#]);
    let s = |v: &str| Some(json!({ "s": v }));
    assert_eq!(
        shown,
        vec![
            s("caf"),
            s("caf"),
            s("caf"),
            s("caf"),
            s("café"),
            s("café!")
        ]
    );
}

#[test]
fn t5_split_surrogate_pair_waits_for_its_low_half() {
    let shown = partials_after(&[r#"["x"#, r"\ud83d", r"\", "u", "de0", "0", r#"y"]"#]);
    let a = |v: &str| Some(json!([v]));
    assert_eq!(
        shown,
        vec![a("x"), a("x"), a("x"), a("x"), a("x"), a("x😀"), a("x😀y")]
    );
}

#[test]
fn t5_unfinished_numbers_are_withheld() {
    for unfinished in ["1.", "1e", "1e+", "-", "12", "0", "-0.5", "3E7"] {
        let args = fed(&[r#"{"k":true,"n":"#, unfinished]);
        assert_eq!(
            args.partial_json().as_deref(),
            Some(r#"{"k":true}"#),
            "{unfinished}"
        );
    }
    // Whitespace or a delimiter ends a number; it is shown from then on.
    assert_eq!(fed(&["[1.5e3 "]).partial_json().as_deref(), Some("[1.5e3]"));
    assert_eq!(fed(&["[-0,"]).partial_json().as_deref(), Some("[-0]"));
}

#[test]
fn t5_literals_are_shown_only_when_complete() {
    let shown = partials_after(&[r#"{"ok":t"#, "r", "u", "e", r#","n":nul"#, "l"]);
    assert_eq!(shown[..3], vec![Some(json!({})); 3]);
    assert_eq!(shown[3], Some(json!({"ok": true})));
    assert_eq!(shown[4], Some(json!({"ok": true})));
    assert_eq!(shown[5], Some(json!({"ok": true, "n": null})));
}

#[test]
fn t5_keys_without_values_and_trailing_commas_are_left_out() {
    let shown = partials_after(&[
        r#"{"a":"x""#,
        ",",
        r#""b"#,
        r#"":"#,
        " ",
        "[",
        "1,",
        "2",
        "]",
    ]);
    assert_eq!(shown[..5], vec![Some(json!({"a": "x"})); 5]);
    assert_eq!(shown[5], Some(json!({"a": "x", "b": []})));
    assert_eq!(shown[6], Some(json!({"a": "x", "b": [1]})));
    // `2` may still grow: withheld until the `]` ends it.
    assert_eq!(shown[7], Some(json!({"a": "x", "b": [1]})));
    assert_eq!(shown[8], Some(json!({"a": "x", "b": [1, 2]})));
}

#[test]
fn t5_empty_object_and_open_containers_are_shown_closed() {
    assert_eq!(fed(&["{"]).partial_json().as_deref(), Some("{}"));
    assert_eq!(fed(&["{}"]).partial_json().as_deref(), Some("{}"));
    assert_eq!(fed(&["{}"]).finish().unwrap(), json!({}));
    assert_eq!(
        fed(&[r#"{"a":[{"b":{"#]).partial_json().as_deref(),
        Some(r#"{"a":[{"b":{}}]}"#)
    );
}

#[test]
fn t5_top_level_values_other_than_objects() {
    assert_eq!(
        fed(&[r#""hel"#]).partial_json().as_deref(),
        Some(r#""hel""#)
    );
    assert_eq!(fed(&["[tr"]).partial_json().as_deref(), Some("[]"));
    // A top-level number in progress is nothing usable yet.
    assert_eq!(fed(&["42"]).partial(), None);
    assert_eq!(fed(&["42 "]).partial_json().as_deref(), Some("42"));
    assert_eq!(fed(&[r#""x""#]).finish().unwrap(), json!("x"));
    assert_eq!(fed(&["42"]).finish().unwrap(), json!(42));
    assert_eq!(fed(&["[1,2]"]).finish().unwrap(), json!([1, 2]));
    assert_eq!(fed(&[" null "]).finish().unwrap(), Value::Null);
}

#[test]
fn t5_whitespace_only_text_has_no_partial_value() {
    let args = fed(&["", " ", "\n\t", "\r\n"]);
    assert_eq!(args.partial(), None);
    assert_eq!(args.text(), " \n\t\r\n");
    let err = args.finish().unwrap_err();
    assert_eq!(err.kind, ArgsErrorKind::Parse);
    assert_eq!(err.position, Some(5));
}

#[test]
fn t5_cut_utf16_counts_emoji_as_two_units() {
    let args = fed(&[r#"{"e":"😀é"#, r#"","#, r#""x"#]);
    let p = args.partial().unwrap();
    assert_eq!(&args.text()[..p.cut], r#"{"e":"😀é""#);
    assert_eq!(p.cut_utf16, 10);
    assert_eq!(p.suffix, "}");
}

#[test]
fn t4_text_is_the_exact_concatenation_with_empty_deltas() {
    let deltas = ["", "{\"a\"", "", " : ", "", "1", "}", ""];
    let mut args = reader();
    let mut before = None;
    for d in deltas {
        let was = args.partial();
        args.push(d).unwrap();
        if d.is_empty() {
            assert_eq!(args.partial(), was, "an empty delta changes nothing");
        }
        before = Some(args.partial());
    }
    assert_eq!(args.text(), deltas.concat());
    assert_eq!(before.flatten().map(|p| p.cut), Some(args.text().len()));
}

#[test]
fn t4_text_that_is_not_json_is_kept() {
    let args = fed(&["not ", "json {"]);
    assert_eq!(args.text(), "not json {");
}

#[test]
fn t6_syntax_error_is_reported_at_its_byte_and_freezes_the_partial() {
    let mut args = fed(&[r#"{"a":1,"#]);
    args.push("}").unwrap();
    assert_eq!(args.partial_json().as_deref(), Some(r#"{"a":1}"#));
    args.push(r#""b":2}"#).unwrap();
    assert_eq!(args.text(), r#"{"a":1,}"b":2}"#);
    assert_eq!(args.partial_json().as_deref(), Some(r#"{"a":1}"#));
    let err = args.finish().unwrap_err();
    assert_eq!(err.kind, ArgsErrorKind::Parse);
    assert_eq!(err.position, Some(7));
    assert!(
        err.message.contains("expected a string key"),
        "{}",
        err.message
    );
    assert_eq!(args.syntax_error(), Some(err));
    assert_eq!(args.limit_error(), None);
}

#[test]
fn t6_incomplete_text_is_a_parse_error_at_its_end() {
    let err = fed(&[r#"{"a":[1"#]).finish().unwrap_err();
    assert_eq!(err.kind, ArgsErrorKind::Parse);
    assert_eq!(err.position, Some(7));
}

#[test]
fn t6_unpaired_surrogates_and_control_characters_are_refused() {
    for text in [
        r#""\udc00""#,
        r#""\ud800""#,
        r#""\ud800\u0041""#,
        r#""\ud800\ud800""#,
        "\"a\u{1}\"",
        r#""\x""#,
    ] {
        let args = fed(&[text]);
        assert!(serde_json::from_str::<Value>(text).is_err(), "{text}");
        assert_eq!(args.finish().unwrap_err().kind, ArgsErrorKind::Parse);
        assert!(args.syntax_error().is_some(), "{text}");
    }
}

#[test]
fn t6_numbers_out_of_range_are_refused_like_serde_json() {
    for text in ["1e400", "[-1e309]", "[1e400,2]"] {
        assert!(serde_json::from_str::<Value>(text).is_err(), "{text}");
        let args = fed(&[text]);
        assert_eq!(
            args.finish().unwrap_err().kind,
            ArgsErrorKind::Parse,
            "{text}"
        );
    }
    assert_eq!(fed(&["[1e-400]"]).finish().unwrap(), json!([0.0]));
    // The partial never shows a number the final parse would refuse.
    assert_eq!(fed(&["[1e400,"]).partial_json().as_deref(), Some("[]"));
}

#[test]
fn t7_reopen_appends_to_the_text_even_when_it_breaks_json() {
    let mut args = fed(&[r#"{"a":1}"#]);
    assert_eq!(args.finish().unwrap(), json!({"a": 1}));
    args.push(r#"{"b":2}"#).unwrap();
    assert_eq!(args.text(), r#"{"a":1}{"b":2}"#);
    let err = args.finish().unwrap_err();
    assert_eq!(err.kind, ArgsErrorKind::Parse);
    assert_eq!(err.position, Some(7));
    assert_eq!(args.partial_json().as_deref(), Some(r#"{"a":1}"#));
}

#[test]
fn t7_reopen_continues_where_the_text_stopped() {
    let mut args = fed(&[r#"{"a":"x"#]);
    assert!(args.finish().is_err());
    args.push(r#"y"}"#).unwrap();
    assert_eq!(args.finish().unwrap(), json!({"a": "xy"}));
    let mut n = fed(&["12"]);
    assert_eq!(n.finish().unwrap(), json!(12));
    n.push("3").unwrap();
    assert_eq!(n.finish().unwrap(), json!(123));
}

#[test]
fn s5_hundred_thousand_brackets_hit_the_depth_limit_without_overflow() {
    let deep = "[".repeat(100_000);
    let mut whole = reader();
    whole.push(&deep).unwrap();
    let mut one_by_one = reader();
    for _ in 0..100_000 {
        one_by_one.push("[").unwrap();
    }
    for args in [whole, one_by_one] {
        assert_eq!(args.text().len(), 100_000);
        let err = args.finish().unwrap_err();
        assert_eq!(err.kind, ArgsErrorKind::Limit);
        assert_eq!(err.position, Some(64));
        assert_eq!(args.limit_error(), Some(err));
        let partial = args.partial_json().unwrap();
        assert_eq!(partial.len(), 128);
        assert!(serde_json::from_str::<Value>(&partial).is_ok());
    }
}

#[test]
fn s5_depth_limit_counts_levels_exactly() {
    let limits = ArgsLimits {
        max_depth: 2,
        ..ArgsLimits::default()
    };
    let mut ok = ArgsReader::new(limits);
    ok.push(r#"[{"a":1}]"#).unwrap();
    assert_eq!(ok.finish().unwrap(), json!([{"a": 1}]));
    let mut deep = ArgsReader::new(limits);
    deep.push("[[[1]]]").unwrap();
    let err = deep.finish().unwrap_err();
    assert_eq!((err.kind, err.position), (ArgsErrorKind::Limit, Some(2)));
    assert!(err.message.contains("2 levels"), "{}", err.message);
}

#[test]
fn s5_depth_above_the_ceiling_acts_as_the_ceiling() {
    let limits = ArgsLimits {
        max_depth: 10_000,
        ..ArgsLimits::default()
    };
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let mut ok = ArgsReader::new(limits);
    ok.push(&nested(MAX_DEPTH_CEILING)).unwrap();
    let expected: Value = serde_json::from_str(&nested(MAX_DEPTH_CEILING)).unwrap();
    assert_eq!(ok.finish().unwrap(), expected);
    let mut deep = ArgsReader::new(limits);
    deep.push(&nested(MAX_DEPTH_CEILING + 1)).unwrap();
    assert_eq!(deep.finish().unwrap_err().kind, ArgsErrorKind::Limit);
}

#[test]
fn s5_byte_limit_refuses_the_delta_and_every_later_one() {
    let limits = ArgsLimits {
        max_bytes: 10,
        ..ArgsLimits::default()
    };
    let mut args = ArgsReader::new(limits);
    args.push(r#"{"a":"#).unwrap();
    args.push(r#""xyz"#).unwrap();
    let err = args.push(r#"w"}"#).unwrap_err();
    assert_eq!(err.kind, ArgsErrorKind::Limit);
    assert_eq!(err.position, Some(9));
    assert_eq!(args.text(), r#"{"a":"xyz"#);
    // A later delta that would fit is refused too: the text has a hole.
    assert_eq!(args.push("}").unwrap_err(), err);
    assert_eq!(args.push(""), Ok(()));
    assert_eq!(args.text(), r#"{"a":"xyz"#);
    assert_eq!(args.partial_json().as_deref(), Some(r#"{"a":"xyz"}"#));
    assert_eq!(args.limit_error(), Some(err.clone()));
    assert_eq!(args.finish().unwrap_err(), err);
}

#[test]
fn s5_text_up_to_the_byte_limit_is_accepted() {
    let limits = ArgsLimits {
        max_bytes: 7,
        ..ArgsLimits::default()
    };
    let mut args = ArgsReader::new(limits);
    args.push(r#"{"a":1}"#).unwrap();
    assert_eq!(args.finish().unwrap(), json!({"a": 1}));
}
