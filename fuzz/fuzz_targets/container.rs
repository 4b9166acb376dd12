//! Container header and chunk table parsing on arbitrary bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = dxbc::Container::parse(data) {
        for ch in &c.chunks {
            assert!(ch.data_range().end <= data.len());
        }
        let _ = c.checksum_ok(data);
    }
});
