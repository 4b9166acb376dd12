//! `dxbc::diff` over the fxc corpus: one edit made with `dxbc::edit` (flip
//! saturate, delete an instruction, insert one) must come back as exactly
//! that one instruction, with the field and bytes the edit touched.

mod common;

use dxbc::diff::{diff, ChunkChange, InsDiff};
use dxbc::spec::{OpClass, Opcode};
use dxbc::Shader;

fn corpus() -> Vec<(String, Vec<u8>)> {
    common::corpus_files("fxc", 400)
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

fn not_same(d: &dxbc::diff::ShaderDiff) -> Vec<&InsDiff> {
    d.instructions.iter().filter(|i| !matches!(i, InsDiff::Same(..))).collect()
}

/// Only the program chunk differs, and in the header only the checksum
/// (bytes 4..20) and, when the length changed, the total size (24..28).
fn only_program_and_checksum(name: &str, d: &dxbc::diff::ShaderDiff, resized: bool) {
    for r in &d.header {
        let ok = (r.start >= 4 && r.end <= 20) || (resized && r.start >= 24 && r.end <= 28);
        assert!(ok, "{name}: header bytes {r:?} changed");
    }
    for c in d.chunks.iter().filter(|c| c.change != ChunkChange::Same) {
        assert!(matches!(c.tag.as_str(), "SHDR" | "SHEX"), "{name}: chunk {} {:?}", c.tag, c.change);
    }
}

#[test]
fn one_edit_is_one_instruction() {
    let (mut sat, mut del, mut ins) = (0, 0, 0);
    for (name, bytes) in corpus() {
        let Ok(a) = Shader::parse(&bytes) else { continue };
        let Some(p) = a.program.as_ref() else { continue };
        assert!(diff(&a, &a).is_empty(), "{name}");
        // The first arithmetic instruction: flip its saturate bit.
        if let Some(k) = p.instructions.iter().position(|i| i.info().is_some_and(|x| x.class == OpClass::Alu)) {
            let at = p.instructions[k].offset as usize;
            let was = dxbc::spec::field_value(dxbc::spec::ALU_CONTROLS, "saturate", p.instructions[k].token);
            if let Ok(e) = dxbc::edit::set_field(&bytes, at, "saturate", if was == 0 { "1" } else { "0" }) {
                let d = diff(&a, &e.shader);
                only_program_and_checksum(&name, &d, false);
                assert!(!d.header.is_empty(), "{name}: checksum unchanged");
                match not_same(&d).as_slice() {
                    [InsDiff::Changed { a: i, b: j, fields, a_bytes, b_bytes }] => {
                        assert_eq!((*i, *j), (k, k), "{name}");
                        let f: Vec<_> = fields.iter().map(|f| (f.name, f.a, f.b)).collect();
                        assert_eq!(f, [("saturate", was, 1 - was)], "{name}");
                        let want = std::iter::once(at..at + 4).collect::<Vec<_>>();
                        assert_eq!((a_bytes, b_bytes), (&want, &want), "{name}");
                    }
                    other => panic!("{name}: {other:?}"),
                }
                sat += 1;
            }
        }
        // The last instruction before the final one: delete it.
        let n = p.instructions.len();
        if n >= 3 {
            let k = n - 2;
            if let Ok(e) = dxbc::edit::delete_instruction(&bytes, p.instructions[k].offset as usize) {
                let d = diff(&a, &e.shader);
                only_program_and_checksum(&name, &d, true);
                match not_same(&d).as_slice() {
                    // LCS may place the removal on any of a run of equal instructions.
                    [InsDiff::Removed(i)] => {
                        assert_eq!(bytes_of(p, &bytes, *i), bytes_of(p, &bytes, k), "{name}")
                    }
                    other => panic!("{name}: {other:?}"),
                }
                del += 1;
            }
            // Insert a nop before the last instruction.
            if let Ok(e) = dxbc::edit::insert_text(&bytes, p.instructions[n - 1].offset as usize, "nop") {
                let d = diff(&a, &e.shader);
                only_program_and_checksum(&name, &d, true);
                let pb = e.shader.program.as_ref().unwrap();
                match not_same(&d).as_slice() {
                    [InsDiff::Added(j)] => assert_eq!(pb.instructions[*j].op(), Some(Opcode::Nop), "{name}"),
                    other => panic!("{name}: {other:?}"),
                }
                ins += 1;
            }
        }
    }
    eprintln!("saturate {sat}, delete {del}, insert {ins}");
    assert!(sat > 300 && del > 300 && ins > 300, "saturate {sat}, delete {del}, insert {ins}");
}

fn bytes_of<'f>(p: &dxbc::program::Program, file: &'f [u8], k: usize) -> &'f [u8] {
    let i = &p.instructions[k];
    &file[i.offset as usize..i.offset as usize + 4 * i.length as usize]
}
