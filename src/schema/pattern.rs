//! Regular expressions for `pattern` and `patternProperties`.
//!
//! JSON Schema patterns are ECMA-262 regular expressions. The validator does
//! not carry its own engine: whoever compiles a schema hands it one. The
//! wasm binding hands it the host's `RegExp` (exact ECMAScript semantics at
//! no size cost); native builds have [`RegressEngine`].

/// A compiled pattern.
pub trait Pattern {
    /// Whether the pattern matches anywhere in `text` (patterns are not
    /// anchored).
    fn is_match(&self, text: &str) -> bool;
}

/// Compiles the patterns of a schema, once, when the schema is compiled.
pub trait PatternEngine {
    /// Compiles `source` with ECMAScript semantics and the `u` flag; the
    /// error text says why it is not a valid pattern.
    fn compile(&self, source: &str) -> Result<Box<dyn Pattern>, String>;
}

/// The `regress` crate: an ECMAScript regex engine in Rust.
///
/// ```
/// use agui_tool_calls::schema::{PatternEngine, RegressEngine};
///
/// let p = RegressEngine.compile(r"^\p{L}+$").unwrap();
/// assert!(p.is_match("héllo"));
/// assert!(!p.is_match("h3llo"));
/// assert!(RegressEngine.compile("(").is_err());
/// ```
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug, Default)]
pub struct RegressEngine;

#[cfg(not(target_arch = "wasm32"))]
impl PatternEngine for RegressEngine {
    fn compile(&self, source: &str) -> Result<Box<dyn Pattern>, String> {
        regress::Regex::with_flags(source, "u")
            .map(|r| Box::new(RegressPattern(r)) as Box<dyn Pattern>)
            .map_err(|e| e.to_string())
    }
}

#[cfg(not(target_arch = "wasm32"))]
struct RegressPattern(regress::Regex);

#[cfg(not(target_arch = "wasm32"))]
impl Pattern for RegressPattern {
    fn is_match(&self, text: &str) -> bool {
        self.0.find(text).is_some()
    }
}
