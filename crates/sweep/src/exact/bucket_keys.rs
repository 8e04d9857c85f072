//! A bucket's keys, kept after it is expanded for the listing pass, coded
//! as the gaps between sorted keys in LEB128 varints.
//!
//! Listing needs to know, top bucket first (see [`crate::exact`]),
//! whether a position found by playing backwards is a node. Stored plainly that is 8
//! bytes a position (982 MB for any-hole 2x6x4). A bucket's sorted
//! stars-and-bars keys lie close together, so their gaps mostly fit one
//! byte: measured over all 122,793,486 positions of any-hole 2x6x4 the coded
//! keys take 1.20 bytes a key (147 MB). Keys are coded in blocks that each
//! start with a full key, so that blocks can be coded and decoded in
//! parallel and a look-up decodes one block.

use crate::exact::key::Key;
#[cfg(test)]
use rayon::prelude::*;

/// Keys a block holds: small enough that [`BucketKeys::contains`] decodes few
/// keys, large enough that the blocks' first keys cost little (16 bytes a
/// block, 0.03 bytes a key).
const BLOCK: usize = 512;

/// Sorted keys, delta-coded in blocks.
#[derive(Clone, Debug)]
pub struct BucketKeys<K> {
    len: usize,
    /// First key of each block, where its gaps start in `bytes`, and the
    /// index of that key (blocks hold `BLOCK` keys, fewer at the end of a
    /// bucket that was joined from parts).
    blocks: Vec<(K, usize, usize)>,
    /// The gaps after each block's first key, LEB128.
    bytes: Vec<u8>,
}

impl<K> Default for BucketKeys<K> {
    fn default() -> Self {
        BucketKeys {
            len: 0,
            blocks: Vec::new(),
            bytes: Vec::new(),
        }
    }
}

impl<K: Key> BucketKeys<K> {
    /// Code keys given in strictly increasing order.
    pub fn from_sorted(keys: impl IntoIterator<Item = K>) -> Self {
        let mut coded = BucketKeys::default();
        let mut prev: Option<K> = None;
        for key in keys {
            if coded.len % BLOCK == 0 {
                coded.blocks.push((key, coded.bytes.len(), coded.len));
            } else {
                let p = prev.expect("a block's later keys follow its first");
                debug_assert!(key > p, "keys must be strictly increasing");
                let mut gap = key.to_u128() - p.to_u128();
                loop {
                    let byte = (gap & 0x7F) as u8;
                    gap >>= 7;
                    if gap == 0 {
                        coded.bytes.push(byte);
                        break;
                    }
                    coded.bytes.push(byte | 0x80);
                }
            }
            prev = Some(key);
            coded.len += 1;
        }
        coded.bytes.shrink_to_fit();
        coded.blocks.shrink_to_fit();
        coded
    }

    /// The keys of `parts`, each coded on its own (in parallel by the
    /// caller) and all in increasing order, joined into one.
    pub fn join(parts: Vec<BucketKeys<K>>) -> Self {
        let mut coded = BucketKeys::default();
        coded
            .bytes
            .reserve_exact(parts.iter().map(|p| p.bytes.len()).sum());
        coded
            .blocks
            .reserve_exact(parts.iter().map(|p| p.blocks.len()).sum());
        for part in parts {
            let (bytes, keys) = (coded.bytes.len(), coded.len);
            coded.blocks.extend(
                part.blocks
                    .iter()
                    .map(|&(k, at, i)| (k, at + bytes, i + keys)),
            );
            coded.bytes.extend_from_slice(&part.bytes);
            coded.len += part.len;
        }
        coded
    }

    /// Number of keys.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no keys.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held.
    pub fn memory(&self) -> u64 {
        (self.bytes.capacity() + self.blocks.capacity() * size_of::<(K, usize, usize)>()) as u64
    }

    /// The keys of block `b`, in order.
    fn block(&self, b: usize) -> impl Iterator<Item = K> + '_ {
        let (first, start, index) = self.blocks[b];
        let end = self.blocks.get(b + 1).map_or(self.len, |next| next.2);
        let count = end - index;
        let mut at = start;
        let mut key = first.to_u128();
        (0..count).map(move |i| {
            if i > 0 {
                let mut gap = 0u128;
                let mut shift = 0;
                loop {
                    let byte = self.bytes[at];
                    at += 1;
                    gap |= ((byte & 0x7F) as u128) << shift;
                    shift += 7;
                    if byte & 0x80 == 0 {
                        break;
                    }
                }
                key += gap;
            }
            K::from_u128(key)
        })
    }

    /// True when `key` is one of the keys: a binary search over the blocks'
    /// first keys, then a scan of one block.
    pub fn contains(&self, key: K) -> bool {
        let b = self.blocks.partition_point(|&(first, _, _)| first <= key);
        b > 0
            && self
                .block(b - 1)
                .take_while(|&k| k <= key)
                .any(|k| k == key)
    }

    /// The same keys as type `K2` (which must hold them), for a search
    /// that went on with narrower keys and lists with its first ones.
    pub fn rekey<K2: Key>(&self) -> BucketKeys<K2> {
        let keys = (0..self.blocks.len()).flat_map(move |b| self.block(b));
        BucketKeys::from_sorted(keys.map(Key::to_key))
    }

    /// Every key, in order.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = K> + '_ {
        (0..self.blocks.len()).flat_map(move |b| self.block(b))
    }

    /// Every key, decoded block by block in parallel.
    #[cfg(test)]
    pub fn par_iter(&self) -> impl ParallelIterator<Item = K> + '_ {
        (0..self.blocks.len())
            .into_par_iter()
            .flat_map_iter(move |b| self.block(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_across_blocks_and_widths() {
        let keys: Vec<u64> = (0..10_000u64).map(|i| i * i * 977 + (i % 7)).collect();
        let coded = BucketKeys::from_sorted(keys.iter().copied());
        assert_eq!(coded.len(), keys.len());
        assert_eq!(coded.iter().collect::<Vec<_>>(), keys);
        assert_eq!(coded.par_iter().collect::<Vec<_>>(), keys);
        for (i, &k) in keys.iter().enumerate().step_by(37) {
            assert!(coded.contains(k));
            assert_eq!(coded.contains(k + 1), keys.get(i + 1) == Some(&(k + 1)));
        }
        assert_eq!(keys[0], 0);
        assert!(coded.contains(0));
        // A key below the first block's first key is absent.
        let later = BucketKeys::from_sorted(keys[1..].iter().copied());
        assert!(!later.contains(0) && later.contains(keys[1]));
        assert!(!coded.contains(u64::MAX));
        let wide: Vec<u128> = vec![1, 1 << 70, (1 << 70) + 1, u128::MAX];
        let coded = BucketKeys::from_sorted(wide.iter().copied());
        assert_eq!(coded.iter().collect::<Vec<_>>(), wide);
        let joined = BucketKeys::join(
            keys.chunks(777)
                .map(|c| BucketKeys::from_sorted(c.iter().copied()))
                .collect(),
        );
        assert_eq!(joined.len(), keys.len());
        assert_eq!(joined.iter().collect::<Vec<_>>(), keys);
        assert_eq!(joined.par_iter().collect::<Vec<_>>(), keys);
        assert!(keys.iter().step_by(41).all(|&k| joined.contains(k)));
        let empty = BucketKeys::<u64>::from_sorted([]);
        assert!(!empty.contains(5));
        assert!(empty.is_empty());
        assert_eq!(empty.iter().count(), 0);
    }
}
