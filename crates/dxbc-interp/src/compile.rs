//! Pre-translation: a decoded program becomes a flat list of [`Op`]s with
//! resolved operands and jump targets, so execution never re-reads tokens.
//! Declarations are folded into [`Code`]'s tables here.

use std::collections::BTreeMap;

use dxbc::program::{Instruction, Operand, Program, NO_OPERAND};
use dxbc::spec::{
    self, CustomdataClass, ExtendedOpcodeType, IndexRepresentation, InterpolationMode, NumType, Opcode,
    OperandModifier, OperandType, ProgramType, ResourceDimension, SelectionMode,
};

use crate::error::{Error, ErrorKind, Result};

/// Caps on what a program may declare (the interpreter allocates these per lane).
pub const MAX_TEMPS: u32 = 4096;
/// Most elements of all indexable temps together.
pub const MAX_INDEXABLE: u32 = 1 << 16;
/// Most input or output registers.
pub const MAX_REGS: u32 = 1024;
/// Most bytes of group-shared memory (the D3D11 limit is 32 KiB).
pub const MAX_TGSM_BYTES: u32 = 32 * 1024;
/// Most threads in a group (D3D11: 1024).
pub const MAX_GROUP_THREADS: u32 = 1024;
/// Most rows of the immediate constant buffer (D3D11: 4096).
pub const MAX_ICB_ROWS: usize = 4096;

/// An index: an immediate plus, optionally, a register's first selected component.
#[derive(Clone, Debug)]
pub(crate) struct Idx {
    pub imm: u32,
    pub rel: Option<Box<Src>>,
}

/// System-value registers, by their slot in a lane's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sys {
    /// vThreadID.
    ThreadId = 0,
    /// vThreadGroupID.
    GroupId = 1,
    /// vThreadIDInGroup.
    ThreadInGroup = 2,
    /// vThreadIDInGroupFlattened.
    Flattened = 3,
    /// vPrim.
    PrimitiveId = 4,
    /// vGSInstanceID.
    GsInstance = 5,
    /// vCoverage.
    Coverage = 6,
    /// vCycleCounter (always 0 here).
    CycleCounter = 7,
    /// vOutputControlPointID (hull control-point phase).
    OutputControlPointId = 8,
    /// vForkInstanceID (hull fork phases).
    ForkInstance = 9,
    /// vJoinInstanceID (hull join phases).
    JoinInstance = 10,
    /// vDomain: the domain point's (u, v, w) as floats (domain shaders).
    DomainLocation = 11,
}

/// Number of system-value slots.
pub const SYS_SLOTS: usize = 12;

/// Registers of one control point and of the patch-constant record, as
/// lanes of hull and domain shaders hold them (D3D11: 32 each).
pub const CONTROL_POINT_REGS: usize = 32;

/// Where a value lives.
#[derive(Clone, Debug)]
pub(crate) enum Loc {
    Temp(u32),
    Input(Idx),
    InputVertex(Idx, Idx),
    /// vicp[point][register] of a hull shader: `Lane::input_points`,
    /// [`CONTROL_POINT_REGS`] registers per point.
    ControlPoint(Idx, Idx),
    /// vocp[point][register] (hull fork and join phases) and a domain
    /// shader's vicp: `Lane::control_points`, as [`Loc::ControlPoint`].
    OutputControlPoint(Idx, Idx),
    /// vpc[register] (domain shaders, hull join phases): `Lane::patch_constants`.
    PatchConstant(Idx),
    Output(Idx),
    Indexable(u32, Idx),
    Imm([u32; 4]),
    Cb(u32, Idx),
    Icb(Idx),
    Sys(Sys),
    OutDepth,
    OutMask,
    Null,
}

/// A source: location, swizzle and modifier.
#[derive(Clone, Debug)]
pub(crate) struct Src {
    pub loc: Loc,
    pub swz: [u8; 4],
    pub neg: bool,
    pub abs: bool,
}

/// A destination: location and write mask.
#[derive(Clone, Debug)]
pub(crate) struct Dst {
    pub loc: Loc,
    pub mask: u8,
}

/// One operand as execution needs it.
#[derive(Clone, Debug)]
pub(crate) enum Opnd {
    Dst(Dst),
    Src(Src),
    /// t#: slot and the swizzle applied to what is read.
    Srv(u32, [u8; 4]),
    /// u#: slot, read swizzle, write mask (stores).
    Uav(u32, [u8; 4], u8),
    /// g#: as u#.
    Tgsm(u32, [u8; 4], u8),
    /// s# and the component a gather reads.
    Sampler(u32, u8),
    Label(u32),
    Stream(u32),
    Rasterizer,
}

/// How source modifiers apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModKind {
    Float,
    Int,
    Double,
}

/// A switch's targets.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cases {
    pub cases: Vec<(u32, u32)>,
    pub default: Option<u32>,
    pub end: u32,
}

/// One executable instruction.
#[derive(Clone, Debug)]
pub(crate) struct Op {
    pub code: Opcode,
    pub offset: u32,
    pub sat: bool,
    /// Conditional instructions: the condition holds on non-zero.
    pub nz: bool,
    pub modk: ModKind,
    pub ops: Vec<Opnd>,
    /// Jump target (op index) of control flow.
    pub jump: u32,
    pub aoff: [i32; 3],
    /// resinfo / sampleinfo return type.
    pub ret: u32,
    pub sync_threads: bool,
    pub cases: Option<Box<Cases>>,
}

