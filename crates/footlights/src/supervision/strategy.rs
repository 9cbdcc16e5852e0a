//! Which children a supervisor restarts when one fails, and how often it may.
//!
//! The restart intensity is a sliding window: the times of the restarts of the last
//! `within` are kept; a restart that would make more than `max_restarts` of them is
//! refused, and the supervisor gives up (see [`super`]).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Which children a supervisor restarts when one of them fails (and is restarted, as its
/// [`super::Restart`] policy says).
///
/// ```
/// use footlights::supervision::Strategy;
///
/// assert_eq!(Strategy::default(), Strategy::OneForOne);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Only the child that failed.
    #[default]
    OneForOne,
    /// Every child: the others are restarted too (a temporary one is stopped instead).
    OneForAll,
    /// The child that failed and the children added after it (a temporary one is stopped
    /// instead).
    RestForOne,
}

/// A supervisor's restart intensity: at most `max_restarts` restarts within any
/// `within`. One more, and the supervisor gives up: its own supervisor restarts it, if it
/// has one that allows that; otherwise it stops its children and itself, with
/// [`crate::ExitReason::TooManyRestarts`] (see [`super`]). The default is Erlang/OTP's: 1
/// restart in 5 seconds.
///
/// ```
/// use std::time::Duration;
/// use footlights::supervision::Intensity;
///
/// let intensity = Intensity::new(3, Duration::from_secs(10));
/// assert_eq!(intensity.max_restarts, 3);
/// assert_eq!(Intensity::default(), Intensity::new(1, Duration::from_secs(5)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Intensity {
    /// How many restarts are allowed within `within` (0: none; the first failure of a
    /// child that would restart stops the supervisor).
    pub max_restarts: u32,
    /// The window.
    pub within: Duration,
}

impl Intensity {
    /// At most `max_restarts` restarts within any `within`.
    pub fn new(max_restarts: u32, within: Duration) -> Intensity {
        Intensity {
            max_restarts,
            within,
        }
    }
}

impl Default for Intensity {
    fn default() -> Intensity {
        Intensity::new(1, Duration::from_secs(5))
    }
}

/// The restarts of the last window; see the module documentation.
#[derive(Debug, Default)]
pub(crate) struct Window {
    times: VecDeque<Instant>,
}

impl Window {
    /// Counts a restart at `now`, if `intensity` allows one more; `false` if it does not.
    pub(crate) fn admit(&mut self, now: Instant, intensity: Intensity) -> bool {
        while let Some(&first) = self.times.front() {
            if now.duration_since(first) >= intensity.within {
                self.times.pop_front();
            } else {
                break;
            }
        }
        if self.times.len() >= intensity.max_restarts as usize {
            return false;
        }
        self.times.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_slides() {
        let intensity = Intensity::new(2, Duration::from_secs(10));
        let mut window = Window::default();
        let t0 = Instant::now();
        assert!(window.admit(t0, intensity));
        assert!(window.admit(t0 + Duration::from_secs(1), intensity));
        assert!(!window.admit(t0 + Duration::from_secs(2), intensity));
        assert!(
            window.admit(t0 + Duration::from_secs(10), intensity),
            "the first restart left the window"
        );
        assert!(!window.admit(t0 + Duration::from_secs(10), intensity));
    }

    #[test]
    fn zero_allows_none() {
        let mut window = Window::default();
        assert!(!window.admit(Instant::now(), Intensity::new(0, Duration::from_secs(1))));
    }
}
