//! Issue 69 on the pages: a game reviewed, on one back-end, at 390 px and
//! 1280 px. Every grade and every sentence the page shows is checked
//! against `game review --json` of the same turns (the binary, a second
//! path: its own process, its own solver and cache), so a page that drew
//! a grade of its own, or lost a turn, fails here.

use super::{click, fits_at_390, settled, shot, text, wait_for_text, wait_js_for, CHECKS};
use fantoccini::{Client, Locator};
use std::process::Command;
use std::sync::atomic::Ordering;

/// A 24-turn GamePigeon capture game between `medium` (first) and `hard`
/// (`game match medium hard --games 2 --opening-turns 0`, game 0): each
/// turn's picks from its mover's side.
const MEDIUM_HARD: &str = "6, 6, 2 6 1, 2 6 5, 5, 6 3, 6 4, 6 5, 6 3, 2, 6 5 6 2, 1, 5, 5 6 3 2, 6 3, 6 5, 4, 6 4, 6 1, 1, 4, 6 5, 2, 6";

/// `game review --json` of `turns` (as `--turns` takes them) from the
/// start of kalah with `pits` pits of `stones`.
fn native_review(turns: &str, pits: u32, stones: u32) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .args(["game", "review", "--turns", turns, "--rules", "kalah"])
        .args(["--pits", &pits.to_string(), "--stones", &stones.to_string()])
        .args(["--seconds", "30", "--json", "-q"])
        // The test's own cache folder, never the user's.
        .env(
            "MANCALA_SWEEP_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/endgame-cache"),
        )
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{turns}: {out:?}");
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Each turn's grade ("" when none) and sentence, as the page shows them.
async fn shown(c: &Client) -> Vec<(String, String)> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#rv-turns .rv-turn')].map((b) => [b.dataset.grade, b.querySelector('.rv-says').textContent]);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// The same from `game review --json`.
fn native(doc: &serde_json::Value) -> Vec<(String, String)> {
    doc["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["grade"].as_str().unwrap_or("").to_string(),
                t["says"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Waits (up to `seconds`) for the review to end, Done or Stopped.
async fn reviewed(c: &Client, seconds: u64) {
    wait_js_for(
        c,
        "return /^(Done|Stopped)/.test(document.getElementById('rv-status').textContent);",
        seconds,
    )
    .await;
}

/// Every grade shown is the binary's: the same turns, each graded turn
/// with the binary's grade and words (a turn still being reviewed may be
/// not graded yet, never graded otherwise).
async fn grades_agree(c: &Client, want: &[(String, String)], what: &str) -> usize {
    let got = shown(c).await;
    check_eq!(got.len(), want.len(), "{what}: turns shown");
    let mut graded = 0;
    for (k, ((g, _), w)) in got.iter().zip(want).enumerate() {
        if g.is_empty() {
            continue;
        }
        graded += 1;
        check_eq!(g, &w.0, "{what}: turn {}'s grade", k + 1);
        check_eq!(
            w.1.as_str(),
            got[k].1.as_str(),
            "{what}: turn {}'s words",
            k + 1
        );
    }
    graded
}

/// The game of `turns` (kalah 6×4, the first player at the bottom)
/// followed on Analyze, then reviewed there: the seconds the review took
/// on the page.
async fn follow_and_review(c: &Client, url: &str, turns: &str, seconds: u64) -> f64 {
    // The second player's pits are the top row's on Analyze: 7 to 12.
    let line: Vec<String> = turns
        .split(", ")
        .enumerate()
        .flat_map(|(k, t)| {
            t.split(' ')
                .map(move |p| {
                    (p.parse::<u32>().unwrap() + if k % 2 == 1 { 6 } else { 0 }).to_string()
                })
                .collect::<Vec<_>>()
        })
        .collect();
    c.goto(&format!(
        "{url}?rules=capture&board=4,4,4,4,4,4/0,0/4,4,4,4,4,4&to=you&line={}",
        line.join(",")
    ))
    .await
    .unwrap();
    let n = turns.split(", ").count();
    wait_js_for(
        c,
        &format!("return document.querySelectorAll('#an-moves li button').length === {n};"),
        60,
    )
    .await;
    settled(c).await;
    click(c, "#an-review-game").await;
    wait_for_text(c, "#rv-game", &format!("{n} turns")).await;
    let t0 = std::time::Instant::now();
    reviewed(c, seconds).await;
    t0.elapsed().as_secs_f64()
}

/// The 30-turn game of the target (`game match medium hard --rules
/// capture --games 20 --opening-turns 2 --seed 5`, game 5) reviewed on the
/// page: how long, and how many turns graded (a measurement, run alone
/// with `MANCALA_SWEEP_BROWSER_ONLY=review-30`).
pub(super) async fn thirty_turns(c: &Client, url: &str) {
    const GAME_5: &str = "3 2, 3 2, 5, 2, 1, 4, 1, 6, 5 3 5, 1, 6, 6 3, 2 6 4, 5, 5, 3, 4, 1, 3 1, 4, 5 3, 5 3, 2, 6, 2, 4, 1, 5, 2, 6";
    c.set_window_size(390, 900).await.unwrap();
    let took = follow_and_review(c, url, GAME_5, 900).await;
    let graded = shown(c).await.iter().filter(|(g, _)| !g.is_empty()).count();
    println!(
        "web_browser: the 30-turn game reviewed on {url} in {took:.1} s, {graded} of 30 turns graded: {}",
        text(c, "#rv-status").await
    );
}

/// The game between `medium` and `hard` followed on Analyze, reviewed.
async fn followed_game(c: &Client, url: &str, width: u32) {
    let want = native_review(MEDIUM_HARD, 6, 4);
    check_eq!(want["complete"], true, "the binary grades every turn");
    let want = native(&want);
    let took = follow_and_review(c, url, MEDIUM_HARD, 400).await;
    check!(
        text(c, "#rv-status")
            .await
            .starts_with("Done: every turn graded"),
        "{}",
        text(c, "#rv-status").await
    );
    check_eq!(grades_agree(c, &want, "the followed game").await, 24);
    println!("web_browser: the 24-turn game reviewed on the page in {took:.1} s (loaded machine)");
    // The summary is the engine's: the record, then the result.
    let says = text(c, "#rv-says").await;
    check!(says.contains("you (first): 67% best"), "{says}");
    check!(says.contains("Result: a draw; settled at turn 7"), "{says}");
    if width == 390 {
        fits_at_390(c, "the Review page").await;
    }
    c.execute(
        "document.getElementById('rv-game').scrollIntoView();",
        vec![],
    )
    .await
    .unwrap();
    shot(c, &format!("review-{width}.png")).await;
    // Stop keeps what is done: every grade shown then is the binary's.
    click(c, "#rv-start").await;
    // At once, as a person would, unless the review already ended.
    c.execute("document.getElementById('rv-stop').click();", vec![])
        .await
        .unwrap();
    reviewed(c, 30).await;
    grades_agree(c, &want, "a review stopped").await;
    click(c, "#rv-start").await;
    reviewed(c, 400).await;
    check_eq!(grades_agree(c, &want, "the review again").await, 24);
    // A reload keeps the game and its review.
    c.refresh().await.unwrap();
    wait_for_text(c, "#rv-status", "kept from the last review").await;
    check_eq!(grades_agree(c, &want, "after a reload").await, 24);
    // Turn 1 (a mistake) on Analyze: its position, the review's words,
    // and the better turn lit.
    click(c, "#rv-turn-1").await;
    wait_for_text(c, "#an-review", "Review, turn 1: you played 6: mistake").await;
    let note = text(c, "#an-review").await;
    check!(note.contains(&want[0].1), "{note}");
    check!(note.ends_with("The best turn here: 3, then 6."), "{note}");
    let at = c.execute("return location.search;", vec![]).await.unwrap();
    check!(at.as_str().unwrap().contains("&at=0&review=1"), "{at}");
    // Its better turn is lit, by the review until the analysis draws its own.
    // Read in one call: the analysis redraws the board as it reports, and
    // an element found in one call can be gone by the next.
    let lit = c
        .execute(
            "const p = document.querySelector('#an-board .pit.next'); return p && p.id;",
            vec![],
        )
        .await
        .unwrap();
    check_eq!(lit.as_str(), Some("an-pit-3"));
    if width == 390 {
        fits_at_390(c, "Analyze, a reviewed turn").await;
    }
    shot(c, &format!("review-turn-{width}.png")).await;
}

/// A game played against `hard` on Play (4 pits of 3 stones, the first
/// pit that may be picked each turn), then reviewed.
async fn played_game(c: &Client, url: &str, width: u32) {
    c.goto(&format!("{url}?page=play")).await.unwrap();
    wait_js_for(
        c,
        "return /^(Your turn|Game over)/.test(document.getElementById('g-status').textContent);",
        30,
    )
    .await;
    c.find(Locator::Css("#g-level option[value='hard']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    for (id, v) in [("g-pits", "4"), ("g-stones", "3")] {
        let f = c.find(Locator::Id(id)).await.unwrap();
        f.clear().await.unwrap();
        f.send_keys(v).await.unwrap();
    }
    click(c, "#g-new").await;
    for _ in 0..60 {
        wait_js_for(
            c,
            "const s = document.getElementById('g-status').textContent; return /^(Your turn|Game over)/.test(s) && !!window.game && document.querySelectorAll('#gboard .pit:not(:disabled)').length + (game.over ? 1 : 0) > 0;",
            60,
        )
        .await;
        if text(c, "#g-status").await.starts_with("Game over") {
            break;
        }
        click(c, "#gboard .pit:not(:disabled)").await;
    }
    check!(text(c, "#g-status").await.starts_with("Game over"));
    click(c, "#g-review").await;
    reviewed(c, 120).await;
    let turns = c
        .execute(
            "return review.game.turns.map((t) => t.join(' ')).join(', ');",
            vec![],
        )
        .await
        .unwrap();
    let want = native(&native_review(turns.as_str().unwrap(), 4, 3));
    check_eq!(grades_agree(c, &want, "the game played").await, want.len());
    shot(c, &format!("review-played-{width}.png")).await;
}

/// Issue 69 on the back-end at `url`, at 390 px and 1280 px.
pub(super) async fn review_pages(c: &Client, url: &str) {
    for width in [390, 1280] {
        c.set_window_size(width, 900).await.unwrap();
        played_game(c, url, width).await;
        followed_game(c, url, width).await;
    }
}
