//! The fuzz targets' bodies ([`targets`]), and what they share: plausible
//! AG-UI events and application calls built from fuzz input ([`script`]),
//! invariants on a tracker ([`check`]), and a JSON tree that keeps key
//! order and repeats ([`tree`]), for the partial-value checks.

pub mod check;
pub mod script;
pub mod targets;
pub mod tree;
