//! The program part of fxc's listing: the profile line, declarations and
//! instructions, and the instruction-slot trailer.
//!
//! fxc's conventions reproduced here: control-flow bodies indent two spaces
//! per level; immediates are printed by the instruction's operand type
//! (floats `%f`, integers in decimal up to a threshold and hex beyond it,
//! untyped copies guessing each component); swizzles print all four
//! components, masks only the written ones; resource instructions carry
//! their extended tokens as `_aoffimmi(u,v,w)`, `_indexable(dim)(types)`.
//!
//! `legacy` selects the spelling of fxc releases before 10.0 (the June 2010
//! SDK and Windows 8 compilers): `dcl_constantbuffer cb0[4]` in lower case
//! and a trailing space after `dcl_resource_structured`.

use crate::program::message::Message;
use crate::program::{Instruction, Operand, Program, NO_OPERAND};
use crate::spec::{
    self, opc, CustomdataClass, ExtendedOpcodeType, NumType, OpClass, OperandModifier, OperandType, ResourceDimension,
    ReturnType, SelectionMode, Word,
};
use std::fmt::Write;

const COMP: [char; 4] = ['x', 'y', 'z', 'w'];

/// Names of the per-component return-type fields in the format table.
const RETURN_TYPE_NAMES: [&str; 4] = ["return type x", "return type y", "return type z", "return type w"];

/// Printing context: shader model 5.1 naming and the fxc dialect.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ctx {
    /// SM5.1: resource ranges, capitalised register names.
    pub sm51: bool,
    /// Spell as fxc releases before 10.0 did.
    pub legacy: bool,
    /// Round a float that lies exactly halfway between two six-decimal
    /// spellings away from zero, as the older C runtimes did (fxc 9.x,
    /// Durango); fxc 10 rounds it to even.
    pub ties_away: bool,
    /// Print floats exactly ([`super::Dialect::Exact`]).
    pub exact: bool,
}

impl Ctx {
    /// The modern (fxc 10) spelling for `p`'s shader model.
    pub fn modern(p: &Program) -> Ctx {
        Ctx { sm51: p.version.is_sm51(), legacy: false, ties_away: false, exact: false }
    }
}

/// Writes the program listing (from the profile line to the last
/// instruction) into `out`, one instruction per line.
pub fn write_program(p: &Program, legacy: bool, ties_away: bool, out: &mut String) {
    write_program_annotated(p, legacy, ties_away, None, out)
}

/// [`write_program`] with the debug information of a `/Zi` shader
/// interleaved (see [`super::debug`]).
pub fn write_program_annotated(
    p: &Program,
    legacy: bool,
    ties_away: bool,
    debug: Option<&super::debug::Annotations>,
    out: &mut String,
) {
    let cx = Ctx { sm51: p.version.is_sm51(), legacy, ties_away: ties_away || legacy, exact: false };
    write_program_marked(p, cx, debug, out, &mut ());
}

/// Where a printing notes each instruction's text. Generic rather than an
/// `Option` so that the plain listing compiles to the loop without marks.
pub(crate) trait Marks {
    /// The instruction's line starts at `start` (after its debug lines,
    /// before its indentation) and its own text ends at `end`.
    fn mark(&mut self, start: usize, end: usize);
}

impl Marks for () {
    #[inline(always)]
    fn mark(&mut self, _: usize, _: usize) {}
}

impl Marks for Vec<(usize, usize)> {
    fn mark(&mut self, start: usize, end: usize) {
        self.push((start, end));
    }
}

/// [`write_program_annotated`], noting in `marks` the byte offsets in
/// `out` of each instruction (see [`Marks`]).
pub(crate) fn write_program_marked<M: Marks>(
    p: &Program,
    cx: Ctx,
    debug: Option<&super::debug::Annotations>,
    out: &mut String,
    marks: &mut M,
) {
    p.version.push_profile(out);
    out.push('\n');
    let mut indent: usize = 0;
    for (k, ins) in p.instructions.iter().enumerate() {
        let code = ins.opcode();
        if let Some(d) = debug.and_then(|d| d.before.get(k)) {
            out.push_str(d);
        }
        if matches!(code, opc::ELSE | opc::ENDIF | opc::ENDLOOP | opc::ENDSWITCH) {
            indent = indent.saturating_sub(1);
        }
        let start = out.len();
        for _ in 0..indent.min(64) {
            out.push_str("  ");
        }
        write_instruction(p, ins, cx, out);
        marks.mark(start, out.len());
        if let Some(d) = debug.and_then(|d| d.after.get(k)) {
            out.push_str(d);
        }
        out.push('\n');
        if matches!(code, opc::IF | opc::ELSE | opc::LOOP | opc::SWITCH) {
            indent += 1;
        }
    }
}

