//! Instruction lines: the mnemonic with its suffixes and extended-token
//! groups, the precise annotation, and the operands.
//!
//! fxc glues everything that lives in the opcode token or its extended
//! tokens onto the mnemonic: `sample_c_lz_aoffimmi_indexable(1,0,0)
//! (texture2d)(float,float,float,float)`, `resinfo_indexable(...)_uint`,
//! `sync_uglobal_g_t`, `if_nz`, `mad_sat`. The base mnemonic is the longest
//! table mnemonic whose remainder is made of suffixes the opcode allows.

use super::operand::{self, set, val, Role};
use super::text::{Cursor, Res};
use crate::listing::program::operand_num_type;
use crate::spec::{self, opc, FieldDef, NumType, OpClass, OpcodeInfo, OPCODE_COMMON_FIELDS};

/// What the suffixes and groups of a mnemonic set.
#[derive(Default)]
struct Mods {
    test: Option<u32>,
    sat: bool,
    aoffimmi: bool,
    indexable: bool,
    return_type: Option<u32>,
    sync: u32,
    offsets: Option<[i32; 3]>,
    dim: Option<(u32, u32)>,
    ret: Option<[u32; 4]>,
    precise: u32,
}

const SYNC_SUFFIXES: [(&str, &str); 4] = [
    ("_uglobal", "uav memory global"),
    ("_ugroup", "uav memory group"),
    ("_g", "group shared memory"),
    ("_t", "threads in group"),
];
/// The index of `_ugroup` in [`SYNC_SUFFIXES`].
const SYNC_UGROUP: usize = 1;

/// Parses an instruction line (the cursor is at the mnemonic) and appends
/// its tokens.
pub(crate) fn parse(c: &mut Cursor, w: &mut Vec<u32>) -> Res<()> {
    let at = c.pos;
    let word = c.word();
    // Paren groups and suffixes glued after them.
    let mut groups = Vec::new();
    let mut tail = String::new();
    while c.peek() == Some('(') || (c.peek() == Some('_') && !groups.is_empty()) {
        if c.eat("(") {
            let g_at = c.pos;
            let g = c.take_while(|ch| ch != ')');
            c.expect(")")?;
            groups.push((g_at, g));
        } else {
            tail.push_str(c.word());
        }
    }
    let (info, mut m) =
        split_mnemonic(word, &tail).ok_or_else(|| c.err_at(at, format!("unknown instruction `{word}{tail}`")))?;
    for &(g_at, g) in &groups {
        group(c, g_at, g, &mut m)?;
    }
    c.skip_ws();
    if c.eat("[precise") {
        m.precise = if c.eat("(") {
            let mut p = 0;
            for ch in c.take_while(|ch| ch != ')').chars() {
                p |= 1 << "xyzw".find(ch).ok_or_else(|| c.err("expected components in [precise(...)]"))?;
            }
            c.expect(")")?;
            p
        } else {
            0xf
        };
        c.expect("]")?;
    }
    let start = w.len();
    w.push(opcode_token(info, &m));
    push_extended(&m, w);
    if info.code == opc::INTERFACE_CALL {
        fcall(c, w)?;
    } else {
        operands(c, info, w)?;
    }
    c.end()?;
    if fxc_pads(info, &m) {
        w.push(0);
    }
    finish_length(w, start);
    Ok(())
}

/// fxc appends one zero dword (not shown in its listing) to `samplepos` and
/// to the residency-feedback samples (`sample*_s`) on textures that could
/// take texel offsets but have none: observed on every such instruction in
/// the corpus, and on none with offsets or on cube textures.
fn fxc_pads(info: &OpcodeInfo, m: &Mods) -> bool {
    if info.code == opc::SAMPLE_POS {
        return true;
    }
    let offsettable = m.dim.is_some_and(|(d, _)| {
        let name = spec::RESOURCE_DIMENSION.get(d).map_or("", |e| e.spec_name);
        matches!(name, "TEXTURE1D" | "TEXTURE1DARRAY" | "TEXTURE2D" | "TEXTURE2DARRAY" | "TEXTURE3D")
    });
    info.class == OpClass::Resource
        && info.asm.starts_with("sample")
        && info.asm.ends_with("_s")
        && offsettable
        && m.offsets.is_none()
}

/// Writes the instruction length into the opcode token at `start`.
pub(crate) fn finish_length(w: &mut [u32], start: usize) {
    let len = (w.len() - start) as u32;
    set(&mut w[start], OPCODE_COMMON_FIELDS, "instruction length", len);
}

