//! Property tests of the argument reader: random JSON documents, written
//! with random escapes and whitespace, fed in random deltas.

use agui_tool_calls::args::{ArgsLimits, ArgsReader, PathStep};
use proptest::prelude::*;
use serde_json::Value;

/// A JSON document to write out; numbers are kept as text so every number
/// form (signs, fractions, exponents) appears.
#[derive(Clone, Debug)]
enum Node {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Node>),
    Obj(Vec<(String, Node)>),
}

/// A small deterministic generator, seeded by proptest, for the writer's
/// and the splitter's choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn string_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => proptest::char::range('a', 'z'),
        2 => prop::sample::select(vec![
            '"', '\\', '/', '\n', '\t', '\r', '\u{1}', '\u{1f}', '\u{7f}', ' ', 'é', '中',
            '\u{2028}', '😀', '🎉', '\u{10FFFF}', '\u{FFFF}',
        ]),
    ]
}

fn string() -> impl Strategy<Value = String> {
    prop::collection::vec(string_char(), 0..6).prop_map(String::from_iter)
}

fn number() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop_oneof![Just("0".to_string()), "[1-9][0-9]{0,5}"],
        prop::option::of("[0-9]{1,4}"),
        prop::option::of(("[eE]", "[+-]?", "[0-9]{1,2}")),
    )
        .prop_map(|(neg, int, frac, exp)| {
            let mut s = String::new();
            if neg {
                s.push('-');
            }
            s.push_str(&int);
            if let Some(f) = frac {
                s.push('.');
                s.push_str(&f);
            }
            if let Some((e, sign, digits)) = exp {
                s.push_str(&e);
                s.push_str(&sign);
                s.push_str(&digits);
            }
            s
        })
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        Just(Node::Null),
        any::<bool>().prop_map(Node::Bool),
        number().prop_map(Node::Num),
        string().prop_map(Node::Str),
    ];
    leaf.prop_recursive(4, 20, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Node::Arr),
            prop::collection::vec((string(), inner), 0..4).prop_map(|mut members| {
                // Duplicate keys would let a later member replace an earlier
                // one, which no partial value can foresee.
                let mut seen = std::collections::HashSet::new();
                members.retain(|(k, _)| seen.insert(k.clone()));
                Node::Obj(members)
            }),
        ]
    })
}

fn write_ws(rng: &mut Rng, out: &mut String) {
    const WS: [&str; 6] = ["", "", "", " ", "\n  ", "\t\r\n"];
    out.push_str(WS[rng.below(WS.len())]);
}

fn write_unit(unit: u32, rng: &mut Rng, out: &mut String) {
    if rng.below(2) == 0 {
        out.push_str(&format!("\\u{unit:04x}"));
    } else {
        out.push_str(&format!("\\u{unit:04X}"));
    }
}

fn write_str(s: &str, rng: &mut Rng, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' if rng.below(2) == 0 => out.push_str("\\n"),
            '\t' if rng.below(2) == 0 => out.push_str("\\t"),
            '\r' if rng.below(2) == 0 => out.push_str("\\r"),
            '/' if rng.below(2) == 0 => out.push_str("\\/"),
            c if (c as u32) < 0x20 => write_unit(c as u32, rng, out),
            c if rng.below(3) == 0 => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write_unit(u32::from(*unit), rng, out);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Writes `node` with random whitespace and escapes. Recursion is bounded by
/// the generator's depth.
fn write(node: &Node, rng: &mut Rng, out: &mut String) {
    write_ws(rng, out);
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Num(n) => out.push_str(n),
        Node::Str(s) => write_str(s, rng, out),
        Node::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, rng, out);
            }
            write_ws(rng, out);
            out.push(']');
        }
        Node::Obj(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_ws(rng, out);
                write_str(k, rng, out);
                write_ws(rng, out);
                out.push(':');
                write(v, rng, out);
            }
            write_ws(rng, out);
            out.push('}');
        }
    }
    write_ws(rng, out);
}

