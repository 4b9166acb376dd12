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

use crate::program::{Instruction, Operand, Program, NO_OPERAND};
use crate::spec::{self, opc, NumType, OpClass, Word};
use std::fmt::Write;

const COMP: [char; 4] = ['x', 'y', 'z', 'w'];

/// Writes the program listing (from the profile line to the last
/// instruction) into `out`, one instruction per line.
pub fn write_program(p: &Program, legacy: bool, out: &mut String) {
    out.push_str(&p.version.profile());
    out.push('\n');
    let mut indent: usize = 0;
    let sm51 = p.version.is_sm51();
    for ins in &p.instructions {
        let code = ins.opcode();
        match code {
            opc::ELSE | opc::ENDIF | opc::ENDLOOP | opc::ENDSWITCH => indent = indent.saturating_sub(1),
            opc::CASE | opc::DEFAULT => indent = indent.saturating_sub(1),
            _ => {}
        }
        if code == opc::ENDSWITCH {
            indent = indent.saturating_sub(1);
        }
        for _ in 0..indent.min(64) {
            out.push_str("  ");
        }
        write_instruction(p, ins, sm51, legacy, out);
        out.push('\n');
        match code {
            opc::IF | opc::ELSE | opc::LOOP | opc::CASE | opc::DEFAULT => indent += 1,
            opc::SWITCH => indent += 2,
            _ => {}
        }
    }
}

/// Writes one instruction without indentation or newline.
pub fn write_instruction(p: &Program, ins: &Instruction, sm51: bool, legacy: bool, out: &mut String) {
    let code = ins.opcode();
    if ins.is_customdata() {
        write_customdata(p, ins, out);
        return;
    }
    let Some(info) = ins.info() else {
        let _ = write!(out, "unknown_opcode_{code}");
        return;
    };
    let t = ins.token;
    match info.class {
        OpClass::Decl => return write_declaration(p, ins, info, sm51, legacy, out),
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
        opc::RESINFO => out.push_str(spec::RESINFO_RETURN_TYPE.asm((t >> 11) & 3).unwrap_or("")),
        opc::SAMPLE_INFO | opc::SAMPLE_POS => {
            out.push_str(spec::INSTRUCTION_RETURN_TYPE.asm((t >> 11) & 3).unwrap_or(""))
        }
        opc::SYNC => {
            if t & (1 << 14) != 0 {
                out.push_str("_uglobal");
            }
            if t & (1 << 13) != 0 {
                out.push_str("_ugroup");
            }
            if t & (1 << 12) != 0 {
                out.push_str("_g");
            }
            if t & (1 << 11) != 0 {
                out.push_str("_t");
            }
        }
        _ => {}
    }
    let out = out_main;
    if spec::opcode_controls(code).as_ptr() == spec::TEST_CONTROLS.as_ptr() {
        out.push_str(if t & (1 << 18) != 0 { "_nz" } else { "_z" });
    }
    if matches!(info.class, OpClass::Alu | OpClass::Resource | OpClass::Atomic) && t & (1 << 13) != 0 {
        out.push_str("_sat");
    }
    // Extended opcode tokens.
    let ext = ins.ext(p);
    let sample = ext.iter().find(|e| *e & 0x3f == 1);
    let dim = ext.iter().find(|e| *e & 0x3f == 2);
    let ret = ext.iter().find(|e| *e & 0x3f == 3);
    if sample.is_some() {
        out.push_str("_aoffimmi");
    }
    if dim.is_some() {
        out.push_str("_indexable");
    }
    if let Some(&s) = sample {
        let sx = |sh: u32| (((s >> sh) & 0xf) as i32) << 28 >> 28;
        let _ = write!(out, "({},{},{})", sx(9), sx(13), sx(17));
    }
    if let Some(&d) = dim {
        let dv = (d >> 6) & 0x1f;
        let _ = write!(out, "({}", spec::RESOURCE_DIMENSION.asm(dv).unwrap_or("unknown"));
        if dv == 12 {
            let _ = write!(out, ", stride={}", (d >> 11) & 0xfff);
        }
        out.push(')');
    }
    if let Some(&r) = ret {
        out.push('(');
        for c in 0..4 {
            if c > 0 {
                out.push(',');
            }
            out.push_str(return_type_name((r >> (6 + 4 * c)) & 0xf));
        }
        out.push(')');
    }
    out.push_str(&suffix);
    let precise = (t >> 19) & 0xf;
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
            write_operand(p, &p.operands[id as usize], NumType::Uint, sm51, out);
        }
        let idx = ins.payload(p).first().map_or(0, |x| x.value);
        let _ = write!(out, "[{idx}]");
        return;
    }
    if ops.is_empty() {
        out.push(' ');
        return;
    }
    let ty = info.imm;
    let dst_prec = ops.first().map_or(0, |&id| p.operands[id as usize].min_precision(p));
    for (i, &id) in ops.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        let op = &p.operands[id as usize];
        let oty = operand_num_type(code, ty, i);
        write_operand(p, op, oty, sm51, out);
        write_precision(p, op, i, dst_prec, code, out);
    }
}

