//! An analysis in a player's words, written once for the terminal, the
//! JSON documents (`answer`, `says`) and the pages.
//!
//! A turn is called best only when it is proved best: its value is exact
//! and no other turn's proven upper bound passes it
//! ([`Analysis::exact`]). Otherwise the answer is the best found so far,
//! said as such, with what is known of it: a turn proved to lose is never
//! shown as best above turns not yet proved without saying that they
//! might be better.

use game::{Analysis, TurnValue};
use rules::Pit;

/// What an answer claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The first turn is proved best: its value is exact and no other turn
    /// can do better.
    ProvedBest,
    /// The first turn is the best found so far; another might be better.
    BestSoFar,
}

impl Answer {
    /// The answer of `a`.
    pub fn of(a: &Analysis) -> Answer {
        if a.exact() {
            Answer::ProvedBest
        } else {
            Answer::BestSoFar
        }
    }

    /// Its JSON name: `proved-best` or `best-so-far`.
    pub fn name(self) -> &'static str {
        match self {
            Answer::ProvedBest => "proved-best",
            Answer::BestSoFar => "best-so-far",
        }
    }
}

/// A proved value for the player to move: "you win by 4", "a draw",
/// "you lose by 2".
pub fn you_value(v: i32) -> String {
    match v.signum() {
        1 => format!("you win by {v}"),
        -1 => format!("you lose by {}", -v),
        _ => "a draw".into(),
    }
}

/// An estimate for the player to move: "about +3 for you", "about even",
/// "about +2 for the opponent".
pub fn about(v: i32) -> String {
    match v.signum() {
        1 => format!("about +{v} for you"),
        -1 => format!("about +{} for the opponent", -v),
        _ => "about even".into(),
    }
}

/// What is known of one turn: its proved value, or its estimate marked
/// as not proved.
pub fn turn_words(t: &TurnValue) -> String {
    if t.exact {
        you_value(t.value)
    } else {
        format!("{}, not proved", about(t.value))
    }
}

/// The numbers behind [`turn_words`], for a details view: the proven
/// bounds and how far the estimate looked ("between -34 and +30; looked
/// 7 turns ahead"); empty for a proved turn.
pub fn turn_details(t: &TurnValue) -> String {
    if t.exact {
        return String::new();
    }
    format!(
        "between {} and {}; looked {} turn{} ahead",
        signed(t.low),
        signed(t.high),
        t.depth,
        if t.depth == 1 { "" } else { "s" }
    )
}

/// A signed value: `+6`, `0`, `-2`.
fn signed(v: i32) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

/// The picks of a turn as a player taps them: "Tap 3, then 6, 2".
pub fn taps(picks: &[Pit]) -> String {
    let mut out = String::from("Tap ");
    for (i, p) in picks.iter().enumerate() {
        match i {
            0 => {}
            1 => out.push_str(", then "),
            _ => out.push_str(", "),
        }
        out.push_str(&p.number().to_string());
    }
    out
}

/// The answer in one or two sentences: the turn to tap and what is known
/// of it, saying whether it is proved best.
pub fn headline(a: &Analysis) -> String {
    Headline::of(a).said()
}

/// The answer's sentence in its parts, for a page that draws the turn and
/// its value itself (the pits lit, the value coloured) and keeps the
/// words around them: `template` holds `{tap}` and `{value}` where
/// [`Headline::tap`] and [`Headline::value`] go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Headline {
    /// The sentence with `{tap}` and `{value}` in place of the two.
    pub template: &'static str,
    /// The turn to tap: "Tap 3, then 6".
    pub tap: String,
    /// What is known of its value: "you win by 8", "about +3 for you".
    pub value: String,
}

