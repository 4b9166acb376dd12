//! Hand-made containers, one or two chunk kinds each: the expected leaves
//! are written out from the layout each test builds.

use super::*;
use crate::container::write_container;

fn le(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn spans_of(bytes: &[u8]) -> (Shader, Spans) {
    let s = Shader::decode(bytes).unwrap();
    let sp = leaves(&s);
    // Tiles the file.
    let mut end = 0;
    for l in &sp.leaves {
        assert_eq!(l.offset, end, "{}", l.path);
        assert!(l.len > 0);
        assert!(!l.explanation.is_empty(), "{} has no explanation", l.path);
        end += l.len;
    }
    assert_eq!(end, bytes.len());
    (s, sp)
}

/// (offset, len, path) of the leaves under `prefix/` from `base` on, offsets relative to `base`.
fn rows(sp: &Spans, prefix: &str, base: usize) -> Vec<(usize, usize, String)> {
    sp.leaves
        .iter()
        .filter(|l| l.offset >= base && l.path.starts_with(&format!("{prefix}/")))
        .map(|l| (l.offset - base, l.len, l.path[prefix.len() + 1..].to_string()))
        .collect()
}

fn leaf<'a>(sp: &'a Spans, path: &str) -> &'a Leaf {
    sp.leaves.iter().find(|l| l.path == path).unwrap_or_else(|| panic!("no leaf {path}"))
}

fn own(v: &[(usize, usize, &str)]) -> Vec<(usize, usize, String)> {
    v.iter().map(|&(o, n, p)| (o, n, p.to_string())).collect()
}

#[test]
fn header_table_unknown_chunk_padding_and_trailing_bytes() {
    // XXXX has 5 bytes, so the writer pads it to 8; 6 bytes of garbage follow the last chunk.
    let mut bytes = write_container(1, &[(*b"XXXX", &[1, 2, 3, 4, 5]), (*b"SFI0", &le(&[0x3, 0]))]);
    bytes.extend_from_slice(&[0xEE; 6]);
    let n = bytes.len() as u32;
    bytes[0x18..0x1c].copy_from_slice(&n.to_le_bytes());
    let (_, sp) = spans_of(&bytes);
    let got: Vec<(usize, usize, &str, Kind)> =
        sp.leaves.iter().map(|l| (l.offset, l.len, l.path.as_str(), l.kind)).collect();
    use Kind::*;
    let want = [
        (0, 4, "header/magic", Field),
        (4, 16, "header/checksum", Field),
        (20, 4, "header/version", Field),
        (24, 4, "header/total_size", Field),
        (28, 4, "header/chunk_count", Field),
        (32, 4, "chunk_table[0]", Field),
        (36, 4, "chunk_table[1]", Field),
        (40, 4, "XXXX/fourcc", Field),
        (44, 4, "XXXX/size", Field),
        (48, 5, "XXXX/payload", Field),
        (53, 3, "container/padding", Padding),
        (56, 4, "SFI0/fourcc", Field),
        (60, 4, "SFI0/size", Field),
        (64, 4, "SFI0/flags_low", Field),
        (68, 4, "SFI0/flags_high", Field),
        (72, 6, "container/unreferenced", Unreferenced),
    ];
    assert_eq!(got, want);
    assert_eq!(leaf(&sp, "chunk_table[1]").value, Value::Number(56));
    assert_eq!(leaf(&sp, "SFI0/fourcc").value, Value::Text("SFI0".into()));
    assert_eq!(leaf(&sp, "SFI0/flags_low").meaning, "Double-precision floating point, Raw and Structured buffers");
    assert_eq!(leaf(&sp, "header/checksum").meaning, "does not match the file");
    assert_eq!(sp.at(54).unwrap().path, "container/padding");
    assert!(sp.at(bytes.len()).is_none());
    let tsv = sp.to_tsv(&bytes);
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(lines[0], "0\t4\theader/magic\tDXBC");
    assert_eq!(lines[9], "48\t5\tXXXX/payload\t0102030405");
    assert_eq!(lines[13], "64\t4\tSFI0/flags_low\t0x00000003");
}

/// ISGN: two elements sharing one semantic name, then string padding.
fn isgn() -> Vec<u8> {
    let mut p = le(&[2, 8]);
    for (index, reg) in [(0u32, 0u32), (1, 1)] {
        p.extend(le(&[56, index, 0, 3, reg]));
        p.extend([0b0011, 0b0001, 0, 0]);
    }
    p.extend(b"TEXCOORD\0\xab\xab\xab");
    p
}