/// Writes one instruction without indentation or newline.
pub fn write_instruction(p: &Program, ins: &Instruction, cx: Ctx, out: &mut String) {
    let code = ins.opcode();
    if ins.is_customdata() {
        write_customdata(p, ins, cx, out);
        return;
    }
    let Some(info) = ins.info() else {
        let _ = write!(out, "unknown_opcode_{code}");
        return;
    };
    let t = ins.token;
    let ctl = |name: &str| spec::control(code, name, t);
    match info.class {
        OpClass::Decl => return write_declaration(p, ins, info, cx, out),
        OpClass::Phase => {
            out.push_str(info.asm);
            out.push(' ');
            return;
        }
        _ => {}
    }
    out.push_str(info.asm);
    // Opcode-specific suffixes; fxc prints them after the extended-token parts.
    let mut suffix = String::new();
    let out_main = out;
    let out = &mut suffix;
    match code {
        opc::RESINFO => out.push_str(spec::RESINFO_RETURN_TYPE.asm(ctl("return type")).unwrap_or("")),
        opc::SAMPLE_INFO | opc::SAMPLE_POS => {
            out.push_str(spec::INSTRUCTION_RETURN_TYPE.asm(ctl("return type")).unwrap_or(""))
        }
        opc::SYNC => {
            if ctl("uav memory global") != 0 {
                out.push_str("_uglobal");
            }
            if ctl("uav memory group") != 0 {
                out.push_str("_ugroup");
            }
            if ctl("group shared memory") != 0 {
                out.push_str("_g");
            }
            if ctl("threads in group") != 0 {
                out.push_str("_t");
            }
        }
        _ => {}
    }
    let out = out_main;
    if spec::opcode_controls(code).as_ptr() == spec::TEST_CONTROLS.as_ptr() {
        out.push_str(if spec::alu_control::TEST.get(t) != 0 { "_nz" } else { "_z" });
    }
    // Bit 13 is the saturate bit of arithmetic and resource opcodes, and
    // `sync`'s "UAV memory group" flag. Microsoft's disassembler prints
    // `_sat` for that bit on `sync` as well (`sync_sat_ugroup_g_t`), before
    // the flags spelled out above.
    let sync_group = code == opc::SYNC && ctl("uav memory group") != 0;
    if (matches!(info.class, OpClass::Alu | OpClass::Resource | OpClass::Atomic)
        && spec::alu_control::SATURATE.get(t) != 0)
        || sync_group
    {
        out.push_str("_sat");
    }
    // Extended opcode tokens.
    let ext = ins.ext(p);
    let kind = |k: ExtendedOpcodeType| ext.iter().find(move |&&e| spec::EXT_OTHER_FIELDS[0].get(e) == k as u32);
    let sample = kind(ExtendedOpcodeType::SampleControls);
    let dim = kind(ExtendedOpcodeType::ResourceDim);
    let ret = kind(ExtendedOpcodeType::ResourceReturnType);
    if sample.is_some() {
        out.push_str("_aoffimmi");
    }
    if dim.is_some() {
        out.push_str("_indexable");
    }
    if let Some(&s) = sample {
        // 4-bit two's complement offsets.
        let sx = |name: &str| ((spec::field_value(spec::EXT_SAMPLE_CONTROLS_FIELDS, name, s) << 28) as i32) >> 28;
        let _ = write!(out, "({},{},{})", sx("u offset"), sx("v offset"), sx("w offset"));
    }
    if let Some(&d) = dim {
        let dv = spec::field_value(spec::EXT_RESOURCE_DIM_FIELDS, "resource dimension", d);
        let _ = write!(out, "({}", spec::RESOURCE_DIMENSION.asm(dv).unwrap_or("unknown"));
        if dv == ResourceDimension::StructuredBuffer as u32 {
            let _ = write!(out, ", stride={}", spec::field_value(spec::EXT_RESOURCE_DIM_FIELDS, "structure stride", d));
        }
        out.push(')');
    }
    if let Some(&r) = ret {
        out.push('(');
        for (c, name) in RETURN_TYPE_NAMES.iter().enumerate() {
            if c > 0 {
                out.push(',');
            }
            out.push_str(return_type_name(spec::field_value(spec::EXT_RETURN_TYPE_FIELDS, name, r)));
        }
        out.push(')');
    }
    out.push_str(&suffix);
    let precise = spec::alu_control::PRECISE_MASK.get(t);
    if precise != 0 && matches!(info.class, OpClass::Alu | OpClass::Resource | OpClass::Atomic) {
        if precise == 0xf {
            out.push_str(" [precise]");
        } else {
            out.push_str(" [precise(");
            for (c, ch) in COMP.iter().enumerate() {
                if precise & (1 << c) != 0 {
                    out.push(*ch);
                }
            }
            out.push_str(")]");
        }
    }
    let ops = ins.ops.as_slice();
    if code == opc::INTERFACE_CALL {
        // fcall fp0[0][0] ... the function index is shown as the second operand index? fxc prints
        // the interface operand with the call index appended.
        out.push(' ');
        if let Some(&id) = ops.first() {
            write_operand(p, &p.operands[id as usize], NumType::Uint, cx, out);
        }
        let idx = ins.payload(p).first().map_or(0, |x| x.value);
        let _ = write!(out, "[{idx}]");
        return;
    }
    if ops.is_empty() {
        if code != opc::SYNC {
            out.push(' ');
        }
        return;
    }
    let ty = info.imm;
    let dst_prec = ops.first().map_or(0, |&id| p.operands[id as usize].min_precision(p));
    for (i, &id) in ops.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        let op = &p.operands[id as usize];
        let oty = operand_num_type(code, ty, i);
        write_operand(p, op, oty, cx, out);
        write_precision(p, op, i, dst_prec, code, out);
    }
}

/// The numeric type used for immediates in operand `i` of `code`.
pub(crate) fn operand_num_type(code: u16, ty: NumType, i: usize) -> NumType {
    use spec::opc::*;
    match code {
        // Coordinates and offsets of loads are integers; lod/bias/reference are floats.
        LD | LD_MS | RESINFO | SAMPLE_POS | SAMPLE_INFO | BUFINFO => NumType::Int,
        // fxc types every source of the programmable-offset gathers as integers.
        GATHER4_PO | GATHER4_PO_C => NumType::Int,
        MOVC => {
            if i == 1 {
                NumType::Uint
            } else {
                NumType::Untyped
            }
        }
        _ => ty,
    }
}

