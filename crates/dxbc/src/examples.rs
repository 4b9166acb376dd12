//! Example shaders the project assembles itself with its own encoder, so
//! the explorer and tests ship no third-party blobs.

use crate::container::write_container;
use crate::spec::{self, FieldDef};

/// Packs `(field, value)` pairs into one token through the format table.
fn pack(fields: &[(&FieldDef, u32)]) -> u32 {
    fields.iter().fold(0, |t, (f, v)| f.put(t, *v))
}

fn opcode(code: u32, extra: u32, len: u32) -> u32 {
    pack(&[(&spec::OPCODE_COMMON_FIELDS[0], code), (&spec::OPCODE_COMMON_FIELDS[1], len)]) | extra
}

/// Operand token: `ty` register file, 4 components, `mode` selection with
/// `sel` bits, and a 1-D immediate index (or none for literals).
fn operand(ty: u32, mode: u32, sel: u32, dims: u32) -> u32 {
    let f = spec::OPERAND_FIELDS;
    pack(&[(&f[0], 2), (&f[1], mode), (&f[2], sel), (&f[3], ty), (&f[4], dims)])
}

const XYZW_SWIZZLE: u32 = 0b11_10_01_00;

/// A small ps_5_0 that tints an interpolated colour by a constant:
/// `mul o0.xyzw, v0.xyzw, cb0[0].xyzw` preceded by its declarations.
pub fn tint_pixel_shader() -> Vec<u8> {
    let mut w: Vec<u32> = Vec::new();
    w.push(pack(&[(&spec::VERSION_FIELDS[0], 0), (&spec::VERSION_FIELDS[1], 5), (&spec::VERSION_FIELDS[3], 0)]));
    w.push(0);
    // dcl_globalFlags refactoringAllowed
    w.push(opcode(106, 1 << 11, 1));
    // dcl_constantbuffer CB0[1], immediateIndexed
    w.extend([opcode(89, 0, 4), operand(8, 1, XYZW_SWIZZLE, 2), 0, 1]);
    // dcl_input_ps linear v0.xyzw
    w.extend([opcode(98, 2 << 11, 3), operand(1, 0, 0xf, 1), 0]);
    // dcl_output o0.xyzw
    w.extend([opcode(101, 0, 3), operand(2, 0, 0xf, 1), 0]);
    // mul o0.xyzw, v0.xyzw, cb0[0].xyzw
    w.extend([
        opcode(56, 0, 8),
        operand(2, 0, 0xf, 1),
        0,
        operand(1, 1, XYZW_SWIZZLE, 1),
        0,
        operand(8, 1, XYZW_SWIZZLE, 2),
        0,
        0,
    ]);
    // ret
    w.push(opcode(62, 0, 1));
    w[1] = w.len() as u32;
    let program: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    write_container(1, &[(*b"SHEX", &program)])
}

// ------------------------------------------------------------ assembler
//
// A tiny assembler for the gallery: every token is packed through the
// format table (opcodes, operand types and enum values are looked up by
// their spec names), and the signature and RDEF chunks are laid out as fxc
// lays them out, so the listing header is meaningful.

fn enum_value(e: &spec::EnumDef, name: &str) -> u32 {
    e.values
        .iter()
        .find(|v| v.spec_name == name || v.asm == name)
        .unwrap_or_else(|| panic!("{} has no value {name}", e.name))
        .value
}

fn opcode_number(spec_name: &str) -> u32 {
    spec::OPCODES.iter().find(|o| o.spec_name == spec_name).unwrap_or_else(|| panic!("no opcode {spec_name}")).code
        as u32
}

/// One operand's dwords.
#[derive(Clone)]
struct Opnd(Vec<u32>);

