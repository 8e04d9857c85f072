//! The pages of `serve` (the `web/` folder: HTML, CSS and ES modules),
//! embedded in the binary. They live in this crate, on top of every layer,
//! so that a page edited rebuilds the binary alone: the server crate
//! answers with whatever pages it is lent (`server::Config::pages`).

use rust_embed::RustEmbed;
use std::borrow::Cow;

#[derive(RustEmbed)]
#[folder = "web/"]
struct Pages;

/// A file of the pages by its path (`index.html`, `analyze.js`).
pub fn page(path: &str) -> Option<Cow<'static, [u8]>> {
    Pages::get(path).map(|file| file.data)
}
