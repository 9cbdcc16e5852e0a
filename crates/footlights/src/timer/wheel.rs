//! A hierarchical timing wheel: where pending timers wait for their tick.
//!
//! # The algorithm
//!
//! Time is counted in ticks (the service's are milliseconds), as a `u64`. The wheel has
//! [`LEVELS`] levels of 64 slots; a slot of level `L` spans `64^L` ticks, so level 0 holds
//! the next 64 ticks one slot each, level 1 the next 4096 ticks in slots of 64, and so on.
//! Eleven levels of six bits cover every `u64`, so no deadline is ever clamped and the
//! wheel never wraps.
//!
//! `elapsed` is the tick up to which every timer has been handed out. A timer due at tick
//! `d > elapsed` sits at the level of the highest six-bit digit in which `d` and
//! `elapsed` differ, in the slot named by `d`'s digit at that level. So a timer due within
//! the current 64-tick block is at level 0 in its exact tick's slot; one due later in the
//! current 4096-tick block is at level 1, and so on. A timer due at or before `elapsed`
//! (inserted late) goes straight to the *due* list.
//!
//! Every slot of a lower level ends before any slot of a higher one begins, so the next
//! tick the wheel must look at is the start of the first occupied slot of the lowest
//! occupied level (one bit scan of a 64-bit occupancy mask per level). Reaching that slot
//! (when the clock has passed its start), the wheel moves `elapsed` to the slot's start
//! and empties it: each timer is due (its deadline is the slot's start) or goes down to
//! the level its deadline now differs in, below the one it came from. A timer therefore
//! moves at most once per level on its way down: inserting and cancelling are O(1), and
//! expiry costs O(levels) per timer at worst, whatever the number of timers pending.
//! Between occupied slots the wheel jumps: an idle stretch costs nothing, however long.
//!
//! Timers live in a slab (a `Vec` with a free list), and each slot is a doubly linked list
//! of slab indices, so a timer is removed from the middle of its slot in O(1) when it is
//! cancelled. A [`Key`] names a timer by slab index and generation (bumped when the index
//! is freed), so a key of a timer that has gone never reaches the index's next tenant.
//!
//! A timer handed out by [`Wheel::poll`] stays in the slab, unlinked, until the caller
//! [`Wheel::remove`]s it or puts it back with [`Wheel::reinsert`] (a periodic timer): its
//! key stays valid all along.
//!
//! Compared with a binary heap (the other choice for one timer service): a heap's insert
//! and expiry are O(log n), and cancelling needs an index kept per timer or leaves the
//! cancelled timer (and whatever it holds) in the heap until its deadline. Timeouts are
//! mostly cancelled before they fire (an answer came in time), so the wheel's O(1) cancel
//! that frees at once is the better fit for many timers. The price is the resolution of
//! one tick.

/// How many levels of 64 slots: 11 × 6 bits cover every `u64` tick.
pub(crate) const LEVELS: usize = 11;
const SLOTS: usize = 64;
const BITS: u32 = 6;
/// A list's end, or no list.
const NIL: u32 = u32::MAX;
/// The list index of the due list (after the levels' slots).
const DUE: usize = LEVELS * SLOTS;

/// A timer's name in the wheel: slab index and generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    index: u32,
    generation: u32,
}

struct Entry<T> {
    generation: u32,
    /// Deadline tick.
    deadline: u64,
    /// The list it is linked in ([`DUE`], a slot), or [`NIL`] when unlinked or free.
    list: u32,
    prev: u32,
    next: u32,
    /// `None` when the entry is free.
    value: Option<T>,
}

/// A timing wheel of values of type `T`; see the module documentation.
pub(crate) struct Wheel<T> {
    elapsed: u64,
    /// Which slots of each level hold timers.
    occupied: [u64; LEVELS],
    /// Head and tail of each slot's list, then of the due list.
    heads: Box<[u32]>,
    tails: Box<[u32]>,
    entries: Vec<Entry<T>>,
    /// Head of the list of free entries (linked through `next`).
    free: u32,
    len: usize,
}

