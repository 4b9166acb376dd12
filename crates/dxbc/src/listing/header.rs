//! The `//` comment header fxc prints before the program: creator, required
//! features (SFI0), buffer definitions and resource bindings (RDEF),
//! signatures, tessellation state (STAT), class linkage (IFCE) and the
//! level-9 sections (Aon9).
//!
//! The layout differs between compiler generations; the creator string in
//! RDEF tells which one produced the file:
//! * before 10.0 (`9.29.952.3111`, `9.30.9200.*`, `6.3.9600.*`) resource
//!   bindings use `Slot`/`Elements` columns; 9.29 prints a 6-wide signature
//!   format column and echoes the command line (which is not stored in the
//!   file); 9.30 prints a `///` line where the command line would go.
//! * 10.0 and later use the `HLSL Bind`/`Count` columns, plus an `ID` column
//!   and `,spaceN` suffixes for SM5.1.
//! * files without RDEF were stripped; their listing comes from the
//!   stand-alone disassembler (`Microsoft (R) D3D Shader Disassembler`).

use super::push_decimal;
use crate::chunks::ifce::Ifce;
use crate::chunks::rdef::{ConstantBuffer, Rdef, ResourceBinding, Type};
use crate::chunks::sfi0::{feature_name, Sfi0};
use crate::chunks::signature::{system_value_name, Signature, SignatureElement};
use crate::chunks::stat::Stat;
use crate::program::Program;
use crate::reader::dword;
use crate::spec::{
    self, opcode_token, CbufferType, CustomdataClass, Opcode, ProgramType, RdefProgramType, ReturnType,
    ShaderInputType, ShaderVariableClass, SignatureMinPrecision, SignatureName, SrvDimension, TessDomain,
    TessOutputPrimitive, TessPartitioning, SHADER_INPUT_FLAGS_FIELDS,
};
use crate::Shader;
use std::fmt::Write;

/// Creator fxc's stand-alone disassembler names for files without RDEF.
pub const DISASSEMBLER_CREATOR: &str = "Microsoft (R) D3D Shader Disassembler";

/// Program types as stored in the version token.
const PS: u32 = ProgramType::PixelShader as u32;
const HS: u32 = ProgramType::HullShader as u32;
const DS: u32 = ProgramType::DomainShader as u32;

/// Which generation of fxc's printer to imitate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dialect {
    /// 9.29.952 and older SDK compilers: echo the command line, 6-wide
    /// signature format column.
    V929,
    /// 9.30.9200: `///` line.
    V930,
    /// Other pre-10 compilers (6.3.9600): old binding columns.
    Old,
    /// 10.0 and later.
    Modern,
}

fn dialect(creator: Option<&str>) -> Dialect {
    let Some(c) = creator else {
        return Dialect::Modern;
    };
    // A plain scan: `str::find` builds a two-way searcher each time, which
    // costs more than this short string's whole scan.
    const WORD: &[u8] = b"Compiler ";
    let Some(pos) = c.as_bytes().windows(WORD.len()).position(|w| w == WORD) else {
        return Dialect::Modern;
    };
    let ver = &c[pos + WORD.len()..];
    let mut parts = ver.split(|ch: char| !ch.is_ascii_digit());
    let major: u32 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let minor: u32 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    match (major, minor) {
        // The DirectX SDK compilers up to June 2010 (9.29.952.3111).
        (9, m) if m <= 29 => Dialect::V929,
        (9, 30) => Dialect::V930,
        (m, _) if m < 10 => Dialect::Old,
        _ => Dialect::Modern,
    }
}

/// The version token and the `dcl_globalFlags` controls of the program
/// chunk, read straight from its tokens.
struct ProgramInfo {
    /// Program type (0 ps, 1 vs, 2 gs, 3 hs, 4 ds, 5 cs).
    kind: Option<u32>,
    /// Major shader model.
    major: Option<u32>,
    /// The `dcl_globalFlags` token, 0 when absent.
    global_flags: u32,
}

/// Opcode of `dcl_globalFlags`.
const DCL_GLOBAL_FLAGS: u32 = Opcode::DclGlobalFlags as u32;
/// Opcode of `customdata` blocks (length in the next dword).
const CUSTOMDATA: u32 = Opcode::Customdata as u32;
/// `forceEarlyDepthStencil` in the `dcl_globalFlags` token.
const FORCE_EARLY_DEPTH_STENCIL: u32 = spec::GLOBAL_FLAGS_CONTROLS[2].mask();