#[test]
fn signature_elements_shared_name_and_padding() {
    let bytes = write_container(1, &[(*b"ISGN", &isgn())]);
    let (_, sp) = spans_of(&bytes);
    let mut want = own(&[(0, 4, "element_count"), (4, 4, "element_offset")]);
    let fields = [
        (0, 4, "name_offset"),
        (4, 4, "semantic_index"),
        (8, 4, "system_value"),
        (12, 4, "component_type"),
        (16, 4, "register"),
        (20, 1, "mask"),
        (21, 1, "rw_mask"),
        (22, 2, "reserved"),
    ];
    let mut names = Vec::new();
    for e in 0..2 {
        for (o, n, f) in fields {
            names.push((8 + 24 * e + o, n, format!("elements[{e}]/{f}")));
        }
    }
    want.extend(names);
    want.push((56, 9, "elements[0]/semantic_name".into()));
    want.push((65, 3, "padding".into()));
    assert_eq!(rows(&sp, "ISGN", 44), want);
    assert_eq!(sp.shared, 1, "the second element's name is the first's");
    assert_eq!(leaf(&sp, "ISGN/elements[0]/semantic_name").value, Value::Text("TEXCOORD".into()));
    assert_eq!(leaf(&sp, "ISGN/elements[1]/name_offset").meaning, "TEXCOORD");
    assert_eq!(leaf(&sp, "ISGN/elements[1]/component_type").meaning, "float");
    assert_eq!(leaf(&sp, "ISGN/elements[1]/mask").meaning, "xy  ");
}

#[test]
fn stat_fields_are_named_in_order() {
    let payload = le(&(100..137).collect::<Vec<u32>>());
    let bytes = write_container(1, &[(*b"STAT", &payload)]);
    let (_, sp) = spans_of(&bytes);
    let r = rows(&sp, "STAT", 44);
    assert_eq!(r.len(), 37);
    for (i, (o, n, p)) in r.iter().enumerate() {
        assert_eq!((*o, *n, p.as_str()), (4 * i, 4, crate::chunks::stat::FIELD_NAMES[i]));
        assert_eq!(leaf(&sp, &format!("STAT/{p}")).value, Value::Number(100 + i as u64));
    }
    let texts: std::collections::BTreeSet<&str> =
        sp.leaves.iter().filter(|l| l.path.starts_with("STAT/") && l.offset >= 44).map(|l| l.explanation).collect();
    assert_eq!(texts.len(), 37, "one explanation per statistic");
}

/// SM5.0 RDEF: one cbuffer `CB` with one variable `s` of struct type
/// {float4 a}, a default value, one texture binding `tex`.
fn rdef() -> Vec<u8> {
    let mut p = le(&[1, 0x60, 1, 0x3c, 0xFFFF_0500, 0x100, 0x118]);
    p.extend(le(&[u32::from_le_bytes(*b"RD11"), 60, 24, 32, 40, 36, 12, 0]));
    // 0x3c binding: name, texture, float, 2d, samples, t2, count 1, flags.
    p.extend(le(&[0x120, 2, 5, 4, u32::MAX, 2, 1, 0xc]));
    // 0x5c: slack nothing points at.
    p.extend(le(&[0xdead_beef]));
    // 0x60 buffer: name, 1 variable at 0x78, 16 bytes, flags, cbuffer.
    p.extend(le(&[0x124, 1, 0x78, 16, 0, 0]));
    // 0x78 variable: name, start 0, size 16, used, type 0xa0, default 0x108, slots.
    p.extend(le(&[0x128, 0, 16, 2, 0xa0, 0x108, u32::MAX, 0, u32::MAX, 0]));
    // 0xa0 struct type: class 5, base 0, 1x4, 0 elements, 1 member at 0xc4; name.
    p.extend([5u16, 0, 1, 4, 0, 1].iter().flat_map(|v| v.to_le_bytes()));
    p.extend(le(&[0xc4, 0, 0, 0, 0, 0x12c]));
    // 0xc4 member: name, type 0xd0, offset 0.
    p.extend(le(&[0x130, 0xd0, 0]));
    // 0xd0 float4 type, named.
    p.extend([1u16, 3, 1, 4, 0, 0].iter().flat_map(|v| v.to_le_bytes()));
    p.extend(le(&[0, 0, 0, 0, 0, 0x134]));
    assert_eq!(p.len(), 0xf4);
    p.extend([0u8; 0x14]);
    // 0x108 default value (16 bytes), 0x118 strings.
    p.extend(le(&[1, 2, 3, 4]));
    for s in ["Creator", "tex", "CB", "s", "S", "a", "float4"] {
        p.extend(s.as_bytes());
        p.push(0);
        while !p.len().is_multiple_of(4) {
            p.push(0xab);
        }
    }
    p
}

