//! One SM2 line of the level-9 listing back to an [`Sm2Instruction`]: the
//! inverse of `Sm2Program::instruction_text`.
//!
//! `[+ ][(pred) ]mnemonic[controls][_shift][_sat][_pp][_centroid] operands`,
//! where the controls are a comparison (`if_gt`, `break_ne`, `setp_lt`),
//! a texld control glued to the name (`texldp`, `texldb`), a sampler's
//! texture type (`dcl_2d`) or a declaration's usage and index
//! (`dcl_texcoord1`). Every spelling comes from the SM2 tables in
//! [`crate::spec::sm2`].
//!
//! Not printed, so chosen as fxc writes it: the usage token of a `dcl` that
//! prints no usage (ps_2_x inputs) is usage 0, index 0; the component of a
//! relative `aL` is x.

use crate::asm::text::{Cursor, Res};
use crate::chunks::aon9::{ConstValue, DeclToken, DstParam, RelativeAddress, Sm2Instruction, Sm2Version, SrcParam};
use crate::spec::sm2::{
    instruction_token, param_token, version_token, Sm2MinorVersion, Sm2Misctype, Sm2Opcode, Sm2ProgramType, Sm2Rastout,
    Sm2RegisterType as R, CONST_FILE_SIZE, SM2_COMPARISON, SM2_DECL_USAGE, SM2_MINOR_VERSION, SM2_OPCODE,
    SM2_PROGRAM_TYPE, SM2_REGISTER_TYPE, SM2_RESULT_SHIFT, SM2_SOURCE_MODIFIER, SM2_TEXLD_CONTROL, SM2_TEXTURE_TYPE,
};
use crate::spec::EnumDef;

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];
/// Result modifier bits, in the order the printer appends them.
const RESULT_MODIFIERS: [(&str, u8); 3] = [("_sat", 1), ("_pp", 2), ("_centroid", 4)];
/// Source modifier suffixes of the [`SM2_SOURCE_MODIFIER`] templates.
const SOURCE_SUFFIXES: [&str; 6] = ["_bias", "_bx2", "_x2", "_dz", "_dw", "_abs"];

/// `vs_2_0`, `ps_2_x`: the program's version line.
pub(super) fn version(c: &Cursor) -> Res<Sm2Version> {
    let text = c.line.trim();
    let at = c.line.len() - c.line.trim_start().len();
    let bad = || c.err_at(at, format!("expected a level-9 version such as `ps_2_0`, found `{text}`"));
    let mut parts = text.split('_');
    let (stage, major, minor) = (parts.next(), parts.next(), parts.next());
    let (Some(stage), Some(major), Some(minor), None) = (stage, major, minor, parts.next()) else {
        return Err(bad());
    };
    let kind = SM2_PROGRAM_TYPE.from_asm(stage).and_then(Sm2ProgramType::from_u32).ok_or_else(bad)?;
    // The decoder reads SM2 streams from version 2 on.
    let major: u8 = major.parse().ok().filter(|m| (2..=3).contains(m)).ok_or_else(bad)?;
    let minor: u8 = match SM2_MINOR_VERSION.from_asm(minor).and_then(Sm2MinorVersion::from_u32) {
        Some(m) => m as u8,
        None => minor.parse().map_err(|_| bad())?,
    };
    Ok(make_version(kind, major, minor))
}

/// A version token's model.
pub(super) fn make_version(kind: Sm2ProgramType, major: u8, minor: u8) -> Sm2Version {
    let t = version_token::PROGRAM_TYPE.put(0, kind as u32);
    let token = version_token::MINOR.put(version_token::MAJOR.put(t, major.into()), minor.into());
    Sm2Version { offset: 0, token, pixel: kind == Sm2ProgramType::Pixel, major, minor }
}

