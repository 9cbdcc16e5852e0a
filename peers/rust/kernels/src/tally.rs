//! chameneos: the run's answer, combined from the creatures' own reports.
//!
//! After the last meeting every creature reports how many meetings it had and how many of
//! them paired it with itself (which the contract forbids). The tally checks that each
//! creature reported exactly once and none met itself, and gives the check (the sum of the
//! counts, which must be twice the meetings) and the `counts` list in creature order.

use std::fmt::Write;

/// The creatures' reports so far.
#[derive(Debug)]
pub struct Tally {
    counts: Vec<Option<u64>>,
    met_itself: u64,
}

impl Tally {
    /// A tally for `creatures` creatures, ids `0..creatures`.
    pub fn new(creatures: usize) -> Tally {
        Tally {
            counts: vec![None; creatures],
            met_itself: 0,
        }
    }

    /// Records creature `id`'s report.
    pub fn record(&mut self, id: usize, meetings: u64, met_itself: u64) -> Result<(), String> {
        let slot = self
            .counts
            .get_mut(id)
            .ok_or_else(|| format!("a report from creature {id}, which does not exist"))?;
        if slot.replace(meetings).is_some() {
            return Err(format!("creature {id} reported twice"));
        }
        self.met_itself += met_itself;
        Ok(())
    }

    /// The check (sum of the counts) and the counts as a comma-separated list, or what was
    /// wrong.
    ///
    /// ```
    /// let mut t = peer_kernels::tally::Tally::new(2);
    /// t.record(1, 3, 0).unwrap();
    /// t.record(0, 3, 0).unwrap();
    /// assert_eq!(t.finish(), Ok((6, "3,3".to_string())));
    /// ```
    pub fn finish(self) -> Result<(u64, String), String> {
        if self.met_itself > 0 {
            return Err(format!(
                "{} meetings paired a creature with itself",
                self.met_itself
            ));
        }
        let mut list = String::new();
        let mut sum = 0;
        for (id, count) in self.counts.into_iter().enumerate() {
            let count = count.ok_or_else(|| format!("creature {id} never reported"))?;
            let _ = write!(list, "{}{count}", if id == 0 { "" } else { "," });
            sum += count;
        }
        Ok((sum, list))
    }
}

#[cfg(test)]
mod tests {
    use super::Tally;

    #[test]
    fn rejects_missing_duplicate_and_self_meetings() {
        let mut t = Tally::new(2);
        t.record(0, 1, 0).unwrap();
        assert!(t.record(0, 1, 0).unwrap_err().contains("twice"));
        assert!(t.record(5, 1, 0).unwrap_err().contains("does not exist"));
        assert!(
            t.finish()
                .unwrap_err()
                .contains("creature 1 never reported")
        );
        let mut t = Tally::new(1);
        t.record(0, 2, 1).unwrap();
        assert!(t.finish().unwrap_err().contains("with itself"));
    }
}
