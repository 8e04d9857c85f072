use super::*;
use crate::kernel::Kernel;

/// A count type small enough to overflow on a real search, to exercise
/// the overflow path that `u128` counts take on astronomically big ones.
impl Count for u8 {
    const ONE: Self = 1;
    const BITS: u32 = 8;
    fn checked_add(self, other: Self) -> Option<Self> {
        u8::checked_add(self, other)
    }
    fn overflowing_add(self, other: Self) -> (Self, bool) {
        u8::overflowing_add(self, other)
    }
    fn from_u128(v: u128) -> Option<Self> {
        u8::try_from(v).ok()
    }
}

fn scalar() -> Plan {
    Plan {
        kernel: Kernel::Scalar,
        decode_keys: false,
    }
}

/// Every kernel this CPU runs against the scalar one on whole searches:
/// boards up to 6 pits a side stream their picks, 7 pits a side use the
/// lockstep landings; Kalah exercises captures after the kernel. Which
/// kernels ran, and which this CPU lacks, is printed (see the README's
/// test command).
#[test]
fn every_kernel_gives_the_same_search_as_the_scalar_one() {
    let opts = SweepOptions {
        listing: Listing::Limit(25),
        ..Default::default()
    };
    let stop = Stop::default();
    for kernel in Kernel::ALL.into_iter().filter(|&k| k != Kernel::Scalar) {
        if let Err(missing) = kernel.supported() {
            println!("kernel {kernel}: NOT TESTED, this CPU lacks {missing}");
            continue;
        }
        let mut boards = 0;
        for (rules, n, s) in [
            (Rules::ANY_HOLE, 5, 3),
            (Rules::AVALANCHE, 6, 4),
            (Rules::KALAH, 6, 4),
            (Rules::ANY_HOLE, 7, 2),
        ] {
            let board = Board::uniform(n, s).unwrap();
            let bits = bits_needed(board.stones_in_pits(), 2 * n);
            let plan = plan(n, bits, KernelChoice::AtMost(kernel));
            if plan.kernel != kernel {
                continue; // 7 pits a side do not stream
            }
            boards += 1;
            let fast = Search::<u64, u64, 2>::new(&board, rules, plan);
            let slow = Search::<u64, u64, 2>::new(&board, rules, scalar());
            let (Ok(a), Ok(b)) = (fast.run(&opts, &stop), slow.run(&opts, &stop)) else {
                panic!("{rules} {n}x{s} failed");
            };
            assert_eq!(a, b, "{rules} {n}x{s} with kernel {kernel}");
        }
        assert!(boards >= 3, "kernel {kernel} ran on {boards} boards");
        println!("kernel {kernel}: tested on {boards} whole searches against scalar");
    }
}