fn program_info(shader: &Shader) -> ProgramInfo {
    let mut info = ProgramInfo { kind: None, major: None, global_flags: 0 };
    let chunk = shader.container.chunks.iter().find(|c| &c.tag == b"SHDR" || &c.tag == b"SHEX");
    if let Some(d) = chunk.and_then(|c| shader.bytes.get(c.data_range())) {
        let n = d.len() / 4;
        if n >= 2 {
            let v = dword(d, 0);
            let version = crate::program::VersionToken(v);
            info.kind = Some(version.program_type());
            info.major = Some(version.major());
            let end = (dword(d, 1) as usize).min(n);
            let mut i = 2;
            while i < end {
                let t = dword(d, i);
                let op = opcode_token::OPCODE.get(t);
                let len = if op == CUSTOMDATA {
                    if i + 1 < end {
                        dword(d, i + 1) as usize
                    } else {
                        0
                    }
                } else {
                    opcode_token::LENGTH.get(t) as usize
                };
                if op == DCL_GLOBAL_FLAGS {
                    info.global_flags = t;
                    break;
                }
                if len == 0 {
                    break;
                }
                i = i.saturating_add(len);
            }
        }
    }
    if info.kind.is_none() {
        info.kind = shader
            .rdef
            .as_ref()
            .and_then(|r| RdefProgramType::from_u32(u32::from(r.program_type)).map(|t| t.program_type() as u32));
        info.major = shader.rdef.as_ref().map(|r| r.major_version as u32);
    }
    info
}

/// Writes everything fxc prints before the program's version line.
pub fn write_header(shader: &Shader, out: &mut String) {
    write_header_with(shader, super::Dialect::Auto, out);
}

/// The header in a chosen dialect: the creator string decides where the file
/// has one; a stripped file follows `forced`.
pub fn write_header_with(shader: &Shader, forced: super::Dialect, out: &mut String) {
    let rdef = shader.rdef.as_ref();
    let d = match (rdef, forced) {
        (Some(r), _) => dialect(Some(r.creator.as_str())),
        (None, super::Dialect::Legacy930) => Dialect::V930,
        (None, _) => Dialect::Modern,
    };
    out.push_str("//\n");
    out.push_str("// Generated by ");
    match rdef {
        Some(r) => out.push_str(&r.creator),
        None if shader.container.find(b"XPDP").is_some() => {
            out.push_str(DISASSEMBLER_CREATOR);
            out.push_str(" for Durango");
        }
        None => out.push_str(DISASSEMBLER_CREATOR),
    }
    out.push('\n');
    out.push_str("//\n//\n");
    match d {
        // 9.30 leaves a `///` line where 9.29 echoed the command line.
        Dialect::V930 => out.push_str("///\n"),
        // 9.29 echoes the fxc command line here ("//   fxc /T ps_4_0 …",
        // wrapped), then two `//` lines. The command line is not stored in
        // the file, so only the frame can be reproduced.
        Dialect::V929 => out.push_str("//\n//\n"),
        _ => {}
    }
    if shader.program.as_ref().is_some_and(needs_debug_layer) {
        out.push_str("// Note: SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED.\n//\n//\n");
    }
    let info = program_info(shader);
    write_features(shader.sfi0.as_ref(), &info, out);
    if let Some(r) = rdef {
        write_rdef(r, d, out);
    }
    let ptype = info.kind;

    // Signatures: patch constants first, then inputs, then outputs.
    let mut first = true;
    let mut section = |title: &str, sig: Option<&Signature>, output: bool, out: &mut String| {
        if !first {
            out.push_str("//\n");
        }
        first = false;
        write_signature(title, sig, output, ptype, d, out);
    };
    if let Some(p) = &shader.patch_constant_signature {
        // Hull shaders write patch constants, domain shaders read them.
        section("Patch Constant", Some(p), ptype == Some(HS), out);
    }
    section("Input", shader.input_signature.as_ref(), false, out);
    section("Output", shader.output_signature.as_ref(), true, out);

    if let (Some(t @ (HS | DS)), Some(stat)) = (ptype, &shader.stat) {
        write_tessellation(stat, t == HS, out);
    }
    if let (Some(PS), Some(stat)) = (ptype, &shader.stat) {
        if stat.sample_frequency.value != 0 {
            out.push_str("// Pixel Shader runs at sample frequency\n//\n");
        }
    }
    if let Some(i) = &shader.ifce {
        write_class_linkage(i, out);
    }
    for (kind, a) in shader.level9_sections() {
        a.write_listing(kind, out);
    }
}

