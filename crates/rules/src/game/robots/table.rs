//! The solver's transposition table: which positions were already searched, and to what depth,
//! without finding a solution.

/// A transposition table: open addressing on 64-bit keys, growing to a limit, then keeping
/// what it holds (forgetting is always sound: it only prunes less). Each slot packs the key
/// (50 bits), the depth (8 bits) and a used flag in one word, so a probe touches one cache line.
pub(super) struct Table {
    slots: Vec<u64>,
    len: usize,
    limit: usize,
}

impl Table {
    const USED: u64 = 1 << 63;

    pub(super) fn new(limit: usize) -> Table {
        Table {
            slots: vec![0; 1 << 12],
            len: 0,
            limit: limit.max(1 << 11),
        }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    fn slot(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        while self.slots[i] != 0 && (self.slots[i] & !Self::USED) >> 8 != key {
            i = (i + 1) & mask;
        }
        i
    }

    pub(super) fn get(&self, key: u64) -> Option<u8> {
        let e = self.slots[self.slot(key)];
        (e != 0).then_some(e as u8)
    }

    pub(super) fn put(&mut self, key: u64, depth: u8) {
        let i = self.slot(key);
        let e = self.slots[i];
        if e != 0 {
            if depth > e as u8 {
                self.slots[i] = (e & !0xff) | depth as u64;
            }
            return;
        }
        if self.len >= self.limit {
            return;
        }
        self.slots[i] = Self::USED | key << 8 | depth as u64;
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        for e in old.into_iter().filter(|&e| e != 0) {
            let i = self.slot((e & !Self::USED) >> 8);
            self.slots[i] = e;
        }
    }
}
