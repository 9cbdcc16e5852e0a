//! A hub and its clients (`examples/common/hub.rs`) run as one phase of a test.

#[path = "../../examples/common/hub.rs"]
mod shared;

use footlights::System;

use super::PATIENCE;

/// A hub and `clients` clients, `asks` requests each, to the end and quiescence; every
/// client must have been answered exactly `asks` times.
pub fn hub_phase(system: &System, clients: usize, asks: u64) {
    let answers = shared::start(system, clients as u64, asks).expect("every client starts");
    for answers in answers {
        let answers = answers
            .wait_timeout(PATIENCE)
            .expect("a client finished")
            .unwrap();
        assert_eq!(answers, asks, "every request is answered once");
    }
    super::quiet(system);
}
