//! Measures the argument reader: arguments of 1 KB, 16 KB and 256 KB fed in
//! 4-byte deltas, in nanoseconds per delta, for `push` alone and for `push`
//! followed by `partial()` (what a UI does on every delta).
//!
//! Run with `cargo run --release --example args_throughput`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use agui_tool_calls::args::{ArgsLimits, ArgsReader};

/// Tool arguments of about `size` bytes: an object holding an array of
/// records with strings (some escaped, some non-ASCII), numbers and literals.
fn arguments(size: usize) -> String {
    let mut text = String::from(r#"{"query":"streaming \"partial\" JSON","rows":["#);
    let mut i = 0;
    while text.len() < size {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(
            r#"{{"id":{i},"name":"row {i} caf\u00e9 é","score":-{i}.25e-1,"ok":true,"tags":["a","b\n"],"note":null}}"#
        ));
        i += 1;
    }
    text.push_str("]}");
    text
}

/// Splits `text` into deltas of about `n` bytes, at char boundaries.
fn deltas(text: &str, n: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + n).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}

/// Runs `feed` over the deltas until at least 300 ms have passed; returns
/// the mean time per delta in nanoseconds.
fn ns_per_delta(deltas: &[&str], feed: impl Fn(&[&str])) -> f64 {
    let mut rounds = 0u32;
    let started = Instant::now();
    while started.elapsed() < Duration::from_millis(300) || rounds < 3 {
        feed(deltas);
        rounds += 1;
    }
    started.elapsed().as_nanos() as f64 / (f64::from(rounds) * deltas.len() as f64)
}

/// The floor: appending the deltas to a string, nothing read.
fn append_only(deltas: &[&str]) {
    let mut s = String::new();
    for d in deltas {
        s.push_str(d);
    }
    black_box(s);
}

fn push_only(deltas: &[&str]) {
    let mut args = ArgsReader::new(ArgsLimits::default());
    for d in deltas {
        args.push(d).unwrap();
    }
    black_box(args.finish().is_ok());
}

fn push_and_partial(deltas: &[&str]) {
    let mut args = ArgsReader::new(ArgsLimits::default());
    for d in deltas {
        args.push(d).unwrap();
        black_box(args.partial());
    }
    assert!(args.finish().is_ok());
}

/// The approach the reader replaces: parse the whole text on every delta.
fn reparse_every_delta(deltas: &[&str]) {
    let mut text = String::new();
    for d in deltas {
        text.push_str(d);
        black_box(serde_json::from_str::<serde_json::Value>(&text).is_ok());
    }
}

fn main() {
    println!(
        "argument size | deltas | append ns/delta | push ns/delta | push+partial ns/delta | re-parse ns/delta"
    );
    for size in [1024, 16 * 1024, 256 * 1024] {
        let text = arguments(size);
        let deltas = deltas(&text, 4);
        let push = ns_per_delta(&deltas, push_only);
        let append = ns_per_delta(&deltas, append_only);
        let partial = ns_per_delta(&deltas, push_and_partial);
        // Quadratic: only measured where it finishes in reasonable time.
        let reparse = if size <= 16 * 1024 {
            format!("{:.0}", ns_per_delta(&deltas, reparse_every_delta))
        } else {
            "(skipped)".to_string()
        };
        println!(
            "{:>11} B | {:>6} | {:>15.1} | {:>13.1} | {:>21.1} | {:>17}",
            text.len(),
            deltas.len(),
            append,
            push,
            partial,
            reparse
        );
    }
}
