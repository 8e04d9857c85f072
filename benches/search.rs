//! Criterion benchmarks of the search's parts, each on real data from the
//! search and each asserting the answer it computes:
//!
//! - `sow`: every legal pick of a real bucket's positions: the reference
//!   engine, the packed engine one pick at a time, and the lockstep kernel
//!   (all picks of a position at once, on machines with AVX-512);
//! - `expand_bucket`: expansion of one real bucket (any-hole 2x6x4, store
//!   20) by the streaming kernel, by the lockstep kernel a position at a
//!   time, and one pick at a time: the paths that CPUs without some of the
//!   AVX-512 and BMI2 features take, timed on this one;
//! - `dedup`: deduplication of a real successor stream (what any-hole
//!   2x6x4's bucket 24 sends to bucket 25) by the candidates: the search's
//!   own (runs split into parts by key, each part sorted in cache), one
//!   parallel sort of the whole stream, a radix sort, dashmap with ahash,
//!   and sharded hashbrown with foldhash;
//! - `solve`: whole solves of small variants.
//!
//! Run with `cargo bench --bench search`; `benches/table.sh` times whole runs
//! of the binary.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use mancala_sweep::internals::{
    merge_sorted, pack, packed, Bucket, Engine, Frontier, Key, Packed, Run,
};
use mancala_sweep::rules::pick::{self, PickEnd};
use mancala_sweep::sweep::Kernel;
use mancala_sweep::{solve, Board, Listing, Pit, Rules, SweepOptions};
use rayon::prelude::*;
use std::hint::black_box;
use std::sync::Mutex;

fn standard() -> Board {
    Board::uniform(6, 4).unwrap()
}

/// Rings of a real bucket with every legal pick: the inputs of `sow`.
fn pick_cases() -> Vec<([u8; 13], usize)> {
    let bucket = Bucket::new(&standard(), Rules::ANY_HOLE, 12).unwrap();
    let mut cases = Vec::new();
    for &(key, _) in bucket.nodes() {
        let mut ring = [0u8; 13];
        ring[6] = 12;
        Key::decode(key, &mut ring, 6);
        for p in Pit::all(6) {
            if ring[p.ring(6)] > 0 {
                cases.push((ring, p.ring(6)));
            }
        }
    }
    cases
}

fn sow(c: &mut Criterion) {
    let cases = pick_cases();
    let rules = Rules::ANY_HOLE;
    // The same picks grouped by position, as the search plays them.
    let mut positions: Vec<Packed<2>> = cases.iter().map(|(ring, _)| pack(ring)).collect();
    positions.dedup();
    let scope: Vec<usize> = Pit::all(6).map(|p| p.ring(6)).collect();
    let one = Engine::<2>::new(6, 48, rules, Kernel::Scalar);
    let lockstep = Kernel::Avx512Vbmi
        .supported()
        .map(|()| Engine::<2>::new(6, 48, rules, Kernel::Avx512Vbmi));
    let reference = |cases: &[([u8; 13], usize)]| -> u64 {
        cases
            .iter()
            .map(|(ring, from)| {
                let mut r = *ring;
                let end = pick::play(&mut r, *from, rules);
                r[6] as u64 + (end == PickEnd::FreeTurn) as u64
            })
            .sum()
    };
    let packed = |engine: &Engine<2>, positions: &[Packed<2>]| -> u64 {
        let mut sum = 0;
        for ring in positions {
            engine.for_each_pick(ring, &scope, |_, after, end| {
                sum += packed::get(after, 6) as u64 + (end == PickEnd::FreeTurn) as u64
            });
        }
        sum
    };
    let expected = reference(&cases);
    assert_eq!(packed(&one, &positions), expected, "the engines disagree");
    if let Ok(lockstep) = &lockstep {
        assert_eq!(
            packed(lockstep, &positions),
            expected,
            "the engines disagree"
        );
    }
    let mut g = c.benchmark_group("sow");
    g.throughput(criterion::Throughput::Elements(cases.len() as u64));
    g.bench_function("reference (byte ring, lap arithmetic)", |b| {
        b.iter(|| assert_eq!(reference(black_box(&cases)), expected))
    });
    g.bench_function("packed, one pick at a time (word adds from a table)", |b| {
        b.iter(|| assert_eq!(packed(&one, black_box(&positions)), expected))
    });
    match &lockstep {
        Ok(lockstep) => {
            g.bench_function(
                "lockstep (every pick of a position on AVX-512 lanes)",
                |b| b.iter(|| assert_eq!(packed(lockstep, black_box(&positions)), expected)),
            );
        }
        Err(missing) => println!("sow/lockstep: not run, this CPU lacks {missing}"),
    }
    g.finish();
}