/// The suffix of `rest` that `table` spells, with what follows it: the
/// longest spelling that `rest` starts with and that ends there or at `_`.
fn suffix<'a>(table: &EnumDef, rest: &'a str) -> Option<(u32, &'a str)> {
    table
        .values
        .iter()
        .filter(|v| !v.asm.is_empty() && rest.starts_with(v.asm))
        .filter(|v| rest[v.asm.len()..].is_empty() || rest[v.asm.len()..].starts_with('_'))
        .max_by_key(|v| v.asm.len())
        .map(|v| (v.value, &rest[v.asm.len()..]))
}

/// The opcode whose spelling starts `word`, and the rest of the word.
fn opcode(word: &str) -> Option<(&'static str, &str)> {
    SM2_OPCODE
        .values
        .iter()
        .filter(|v| word.starts_with(v.asm))
        .filter(|v| {
            let rest = &word[v.asm.len()..];
            let texld = v.value == Sm2Opcode::Tex as u32 && suffix(&SM2_TEXLD_CONTROL, rest).is_some();
            rest.is_empty() || rest.starts_with('_') || texld
        })
        .max_by_key(|v| v.asm.len())
        .map(|v| (v.asm, &word[v.asm.len()..]))
}

/// What the mnemonic says besides the opcode.
#[derive(Default)]
struct Suffixes {
    controls: u8,
    decl: Option<DeclToken>,
    shift: u8,
    modifiers: u8,
    comparison: bool,
}

/// Reads one instruction line (the annotation already cut off).
pub(super) fn instruction(c: &mut Cursor, v: &Sm2Version) -> Res<Sm2Instruction> {
    c.skip_ws();
    let coissue = c.eat("+ ");
    let mut predicate = None;
    if c.eat("(") {
        predicate = Some(src(c, v)?);
        c.expect(")")?;
        c.skip_ws();
    }
    let at = c.pos;
    let word = c.take_while(|ch| !ch.is_whitespace());
    let unknown = |c: &Cursor| c.err_at(at, format!("unknown level-9 instruction `{word}`"));
    let (name, rest) = opcode(word).ok_or_else(|| unknown(c))?;
    let mut s = Suffixes::default();
    let mut rest = rest;
    if name == Sm2Opcode::Tex.row().asm {
        if let Some((v, r)) = suffix(&SM2_TEXLD_CONTROL, rest) {
            (s.controls, rest) = (v as u8, r);
        }
    } else if name == Sm2Opcode::Dcl.row().asm {
        (s.decl, rest) = decl_suffix(rest);
    } else if let Some((v, r)) = suffix(&SM2_COMPARISON, rest) {
        (s.controls, s.comparison, rest) = (v as u8, true, r);
    }
    while !rest.is_empty() {
        if let Some((v, r)) = suffix(&SM2_RESULT_SHIFT, rest) {
            (s.shift, rest) = (v as u8, r);
        } else if let Some(&(m, bit)) = RESULT_MODIFIERS.iter().find(|(m, _)| rest.starts_with(m)) {
            s.modifiers |= bit;
            rest = &rest[m.len()..];
        } else {
            return Err(c.err_at(at + word.len() - rest.len(), format!("unknown suffix `{rest}`")));
        }
    }
    // The operands, comma-separated.
    let mut ops: Vec<Cursor> = Vec::new();
    loop {
        c.skip_ws();
        if c.rest().is_empty() {
            break;
        }
        let start = c.pos;
        let piece = c.take_while(|ch| ch != ',');
        let mut o = Cursor::new(&c.line[..start + piece.trim_end().len()], c.line_no, c.line_start);
        o.pos = start;
        ops.push(o);
        if !c.eat(",") {
            break;
        }
    }
    let op = resolve(name, &s, !ops.is_empty()).ok_or_else(|| unknown(c))?;
    if s.comparison && !matches!(op, Sm2Opcode::Ifc | Sm2Opcode::Breakc | Sm2Opcode::Setp) {
        return Err(c.err_at(at + name.len(), format!("`{}` takes no comparison", op.row().asm)));
    }
    let mut ins = Sm2Instruction {
        offset: 0,
        token: 0,
        opcode: op as u16,
        mnemonic: op.row().asm,
        controls: s.controls,
        length: 0,
        predicated: predicate.is_some(),
        coissue,
        dst: None,
        predicate,
        src: Vec::new(),
        decl: None,
        constant: None,
    };
    operands(c, at, &mut ins, op, ops, v, &s)?;
    // The instruction token's length field bounds the parameter dwords.
    let rel = |r: &Option<RelativeAddress>| usize::from(r.is_some());
    let mut n = usize::from(ins.decl.is_some());
    n += ins.dst.as_ref().map_or(0, |d| 1 + rel(&d.relative));
    n += ins.predicate.iter().chain(&ins.src).map(|p| 1 + rel(&p.relative)).sum::<usize>();
    n += match ins.constant {
        Some(ConstValue::Float { .. } | ConstValue::Int { .. }) => 4,
        Some(ConstValue::Bool { .. }) => 1,
        None => 0,
    };
    let max = instruction_token::LENGTH.mask() >> instruction_token::LENGTH.lo;
    if n as u32 > max {
        return Err(c.err_at(at, format!("{n} parameter dwords do not fit the instruction's length field")));
    }
    ins.length = n as u8;
    Ok(ins)
}