/// A pixel-shader input declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputDecl {
    /// Register number.
    pub reg: u32,
    /// Components.
    pub mask: u8,
    /// Interpolation (pixel shaders; `Undefined` elsewhere).
    pub interpolation: InterpolationMode,
    /// System value number (0 none).
    pub sysval: u32,
}

/// Group-shared memory g#.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TgsmDecl {
    /// Size in 32-bit words.
    pub words: u32,
    /// Structure stride in bytes (0 for raw).
    pub stride: u32,
}

/// A geometry shader's declarations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GsDecl {
    /// Vertices of each input primitive (`dcl_inputprimitive`: 1, 2, 3, 4 or 6).
    pub input_vertices: u32,
    /// What the emitted vertices form (`dcl_outputtopology`).
    pub output: spec::PrimitiveTopology,
    /// Invocations per input primitive (`dcl_gsinstances`).
    pub instances: u32,
    /// Most vertices one invocation emits (`dcl_maxout`).
    pub max_vertices: u32,
}

impl Default for GsDecl {
    fn default() -> GsDecl {
        GsDecl { input_vertices: 1, output: spec::PrimitiveTopology::Undefined, instances: 1, max_vertices: 0 }
    }
}

/// A hull or domain shader's tessellation declarations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TessDecl {
    /// `dcl_tessellator_domain`.
    pub domain: Option<tessellator::Domain>,
    /// `dcl_tessellator_partitioning` (hull shaders).
    pub partitioning: Option<tessellator::Partitioning>,
    /// `dcl_tessellator_output_primitive` (hull shaders).
    pub output_primitive: Option<tessellator::OutputPrimitive>,
    /// `dcl_input_control_point_count` (for a domain shader: the hull
    /// shader's output control points).
    pub input_control_points: u32,
    /// `dcl_output_control_point_count` (hull shaders).
    pub output_control_points: u32,
    /// Where the hull shader writes each tessellation factor: its system
    /// value (`dcl_output_siv`, 11 ..= 22) and (register, component) of
    /// the patch-constant record.
    pub factors: Vec<(spec::SystemName, u32, u32)>,
}

/// One fork or join phase of a hull shader.
#[derive(Clone, Debug)]
pub struct HullPhase {
    /// A join phase (else a fork phase).
    pub join: bool,
    /// `dcl_hs_fork_phase_instance_count` / `dcl_hs_join_phase_instance_count` (1 if absent).
    pub instances: u32,
    /// The phase as a program of its own (its own temps).
    pub code: Code,
}

/// A hull shader's phases, each compiled as a program of its own: the
/// declarations before the first phase, then the phase's instructions,
/// then the subroutines after the last phase.
#[derive(Clone, Debug, Default)]
pub struct Hull {
    /// `hs_control_point_phase`; None passes the input control points through.
    pub control_point: Option<Code>,
    /// The fork and join phases in program order.
    pub phases: Vec<HullPhase>,
}

impl Hull {
    /// Whether the output control points are the input ones: no
    /// control-point phase, or one that declares no output (see
    /// [`crate::tessellation`]).
    pub fn passes_through(&self) -> bool {
        self.control_point.as_ref().is_none_or(|c| c.outputs.is_empty())
    }
}

/// A program ready to run.
#[derive(Clone, Debug)]
pub struct Code {
    /// The stage.
    pub stage: ProgramType,
    pub(crate) ops: Vec<Op>,
    /// Temp registers.
    pub temps: u32,
    /// Indexable temps: register number → (length, first element in the lane's pool).
    pub(crate) indexable: BTreeMap<u32, (u32, u32)>,
    pub(crate) indexable_total: u32,
    pub(crate) icb: Vec<[u32; 4]>,
    /// Threads per group (compute).
    pub thread_group: [u32; 3],
    /// Input declarations.
    pub inputs: Vec<InputDecl>,
    /// Output register numbers with their masks and system values.
    pub outputs: Vec<InputDecl>,
    /// One past the highest input register.
    pub input_regs: u32,
    /// One past the highest output register.
    pub output_regs: u32,
    /// Group-shared memory.
    pub tgsm: BTreeMap<u32, TgsmDecl>,
    /// Declared dimension of each t#.
    pub srv_dims: BTreeMap<u32, ResourceDimension>,
    /// Declared dimension of each u#.
    pub uav_dims: BTreeMap<u32, ResourceDimension>,
    /// Structure strides of structured t# / u# (keyed by (is_uav, slot)).
    pub strides: BTreeMap<(bool, u32), u32>,
    /// The program writes oDepth.
    pub writes_depth: bool,
    /// `dcl_globalFlags forceEarlyDepthStencil`: the depth test runs before
    /// the pixel shader, so a pixel that fails it has no side effects.
    pub early_depth: bool,
    /// Geometry-shader declarations (defaults elsewhere).
    pub gs: GsDecl,
    /// Tessellation declarations (hull and domain shaders; defaults elsewhere).
    pub tess: TessDecl,
    /// A hull shader's phases.
    pub hull: Option<Box<Hull>>,
    /// Instructions the program has (not counting declarations).
    pub instruction_count: usize,
}