#[test]
fn rdef_records_types_members_defaults_and_strings() {
    let payload = rdef();
    let bytes = write_container(1, &[(*b"RDEF", &payload)]);
    let (s, sp) = spans_of(&bytes);
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    let at = |path: &str| {
        let l = leaf(&sp, &format!("RDEF/{path}"));
        (l.offset - 44, l.len)
    };
    assert_eq!(at("rd11/magic"), (0x1c, 4));
    assert_eq!(at("rd11/member_record_size"), (0x34, 4));
    assert_eq!(at("bindings[0]/bind_point"), (0x3c + 20, 4));
    assert_eq!(at("bindings[0]/name"), (0x120, 4));
    assert_eq!(at("constant_buffers[0]/kind"), (0x60 + 20, 4));
    let v = "constant_buffers[0]/variables[0]";
    assert_eq!(at(&format!("{v}/sampler_size")), (0x78 + 36, 4));
    assert_eq!(at(&format!("{v}/default_value")), (0x108, 16));
    assert_eq!(at(&format!("{v}/type/member_count")), (0xa0 + 10, 2));
    assert_eq!(at(&format!("{v}/type/name")), (0x12c, 2));
    assert_eq!(at(&format!("{v}/type/members[0]/name")), (0x130, 2));
    assert_eq!(at(&format!("{v}/type/members[0]/type/columns")), (0xd0 + 6, 2));
    assert_eq!(at(&format!("{v}/type/members[0]/type/name")), (0x134, 7));
    assert_eq!(at("creator"), (0x118, 8));
    assert_eq!(leaf(&sp, "RDEF/creator").value, Value::Text("Creator".into()));
    assert_eq!(leaf(&sp, &format!("RDEF/{v}/type_offset")).meaning, "S");
    assert_eq!(leaf(&sp, "RDEF/bindings[0]/input_type").meaning, "texture");
    assert_eq!(leaf(&sp, "RDEF/bindings[0]/return_type").meaning, "float4");
    assert_eq!(leaf(&sp, "RDEF/bindings[0]/dimension").meaning, "2d");
    // The dword at 0x5c and the 0x14 zero bytes are the only unnamed structure.
    let unref: Vec<(usize, usize)> =
        sp.leaves.iter().filter(|l| l.kind == Kind::Unreferenced).map(|l| (l.offset - 44, l.len)).collect();
    assert_eq!(unref, [(0x5c, 4), (0xf4, 0x14)]);
    let pad: usize = sp.leaves.iter().filter(|l| l.kind == Kind::Padding).map(|l| l.len).sum();
    // "CB", "s", "S", "a", "float4" with their NULs end short of a dword.
    assert_eq!(pad, 1 + 2 + 2 + 2 + 1, "string padding to dwords");
}

