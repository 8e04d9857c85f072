//! Compact position keys.
//!
//! Within one store bucket of the search the number of stones in the pits is
//! fixed (everything not in the store), so a key only has to tell apart the
//! ways of spreading that many stones over the 2n pits. The key is the
//! stars-and-bars bit string: for each pit, as many `1` bits as it holds
//! stones, then a `0` separator. That takes `stones + 2n - 1` bits, so the
//! standard 2x6x4 board (48 stones, 12 pits: 59 bits) fits a `u64`, and
//! boards up to 128 bits use a `u128`. Encoding and decoding are a shift and
//! a count of trailing ones per pit, which is cheaper than a combinatorial
//! rank, and the keys sort and deduplicate as plain integers.
//!
//! There are two codings of the same keys. The byte coding
//! ([`Key::encode`], [`Key::decode`]) is the plain one, kept as the
//! reference; the search's hot path codes packed rings directly
//! ([`Key::encode_packed`], [`Key::decode_packed`]), and a test checks that
//! both give the same keys and rings.

use crate::kernel::packed::Packed;

/// A position key: an unsigned integer wide enough for the board.
pub trait Key: Copy + Ord + Eq + std::hash::Hash + Send + Sync + std::fmt::Debug + 'static {
    /// Width in bits.
    const BITS: u32;

    /// Encode the pits of a ring of `len` counters read through `count`
    /// (every counter but the store at index `n`).
    fn encode_with(len: usize, n: usize, count: impl Fn(usize) -> u8) -> Self;

    /// The key as a `u128` (for delta coding).
    fn to_u128(self) -> u128;

    /// The key back from [`Key::to_u128`].
    fn from_u128(v: u128) -> Self;

    /// The same key as type `K2`, which must be wide enough for it: a
    /// search that goes on with narrower keys once its keys fit them.
    #[inline]
    fn to_key<K2: Key>(self) -> K2 {
        let wide = self.to_u128();
        debug_assert!(K2::BITS >= 128 || wide >> K2::BITS == 0, "{wide} fits");
        K2::from_u128(wide)
    }

    /// Hand each pit's count to `set(ring index, count)`, skipping the store.
    fn decode_with(self, len: usize, n: usize, set: impl FnMut(usize, u8));

    /// Encode the pits of a packed ring (see [`crate::kernel::packed`]) of `len`
    /// counters with the own store at `n`: the search's hot path.
    ///
    /// Pit `i`'s separator sits at bit `P_i - 1`, where `P_i` is the sum of
    /// `count + 1` over pits `0..=i`, so the key is a run of ones with the
    /// separators cleared. The running sum is the only serial step; the
    /// separators are independent shifts.
    fn encode_packed<const W: usize>(ring: &Packed<W>, len: usize, n: usize) -> Self;

    /// Decode into a packed ring whose store holds `store`. Each separator
    /// is the lowest set bit of the inverted key, found and cleared in two
    /// instructions; the last pit holds what the others leave of the stones
    /// (the key's one bits).
    fn decode_packed<const W: usize>(self, len: usize, n: usize, store: u8) -> Packed<W>;

    /// The key of a ring with `pits` pits (the own store left out), from
    /// the running sums the lockstep kernel computes
    /// ([`crate::kernel::relay::Landings::sums`]): the sum through pit `t < pits -
    /// 1` is one past the separator after it, and the sum through the last
    /// pit is the key's width. The separators are set independently of each
    /// other, so this is a few cycles where [`Key::encode_packed`] is a
    /// chain of dependent additions.
    fn from_sums(sums: &[u8; 16], pits: usize) -> Self;

    /// Encode the pits of `ring`.
    #[inline]
    fn encode(ring: &[u8], n: usize) -> Self {
        Self::encode_with(ring.len(), n, |i| ring[i])
    }

    /// Write the pits back into `ring`, leaving the store counter alone.
    #[inline]
    fn decode(self, ring: &mut [u8], n: usize) {
        self.decode_with(ring.len(), n, |i, c| ring[i] = c)
    }
}

/// Bits a key needs for `stones` stones in `pits` pits.
pub fn bits_needed(stones: u32, pits: usize) -> u32 {
    stones + pits as u32 - 1
}

/// The separator bits of a 64-bit key: bit `sum - 1` for each sum.
#[inline(always)]
fn separators_64(sums: &[u8]) -> u64 {
    sums.iter().fold(0, |acc, &sum| acc | 1 << (sum - 1))
}