/// The numeric type used for immediates in operand `i` of `code`.
fn operand_num_type(code: u16, ty: NumType, i: usize) -> NumType {
    use spec::opc::*;
    match code {
        // Coordinates and offsets of loads are integers; lod/bias/reference are floats.
        LD | LD_MS | RESINFO | SAMPLE_POS | SAMPLE_INFO | BUFINFO => NumType::Int,
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
    let name = |v: u32| if v == 0 { "def32" } else { spec::MIN_PRECISION.asm(v).unwrap_or("?") };
    let same_type_source = i > 0 && !(code == opc::MOVC && i == 1) && same_type_op(code);
    if same_type_source && prec != dst_prec {
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
    let Some(info) = spec::opcode(code as u32) else { return false };
    if info.class != OpClass::Alu {
        return false;
    }
    !matches!(
        info.asm,
        "ftoi" | "ftou" | "itof" | "utof" | "f32tof16" | "f16tof32" | "dtof" | "ftod" | "eq" | "ne" | "lt" | "ge"
            | "ieq" | "ine" | "ilt" | "ige" | "ult" | "uge" | "deq" | "dne" | "dlt" | "dge" | "dtoi" | "dtou"
            | "itod" | "utod"
    )
}

fn return_type_name(v: u32) -> &'static str {
    match v {
        8 => "<continued>",
        9 => "<unused>",
        _ => spec::RETURN_TYPE.asm(v).filter(|s| !s.is_empty()).unwrap_or("<unknown>"),
    }
}

/// Writes one operand with modifiers, indices and component selection.
pub fn write_operand(p: &Program, op: &Operand, ty: NumType, sm51: bool, out: &mut String) {
    let m = op.modifier(p);
    match m {
        1 => out.push('-'),
        2 => out.push('|'),
        3 => out.push_str("-|"),
        _ => {}
    }
    write_register(p, op, ty, sm51, out);
    if m == 2 || m == 3 {
        out.push('|');
    }
}

fn write_register(p: &Program, op: &Operand, ty: NumType, sm51: bool, out: &mut String) {
    let t = op.ty();
    if t == 4 || t == 5 {
        write_immediate(p, op, ty, out);
        return;
    }
    let name = spec::OPERAND_TYPE.asm(t).unwrap_or("?");
    // SM5.1 resource ranges are named in capitals (CB0[0][3], T1[2]).
    if sm51 && matches!(t, 6 | 7 | 8 | 30) {
        out.push_str(&name.to_ascii_uppercase());
    } else {
        out.push_str(name);
    }
    let dims = op.index_dim();
    let bracket_all = matches!(t, 9 | 25 | 26) || (t == 1 && dims == 2);
    for d in 0..dims {
        let idx = &op.index[d];
        let pure_imm = idx.rel == NO_OPERAND;
        if d == 0 && pure_imm && !bracket_all {
            let _ = write!(out, "{}", idx.imm);
        } else {
            out.push('[');
            write_index(p, op, d, sm51, out);
            out.push(']');
        }
    }
    write_components(op, out);
}

fn write_index(p: &Program, op: &Operand, d: usize, sm51: bool, out: &mut String) {
    let idx = &op.index[d];
    if idx.rel == NO_OPERAND {
        let _ = write!(out, "{}", idx.imm);
        return;
    }
    let r = &p.operands[idx.rel as usize];
    write_operand(p, r, NumType::Int, sm51, out);
    let _ = write!(out, " + {}", idx.imm);
}

fn write_components(op: &Operand, out: &mut String) {
    if op.num_components() != 2 {
        return;
    }
    match op.selection_mode() {
        0 => {
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
        1 => {
            out.push('.');
            for s in op.swizzle() {
                out.push(COMP[s as usize]);
            }
        }
        2 => {
            out.push('.');
            out.push(COMP[op.select1() as usize]);
        }
        _ => {}
    }
}

fn write_immediate(p: &Program, op: &Operand, ty: NumType, out: &mut String) {
    let v = op.imm(p);
    if op.ty() == 5 {
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
        write_number(x, ty, out);
    }
    out.push(')');
}

/// Writes one 32-bit immediate the way fxc does for the given type.
pub fn write_number(x: u32, ty: NumType, out: &mut String) {
    match ty {
        NumType::Float | NumType::Double => write_float(f32::from_bits(x), out),
        NumType::Int | NumType::Uint | NumType::None => write_int(x, out),
        NumType::Untyped => {
            if looks_like_float(x) {
                write_float(f32::from_bits(x), out)
            } else {
                write_int(x, out)
            }
        }
    }
}

fn looks_like_float(x: u32) -> bool {
    let exp = (x >> 23) & 0xff;
    // Small integers and masks print as integers; normal floats as floats.
    exp != 0 && exp != 0xff && (x & 0x7fff_ffff) >= 0x0080_0000 && !(x as i32 >= -10000 && (x as i32) <= 10000)
}

fn write_int(x: u32, out: &mut String) {
    let s = x as i32;
    if (-10000..=10000).contains(&s) {
        let _ = write!(out, "{s}");
    } else {
        let _ = write!(out, "0x{x:08x}");
    }
}

/// `%f` as fxc prints it, including its spellings of infinities and NaNs.
pub fn write_float(f: f32, out: &mut String) {
    if f.is_nan() {
        out.push_str(if f.is_sign_negative() { "-1.#IND00" } else { "1.#QNAN0" });
    } else if f.is_infinite() {
        out.push_str(if f < 0.0 { "-1.#INF00" } else { "1.#INF00" });
    } else {
        let _ = write!(out, "{:.6}", f as f64);
    }
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

fn write_customdata(p: &Program, ins: &Instruction, out: &mut String) {
    let class = ins.customdata_class();
    let data: Vec<u32> = ins.payload(p).iter().map(|x| x.value).collect();
    if class == 3 {
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
                write_number(x, NumType::Untyped, out);
            }
            out.push('}');
        }
        out.push_str(" }");
    } else {
        let name = spec::CUSTOMDATA_CLASS.get(class).map_or("customdata", |e| e.spec_name);
        let _ = write!(out, "// customdata {} ({} dwords)", name.to_ascii_lowercase(), data.len());
    }
}

fn write_declaration(p: &Program, ins: &Instruction, info: &spec::OpcodeInfo, sm51: bool, legacy: bool, out: &mut String) {
    use spec::opc::*;
    let code = ins.opcode();
    let t = ins.token;
    let payload = ins.payload(p);
    let op0 = ins.operand(p, 0);
    let w = |i: usize| payload.get(i).map_or(0, |x| x.value);
    let decl_op = |out: &mut String| {
        if let Some(op) = op0 {
            write_decl_operand(p, op, sm51, out);
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
            let dim = (t >> 11) & 0x1f;
            let _ = write!(out, "dcl_resource_{}", spec::RESOURCE_DIMENSION.asm(dim).unwrap_or("unknown"));
            let samples = (t >> 16) & 0x7f;
            if dim == 4 || dim == 9 {
                let _ = write!(out, "({samples})");
            }
            out.push_str(" (");
            let rt = w(0);
            for c in 0..4 {
                if c > 0 {
                    out.push(',');
                }
                out.push_str(return_type_name((rt >> (4 * c)) & 0xf));
            }
            out.push_str(") ");
            decl_op(out);
            space(out);
        }
        DCL_CONSTANT_BUFFER => {
            out.push_str("dcl_constantbuffer ");
            if let Some(op) = op0 {
                if sm51 && op.index_dim() == 3 {
                    write_decl_operand(p, op, sm51, out);
                    let _ = write!(out, "[{}]", w(0));
                } else {
                    write_decl_operand(p, op, sm51, out);
                    // fxc 10 and later capitalise the register here.
                    if !legacy {
                        uppercase_register(out);
                    }
                }
            }
            let _ = write!(out, ", {}", spec::CB_ACCESS_PATTERN.asm((t >> 11) & 1).unwrap_or(""));
            if sm51 {
                if let Some(s) = payload.get(1) {
                    let _ = write!(out, ", space={}", s.value);
                }
            }
        }
        DCL_SAMPLER => {
            out.push_str("dcl_sampler ");
            decl_op(out);
            let _ = write!(out, ", {}", spec::SAMPLER_MODE.asm((t >> 11) & 0xf).unwrap_or("mode_unknown"));
            space(out);
        }
        DCL_INDEX_RANGE => {
            out.push_str("dcl_indexrange ");
            decl_op(out);
            let _ = write!(out, " {}", w(0));
        }
        DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => {
            let _ = write!(out, "dcl_outputtopology {} ", spec::PRIMITIVE_TOPOLOGY.asm((t >> 11) & 0x7f).unwrap_or("undefined"));
        }
        DCL_GS_INPUT_PRIMITIVE => {
            let _ = write!(out, "dcl_inputprimitive {} ", spec::PRIMITIVE.asm((t >> 11) & 0x3f).unwrap_or("undefined"));
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
            let _ = write!(out, ", {}", spec::SYSTEM_NAME.asm(w(0) & 0xffff).unwrap_or("undefined"));
        }
        DCL_INPUT_PS | DCL_INPUT_PS_SGV | DCL_INPUT_PS_SIV => {
            out.push_str(info.asm);
            out.push(' ');
            let interp = spec::INTERPOLATION_MODE.asm((t >> 11) & 0xf).unwrap_or("");
            if !interp.is_empty() {
                out.push_str(interp);
                out.push(' ');
            }
            decl_op(out);
            prec_suffix(p, op0, out);
            if code != DCL_INPUT_PS {
                let _ = write!(out, ", {}", spec::SYSTEM_NAME.asm(w(0) & 0xffff).unwrap_or("undefined"));
            }
        }
        DCL_TEMPS => {
            let _ = write!(out, "dcl_temps {}", w(0));
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
            if t & (1 << 11) != 0 {
                out.push_str("_dynamicindexed");
            }
            let lens = w(2);
            let _ = write!(out, " fp{}[{}][{}] = {{", w(0), lens >> 16, w(1));
            for (i, x) in payload.iter().skip(3).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "ft{}", x.value);
            }
            out.push('}');
        }
        DCL_INPUT_CONTROL_POINT_COUNT | DCL_OUTPUT_CONTROL_POINT_COUNT => {
            let _ = write!(out, "{} {}", info.asm, (t >> 11) & 0x3f);
        }
        DCL_TESS_DOMAIN => {
            let _ = write!(out, "{} {}", info.asm, spec::TESS_DOMAIN.asm((t >> 11) & 3).unwrap_or(""));
        }
        DCL_TESS_PARTITIONING => {
            let _ = write!(out, "{} {}", info.asm, spec::TESS_PARTITIONING.asm((t >> 11) & 7).unwrap_or("partitioning_undefined"));
        }
        DCL_TESS_OUTPUT_PRIMITIVE => {
            let _ = write!(out, "{} {}", info.asm, spec::TESS_OUTPUT_PRIMITIVE.asm((t >> 11) & 7).unwrap_or("output_undefined"));
        }
        DCL_HS_MAX_TESSFACTOR => {
            out.push_str("dcl_hs_max_tessfactor l(");
            write_float(f32::from_bits(w(0)), out);
            out.push(')');
        }
        DCL_HS_FORK_PHASE_INSTANCE_COUNT | DCL_HS_JOIN_PHASE_INSTANCE_COUNT | DCL_GS_INSTANCE_COUNT => {
            let _ = write!(out, "{} {}", info.asm, w(0));
        }
        DCL_THREAD_GROUP => {
            let _ = write!(out, "dcl_thread_group {}, {}, {}", w(0), w(1), w(2));
        }
        DCL_UAV_TYPED | DCL_UAV_RAW | DCL_UAV_STRUCTURED => {
            out.push_str(info.asm);
            if code == DCL_UAV_TYPED {
                let dim = (t >> 11) & 0x1f;
                let _ = write!(out, "_{}", spec::RESOURCE_DIMENSION.asm(dim).unwrap_or("unknown"));
            }
            if t & (1 << 16) != 0 {
                out.push_str("_glc");
            }
            if t & (1 << 17) != 0 {
                out.push_str("_rov");
            }
            if t & (1 << 23) != 0 {
                out.push_str("_opc");
            }
            out.push(' ');
            if code == DCL_UAV_TYPED {
                out.push('(');
                let rt = w(0);
                for c in 0..4 {
                    if c > 0 {
                        out.push(',');
                    }
                    out.push_str(return_type_name((rt >> (4 * c)) & 0xf));
                }
                out.push_str(") ");
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
                write_operand(p, op, NumType::Int, sm51, out);
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
fn write_decl_operand(p: &Program, op: &Operand, sm51: bool, out: &mut String) {
    if sm51 && op.index_dim() == 3 && op.index.iter().all(|i| i.rel == NO_OPERAND) {
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
        plain.token &= !0x0000_0ff3;
        write_operand(p, &plain, NumType::Int, sm51, out);
    } else {
        write_operand(p, op, NumType::Int, sm51, out);
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
