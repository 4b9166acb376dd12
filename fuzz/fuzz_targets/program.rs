//! The program token decoder on arbitrary dwords (as a chunk payload), plus
//! the token walk and the byte locator over what decoded.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (p, errors) = dxbc::program::Program::decode(data, 0x20);
    for e in &errors {
        assert!(e.offset() <= 0x20 + data.len());
    }
    let tokens = p.tokens();
    assert!(tokens.len() <= data.len() / 4 + 2);
    for t in tokens.iter().take(64) {
        let _ = t.fields(&p);
        assert!(p.locate(t.offset).is_some());
    }
});