fn write_precision(p: &Program, op: &Operand, i: usize, dst_prec: u32, code: u16, out: &mut String) {
    let prec = op.min_precision(p);
    let name = |v: u32| {
        if v == 0 {
            "def32"
        } else {
            spec::MIN_PRECISION.asm(v).unwrap_or("?")
        }
    };
    // Precisions differ rarely: the opcode's table is consulted only then.
    if prec != dst_prec && i > 0 && !(code == opc::MOVC && i == 1) && same_type_op(code) {
        let _ = write!(out, " {{{} as {}}}", name(prec), name(dst_prec));
    } else if prec != 0 {
        let _ = write!(out, " {{{}}}", name(prec));
    }
    if op.non_uniform(p) {
        out.push_str(" {nonuniform}");
    }
}

/// Ops whose sources have the destination's type (so differing
/// precisions print as "P as D").
fn same_type_op(code: u16) -> bool {
    use opc::*;
    let Some(info) = spec::opcode(code as u32) else {
        return false;
    };
    // Conversions and comparisons read another type than they write.
    info.class == OpClass::Alu
        && !matches!(
            code,
            FTOI | FTOU
                | ITOF
                | UTOF
                | F32TOF16
                | F16TOF32
                | DTOF
                | FTOD
                | EQ
                | NE
                | LT
                | GE
                | IEQ
                | INE
                | ILT
                | IGE
                | ULT
                | UGE
                | DEQ
                | DNE
                | DLT
                | DGE
                | DTOI
                | DTOU
                | ITOD
                | UTOD
        )
}

/// `(float,float,float,float)` from a resource return-type token.
fn write_return_types(token: u32, out: &mut String) {
    out.push('(');
    for (c, name) in RETURN_TYPE_NAMES.iter().enumerate() {
        if c > 0 {
            out.push(',');
        }
        out.push_str(return_type_name(spec::field_value(spec::RETURN_TYPE_TOKEN_FIELDS, name, token)));
    }
    out.push(')');
}

fn return_type_name(v: u32) -> &'static str {
    match ReturnType::from_u32(v) {
        Some(ReturnType::Continued) => "<continued>",
        Some(ReturnType::Unused) => "<unused>",
        _ => spec::RETURN_TYPE.asm(v).filter(|s| !s.is_empty()).unwrap_or("<unknown>"),
    }
}

/// Writes one operand with modifiers, indices and component selection.
pub fn write_operand(p: &Program, op: &Operand, ty: NumType, cx: Ctx, out: &mut String) {
    let m = OperandModifier::from_u32(op.modifier(p));
    match m {
        Some(OperandModifier::Neg) => out.push('-'),
        Some(OperandModifier::Abs) => out.push('|'),
        Some(OperandModifier::Absneg) => out.push_str("-|"),
        _ => {}
    }
    write_register(p, op, ty, cx, out);
    if matches!(m, Some(OperandModifier::Abs | OperandModifier::Absneg)) {
        out.push('|');
    }
}

fn write_register(p: &Program, op: &Operand, ty: NumType, cx: Ctx, out: &mut String) {
    use OperandType as T;
    let t = op.ty();
    let typed = op.operand_type();
    if matches!(typed, Some(T::Immediate32 | T::Immediate64)) {
        write_immediate(p, op, ty, cx, out);
        return;
    }
    let name = spec::OPERAND_TYPE.asm(t).unwrap_or("?");
    // SM5.1 resource ranges are named in capitals (CB0[0][3], T1[2]).
    if cx.sm51 && matches!(typed, Some(T::Sampler | T::Resource | T::ConstantBuffer | T::UnorderedAccessView)) {
        out.extend(name.chars().map(|c| c.to_ascii_uppercase()));
    } else {
        out.push_str(name);
    }
    let dims = op.index_dim();
    let bracket_all = matches!(
        typed,
        Some(T::ImmediateConstantBuffer | T::InputControlPoint | T::OutputControlPoint | T::ThisPointer)
    ) || (typed == Some(T::Input) && dims == 2);
    for d in 0..dims {
        let idx = &op.index[d];
        let pure_imm = idx.rel == NO_OPERAND;
        if d == 0 && pure_imm && !bracket_all {
            super::push_decimal(out, idx.imm);
        } else {
            out.push('[');
            write_index(p, op, d, cx, out);
            out.push(']');
        }
    }
    write_components(op, out);
}

fn write_index(p: &Program, op: &Operand, d: usize, cx: Ctx, out: &mut String) {
    let idx = &op.index[d];
    if idx.rel == NO_OPERAND {
        super::push_decimal(out, idx.imm);
        return;
    }
    let r = &p.operands[idx.rel as usize];
    write_operand(p, r, NumType::Int, cx, out);
    out.push_str(" + ");
    super::push_decimal(out, idx.imm);
}

fn write_components(op: &Operand, out: &mut String) {
    if op.num_components() != 2 {
        return;
    }
    match op.selection() {
        Some(SelectionMode::MaskMode) => {
            let m = op.mask();
            if m != 0 {
                out.push('.');
                for (c, ch) in COMP.iter().enumerate() {
                    if m & (1 << c) != 0 {
                        out.push(*ch);
                    }
                }
            }
        }
        Some(SelectionMode::SwizzleMode) => {
            out.push('.');
            for s in op.swizzle() {
                out.push(COMP[s as usize]);
            }
        }
        Some(SelectionMode::Select1Mode) => {
            out.push('.');
            out.push(COMP[op.select1() as usize]);
        }
        _ => {}
    }
}

