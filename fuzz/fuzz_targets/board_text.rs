//! Fuzz target: see `contracts::board_text` for the reader and its contract.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| contracts::board_text(data));