impl<T> Wheel<T> {
    /// An empty wheel at tick 0.
    pub(crate) fn new() -> Self {
        Wheel {
            elapsed: 0,
            occupied: [0; LEVELS],
            heads: vec![NIL; DUE + 1].into_boxed_slice(),
            tails: vec![NIL; DUE + 1].into_boxed_slice(),
            entries: Vec::new(),
            free: NIL,
            len: 0,
        }
    }

    /// How many timers the wheel holds (linked or handed out).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The tick up to which timers have been handed out.
    #[cfg(test)]
    pub(crate) fn elapsed(&self) -> u64 {
        self.elapsed
    }

    /// Adds a timer due at tick `deadline`, and returns its key.
    pub(crate) fn insert(&mut self, deadline: u64, value: T) -> Key {
        let index = if self.free == NIL {
            let index = u32::try_from(self.entries.len()).expect("fewer than 2^32 timers");
            assert!(index != NIL, "fewer than 2^32 - 1 timers");
            self.entries.push(Entry {
                generation: 0,
                deadline,
                list: NIL,
                prev: NIL,
                next: NIL,
                value: Some(value),
            });
            index
        } else {
            let index = self.free;
            let entry = &mut self.entries[index as usize];
            self.free = entry.next;
            entry.deadline = deadline;
            entry.value = Some(value);
            index
        };
        self.len += 1;
        self.link(index);
        Key {
            index,
            generation: self.entries[index as usize].generation,
        }
    }

    /// The entry of `key`, if the timer is still in the wheel.
    fn entry(&self, key: Key) -> Option<&Entry<T>> {
        self.entries
            .get(key.index as usize)
            .filter(|e| e.generation == key.generation && e.value.is_some())
    }

    /// The value of the timer `key`, if it is still in the wheel.
    pub(crate) fn get(&self, key: Key) -> Option<&T> {
        self.entry(key)?.value.as_ref()
    }

    /// The value of the timer `key`, if it is still in the wheel, to change.
    pub(crate) fn get_mut(&mut self, key: Key) -> Option<&mut T> {
        self.entry(key)?;
        self.entries[key.index as usize].value.as_mut()
    }

    /// Removes the timer `key` (linked or handed out), and returns its value; `None` if it
    /// has already gone.
    pub(crate) fn remove(&mut self, key: Key) -> Option<T> {
        self.entry(key)?;
        let index = key.index;
        self.unlink(index);
        let entry = &mut self.entries[index as usize];
        let value = entry.value.take();
        entry.generation = entry.generation.wrapping_add(1);
        entry.next = self.free;
        self.free = index;
        self.len -= 1;
        value
    }

    /// Puts back a timer that [`Wheel::poll`] handed out, due at tick `deadline`. Does
    /// nothing if `key` has gone or is still linked.
    pub(crate) fn reinsert(&mut self, key: Key, deadline: u64) {
        if self.entry(key).is_some_and(|e| e.list == NIL) {
            self.entries[key.index as usize].deadline = deadline;
            self.link(key.index);
        }
    }

    /// The next tick at which [`Wheel::poll`] has something to do: now, if a timer is due,
    /// else the start of the next occupied slot; `None` if no timer is linked.
    #[cfg_attr(any(loom, shuttle), allow(dead_code))] // the models have no thread to sleep
    pub(crate) fn next_tick(&self) -> Option<u64> {
        if self.heads[DUE] != NIL {
            return Some(self.elapsed);
        }
        self.next_slot().map(|(_, _, start)| start)
    }

    /// Hands out the next timer due at or before tick `now` (unlinked, still in the slab:
    /// remove or reinsert it), or `None` when none is; then the wheel stands at `now`.
    pub(crate) fn poll(&mut self, now: u64) -> Option<Key> {
        loop {
            let head = self.heads[DUE];
            if head != NIL {
                self.unlink(head);
                let generation = self.entries[head as usize].generation;
                return Some(Key {
                    index: head,
                    generation,
                });
            }
            match self.next_slot() {
                Some((level, slot, start)) if start <= now => self.cascade(level, slot, start),
                _ => {
                    self.elapsed = self.elapsed.max(now);
                    return None;
                }
            }
        }
    }