/// The table entry and suffixes of `word` + `tail`.
fn split_mnemonic(word: &str, tail: &str) -> Option<(&'static OpcodeInfo, Mods)> {
    let full = format!("{word}{tail}");
    let mut cut = full.len();
    loop {
        let base = &full[..cut];
        if let Some(info) = super::lookup::get().opcode(base) {
            if matches!(info.class, OpClass::Alu | OpClass::Flow | OpClass::Resource | OpClass::Atomic | OpClass::Phase)
            {
                if let Some(m) = suffixes(info, &full[cut..]) {
                    return Some((info, m));
                }
            }
        }
        cut = full[..cut].rfind('_')?;
    }
}

/// The suffixes `rest` holds, if `info` allows each of them.
fn suffixes(info: &OpcodeInfo, mut rest: &str) -> Option<Mods> {
    let mut m = Mods::default();
    let controls = spec::opcode_controls(info.code);
    let has = |name: &str| spec::field(controls, name).is_some();
    while !rest.is_empty() {
        let mut eat = |s: &str| {
            let ok = !s.is_empty() && rest.starts_with(s) && rest[s.len()..].chars().next().is_none_or(|ch| ch == '_');
            if ok {
                rest = &rest[s.len()..];
            }
            ok
        };
        if let Some(v) = has("test").then(|| spec::TEST_BOOLEAN.values.iter().find(|v| eat(v.asm))).flatten() {
            m.test = Some(v.value);
        } else if has("saturate") && eat("_sat") {
            m.sat = true;
        } else if info.code == opc::SYNC && eat("_sat") {
            // The listing's `_sat` on `sync` is bit 13, the UAV-memory-group
            // flag it then also spells out (`sync_sat_ugroup`).
            m.sync |= 1 << SYNC_UGROUP;
        } else if eat("_aoffimmi") {
            m.aoffimmi = true;
        } else if eat("_indexable") {
            m.indexable = true;
        } else if let Some(v) = has("return type").then(|| return_type_suffix(info, &mut eat)).flatten() {
            m.return_type = Some(v);
        } else if let Some(i) =
            (info.code == opc::SYNC).then(|| SYNC_SUFFIXES.iter().position(|(s, _)| eat(s))).flatten()
        {
            m.sync |= 1 << i;
        } else {
            return None;
        }
    }
    Some(m)
}

fn return_type_suffix(info: &OpcodeInfo, eat: &mut impl FnMut(&str) -> bool) -> Option<u32> {
    let e = if info.code == opc::RESINFO { &spec::RESINFO_RETURN_TYPE } else { &spec::INSTRUCTION_RETURN_TYPE };
    e.values.iter().find(|v| eat(v.asm)).map(|v| v.value)
}

/// One parenthesised group: texel offsets, resource dimension or return types.
fn group(c: &Cursor, at: usize, g: &str, m: &mut Mods) -> Res<()> {
    let parts: Vec<&str> = g.split(',').map(str::trim).collect();
    if m.aoffimmi && m.offsets.is_none() {
        if parts.len() != 3 {
            return Err(c.err_at(at, "expected three texel offsets (u,v,w)"));
        }
        let mut o = [0i32; 3];
        for (k, p) in parts.iter().enumerate() {
            o[k] = p
                .parse()
                .ok()
                .filter(|v| (-8..=7).contains(v))
                .ok_or_else(|| c.err_at(at, format!("bad texel offset `{p}`")))?;
        }
        m.offsets = Some(o);
        return Ok(());
    }
    if let Some(d) = spec::RESOURCE_DIMENSION.from_asm(parts[0]) {
        let stride = match parts.get(1) {
            Some(s) => s
                .strip_prefix("stride=")
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| c.err_at(at, format!("expected `stride=N`, found `{s}`")))?,
            None => 0,
        };
        m.dim = Some((d, stride));
        return Ok(());
    }
    m.ret = Some(return_types(c, at, g)?);
    Ok(())
}