/// Whether the program uses what only the debug layers run: `abort`, or a
/// shader message (`printf`/`errorf`). fxc then opens the listing with a
/// note saying so (seen with both in one fxc 10.1 listing; which of them
/// alone calls for it is not known, so either does).
fn needs_debug_layer(p: &Program) -> bool {
    p.instructions.iter().any(|ins| {
        if ins.is_customdata() {
            CustomdataClass::from_u32(ins.customdata_class()) == Some(CustomdataClass::ShaderMessage)
        } else {
            ins.op() == Some(Opcode::Abort)
        }
    })
}

/// `// Note: shader requires additional functionality:` and one line per
/// feature. fxc lists the SFI0 bits in bit order, except that bit 1 means
/// "Early depth-stencil" there: it is shown for SM5 programs (set with
/// `forceEarlyDepthStencil`), never for SM4 ones, where the same bit marks
/// raw and structured buffers on 10.x hardware.
fn write_features(sfi0: Option<&Sfi0>, info: &ProgramInfo, out: &mut String) {
    let mut flags = sfi0.map_or(0, |s| s.flags);
    if info.major.unwrap_or(5) < 5 {
        flags &= !2;
    }
    if info.global_flags & FORCE_EARLY_DEPTH_STENCIL != 0 {
        flags |= 2;
    }
    if flags == 0 {
        return;
    }
    out.push_str("// Note: shader requires additional functionality:\n");
    for bit in 0..64 {
        if flags >> bit & 1 != 0 {
            let name = if bit == 1 { "Early depth-stencil".to_string() } else { feature_name(bit) };
            let _ = writeln!(out, "//       {name}");
        }
    }
    out.push_str("//\n//\n");
}

fn write_rdef(r: &Rdef, d: Dialect, out: &mut String) {
    if !r.constant_buffers.is_empty() {
        out.push_str("// Buffer Definitions: \n//\n");
        for cb in &r.constant_buffers {
            write_buffer(cb, out);
        }
        out.push_str("//\n");
    }
    if !r.bindings.is_empty() {
        out.push_str("// Resource Bindings:\n//\n");
        let sm51 = r.is_sm51();
        match (d, sm51) {
            (Dialect::V929 | Dialect::V930 | Dialect::Old, _) => {
                out.push_str("// Name                                 Type  Format         Dim Slot Elements\n");
                out.push_str("// ------------------------------ ---------- ------- ----------- ---- --------\n");
            }
            (Dialect::Modern, false) => {
                out.push_str(
                    "// Name                                 Type  Format         Dim      HLSL Bind  Count\n",
                );
                out.push_str(
                    "// ------------------------------ ---------- ------- ----------- -------------- ------\n",
                );
            }
            (Dialect::Modern, true) => {
                out.push_str(
                    "// Name                                 Type  Format         Dim      ID      HLSL Bind  Count\n",
                );
                out.push_str(
                    "// ------------------------------ ---------- ------- ----------- ------- -------------- ------\n",
                );
            }
        }
        for b in &r.bindings {
            write_binding(b, d, sm51, out);
        }
        out.push_str("//\n//\n");
    }
    out.push_str("//\n");
}

fn write_buffer(cb: &ConstantBuffer, out: &mut String) {
    let name = &cb.name;
    let _ = match CbufferType::from_u32(cb.kind) {
        Some(CbufferType::Tbuffer) => writeln!(out, "// tbuffer {name}"),
        Some(CbufferType::InterfacePointers) => writeln!(out, "// interfaces {name}"),
        Some(CbufferType::ResourceBindInfo) => writeln!(out, "// Resource bind info for {name}"),
        _ => writeln!(out, "// cbuffer {name}"),
    };
    out.push_str("// {\n//\n");
    for (i, v) in cb.variables.iter().enumerate() {
        let size = Some(v.size);
        write_variable(out, 3, &v.ty, &v.name, v.start_offset, size, !v.used(), i == 0, 0);
        if let Some(def) = &v.default_value {
            write_default(out, def);
        }
    }
    out.push_str("//\n// }\n//\n");
}

/// Pads the line begun at `start` to column 40 and ends it with the offset
/// (and size) comment.
fn finish_decl(out: &mut String, start: usize, offset: u32, size: Option<u32>, unused: bool) {
    push_spaces(out, 40usize.saturating_sub(out.len() - start));
    out.push_str("// Offset: ");
    push_right_num(out, u64::from(offset), 4);
    if let Some(s) = size {
        out.push_str(" Size: ");
        push_right_num(out, u64::from(s), 5);
    }
    if unused {
        out.push_str(" [unused]");
    }
    out.push('\n');
}

