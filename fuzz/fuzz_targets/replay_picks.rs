//! Fuzz target: see `contracts::replay_picks` for the reader and its contract.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| contracts::replay_picks(data));
