//! The contract with the JS layer: what crosses the wasm boundary, as JSON
//! text, in both directions. The constructor's options come in
//! ([`parse_options`]); change records, summaries and refusals go out
//! ([`ChangeRecord`], [`SummaryRecord`], [`RefusalRecord`]).
//!
//! Pure Rust, no wasm types: the binding (`src/wasm/`, wasm32 only) calls
//! it, and native tests read it. These types are the one source of the
//! TypeScript declarations of `js/wire.d.ts`, which the JS layer is
//! type-checked against: a unit test (module `declarations`) derives them
//! with `ts-rs`, a dev-dependency, so the wasm module carries none of it.

mod names;
mod options;
mod records;
mod saved;

#[cfg(test)]
mod declarations;

pub use names::refusal_kind;
pub use options::parse_options;
pub use records::{json_text, ChangeRecord, RefusalRecord, SummaryRecord, WriteJson};
// The binding writes its own JSON lists with these; messages quote ids
// with the string writer (`quote::quoted`).
#[cfg(target_arch = "wasm32")]
pub(crate) use records::number as json_number;
pub(crate) use records::string as json_string;
pub use saved::{save, SavedRecord};