pub(crate) fn type_name(t: &Type) -> String {
    let mut s = String::new();
    push_type_name(&mut s, t);
    s
}

/// Appends [`type_name`]: every variable row of the header names a type.
fn push_type_name(out: &mut String, t: &Type) {
    let base = t.base_type_name();
    let dims = |out: &mut String, prefix: &str, rows: bool| {
        out.push_str(prefix);
        out.push_str(base);
        if rows {
            push_decimal(out, u64::from(t.rows));
            out.push('x');
        }
        push_decimal(out, u64::from(t.columns));
    };
    match ShaderVariableClass::from_u32(u32::from(t.class)) {
        Some(ShaderVariableClass::Scalar) => out.push_str(base),
        Some(ShaderVariableClass::Vector) => dims(out, "", false),
        Some(ShaderVariableClass::MatrixRows) => dims(out, "row_major ", true),
        Some(ShaderVariableClass::MatrixColumns) => dims(out, "", true),
        Some(ShaderVariableClass::InterfacePointer) => {
            out.push_str("interface ");
            out.push_str(t.name.as_deref().unwrap_or(""));
        }
        _ => out.push_str(t.name.as_deref().unwrap_or(base)),
    }
}

#[allow(clippy::too_many_arguments)]
fn write_variable(
    out: &mut String,
    indent: usize,
    ty: &Type,
    name: &str,
    offset: u32,
    size: Option<u32>,
    unused: bool,
    first: bool,
    depth: usize,
) {
    const INDENT: &str = "                                                                ";
    let deep;
    let pad = match INDENT.get(..indent) {
        Some(p) => p,
        None => {
            deep = " ".repeat(indent);
            &deep
        }
    };
    let array = |out: &mut String| {
        if ty.elements > 0 {
            out.push('[');
            push_decimal(out, u64::from(ty.elements));
            out.push(']');
        }
    };
    if ty.class == ShaderVariableClass::Struct as u16 && depth < crate::chunks::rdef::MAX_TYPE_DEPTH {
        if !first {
            let _ = writeln!(out, "//{pad}");
        }
        match &ty.name {
            Some(n) => {
                let _ = writeln!(out, "//{pad}struct {n}");
            }
            None => {
                let _ = writeln!(out, "//{pad}struct");
            }
        }
        let _ = writeln!(out, "//{pad}{{");
        let _ = writeln!(out, "//{pad}    ");
        for (i, m) in ty.members.iter().enumerate() {
            write_variable(
                out,
                indent + 4,
                &m.ty,
                &m.name,
                offset.wrapping_add(m.start_offset),
                None,
                false,
                i == 0,
                depth + 1,
            );
        }
        out.push_str("//\n");
        let start = out.len();
        out.push_str("//");
        out.push_str(pad);
        out.push_str("} ");
        out.push_str(name);
        array(out);
        out.push(';');
        finish_decl(out, start, offset, size, unused);
    } else {
        let start = out.len();
        out.push_str("//");
        out.push_str(pad);
        push_type_name(out, ty);
        out.push(' ');
        out.push_str(name);
        array(out);
        out.push(';');
        finish_decl(out, start, offset, size, unused);
    }
}

fn write_default(out: &mut String, bytes: &[u8]) {
    let n = bytes.len() / 4;
    for i in 0..n {
        if i % 4 == 0 {
            out.push_str(if i == 0 { "//      = " } else { "//        " });
        }
        out.push_str("0x");
        super::push_hex8(out, dword(bytes, i));
        out.push(' ');
        if i % 4 == 3 || i + 1 == n {
            out.push('\n');
        }
    }
}

pub(crate) fn binding_type(b: &ResourceBinding) -> &'static str {
    match ShaderInputType::from_u32(b.input_type) {
        Some(ShaderInputType::Sampler)
            if spec::field_value(SHADER_INPUT_FLAGS_FIELDS, "comparison sampler", b.flags) != 0 =>
        {
            "sampler_c"
        }
        // Types fxc has no word for (the D3D12-only ones) print as unknown.
        Some(t) if !t.row().asm.is_empty() => t.row().asm,
        _ => "unknown",
    }
}

/// RDEF stores return types with the program's numbering; fxc spells them
/// as the program listing does except for the second half of a double.
fn return_type_name(v: u32) -> &'static str {
    match ReturnType::from_u32(v) {
        Some(ReturnType::Continued) => "cont",
        Some(ReturnType::Undefined | ReturnType::Unused) | None => "",
        Some(t) => t.row().asm,
    }
}

