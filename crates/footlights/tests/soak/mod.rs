//! The soak's parts (see `tests/soak.rs`).
pub mod ledger;
pub mod node;
pub mod plan;
pub mod program;