#[test]
fn ifce_records_and_slot_tables() {
    // Header (9 dwords), class type at 0x24, instance at 0x30, slot at 0x40,
    // type IDs at 0x50, table IDs at 0x54, names at 0x58.
    let mut p = le(&[1, 1, 1, 1, 0x30, 0x24, 0x40, 0, 0]);
    p.extend(le(&[0x58]));
    p.extend([7u16, 16, 0, 0].iter().flat_map(|v| v.to_le_bytes()));
    p.extend(le(&[0x5c]));
    p.extend([7u16, 0, 1, 0, 0xFFFF, 0xFFFF].iter().flat_map(|v| v.to_le_bytes()));
    p.extend(le(&[1, 1, 0x50, 0x54]));
    p.extend([7u16, 0].iter().flat_map(|v| v.to_le_bytes()));
    p.extend(le(&[3]));
    p.extend(b"Cls\0inst\0\0\0\0");
    let bytes = write_container(1, &[(*b"IFCE", &p)]);
    let (s, sp) = spans_of(&bytes);
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    let r = rows(&sp, "IFCE", 44);
    let tail: Vec<(usize, usize, &str)> = r[9..].iter().map(|(o, n, p)| (*o, *n, p.as_str())).collect();
    assert_eq!(
        tail,
        [
            (0x24, 4, "class_types[0]/name_offset"),
            (0x28, 2, "class_types[0]/type_id"),
            (0x2a, 2, "class_types[0]/cb_stride"),
            (0x2c, 2, "class_types[0]/texture"),
            (0x2e, 2, "class_types[0]/sampler"),
            (0x30, 4, "class_instances[0]/name_offset"),
            (0x34, 2, "class_instances[0]/type_id"),
            (0x36, 2, "class_instances[0]/unknown"),
            (0x38, 2, "class_instances[0]/constant_buffer"),
            (0x3a, 2, "class_instances[0]/cb_offset"),
            (0x3c, 2, "class_instances[0]/texture"),
            (0x3e, 2, "class_instances[0]/sampler"),
            (0x40, 4, "interface_slots[0]/slot_span"),
            (0x44, 4, "interface_slots[0]/count"),
            (0x48, 4, "interface_slots[0]/type_ids_offset"),
            (0x4c, 4, "interface_slots[0]/table_ids_offset"),
            (0x50, 2, "interface_slots[0]/type_ids[0]"),
            (0x52, 2, "padding"),
            (0x54, 4, "interface_slots[0]/table_ids[0]"),
            (0x58, 4, "class_types[0]/name"),
            (0x5c, 5, "class_instances[0]/name"),
            (0x61, 3, "padding"),
        ]
    );
    assert_eq!(r[7].2, "header_dword7");
}

/// vs_2_0: `mov oPos, v0`, a 1-dword comment, `mov oT0, v1`, end.
fn aon9() -> Vec<u8> {
    let dst = |ty: u32, n: u32| 0x8000_0000 | ((ty & 7) << 28) | ((ty & 0x18) << 8) | (0xf << 16) | n;
    let src = |ty: u32, n: u32| 0x8000_0000 | ((ty & 7) << 28) | ((ty & 0x18) << 8) | (0xe4 << 16) | n;
    let code = [
        0xFFFE_0200,
        1 | 2 << 24,
        dst(4, 0),
        src(1, 0),
        0x0001_FFFE,
        0x1234_5678,
        1 | 2 << 24,
        dst(6, 0),
        src(1, 1),
        0xFFFF,
    ];
    // Header, one runtime-constant mapping at 0x24, code at 0x28.
    let mut p = le(&[0x28 + 40, 0xFFFE_0200, 40, 0x28]);
    for (count, at) in [(0u16, 0x24u16), (0, 0x24), (0, 0x24), (0, 0x24), (1, 0x24)] {
        p.extend(count.to_le_bytes());
        p.extend(at.to_le_bytes());
    }
    p.extend([0u16, 5].iter().flat_map(|v| v.to_le_bytes()));
    p.extend(le(&code));
    p
}

#[test]
fn aon9_tables_and_sm2_tokens_link_to_listing_lines() {
    let bytes = write_container(1, &[(*b"Aon9", &aon9())]);
    let (s, sp) = spans_of(&bytes);
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    let r = rows(&sp, "Aon9", 44);
    let got: Vec<(usize, usize, &str)> = r.iter().map(|(o, n, p)| (*o, *n, p.as_str())).collect();
    let q = "program/instructions";
    let want: Vec<(usize, usize, String)> = [
        (0x00, 4, "size".to_string()),
        (0x04, 4, "min_version".into()),
        (0x08, 4, "shader_size".into()),
        (0x0c, 4, "shader_offset".into()),
    ]
    .into_iter()
    .chain((0..5).flat_map(|i| {
        [(0x10 + 4 * i, 2, format!("tables[{i}]/count")), (0x12 + 4 * i, 2, format!("tables[{i}]/offset"))]
    }))
    .chain([
        (0x24, 2, "runtime_constant_mappings[0]/kind".into()),
        (0x26, 2, "runtime_constant_mappings[0]/target_register".into()),
        (0x28, 4, "program/version".into()),
        (0x2c, 4, format!("{q}[0]/token")),
        (0x30, 4, format!("{q}[0]/dst")),
        (0x34, 4, format!("{q}[0]/src[0]")),
        (0x38, 4, "program/comments[0]/token".into()),
        (0x3c, 4, "program/comments[0]/body".into()),
        (0x40, 4, format!("{q}[1]/token")),
        (0x44, 4, format!("{q}[1]/dst")),
        (0x48, 4, format!("{q}[1]/src[0]")),
        (0x4c, 4, "program/end".into()),
    ])
    .collect();
    assert_eq!(got, want.iter().map(|(o, n, p)| (*o, *n, p.as_str())).collect::<Vec<_>>());
    // The links point at the lines the listing prints for each instruction.
    let mut listing = String::new();
    s.aon9.as_ref().unwrap().program.write_listing(&mut listing);
    let lines: Vec<&str> = listing.lines().collect();
    for (path, text) in [(format!("Aon9/{q}[0]/src[0]"), "mov oPos, v0"), (format!("Aon9/{q}[1]/token"), "mov oT0, v1")]
    {
        let Some(Link::Level9Line(n)) = leaf(&sp, &path).link else { panic!("{path} has no line") };
        assert_eq!(lines[n].trim(), text, "{path}");
    }
    assert_eq!(leaf(&sp, "Aon9/program/version").link, Some(Link::Level9Line(0)));
    assert_eq!(lines[0].trim(), "vs_2_0");
}

