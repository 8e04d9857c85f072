//! How long each level of `game play` takes a turn on 6 pits of 4 stones,
//! the figures of the README's levels table: the level plays both sides of
//! `GAMES` games, the first from the start and the others from openings of
//! two random turns (seeded, so the positions are those of strong play, as
//! a person meets them), and every turn it
//! chooses is timed. Prints the median, the 90th percentile and the longest
//! turn per rule set. Usage (levels: easy, medium, hard; rules: kalah,
//! avalanche):
//!
//! ```sh
//! cargo run --release --example level_times -- hard avalanche 2
//! ```

use mancala_sweep::game::{GameState, Level};
use mancala_sweep::rules::Preset;
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level: Level = args
        .first()
        .map_or("medium", String::as_str)
        .parse()
        .expect("a level: easy, medium, hard or perfect");
    let preset = match args.get(1).map_or("kalah", String::as_str) {
        "avalanche" => Preset::Avalanche,
        _ => Preset::Kalah,
    };
    let games: u64 = args.get(2).map_or(4, |g| g.parse().expect("a game count"));
    let spec = level.agent();
    let mut times = Vec::new();
    for game in 0..games {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(game);
        let mut state = GameState::start(6, 4, preset.rules()).expect("6x4");
        // Game 0 from the start (the first turn is the longest on
        // avalanche), the others after two random turns, so that they differ.
        for _ in 0..if game == 0 { 0 } else { 2 } {
            let turns = state.turns();
            let t = &turns[rng.random_range(0..turns.len())];
            for p in &t.picks {
                state.play_pick(p.number() as u32).expect("legal");
            }
        }
        let mut agent = spec.build(&state, game).expect("agent");
        while !state.is_over() {
            let t0 = Instant::now();
            let picks = agent.choose(&state);
            times.push(t0.elapsed().as_secs_f64());
            for p in picks {
                state.play_pick(p.number() as u32).expect("legal");
            }
        }
        eprintln!("game {game}: {} turns so far", times.len());
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{} ({spec}) {preset}: {} turns, median {:.3} s, 90% {:.3} s, longest {:.3} s",
        level.name(),
        times.len(),
        at(0.5),
        at(0.9),
        at(1.0)
    );
}
