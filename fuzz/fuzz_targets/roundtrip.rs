//! decode → encode → decode: whatever decodes without a fault must rebuild
//! to bytes that decode to an equal model (same listing; identical model
//! and bytes on a second round, where the layout is already canonical).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(a) = dxbc::Shader::parse(data) else { return };
    let bytes = a.rebuild();
    let b = dxbc::Shader::parse(&bytes).expect("a rebuilt container decodes");
    assert_eq!(dxbc::listing::disassemble(&a), dxbc::listing::disassemble(&b));
    let again = b.rebuild();
    assert_eq!(again, bytes);
    let c = dxbc::Shader::parse(&again).unwrap();
    assert_eq!(b.program, c.program);
});