impl Code {
    /// Each indexable temp `x#` with its length, by register number.
    pub fn indexable_regs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.indexable.iter().map(|(&reg, &(len, _))| (reg, len))
    }

    /// Byte offsets of the executable instructions, in program order.
    pub fn instruction_offsets(&self) -> impl Iterator<Item = u32> + '_ {
        self.ops.iter().map(|o| o.offset)
    }
}

fn err(kind: ErrorKind, detail: impl Into<String>, offset: u32) -> Error {
    Error::new(kind, detail, offset)
}

/// Translates a decoded program. Fails on what cannot run: an unknown or
/// unsupported opcode, unbalanced control flow, declarations over the caps.
/// A hull shader's phases are compiled each as a program of its own
/// ([`Code::hull`]); its top-level `ops` are empty.
pub fn compile(p: &Program) -> Result<Code> {
    let base = p.offset as u32;
    let stage = ProgramType::from_u32(p.version.program_type())
        .ok_or_else(|| err(ErrorKind::UnsupportedStage(p.version.program_type()), "", base))?;
    if matches!(stage, ProgramType::MeshShader | ProgramType::AmplificationShader) {
        return Err(err(ErrorKind::UnsupportedStage(stage as u32), "", base));
    }
    let all: Vec<&Instruction> = p.instructions.iter().collect();
    if stage != ProgramType::HullShader {
        return compile_list(p, stage, &all);
    }
    compile_hull(p, &all)
}

/// A hull shader: the declarations (before the first phase and in
/// `hs_decls`), each phase, and the subroutines (from the first `label`,
/// which fxc places after the last phase) that every phase may call.
fn compile_hull(p: &Program, all: &[&Instruction]) -> Result<Code> {
    let marker = |i: &Instruction| {
        matches!(
            i.op(),
            Some(Opcode::HsDecls | Opcode::HsControlPointPhase | Opcode::HsForkPhase | Opcode::HsJoinPhase)
        )
    };
    let subroutines = all.iter().position(|i| i.op() == Some(Opcode::Label)).unwrap_or(all.len());
    let (body, tail) = all.split_at(subroutines);
    let mut decls: Vec<&Instruction> = Vec::new();
    // (marker opcode, its instructions)
    let mut sections: Vec<(Opcode, Vec<&Instruction>)> = Vec::new();
    for &ins in body {
        if marker(ins) {
            let op = ins.op().unwrap_or(Opcode::HsDecls);
            sections.push((op, Vec::new()));
        } else {
            match sections.last_mut() {
                Some((Opcode::HsDecls, _)) | None => decls.push(ins),
                Some((_, list)) => list.push(ins),
            }
        }
    }
    let phase_code = |list: &[&Instruction]| -> Result<Code> {
        let joined: Vec<&Instruction> = decls.iter().chain(list).chain(tail).copied().collect();
        compile_list(p, ProgramType::HullShader, &joined)
    };
    let mut code = compile_list(p, ProgramType::HullShader, &decls)?;
    let mut hull = Hull::default();
    for (op, list) in &sections {
        let c = match op {
            Opcode::HsDecls => continue,
            _ => phase_code(list)?,
        };
        // Factors declared in any phase (fxc declares them in the fork phases).
        for f in &c.tess.factors {
            if !code.tess.factors.contains(f) {
                code.tess.factors.push(*f);
            }
        }
        match op {
            Opcode::HsControlPointPhase => hull.control_point = Some(c),
            _ => {
                let join = *op == Opcode::HsJoinPhase;
                let count =
                    if join { Opcode::DclHsJoinPhaseInstanceCount } else { Opcode::DclHsForkPhaseInstanceCount };
                let instances = list.iter().find(|i| i.op() == Some(count)).map_or(1, |i| payload(p, i, 0));
                if instances > MAX_PHASE_INSTANCES {
                    let at = list.first().map_or(p.offset as u32, |i| i.offset);
                    return Err(err(ErrorKind::Limit, format!("{instances} phase instances"), at));
                }
                hull.phases.push(HullPhase { join, instances, code: c });
            }
        }
    }
    code.instruction_count =
        hull.control_point.iter().chain(hull.phases.iter().map(|h| &h.code)).map(|c| c.ops.len()).sum();
    code.hull = Some(Box::new(hull));
    Ok(code)
}

/// Most instances of one fork or join phase (a phase's instances write
/// the patch constants, of which D3D11 has 32 registers × 4 components).
pub const MAX_PHASE_INSTANCES: u32 = 128;

