//! Fuzz target: see `contracts::puzzles` for the reader and its contract.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| contracts::puzzles(data));