/// `dcl`'s texture type (`_2d`) or usage and index (`_texcoord1`).
fn decl_suffix(rest: &str) -> (Option<DeclToken>, &str) {
    let mut d = DeclToken { offset: 0, token: 0, usage: 0, usage_index: 0, texture_type: 0 };
    if let Some((v, r)) = suffix(&SM2_TEXTURE_TYPE, rest) {
        d.texture_type = v as u8;
        return (Some(d), r);
    }
    if let Some(body) = rest.strip_prefix('_') {
        let name_len = body.find(|ch: char| !ch.is_ascii_alphabetic()).unwrap_or(body.len());
        if let Some(u) = SM2_DECL_USAGE.from_asm(&body[..name_len]) {
            let digits = &body[name_len..];
            let n = digits.find(|ch: char| !ch.is_ascii_digit()).unwrap_or(digits.len());
            let index = digits[..n].parse::<u8>().ok().filter(|&i| i < 16);
            if n == 0 || index.is_some() {
                d.usage = u as u8;
                d.usage_index = index.unwrap_or(0);
                return (Some(d), &digits[n..]);
            }
        }
    }
    (Some(d), rest)
}

/// The opcode among those spelled `name` (`if`/`ifc`, `break`/`breakc`/
/// `breakp`): a comparison picks the compare form, operands without one
/// the predicate form.
fn resolve(name: &str, s: &Suffixes, has_ops: bool) -> Option<Sm2Opcode> {
    let rows: Vec<Sm2Opcode> =
        SM2_OPCODE.values.iter().filter(|v| v.asm == name).filter_map(|v| Sm2Opcode::from_u32(v.value)).collect();
    let pick = |o: Sm2Opcode| rows.contains(&o).then_some(o);
    match rows.as_slice() {
        [one] => Some(*one),
        _ if s.comparison => pick(Sm2Opcode::Ifc).or_else(|| pick(Sm2Opcode::Breakc)),
        _ if has_ops && rows.contains(&Sm2Opcode::Breakp) => Some(Sm2Opcode::Breakp),
        _ => rows.iter().copied().find(|o| !matches!(o, Sm2Opcode::Ifc | Sm2Opcode::Breakc | Sm2Opcode::Breakp)),
    }
}

