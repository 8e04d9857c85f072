//! Fuzz target: see `contracts::match_out` for the reader and its contract.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| contracts::match_out(data));
