//! `js/wire.d.ts`, the TypeScript declarations of what crosses the wasm
//! boundary, derived from the Rust types by `ts-rs`; the test fails when
//! the file is stale, and `UPDATE_GENERATED=1 cargo test --lib wire::`
//! rewrites it.

use crate::events::Tool;
use crate::schema::ValidationError;
use crate::{Limits, Options, Severity, Violation};
use std::path::PathBuf;
use ts_rs::{Config, TS};

/// `T`'s declaration, exported, after its doc comment (less its Rust
/// examples), one field a line.
pub(super) fn declaration<T: TS + ?Sized>(cfg: &Config) -> String {
    let docs = without_examples(&T::docs().unwrap_or_default());
    format!("{docs}export {}", one_field_a_line(&T::decl(cfg)))
}

/// A doc comment without its fenced code blocks (Rust examples, which say
/// nothing to a reader of TypeScript), nor the blank line before each.
fn without_examples(docs: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut fenced = false;
    for line in docs.lines() {
        if line.trim_start_matches([' ', '*']).starts_with("```") {
            if !fenced && out.last().is_some_and(|l| l.trim() == "*") {
                out.pop();
            }
            fenced = !fenced;
        } else if !fenced {
            out.push(line);
        }
    }
    let mut text = out.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    text
}

/// `type X = { a: A, b: B, };` as one field a line, each after its doc
/// comment; any other declaration (a union, a tuple) as it is.
fn one_field_a_line(decl: &str) -> String {
    let Some((head, body)) = decl
        .split_once(" = { ")
        .and_then(|(head, rest)| Some((head, rest.strip_suffix(" };")?)))
        .filter(|(_, body)| !body.contains(" } | { "))
    else {
        return decl.to_owned();
    };
    let mut out = format!("{head} = {{\n");
    for field in top_level_fields(body) {
        let field = field.trim();
        let (docs, field) = match field.rsplit_once("*/") {
            Some((docs, field)) => (Some(docs), field.trim()),
            None => (None, field),
        };
        if let Some(docs) = docs {
            for line in docs.trim().lines() {
                let line = line.trim();
                out.push_str(if line.starts_with('*') { "   " } else { "  " });
                out.push_str(line);
                out.push('\n');
            }
            out.push_str("   */\n");
        }
        out.push_str(&format!("  {field};\n"));
    }
    out.push_str("};");
    out
}

/// The fields of an object type's body, split at its own commas (not those
/// of nested types or doc comments).
fn top_level_fields(body: &str) -> Vec<&str> {
    let mut fields = Vec::new();
    let (mut depth, mut start, mut in_doc) = (0i32, 0, false);
    let bytes = body.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'*') => in_doc = true,
            b'/' if i > 0 && bytes[i - 1] == b'*' => in_doc = false,
            _ if in_doc => {}
            b'{' | b'[' | b'<' | b'(' => depth += 1,
            b'}' | b']' | b'>' | b')' => depth -= 1,
            b',' if depth == 0 => {
                fields.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    fields.extend(Some(&body[start..]).filter(|rest| !rest.trim().is_empty()));
    fields
}

/// The whole file: the records, then the core types they hold, then the
/// constructor's options.
fn generate() -> String {
    // Every number the records hold fits a double: versions and counts
    // grow by one per event.
    let cfg = Config::new().with_large_int("number");
    let mut declarations = super::records::declarations(&cfg);
    declarations.extend(super::saved::declarations(&cfg));
    declarations.extend(super::names::declarations());
    declarations.extend([
        declaration::<Violation>(&cfg),
        declaration::<Severity>(&cfg),
        declaration::<ValidationError>(&cfg),
        declaration::<Options>(&cfg),
        declaration::<Limits>(&cfg),
        declaration::<Tool>(&cfg),
        declaration::<crate::Interrupt>(&cfg),
        declaration::<crate::StandingApproval>(&cfg),
    ]);
    let mut out = String::from(
        "// Generated from the Rust types of src/wire/ and the core types they hold;\n\
         // do not edit: `UPDATE_GENERATED=1 cargo test --lib wire::` rewrites it.\n\
         // Internal (not shipped): what the wasm core sends the JS layer, and the\n\
         // options it reads. The JS readers of the records (js/snapshot.js, js/tracker.js,\n\
         // js/check/diagnostics.js) are type-checked against it, and js/index.d.ts is\n\
         // checked against it (tests/js/wire-types.test.mjs).\n",
    );
    for d in declarations {
        out.push('\n');
        out.push_str(&d);
        out.push('\n');
    }
    out
}

#[test]
fn wire_declarations_are_generated_from_the_rust_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("js/wire.d.ts");
    let generated = generate();
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "js/wire.d.ts is stale: run `UPDATE_GENERATED=1 cargo test --lib wire::` and commit it"
    );
}

/// The field names of an object type as `one_field_a_line` writes it.
fn field_names(decl: &str) -> Vec<String> {
    decl.lines()
        .filter_map(|line| {
            line.strip_prefix("  ")
                .filter(|l| !l.starts_with([' ', '/', '*']))
        })
        .filter_map(|field| field.split([':', '?']).next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_declared_option_is_read_and_no_other() {
    let cfg = Config::new().with_large_int("number");
    // The fields `parse_options` reads, as the declarations name them.
    let options = field_names(&declaration::<Options>(&cfg));
    assert_eq!(options, ["tools", "fragment", "requireApproval", "limits"]);
    let all = r#"{"tools":[],"fragment":true,"requireApproval":["f"],"limits":{}}"#;
    assert!(super::parse_options(all).is_ok());
    let limits = field_names(&declaration::<Limits>(&cfg));
    assert_eq!(limits.len(), 8, "{limits:?}");
    for key in &limits {
        let read = super::parse_options(&format!(r#"{{"limits":{{"{key}":7}}}}"#))
            .unwrap_or_else(|e| panic!("{key}: {e}"));
        assert_ne!(read.limits, Limits::default(), "{key} was not read");
    }
    assert!(super::parse_options(r#"{"limits":{"maxArgBytes":1}}"#).is_err());
    assert!(super::parse_options(r#"{"requireApprovals":[]}"#).is_err());
}
