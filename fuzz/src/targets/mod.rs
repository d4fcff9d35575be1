//! The fuzz targets' bodies, one module each: what a target checks, run
//! on one input. `fuzz_targets/` hands them libFuzzer's inputs, and
//! `tests/replay.rs` those of `regressions/` and `seeds/` and a seeded
//! generator's, on stable Rust, in `npm test`.

pub mod args_reader;
pub mod json_syntax;
pub mod plain_args;
pub mod saved_load;
pub mod schema;
pub mod sse_split;
pub mod tracker_events;