pub(crate) fn binding_format(b: &ResourceBinding) -> String {
    use ShaderInputType::*;
    match ShaderInputType::from_u32(b.input_type) {
        Some(
            Structured | UavRwstructured | UavAppendStructured | UavConsumeStructured | UavRwstructuredWithCounter,
        ) => "struct".into(),
        Some(Byteaddress | UavRwbyteaddress) => "byte".into(),
        Some(Texture | UavRwtyped) => {
            let n = b.components();
            let base = return_type_name(b.return_type);
            if n > 1 {
                format!("{base}{n}")
            } else {
                base.into()
            }
        }
        _ => "NA".into(),
    }
}

pub(crate) fn binding_dimension(b: &ResourceBinding) -> String {
    use ShaderInputType::*;
    match ShaderInputType::from_u32(b.input_type) {
        Some(Structured | Byteaddress) => "r/o".into(),
        Some(UavRwstructured | UavRwbyteaddress) => "r/w".into(),
        Some(UavAppendStructured) => "append".into(),
        Some(UavConsumeStructured) => "consume".into(),
        Some(UavRwstructuredWithCounter) => "r/w+cnt".into(),
        Some(Texture | UavRwtyped) => {
            let ms = |s: &str| {
                if b.sample_count != 0 && b.sample_count != u32::MAX {
                    format!("{s}{}", b.sample_count)
                } else {
                    s.to_string()
                }
            };
            match SrvDimension::from_u32(b.dimension) {
                Some(d @ (SrvDimension::Texture2dms | SrvDimension::Texture2dmsarray)) => ms(d.row().asm),
                // Unknown's spelling is "NA", as for undefined values.
                Some(d) => d.row().asm.into(),
                None => "NA".into(),
            }
        }
        _ => "NA".into(),
    }
}

fn register_prefix(b: &ResourceBinding) -> &'static str {
    use ShaderInputType::*;
    match ShaderInputType::from_u32(b.input_type) {
        Some(Cbuffer) => "cb",
        Some(Tbuffer | Texture | Structured | Byteaddress) => "t",
        Some(Sampler) => "s",
        _ => "u",
    }
}

fn write_binding(b: &ResourceBinding, d: Dialect, sm51: bool, out: &mut String) {
    let ty = binding_type(b);
    let fmt = binding_format(b);
    let dim = binding_dimension(b);
    out.push_str("// ");
    let name_at = out.len();
    out.push_str(&b.name);
    pad_to(out, name_at, 30);
    out.push(' ');
    push_right(out, ty, 10);
    out.push(' ');
    push_right(out, &fmt, 7);
    out.push(' ');
    push_right(out, &dim, 11);
    out.push(' ');
    if d != Dialect::Modern {
        // "// {name:<30} {type:>10} {format:>7} {dim:>11} {slot:>4} {elements:>8}"
        push_right_num(out, u64::from(b.bind_point), 4);
        out.push(' ');
        push_right_num(out, u64::from(b.bind_count), 8);
        out.push('\n');
        return;
    }
    // "... {id:>7} {bind:>14} {count:>6} " (SM5.1 adds the ID column).
    let prefix = register_prefix(b);
    if sm51 {
        let at = out.len();
        out.extend(prefix.chars().map(|c| c.to_ascii_uppercase()));
        push_decimal(out, u64::from(b.id.unwrap_or(0)));
        right_align_from(out, at, 7);
        out.push(' ');
    }
    let at = out.len();
    out.push_str(prefix);
    push_decimal(out, u64::from(b.bind_point));
    if let Some(space) = b.space.filter(|&s| s != 0) {
        out.push_str(",space");
        push_decimal(out, u64::from(space));
    }
    right_align_from(out, at, 14);
    out.push(' ');
    // Unbounded arrays: fxc shows "unbounded", except for constant buffer
    // arrays, whose count it prints as a plain number (4294967295).
    match b.bind_count {
        0 => push_right(out, "unbounded", 6),
        u32::MAX if b.input_type != ShaderInputType::Cbuffer as u32 => push_right(out, "unbounded", 6),
        n => push_right_num(out, u64::from(n), 6),
    }
    out.push_str(" \n");
}

/// Spaces written a slice at a time.
const SPACES: &str = "                                ";

/// `n` spaces.
fn push_spaces(out: &mut String, n: usize) {
    let mut left = n;
    while left > 0 {
        let k = left.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        left -= k;
    }
}

