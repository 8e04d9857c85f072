//! `atlas`: the best first turn over a grid of variants, saved as it goes.

use super::Outcome;
use crate::args::AtlasArgs;
use crate::progress::Counter;
use crate::signal::INTERRUPTED;
use mancala_sweep::atlas::{self, CellBudget, Grid};
use mancala_sweep::sweep::default_max_memory;
use mancala_sweep::Preset;

/// Run `atlas`.
pub fn run(args: &AtlasArgs) -> Outcome {
    let presets: Vec<Preset> = if args.rules.is_empty() {
        Preset::ALL.to_vec()
    } else {
        args.rules.iter().map(|&p| p.into()).collect()
    };
    let grid = Grid {
        pits: args.pits.0.iter().map(|&p| p as usize).collect(),
        stones: args.stones.0.clone(),
        rule_sets: if args.all_rules {
            atlas::all_rule_sets()
        } else {
            presets.iter().map(|p| p.rules()).collect()
        },
    };
    let budget = CellBudget {
        seconds: args.budget_seconds,
        max_memory: args.max_memory.unwrap_or_else(default_max_memory),
        threads: args.threads.count(),
    };
    let total = grid.cells().len() as u64;
    let worst = total as f64 * budget.seconds * 2.0;
    if worst > 300.0 && !args.quiet.quiet {
        eprintln!(
            "note: {total} cells with a budget of {} s each (and as much again for find where solve runs out): up to {:.0} minutes; every finished cell is saved, Ctrl-C stops, and the same command resumes",
            budget.seconds,
            worst / 60.0
        );
    }
    let bar = Counter::new(
        total,
        "cells",
        "atlas [{bar:30}] {pos}/{len} cells {msg} {elapsed}",
        args.quiet.quiet,
    );
    let on_cell = |done: usize, _: usize, c: &atlas::Cell| {
        bar.set(
            done as u64,
            format!(
                "| last: {} 2x{}x{} {}",
                atlas::slug(c.rules),
                c.pits,
                c.stones,
                atlas::cell_text(Some(c))
            ),
        );
    };
    let command = std::iter::once("mancala-sweep".to_string())
        .chain(std::env::args().skip(1).map(|a| {
            if a.contains(' ') || a.is_empty() {
                format!("{a:?}")
            } else {
                a
            }
        }))
        .collect::<Vec<_>>()
        .join(" ");
    let result = atlas::run(&grid, &args.out, budget, &command, &INTERRUPTED, &on_cell);
    bar.finish();
    let (cells, skipped) = result?;
    Ok(format!(
        "{}; written to {}\n",
        atlas::summary(&cells, grid.cells().len(), skipped),
        args.out.display()
    ))
}
