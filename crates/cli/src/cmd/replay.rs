//! `replay`: a list of picks, played and shown.

use super::Outcome;
use crate::args::ReplayArgs;
use crate::errors::CliError;
use mancala_sweep::format::{text, ReplayJson};
use mancala_sweep::rules::turn;

/// Run `replay`.
pub fn run(args: &ReplayArgs) -> Outcome {
    let (rules, board) = args.rules.options().resolve()?;
    // Picks are read here, once the board is known, so that the message can
    // say which pits this board has; whether each pit may be picked is the
    // replay's to say, with the pick's place.
    let n = board.pits_per_side();
    let picks = args
        .picks
        .iter()
        .map(|text| {
            text.parse::<u32>().map_err(|_| {
                CliError::Input(format!(
                    "{text:?} is not a pit number: pits are numbered 1 to {} on this 2x{n} board",
                    2 * n
                ))
            })
        })
        .collect::<Result<Vec<u32>, CliError>>()?;
    let states = turn::replay(board, rules, &picks)?;
    if args.json.json {
        let doc = ReplayJson::new(rules, &states);
        return Ok(serde_json::to_string(&doc).expect("serializable") + "\n");
    }
    Ok(text::replay_text_in(rules, &states, args.color.on()))
}
