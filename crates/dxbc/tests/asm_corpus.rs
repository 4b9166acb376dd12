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
//! * fxc corpus, signatures: the header tables assembled into ISGN/OSGN/...
//!   chunks, compared byte for byte with the original's.
//! * listing fixpoint: the program part of `disasm(asm(L))` equals that of
//!   `disasm(original)`.
//! * whole-listing fixpoint: all of `disasm(asm(L))`, header included,
//!   equals `disasm(original)` exactly.
//! * IFCE and Aon9: the chunks assembled from the header, byte for byte
//!   (Aon9 also without its `DBUG` comment, which the listing shows only
//!   in part).
//! * RDEF: the chunk assembled from the header, byte for byte; a
//!   difference is named by the first model field that differs.
//! * vkd3d and blobs: `asm(disasm(x))` program bytes, and the fixpoint.

use dxbc::listing::program::write_float;
use dxbc::listing::Dialect;
use dxbc::program::{Program, TokenRole};
use dxbc::Shader;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn corpus(sub: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    assert!(d.is_dir(), "corpus directory {} is missing: the assembler test cannot run", d.display());
    d
}

/// The `.dxbc` files under `dir`, subdirectories included, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().filter_map(|e| e.ok()) {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                v.push(p);
            }
        }
    }
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

/// Compares our program chunk with the original (decoded as `p`): `Ok(true)`
/// when byte-identical, `Ok(false)` when the only differences are values
/// that print as the same `%f` text, else the first real difference.
fn program_difference(p: &Program, orig: &[u8], ours: &[u8]) -> Result<bool, String> {
    let mut exact = orig.len() == ours.len();
    for (k, (a, b)) in orig.chunks(4).zip(ours.chunks(4)).enumerate() {
        if a == b {
            continue;
        }
        exact = false;
        let x = u32::from_le_bytes(a.try_into().unwrap());
        let y = u32::from_le_bytes(b.try_into().unwrap());
        let loc = p.locate(p.offset + 4 * k);
        let role = loc.as_ref().map(|l| l.role);
        if k == 1 && orig.len() != ours.len() {
            continue; // the length token; the first real difference follows
        }
        let value = matches!(role, Some(TokenRole::Immediate { .. } | TokenRole::Payload(_)));
        if value && float_text(x) == float_text(y) {
            continue;
        }
        // Doubles print as `%f` of the pair (low dword first).
        if let Some(TokenRole::Immediate { operand, component }) = role {
            if p.operands[operand as usize].ty() == 5 {
                let first = k - (component as usize % 2);
                let pair = |b: &[u8]| {
                    let v = u64::from_le_bytes(b[4 * first..4 * first + 8].try_into().unwrap());
                    format!("{:.6}", f64::from_bits(v))
                };
                if ours.len() >= 4 * first + 8 && pair(orig) == pair(ours) {
                    continue;
                }
            }
        }
        let what = loc.map_or("?".to_string(), |l| format!("{:?} of instruction {:?}", l.role, l.instruction));
        return Err(format!("dword {k}: {x:#010x} vs {y:#010x} ({what})"));
    }
    if orig.len() != ours.len() {
        return Err(format!("length {} vs {}", orig.len(), ours.len()));
    }
    Ok(exact)
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

#[derive(Default)]
struct Tally {
    total: usize,
    /// Byte-identical (or, for listings, equal).
    same: usize,
    /// Identical once values printed as the same `%f` text are taken as equal.
    same_as_printed: usize,
    reasons: BTreeMap<String, Vec<String>>,
}

impl Tally {
    fn fail(&mut self, reason: &str, detail: String) {
        self.reasons.entry(reason.to_string()).or_default().push(detail);
    }
    fn report(&self, what: &str) {
        let also = if self.same_as_printed > 0 {
            format!(" (+{} equal up to %f-printed values)", self.same_as_printed)
        } else {
            String::new()
        };
        println!("{what}: {}/{} identical{also}", self.same, self.total);
        for (r, v) in &self.reasons {
            println!("  {r}: {}", v.len());
            for d in v.iter().take(if std::env::var("DXBC_ASM_DIFF").is_ok() { 1000 } else { 3 }) {
                println!("    {d}");
            }
        }
    }
    fn count(&self, reason: &str) -> usize {
        self.reasons.get(reason).map_or(0, Vec::len)
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
            Ok(true) => t.same += 1,
            Ok(false) => t.same_as_printed += 1,
            Err(d) => t.fail("program bytes differ", format!("{name}: {d}")),
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
    // A `/Zi` listing interleaves names and lines from the SPDB chunk, which
    // the text cannot rebuild (it holds a fraction of it): the original is
    // compared as printed without its debug info.
    let (a, b) = (program_listing(&without_debug_info(shader), dialect), program_listing(&ours, dialect));
    if a == b {
        t.same += 1;
    } else {
        let line = a.lines().zip(b.lines()).find(|(x, y)| x != y).map(|(x, y)| format!("`{x}` vs `{y}`"));
        t.fail("listing differs", format!("{name}: {}", line.unwrap_or_default()));
    }
}

/// Compares the RDEF chunk of the original with ours, byte for byte.
fn check_rdef(t: &mut Tally, name: &str, ours: &Shader, shader: &Shader) {
    let Some(c) = shader.container.find(b"RDEF") else { return };
    t.total += 1;
    let a = &shader.bytes[c.data_range()];
    match ours.container.find(b"RDEF") {
        None => t.fail("chunk missing", name.to_string()),
        Some(o) if ours.bytes[o.data_range()] == *a => t.same += 1,
        Some(o) => {
            let b = &ours.bytes[o.data_range()];
            let k = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
            let (x, y) = (model(shader.rdef.as_ref()), model(ours.rdef.as_ref()));
            let field = first_difference(&x, &y, String::new()).unwrap_or_else(|| "layout only".into());
            let reason = field.chars().filter(|c| !c.is_ascii_digit()).collect::<String>();
            t.fail(&format!("differs in {reason}"), format!("{name}: byte {k} of {} / {}: {field}", a.len(), b.len()));
        }
    }
}

/// The decoded RDEF as JSON without its offsets and stored counts (which
/// follow from the rest).
fn model(r: Option<&dxbc::chunks::rdef::Rdef>) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.retain(|k, _| {
                    !(k == "offset" || k.ends_with("_offset") || k.ends_with("_at") || k.ends_with("_count"))
                });
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(r).unwrap();
    strip(&mut v);
    v
}

/// The path of the first field that differs (array indices as `[n]`).
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, path: String) -> Option<String> {
    use serde_json::Value::{Array, Object};
    match (a, b) {
        (Object(x), Object(y)) => x.iter().find_map(|(k, v)| {
            let p = format!("{path}.{k}");
            match y.get(k) {
                Some(w) => first_difference(v, w, p),
                None => Some(p),
            }
        }),
        (Array(x), Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (v, w))| first_difference(v, w, format!("{path}[{i}]")))
        }
        _ if a == b => None,
        _ => Some(format!("{path} ({a} vs {b})")),
    }
}

