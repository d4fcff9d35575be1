//! The JSON Schema Test Suite (draft 2020-12 and draft-07), run against
//! `agui_tool_calls::schema`.
//!
//! The suite is read at test time from its pinned copy in
//! `tests/json-schema-test-suite` (commit and licence in its README). Every
//! test must pass except those in [`KNOWN_FAILURES`], each with its reason;
//! a listed test that starts passing fails the run too, so the list stays
//! honest.
//!
//! `cargo test --test main schema_suite -- --nocapture` prints the per-file table;
//! with `SCHEMA_SUITE_REPORT=<file>` it is also written to that file.

use agui_tool_calls::schema::{Draft, RegressEngine, Schema};
use serde_json::Value;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Files not run: every test in them needs a remote document.
const SKIPPED_FILES: [(&str, &str); 1] = [(
    "refRemote.json",
    "every test resolves a `$ref` to another document; remote references are never fetched",
)];

/// `(directory, file, group description, test description or "*", reason)`.
const KNOWN_FAILURES: &[(&str, &str, &str, &str, &str)] = &[
    ("draft2020-12", "defs.json", "validate definition against metaschema", "*", META),
    ("draft2020-12", "ref.json", "remote ref, containing refs itself", "*", META),
    ("draft7", "definitions.json", "validate definition against metaschema", "*", META),
    ("draft7", "ref.json", "remote ref, containing refs itself", "*", META),
    ("draft2020-12", "dynamicRef.json", "strict-tree schema, guards against misspelled properties", "*", REMOTE),
    ("draft2020-12", "dynamicRef.json", "tests for implementation dynamic anchor and reference link", "*", REMOTE),
    ("draft2020-12", "dynamicRef.json", "$ref and $dynamicAnchor are independent of order - $defs first", "*", REMOTE),
    ("draft2020-12", "dynamicRef.json", "$ref and $dynamicAnchor are independent of order - $ref first", "*", REMOTE),
    ("draft2020-12", "dynamicRef.json", "$ref to $dynamicRef finds detached $dynamicAnchor", "*", REMOTE),
    (
        "draft2020-12",
        "vocabulary.json",
        "schema that uses custom metaschema with with no validation vocabulary",
        "no validation: invalid number, but it still validates",
        "`$vocabulary` is read from the meta-schema, a remote document; the validation vocabulary always applies",
    ),
];

const META: &str = "`$ref` to the draft's meta-schema, a remote document that is never fetched";
const REMOTE: &str = "`$ref` to a document of the suite's remotes, never fetched";

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/json-schema-test-suite")
}

struct Outcome {
    file: String,
    passed: usize,
    total: usize,
    /// Unexpected failures, and known failures that passed.
    surprises: Vec<String>,
}

fn known(dir: &str, file: &str, group: &str, test: &str) -> Option<&'static str> {
    KNOWN_FAILURES
        .iter()
        .find(|k| k.0 == dir && k.1 == file && k.2 == group && (k.3 == "*" || k.3 == test))
        .map(|k| k.4)
}

fn run_file(dir: &str, path: &Path, draft: Draft) -> Outcome {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let groups: Vec<Value> = serde_json::from_str(&text).unwrap();
    let mut out = Outcome {
        file: format!("{dir}/{file}"),
        passed: 0,
        total: 0,
        surprises: Vec::new(),
    };
    for group in &groups {
        let gdesc = group["description"].as_str().unwrap_or("");
        let compiled =
            Schema::compile_with_default(&group["schema"].clone().into(), draft, &RegressEngine);
        for test in group["tests"].as_array().unwrap() {
            let tdesc = test["description"].as_str().unwrap_or("");
            let expected = test["valid"].as_bool().unwrap();
            let ok = match &compiled {
                Ok(schema) => {
                    let data = test["data"].clone().into();
                    let valid = schema.is_valid(&data);
                    // Both entry points must agree.
                    assert_eq!(
                        valid,
                        schema.validate(&data).is_empty(),
                        "{file}: {gdesc}: {tdesc}"
                    );
                    valid == expected
                }
                Err(_) => false,
            };
            out.total += 1;
            if ok {
                out.passed += 1;
            }
            let why = match &compiled {
                Err(e) => format!("schema error: {e}"),
                Ok(_) => format!("expected valid={expected}"),
            };
            match (ok, known(dir, &file, gdesc, tdesc)) {
                (false, None) => out
                    .surprises
                    .push(format!("FAIL {dir}/{file}: {gdesc}: {tdesc} ({why})")),
                (true, Some(_)) => out.surprises.push(format!(
                    "PASSES but listed as known failure: {dir}/{file}: {gdesc}: {tdesc}"
                )),
                _ => {}
            }
        }
    }
    out
}

#[test]
fn s1_json_schema_test_suite() {
    let root = suite_dir();
    assert!(
        root.is_dir(),
        "the JSON Schema Test Suite is missing at {}",
        root.display()
    );
    let mut outcomes = Vec::new();
    for (dir, draft) in [
        ("draft2020-12", Draft::Draft2020),
        ("draft7", Draft::Draft7),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for path in files {
            let name = path.file_name().unwrap().to_string_lossy();
            if SKIPPED_FILES.iter().any(|(f, _)| *f == name) {
                continue;
            }
            outcomes.push(run_file(dir, &path, draft));
        }
    }
    let table = table(&outcomes);
    println!("{table}");
    if let Ok(target) = std::env::var("SCHEMA_SUITE_REPORT") {
        std::fs::write(target, &table).unwrap();
    }
    let surprises: Vec<&String> = outcomes.iter().flat_map(|o| &o.surprises).collect();
    for s in &surprises {
        println!("{s}");
    }
    assert!(
        surprises.is_empty(),
        "{} unexpected outcomes (run with --nocapture)",
        surprises.len()
    );
}

fn table(outcomes: &[Outcome]) -> String {
    let mut t = String::from("| file | passed | total | rate |\n| --- | ---: | ---: | ---: |\n");
    let (mut passed, mut total) = (0, 0);
    for o in outcomes {
        passed += o.passed;
        total += o.total;
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} |",
            o.file,
            o.passed,
            o.total,
            rate(o.passed, o.total)
        );
    }
    let _ = writeln!(
        t,
        "| **all** | {passed} | {total} | {} |",
        rate(passed, total)
    );
    t
}

fn rate(passed: usize, total: usize) -> String {
    format!("{:.1}%", 100.0 * passed as f64 / total.max(1) as f64)
}