/// Compiles `list` (declarations and instructions of one program, or of
/// one hull-shader phase with the shader's declarations).
fn compile_list(p: &Program, stage: ProgramType, list: &[&Instruction]) -> Result<Code> {
    let sm51 = p.version.is_sm51();
    let mut code = Code {
        stage,
        ops: Vec::new(),
        temps: 0,
        indexable: BTreeMap::new(),
        indexable_total: 0,
        icb: Vec::new(),
        thread_group: [1, 1, 1],
        inputs: Vec::new(),
        outputs: Vec::new(),
        input_regs: 0,
        output_regs: 0,
        tgsm: BTreeMap::new(),
        srv_dims: BTreeMap::new(),
        uav_dims: BTreeMap::new(),
        strides: BTreeMap::new(),
        writes_depth: false,
        early_depth: false,
        gs: GsDecl::default(),
        tess: TessDecl::default(),
        hull: None,
        instruction_count: 0,
    };
    let mut labels: BTreeMap<u32, u32> = BTreeMap::new();
    let cx = Cx { p, sm51, stage };
    for &ins in list {
        let Some(op) = ins.op() else {
            return Err(err(ErrorKind::UnknownOpcode(ins.opcode()), "", ins.offset));
        };
        if ins.is_customdata() {
            if CustomdataClass::from_u32(ins.customdata_class()) == Some(CustomdataClass::DclImmediateConstantBuffer) {
                let words: Vec<u32> = ins.payload(p).iter().map(|w| w.value).collect();
                if words.len() / 4 > MAX_ICB_ROWS {
                    return Err(err(ErrorKind::Limit, "immediate constant buffer over 4096 rows", ins.offset));
                }
                code.icb = words.chunks(4).map(|c| std::array::from_fn(|i| c.get(i).copied().unwrap_or(0))).collect();
            }
            continue;
        }
        let info = op.info();
        if info.class == spec::OpClass::Decl {
            declare(&cx, &mut code, ins, op)?;
            continue;
        }
        match op {
            Opcode::Nop | Opcode::HsDecls => continue,
            Opcode::HsControlPointPhase | Opcode::HsForkPhase | Opcode::HsJoinPhase | Opcode::InterfaceCall => {
                return Err(err(ErrorKind::Unsupported(op), "", ins.offset))
            }
            _ => {}
        }
        if op == Opcode::Label {
            let id = ins.operand(p, 0).map(|o| o.index[0].imm as u32).unwrap_or(0);
            labels.insert(id, code.ops.len() as u32);
        }
        code.ops.push(cx.op(ins, op)?);
    }
    code.instruction_count = code.ops.len();
    link(&mut code, &labels)?;
    Ok(code)
}

struct Cx<'p> {
    p: &'p Program,
    sm51: bool,
    stage: ProgramType,
}

fn payload(p: &Program, ins: &Instruction, i: usize) -> u32 {
    ins.payload(p).get(i).map_or(0, |w| w.value)
}

