//! Disjoint sets (a union-find) over actors numbered `0..n`: the one rules 4 and 6 of
//! automatic placement join their groups and communities with (`decide.rs`,
//! `community.rs`).
//!
//! # The algorithm
//!
//! Each element points at a parent; a *root* points at itself and names its set, so two
//! elements are in one set when they reach the same root. [`Sets::find`] follows the
//! parents up to the root and *halves the path* on the way (each element it passes is
//! pointed at its grandparent), so that a later find from there takes half the steps.
//! [`Sets::join`] links one root under another.
//!
//! The caller says which of the two roots stays: the root of the first actor of the pair,
//! as both rules did when each kept a union-find of its own. A root is the key of what a
//! rule keeps beside the sets (rule 4 a group's load and size, which it checks against
//! its bound before it joins two groups; rule 6 each community's members and pairs, whose
//! order decides where communities of equal size go), so keeping the roots the rules had
//! keeps their decisions what they were. Without union by rank a chain of joins can make a
//! long path once, but path halving shortens it at the next finds, and the sets here are
//! a few thousand actors at most, joined once a decision.

/// Disjoint sets of the elements `0..n`; see the module documentation.
pub(super) struct Sets {
    /// Each element's parent; a root is its own.
    parent: Vec<usize>,
}

impl Sets {
    /// `n` elements, each a set of its own.
    pub(super) fn new(n: usize) -> Sets {
        Sets {
            parent: (0..n).collect(),
        }
    }

    /// The root of `x`'s set; halves the path from `x` on the way.
    pub(super) fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Joins the sets of the roots `keep` and `absorbed`: `keep` stays the root of both.
    pub(super) fn join(&mut self, keep: usize, absorbed: usize) {
        debug_assert!(
            self.parent[keep] == keep && self.parent[absorbed] == absorbed,
            "only roots are joined"
        );
        self.parent[absorbed] = keep;
    }

    /// Joins the sets of `x` and `y`, keeping `x`'s root; whether they were apart.
    pub(super) fn union(&mut self, x: usize, y: usize) -> bool {
        let (rx, ry) = (self.find(x), self.find(y));
        if rx != ry {
            self.join(rx, ry);
        }
        rx != ry
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sets, as each element's smallest set-mate, computed the slow way: the
    /// connected components of `pairs` by repeated relaxation.
    fn components(n: usize, pairs: &[(usize, usize)]) -> Vec<usize> {
        let mut least: Vec<usize> = (0..n).collect();
        loop {
            let mut changed = false;
            for &(x, y) in pairs {
                let m = least[x].min(least[y]);
                for z in [x, y] {
                    if least[z] != m {
                        least[z] = m;
                        changed = true;
                    }
                }
            }
            if !changed {
                return least;
            }
        }
    }

    #[test]
    fn the_sets_are_the_connected_components_and_the_first_root_stays() {
        // A small generator, so that the test needs no dependency and repeats exactly.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        for round in 0..200 {
            let n = 1 + round % 60;
            let pairs: Vec<(usize, usize)> = (0..next(2 * n)).map(|_| (next(n), next(n))).collect();
            let mut sets = Sets::new(n);
            for &(x, y) in &pairs {
                let before = (sets.find(x), sets.find(y));
                let apart = sets.union(x, y);
                assert_eq!(apart, before.0 != before.1);
                assert_eq!(sets.find(y), before.0, "the first actor's root stays");
            }
            let least = components(n, &pairs);
            for x in 0..n {
                for y in 0..n {
                    assert_eq!(
                        sets.find(x) == sets.find(y),
                        least[x] == least[y],
                        "{x} and {y} in {pairs:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn join_keeps_the_root_it_is_told_to() {
        let mut sets = Sets::new(4);
        sets.join(2, 0);
        sets.join(2, 3);
        sets.join(1, 2);
        assert!((0..4).all(|x| sets.find(x) == 1));
    }
}
