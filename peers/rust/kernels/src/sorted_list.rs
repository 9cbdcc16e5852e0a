//! concsll's list: 64-bit values in ascending order, searched from the front.
//!
//! Savina's list actor keeps a singly linked list and walks it from the head for every
//! operation. This one keeps the values in a `Vec` and walks it the same way: an insert
//! walks to the first value that is not smaller and inserts before it (so equal values are
//! all kept, the newest first), a lookup walks until it finds the value or passes it. The
//! cost of each operation therefore grows with the list, as in Savina.

use crate::digest::weighted_sum;

/// A sorted list of values, empty at the start.
#[derive(Clone, Debug, Default)]
pub struct SortedList {
    values: Vec<u64>,
}

impl SortedList {
    /// An empty list.
    pub fn new() -> SortedList {
        SortedList::default()
    }

    /// Inserts `value` before the first value that is not smaller.
    ///
    /// ```
    /// let mut list = peer_kernels::sorted_list::SortedList::new();
    /// for v in [5, 1, 5, 3] {
    ///     list.insert(v);
    /// }
    /// assert_eq!(list.len(), 4);
    /// assert_eq!(list.contents(), 1 + 2 * 3 + 3 * 5 + 4 * 5);
    /// ```
    pub fn insert(&mut self, value: u64) {
        let at = self
            .values
            .iter()
            .position(|&v| v >= value)
            .unwrap_or(self.values.len());
        self.values.insert(at, value);
    }

    /// Whether `value` is in the list, walking from the front until it is found or passed.
    ///
    /// ```
    /// let mut list = peer_kernels::sorted_list::SortedList::new();
    /// list.insert(4);
    /// assert!(list.contains(4) && !list.contains(3) && !list.contains(9));
    /// ```
    pub fn contains(&self, value: u64) -> bool {
        for &v in &self.values {
            if v >= value {
                return v == value;
            }
        }
        false
    }

    /// The number of values.
    pub fn len(&self) -> u64 {
        self.values.len() as u64
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The contract's `CONTENTS`: the sum over positions `p` of `(p + 1) * value`, wrapping.
    pub fn contents(&self) -> u64 {
        weighted_sum(self.values.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::SortedList;

    #[test]
    fn keeps_order_and_duplicates_and_weighs_positions() {
        let mut list = SortedList::new();
        assert!(list.is_empty() && list.contents() == 0 && !list.contains(0));
        for v in [9, 2, 7, 2, 0] {
            list.insert(v);
        }
        assert_eq!(list.len(), 5);
        // [0, 2, 2, 7, 9]: position 0 holds 0, which adds nothing.
        assert_eq!(list.contents(), 2 * 2 + 3 * 2 + 4 * 7 + 5 * 9);
        assert!(list.contains(0) && list.contains(2) && list.contains(9));
        assert!(!list.contains(1) && !list.contains(8) && !list.contains(10));
    }
}