fn declare(cx: &Cx, code: &mut Code, ins: &Instruction, op: Opcode) -> Result<()> {
    let p = cx.p;
    let o0 = ins.operand(p, 0);
    let reg = |o: Option<&Operand>| -> u32 {
        o.map_or(0, |o| {
            let d = if o.index_dim() >= 2 { o.index_dim() - 1 } else { 0 };
            o.index[d.min(2)].imm as u32
        })
    };
    let slot = |o: Option<&Operand>| -> u32 {
        o.map_or(0, |o| if cx.sm51 && o.index_dim() >= 2 { o.index[1].imm as u32 } else { o.index[0].imm as u32 })
    };
    match op {
        Opcode::DclTemps => {
            let n = payload(p, ins, 0);
            if n > MAX_TEMPS {
                return Err(err(ErrorKind::Limit, format!("{n} temps"), ins.offset));
            }
            code.temps = n;
        }
        Opcode::DclIndexableTemp => {
            let (r, len) = (payload(p, ins, 0), payload(p, ins, 1));
            let total = code.indexable_total.saturating_add(len);
            if total > MAX_INDEXABLE {
                return Err(err(ErrorKind::Limit, format!("indexable temps of {total} elements"), ins.offset));
            }
            code.indexable.insert(r, (len, code.indexable_total));
            code.indexable_total = total;
        }
        Opcode::DclGsInputPrimitive => {
            use spec::Primitive as P;
            let value = spec::control(op as u16, "primitive", ins.token);
            code.gs.input_vertices = match P::from_u32(value) {
                Some(P::Point) => 1,
                Some(P::Line) => 2,
                Some(P::Triangle) => 3,
                Some(P::LineAdj) => 4,
                Some(P::TriangleAdj) => 6,
                // Patches of 1 to 32 control points follow one another.
                Some(_) if value >= P::ControlPointPatch1 as u32 => value - P::ControlPointPatch1 as u32 + 1,
                _ => {
                    return Err(err(
                        ErrorKind::Malformed,
                        format!("geometry shader input primitive {value}"),
                        ins.offset,
                    ))
                }
            };
        }
        Opcode::DclGsOutputPrimitiveTopology => {
            code.gs.output = spec::PrimitiveTopology::from_u32(spec::control(op as u16, "topology", ins.token))
                .unwrap_or(spec::PrimitiveTopology::Undefined);
        }
        Opcode::DclGsInstanceCount => {
            let n = payload(p, ins, 0);
            // D3D11 allows 1 to 32 instances.
            if !(1..=32).contains(&n) {
                return Err(err(ErrorKind::Limit, format!("{n} geometry shader instances"), ins.offset));
            }
            code.gs.instances = n;
        }
        Opcode::DclMaxOutputVertexCount => code.gs.max_vertices = payload(p, ins, 0),
        Opcode::DclInputControlPointCount | Opcode::DclOutputControlPointCount => {
            let n = spec::control(op as u16, "control points", ins.token);
            // D3D11 patches have 1 to 32 control points (a hull shader may declare 0 inputs).
            if n > 32 {
                return Err(err(ErrorKind::Limit, format!("{n} control points"), ins.offset));
            }
            if op == Opcode::DclInputControlPointCount {
                code.tess.input_control_points = n;
            } else {
                code.tess.output_control_points = n;
            }
        }
        Opcode::DclTessDomain => {
            use spec::TessDomain as D;
            code.tess.domain = match D::from_u32(spec::control(op as u16, "domain", ins.token)) {
                Some(D::Isoline) => Some(tessellator::Domain::Isoline),
                Some(D::Tri) => Some(tessellator::Domain::Tri),
                Some(D::Quad) => Some(tessellator::Domain::Quad),
                _ => None,
            };
        }
        Opcode::DclTessPartitioning => {
            use spec::TessPartitioning as T;
            use tessellator::Partitioning as P;
            code.tess.partitioning = match T::from_u32(spec::control(op as u16, "partitioning", ins.token)) {
                Some(T::Integer) => Some(P::Integer),
                Some(T::Pow2) => Some(P::Pow2),
                Some(T::FractionalOdd) => Some(P::FractionalOdd),
                Some(T::FractionalEven) => Some(P::FractionalEven),
                _ => None,
            };
        }
        Opcode::DclTessOutputPrimitive => {
            use spec::TessOutputPrimitive as T;
            use tessellator::OutputPrimitive as P;
            code.tess.output_primitive = match T::from_u32(spec::control(op as u16, "output primitive", ins.token)) {
                Some(T::Point) => Some(P::Point),
                Some(T::Line) => Some(P::Line),
                Some(T::TriangleCw) => Some(P::TriangleCw),
                Some(T::TriangleCcw) => Some(P::TriangleCcw),
                _ => None,
            };
        }
        Opcode::DclGlobalFlags => {
            code.early_depth =
                dxbc::spec::field_value(dxbc::spec::GLOBAL_FLAGS_CONTROLS, "forceEarlyDepthStencil", ins.token) != 0;
        }
        Opcode::DclThreadGroup => {
            let g = [payload(p, ins, 0), payload(p, ins, 1), payload(p, ins, 2)];
            let n = g.iter().map(|&x| x as u64).product::<u64>();
            if n == 0 || n > MAX_GROUP_THREADS as u64 {
                return Err(err(ErrorKind::Limit, format!("thread group {g:?}"), ins.offset));
            }
            code.thread_group = g;
        }
        Opcode::DclThreadGroupSharedMemoryRaw | Opcode::DclThreadGroupSharedMemoryStructured => {
            let (bytes, stride) = if op == Opcode::DclThreadGroupSharedMemoryRaw {
                (payload(p, ins, 0) as u64, 0)
            } else {
                let s = payload(p, ins, 0);
                (s as u64 * payload(p, ins, 1) as u64, s)
            };
            let used: u64 = code.tgsm.values().map(|t| t.words as u64 * 4).sum();
            if bytes + used > MAX_TGSM_BYTES as u64 {
                return Err(err(
                    ErrorKind::Limit,
                    format!("{} bytes of group-shared memory", bytes + used),
                    ins.offset,
                ));
            }
            code.tgsm.insert(reg(o0), TgsmDecl { words: bytes.div_ceil(4) as u32, stride });
        }
        Opcode::DclInput
        | Opcode::DclInputSgv
        | Opcode::DclInputSiv
        | Opcode::DclInputPs
        | Opcode::DclInputPsSgv
        | Opcode::DclInputPsSiv => {
            let Some(o) = o0 else { return Ok(()) };
            if o.operand_type() != Some(OperandType::Input) {
                return Ok(());
            }
            let r = reg(o0);
            if r >= MAX_REGS {
                return Err(err(ErrorKind::Limit, format!("input register {r}"), ins.offset));
            }
            let interpolation = if matches!(op, Opcode::DclInputPs | Opcode::DclInputPsSiv) {
                InterpolationMode::from_u32(spec::control(op as u16, "interpolation", ins.token))
                    .unwrap_or(InterpolationMode::Undefined)
            } else if op == Opcode::DclInputPsSgv {
                InterpolationMode::Constant
            } else {
                InterpolationMode::Undefined
            };
            let sysval =
                if matches!(op, Opcode::DclInput | Opcode::DclInputPs) { 0 } else { payload(p, ins, 0) & 0xffff };
            code.inputs.push(InputDecl { reg: r, mask: o.mask() as u8, interpolation, sysval });
            code.input_regs = code.input_regs.max(r + 1);
        }
        Opcode::DclOutput | Opcode::DclOutputSgv | Opcode::DclOutputSiv => {
            let Some(o) = o0 else { return Ok(()) };
            match o.operand_type() {
                Some(OperandType::Output) => {
                    let r = reg(o0);
                    if r >= MAX_REGS {
                        return Err(err(ErrorKind::Limit, format!("output register {r}"), ins.offset));
                    }
                    let sysval = if op == Opcode::DclOutput { 0 } else { payload(p, ins, 0) & 0xffff };
                    let name = spec::SystemName::from_u32(sysval);
                    if let Some(
                        n @ (spec::SystemName::FinalQuadUEq0EdgeTessfactor
                        | spec::SystemName::FinalQuadVEq0EdgeTessfactor
                        | spec::SystemName::FinalQuadUEq1EdgeTessfactor
                        | spec::SystemName::FinalQuadVEq1EdgeTessfactor
                        | spec::SystemName::FinalQuadUInsideTessfactor
                        | spec::SystemName::FinalQuadVInsideTessfactor
                        | spec::SystemName::FinalTriUEq0EdgeTessfactor
                        | spec::SystemName::FinalTriVEq0EdgeTessfactor
                        | spec::SystemName::FinalTriWEq0EdgeTessfactor
                        | spec::SystemName::FinalTriInsideTessfactor
                        | spec::SystemName::FinalLineDetailTessfactor
                        | spec::SystemName::FinalLineDensityTessfactor),
                    ) = name
                    {
                        let component = (o.mask() & 0xf).trailing_zeros().min(3);
                        code.tess.factors.push((n, r, component));
                    }
                    code.outputs.push(InputDecl {
                        reg: r,
                        mask: o.mask() as u8,
                        interpolation: InterpolationMode::Undefined,
                        sysval,
                    });
                    code.output_regs = code.output_regs.max(r + 1);
                }
                Some(
                    OperandType::OutputDepth | OperandType::OutputDepthGreaterEqual | OperandType::OutputDepthLessEqual,
                ) => code.writes_depth = true,
                _ => {}
            }
        }
        Opcode::DclResource | Opcode::DclResourceRaw | Opcode::DclResourceStructured => {
            let dim = match op {
                Opcode::DclResource => {
                    ResourceDimension::from_u32(spec::control(op as u16, "resource dimension", ins.token))
                        .unwrap_or(ResourceDimension::Unknown)
                }
                Opcode::DclResourceRaw => ResourceDimension::RawBuffer,
                _ => {
                    code.strides.insert((false, slot(o0)), payload(p, ins, 0));
                    ResourceDimension::StructuredBuffer
                }
            };
            code.srv_dims.insert(slot(o0), dim);
        }
        Opcode::DclUnorderedAccessViewTyped
        | Opcode::DclUnorderedAccessViewRaw
        | Opcode::DclUnorderedAccessViewStructured => {
            let dim = match op {
                Opcode::DclUnorderedAccessViewTyped => {
                    ResourceDimension::from_u32(spec::control(op as u16, "resource dimension", ins.token))
                        .unwrap_or(ResourceDimension::Unknown)
                }
                Opcode::DclUnorderedAccessViewRaw => ResourceDimension::RawBuffer,
                _ => {
                    code.strides.insert((true, slot(o0)), payload(p, ins, 0));
                    ResourceDimension::StructuredBuffer
                }
            };
            code.uav_dims.insert(slot(o0), dim);
        }
        Opcode::DclFunctionBody | Opcode::DclFunctionTable | Opcode::DclInterface => {
            return Err(err(ErrorKind::Unsupported(op), "interfaces (dynamic linkage)", ins.offset));
        }
        _ => {}
    }
    Ok(())
}

