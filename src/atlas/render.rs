//! The atlas in words and pictures: a cell's text, the Markdown tables and
//! the SVG heat maps (plotters), one per rule set.

use super::{slug, Cell, Grid};
use crate::rules::Rules;
use std::fmt::Write as _;

/// A cell's text in the tables: `best/total`, `*` for a sweep, `>=` in front
/// of a lower bound, `.` for a cell not worked out yet.
pub fn cell_text(cell: Option<&Cell>) -> String {
    match cell {
        None => ".".into(),
        Some(c) => format!(
            "{}{}/{}{}",
            if c.exact { "" } else { "≥" },
            c.best_store,
            c.total_stones,
            if c.sweep { " ✔" } else { "" }
        ),
    }
}

/// `atlas.md`: one table per rule set, pits down, stones across.
pub fn markdown(grid: &Grid, cells: &[Cell]) -> String {
    let mut out = String::from("# Variant atlas\n\nThe best first turn from the start of a game: the most stones the player to move can have in their store when the turn ends, of all the stones on the board. ✔ marks a sweep (every stone). ≥ marks a lower bound found by `find` where the exhaustive search did not fit the budget; every other cell is proved by `solve`. A ≥ cell that is also a sweep (≥ and ✔) is the most possible score, but its counts were not worked out. Written by `mancala-sweep atlas`.\n");
    for &r in &grid.rule_sets {
        let _ = writeln!(out, "\n## {} ({})\n", slug(r), r);
        let _ = writeln!(out, "![{0} heat map]({0}.svg)\n", slug(r));
        let mut header = String::from("| pits \\ stones |");
        let mut rule = String::from("|---|");
        for s in &grid.stones {
            let _ = write!(header, " {s} |");
            rule.push_str("---|");
        }
        let _ = writeln!(out, "{header}\n{rule}");
        for &p in &grid.pits {
            let _ = write!(out, "| {p} |");
            for &s in &grid.stones {
                let c = cells.iter().find(|c| c.key() == (r, p, s));
                let _ = write!(out, " {} |", cell_text(c));
            }
            out.push('\n');
        }
    }
    out
}

/// An SVG heat map of best/total for one rule set, drawn with plotters.
pub fn heat_map(grid: &Grid, cells: &[Cell], rules: Rules) -> String {
    use plotters::prelude::*;
    let mut svg = String::new();
    let (xs, ys) = (grid.stones.len().max(1), grid.pits.len().max(1));
    {
        let width = (120 + 70 * xs as u32).max(420);
        let height = 120 + 44 * ys as u32;
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let caption = match crate::rules::Preset::ALL
            .iter()
            .find(|p| p.rules() == rules)
        {
            Some(p) => format!("{p}: {}, best / total", slug(rules)),
            None => format!("{}: best / total", slug(rules)),
        };
        let chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5f64..xs as f64 - 0.5, -0.5f64..ys as f64 - 0.5);
        let Ok(mut chart) = chart else {
            return svg_fallback(&rules);
        };
        let stones = grid.stones.clone();
        let pits = grid.pits.clone();
        let _ = chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(xs)
            .y_labels(ys)
            .x_label_formatter(&|x| {
                stones
                    .get(x.round() as usize)
                    .map_or(String::new(), |s| s.to_string())
            })
            .y_label_formatter(&|y| {
                pits.get(y.round() as usize)
                    .map_or(String::new(), |p| p.to_string())
            })
            .x_desc("stones per pit")
            .y_desc("pits per side")
            .draw();
        for (xi, &s) in grid.stones.iter().enumerate() {
            for (yi, &p) in grid.pits.iter().enumerate() {
                let cell = cells.iter().find(|c| c.key() == (rules, p, s));
                let (x, y) = (xi as f64, yi as f64);
                let color = match cell {
                    None => RGBColor(230, 230, 230),
                    Some(c) => {
                        let share = if c.total_stones == 0 {
                            1.0
                        } else {
                            c.best_store as f64 / c.total_stones as f64
                        };
                        // Red (little) through yellow to green (a sweep).
                        let hsl = HSLColor(share / 3.0, 0.65, if c.exact { 0.55 } else { 0.75 });
                        let (r, g, b) = hsl.rgb();
                        RGBColor(r, g, b)
                    }
                };
                let _ = chart.draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.48, y - 0.45), (x + 0.48, y + 0.45)],
                    color.filled(),
                )));
                let _ = chart.draw_series(std::iter::once(Text::new(
                    cell_text(cell),
                    (x - 0.4, y + 0.1),
                    ("sans-serif", 12),
                )));
            }
        }
        let _ = root.present();
    }
    svg
}

fn svg_fallback(rules: &Rules) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"20\">{}</text></svg>\n",
        slug(*rules)
    )
}
