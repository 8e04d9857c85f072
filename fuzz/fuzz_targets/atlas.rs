//! Fuzz target: see `contracts::atlas` for the reader and its contract.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| contracts::atlas(data));
