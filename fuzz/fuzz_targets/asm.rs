//! The assembler on arbitrary text: never panics, every error points into
//! the text; and for any input that decodes as a container, its listing
//! assembles to a program that disassembles to the same listing.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match dxbc::asm::assemble(&text) {
        Ok(bytes) => {
            let _ = dxbc::Shader::decode(&bytes);
        }
        Err(e) => assert!(e.offset <= text.len(), "error offset {} past the text ({})", e.offset, text.len()),
    }
    // Property: assemble(disassemble(x)) reads back as x's program listing.
    let Ok(s) = dxbc::Shader::parse(data) else { return };
    let Some(p) = &s.program else { return };
    let listing = dxbc::listing::disassemble(&s);
    let Ok(program) = dxbc::asm::assemble_program(&listing) else { return };
    let again = dxbc::program::Program::decode(&program, 0);
    let body = |p: &dxbc::program::Program| {
        let cx = dxbc::listing::program::Ctx { sm51: p.version.is_sm51(), legacy: false };
        let mut out = String::new();
        for ins in &p.instructions {
            dxbc::listing::program::write_instruction(p, ins, cx, &mut out);
        }
        out
    };
    if again.1.is_empty() {
        assert_eq!(body(&again.0), body(p));
    }
});
