//! The labels' decisions: whether a steal takes whole groups, which groups it keeps, and
//! when it takes half of one group after all (the mechanism, labels that merge along
//! hand-offs and the group steal itself, is [`crate::scheduler::group`] and the worker's
//! steal; its documentation says why).

use super::tunables::{GROUP_KEEP_LEAST, GROUP_STEAL_MOST};

/// How many tasks a group steal takes from a deque that holds `len`: all of them, up to
/// [`GROUP_STEAL_MOST`], and at least one.
pub(crate) fn steal_most(len: usize) -> usize {
    len.clamp(1, GROUP_STEAL_MOST)
}

/// Whether a steal takes whole groups: while the system labels groups and somebody else
/// is awake (with nobody else awake, nobody could pull a group back, so half a deque is
/// no tug of war).
/// `awake` is read only while the system labels.
#[inline]
pub(crate) fn by_groups(grouping: bool, awake: impl FnOnce() -> usize) -> bool {
    grouping && awake() > 1
}

/// Whether a group steal that would decline (`split` found one group) takes the oldest
/// half instead: only if the victim is saturated with long turns.
pub(crate) fn halves(declines: bool, saturated: impl FnOnce() -> bool) -> bool {
    declines && saturated()
}

/// Which groups a woken worker takes, given the labels of the tasks it took (see the
/// module documentation): the labels to keep, chosen largest group first, making up at most
/// half of the tasks, and returned in ascending order (for a binary search); `None`
/// (decline) if that would be less than one in [`GROUP_KEEP_LEAST`] of them, as when the tasks are one group.
pub(crate) fn split(labels: &[u64]) -> Option<Vec<u64>> {
    let total = labels.len();
    let mut sorted = labels.to_vec();
    sorted.sort_unstable();
    let mut groups: Vec<(usize, u64)> = Vec::new();
    for chunk in sorted.chunk_by(|a, b| a == b) {
        groups.push((chunk.len(), chunk[0]));
    }
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let mut taken = 0;
    let mut keep = Vec::new();
    for &(count, label) in &groups {
        if 2 * (taken + count) <= total {
            taken += count;
            keep.push(label);
        }
    }
    keep.sort_unstable();
    (taken > 0 && GROUP_KEEP_LEAST * taken >= total).then_some(keep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_group_is_declined() {
        assert_eq!(split(&[7; 64]), None);
        // Nearly one group: the strays are less than an eighth.
        let mut labels = vec![7; 60];
        labels.extend([1, 2, 3, 4]);
        assert_eq!(split(&labels), None);
        assert_eq!(split(&[]), None);
    }

    #[test]
    fn two_groups_are_split_whole() {
        let mut labels = vec![5; 30];
        labels.extend(vec![9; 34]);
        // 34 is more than half of 64: the 30 are taken, whole.
        assert_eq!(split(&labels), Some(vec![5]));
        let mut even = vec![5; 32];
        even.extend(vec![9; 32]);
        assert_eq!(split(&even).map(|keep| keep.len()), Some(1));
    }

    #[test]
    fn several_groups_are_shared_out_by_halves() {
        // Four groups of 500: two are taken.
        let labels: Vec<u64> = (0..2000).map(|i| 1 + i % 4).collect();
        assert_eq!(split(&labels).map(|keep| keep.len()), Some(2));
        // Groups of one (a tree's actors): half of them, in ascending order.
        let labels: Vec<u64> = (1..=64).rev().collect();
        let keep = split(&labels).expect("several groups");
        assert_eq!(keep.len(), 32);
        assert!(keep.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn groups_are_stolen_whole_only_with_company() {
        assert!(by_groups(true, || 2));
        assert!(!by_groups(true, || 1), "alone: nobody pulls a group back");
        assert!(!by_groups(false, || 4), "the system does not label");
        assert!(halves(true, || true));
        assert!(
            !halves(true, || false),
            "a chatty group's worker: the decline stands"
        );
        assert!(!halves(false, || unreachable!("no decline, no watch")));
        assert_eq!(steal_most(0), 1);
        assert_eq!(steal_most(100), 100);
        assert_eq!(steal_most(1 << 20), GROUP_STEAL_MOST);
    }
}
