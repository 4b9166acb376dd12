//! The assembler on arbitrary text: never panics, every error points into
//! the text, and what it assembles decodes. For any input that decodes as a
//! container: its listing assembles, and from then on the text is a
//! fixpoint — disassembling what was assembled and assembling that again
//! gives the same listing. (Program bytes are not yet a fixpoint for every
//! mutant: a declaration whose operand is not of the declared kind can gain
//! a payload word on the second round.) (The exact property
//! `asm(disasm(x)) == x` holds for real shaders and is asserted over every
//! corpus file in `crates/dxbc/tests/asm_corpus.rs`; a mutated file can hold
//! what a listing cannot spell, e.g. a temp register declared as a constant
//! buffer, so the first round may normalise it.)
#![no_main]
use dxbc::program::Program;
use libfuzzer_sys::fuzz_target;

fn body(p: &Program) -> String {
    let cx = dxbc::listing::program::Ctx::modern(p);
    let mut out = String::new();
    for ins in &p.instructions {
        dxbc::listing::program::write_instruction(p, ins, cx, &mut out);
        out.push('\n');
    }
    out
}

/// The profile line and program text of a program chunk's bytes, if they decode.
fn listing_of(program: &[u8]) -> Option<String> {
    let (p, errors) = Program::decode(program, 0);
    errors.is_empty().then(|| format!("{}\n{}", p.version.profile(), body(&p)))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match dxbc::asm::assemble(&text) {
        Ok(bytes) => {
            let _ = dxbc::Shader::decode(&bytes);
        }
        Err(e) => assert!(e.offset <= text.len(), "error offset {} past the text ({})", e.offset, text.len()),
    }
    let Ok(s) = dxbc::Shader::parse(data) else { return };
    if s.program.is_none() {
        return;
    }
    let Ok(first) = dxbc::asm::assemble_program(&dxbc::listing::disassemble(&s)) else { return };
    let Some(text1) = listing_of(&first) else { return };
    let second = dxbc::asm::assemble_program(&text1).expect("a listing the assembler wrote assembles again");
    let text2 = listing_of(&second).expect("the second program decodes");
    assert_eq!(text2, text1, "listing fixpoint");
});