/// Characters in `s` (its length when ASCII, as names nearly always are).
fn chars(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Spaces after the text written since `start` up to `width` characters
/// (`{:<width}`).
fn pad_to(out: &mut String, start: usize, width: usize) {
    let n = chars(&out[start..]);
    push_spaces(out, width.saturating_sub(n));
}

/// Moves the text written since `start` right, behind spaces, to fill
/// `width` characters (`{:>width}` of it).
fn right_align_from(out: &mut String, start: usize, width: usize) {
    let mut missing = width.saturating_sub(chars(&out[start..]));
    while missing > 0 {
        let k = missing.min(SPACES.len());
        out.insert_str(start, &SPACES[..k]);
        missing -= k;
    }
}

/// `s` after spaces up to `width` characters (`{:>width}`).
fn push_right(out: &mut String, s: &str, width: usize) {
    push_spaces(out, width.saturating_sub(chars(s)));
    out.push_str(s);
}

/// `n` in decimal after spaces up to `width` characters (`{:>width}`).
fn push_right_num(out: &mut String, n: u64, width: usize) {
    let digits = n.checked_ilog10().map_or(1, |d| d as usize + 1);
    push_spaces(out, width.saturating_sub(digits));
    push_decimal(out, n);
}

/// A signature mask as four columns: `xy w`.
fn push_mask(out: &mut String, m: u8) {
    for (i, c) in ['x', 'y', 'z', 'w'].into_iter().enumerate() {
        out.push(if m & (1 << i) != 0 { c } else { ' ' });
    }
}

/// System value as fxc shows it: the stored value, or for pixel-shader
/// outputs (stored as 0) the value implied by the semantic name.
fn shown_system_value(e: &SignatureElement, output: bool, ptype: Option<u32>) -> &'static str {
    if e.system_value != SignatureName::Undefined as u32 || !output || ptype != Some(PS) {
        return system_value_name(e.system_value);
    }
    let n = e.name.to_ascii_lowercase();
    match n.as_str() {
        "sv_target" => "TARGET",
        "sv_depth" => "DEPTH",
        "sv_coverage" => "COVERAGE",
        "sv_depthgreaterequal" => "DEPTHGE",
        "sv_depthlessequal" => "DEPTHLE",
        "sv_stencilref" => "STENCILREF",
        _ => "NONE",
    }
}

/// Register name for elements without a numbered register.
fn special_register(sv: &str) -> Option<&'static str> {
    Some(match sv {
        "DEPTH" => "oDepth",
        "COVERAGE" => "oMask",
        "DEPTHGE" => "oDepthGE",
        "DEPTHLE" => "oDepthLE",
        // fxc right-aligns this one in 14 columns instead of 8.
        "STENCILREF" => "   oStencilRef",
        "PRIMID" => "primID",
        "INNERCOV" => "vInnerCoverage",
        _ => return None,
    })
}

fn format_name(e: &SignatureElement) -> &'static str {
    match SignatureMinPrecision::from_u32(e.min_precision.unwrap_or(0)) {
        Some(p) if !p.row().asm.is_empty() => p.row().asm,
        _ => e.component_type_name(),
    }
}

fn write_signature(
    title: &str,
    sig: Option<&Signature>,
    output: bool,
    ptype: Option<u32>,
    d: Dialect,
    out: &mut String,
) {
    out.push_str("// ");
    out.push_str(title);
    out.push_str(" signature:\n//\n");
    if d == Dialect::V929 {
        out.push_str("// Name                 Index   Mask Register SysValue Format   Used\n");
        out.push_str("// -------------------- ----- ------ -------- -------- ------ ------\n");
    } else {
        out.push_str("// Name                 Index   Mask Register SysValue  Format   Used\n");
        out.push_str("// -------------------- ----- ------ -------- -------- ------- ------\n");
    }
    let elements = sig.map(|s| s.elements.as_slice()).unwrap_or(&[]);
    if elements.is_empty() {
        out.push_str("// no ");
        out.push_str(title);
        out.push('\n');
        return;
    }
    let streams = elements.iter().any(|e| e.stream.unwrap_or(0) != 0);
    let fmt_width = if d == Dialect::V929 { 6 } else { 7 };
    for e in elements {
        // "// {name:<20} {index:>5} {mask:>6} {register:>8} {sv:>8} {format:>w} {used:>6}",
        // written column by column (signature rows are most of a header).
        out.push_str("// ");
        let name_at = out.len();
        if streams {
            out.push('m');
            push_decimal(out, u64::from(e.stream.unwrap_or(0)));
            out.push(':');
        }
        out.push_str(&e.name);
        pad_to(out, name_at, 20);
        out.push(' ');
        push_right_num(out, u64::from(e.semantic_index), 5);
        out.push(' ');
        let sv = shown_system_value(e, output, ptype);
        let used_bits = if output { e.mask & !e.rw_mask & 0xf } else { e.rw_mask & 0xf };
        let special = if e.register == u32::MAX { special_register(sv) } else { None };
        match special {
            Some(r) => {
                push_right(out, "N/A", 6);
                out.push(' ');
                push_right(out, r, 8);
            }
            None => {
                out.push_str("  ");
                push_mask(out, e.mask);
                out.push(' ');
                if e.register == u32::MAX {
                    push_right(out, "-1", 8);
                } else {
                    push_right_num(out, u64::from(e.register), 8);
                }
            }
        }
        out.push(' ');
        push_right(out, sv, 8);
        out.push(' ');
        push_right(out, format_name(e), fmt_width);
        out.push(' ');
        match special {
            Some(_) => push_right(out, if used_bits != 0 { "YES" } else { "NO" }, 6),
            None => {
                out.push_str("  ");
                push_mask(out, used_bits);
            }
        }
        out.push('\n');
    }
    out.push_str("//\n");
}

