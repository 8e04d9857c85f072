use mancala_sweep::game::*;
use mancala_sweep::rules::{Capture, Rules, Scope};
use std::sync::atomic::AtomicBool;

#[test]
#[ignore]
fn scratch() {
    let cancel = AtomicBool::new(false);
    let m: usize = std::env::var("M").unwrap().parse().unwrap();
    let n: u32 = std::env::var("N").unwrap().parse().unwrap();
    let env = |k: &str, d: u32| std::env::var(k).map(|v| v.parse().unwrap()).unwrap_or(d);
    for cap in [Capture::Kalah, Capture::Empty] {
        let rules = Rules {
            scope: Scope::Own,
            relay: false,
            capture: cap,
        };
        let s = GameState::start(m, n, rules).unwrap();
        let opts = SolveOptions {
            endgame_stones: env("EG", 0),
            etc: std::env::var("ETC").is_ok(),
            deepening: env("ID", 0),
            table_bytes: (env("MB", 256) as u64) << 20,
            ..SolveOptions::default()
        };
        let r = solve::solve(&s, &opts, &cancel).unwrap();
        println!(
            "{cap:?} ({m},{n}) = {} nodes {} {:?} best {:?}",
            r.value, r.nodes, r.elapsed, r.best_turn
        );
    }
}
