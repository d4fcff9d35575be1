//! The JS binding: a thin layer over the pure core, compiled for wasm32 only.
//!
//! It speaks JSON text in both directions: `JSON.stringify`/`JSON.parse` run
//! at native speed in the host, and the core parses events without an
//! intermediate value. The hand-written JS layer (`js/`) builds the frozen
//! snapshots from what `pushJson` reports.

use crate::{Options, Tracker};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The core tracker, as JS sees it. Not used directly by applications: the
/// `ToolCallTracker` class of `js/` wraps it.
#[wasm_bindgen]
pub struct WasmTracker {
    inner: Tracker,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallChange<'a> {
    index: usize,
    id: &'a str,
    name: &'a str,
    status: &'static str,
    args_text: &'a str,
}

#[derive(Serialize)]
struct Changes<'a> {
    calls: Vec<CallChange<'a>>,
    fatal: Option<&'a crate::Violation>,
}

#[wasm_bindgen]
impl WasmTracker {
    #[wasm_bindgen(constructor)]
    pub fn new() -> WasmTracker {
        WasmTracker {
            inner: Tracker::new(Options::default()),
        }
    }

    /// Reads one event given as JSON text; returns what changed, as JSON.
    #[wasm_bindgen(js_name = pushJson)]
    pub fn push_json(&mut self, text: &str) -> String {
        let _ = self.inner.push_json(text);
        let calls = self
            .inner
            .calls()
            .iter()
            .enumerate()
            .map(|(index, c)| CallChange {
                index,
                id: &c.id,
                name: &c.name,
                status: match c.status {
                    crate::machine::CallStatus::Open => "open",
                    crate::machine::CallStatus::Complete => "complete",
                    crate::machine::CallStatus::Abandoned => "abandoned",
                },
                args_text: c.args_text(),
            })
            .collect();
        let changes = Changes {
            calls,
            fatal: self.inner.fatal(),
        };
        serde_json::to_string(&changes).unwrap_or_default()
    }
}

impl Default for WasmTracker {
    fn default() -> Self {
        Self::new()
    }
}
