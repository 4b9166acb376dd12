//! Program bytes are a fixpoint of `asm ∘ disasm` on mutated input too:
//! for a file `x` with a damaged declaration operand, round 1
//! `asm(disasm(x))` and round 2 `asm(disasm(round 1))` hold the same
//! program chunk. (Round 1 may differ from `x`: the printer shows what the
//! damaged tokens mean, and the assembler writes that back as fxc would.)

use dxbc::spec::{operand_token, FieldDef};
use dxbc::Shader;
use std::path::PathBuf;

mod common;

fn fxc(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc").join(name)
}

fn program_chunk(bytes: &[u8]) -> Vec<u8> {
    let s = Shader::parse(bytes).expect("an assembled container decodes");
    let c = s.container.find(b"SHEX").or_else(|| s.container.find(b"SHDR")).expect("a program chunk");
    s.bytes[c.data_range()].to_vec()
}

/// `asm(disasm(bytes))`, when the file decodes and its listing assembles.
fn round(bytes: &[u8]) -> Option<Vec<u8>> {
    let s = Shader::parse(bytes).ok()?;
    dxbc::asm::assemble(&dxbc::listing::disassemble(&s)).ok()
}

/// `bytes` with the dword at `at` replaced.
fn with_word(bytes: &[u8], at: usize, v: u32) -> Vec<u8> {
    let mut m = bytes.to_vec();
    m[at..at + 4].copy_from_slice(&v.to_le_bytes());
    m
}

/// Rounds 1 and 2 of a mutated file, when round 1 assembles.
fn rounds(m: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let r1 = round(m)?;
    let r2 = round(&r1).expect("round 2 assembles what round 1 printed");
    Some((program_chunk(&r1), program_chunk(&r2)))
}

/// The regression: an SM5.1 `dcl_constantbuffer` whose operand lost its
/// indices prints `CB, immediateIndexed, space=0` (no size); round 1 wrote
/// the space as the only payload word, which round 2 then read as the size
/// and dropped the space: the program shrank by a word.
#[test]
fn sm51_constant_buffer_without_indices() {
    let bytes = std::fs::read(fxc("directxtk12_alphatesteffect_vsalphatest.dxbc")).unwrap();
    let s = Shader::parse(&bytes).unwrap();
    let p = s.program.as_ref().unwrap();
    let ins = p.instructions.iter().find(|i| i.info().is_some_and(|x| x.asm == "dcl_constantbuffer")).unwrap();
    let op = ins.operand(p, 0).unwrap();
    let m = with_word(&bytes, op.offset as usize, operand_token::INDEX_DIMENSION.put(op.token, 0));
    let text = dxbc::listing::disassemble(&Shader::parse(&m).unwrap());
    assert!(text.contains("dcl_constantbuffer CB, immediateIndexed, space=0\n"), "{text}");
    let (r1, r2) = rounds(&m).expect("round 1 assembles");
    assert_eq!(r1, r2);
}

/// Every declaration's first operand in a spread of fxc files, with its
/// type, component count, selection mode or index dimension set to each
/// value the field holds (up to 64).
#[test]
fn damaged_declaration_operands_reach_a_fixpoint() {
    let mut files = Vec::new();
    common::collect(&fxc(""), &mut files);
    files.sort();
    let fields: [FieldDef; 4] =
        [operand_token::TYPE, operand_token::COMPONENTS, operand_token::SELECTION_MODE, operand_token::INDEX_DIMENSION];
    let (mut assembled, mut differ) = (0usize, Vec::new());
    for path in files.iter().step_by(25) {
        let bytes = std::fs::read(path).unwrap();
        let s = Shader::parse(&bytes).unwrap();
        let Some(p) = s.program.as_ref() else { continue };
        for ins in p.instructions.iter().filter(|i| i.info().is_some_and(|x| x.asm.starts_with("dcl_"))) {
            let Some(op) = ins.operand(p, 0) else { continue };
            for f in fields {
                for v in 0..=(f.mask() >> f.lo).min(63) {
                    let t = f.put(op.token, v);
                    if t == op.token {
                        continue;
                    }
                    let Some((r1, r2)) = rounds(&with_word(&bytes, op.offset as usize, t)) else { continue };
                    assembled += 1;
                    if r1 != r2 {
                        differ.push(format!("{}: {} {} = {v}", path.display(), ins.info().unwrap().asm, f.name));
                    }
                }
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {assembled} differ between rounds: {:#?}",
        differ.len(),
        &differ[..differ.len().min(10)]
    );
    assert!(assembled > 3000, "only {assembled} mutations assembled");
}
