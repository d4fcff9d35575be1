//! The rule table in `src/rules.rs` is the one source of rule ids: the rule
//! documentation, the checker's rule metadata and the tests must agree with it.
//!
//! `UPDATE_GENERATED=1 cargo test --test main rules_table` rewrites the generated
//! `js/check/report/rules.js` from the table.

use agui_tool_calls::rules::{RuleClass, RULES};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn class_name(class: RuleClass) -> &'static str {
    match class {
        RuleClass::Fatal => "fatal",
        RuleClass::Violation => "violation",
        RuleClass::Warning => "warning",
        RuleClass::Behaviour => "behaviour",
    }
}

/// The rows of the table in docs/rules.md: (id, severity, tests cell).
fn doc_rows() -> Vec<(String, String, String)> {
    let text = fs::read_to_string(root().join("docs/rules.md")).unwrap();
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // | id | severity | behaviour | tests |
            let id = cells.get(1)?;
            let is_id = id.len() >= 2
                && id.as_bytes()[0].is_ascii_uppercase()
                && id[1..].bytes().all(|b| b.is_ascii_digit());
            is_id.then(|| (id.to_string(), cells[2].to_string(), cells[4].to_string()))
        })
        .collect()
}

/// Every file under `dir` whose name ends with one of `exts`.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, exts, out);
        } else if exts.iter().any(|e| path.to_string_lossy().ends_with(e)) {
            out.push(path);
        }
    }
}

/// The names of every test: Rust functions in tests/ and src/, and the
/// names given to `test(...)` in the JS suites.
fn test_names() -> BTreeSet<String> {
    let mut paths = Vec::new();
    files(&root().join("tests"), &[".rs", ".mjs"], &mut paths);
    files(&root().join("src"), &[".rs"], &mut paths);
    let mut names = BTreeSet::new();
    for path in paths {
        let text = fs::read_to_string(&path).unwrap();
        let js = path.extension().is_some_and(|e| e == "mjs");
        for line in text.lines() {
            let line = line.trim_start();
            if js {
                for quote in ['"', '\'', '`'] {
                    if let Some(rest) = line.strip_prefix(&format!("test({quote}")) {
                        if let Some(end) = rest.find(quote) {
                            names.insert(rest[..end].to_string());
                        }
                    }
                }
            } else if let Some(rest) = line
                .strip_prefix("fn ")
                .or_else(|| line.strip_prefix("pub fn "))
            {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                names.insert(rest[..end].to_string());
            }
        }
    }
    names
}

#[test]
fn every_rule_has_one_row_in_the_docs_in_table_order_with_its_severity() {
    let rows = doc_rows();
    let ids: Vec<&str> = rows.iter().map(|(id, _, _)| id.as_str()).collect();
    let want: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    assert_eq!(ids, want, "docs/rules.md rows differ from src/rules.rs");
    for ((id, severity, _), rule) in rows.iter().zip(RULES) {
        assert_eq!(severity, class_name(rule.class), "severity of {id}");
    }
}

#[test]
fn every_rule_has_a_test_named_after_it() {
    let names = test_names();
    let missing: Vec<&str> = RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| {
            let prefix = format!("{}_", id.to_ascii_lowercase());
            !names.iter().any(|n| n.starts_with(&prefix))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a test named after them: {missing:?}"
    );
}

#[test]
fn every_test_a_docs_row_names_exists() {
    let names = test_names();
    let mut missing = Vec::new();
    for (id, _, tests) in doc_rows() {
        for name in tests.split('`').skip(1).step_by(2) {
            // `module::prefix_*` names every test starting with the prefix.
            let name = name.rsplit("::").next().unwrap_or(name);
            let found = match name.strip_suffix('*') {
                Some(prefix) => names.iter().any(|n| n.starts_with(prefix)),
                None => names.contains(name),
            };
            if !found {
                missing.push(format!("{id}: {name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/rules.md names tests that do not exist: {missing:#?}"
    );
}

fn js_rules_module() -> String {
    let mut out = String::from(
        "// @ts-check\n\
         // Generated from src/rules.rs by `UPDATE_GENERATED=1 cargo test --test main rules_table`;\n\
         // tests/rules_table.rs fails when it drifts. Do not edit by hand.\n\n\
         /** Every rule: id, class, title and one-line summary. */\n\
         export const RULES = Object.freeze([\n",
    );
    for r in RULES {
        let quote = |s: &str| serde_json::to_string(s).unwrap();
        out.push_str(&format!(
            "  {{ id: {}, class: {}, title: {}, summary: {} }},\n",
            quote(r.id),
            quote(class_name(r.class)),
            quote(r.title),
            quote(r.summary)
        ));
    }
    out.push_str(
        "]);\n\n/** Each rule's title, by id. */\n\
         export const RULE_TITLES = Object.freeze(Object.fromEntries(RULES.map((r) => [r.id, r.title])));\n",
    );
    out
}

#[test]
fn the_checkers_rule_metadata_is_generated_from_the_table() {
    let path = root().join("js/check/report/rules.js");
    let want = js_rules_module();
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        fs::write(&path, &want).unwrap();
    }
    let have = fs::read_to_string(&path).unwrap();
    assert!(
        have == want,
        "js/check/report/rules.js is stale: run UPDATE_GENERATED=1 cargo test --test main rules_table"
    );
}
