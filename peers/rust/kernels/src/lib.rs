//! The sequential work that runs *inside* the Rust peers' actors, shared by the actix,
//! ractor and kameo suites so that a comparison between them measures the runtimes and
//! not three hand-written copies of the same loop.
//!
//! - [`fannkuch`]: fannkuch-redux over a range of permutation indices, and the partial
//!   results a collector combines;
//! - [`factor`]: trial division of the `mixed` benchmark's number, and the check of a
//!   factorisation;
//! - [`rng`]: the small pseudo-random generator `big`'s workers pick partners with, and
//!   the Savina benchmarks draw from;
//! - [`tally`]: chameneos's answer from the creatures' own reports;
//! - [`work`]: the Savina benchmarks' unit of CPU work, `step` and `work`;
//! - [`digest`]: the position-weighted sums of the Savina checks;
//! - [`sorted_list`]: concsll's list, searched from the front;
//! - [`logmap`]: logmap's rates, first terms and next term, in IEEE double.
//!
//! Nothing here sends a message: the actors do that.

pub mod digest;
pub mod factor;
pub mod fannkuch;
pub mod logmap;
pub mod rng;
pub mod sorted_list;
pub mod tally;
pub mod work;