fn write_immediate(p: &Program, op: &Operand, ty: NumType, cx: Ctx, out: &mut String) {
    let v = op.imm(p);
    if op.operand_type() == Some(OperandType::Immediate64) {
        out.push_str("d(");
        for (i, pair) in v.chunks(2).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let bits = if pair.len() == 2 { (pair[0] as u64) | ((pair[1] as u64) << 32) } else { pair[0] as u64 };
            write_double(f64::from_bits(bits), out);
            out.push('l');
        }
        out.push(')');
        return;
    }
    out.push_str("l(");
    for (i, &x) in v.iter().enumerate() {
        if i > 0 {
            out.push_str(if ty == NumType::Untyped { "," } else { ", " });
        }
        write_number(x, ty, cx, out);
    }
    out.push(')');
}

/// Writes one 32-bit immediate the way fxc does for the given type.
pub fn write_number(x: u32, ty: NumType, cx: Ctx, out: &mut String) {
    let float = |out: &mut String| write_float_in(f32::from_bits(x), cx, out);
    match ty {
        NumType::Float | NumType::Double => float(out),
        NumType::Int | NumType::Uint | NumType::None => write_int(x, out),
        NumType::Untyped => {
            if looks_like_float(x) {
                float(out)
            } else {
                write_int(x, out)
            }
        }
    }
}

fn looks_like_float(x: u32) -> bool {
    let exp = (x >> 23) & 0xff;
    // Small integers and masks print as integers; normal floats as floats.
    x == 0x8000_0000
        || (exp != 0 && exp != 0xff && (x & 0x7fff_ffff) >= 0x0080_0000 && !(x as i32 >= -10000 && (x as i32) <= 10000))
}

fn write_int(x: u32, out: &mut String) {
    let s = x as i32;
    if (-10000..=10000).contains(&s) {
        if s < 0 {
            out.push('-');
        }
        super::push_decimal(out, s.unsigned_abs() as u64);
    } else {
        out.push_str("0x");
        super::push_hex8(out, x);
    }
}

/// `%f` as fxc 10 prints it, including its spellings of infinities and
/// NaNs. A float is an exact binary fraction, so its decimal expansion is
/// finite and a value can lie exactly halfway between two six-decimal
/// spellings (1/128 = 0.0078125). fxc 10's C runtime rounds such a tie to
/// the even digit, as IEEE 754 asks (`l(0.007812)`), as Rust's formatting
/// does.
pub fn write_float(f: f32, out: &mut String) {
    write_float_rounded(f, false, out);
}

/// A float in the dialect of `cx`.
fn write_float_in(f: f32, cx: Ctx, out: &mut String) {
    if cx.exact {
        return write_float_exact(f, out);
    }
    match (cx.legacy, cx.ties_away) {
        (true, _) => write_float_legacy(f, out),
        (false, true) => write_float_ties_away(f, out),
        (false, false) => write_float(f, out),
    }
}

/// A float as 3Dmigoto's listings print it ([`super::Dialect::Exact`]):
/// `%f` when its six decimals read back as the same float (`l(4.008016)`
/// for 4.00801611), else nine significant digits, enough for any float, in
/// the same fixed notation (`l(3.14159274)`, `l(-0.499992371)`,
/// `l(0.000976562500)`).
pub fn write_float_exact(f: f32, out: &mut String) {
    let start = out.len();
    write_float(f, out);
    if !f.is_finite() || out[start..].parse::<f32>().is_ok_and(|g| g.to_bits() == f.to_bits()) {
        return;
    }
    out.truncate(start);
    // Decimals for nine significant digits, found in the exact expansion
    // (a float's is finite; 60 decimals reach below the smallest); one
    // fewer when rounding carries into a new digit (9.999999999 -> 10.0000000).
    let mut probe = String::with_capacity(112);
    let _ = write!(probe, "{:.60}", (f as f64).abs());
    let (int, frac) = probe.split_once('.').unwrap_or((&probe, ""));
    let int_digits = int.trim_start_matches('0').len();
    let mut decimals = if int_digits == 0 {
        frac.bytes().take_while(|&b| b == b'0').count() + 9
    } else {
        9usize.saturating_sub(int_digits)
    };
    let _ = write!(out, "{:.*}", decimals, f as f64);
    let digits = out[start..].bytes().skip_while(|b| !matches!(b, b'1'..=b'9')).filter(u8::is_ascii_digit).count();
    if digits > 9 && decimals > 0 {
        out.truncate(start);
        decimals -= 1;
        let _ = write!(out, "{:.*}", decimals, f as f64);
    }
}

/// `%f` as the C runtime of the fxc 9.x compilers printed it: a tie at the
/// sixth decimal rounds away from zero (`l(0.007813)`).
pub fn write_float_ties_away(f: f32, out: &mut String) {
    write_float_rounded(f, true, out);
}

