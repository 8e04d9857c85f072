//! Fuzz target: see `contracts::endgame_db` for the reader and its contract.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| contracts::endgame_db(data));