/// Whole-listing fixpoint: `disasm(asm(L)) == disasm(original)`, header
/// included, exactly.
/// The shader as it prints without the SPDB chunk's names and lines (the
/// listing shows a fraction of them, so the assembler cannot rebuild it).
fn without_debug_info(shader: &Shader) -> Shader {
    let mut plain = shader.clone();
    plain.spdb = None;
    plain
}

fn check_full(t: &mut Tally, name: &str, ours: &Shader, shader: &Shader) {
    t.total += 1;
    let (a, b) = (dxbc::listing::disassemble(&without_debug_info(shader)), dxbc::listing::disassemble(ours));
    if a == b {
        t.same += 1;
    } else {
        let line = a.lines().zip(b.lines()).find(|(x, y)| x != y).map(|(x, y)| format!("`{x}` vs `{y}`"));
        t.fail("listing differs", format!("{name}: {}", line.unwrap_or_default()));
    }
}

/// The Aon9 chunks compared again without their comment blocks (the
/// `DBUG` debug information, of which the listing shows only line
/// directives and annotations): counts those whose tables and SM2 tokens
/// are byte-identical.
fn check_aon9_code(t: &mut Tally, name: &str, ours: &Shader, shader: &Shader) {
    let Some(a) = shader.aon9.as_ref() else { return };
    t.total += 1;
    let strip = |x: &dxbc::chunks::aon9::Aon9| {
        let mut x = x.clone();
        x.program.comments.clear();
        x.encode()
    };
    match ours.aon9.as_ref() {
        Some(b) if strip(a) == strip(b) => t.same += 1,
        Some(_) => t.fail("differs", name.to_string()),
        None => t.fail("chunk missing", name.to_string()),
    }
}