/// The separator bits of a 128-bit key, set in two 64-bit halves: a shift
/// of a `u128` by a variable amount is a branch or a pair of double
/// shifts with a select, and this loop, run for every successor, had made
/// 128-bit keys cost twice what 64-bit ones do on the same positions.
#[inline(always)]
fn separators_128(sums: &[u8]) -> u128 {
    let (mut low, mut high) = (0u64, 0u64);
    for &sum in sums {
        let bit = sum as u32 - 1;
        let one = 1u64 << (bit & 63);
        // All ones when the bit is in the high half (`bit` < 128).
        let upper = ((bit >> 6) as u64).wrapping_neg();
        low |= one & !upper;
        high |= one & upper;
    }
    (high as u128) << 64 | low as u128
}

/// The zero bits of a 64-bit key, for [`next_zero_64`].
#[inline(always)]
fn zeros_64(zeros: u64) -> u64 {
    zeros
}

/// The lowest bit set in `zeros` (a key's separators, inverted), cleared.
#[inline(always)]
fn next_zero_64(zeros: &mut u64) -> u32 {
    let bit = zeros.trailing_zeros();
    *zeros &= zeros.wrapping_sub(1);
    bit
}

/// The zero bits of a 128-bit key in two halves, low first.
#[inline(always)]
fn zeros_128(zeros: u128) -> (u64, u64) {
    (zeros as u64, (zeros >> 64) as u64)
}

/// [`next_zero_64`] over two halves: the low one until it is used up,
/// then the high one. A `u128`'s trailing-zero count and lowest-bit clear
/// are each several instructions with a carry between the halves; this is
/// one count and one clear on the half in use, chosen without a branch.
#[inline(always)]
fn next_zero_128(zeros: &mut (u64, u64)) -> u32 {
    let (low, high) = *zeros;
    let upper = low == 0;
    let word = if upper { high } else { low };
    let bit = word.trailing_zeros() + 64 * u32::from(upper);
    let cleared = word & word.wrapping_sub(1);
    *zeros = if upper { (0, cleared) } else { (cleared, high) };
    bit
}

macro_rules! impl_key {
    ($t:ty, $seps:ident, $split:ident, $next:ident) => {
        impl Key for $t {
            const BITS: u32 = <$t>::BITS;

            #[inline]
            fn to_u128(self) -> u128 {
                self as u128
            }

            #[inline]
            fn from_u128(v: u128) -> Self {
                v as $t
            }

            #[inline]
            fn encode_with(len: usize, n: usize, count: impl Fn(usize) -> u8) -> Self {
                let mut key: $t = 0;
                for r in (0..len).rev() {
                    if r == n {
                        continue;
                    }
                    let c = count(r);
                    let ones: $t = (1 << c) - 1;
                    key = key.checked_shl(c as u32 + 1).unwrap_or(0) | ones;
                }
                key
            }

            #[inline]
            fn encode_packed<const W: usize>(ring: &Packed<W>, len: usize, n: usize) -> Self {
                // The counters as bytes: one load each instead of a shift.
                let mut bytes = [0u8; 8 * crate::kernel::packed::MAX_WORDS];
                for (chunk, word) in bytes.chunks_exact_mut(8).zip(ring) {
                    chunk.copy_from_slice(&word.to_le_bytes());
                }
                let mut sum = 0u32;
                let mut separators: $t = 0;
                for (r, &count) in bytes[..len - 1].iter().enumerate() {
                    if r == n {
                        continue;
                    }
                    sum += count as u32 + 1;
                    separators |= 1 << (sum - 1);
                }
                let bits = sum + bytes[len - 1] as u32;
                <$t>::MAX.checked_shr(<$t>::BITS - bits).unwrap_or(0) ^ separators
            }

            #[inline]
            fn from_sums(sums: &[u8; 16], pits: usize) -> Self {
                let bits = sums[pits - 1] as u32;
                let separators = $seps(&sums[..pits - 1]);
                <$t>::MAX.checked_shr(<$t>::BITS - bits).unwrap_or(0) ^ separators
            }

            #[inline]
            fn decode_packed<const W: usize>(self, len: usize, n: usize, store: u8) -> Packed<W> {
                // The counters are written as bytes and read back as
                // words: OR-ing each into its word at a computed index had
                // made every pit a read-modify-write of the same word.
                let mut bytes = [0u8; 8 * crate::kernel::packed::MAX_WORDS];
                bytes[n] = store;
                let mut zeros = $split(!self);
                let mut at = 0u32;
                let mut left = self.count_ones();
                // The store is never last: n < len - 1 = 2n.
                let last = len - 1;
                for r in (0..n).chain(n + 1..last) {
                    let separator = $next(&mut zeros);
                    let count = separator - at;
                    at = separator + 1;
                    left -= count;
                    bytes[r] = count as u8;
                }
                bytes[last] = left as u8;
                let mut ring = [0u64; W];
                for (word, chunk) in ring.iter_mut().zip(bytes.chunks_exact(8)) {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(chunk);
                    *word = u64::from_le_bytes(b);
                }
                ring
            }

            #[inline]
            fn decode_with(self, len: usize, n: usize, mut set: impl FnMut(usize, u8)) {
                let mut key = self;
                for r in 0..len {
                    if r == n {
                        continue;
                    }
                    let c = key.trailing_ones();
                    set(r, c as u8);
                    key = key.checked_shr(c + 1).unwrap_or(0);
                }
            }
        }
    };
}

