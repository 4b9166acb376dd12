//! `dxbc::edit` over every fxc corpus shader: each edit must change exactly
//! the listing line fxc's format predicts (derived from the original line by
//! a textual rule), leave every other line as it was, and re-sign the file.

use dxbc::edit::{self, EditErrorKind};
use dxbc::listing::{self, program::Ctx};
use dxbc::program::{Instruction, Program};
use dxbc::spec::OpClass;
use dxbc::Shader;
use std::path::PathBuf;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus missing at {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
        .collect();
    files.sort();
    assert!(files.len() >= 400, "expected the fxc corpus, found {} files", files.len());
    files
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect()
}

fn line(p: &Program, ins: &Instruction) -> String {
    let mut s = String::new();
    listing::program::write_instruction(p, ins, Ctx::modern(p), &mut s);
    s.lines().next().unwrap_or("").to_string()
}

/// Splits an operand list at the commas that are not inside `l(…)` or `[…]`.
fn top_level_operands(rest: &str) -> Vec<String> {
    let (mut parts, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in rest.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur.trim().to_string());
    parts
}

fn is_alu(i: &Instruction) -> bool {
    i.info().is_some_and(|o| o.class == OpClass::Alu)
}

/// Whether the edited bytes carry their checksum, hashed afresh (the
/// edit's own shader already knows it signed them).
fn signed(s: &Shader) -> bool {
    Shader::decode(&s.bytes).is_ok_and(|fresh| fresh.checksum_ok())
}

/// The listing without the SPDB chunk's `#line`s and names: they are keyed
/// to code offsets that an edit does not rewrite (the edit API leaves SPDB
/// as it was), so only the code is compared.
fn lines(s: &Shader) -> Vec<String> {
    let mut plain = s.clone();
    plain.spdb = None;
    listing::disassemble(&plain).lines().map(str::to_string).collect()
}

/// The listing of `after` equals the listing of `before` with line `old`
/// replaced by `new` (None: removed) — and nothing else changed.
fn assert_one_line_changed(name: &str, before: &Shader, after: &Shader, old: &str, new: Option<&str>) {
    assert!(signed(after), "{name}: edited file must carry a valid checksum");
    let a = lines(before);
    let b = lines(after);
    // Lines inside blocks are indented; the instruction text follows the indent.
    let at = a.iter().position(|l| l.trim_start() == old).unwrap_or_else(|| panic!("{name}: `{old}` not in listing"));
    let indent = a[at].len() - old.len();
    let mut expect = a.clone();
    match new {
        Some(n) => expect[at] = format!("{}{n}", &a[at][..indent]),
        None => {
            expect.remove(at);
        }
    }
    assert_eq!(b, expect, "{name}: listing after the edit");
}

fn first(p: &Program, pred: impl Fn(&Instruction, &str) -> bool) -> Option<(&Instruction, String)> {
    p.instructions.iter().map(|i| (i, line(p, i))).find(|(i, l)| pred(i, l))
}

#[test]
fn flip_saturate_on_every_corpus_shader() {
    let mut edited = 0;
    for (name, bytes) in corpus() {
        let Ok(s) = Shader::parse(&bytes) else { continue };
        let p = s.program.as_ref().unwrap();
        let Some((ins, old)) = first(p, |i, l| {
            is_alu(i) && l.split(' ').next().is_some_and(|m| !m.ends_with("_sat") && Some(m) == i.info().map(|o| o.asm))
        }) else {
            continue;
        };
        let e = edit::set_field(&bytes, ins.offset as usize, "saturate", "1").unwrap();
        // The same edit on the shader already decoded gives the same bytes.
        let again = edit::set_field_in(&s, ins.offset as usize, "saturate", "1").unwrap();
        assert_eq!(again.bytes, e.bytes, "{name}: set_field_in differs from set_field");
        let mnemonic = ins.info().unwrap().asm;
        let new = format!("{mnemonic}_sat{}", &old[mnemonic.len()..]);
        assert_one_line_changed(&name, &s, &e.shader, &old, Some(&new));
        edited += 1;
    }
    eprintln!("saturate flipped on {edited} shaders");
    assert_eq!(edited, 426, "saturate flipped on {edited} shaders");
}