fn opnd(ty: &str, comps: u32, mode: u32, sel: u32, idx: &[u32]) -> Opnd {
    let f = spec::OPERAND_FIELDS;
    let mut w = vec![pack(&[
        (&f[0], comps),
        (&f[1], mode),
        (&f[2], sel),
        (&f[3], enum_value(&spec::OPERAND_TYPE, ty)),
        (&f[4], idx.len() as u32),
    ])];
    w.extend_from_slice(idx);
    Opnd(w)
}

fn comp_mask(m: &str) -> u32 {
    m.bytes().fold(0, |a, c| a | 1 << "xyzw".find(c as char).unwrap())
}

fn swz(s: &str) -> u32 {
    s.bytes().enumerate().fold(0, |a, (i, c)| a | ("xyzw".find(c as char).unwrap() as u32) << (2 * i))
}

/// Destination with a write mask.
fn dst(ty: &str, idx: &[u32], mask: &str) -> Opnd {
    opnd(ty, 2, 0, comp_mask(mask), idx)
}

/// Source with a swizzle.
fn src(ty: &str, idx: &[u32], s: &str) -> Opnd {
    opnd(ty, 2, 1, swz(s), idx)
}

/// Operand without components (samplers, resources in some places).
fn bare(ty: &str, idx: &[u32]) -> Opnd {
    opnd(ty, 0, 0, 0, idx)
}

/// Immediate floats: one (scalar) or four.
fn imm(v: &[f32]) -> Opnd {
    let comps = if v.len() == 1 { 1 } else { 2 };
    let mut o = opnd("IMMEDIATE32", comps, 0, 0, &[]);
    o.0.extend(v.iter().map(|x| x.to_bits()));
    o
}

/// Negates a source operand through an extended operand token.
fn neg(mut o: Opnd) -> Opnd {
    let f = spec::EXTENDED_OPERAND_FIELDS;
    o.0[0] = spec::OPERAND_FIELDS[8].put(o.0[0], 1);
    let ext = pack(&[(&f[0], 1), (&f[1], enum_value(&spec::OPERAND_MODIFIER, "NEG"))]);
    o.0.insert(1, ext);
    o
}

struct Prog {
    w: Vec<u32>,
}

impl Prog {
    fn new(stage: &str, major: u32, minor: u32) -> Prog {
        let v = spec::VERSION_FIELDS;
        Prog { w: vec![pack(&[(&v[0], minor), (&v[1], major), (&v[3], enum_value(&spec::PROGRAM_TYPE, stage))]), 0] }
    }

    /// Appends an instruction: opcode by spec name, named controls,
    /// extended opcode tokens, operands, then payload dwords.
    fn ins(&mut self, name: &str, controls: &[(&str, u32)], ext: &[u32], ops: &[Opnd], payload: &[u32]) {
        let code = opcode_number(name);
        let len = 1 + ext.len() + ops.iter().map(|o| o.0.len()).sum::<usize>() + payload.len();
        let mut t = opcode(code, 0, len as u32);
        for (n, v) in controls {
            let f = spec::opcode_controls(code as u16)
                .iter()
                .find(|f| f.name == *n)
                .unwrap_or_else(|| panic!("{name} has no control {n}"));
            t = f.put(t, *v);
        }
        if !ext.is_empty() {
            t = spec::OPCODE_COMMON_FIELDS[2].put(t, 1);
        }
        self.w.push(t);
        for (i, e) in ext.iter().enumerate() {
            let more = u32::from(i + 1 < ext.len());
            self.w.push(*e | more << 31);
        }
        for o in ops {
            self.w.extend_from_slice(&o.0);
        }
        self.w.extend_from_slice(payload);
    }

    fn op(&mut self, name: &str, ops: &[Opnd]) {
        self.ins(name, &[], &[], ops, &[]);
    }

