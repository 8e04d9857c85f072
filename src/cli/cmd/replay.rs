//! `replay`: a list of picks, played and shown.

use super::Outcome;
use crate::cli::args::ReplayArgs;
use mancala_sweep::format::{text, ReplayJson};
use mancala_sweep::rules::turn;

/// Run `replay`.
pub fn run(args: &ReplayArgs) -> Outcome {
    let (rules, board) = args.rules.options().resolve()?;
    let states = turn::replay(board, rules, &args.picks)?;
    if args.json.json {
        let doc = ReplayJson::new(rules, &states);
        return Ok(serde_json::to_string(&doc).expect("serializable") + "\n");
    }
    Ok(text::replay_text(rules, &states))
}
