//! The JS binding: a thin layer over the pure core (compiled for wasm32 only).