impl Cx<'_> {
    fn op(&self, ins: &Instruction, op: Opcode) -> Result<Op> {
        let info = op.info();
        let modk = match info.imm {
            NumType::Int | NumType::Uint => ModKind::Int,
            NumType::Double => ModKind::Double,
            _ => ModKind::Float,
        };
        let ndst = spec::destination_count(info);
        let mut ops = Vec::with_capacity(ins.n_ops as usize);
        for (i, o) in ins.operands(self.p).enumerate() {
            ops.push(self.opnd(o, i < ndst, ins.offset, 0)?);
        }
        let mut aoff = [0i32; 3];
        for &e in ins.ext(self.p) {
            if ExtendedOpcodeType::from_u32(spec::EXT_OTHER_FIELDS[0].get(e))
                == Some(ExtendedOpcodeType::SampleControls)
            {
                let f = spec::EXT_SAMPLE_CONTROLS_FIELDS;
                for (k, name) in ["u offset", "v offset", "w offset"].iter().enumerate() {
                    let v = spec::field_value(f, name, e) as i32;
                    // 4-bit two's complement.
                    aoff[k] = (v << 28) >> 28;
                }
            }
        }
        let code = op as u16;
        Ok(Op {
            code: op,
            offset: ins.offset,
            sat: spec::control(code, "saturate", ins.token) != 0,
            nz: spec::control(code, "test", ins.token) != 0,
            modk,
            ops,
            jump: 0,
            aoff,
            ret: spec::control(code, "return type", ins.token),
            sync_threads: spec::control(code, "threads in group", ins.token) != 0,
            cases: None,
        })
    }

    fn idx(&self, o: &Operand, d: usize, at: u32, depth: u32) -> Result<Idx> {
        let i = &o.index[d.min(2)];
        let rel = match o.index_representation(d) {
            Some(r) if r.is_relative() && i.rel != NO_OPERAND => {
                let ro = self
                    .p
                    .operands
                    .get(i.rel as usize)
                    .ok_or_else(|| err(ErrorKind::Malformed, "relative index operand", at))?;
                match self.opnd(ro, false, at, depth + 1)? {
                    Opnd::Src(s) => Some(Box::new(s)),
                    _ => return Err(err(ErrorKind::Malformed, "relative index is not a register", at)),
                }
            }
            Some(IndexRepresentation::Immediate32 | IndexRepresentation::Immediate64) | None => None,
            Some(_) => None,
        };
        Ok(Idx { imm: i.imm as u32, rel })
    }

    fn imm_index(o: &Operand, d: usize) -> u32 {
        o.index[d.min(2)].imm as u32
    }

    fn opnd(&self, o: &Operand, dst: bool, at: u32, depth: u32) -> Result<Opnd> {
        if depth > 4 {
            return Err(err(ErrorKind::Malformed, "relative indices nested too deep", at));
        }
        let Some(ty) = o.operand_type() else {
            return Err(err(ErrorKind::Malformed, format!("operand type {}", o.ty()), at));
        };
        let sel = o.selection();
        let ncomp = o.num_components();
        let swz: [u8; 4] = match (ncomp, sel) {
            (2, Some(SelectionMode::SwizzleMode)) => o.swizzle().map(|c| c as u8),
            (2, Some(SelectionMode::Select1Mode)) => [o.select1() as u8; 4],
            _ => [0, 1, 2, 3],
        };
        let mask: u8 = match (ncomp, sel) {
            (2, Some(SelectionMode::MaskMode)) => o.mask() as u8,
            (1, _) => 1,
            _ => 0xf,
        };
        let res_slot =
            |o: &Operand| if self.sm51 && o.index_dim() >= 2 { Self::imm_index(o, 1) } else { Self::imm_index(o, 0) };
        let loc = match ty {
            OperandType::Resource => return Ok(Opnd::Srv(res_slot(o), swz)),
            OperandType::UnorderedAccessView => return Ok(Opnd::Uav(res_slot(o), swz, mask)),
            OperandType::ThreadGroupSharedMemory => return Ok(Opnd::Tgsm(Self::imm_index(o, 0), swz, mask)),
            OperandType::Sampler => return Ok(Opnd::Sampler(res_slot(o), swz[0])),
            OperandType::Label => return Ok(Opnd::Label(Self::imm_index(o, 0))),
            OperandType::Stream => return Ok(Opnd::Stream(Self::imm_index(o, 0))),
            OperandType::Rasterizer => return Ok(Opnd::Rasterizer),
            OperandType::Temp => Loc::Temp(Self::imm_index(o, 0)),
            // fxc's control-point phases read `v[i][r]`, the same registers as vicp.
            OperandType::InputControlPoint | OperandType::Input
                if self.stage == ProgramType::HullShader
                    && (ty == OperandType::InputControlPoint || o.index_dim() >= 2) =>
            {
                Loc::ControlPoint(self.idx(o, 0, at, depth)?, self.idx(o, 1, at, depth)?)
            }
            // A domain shader's input control points are the hull shader's output ones.
            OperandType::OutputControlPoint | OperandType::InputControlPoint
                if self.stage == ProgramType::DomainShader || ty == OperandType::OutputControlPoint =>
            {
                Loc::OutputControlPoint(self.idx(o, 0, at, depth)?, self.idx(o, 1, at, depth)?)
            }
            OperandType::InputPatchConstant => Loc::PatchConstant(self.idx(o, 0, at, depth)?),
            OperandType::OutputControlPointId => Loc::Sys(Sys::OutputControlPointId),
            OperandType::InputForkInstanceId => Loc::Sys(Sys::ForkInstance),
            OperandType::InputJoinInstanceId => Loc::Sys(Sys::JoinInstance),
            OperandType::InputDomainPoint => Loc::Sys(Sys::DomainLocation),
            OperandType::Input | OperandType::InputControlPoint => {
                if o.index_dim() >= 2 {
                    Loc::InputVertex(self.idx(o, 0, at, depth)?, self.idx(o, 1, at, depth)?)
                } else {
                    Loc::Input(self.idx(o, 0, at, depth)?)
                }
            }
            OperandType::Output => Loc::Output(self.idx(o, 0, at, depth)?),
            OperandType::IndexableTemp => Loc::Indexable(Self::imm_index(o, 0), self.idx(o, 1, at, depth)?),
            OperandType::Immediate32 => {
                let v = o.imm(self.p);
                if v.len() == 1 {
                    Loc::Imm([v[0]; 4])
                } else {
                    Loc::Imm(std::array::from_fn(|i| v.get(i).copied().unwrap_or(0)))
                }
            }
            OperandType::Immediate64 => {
                // Two doubles at most fit a register: (lo, hi) pairs in x,y and z,w.
                let v = o.imm(self.p);
                let pair = |k: usize| -> (u32, u32) {
                    (v.get(2 * k).copied().unwrap_or(0), v.get(2 * k + 1).copied().unwrap_or(0))
                };
                let (a, b) = (pair(0), if v.len() > 2 { pair(1) } else { pair(0) });
                Loc::Imm([a.0, a.1, b.0, b.1])
            }
            OperandType::ConstantBuffer => {
                if self.sm51 && o.index_dim() >= 3 {
                    Loc::Cb(Self::imm_index(o, 1), self.idx(o, 2, at, depth)?)
                } else {
                    Loc::Cb(Self::imm_index(o, 0), self.idx(o, 1, at, depth)?)
                }
            }
            OperandType::ImmediateConstantBuffer => Loc::Icb(self.idx(o, 0, at, depth)?),
            OperandType::InputThreadId => Loc::Sys(Sys::ThreadId),
            OperandType::InputThreadGroupId => Loc::Sys(Sys::GroupId),
            OperandType::InputThreadIdInGroup => Loc::Sys(Sys::ThreadInGroup),
            OperandType::InputThreadIdInGroupFlattened => Loc::Sys(Sys::Flattened),
            OperandType::InputPrimitiveid => Loc::Sys(Sys::PrimitiveId),
            OperandType::InputGsInstanceId => Loc::Sys(Sys::GsInstance),
            OperandType::InputCoverageMask => Loc::Sys(Sys::Coverage),
            OperandType::CycleCounter => Loc::Sys(Sys::CycleCounter),
            OperandType::OutputDepth | OperandType::OutputDepthGreaterEqual | OperandType::OutputDepthLessEqual => {
                Loc::OutDepth
            }
            OperandType::OutputCoverageMask => Loc::OutMask,
            OperandType::Null => Loc::Null,
            _ => return Err(err(ErrorKind::UnsupportedFeature, format!("operand type {}", ty.row().asm), at)),
        };
        let m = OperandModifier::from_u32(o.modifier(self.p)).unwrap_or(OperandModifier::None);
        Ok(if dst {
            Opnd::Dst(Dst { loc, mask })
        } else {
            Opnd::Src(Src {
                loc,
                swz,
                neg: matches!(m, OperandModifier::Neg | OperandModifier::Absneg),
                abs: matches!(m, OperandModifier::Abs | OperandModifier::Absneg),
            })
        })
    }
}

