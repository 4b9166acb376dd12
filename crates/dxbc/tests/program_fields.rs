//! Every program chunk of the three corpora, lifted into the field model
//! (`dxbc::program::ir`, which stores no token words) and encoded from its
//! fields alone, gives back the original chunk bytes, and the result
//! decodes to the same fields again.

use dxbc::program::ir;
use std::path::PathBuf;

mod common;
use common::collect;

fn check(sub: &str, expected: usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    assert!(dir.is_dir(), "corpus directory {} is missing", dir.display());
    let mut files = Vec::new();
    collect(&dir, &mut files);
    assert_eq!(files.len(), expected, "unexpected number of shaders in {}", dir.display());
    let (mut failures, mut instructions) = (Vec::new(), 0usize);
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let s = dxbc::Shader::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let chunk = s.container.chunks.iter().find(|c| &c.tag == b"SHDR" || &c.tag == b"SHEX");
        let (Some(chunk), Some(program)) = (chunk, s.program.as_ref()) else {
            failures.push(format!("{name}: no program chunk"));
            continue;
        };
        let original = &bytes[chunk.data_range()];
        let fields = match ir::Program::from_decoded(program) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        instructions += fields.instructions.len();
        match fields.encode() {
            Err(e) => failures.push(format!("{name}: encode: {e}")),
            Ok(out) if out != original => {
                let at = out.iter().zip(original).position(|(a, b)| a != b).unwrap_or(out.len().min(original.len()));
                failures.push(format!("{name}: encoded bytes differ from byte {at:#x} of the chunk"));
            }
            Ok(out) => {
                let (again, errors) = dxbc::program::Program::decode(&out, 0);
                let again = ir::Program::from_decoded(&again);
                if !errors.is_empty() || again.as_ref().ok() != Some(&fields) {
                    failures.push(format!("{name}: re-decoded fields differ ({errors:?})"));
                }
            }
        }
    }
    println!(
        "{sub}: {}/{} programs ({instructions} instructions) encode from fields identically",
        files.len() - failures.len(),
        files.len()
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn fxc_programs_encode_from_fields() {
    check("fxc", 438);
}

#[test]
fn blobs_programs_encode_from_fields() {
    check("blobs", 739);
}

#[test]
fn vkd3d_programs_encode_from_fields() {
    check("vkd3d", 2239);
}
