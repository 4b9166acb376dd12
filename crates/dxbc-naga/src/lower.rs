//! Lowering a DXBC program to naga IR.
//!
//! ## Shape: typed values, not typed storage
//! DXBC registers are typeless 32-bit four-vectors. Storing every write
//! into a `vec4<u32>` and bitcasting at every use is correct but unreadable,
//! so temps `r#` are not storage here: each temp component holds its
//! *current value* (`regs.rs`) — an immediate's bits, or a component of the
//! naga expression that computed it, with the kind (f32/i32/u32) its
//! instruction gave it. A write records the value (one named `let` per
//! destination write, `r1_xyz`, so the backends print one line per
//! instruction and inline the rest); a read gathers its lanes from the
//! current values (the value itself, a swizzle or a compose) and bitcasts
//! only where the reader's kind differs from the value's: a real
//! reinterpretation. `mov`, `movc` and `swapc` are typeless and keep the
//! kind their source has; `iadd`, `and`, `imad` and the other
//! sign-agnostic instructions take the integer kind most of their sources
//! have (on a tie, the one their readers take). A value its readers take
//! in another kind more often than in its own is bitcast once where it is
//! written, not at each read (`Lower::kind_for_reads`), and a literal is
//! written in the kind it is read in. Component-wise instructions compute
//! only the lanes their destination mask writes.
//!
//! A naga value lives to the end of the block it was emitted in, so values
//! that cross a block boundary go through a scalar local: one per live
//! range of a temp component (a web: the definitions that reach a common
//! read, `liveness.rs`; one per component where the flow is not modelled),
//! named after the register (`r1_x`, `r1_x_1`), made on first need and
//! typed by the kind fewest of its reads and writes would bitcast (a
//! pre-pass counts them). The rule: a construct
//! (`if`, `switch`, `loop`) opens a register scope; each of its blocks
//! starts from the values at the opening (they dominate it) and stores
//! what it wrote at its end and before `break`/`continue`; after the
//! construct, what it wrote is read from the variables, and values it
//! overwrote that were not stored yet are stored just before it. A loop
//! first stores every component its body writes (the pre-pass knows them)
//! so its head reads the variable on every iteration. Constant-buffer rows,
//! inputs and system-value inputs (`vThreadID`) never change in a body:
//! their loads are kept while their block is open. Naga's validator is the judge of the scoping.
//!
//! A backward liveness pass over the program (`liveness.rs`) decides what
//! is worth emitting: a pure instruction whose temp destination no path
//! reads is left out, a component-wise one computes only its live lanes,
//! and a store into a component's variable is skipped where the component
//! is dead (a variable never stored is never declared).
//!
//! Inputs `v#` and outputs `o#` stay private `vec4<u32>` globals and
//! indexable temps `x#` local arrays. A constant buffer with RDEF
//! variables is a struct of them (`cbuffer_struct.rs`), read member by
//! member; one read with dynamic rows, or without RDEF, is an array of the
//! `vec4` kind most of its variables have (f32 without RDEF); the
//! immediate constant buffer is an array of the kind most of its words
//! look like.
//!
//! An output write is not stored at once: the written components wait
//! until the block ends, a construct opens, a flow instruction (`ret`,
//! `emit`, `discard`, a jump) runs, or something reads the register; then
//! a register whose four components all wait is stored as one vector
//! (`o0_ = vec4(color.xyz, alpha)`), the others component by component.
//! Hull and domain passes, whose outputs are stage-buffer pointers, store
//! at once.
//!
//! Immediate operands are folded where D3D's rules would otherwise be
//! spelt out at run time: a shift count or bit-field width/offset is masked
//! to five bits here, and `ubfe`/`ibfe`/`bfi` with immediate fields become
//! plain shifts and masks (`(x >> 5u) & 1023u`). Raw and structured loads
//! read only the words the destination mask takes through the swizzle.
//!
//! Immediates are built in the kind their reader wants: a float from its
//! exact bits (`f32::from_bits`, printed by naga as the shortest decimal
//! that round-trips, so no float parse is involved; translation.md's "raw
//! bits" rule is kept in substance), a NaN or infinity still as bits and a
//! bitcast (WGSL has no such literal); integers in decimal, and the WGSL
//! text then writes bit masks (the literal operands of `&`, `|`, `^`) in
//! hex (`wgsl_text`; naga prints every integer in decimal).
//! Splats stay splats (`vec4(1f)`).
//!
//! A comparison written to a temp keeps its `bool` (`regs::Value::Bool`):
//! D3D's all-ones/zero mask is only built where a reader wants the bits.
//! Condition readers take the bool itself: `movc` and `if_nz`/`breakc`/…
//! select or branch on it, `and` of a mask with a value is
//! `select(0, value, b)`, and `and`/`or`/`ieq`/`ine` of two masks are the
//! bools' `&`, `|`, `==`, `!=`. A value crossing a block boundary is
//! stored as its mask (the variables hold bits).
//!
//! The program body is lowered as one function over those globals. The
//! entry point `main` copies its arguments (locations and built-ins, typed
//! by the signature) into the input globals, runs the body, and returns the
//! output globals as its result. The body is written into `main` itself,
//! between those copies, and each early `return` in it returns the result
//! where it stands, so that none skips the outputs. Where an argument or a
//! stored value can be read directly, the global goes (`direct_io`). The
//! stages run through compute keep the body in a function of its own,
//! `dxbc_main` (`stages`).
//!
//! Control flow is already structured in DXBC, so a stack of open blocks
//! (`if`/`else`, `loop`, `switch`/`case`) maps straight onto naga's `If`,
//! `Loop` and `Switch`. Every expression is appended with the byte span of
//! the instruction it came from, so naga's output and its validation errors
//! point back to DXBC bytes.
//!
//! Where D3D and WGSL disagree (integer division by zero, shift counts,
//! float-to-int conversion of NaN and out-of-range values, bit-field
//! extraction) the D3D result is built explicitly with selects.

use crate::Limitation as L;
use crate::*;
use dxbc::program::{Instruction, Operand, Program, NO_OPERAND};
use dxbc::spec::{
    CustomdataClass, InterpolationMode, NumComponents, Opcode as O, OperandModifier, OperandType as OT, ProgramType,
    RegisterComponentType, SelectionMode, SignatureName as SN, TestBoolean, ALU_CONTROLS, DCL_INPUT_PS_CONTROLS,
    TEST_CONTROLS,
};
use naga::{
    AddressSpace, ArraySize, BinaryOperator as B, Block, Expression as E, Function, FunctionArgument, FunctionResult,
    GlobalVariable, Handle, Literal, LocalVariable, MathFunction as M, Range, ResourceBinding, Scalar, ScalarKind,
    ShaderStage, Span, Statement as S, StructMember, SwitchCase, SwitchValue, Type, TypeInner, UnaryOperator,
    VectorSize,
};
use std::collections::{BTreeMap, BTreeSet};

pub(crate) type H = Handle<E>;

/// Numeric view of a register's bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum K {
    F,
    I,
    U,
}

impl K {
    pub(crate) fn scalar(self) -> Scalar {
        match self {
            K::F => Scalar::F32,
            K::I => Scalar::I32,
            K::U => Scalar::U32,
        }
    }
    pub(crate) fn kind(self) -> ScalarKind {
        self.scalar().kind
    }
}

/// The _sat control of an ALU or sample instruction.
pub(crate) fn saturate(ins: &Instruction) -> bool {
    ALU_CONTROLS[0].get(ins.token) != 0
}

pub(crate) fn unsupported<T>(
    limitation: Limitation,
    detail: impl Into<String>,
    offset: usize,
) -> Result<T, TranslateError> {
    Err(TranslateError::Unsupported { limitation, detail: detail.into(), offset })
}

/// The limitation of a signature system value (`D3D_NAME`) with no
/// built-in where it is used.
fn system_value_limitation(name: u32) -> Limitation {
    use dxbc::spec::SignatureName as N;
    match N::from_u32(name) {
        Some(N::ClipDistance) => Limitation::ClipDistance,
        Some(N::CullDistance) => Limitation::CullDistance,
        Some(N::RenderTargetArrayIndex) => Limitation::RenderTargetArrayIndex,
        Some(N::ViewportArrayIndex) => Limitation::ViewportArrayIndex,
        Some(N::InnerCoverage) => Limitation::InnerCoverage,
        _ => Limitation::SystemValueInStage,
    }
}

pub(crate) fn malformed<T>(what: impl Into<String>, offset: usize) -> Result<T, TranslateError> {
    Err(TranslateError::Malformed { what: what.into(), offset })
}

/// An open control-flow construct.
enum Frame {
    If { cond: H, accept: Block, reject: Option<Block>, span: Span },
    Loop { body: Block, span: Span },
    Switch { selector: H, cases: Vec<SwitchCase>, labels: Vec<SwitchValue>, body: Option<Block>, span: Span },
}

pub(crate) struct Types {
    pub(crate) u32: Handle<Type>,
    pub(crate) f32: Handle<Type>,
    pub(crate) bool: Handle<Type>,
    pub(crate) vec4u: Handle<Type>,
    pub(crate) vec4f: Handle<Type>,
    pub(crate) vec4i: Handle<Type>,
}

/// A destination's or selection's lanes (at most four), kept on the stack.
pub(crate) type Lanes<T> = arrayvec::ArrayVec<T, 4>;

pub(crate) struct Lower<'a> {
    pub(crate) p: &'a Program,
    pub(crate) module: naga::Module,
    pub(crate) t: Types,
    pub(crate) stage: ShaderStage,
    /// Private globals per input register / output register.
    inputs: BTreeMap<u32, Handle<GlobalVariable>>,
    outputs: BTreeMap<u32, Handle<GlobalVariable>>,
    /// Special registers (oDepth, vThreadID, …) by operand type.
    specials: BTreeMap<OT, Handle<GlobalVariable>>,
    cbuffers: BTreeMap<u32, Handle<GlobalVariable>>,
    /// The element kind of each constant buffer (by id): what most of its
    /// RDEF variables are, f32 without RDEF.
    cb_kinds: BTreeMap<u32, K>,
    icb: Option<Handle<GlobalVariable>>,
    /// The element kind of the immediate constant buffer.
    icb_kind: K,
    /// Per constant buffer id and row: the RDEF variable that starts in
    /// it or covers it (`name`, `name_1` for its second row, …).
    cb_row_names: BTreeMap<(u32, u32), String>,
    /// Per constant buffer id and row holding several RDEF variables: each
    /// variable's lanes (a mask) and name.
    cb_row_lanes: BTreeMap<(u32, u32), Vec<(u32, String)>>,
    /// RDEF's variables of the buffers that may become structs (by id).
    cb_vars: BTreeMap<u32, Vec<crate::cbuffer_struct::Variable>>,
    /// The struct layout of each constant buffer declared as one (by id).
    cb_layouts: BTreeMap<u32, std::rc::Rc<crate::cbuffer_struct::Layout>>,
    /// RDEF's resource names: (class, first register, space, count, name).
    rdef_names: Vec<(RegisterClass, u32, u32, u32, String)>,
    pub(crate) bindings: Vec<BindingEntry>,
    pub(crate) textures: BTreeMap<u32, crate::resources::Tex>,
    pub(crate) samplers: BTreeMap<u32, Handle<GlobalVariable>>,
    pub(crate) words: BTreeMap<(u32, u32), crate::resources::Words>,
    pub(crate) storage_textures: BTreeMap<u32, crate::resources::StorageTex>,
    /// Declarations over SM5.1 register ranges, by (register file, range
    /// id): their lower register and descriptor count.
    pub(crate) ranges: BTreeMap<(u32, u32), (u32, crate::BindingCount)>,
    pub(crate) depth_textures: BTreeSet<u32>,
    pub(crate) atomic_targets: BTreeMap<(u32, u32), K>,
    /// The kind of the records a pass reads through an operand type (by
    /// its number), where they are not u32 (`Lower::record_buffer`).
    pub(crate) record_kinds: BTreeMap<u32, K>,
    // The body function under construction.
    pub(crate) f: Function,
    /// The temps' current values (see `regs`).
    pub(crate) regs: Vec<[crate::regs::Slot; 4]>,
    /// Each temp component's variable, once a value crosses a block.
    pub(crate) reg_vars: BTreeMap<crate::regs::VarKey, crate::regs::CompVar>,
    /// One register scope per open construct (parallel to `frames`).
    pub(crate) scopes: Vec<crate::regs::Scope>,
    /// Loads valid in the block being built.
    pub(crate) loads: BTreeMap<crate::regs::LoadKey, H>,
    /// Lane counts of the values written to temps.
    pub(crate) widths: Vec<u8>,
    pub(crate) prepass: crate::regs::Prepass,
    /// Temp component liveness (`None`: everything is live).
    pub(crate) liveness: Option<crate::liveness::Liveness>,
    /// The index of the main-program instruction being lowered.
    pub(crate) here: Option<usize>,
    /// The destination (by operand offset) whose mask liveness narrows,
    /// and the live part of it.
    narrowed_dst: Option<(u32, u32)>,
    /// The kind of each input register (its signature's component type).
    pub(crate) input_kinds: BTreeMap<u32, K>,
    /// The kind of each output register (its signature's component type).
    output_kinds: BTreeMap<u32, K>,
    /// The semantic of each input register that holds one signature
    /// element (`texcoord`): a load of it is named so, its global `in_` and
    /// that (`in_texcoord`).
    input_names: BTreeMap<u32, String>,
    /// The same for output registers: their globals are named so
    /// (`out_position`), the others after the register (`o1`).
    output_names: BTreeMap<u32, String>,
    /// Input and output globals of a native stage are `vec4`s of their
    /// signature's kind (the others hold u32 bits).
    global_kinds: BTreeMap<Handle<GlobalVariable>, K>,
    /// The destination mask a component-wise instruction reads its sources
    /// for (0xf otherwise), and the lane count of the value it writes.
    pub(crate) lane_mask: u32,
    pub(crate) lanes: usize,
    pub(crate) indexable: BTreeMap<u32, Handle<naga::LocalVariable>>,
    pub(crate) root: Block,
    frames: Vec<Frame>,
    emit_from: Option<H>,
    emit_last: Option<H>,
    pub(crate) span: Span,
    pub(crate) offset: usize,
    pub(crate) options: &'a Options,
    /// The emulations this translation used (reported to users).
    pub(crate) emulations: BTreeSet<Emulation>,
    /// UAV counters by UAV id (emulate/counters.rs).
    pub(crate) counters: BTreeMap<u32, Handle<GlobalVariable>>,
    /// The rasterizer's sample count (`emulate::sample_count`).
    pub(crate) sample_count: Option<Handle<GlobalVariable>>,
    /// UAV ids counter instructions use.
    pub(crate) counted_uavs: BTreeSet<u32>,
    /// Features some targets cannot express (see [`Translation::refusal`]).
    target_refusals: Vec<TargetRefusal>,
    /// The form being translated (see [`crate::stages`]).
    pub(crate) form: StageForm,
    /// Stage buffers and state of a non-native form.
    pub(crate) io: Option<crate::stages::geometry::StageIo>,
    /// Whether a double instruction or 64-bit immediate was lowered.
    pub(crate) uses_doubles: bool,
    /// The software double functions added to the module (soft_f64).
    pub(crate) soft_fns: crate::soft_f64::ir::Cache,
    /// Class linkage: bodies, tables, interfaces (`emulate::interfaces`).
    pub(crate) linkage: Option<crate::emulate::interfaces::Linkage>,
    /// The class-instance uniform, once an interface is used.
    pub(crate) class_instances: Option<Handle<GlobalVariable>>,
    /// Its default words (from IFCE), stated in its binding entry.
    pub(crate) class_defaults: Vec<u32>,
    /// `fcall`s being inlined, and body instructions inlined so far.
    pub(crate) fcall_depth: usize,
    pub(crate) inlined: usize,
    /// Output-register components written in the block being built but not
    /// stored yet: the value (in the global's kind), its lane, and the span
    /// of the write. Stored at the next block boundary or flow instruction,
    /// a register whose four components are all pending as one vector.
    pending_outputs: BTreeMap<u32, [Option<PendingLane>; 4]>,
    /// Per output register, the components some instruction writes (the
    /// others stay zero, as the register's global starts).
    output_writes: BTreeMap<u32, u32>,
    /// `arrayLength` of each runtime-sized global the function under
    /// construction asks the size of: made once, at its first use, and
    /// emitted first in the function ([`Lower::array_length`]).
    array_lengths: BTreeMap<Handle<GlobalVariable>, H>,
}

/// A pending output component: the value, its lane (None: a scalar), the
/// value's lane count, the span of the instruction that wrote it.
type PendingLane = (H, Option<u32>, u8, Span);

pub(crate) fn translate(shader: &dxbc::Shader, options: &Options) -> Result<Translation, TranslateError> {
    translate_form(shader, options, StageForm::Native)
}

pub(crate) fn translate_form(
    shader: &dxbc::Shader,
    options: &Options,
    form: StageForm,
) -> Result<Translation, TranslateError> {
    let Some(p) = &shader.program else {
        return unsupported(L::NoProgram, "the file has no program chunk (SHDR/SHEX)", 0);
    };
    if let Some(e) = shader.errors.first() {
        return malformed(format!("the shader did not decode: {}", e.message()), e.offset());
    }
    let program_type = ProgramType::from_u32(p.version.program_type());
    use ProgramType as P;
    let stage = match (program_type, form) {
        (_, StageForm::Native) => None,
        (Some(P::VertexShader | P::GeometryShader | P::HullShader | P::DomainShader), StageForm::Compute)
        | (Some(P::HullShader), StageForm::PatchConstant) => Some(ShaderStage::Compute),
        (Some(P::GeometryShader | P::DomainShader), StageForm::DrawFromBuffer) => Some(ShaderStage::Vertex),
        (Some(_), _) => return unsupported(L::NoComputeForm, format!("{form:?} form of this stage"), p.offset),
        (None, _) => None,
    };
    let stage = match program_type {
        _ if stage.is_some() => stage.unwrap_or(ShaderStage::Compute),
        Some(ProgramType::PixelShader) => ShaderStage::Fragment,
        Some(ProgramType::VertexShader) => ShaderStage::Vertex,
        Some(ProgramType::ComputeShader) => ShaderStage::Compute,
        Some(ProgramType::GeometryShader) => {
            return unsupported(L::GeometryStage, "geometry shaders have no naga stage", p.offset)
        }
        Some(ProgramType::HullShader) => return unsupported(L::HullStage, "hull shaders have no naga stage", p.offset),
        Some(ProgramType::DomainShader) => {
            return unsupported(L::DomainStage, "domain shaders have no naga stage", p.offset)
        }
        _ => return unsupported(L::UnknownProgramType, format!("program type {}", p.version.program_type()), p.offset),
    };
    let mut module = naga::Module::default();
    let mut ty = |inner: TypeInner| module.types.insert(Type { name: None, inner }, Span::UNDEFINED);
    let t = Types {
        u32: ty(TypeInner::Scalar(Scalar::U32)),
        f32: ty(TypeInner::Scalar(Scalar::F32)),
        bool: ty(TypeInner::Scalar(Scalar::BOOL)),
        vec4u: ty(TypeInner::Vector { size: VectorSize::Quad, scalar: Scalar::U32 }),
        vec4f: ty(TypeInner::Vector { size: VectorSize::Quad, scalar: Scalar::F32 }),
        vec4i: ty(TypeInner::Vector { size: VectorSize::Quad, scalar: Scalar::I32 }),
    };
    let liveness = crate::liveness::analyse(p);
    let prepass = crate::regs::prepass(p, liveness.as_ref().and_then(|l| l.webs()));
    let mut l = Lower {
        p,
        module,
        t,
        stage,
        inputs: BTreeMap::new(),
        outputs: BTreeMap::new(),
        specials: BTreeMap::new(),
        cbuffers: BTreeMap::new(),
        cb_kinds: cbuffer_kinds(shader),
        icb: None,
        icb_kind: K::U,
        rdef_names: rdef_names(shader),
        cb_row_names: cbuffer_row_names(shader),
        cb_row_lanes: cbuffer_row_lanes(shader),
        cb_vars: crate::cbuffer_struct::candidates(shader),
        cb_layouts: BTreeMap::new(),
        bindings: Vec::new(),
        textures: BTreeMap::new(),
        samplers: BTreeMap::new(),
        words: BTreeMap::new(),
        storage_textures: BTreeMap::new(),
        ranges: BTreeMap::new(),
        depth_textures: BTreeSet::new(),
        atomic_targets: BTreeMap::new(),
        record_kinds: BTreeMap::new(),
        f: Function { name: Some("dxbc_main".into()), ..Default::default() },
        regs: Vec::new(),
        reg_vars: BTreeMap::new(),
        scopes: Vec::new(),
        loads: BTreeMap::new(),
        widths: Default::default(),
        prepass,
        liveness,
        here: None,
        narrowed_dst: None,
        input_kinds: shader
            .input_signature
            .iter()
            .flat_map(|s| s.elements.iter())
            .filter(|e| e.register != u32::MAX)
            .map(|e| (e.register, register_kind(e.component_type)))
            .collect(),
        output_kinds: shader
            .output_signature
            .iter()
            .flat_map(|s| s.elements.iter())
            .filter(|e| e.register != u32::MAX && e.stream.unwrap_or(0) == 0)
            .map(|e| (e.register, register_kind(e.component_type)))
            .rev()
            .collect(),
        input_names: input_names(shader),
        output_names: output_names(shader),
        global_kinds: BTreeMap::new(),
        lane_mask: 0xf,
        lanes: 4,
        indexable: BTreeMap::new(),
        root: Block::new(),
        frames: Vec::new(),
        emit_from: None,
        emit_last: None,
        span: Span::UNDEFINED,
        offset: p.offset,
        options,
        emulations: BTreeSet::new(),
        counters: BTreeMap::new(),
        sample_count: None,
        counted_uavs: crate::emulate::counters::counted_uavs(p),
        target_refusals: Vec::new(),
        form,
        io: None,
        uses_doubles: false,
        soft_fns: Default::default(),
        linkage: crate::emulate::interfaces::Linkage::of(p)?,
        class_instances: None,
        class_defaults: crate::emulate::interfaces::default_class_instances(shader),
        fcall_depth: 0,
        inlined: 0,
        pending_outputs: BTreeMap::new(),
        output_writes: output_write_masks(p),
        array_lengths: BTreeMap::new(),
    };
    let (depth, atomics) = crate::resources::prescan(p)?;
    l.depth_textures = depth;
    l.atomic_targets = atomics;
    let compute_form = l.prepare_form(shader)?;
    let tess = l.io.as_ref().is_some_and(|io| io.tess.is_some());
    if tess {
        l.tess_body()?;
    } else if form == StageForm::DrawFromBuffer {
        l.pull_body(shader)?;
    } else {
        l.body()?;
    }
    let (inputs, outputs, workgroup_size) = if tess && stage == ShaderStage::Compute {
        l.tess_entry_point()?
    } else if stage == ShaderStage::Compute && form == StageForm::Compute {
        l.compute_entry_point()?
    } else {
        l.entry_point(shader)?
    };
    crate::dead::drop_dead_expressions(&mut l.module);
    let mut validator =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all());
    let info = match validator.validate(&l.module) {
        Ok(i) => i,
        Err(e) => {
            let offset = e.spans().next().map(|(s, _)| s.to_range().map_or(0, |r| r.start)).filter(|&o| o != 0);
            // The full chain of causes: the top-level message alone says little.
            let mut message = format!("{}", e.as_inner());
            let mut src = std::error::Error::source(e.as_inner());
            while let Some(s) = src {
                message.push_str(&format!(": {s}"));
                src = s.source();
            }
            return Err(TranslateError::Validation { message, offset });
        }
    };
    crate::lets::unname(&mut l.module, &info);
    // Languages without f64 get a second lowering with software doubles.
    let software_doubles = if l.uses_doubles && options.doubles == crate::DoubleMode::Native {
        let soft = Options { doubles: crate::DoubleMode::Software, ..options.clone() };
        let t = translate(shader, &soft)?;
        Some(Box::new(crate::SoftwareDoubles { module: t.module, info: t.info }))
    } else {
        None
    };
    Ok(Translation {
        software_doubles,
        module: l.module,
        info,
        stage,
        bindings: l.bindings,
        inputs,
        outputs,
        workgroup_size,
        emulations: l.emulations.into_iter().collect(),
        target_refusals: l.target_refusals,
        compute_form,
    })
}

