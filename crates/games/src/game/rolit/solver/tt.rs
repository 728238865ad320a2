//! The exact solver's transposition table: bounds on a two-player position's exact value,
//! keyed by the whole position (the mover's, the opponent's and the unowned balls), so a hit
//! is never a collision. Exact values do not depend on a search depth, so two bounds found
//! for the same position always combine (the higher lower bound, the lower upper bound).
//!
//! Buckets of two entries: the first keeps the position with the most empties (its subtree
//! cost the most), the second takes whatever comes last.

/// A stored position and what is known of its value.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    me: u64,
    you: u64,
    neutral: u64,
    lower: i8,
    upper: i8,
    /// The best move found (a square index), or 64 for none.
    best: u8,
    empties: u8,
}

/// What the table knows of a position: its value lies in `lower..=upper`; `best` is the move
/// that proved the bound (64 if none).
#[derive(Clone, Copy, Debug)]
pub struct Known {
    pub lower: i32,
    pub upper: i32,
    pub best: u8,
}

/// The table.
#[derive(Debug)]
pub struct Table {
    entries: Vec<[Entry; 2]>,
    mask: usize,
}

impl Table {
    /// A table of about `bytes` bytes (a power of two of buckets, at least one).
    pub fn with_bytes(bytes: usize) -> Table {
        let want = (bytes / std::mem::size_of::<[Entry; 2]>()).max(1);
        let buckets = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Table {
            entries: vec![[Entry::default(); 2]; buckets],
            mask: buckets - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill([Entry::default(); 2]);
    }

    #[inline(always)]
    fn index(&self, me: u64, you: u64, neutral: u64) -> usize {
        let h = me.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ you.wrapping_mul(0xc2b2_ae3d_27d4_eb4f).rotate_left(23)
            ^ neutral.wrapping_mul(0x1656_67b1_9e37_79f9).rotate_left(41);
        ((h ^ (h >> 29)) as usize) & self.mask
    }

    #[inline(always)]
    pub fn probe(&self, me: u64, you: u64, neutral: u64) -> Option<Known> {
        let bucket = &self.entries[self.index(me, you, neutral)];
        bucket
            .iter()
            .find(|e| e.me == me && e.you == you && e.neutral == neutral && e.me | e.you != 0)
            .map(|e| Known {
                lower: e.lower as i32,
                upper: e.upper as i32,
                best: e.best,
            })
    }

    /// Records that the value lies in `lower..=upper`, `best` the move that showed it.
    #[inline(always)]
    pub fn store(
        &mut self,
        (me, you, neutral): (u64, u64, u64),
        empties: u32,
        lower: i32,
        upper: i32,
        best: u8,
    ) {
        let i = self.index(me, you, neutral);
        let bucket = &mut self.entries[i];
        let fresh = Entry {
            me,
            you,
            neutral,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
        };
        for e in bucket.iter_mut() {
            if e.me == me && e.you == you && e.neutral == neutral {
                e.lower = e.lower.max(fresh.lower);
                e.upper = e.upper.min(fresh.upper);
                e.best = best;
                return;
            }
        }
        if fresh.empties >= bucket[0].empties {
            bucket[1] = bucket[0];
            bucket[0] = fresh;
        } else {
            bucket[1] = fresh;
        }
    }
}
