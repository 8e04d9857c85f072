//! The two keys that open every versioned JSON document: `format` and
//! `version`. They sit below every layer, as `atomic_file` does, so that the
//! documents of the lower layers (the game's endgame file) open with the same
//! header as those of [`format`], which re-exports it for everyone
//! else.

use serde::{Deserialize, Serialize};

/// Version of this crate, written into every JSON document.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The two keys that open every versioned document: `format`, its kind and
/// version (one of the `*_FORMAT` names), and `version`, the tool's
/// [`VERSION`] that wrote it. Each document holds it flattened
/// (`#[serde(flatten)]`), so the JSON keeps both keys first and at the top
/// level, and no document spells them out or fills them in by hand.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The document's kind and version, such as
    /// [`SOLVE_FORMAT`](format::SOLVE_FORMAT).
    pub format: String,
    /// The tool's version that wrote it.
    pub version: String,
}

impl Header {
    /// The header of a document of `format` written by this build.
    pub fn new(format: &str) -> Header {
        Header {
            format: format.into(),
            version: VERSION.into(),
        }
    }
}