#[test]
fn change_a_swizzle_on_every_corpus_shader() {
    let mut edited = 0;
    for (name, bytes) in corpus() {
        let Ok(s) = Shader::parse(&bytes) else { continue };
        let p = s.program.as_ref().unwrap();
        // First ALU instruction with a plain temp source in swizzle mode that is not .xxxx.
        let found = p.instructions.iter().filter(|i| is_alu(i)).find_map(|i| {
            i.ops.as_slice().iter().enumerate().skip(1).find_map(|(k, &id)| {
                let op = &p.operands[id as usize];
                let plain = op.n_ext == 0 && op.ty() == 0 && op.selection_mode() == 1 && op.index_dim() == 1;
                (plain && op.swizzle() != [0; 4]).then_some((i, k, op.offset))
            })
        });
        let Some((ins, k, at)) = found else { continue };
        let old = line(p, ins);
        let e = edit::set_field(&bytes, at as usize, "component selection", "0").unwrap();
        // Operand k of the line: split at top-level ", " and replace its swizzle by xxxx.
        let (mnemonic, rest) = old.split_once(' ').unwrap();
        let mut parts = top_level_operands(rest);
        let reg = parts[k].rsplit_once('.').unwrap_or_else(|| panic!("{name}: operand {k} of `{old}`")).0.to_string();
        parts[k] = format!("{reg}.xxxx");
        let new = format!("{mnemonic} {}", parts.join(", "));
        assert_one_line_changed(&name, &s, &e.shader, &old, Some(&new));
        edited += 1;
    }
    eprintln!("swizzle changed on {edited} shaders");
    assert_eq!(edited, 311, "swizzle changed on {edited} shaders");
}

#[test]
fn change_add_to_mul_on_every_corpus_shader() {
    let mut edited = 0;
    for (name, bytes) in corpus() {
        let Ok(s) = Shader::parse(&bytes) else { continue };
        let p = s.program.as_ref().unwrap();
        let Some((ins, old)) = first(p, |_, l| l.starts_with("add ")) else { continue };
        let e = edit::set_field(&bytes, ins.offset as usize, "opcode", "mul").unwrap();
        let new = format!("mul {}", &old[4..]);
        assert_one_line_changed(&name, &s, &e.shader, &old, Some(&new));
        edited += 1;
    }
    eprintln!("add turned into mul on {edited} shaders");
    assert_eq!(edited, 177, "add turned into mul on {edited} shaders");
}

#[test]
fn delete_and_insert_an_instruction_on_every_corpus_shader() {
    let mut edited = 0;
    for (name, bytes) in corpus() {
        let Ok(s) = Shader::parse(&bytes) else { continue };
        let p = s.program.as_ref().unwrap();
        let Some((ins, old)) = first(p, |i, l| is_alu(i) && l.starts_with("mov ")) else {
            continue;
        };
        let at = ins.offset as usize;
        let words: Vec<u32> = bytes[at..at + ins.length as usize * 4]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let d = edit::delete_instruction(&bytes, at).unwrap();
        assert_one_line_changed(&name, &s, &d.shader, &old, None);
        assert_eq!(d.bytes.len(), bytes.len() - words.len() * 4, "{name}: size follows the deletion");
        // Putting it back gives the original file, byte for byte.
        let back = edit::insert_instruction(&d.bytes, at, &words).unwrap();
        assert_eq!(back.bytes, bytes, "{name}: delete then insert restores the file");
        // Inserting a second copy duplicates exactly that line.
        let twice = edit::insert_instruction(&bytes, at, &words).unwrap();
        let mut expect = lines(&s);
        let k = expect.iter().position(|l| l.trim_start() == old).unwrap();
        expect.insert(k, expect[k].clone());
        assert_eq!(lines(&twice.shader), expect, "{name}: inserted copy");
        assert!(signed(&twice.shader));
        edited += 1;
    }
    eprintln!("deleted and inserted on {edited} shaders");
    assert_eq!(edited, 382, "deleted and inserted on {edited} shaders");
}

