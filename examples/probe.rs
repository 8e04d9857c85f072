use mancala_sweep::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset: Preset = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    let s: u32 = args[3].parse().unwrap();
    let limit: usize = args[4].parse().unwrap();
    let b = Board::uniform(n, s).unwrap();
    let sol = solve(&b, preset.rules(), &SolveOptions { threads: 0, listing: Listing::Limit(limit) }).unwrap();
    println!("best {} / {} optimal {} turns {} positions {} secs {:.2}", sol.best_store, sol.total_stones, sol.optimal_count, sol.turns_total, sol.positions, sol.seconds);
    for l in sol.optimal.iter().take(3) { println!("{:?}", l.iter().map(|p| p.number()).collect::<Vec<_>>()); }
}
