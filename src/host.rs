//! What the wasm module takes from its host, installed once by the binding
//! (`wasm::host`) before the first tracker: the module links no float
//! parser or formatter, and has no randomness, of its own. Native builds
//! install nothing: they read and write numbers with the standard library
//! and draw hash keys from the operating system.

use std::sync::OnceLock;

/// The host's functions and bits.
// Built by the wasm binding alone.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) struct Host {
    /// Reads a checked JSON number's text as a double, `NaN` for none
    /// (`Number(text)`; `crate::number`).
    pub read_float: fn(&str) -> f64,
    /// Writes a double as JavaScript's `String(f)` does.
    pub write_float: fn(f64) -> String,
    /// Salt for the id maps' hasher (`crate::hashing`).
    pub salt: [u64; 2],
}

static HOST: OnceLock<Host> = OnceLock::new();

/// Installs `host` for every tracker from now on (the first call wins:
/// the host's functions never change within a process).
#[cfg(target_arch = "wasm32")]
pub(crate) fn install(host: Host) {
    let _ = HOST.set(host);
}

/// The installed host, if any.
pub(crate) fn get() -> Option<&'static Host> {
    HOST.get()
}