#[test]
fn refusals_name_the_field() {
    let (_, bytes) = corpus().into_iter().find(|(_, b)| Shader::parse(b).is_ok()).unwrap();
    let s = Shader::parse(&bytes).unwrap();
    let p = s.program.as_ref().unwrap();
    let ins = &p.instructions[0];
    let at = ins.offset as usize;
    let e = edit::set_field(&bytes, at, "no such field", "1").unwrap_err();
    assert_eq!(e.kind, EditErrorKind::NoSuchField);
    assert!(e.to_string().ends_with(&format!("(at offset {at:#x})")));
    let e = edit::set_field(&bytes, at, "opcode", "99999").unwrap_err();
    assert_eq!(e.kind, EditErrorKind::OutOfRange);
    let e = edit::set_field(&bytes, at, "opcode", "not_an_opcode").unwrap_err();
    assert_eq!(e.kind, EditErrorKind::UnknownValue);
    // A length that runs past the program makes a container the decoder rejects.
    let e = edit::set_field(&bytes, at, "instruction length", "127").unwrap_err();
    assert_eq!(e.kind, EditErrorKind::WouldBeInvalid, "{e}");
    let e = edit::delete_instruction(&bytes, at + 4).unwrap_err();
    assert_eq!(e.kind, EditErrorKind::NotAnInstruction);
    // A file that decodes only with errors (here: its last chunk's size runs
    // past the end) is refused as damaged, decoded by the edit or before it.
    let mut damaged = bytes.clone();
    let chunks = u32::from_le_bytes(damaged[28..32].try_into().unwrap()) as usize;
    let last = u32::from_le_bytes(damaged[32 + 4 * (chunks - 1)..][..4].try_into().unwrap()) as usize;
    damaged[last + 4..last + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    let lenient = Shader::decode(&damaged).unwrap();
    assert!(!lenient.errors.is_empty());
    let by_bytes = edit::set_field(&damaged, at, "saturate", "1").unwrap_err();
    let by_shader = edit::set_field_in(&lenient, at, "saturate", "1").unwrap_err();
    assert_eq!(by_bytes.kind, EditErrorKind::InputDamaged);
    assert_eq!(by_shader, by_bytes);
}

#[test]
fn listing_text_inserts_and_replaces_instructions_on_every_corpus_shader() {
    let mut edited = 0;
    for (name, bytes) in corpus() {
        let Ok(s) = Shader::parse(&bytes) else { continue };
        let p = s.program.as_ref().unwrap();
        let Some((ins, old)) = first(p, |i, l| is_alu(i) && l.starts_with("mov ")) else { continue };
        let at = ins.offset as usize;
        // Replacing `mov …` by the text `mov_sat …` gives exactly the bytes of
        // setting the saturate field.
        let by_text = edit::replace_text(&bytes, at, &format!("mov_sat {}", &old[4..])).unwrap();
        let by_field = edit::set_field(&bytes, at, "saturate", "1").unwrap();
        assert_eq!(by_text.bytes, by_field.bytes, "{name}: `mov_sat` by text and by field");
        // Inserting the line's own text duplicates the line.
        let twice = edit::insert_text(&bytes, at, &old).unwrap();
        let mut expect = lines(&s);
        let k = expect.iter().position(|l| l.trim_start() == old).unwrap();
        expect.insert(k, expect[k].clone());
        assert_eq!(lines(&twice.shader), expect, "{name}: inserted text");
        edited += 1;
    }
    eprintln!("listing text inserted and replaced on {edited} shaders");
    assert_eq!(edited, 382, "text edits on {edited} shaders");
}

#[test]
fn leaf_paths_set_signature_and_stat_fields_on_every_corpus_shader() {
    let mut edited = 0;
    for (name, bytes) in corpus() {
        let Ok(s) = Shader::parse(&bytes) else { continue };
        let Some(sig) = s.input_signature.as_ref().filter(|g| !g.elements.is_empty()) else { continue };
        let tag = String::from_utf8_lossy(&sig.fourcc).into_owned();
        let before = sig.elements[0].clone();
        let reg = before.register + 7;
        let e = edit::set_path(&bytes, &format!("{tag}/elements[0]/register"), &reg.to_string()).unwrap();
        assert!(signed(&e.shader));
        let after = e.shader.input_signature.as_ref().unwrap();
        assert_eq!(after.elements[0].register, reg, "{name}");
        assert_eq!(after.elements[0].name, before.name, "{name}");
        assert_eq!(
            format!("{:?}", &after.elements[1..]),
            format!("{:?}", &sig.elements[1..]),
            "{name}: others unchanged"
        );
        // A shorter semantic name fits in place.
        let e = edit::set_path(&bytes, &format!("{tag}/elements[0]/semantic_name"), "AB").unwrap();
        assert_eq!(e.shader.input_signature.as_ref().unwrap().elements[0].name, "AB", "{name}");
        edited += 1;
    }
    eprintln!("signature fields set by path on {edited} shaders");
    assert_eq!(edited, 347, "paths set on {edited} shaders");
    let (_, bytes) = corpus().into_iter().find(|(_, b)| Shader::parse(b).is_ok_and(|s| s.stat.is_some())).unwrap();
    let e = edit::set_path(&bytes, "no/such/path", "1").unwrap_err();
    assert_eq!(e.kind, EditErrorKind::NoSuchField);
    let e = edit::set_path(&bytes, "header/chunk_count", "0x10000").unwrap_err();
    assert_eq!(e.kind, EditErrorKind::WouldBeInvalid, "{e}");
}

#[test]
fn replacing_a_run_of_instructions_equals_the_single_edits_on_every_corpus_shader() {
    let mut edited = 0;
    for (name, bytes) in corpus() {
        let Ok(s) = Shader::parse(&bytes) else { continue };
        let p = s.program.as_ref().unwrap();
        if p.instructions.len() < 3 {
            continue;
        }
        let words = |k: usize| -> Vec<u32> {
            let i = &p.instructions[k];
            let at = i.offset as usize;
            bytes[at..at + 4 * i.length as usize]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect()
        };
        let (a, b, c) =
            (p.instructions[0].offset as usize, p.instructions[1].offset as usize, p.instructions[2].offset as usize);
        // The run replaced by its own words: the same file, byte for byte.
        let mut same = words(0);
        same.extend(words(1));
        assert_eq!(edit::replace_instructions(&bytes, a, c, &same).unwrap().bytes, bytes, "{name}: identity");
        // A one-instruction run is `replace_instruction`; an empty one is `insert_instruction`.
        let w = words(1);
        assert_eq!(
            edit::replace_instructions(&bytes, a, b, &w).unwrap().bytes,
            edit::replace_instruction(&bytes, a, &w).unwrap().bytes,
            "{name}: one instruction"
        );
        assert_eq!(
            edit::replace_instructions(&bytes, b, b, &w).unwrap().bytes,
            edit::insert_instruction(&bytes, b, &w).unwrap().bytes,
            "{name}: insertion"
        );
        // Bounds that are not instruction starts are refused.
        let e = edit::replace_instructions(&bytes, a + 1, c, &same).unwrap_err();
        assert_eq!(e.kind, EditErrorKind::NotAnInstruction, "{name}");
        assert_eq!(edit::replace_instructions(&bytes, c, a, &[]).unwrap_err().kind, EditErrorKind::NotAnInstruction);
        edited += 1;
    }
    assert!(edited >= 400, "run replacements on {edited} shaders");
}
