//! The transposition table: one entry per slot, replaced when the new result is
//! deeper or the old one is from an earlier search.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// What a stored score is: exact, or a bound from a cut.
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone, Copy)]
/// One stored result.
pub struct Entry {
    key: u64,
    /// The best move, as the game's engine packs a move into 16 bits.
    pub mv: u16,
    pub score: i16,
    pub depth: i8,
    pub bound: Bound,
    age: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: 0,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    age: 0,
};

/// A fixed-size table of search results, indexed by the position's hash.
pub struct Tt {
    slots: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl Tt {
    /// A table of about `mb` MiB (a power of two of entries, at least 1024).
    pub fn new(mb: usize) -> Tt {
        let want = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let n = want.next_power_of_two() / 2;
        let n = n.max(1024);
        Tt {
            slots: vec![EMPTY; n],
            mask: n - 1,
            age: 0,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(EMPTY);
    }

    /// Marks the entries stored so far as older than the next search's.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    /// The entry stored for position `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.slots[key as usize & self.mask];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    #[inline]
    /// Keeps a search result for position `key`; `mv` is the best move's 16-bit key.
    pub fn store(&mut self, key: u64, mv: u16, score: i32, depth: i32, bound: Bound) {
        let slot = &mut self.slots[key as usize & self.mask];
        if slot.key != key && slot.age == self.age && slot.depth as i32 > depth + 2 {
            return;
        }
        *slot = Entry {
            key,
            mv,
            score: score.clamp(-32_000, 32_000) as i16,
            depth: depth.clamp(0, 127) as i8,
            bound,
            age: self.age,
        };
    }
}