/// A search on wide keys that goes on with `u64` keys from the first
/// bucket they fit gives exactly the answer of the same search on wide
/// keys all the way (counts by store, positions by bucket, every
/// optimal line listed): through every kernel this CPU runs on small
/// boards, and through the default one on avalanche 2x6x6 (2.16
/// million positions), with Kalah captures, and on 7 pits a side.
#[test]
fn going_on_with_narrow_keys_changes_nothing() {
    let stop = Stop::default();
    let relay_capture = Rules {
        relay: true,
        ..Rules::KALAH
    };
    let small = [
        (Rules::AVALANCHE, "5 5 5 5 5 5 / 0 0 / 5 5 5 5 5 5"),
        (Rules::AVALANCHE, "6 6 6 6 6 / 0 0 / 6 6 6 6 6"),
        (relay_capture, "7 7 7 7 7 / 0 0 / 7 7 7 7 7"),
        (Rules::KALAH, "6 6 6 6 6 6 / 0 0 / 6 6 6 6 6 6"),
    ];
    let large = [
        (Rules::AVALANCHE, "6 6 6 6 6 6 / 0 0 / 6 6 6 6 6 6"),
        (relay_capture, "6 6 6 6 6 6 / 0 0 / 6 6 6 6 6 6"),
        (Rules::AVALANCHE, "5 5 5 5 5 5 5 / 0 0 / 5 5 5 5 5 5 5"),
    ];
    let runs = Kernel::ALL
        .into_iter()
        .filter(|kernel| match kernel.supported() {
            Ok(()) => true,
            Err(missing) => {
                println!("kernel {kernel}: NOT TESTED, this CPU lacks {missing}");
                false
            }
        })
        .flat_map(|kernel| small.map(|case| (KernelChoice::AtMost(kernel), case)))
        .chain(large.map(|case| (KernelChoice::Auto, case)));
    for (choice, (rules, board)) in runs {
        let opts = SweepOptions {
            listing: Listing::All,
            kernel: choice,
            ..Default::default()
        };
        let board: Board = board.parse().unwrap();
        let n = board.pits_per_side();
        let bits = bits_needed(board.stones_in_pits(), 2 * n);
        assert!(bits > 64, "{board} needs wide keys");
        let plan = plan(n, bits, choice);
        let search = Search::<u128, u64, 2>::new(&board, rules, plan);
        let from = search.narrow_from().expect("narrows");
        let wide = search.run_keys(&opts, &stop, false).unwrap();
        let narrow = search.run_keys(&opts, &stop, true).unwrap();
        let at = format!(
            "{rules} on {}, kernel {}, u64 from bucket {from}",
            board.one_line(),
            plan.kernel
        );
        assert!(!wide.optimal.is_empty(), "{at}");
        assert_eq!(narrow, wide, "{at}");
        println!("{at}: {} positions, the same answer", wide.positions);
    }
}

/// The two backward passes agree: unsowing from the nodes the forward
/// pass kept finds exactly the good nodes that expanding every node
/// again finds, on sweeps and on turns that fall short, with and
/// without captures, through every kernel this CPU runs (each files
/// the finished turns its own way); and the listing walks exactly the
/// optimal count.
#[test]
fn unsowing_finds_the_same_good_nodes_as_expanding_every_node() {
    let opts = SweepOptions {
        listing: Listing::Limit(1),
        ..Default::default()
    };
    let stop = Stop::default();
    let pits = |p: &[u32]| Board::from_pits(p, 0, 0).unwrap();
    let empty_capture = Rules {
        capture: rules::Capture::Empty,
        ..Rules::KALAH
    };
    let relay_capture = Rules {
        relay: true,
        ..Rules::KALAH
    };
    let cases = [
        (Rules::ANY_HOLE, Board::uniform(6, 3).unwrap()),
        (Rules::ANY_HOLE, Board::uniform(5, 3).unwrap()),
        (Rules::ANY_HOLE, Board::uniform(4, 4).unwrap()),
        (Rules::ANY_HOLE, Board::uniform(3, 5).unwrap()),
        (Rules::ANY_HOLE, pits(&[3, 0, 7, 1, 2, 5, 0, 4, 1, 6, 2, 3])),
        (Rules::AVALANCHE, Board::uniform(6, 1).unwrap()),
        (Rules::AVALANCHE, Board::uniform(6, 4).unwrap()),
        // An own-side relay sweep: pits 1..6 hold 0 0 4 2 2 1.
        (
            Rules::AVALANCHE,
            pits(&[0, 0, 4, 2, 2, 1, 0, 0, 0, 0, 0, 0]),
        ),
        (
            Rules::AVALANCHE,
            pits(&[5, 1, 0, 9, 2, 3, 4, 0, 6, 2, 1, 3]),
        ),
        (Rules::KALAH, Board::uniform(6, 4).unwrap()),
        (Rules::KALAH, pits(&[1, 0, 3, 0, 2, 1, 4, 4, 0, 5, 1, 2])),
        (empty_capture, pits(&[6, 5, 4, 3, 2, 1, 0, 3, 3, 0, 2, 8])),
        (relay_capture, pits(&[2, 0, 5, 1, 0, 3, 2, 4, 0, 1, 6, 2])),
    ];
    let mut kernels = vec![Kernel::Scalar];
    for kernel in Kernel::ALL.into_iter().filter(|&k| k != Kernel::Scalar) {
        match kernel.supported() {
            Ok(()) => kernels.push(kernel),
            Err(missing) => println!("kernel {kernel}: NOT TESTED, this CPU lacks {missing}"),
        }
    }
    for kernel in kernels {
        let (mut sweeps, mut short) = (0, 0);
        for (rules, board) in &cases {
            let n = board.pits_per_side();
            let bits = bits_needed(board.stones_in_pits(), 2 * n);
            let plan = match kernel {
                Kernel::Scalar => scalar(),
                _ => plan(n, bits, KernelChoice::AtMost(kernel)),
            };
            if plan.kernel != kernel {
                continue;
            }
            let search = Search::<u64, u64, 2>::new(board, *rules, plan);
            let fresh = counts::ForwardCounts::fresh(board.store() as usize, search.max_store);
            let counted = search
                .count(
                    &mut search.seeded(),
                    fresh,
                    true,
                    &opts,
                    &stop,
                    &mut steps::Alone,
                )
                .ok()
                .unwrap();
            let best = counted.best;
            let at = format!("{rules} {} with kernel {kernel}", board.one_line());
            assert_eq!(counted.finishers.top, best, "{at}");
            if best == search.max_store {
                sweeps += 1;
            } else {
                short += 1;
            }
            let keys = counted.bucket_keys;
            let full = search.backward_by_expanding(keys.clone(), best);
            let quick = search
                .backward(keys, best, counted.finishers, &opts, &stop, 0)
                .ok()
                .unwrap();
            assert_eq!(quick, full, "{at}");
            let optimal = counted.ended[best];
            if optimal <= 100_000 {
                let lines = search.list(&quick, best, usize::MAX);
                assert_eq!(lines.len() as u128, optimal, "{at}");
            }
        }
        assert!(
            sweeps >= 4 && short >= 4,
            "kernel {kernel}: {sweeps} sweeps, {short} short"
        );
        println!(
            "kernel {kernel}: backward passes agree on {sweeps} sweeps and {short} short turns"
        );
    }
}

