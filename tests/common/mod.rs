//! What the test modules share: the rule-set strategy of the property
//! tests, and the solve JSON that the counting-only searches are compared by.

pub mod solve_json;

use mancala_sweep::{Capture, Rules, Scope};
use proptest::prelude::*;

/// Any of the twelve rule sets.
pub fn rules() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![Just(Scope::Own), Just(Scope::Any)],
        any::<bool>(),
        prop_oneof![
            Just(Capture::None),
            Just(Capture::Kalah),
            Just(Capture::Empty)
        ],
    )
        .prop_map(|(scope, relay, capture)| Rules {
            scope,
            relay,
            capture,
        })
}
