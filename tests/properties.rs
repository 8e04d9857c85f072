//! Property tests: the rules conserve stones, the text format round-trips,
//! and the search agrees with a second, independent path, a brute-force
//! enumeration of every turn through the checked [`Turn`] API, on random small
//! positions and rule sets, for one thread and for several.

use mancala_sweep::internals::{bits_needed, pack, unpack, Engine, Key, Landings, Packed};
use mancala_sweep::rules::Turn;
use mancala_sweep::sweep::kernel::relay::reference_chain as chain;
use mancala_sweep::sweep::{Kernel, SearchError};
use mancala_sweep::{solve, Board, Listing, Rules, SweepOptions};
use proptest::prelude::*;

use crate::common::rules;
use std::collections::{BTreeMap, HashSet};

/// A board with `n` pits a side in `sizes` and pit counts up to `most`.
fn board(sizes: std::ops::RangeInclusive<usize>, most: u32) -> impl Strategy<Value = Board> {
    sizes.prop_flat_map(move |n| {
        (prop::collection::vec(0..=most, 2 * n), 0..=3u32, 0..=3u32)
            .prop_filter_map("at most 255 stones in play", |(pits, store, opp)| {
                Board::from_pits(&pits, store, opp).ok()
            })
    })
}

/// Every turn from `turn`, by brute force: the distinct boards at which a
/// pick is made, and every complete turn with its final store.
fn enumerate(turn: &Turn, nodes: &mut HashSet<Board>, turns: &mut Vec<(Vec<u8>, u8)>) {
    nodes.insert(*turn.board());
    let legal: Vec<u8> = (1..=2 * turn.board().pits_per_side() as u32)
        .filter(|&p| turn.check(p).is_ok())
        .map(|p| p as u8)
        .collect();
    if legal.is_empty() {
        let line = turn.picks().iter().map(|p| p.number()).collect();
        turns.push((line, turn.board().store()));
        return;
    }
    for p in legal {
        let mut next = turn.clone();
        next.pick(p as u32).unwrap();
        if next.to_move() {
            enumerate(&next, nodes, turns);
        } else {
            if next.last_end() == Some(mancala_sweep::rules::pick::PickEnd::FreeTurn) {
                nodes.insert(*next.board());
            }
            let line = next.picks().iter().map(|p| p.number()).collect();
            turns.push((line, next.board().store()));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_pick_conserves_stones(b in board(1..=8, 15), r in rules()) {
        for p in b.legal_picks(r).collect::<Vec<_>>() {
            let mut t = Turn::new(b, r);
            t.pick(p.number() as u32).unwrap();
            prop_assert_eq!(t.board().stones_in_play(), b.stones_in_play());
            prop_assert_eq!(t.board().opponent_store(), b.opponent_store());
            prop_assert!(t.board().store() >= b.store());
        }
    }

    /// The traced pick of the checked path is the reference pick, and its
    /// record holds together: the first sowing is the pick, each relay
    /// takes up the pit the sowing before it ended in, and a capture is
    /// the last thing.
    #[test]
    fn a_traced_pick_is_the_reference_pick(b in board(1..=8, 15), r in rules()) {
        use mancala_sweep::rules::pick::{self, Landing};
        let n = b.pits_per_side();
        for p in b.legal_picks(r).collect::<Vec<_>>() {
            let mut plain = b.ring().to_vec();
            let end = pick::play(&mut plain, p.ring(n), r);
            let mut traced = b.ring().to_vec();
            let trace = pick::play_traced(&mut traced, p.ring(n), r);
            prop_assert_eq!(&plain, &traced);
            prop_assert_eq!(trace.end, end);
            prop_assert_eq!(trace.sowings[0].from, p);
            prop_assert_eq!(trace.sowings[0].stones, b.pit(p));
            for w in trace.sowings.windows(2) {
                prop_assert!(r.relay);
                prop_assert_eq!(w[0].last, Landing::Pit(w[1].from, w[1].stones - 1));
            }
            let last = trace.sowings.last().unwrap().last;
            prop_assert_eq!(last == Landing::Store, end == pick::PickEnd::FreeTurn);
            if let Some(c) = trace.capture {
                prop_assert_eq!(last, Landing::Pit(c.pit, 0));
                prop_assert_eq!(c.opposite, c.pit.opposite(n));
                prop_assert_eq!(traced[c.pit.ring(n)] + traced[c.opposite.ring(n)], 0);
            }
        }
    }

    #[test]
    fn board_text_round_trips(b in board(1..=16, 7)) {
        prop_assert_eq!(b.one_line().parse::<Board>().unwrap(), b);
        prop_assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
    }

    #[test]
    fn board_parser_never_panics(text in ".{0,80}") {
        let _ = text.parse::<Board>();
    }

    #[test]
    fn near_valid_boards_parse_or_fail_cleanly(
        rows in prop::collection::vec(prop::collection::vec(-3i64..300, 0..5), 0..5),
        sep in prop_oneof![Just(" / "), Just("\n"), Just("/")],
    ) {
        let text = rows
            .iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join(sep);
        if let Ok(b) = text.parse::<Board>() {
            prop_assert_eq!(b.one_line().parse::<Board>().unwrap(), b);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The search and the brute force agree on every number and on the full
    /// list of optimal lines; every listed line replays to the best score;
    /// one thread and two give the same solution.
    #[test]
    fn search_matches_brute_force(b in board(1..=3, 2), r in rules()) {
        let opts = |threads| SweepOptions { threads, listing: Listing::All, ..Default::default() };
        if !b.can_move(r) {
            let refused = matches!(solve(&b, r, &opts(1)), Err(SearchError::NoMove { .. }));
            prop_assert!(refused);
            return Ok(());
        }
        let mut nodes = HashSet::new();
        let mut turns = Vec::new();
        enumerate(&Turn::new(b, r), &mut nodes, &mut turns);
        let best = turns.iter().map(|t| t.1).max().unwrap();
        let mut optimal: Vec<Vec<u8>> = turns.iter().filter(|t| t.1 == best).map(|t| t.0.clone()).collect();
        optimal.sort();
        let mut by_store = BTreeMap::new();
        for t in &turns {
            *by_store.entry(t.1 as usize).or_insert(0u128) += 1;
        }

        let one = solve(&b, r, &opts(1)).unwrap();
        prop_assert_eq!(one.best_store, best as u32);
        prop_assert_eq!(one.turns_total, turns.len() as u128);
        prop_assert_eq!(one.optimal_count, optimal.len() as u128);
        prop_assert_eq!(one.positions, nodes.len() as u64);
        for (s, c) in by_store {
            prop_assert_eq!(one.turns_by_store[s], c);
        }
        let listed: Vec<Vec<u8>> = one.optimal.iter().map(|l| l.picks().iter().map(|p| p.number()).collect()).collect();
        prop_assert_eq!(&listed, &optimal);

        let mut two = solve(&b, r, &opts(2)).unwrap();
        two.seconds = one.seconds;
        prop_assert_eq!(&two, &one);
    }
}

/// A larger case with thousands of positions: one thread and two agree.
#[test]
fn threads_agree_on_the_standard_avalanche_board() {
    let b = Board::uniform(6, 4).unwrap();
    let opts = |threads| SweepOptions {
        threads,
        listing: Listing::All,
        ..Default::default()
    };
    let one = solve(&b, Rules::AVALANCHE, &opts(1)).unwrap();
    let mut two = solve(&b, Rules::AVALANCHE, &opts(2)).unwrap();
    two.seconds = one.seconds;
    assert_eq!(two, one);
}

proptest! {
    /// The search's packed engine and the reference engine agree on every
    /// legal pick of random positions, under every rule set.
    #[test]
    fn packed_engine_matches_the_reference(b in board(1..=16, 12), r in rules()) {
        let n = b.pits_per_side();
        let narrow = Engine::<2>::new(n.min(7), 255, r, Kernel::Scalar);
        let wide = Engine::<5>::new(n, 255, r, Kernel::Scalar);
        for p in b.legal_picks(r).collect::<Vec<_>>() {
            let from = p.ring(n);
            let mut slow = b.ring().to_vec();
            let end = mancala_sweep::rules::pick::play(&mut slow, from, r);
            let mut out = vec![0u8; slow.len()];
            let mut fast: Packed<5> = pack(b.ring());
            prop_assert_eq!(wide.play(&mut fast, from), end);
            unpack(&fast, &mut out);
            prop_assert_eq!(&out, &slow);
            if n <= 7 {
                let mut fast: Packed<2> = pack(b.ring());
                prop_assert_eq!(narrow.play(&mut fast, from), end);
                unpack(&fast, &mut out);
                prop_assert_eq!(&out, &slow);
            }
        }
    }
}

/// A board of up to 7 pits a side with one pit of 100 to 200 stones, so
/// that picks sow 128 stones or more.
fn heavy() -> impl Strategy<Value = Board> {
    (1..=7usize).prop_flat_map(|n| {
        (
            prop::collection::vec(0..=3u32, 2 * n),
            0..2 * n,
            100..=200u32,
        )
            .prop_map(move |(mut pits, at, stones)| {
                pits[at] = stones;
                Board::from_pits(&pits, 0, 0).expect("at most 242 stones")
            })
    })
}

/// The kernels this CPU runs, and what it lacks for the others.
fn kernels() -> Vec<Kernel> {
    Kernel::ALL
        .into_iter()
        .filter(|k| k.supported().is_ok())
        .collect()
}

/// Says which kernel paths the property tests below run on this CPU, and
/// which they cannot (shown with `--show-output`; `tests/kernels.rs`, which
/// has no harness, prints the same on every run of the test command), so
/// that a path is never skipped in silence.
#[test]
fn kernel_paths_tested_on_this_cpu() {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    println!("CPU: {cpu}");
    for k in Kernel::ALL {
        match k.supported() {
            Ok(()) => println!("kernel {k}: property-tested against the reference engine"),
            Err(missing) => println!("kernel {k}: NOT TESTED here, this CPU lacks {missing}"),
        }
    }
    assert!(kernels().contains(&Kernel::Scalar));
}

/// Every pick of `b` through [`Engine::for_each_pick`] against the reference
/// engine, with the engine built for `stones` stones in play, for every
/// kernel this CPU runs.
fn lockstep_agrees(b: &Board, r: Rules, stones: usize) -> Result<(), TestCaseError> {
    for kernel in kernels() {
        kernel_agrees(b, r, stones, kernel)?;
    }
    Ok(())
}

fn kernel_agrees(b: &Board, r: Rules, stones: usize, kernel: Kernel) -> Result<(), TestCaseError> {
    let n = b.pits_per_side();
    // Rings of 14 counters and more leave no spare bytes for a record.
    let kernel = match kernel {
        Kernel::Avx512Vbmi2 if n > 6 => Kernel::Avx512Vbmi,
        Kernel::Avx2 | Kernel::Avx512Bw if n > 6 => Kernel::Scalar,
        k => k,
    };
    let engine = Engine::<2>::new(n, stones, r, kernel);
    let scope: Vec<usize> = r.scope.pits(n).map(|p| p.ring(n)).collect();
    let mut expected = Vec::new();
    for p in b.legal_picks(r) {
        let mut ring = b.ring().to_vec();
        let end = mancala_sweep::rules::pick::play(&mut ring, p.ring(n), r);
        expected.push((p.ring(n), ring, end));
    }
    let mut got = Vec::new();
    let moved = engine.for_each_pick(&pack(b.ring()), &scope, |from, after, end| {
        let mut ring = vec![0u8; 2 * n + 1];
        unpack(after, &mut ring);
        got.push((from, ring, end));
    });
    prop_assert_eq!(moved, !expected.is_empty());
    prop_assert_eq!(&got, &expected);
    // The search's forward pass reads the kernel's landings directly: each
    // pick's end and final store must be the reference's too.
    let mut landings = Landings::default();
    let packed = pack(b.ring());
    let landed = engine.landings(&packed, &scope, &mut landings);
    // The AVX2 kernel only streams: its picks are played by the scalar
    // engine but for the stream below.
    prop_assert_eq!(
        landed.is_some(),
        matches!(kernel, Kernel::Avx512Vbmi | Kernel::Avx512Vbmi2),
        "kernel {} runs",
        kernel
    );
    prop_assert_eq!(engine.lockstep(), landed.is_some());
    if let Some(picks) = landed {
        let finished: Vec<_> = (0..picks)
            .map(|i| {
                let (end, store) = engine.finish(&landings, i);
                (landings.picks[i] as usize, end, store)
            })
            .collect();
        let want: Vec<_> = expected
            .iter()
            .map(|(from, ring, end)| (*from, *end, ring[n]))
            .collect();
        prop_assert_eq!(finished, want);
        // Keys from the kernel's running sums, for every pick (free turns
        // use them; before any capture, as the kernel leaves the ring).
        for i in 0..picks {
            let mut ring = vec![0u8; 2 * n + 1];
            unpack(&landings.rings[i], &mut ring);
            let bits = bits_needed(
                ring.iter().map(|&c| c as u32).sum::<u32>() - ring[n] as u32,
                2 * n,
            );
            if bits <= 128 {
                prop_assert_eq!(
                    u128::from_sums(&landings.sums[i], 2 * n),
                    u128::encode(&ring, n)
                );
            }
            if bits <= 64 {
                prop_assert_eq!(
                    u64::from_sums(&landings.sums[i], 2 * n),
                    u64::encode(&ring, n)
                );
            }
        }
        // The kernel decoding a 64-bit key itself lands every pick the same.
        if bits_needed(b.stones_in_pits(), 2 * n) <= 64 {
            let key = u64::encode(b.ring(), n);
            let mut from_key = Landings::default();
            if let Some(m) = engine.landings_of_key(key, b.store(), &scope, &mut from_key) {
                prop_assert_eq!(m, picks);
                prop_assert_eq!(&from_key.rings[..m], &landings.rings[..m]);
                prop_assert_eq!(&from_key.sums[..m], &landings.sums[..m]);
                prop_assert_eq!(&from_key.picks[..m], &landings.picks[..m]);
                prop_assert_eq!(&from_key.lasts[..m], &landings.lasts[..m]);
                prop_assert_eq!(&from_key.stores[..m], &landings.stores[..m]);
            }
        }
    }
    // The streaming kernel plays the same picks, here five copies of
    // them tagged as different nodes so that lanes are refilled. Its
    // records are built by hand, and by the kernel from a key where the
    // key fits 64 bits.
    prop_assert_eq!(
        engine.streaming().is_some(),
        matches!(
            kernel,
            Kernel::Avx512Vbmi2 | Kernel::Avx512Bw | Kernel::Avx2
        )
    );
    if let Some(lanes) = engine.streaming() {
        let mut input = Vec::new();
        let mut want = Vec::new();
        for node in 0..5u16 {
            let mut record = [0u8; 16];
            record[..2 * n + 1].copy_from_slice(b.ring());
            record[14..16].copy_from_slice(&node.to_le_bytes());
            let first = input.len();
            for &pit in &scope {
                if b.ring()[pit] > 0 {
                    record[13] = pit as u8;
                    input.push(record);
                }
            }
            if bits_needed(b.stones_in_pits(), 2 * n) <= 64 {
                let key = u64::encode(b.ring(), n);
                let mut records = vec![[0u8; 16]; scope.len() + 3];
                let picks = lanes.picks(&scope);
                let m = lanes.records(key, b.store(), node, &picks, &mut records);
                prop_assert_eq!(&records[..m], &input[first..]);
            }
            // What each pick's chain leaves before any capture, from the
            // reference sowing above, and how the engine finishes it.
            for p in b.legal_picks(r) {
                let (ring, last) = chain(b.ring(), p.ring(n), r.relay);
                let mut record = [0u8; 16];
                record[..2 * n + 1].copy_from_slice(&ring);
                record[13] = last;
                want.push((node, ring, last, engine.finish_record(&record)));
            }
        }
        let (mut free, mut over) = (Vec::new(), Vec::new());
        lanes.stream(&input, &mut free, &mut over);
        // Free turns are the records whose last stone is in the store.
        prop_assert!(free.iter().all(|r| r[13] as usize == n));
        prop_assert!(over.iter().all(|r| r[13] as usize != n));
        let out = [free, over].concat();
        let mut sums = Vec::new();
        lanes.sums(&out, &mut sums);
        let mut got = Vec::new();
        for (record, sum) in out.iter().zip(&sums) {
            let ring = record[..2 * n + 1].to_vec();
            if bits_needed(
                ring.iter().map(|&c| c as u32).sum::<u32>() - ring[n] as u32,
                2 * n,
            ) <= 128
            {
                prop_assert_eq!(u128::from_sums(sum, 2 * n), u128::encode(&ring, n));
            }
            let node = u16::from_le_bytes([record[14], record[15]]);
            got.push((node, ring, record[13], engine.finish_record(record)));
        }
        got.sort_by(|a, b| (a.0, &a.1, a.2).cmp(&(b.0, &b.1, b.2)));
        want.sort_by(|a, b| (a.0, &a.1, a.2).cmp(&(b.0, &b.1, b.2)));
        prop_assert_eq!(got, want);
    }
    Ok(())
}

proptest! {
    /// Every kernel this CPU runs (see `kernel_paths_tested_on_this_cpu`)
    /// plays every legal pick as the reference engine does, in pit order:
    /// with its lap tables (fewer than 128 stones) and with its reciprocal
    /// division (up to 255).
    #[test]
    fn lockstep_engine_matches_the_reference(
        small in board(1..=7, 12),
        big in heavy(),
        r in rules(),
    ) {
        lockstep_agrees(&small, r, small.stones_in_play() as usize)?;
        lockstep_agrees(&big, r, 255)?;
    }
}

/// A large bucket reports how far its expansion has got from inside (a
/// 2x6x5 bucket takes minutes, and a bar that moved only between buckets
/// stood still), each report consistent with the bucket's own report
/// after it, and reporting changes nothing of the answer.
#[test]
fn large_buckets_report_progress_from_inside() {
    use mancala_sweep::sweep::Progress;
    use std::sync::Mutex;
    let board = Board::uniform(5, 4).unwrap();
    let events: Mutex<Vec<Progress>> = Mutex::new(Vec::new());
    let report = |p: &Progress| events.lock().unwrap().push(*p);
    let opts = SweepOptions {
        listing: Listing::Limit(0),
        ..Default::default()
    };
    let with = solve(
        &board,
        Rules::ANY_HOLE,
        &SweepOptions {
            progress: Some(&report),
            ..opts
        },
    )
    .unwrap();
    let without = solve(&board, Rules::ANY_HOLE, &opts).unwrap();
    assert_eq!(
        (with.best_store, with.positions, &with.turns_by_store),
        (
            without.best_store,
            without.positions,
            &without.turns_by_store
        )
    );
    let events = events.into_inner().unwrap();
    let mut inside = 0;
    for (i, e) in events.iter().enumerate() {
        let Some(w) = e.within else { continue };
        inside += 1;
        assert!(0 < w.done && w.done <= w.of && w.seconds >= 0.0, "{e:?}");
        // The bucket's own report comes later, with all of it counted.
        let after = events[i..]
            .iter()
            .find(|f| f.within.is_none() && f.store == e.store)
            .unwrap_or_else(|| panic!("no report after bucket {}", e.store));
        assert_eq!(
            after.positions,
            e.positions - w.done + w.of,
            "{e:?} {after:?}"
        );
    }
    // 2x5x4 any-hole has buckets of more than 65,536 positions, each
    // reporting about 32 times.
    assert!(inside >= 32, "{inside} reports from inside buckets");
    let buckets = events.iter().filter(|e| e.within.is_none()).count();
    assert!(buckets > 0);
    // The forecast of what is left (issue 17): made once a few buckets are
    // done, never below what the bucket in progress still holds, within a
    // factor of 2 of the truth from the largest bucket on, and nothing
    // after the last bucket.
    let largest = (0..=with.total_stones as usize)
        .max_by_key(|&k| with.positions_by_store[k])
        .unwrap();
    for e in &events {
        let truth = with.positions - e.positions;
        match (e.left, e.within) {
            (Some(left), Some(w)) => assert!(left >= w.of - w.done, "{e:?}"),
            (None, _) => assert!(e.store < 8, "no forecast after bucket {}", e.store),
            _ => {}
        }
        if let (Some(left), true) = (e.left, e.store >= largest) {
            assert!(
                left <= 2 * truth.max(1) && 2 * left >= truth,
                "after {e:?}: {truth} left in truth"
            );
        }
    }
    let last = events.last().unwrap();
    assert_eq!(
        (last.store, last.left),
        (with.total_stones as usize, Some(0))
    );
}
