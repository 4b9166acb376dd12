//! Operands: parsing fxc's spelling (`-|r1.x|`, `cb0[r0.x + 5].xy`,
//! `l(1.0, 2, 0x10, -3)`, `T0[2:5]`, ` {min16f as def32}`) into a small tree,
//! and packing that tree into tokens through the format table.
//!
//! The listing does not print everything the operand token holds, so the
//! parser restores what fxc always chooses: a one-letter suffix is a write
//! mask on destinations and a single-component select on sources, four
//! letters are a mask on destinations and a swizzle on sources, and an
//! operand printed without components takes its register file's usual
//! component count ([`default_components`]).

use super::lookup;
use super::text::{Cursor, Res};
use crate::spec::{self, EnumDef, FieldDef, NumType, OPERAND_TYPE};

/// Component selection of an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comps {
    /// No components (samplers, resources, labels ...).
    Zero,
    /// One component (scalar system values, one-value immediates).
    One,
    /// Four components, write mask (possibly empty).
    Mask(u32),
    /// Four components, swizzle (two bits per selector).
    Swizzle(u32),
    /// Four components, one selected.
    Select(u32),
}

/// One index: an immediate, a relative operand, or both.
#[derive(Clone, Debug)]
pub(crate) struct Index {
    pub imm: u32,
    pub rel: Option<Box<Operand>>,
}

/// A parsed operand.
#[derive(Clone, Debug)]
pub(crate) struct Operand {
    pub ty: u32,
    pub comps: Comps,
    pub index: Vec<Index>,
    pub modifier: u32,
    pub precision: u32,
    pub nonuniform: bool,
    /// Immediate dwords (l(...) and d(...)).
    pub imm: Vec<u32>,
}

/// Sets field `name` of `fields` in `t`.
pub(crate) fn set(t: &mut u32, fields: &[FieldDef], name: &str, v: u32) {
    if let Some(f) = spec::field(fields, name) {
        *t = f.put(*t, v);
    }
}

/// The value named `spec_name` in `e` (0 when the table lacks it).
pub(crate) fn val(e: &EnumDef, spec_name: &str) -> u32 {
    e.from_spec_name(spec_name).unwrap_or(0)
}

/// How many components an operand printed without a suffix has: none for
/// the register files that are not vectors (samplers, resources, UAVs,
/// labels, streams, interfaces); one for the scalar coverage, depth and
/// stencil registers; for the other scalar system values (vPrim, oMask,
/// instance and thread ids) none where they are declared and one where
/// instructions use them; otherwise four with an empty mask.
pub(crate) fn default_components(ty: u32, decl: bool) -> Comps {
    let name = OPERAND_TYPE.get(ty).map_or("", |e| e.spec_name);
    match name {
        "SAMPLER"
        | "RESOURCE"
        | "LABEL"
        | "NULL"
        | "STREAM"
        | "FUNCTION_BODY"
        | "FUNCTION_TABLE"
        | "INTERFACE"
        | "THIS_POINTER"
        | "UNORDERED_ACCESS_VIEW"
        | "THREAD_GROUP_SHARED_MEMORY"
        | "RASTERIZER" => Comps::Zero,
        "INPUT_PRIMITIVEID"
        | "OUTPUT_COVERAGE_MASK"
        | "OUTPUT_CONTROL_POINT_ID"
        | "INPUT_FORK_INSTANCE_ID"
        | "INPUT_JOIN_INSTANCE_ID"
        | "INPUT_GS_INSTANCE_ID"
        | "INPUT_THREAD_ID_IN_GROUP_FLATTENED" => {
            if decl {
                Comps::Zero
            } else {
                Comps::One
            }
        }
        "INPUT_COVERAGE_MASK"
        | "INNER_COVERAGE"
        | "OUTPUT_DEPTH"
        | "OUTPUT_DEPTH_GREATER_EQUAL"
        | "OUTPUT_DEPTH_LESS_EQUAL"
        | "OUTPUT_STENCIL_REF" => Comps::One,
        _ => Comps::Mask(0),
    }
}

/// Where an operand stands: written (mask), read (swizzle / select), or
/// declared (mask; scalar system values without components).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Dst,
    Src,
    Decl,
}

/// Parses one operand whose immediates the printer typed as `ty`.
pub(crate) fn parse(c: &mut Cursor, role: Role, ty: NumType) -> Res<Operand> {
    c.skip_ws();
    let start = c.pos;
    let op = parse_unchecked(c, role, ty)?;
    if op.index.len() > 3 {
        return Err(c.err_at(start, "an operand has at most three indices"));
    }
    Ok(op)
}