fn operands(
    c: &Cursor,
    at: usize,
    ins: &mut Sm2Instruction,
    op: Sm2Opcode,
    ops: Vec<Cursor>,
    v: &Sm2Version,
    s: &Suffixes,
) -> Res<()> {
    let mut ops = ops.into_iter();
    let count = |n: usize| c.err_at(at, format!("`{}` takes {n} operands", op.row().asm));
    if op.has_dst() {
        let mut o = ops.next().ok_or_else(|| count(1))?;
        let mut d = dst(&mut o, v)?;
        o.end()?;
        d.result_modifier = s.modifiers;
        d.shift = ((s.shift << 4) as i8) >> 4;
        ins.dst = Some(d);
    } else if s.modifiers != 0 || s.shift != 0 {
        return Err(c.err_at(at, format!("`{}` has no destination to modify", op.row().asm)));
    }
    match op {
        Sm2Opcode::Dcl => ins.decl = s.decl.clone(),
        Sm2Opcode::Def | Sm2Opcode::Defi => {
            let mut bits = [0u32; 4];
            for b in &mut bits {
                let o = ops.next().ok_or_else(|| count(5))?;
                let text = o.rest();
                *b = if op == Sm2Opcode::Def { float(text) } else { text.parse::<i32>().ok().map(|i| i as u32) }
                    .ok_or_else(|| o.err(format!("bad constant `{text}`")))?;
            }
            ins.constant = Some(if op == Sm2Opcode::Def {
                ConstValue::Float { offset: 0, values: bits.map(f32::from_bits), bits }
            } else {
                ConstValue::Int { offset: 0, values: bits.map(|b| b as i32) }
            });
        }
        Sm2Opcode::Defb => {
            let o = ops.next().ok_or_else(|| count(2))?;
            let value = match o.rest() {
                "true" => 1,
                "false" => 0,
                t => return Err(o.err(format!("expected `true` or `false`, found `{t}`"))),
            };
            ins.constant = Some(ConstValue::Bool { offset: 0, value });
        }
        _ => {
            for mut o in ops.by_ref() {
                let p = src(&mut o, v)?;
                o.end()?;
                ins.src.push(p);
            }
        }
    }
    if let Some(o) = ops.next() {
        return Err(o.err("one operand too many"));
    }
    Ok(())
}

/// A `def` value as `%.9g` printed it (Microsoft's spellings of the
/// specials included).
fn float(t: &str) -> Option<u32> {
    Some(match t {
        "1.#INF" => f32::INFINITY.to_bits(),
        "-1.#INF" => f32::NEG_INFINITY.to_bits(),
        "1.#QNAN" => 0x7fc0_0000,
        "-1.#IND" => 0xffc0_0000,
        _ => t.parse::<f32>().ok()?.to_bits(),
    })
}

/// A register name: the inverse of `Sm2Program::register_name`.
fn register(c: &mut Cursor, v: &Sm2Version) -> Res<(u8, u16)> {
    let at = c.pos;
    let name = c.take_while(|ch| ch.is_ascii_alphanumeric());
    let split = name.find(|ch: char| ch.is_ascii_digit()).unwrap_or(name.len());
    let (prefix, digits) = name.split_at(split);
    let bad = || c.err_at(at, format!("unknown level-9 register `{name}`"));
    if digits.is_empty() {
        let named = |ty: R, n: u32| Some((ty as u8, n as u16));
        let found = match prefix {
            _ if prefix == R::Depthout.row().asm => named(R::Depthout, 0),
            _ if prefix == R::Loop.row().asm => named(R::Loop, 0),
            _ => crate::spec::sm2::SM2_RASTOUT
                .from_asm(prefix)
                .and_then(Sm2Rastout::from_u32)
                .and_then(|r| named(R::Rastout, r as u32))
                .or_else(|| {
                    crate::spec::sm2::SM2_MISCTYPE
                        .from_asm(prefix)
                        .and_then(Sm2Misctype::from_u32)
                        .and_then(|m| named(R::Misctype, m as u32))
                }),
        };
        return found.ok_or_else(bad);
    }
    let n: u32 = digits.parse().map_err(|_| bad())?;
    let (ty, n) = match prefix {
        "t" if v.pixel => (R::Addr, n),
        "o" => (R::Output, n),
        "c" => {
            let files = [R::Const, R::Const2, R::Const3, R::Const4];
            let file = files.get((n / CONST_FILE_SIZE) as usize).ok_or_else(bad)?;
            (*file, n % CONST_FILE_SIZE)
        }
        _ => {
            let ty = SM2_REGISTER_TYPE.from_asm(prefix).and_then(R::from_u32).ok_or_else(bad)?;
            (ty, n)
        }
    };
    if param_token::NUMBER.get(param_token::NUMBER.put(0, n)) != n {
        return Err(c.err_at(at, format!("register number {n} does not fit")));
    }
    Ok((ty as u8, n as u16))
}

