//! The atlas in words and pictures: a cell's text, the Markdown tables and
//! the SVG heat maps (plotters), one per rule set.

use super::{slug, AtlasRun, Cell, Grid};
use rules::Rules;
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

/// Which runs made the cells: command, budget and machine, and how many
/// cells each made.
fn made_by(runs: &[AtlasRun], cells: &[Cell]) -> String {
    let mut out = String::from("\n**How it was made.**");
    let unknown = cells.iter().filter(|c| c.run.is_none()).count();
    if runs.is_empty() {
        out.push_str(
            " No run is recorded (the cells were made before `atlas` recorded its runs).\n",
        );
        return out;
    }
    for (i, r) in runs.iter().enumerate() {
        let made = cells.iter().filter(|c| c.run == Some(i)).count();
        let _ = write!(
            out,
            " `{}` (version {}) made {made} cell{} on {}, with {} s a cell for the exhaustive try and again for `find`, a memory guard of {} and {} thread{}.",
            r.command,
            r.version,
            if made == 1 { "" } else { "s" },
            r.machine,
            r.seconds,
            sweep::format_bytes(r.max_memory),
            r.threads,
            if r.threads == 1 { "" } else { "s" }
        );
    }
    if unknown > 0 {
        let _ = write!(
            out,
            " {unknown} cells come from runs that were not recorded."
        );
    }
    out.push('\n');
    out
}

/// `atlas.md`: one table per rule set, pits down, stones across.
pub fn markdown(grid: &Grid, runs: &[AtlasRun], cells: &[Cell]) -> String {
    let mut out = String::from("# Variant atlas\n\nThe best first turn from the start of a game: the most stones the player to move can have in their store when the turn ends, of all the stones on the board. ✔ marks a sweep (every stone). ≥ marks a lower bound found by `find` where the exhaustive search did not fit the budget; every other cell is proved by `solve`. A ≥ cell that is also a sweep (≥ and ✔) is the most possible score, but its counts were not worked out. ◆ marks the board GamePigeon plays (6 pits a side, 4 stones a pit). In the heat maps the colour runs from dark violet (a small share of the stones) to yellow (all of them), a scale that reads the same to colour-blind eyes; rows are in the order of the tables. Written by `mancala-sweep atlas`.\n");
    out.push_str(&made_by(runs, cells));
    let striking = striking_cells(grid, cells);
    if !striking.is_empty() {
        let _ = writeln!(out, "\n**Striking cells.** Where one more stone a pit, or one more pit, makes the best turn collapse: {}.", striking.join("; "));
    }
    for &r in &grid.rule_sets {
        let _ = writeln!(
            out,
            "\n## {}\n\n{} (`{}`: scope={} relay={} capture={}).\n",
            title(r),
            plain(r),
            slug(r),
            r.scope,
            if r.relay { "on" } else { "off" },
            r.capture
        );
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
                let mark = if gamepigeon(r, p, s) { " ◆" } else { "" };
                let _ = write!(out, " {}{mark} |", cell_text(c));
            }
            out.push('\n');
        }
    }
    out
}

/// The heading of a rule set: its preset's name, or its switches.
fn title(r: Rules) -> String {
    match rules::Preset::ALL.iter().find(|p| p.rules() == r) {
        Some(rules::Preset::Avalanche) => "Avalanche (GamePigeon's avalanche mode)".into(),
        Some(rules::Preset::AnyHole) => "Any hole (\"win all 48 on the first move\")".into(),
        Some(rules::Preset::Kalah) => "Kalah (GamePigeon's capture mode)".into(),
        None => format!(
            "Scope {}, relay {}, capture {}",
            r.scope,
            if r.relay { "on" } else { "off" },
            r.capture
        ),
    }
}

/// A rule set as a player names it: the game it is, or what its rules do
/// (the words of the web app's Atlas page).
#[cfg(feature = "svg")]
fn players_name(r: Rules) -> String {
    match rules::Preset::ALL.iter().find(|p| p.rules() == r) {
        Some(rules::Preset::Avalanche) => "GamePigeon avalanche".into(),
        Some(rules::Preset::AnyHole) => "Any hole (pick any pit)".into(),
        Some(rules::Preset::Kalah) => "GamePigeon capture (Kalah)".into(),
        None => format!(
            "{}, {}, {}",
            match r.scope {
                rules::Scope::Own => "Your pits",
                rules::Scope::Any => "Any pit",
            },
            if r.relay { "avalanche" } else { "no avalanche" },
            r.capture.label()
        ),
    }
}

