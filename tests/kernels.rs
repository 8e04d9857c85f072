//! Which kernel paths this CPU runs, each checked against the scalar one on
//! whole searches, with the result printed on every run (this test has no
//! harness, so its output is never captured): a path that cannot run here
//! says so, instead of passing in silence.
//!
//! The property tests in `properties.rs` check each kernel pick by pick
//! against the reference engine; this one checks the search that each kernel
//! drives, through the public `SweepOptions::kernel` cap.

use mancala_sweep::internals::bits_needed;
use mancala_sweep::sweep::kernel::plan;
use mancala_sweep::sweep::{Kernel, KernelChoice};
use mancala_sweep::{solve, Board, Capture, Listing, Rules, Scope, SweepOptions};
use rand::{Rng, SeedableRng};

/// The x86-64 features a kernel path may need that this CPU lacks.
fn lacking() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let features = [
            ("AVX-512 F", std::arch::is_x86_feature_detected!("avx512f")),
            (
                "AVX-512 BW",
                std::arch::is_x86_feature_detected!("avx512bw"),
            ),
            (
                "AVX-512 VL",
                std::arch::is_x86_feature_detected!("avx512vl"),
            ),
            (
                "AVX-512 VBMI",
                std::arch::is_x86_feature_detected!("avx512vbmi"),
            ),
            (
                "AVX-512 VBMI2",
                std::arch::is_x86_feature_detected!("avx512vbmi2"),
            ),
            ("AVX2", std::arch::is_x86_feature_detected!("avx2")),
            ("BMI1", std::arch::is_x86_feature_detected!("bmi1")),
            ("BMI2", std::arch::is_x86_feature_detected!("bmi2")),
            ("POPCNT", std::arch::is_x86_feature_detected!("popcnt")),
        ];
        let missing: Vec<&str> = features
            .iter()
            .filter(|(_, has)| !has)
            .map(|(name, _)| *name)
            .collect();
        missing.join(", ")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        "x86-64".to_string()
    }
}

fn cpu() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split(':').nth(1))
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let flags: Vec<String> = field("flags")
        .split_whitespace()
        .filter(|f| f.starts_with("avx512") || ["avx2", "bmi2", "popcnt"].contains(f))
        .map(str::to_string)
        .collect();
    format!(
        "{} ({}; {})",
        field("model name"),
        std::env::consts::ARCH,
        flags.join(" ")
    )
}

/// Random small positions under every rule set, and some start boards.
fn cases() -> Vec<(Board, Rules)> {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    let mut out = Vec::new();
    for scope in [Scope::Own, Scope::Any] {
        for relay in [false, true] {
            for capture in Capture::ALL {
                let rules = Rules {
                    scope,
                    relay,
                    capture,
                };
                for n in [2usize, 4, 6, 7] {
                    out.push((Board::uniform(n, 2).unwrap(), rules));
                }
                // Keys wider than 64 bits (the kernels take them from a
                // decoded ring): 6 pits a side with 54 stones or more in
                // them, under own scope, whose turns stay few.
                if scope == Scope::Own {
                    loop {
                        let pits: Vec<u32> = (0..12).map(|_| rng.random_range(2..=9)).collect();
                        if pits.iter().sum::<u32>() >= 54 {
                            out.push((Board::from_pits(&pits, 0, 0).unwrap(), rules));
                            break;
                        }
                    }
                }
                for _ in 0..12 {
                    let n = rng.random_range(1..=7usize);
                    let pits: Vec<u32> = (0..2 * n).map(|_| rng.random_range(0..=5)).collect();
                    let store = rng.random_range(0..=3);
                    if let Ok(b) = Board::from_pits(&pits, store, 0) {
                        if b.can_move(rules) {
                            out.push((b, rules));
                        }
                    }
                }
            }
        }
    }
    out
}

fn main() {
    println!("kernels on {}", cpu());
    let cases = cases();
    let opts = |kernel| SweepOptions {
        listing: Listing::Limit(20),
        kernel: KernelChoice::AtMost(kernel),
        ..Default::default()
    };
    let (mut passed, mut failed) = (0, 0);
    for kernel in Kernel::ALL.into_iter().filter(|&k| k != Kernel::Scalar) {
        if let Err(needs) = kernel.supported() {
            println!(
                "kernel {kernel}: NOT TESTED here: it needs {needs}, and this CPU lacks {}",
                lacking()
            );
            continue;
        }
        let mut wrong = Vec::new();
        let (mut on_it, mut wide) = (0, 0);
        for (board, rules) in &cases {
            let n = board.pits_per_side();
            let bits = bits_needed(board.stones_in_pits(), 2 * n);
            let runs = plan(n, bits, KernelChoice::AtMost(kernel)).kernel == kernel;
            on_it += usize::from(runs);
            wide += usize::from(runs && bits > 64);
            let mut fast = solve(board, *rules, &opts(kernel)).unwrap();
            let slow = solve(board, *rules, &opts(Kernel::Scalar)).unwrap();
            fast.seconds = slow.seconds;
            if fast != slow {
                wrong.push(format!("{rules} {}", board.one_line()));
            }
        }
        if on_it == 0 || wide == 0 {
            wrong.push(format!(
                "{on_it} positions ran on the kernel itself, {wide} with keys over 64 bits"
            ));
        }
        if wrong.is_empty() {
            passed += 1;
            println!(
                "kernel {kernel}: same searches as scalar on {} positions ({on_it} of them on this kernel, {wide} with keys over 64 bits; 12 rule sets, 1 to 7 pits a side)",
                cases.len()
            );
        } else {
            failed += 1;
            println!(
                "kernel {kernel}: FAILED on {}: {}",
                wrong.len(),
                wrong.join("; ")
            );
        }
    }
    println!("kernels: {passed} passed, {failed} failed");
    if failed > 0 {
        std::process::exit(1);
    }
}