/// Resolves jump targets of structured control flow and calls.
fn link(code: &mut Code, labels: &BTreeMap<u32, u32>) -> Result<()> {
    enum Open {
        If(usize, Option<usize>),
        Loop(usize, Vec<usize>),
        Switch(usize, Cases, Vec<usize>),
    }
    let mut stack: Vec<Open> = Vec::new();
    let n = code.ops.len();
    for i in 0..n {
        let at = code.ops[i].offset;
        let bad = |what: &str| err(ErrorKind::Malformed, what.to_string(), at);
        match code.ops[i].code {
            Opcode::If => stack.push(Open::If(i, None)),
            Opcode::Else => match stack.last_mut() {
                Some(Open::If(_, e @ None)) => *e = Some(i),
                _ => return Err(bad("else without if")),
            },
            Opcode::Endif => match stack.pop() {
                Some(Open::If(start, e)) => {
                    code.ops[start].jump = e.map_or(i, |e| e + 1) as u32;
                    if let Some(e) = e {
                        code.ops[e].jump = i as u32;
                    }
                }
                _ => return Err(bad("endif without if")),
            },
            Opcode::Loop => stack.push(Open::Loop(i, Vec::new())),
            Opcode::Endloop => match stack.pop() {
                Some(Open::Loop(start, breaks)) => {
                    code.ops[i].jump = start as u32 + 1;
                    code.ops[start].jump = i as u32 + 1;
                    for b in breaks {
                        code.ops[b].jump = i as u32 + 1;
                    }
                }
                _ => return Err(bad("endloop without loop")),
            },
            Opcode::Switch => stack.push(Open::Switch(i, Cases::default(), Vec::new())),
            Opcode::Case | Opcode::Default => match stack.last_mut() {
                Some(Open::Switch(_, cases, _)) => {
                    if code.ops[i].code == Opcode::Default {
                        cases.default = Some(i as u32);
                    } else {
                        let v = match code.ops[i].ops.first() {
                            Some(Opnd::Src(Src { loc: Loc::Imm(v), .. })) => v[0],
                            _ => return Err(bad("case without a literal")),
                        };
                        cases.cases.push((v, i as u32));
                    }
                }
                _ => return Err(bad("case outside a switch")),
            },
            Opcode::Endswitch => match stack.pop() {
                Some(Open::Switch(start, mut cases, breaks)) => {
                    cases.end = i as u32 + 1;
                    code.ops[start].cases = Some(Box::new(cases));
                    for b in breaks {
                        code.ops[b].jump = i as u32 + 1;
                    }
                }
                _ => return Err(bad("endswitch without switch")),
            },
            Opcode::Break | Opcode::Breakc => {
                match stack.iter_mut().rev().find(|o| matches!(o, Open::Loop(..) | Open::Switch(..))) {
                    Some(Open::Loop(_, b) | Open::Switch(_, _, b)) => b.push(i),
                    _ => return Err(bad("break outside a loop or switch")),
                }
            }
            Opcode::Continue | Opcode::Continuec => match stack.iter().rev().find(|o| matches!(o, Open::Loop(..))) {
                Some(Open::Loop(start, _)) => code.ops[i].jump = *start as u32 + 1,
                _ => return Err(bad("continue outside a loop")),
            },
            Opcode::Call | Opcode::Callc => {
                let l = code.ops[i].ops.iter().find_map(|o| match o {
                    Opnd::Label(l) => Some(*l),
                    _ => None,
                });
                match l.and_then(|l| labels.get(&l)) {
                    Some(&pc) => code.ops[i].jump = pc + 1,
                    None => return Err(bad("call to a label that does not exist")),
                }
            }
            Opcode::Label if !stack.is_empty() => return Err(bad("label inside a block")),
            _ => {}
        }
    }
    if let Some(o) = stack.last() {
        let i = match o {
            Open::If(i, _) | Open::Loop(i, _) | Open::Switch(i, _, _) => *i,
        };
        return Err(err(ErrorKind::Malformed, "block not closed", code.ops[i].offset));
    }
    Ok(())
}
