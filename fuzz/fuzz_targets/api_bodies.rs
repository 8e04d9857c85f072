//! Fuzz target: see `contracts::api_bodies` for the reader and its contract.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| contracts::api_bodies(data));
