//! `find`: a heuristic best turn on boards too big to exhaust.

use super::{kernel_choice, Outcome};
use crate::args::FindArgs;
use crate::progress::Bar;
use crate::signal::INTERRUPTED;
use mancala_sweep::format::{text, FindJson};
use mancala_sweep::sweep::{self, FindOptions, FindProgress};

/// Run `find`.
pub fn run(args: &FindArgs) -> Outcome {
    let (rules, board) = args.rules.options().resolve()?;
    let threads = args.threads.count();
    let bar = Bar::new(!args.quiet.quiet);
    let report = |p: &FindProgress| bar.find(p);
    let opts = FindOptions {
        beam: args
            .beam
            .map_or(FindOptions::default().beam, |w| w as usize),
        widen: args.beam.is_none(),
        seconds: args.seconds,
        seed: args.seed,
        threads,
        progress: Some(&report),
        cancel: Some(&INTERRUPTED),
        kernel: kernel_choice()?,
        ..Default::default()
    };
    let found = sweep::find(&board, rules, &opts);
    bar.finish();
    let found = found?;
    Ok(if args.json.json {
        let doc = FindJson::new(&found, args.seed, threads);
        serde_json::to_string(&doc).expect("serializable") + "\n"
    } else {
        text::find_text(&found, threads)
    })
}
