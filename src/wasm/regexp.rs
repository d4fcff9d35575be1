//! The host's `RegExp` as the schema validator's pattern engine: exact
//! ECMAScript semantics (rule S1's `pattern`) at no cost in module size.

use crate::schema::{Pattern, PatternEngine};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = RegExp)]
    type HostRegExp;

    // `catch`: an invalid pattern throws a SyntaxError, which must come back
    // as an error value rather than unwind through the module.
    #[wasm_bindgen(constructor, js_class = "RegExp", catch)]
    fn new(pattern: &str, flags: &str) -> Result<HostRegExp, JsValue>;

    #[wasm_bindgen(method)]
    fn test(this: &HostRegExp, text: &str) -> bool;
}

/// Compiles patterns with `new RegExp(source, "u")`.
pub struct HostRegExpEngine;

struct HostPattern(HostRegExp);

impl PatternEngine for HostRegExpEngine {
    fn compile(&self, source: &str) -> Result<Box<dyn Pattern>, String> {
        match HostRegExp::new(source, "u") {
            Ok(regexp) => Ok(Box::new(HostPattern(regexp))),
            Err(error) => Err(error
                .as_string()
                .unwrap_or_else(|| format!("invalid regular expression: /{source}/"))),
        }
    }
}

impl Pattern for HostPattern {
    // Without the `g` or `y` flag, `test` keeps no state between calls.
    fn is_match(&self, text: &str) -> bool {
        self.0.test(text)
    }
}