/// [`parse`] allowing a fourth bracket (SM5.1 `dcl_constantbuffer
/// CB0[0:0][size]` prints the buffer size as one).
pub(crate) fn parse_unchecked(c: &mut Cursor, role: Role, ty: NumType) -> Res<Operand> {
    c.skip_ws();
    let neg = c.eat("-");
    let abs = c.eat("|");
    let modifier = val(
        &spec::OPERAND_MODIFIER,
        if neg && abs {
            "ABSNEG"
        } else if neg {
            "NEG"
        } else if abs {
            "ABS"
        } else {
            "NONE"
        },
    );
    let name_at = c.pos;
    let name = c.take_while(|ch| ch.is_ascii_alphabetic());
    let mut op = if (name == "l" || name == "d") && c.peek() == Some('(') {
        parse_immediate(c, name == "d", ty)?
    } else {
        let ty = register_type(name).ok_or_else(|| c.err_at(name_at, format!("unknown register `{name}`")))?;
        let mut op = Operand {
            ty,
            comps: Comps::Zero,
            index: Vec::new(),
            modifier: 0,
            precision: 0,
            nonuniform: false,
            imm: Vec::new(),
        };
        if c.depth >= 4 {
            return Err(c.err_at(name_at, "relative indices nest too deeply"));
        }
        c.depth += 1;
        parse_indices(c, &mut op)?;
        c.depth -= 1;
        op.comps =
            parse_components(c, role != Role::Src)?.unwrap_or_else(|| default_components(ty, role == Role::Decl));
        op
    };
    op.modifier = modifier;
    if abs {
        c.expect("|")?;
    }
    parse_annotations(c, &mut op)?;
    Ok(op)
}

/// The register file fxc names `name` (SM5.1 capitals accepted).
fn register_type(name: &str) -> Option<u32> {
    lookup::get().register(name)
}

/// `N`, then any `[...]` groups: `[N]`, `[operand + N]`, or the SM5.1
/// declaration range `[lo:hi]` (`*` for unbounded) which adds two indices.
fn parse_indices(c: &mut Cursor, op: &mut Operand) -> Res<()> {
    if c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
        op.index.push(Index { imm: c.uint()?, rel: None });
    }
    while c.eat("[") {
        if op.index.len() >= 4 {
            return Err(c.err("an operand has at most three indices"));
        }
        c.skip_ws();
        if c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
            let lo = c.uint()?;
            op.index.push(Index { imm: lo, rel: None });
            c.skip_ws();
            if c.eat(":") {
                c.skip_ws();
                let hi = if c.eat("*") { u32::MAX } else { c.uint()? };
                op.index.push(Index { imm: hi, rel: None });
            }
        } else {
            let rel = parse(c, Role::Src, NumType::Int)?;
            c.expect("+")?;
            let imm = c.uint()?;
            op.index.push(Index { imm, rel: Some(Box::new(rel)) });
        }
        c.expect("]")?;
    }
    Ok(())
}

/// `.xyzw`-style suffix, or `None` when there is none.
fn parse_components(c: &mut Cursor, dst: bool) -> Res<Option<Comps>> {
    if c.peek() != Some('.') {
        return Ok(None);
    }
    c.eat(".");
    let at = c.pos;
    let letters = c.take_while(|ch| matches!(ch, 'x' | 'y' | 'z' | 'w'));
    let sel: Vec<u32> = letters
        .bytes()
        .map(|b| match b {
            b'x' => 0,
            b'y' => 1,
            b'z' => 2,
            _ => 3,
        })
        .collect();
    let mask = || {
        let mut m = 0u32;
        for w in sel.windows(2) {
            if w[0] >= w[1] {
                return Err(c.err_at(at, "a write mask names components in order, each once"));
            }
        }
        for &s in &sel {
            m |= 1 << s;
        }
        Ok(Comps::Mask(m))
    };
    match (sel.len(), dst) {
        (0, _) => Err(c.err_at(at, "expected components after `.`")),
        (_, true) => mask().map(Some),
        (1, false) => Ok(Some(Comps::Select(sel[0]))),
        (4, false) => Ok(Some(Comps::Swizzle(sel[0] | sel[1] << 2 | sel[2] << 4 | sel[3] << 6))),
        _ => mask().map(Some),
    }
}

/// ` {min16f}`, ` {min16f as def32}`, ` {nonuniform}` after an operand.
fn parse_annotations(c: &mut Cursor, op: &mut Operand) -> Res<()> {
    loop {
        let save = c.pos;
        c.skip_ws();
        if !c.eat("{") {
            c.pos = save;
            return Ok(());
        }
        let at = c.pos;
        let body = c.take_while(|ch| ch != '}');
        c.expect("}")?;
        if body == "nonuniform" {
            op.nonuniform = true;
            continue;
        }
        let own = body.split(" as ").next().unwrap_or("");
        op.precision = precision(own).ok_or_else(|| c.err_at(at, format!("unknown precision `{own}`")))?;
    }
}

/// A minimum-precision spelling (`def32` is the default, 0).
pub(crate) fn precision(s: &str) -> Option<u32> {
    if s == "def32" {
        Some(0)
    } else {
        spec::MIN_PRECISION.from_asm(s)
    }
}