    /// The lowest occupied level's first occupied slot: `(level, slot, start tick)`.
    fn next_slot(&self) -> Option<(usize, usize, u64)> {
        let level = self.occupied.iter().position(|&mask| mask != 0)?;
        let shift = BITS * level as u32;
        let position = ((self.elapsed >> shift) & (SLOTS as u64 - 1)) as u32;
        // Every occupied slot is after the current position (module documentation); the
        // rotation finds the first from there all the same.
        let slot = (self.occupied[level].rotate_right(position).trailing_zeros() + position)
            % SLOTS as u32;
        debug_assert!(slot > position, "a slot at or behind the wheel's position");
        let span = shift + BITS;
        let base = if span >= 64 {
            0
        } else {
            self.elapsed & !((1u64 << span) - 1)
        };
        Some((level, slot as usize, base + (u64::from(slot) << shift)))
    }

    /// Moves the wheel to `start`, the start of `level`'s `slot`, and empties that slot:
    /// each timer is due or goes down a level.
    fn cascade(&mut self, level: usize, slot: usize, start: u64) {
        self.elapsed = start;
        let list = level * SLOTS + slot;
        let mut at = self.heads[list];
        self.heads[list] = NIL;
        self.tails[list] = NIL;
        self.occupied[level] &= !(1u64 << slot);
        while at != NIL {
            let next = self.entries[at as usize].next;
            let entry = &mut self.entries[at as usize];
            entry.list = NIL;
            entry.prev = NIL;
            entry.next = NIL;
            self.link(at);
            at = next;
        }
    }

    /// Links an unlinked entry into the list its deadline belongs to.
    fn link(&mut self, index: u32) {
        let deadline = self.entries[index as usize].deadline;
        let list = if deadline <= self.elapsed {
            DUE
        } else {
            let differ = (self.elapsed ^ deadline) | (SLOTS as u64 - 1);
            let level = ((63 - differ.leading_zeros()) / BITS) as usize;
            let slot = ((deadline >> (BITS * level as u32)) & (SLOTS as u64 - 1)) as usize;
            self.occupied[level] |= 1u64 << slot;
            level * SLOTS + slot
        };
        let tail = self.tails[list];
        let entry = &mut self.entries[index as usize];
        entry.list = list as u32;
        entry.prev = tail;
        entry.next = NIL;
        if tail == NIL {
            self.heads[list] = index;
        } else {
            self.entries[tail as usize].next = index;
        }
        self.tails[list] = index;
    }

