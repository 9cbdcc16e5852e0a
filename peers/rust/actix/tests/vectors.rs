//! actix-suite against the contract: every shared test vector at 1 and 2 arbiters
//! (`ACTIX_THREADS`), and every shape of bad input.

use vector_check::{Suite, check_bad_input, check_vectors};

fn suite() -> Suite {
    Suite::new(env!("CARGO_BIN_EXE_actix-suite"), "ACTIX_THREADS")
}

#[test]
fn every_vector_at_one_and_two_threads() {
    check_vectors(&suite(), &[1, 2]);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    check_bad_input(&suite());
}