/// Compares the chunk tagged `tag` of the original (when it has one) with
/// ours, byte for byte.
fn check_chunk(t: &mut Tally, tag: &[u8; 4], name: &str, ours: &Shader, shader: &Shader) {
    let Some(c) = shader.container.find(tag) else { return };
    t.total += 1;
    let a = &shader.bytes[c.data_range()];
    match ours.container.find(tag) {
        None => t.fail("chunk missing", name.to_string()),
        Some(o) if ours.bytes[o.data_range()] == *a => t.same += 1,
        Some(o) => {
            let b = &ours.bytes[o.data_range()];
            let k = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
            t.fail("chunk differs", format!("{name}: byte {k} of {} / {}", a.len(), b.len()));
        }
    }
}

const SIGNATURE_TAGS: [&[u8; 4]; 7] = [b"ISGN", b"ISG1", b"OSGN", b"OSG5", b"OSG1", b"PCSG", b"PSG1"];

/// Assembles `text` into a container and compares each signature chunk of
/// the original with ours (same tag, same bytes).
fn check_signatures(t: &mut Tally, name: &str, text: &str, shader: &Shader) {
    let Ok(bytes) = dxbc::asm::assemble(text) else {
        return t.fail("does not assemble", name.to_string());
    };
    let ours = Shader::parse(&bytes).expect("assembled container decodes");
    for c in shader.container.chunks.iter().filter(|c| SIGNATURE_TAGS.contains(&&c.tag)) {
        t.total += 1;
        let tag = String::from_utf8_lossy(&c.tag).to_string();
        match ours.container.find(&c.tag) {
            None => t.fail("chunk missing", format!("{name}: {tag}")),
            Some(o) if ours.bytes[o.data_range()] == shader.bytes[c.data_range()] => t.same += 1,
            Some(o) => {
                let (a, b) = (&shader.bytes[c.data_range()], &ours.bytes[o.data_range()]);
                let k = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
                t.fail("chunk differs", format!("{name}: {tag} byte {k} of {} / {}", a.len(), b.len()));
            }
        }
    }
}

#[test]
fn fxc_corpus() {
    let dir = corpus("fxc");
    let names = files(&dir);
    assert_eq!(names.len(), 438, "expected 438 fxc corpus shaders");
    let (mut from_fxc, mut from_ours, mut fix) = (Tally::default(), Tally::default(), Tally::default());
    let mut sigs = Tally::default();
    let (mut rdef, mut full) = (Tally::default(), Tally::default());
    let (mut aon9, mut aon9_code, mut ifce) = (Tally::default(), Tally::default(), Tally::default());
    for path in &names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let shader = Shader::parse(&std::fs::read(path).unwrap()).unwrap();
        let golden = std::fs::read_to_string(path.with_extension("asm")).unwrap();
        check_program(&mut from_fxc, &name, &golden, &shader);
        let ours = dxbc::listing::disassemble(&shader);
        check_program(&mut from_ours, &name, &ours, &shader);
        check_fixpoint(&mut fix, &name, &golden, &shader);
        check_signatures(&mut sigs, &name, &golden, &shader);
        let ours = match dxbc::asm::assemble(&golden) {
            Ok(b) => Shader::parse(&b).expect("assembled container decodes"),
            Err(e) => {
                full.fail("does not assemble", format!("{name}: {e}"));
                continue;
            }
        };
        check_rdef(&mut rdef, &name, &ours, &shader);
        check_chunk(&mut aon9, b"Aon9", &name, &ours, &shader);
        check_aon9_code(&mut aon9_code, &name, &ours, &shader);
        check_chunk(&mut ifce, b"IFCE", &name, &ours, &shader);
        check_full(&mut full, &name, &ours, &shader);
    }
    rdef.report("fxc .asm -> RDEF chunk");
    aon9.report("fxc .asm -> Aon9 chunk");
    aon9_code.report("fxc .asm -> Aon9 chunk without its DBUG comment");
    ifce.report("fxc .asm -> IFCE chunk");
    full.report("fxc .asm -> whole listing");
    sigs.report("fxc .asm -> signature chunks");
    from_fxc.report("fxc .asm -> program bytes");
    from_ours.report("dxbc disasm -> program bytes");
    fix.report("fxc .asm -> listing fixpoint");
    // Every program chunk comes back: 399 byte for byte, 39 with immediates
    // that `%f` printed with too few decimals to recover (1/1023 and 1/1022
    // both print as 0.000978), which come back as another value with the
    // same text.
    for t in [&from_fxc, &from_ours] {
        assert_eq!((t.same, t.same_as_printed, t.total), (399, 39, 438), "program bytes (see the report above)");
    }
    assert_eq!(fix.same, 438, "listing fixpoint (see the report above)");
    // RDEF: what the listing does not show is chosen as fxc writes it most
    // often; the rest differ in those choices (user-packed flags, compile
    // flags, typedef names, which type records fxc shares).
    assert_eq!((rdef.same, rdef.total), (277, 365), "RDEF chunks (see the report above)");
    // Whole listings, header included (IFCE, Aon9 and XPDP assembled).
    assert_eq!((full.same, full.total), (438, 438), "whole listings (see the report above)");
    // Aon9: the 15 chunks without debug information come back byte for
    // byte; the 21 with a DBUG comment differ in it only (the listing shows
    // its line directives and annotations, not its types, entry point or
    // skipped lines).
    assert_eq!((aon9.same, aon9.total), (15, 36), "Aon9 chunks (see the report above)");
    assert_eq!((aon9_code.same, aon9_code.total), (36, 36), "Aon9 without DBUG (see the report above)");
    assert_eq!((ifce.same, ifce.total), (5, 5), "IFCE chunks (see the report above)");
    assert_eq!((sigs.same, sigs.total), (919, 919), "signature chunks (see the report above)");
}