fn write_tessellation(stat: &Stat, hull: bool, out: &mut String) {
    let domain = match TessDomain::from_u32(stat.domain()) {
        Some(TessDomain::Isoline) => "Isoline",
        Some(TessDomain::Tri) => "Triangle",
        Some(TessDomain::Quad) => "Quadrilateral",
        _ => return,
    };
    let cp = stat.control_points.map_or(0, |f| f.value);
    out.push_str("// Tessellation Domain   # of control points\n");
    out.push_str("// -------------------- --------------------\n");
    let _ = writeln!(out, "// {domain:<20} {cp:>20}");
    out.push_str("//\n");
    if hull {
        let prim = match TessOutputPrimitive::from_u32(stat.hs_output_primitive.map_or(0, |f| f.value)) {
            Some(TessOutputPrimitive::Point) => "Point",
            Some(TessOutputPrimitive::Line) => "Line",
            Some(TessOutputPrimitive::TriangleCw) => "Clockwise Triangles",
            Some(TessOutputPrimitive::TriangleCcw) => "Counter-Clockwise Triangles",
            _ => "Undefined",
        };
        let part = match TessPartitioning::from_u32(stat.hs_partitioning.map_or(0, |f| f.value)) {
            Some(TessPartitioning::Integer) => "Integer",
            Some(TessPartitioning::Pow2) => "Integer Power of 2",
            Some(TessPartitioning::FractionalOdd) => "Odd Fractional",
            Some(TessPartitioning::FractionalEven) => "Even Fractional",
            _ => "Undefined",
        };
        out.push_str("// Tessellation Output Primitive  Partitioning Type \n");
        out.push_str("// ------------------------------ ------------------\n");
        let _ = writeln!(out, "// {prim:<30} {part:<18}");
        out.push_str("//\n");
    }
}