/// The guard between the chunks of a bucket's expansion (issue 17): a
/// bucket whose expansion the guard before it let through (an estimate
/// of its successors) is still stopped once the process passes the
/// limit; its chunks are skipped and the pass ends at its checkpoint
/// with the memory error, never with counts of half a bucket.
#[test]
fn the_memory_guard_holds_inside_a_bucket() {
    let resident = crate::memory::resident_bytes().expect("Linux has /proc");
    let board = Board::uniform(6, 3).unwrap();
    let search = Search::<u64, u64, 2>::new(&board, Rules::ANY_HOLE, scalar());
    let tripped = AtomicBool::new(false);
    let stop = Stop::default().with_memory_limit(resident / 2, None, &tripped);
    let mut frontier = search.seeded();
    let first = search.start.store() as usize;
    // The guard before the bucket says it fits; the one inside does not.
    let (bucket, ended, pushed) = search
        .step(&mut frontier, first, &stop, None, &|_| Ok(()))
        .ok()
        .unwrap()
        .expect("the start is a node");
    assert_eq!(bucket.len(), 1);
    assert!(tripped.load(std::sync::atomic::Ordering::Relaxed));
    assert_eq!((pushed, ended.iter().sum::<u128>()), (0, 0), "skipped");
    let opts = SweepOptions {
        listing: Listing::Limit(0),
        ..Default::default()
    };
    let progress = Progress::forward(first, search.max_store, 1, &[], 0);
    assert!(matches!(
        search.checkpoint(&opts, &stop, progress),
        Err(Fail::Memory(_))
    ));
    // Without the limit the same bucket expands.
    let mut frontier = search.seeded();
    let (_, _, pushed) = search
        .step(&mut frontier, first, &Stop::default(), None, &|_| Ok(()))
        .ok()
        .unwrap()
        .unwrap();
    assert!(pushed > 0);
}

