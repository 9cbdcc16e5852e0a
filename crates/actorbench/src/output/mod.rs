//! Presenting results on the terminal: the per-benchmark tables and human-friendly units.

pub mod table;
pub mod units;
