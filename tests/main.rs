//! The integration tests, one module a subject, built as one test binary.
//!
//! One binary instead of one a file: `cargo test --release` links the
//! library and its dependencies once for all of them instead of fourteen
//! times (release builds without LTO, so each link is the linker's work
//! alone, but fourteen of them were most of CI's build time on two cores).
//! The two tests with a `main` of their own (`kernels`, `web_browser`)
//! stay binaries, and so does `house`, which reads the sources and uses
//! nothing of the library.
//! Run one subject with `cargo test --release --test suite -- game::`.

mod common;

mod atlas;
mod book;
mod cache;
mod cli;
#[cfg(feature = "cluster")]
mod cluster;
mod companion;
mod find;
mod fuzz_corpus;
mod game;
mod game_cli;
mod interrupt;
mod known_answers;
mod layers;
mod new_user;
mod places;
mod properties;
mod puzzles;
mod readme;
mod review;
mod schemas;
mod spill;
mod web_api;
