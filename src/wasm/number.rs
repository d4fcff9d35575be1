//! The host's `Number` as the tracker's reader of JSON numbers: a number
//! reads exactly as `JSON.parse` reads it in the application, and the
//! module links no float parser of its own (`crate::number`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = Number)]
    fn host_number(text: &str) -> f64;
}

/// Installs `Number(text)` as the reader, before the first tracker reads
/// a number (its options).
pub fn install() {
    crate::number::set_float_reader(host_number);
}