/// `[a0.x]` or `[aL]` after a register, if present.
fn relative(c: &mut Cursor, v: &Sm2Version) -> Res<Option<RelativeAddress>> {
    if !c.eat("[") {
        return Ok(None);
    }
    if v.pixel && v.major < 3 {
        // ps_2_x has no address token to hold it.
        return Err(c.err_at(c.pos - 1, "no relative addressing below ps_3_0"));
    }
    let (register_type, number) = register(c, v)?;
    let mut component = 0;
    if c.eat(".") {
        let at = c.pos;
        let letter = c.take_while(|ch| ch.is_ascii_alphabetic());
        component = letter
            .chars()
            .next()
            .and_then(|l| COMPONENTS.iter().position(|&x| x == l))
            .filter(|_| letter.len() == 1)
            .ok_or_else(|| c.err_at(at, format!("bad component `{letter}`")))? as u8;
    }
    c.expect("]")?;
    Ok(Some(RelativeAddress { offset: 0, token: 0, register_type, number, component }))
}

/// `.xyzw`-style letters after a `.`, as component indices.
fn letters(c: &mut Cursor) -> Res<Vec<u8>> {
    let at = c.pos;
    let s = c.take_while(|ch| ch.is_ascii_alphabetic());
    let v: Option<Vec<u8>> = s.chars().map(|l| COMPONENTS.iter().position(|&x| x == l).map(|i| i as u8)).collect();
    v.filter(|v| (1..=4).contains(&v.len())).ok_or_else(|| c.err_at(at, format!("bad components `{s}`")))
}

fn dst(c: &mut Cursor, v: &Sm2Version) -> Res<DstParam> {
    let (register_type, number) = register(c, v)?;
    let relative = relative(c, v)?;
    let mut write_mask = 0xF;
    if c.eat(".") {
        write_mask = letters(c)?.iter().fold(0, |m, &i| m | 1 << i);
    }
    Ok(DstParam { offset: 0, token: 0, register_type, number, write_mask, result_modifier: 0, shift: 0, relative })
}

fn src(c: &mut Cursor, v: &Sm2Version) -> Res<SrcParam> {
    let at = c.pos;
    let prefix = ["1 - ", "-", "!"].into_iter().find(|p| c.eat(p)).unwrap_or("");
    let (register_type, number) = register(c, v)?;
    let relative = relative(c, v)?;
    let suffix = SOURCE_SUFFIXES.into_iter().find(|s| c.eat(s)).unwrap_or("");
    let template = format!("{prefix}#{suffix}");
    let modifier = SM2_SOURCE_MODIFIER
        .from_asm(&template)
        .ok_or_else(|| c.err_at(at, format!("unknown source modifier `{template}`")))? as u8;
    let mut swizzle = 0xE4;
    if c.eat(".") {
        // One letter replicates; fewer than four repeat the last.
        let l = letters(c)?;
        swizzle = (0..4).fold(0u8, |s, i| s | l[i.min(l.len() - 1)] << (2 * i));
    }
    Ok(SrcParam { offset: 0, token: 0, register_type, number, swizzle, modifier, relative })
}
