//! `game analyze` as a companion: answers that say what they know in a
//! player's words (proved best, or the best found so far), the numbers
//! behind them on request, and `--follow` from either side.

use crate::common::run_bin;
use serde_json::Value;

#[test]
fn an_answer_says_whether_its_turn_is_proved_best() {
    // Kalah 4x2: every turn proved within its budget.
    let args = [
        "game",
        "analyze",
        "--pits",
        "4",
        "--stones",
        "2",
        "--threads",
        "1",
    ];
    let (code, text, err) = run_bin(&args, "");
    assert_eq!(code, 0, "{err}");
    let (code, json, _) = run_bin(&[&args[..], &["--json"]].concat(), "");
    assert_eq!(code, 0);
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["answer"], "proved-best");
    assert_eq!(doc["exact"], true);
    let says = doc["says"].as_str().unwrap();
    assert!(
        says.contains(": best, ") && says.ends_with(" with best play."),
        "{says}"
    );
    // The terminal says the same words, and no numbers a player does not use.
    assert!(text.contains(&format!("{says}\n")), "{text}");
    assert!(
        !text.contains("depth") && !text.contains("picks in"),
        "{text}"
    );
    // A budget too small to prove anything: the best so far, said as such.
    let small = [
        "game",
        "analyze",
        "--pits",
        "6",
        "--stones",
        "4",
        "--no-book",
        "--nodes",
        "3000",
        "--threads",
        "1",
    ];
    let (code, text, err) = run_bin(&small, "");
    assert_eq!(code, 0, "{err}");
    let first = text.lines().find(|l| l.starts_with("Tap ")).unwrap();
    assert!(first.contains(", probably: about "), "{first}");
    assert!(
        first.contains("Not proved yet; think longer to be sure."),
        "{first}"
    );
    assert!(!first.contains("best,"), "{first}");
    let (_, json, _) = run_bin(&[&small[..], &["--json"]].concat(), "");
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["answer"], "best-so-far");
    assert_eq!(doc["says"], first);
    // --verbose: the bounds and depth of each open turn, and the search.
    let (_, text, _) = run_bin(&[&small[..], &["--verbose"]].concat(), "");
    assert!(text.contains("not proved (between "), "{text}");
    assert!(
        text.contains("Searched ") && text.contains(" picks in "),
        "{text}"
    );
}

#[test]
fn every_answer_looks_ahead_beyond_the_stores() {
    // The first estimate passes run within the whole budget: even a
    // budget of a few thousand picks looks past the turn itself.
    let (_, json, _) = run_bin(
        &[
            "game",
            "analyze",
            "--no-book",
            "--nodes",
            "3000",
            "--threads",
            "1",
            "--json",
        ],
        "",
    );
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert!(doc["depth"].as_u64().unwrap() >= 2, "{doc}");
}

#[test]
fn follow_starts_with_the_opponent_to_move_and_undoes_across_both() {
    // Kalah 3x1 with the opponent first: their pit 3 (6 as you see it)
    // sows into their store, a free turn; then their pit 1 (4); then
    // your analysis; `undo` goes back into their turn.
    let input = "6\n4\nundo\nundo\n6 4\nquit\n";
    let (code, out, err) = run_bin(
        &[
            "game",
            "analyze",
            "--follow",
            "--first",
            "them",
            "--pits",
            "3",
            "--stones",
            "1",
            "--nodes",
            "100000",
            "--threads",
            "1",
            "-q",
        ],
        input,
    );
    assert_eq!(code, 0, "{err}");
    let their = out
        .find("Their picks (4 to 6, as you see them), or `board` and the board they left: ")
        .expect("their turn first");
    let tap = out.find("\nTap ").expect("an analysis after their turn");
    assert!(their < tap, "{out}");
    assert!(
        out.contains("They played 6: a free turn, the same player picks again."),
        "{out}"
    );
    assert!(out.contains("They played 4."), "{out}");
    // Two undos take back both of their picks: their turn again.
    let after_undo = &out[out.rfind("Taken back").unwrap()..];
    assert!(after_undo.contains("Their picks (4 to 6"), "{out}");
    assert!(out.matches("They played 6 4.").count() == 1, "{out}");
    // Without --follow, --first is refused in one line.
    let (code, _, err) = run_bin(&["game", "analyze", "--first", "them"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn first_speaks_one_vocabulary_in_both_windows() {
    // `--first you|them` in `game play` and `game analyze --follow`, each
    // taking the other's word (`computer`, `opponent`) as `them`.
    let follow = |first: &str| {
        let args = [
            "game",
            "analyze",
            "--follow",
            "--first",
            first,
            "--pits",
            "3",
            "--stones",
            "1",
            "--nodes",
            "100000",
            "--threads",
            "1",
            "-q",
        ];
        run_bin(&args, "6\n4\nquit\n")
    };
    let them = follow("them");
    assert_eq!(them.0, 0, "{}", them.2);
    assert!(them.1.contains("They played 6"), "{}", them.1);
    for word in ["computer", "opponent"] {
        assert_eq!(follow(word).1, them.1, "{word}");
    }
    let play = |first: &str| {
        let args = [
            "game", "play", "--pits", "3", "--stones", "2", "--first", first,
        ];
        let (code, out, err) = run_bin(&args, "quit\n");
        // Each game is kept in a file of its own.
        let out: Vec<&str> = out
            .lines()
            .filter(|l| !l.contains(" is kept in "))
            .collect();
        (code, out.join("\n"), err)
    };
    let computer = play("computer");
    assert_eq!(computer.0, 0, "{}", computer.2);
    assert!(computer.1.contains("Computer: pit "), "{}", computer.1);
    assert_eq!(play("them").1, computer.1);
    // Both helps name the same two words.
    for cmd in [
        &["game", "play", "--help"][..],
        &["game", "analyze", "--help"],
    ] {
        let (_, help, _) = run_bin(cmd, "");
        let line = help.lines().find(|l| l.contains("--first")).unwrap();
        assert!(line.contains("<FIRST>"), "{line}");
        assert!(
            help.contains("- you:") && help.contains("- them:"),
            "{cmd:?}"
        );
    }
}

#[test]
fn their_turn_takes_the_board_they_left() {
    // An avalanche turn is too many picks to read off a phone: the prompt
    // offers the board they left, and takes it with `board` or pasted
    // alone; the analysis is then of that board, you to move, as
    // `game analyze --board` gives it.
    let left = "0 2 1 / 3 1 / 1 0 2";
    let args = |first: &[&'static str]| -> Vec<&'static str> {
        let mut a = vec![
            "game",
            "analyze",
            "--rules",
            "avalanche",
            "--nodes",
            "100000",
            "--threads",
            "1",
            "-q",
        ];
        a.extend_from_slice(first);
        a
    };
    let (code, alone, err) = run_bin(&args(&["--board", left]), "");
    assert_eq!(code, 0, "{err}");
    let says = alone.lines().find(|l| l.starts_with("Tap ")).unwrap();
    for typed in [
        format!("board {left}"),
        left.to_string(),
        format!("board\n{left}"),
    ] {
        let input = format!("{typed}\nquit\n");
        let follow = [
            "--follow", "--first", "them", "--pits", "3", "--stones", "1",
        ];
        let (code, out, err) = run_bin(&args(&follow), &input);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains(
                "Their picks (4 to 6, as you see them), or `board` and the board they left: "
            ),
            "{out}"
        );
        assert!(
            out.contains("The game goes on from the board you typed, you to move."),
            "{typed}: {out}"
        );
        assert!(out.contains(says), "{typed}: {says}\n{out}");
    }
}
