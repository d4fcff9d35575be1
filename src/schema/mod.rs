//! JSON Schema validation of tool-call arguments (rule S1).
//!
//! A lean validator over the crate's JSON value ([`crate::value::Value`]) for the drafts model
//! providers send: 2020-12 and draft-07 (and draft-04's boolean
//! `exclusiveMaximum`). A schema is compiled once (per advertised tool)
//! into a [`Schema`]; validating an instance never panics, never fetches
//! anything, and reports each failure with the instance path (a JSON
//! Pointer) and the keyword that failed.
//!
//! Both schema and instance may come from a hostile stream, so what one
//! validation does and keeps is bounded: it counts every failure but keeps
//! the first [`MAX_ERRORS`], each path and message cut at
//! [`MAX_ERROR_TEXT`] bytes; and every keyword's work (a subschema
//! applied, a property or `enum` value looked up, the bytes of a value
//! compared) is charged to a budget of [`MAX_STEPS`], past which the
//! instance fails with a `limit` error.
//!
//! ```
//! use agui_tool_calls::schema::{RegressEngine, Schema};
//! use agui_tool_calls::value::Value;
//! use serde_json::json;
//!
//! let schema = Schema::compile(
//!     &Value::from(json!({
//!         "type": "object",
//!         "properties": {"items": {"type": "array", "items": {"required": ["name"]}}},
//!     })),
//!     &RegressEngine,
//! )
//! .unwrap();
//! assert!(schema.is_valid(&Value::from(json!({"items": [{"name": "a"}]}))));
//!
//! let failures = schema.validate(&Value::from(json!({"items": [{}]})));
//! assert_eq!(failures.count, 1);
//! assert_eq!(failures.errors[0].path, "/items/0");
//! assert_eq!(failures.errors[0].keyword, "required");
//! ```
//!
//! What is supported and what is not is listed in `docs/schema-conformance.md`.

mod compile;
mod pattern;
mod uri;
mod validate;
pub(crate) mod value;

use crate::value::Value;
use serde::Serialize;
use std::fmt;

pub use compile::MAX_SUBSCHEMAS;
#[cfg(not(target_arch = "wasm32"))]
pub use pattern::RegressEngine;
pub use pattern::{Pattern, PatternEngine};
pub use validate::MAX_STEPS;

/// The dialect a schema is read in.
///
/// A `$schema` naming draft-04, -06 or -07 selects [`Draft::Draft7`]; one
/// naming 2019-09 or 2020-12 selects [`Draft::Draft2020`]; without `$schema`
/// the default given to [`Schema::compile_with_default`] applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Draft {
    /// Draft-07: `$ref` replaces its sibling keywords, `definitions`,
    /// `dependencies`, array-form `items` with `additionalItems`.
    Draft7,
    /// Draft 2020-12 (also used for 2019-09). Array-form `items` is still
    /// read as draft-07 tuple validation, since providers send it.
    #[default]
    Draft2020,
}

/// Why a schema cannot be compiled: the call it governs cannot be validated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SchemaError {
    /// JSON Pointer to the offending place in the schema.
    pub path: String,
    /// The human-readable message.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid schema at \"{}\": {}", self.path, self.message)
    }
}

impl std::error::Error for SchemaError {}

/// One way an instance fails its schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ValidationError {
    /// JSON Pointer to the failing place in the instance (`""` is the root).
    pub path: String,
    /// The keyword that failed, such as `required` or `type`.
    pub keyword: &'static str,
    /// The human-readable message.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at \"{}\": {}", self.keyword, self.path, self.message)
    }
}

/// Most failures one validation keeps; the rest are only counted.
pub const MAX_ERRORS: usize = 100;

/// Longest `path` or `message` of a kept failure, in bytes: a longer one is
/// cut at a character boundary and ends in `…`. Messages quote property
/// names, which the instance chooses.
pub const MAX_ERROR_TEXT: usize = 256;

/// How an instance fails its schema: every failure counted, the first
/// `MAX_ERRORS` (100) kept (plus, last, the `limit` error of a validation
/// cut off by `MAX_STEPS`).
///
/// ```
/// use agui_tool_calls::schema::{RegressEngine, Schema, MAX_ERRORS};
/// use agui_tool_calls::value::Value;
/// use serde_json::json;
///
/// let schema = Schema::compile(&Value::from(json!({"items": {"type": "string"}})), &RegressEngine).unwrap();
/// let failures = schema.validate(&Value::from(json!(vec![0; 1000])));
/// assert_eq!(failures.count, 1000);
/// assert_eq!(failures.errors.len(), MAX_ERRORS);
/// assert!(failures.truncated());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Failures {
    /// The failures kept, in schema order.
    pub errors: Vec<ValidationError>,
    /// How many failures there were, kept or not.
    pub count: usize,
}

impl Failures {
    /// Whether the instance passed: no failure at all.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether failures were counted but not kept.
    pub fn truncated(&self) -> bool {
        self.count > self.errors.len()
    }
}

/// A compiled schema, ready to validate any number of instances.
pub struct Schema {
    graph: compile::Graph,
}

impl Schema {
    /// Compiles `schema`, reading it as 2020-12 unless its `$schema` says
    /// otherwise. Patterns are compiled by `engine`, once.
    ///
    /// Fails when the schema is malformed, a pattern does not compile, or a
    /// `$ref` points outside the document (remote references are never
    /// fetched).
    pub fn compile(schema: &Value, engine: &dyn PatternEngine) -> Result<Schema, SchemaError> {
        Schema::compile_with_default(schema, Draft::default(), engine)
    }

    /// Like [`Schema::compile`], with the draft to assume when the schema has
    /// no `$schema`.
    pub fn compile_with_default(
        schema: &Value,
        default: Draft,
        engine: &dyn PatternEngine,
    ) -> Result<Schema, SchemaError> {
        compile::compile(schema, default, engine).map(|graph| Schema { graph })
    }

    /// The failures of `instance`, in schema order (the first
    /// [`MAX_ERRORS`] kept, all counted); empty when valid.
    pub fn validate(&self, instance: &Value) -> Failures {
        let mut failures = Failures::default();
        validate::run(&self.graph, instance, Some(&mut failures));
        failures
    }

    /// Whether `instance` is valid.
    pub fn is_valid(&self, instance: &Value) -> bool {
        validate::run(&self.graph, instance, None)
    }
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema")
            .field("nodes", &self.graph.nodes.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests;
