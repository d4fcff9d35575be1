//! The native integration tests, one binary: each file of `tests/` is a
//! module here (the rule suites are named for their rules), sharing the
//! helpers of `common/`. One binary links once, where one per file linked
//! the crate and its dependencies 32 times (a fresh checkout's `cargo test
//! --no-run`: 87 s, 55 s merged, 50 s with the dev profile's builds
//! without debug information).
//!
//! One suite: `cargo test --test main rules_chunks::`.
#![cfg(not(target_arch = "wasm32"))]

mod args_cases;
mod args_props;
mod budget_props;
mod closed_at;
mod common;
mod no_panic;
mod push_args;
mod replay;
mod round_trip;
mod rules_attribution;
mod rules_chunks;
mod rules_fidelity;
mod rules_frontend;
mod rules_input;
mod rules_interrupts;
mod rules_lifecycle;
mod rules_limits;
mod rules_opaque;
mod rules_pending;
mod rules_processing;
mod rules_restore;
mod rules_saved;
mod rules_schema;
mod rules_security;
mod rules_snapshot;
mod rules_standing;
mod rules_subagents;
mod rules_surrogates;
mod rules_table;
mod rules_toolcalls;
mod schema_suite;
mod thread_loop;
mod wire_records;
