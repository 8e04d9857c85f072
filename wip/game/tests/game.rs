use mancala_sweep::game::*;
use mancala_sweep::rules::{Capture, Rules, Scope};
use std::sync::atomic::AtomicBool;

#[test]
fn scratch() {
    let cancel = AtomicBool::new(false);
    for cap in [Capture::Kalah, Capture::Empty] {
        let rules = Rules { scope: Scope::Own, relay: false, capture: cap };
        for m in 1..=6 {
            for n in 1..=4 {
                let s = GameState::start(m, n, rules).unwrap();
                let opts = SolveOptions { endgame_stones: std::env::var("EG").map(|v| v.parse().unwrap()).unwrap_or(0), etc: std::env::var("ETC").is_ok(), ..SolveOptions::default() };
                let r = solve::solve(&s, &opts, &cancel).unwrap();
                println!("{cap:?} ({m},{n}) = {} nodes {} {:?} best {:?}", r.value, r.nodes, r.elapsed, r.best_turn);
                if r.elapsed.as_secs() > 3 { break; }
            }
        }
    }
}