/// `float,float,float,float` (as printed in instructions and declarations).
pub(crate) fn return_types(c: &Cursor, at: usize, g: &str) -> Res<[u32; 4]> {
    let parts: Vec<&str> = g.split(',').map(str::trim).collect();
    if parts.len() != 4 {
        return Err(c.err_at(at, "expected four return types"));
    }
    let mut r = [0u32; 4];
    for (k, p) in parts.iter().enumerate() {
        let name = p.trim_start_matches('<').trim_end_matches('>');
        r[k] = spec::RETURN_TYPE
            .values
            .iter()
            .find(|v| v.asm == name || v.spec_name.eq_ignore_ascii_case(name))
            .map(|v| v.value)
            .ok_or_else(|| c.err_at(at, format!("unknown return type `{p}`")))?;
    }
    Ok(r)
}

fn opcode_token(info: &OpcodeInfo, m: &Mods) -> u32 {
    let mut t = 0;
    set(&mut t, OPCODE_COMMON_FIELDS, "opcode", info.code as u32);
    let f: &[FieldDef] = spec::opcode_controls(info.code);
    if let Some(v) = m.test {
        set(&mut t, f, "test", v);
    }
    set(&mut t, f, "saturate", m.sat as u32);
    set(&mut t, f, "precise mask", m.precise);
    if let Some(v) = m.return_type {
        set(&mut t, f, "return type", v);
    }
    for (i, (_, name)) in SYNC_SUFFIXES.iter().enumerate() {
        if m.sync & (1 << i) != 0 {
            set(&mut t, f, name, 1);
        }
    }
    let ext = m.offsets.is_some() || m.dim.is_some() || m.ret.is_some();
    set(&mut t, OPCODE_COMMON_FIELDS, "extended", ext as u32);
    t
}

/// The extended opcode tokens, in fxc's order: offsets, dimension, types.
fn push_extended(m: &Mods, w: &mut Vec<u32>) {
    use spec::{
        EXTENDED_OPCODE_TYPE as K, EXT_RESOURCE_DIM_FIELDS as D, EXT_RETURN_TYPE_FIELDS as R,
        EXT_SAMPLE_CONTROLS_FIELDS as S,
    };
    let mut toks: Vec<u32> = Vec::new();
    if let Some(o) = m.offsets {
        let mut t = 0;
        set(&mut t, S, "extended opcode type", val(&K, "SAMPLE_CONTROLS"));
        for (name, v) in ["u offset", "v offset", "w offset"].iter().zip(o) {
            set(&mut t, S, name, v as u32);
        }
        toks.push(t);
    }
    if let Some((d, stride)) = m.dim {
        let mut t = 0;
        set(&mut t, D, "extended opcode type", val(&K, "RESOURCE_DIM"));
        set(&mut t, D, "resource dimension", d);
        set(&mut t, D, "structure stride", stride);
        toks.push(t);
    }
    if let Some(r) = m.ret {
        let mut t = 0;
        set(&mut t, R, "extended opcode type", val(&K, "RESOURCE_RETURN_TYPE"));
        for (name, v) in ["return type x", "return type y", "return type z", "return type w"].iter().zip(r) {
            set(&mut t, R, name, v);
        }
        toks.push(t);
    }
    let n = toks.len();
    for (i, mut t) in toks.into_iter().enumerate() {
        // Every field list of an extended opcode token ends in the chain bit.
        set(&mut t, S, "extended", (i + 1 < n) as u32);
        w.push(t);
    }
}

/// Comma-separated operands; the first [`spec::destination_count`] are written.
fn operands(c: &mut Cursor, info: &OpcodeInfo, w: &mut Vec<u32>) -> Res<()> {
    let dsts = spec::destination_count(info);
    let mut n = 0usize;
    c.skip_ws();
    if !c.at_end() {
        loop {
            let role = if n < dsts { Role::Dst } else { Role::Src };
            let op = operand::parse(c, role, operand_num_type(info.code, info.imm, n))?;
            operand::encode(&op, w);
            n += 1;
            c.skip_ws();
            if !c.eat(",") {
                break;
            }
        }
    }
    if info.operands >= 0 && n != info.operands as usize {
        return Err(c.err(format!("`{}` takes {} operands, found {n}", info.asm, info.operands)));
    }
    Ok(())
}

/// `fcall fp0[1][0][2]`: the last index is the call's function index,
/// stored before the interface operand.
fn fcall(c: &mut Cursor, w: &mut Vec<u32>) -> Res<()> {
    let at = c.pos;
    let mut op = operand::parse(c, Role::Src, NumType::Uint)?;
    let call =
        op.index.pop().filter(|i| i.rel.is_none()).ok_or_else(|| c.err_at(at, "expected `fpN[..][..][call]`"))?;
    w.push(call.imm);
    operand::encode(&op, w);
    Ok(())
}