/// XNAP and XNAS are laid out as Aon9 and print after it, each under its
/// own heading; their links count on past the earlier sections, so every
/// one lands on the listing line of its own instruction, and the listing
/// assembles back to the same three chunks.
#[test]
fn xna_sections_decode_print_link_and_assemble_like_aon9() {
    // Three programs told apart by their second instruction's register.
    let payload = |n: u8| {
        let mut p = aon9();
        let at = 0x48 - 8 + 8; // the second instruction's source, inside the payload
        p[at] = n;
        p
    };
    // vs_4_0 with a lone `ret`, so that the listing has a profile line.
    let shdr = le(&[0x0001_0040, 3, 0x0100_003e]);
    let bytes = write_container(
        1,
        &[(*b"XNAS", &payload(3)), (*b"XNAP", &payload(2)), (*b"Aon9", &payload(1)), (*b"SHDR", &shdr)],
    );
    let (s, sp) = spans_of(&bytes);
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    let listing = crate::listing::disassemble(&s);
    let lines: Vec<&str> = listing.lines().collect();
    let heading = |h: &str| lines.iter().position(|l| *l == h).unwrap_or_else(|| panic!("no {h:?} in\n{listing}"));
    let (a, p, x) = (
        heading("// Level9 shader bytecode:"),
        heading("// XNA Prepass shader bytecode:"),
        heading("// XNA shader bytecode:"),
    );
    assert!(a < p && p < x, "sections print Aon9, XNA prepass, XNA:\n{listing}");
    let map = crate::listing::lines::LineMap::new(&s);
    for (tag, at, source) in [("Aon9", a, "v1"), ("XNAP", p, "v2"), ("XNAS", x, "v3")] {
        let line = |path: &str| map.leaf_line(leaf(&sp, &format!("{tag}/{path}"))).unwrap();
        assert_eq!(line("program/version"), at + 2, "{tag}");
        assert_eq!(lines[line("program/instructions[1]/token")].trim(), format!("mov oT0, {source}"), "{tag}");
    }
    // Each section becomes its chunk again, byte for byte, but for the
    // fixture's opaque comment, which the listing does not print.
    let rebuilt = Shader::parse(&crate::asm::assemble(&listing).expect("assembles")).unwrap();
    for kind in crate::chunks::aon9::Level9Kind::LISTING_ORDER {
        let chunk = |s: &Shader| {
            let mut a = s.level9(kind).expect("decoded").clone();
            a.program.comments.clear();
            a.encode()
        };
        assert_eq!(chunk(&rebuilt), chunk(&s), "{kind:?}");
    }
}

#[test]
fn program_tokens_agree_with_locate() {
    let bytes = crate::examples::textured_pixel_shader();
    let (s, sp) = spans_of(&bytes);
    let p = s.program.as_ref().unwrap();
    let program: Vec<&Leaf> = sp.leaves.iter().filter(|l| l.offset >= p.offset).collect();
    assert_eq!(program.len(), p.tokens().len());
    for l in program {
        let t = p.locate(l.offset).unwrap();
        assert_eq!(l.value, Value::Number(t.value as u64), "{}", l.path);
        assert_eq!(l.link, t.instruction.map(Link::Instruction), "{}", l.path);
    }
    let sample = p.instructions.iter().position(|i| i.info().is_some_and(|o| o.asm == "sample")).unwrap();
    let l = leaf(&sp, &format!("SHEX/instructions[{sample}]/opcode"));
    assert_eq!(l.meaning, "sample");
    let l = leaf(&sp, &format!("SHEX/instructions[{sample}]/operands[2]/token"));
    assert_eq!(l.meaning, "RESOURCE");
}