/// Splits `text` into deltas at char boundaries: one char each, a few chars
/// each, or random sizes including empty deltas.
fn split(text: &str, rng: &mut Rng) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mode = rng.below(3);
    let mut deltas = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let n = match mode {
            0 => 1,
            1 => 1 + rng.below(4),
            _ => rng.below(12),
        };
        let end = (i + n).min(chars.len());
        deltas.push(chars[i..end].iter().collect());
        i = end;
    }
    deltas
}

fn document() -> impl Strategy<Value = (String, Vec<String>)> {
    (node(), any::<u64>()).prop_map(|(node, seed)| {
        let mut rng = Rng(seed | 1);
        let mut text = String::new();
        write(&node, &mut rng, &mut text);
        let deltas = split(&text, &mut rng);
        (text, deltas)
    })
}

/// Text that is mostly not JSON: JSON-ish tokens in random order, or a
/// valid document with one character changed.
fn noise() -> impl Strategy<Value = (String, Vec<String>)> {
    let token = prop::sample::select(vec![
        "{", "}", "[", "]", "\"", ":", ",", "\\", "u", "d83d", "dc00", "D800", "0041", "0", "1",
        "-", ".", "e", "E", "+", "true", "tr", "null", "f", " ", "\n", "é", "😀", "\u{1}", "\"a\"",
        "1e400", "x", "\\u", "\\n",
    ]);
    let tokens = prop::collection::vec(token, 0..24).prop_map(|t| t.concat());
    let mutated = (document(), any::<u64>(), any::<char>()).prop_map(|((text, _), seed, c)| {
        let mut rng = Rng(seed | 1);
        let mut chars: Vec<char> = text.chars().collect();
        let at = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => chars[at] = c,
            _ => chars.insert(at, c),
        }
        chars.into_iter().collect::<String>()
    });
    (prop_oneof![tokens, mutated], any::<u64>()).prop_map(|(text, seed)| {
        let deltas = split(&text, &mut Rng(seed | 1));
        (text, deltas)
    })
}

fn reader() -> ArgsReader {
    ArgsReader::new(ArgsLimits::default())
}

/// Every partial value while the deltas arrive, parsed.
fn partials(deltas: &[String]) -> Vec<Value> {
    let mut args = reader();
    let mut out = Vec::new();
    for d in deltas {
        args.push(d).unwrap();
        if let Some(json) = args.partial_json() {
            let value = serde_json::from_str(&json)
                .unwrap_or_else(|e| panic!("partial {json:?} of {:?}: {e}", args.text()));
            out.push(value);
        }
    }
    out
}

/// Whether `new` shows everything `old` showed: no key or element dropped,
/// no scalar changed, strings only grown.
fn extends(old: &Value, new: &Value) -> bool {
    match (old, new) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| extends(x, y))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(k, x)| b.get(k).is_some_and(|y| extends(x, y))),
        (a, b) => a == b,
    }
}

/// Every path of `value` but the root (keys and indices), with its value.
fn paths(value: &Value, prefix: &mut Vec<Step>, out: &mut Vec<(Vec<Step>, Value)>) {
    let children: Vec<(Step, &Value)> = match value {
        Value::Object(m) => m.iter().map(|(k, v)| (Step::Key(k.clone()), v)).collect(),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| (Step::Index(i), v))
            .collect(),
        _ => Vec::new(),
    };
    for (step, child) in children {
        prefix.push(step);
        out.push((prefix.clone(), child.clone()));
        paths(child, prefix, out);
        prefix.pop();
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

fn steps(path: &[Step]) -> Vec<PathStep<'_>> {
    path.iter()
        .map(|s| match s {
            Step::Key(k) => PathStep::Key(k),
            Step::Index(i) => PathStep::Index(*i),
        })
        .collect()
}