/// `asm(disasm(x))` for every decodable file of a corpus directory.
fn round_trip_dir(sub: &str) -> (Tally, Tally, Tally, Tally, Tally) {
    let (mut bytes, mut fix, mut sigs) = (Tally::default(), Tally::default(), Tally::default());
    let mut full = Tally::default();
    let mut rdef = Tally::default();
    for path in files(&corpus(sub)) {
        let name = path.strip_prefix(corpus(sub)).unwrap().to_string_lossy().to_string();
        let Ok(shader) = Shader::parse(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        if shader.program.is_none() || !shader.errors.is_empty() {
            continue;
        }
        let text = dxbc::listing::disassemble(&shader);
        check_program(&mut bytes, &name, &text, &shader);
        check_fixpoint(&mut fix, &name, &text, &shader);
        check_signatures(&mut sigs, &name, &text, &shader);
        if let Ok(b) = dxbc::asm::assemble(&text) {
            let ours = Shader::parse(&b).expect("assembled container decodes");
            check_full(&mut full, &name, &ours, &shader);
            check_rdef(&mut rdef, &name, &ours, &shader);
        }
    }
    (bytes, fix, sigs, full, rdef)
}

/// Property: for every decodable corpus file x, `asm(disasm(x))` decodes
/// and disassembles to the same program text. The program bytes are
/// compared too, and the signature chunks: blobs (fxc output) come back whole; vkd3d's compiler makes
/// encoding choices the listing cannot show (one-component `t0`/`u0`
/// declarations, a flag bit on raw-buffer declarations, interpolation mode
/// 0 on system-generated inputs), so there only the text is asserted, and
/// the byte figure is reported.
#[test]
fn vkd3d_and_blobs_round_trip() {
    let (bytes, fix, sigs, full, rdef) = round_trip_dir("blobs");
    full.report("blobs: dxbc disasm -> whole listing");
    rdef.report("blobs: dxbc disasm -> RDEF chunk");
    bytes.report("blobs: dxbc disasm -> program bytes");
    fix.report("blobs: dxbc disasm -> listing fixpoint");
    sigs.report("blobs: dxbc disasm -> signature chunks");
    assert_eq!((bytes.same, bytes.same_as_printed, bytes.total), (732, 7, 739));
    assert_eq!((fix.same, fix.total), (739, 739));
    assert_eq!((sigs.same, sigs.total), (1514, 1514));
    assert_eq!((full.same, full.total), (739, 739));
    assert_eq!((rdef.same, rdef.total), (1, 1));
    let (bytes, fix, sigs, full, rdef) = round_trip_dir("vkd3d");
    full.report("vkd3d: dxbc disasm -> whole listing");
    rdef.report("vkd3d: dxbc disasm -> RDEF chunk");
    bytes.report("vkd3d: dxbc disasm -> program bytes");
    fix.report("vkd3d: dxbc disasm -> listing fixpoint");
    sigs.report("vkd3d: dxbc disasm -> signature chunks");
    assert_eq!((fix.same, fix.total), (2239, 2239));
    assert_eq!((full.same, full.total), (2239, 2239));
    // vkd3d-shader's RDEF: the assembler writes fxc's compile flags and
    // user-packed flags, which vkd3d sets otherwise; none is identical.
    assert_eq!((rdef.same, rdef.total), (0, 2235));
    // vkd3d-shader stores each name once per element, dword-aligned; the
    // listing cannot say so, and the assembler writes fxc's shared names.
    assert_eq!((sigs.same, sigs.total), (4311, 4506));
    assert_eq!((bytes.same, bytes.same_as_printed, bytes.count("does not assemble")), (1915, 45, 0));
}

/// No panic on damaged text: every line of a spread of fxc listings cut
/// short at several places, or with a bracket, parenthesis or digit pushed
/// in, must assemble or fail with an error that points into the text.
#[test]
fn damaged_listings_fail_cleanly() {
    let names = files(&corpus("fxc"));
    let mut failures = 0usize;
    // A spread of listings, and one with a level-9 section and debug lines.
    let level9 = corpus("fxc").join("directxtk_dgslphong_main.dxbc");
    for path in names.iter().step_by(150).chain([&level9]) {
        let text = std::fs::read_to_string(path.with_extension("asm")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let cuts = (0..line.len()).step_by(9).filter(|&k| line.is_char_boundary(k));
            let mut variants: Vec<String> = cuts.map(|k| line[..k].to_string()).collect();
            for ins in ["[", "(", "9", "{", "-|"] {
                let k = line.len() / 2;
                if line.is_char_boundary(k) {
                    variants.push(format!("{}{ins}{}", &line[..k], &line[k..]));
                }
            }
            for v in variants {
                let mut damaged = lines.clone();
                damaged[i] = &v;
                let damaged = damaged.join("\n");
                if let Err(e) = dxbc::asm::assemble(&damaged) {
                    failures += 1;
                    assert!(e.offset <= damaged.len() && e.line >= 1 && e.column >= 1, "{e}");
                    assert!(e.to_string().ends_with(&format!("(at offset {:#x})", e.offset)));
                }
            }
        }
    }
    assert!(failures > 300, "the damage was expected to be caught ({failures} errors)");
}

/// The exact form ([`Dialect::Exact`], floats that six decimals would not
/// give back printed with nine significant digits) holds every value the
/// program shows: `asm(disasm_exact(x))` gives back the program chunk byte
/// for byte. What no listing shows is compared out first: padding dwords
/// inside an instruction's length, and the low bits of double immediates,
/// which the exact form still prints as `%f` (no evidence says how
/// 3Dmigoto prints doubles). Any other differing dword fails.
#[test]
fn the_exact_form_gives_back_every_program_byte() {
    use dxbc::spec::Word;
    let mut report = Vec::new();
    for (sub, expected) in [("fxc", (434, 4, 0, 438)), ("blobs", (736, 1, 2, 739))] {
        let (mut same, mut padding, mut doubles, mut total) = (0, 0, 0, 0);
        for path in files(&corpus(sub)) {
            let Ok(shader) = Shader::parse(&std::fs::read(&path).unwrap()) else { continue };
            let (Some(orig), Some(p)) = (program_chunk(&shader), shader.program.as_ref()) else { continue };
            if !shader.errors.is_empty() {
                continue;
            }
            total += 1;
            let text = dxbc::listing::disassemble_with(&shader, Dialect::Exact);
            let ours = dxbc::asm::assemble_program(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(ours.len(), orig.len(), "{}: program length", path.display());
            if ours == orig {
                same += 1;
                continue;
            }
            let (mut pad, mut dbl) = (false, false);
            for (k, (a, b)) in orig.chunks(4).zip(ours.chunks(4)).enumerate() {
                if a == b {
                    continue;
                }
                match p.locate(p.offset + 4 * k).map(|l| l.role) {
                    Some(TokenRole::Payload(Word::Count("padding"))) => pad = true,
                    Some(TokenRole::Immediate { operand, .. }) if p.operands[operand as usize].ty() == 5 => dbl = true,
                    role => panic!("{}: dword {k} differs ({role:?})", path.display()),
                }
            }
            if dbl {
                doubles += 1;
            } else if pad {
                padding += 1;
            }
        }
        report.push(format!(
            "{sub}: {same}/{total} identical, {padding} differ in padding only, {doubles} in double immediates"
        ));
        assert_eq!((same, padding, doubles, total), expected, "{sub}");
    }
    println!("{}", report.join("\n"));
}
