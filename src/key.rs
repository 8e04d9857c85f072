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

    /// Hand each pit's count to `set(ring index, count)`, skipping the store.
    fn decode_with(self, len: usize, n: usize, set: impl FnMut(usize, u8));

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

macro_rules! impl_key {
    ($t:ty) => {
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

impl_key!(u64);
impl_key!(u128);

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
    fn different_pits_give_different_keys() {
        let a = u64::encode(&[1, 0, 0, 0, 2], 2);
        let b = u64::encode(&[0, 1, 0, 0, 2], 2);
        let c = u64::encode(&[1, 0, 9, 0, 2], 2);
        assert_ne!(a, b);
        assert_eq!(a, c);
        assert_eq!(bits_needed(48, 12), 59);
    }
}