    /// Unlinks an entry from its list, if it is in one.
    fn unlink(&mut self, index: u32) {
        let (list, prev, next) = {
            let e = &self.entries[index as usize];
            (e.list, e.prev, e.next)
        };
        if list == NIL {
            return;
        }
        let list = list as usize;
        if prev == NIL {
            self.heads[list] = next;
        } else {
            self.entries[prev as usize].next = next;
        }
        if next == NIL {
            self.tails[list] = prev;
        } else {
            self.entries[next as usize].prev = prev;
        }
        if self.heads[list] == NIL && list != DUE {
            self.occupied[list / SLOTS] &= !(1u64 << (list % SLOTS));
        }
        let entry = &mut self.entries[index as usize];
        entry.list = NIL;
        entry.prev = NIL;
        entry.next = NIL;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::XorShift;
    use std::collections::BTreeMap;

    /// Polls everything due at `now`, removing it, and returns the values.
    fn due(wheel: &mut Wheel<u64>, now: u64) -> Vec<u64> {
        let mut out = Vec::new();
        while let Some(key) = wheel.poll(now) {
            out.push(wheel.remove(key).expect("handed out, still there"));
        }
        out
    }

    #[test]
    fn fires_at_the_deadline_not_before() {
        let mut wheel = Wheel::new();
        for d in [1u64, 2, 63, 64, 65, 4095, 4096, 4097, 300_000, 1 << 40] {
            wheel.insert(d, d);
        }
        let mut fired = Vec::new();
        let mut now = 0;
        while let Some(next) = wheel.next_tick() {
            assert!(next >= now, "the next tick is never behind");
            // Polling one tick early finds nothing due that early.
            for v in due(&mut wheel, next.saturating_sub(1)) {
                assert!(v < next, "{v} fired before its tick");
                fired.push((v, next - 1));
            }
            now = next;
            for v in due(&mut wheel, now) {
                fired.push((v, now));
            }
        }
        for &(v, at) in &fired {
            assert_eq!(v, at, "timer {v} fired at {at}");
        }
        assert_eq!(fired.len(), 10);
        assert_eq!(wheel.len(), 0);
    }

    #[test]
    fn late_inserts_are_due_at_once() {
        let mut wheel = Wheel::new();
        assert_eq!(due(&mut wheel, 1000), Vec::<u64>::new());
        assert_eq!(wheel.elapsed(), 1000);
        wheel.insert(10, 10);
        wheel.insert(1000, 1000);
        assert_eq!(wheel.next_tick(), Some(1000));
        assert_eq!(due(&mut wheel, 1000), vec![10, 1000]);
    }

    #[test]
    fn removed_timers_never_fire_and_keys_do_not_alias() {
        let mut wheel = Wheel::new();
        let a = wheel.insert(100, 1);
        let b = wheel.insert(100, 2);
        assert_eq!(wheel.remove(a), Some(1));
        assert_eq!(wheel.remove(a), None, "removed once");
        let c = wheel.insert(200, 3);
        assert_eq!(
            wheel.remove(a),
            None,
            "the old key does not reach the new tenant"
        );
        assert_eq!(due(&mut wheel, 150), vec![2]);
        assert_eq!(wheel.remove(b), None, "handed out and removed");
        assert!(wheel.get(c).is_some());
        assert_eq!(due(&mut wheel, 1_000_000), vec![3]);
    }

    #[test]
    fn reinserted_timers_keep_their_key() {
        let mut wheel = Wheel::new();
        let key = wheel.insert(10, 7);
        for round in 1..=100u64 {
            let now = 10 * round;
            assert_eq!(wheel.poll(now), Some(key));
            assert_eq!(wheel.poll(now), None);
            assert_eq!(wheel.get_mut(key).copied(), Some(7));
            wheel.reinsert(key, now + 10);
        }
        assert_eq!(wheel.remove(key), Some(7));
        assert_eq!(wheel.len(), 0);
    }

    /// Random inserts, removals and polls against a sorted map: the wheel hands out exactly
    /// the timers due, each once, none early.
    #[test]
    fn agrees_with_a_sorted_map() {
        let rng = XorShift::new(0x5eed);
        let mut wheel = Wheel::new();
        let mut model: BTreeMap<(u64, u64), Key> = BTreeMap::new();
        let mut now = 0u64;
        for id in 0..20_000u64 {
            match rng.below(10) {
                0..=5 => {
                    let span = [10, 100, 5_000, 300_000, 1 << 33][rng.below(5) as usize];
                    let deadline = now + rng.below(span);
                    let key = wheel.insert(deadline, id);
                    model.insert((deadline, id), key);
                }
                6 => {
                    if let Some((&(d, id), &key)) = model.iter().nth(rng.below(8) as usize) {
                        assert_eq!(wheel.remove(key), Some(id));
                        model.remove(&(d, id));
                    }
                }
                _ => {
                    now += rng.below(2_000);
                    if rng.below(50) == 0 {
                        now += 1 << 32;
                    }
                    let mut fired = due(&mut wheel, now);
                    fired.sort_unstable();
                    let mut expected: Vec<u64> = model
                        .range(..=(now, u64::MAX))
                        .map(|(&(_, id), _)| id)
                        .collect();
                    expected.sort_unstable();
                    assert_eq!(fired, expected, "at tick {now}");
                    model.retain(|&(d, _), _| d > now);
                    if let Some(next) = wheel.next_tick() {
                        let first = model.keys().next().expect("a timer is pending").0;
                        assert!(next <= first, "the wheel looks again by the first deadline");
                        assert!(next > now, "nothing due is left behind");
                    }
                }
            }
            assert_eq!(wheel.len(), model.len());
        }
    }
}
