//! The naive baseline of the exhaustive first-turn search: deliberately
//! simple and obviously correct, so that the tool's speed can be stated as
//! a ratio in one command (`benches/kernels.sh`).
//!
//! It walks the same positions as `solve --limit 0`, by store buckets (a
//! pick that ends in the store raises it, so every bucket is final before
//! the next is taken), keeps each bucket as a plain vector of (ring, count)
//! pairs with `u128` counts, and deduplicates by sorting the vector and
//! merging equal rings. It plays picks with the reference engine
//! ([`pick::play`]), so it measures the search's strategy, not sowing.
//! No SIMD, no packing, no threads, no streaming.
//!
//! Run with `PITS=6 STONES=4 RULES=any-hole cargo bench --bench naive`
//! (RULES: avalanche, any-hole or kalah). It prints one JSON line with the
//! keys `solve --json` uses for the same answers, the picks it played
//! (every legal pick of every distinct position once, as every path of
//! the tool does: the workload's picks, for a picks-a-second column), and
//! the seconds taken.

use mancala_sweep::rules::pick::{self, PickEnd};
use mancala_sweep::{Board, Rules};
use std::collections::BTreeMap;
use std::time::Instant;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| {
            eprintln!("naive: {name}={v:?} is not a number");
            std::process::exit(2)
        }),
        Err(_) => default,
    }
}

/// Sort the rings and merge equal ones, summing their counts.
fn dedup<const W: usize>(v: &mut Vec<([u8; W], u128)>) {
    v.sort_unstable_by_key(|a| a.0);
    let mut out: Vec<([u8; W], u128)> = Vec::with_capacity(v.len());
    for (ring, count) in v.drain(..) {
        match out.last_mut() {
            Some(last) if last.0 == ring => last.1 += count,
            _ => out.push((ring, count)),
        }
    }
    *v = out;
}

fn main() {
    let pits: usize = env_or("PITS", 6);
    let stones: u32 = env_or("STONES", 4);
    let rules = match std::env::var("RULES").as_deref().unwrap_or("any-hole") {
        "avalanche" => Rules::AVALANCHE,
        "any-hole" => Rules::ANY_HOLE,
        "kalah" => Rules::KALAH,
        other => {
            eprintln!("naive: RULES={other:?}: use avalanche, any-hole or kalah");
            std::process::exit(2)
        }
    };
    let board = Board::uniform(pits, stones).unwrap_or_else(|e| {
        eprintln!("naive: {e}");
        std::process::exit(2)
    });
    // A ring is a fixed array (the 2n+1 counters, then zeros): 16 bytes
    // up to 7 pits a side, 33 beyond.
    let t0 = Instant::now();
    let (turns_by_store, positions, picks) = if pits <= 7 {
        count::<16>(&board, rules)
    } else {
        count::<33>(&board, rules)
    };
    let total = board.stones_in_play() as usize;
    let best = turns_by_store.iter().rposition(|&c| c > 0).unwrap_or(0);
    let turns_total: u128 = turns_by_store.iter().sum();
    println!(
        "{{\"best_store\":{best},\"total_stones\":{total},\"optimal_count\":\"{}\",\"turns_total\":\"{turns_total}\",\"positions\":{positions},\"picks\":{picks},\"seconds\":{:.3}}}",
        turns_by_store[best],
        t0.elapsed().as_secs_f64()
    );
}

/// The naive search: turns by final store, and the positions and picks
/// counted.
fn count<const W: usize>(board: &Board, rules: Rules) -> (Vec<u128>, u64, u64) {
    let n = board.pits_per_side();
    let total = board.stones_in_play() as usize;
    let legal: Vec<usize> = rules.scope.pits(n).map(|p| p.ring(n)).collect();
    let mut turns_by_store = vec![0u128; total + 1];
    let mut positions: u64 = 0;
    let mut picks: u64 = 0;
    // Positions at which a pick is made, by their store.
    let mut buckets: BTreeMap<u8, Vec<([u8; W], u128)>> = BTreeMap::new();
    let mut start = [0u8; W];
    start[..board.ring().len()].copy_from_slice(board.ring());
    buckets.insert(board.store(), vec![(start, 1)]);
    while let Some((_, mut bucket)) = buckets.pop_first() {
        dedup(&mut bucket);
        positions += bucket.len() as u64;
        for (ring, count) in bucket {
            if legal.iter().all(|&i| ring[i] == 0) {
                // No pick left: the turn ends here.
                turns_by_store[ring[n] as usize] += count;
                continue;
            }
            for &from in legal.iter().filter(|&&i| ring[i] > 0) {
                picks += 1;
                let mut child = ring;
                match pick::play(&mut child[..2 * n + 1], from, rules) {
                    PickEnd::TurnOver => turns_by_store[child[n] as usize] += count,
                    PickEnd::FreeTurn => {
                        let next = buckets.entry(child[n]).or_default();
                        next.push((child, count));
                        // Keep memory in bounds on big boards: dedup a
                        // bucket whenever it has grown a lot.
                        if next.len() >= 1 << 24 && next.len().is_power_of_two() {
                            dedup(next);
                        }
                    }
                }
            }
        }
    }
    (turns_by_store, positions, picks)
}
