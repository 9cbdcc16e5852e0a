//! Presenting results on the terminal: the per-benchmark tables, their columns (shared
//! with the Markdown export) and human-friendly units.

pub mod columns;
pub mod table;
pub mod units;