/// `a op b` as WGSL computes it at run time, for the u32 operations whose
/// result is a u32 and defined: wrapping arithmetic, bit operations, and
/// division, remainder and shifts where WGSL's constant evaluation would
/// agree (a divisor other than 0, a shift below 32). `None`: not folded.
pub(crate) fn fold_u32(op: B, a: u32, b: u32) -> Option<u32> {
    Some(match op {
        B::Add => a.wrapping_add(b),
        B::Subtract => a.wrapping_sub(b),
        B::Multiply => a.wrapping_mul(b),
        B::Divide if b != 0 => a / b,
        B::Modulo if b != 0 => a % b,
        B::And => a & b,
        B::InclusiveOr => a | b,
        B::ExclusiveOr => a ^ b,
        B::ShiftLeft if b < 32 => a << b,
        B::ShiftRight if b < 32 => a >> b,
        _ => return None,
    })
}

/// A negative literal's negation, lane by lane ([`Lower::negation`]).
enum Negation {
    Scalar(Literal),
    Splat(naga::VectorSize, Literal),
    Vector(Handle<Type>, Vec<Literal>),
}

/// How many lanes a read with destination mask `mask` has (all four for
/// an empty mask, as `Lower::read_lanes` reads them).
fn lanes_of(mask: u32) -> usize {
    if mask & 0xf == 0 {
        4
    } else {
        (mask & 0xf).count_ones() as usize
    }
}

impl<'a> Lower<'a> {
    // ------------------------------------------------------------ helpers

    /// Records a feature that only some targets refuse (the first use of
    /// each limitation: that is what a refusal points at).
    pub(crate) fn target_refusal(&mut self, limitation: Limitation, detail: impl Into<String>, offset: usize) {
        if !self.target_refusals.iter().any(|r| r.limitation == limitation) {
            self.target_refusals.push(TargetRefusal { limitation, detail: detail.into(), offset });
        }
    }