impl Headline {
    /// The headline of `a`.
    pub fn of(a: &Analysis) -> Headline {
        let best = &a.turns[0];
        let template = match Answer::of(a) {
            Answer::ProvedBest if a.turns.len() == 1 => "{tap}: the only turn, {value} with best play.",
            Answer::ProvedBest => "{tap}: best, {value} with best play.",
            Answer::BestSoFar if best.exact => "{tap}, the best found so far: {value} with best play. Other turns are not proved yet and might be better; think longer to be sure.",
            Answer::BestSoFar => "{tap}, probably: {value}. Not proved yet; think longer to be sure.",
        };
        Headline {
            template,
            tap: taps(&best.picks),
            value: if best.exact {
                you_value(best.value)
            } else {
                about(best.value)
            },
        }
    }

    /// The sentence whole.
    pub fn said(&self) -> String {
        self.template
            .replace("{tap}", &self.tap)
            .replace("{value}", &self.value)
    }
}

/// How the answer was reached, in a line: "Every turn proved in 0.17 s.",
/// "3 of 10 turns proved in 1.0 s.", or the opening book.
pub fn how(a: &Analysis) -> String {
    if a.book {
        return "From the opening book: every turn was proved before play began.".into();
    }
    let (proved, all) = (a.proved(), a.turns.len());
    let stopped = if a.cancelled { " (stopped)" } else { "" };
    if proved == all {
        format!(
            "Every turn proved in {:.2} s{stopped}.",
            a.elapsed.as_secs_f64()
        )
    } else {
        format!(
            "{proved} of {all} turns proved in {:.1} s{stopped}.",
            a.elapsed.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{analyze, Budget, GameState, SolveOptions};
    use rules::Rules;
    use std::sync::atomic::AtomicBool;

    fn analysis(board: &str, budget: Budget) -> Analysis {
        let state =
            GameState::new(board.parse().unwrap(), game::Side::First, Rules::KALAH).unwrap();
        let opts = SolveOptions {
            threads: 1,
            ..SolveOptions::default()
        }
        .fit_to(state.rules(), 4, state.stones_in_pits());
        analyze(&state, &opts, None, budget, &AtomicBool::new(false), None).unwrap()
    }

    #[test]
    fn a_proved_answer_says_best_and_an_unproved_one_says_so_far() {
        let done = analysis("2 2 2 2 / 0 0 / 2 2 2 2", Budget::Nodes(10_000_000));
        assert_eq!(Answer::of(&done), Answer::ProvedBest);
        assert!(headline(&done).contains(": best, "), "{}", headline(&done));
        assert!(how(&done).starts_with("Every turn proved"));
        let early = analysis("3 3 3 3 / 0 0 / 3 3 3 3", Budget::Nodes(200));
        assert_eq!(Answer::of(&early), Answer::BestSoFar);
        let h = headline(&early);
        assert!(!h.contains("best,") && h.contains("think longer"), "{h}");
    }

    #[test]
    fn a_turn_proved_to_lose_is_not_called_best_above_open_turns() {
        let mut a = analysis("3 3 3 3 / 0 0 / 3 3 3 3", Budget::Nodes(200));
        let open = a.turns[1].clone();
        a.turns[0].exact = true;
        a.turns[0].value = -2;
        (a.turns[0].low, a.turns[0].high) = (-2, -2);
        a.turns[1] = TurnValue {
            value: -4,
            exact: false,
            low: -20,
            high: 30,
            ..open
        };
        let h = headline(&a);
        assert_eq!(Answer::of(&a), Answer::BestSoFar);
        assert!(h.contains("the best found so far: you lose by 2"), "{h}");
        assert!(h.contains("might be better"), "{h}");
    }

    #[test]
    fn values_in_a_players_words() {
        assert_eq!(you_value(4), "you win by 4");
        assert_eq!(you_value(0), "a draw");
        assert_eq!(you_value(-2), "you lose by 2");
        assert_eq!(about(3), "about +3 for you");
        assert_eq!(about(0), "about even");
        assert_eq!(about(-2), "about +2 for the opponent");
    }
}