impl_key!(u64, separators_64, zeros_64, next_zero_64);
impl_key!(u128, separators_128, zeros_128, next_zero_128);

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<K: Key>(ring: &[u8], n: usize) {
        let k = K::encode(ring, n);
        let mut back = vec![0u8; ring.len()];
        back[n] = ring[n];
        k.decode(&mut back, n);
        assert_eq!(back, ring);
    }

    #[test]
    fn keys_round_trip_at_the_edges_of_their_width() {
        // 2x6, 52 stones in one pit: 52 + 11 = 63 bits.
        let mut ring = [0u8; 13];
        ring[12] = 52;
        ring[6] = 9; // the store is not part of the key
        round_trip::<u64>(&ring, 6);
        ring[0] = 1; // 53 + 11 = 64 bits, the most a u64 holds
        round_trip::<u64>(&ring, 6);
        // One pit a side with 63 stones in the first pit: 64 bits.
        round_trip::<u64>(&[63, 0, 0], 1);
        round_trip::<u64>(&[0, 0, 63], 1);
        // Wide boards in a u128.
        let mut wide = [3u8; 33];
        wide[16] = 0;
        round_trip::<u128>(&wide, 16);
        round_trip::<u128>(&[4; 13], 6);
    }

    #[test]
    fn packed_coding_matches_the_byte_coding() {
        use crate::kernel::packed::{pack, unpack};
        let cases: [(&[u8], usize); 7] = [
            (&[4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4], 6),
            (&[0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 48], 6),
            (&[48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 6),
            (&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 6),
            (&[52, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1], 6),
            (&[63, 7, 0], 1),
            (&[1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 0], 7),
        ];
        for (ring, n) in cases {
            let len = ring.len();
            let packed: Packed<2> = pack(ring);
            let key = u64::encode(ring, n);
            assert_eq!(u64::encode_packed(&packed, len, n), key, "{ring:?}");
            let back: Packed<2> = key.decode_packed(len, n, ring[n]);
            let mut bytes = vec![0u8; len];
            unpack(&back, &mut bytes);
            assert_eq!(bytes, ring);
            let wide = u128::encode(ring, n);
            assert_eq!(u128::encode_packed(&packed, len, n), wide);
            let back: Packed<5> = wide.decode_packed(len, n, ring[n]);
            let mut bytes = vec![0u8; len];
            unpack(&back, &mut bytes);
            assert_eq!(bytes, ring);
        }
    }

    /// The packed decoder against the byte decoder on random rings whose
    /// keys fill up to 64 and 128 bits, so that the separators of a
    /// 128-bit key fall in both halves and on the boundary between them.
    #[test]
    fn packed_decoding_matches_the_byte_decoding_on_random_rings() {
        use crate::kernel::packed::unpack;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(128);
        for _ in 0..20_000 {
            let n = rng.random_range(1..=16);
            let len = 2 * n + 1;
            let wide = rng.random_bool(0.7);
            let width = if wide { 128 } else { 64 };
            // Stones so that the key is at most `width` bits: stones + 2n - 1.
            let stones = rng.random_range(0..=(width + 1 - 2 * n as u32).min(255));
            let mut ring = vec![0u8; len];
            for _ in 0..stones {
                let mut i = rng.random_range(0..len - 1);
                if i >= n {
                    i += 1;
                }
                ring[i] += 1;
            }
            ring[n] = rng.random_range(0..=255 - stones) as u8;
            let mut bytes = vec![0u8; len];
            if wide {
                let key = u128::encode(&ring, n);
                let back: Packed<5> = key.decode_packed(len, n, ring[n]);
                unpack(&back, &mut bytes);
            } else if len <= 16 {
                let key = u64::encode(&ring, n);
                let back: Packed<2> = key.decode_packed(len, n, ring[n]);
                unpack(&back, &mut bytes);
            } else {
                continue;
            }
            assert_eq!(bytes, ring, "{n} pits a side, {stones} stones");
        }
    }

    #[test]
    fn different_pits_give_different_keys() {
        let a = u64::encode(&[1, 0, 0, 0, 2], 2);
        let b = u64::encode(&[0, 1, 0, 0, 2], 2);
        let c = u64::encode(&[1, 0, 9, 0, 2], 2);
        assert_ne!(a, b);
        assert_eq!(a, c);
        assert_eq!(bits_needed(48, 12), 59);
    }
}