#[test]
fn failed_chunks_are_undecoded_and_hostile_offsets_still_tile() {
    // An RDEF too short for its header.
    let bytes = write_container(1, &[(*b"RDEF", &[0u8; 10]), (*b"ISGN", &isgn())]);
    let (s, sp) = spans_of(&bytes);
    assert_eq!(s.errors.len(), 1);
    let r = rows(&sp, "RDEF", 0);
    assert_eq!(r, own(&[(40, 4, "fourcc"), (44, 4, "size"), (48, 10, "undecoded")]));
    // A name offset pointing into the element records: the claim overlaps
    // the records, is dropped and reported, and the tiling holds.
    let mut sig = isgn();
    sig[8..12].copy_from_slice(&10u32.to_le_bytes());
    let bytes = write_container(1, &[(*b"ISGN", &sig)]);
    let (s, sp) = spans_of(&bytes);
    assert!(s.errors.is_empty());
    assert_eq!(sp.overlaps, ["ISGN/elements[0]/semantic_name"]);
}

#[test]
fn overlapping_and_repeated_chunks_still_tile() {
    // Three table entries: STAT, the same STAT again, and one pointing into
    // the middle of STAT's payload (whose "header" is two statistics).
    let mut bytes = write_container(1, &[(*b"STAT", &le(&[8; 37])), (*b"XXXX", &[])]);
    let stat_at = u32::from_le_bytes(bytes[0x20..0x24].try_into().unwrap());
    bytes[0x24..0x28].copy_from_slice(&stat_at.to_le_bytes());
    let mut three = bytes[..0x28].to_vec();
    three.extend((stat_at + 16).to_le_bytes());
    three.extend(&bytes[0x28..]);
    three[0x1c] = 3;
    let n = three.len() as u32;
    three[0x18..0x1c].copy_from_slice(&n.to_le_bytes());
    // Chunk offsets moved by the extra table slot.
    for slot in [0x20, 0x24] {
        three[slot..slot + 4].copy_from_slice(&(stat_at + 4).to_le_bytes());
    }
    three[0x28..0x2c].copy_from_slice(&(stat_at + 4 + 16).to_le_bytes());
    let (s, sp) = spans_of(&three);
    assert_eq!(s.container.chunks.len(), 3);
    assert_eq!(leaf(&sp, "STAT/instruction_count").value, Value::Number(8));
    // The repeat claims the same FourCC and size as the first: shared.
    assert!(sp.shared >= 2);
    // The chunk inside STAT's payload: its FourCC and size are two of
    // STAT's fields, a different kind of field on the same bytes.
    let third = r"\x08\x00\x00\x00";
    let want = [format!("{third}/fourcc"), format!("{third}/size"), format!("{third}/payload")];
    assert_eq!(sp.overlaps, want);
}

#[test]
fn unreadable_table_slots_and_cut_chunks_are_named() {
    // Two chunks; the first slot is pointed outside the file, and the last
    // chunk is cut short by 4 bytes (size field unchanged).
    let mut bytes = write_container(1, &[(*b"XXXX", &[7; 8]), (*b"SFI0", &le(&[1, 0]))]);
    bytes[0x20..0x24].copy_from_slice(&0x1000u32.to_le_bytes());
    bytes.truncate(bytes.len() - 4);
    let (s, sp) = spans_of(&bytes);
    assert_eq!(s.container.chunks.len(), 1);
    let slot = leaf(&sp, "chunk_table[0]");
    assert_eq!((slot.value.clone(), slot.meaning.as_ref()), (Value::Number(0x1000), "no readable chunk there"));
    assert_eq!(leaf(&sp, "chunk_table[1]").meaning, "SFI0");
    let size = leaf(&sp, "SFI0/size");
    assert_eq!((size.value.clone(), size.meaning.as_ref()), (Value::Number(8), "cut short: 4 bytes present"));
    // The unlisted chunk's bytes belong to nothing; the cut chunk failed.
    assert_eq!(sp.at(40).unwrap().path, "container/unreferenced");
    assert_eq!(sp.leaves.last().unwrap().path, "SFI0/undecoded");
}