fn write_float_rounded(f: f32, ties_away: bool, out: &mut String) {
    if f.is_nan() {
        out.push_str(if f.is_sign_negative() { "-1.#IND00" } else { "1.#QNAN0" });
    } else if f.is_infinite() {
        out.push_str(if f < 0.0 { "-1.#INF00" } else { "1.#INF00" });
    } else {
        // f32 * 1e6 is exact in f64 (a 24-bit significand times 15625 · 2^6
        // needs 38 bits), so the value in millionths is known exactly, and
        // so is a tie at the sixth decimal. Below 2^53 millionths it rounds
        // to an exact integer, printed digit by digit: the same text as
        // `{:.6}` (ties to even), without its general exact-decimal
        // machinery, which is most of a listing's float time.
        let x = f as f64;
        let y = x * 1e6;
        if y.abs() < 9.0e15 {
            let r = if ties_away && y.fract().abs() == 0.5 { y.abs().trunc() + 1.0 } else { y.abs().round_ties_even() };
            if f.is_sign_negative() {
                out.push('-');
            }
            write_millionths(r as u64, out);
        } else {
            let _ = write!(out, "{x:.6}");
        }
    }
}

/// `n` millionths as `int.ffffff`.
fn write_millionths(n: u64, out: &mut String) {
    super::push_decimal(out, n / 1_000_000);
    out.push('.');
    let frac = n % 1_000_000;
    let mut digits = [b'0'; 6];
    let mut rest = frac;
    for d in digits.iter_mut().rev() {
        *d = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    out.extend(digits.iter().map(|&d| d as char));
}

/// `%f` as the C runtime of fxc before 10.0 printed it: at most 17
/// significant digits, the rest of the integer part filled with zeros, and
/// ties at the sixth decimal rounded away from zero.
pub fn write_float_legacy(f: f32, out: &mut String) {
    let start = out.len();
    write_float_ties_away(f, out);
    let s = &out[start..];
    let neg = s.starts_with('-');
    let body = if neg { &s[1..] } else { s };
    // Only integer parts over 17 digits change (nearly every value stops here).
    if body.len() <= 18 {
        return;
    }
    let Some(dot) = body.find('.') else { return };
    if dot <= 17 || !body.as_bytes()[0].is_ascii_digit() {
        return;
    }
    // Round the integer digits to 17 significant ones.
    let digits: Vec<u8> = body[..dot].bytes().map(|b| b - b'0').collect();
    let mut kept: Vec<u8> = digits[..17].to_vec();
    let rest = &digits[17..];
    let round_up = rest[0] > 5
        || (rest[0] == 5 && rest[1..].iter().any(|&d| d != 0))
        || (rest[0] == 5 && rest[1..].iter().all(|&d| d == 0));
    if round_up {
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, 1);
                break;
            }
            i -= 1;
            if kept[i] == 9 {
                kept[i] = 0;
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    let mut t = String::new();
    if neg {
        t.push('-');
    }
    for d in &kept {
        t.push((b'0' + d) as char);
    }
    for _ in 0..digits.len() + (kept.len() - 17) - kept.len() {
        t.push('0');
    }
    t.push_str(".000000");
    out.truncate(start);
    out.push_str(&t);
}

fn write_double(f: f64, out: &mut String) {
    if f.is_nan() {
        out.push_str(if f.is_sign_negative() { "-1.#IND00" } else { "1.#QNAN0" });
    } else if f.is_infinite() {
        out.push_str(if f < 0.0 { "-1.#INF00" } else { "1.#INF00" });
    } else {
        let _ = write!(out, "{f:.6}");
    }
}

fn write_customdata(p: &Program, ins: &Instruction, cx: Ctx, out: &mut String) {
    let class = ins.customdata_class();
    let payload = ins.payload(p);
    let data: Vec<u32> = payload.iter().map(|x| x.value).collect();
    // A shader message (`printf`/`errorf`), when the block is one and well formed.
    let message = || {
        (CustomdataClass::from_u32(class) == Some(CustomdataClass::ShaderMessage))
            .then(|| Message::read(&data, payload.first().map_or(0, |x| x.offset as usize)))
            .flatten()
    };
    if CustomdataClass::from_u32(class) == Some(CustomdataClass::DclImmediateConstantBuffer) {
        out.push_str("dcl_immediateConstantBuffer { ");
        let pad = "                              ";
        for (i, row) in data.chunks(4).enumerate() {
            if i > 0 {
                out.push_str(",\n");
                out.push_str(pad);
            }
            out.push('{');
            for (c, &x) in row.iter().enumerate() {
                out.push_str(if c == 0 { " " } else { ", " });
                write_number(x, NumType::Untyped, cx, out);
            }
            out.push('}');
        }
        out.push_str(" }");
    } else if let Some(m) = message() {
        out.push_str(m.mnemonic());
        out.push_str(" \"");
        out.push_str(&m.text);
        out.push('"');
        for &id in &m.ids {
            out.push_str(", ");
            write_operand(&m.operands, &m.operands.operands[id as usize], NumType::Untyped, cx, out);
        }
    } else {
        let name = spec::CUSTOMDATA_CLASS.get(class).map_or("customdata", |e| e.spec_name);
        let _ = write!(out, "// customdata {} ({} dwords)", name.to_ascii_lowercase(), data.len());
    }
}

fn write_declaration(p: &Program, ins: &Instruction, info: &spec::OpcodeInfo, cx: Ctx, out: &mut String) {
    let (sm51, legacy) = (cx.sm51, cx.legacy);
    use spec::opc::*;
    let code = ins.opcode();
    let t = ins.token;
    let ctl = |name: &str| spec::control(code, name, t);
    let payload = ins.payload(p);
    let op0 = ins.operand(p, 0);
    let w = |i: usize| payload.get(i).map_or(0, |x| x.value);
    let decl_op = |out: &mut String| {
        if let Some(op) = op0 {
            write_decl_operand(p, op, cx, out);
        }
    };
    let space = |out: &mut String| {
        if sm51 {
            if let Some(s) = payload.iter().rev().find(|x| x.word == Word::Space) {
                let _ = write!(out, ", space={}", s.value);
            }
        }
    };
    match code {
        DCL_RESOURCE => {
            let dim = ctl("resource dimension");
            out.push_str("dcl_resource_");
            out.push_str(spec::RESOURCE_DIMENSION.asm(dim).unwrap_or("unknown"));
            let samples = ctl("sample count");
            if matches!(
                ResourceDimension::from_u32(dim),
                Some(ResourceDimension::Texture2dms | ResourceDimension::Texture2dmsarray)
            ) {
                let _ = write!(out, "({samples})");
            }
            out.push(' ');
            write_return_types(w(0), out);
            out.push(' ');
            decl_op(out);
            space(out);
        }
        DCL_CONSTANT_BUFFER => {
            out.push_str("dcl_constantbuffer ");
            if let Some(op) = op0 {
                if sm51 && op.index_dim() == 3 {
                    write_decl_operand(p, op, cx, out);
                    let _ = write!(out, "[{}]", w(0));
                } else {
                    write_decl_operand(p, op, cx, out);
                    // fxc 10 and later capitalise the register here.
                    if !legacy {
                        uppercase_register(out);
                    }
                }
            }
            out.push_str(", ");
            out.push_str(spec::CB_ACCESS_PATTERN.asm(ctl("access pattern")).unwrap_or(""));
            if sm51 {
                if let Some(s) = payload.get(1) {
                    let _ = write!(out, ", space={}", s.value);
                }
            }
        }
        DCL_SAMPLER => {
            out.push_str("dcl_sampler ");
            decl_op(out);
            out.push_str(", ");
            out.push_str(spec::SAMPLER_MODE.asm(ctl("sampler mode")).unwrap_or("mode_unknown"));
            space(out);
        }
        DCL_INDEX_RANGE => {
            out.push_str("dcl_indexrange ");
            decl_op(out);
            let _ = write!(out, " {}", w(0));
        }
        DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => {
            let _ = write!(
                out,
                "dcl_outputtopology {} ",
                spec::PRIMITIVE_TOPOLOGY.asm(ctl("topology")).unwrap_or("undefined")
            );
        }
        DCL_GS_INPUT_PRIMITIVE => {
            let _ = write!(out, "dcl_inputprimitive {} ", spec::PRIMITIVE.asm(ctl("primitive")).unwrap_or("undefined"));
        }
        DCL_MAX_OUTPUT_VERTEX_COUNT => {
            let _ = write!(out, "dcl_maxout {}", w(0));
        }
        DCL_INPUT | DCL_OUTPUT | DCL_STREAM => {
            out.push_str(info.asm);
            out.push(' ');
            decl_op(out);
            prec_suffix(p, op0, out);
        }
        DCL_INPUT_SGV | DCL_INPUT_SIV | DCL_OUTPUT_SGV | DCL_OUTPUT_SIV => {
            out.push_str(info.asm);
            out.push(' ');
            decl_op(out);
            prec_suffix(p, op0, out);
            let _ = write!(
                out,
                ", {}",
                spec::SYSTEM_NAME
                    .asm(spec::field_value(spec::NAME_TOKEN_FIELDS, "system value", w(0)))
                    .unwrap_or("undefined")
            );
        }
        DCL_INPUT_PS | DCL_INPUT_PS_SGV | DCL_INPUT_PS_SIV => {
            out.push_str(info.asm);
            out.push(' ');
            let interp = spec::INTERPOLATION_MODE.asm(ctl("interpolation")).unwrap_or("");
            // Releases before 10.0 do not print the mode of system-generated inputs.
            let pre10_sgv = legacy && code == DCL_INPUT_PS_SGV;
            if !interp.is_empty() && !pre10_sgv {
                out.push_str(interp);
                out.push(' ');
            }
            decl_op(out);
            prec_suffix(p, op0, out);
            if code != DCL_INPUT_PS {
                out.push_str(", ");
                out.push_str(
                    spec::SYSTEM_NAME
                        .asm(spec::field_value(spec::NAME_TOKEN_FIELDS, "system value", w(0)))
                        .unwrap_or("undefined"),
                );
            }
        }
        DCL_TEMPS => {
            out.push_str("dcl_temps ");
            super::push_decimal(out, u64::from(w(0)));
        }
        DCL_INDEXABLE_TEMP => {
            let _ = write!(out, "dcl_indexableTemp x{}[{}], {}", w(0), w(1), w(2));
        }
        DCL_GLOBAL_FLAGS => {
            out.push_str("dcl_globalFlags ");
            let mut first = true;
            for fdef in spec::GLOBAL_FLAGS_CONTROLS {
                if fdef.lo == fdef.hi && fdef.get(t) != 0 && fdef.name != "reserved" {
                    if !first {
                        out.push_str(" | ");
                    }
                    out.push_str(fdef.name);
                    first = false;
                }
            }
        }
        DCL_FUNCTION_BODY => {
            let _ = write!(out, "dcl_function_body fb{}", w(0));
        }
        DCL_FUNCTION_TABLE => {
            let _ = write!(out, "dcl_function_table ft{} = {{", w(0));
            for (i, x) in payload.iter().skip(2).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "fb{}", x.value);
            }
            out.push('}');
        }
        DCL_INTERFACE => {
            out.push_str("dcl_interface");
            if ctl("dynamically indexed") != 0 {
                out.push_str("_dynamicindexed");
            }
            let lens = w(2);
            let _ = write!(
                out,
                " fp{}[{}][{}] = {{",
                w(0),
                spec::field_value(spec::INTERFACE_LENGTHS_FIELDS, "array length", lens),
                w(1)
            );
            for (i, x) in payload.iter().skip(3).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "ft{}", x.value);
            }
            out.push('}');
        }
        DCL_INPUT_CONTROL_POINT_COUNT | DCL_OUTPUT_CONTROL_POINT_COUNT => {
            let _ = write!(out, "{} {}", info.asm, ctl("control points"));
        }
        DCL_TESS_DOMAIN => {
            let _ = write!(out, "{} {}", info.asm, spec::TESS_DOMAIN.asm(ctl("domain")).unwrap_or(""));
        }
        DCL_TESS_PARTITIONING => {
            let _ = write!(
                out,
                "{} {}",
                info.asm,
                spec::TESS_PARTITIONING.asm(ctl("partitioning")).unwrap_or("partitioning_undefined")
            );
        }
        DCL_TESS_OUTPUT_PRIMITIVE => {
            let _ = write!(
                out,
                "{} {}",
                info.asm,
                spec::TESS_OUTPUT_PRIMITIVE.asm(ctl("output primitive")).unwrap_or("output_undefined")
            );
        }
        DCL_HS_MAX_TESSFACTOR => {
            out.push_str("dcl_hs_max_tessfactor l(");
            write_float_in(f32::from_bits(w(0)), cx, out);
            out.push(')');
        }
        DCL_HS_FORK_PHASE_INSTANCE_COUNT | DCL_HS_JOIN_PHASE_INSTANCE_COUNT | DCL_GS_INSTANCE_COUNT => {
            out.push_str(info.asm);
            out.push(' ');
            super::push_decimal(out, u64::from(w(0)));
        }
        DCL_THREAD_GROUP => {
            out.push_str("dcl_thread_group ");
            for i in 0..3 {
                if i > 0 {
                    out.push_str(", ");
                }
                super::push_decimal(out, u64::from(w(i)));
            }
        }
        DCL_UAV_TYPED | DCL_UAV_RAW | DCL_UAV_STRUCTURED => {
            out.push_str(info.asm);
            if code == DCL_UAV_TYPED {
                let dim = ctl("resource dimension");
                let _ = write!(out, "_{}", spec::RESOURCE_DIMENSION.asm(dim).unwrap_or("unknown"));
            }
            if ctl("globally coherent") != 0 {
                out.push_str("_glc");
            }
            if ctl("rasterizer ordered") != 0 {
                out.push_str("_rov");
            }
            if ctl("has counter") != 0 {
                out.push_str("_opc");
            }
            out.push(' ');
            if code == DCL_UAV_TYPED {
                write_return_types(w(0), out);
                out.push(' ');
            }
            decl_op(out);
            if code == DCL_UAV_STRUCTURED {
                let _ = write!(out, ", {}", w(0));
            }
            space(out);
        }
        DCL_TGSM_RAW => {
            out.push_str("dcl_tgsm_raw ");
            decl_op(out);
            let _ = write!(out, ", {}", w(0));
        }
        DCL_TGSM_STRUCTURED => {
            out.push_str("dcl_tgsm_structured ");
            decl_op(out);
            let _ = write!(out, ", {}, {}", w(0), w(1));
        }
        DCL_RESOURCE_RAW | DCL_RESOURCE_STRUCTURED => {
            out.push_str(info.asm);
            out.push(' ');
            decl_op(out);
            if code == DCL_RESOURCE_STRUCTURED {
                let _ = write!(out, ", {}", w(0));
                if legacy {
                    out.push(' ');
                }
            }
            space(out);
        }
        _ => {
            out.push_str(info.asm);
            for (i, op) in ins.operands(p).enumerate() {
                out.push_str(if i == 0 { " " } else { ", " });
                write_operand(p, op, NumType::Int, cx, out);
            }
        }
    }
}

