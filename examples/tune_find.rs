//! How `find`'s score weights were chosen: run `find` with several weight
//! sets on the any-hole boards of the targets, over five seeds each, and
//! print the mean and worst time to a sweep. Usage:
//!
//! ```sh
//! cargo run --release --example tune_find
//! ```

use mancala_sweep::sweep::beam::{find, FindOptions, Weights};
use mancala_sweep::{Board, Rules};

fn main() {
    let candidates = [
        (
            "free only",
            Weights {
                free: 1,
                own: 0,
                empty: 0,
            },
        ),
        (
            "free, more own stones",
            Weights {
                free: 1000,
                own: 1,
                empty: 0,
            },
        ),
        (
            "16 free + own stones",
            Weights {
                free: 16,
                own: 1,
                empty: 0,
            },
        ),
        (
            "free, fewer own stones",
            Weights {
                free: 1000,
                own: -1,
                empty: 0,
            },
        ),
        ("free, fewer own, fewer empty (tuned)", Weights::TUNED),
        (
            "own stones only",
            Weights {
                free: 0,
                own: 1,
                empty: 0,
            },
        ),
    ];
    println!("| weights | board | mean s | worst s | sweeps |");
    println!("|---|---|---|---|---|");
    for (name, weights) in candidates {
        for stones in [4, 5, 6] {
            let board = Board::uniform(6, stones).unwrap();
            let (mut total, mut worst, mut sweeps) = (0.0f64, 0.0f64, 0);
            for seed in 1..=5 {
                let opts = FindOptions {
                    seconds: 20.0,
                    seed,
                    weights,
                    ..Default::default()
                };
                let f = find(&board, Rules::ANY_HOLE, &opts).unwrap();
                total += f.seconds;
                worst = worst.max(f.seconds);
                sweeps += f.sweep() as u32;
            }
            println!(
                "| {name} | any-hole 2x6x{stones} | {:.2} | {:.2} | {sweeps}/5 |",
                total / 5.0,
                worst
            );
        }
    }
}