fn expand_bucket(c: &mut Criterion) {
    let bucket = || Bucket::new(&standard(), Rules::ANY_HOLE, 20).unwrap();
    // Every successor's key and count, sorted: what every engine must give.
    let successors = |b: &Bucket| {
        let mut all: Vec<(usize, u64, u64)> = (b.expand().into_iter().enumerate())
            .flat_map(|(t, run)| run.into_iter().map(move |(k, c)| (t, k, c)))
            .collect();
        all.sort_unstable();
        all
    };
    let names = [
        (Kernel::Avx512Vbmi2, "streaming kernel"),
        (
            Kernel::Avx512Vbmi,
            "lockstep kernel, a position at a time (streaming off)",
        ),
        (
            Kernel::Avx512Bw,
            "streaming kernel on AVX-512 F/BW (no VBMI)",
        ),
        (Kernel::Avx2, "streaming kernel on AVX2 (no AVX-512)"),
        (Kernel::Scalar, "one pick at a time (no SIMD)"),
    ];
    let mut engines = Vec::new();
    for (kernel, name) in names {
        match kernel.supported() {
            Ok(()) => engines.push((name, bucket().with_kernel(kernel))),
            Err(missing) => println!("expand_bucket/{kernel}: not run, this CPU lacks {missing}"),
        }
    }
    let want = successors(&engines[0].1);
    assert!(want.len() > engines[0].1.len());
    let mut g = c.benchmark_group("expand_bucket");
    g.sample_size(10);
    g.throughput(criterion::Throughput::Elements(engines[0].1.len() as u64));
    for (name, b) in &engines {
        assert_eq!(successors(b), want, "{name} expands differently");
        let len = want.len();
        let count = |b: &Bucket| b.expand().iter().map(Vec::len).sum::<usize>();
        g.bench_function(format!("any-hole 2x6x4 store 20, {name}"), |bench| {
            bench.iter(|| assert_eq!(count(b), len))
        });
    }
    // The same positions with 128-bit keys, on the fastest kernel: what
    // the key's width alone costs (issue 17's wide keys).
    let wide = engines[0].1.widened();
    let wide_successors = |w: &mancala_sweep::internals::WideBucket| {
        let mut all: Vec<(usize, u64, u64)> = (w.expand().into_iter().enumerate())
            .flat_map(|(t, run)| run.into_iter().map(move |(k, c)| (t, k, c)))
            .collect();
        all.sort_unstable();
        all
    };
    assert_eq!(
        wide_successors(&wide),
        want,
        "128-bit keys expand differently"
    );
    let len = want.len();
    g.bench_function(
        format!("any-hole 2x6x4 store 20, {}, 128-bit keys", engines[0].0),
        |bench| bench.iter(|| assert_eq!(wide.expand().iter().map(Vec::len).sum::<usize>(), len)),
    );
    g.finish();
}

/// Distinct keys and the sum of counts: what every strategy must agree on.
type Summary = (usize, u64);

/// The search's way: the stream as the runs of 32 worker chunks, each split
/// into parts by the top bits of its keys, then the frontier's take.
fn by_parts(runs: Vec<Vec<(u64, u64)>>, shift: u32) -> Summary {
    let runs: Vec<Run<u64, u64>> = runs.into_par_iter().map(|r| Run::new(r, shift)).collect();
    let mut frontier = Frontier::new(1);
    for run in runs {
        frontier.push(1, run);
    }
    let nodes = frontier.take(1).unwrap();
    (nodes.len(), nodes.iter().map(|e| e.1).sum())
}

fn by_sort(mut stream: Vec<(u64, u64)>) -> Summary {
    merge_sorted(&mut stream).unwrap();
    (stream.len(), stream.iter().map(|e| e.1).sum())
}

/// An entry for rdst, which sorts by the bytes `RadixKey` gives.
#[derive(Copy, Clone)]
struct Keyed(u64, u64);

impl rdst::RadixKey for Keyed {
    const LEVELS: usize = 8;
    #[inline]
    fn get_level(&self, level: usize) -> u8 {
        (self.0 >> (level * 8)) as u8
    }
}

fn by_radix(mut stream: Vec<Keyed>) -> Summary {
    use rdst::RadixSort;
    stream.radix_sort_unstable();
    let mut merged: Vec<Keyed> = Vec::with_capacity(stream.len());
    for e in stream {
        match merged.last_mut() {
            Some(last) if last.0 == e.0 => last.1 += e.1,
            _ => merged.push(e),
        }
    }
    (merged.len(), merged.iter().map(|e| e.1).sum())
}