/// A rule set in plain words.
fn plain(r: Rules) -> String {
    let scope = match r.scope {
        rules::Scope::Own => "You pick your own pits",
        rules::Scope::Any => "You pick any pit, yours or the opponent's",
    };
    let relay = if r.relay {
        "a last stone in a pit that has stones picks them all up and sows on"
    } else {
        "a last stone in a pit that has stones ends the turn"
    };
    format!("{scope}; {relay}; {}", r.capture.sentence())
}

/// True for GamePigeon's board under its two modes' rules.
fn gamepigeon(r: Rules, pits: usize, stones: u32) -> bool {
    pits == 6 && stones == 4 && (r == Rules::AVALANCHE || r == Rules::KALAH)
}

/// Cells whose best share of the stones is under a quarter while a
/// neighbour with one stone a pit less, or one pit less, reaches three
/// quarters: where the best turn collapses.
fn striking_cells(grid: &Grid, cells: &[Cell]) -> Vec<String> {
    let share = |c: &Cell| {
        if c.total_stones == 0 {
            1.0
        } else {
            f64::from(c.best_store) / f64::from(c.total_stones)
        }
    };
    let mut out = Vec::new();
    for c in cells {
        if share(c) >= 0.25 || !grid.rule_sets.contains(&c.rules) {
            continue;
        }
        let neighbour = cells.iter().find(|d| {
            d.rules == c.rules
                && share(d) >= 0.75
                && ((d.pits == c.pits && d.stones + 1 == c.stones)
                    || (d.stones == c.stones && d.pits + 1 == c.pits))
        });
        if let Some(d) = neighbour {
            out.push(format!(
                "{} 2×{}×{}: {} of {}, where 2×{}×{} gives {} of {}",
                slug(c.rules),
                c.pits,
                c.stones,
                c.best_store,
                c.total_stones,
                d.pits,
                d.stones,
                d.best_store,
                d.total_stones
            ));
        }
    }
    out
}

/// An SVG heat map of best/total for one rule set, drawn with plotters.
#[cfg(feature = "svg")]
pub fn heat_map(grid: &Grid, cells: &[Cell], rules: Rules) -> String {
    use plotters::prelude::*;
    let mut svg = String::new();
    let (xs, ys) = (grid.stones.len().max(1), grid.pits.len().max(1));
    {
        let width = (120 + 70 * xs as u32).max(420) + 90;
        let height = 120 + 44 * ys as u32;
        let whole = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let _ = whole.fill(&WHITE);
        let (root, legend) = whole.split_horizontally(width - 90);
        draw_legend(&legend, height);
        // In a player's words, as the web app's Atlas page names the rule
        // sets: never the file name (`own-relay-none`).
        let caption = format!("{}: the best store, of all the stones", players_name(rules));
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
                // Row 0 at the top, as in the tables.
                let row = ys as f64 - 1.0 - y.round();
                pits.get(row as usize)
                    .map_or(String::new(), |p| p.to_string())
            })
            .x_desc("stones per pit")
            .y_desc("pits per side")
            .draw();
        for (xi, &s) in grid.stones.iter().enumerate() {
            for (yi, &p) in grid.pits.iter().enumerate() {
                let cell = cells.iter().find(|c| c.key() == (rules, p, s));
                let (x, y) = (xi as f64, (ys - 1 - yi) as f64);
                let (color, text_colour) = match cell {
                    None => (RGBColor(230, 230, 230), BLACK),
                    Some(c) => {
                        let share = if c.total_stones == 0 {
                            1.0
                        } else {
                            c.best_store as f64 / c.total_stones as f64
                        };
                        // Viridis: dark violet (little) to yellow (a sweep),
                        // readable for colour-blind eyes and in grey.
                        let colour = ViridisRGB.get_color(share as f32);
                        (colour, if share < 0.6 { WHITE } else { BLACK })
                    }
                };
                let _ = chart.draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.48, y - 0.45), (x + 0.48, y + 0.45)],
                    color.filled(),
                )));
                if gamepigeon(rules, p, s) {
                    let _ = chart.draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.48, y - 0.45), (x + 0.48, y + 0.45)],
                        RGBColor(220, 30, 30).stroke_width(3),
                    )));
                }
                let mark = if gamepigeon(rules, p, s) { " ◆" } else { "" };
                let _ = chart.draw_series(std::iter::once(Text::new(
                    format!("{}{mark}", cell_text(cell)),
                    (x - 0.4, y + 0.1),
                    ("sans-serif", 12).into_font().color(&text_colour),
                )));
            }
        }
        let _ = root.present();
    }
    svg
}

