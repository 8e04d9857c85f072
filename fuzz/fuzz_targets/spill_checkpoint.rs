//! Fuzz target: see `contracts::spill_checkpoint` for the reader and its contract.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| contracts::spill_checkpoint(data));