fn prec_suffix(p: &Program, op: Option<&Operand>, out: &mut String) {
    if let Some(op) = op {
        let prec = op.min_precision(p);
        if prec != 0 {
            let _ = write!(out, " {{{}}}", spec::MIN_PRECISION.asm(prec).unwrap_or("?"));
        }
    }
}

/// A declaration operand: SM5.1 range form `T0[lo:hi]` for 3-D indices,
/// otherwise as in instructions.
fn write_decl_operand(p: &Program, op: &Operand, cx: Ctx, out: &mut String) {
    if cx.sm51 && op.index_dim() == 3 && op.index.iter().all(|i| i.rel == NO_OPERAND) {
        let name = spec::OPERAND_TYPE.asm(op.ty()).unwrap_or("?").to_ascii_uppercase();
        let hi = op.index[2].imm as u32;
        let _ = write!(out, "{}{}[{}:", name, op.index[0].imm, op.index[1].imm);
        if hi == u32::MAX {
            out.push('*');
        } else {
            let _ = write!(out, "{hi}");
        }
        out.push(']');
    } else if op.num_components() == 2 && op.selection_mode() != 0 {
        // Declarations show write masks only, never swizzles.
        let mut plain = *op;
        plain.token &= !(spec::operand_token::COMPONENTS.mask() | spec::operand_token::SELECTION.mask());
        write_operand(p, &plain, NumType::Int, cx, out);
    } else {
        write_operand(p, op, NumType::Int, cx, out);
    }
}