fn by_dashmap(stream: &[(u64, u64)]) -> Summary {
    let map: dashmap::DashMap<u64, u64, ahash::RandomState> =
        dashmap::DashMap::with_hasher(ahash::RandomState::new());
    stream.par_iter().for_each(|&(k, c)| {
        *map.entry(k).or_insert(0) += c;
    });
    (map.len(), map.iter().map(|e| *e.value()).sum())
}

fn by_sharded_hashbrown(stream: &[(u64, u64)]) -> Summary {
    const SHARDS: usize = 64;
    type Shard = hashbrown::HashMap<u64, u64, foldhash::fast::FixedState>;
    let shards: Vec<Mutex<Shard>> = (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect();
    // Partition each chunk by shard first, so that every lock is taken once a chunk.
    stream.par_chunks(1 << 16).for_each(|chunk| {
        let mut parts: Vec<Vec<(u64, u64)>> = vec![Vec::new(); SHARDS];
        for &(k, c) in chunk {
            parts[(k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize].push((k, c));
        }
        for (shard, part) in shards.iter().zip(parts) {
            let mut map = shard.lock().unwrap();
            for (k, c) in part {
                *map.entry(k).or_insert(0) += c;
            }
        }
    });
    let shards: Vec<Shard> = shards
        .into_iter()
        .map(|m| m.into_inner().unwrap())
        .collect();
    (
        shards.iter().map(|m| m.len()).sum(),
        shards.iter().flat_map(|m| m.values()).sum(),
    )
}

fn dedup(c: &mut Criterion) {
    let bucket = Bucket::new(&standard(), Rules::ANY_HOLE, 24).unwrap();
    let stream = bucket.expand().swap_remove(25);
    let shift = bucket.shift(25);
    let runs: Vec<Vec<(u64, u64)>> = stream
        .chunks(stream.len() / 32 + 1)
        .map(<[_]>::to_vec)
        .collect();
    let expected = by_sort(stream.clone());
    assert_eq!(by_parts(runs.clone(), shift), expected);
    assert_eq!(by_dashmap(&stream), expected);
    let keyed: Vec<Keyed> = stream.iter().map(|&(k, c)| Keyed(k, c)).collect();
    assert_eq!(by_radix(keyed.clone()), expected);
    assert_eq!(by_sharded_hashbrown(&stream), expected);
    let mut g = c.benchmark_group("dedup");
    g.sample_size(10);
    g.throughput(criterion::Throughput::Elements(stream.len() as u64));
    g.bench_function(
        "parts: runs split by key, each part sorted in cache (the search's)",
        |b| {
            b.iter_batched(
                || runs.clone(),
                |r| assert_eq!(by_parts(r, shift), expected),
                BatchSize::LargeInput,
            )
        },
    );
    g.bench_function("sort-merge (rayon par_sort_unstable)", |b| {
        b.iter_batched(
            || stream.clone(),
            |s| assert_eq!(by_sort(s), expected),
            BatchSize::LargeInput,
        )
    });
    g.bench_function("radix sort (rdst) + merge", |b| {
        b.iter_batched(
            || keyed.clone(),
            |s| assert_eq!(by_radix(s), expected),
            BatchSize::LargeInput,
        )
    });
    g.bench_function("dashmap + ahash", |b| {
        b.iter(|| assert_eq!(by_dashmap(black_box(&stream)), expected))
    });
    g.bench_function("sharded hashbrown + foldhash", |b| {
        b.iter(|| assert_eq!(by_sharded_hashbrown(black_box(&stream)), expected))
    });
    g.finish();
}

fn whole_solves(c: &mut Criterion) {
    let cases: [(&str, Rules, usize, u32, u32); 4] = [
        ("avalanche 2x6x4", Rules::AVALANCHE, 6, 4, 43),
        ("kalah 2x6x4", Rules::KALAH, 6, 4, 2),
        ("any-hole 2x6x3", Rules::ANY_HOLE, 6, 3, 36),
        ("avalanche 2x6x6", Rules::AVALANCHE, 6, 6, 69),
    ];
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    for (name, rules, n, s, best) in cases {
        let board = Board::uniform(n, s).unwrap();
        let opts = SweepOptions {
            listing: Listing::Limit(0),
            ..Default::default()
        };
        g.bench_function(name, |b| {
            b.iter(|| assert_eq!(solve(&board, rules, &opts).unwrap().best_store, best))
        });
    }
    g.finish();
}

criterion_group!(benches, sow, expand_bucket, dedup, whole_solves);
criterion_main!(benches);
