//! One sowing: `k` stones dropped one by one along the ring, computed as
//! whole laps plus a remainder instead of a loop over stones.
//!
//! With a ring of `len` counters, `k` stones are `q = k / len` full laps (every
//! counter, the emptied source pit and the own store included, gains `q`) and
//! `r = k % len` more stones for the `r` counters after the source. The last
//! stone lands `k` steps after the source, which is `r` steps after it. This
//! keeps a pick with many stones as cheap as one with a few.

/// Sow `k` stones after ring index `from` and return the ring index where the
/// last stone lands. The caller has already emptied `from` (or not, for tests
/// of raw sowing). `k` must be at least 1.
#[inline]
pub fn sow(ring: &mut [u8], from: usize, k: u8) -> usize {
    let len = ring.len();
    debug_assert!(k >= 1 && from < len);
    let k = k as usize;
    // Fewer stones than the ring has counters is the rule: no division
    // (a hardware divide costs tens of cycles, in the hottest loop).
    let (q, r) = if k < len { (0, k) } else { (k / len, k % len) };
    if q > 0 {
        let q = q as u8;
        ring.iter_mut().for_each(|c| *c += q);
    }
    // The `r` counters after `from`: a run up to the end of the ring, then a
    // run from its start.
    let start = from + 1;
    let head = r.min(len - start);
    ring[start..start + head].iter_mut().for_each(|c| *c += 1);
    ring[..r - head].iter_mut().for_each(|c| *c += 1);
    let last = from + r;
    if last >= len {
        last - len
    } else {
        last
    }
}

/// The same sowing one stone at a time: the reference the lap arithmetic is
/// tested against.
pub fn sow_stepwise(ring: &mut [u8], from: usize, k: u8) -> usize {
    let mut at = from;
    for _ in 0..k {
        at = (at + 1) % ring.len();
        ring[at] += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_match_one_stone_at_a_time() {
        for len in [3usize, 5, 13, 33] {
            for from in 0..len {
                for k in 1..=(3 * len as u8 + 2).min(200) {
                    let mut a: Vec<u8> = (0..len as u8).collect();
                    let mut b = a.clone();
                    a[from] = 0;
                    b[from] = 0;
                    assert_eq!(sow(&mut a, from, k), sow_stepwise(&mut b, from, k));
                    assert_eq!(a, b, "len {len} from {from} k {k}");
                }
            }
        }
    }

    #[test]
    fn a_full_lap_refills_the_source() {
        // 13 counters (2x6 board): 13 stones from index 0 give every counter
        // one stone, the emptied source included, and end back at the source.
        let mut ring = [0u8; 13];
        assert_eq!(sow(&mut ring, 0, 13), 0);
        assert_eq!(ring, [1; 13]);
    }
}