/// `l(a, b, c, d)` or `d(a, b)`; the name has been read.
fn parse_immediate(c: &mut Cursor, double: bool, ty: NumType) -> Res<Operand> {
    c.expect("(")?;
    let mut imm = Vec::new();
    let mut n = 0;
    loop {
        c.skip_ws();
        let at = c.pos;
        let text = c.take_while(|ch| ch != ',' && ch != ')').trim_end();
        if double {
            let bits = parse_f64(text.strip_suffix('l').unwrap_or(text))
                .ok_or_else(|| c.err_at(at, format!("bad double `{text}`")))?;
            imm.push(bits as u32);
            imm.push((bits >> 32) as u32);
        } else {
            imm.push(parse_number(text, ty, c.exact).ok_or_else(|| c.err_at(at, format!("bad number `{text}`")))?);
        }
        n += 1;
        if c.eat(")") {
            break;
        }
        c.expect(",")?;
        if n >= 4 {
            return Err(c.err("an immediate has one or four values"));
        }
    }
    // A double fills two of the four 32-bit components: `d(a, b)` is a
    // four-component immediate, `d(a)` a scalar one.
    let comps = match (n, double) {
        (1, _) => Comps::One,
        (4, false) | (2, true) => Comps::Mask(0),
        (_, false) => return Err(c.err("an immediate has one or four values")),
        (_, true) => return Err(c.err("a double immediate has one or two values")),
    };
    let l = lookup::get();
    let ty = if double { l.imm64 } else { l.imm32 };
    Ok(Operand { ty, comps, index: Vec::new(), modifier: 0, precision: 0, nonuniform: false, imm })
}

/// One 32-bit value as fxc prints it for type `ty`: `%f` floats (and its
/// spellings of infinities and NaNs), decimal or `0x` hexadecimal integers.
/// Where values are untyped the printer shows zero as `0`, so `0.000000`
/// there stands for a float too small for six decimals; the smallest normal
/// float is one, and prints the same.
/// With `exact` (a listing that prints every float exactly) a float is the
/// one nearest its text.
pub(crate) fn parse_number(text: &str, ty: NumType, exact: bool) -> Option<u32> {
    if ty == NumType::Untyped && text == "0.000000" && !exact {
        return Some(f32::MIN_POSITIVE.to_bits());
    }
    if text.contains('.') || text.contains('#') {
        return super::float::from_text(text, exact).map(f32::to_bits).map(|b| {
            // The NaN payloads fxc prints: 1.#QNAN0 is the positive quiet NaN,
            // -1.#IND00 the negative "indefinite".
            if f32::from_bits(b).is_nan() {
                b & 0xffc0_0000
            } else {
                b
            }
        });
    }
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let v = if let Some(h) = body.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    let v = if neg { -v } else { v };
    if !(i32::MIN as i64..=u32::MAX as i64).contains(&v) {
        return None;
    }
    Some(v as u32)
}

/// A `%f` double, with fxc's `1.#INF00` / `1.#QNAN0` / `-1.#IND00`.
fn parse_f64(text: &str) -> Option<u64> {
    let (neg, v) = super::float::split_text(text)?;
    Some(if neg { (-v).to_bits() } else { v.to_bits() })
}

/// Appends the operand's tokens: token 0, the extended token when a
/// modifier, precision or non-uniform flag is set, immediates, indices.
pub(crate) fn encode(op: &Operand, w: &mut Vec<u32>) {
    let l = lookup::get();
    let (f, v) = (&l.f, &l.v);
    let (count, mode, sel) = match op.comps {
        Comps::Zero => (v.count[0], None, 0),
        Comps::One => (v.count[1], None, 0),
        Comps::Mask(m) => (v.count[2], Some(v.mode[0]), m),
        Comps::Swizzle(s) => (v.count[2], Some(v.mode[1]), s),
        Comps::Select(s) => (v.count[2], Some(v.mode[2]), s),
    };
    let mut t = f.count.put(0, count);
    if let Some(mode) = mode {
        t = f.select.put(f.mode.put(t, mode), sel);
    }
    t = f.ty.put(t, op.ty);
    t = f.dim.put(t, v.dim[op.index.len().min(3)]);
    for (d, idx) in op.index.iter().enumerate().take(3) {
        let rep = match (&idx.rel, idx.imm) {
            (None, _) => v.rep[0],
            (Some(_), 0) => v.rep[1],
            (Some(_), _) => v.rep[2],
        };
        t = f.rep[d].put(t, rep);
    }
    let ext = op.modifier != 0 || op.precision != 0 || op.nonuniform;
    w.push(f.extended.put(t, ext as u32));
    if ext {
        let x = f.ext_type.put(0, v.ext_modifier);
        let x = f.modifier.put(x, op.modifier);
        let x = f.precision.put(x, op.precision);
        w.push(f.nonuniform.put(x, op.nonuniform as u32));
    }
    w.extend_from_slice(&op.imm);
    for idx in op.index.iter().take(3) {
        if idx.rel.is_none() || idx.imm != 0 {
            w.push(idx.imm);
        }
        if let Some(r) = &idx.rel {
            encode(r, w);
        }
    }
}
