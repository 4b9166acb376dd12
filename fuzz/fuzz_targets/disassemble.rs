//! Whole-file decoding and the fxc listing on arbitrary bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = dxbc::Shader::decode(data) {
        for e in &s.errors {
            assert!(e.offset() <= data.len());
        }
        let text = dxbc::listing::disassemble(&s);
        assert!(text.len() < 64 * data.len() + 65536);
    }
});