fn at<'v>(value: &'v Value, path: &[Step]) -> Option<&'v Value> {
    path.iter().try_fold(value, |v, s| match s {
        Step::Key(k) => v.get(k),
        Step::Index(i) => v.get(i),
    })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(10_000)
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn t6_finish_equals_serde_json_on_documents((text, deltas) in document()) {
        let mut args = reader();
        for d in &deltas {
            args.push(d).unwrap();
        }
        prop_assert_eq!(args.text(), text.as_str());
        let expected: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(args.finish().unwrap(), expected);
    }

    #[test]
    fn t5_every_partial_is_well_formed_json((text, deltas) in document()) {
        // `partials` parses each one and fails on the first that does not.
        let shown = partials(&deltas);
        let whole: Value = serde_json::from_str(&text).unwrap();
        if !whole.is_number() {
            prop_assert!(!shown.is_empty());
        }
    }

    #[test]
    fn t5_partials_only_grow((text, deltas) in document()) {
        let shown = partials(&deltas);
        for pair in shown.windows(2) {
            prop_assert!(extends(&pair[0], &pair[1]), "{} then {}", pair[0], pair[1]);
        }
        // The last partial of a whole document is the document.
        let last = shown.last().cloned();
        let whole: Value = serde_json::from_str(&text).unwrap();
        if whole.is_object() || whole.is_array() || whole.is_string() {
            prop_assert_eq!(last, Some(whole));
        }
    }

    #[test]
    fn t5_a_complete_value_never_changes_while_the_call_streams((text, deltas) in document()) {
        let whole: Value = serde_json::from_str(&text).unwrap();
        let mut args = reader();
        let mut complete: Vec<(Vec<Step>, Value)> = Vec::new();
        for d in &deltas {
            args.push(d).unwrap();
            let Some(json) = args.partial_json() else { continue };
            let partial: Value = serde_json::from_str(&json).unwrap();
            // What was complete is there, unchanged.
            for (path, value) in &complete {
                prop_assert_eq!(at(&partial, path), Some(value), "{:?} in {}", path, json);
            }
            let mut all = Vec::new();
            paths(&partial, &mut Vec::new(), &mut all);
            for (path, value) in all {
                let status = args.complete_at(&steps(&path));
                let before = complete.iter().any(|(p, _)| *p == path);
                prop_assert!(status.is_some(), "{:?} in {}", path, json);
                prop_assert!(status == Some(true) || !before, "{:?} reopened in {}", path, json);
                if status == Some(true) && !before {
                    complete.push((path, value));
                }
            }
            // The top-level fields say what `complete_at` says.
            for (key, done) in args.fields() {
                prop_assert_eq!(Some(done), args.complete_at(&[PathStep::Key(&key)]));
            }
        }
        // The call closes on the whole text: every complete value is its.
        for (path, value) in &complete {
            prop_assert_eq!(at(&whole, path), Some(value));
        }
        if whole.is_object() || whole.is_array() || whole.is_string() {
            prop_assert_eq!(args.complete_at(&[]), Some(true));
        }
    }

    #[test]
    fn t5_cut_utf16_counts_the_prefix_in_utf16((_text, deltas) in document()) {
        let mut args = reader();
        for d in &deltas {
            args.push(d).unwrap();
            if let Some(p) = args.partial() {
                prop_assert!(args.text().is_char_boundary(p.cut));
                prop_assert_eq!(p.cut_utf16, args.text()[..p.cut].encode_utf16().count());
            }
        }
    }

    #[test]
    fn t6_any_text_never_panics_and_agrees_with_serde_json((text, deltas) in noise()) {
        let mut args = reader();
        let mut shown: Vec<Value> = Vec::new();
        for d in &deltas {
            args.push(d).unwrap();
            if let Some(p) = args.partial() {
                prop_assert_eq!(p.cut_utf16, args.text()[..p.cut].encode_utf16().count());
                let json = args.partial_json().unwrap();
                let value: Value = serde_json::from_str(&json)
                    .map_err(|e| TestCaseError::fail(format!("partial {json:?}: {e}")))?;
                shown.push(value);
            }
        }
        prop_assert_eq!(args.text(), text.as_str());
        // What the tracker keeps at the end, decided without a value.
        prop_assert_eq!(args.check().is_ok(), serde_json::from_str::<Value>(&text).is_ok());
        match (args.finish(), serde_json::from_str::<Value>(&text)) {
            (Ok(ours), Ok(theirs)) => prop_assert_eq!(ours, theirs),
            (Err(e), Err(_)) => {
                let at = e.position.unwrap();
                prop_assert!(at <= text.len(), "position {} past {}", at, text.len());
            }
            (ours, theirs) => prop_assert!(false, "{:?} vs {:?} for {:?}", ours, theirs, text),
        }
    }
}
