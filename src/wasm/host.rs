//! What the core takes from the host, installed before the first tracker:
//! `Number` and `String` as its reader and writer of numbers (a number
//! reads exactly as `JSON.parse` reads it in the application, a message
//! writes it as the application would, and the module links no float
//! parser or formatter of its own: `crate::number`), and `Math.random` for
//! the id maps' salt (`crate::hashing`: the module has no randomness of
//! its own).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = Number)]
    fn host_number(text: &str) -> f64;

    #[wasm_bindgen(js_name = String)]
    fn host_string(f: f64) -> String;

    #[wasm_bindgen(js_namespace = Math)]
    fn random() -> f64;
}

/// 64 bits from the host's `Math.random` (32 from each of two draws).
fn random_word() -> u64 {
    let draw = || (random() * 4_294_967_296.0) as u64;
    (draw() << 32) | draw()
}

/// Installs `Number(text)` as the reader and `String(f)` as the writer of
/// numbers, and draws the salt, before the first tracker reads a number
/// (its options) or makes a map.
pub fn install() {
    crate::host::install(crate::host::Host {
        read_float: host_number,
        write_float: host_string,
        salt: [random_word(), random_word()],
    });
}
