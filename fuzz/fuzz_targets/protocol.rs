//! Any bytes through the protocol reader, both event by event and all at once: it must
//! return a result, never panic, and the two ways must agree.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = ysai::protocol::check_reader(data) {
        panic!("{problem}");
    }
});
