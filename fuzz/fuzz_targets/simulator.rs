//! Bytes decoded into a game of legal moves, played on the oracle and on the bitboard
//! simulator with both neighbourhoods: any disagreement is a crash.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ysai::selfcheck::{check_script, script_from_bytes};

fuzz_target!(|data: &[u8]| {
    if let Err(mismatch) = check_script(&script_from_bytes(data)) {
        panic!("{mismatch}");
    }
});