    /// An immediate constant buffer: a custom-data block of vec4s.
    fn icb(&mut self, rows: &[[f32; 4]]) {
        let class = enum_value(&spec::CUSTOMDATA_CLASS, "DCL_IMMEDIATE_CONSTANT_BUFFER");
        let t = pack(&[(&spec::CUSTOMDATA_FIELDS[0], 53), (&spec::CUSTOMDATA_FIELDS[1], class)]);
        self.w.push(t);
        self.w.push(2 + 4 * rows.len() as u32);
        self.w.extend(rows.iter().flatten().map(|x| x.to_bits()));
    }

    fn bytes(mut self) -> Vec<u8> {
        self.w[1] = self.w.len() as u32;
        self.w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
}

fn ext_resource_dim(dim: &str) -> u32 {
    let f = spec::EXT_RESOURCE_DIM_FIELDS;
    pack(&[(&f[0], 2), (&f[1], enum_value(&spec::RESOURCE_DIMENSION, dim))])
}

fn ext_return_float4() -> u32 {
    let f = spec::EXT_RETURN_TYPE_FIELDS;
    let fl = enum_value(&spec::RETURN_TYPE, "FLOAT");
    pack(&[(&f[0], 3), (&f[1], fl), (&f[2], fl), (&f[3], fl), (&f[4], fl)])
}

fn return_float4() -> u32 {
    let f = spec::RETURN_TYPE_TOKEN_FIELDS;
    let fl = enum_value(&spec::RETURN_TYPE, "FLOAT");
    pack(&[(&f[0], fl), (&f[1], fl), (&f[2], fl), (&f[3], fl)])
}

fn sysname(n: &str) -> u32 {
    enum_value(&spec::SYSTEM_NAME, n)
}

/// One signature element: semantic, index, `D3D_NAME`, register, mask,
/// read/write mask (float components).
struct El(&'static str, u32, u32, u32, u8, u8);

fn signature(els: &[El]) -> Vec<u8> {
    use crate::chunks::signature::{Signature, SignatureElement, SignatureLayout, StringPlacement};
    let elements = els
        .iter()
        .map(|e| SignatureElement {
            offset: 0,
            stream: None,
            name_offset: 0,
            name: e.0.into(),
            semantic_index: e.1,
            system_value: e.2,
            component_type: 3, // float
            register: e.3,
            mask: e.4,
            rw_mask: e.5,
            reserved: 0,
            min_precision: None,
        })
        .collect();
    Signature {
        offset: 0,
        fourcc: *b"ISGN",
        layout: SignatureLayout::Basic,
        element_count: 0,
        element_offset: 0,
        elements,
        strings: StringPlacement::Shared,
    }
    .encode()
}

/// A constant-buffer variable: name, byte offset, size, (class, rows, columns), type name.
struct Var(&'static str, u32, u32, (u16, u16, u16), &'static str);
/// A resource binding: name, input type, return type, dimension, bind point, flags.
struct Bind(&'static str, u32, u32, u32, u32, u32);

/// An SM5 RDEF chunk with one constant buffer (when `vars` is not empty),
/// built as a model and laid out by the RDEF encoder.
fn rdef(stage_code: u16, cb_name: &str, vars: &[Var], binds: &[Bind]) -> Vec<u8> {
    use crate::chunks::rdef::{ConstantBuffer, Rd11Header, Rdef, RdefLayout, ResourceBinding, Type, Variable};
    let bindings = binds
        .iter()
        .map(|b| ResourceBinding {
            offset: 0,
            name_offset: 0,
            name: b.0.into(),
            input_type: b.1,
            return_type: b.2,
            dimension: b.3,
            sample_count: if b.1 == 2 || b.1 == 4 { u32::MAX } else { 0 },
            bind_point: b.4,
            bind_count: 1,
            flags: b.5,
            space: None,
            id: None,
        })
        .collect();
    let variables: Vec<Variable> = vars
        .iter()
        .map(|v| {
            let ty = Type::new_sm5(v.3 .0, 3 /* float */, v.3 .1, v.3 .2, Some(v.4.into()));
            Variable::new_sm5(v.0.into(), v.1, v.2, 2 /* used */, ty)
        })
        .collect();
    let constant_buffers = if vars.is_empty() {
        Vec::new()
    } else {
        let size = vars.iter().map(|v| v.1 + v.2).max().unwrap_or(0).div_ceil(16) * 16;
        vec![ConstantBuffer {
            offset: 0,
            name_offset: 0,
            name: cb_name.into(),
            variable_count: 0,
            variable_offset: 0,
            size,
            flags: 0,
            kind: 0,
            variables,
        }]
    };
    Rdef {
        layout: RdefLayout::Fxc,
        offset: 0,
        constant_buffer_count: 0,
        constant_buffer_offset: 0,
        binding_count: 0,
        binding_offset: 0,
        minor_version: 0,
        major_version: 5,
        program_type: stage_code,
        compile_flags: 0x100, // no preshader
        creator_offset: 0,
        creator: "DXBC Explorer example assembler".into(),
        rd11: Some(Rd11Header {
            offset: 0,
            magic: crate::chunks::rdef::MAGIC_RD11,
            sm51: false,
            header_size: 60,
            constant_buffer_record_size: 24,
            binding_record_size: 32,
            variable_record_size: 40,
            type_record_size: 36,
            member_record_size: 12,
            interface_slot_count: 0,
        }),
        constant_buffers,
        bindings,
    }
    .encode()
}

fn container(chunks: &[([u8; 4], &[u8])]) -> Vec<u8> {
    write_container(1, chunks)
}

const PS: u16 = 0xFFFF;
const VS: u16 = 0xFFFE;
const CS: u16 = 0x4353;
const GS: u16 = 0x4753;
const HS: u16 = 0x4853;
const DS: u16 = 0x4453;

/// vs_5_0: transforms a position by a matrix in a constant buffer and
/// tints the colour. RDEF, ISGN, OSGN and SHEX.
pub fn transform_vertex_shader() -> Vec<u8> {
    let mut p = Prog::new("vs", 5, 0);
    p.ins("DCL_GLOBAL_FLAGS", &[("refactoringAllowed", 1)], &[], &[], &[]);
    p.ins("DCL_CONSTANT_BUFFER", &[], &[], &[src("CONSTANT_BUFFER", &[0, 5], "xyzw")], &[]);
    p.op("DCL_INPUT", &[dst("INPUT", &[0], "xyzw")]);
    p.op("DCL_INPUT", &[dst("INPUT", &[1], "xyzw")]);
    p.ins("DCL_OUTPUT_SIV", &[], &[], &[dst("OUTPUT", &[0], "xyzw")], &[sysname("POSITION")]);
    p.op("DCL_OUTPUT", &[dst("OUTPUT", &[1], "xyzw")]);
    for (i, c) in ["x", "y", "z", "w"].iter().enumerate() {
        p.op(
            "DP4",
            &[dst("OUTPUT", &[0], c), src("INPUT", &[0], "xyzw"), src("CONSTANT_BUFFER", &[0, i as u32], "xyzw")],
        );
    }
    p.op("MUL", &[dst("OUTPUT", &[1], "xyzw"), src("INPUT", &[1], "xyzw"), src("CONSTANT_BUFFER", &[0, 4], "xyzw")]);
    p.op("RET", &[]);
    let r = rdef(
        VS,
        "Transform",
        &[Var("world_view_proj", 0, 64, (3, 4, 4), "float4x4"), Var("tint", 64, 16, (1, 1, 4), "float4")],
        &[Bind("Transform", 0, 0, 0, 0, 0)],
    );
    let i = signature(&[El("POSITION", 0, 0, 0, 0xf, 0xf), El("COLOR", 0, 0, 1, 0xf, 0xf)]);
    let o = signature(&[El("SV_Position", 0, 1, 0, 0xf, 0), El("COLOR", 0, 0, 1, 0xf, 0)]);
    container(&[(*b"RDEF", &r), (*b"ISGN", &i), (*b"OSGN", &o), (*b"SHEX", &p.bytes())])
}

/// ps_5_0: samples a texture, inverts it and tints it. Shows extended
/// opcode tokens (sample's resource dimension and return type), an
/// extended operand token (negation), immediates, and a custom-data block
/// (an immediate constant buffer). The guided tour runs on this one.
pub fn textured_pixel_shader() -> Vec<u8> {
    let mut p = Prog::new("ps", 5, 0);
    p.ins("DCL_GLOBAL_FLAGS", &[("refactoringAllowed", 1)], &[], &[], &[]);
    p.icb(&[[1.0, 0.5, 0.25, 1.0], [0.25, 0.5, 1.0, 1.0]]);
    p.ins("DCL_CONSTANT_BUFFER", &[], &[], &[src("CONSTANT_BUFFER", &[0, 1], "xyzw")], &[]);
    p.ins("DCL_SAMPLER", &[("sampler mode", 0)], &[], &[bare("SAMPLER", &[0])], &[]);
    p.ins(
        "DCL_RESOURCE",
        &[("resource dimension", enum_value(&spec::RESOURCE_DIMENSION, "TEXTURE2D"))],
        &[],
        &[bare("RESOURCE", &[0])],
        &[return_float4()],
    );
    p.ins(
        "DCL_INPUT_PS",
        &[("interpolation", enum_value(&spec::INTERPOLATION_MODE, "LINEAR"))],
        &[],
        &[dst("INPUT", &[1], "xy")],
        &[],
    );
    p.op("DCL_OUTPUT", &[dst("OUTPUT", &[0], "xyzw")]);
    p.ins("DCL_TEMPS", &[], &[], &[], &[1]);
    p.ins(
        "SAMPLE",
        &[],
        &[ext_resource_dim("TEXTURE2D"), ext_return_float4()],
        &[dst("TEMP", &[0], "xyzw"), src("INPUT", &[1], "xyxx"), src("RESOURCE", &[0], "xyzw"), bare("SAMPLER", &[0])],
        &[],
    );
    p.op("ADD", &[dst("TEMP", &[0], "xyzw"), neg(src("TEMP", &[0], "xyzw")), imm(&[1.0, 1.0, 1.0, 1.0])]);
    p.op(
        "MUL",
        &[dst("TEMP", &[0], "xyzw"), src("TEMP", &[0], "xyzw"), src("IMMEDIATE_CONSTANT_BUFFER", &[1], "xyzw")],
    );
    p.op("MUL", &[dst("OUTPUT", &[0], "xyzw"), src("TEMP", &[0], "xyzw"), src("CONSTANT_BUFFER", &[0, 0], "xyzw")]);
    p.op("RET", &[]);
    let r = rdef(
        PS,
        "Material",
        &[Var("tint", 0, 16, (1, 1, 4), "float4")],
        &[Bind("linear_sampler", 3, 0, 0, 0, 0), Bind("albedo", 2, 5, 4, 0, 0x0c), Bind("Material", 0, 0, 0, 0, 0)],
    );
    let i = signature(&[El("SV_Position", 0, 1, 0, 0xf, 0), El("TEXCOORD", 0, 0, 1, 0x3, 0x3)]);
    let o = signature(&[El("SV_Target", 0, 64, 0, 0xf, 0)]);
    container(&[(*b"RDEF", &r), (*b"ISGN", &i), (*b"OSGN", &o), (*b"SHEX", &p.bytes())])
}

/// gs_4_0 (an SM4 SHDR chunk): turns each point into a small triangle.
pub fn point_to_triangle_geometry_shader() -> Vec<u8> {
    let mut p = Prog::new("gs", 4, 0);
    p.ins("DCL_GS_INPUT_PRIMITIVE", &[("primitive", enum_value(&spec::PRIMITIVE, "POINT"))], &[], &[], &[]);
    p.ins(
        "DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY",
        &[("topology", enum_value(&spec::PRIMITIVE_TOPOLOGY, "TRIANGLESTRIP"))],
        &[],
        &[],
        &[],
    );
    p.ins("DCL_INPUT_SIV", &[], &[], &[dst("INPUT", &[1, 0], "xyzw")], &[sysname("POSITION")]);
    p.ins("DCL_OUTPUT_SIV", &[], &[], &[dst("OUTPUT", &[0], "xyzw")], &[sysname("POSITION")]);
    p.ins("DCL_MAX_OUTPUT_VERTEX_COUNT", &[], &[], &[], &[3]);
    for d in [[-0.05, -0.05, 0.0, 0.0], [0.05, -0.05, 0.0, 0.0], [0.0, 0.05, 0.0, 0.0]] {
        p.op("ADD", &[dst("OUTPUT", &[0], "xyzw"), src("INPUT", &[0, 0], "xyzw"), imm(&d)]);
        p.op("EMIT", &[]);
    }
    p.op("CUT", &[]);
    p.op("RET", &[]);
    let i = signature(&[El("SV_Position", 0, 1, 0, 0xf, 0xf)]);
    let o = signature(&[El("SV_Position", 0, 1, 0, 0xf, 0)]);
    let r = rdef(GS, "", &[], &[]);
    container(&[(*b"RDEF", &r), (*b"ISGN", &i), (*b"OSGN", &o), (*b"SHDR", &p.bytes())])
}

/// hs_5_0: a pass-through triangle patch with constant tessellation
/// factors written in two fork phases.
pub fn constant_tessellation_hull_shader() -> Vec<u8> {
    let mut p = Prog::new("hs", 5, 0);
    p.op("HS_DECLS", &[]);
    p.ins("DCL_INPUT_CONTROL_POINT_COUNT", &[("control points", 3)], &[], &[], &[]);
    p.ins("DCL_OUTPUT_CONTROL_POINT_COUNT", &[("control points", 3)], &[], &[], &[]);
    p.ins("DCL_TESS_DOMAIN", &[("domain", enum_value(&spec::TESS_DOMAIN, "TRI"))], &[], &[], &[]);
    p.ins("DCL_TESS_PARTITIONING", &[("partitioning", enum_value(&spec::TESS_PARTITIONING, "INTEGER"))], &[], &[], &[]);
    p.ins(
        "DCL_TESS_OUTPUT_PRIMITIVE",
        &[("output primitive", enum_value(&spec::TESS_OUTPUT_PRIMITIVE, "TRIANGLE_CW"))],
        &[],
        &[],
        &[],
    );
    p.ins("DCL_HS_MAX_TESSFACTOR", &[], &[], &[], &[64f32.to_bits()]);
    p.op("HS_FORK_PHASE", &[]);
    p.ins("DCL_HS_FORK_PHASE_INSTANCE_COUNT", &[], &[], &[], &[3]);
    p.op("DCL_INPUT", &[bare("INPUT_FORK_INSTANCE_ID", &[])]);
    p.ins("DCL_OUTPUT_SIV", &[], &[], &[dst("OUTPUT", &[0], "x")], &[sysname("FINAL_TRI_U_EQ_0_EDGE_TESSFACTOR")]);
    p.ins("DCL_OUTPUT_SIV", &[], &[], &[dst("OUTPUT", &[1], "x")], &[sysname("FINAL_TRI_V_EQ_0_EDGE_TESSFACTOR")]);
    p.ins("DCL_OUTPUT_SIV", &[], &[], &[dst("OUTPUT", &[2], "x")], &[sysname("FINAL_TRI_W_EQ_0_EDGE_TESSFACTOR")]);
    p.op("MOV", &[dst("OUTPUT", &[0], "x"), imm(&[4.0])]);
    p.op("MOV", &[dst("OUTPUT", &[1], "x"), imm(&[4.0])]);
    p.op("MOV", &[dst("OUTPUT", &[2], "x"), imm(&[4.0])]);
    p.op("RET", &[]);
    p.op("HS_FORK_PHASE", &[]);
    p.ins("DCL_OUTPUT_SIV", &[], &[], &[dst("OUTPUT", &[3], "x")], &[sysname("FINAL_TRI_INSIDE_TESSFACTOR")]);
    p.op("MOV", &[dst("OUTPUT", &[3], "x"), imm(&[4.0])]);
    p.op("RET", &[]);
    let cp = signature(&[El("SV_Position", 0, 0, 0, 0xf, 0)]);
    let pc = signature(&[
        El("SV_TessFactor", 0, 13, 0, 0x1, 0xe),
        El("SV_TessFactor", 1, 13, 1, 0x1, 0xe),
        El("SV_TessFactor", 2, 13, 2, 0x1, 0xe),
        El("SV_InsideTessFactor", 0, 14, 3, 0x1, 0xe),
    ]);
    let r = rdef(HS, "", &[], &[]);
    container(&[(*b"RDEF", &r), (*b"ISGN", &cp), (*b"OSGN", &cp), (*b"PCSG", &pc), (*b"SHEX", &p.bytes())])
}

/// ds_5_0: interpolates the triangle's corners with the domain point.
pub fn barycentric_domain_shader() -> Vec<u8> {
    let mut p = Prog::new("ds", 5, 0);
    p.ins("DCL_INPUT_CONTROL_POINT_COUNT", &[("control points", 3)], &[], &[], &[]);
    p.ins("DCL_TESS_DOMAIN", &[("domain", enum_value(&spec::TESS_DOMAIN, "TRI"))], &[], &[], &[]);
    p.op("DCL_INPUT", &[dst("INPUT_DOMAIN_POINT", &[], "xyz")]);
    p.op("DCL_INPUT", &[dst("INPUT_CONTROL_POINT", &[3, 0], "xyzw")]);
    p.ins("DCL_OUTPUT_SIV", &[], &[], &[dst("OUTPUT", &[0], "xyzw")], &[sysname("POSITION")]);
    p.ins("DCL_TEMPS", &[], &[], &[], &[1]);
    p.op(
        "MUL",
        &[
            dst("TEMP", &[0], "xyzw"),
            src("INPUT_DOMAIN_POINT", &[], "yyyy"),
            src("INPUT_CONTROL_POINT", &[1, 0], "xyzw"),
        ],
    );
    p.op(
        "MAD",
        &[
            dst("TEMP", &[0], "xyzw"),
            src("INPUT_DOMAIN_POINT", &[], "xxxx"),
            src("INPUT_CONTROL_POINT", &[0, 0], "xyzw"),
            src("TEMP", &[0], "xyzw"),
        ],
    );
    p.op(
        "MAD",
        &[
            dst("OUTPUT", &[0], "xyzw"),
            src("INPUT_DOMAIN_POINT", &[], "zzzz"),
            src("INPUT_CONTROL_POINT", &[2, 0], "xyzw"),
            src("TEMP", &[0], "xyzw"),
        ],
    );
    p.op("RET", &[]);
    let cp = signature(&[El("SV_Position", 0, 0, 0, 0xf, 0xf)]);
    let pc = signature(&[
        El("SV_TessFactor", 0, 13, 0, 0x1, 0),
        El("SV_TessFactor", 1, 13, 1, 0x1, 0),
        El("SV_TessFactor", 2, 13, 2, 0x1, 0),
        El("SV_InsideTessFactor", 0, 14, 3, 0x1, 0),
    ]);
    let o = signature(&[El("SV_Position", 0, 1, 0, 0xf, 0)]);
    let r = rdef(DS, "", &[], &[]);
    container(&[(*b"RDEF", &r), (*b"ISGN", &cp), (*b"PCSG", &pc), (*b"OSGN", &o), (*b"SHEX", &p.bytes())])
}

/// cs_5_0: writes a gradient into a RWTexture2D, 8×8 threads per group.
pub fn gradient_compute_shader() -> Vec<u8> {
    let mut p = Prog::new("cs", 5, 0);
    p.ins("DCL_GLOBAL_FLAGS", &[("refactoringAllowed", 1)], &[], &[], &[]);
    p.ins(
        "DCL_UNORDERED_ACCESS_VIEW_TYPED",
        &[("resource dimension", enum_value(&spec::RESOURCE_DIMENSION, "TEXTURE2D"))],
        &[],
        &[bare("UNORDERED_ACCESS_VIEW", &[0])],
        &[return_float4()],
    );
    p.op("DCL_INPUT", &[dst("INPUT_THREAD_ID", &[], "xy")]);
    p.ins("DCL_TEMPS", &[], &[], &[], &[1]);
    p.ins("DCL_THREAD_GROUP", &[], &[], &[], &[8, 8, 1]);
    p.op("UTOF", &[dst("TEMP", &[0], "xy"), src("INPUT_THREAD_ID", &[], "xyxx")]);
    p.op("MUL", &[dst("TEMP", &[0], "xy"), src("TEMP", &[0], "xyxx"), imm(&[0.125, 0.125, 0.0, 0.0])]);
    p.op("MOV", &[dst("TEMP", &[0], "zw"), imm(&[0.0, 0.0, 0.0, 1.0])]);
    p.op(
        "STORE_UAV_TYPED",
        &[dst("UNORDERED_ACCESS_VIEW", &[0], "xyzw"), src("INPUT_THREAD_ID", &[], "xyyy"), src("TEMP", &[0], "xyzw")],
    );
    p.op("RET", &[]);
    let r = rdef(CS, "", &[], &[Bind("output", 4, 5, 4, 0, 0x0c)]);
    let none = signature(&[]);
    container(&[(*b"RDEF", &r), (*b"ISGN", &none), (*b"OSGN", &none), (*b"SHEX", &p.bytes())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tint_shader_decodes_and_prints() {
        let bytes = tint_pixel_shader();
        let s = crate::Shader::parse(&bytes).unwrap();
        assert!(s.checksum_ok());
        let p = s.program.as_ref().unwrap();
        let mut text = String::new();
        crate::listing::program::write_program(p, false, false, &mut text);
        assert_eq!(
            text,
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_constantbuffer CB0[1], immediateIndexed\n\
             dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\nmul o0.xyzw, v0.xyzw, cb0[0].xyzw\nret \n"
        );
        assert_eq!(s.rebuild(), bytes);
    }

    /// A gallery builder and its name.
    type Example = (fn() -> Vec<u8>, &'static str);

    #[test]
    fn gallery_examples_decode_cleanly() {
        let all: [Example; 6] = [
            (transform_vertex_shader, "vs_5_0"),
            (textured_pixel_shader, "ps_5_0"),
            (point_to_triangle_geometry_shader, "gs_4_0"),
            (constant_tessellation_hull_shader, "hs_5_0"),
            (barycentric_domain_shader, "ds_5_0"),
            (gradient_compute_shader, "cs_5_0"),
        ];
        for (f, profile) in all {
            let bytes = f();
            let s = crate::Shader::parse(&bytes).unwrap_or_else(|e| panic!("{profile}: {e}"));
            assert_eq!(s.profile().as_deref(), Some(profile));
            assert!(s.checksum_ok());
            assert!(s.rdef.is_some(), "{profile}");
            assert_eq!(s.rebuild(), bytes, "{profile}");
            let text = crate::listing::disassemble(&s);
            assert!(!text.contains("unknown"), "{profile}:\n{text}");
        }
    }
}
