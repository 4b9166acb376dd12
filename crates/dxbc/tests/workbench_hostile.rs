//! Search, def-use, diff and the C header on damaged input: for a sample of
//! corpus shaders, truncated at 64 places and with bits flipped in 64 places
//! of the program chunk, nothing panics and every range
//! reported lies inside its file.

mod common;

use dxbc::defuse::def_use;
use dxbc::diff::{diff, InsDiff};
use dxbc::register::Register;
use dxbc::search::{Query, Searcher};
use dxbc::Shader;

const QUERIES: [&str; 12] = [
    "mul",
    "dcl_constantbuffer",
    "r0",
    "r1.x",
    "cb0[..]",
    "v[..][0]",
    "icb[..]",
    "TEXCOORD",
    "SV_Target0",
    "00 00 80 3f",
    "@100",
    "0x10",
];

fn check(name: &str, original: &Shader, bytes: &[u8]) {
    let Ok(s) = Shader::decode(bytes) else { return };
    let n = bytes.len();
    let mut searcher = Searcher::new(&s);
    for q in QUERIES {
        for m in searcher.find(&Query::parse(q)).matches {
            assert!(m.range.start < m.range.end && m.range.end <= n, "{name}: {q} -> {:?} in {n} bytes", m.range);
        }
    }
    if let Some(p) = &s.program {
        for r in ["r0", "o0.x", "x0[..]", "cb0[..]"] {
            let d = def_use(p, &Register::parse(r).unwrap());
            for site in d.writes.iter().chain(&d.reads).chain(&d.declarations) {
                assert!(site.range.end <= n, "{name}: {r} site {:?}", site.range);
            }
        }
    }
    let d = diff(original, &s);
    for step in &d.instructions {
        if let InsDiff::Changed { a_bytes, b_bytes, .. } = step {
            assert!(a_bytes.iter().all(|r| r.end <= original.bytes.len()), "{name}");
            assert!(b_bytes.iter().all(|r| r.end <= n), "{name}");
        }
    }
    let h = dxbc::export::c_header(bytes, "x");
    assert!(h.ends_with("};\n"), "{name}");
}

#[test]
fn damaged_inputs_never_panic_and_ranges_stay_inside() {
    let files = common::corpus_files("fxc", 400);
    let mut runs = 0;
    for p in files.iter().step_by(20) {
        let bytes = std::fs::read(p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let original = Shader::decode(&bytes).unwrap();
        check(&name, &original, &bytes);
        // About 64 cuts and 64 flipped dwords per file, whatever its size.
        for cut in (0..bytes.len()).step_by((bytes.len() / 64).max(4)) {
            check(&name, &original, &bytes[..cut]);
            runs += 1;
        }
        let Some(prog) = original.container.chunks.iter().find(|c| matches!(&c.tag, b"SHDR" | b"SHEX")) else {
            continue;
        };
        for at in prog.data_range().step_by((prog.data_range().len() / 256).max(1) * 4) {
            for bit in [0, 11, 19, 31] {
                let mut m = bytes.clone();
                m[at + bit / 8] ^= 1 << (bit % 8);
                check(&name, &original, &m);
                runs += 1;
            }
        }
    }
    assert!(runs > 5000, "{runs} damaged inputs");
}