fn write_class_linkage(i: &Ifce, out: &mut String) {
    out.push_str("//\n");
    out.push_str("// Available Class Types:\n//\n");
    out.push_str("// Name                             ID CB Stride Texture Sampler\n");
    out.push_str("// ------------------------------ ---- --------- ------- -------\n");
    for (n, t) in i.class_types.iter().enumerate() {
        let _ = writeln!(out, "// {:<30} {:>4} {:>9} {:>7} {:>7}", t.name, n, t.cb_stride, t.texture, t.sampler);
    }
    out.push_str("//\n");
    if !i.class_instances.is_empty() {
        out.push_str("// Available Class Instances:\n//\n");
        out.push_str("// Name                        Type CB CB Offset Texture Sampler\n");
        out.push_str("// --------------------------- ---- -- --------- ------- -------\n");
        let opt = |v: u16| {
            if v == 0xffff {
                "-".to_string()
            } else {
                v.to_string()
            }
        };
        for c in &i.class_instances {
            let _ = writeln!(
                out,
                "// {:<27} {:>4} {:>2} {:>9} {:>7} {:>7}",
                c.name,
                c.type_id,
                c.constant_buffer,
                c.cb_offset,
                opt(c.texture),
                opt(c.sampler)
            );
        }
        out.push_str("//\n");
    }
    let _ = writeln!(out, "// Interface slots, {} total:\n//", i.interface_slot_count);
    out.push_str("//             Slots\n");
    let rule = "// +----------+---------+---------------------------------------\n";
    out.push_str(rule);
    for s in &i.interface_slots {
        let slots = if s.slot_span > 1 {
            format!("{}-{}", s.start_slot, s.start_slot.wrapping_add(s.slot_span - 1))
        } else {
            s.start_slot.to_string()
        };
        let _ = write!(out, "// | Type ID  |   {slots:<6}|");
        for t in &s.type_ids {
            let _ = write!(out, "{t:<5}");
        }
        out.push_str("\n// | Table ID |         |");
        for t in &s.table_ids {
            let _ = write!(out, "{t:<5}");
        }
        out.push('\n');
        out.push_str(rule);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_from_creator() {
        assert_eq!(dialect(Some("Microsoft (R) HLSL Shader Compiler 9.29.952.3111")), Dialect::V929);
        assert_eq!(dialect(Some("Microsoft (R) HLSL Shader Compiler 9.30.9200.20714")), Dialect::V930);
        assert_eq!(dialect(Some("Microsoft (R) HLSL Shader Compiler 6.3.9600.16384")), Dialect::Old);
        assert_eq!(dialect(Some("Microsoft (R) HLSL Shader Compiler 10.1")), Dialect::Modern);
        assert_eq!(dialect(Some("vkd3d-shader 1.17")), Dialect::Modern);
        assert_eq!(dialect(None), Dialect::Modern);
    }

    #[test]
    fn default_values_four_per_line() {
        let bytes: Vec<u8> = (1u32..=6).flat_map(|v| v.to_le_bytes()).collect();
        let mut out = String::new();
        write_default(&mut out, &bytes);
        assert_eq!(out, "//      = 0x00000001 0x00000002 0x00000003 0x00000004 \n//        0x00000005 0x00000006 \n");
    }

    /// The column helpers give the text of `{:<w}` and `{:>w}`, counting
    /// characters (a name may hold non-ASCII bytes), for text shorter and
    /// longer than the column, and of numbers.
    #[test]
    fn columns_pad_as_format_does() {
        for s in ["", "cb0", "g_texture", "naïve_ß", "a_name_longer_than_the_forty_columns_it_gets_here", "Ω"] {
            for w in [0, 1, 6, 14, 20, 40, 45] {
                let mut left = String::from("// ");
                left.push_str(s);
                pad_to(&mut left, 3, w);
                assert_eq!(left, format!("// {s:<w$}"));
                let mut out = String::new();
                push_right(&mut out, s, w);
                assert_eq!(out, format!("{s:>w$}"));
                let mut moved = String::from("x");
                moved.push_str(s);
                right_align_from(&mut moved, 1, w);
                assert_eq!(moved, format!("x{s:>w$}"));
            }
        }
        for n in [0u64, 9, 10, 4096, u64::from(u32::MAX)] {
            let mut out = String::new();
            push_right_num(&mut out, n, 5);
            assert_eq!(out, format!("{n:>5}"));
        }
    }

    #[test]
    fn declarations_pad_to_column_40() {
        let mut out = String::new();
        out.push_str("//   float4 a;");
        finish_decl(&mut out, 0, 16, Some(16), true);
        let start = out.len();
        out.push_str("//   float4x4 a_rather_long_variable_name;");
        finish_decl(&mut out, start, 0, None, false);
        assert_eq!(
            out,
            "//   float4 a;                          // Offset:   16 Size:    16 [unused]\n\
             //   float4x4 a_rather_long_variable_name;// Offset:    0\n"
        );
    }

    #[test]
    fn feature_notes() {
        let sfi = |flags: u64| {
            let b = flags.to_le_bytes();
            crate::chunks::sfi0::Sfi0::parse(&b, 0).unwrap()
        };
        let info = |major, global_flags| ProgramInfo { kind: Some(PS), major: Some(major), global_flags };
        let mut out = String::new();
        // SM4: bit 1 (raw and structured buffers) is not listed.
        write_features(Some(&sfi(2)), &info(4, 0), &mut out);
        assert_eq!(out, "");
        // SM5 with forceEarlyDepthStencil, plus doubles from SFI0.
        write_features(Some(&sfi(1)), &info(5, FORCE_EARLY_DEPTH_STENCIL), &mut out);
        assert_eq!(
            out,
            "// Note: shader requires additional functionality:\n\
             //       Double-precision floating point\n\
             //       Early depth-stencil\n//\n//\n"
        );
    }

    #[test]
    fn masks() {
        let mask = |m| {
            let mut s = String::new();
            push_mask(&mut s, m);
            s
        };
        assert_eq!(mask(0xf), "xyzw");
        assert_eq!(mask(0x2), " y  ");
        assert_eq!(mask(0x0), "    ");
    }
}
