//! The host's `Date` as the tracker's clock (rule I5): `expiresAt` is read
//! exactly as the reference client reads it, `new Date(expiresAt)`.

use crate::Clock;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Date, js_name = now)]
    fn date_now() -> f64;

    #[wasm_bindgen(js_namespace = Date, js_name = parse)]
    fn date_parse(text: &str) -> f64;
}

fn parse(text: &str) -> Option<f64> {
    Some(date_parse(text)).filter(|ms| !ms.is_nan())
}

/// `Date.now()` and `Date.parse(text)` (`NaN`: not a date).
pub fn host() -> Clock {
    Clock {
        now_ms: date_now,
        parse_date: parse,
    }
}