#[test]
fn path_count_overflow_is_an_error_never_a_wrap() {
    // Any-hole 2x6x3 has positions reached by hundreds of pick sequences.
    let board = Board::uniform(6, 3).unwrap();
    let search = Search::<u64, u8, 2>::new(&board, Rules::ANY_HOLE, scalar());
    let opts = SweepOptions {
        listing: Listing::Limit(0),
        ..Default::default()
    };
    let stop = Stop::default();
    assert!(matches!(search.run(&opts, &stop), Err(Fail::Overflow)));
    // With u64 counts the same search succeeds, and the error a u128
    // overflow would give names the variant.
    assert!(
        Search::<u64, u64, 2>::new(&board, Rules::ANY_HOLE, scalar())
            .run(&opts, &stop)
            .is_ok()
    );
    assert_eq!(
        overflow_error(Rules::ANY_HOLE, &board).to_string(),
        "path count overflowed u128 for rules any-hole (scope=any relay=on capture=none) on board 3 3 3 3 3 3 / 0 0 / 3 3 3 3 3 3; the counts cannot be reported exactly"
    );
}

#[test]
fn a_deadline_and_a_cancel_are_told_apart() {
    let board = Board::uniform(6, 3).unwrap();
    let cancel = AtomicBool::new(true);
    let cancelled = solve(
        &board,
        Rules::ANY_HOLE,
        &SweepOptions {
            cancel: Some(&cancel),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(
        cancelled.is_cancelled() && !cancelled.is_deadline(),
        "{cancelled}"
    );
    assert!(cancelled.to_string().starts_with("interrupted: "));
    let late = solve(
        &board,
        Rules::ANY_HOLE,
        &SweepOptions {
            seconds: Some(0.0),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(late.is_deadline() && !late.is_cancelled(), "{late}");
    assert!(
        late.to_string().starts_with("out of time after 0 s: "),
        "{late}"
    );
}

/// Issue 34 (1): with `memory_held`, the guard counts the process above
/// what it held before (a server's games), so a limit below what the
/// process holds no longer stops every search; the same limit without
/// it still does (the test below). The figures leave room for the
/// other tests of this binary, which grow and shrink the process
/// while this one runs (a guard at half the resident size once failed
/// here when a neighbour freed its table).
#[test]
fn the_memory_guard_counts_above_what_was_held() {
    let resident = crate::memory::resident_bytes().expect("Linux has /proc");
    let board = Board::uniform(2, 1).unwrap();
    let opts = SweepOptions {
        max_memory: SMALL_LIMIT,
        memory_held: Some(&|| resident + (64 << 30)),
        listing: Listing::Limit(0),
        ..Default::default()
    };
    assert!(solve(&board, Rules::AVALANCHE, &opts).is_ok());
}

/// A memory limit far above what the tiny search holds (a few KiB) and
/// far below what any test process holds (its binary alone is larger).
const SMALL_LIMIT: u64 = 512 << 10;

/// Regression (issue 15): the memory guard counted only the search's own
/// buffers, so a run could pass it by the size of the process around
/// them. A guard below what the process already holds now stops even a
/// tiny search at its first bucket.
#[test]
fn the_memory_guard_counts_the_whole_process() {
    let resident = crate::memory::resident_bytes().expect("Linux has /proc");
    let board = Board::uniform(2, 1).unwrap();
    let opts = |max_memory| SweepOptions {
        max_memory,
        listing: Listing::Limit(0),
        ..Default::default()
    };
    // The search itself holds a few KiB: far below the small limit.
    assert!(solve(&board, Rules::AVALANCHE, &opts(u64::MAX)).is_ok());
    assert!(resident > 2 * SMALL_LIMIT, "{resident} bytes resident");
    let stopped = solve(&board, Rules::AVALANCHE, &opts(SMALL_LIMIT)).unwrap_err();
    assert!(
        matches!(stopped, SearchError::MemoryLimit { .. }),
        "{stopped}"
    );
}