    pub(crate) fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
        self.module.types.insert(Type { name: None, inner }, Span::UNDEFINED)
    }

    /// `vec4` of kind `k`.
    pub(crate) fn vec_ty(&mut self, k: K) -> Handle<Type> {
        match k {
            K::F => self.t.vec4f,
            K::I => self.t.vec4i,
            K::U => self.t.vec4u,
        }
    }

    /// Opens a `loop` whose statements follow (emulations build loops).
    pub(crate) fn open_loop(&mut self) {
        self.flush();
        self.open_scope(true, true, None);
        self.frames.push(Frame::Loop { body: Block::new(), span: self.span });
    }

    /// Closes the loop [`Self::open_loop`] opened.
    pub(crate) fn close_loop(&mut self) {
        self.end_block();
        if let Some(Frame::Loop { body, span }) = self.frames.pop() {
            self.close_scope();
            self.block().push(S::Loop { body, continuing: Block::new(), break_if: None }, span);
        }
    }

    /// Opens an `if` on `condition` whose statements follow.
    pub(crate) fn open_if(&mut self, condition: H) {
        self.flush();
        self.open_scope(false, false, None);
        self.frames.push(Frame::If { cond: condition, accept: Block::new(), reject: None, span: self.span });
    }

    /// Closes the `if` [`Self::open_if`] opened.
    pub(crate) fn close_if(&mut self) {
        self.end_block();
        if let Some(Frame::If { cond, accept, reject, span }) = self.frames.pop() {
            self.close_scope();
            self.block().push(S::If { condition: cond, accept, reject: reject.unwrap_or_default() }, span);
        }
    }

    /// Swaps in `next` as the function under construction and returns the
    /// finished one with its statements.
    pub(crate) fn take_function(&mut self, next: Function) -> Function {
        self.flush_outputs();
        self.flush();
        // Values are expressions of the function they were made in.
        self.forget_values();
        // A body already finished (`finish_body`) keeps its statements.
        let root = self.take_root();
        let mut f = std::mem::replace(&mut self.f, next);
        if !root.is_empty() {
            f.body = root;
        }
        f
    }

    fn block(&mut self) -> &mut Block {
        match self.frames.last_mut() {
            None => &mut self.root,
            Some(Frame::If { accept, reject: None, .. }) => accept,
            Some(Frame::If { reject: Some(r), .. }) => r,
            Some(Frame::Loop { body, .. }) => body,
            Some(Frame::Switch { body, .. }) => {
                // Statements before the first case label have nowhere to go; they
                // are collected into a body that is dropped if no label follows.
                body.get_or_insert_with(Block::new)
            }
        }
    }

    /// Appends an expression, keeping `Emit` ranges around it right.
    pub(crate) fn e(&mut self, expr: E) -> H {
        let pre = expr.needs_pre_emit();
        if pre {
            self.flush();
        }
        let h = self.f.expressions.append(expr, self.span);
        if !pre {
            if self.emit_from.is_none() {
                self.emit_from = Some(h);
            }
            self.emit_last = Some(h);
        }
        h
    }

    /// Closes the open `Emit` range into the current block.
    pub(crate) fn flush(&mut self) {
        if let (Some(first), Some(last)) = (self.emit_from.take(), self.emit_last.take()) {
            let span = self.span;
            self.block().push(S::Emit(Range::new_from_bounds(first, last)), span);
        }
    }

    pub(crate) fn stmt(&mut self, s: S) {
        self.flush();
        let span = self.span;
        self.block().push(s, span);
    }

    pub(crate) fn lit_u(&mut self, v: u32) -> H {
        self.e(E::Literal(Literal::U32(v)))
    }

    /// `v` replicated to the lanes of the instruction being lowered (itself
    /// for one lane).
    pub(crate) fn splat(&mut self, v: H) -> H {
        match crate::regs::vector_size(self.lanes) {
            Some(size) => self.e(E::Splat { size, value: v }),
            None => v,
        }
    }

    pub(crate) fn splat_u(&mut self, v: u32) -> H {
        let s = self.lit_u(v);
        self.splat(s)
    }

    pub(crate) fn splat_f(&mut self, v: f32) -> H {
        let s = self.e(E::Literal(Literal::F32(v)));
        self.splat(s)
    }

    pub(crate) fn splat_i(&mut self, v: i32) -> H {
        let s = self.e(E::Literal(Literal::I32(v)));
        self.splat(s)
    }

    pub(crate) fn bitcast(&mut self, v: H, from: K, to: K) -> H {
        if from == to {
            return v;
        }
        // A literal (or a splat of one) is written in the new kind.
        let bits = |e: &E| match *e {
            E::Literal(Literal::U32(b)) => Some(b),
            E::Literal(Literal::I32(i)) => Some(i as u32),
            E::Literal(Literal::F32(f)) => Some(f.to_bits()),
            _ => None,
        };
        if let Some(b) = bits(&self.f.expressions[v]) {
            return crate::regs::literal(self, b, to);
        }
        if let E::Splat { size, value } = self.f.expressions[v] {
            if let Some(b) = bits(&self.f.expressions[value]) {
                let value = crate::regs::literal(self, b, to);
                return self.e(E::Splat { size, value });
            }
        }
        self.e(E::As { expr: v, kind: to.kind(), convert: None })
    }

    pub(crate) fn bin(&mut self, op: B, left: H, right: H) -> H {
        self.e(E::Binary { op, left, right })
    }

    /// `left op right`; of two u32 literals, the literal it computes
    /// ([`fold_u32`]: an address `0u / 4u` reads `0u`). Only for indices
    /// into runtime-sized arrays: a literal index past the end of a
    /// fixed-size array is a validation error, where the same index
    /// computed at run time is guarded or clamped.
    pub(crate) fn bin_folded(&mut self, op: B, left: H, right: H) -> H {
        if let (E::Literal(Literal::U32(a)), E::Literal(Literal::U32(b))) =
            (&self.f.expressions[left], &self.f.expressions[right])
        {
            if let Some(v) = fold_u32(op, *a, *b) {
                return self.lit_u(v);
            }
        }
        self.bin(op, left, right)
    }

    pub(crate) fn math(&mut self, fun: M, arg: H, arg1: Option<H>, arg2: Option<H>) -> H {
        self.e(E::Math { fun, arg, arg1, arg2, arg3: None })
    }

    pub(crate) fn select(&mut self, condition: H, accept: H, reject: H) -> H {
        self.e(E::Select { condition, accept, reject })
    }

    /// A vec4<bool> mask turned into D3D's 0xFFFFFFFF / 0 per component.
    pub(crate) fn mask_from_bool(&mut self, b: H) -> H {
        let t = self.splat_u(u32::MAX);
        let f = self.splat_u(0);
        self.select(b, t, f)
    }

    /// Component `c` of vector `v`, looking through splats, swizzles and
    /// composes of scalars (so a lane read back is the value, not
    /// `vec4(x).x`).
    pub(crate) fn component(&mut self, v: H, c: u32) -> H {
        match self.f.expressions[v] {
            E::Splat { value, .. } => return value,
            E::Swizzle { vector, pattern, size } if (c as usize) < size as usize => {
                return self.component(vector, pattern[c as usize] as u32)
            }
            E::Compose { ty, ref components } => {
                if let TypeInner::Vector { size, .. } = self.module.types[ty].inner {
                    if components.len() == size as usize {
                        if let Some(&x) = components.get(c as usize) {
                            return x;
                        }
                    }
                }
            }
            _ => {}
        }
        self.e(E::AccessIndex { base: v, index: c })
    }

    // ----------------------------------------------------------- registers

    pub(crate) fn op(&self, ins: &Instruction, i: usize) -> Result<&'a Operand, TranslateError> {
        let p = self.p;
        match ins.ops.as_slice().get(i) {
            Some(&id) => Ok(&p.operands[id as usize]),
            None => malformed(format!("instruction is missing operand {i}"), ins.offset as usize),
        }
    }

    pub(crate) fn private_global(&mut self, name: String) -> Handle<GlobalVariable> {
        let ty = self.t.vec4u;
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name),
                space: AddressSpace::Private,
                binding: None,
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        )
    }

    pub(crate) fn input(&mut self, n: u32) -> Handle<GlobalVariable> {
        if let Some(&g) = self.inputs.get(&n) {
            return g;
        }
        let kind = self.input_kinds.get(&n).copied().unwrap_or(K::F);
        let name = self.input_names.get(&n).map_or_else(|| format!("v{n}"), |s| format!("in_{s}"));
        let g = self.io_global(name, kind);
        self.inputs.insert(n, g);
        g
    }

    pub(crate) fn output(&mut self, n: u32) -> Handle<GlobalVariable> {
        if let Some(&g) = self.outputs.get(&n) {
            return g;
        }
        let kind = self.output_kinds.get(&n).copied().unwrap_or(K::F);
        let name = self.output_names.get(&n).cloned().unwrap_or_else(|| format!("o{n}"));
        let g = self.io_global(name, kind);
        self.outputs.insert(n, g);
        g
    }

    /// An input or output register's global: typed by the signature in a
    /// native stage (only the entry point wrapper and the body use it),
    /// u32 bits in the forms whose stage buffers copy registers.
    fn io_global(&mut self, name: String, kind: K) -> Handle<GlobalVariable> {
        if self.form != StageForm::Native {
            return self.private_global(name);
        }
        let ty = self.vec_ty(kind);
        let g = self.private_typed(&name, ty);
        self.global_kinds.insert(g, kind);
        g
    }

    /// The kind of the values a global holds.
    pub(crate) fn global_kind(&self, g: Handle<GlobalVariable>) -> K {
        self.global_kinds.get(&g).copied().unwrap_or(K::U)
    }

    pub(crate) fn special(&mut self, ty: OT) -> Handle<GlobalVariable> {
        if let Some(&g) = self.specials.get(&ty) {
            return g;
        }
        let name = ty.row().asm.to_string();
        // Depth is a float (`frag_depth: f32`); the others hold integers.
        let g = match ty {
            OT::OutputDepth | OT::OutputDepthGreaterEqual | OT::OutputDepthLessEqual => self.io_global(name, K::F),
            _ => self.private_global(name),
        };
        self.specials.insert(ty, g);
        g
    }

    /// A scalar u32 index expression for index `d` of `op` (immediate plus
    /// optional relative register component).
    pub(crate) fn index(&mut self, op: &Operand, d: usize) -> Result<H, TranslateError> {
        let idx = op.index[d];
        let imm = u32::try_from(idx.imm).unwrap_or(u32::MAX);
        if idx.rel == NO_OPERAND {
            return Ok(self.lit_u(imm));
        }
        let rel = &self.p.operands[idx.rel as usize];
        let c = self.read_masked(rel, K::U, 1)?;
        if imm == 0 {
            Ok(c)
        } else {
            let i = self.lit_u(imm);
            Ok(self.bin(B::Add, c, i))
        }
    }

    /// The declared constant buffers by id.
    pub(crate) fn cbuffers_declared(&self) -> Vec<(u32, Handle<GlobalVariable>)> {
        self.cbuffers.iter().map(|(&id, &g)| (id, g)).collect()
    }

    /// The element kind of constant buffer `id`.
    pub(crate) fn cb_kind(&self, id: u32) -> K {
        self.cb_kinds.get(&id).copied().unwrap_or(K::U)
    }

    /// The kind every declared constant buffer has, u32 when they differ.
    fn cbuffers_common_kind(&self) -> K {
        let mut kinds = self.cbuffers.keys().map(|&id| self.cb_kind(id));
        match kinds.next() {
            Some(k) if kinds.all(|o| o == k) => k,
            _ => K::U,
        }
    }

    /// Number of vec4 rows of a cb#/icb/x# array.
    pub(crate) fn array_rows(&self, g: Handle<GlobalVariable>) -> u32 {
        self.array_len(g)
    }

    /// Nesting of open constructs.
    pub(crate) fn frame_depth(&self) -> usize {
        self.frames.len()
    }

    /// Opens a switch over `selector` (its cases follow).
    pub(crate) fn open_switch(&mut self, selector: H) {
        self.flush();
        self.open_scope(false, true, None);
        self.frames.push(Frame::Switch {
            selector,
            cases: Vec::new(),
            labels: Vec::new(),
            body: None,
            span: self.span,
        });
    }

    /// Gives the case being opened its labels.
    pub(crate) fn set_case_labels(&mut self, new: Vec<SwitchValue>) {
        if let Some(Frame::Switch { labels, .. }) = self.frames.last_mut() {
            labels.extend(new);
        }
    }

    /// Ends the case being built (even an empty one) and starts the next
    /// from the state the switch opened with.
    pub(crate) fn next_case(&mut self) {
        self.flush();
        self.end_block();
        self.restart_block();
        if let Some(Frame::Switch { cases, labels, body, .. }) = self.frames.last_mut() {
            let b = body.take().unwrap_or_default();
            if !labels.is_empty() {
                close_case(cases, labels, b);
            }
        }
    }

    /// Closes the switch `open_switch` opened (as `endswitch` does).
    pub(crate) fn close_switch(&mut self) {
        self.flush();
        self.end_block();
        if let Some(Frame::Switch { selector, mut cases, mut labels, body, span }) = self.frames.pop() {
            self.close_scope();
            if !labels.is_empty() {
                close_case(&mut cases, &mut labels, body.unwrap_or_default());
            }
            if !cases.iter().any(|c| c.value == SwitchValue::Default) {
                cases.push(SwitchCase { value: SwitchValue::Default, body: Block::new(), fall_through: false });
            }
            self.block().push(S::Switch { selector, cases }, span);
        }
    }

    fn is_static(op: &Operand, d: usize) -> bool {
        op.index[d].rel == NO_OPERAND
    }

    /// A pointer to the vec4<u32> storage an operand names (for reads and
    /// writes), or None for immediates.
    fn pointer(&mut self, op: &Operand) -> Result<Option<H>, TranslateError> {
        let at = op.offset as usize;
        let Some(ty) = op.operand_type() else {
            return malformed(format!("operand type {} is not defined", op.ty()), at);
        };
        let reg0 = || u32::try_from(op.index[0].imm).unwrap_or(u32::MAX);
        if self.io.as_ref().is_some_and(|io| io.tess.is_some()) && self.tess_pointer_kind(ty) {
            if let Some(ptr) = self.tess_pointer(op, ty)? {
                return Ok(Some(ptr));
            }
        }
        Ok(Some(match ty {
            OT::Temp => return malformed("temp registers hold values, not memory", at),
            OT::Input if self.io.is_some() => return self.stage_input_pointer(op).map(Some),
            OT::Input | OT::Output => {
                if op.index_dim() != 1 {
                    return unsupported(L::IndexedStageIo, "multi-dimensional input/output registers", at);
                }
                if Self::is_static(op, 0) {
                    let g = if ty == OT::Input { self.input(reg0()) } else { self.output(reg0()) };
                    self.e(E::GlobalVariable(g))
                } else {
                    return unsupported(L::IndexedStageIo, "dynamically indexed input/output registers", at);
                }
            }
            OT::IndexableTemp => {
                let n = reg0();
                let Some(&h) = self.indexable.get(&n) else {
                    return malformed(format!("x{n} is used but not declared"), at);
                };
                let base = self.e(E::LocalVariable(h));
                let i = self.index(op, 1)?;
                self.e(E::Access { base, index: i })
            }
            OT::ConstantBuffer => {
                let (id, row_dim) = if op.index_dim() == 3 { (op.index[0].imm as u32, 2) } else { (reg0(), 1) };
                let Some(&g) = self.cbuffers.get(&id) else {
                    return malformed(format!("cb{id} is used but not declared"), at);
                };
                let base = match self.resource_element(g, op)? {
                    Some(rows) => rows,
                    None => self.e(E::GlobalVariable(g)),
                };
                if Self::is_static(op, row_dim) {
                    self.e(E::AccessIndex { base, index: op.index[row_dim].imm as u32 })
                } else {
                    let i = self.index(op, row_dim)?;
                    self.e(E::Access { base, index: i })
                }
            }
            OT::ImmediateConstantBuffer => {
                let Some(g) = self.icb else {
                    return malformed("icb is used but not declared", at);
                };
                let base = self.e(E::GlobalVariable(g));
                let i = self.index(op, 0)?;
                self.e(E::Access { base, index: i })
            }
            OT::Immediate32 | OT::Immediate64 => return Ok(None),
            // Special registers held in private globals filled by the wrapper.
            OT::InputPrimitiveid
            | OT::OutputDepth
            | OT::OutputCoverageMask
            | OT::OutputControlPointId
            | OT::InputForkInstanceId
            | OT::InputJoinInstanceId
            | OT::InputDomainPoint
            | OT::InputThreadId
            | OT::InputThreadGroupId
            | OT::InputThreadIdInGroup
            | OT::InputCoverageMask
            | OT::InputThreadIdInGroupFlattened
            | OT::InputGsInstanceId
            | OT::OutputDepthGreaterEqual
            | OT::OutputDepthLessEqual
            | OT::OutputStencilRef
            | OT::InnerCoverage => {
                let g = self.special(ty);
                self.e(E::GlobalVariable(g))
            }
            OT::Null => return malformed("null used as a source", at),
            // The register files of dynamic linkage and the debug counter
            // are refused; the others cannot be read by ALU operands in a
            // vertex, pixel or compute shader.
            OT::ThisPointer => self.this_pointer(op)?,
            OT::FunctionBody | OT::FunctionTable | OT::Interface | OT::FunctionInput | OT::FunctionOutput => {
                return unsupported(L::Interfaces, format!("operand type {}", ty.row().spec_name), at)
            }
            OT::CycleCounter => return unsupported(L::CycleCounter, "vCycleCounter", at),
            _ => return malformed(format!("register file {} cannot be read or written here", ty.row().spec_name), at),
        }))
    }

    /// Reads an operand as vec4 of kind `k`: register bits, swizzle, bitcast,
    /// then source modifiers.
    /// Number of vec4 rows of the array a cb#/icb/x# operand indexes.
    fn array_len(&self, g: Handle<GlobalVariable>) -> u32 {
        match *self.element_inner(g) {
            TypeInner::Array { size: ArraySize::Constant(n), .. } => n.get(),
            _ => u32::MAX,
        }
    }

    /// True when an operand names an element past the end of its array with
    /// a constant index. D3D reads zero there (and drops writes); naga would
    /// reject the constant out-of-bounds access.
    fn static_out_of_bounds(&self, op: &Operand) -> bool {
        let (len, d) = match op.operand_type() {
            // A register-selected buffer: its reads check their row.
            Some(OT::ConstantBuffer) if op.index_dim() == 2 && op.index[0].rel != NO_OPERAND => return false,
            Some(OT::ConstantBuffer) => {
                let (id, d) =
                    if op.index_dim() == 3 { (op.index[0].imm as u32, 2) } else { (op.index[0].imm as u32, 1) };
                match self.cbuffers.get(&id) {
                    Some(&g) => (self.cb_layouts.get(&id).map_or_else(|| self.array_len(g), |l| l.rows), d),
                    None => return false,
                }
            }
            Some(OT::ImmediateConstantBuffer) => match self.icb {
                Some(g) => (self.array_len(g), 0),
                None => return false,
            },
            Some(OT::ThisPointer) => match &self.linkage {
                Some(l) => (l.slots, 0),
                None => return false,
            },
            Some(OT::IndexableTemp) => match self.indexable.get(&(op.index[0].imm as u32)) {
                Some(&h) => match self.module.types[self.f.local_variables[h].ty].inner {
                    TypeInner::Array { size: ArraySize::Constant(n), .. } => (n.get(), 1),
                    _ => return false,
                },
                None => return false,
            },
            _ => return false,
        };
        d < op.index_dim() && op.index[d].rel == NO_OPERAND && op.index[d].imm >= len as u64
    }

    /// Reads an operand as vec4 of kind `k`, with its source modifiers.
    pub(crate) fn read(&mut self, op: &Operand, k: K) -> Result<H, TranslateError> {
        self.read_masked(op, k, 0xf)
    }

    /// Reads the lanes of an operand that destination mask `mask` selects
    /// (a scalar for one lane), as kind `k`, with its source modifiers.
    pub(crate) fn read_masked(&mut self, op: &Operand, k: K, mask: u32) -> Result<H, TranslateError> {
        let (v, _) = self.read_lanes(op, Some(k), mask)?;
        Ok(self.apply_modifiers(op, v, k, Some(lanes_of(mask))))
    }

    /// An operand's register bits as vec4<u32>, swizzled, before source
    /// modifiers (a 64-bit immediate: its doubles' low and high words).
    pub(crate) fn read_bits(&mut self, op: &Operand) -> Result<H, TranslateError> {
        Ok(self.read_lanes(op, Some(K::U), 0xf)?.0)
    }

    /// The lanes of `op` that destination mask `mask` selects, swizzled,
    /// in kind `want` — or, for a typeless reader (`None`), in the kind the
    /// value has — before source modifiers.
    pub(crate) fn read_lanes(&mut self, op: &Operand, want: Option<K>, mask: u32) -> Result<(H, K), TranslateError> {
        let at = op.offset as usize;
        let all = crate::regs::selection(op);
        let mask = if mask & 0xf == 0 { 0xf } else { mask };
        let sel: Lanes<u32> = (0..4).filter(|c| mask & (1 << c) != 0).map(|c| all[c] & 3).collect();
        let n = sel.len();
        if self.static_out_of_bounds(op) {
            let k = want.unwrap_or(K::U);
            return Ok((self.immediate(&[0; 4][..n], k), k));
        }
        let Some(ty) = op.operand_type() else {
            return malformed(format!("operand type {} is not defined", op.ty()), at);
        };
        let tess = self.io.as_ref().is_some_and(|io| io.tess.is_some()) && self.tess_pointer_kind(ty);
        if ty == OT::Output {
            // A read sees every write before it.
            self.flush_outputs();
        }
        match ty {
            OT::Temp => {
                if !Self::is_static(op, 0) {
                    return malformed("temp register with a relative index", at);
                }
                return self.read_temp(op.index[0].imm as u32, &sel, want, at);
            }
            OT::Immediate32 | OT::Immediate64 => {
                let v = op.imm(self.p);
                let wide = ty == OT::Immediate64;
                let words: [u32; 4] = match (wide, v.len()) {
                    (false, 1) => [v[0]; 4],
                    (false, 4) => [v[0], v[1], v[2], v[3]],
                    // One double fills both halves; two or more: the first two.
                    (true, 2) => [v[0], v[1], v[0], v[1]],
                    (true, n) if n >= 4 => [v[0], v[1], v[2], v[3]],
                    (_, n) => return malformed(format!("{n}-word immediate"), at),
                };
                if wide {
                    self.uses_doubles = true;
                }
                let lanes: Lanes<u32> = sel.iter().map(|&c| words[c as usize]).collect();
                let k = match want {
                    Some(k) => k,
                    None if lanes.iter().any(|&b| crate::regs::looks_float(b)) => K::F,
                    None => K::U,
                };
                return Ok((self.immediate(&lanes, k), k));
            }
            _ => {}
        }
        if ty == OT::ConstantBuffer && op.index_dim() == 2 && !Self::is_static(op, 0) {
            let k = want.unwrap_or_else(|| self.cbuffers_common_kind());
            let raw = self.cbuffer_by_register(op, k)?;
            return Ok((self.select_lanes(raw, &sel), k));
        }
        if ty == OT::ConstantBuffer && (0..op.index_dim()).all(|d| Self::is_static(op, d)) {
            // The row is the last index (SM5.1: range id, register, row).
            let (id, row) = (op.index[0].imm as u32, op.index[op.index_dim().saturating_sub(1)].imm as u32);
            if let (Some(l), Some(&g)) = (self.cb_layouts.get(&id).cloned(), self.cbuffers.get(&id)) {
                return self.read_cbuffer_members((id, g, &l), row, &sel, want, at);
            }
        }
        // Register files in memory: a load (kept while its block is open for
        // those that never change), then the bitcast and the lanes.
        use crate::regs::{k_code, LoadKey};
        let input = ty == OT::Input && self.io.is_none() && !tess && Self::is_static(op, 0) && op.index_dim() == 1;
        let cb_row =
            ty == OT::ConstantBuffer && op.index_dim() == 2 && Self::is_static(op, 0) && Self::is_static(op, 1);
        // The system-value inputs of a native stage, and the ids of a
        // stage run through compute: the wrapper (for an instance id, the
        // caller of its phase's function) sets them before the body, which
        // never writes them.
        let special_input = match self.io {
            None => matches!(
                ty,
                OT::InputThreadId
                    | OT::InputThreadGroupId
                    | OT::InputThreadIdInGroup
                    | OT::InputThreadIdInGroupFlattened
                    | OT::InputPrimitiveid
                    | OT::InputCoverageMask
            ),
            Some(_) => matches!(
                ty,
                OT::InputPrimitiveid
                    | OT::InputGsInstanceId
                    | OT::InputDomainPoint
                    | OT::InputForkInstanceId
                    | OT::InputJoinInstanceId
                    | OT::OutputControlPointId
            ),
        };
        // A record register a compute-form pass only reads, statically indexed.
        let record = (0..op.index_dim()).all(|d| Self::is_static(op, d)) && self.read_only_record(ty);
        let (native, key) = if input {
            let reg = op.index[0].imm as u32;
            let g = self.input(reg);
            (self.global_kind(g), Some((reg, 0u32, 0u8)))
        } else if cb_row {
            let id = op.index[0].imm as u32;
            (self.cb_kinds.get(&id).copied().unwrap_or(K::U), Some((id, op.index[1].imm as u32, 1)))
        } else if special_input {
            (self.memory_kind(op), Some((ty as u32, 0, 2)))
        } else if record {
            (self.memory_kind(op), Some((ty as u32, 0, 3)))
        } else {
            (self.memory_kind(op), None)
        };
        let k = want.unwrap_or(native);
        let raw = match key {
            Some((reg, row, file)) => {
                let key = match file {
                    0 => LoadKey::Input(reg, k_code(k)),
                    1 => LoadKey::Cbuffer(reg, row, k_code(k)),
                    2 => LoadKey::Special(reg, k_code(k)),
                    _ => {
                        let (a, b) = (op.index[0].imm as u32, op.index[1].imm as u32);
                        let (a, b) = if op.index_dim() == 2 { (a, b) } else { (u32::MAX, a) };
                        LoadKey::Record(reg, a, b, k_code(k))
                    }
                };
                if let Some(&h) = self.loads.get(&key) {
                    h
                } else {
                    let Some(ptr) = self.pointer(op)? else { return malformed("no register to read", at) };
                    let load = self.e(E::Load { pointer: ptr });
                    // An input register of one element is named after its
                    // semantic, a constant-buffer row after its variable, or
                    // in a buffer with no variables (stripped) after itself
                    // (`cb0_5` for `cb0[5]`).
                    if let (0, Some(name)) = (file, self.input_names.get(&reg)) {
                        self.f.named_expressions.insert(load, name.clone());
                    }
                    if file == 1 {
                        if let Some(name) = self.cb_row_names.get(&(reg, row)) {
                            self.f.named_expressions.insert(load, name.clone());
                        } else if !self.cb_row_names.keys().any(|&(r, _)| r == reg) {
                            self.f.named_expressions.insert(load, format!("cb{reg}_{row}"));
                        }
                    }
                    let h = self.bitcast(load, native, k);
                    self.loads.insert(key, h);
                    h
                }
            }
            None => {
                let Some(ptr) = self.pointer(op)? else { return malformed("no register to read", at) };
                let load = self.e(E::Load { pointer: ptr });
                // A dynamically indexed row: named after the variable at its base.
                if ty == OT::ConstantBuffer && op.index_dim() == 2 {
                    let base = (op.index[0].imm as u32, op.index[1].imm as u32);
                    if let Some(name) = self.cb_row_names.get(&base) {
                        self.f.named_expressions.insert(load, name.clone());
                    }
                }
                self.bitcast(load, native, k)
            }
        };
        // Lanes of one variable in a row of several: named after it, unless
        // the row's load already is, and taken once per open block (a
        // second read of the same lanes is the named value again).
        let row_key = key.filter(|&(_, _, file)| file == 1).map(|(reg, row, _)| (reg, row));
        let mask = sel.iter().fold(0, |m, &c| m | 1 << c);
        let row_name = row_key.and_then(|r| self.cb_row_names.get(&r));
        let name = row_key
            .and_then(|r| self.cb_row_lanes.get(&r))
            .and_then(|vars| vars.iter().find(|(lanes, _)| mask & !lanes == 0))
            .map(|(_, name)| name)
            .filter(|&name| Some(name) != row_name)
            .cloned();
        let lanes_key = LoadKey::NamedLanes(raw.index() as u32, sel.iter().fold(sel.len() as u32, |p, &c| p << 2 | c));
        if let Some(&lanes) = name.as_ref().and_then(|_| self.loads.get(&lanes_key)) {
            return Ok((lanes, k));
        }
        let lanes = self.select_lanes(raw, &sel);
        if let (true, Some(name)) = (lanes != raw, name) {
            if !self.f.named_expressions.contains_key(&lanes) {
                self.f.named_expressions.insert(lanes, name);
                self.loads.insert(lanes_key, lanes);
            }
        }
        Ok((lanes, k))
    }

    /// The integer kind (i32 or u32) most of sources `srcs` whose values
    /// have one have. Where both kinds are as many (or there are none),
    /// the kind the destination's readers take more often, so that the
    /// bitcasts land on the side that has fewer; else the first source's
    /// kind, else `default`.
    fn int_kind(&self, ins: &Instruction, srcs: &[usize], default: K) -> K {
        let kinds = srcs
            .iter()
            .filter_map(|&i| ins.operand(self.p, i))
            .filter_map(|op| match op.operand_type() {
                Some(OT::Temp) => self.temp_kind(op),
                Some(OT::ConstantBuffer | OT::Input | OT::ImmediateConstantBuffer) => Some(self.memory_kind(op)),
                _ => None,
            })
            .filter(|&k| k != K::F);
        let (mut first, mut signed, mut unsigned) = (None, 0, 0);
        for k in kinds {
            first = first.or(Some(k));
            if k == K::I {
                signed += 1;
            } else {
                unsigned += 1;
            }
        }
        if signed != unsigned {
            return if signed > unsigned { K::I } else { K::U };
        }
        let readers = ins
            .operand(self.p, 0)
            .filter(|d| d.operand_type() == Some(OT::Temp))
            .and_then(|d| self.int_kind_of_reads(d.index[0].imm as u32, self.dst_mask_of(d)));
        readers.or(first).unwrap_or(default)
    }

    /// RDEF's name for the resource at `register` of `class` in `space`,
    /// as a WGSL identifier.
    pub(crate) fn rdef_name(&self, class: RegisterClass, register: u32, space: u32) -> Option<String> {
        self.rdef_names
            .iter()
            .find(|(c, first, s, count, _)| {
                *c == class && *s == space && register >= *first && register - *first < (*count).max(1)
            })
            .and_then(|(_, _, _, _, name)| identifier(name))
    }

    /// The element kind of the memory an operand names (u32 but for
    /// constant buffers, the immediate constant buffer and the registers
    /// typed by their signature or meaning).
    fn memory_kind(&self, op: &Operand) -> K {
        if let Some(&k) = self.record_kinds.get(&op.ty()) {
            return k;
        }
        let reg = op.index[0].imm as u32;
        match op.operand_type() {
            Some(OT::Input) => match self.inputs.get(&reg) {
                Some(&g) => self.global_kind(g),
                // Not read yet: the kind its global will have.
                None if self.form == StageForm::Native => self.input_kinds.get(&reg).copied().unwrap_or(K::F),
                None => K::U,
            },
            Some(OT::Output) => match self.outputs.get(&reg) {
                Some(&g) => self.global_kind(g),
                // Read before any write: the kind its global will have.
                None if self.form == StageForm::Native => self.output_kinds.get(&reg).copied().unwrap_or(K::F),
                None => K::U,
            },
            Some(OT::ConstantBuffer) => self.cb_kinds.get(&(op.index[0].imm as u32)).copied().unwrap_or(K::U),
            Some(OT::ImmediateConstantBuffer) => self.icb_kind,
            // A special register's global (depth is f32), once made.
            Some(t) => self.specials.get(&t).map_or(K::U, |&g| self.global_kind(g)),
            None => K::U,
        }
    }

    /// `vector.pattern` (the first `size` lanes of `pattern`). A swizzle of
    /// a swizzle is one swizzle of the first one's vector (`t.xyxx.xy` is
    /// `t.xy`), unless the first has a name of its own (a member's lanes);
    /// all four lanes in order are the vector itself.
    pub(crate) fn swizzle(&mut self, size: VectorSize, vector: H, pattern: [naga::SwizzleComponent; 4]) -> H {
        let n = size as usize;
        let (vector, pattern) = match self.f.expressions[vector] {
            E::Swizzle { size: s, vector: inner, pattern: p }
                if !self.f.named_expressions.contains_key(&vector)
                    && pattern[..n].iter().all(|&c| (c as usize) < s as usize) =>
            {
                let mut q = [naga::SwizzleComponent::X; 4];
                for (q, &c) in q.iter_mut().zip(&pattern[..n]) {
                    *q = p[c as usize];
                }
                (inner, q)
            }
            _ => (vector, pattern),
        };
        if let Some(picked) = self.picked_components(vector, &pattern[..n]) {
            return picked;
        }
        if size == VectorSize::Quad && pattern == naga::SwizzleComponent::XYZW {
            return vector;
        }
        self.e(E::Swizzle { size, vector, pattern })
    }

    /// Distinct lanes `lanes` of an unnamed vector built of scalars, as the
    /// vector of just those scalars (`vec4<f32>(t.x, t.y, i, t.x).xy` is
    /// `vec2<f32>(t.x, t.y)`), which is a swizzle when they are components
    /// of one vector (`t.xy`); `None` for any other vector.
    fn picked_components(&mut self, vector: H, lanes: &[naga::SwizzleComponent]) -> Option<H> {
        if self.f.named_expressions.contains_key(&vector) {
            return None;
        }
        let E::Compose { ty, ref components } = self.f.expressions[vector] else { return None };
        let TypeInner::Vector { size, scalar } = self.module.types[ty].inner else { return None };
        // Each lane once: a scalar picked twice would be read twice, and
        // could take a `let` of its own.
        let distinct = lanes.iter().enumerate().all(|(i, c)| !lanes[..i].contains(c));
        if components.len() != size as usize || !distinct || lanes.iter().any(|&c| c as usize >= components.len()) {
            return None;
        }
        let picked: Vec<H> = lanes.iter().map(|&c| components[c as usize]).collect();
        // Components of one vector, in any order: a swizzle of it.
        let of_one = picked.iter().map(|&h| match self.f.expressions[h] {
            E::AccessIndex { base, index } if index < 4 => Some((base, index)),
            _ => None,
        });
        let of_one: Option<Vec<(H, u32)>> = of_one.collect();
        if let Some(parts) = of_one.filter(|p| p.iter().all(|&(b, _)| b == p[0].0)) {
            let base = parts[0].0;
            let base_is_vector = self.is_vector(base);
            if base_is_vector && lanes.len() > 1 {
                let mut pattern = [naga::SwizzleComponent::X; 4];
                for (q, &(_, i)) in pattern.iter_mut().zip(&parts) {
                    *q = naga::SwizzleComponent::XYZW[i as usize];
                }
                let size = crate::regs::vector_size(lanes.len())?;
                return Some(self.swizzle(size, base, pattern));
            }
        }
        match picked.len() {
            1 => Some(picked[0]),
            k => {
                let size = crate::regs::vector_size(k)?;
                let ty = self.ty(TypeInner::Vector { size, scalar });
                Some(self.e(E::Compose { ty, components: picked }))
            }
        }
    }

    /// Whether `h` is certainly a vector value, by its kind of expression
    /// (a lowering has no types of expressions at hand; `false` is safe).
    fn is_vector(&self, h: H) -> bool {
        let vector = |ty: Handle<Type>| matches!(self.module.types[ty].inner, TypeInner::Vector { .. });
        match self.f.expressions[h] {
            E::Swizzle { .. } | E::Splat { .. } => true,
            E::Compose { ty, .. } => vector(ty),
            E::FunctionArgument(i) => self.f.arguments.get(i as usize).is_some_and(|a| vector(a.ty)),
            E::Load { pointer } => match self.f.expressions[pointer] {
                E::GlobalVariable(g) => vector(self.module.global_variables[g].ty),
                E::LocalVariable(v) => vector(self.f.local_variables[v].ty),
                _ => false,
            },
            _ => false,
        }
    }

    /// Lanes `sel` of a vec4: itself, one component, or a swizzle.
    pub(crate) fn select_lanes(&mut self, v: H, sel: &[u32]) -> H {
        match sel.len() {
            1 => self.component(v, sel[0]),
            4 if sel == [0, 1, 2, 3] => v,
            n => {
                let mut pattern = [naga::SwizzleComponent::X; 4];
                for (i, &c) in sel.iter().enumerate() {
                    pattern[i] = naga::SwizzleComponent::XYZW[c as usize & 3];
                }
                let size = crate::regs::vector_size(n).unwrap_or(VectorSize::Quad);
                self.swizzle(size, v, pattern)
            }
        }
    }

    /// `raw` (a register's vec4<u32>) as `op` selects it: replicated for a
    /// one-component operand, swizzled for a four-component one.
    pub(crate) fn swizzled(&mut self, op: &Operand, raw: H) -> H {
        // Scalar registers (one component) are replicated.
        let components = NumComponents::from_u32(op.num_components());
        if components == Some(NumComponents::Component1) {
            let c = self.component(raw, 0);
            self.splat(c)
        } else if components == Some(NumComponents::Component4) {
            let pattern = match op.selection() {
                Some(SelectionMode::SwizzleMode) => op.swizzle(),
                Some(SelectionMode::Select1Mode) => [op.select1(); 4],
                _ => [0, 1, 2, 3],
            };
            if pattern == [0, 1, 2, 3] {
                raw
            } else {
                let comp = |c: u32| naga::SwizzleComponent::XYZW[c as usize];
                self.swizzle(
                    VectorSize::Quad,
                    raw,
                    [comp(pattern[0]), comp(pattern[1]), comp(pattern[2]), comp(pattern[3])],
                )
            }
        } else {
            raw
        }
    }

    /// Bitcasts register bits to `k` and applies the operand's modifiers.
    pub(crate) fn modified(&mut self, op: &Operand, v: H, k: K) -> H {
        let v = self.bitcast(v, K::U, k);
        self.apply_modifiers(op, v, k, None)
    }

    /// Applies the operand's modifiers to `v` of kind `k`.
    /// `lanes`: how wide `v` is, where known.
    pub(crate) fn apply_modifiers(&mut self, op: &Operand, v: H, k: K, lanes: Option<usize>) -> H {
        let mut v = v;
        let m = OperandModifier::from_u32(op.modifier(self.p));
        if matches!(m, Some(OperandModifier::Abs | OperandModifier::Absneg)) {
            v = if k == K::U { v } else { self.math(M::Abs, v, None, None) };
        }
        if matches!(m, Some(OperandModifier::Neg | OperandModifier::Absneg)) {
            v = match k {
                // Wrapping `0u - v` is the two's complement negation; not
                // of a constant, as WGSL refuses a constant expression
                // that overflows.
                K::U if lanes.is_some() && !self.is_constant(v) => {
                    let zero = self.lit_u(0);
                    let zero = match lanes.and_then(crate::regs::vector_size) {
                        Some(size) => self.e(E::Splat { size, value: zero }),
                        None => zero,
                    };
                    self.bin(B::Subtract, zero, v)
                }
                K::U => {
                    let vi = self.bitcast(v, K::U, K::I);
                    let n = self.e(E::Unary { op: UnaryOperator::Negate, expr: vi });
                    self.bitcast(n, K::I, K::U)
                }
                _ => self.e(E::Unary { op: UnaryOperator::Negate, expr: v }),
            };
        }
        v
    }

    /// Writes `value` (vec4 of kind `k`) to the components `dst` masks.
    pub(crate) fn write(&mut self, dst: &Operand, value: H, k: K, saturate: bool) -> Result<(), TranslateError> {
        let ty = dst.operand_type();
        if ty == Some(OT::Null) || self.static_out_of_bounds(dst) {
            return Ok(());
        }
        if !matches!(
            ty,
            Some(
                OT::Temp
                    | OT::Output
                    | OT::IndexableTemp
                    | OT::OutputDepth
                    | OT::OutputCoverageMask
                    | OT::OutputDepthGreaterEqual
                    | OT::OutputDepthLessEqual
                    | OT::OutputStencilRef
            )
        ) {
            let name = ty.map_or("unknown", |t| t.row().spec_name);
            return malformed(format!("{name} register used as a destination"), dst.offset as usize);
        }
        let mut value = value;
        if saturate && k == K::F {
            value = self.math(M::Saturate, value, None, None);
        }
        let mask = self.dst_mask_of(dst);
        let lanes = self.lanes;
        if ty == Some(OT::Temp) {
            if !Self::is_static(dst, 0) {
                return malformed("temp register with a relative index", dst.offset as usize);
            }
            return self.write_temp(dst.index[0].imm as u32, mask, value, k, lanes, dst.offset as usize);
        }
        if ty == Some(OT::Output) && self.defers_outputs() && dst.index_dim() == 1 && Self::is_static(dst, 0) {
            let reg = u32::try_from(dst.index[0].imm).unwrap_or(u32::MAX);
            let g = self.output(reg);
            let bits = self.bitcast(value, k, self.global_kind(g));
            let span = self.span;
            let pending = self.pending_outputs.entry(reg).or_insert([None; 4]);
            let mut lane = 0;
            for c in 0..4u32 {
                if mask & (1 << c) != 0 {
                    let comp = match lanes {
                        1 => None,
                        4 => Some(c),
                        _ => Some(lane),
                    };
                    lane += 1;
                    pending[c as usize] = Some((bits, comp, lanes as u8, span));
                }
            }
            return Ok(());
        }
        let Some(ptr) = self.pointer(dst)? else {
            return malformed("an immediate used as a destination", dst.offset as usize);
        };
        // After `pointer`, which makes the register's global.
        let memory = self.memory_kind(dst);
        let bits = self.bitcast(value, k, memory);
        if mask == 0xf && lanes == 4 {
            self.stmt(S::Store { pointer: ptr, value: bits });
        } else if mask == 0xf && lanes == 1 {
            let v = self.e(E::Splat { size: VectorSize::Quad, value: bits });
            self.stmt(S::Store { pointer: ptr, value: v });
        } else {
            let mut lane = 0;
            for c in 0..4 {
                if mask & (1 << c) != 0 {
                    let p = self.e(E::AccessIndex { base: ptr, index: c });
                    let v = match lanes {
                        1 => bits,
                        4 => self.component(bits, c),
                        _ => self.component(bits, lane),
                    };
                    lane += 1;
                    self.stmt(S::Store { pointer: p, value: v });
                }
            }
        }
        Ok(())
    }

    /// Whether output-register writes wait for the end of their block (not
    /// in a hull or domain pass, whose outputs are stage-buffer pointers).
    fn defers_outputs(&self) -> bool {
        self.io.as_ref().is_none_or(|io| io.tess.is_none())
    }

    /// Stores the pending output writes: one store of the whole register
    /// when its four components are pending, else one per component.
    pub(crate) fn flush_outputs(&mut self) {
        if self.pending_outputs.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.pending_outputs);
        let span = self.span;
        for (reg, mut lanes) in pending {
            let g = self.output(reg);
            // In a native stage, components no instruction writes stay
            // zero: with them the register is whole.
            let written = self.output_writes.get(&reg).copied().unwrap_or(0xf);
            if self.io.is_none() && (0..4).all(|c| lanes[c].is_some() || written & (1 << c) == 0) {
                let kind = self.global_kind(g);
                let at = lanes.iter().flatten().map(|l| l.3).next().unwrap_or(span);
                for lane in lanes.iter_mut().filter(|l| l.is_none()) {
                    let zero = crate::regs::literal(self, 0, kind);
                    *lane = Some((zero, None, 1, at));
                }
            }
            if let [Some(a), Some(b), Some(c), Some(d)] = lanes {
                let lanes = [a, b, c, d];
                // The store belongs to the last write that completed it.
                self.span =
                    lanes.iter().map(|l| l.3).max_by_key(|s| s.to_range().map_or(0, |r| r.start)).unwrap_or(span);
                let value = self.gather_pending(&lanes, g);
                let pointer = self.e(E::GlobalVariable(g));
                self.stmt(S::Store { pointer, value });
            } else {
                for (c, lane) in lanes.iter().enumerate() {
                    let Some((h, comp, _, at)) = *lane else { continue };
                    self.span = at;
                    let base = self.e(E::GlobalVariable(g));
                    let pointer = self.e(E::AccessIndex { base, index: c as u32 });
                    let value = match comp {
                        Some(i) => self.component(h, i),
                        None => h,
                    };
                    self.stmt(S::Store { pointer, value });
                }
            }
        }
        self.span = span;
    }

    /// The vec4 four pending lanes make: the value itself when it is one
    /// vec4 in order, a splat of one scalar, else a compose in which a
    /// whole narrower vector written in order stays whole (`vec4(a, b.w)`).
    fn gather_pending(&mut self, lanes: &[PendingLane; 4], g: Handle<GlobalVariable>) -> H {
        let first = lanes[0].0;
        let same = lanes.iter().all(|l| l.0 == first);
        // Lanes 0..4 of one value in order: it is a vec4.
        if same && lanes.iter().enumerate().all(|(i, l)| l.1 == Some(i as u32)) {
            return first;
        }
        if same && lanes.iter().all(|l| l.1.is_none()) {
            return self.e(E::Splat { size: VectorSize::Quad, value: first });
        }
        let mut components = Vec::with_capacity(4);
        let mut i = 0;
        while i < 4 {
            let (h, comp, width, _) = lanes[i];
            let w = usize::from(width);
            let whole = comp == Some(0)
                && w > 1
                && i + w <= 4
                && (0..w).all(|j| lanes[i + j].0 == h && lanes[i + j].1 == Some(j as u32));
            if whole {
                components.push(h);
                i += w;
                continue;
            }
            components.push(match comp {
                Some(c) => self.component(h, c),
                None => h,
            });
            i += 1;
        }
        let ty = self.module.global_variables[g].ty;
        self.e(E::Compose { ty, components })
    }

    // ------------------------------------------------------------- program

    fn body(&mut self) -> Result<(), TranslateError> {
        let p = self.p;
        // With class linkage the function bodies follow the main program;
        // they are lowered where `fcall`s reach them.
        let end = self.linkage.as_ref().map_or(p.instructions.len(), |l| l.main_end);
        for ins in &p.instructions[..end] {
            self.lower_instruction(ins)?;
        }
        self.check_frames_closed()?;
        self.finish_body();
        Ok(())
    }

    /// Lowers one instruction at its place (offset, span).
    pub(crate) fn lower_instruction(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        self.offset = ins.offset as usize;
        self.span = Span::new(ins.offset, ins.offset + ins.length * 4);
        self.lane_mask = 0xf;
        self.lanes = 4;
        self.here = None;
        self.narrowed_dst = None;
        if let Some(lv) = &self.liveness {
            let i = self.p.instructions.binary_search_by_key(&ins.offset, |i| i.offset).ok();
            self.here = i;
            match i.map(|i| (lv.live_dst(i), lv.narrows(i))) {
                // Nothing reads what it writes: nothing to lower.
                Some((Some(0), _)) => return Ok(()),
                Some((Some(live), true)) => {
                    self.narrowed_dst = ins.operand(self.p, 0).map(|d| (d.offset, u32::from(live)));
                }
                _ => {}
            }
        }
        let r = self.instruction(ins);
        self.lane_mask = 0xf;
        self.lanes = 4;
        self.here = None;
        self.narrowed_dst = None;
        r
    }

    /// The components a destination writes: its mask, less the lanes
    /// liveness finds dead for a component-wise instruction.
    pub(crate) fn dst_mask_of(&self, dst: &Operand) -> u32 {
        let mask = crate::regs::dst_mask(dst);
        match self.narrowed_dst {
            Some((offset, live)) if offset == dst.offset => mask & live,
            _ => mask,
        }
    }

    /// Fails on control flow left open (at the end of a program or phase).
    pub(crate) fn check_frames_closed(&self) -> Result<(), TranslateError> {
        if !self.frames.is_empty() {
            return malformed("control flow left open at the end of the program", self.offset);
        }
        Ok(())
    }

    /// Forgets the temps of a hull shader phase (the next declares its own).
    pub(crate) fn reset_temps(&mut self) {
        self.forget_values();
        self.indexable.clear();
    }

    /// Operand types a hull or domain pass resolves itself
    /// ([`Self::tess_pointer`]).
    fn tess_pointer_kind(&self, ty: OT) -> bool {
        matches!(
            ty,
            OT::InputControlPoint
                | OT::OutputControlPoint
                | OT::InputPatchConstant
                | OT::Output
                | OT::Input
                | OT::InputPrimitiveid
                | OT::OutputControlPointId
                | OT::InputForkInstanceId
                | OT::InputJoinInstanceId
                | OT::InputDomainPoint
        )
    }

    /// Moves the statements built so far into the body function.
    pub(crate) fn finish_body(&mut self) {
        self.flush_outputs();
        self.flush();
        self.f.body = self.take_root();
    }

    /// The function's top-level statements, taken, with the sizes of the
    /// buffers it reads emitted first (`array_length`).
    fn take_root(&mut self) -> Block {
        let root = std::mem::take(&mut self.root);
        if self.array_lengths.is_empty() {
            return root;
        }
        let mut block = Block::new();
        for (_, n) in std::mem::take(&mut self.array_lengths) {
            block.push(S::Emit(Range::new_from_bounds(n, n)), Span::UNDEFINED);
        }
        block.extend_block(root);
        block
    }

    /// `arrayLength(&g)` of runtime-sized global `g`, in elements. A
    /// buffer's size does not change while the shader runs, so the function
    /// computes it once, first, and names it after the buffer
    /// (`let Data_len = arrayLength((&Data));`): bounds checks all over the
    /// function read that one value instead of each its own `let`.
    pub(crate) fn array_length(&mut self, g: Handle<GlobalVariable>) -> H {
        if let Some(&n) = self.array_lengths.get(&g) {
            return n;
        }
        // Outside the open Emit range: it is emitted at the top (`take_root`).
        self.flush();
        let pointer = self.f.expressions.append(E::GlobalVariable(g), Span::UNDEFINED);
        let n = self.f.expressions.append(E::ArrayLength(pointer), Span::UNDEFINED);
        if let Some(name) = &self.module.global_variables[g].name {
            self.f.named_expressions.insert(n, format!("{name}_len"));
        }
        self.array_lengths.insert(g, n);
        n
    }

    pub(crate) fn specials_snapshot(&self) -> Vec<(OT, Handle<GlobalVariable>)> {
        self.specials.iter().map(|(&k, &v)| (k, v)).collect()
    }

    pub(crate) fn outputs_snapshot(&self) -> Vec<(u32, Handle<GlobalVariable>)> {
        self.outputs.iter().map(|(&k, &v)| (k, v)).collect()
    }

    fn declare(&mut self, ins: &Instruction, op: O) -> Result<(), TranslateError> {
        let p = self.p;
        let at = ins.offset as usize;
        let payload = ins.payload(p);
        match op {
            O::DclTemps => {
                let n = payload.first().map_or(0, |x| x.value);
                if n > 4096 {
                    return unsupported(L::TempsTooLarge, format!("{n} temp registers"), at);
                }
                self.declare_temps(n);
            }
            O::DclIndexableTemp => {
                let (reg, len) = (payload[0].value, payload.get(1).map_or(0, |x| x.value));
                if len == 0 || len > 65536 {
                    return unsupported(
                        L::IndexableTempTooLarge,
                        format!("indexable temp x{reg} of {len} registers"),
                        at,
                    );
                }
                let base = self.t.vec4u;
                let ty = self.ty(TypeInner::Array {
                    base,
                    size: ArraySize::Constant(std::num::NonZeroU32::new(len).unwrap_or(std::num::NonZeroU32::MIN)),
                    stride: 16,
                });
                let zero = self.f.expressions.append(E::ZeroValue(ty), Span::UNDEFINED);
                let h = self
                    .f
                    .local_variables
                    .append(LocalVariable { name: Some(format!("x{reg}")), ty, init: Some(zero) }, self.span);
                self.indexable.insert(reg, h);
            }
            O::DclConstantBuffer => {
                let op = self.op(ins, 0)?;
                let sm51 = op.index_dim() == 3;
                let (id, register, rows, space) = if sm51 {
                    (
                        op.index[0].imm as u32,
                        op.index[1].imm as u32,
                        payload.first().map_or(0, |x| x.value),
                        payload.get(1).map_or(0, |x| x.value),
                    )
                } else {
                    (op.index[0].imm as u32, op.index[0].imm as u32, op.index[1].imm as u32, 0)
                };
                let count = if sm51 {
                    crate::resources::range_of(op.index[1].imm, op.index[2].imm, at)?.1
                } else {
                    crate::BindingCount::Single
                };
                let rows = rows.clamp(1, 4096);
                let kind = self.cb_kinds.get(&id).copied().unwrap_or_else(|| cbuffer_read_kind(self.p, id));
                self.cb_kinds.insert(id, kind);
                let name = self.rdef_name(RegisterClass::ConstantBuffer, register, space);
                let name = name.unwrap_or_else(|| format!("cb{id}"));
                // RDEF's variables as members where they fit (`cbuffer_struct`).
                let layout = match self.cb_vars.get(&id) {
                    Some(vars) if count == crate::BindingCount::Single && self.linkage.is_none() => {
                        crate::cbuffer_struct::layout(vars, rows).ok()
                    }
                    _ => None,
                };
                let ty = if let Some(layout) = layout {
                    let ty = self.cbuffer_struct_type(&name, &layout);
                    self.cb_layouts.insert(id, std::rc::Rc::new(layout));
                    ty
                } else {
                    let base = self.vec_ty(kind);
                    self.ty(TypeInner::Array {
                        base,
                        size: ArraySize::Constant(std::num::NonZeroU32::new(rows).unwrap_or(std::num::NonZeroU32::MIN)),
                        stride: 16,
                    })
                };
                // A range is a binding array of uniform blocks.
                let ty = self.binding_array_type(ty, AddressSpace::Uniform, count);
                if count != crate::BindingCount::Single {
                    self.ranges.insert((OT::ConstantBuffer as u32, id), (register, count));
                    let range = crate::resources::range_text(register, count);
                    self.target_refusal(L::ConstantBufferArrays, format!("constant buffer range {range}"), at);
                    if count == crate::BindingCount::Unbounded {
                        self.target_refusal(L::UnboundedResourceArrays, format!("unbounded range {range}"), at);
                    }
                }
                let (group, binding) = self.options.bindings.place(RegisterClass::ConstantBuffer, register, space);
                let g = self.module.global_variables.append(
                    GlobalVariable {
                        name: Some(name),
                        space: AddressSpace::Uniform,
                        binding: Some(ResourceBinding { group, binding }),
                        ty,
                        init: None,
                        memory_decorations: naga::MemoryDecorations::empty(),
                    },
                    Span::new(ins.offset, ins.offset + ins.length * 4),
                );
                self.cbuffers.insert(id, g);
                self.bindings.push(BindingEntry {
                    class: RegisterClass::ConstantBuffer,
                    register,
                    space,
                    group,
                    binding,
                    kind: BindingKind::UniformBuffer { size_bytes: rows * 16 },
                    count,
                });
            }
            O::DclGlobalFlags => {}
            O::DclInput
            | O::DclInputPs
            | O::DclInputSgv
            | O::DclInputSiv
            | O::DclInputPsSgv
            | O::DclInputPsSiv
            | O::DclOutput
            | O::DclOutputSgv
            | O::DclOutputSiv
            | O::DclThreadGroup => {}
            O::DclInputControlPointCount
            | O::DclOutputControlPointCount
            | O::DclTessDomain
            | O::DclTessPartitioning
            | O::DclTessOutputPrimitive
            | O::DclHsMaxTessfactor
            | O::DclHsForkPhaseInstanceCount
            | O::DclHsJoinPhaseInstanceCount
            // Control points, patch constants and a hull pass's outputs
            // are addressed by index expressions: ranges need nothing.
            | O::DclIndexRange
                if self.io.as_ref().is_some_and(|io| io.tess.is_some()) => {}
            O::DclIndexRange => {
                return unsupported(L::IndexedStageIo, "dcl_indexrange (indexed input/output registers)", at)
            }
            O::DclResource
            | O::DclResourceRaw
            | O::DclResourceStructured
            | O::DclSampler
            | O::DclUnorderedAccessViewTyped
            | O::DclUnorderedAccessViewRaw
            | O::DclUnorderedAccessViewStructured
            | O::DclThreadGroupSharedMemoryRaw
            | O::DclThreadGroupSharedMemoryStructured => return self.declare_resource(ins, op),
            // Read up front into the linkage (`emulate::interfaces`).
            O::DclFunctionBody | O::DclFunctionTable | O::DclInterface => {}
            O::DclStream
            | O::DclGsInstanceCount
            | O::DclMaxOutputVertexCount
            | O::DclGsInputPrimitive
            | O::DclGsOutputPrimitiveTopology
                if self.io.as_ref().is_some_and(|io| io.gs.is_some()) => {}
            O::DclStream
            | O::DclGsInstanceCount
            | O::DclMaxOutputVertexCount
            | O::DclGsInputPrimitive
            | O::DclGsOutputPrimitiveTopology => {
                return malformed(format!("{} outside a geometry shader", op.info().asm), at)
            }
            o => return malformed(format!("{} cannot appear in a {:?} shader", o.info().asm, self.stage), at),
        }
        Ok(())
    }

    fn icb(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let words: Vec<u32> = ins.payload(self.p).iter().map(|x| x.value).collect();
        if words.is_empty() || !words.len().is_multiple_of(4) {
            return malformed("immediate constant buffer is not a whole number of vec4s", ins.offset as usize);
        }
        let rows = (words.len() / 4) as u32;
        let floats = words.iter().filter(|&&w| crate::regs::looks_float(w)).count();
        // A float table must hold only finite values: its initialiser is a
        // const-expression, which WGSL forbids to evaluate to NaN or infinity.
        let all_finite = words.iter().all(|&w| f32::from_bits(w).is_finite());
        let kind = if floats * 2 > words.len() && all_finite { K::F } else { K::U };
        self.icb_kind = kind;
        let base = self.vec_ty(kind);
        let arr = self.ty(TypeInner::Array {
            base,
            size: ArraySize::Constant(std::num::NonZeroU32::new(rows).unwrap_or(std::num::NonZeroU32::MIN)),
            stride: 16,
        });
        let ge = &mut self.module.global_expressions;
        let mut rows_h = Vec::new();
        for r in words.chunks(4) {
            let comps: Vec<H> = r
                .iter()
                .map(|&x| {
                    let lit = match kind {
                        K::F => Literal::F32(f32::from_bits(x)),
                        _ => Literal::U32(x),
                    };
                    ge.append(E::Literal(lit), Span::UNDEFINED)
                })
                .collect();
            rows_h.push(ge.append(E::Compose { ty: base, components: comps }, Span::UNDEFINED));
        }
        let init = ge.append(E::Compose { ty: arr, components: rows_h }, Span::UNDEFINED);
        let g = self.module.global_variables.append(
            GlobalVariable {
                name: Some("icb".into()),
                space: AddressSpace::Private,
                binding: None,
                ty: arr,
                init: Some(init),
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            self.span,
        );
        self.icb = Some(g);
        Ok(())
    }

    fn cond(&mut self, ins: &Instruction) -> Result<H, TranslateError> {
        let op = self.op(ins, 0)?;
        let nz = TestBoolean::from_u32(TEST_CONTROLS[0].get(ins.token)) == Some(TestBoolean::Nonzero);
        // A comparison's result is tested as the bool it is.
        if let Some(b) = self.temp_condition(op, 1) {
            return Ok(if nz { b } else { self.e(E::Unary { op: UnaryOperator::LogicalNot, expr: b }) });
        }
        let c = self.read_masked(op, K::U, 1)?;
        let z = self.lit_u(0);
        Ok(self.bin(if nz { B::NotEqual } else { B::Equal }, c, z))
    }

    /// Writes a comparison's result `b`: a temp keeps the bool (readers
    /// that want D3D's mask build it), other registers take the mask.
    fn write_bool(&mut self, dst: &Operand, b: H) -> Result<(), TranslateError> {
        let at = dst.offset as usize;
        if dst.operand_type() == Some(OT::Temp) && Self::is_static(dst, 0) && !self.static_out_of_bounds(dst) {
            let mask = self.dst_mask_of(dst);
            return self.write_temp_bool(dst.index[0].imm as u32, mask, b, self.lanes, at);
        }
        let r = self.mask_from_bool(b);
        self.write(dst, r, K::U, false)
    }

    fn instruction(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        if ins.is_customdata() {
            return match CustomdataClass::from_u32(ins.customdata_class()) {
                Some(CustomdataClass::DclImmediateConstantBuffer) => self.icb(ins),
                _ => Ok(()),
            };
        }
        let Some(code) = ins.op() else {
            return malformed(format!("unknown opcode {}", ins.opcode()), at);
        };
        if code.info().class == dxbc::spec::OpClass::Decl {
            return self.declare(ins, code);
        }
        // Flow (branches, returns, emits, calls) may leave the block or
        // hand the outputs on: what was written so far is stored first.
        if code.info().class == dxbc::spec::OpClass::Flow {
            self.flush_outputs();
        }
        match code {
            O::If => {
                let c = self.cond(ins)?;
                self.flush();
                self.open_scope(false, false, None);
                self.frames.push(Frame::If { cond: c, accept: Block::new(), reject: None, span: self.span });
            }
            O::Else => {
                if !matches!(self.frames.last(), Some(Frame::If { reject: None, .. })) {
                    return malformed("else without if", at);
                }
                self.end_block();
                if let Some(Frame::If { reject: r @ None, .. }) = self.frames.last_mut() {
                    *r = Some(Block::new());
                }
                self.restart_block();
            }
            O::Endif => {
                if !matches!(self.frames.last(), Some(Frame::If { .. })) {
                    return malformed("endif without if", at);
                }
                self.end_block();
                match self.frames.pop() {
                    Some(Frame::If { cond, accept, reject, span }) => {
                        self.close_scope();
                        self.block().push(S::If { condition: cond, accept, reject: reject.unwrap_or_default() }, span)
                    }
                    _ => return malformed("endif without if", at),
                }
            }
            O::Loop => {
                self.flush();
                let writes = self.prepass.loop_writes.get(&ins.offset).cloned();
                self.open_scope(true, true, Some(writes.unwrap_or_default()));
                self.frames.push(Frame::Loop { body: Block::new(), span: self.span });
            }
            O::Endloop => {
                if !matches!(self.frames.last(), Some(Frame::Loop { .. })) {
                    return malformed("endloop without loop", at);
                }
                self.end_block();
                match self.frames.pop() {
                    Some(Frame::Loop { body, span }) => {
                        self.close_scope();
                        self.block().push(S::Loop { body, continuing: Block::new(), break_if: None }, span)
                    }
                    _ => return malformed("endloop without loop", at),
                }
            }
            O::Break => {
                // D3D lets `break` end the program when no loop or switch is open.
                if self.frames.iter().any(|f| matches!(f, Frame::Loop { .. } | Frame::Switch { .. })) {
                    self.before_jump(false);
                    self.stmt(S::Break)
                } else {
                    self.stmt(S::Return { value: None })
                }
            }
            O::Continue | O::Continuec if !self.frames.iter().any(|f| matches!(f, Frame::Loop { .. })) => {
                return malformed("continue outside a loop", at);
            }
            O::Continue => {
                self.before_jump(true);
                self.stmt(S::Continue)
            }
            O::Breakc | O::Continuec | O::Retc | O::Discard => {
                let c = self.cond(ins)?;
                let in_breakable = self.frames.iter().any(|f| matches!(f, Frame::Loop { .. } | Frame::Switch { .. }));
                if code == O::Discard && self.stage != ShaderStage::Fragment {
                    return unsupported(L::DiscardOutsidePixelShader, "discard outside a pixel shader", at);
                }
                let inner = match code {
                    // As for `break`: with no loop or switch open it ends the program.
                    O::Breakc if !in_breakable => S::Return { value: None },
                    O::Breakc => S::Break,
                    O::Continuec => S::Continue,
                    O::Retc => S::Return { value: None },
                    _ => S::Kill,
                };
                if matches!(inner, S::Break | S::Continue) {
                    self.before_jump(code == O::Continuec);
                }
                let mut accept = Block::new();
                accept.push(inner, self.span);
                self.stmt(S::If { condition: c, accept, reject: Block::new() });
            }
            O::Ret => self.stmt(S::Return { value: None }),
            O::Switch => {
                let op = self.op(ins, 0)?;
                let s = self.read_masked(op, K::U, 1)?;
                self.flush();
                self.open_scope(false, true, None);
                self.frames.push(Frame::Switch {
                    selector: s,
                    cases: Vec::new(),
                    labels: Vec::new(),
                    body: None,
                    span: self.span,
                });
            }
            O::Case | O::Default => {
                let label = if code == O::Case {
                    let op = self.op(ins, 0)?;
                    match op.imm(self.p).first() {
                        Some(&v) => SwitchValue::U32(v),
                        None => return malformed("case with a non-literal value", at),
                    }
                } else {
                    SwitchValue::Default
                };
                self.flush();
                if !matches!(self.frames.last(), Some(Frame::Switch { .. })) {
                    return malformed("case outside a switch", at);
                }
                // A label ends the block before it: the previous case's, or
                // (at the first label) instructions between `switch` and its
                // first label, which no path reaches. Their statements are
                // dropped below, and the next block starts from the state
                // the switch opened with, so no register keeps a value
                // only they computed.
                self.end_block();
                self.restart_block();
                let Some(Frame::Switch { cases, labels, body, .. }) = self.frames.last_mut() else {
                    return malformed("case outside a switch", at);
                };
                if cases.iter().any(|c| c.value == label) || labels.contains(&label) {
                    return malformed(format!("switch has two {label:?} labels"), at);
                }
                // A label after statements closes the previous case.
                if let Some(b) = body.take() {
                    if !labels.is_empty() {
                        close_case(cases, labels, b);
                    }
                }
                labels.push(label);
            }
            O::Endswitch => {
                if !matches!(self.frames.last(), Some(Frame::Switch { .. })) {
                    return malformed("endswitch without switch", at);
                }
                self.end_block();
                match self.frames.pop() {
                    Some(Frame::Switch { selector, mut cases, mut labels, body, span }) => {
                        self.close_scope();
                        if !labels.is_empty() {
                            close_case(&mut cases, &mut labels, body.unwrap_or_default());
                        }
                        if !cases.iter().any(|c| c.value == SwitchValue::Default) {
                            cases.push(SwitchCase {
                                value: SwitchValue::Default,
                                body: Block::new(),
                                fall_through: false,
                            });
                        }
                        self.block().push(S::Switch { selector, cases }, span);
                    }
                    _ => return malformed("endswitch without switch", at),
                }
            }
            O::Nop => {}
            O::InterfaceCall if self.linkage.is_some() => self.fcall(ins)?,
            O::Emit | O::Cut | O::Emitthencut | O::EmitStream | O::CutStream | O::EmitthencutStream
                if self.io.as_ref().is_some_and(|io| io.gs.is_some()) =>
            {
                self.gs_instruction(ins, code)?
            }
            _ => self.alu(ins, code)?,
        }
        Ok(())
    }

    /// The destination lanes of a bit copy grouped by the kind their values
    /// already have (`lane_kind`: a lane takes its first source's kind that
    /// is known), in lane order. Lanes no value decides join the first
    /// group; one group (the whole mask) when no two kinds meet, or when a
    /// later group would read a lane an earlier one wrote (any of `reads`,
    /// the instruction's sources, naming the destination's register with a
    /// lane that selects another written lane), or when a lane is an
    /// immediate's NaN or infinity.
    fn kind_groups(&self, srcs: &[&Operand], reads: &[&Operand], d: &Operand) -> Lanes<(u32, Option<K>)> {
        let mask = self.lane_mask & 0xf;
        let same_reg = |s: &&&Operand| {
            s.operand_type() == Some(OT::Temp)
                && d.operand_type() == Some(OT::Temp)
                && Self::is_static(s, 0)
                && Self::is_static(d, 0)
                && s.index[0].imm == d.index[0].imm
        };
        let crosses = reads.iter().filter(same_reg).any(|s| {
            let sel = crate::regs::selection(s);
            (0..4).any(|l| mask & (1 << l) != 0 && sel[l] as usize & 3 != l && mask & (1 << (sel[l] & 3)) != 0)
        });
        // NaN or infinity bits stay in the kind the whole copy reads them in:
        // a float literal of them goes through a variable (WGSL's constant
        // evaluation refuses them), a bitcast of a uint constant would not.
        let lanes = || (0..4).filter(|l| mask & (1 << l) != 0);
        let non_finite =
            srcs.iter().any(|s| lanes().any(|l| self.lane_immediate(s, l).is_some_and(|b| (b >> 23) & 0xff == 0xff)));
        if d.operand_type() == Some(OT::Null) || mask == 0 || crosses || non_finite {
            return [(self.lane_mask, None)].into_iter().collect();
        }
        let mut groups: Lanes<(u32, Option<K>)> = Lanes::new();
        let mut free = 0;
        for lane in lanes() {
            match srcs.iter().find_map(|s| self.lane_kind(s, lane)) {
                Some(k) => match groups.iter_mut().find(|g| g.1 == Some(k)) {
                    Some(g) => g.0 |= 1 << lane,
                    None => groups.push((1 << lane, Some(k))),
                },
                None => free |= 1 << lane,
            }
        }
        match groups.as_mut_slice() {
            [] => [(self.lane_mask, None)].into_iter().collect(),
            [(_, k)] => [(self.lane_mask, *k)].into_iter().collect(),
            [first, ..] => {
                first.0 |= free;
                groups
            }
        }
    }

    /// Runs `lower` once per lane group of destination `d`, each time with
    /// the lane mask (and the destination's written lanes) narrowed to the
    /// group: lanes of different kinds are built as separate values, so no
    /// lane is bitcast only to share a vector with the others.
    fn per_kind_group(
        &mut self,
        d: &Operand,
        groups: Lanes<(u32, Option<K>)>,
        mut lower: impl FnMut(&mut Self, Option<K>) -> Result<(), TranslateError>,
    ) -> Result<(), TranslateError> {
        if let [(_, k)] = groups.as_slice() {
            return lower(self, *k);
        }
        let saved = (self.lane_mask, self.lanes, self.narrowed_dst);
        let mut r = Ok(());
        for (group, k) in groups {
            self.lane_mask = group;
            self.lanes = group.count_ones() as usize;
            self.narrowed_dst = Some((d.offset, group));
            r = lower(self, k);
            if r.is_err() {
                break;
            }
        }
        (self.lane_mask, self.lanes, self.narrowed_dst) = saved;
        r
    }

    /// A bit copy that a source modifier or `_sat` makes a float operation.
    fn copy_is_typed(&self, ins: &Instruction, code: O, sat: bool) -> bool {
        let first = if code == O::Movc { 2 } else { 1 };
        sat || ins
            .ops
            .as_slice()
            .iter()
            .skip(first)
            .any(|&id| self.p.operands.get(id as usize).is_some_and(|s| s.modifier(self.p) != 0))
    }

    /// Lowers `mov` or `movc` for the lanes `self.lane_mask` names, in kind
    /// `k` (`None`: the kind the (first) source has).
    fn copy_lanes(&mut self, ins: &Instruction, code: O, k: Option<K>, sat: bool) -> Result<(), TranslateError> {
        let d = self.op(ins, 0)?;
        let typed = self.copy_is_typed(ins, code, sat);
        if code == O::Mov {
            let s = self.op(ins, 1)?;
            if !typed && d.operand_type() == Some(OT::Temp) && Self::is_static(d, 0) {
                if let Some(bits) = self.immediate_lanes(s) {
                    let mask = self.dst_mask_of(d);
                    return self.write_temp_imm(d.index[0].imm as u32, mask, bits, d.offset as usize);
                }
            }
            let (a, k) = if typed {
                (self.read_masked(s, K::F, self.lane_mask)?, K::F)
            } else {
                self.read_lanes(s, k, self.lane_mask)?
            };
            return self.write(d, a, k, sat);
        }
        let cond = self.op(ins, 1)?;
        let cb = match self.temp_condition(cond, self.lane_mask) {
            Some(b) => b,
            None => {
                let c = self.read_masked(cond, K::U, self.lane_mask)?;
                let z = self.splat_u(0);
                self.bin(B::NotEqual, c, z)
            }
        };
        let (s1, s2) = (self.op(ins, 2)?, self.op(ins, 3)?);
        let (a, k) = if typed {
            (self.read_masked(s1, K::F, self.lane_mask)?, K::F)
        } else {
            self.read_lanes(s1, k, self.lane_mask)?
        };
        let b = self.read_masked(s2, k, self.lane_mask)?;
        let r = self.select(cb, a, b);
        self.write(d, r, k, sat)
    }

    /// `add` and `iadd`: a sum, or `b - a` where only source `a` is
    /// negated. The same value (IEEE defines `b - a` as `b + -a`; integers
    /// wrap either way), and an unsigned one needs no detour through i32
    /// to negate. Not for two integer constants: WGSL refuses a constant
    /// expression that overflows (`1u - 3u`), where the negation through
    /// i32 is exact.
    fn add(&mut self, ins: &Instruction, k: K, sat: bool) -> Result<(), TranslateError> {
        let (s1, s2) = (self.op(ins, 1)?, self.op(ins, 2)?);
        let negated = |op: &Operand| OperandModifier::from_u32(op.modifier(self.p)) == Some(OperandModifier::Neg);
        let (n1, n2) = (negated(s1), negated(s2));
        let r = if n1 != n2 {
            let (minus, plus) = if n1 { (s1, s2) } else { (s2, s1) };
            let (m, _) = self.read_lanes(minus, Some(k), self.lane_mask)?;
            let p = self.read_masked(plus, k, self.lane_mask)?;
            if k == K::F || !(self.is_constant(m) && self.is_constant(p)) {
                self.bin(B::Subtract, p, m)
            } else {
                // The negation as `read_masked` would apply it.
                let m = self.apply_modifiers(minus, m, k, Some(lanes_of(self.lane_mask)));
                if n1 {
                    self.bin(B::Add, m, p)
                } else {
                    self.bin(B::Add, p, m)
                }
            }
        } else {
            let a = self.read_masked(s1, k, self.lane_mask)?;
            let b = self.read_masked(s2, k, self.lane_mask)?;
            self.sum(a, b)
        };
        let d = self.op(ins, 0)?;
        self.write(d, r, k, sat)
    }

    /// `a + b`, or `a - 24` where `b` is the literal -24 (either operand):
    /// as a person writes it, and the same value in IEEE and in wrapping
    /// integer arithmetic. Not when the other operand is a constant too:
    /// WGSL would evaluate either form when the shader is created, and may
    /// refuse it.
    pub(crate) fn sum(&mut self, a: H, b: H) -> H {
        let negative = |l: &Self, x: H, other: H| l.negation(x).filter(|_| !l.is_constant(other));
        if let Some(nb) = negative(self, b, a) {
            let nb = self.negated(nb);
            self.bin(B::Subtract, a, nb)
        } else if let Some(na) = negative(self, a, b) {
            let na = self.negated(na);
            self.bin(B::Subtract, b, na)
        } else {
            self.bin(B::Add, a, b)
        }
    }

    /// The negation of `x` when it is a literal negative in every lane (a
    /// float with its sign bit set, not a NaN; an integer below zero as an
    /// i32, not i32::MIN, whose negation is itself): scalars, splats and
    /// vectors of literals.
    fn negation(&self, x: H) -> Option<Negation> {
        let negated = |h: H| match self.f.expressions[h] {
            E::Literal(Literal::F32(v)) if v.is_sign_negative() && !v.is_nan() => Some(Literal::F32(-v)),
            E::Literal(Literal::I32(v)) if v < 0 && v != i32::MIN => Some(Literal::I32(-v)),
            E::Literal(Literal::U32(v)) if (v as i32) < 0 && v as i32 != i32::MIN => {
                Some(Literal::U32(v.wrapping_neg()))
            }
            _ => None,
        };
        match self.f.expressions[x] {
            E::Literal(_) => negated(x).map(Negation::Scalar),
            E::Splat { size, value } => negated(value).map(|l| Negation::Splat(size, l)),
            E::Compose { ty, ref components } => {
                components.iter().map(|&c| negated(c)).collect::<Option<Vec<_>>>().map(|l| Negation::Vector(ty, l))
            }
            _ => None,
        }
    }

    /// The literal a [`Negation`] describes.
    fn negated(&mut self, n: Negation) -> H {
        match n {
            Negation::Scalar(l) => self.e(E::Literal(l)),
            Negation::Splat(size, l) => {
                let value = self.e(E::Literal(l));
                self.e(E::Splat { size, value })
            }
            Negation::Vector(ty, lanes) => {
                let components = lanes.into_iter().map(|l| self.e(E::Literal(l))).collect();
                self.e(E::Compose { ty, components })
            }
        }
    }

    /// Whether `h` may be a constant expression for WGSL (which a browser
    /// evaluates when it creates the shader): every leaf a literal. Past a
    /// few dozen nodes the answer is yes, which only keeps the caller on
    /// its safe path.
    pub(crate) fn is_constant(&self, h: H) -> bool {
        let mut budget = 64u32;
        let mut stack = vec![h];
        while let Some(h) = stack.pop() {
            if budget == 0 {
                return true;
            }
            budget -= 1;
            match self.f.expressions[h] {
                E::Literal(_) | E::ZeroValue(_) | E::Constant(_) => {}
                E::Splat { value: x, .. }
                | E::Swizzle { vector: x, .. }
                | E::AccessIndex { base: x, .. }
                | E::As { expr: x, .. }
                | E::Unary { expr: x, .. } => stack.push(x),
                E::Binary { left, right, .. } => stack.extend([left, right]),
                E::Access { base, index } => stack.extend([base, index]),
                E::Select { condition, accept, reject } => stack.extend([condition, accept, reject]),
                E::Math { arg, arg1, arg2, arg3, .. } => {
                    stack.extend([Some(arg), arg1, arg2, arg3].into_iter().flatten())
                }
                E::Compose { ref components, .. } => stack.extend(components.iter().copied()),
                _ => return false,
            }
        }
        true
    }

    /// Writes the two results of a two-destination instruction (sincos,
    /// swapc, udiv, uaddc/usubb) to operands 0 and 1.
    fn write_pair(&mut self, ins: &Instruction, first: H, second: H, k: K, sat: bool) -> Result<(), TranslateError> {
        let d0 = self.op(ins, 0)?;
        self.write(d0, first, k, sat)?;
        let d1 = self.op(ins, 1)?;
        self.write(d1, second, k, sat)
    }

    pub(crate) fn alu(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let sat = saturate(ins);
        let name = code.info().asm;
        // A component-wise instruction computes only the lanes its
        // destination mask writes.
        if component_wise(code) {
            if let Some(d) = ins.operand(self.p, 0).filter(|d| d.operand_type() != Some(OT::Null)) {
                let mask = self.dst_mask_of(d) & 0xf;
                if mask != 0 {
                    self.lane_mask = mask;
                    self.lanes = mask.count_ones() as usize;
                }
            }
        }
        let src = |l: &mut Self, i: usize, k: K| -> Result<H, TranslateError> {
            let op = l.op(ins, i)?;
            l.read_masked(op, k, l.lane_mask)
        };
        let dst = |l: &mut Self, i: usize| l.op(ins, i);
        macro_rules! binary {
            ($k:expr, $op:expr) => {{
                let k = $k;
                let a = src(self, 1, k)?;
                let b = src(self, 2, k)?;
                let r = self.bin($op, a, b);
                let d = dst(self, 0)?;
                self.write(d, r, k, sat)?;
            }};
        }
        macro_rules! compare {
            ($k:expr, $op:expr) => {{
                let k = $k;
                let a = src(self, 1, k)?;
                let b = src(self, 2, k)?;
                let c = self.bin($op, a, b);
                let d = dst(self, 0)?;
                self.write_bool(d, c)?;
            }};
        }
        macro_rules! unary_math {
            ($k:expr, $f:expr) => {{
                let a = src(self, 1, $k)?;
                let r = self.math($f, a, None, None);
                let d = dst(self, 0)?;
                self.write(d, r, $k, sat)?;
            }};
        }
        match code {
            O::Add => self.add(ins, K::F, sat)?,
            O::Mul => binary!(K::F, B::Multiply),
            O::Div => binary!(K::F, B::Divide),
            O::Min | O::Max => {
                let a = src(self, 1, K::F)?;
                let b = src(self, 2, K::F)?;
                let r = self.math(if code == O::Min { M::Min } else { M::Max }, a, Some(b), None);
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Mad => {
                let a = src(self, 1, K::F)?;
                let b = src(self, 2, K::F)?;
                let c = src(self, 3, K::F)?;
                let m = self.bin(B::Multiply, a, b);
                let r = self.sum(m, c);
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Dp2 | O::Dp3 | O::Dp4 => {
                let n = match code {
                    O::Dp2 => 2,
                    O::Dp3 => 3,
                    _ => 4,
                };
                // Only the first n lanes of each source take part: read just those.
                let lanes = (1u32 << n) - 1;
                let a = self.read_masked(self.op(ins, 1)?, K::F, lanes)?;
                let b = self.read_masked(self.op(ins, 2)?, K::F, lanes)?;
                let dot = self.math(M::Dot, a, Some(b), None);
                // One scalar for every component the mask writes.
                self.lanes = 1;
                let d = dst(self, 0)?;
                self.write(d, dot, K::F, sat)?;
            }
            O::And | O::Or | O::Ieq | O::Ine
                if self.is_condition(self.op(ins, 1)?, self.lane_mask)
                    && self.is_condition(self.op(ins, 2)?, self.lane_mask) =>
            {
                // Two comparisons' masks: the bools combined (masks are
                // equal exactly when their bools are).
                let (s1, s2) = (self.op(ins, 1)?, self.op(ins, 2)?);
                let (Some(a), Some(b)) =
                    (self.temp_condition(s1, self.lane_mask), self.temp_condition(s2, self.lane_mask))
                else {
                    return malformed("a comparison's result did not read back", at);
                };
                let op = match code {
                    O::And => B::And,
                    O::Or => B::InclusiveOr,
                    O::Ieq => B::Equal,
                    _ => B::NotEqual,
                };
                let r = self.bin(op, a, b);
                let d = dst(self, 0)?;
                self.write_bool(d, r)?;
            }
            O::Eq => compare!(K::F, B::Equal),
            O::Ne => compare!(K::F, B::NotEqual),
            O::Lt => compare!(K::F, B::Less),
            O::Ge => compare!(K::F, B::GreaterEqual),
            // Sign-agnostic integer operations work in the integer kind their
            // sources already have (no i32/u32 bitcasts for nothing).
            O::Ieq => compare!(self.int_kind(ins, &[1, 2], K::I), B::Equal),
            O::Ine => compare!(self.int_kind(ins, &[1, 2], K::I), B::NotEqual),
            O::Ilt => compare!(K::I, B::Less),
            O::Ige => compare!(K::I, B::GreaterEqual),
            O::Ult => compare!(K::U, B::Less),
            O::Uge => compare!(K::U, B::GreaterEqual),
            O::Frc => unary_math!(K::F, M::Fract),
            O::RoundNe => unary_math!(K::F, M::Round),
            O::RoundNi => unary_math!(K::F, M::Floor),
            O::RoundPi => unary_math!(K::F, M::Ceil),
            O::RoundZ => unary_math!(K::F, M::Trunc),
            O::Sqrt => unary_math!(K::F, M::Sqrt),
            O::Rsq => unary_math!(K::F, M::InverseSqrt),
            O::Exp => unary_math!(K::F, M::Exp2),
            O::Log => unary_math!(K::F, M::Log2),
            O::Rcp => {
                let a = src(self, 1, K::F)?;
                let one = self.splat_f(1.0);
                let r = self.bin(B::Divide, one, a);
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Sincos => {
                let a = src(self, 2, K::F)?;
                let s = self.math(M::Sin, a, None, None);
                let c = self.math(M::Cos, a, None, None);
                self.write_pair(ins, s, c, K::F, sat)?;
            }
            O::DerivRtx | O::DerivRty | O::DerivRtxCoarse | O::DerivRtxFine | O::DerivRtyCoarse | O::DerivRtyFine => {
                if self.stage != ShaderStage::Fragment {
                    return unsupported(
                        L::DerivativesOutsidePixelShader,
                        format!("derivatives outside a pixel shader ({name})"),
                        at,
                    );
                }
                let a = src(self, 1, K::F)?;
                let (axis, ctrl) = match code {
                    O::DerivRtx => (naga::DerivativeAxis::X, naga::DerivativeControl::None),
                    O::DerivRty => (naga::DerivativeAxis::Y, naga::DerivativeControl::None),
                    O::DerivRtxCoarse => (naga::DerivativeAxis::X, naga::DerivativeControl::Coarse),
                    O::DerivRtxFine => (naga::DerivativeAxis::X, naga::DerivativeControl::Fine),
                    O::DerivRtyCoarse => (naga::DerivativeAxis::Y, naga::DerivativeControl::Coarse),
                    _ => (naga::DerivativeAxis::Y, naga::DerivativeControl::Fine),
                };
                let r = self.e(E::Derivative { axis, ctrl, expr: a });
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Mov | O::Movc => {
                // Both copy bits, in the kind the value has, unless a float
                // modifier or _sat asks for a float.
                if self.copy_is_typed(ins, code, sat) {
                    return self.copy_lanes(ins, code, Some(K::F), sat);
                }
                let d = dst(self, 0)?;
                // movc reads a condition and two sources, mov one source.
                let movc = usize::from(code == O::Movc);
                let ops = [self.op(ins, 1)?, self.op(ins, 1 + movc)?, self.op(ins, 1 + 2 * movc)?];
                let reads = &ops[..1 + 2 * movc];
                let groups = self.kind_groups(&reads[movc..], reads, d);
                self.per_kind_group(d, groups, |l, k| l.copy_lanes(ins, code, k, false))?;
            }
            O::Swapc => {
                // swapc d0, d1, cond, a, b: d0 = cond ? b : a; d1 = cond ? a : b
                let c = src(self, 2, K::U)?;
                let a = src(self, 3, K::U)?;
                let b = src(self, 4, K::U)?;
                let z = self.splat_u(0);
                let cb = self.bin(B::NotEqual, c, z);
                let r0 = self.select(cb, b, a);
                let r1 = self.select(cb, a, b);
                self.write_pair(ins, r0, r1, K::U, false)?;
            }
            O::Ftoi | O::Ftou => {
                // D3D: NaN → 0, out-of-range values clamp.
                let a = src(self, 1, K::F)?;
                let (lo, hi, k) =
                    if code == O::Ftoi { (-2147483648.0f32, 2147483520.0f32, K::I) } else { (0.0, 4294967040.0, K::U) };
                let lo = self.splat_f(lo);
                let hi = self.splat_f(hi);
                let c = self.math(M::Clamp, a, Some(lo), Some(hi));
                let conv = self.e(E::As { expr: c, kind: k.kind(), convert: Some(4) });
                // The largest f32 below 2^31 (2^32) converts short of the
                // maximum: values at or above 2^31 (2^32) saturate to it.
                let (limit, max) = match k {
                    K::I => (self.splat_f(2147483648.0), self.splat_i(i32::MAX)),
                    _ => (self.splat_f(4294967296.0), self.splat_u(u32::MAX)),
                };
                let above = self.bin(B::GreaterEqual, a, limit);
                let conv = self.select(above, max, conv);
                let nan = self.bin(B::NotEqual, a, a);
                let zero = match k {
                    K::I => self.splat_i(0),
                    _ => self.splat_u(0),
                };
                let r = self.select(nan, zero, conv);
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Itof | O::Utof => {
                let k = if code == O::Itof { K::I } else { K::U };
                let a = src(self, 1, k)?;
                let r = self.e(E::As { expr: a, kind: ScalarKind::Float, convert: Some(4) });
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Iadd => self.add(ins, self.int_kind(ins, &[1, 2], K::I), sat)?,
            O::And => {
                // A comparison's mask and a value: the value where it holds, else zero bits.
                let (s1, s2) = (self.op(ins, 1)?, self.op(ins, 2)?);
                let masked = match self.temp_condition(s1, self.lane_mask) {
                    Some(c) => Some((c, s2)),
                    None => self.temp_condition(s2, self.lane_mask).map(|c| (c, s1)),
                };
                match masked {
                    Some((whole, other)) if other.modifier(self.p) == 0 => {
                        let whole_mask = self.lane_mask;
                        let d = dst(self, 0)?;
                        let mut groups = self.kind_groups(&[other], &[self.op(ins, 1)?, self.op(ins, 2)?], d);
                        for (lanes, k) in &mut groups {
                            if k.is_none() && self.has_integer_bits(other, *lanes) {
                                *k = Some(K::U);
                            }
                        }
                        self.per_kind_group(d, groups, |l, k| {
                            // A group of fewer lanes reads the condition's lanes again.
                            let c = if l.lane_mask == whole_mask {
                                whole
                            } else {
                                let (s1, s2) = (l.op(ins, 1)?, l.op(ins, 2)?);
                                let part =
                                    l.temp_condition(s1, l.lane_mask).or_else(|| l.temp_condition(s2, l.lane_mask));
                                let Some(c) = part else {
                                    return malformed("a comparison's result did not read back", at);
                                };
                                c
                            };
                            let (x, k) = l.read_lanes(other, k, l.lane_mask)?;
                            let zero = l.immediate(&vec![0; l.lane_mask.count_ones().clamp(1, 4) as usize], k);
                            let r = l.select(c, x, zero);
                            l.write(d, r, k, sat)
                        })?;
                    }
                    _ => binary!(self.int_kind(ins, &[1, 2], K::U), B::And),
                }
            }
            O::Or => binary!(self.int_kind(ins, &[1, 2], K::U), B::InclusiveOr),
            O::Xor => binary!(self.int_kind(ins, &[1, 2], K::U), B::ExclusiveOr),
            O::Not => {
                let k = self.int_kind(ins, &[1], K::U);
                let a = src(self, 1, k)?;
                let r = self.e(E::Unary { op: UnaryOperator::BitwiseNot, expr: a });
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Ineg => {
                let a = src(self, 1, K::I)?;
                let r = self.e(E::Unary { op: UnaryOperator::Negate, expr: a });
                let d = dst(self, 0)?;
                self.write(d, r, K::I, false)?;
            }
            O::Imax | O::Imin | O::Umax | O::Umin => {
                let k = if matches!(code, O::Imax | O::Imin) { K::I } else { K::U };
                let a = src(self, 1, k)?;
                let b = src(self, 2, k)?;
                let r = self.math(if matches!(code, O::Imax | O::Umax) { M::Max } else { M::Min }, a, Some(b), None);
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Ishl | O::Ishr | O::Ushr => {
                let k = match code {
                    O::Ishr => K::I,
                    O::Ushr => K::U,
                    _ => self.int_kind(ins, &[1], K::U),
                };
                let a = src(self, 1, k)?;
                // D3D uses the count's low five bits; an immediate count is masked here.
                let sh = match self.imm_src(ins, 2) {
                    Some(counts) => self.immediate(&counts.map(|c| c & 31)[..self.lanes], K::U),
                    None => {
                        let b = src(self, 2, K::U)?;
                        let m = self.splat_u(31);
                        self.bin(B::And, b, m)
                    }
                };
                let r = self.bin(if code == O::Ishl { B::ShiftLeft } else { B::ShiftRight }, a, sh);
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Imad | O::Umad => {
                // The low 32 bits of a product and sum do not depend on sign.
                let k = self.int_kind(ins, &[1, 2, 3], if code == O::Imad { K::I } else { K::U });
                let a = src(self, 1, k)?;
                let b = src(self, 2, k)?;
                let c = src(self, 3, k)?;
                let m = self.bin(B::Multiply, a, b);
                let r = self.sum(m, c);
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Imul | O::Umul => {
                // imul/umul hi, lo, a, b: only the low half is expressible directly.
                if self.op(ins, 0)?.operand_type() != Some(OT::Null) {
                    return unsupported(
                        L::WideMultiply,
                        format!("{name} with the high 32 bits of the product used"),
                        at,
                    );
                }
                let k = if code == O::Imul { K::I } else { K::U };
                let a = src(self, 2, k)?;
                let b = src(self, 3, k)?;
                let r = self.bin(B::Multiply, a, b);
                let d = dst(self, 1)?;
                self.write(d, r, k, false)?;
            }
            O::Udiv => {
                // udiv q, r, a, b — division by zero gives 0xffffffff for both.
                let written = |l: &Self, i: usize| {
                    l.op(ins, i).ok().filter(|d| d.operand_type() != Some(OT::Null)).map(|d| l.dst_mask_of(d) & 0xf)
                };
                let (wq, wr) = (written(self, 0), written(self, 1));
                // The lanes written, when one destination is null or both
                // write the same lanes (the value's lanes are then the
                // destinations').
                let lanes = match (wq, wr) {
                    (Some(m), None) | (None, Some(m)) => m,
                    (Some(m), Some(n)) if m == n => m,
                    _ => 0,
                };
                let divisor = self.op(ins, 3)?;
                let nonzero_literal = lanes != 0
                    && divisor.modifier(self.p) == 0
                    && (0..4)
                        .filter(|l| lanes & (1 << l) != 0)
                        .all(|l| self.lane_immediate(divisor, l).is_some_and(|b| b != 0));
                // Each result only where it is written (an unused one would
                // count as a reader of the divisor).
                let ops = [(wq.is_some(), B::Divide, 0), (wr.is_some(), B::Modulo, 1)];
                if nonzero_literal {
                    // A literal divisor with no zero lane among those
                    // written needs no guard; those lanes alone are computed.
                    self.lane_mask = lanes;
                    self.lanes = lanes.count_ones() as usize;
                    let a = src(self, 2, K::U)?;
                    let b = src(self, 3, K::U)?;
                    for (used, op, d) in ops {
                        if used {
                            let v = self.bin(op, a, b);
                            self.write(self.op(ins, d)?, v, K::U, false)?;
                        }
                    }
                } else {
                    let a = src(self, 2, K::U)?;
                    let b = src(self, 3, K::U)?;
                    let z = self.splat_u(0);
                    let is0 = self.bin(B::Equal, b, z);
                    let one = self.splat_u(1);
                    let safe = self.select(is0, one, b);
                    let all = self.splat_u(u32::MAX);
                    for (used, op, d) in ops {
                        if used {
                            let v = self.bin(op, a, safe);
                            let v = self.select(is0, all, v);
                            self.write(self.op(ins, d)?, v, K::U, false)?;
                        }
                    }
                }
            }
            O::Uaddc | O::Usubb => {
                // uaddc / usubb dst, carry, a, b
                let a = src(self, 2, K::U)?;
                let b = src(self, 3, K::U)?;
                let (r, carry) = if code == O::Uaddc {
                    let s = self.bin(B::Add, a, b);
                    let c = self.bin(B::Less, s, a);
                    (s, c)
                } else {
                    let s = self.bin(B::Subtract, a, b);
                    let c = self.bin(B::Less, a, b);
                    (s, c)
                };
                let one = self.splat_u(1);
                let z = self.splat_u(0);
                let c = self.select(carry, one, z);
                self.write_pair(ins, r, c, K::U, false)?;
            }
            O::Countbits => unary_math!(K::U, M::CountOneBits),
            O::Bfrev => unary_math!(K::U, M::ReverseBits),
            O::FirstbitLo => unary_math!(K::U, M::FirstTrailingBit),
            O::FirstbitHi | O::FirstbitShi => {
                // Counted from the most significant bit; 0xffffffff when none.
                let k = if code == O::FirstbitHi { K::U } else { K::I };
                let a = src(self, 1, k)?;
                let f = self.math(M::FirstLeadingBit, a, None, None);
                let fu = self.bitcast(f, k, K::U);
                let none = self.splat_u(u32::MAX);
                let is_none = self.bin(B::Equal, fu, none);
                let thirty_one = self.splat_u(31);
                let from_top = self.bin(B::Subtract, thirty_one, fu);
                let r = self.select(is_none, none, from_top);
                let d = dst(self, 0)?;
                self.write(d, r, K::U, false)?;
            }
            O::Ubfe | O::Ibfe => {
                // ubfe/ibfe width, offset, value with D3D's masking rules.
                let k = if code == O::Ubfe { K::U } else { K::I };
                if let (Some(w), Some(o)) = (self.imm_src(ins, 1), self.imm_src(ins, 2)) {
                    if let Some(r) = self.bitfield_extract_imm(ins, k, w, o)? {
                        let d = dst(self, 0)?;
                        self.write(d, r, k, false)?;
                        return Ok(());
                    }
                }
                let w = src(self, 1, K::U)?;
                let o = src(self, 2, K::U)?;
                let v = src(self, 3, k)?;
                let m31 = self.splat_u(31);
                let w = self.bin(B::And, w, m31);
                let o = self.bin(B::And, o, m31);
                let wo = self.bin(B::Add, w, o);
                let c32 = self.splat_u(32);
                let fits = self.bin(B::Less, wo, c32);
                let l = self.bin(B::Subtract, c32, wo);
                let rsh = self.bin(B::Subtract, c32, w);
                let shl = self.bin(B::ShiftLeft, v, l);
                let a = self.bin(B::ShiftRight, shl, rsh);
                let b = self.bin(B::ShiftRight, v, o);
                let res = self.select(fits, a, b);
                let z = self.splat_u(0);
                let w0 = self.bin(B::Equal, w, z);
                let zero = if k == K::U { self.splat_u(0) } else { self.splat_i(0) };
                let r = self.select(w0, zero, res);
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Bfi => {
                // bfi width, offset, src, dst
                if let (Some(w), Some(o)) = (self.imm_src(ins, 1), self.imm_src(ins, 2)) {
                    let r = self.bitfield_insert_imm(ins, w, o)?;
                    let d = dst(self, 0)?;
                    self.write(d, r, K::U, false)?;
                    return Ok(());
                }
                let w = src(self, 1, K::U)?;
                let o = src(self, 2, K::U)?;
                let s = src(self, 3, K::U)?;
                let base = src(self, 4, K::U)?;
                let m31 = self.splat_u(31);
                let w = self.bin(B::And, w, m31);
                let o = self.bin(B::And, o, m31);
                let one = self.splat_u(1);
                let bits = self.bin(B::ShiftLeft, one, w);
                let low = self.bin(B::Subtract, bits, one);
                let mask = self.bin(B::ShiftLeft, low, o);
                let sh = self.bin(B::ShiftLeft, s, o);
                let ins_bits = self.bin(B::And, sh, mask);
                let inv = self.e(E::Unary { op: UnaryOperator::BitwiseNot, expr: mask });
                let keep = self.bin(B::And, base, inv);
                let r = self.bin(B::InclusiveOr, ins_bits, keep);
                let d = dst(self, 0)?;
                self.write(d, r, K::U, false)?;
            }
            O::F32tof16 => {
                // f32tof16: the half's bits in the low 16 bits of each component.
                let a = src(self, 1, K::F)?;
                let zero = self.e(E::Literal(Literal::F32(0.0)));
                let mut comps = Vec::new();
                for c in 0..4 {
                    let x = self.component(a, c);
                    let ty = self.ty(TypeInner::Vector { size: VectorSize::Bi, scalar: Scalar::F32 });
                    let v2 = self.e(E::Compose { ty, components: vec![x, zero] });
                    comps.push(self.math(M::Pack2x16float, v2, None, None));
                }
                let ty = self.t.vec4u;
                let r = self.e(E::Compose { ty, components: comps });
                let d = dst(self, 0)?;
                self.write(d, r, K::U, false)?;
            }
            O::F16tof32 => {
                let a = src(self, 1, K::U)?;
                let mask = self.lit_u(0xffff);
                let mut comps = Vec::new();
                for c in 0..4 {
                    let x = self.component(a, c);
                    let lo = self.bin(B::And, x, mask);
                    let v2 = self.math(M::Unpack2x16float, lo, None, None);
                    comps.push(self.component(v2, 0));
                }
                let ty = self.t.vec4f;
                let r = self.e(E::Compose { ty, components: comps });
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            // The double-precision family, as the Limitation table lists it.
            c if crate::Limitation::of_opcode(c) == Some(crate::Limitation::Doubles) => return self.double(ins, code),
            O::Sample | O::SampleC | O::SampleCLz | O::SampleL | O::SampleD | O::SampleB => {
                return self.sample(ins, code)
            }
            O::Gather4 | O::Gather4C | O::Gather4Po | O::Gather4PoC => return self.gather(ins, code),
            O::Ld | O::LdMs => return self.load_texture(ins),
            O::Resinfo => return self.resinfo(ins),
            O::LdRaw | O::LdStructured => return self.load_words(ins, code),
            O::StoreRaw | O::StoreStructured => return self.store_words(ins, code),
            c if c.info().class == dxbc::spec::OpClass::Atomic => return self.atomic(ins, code),
            O::Bufinfo => return self.bufinfo(ins),
            O::SampleInfo => return self.sampleinfo(ins),
            O::LdUavTyped => return self.load_typed_uav(ins),
            O::StoreUavTyped => return self.store_typed_uav(ins),
            O::Sync => return self.sync(ins),
            O::Msad => return self.msad(ins),
            O::Lod => return self.lod(ins),
            O::SamplePos => return self.samplepos(ins),
            O::EvalCentroid | O::EvalSampleIndex | O::EvalSnapped => return self.eval(ins, code),
            c if c == O::CheckAccessFullyMapped || crate::emulate::feedback::sibling(c).is_some() => {
                return self.feedback(ins, code)
            }
            _ => {
                return match Limitation::of_opcode(code) {
                    Some(l) => unsupported(l, format!("instruction {name}"), at),
                    None => malformed(format!("instruction {name} cannot appear in a {:?} shader", self.stage), at),
                }
            }
        }
        Ok(())
    }

    /// Source `i`'s lanes (those the instruction computes) when every one is
    /// an immediate with no modifier; lanes past `self.lanes` are zero.
    fn imm_src(&self, ins: &Instruction, i: usize) -> Option<[u32; 4]> {
        let op = self.op(ins, i).ok()?;
        if OperandModifier::from_u32(op.modifier(self.p)) != Some(OperandModifier::None) {
            return None;
        }
        let all = self.immediate_lanes(op)?;
        let mut out = [0; 4];
        for (n, c) in (0..4).filter(|c| self.lane_mask & (1 << c) != 0).enumerate() {
            out[n] = all[c];
        }
        Some(out)
    }

    /// `ubfe`/`ibfe` with immediate widths and offsets, decided per lane at
    /// translation time (D3D's rules: width and offset masked to five bits,
    /// width 0 gives 0, a field past bit 31 is `value >> offset`). None when
    /// the lanes fall in different cases.
    fn bitfield_extract_imm(
        &mut self,
        ins: &Instruction,
        k: K,
        w: [u32; 4],
        o: [u32; 4],
    ) -> Result<Option<H>, TranslateError> {
        let n = self.lanes;
        let (w, o) = (w.map(|x| x & 31), o.map(|x| x & 31));
        #[derive(PartialEq)]
        enum Case {
            Zero,
            Field,
            Tail,
        }
        let case = |i: usize| match (w[i], w[i] + o[i] < 32) {
            (0, _) => Case::Zero,
            (_, true) => Case::Field,
            (_, false) => Case::Tail,
        };
        let first = case(0);
        if (1..n).any(|i| case(i) != first) {
            return Ok(None);
        }
        if first == Case::Zero {
            return Ok(Some(self.immediate(&vec![0; n], k)));
        }
        let op = self.op(ins, 3)?;
        let v = self.read_masked(op, k, self.lane_mask)?;
        Ok(Some(match first {
            Case::Tail => {
                let sh = self.immediate(&o[..n], K::U);
                self.bin(B::ShiftRight, v, sh)
            }
            // Unsigned: shift down, mask the width.
            _ if k == K::U => {
                let sh = self.immediate(&o[..n], K::U);
                let shifted = if o[..n].iter().all(|&x| x == 0) { v } else { self.bin(B::ShiftRight, v, sh) };
                let masks: Vec<u32> = (0..n).map(|i| u32::MAX >> (32 - w[i])).collect();
                let m = self.immediate(&masks, K::U);
                self.bin(B::And, shifted, m)
            }
            // Signed: the field to the top, then an arithmetic shift down.
            _ => {
                let up: Vec<u32> = (0..n).map(|i| 32 - w[i] - o[i]).collect();
                let down: Vec<u32> = (0..n).map(|i| 32 - w[i]).collect();
                let up = self.immediate(&up, K::U);
                let down = self.immediate(&down, K::U);
                let shl = self.bin(B::ShiftLeft, v, up);
                self.bin(B::ShiftRight, shl, down)
            }
        }))
    }

    /// `bfi` with immediate widths and offsets: the field mask is a literal.
    fn bitfield_insert_imm(&mut self, ins: &Instruction, w: [u32; 4], o: [u32; 4]) -> Result<H, TranslateError> {
        let n = self.lanes;
        let (w, o) = (w.map(|x| x & 31), o.map(|x| x & 31));
        // ((1 << width) - 1) << offset, as D3D defines the mask.
        let masks: Vec<u32> = (0..n).map(|i| ((1u32 << w[i]) - 1) << o[i]).collect();
        let s = self.read_masked(self.op(ins, 3)?, K::U, self.lane_mask)?;
        let base = self.read_masked(self.op(ins, 4)?, K::U, self.lane_mask)?;
        let shifted = if o[..n].iter().all(|&x| x == 0) {
            s
        } else {
            let sh = self.immediate(&o[..n], K::U);
            self.bin(B::ShiftLeft, s, sh)
        };
        let m = self.immediate(&masks, K::U);
        let field = self.bin(B::And, shifted, m);
        let base_zero = self.imm_src(ins, 4).is_some_and(|b| b[..n].iter().all(|&x| x == 0));
        if base_zero {
            return Ok(field);
        }
        let inverse: Vec<u32> = masks.iter().map(|m| !m).collect();
        let keep_mask = self.immediate(&inverse, K::U);
        let keep = self.bin(B::And, base, keep_mask);
        Ok(self.bin(B::InclusiveOr, field, keep))
    }

    // --------------------------------------------------------- entry point

    fn entry_point(&mut self, shader: &dxbc::Shader) -> Result<EntryIo, TranslateError> {
        let p = self.p;
        // The body is written into the entry point itself, between the
        // copies of the arguments in and the result out. Its last `return`
        // goes (the result's return follows); any other, an early return,
        // becomes the result's return where it stands (`expand_returns`).
        let mut body_fn = std::mem::take(&mut self.f);
        let mut block = std::mem::take(&mut body_fn.body);
        let early_returns = !returns_only_at_end(&block);
        if matches!(block.last(), Some(S::Return { value: None })) {
            block.cull(block.len() - 1..);
        }
        let mut ep = Function { name: Some("main".into()), ..body_fn };
        let mut stmts = Block::new();
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        let mut workgroup_size = [1, 1, 1];
        let stage = self.stage;

        // Interpolation per input register from dcl_input_ps.
        let mut interp: BTreeMap<u32, InterpolationMode> = BTreeMap::new();
        let mut declared_specials: BTreeSet<u32> = BTreeSet::new();
        for ins in &p.instructions {
            match ins.op() {
                Some(O::DclInputPs | O::DclInputPsSiv | O::DclInputPsSgv) => {
                    if let Some(op) = ins.operand(p, 0) {
                        let mode = InterpolationMode::from_u32(DCL_INPUT_PS_CONTROLS[0].get(ins.token));
                        if let (Some(OT::Input), 1, Some(mode)) = (op.operand_type(), op.index_dim(), mode) {
                            interp.insert(op.index[0].imm as u32, mode);
                        }
                    }
                }
                Some(O::DclThreadGroup) => {
                    let w = ins.payload(p);
                    for (i, x) in w.iter().take(3).enumerate() {
                        workgroup_size[i] = x.value.max(1);
                    }
                    // D3D11's limits: x, y ≤ 1024, z ≤ 64, at most 1024 threads.
                    let [x, y, z] = workgroup_size;
                    if x > 1024 || y > 1024 || z > 64 || x as u64 * y as u64 * z as u64 > 1024 {
                        return malformed(
                            format!("thread group {x}x{y}x{z} exceeds D3D's limits"),
                            ins.offset as usize,
                        );
                    }
                }
                Some(O::DclInput) => {
                    if let Some(op) = ins.operand(p, 0) {
                        if op.operand_type() != Some(OT::Input) {
                            declared_specials.insert(op.ty());
                        }
                    }
                }
                Some(O::DclOutput) => {
                    if let Some(op) = ins.operand(p, 0) {
                        if op.operand_type() != Some(OT::Output) {
                            declared_specials.insert(op.ty());
                        }
                    }
                }
                _ => {}
            }
        }

        // ---- inputs
        let mut arg_exprs: Vec<ArgCopy> = Vec::new();
        let mut sig_in: Vec<dxbc::chunks::signature::SignatureElement> =
            shader.input_signature.as_ref().map(|s| s.elements.clone()).unwrap_or_default();
        // Registers read but absent from the signature (or no signature at
        // all): plain float vec4 varyings at location = register.
        for &reg in self.inputs.keys() {
            if !sig_in.iter().any(|e| e.register == reg) {
                sig_in.push(synthetic_element(reg, &format!("V{reg}"), reg));
            }
        }
        // Group user elements per register.
        let mut regs: BTreeMap<u32, Vec<&dxbc::chunks::signature::SignatureElement>> = BTreeMap::new();
        for e in &sig_in {
            if e.register != u32::MAX {
                regs.entry(e.register).or_default().push(e);
            }
        }
        for (reg, elems) in &regs {
            let g = match self.inputs.get(reg) {
                Some(&g) => g,
                None => continue, // never read
            };
            // User elements of a register share one location (typed by the
            // first of them); each system value is its own built-in written
            // into the components its mask names.
            let mut user_done = false;
            for e in elems {
                let k = register_kind(e.component_type);
                let c0 = (e.mask as u32 & 0xf).trailing_zeros().min(3);
                let scalar = scalar_builtin_input(stage, e.system_value);
                let (binding, ty, comps, builtin, c0, how) = match (stage, SN::from_u32(e.system_value), scalar) {
                    (ShaderStage::Fragment, Some(SN::Position), _) => (
                        naga::Binding::BuiltIn(naga::BuiltIn::Position { invariant: false }),
                        self.t.vec4f,
                        4,
                        Some("position"),
                        0,
                        ArgKind::Position,
                    ),
                    // Alone in its register, it is a varying at the register's
                    // location, as the geometry shader's draw writes it.
                    (ShaderStage::Fragment, Some(SN::PrimitiveId), _)
                        if self.options.primitive_id_from_geometry && elems.len() == 1 =>
                    {
                        (flat_location(*reg), self.t.u32, 1, Some("primitive_id"), c0, ArgKind::Plain)
                    }
                    (_, _, Some((builtin, name, how))) => {
                        let ty = if how == ArgKind::Bool { self.t.bool } else { self.t.u32 };
                        (naga::Binding::BuiltIn(builtin), ty, 1, Some(name), c0, how)
                    }
                    (_, Some(SN::Undefined), None) => {
                        if user_done {
                            continue;
                        }
                        user_done = true;
                        let (interpolation, sampling) = if stage != ShaderStage::Fragment {
                            (None, None)
                        } else if k != K::F {
                            (Some(naga::Interpolation::Flat), None)
                        } else {
                            let mode = interp.get(reg).copied().unwrap_or(InterpolationMode::Linear);
                            let (i, s) = specialise::Interpolation::of_mode(mode).naga();
                            (Some(i), s)
                        };
                        let ty = self.vec_ty(k);
                        (
                            naga::Binding::Location {
                                location: *reg,
                                interpolation,
                                sampling,
                                blend_src: None,
                                per_primitive: false,
                            },
                            ty,
                            4,
                            None,
                            0,
                            ArgKind::Plain,
                        )
                    }
                    (ShaderStage::Fragment, Some(sv @ (SN::RenderTargetArrayIndex | SN::ViewportArrayIndex)), None) => {
                        let (limitation, location, name) = layer_or_viewport(sv);
                        let what = format!("input system value {} ({})", e.name, e.system_value_name());
                        self.target_refusal(limitation, what, e.offset);
                        (flat_location(location), self.t.u32, 1, Some(name), c0, ArgKind::Plain)
                    }
                    _ => {
                        return unsupported(
                            system_value_limitation(e.system_value),
                            format!("input system value {} ({})", e.name, e.system_value_name()),
                            e.offset,
                        )
                    }
                };
                if ep.arguments.iter().any(|a| a.binding.as_ref() == Some(&binding)) {
                    return malformed(format!("two inputs bound as {binding:?} ({})", e.name), e.offset);
                }
                let idx = ep.arguments.len() as u32;
                ep.arguments.push(FunctionArgument {
                    name: Some(semantic_identifier(&e.name, e.semantic_index)),
                    ty,
                    binding: Some(binding),
                });
                let arg = ep.expressions.append(E::FunctionArgument(idx), Span::UNDEFINED);
                let kk = if builtin.is_some() && comps == 1 { K::U } else { k };
                let register_name = self.input_names.get(reg).cloned().unwrap_or_else(|| format!("v{reg}"));
                arg_exprs.push(ArgCopy { arg, g, k: kk, comps, c0, how, register_name: Some(register_name) });
                inputs.push(IoEntry {
                    semantic: e.name.clone(),
                    semantic_index: e.semantic_index,
                    register: *reg,
                    location: builtin.is_none().then_some(*reg),
                    builtin: builtin.map(str::to_string),
                    scalar: match kk {
                        K::F => "f32",
                        K::I => "i32",
                        K::U => "u32",
                    }
                    .into(),
                    components: comps,
                    synthesised: false,
                });
            }
        }
        // Special input registers (compute ids, vPrim, …).
        for (&ty, &g) in &self.specials.clone() {
            let compute = stage == ShaderStage::Compute;
            let fragment = stage == ShaderStage::Fragment;
            let (builtin, name, comps) = match ty {
                OT::InputThreadId if compute => (naga::BuiltIn::GlobalInvocationId, "global_invocation_id", 3),
                OT::InputThreadGroupId if compute => (naga::BuiltIn::WorkGroupId, "workgroup_id", 3),
                OT::InputThreadIdInGroup if compute => (naga::BuiltIn::LocalInvocationId, "local_invocation_id", 3),
                OT::InputThreadIdInGroupFlattened if compute => {
                    (naga::BuiltIn::LocalInvocationIndex, "local_invocation_index", 1)
                }
                OT::InputPrimitiveid if fragment => (naga::BuiltIn::PrimitiveIndex, "primitive_index", 1),
                OT::OutputDepth
                | OT::OutputCoverageMask
                | OT::OutputDepthGreaterEqual
                | OT::OutputDepthLessEqual
                | OT::OutputStencilRef
                    if fragment =>
                {
                    continue; // outputs
                }
                OT::InputCoverageMask if fragment => (naga::BuiltIn::SampleMask, "sample_mask", 1),
                _ => {
                    let n = ty.row().asm;
                    let l = if ty == OT::InnerCoverage { L::InnerCoverage } else { L::SpecialRegisterInStage };
                    return unsupported(l, format!("special register {n} (in this stage)"), p.offset);
                }
            };
            let t = if comps == 3 {
                self.ty(TypeInner::Vector { size: VectorSize::Tri, scalar: Scalar::U32 })
            } else {
                self.t.u32
            };
            let idx = ep.arguments.len() as u32;
            ep.arguments.push(FunctionArgument {
                name: Some(name.into()),
                ty: t,
                binding: Some(naga::Binding::BuiltIn(builtin)),
            });
            let arg = ep.expressions.append(E::FunctionArgument(idx), Span::UNDEFINED);
            arg_exprs.push(ArgCopy { arg, g, k: K::U, comps, c0: 0, how: ArgKind::Plain, register_name: None });
            inputs.push(IoEntry {
                semantic: name.into(),
                semantic_index: 0,
                register: 0,
                location: None,
                builtin: Some(name.into()),
                scalar: "u32".into(),
                components: comps,
                synthesised: false,
            });
        }
        let _ = declared_specials;
        // A shader that reads SV_SampleIndex or has a per-sample input runs
        // once per sample; D3D still gives SV_Position at the pixel centre
        // unless it is itself declared centroid or sample, while WebGPU
        // (like Vulkan) then gives the sample's position.
        let per_sample = sig_in
            .iter()
            .any(|e| SN::from_u32(e.system_value) == Some(SN::SampleIndex) && self.inputs.contains_key(&e.register))
            || interp
                .values()
                .any(|m| matches!(m, InterpolationMode::LinearSample | InterpolationMode::LinearNoperspectiveSample));
        let position_mode = sig_in
            .iter()
            .find(|e| SN::from_u32(e.system_value) == Some(SN::Position))
            .and_then(|e| interp.get(&e.register).copied());
        let position_at_centre = per_sample
            && matches!(
                position_mode,
                None | Some(
                    InterpolationMode::Linear | InterpolationMode::LinearNoperspective | InterpolationMode::Undefined
                )
            );
        if let Some(g) = self.io.as_ref().and_then(|io| io.pull_vertex) {
            let idx = ep.arguments.len() as u32;
            ep.arguments.push(FunctionArgument {
                name: Some("vertex_index".into()),
                ty: self.t.u32,
                binding: Some(naga::Binding::BuiltIn(naga::BuiltIn::VertexIndex)),
            });
            let arg = ep.expressions.append(E::FunctionArgument(idx), Span::UNDEFINED);
            arg_exprs.push(ArgCopy { arg, g, k: K::U, comps: 1, c0: 0, how: ArgKind::Plain, register_name: None });
            inputs.push(IoEntry {
                semantic: "SV_VertexID".into(),
                semantic_index: 0,
                register: 0,
                location: None,
                builtin: Some("vertex_index".into()),
                scalar: "u32".into(),
                components: 1,
                synthesised: true,
            });
        }

        // Copy arguments into the private input globals: whole registers
        // where the argument is a vec4 at component 0, else component by
        // component. A register one argument fills that the body only
        // loads is read from its argument instead (`direct_io`).
        let mut dead_globals = Vec::new();
        let mut read_directly = Vec::new();
        let filled_by = |g| arg_exprs.iter().filter(|a| a.g == g).count();
        let alone: Vec<bool> = arg_exprs.iter().map(|a| filled_by(a.g) == 1).collect();
        for (copy, alone) in arg_exprs.into_iter().zip(alone) {
            let ArgCopy { arg, g, k, comps, c0, how, register_name } = copy;
            let gk = self.global_kind(g);
            if let (&E::FunctionArgument(idx), ArgKind::Plain, true) = (&ep.expressions[arg], how, k == gk && alone) {
                let fill = crate::direct_io::Fill { arg: idx, first: c0, count: comps.min(4 - c0) };
                if let Some(marks) = crate::direct_io::readable_from(&self.module, &ep.expressions, &block, g, fill) {
                    crate::direct_io::read_argument(&mut ep, marks, fill, &mut read_directly);
                    if let Some(name) = register_name {
                        ep.arguments[idx as usize].name = Some(name);
                    }
                    dead_globals.push(g);
                    continue;
                }
            }
            let first = ep.expressions.len();
            let ptr = ep.expressions.append(E::GlobalVariable(g), Span::UNDEFINED);
            let lit = |ep: &mut Function, v: Literal| ep.expressions.append(E::Literal(v), Span::UNDEFINED);
            let mut stores: Vec<(H, H)> = Vec::new();
            match how {
                ArgKind::Position => {
                    // D3D's SV_Position.w is the clip-space w; WebGPU gives 1/w.
                    let one = lit(&mut ep, Literal::F32(1.0));
                    let mut c: Vec<H> = (0..4)
                        .map(|i| ep.expressions.append(E::AccessIndex { base: arg, index: i }, Span::UNDEFINED))
                        .collect();
                    c[3] = ep.expressions.append(E::Binary { op: B::Divide, left: one, right: c[3] }, Span::UNDEFINED);
                    if position_at_centre {
                        let half = lit(&mut ep, Literal::F32(0.5));
                        for x in &mut c[..2] {
                            let f = ep.expressions.append(
                                E::Math { fun: M::Floor, arg: *x, arg1: None, arg2: None, arg3: None },
                                Span::UNDEFINED,
                            );
                            *x = ep.expressions.append(E::Binary { op: B::Add, left: f, right: half }, Span::UNDEFINED);
                        }
                    }
                    let v = ep.expressions.append(E::Compose { ty: self.t.vec4f, components: c }, Span::UNDEFINED);
                    let bits = if gk == K::F {
                        v
                    } else {
                        ep.expressions.append(E::As { expr: v, kind: gk.kind(), convert: None }, Span::UNDEFINED)
                    };
                    stores.push((ptr, bits));
                }
                ArgKind::Bool => {
                    // D3D booleans are all ones or zero.
                    let t = lit(&mut ep, Literal::U32(u32::MAX));
                    let f = lit(&mut ep, Literal::U32(0));
                    let v = ep.expressions.append(E::Select { condition: arg, accept: t, reject: f }, Span::UNDEFINED);
                    let v = if gk == K::U {
                        v
                    } else {
                        ep.expressions.append(E::As { expr: v, kind: gk.kind(), convert: None }, Span::UNDEFINED)
                    };
                    let p = ep.expressions.append(E::AccessIndex { base: ptr, index: c0 }, Span::UNDEFINED);
                    stores.push((p, v));
                }
                ArgKind::Plain if comps == 4 && c0 == 0 => {
                    let v = if k == gk {
                        arg
                    } else {
                        ep.expressions.append(E::As { expr: arg, kind: gk.kind(), convert: None }, Span::UNDEFINED)
                    };
                    stores.push((ptr, v));
                }
                ArgKind::Plain => {
                    for i in 0..comps.min(4 - c0) {
                        let v = if comps == 1 {
                            arg
                        } else {
                            ep.expressions.append(E::AccessIndex { base: arg, index: i }, Span::UNDEFINED)
                        };
                        let v = if k == gk {
                            v
                        } else {
                            ep.expressions.append(E::As { expr: v, kind: gk.kind(), convert: None }, Span::UNDEFINED)
                        };
                        let p = ep.expressions.append(E::AccessIndex { base: ptr, index: c0 + i }, Span::UNDEFINED);
                        stores.push((p, v));
                    }
                }
            }
            emit_all(&ep, first, &mut stmts);
            for (p, v) in stores {
                stmts.push(S::Store { pointer: p, value: v }, Span::UNDEFINED);
            }
        }
        if read_directly.contains(&true) {
            crate::direct_io::split_emits(&mut block, &read_directly);
        }
        stmts.extend_block(block);

        // ---- outputs
        let mut sig_out: Vec<dxbc::chunks::signature::SignatureElement> =
            shader.output_signature.as_ref().map(|s| s.elements.clone()).unwrap_or_default();
        // A geometry shader's draw outputs stream 0, the rasterised one.
        sig_out.retain(|e| e.stream.unwrap_or(0) == 0);
        for &reg in self.outputs.keys() {
            if !sig_out.iter().any(|e| e.register == reg) {
                let name = if stage == ShaderStage::Fragment { "SV_Target".to_string() } else { format!("O{reg}") };
                sig_out.push(synthetic_element(reg, &name, reg));
            }
        }
        let mut members = Vec::new();
        let mut values: Vec<OutValue> = Vec::new();
        let mut out_regs: BTreeMap<u32, &dxbc::chunks::signature::SignatureElement> = BTreeMap::new();
        for e in &sig_out {
            if e.register != u32::MAX {
                out_regs.entry(e.register).or_insert(e);
            }
        }
        let mut offset = 0u32;
        let mut used_locations = BTreeSet::new();
        // A vertex shader's SV_ClipDistance components become one
        // `clip_distances` array, numbered by (semantic index, register,
        // component). Registers holding them hold nothing else.
        let is_clip = |e: &dxbc::chunks::signature::SignatureElement| {
            stage == ShaderStage::Vertex && SN::from_u32(e.system_value) == Some(SN::ClipDistance)
        };
        let mut clip: Vec<(u32, u32, u32)> = Vec::new();
        for e in sig_out.iter().filter(|e| is_clip(e) && e.register != u32::MAX) {
            if sig_out.iter().any(|o| o.register == e.register && !is_clip(o)) {
                return unsupported(
                    L::ClipDistance,
                    format!("clip distances share o{} with other outputs", e.register),
                    e.offset,
                );
            }
            clip.extend((0..4).filter(|c| e.mask & (1 << c) != 0).map(|c| (e.semantic_index, e.register, c)));
        }
        clip.sort_unstable();
        for (&reg, &g) in &self.outputs.clone() {
            let Some(e) = out_regs.get(&reg) else {
                return malformed(format!("o{reg} is written but not in the output signature"), p.offset);
            };
            if is_clip(e) {
                continue;
            }
            let k = register_kind(e.component_type);
            // A scalar output: the one component it takes from the register.
            let mut scalar_from = None;
            let (binding, ty, builtin, location) = match (stage, SN::from_u32(e.system_value)) {
                (ShaderStage::Vertex, Some(sv @ (SN::RenderTargetArrayIndex | SN::ViewportArrayIndex)))
                    if sig_out.iter().filter(|o| o.register == reg).count() == 1 =>
                {
                    let (limitation, location, name) = layer_or_viewport(sv);
                    let what = format!("output system value {} ({})", e.name, e.system_value_name());
                    self.target_refusal(limitation, what, e.offset);
                    scalar_from = Some((e.mask as u32 & 0xf).trailing_zeros().min(3));
                    (flat_location(location), self.t.u32, Some(name), None)
                }
                // Only a geometry shader's draw pass writes it (see
                // `Options::primitive_id_from_geometry`).
                (ShaderStage::Vertex, Some(SN::PrimitiveId))
                    if sig_out.iter().filter(|o| o.register == reg).count() == 1 =>
                {
                    scalar_from = Some((e.mask as u32 & 0xf).trailing_zeros().min(3));
                    (flat_location(reg), self.t.u32, Some("primitive_id"), None)
                }
                (ShaderStage::Vertex, Some(SN::Position)) => (
                    naga::Binding::BuiltIn(naga::BuiltIn::Position { invariant: false }),
                    self.t.vec4f,
                    Some("position"),
                    None,
                ),
                (ShaderStage::Fragment, Some(SN::Undefined | SN::Target)) => {
                    // SV_Target n: the semantic index is the colour attachment.
                    let ty = self.vec_ty(k);
                    (
                        naga::Binding::Location {
                            location: e.semantic_index,
                            interpolation: None,
                            sampling: None,
                            blend_src: None,
                            per_primitive: false,
                        },
                        ty,
                        None,
                        Some(e.semantic_index),
                    )
                }
                (ShaderStage::Vertex, Some(SN::Undefined)) => {
                    let ty = self.vec_ty(k);
                    let (interpolation, sampling) = vertex_output_interpolation(self.options, reg, k);
                    (
                        naga::Binding::Location {
                            location: reg,
                            interpolation,
                            sampling,
                            blend_src: None,
                            per_primitive: false,
                        },
                        ty,
                        None,
                        Some(reg),
                    )
                }
                _ => {
                    return unsupported(
                        system_value_limitation(e.system_value),
                        format!("output system value {} ({})", e.name, e.system_value_name()),
                        e.offset,
                    )
                }
            };
            let k_out = if ty == self.t.vec4f { K::F } else { k };
            let gk = self.global_kind(g);
            let v = OutValue::Register { g, scalar_from, gk, k_out };
            if let Some(l) = location {
                if !used_locations.insert(l) {
                    return malformed(format!("two outputs at location {l} (o{reg})"), e.offset);
                }
            }
            if members.iter().any(|m: &StructMember| m.binding.as_ref() == Some(&binding)) {
                return malformed(format!("two outputs bound as {binding:?} (o{reg})"), e.offset);
            }
            let mut member = semantic_identifier(&e.name, e.semantic_index);
            while members.iter().any(|m: &StructMember| m.name.as_deref() == Some(member.as_str())) {
                member.push('_');
            }
            members.push(StructMember { name: Some(member), ty, binding: Some(binding), offset });
            offset += 16;
            values.push(v);
            outputs.push(IoEntry {
                semantic: e.name.clone(),
                semantic_index: e.semantic_index,
                register: reg,
                location,
                builtin: builtin.map(str::to_string),
                scalar: match k_out {
                    K::F => "f32",
                    K::I => "i32",
                    K::U => "u32",
                }
                .into(),
                components: if scalar_from.is_some() { 1 } else { 4 },
                synthesised: false,
            });
        }
        if !clip.is_empty() {
            let Some(n) = std::num::NonZeroU32::new(clip.len() as u32).filter(|n| n.get() <= 8) else {
                return unsupported(L::ClipDistance, format!("{} clip distances (at most 8)", clip.len()), p.offset);
            };
            let f32_ty = self.t.f32;
            let ty = self.ty(TypeInner::Array { base: f32_ty, size: ArraySize::Constant(n), stride: 4 });
            let parts = clip.iter().map(|&(_, reg, c)| self.outputs.get(&reg).map(|&g| (g, c))).collect();
            let v = OutValue::Clip { ty, parts };
            members.push(StructMember {
                name: Some("clip_distances".into()),
                ty,
                binding: Some(naga::Binding::BuiltIn(naga::BuiltIn::ClipDistances)),
                offset,
            });
            offset += 4 * n.get();
            values.push(v);
            outputs.push(IoEntry {
                semantic: "SV_ClipDistance".into(),
                semantic_index: 0,
                register: clip[0].1,
                location: None,
                builtin: Some("clip_distances".into()),
                scalar: "f32".into(),
                components: n.get(),
                synthesised: false,
            });
        }
        for (&ty, &g) in &self.specials.clone() {
            let (builtin, name, t, conv) = match ty {
                OT::OutputDepth | OT::OutputDepthGreaterEqual | OT::OutputDepthLessEqual => {
                    (naga::BuiltIn::FragDepth, "frag_depth", self.t.f32, Some(K::F))
                }
                OT::OutputCoverageMask => (naga::BuiltIn::SampleMask, "sample_mask", self.t.u32, None),
                OT::OutputStencilRef => {
                    return unsupported(
                        L::StencilExport,
                        "stencil reference output (oStencilRef) has no WebGPU form",
                        p.offset,
                    )
                }
                _ => continue,
            };
            let v = OutValue::Special { g, float: conv.is_some() };
            members.push(StructMember {
                name: Some(name.into()),
                ty: t,
                binding: Some(naga::Binding::BuiltIn(builtin)),
                offset,
            });
            offset += 16;
            values.push(v);
            outputs.push(IoEntry {
                semantic: name.into(),
                semantic_index: 0,
                register: 0,
                location: None,
                builtin: Some(name.into()),
                scalar: if conv.is_some() { "f32" } else { "u32" }.into(),
                components: 1,
                synthesised: false,
            });
        }
        if stage == ShaderStage::Vertex && !outputs.iter().any(|o| o.builtin.as_deref() == Some("position")) {
            // A VS that feeds a GS or HS writes no SV_Position, but naga and
            // WebGPU require one: a constant position is added after the real
            // outputs (their locations are untouched) and reported as
            // synthesised.
            let (member, entry) = crate::emulate::position::synthesised_position(self.t.vec4f, offset);
            members.push(member);
            offset += 16;
            values.push(OutValue::SynthesisedPosition);
            outputs.push(entry);
            self.emulations.insert(Emulation::SynthesisedPosition);
        }
        // One output is the result itself, bound as it (`-> @location(0)
        // vec4<f32>`, as WGSL is written by hand); several are a struct.
        let (result, binding) = match <[StructMember; 1]>::try_from(members) {
            Ok([only]) => (Some(only.ty), only.binding),
            Err(members) if members.is_empty() => (None, None),
            Err(members) => (Some(self.ty(TypeInner::Struct { members, span: offset })), None),
        };
        ep.result = result.map(|ty| FunctionResult { ty, binding });
        // The result's return, at each early return and at the end. An
        // output register no return reads any more goes (`direct_io`).
        if early_returns {
            expand_returns(&mut stmts, &mut |block| self.return_result(&mut ep, &values, result, block));
        }
        self.return_result(&mut ep, &values, result, &mut stmts);
        for v in &values {
            if let OutValue::Register { g, .. } = *v {
                if crate::direct_io::drop_unread(&self.module, &mut ep, &mut stmts, g) {
                    dead_globals.push(g);
                }
            }
        }
        ep.body = stmts;
        let early_depth_test = self.early_depth_test();
        if early_depth_test == Some(naga::EarlyDepthTest::Force) && self.writes_storage() {
            self.target_refusal(L::ForcedEarlyDepthTest, "forceEarlyDepthStencil with UAV writes", p.offset);
        }
        self.module.entry_points.push(naga::EntryPoint {
            name: "main".into(),
            stage,
            early_depth_test,
            workgroup_size: if stage == ShaderStage::Compute { workgroup_size } else { [0, 0, 0] },
            workgroup_size_overrides: None,
            function: ep,
            mesh_info: None,
            task_payload: None,
            incoming_ray_payload: None,
        });
        // Last: the lowering's maps of global handles are stale after it.
        crate::direct_io::remove_globals(&mut self.module, &dead_globals);
        Ok((inputs, outputs, workgroup_size))
    }
}

impl Lower<'_> {
    /// Pushes into `block` the entry point's return of its result (struct
    /// type `result`, none: a bare return), its members read as `values` say.
    fn return_result(&self, ep: &mut Function, values: &[OutValue], result: Option<Handle<Type>>, block: &mut Block) {
        let Some(ty) = result else {
            block.push(S::Return { value: None }, Span::UNDEFINED);
            return;
        };
        let registers: Vec<_> = values
            .iter()
            .filter_map(|v| match *v {
                OutValue::Register { g, .. } => Some(g),
                _ => None,
            })
            .collect();
        let stored = crate::direct_io::take_final_stores(&self.module, ep, block, &registers);
        let first = ep.expressions.len();
        let components: Vec<H> = values.iter().map(|v| self.out_value(ep, v, &stored)).collect();
        // A struct of the outputs, or the one output that is the result.
        let value = match components[..] {
            [only] if !matches!(self.module.types[ty].inner, TypeInner::Struct { .. }) => only,
            _ => ep.expressions.append(E::Compose { ty, components }, Span::UNDEFINED),
        };
        emit_all(ep, first, block);
        block.push(S::Return { value: Some(value) }, Span::UNDEFINED);
    }

    /// One member of the entry point's result, read at a return where the
    /// registers `stored` hold the values beside them.
    fn out_value(&self, ep: &mut Function, v: &OutValue, stored: &[(Handle<GlobalVariable>, H)]) -> H {
        let mut e = |x: E| ep.expressions.append(x, Span::UNDEFINED);
        let load = |e: &mut dyn FnMut(E) -> H, g| {
            let pointer = e(E::GlobalVariable(g));
            e(E::Load { pointer })
        };
        let float = |e: &mut dyn FnMut(E) -> H, x, k: K| match k {
            K::F => x,
            _ => e(E::As { expr: x, kind: ScalarKind::Float, convert: None }),
        };
        match *v {
            OutValue::Register { g, scalar_from, gk, k_out } => {
                let stored = stored.iter().find(|s| s.0 == g).map(|s| s.1);
                let value = stored.unwrap_or_else(|| load(&mut e, g));
                match scalar_from {
                    Some(c) => {
                        let x = e(E::AccessIndex { base: value, index: c });
                        match gk {
                            K::U => x,
                            _ => e(E::As { expr: x, kind: ScalarKind::Uint, convert: None }),
                        }
                    }
                    None if k_out == gk => value,
                    None => e(E::As { expr: value, kind: k_out.kind(), convert: None }),
                }
            }
            OutValue::Clip { ty, ref parts } => {
                let components = parts
                    .iter()
                    .map(|part| match *part {
                        Some((g, c)) => {
                            let value = load(&mut e, g);
                            let x = e(E::AccessIndex { base: value, index: c });
                            float(&mut e, x, self.global_kind(g))
                        }
                        None => e(E::Literal(Literal::F32(0.0))),
                    })
                    .collect();
                e(E::Compose { ty, components })
            }
            OutValue::Special { g, float: to_float } => {
                let value = load(&mut e, g);
                let x = e(E::AccessIndex { base: value, index: 0 });
                match to_float {
                    true => float(&mut e, x, self.global_kind(g)),
                    false => x,
                }
            }
            OutValue::SynthesisedPosition => crate::emulate::position::synthesised_value(ep, self.t.vec4f),
        }
    }

    /// The pixel shader's depth-test placement: `forceEarlyDepthStencil`
    /// runs the tests before the shader (D3D then ignores depth written by
    /// it and skips its UAV writes for failing fragments); `oDepthGE`/`oDepthLE`
    /// promise a direction, which lets the driver keep early tests.
    fn early_depth_test(&self) -> Option<naga::EarlyDepthTest> {
        if self.stage != ShaderStage::Fragment {
            return None;
        }
        let force = dxbc::spec::GLOBAL_FLAGS_CONTROLS[2].mask();
        if self.p.instructions.iter().any(|i| i.op() == Some(O::DclGlobalFlags) && i.token & force != 0) {
            return Some(naga::EarlyDepthTest::Force);
        }
        let conservative = if self.specials.contains_key(&OT::OutputDepthGreaterEqual) {
            naga::ConservativeDepth::GreaterEqual
        } else if self.specials.contains_key(&OT::OutputDepthLessEqual) {
            naga::ConservativeDepth::LessEqual
        } else {
            return None;
        };
        Some(naga::EarlyDepthTest::Allow { conservative })
    }

    /// Whether the module stores to a storage buffer or texture (a UAV).
    fn writes_storage(&self) -> bool {
        self.module.global_variables.iter().any(|(_, g)| match (g.space, &self.module.types[g.ty].inner) {
            (naga::AddressSpace::Storage { access }, _) => access.contains(naga::StorageAccess::STORE),
            (_, TypeInner::Image { class: naga::ImageClass::Storage { access, .. }, .. }) => {
                access.contains(naga::StorageAccess::STORE)
            }
            _ => false,
        })
    }
}

/// The one-component built-in inputs D3D system values map to, by stage:
/// (built-in, name, how it lands in the register).
/// SV_RenderTargetArrayIndex / SV_ViewportArrayIndex: naga has no such
/// built-ins, so they travel as a flat `u32` at a reserved location that
/// `spirv_post` turns into SPIR-V's `Layer` / `ViewportIndex` (the other
/// targets refuse them).
fn layer_or_viewport(sv: SN) -> (Limitation, u32, &'static str) {
    if sv == SN::RenderTargetArrayIndex {
        (L::RenderTargetArrayIndex, crate::spirv_post::LAYER_LOCATION, "layer")
    } else {
        (L::ViewportArrayIndex, crate::spirv_post::VIEWPORT_INDEX_LOCATION, "viewport_index")
    }
}

fn flat_location(location: u32) -> naga::Binding {
    naga::Binding::Location {
        location,
        interpolation: Some(naga::Interpolation::Flat),
        sampling: None,
        blend_src: None,
        per_primitive: false,
    }
}

fn scalar_builtin_input(stage: ShaderStage, system_value: u32) -> Option<(naga::BuiltIn, &'static str, ArgKind)> {
    use naga::BuiltIn::*;
    Some(match (stage, SN::from_u32(system_value)?) {
        (ShaderStage::Fragment, SN::IsFrontFace) => (FrontFacing, "front_facing", ArgKind::Bool),
        (ShaderStage::Fragment, SN::SampleIndex) => (SampleIndex, "sample_index", ArgKind::Plain),
        (ShaderStage::Fragment, SN::PrimitiveId) => (PrimitiveIndex, "primitive_index", ArgKind::Plain),
        (ShaderStage::Vertex, SN::VertexId) => (VertexIndex, "vertex_index", ArgKind::Plain),
        (ShaderStage::Vertex, SN::InstanceId) => (InstanceIndex, "instance_index", ArgKind::Plain),
        _ => return None,
    })
}

/// The register view of a signature element's component type (floats for
/// anything but 32-bit integers).
/// A vertex output's interpolation: the linked pixel shader's for that
/// register when given (`Options::interpolation_from`), else perspective at
/// the centre for floats; integers are always flat.
fn vertex_output_interpolation(
    options: &Options,
    register: u32,
    k: K,
) -> (Option<naga::Interpolation>, Option<naga::Sampling>) {
    let linked = options.interpolation_from.as_ref().and_then(|ps| ps.get(register));
    let (i, s) = match (k, linked) {
        (K::F, Some(i)) => i.naga(),
        (K::F, None) => specialise::Interpolation::Perspective.naga(),
        _ => specialise::Interpolation::Flat.naga(),
    };
    (Some(i), s)
}

fn register_kind(component_type: u32) -> K {
    match RegisterComponentType::from_u32(component_type) {
        Some(RegisterComponentType::Uint32) => K::U,
        Some(RegisterComponentType::Sint32) => K::I,
        _ => K::F,
    }
}

/// An entry-point argument and the input global it is copied into.
struct ArgCopy {
    arg: H,
    g: Handle<GlobalVariable>,
    /// The argument's kind.
    k: K,
    /// Its components, copied into the global's from `c0` on.
    comps: u32,
    c0: u32,
    how: ArgKind,
    /// For a signature register, the name of what it holds (`normal`, or
    /// `v3` for several elements), which the argument takes when the body
    /// reads it directly.
    register_name: Option<String>,
}

/// How the entry point reads one member of its result at a return.
enum OutValue {
    /// An output register: the value stored last before the return
    /// (`direct_io`), else its global loaded; component `scalar_from` of it
    /// or all of it, from the global's kind `gk` to the member's `k_out`.
    Register { g: Handle<GlobalVariable>, scalar_from: Option<u32>, gk: K, k_out: K },
    /// The clip distances: per distance, a component of an output register
    /// (none: never written, D3D leaves it 0).
    Clip { ty: Handle<Type>, parts: Vec<Option<(Handle<GlobalVariable>, u32)>> },
    /// A special output's component x, as f32 when `float` (depth).
    Special { g: Handle<GlobalVariable>, float: bool },
    /// The constant position of a vertex shader that writes none.
    SynthesisedPosition,
}

/// Replaces every `return` in `block` (nested ones included) with what
/// `at_return` pushes into a block in its place.
fn expand_returns(block: &mut Block, at_return: &mut dyn FnMut(&mut Block)) {
    crate::ir_walk::rebuild_blocks(block, &mut |s, span, out| match s {
        S::Return { value: None } => at_return(out),
        s => out.push(s, span),
    });
}

/// How an entry-point argument lands in its register.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ArgKind {
    /// Bits copied (bitcast to u32).
    Plain,
    /// A bool turned into D3D's all-ones / zero.
    Bool,
    /// SV_Position, whose w WebGPU gives as 1/w.
    Position,
}

/// A float vec4 signature element for a register the signature does not
/// describe (files stripped of their signature chunks).
fn synthetic_element(register: u32, name: &str, semantic_index: u32) -> dxbc::chunks::signature::SignatureElement {
    dxbc::chunks::signature::SignatureElement {
        offset: 0,
        stream: None,
        name_offset: 0,
        name: name.to_string(),
        semantic_index,
        system_value: SN::Undefined as u32,
        component_type: RegisterComponentType::Float32 as u32,
        register,
        mask: 0xf,
        rw_mask: 0xf,
        reserved: 0,
        min_precision: None,
    }
}

/// Per (constant buffer id, row): the name of the RDEF variable in that
/// row, the first one that starts there or else the one that covers it
/// (`g_mWorld` for a matrix's first row, `g_mWorld_1` for its second).
/// SM5.0 only (an SM5.1 id is not a register).
fn cbuffer_row_names(shader: &dxbc::Shader) -> BTreeMap<(u32, u32), String> {
    let mut out = BTreeMap::new();
    let Some(rdef) = &shader.rdef else { return out };
    if shader.program.as_ref().is_none_or(|p| p.version.is_sm51()) {
        return out;
    }
    for b in rdef.bindings.iter().filter(|b| b.input_type == 0) {
        let Some(cb) = rdef.constant_buffers.iter().find(|c| c.name == b.name) else { continue };
        let mut vars: Vec<_> = cb.variables.iter().filter(|v| v.size > 0).collect();
        vars.sort_by_key(|v| v.start_offset);
        for v in &vars {
            let Some(name) = identifier(&v.name) else { continue };
            let first = v.start_offset / 16;
            out.entry((b.bind_point, first)).or_insert_with(|| name.clone());
        }
        for v in &vars {
            let Some(name) = identifier(&v.name) else { continue };
            let first = v.start_offset / 16;
            let last = (v.start_offset.saturating_add(v.size).saturating_sub(1)) / 16;
            // Bounded: constant buffers have at most 4096 rows.
            for row in first + 1..=last.min(first + 4096) {
                out.entry((b.bind_point, row)).or_insert_with(|| format!("{name}_{}", row - first));
            }
        }
    }
    out
}

/// Per (constant buffer id, row) holding more than one RDEF variable: the
/// lanes (mask) and name of each. SM5.0 only, as `cbuffer_row_names`.
fn cbuffer_row_lanes(shader: &dxbc::Shader) -> BTreeMap<(u32, u32), Vec<(u32, String)>> {
    let mut out: BTreeMap<(u32, u32), Vec<(u32, String)>> = BTreeMap::new();
    let Some(rdef) = &shader.rdef else { return out };
    if shader.program.as_ref().is_none_or(|p| p.version.is_sm51()) {
        return out;
    }
    for b in rdef.bindings.iter().filter(|b| b.input_type == 0) {
        let Some(cb) = rdef.constant_buffers.iter().find(|c| c.name == b.name) else { continue };
        // Only variables within one row (scalars and vectors) share rows.
        for v in cb.variables.iter().filter(|v| v.size > 0 && v.size <= 16 && v.start_offset % 16 + v.size <= 16) {
            let Some(name) = identifier(&v.name) else { continue };
            let first = v.start_offset % 16 / 4;
            let mask = ((1u32 << (v.size / 4)) - 1) << first;
            out.entry((b.bind_point, v.start_offset / 16)).or_default().push((mask & 0xf, name));
        }
    }
    out.retain(|_, vars| vars.len() > 1);
    out
}

/// RDEF's resource bindings: (class, first register, space, count, name).
fn rdef_names(shader: &dxbc::Shader) -> Vec<(RegisterClass, u32, u32, u32, String)> {
    let Some(rdef) = &shader.rdef else { return Vec::new() };
    rdef.bindings
        .iter()
        .filter_map(|b| {
            // D3D_SHADER_INPUT_TYPE: which register file the binding is in.
            let class = match b.input_type {
                0 => RegisterClass::ConstantBuffer,
                1 | 2 | 5 | 7 | 12 => RegisterClass::ShaderResource,
                3 => RegisterClass::Sampler,
                4 | 6 | 8 | 9 | 10 | 11 | 13 => RegisterClass::UnorderedAccess,
                _ => return None,
            };
            Some((class, b.bind_point, b.space.unwrap_or(0), b.bind_count, b.name.clone()))
        })
        .collect()
}

/// `name` as a WGSL identifier: other characters become `_`, a leading
/// digit or `__` gets a letter; None when nothing is left.
pub(crate) fn identifier(name: &str) -> Option<String> {
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    while s.ends_with('_') && s.len() > 1 {
        s.pop();
    }
    if s.chars().all(|c| c == '_') {
        return None;
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) || s.starts_with("__") {
        s.insert(0, 'n');
    }
    Some(s)
}

/// Per input register holding exactly one signature element, the name of
/// its loads: the semantic in lower case (a system value's without its
/// `sv_`: `position`, `vertexid`), with its index only where
/// another element has the same semantic (`texcoord`, `color1`; the entry
/// point's arguments have the full `texcoord0`, and naga's names are
/// unique over the module).
fn input_names(shader: &dxbc::Shader) -> BTreeMap<u32, String> {
    let elements: Vec<_> =
        shader.input_signature.iter().flat_map(|s| s.elements.iter()).filter(|e| e.register != u32::MAX).collect();
    names_of_lone_elements(&elements, "")
}

/// Per output register (of stream 0) holding exactly one signature
/// element, its global's name: `out_` and the semantic as for inputs, a
/// system value's without its `sv_` (`out_position`, `out_target1`).
fn output_names(shader: &dxbc::Shader) -> BTreeMap<u32, String> {
    let elements: Vec<_> = shader
        .output_signature
        .iter()
        .flat_map(|s| s.elements.iter())
        .filter(|e| e.register != u32::MAX && e.stream.unwrap_or(0) == 0)
        .collect();
    names_of_lone_elements(&elements, "out_")
}

/// `prefix` and the semantic of each register's element, for registers
/// that hold one (see [`input_names`]); a system value's without its `sv_`.
fn names_of_lone_elements(
    elements: &[&dxbc::chunks::signature::SignatureElement],
    prefix: &str,
) -> BTreeMap<u32, String> {
    let mut out = BTreeMap::new();
    for e in elements {
        if elements.iter().filter(|o| o.register == e.register).count() != 1 {
            continue;
        }
        let alone = elements.iter().filter(|o| o.name.eq_ignore_ascii_case(&e.name)).count() == 1;
        let name = match (alone && e.semantic_index == 0, identifier(&e.name.to_ascii_lowercase())) {
            (true, Some(base)) => base,
            _ => semantic_identifier(&e.name, e.semantic_index),
        };
        let name = match name.strip_prefix("sv_").filter(|r| !r.is_empty()) {
            Some(rest) => format!("{prefix}{rest}"),
            None => format!("{prefix}{name}"),
        };
        out.insert(e.register, name);
    }
    out
}

/// Whether `block` returns nowhere but in its last top-level statement.
fn returns_only_at_end(block: &Block) -> bool {
    fn returns(s: &S) -> bool {
        match s {
            S::Return { .. } => true,
            S::Block(b) => b.iter().any(returns),
            S::If { accept, reject, .. } => accept.iter().chain(reject.iter()).any(returns),
            S::Loop { body, continuing, .. } => body.iter().chain(continuing.iter()).any(returns),
            S::Switch { cases, .. } => cases.iter().any(|c| c.body.iter().any(returns)),
            _ => false,
        }
    }
    match block.split_last() {
        None => true,
        Some((last, rest)) => {
            !rest.iter().any(returns) && (matches!(last, S::Return { value: None }) || !returns(last))
        }
    }
}

/// A signature element's identifier: its semantic in lower case with its
/// index (`texcoord0`, `sv_target1`).
fn semantic_identifier(name: &str, index: u32) -> String {
    let base = identifier(&name.to_ascii_lowercase()).unwrap_or_else(|| "io".into());
    format!("{base}{index}")
}

/// Per constant buffer id: the kind most of its RDEF variables' bytes
/// have (f32 when there is no RDEF entry, the common case).
fn cbuffer_kinds(shader: &dxbc::Shader) -> BTreeMap<u32, K> {
    let mut out = BTreeMap::new();
    let Some(rdef) = &shader.rdef else { return out };
    let sm51 = shader.program.as_ref().is_some_and(|p| p.version.is_sm51());
    for b in rdef.bindings.iter().filter(|b| b.input_type == 0) {
        let Some(cb) = rdef.constant_buffers.iter().find(|c| c.name == b.name) else { continue };
        let mut bytes = [0u64; 3];
        for v in &cb.variables {
            let slot = match v.ty.base_type {
                3 => 0,
                2 => 1,
                1 | 19 => 2,
                _ => continue,
            };
            bytes[slot] += u64::from(v.size);
        }
        let kind = if bytes[0] >= bytes[1] && bytes[0] >= bytes[2] {
            K::F
        } else if bytes[2] >= bytes[1] {
            K::U
        } else {
            K::I
        };
        let id = if sm51 { b.id.unwrap_or(b.bind_point) } else { b.bind_point };
        out.insert(id, kind);
    }
    out
}

/// The kind a constant buffer without RDEF variables is declared in: the
/// one most of its reads take (each source operand naming it votes the
/// kind its instruction reads sources in; copies do not vote). Float on a
/// tie, as D3D's constants mostly are.
fn cbuffer_read_kind(p: &Program, id: u32) -> K {
    let mut votes = [0u32; 3];
    for ins in &p.instructions {
        let Some(code) = ins.op().filter(|_| !ins.is_customdata()) else { continue };
        let Some(k) = crate::regs::source_kind(code) else { continue };
        let first_source = dxbc::spec::destination_count(code.info());
        for op in ins.operands(p).skip(first_source) {
            if op.operand_type() == Some(OT::ConstantBuffer)
                && op.index_dim() >= 2
                && Lower::is_static(op, 0)
                && op.index[0].imm == u64::from(id)
            {
                votes[match k {
                    K::F => 0,
                    K::I => 1,
                    K::U => 2,
                }] += 1;
            }
        }
    }
    match votes {
        [f, i, u] if u > f && u >= i => K::U,
        [f, i, _] if i > f => K::I,
        _ => K::F,
    }
}

/// Per output register, the components the program's instructions write
/// (declarations aside).
fn output_write_masks(p: &Program) -> BTreeMap<u32, u32> {
    let mut out = BTreeMap::new();
    for ins in &p.instructions {
        if ins.is_customdata() || ins.info().is_none_or(|i| i.class == dxbc::spec::OpClass::Decl) {
            continue;
        }
        for op in ins.operands(p) {
            if op.operand_type() == Some(OT::Output) && op.index_dim() == 1 {
                let reg = u32::try_from(op.index[0].imm).unwrap_or(u32::MAX);
                *out.entry(reg).or_insert(0) |= crate::regs::dst_mask(op) & 0xf;
            }
        }
    }
    out
}

/// Instructions that compute each destination component from the same
/// components of their sources (their sources are read per written lane).
pub(crate) fn component_wise(code: O) -> bool {
    use O::*;
    matches!(
        code,
        Add | Mul
            | Div
            | Min
            | Max
            | Mad
            | Eq
            | Ne
            | Lt
            | Ge
            | Ieq
            | Ine
            | Ilt
            | Ige
            | Ult
            | Uge
            | Frc
            | RoundNe
            | RoundNi
            | RoundPi
            | RoundZ
            | Sqrt
            | Rsq
            | Exp
            | Log
            | Rcp
            | DerivRtx
            | DerivRty
            | DerivRtxCoarse
            | DerivRtxFine
            | DerivRtyCoarse
            | DerivRtyFine
            | Mov
            | Movc
            | Ftoi
            | Ftou
            | Itof
            | Utof
            | Iadd
            | And
            | Or
            | Xor
            | Not
            | Ineg
            | Imax
            | Imin
            | Umax
            | Umin
            | Ishl
            | Ishr
            | Ushr
            | Imad
            | Umad
            | Countbits
            | Bfrev
            | FirstbitLo
            | FirstbitHi
            | FirstbitShi
            | Ubfe
            | Ibfe
            | Bfi
    )
}

/// Emits the expressions from index `first` to the end of `f`, one `Emit`
/// per run of expressions that need emitting.
fn emit_all(f: &Function, first: usize, block: &mut Block) {
    let mut run: Option<(H, H)> = None;
    for (h, e) in f.expressions.iter().skip(first) {
        if e.needs_pre_emit() {
            if let Some((a, b)) = run.take() {
                block.push(S::Emit(Range::new_from_bounds(a, b)), Span::UNDEFINED);
            }
        } else {
            run = Some((run.map_or(h, |(a, _)| a), h));
        }
    }
    if let Some((a, b)) = run {
        block.push(S::Emit(Range::new_from_bounds(a, b)), Span::UNDEFINED);
    }
}

/// Closes the case(s) gathered in `labels` with `body`: every label but the
/// last falls through into the next with an empty body.
fn close_case(cases: &mut Vec<SwitchCase>, labels: &mut Vec<SwitchValue>, body: Block) {
    let n = labels.len();
    for (i, v) in labels.drain(..).enumerate() {
        if i + 1 < n {
            cases.push(SwitchCase { value: v, body: Block::new(), fall_through: true });
        } else {
            cases.push(SwitchCase { value: v, body: std::mem::take(&mut Block::new()), fall_through: false });
        }
    }
    if let Some(last) = cases.last_mut() {
        last.body = body;
    }
}

/// An entry point's inputs, outputs and workgroup size.
pub(crate) type EntryIo = (Vec<IoEntry>, Vec<IoEntry>, [u32; 3]);

#[cfg(test)]
mod tests {
    use super::fold_u32;
    use naga::BinaryOperator as B;

    #[test]
    fn u32_folding_wraps_and_leaves_undefined_cases_alone() {
        assert_eq!(fold_u32(B::Divide, 12, 4), Some(3));
        assert_eq!(fold_u32(B::Multiply, 99, 4), Some(396));
        assert_eq!(fold_u32(B::Subtract, 1, 3), Some(u32::MAX - 1));
        assert_eq!(fold_u32(B::Add, u32::MAX, 2), Some(1));
        assert_eq!(fold_u32(B::Multiply, 0x8000_0000, 2), Some(0));
        assert_eq!(fold_u32(B::ShiftLeft, 1, 31), Some(0x8000_0000));
        assert_eq!(fold_u32(B::Modulo, 7, 4), Some(3));
        assert_eq!(fold_u32(B::Divide, 1, 0), None);
        assert_eq!(fold_u32(B::Modulo, 1, 0), None);
        assert_eq!(fold_u32(B::ShiftRight, 1, 32), None);
        assert_eq!(fold_u32(B::Less, 1, 2), None);
    }
}