/// The colour scale beside a heat map: best / total from 0% to 100%.
#[cfg(feature = "svg")]
fn draw_legend(
    area: &plotters::drawing::DrawingArea<plotters::prelude::SVGBackend, plotters::coord::Shift>,
    height: u32,
) {
    use plotters::prelude::*;
    let top = 40i32;
    let bottom = height as i32 - 50;
    let steps = 20;
    let span = (bottom - top) as f64 / steps as f64;
    for i in 0..steps {
        let share = 1.0 - (i as f64 + 0.5) / steps as f64;
        let y0 = top + (i as f64 * span) as i32;
        let y1 = top + ((i + 1) as f64 * span) as i32;
        let _ = area.draw(&Rectangle::new(
            [(10, y0), (30, y1)],
            ViridisRGB.get_color(share as f32).filled(),
        ));
    }
    let style = ("sans-serif", 12).into_font();
    let _ = area.draw(&Text::new("best / total", (5, top - 18), style.clone()));
    for (label, share) in [("100%", 1.0), ("50%", 0.5), ("0%", 0.0)] {
        let y = top + ((1.0 - share) * (bottom - top) as f64) as i32 - 6;
        let _ = area.draw(&Text::new(label, (36, y), style.clone()));
    }
}

#[cfg(feature = "svg")]
fn svg_fallback(rules: &Rules) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"20\">{}</text></svg>\n",
        slug(*rules)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Line;

    fn cell(rules: Rules, pits: usize, stones: u32, best: u32) -> Cell {
        Cell {
            rules,
            pits,
            stones,
            best_store: best,
            total_stones: 2 * pits as u32 * stones,
            sweep: best == 2 * pits as u32 * stones,
            exact: true,
            method: "solve".into(),
            optimal_count: Some("1".into()),
            turns_total: Some("1".into()),
            positions: Some(1),
            line: Line::default(),
            seconds: 0.0,
            run: Some(0),
        }
    }

    #[test]
    fn the_tables_mark_gamepigeon_and_name_the_collapses() {
        let grid = Grid {
            pits: vec![6, 7],
            stones: vec![4],
            rule_sets: vec![Rules::AVALANCHE],
        };
        let cells = [
            cell(Rules::AVALANCHE, 6, 4, 43),
            cell(Rules::AVALANCHE, 7, 4, 2),
        ];
        let runs = [AtlasRun {
            command: "mancala-sweep atlas --pits 6-7 --stones 4".into(),
            version: "0.1.0".into(),
            machine: "a test machine, 2 threads".into(),
            seconds: 20.0,
            max_memory: 1 << 30,
            threads: 2,
        }];
        let md = markdown(&grid, &runs, &cells);
        assert!(
            md.contains("`mancala-sweep atlas --pits 6-7 --stones 4` (version 0.1.0) made 2 cells on a test machine, 2 threads, with 20 s a cell"),
            "{md}"
        );
        assert!(md.contains("| 6 | 43/48 ◆ |"), "{md}");
        assert!(md.contains("| 7 | 2/56 |"), "{md}");
        assert!(
            md.contains("own-relay-none 2×7×4: 2 of 56, where 2×6×4 gives 43 of 48"),
            "{md}"
        );
        assert!(
            md.contains("## Avalanche (GamePigeon's avalanche mode)"),
            "{md}"
        );
        #[cfg(feature = "svg")]
        {
            let svg = heat_map(&grid, &cells, Rules::AVALANCHE);
            assert!(
                svg.contains("best / total") && svg.contains("100%"),
                "a legend"
            );
            // Its heading in a player's words, not the file's name.
            assert!(
                svg.contains("GamePigeon avalanche: the best store"),
                "{svg}"
            );
            assert!(!svg.contains("own-relay-none"), "{svg}");
        }
    }
}