/// Upper-cases the register letters of the last operand written (`cb3[4]`
/// becomes `CB3[4]`), as fxc does in dcl_constantbuffer.
fn uppercase_register(out: &mut String) {
    let start = out.rfind(' ').map_or(0, |i| i + 1);
    let tail: String = out[start..].chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    let up = tail.to_ascii_uppercase();
    out.replace_range(start..start + tail.len(), &up);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modern(f: f32) -> String {
        let mut s = String::new();
        write_float(f, &mut s);
        s
    }

    fn legacy(f: f32) -> String {
        let mut s = String::new();
        write_float_legacy(f, &mut s);
        s
    }

    /// The digit-by-digit `%f` gives the text of Rust's exact decimal
    /// formatting (`{:.6}`, ties to even), and with ties away from zero the
    /// text of that formatting of the tie rounded away, for floats of every
    /// exponent and sign (every 9,973rd bit pattern) and the edges: zeros,
    /// ties, the last values below and at 2^53 millionths.
    #[test]
    fn six_decimals_digit_by_digit_match_exact_decimal_formatting() {
        let away = |f: f32| {
            let y = f as f64 * 1e6;
            if y.abs() < 9.0e15 && y.fract().abs() == 0.5 {
                let r = y.abs().trunc() + 1.0;
                let sign = if f.is_sign_negative() { "-" } else { "" };
                format!("{sign}{}.{:06}", (r / 1e6).trunc() as u64, (r % 1e6) as u64)
            } else {
                format!("{:.6}", f as f64)
            }
        };
        let edges = [0.0f32, -0.0, 1.0 / 128.0, -3.0 / 128.0, 0.5e-6, 2.5, 8_999_999_488.0, 9.0e9, -9.1e9, f32::MAX];
        let sampled = (0..=u32::MAX).step_by(9_973).map(f32::from_bits).filter(|f| f.is_finite());
        let mut n = 0;
        for f in edges.into_iter().chain(sampled) {
            let mut s = String::new();
            write_float_rounded(f, false, &mut s);
            assert_eq!(s, format!("{:.6}", f as f64), "{:#010x}", f.to_bits());
            s.clear();
            write_float_rounded(f, true, &mut s);
            assert_eq!(s, away(f), "{:#010x}", f.to_bits());
            n += 1;
        }
        // 10 edges and the 428,978 finite floats among the sampled patterns.
        assert_eq!(n, 428_988);
    }

    /// Values from 3Dmigoto's dumps of game shaders: constants that six
    /// decimals give back keep `%f`, the others get nine significant digits.
    #[test]
    fn exact_floats_keep_six_decimals_that_read_back_and_else_take_nine_digits() {
        let exact = |f: f32| {
            let mut s = String::new();
            write_float_exact(f, &mut s);
            s
        };
        let text = |t: &str| exact(t.parse::<f32>().unwrap());
        for t in ["4.008016", "0.000100", "1.999960", "-0.570320", "1.570800", "0.500000", "0.000000", "-500.000000"] {
            assert_eq!(text(t), t);
        }
        assert_eq!(exact(std::f32::consts::PI), "3.14159274");
        assert_eq!(exact(-std::f32::consts::FRAC_PI_2), "-1.57079637");
        assert_eq!(exact(std::f32::consts::SQRT_2), "1.41421354");
        assert_eq!(exact(1.0 / 1024.0), "0.000976562500");
        for t in ["0.333332211", "-0.499992371", "-1.57079279"] {
            assert_eq!(text(t), t);
        }
        // Every float reads back from its text, and ties and infinities keep their spellings.
        for bits in (0..u32::MAX).step_by(65_537).filter(|b| f32::from_bits(*b).is_finite()) {
            let f = f32::from_bits(bits);
            let t = exact(f);
            assert_eq!(t.parse::<f32>().unwrap().to_bits(), bits, "{f:e}");
            // Either `%f`, or exactly nine significant digits.
            let digits = t.bytes().skip_while(|b| !matches!(b, b'1'..=b'9')).filter(u8::is_ascii_digit).count();
            assert!(t == modern(f) || digits == 9, "{t}");
        }
        // A tie at the sixth decimal does not read back: nine digits from the third.
        assert_eq!(exact(1.0 / 128.0), "0.00781250000");
        assert_eq!(exact(f32::INFINITY), "1.#INF00");
        assert_eq!(exact(0.099_999_994), "0.0999999940");
    }

    #[test]
    fn ties_at_the_sixth_decimal_round_to_even_in_fxc_10_and_away_in_fxc_9() {
        // k/128 for odd k lies exactly halfway between two six-decimal values.
        for (k, even, away) in [(1, "0.007812", "0.007813"), (3, "0.023438", "0.023438"), (5, "0.039062", "0.039063")] {
            let f = k as f32 / 128.0;
            assert_eq!((modern(f), legacy(f)), (even.to_string(), away.to_string()), "{k}/128");
            assert_eq!((modern(-f), legacy(-f)), (format!("-{even}"), format!("-{away}")), "-{k}/128");
        }
        // Not a tie: 1/1024 = 0.0009765625 rounds up under both rules.
        assert_eq!((modern(1.0 / 1024.0), legacy(1.0 / 1024.0)), ("0.000977".into(), "0.000977".into()));
        // A tie in a float too large for a six-decimal fraction cannot
        // exist; large values keep their exact integer digits (or 17 in 9.x).
        assert_eq!(modern(1.0e20), "100000002004087734272.000000");
        assert_eq!(legacy(1.0e20), "100000002004087730000.000000");
    }
}
