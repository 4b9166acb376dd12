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
//!
//! ## Layout
//! This module holds the lowering's state (`Lower`), the expression and
//! block builders, and the driver (`translate_form`). By what it lowers:
//! `instruction` dispatches one instruction; `declare` the declarations;
//! `operands` and `write` read sources and write destinations; `copy` the
//! typeless `mov`/`movc`; `alu` the arithmetic, with `integer`, `bits`
//! and `convert` for the instructions whose D3D results take more than
//! one WGSL operator; `entry_point` the function around the body; `names`
//! the identifiers RDEF and the signatures give.
//! Registers' values and scopes are in `regs`, resources in `resources`.

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

mod alu;
mod bits;
mod convert;
mod copy;
mod declare;
mod entry_point;
mod instruction;
mod integer;
mod names;
mod operands;
mod write;

use entry_point::register_kind;
pub(crate) use names::identifier;
use names::{cbuffer_row_lanes, cbuffer_row_names, input_names, output_names, rdef_names};

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
    /// The scalar type's WGSL name (`f32`).
    pub(crate) fn wgsl_name(self) -> &'static str {
        match self {
            K::F => "f32",
            K::I => "i32",
            K::U => "u32",
        }
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
    /// Input registers holding a system value that is interpolated and
    /// arrives as a built-in (SV_Position, SV_ClipDistance,
    /// SV_CullDistance), which SPIR-V's `InterpolateAt*` cannot take.
    pub(crate) interpolated_built_in_inputs: BTreeSet<u32>,
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
    /// a register whose four components are all pending as one vector. By
    /// register, in order.
    pending_outputs: Vec<(u32, [Option<PendingLane>; 4])>,
    /// Per output register, the components some instruction writes (the
    /// others stay zero, as the register's global starts).
    output_writes: BTreeMap<u32, u32>,
    /// `arrayLength` of each runtime-sized global the function under
    /// construction asks the size of, and its last index if asked for:
    /// made once, at their first use, and emitted first in the function
    /// ([`Lower::array_length`], [`Lower::last_index`]).
    array_lengths: BTreeMap<Handle<GlobalVariable>, (H, Option<H>)>,
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
        interpolated_built_in_inputs: shader
            .input_signature
            .iter()
            .flat_map(|s| s.elements.iter())
            .filter(|e| {
                matches!(SN::from_u32(e.system_value), Some(SN::Position | SN::ClipDistance | SN::CullDistance))
            })
            .map(|e| e.register)
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
        pending_outputs: Vec::new(),
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
    if let Some((what, offset)) = shared_binding(&l.module) {
        return malformed(what, offset);
    }
    crate::dead::drop_dead_expressions(&mut l.module);
    let info = match crate::validate::validate(&l.module) {
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
    // Languages without f64 get a second lowering with software doubles,
    // in the same form, made when one of their writers first asks for it.
    let software_doubles = (l.uses_doubles && options.doubles == crate::DoubleMode::Native).then(|| {
        let soft = Options { doubles: crate::DoubleMode::Software, ..options.clone() };
        crate::LazySoftwareDoubles::new(shader, soft, form)
    });
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

/// Two resources placed at one binding, and the offset of the later one's
/// declaration: a malformed shader (D3D's registers of one class and space
/// do not overlap; a mangled declaration can name another's), which naga
/// would refuse as a conflict in the entry point.
fn shared_binding(module: &naga::Module) -> Option<(String, usize)> {
    let mut seen = std::collections::BTreeMap::new();
    for (h, g) in module.global_variables.iter() {
        let Some(b) = &g.binding else { continue };
        if let Some(first) = seen.insert((b.group, b.binding), h) {
            let name = |h: Handle<GlobalVariable>| module.global_variables[h].name.clone().unwrap_or_default();
            let offset = module.global_variables.get_span(h).to_range().map_or(0, |r| r.start);
            let what = format!("{} and {} are bound at group {} binding {}", name(first), name(h), b.group, b.binding);
            return Some((what, offset));
        }
    }
    None
}

/// Whether a special register is depth, a float (`frag_depth: f32`); the
/// others hold integers.
pub(crate) fn is_depth(ty: OT) -> bool {
    matches!(ty, OT::OutputDepth | OT::OutputDepthGreaterEqual | OT::OutputDepthLessEqual)
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

    /// Builds a function of its own with `build` while the function under
    /// construction waits: its statements, open blocks, `Emit` range,
    /// cached loads and buffer lengths are set aside and come back after,
    /// so that the caller goes on where it was. Only for code that reads no
    /// register (a register's value is an expression of the function it
    /// was made in). The function is appended to the module: before the
    /// body's, as a callee must be.
    pub(crate) fn build_function(
        &mut self,
        name: &str,
        build: impl FnOnce(&mut Self) -> Result<(), TranslateError>,
    ) -> Result<Handle<Function>, TranslateError> {
        // Output writes still waiting are the caller's: stored there first.
        self.flush_outputs();
        self.flush();
        let next = Function { name: Some(name.into()), ..Default::default() };
        let outer = std::mem::replace(&mut self.f, next);
        let frames = std::mem::take(&mut self.frames);
        let root = std::mem::take(&mut self.root);
        let lengths = std::mem::take(&mut self.array_lengths);
        let loads = std::mem::take(&mut self.loads);
        let built = build(self);
        self.flush();
        let body = self.take_root();
        let mut f = std::mem::replace(&mut self.f, outer);
        f.body = body;
        (self.frames, self.root, self.array_lengths, self.loads) = (frames, root, lengths, loads);
        built?;
        Ok(self.module.functions.append(f, self.span))
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
        self.private_typed(name, ty)
    }

    /// A private global of type `ty`.
    pub(crate) fn private_typed(&mut self, name: impl Into<String>, ty: Handle<Type>) -> Handle<GlobalVariable> {
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name.into()),
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
        let g = if is_depth(ty) { self.io_global(name, K::F) } else { self.private_global(name) };
        self.specials.insert(ty, g);
        g
    }

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
        for (_, (n, last)) in std::mem::take(&mut self.array_lengths) {
            block.push(S::Emit(Range::new_from_bounds(n, n)), Span::UNDEFINED);
            if let Some(last) = last {
                block.push(S::Emit(Range::new_from_bounds(last, last)), Span::UNDEFINED);
            }
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
        if let Some(&(n, _)) = self.array_lengths.get(&g) {
            return n;
        }
        // Outside the open Emit range: it is emitted at the top (`take_root`).
        self.flush();
        let pointer = self.f.expressions.append(E::GlobalVariable(g), Span::UNDEFINED);
        let n = self.f.expressions.append(E::ArrayLength(pointer), Span::UNDEFINED);
        if let Some(name) = &self.module.global_variables[g].name {
            self.f.named_expressions.insert(n, format!("{name}_len"));
        }
        self.array_lengths.insert(g, (n, None));
        n
    }

    /// `arrayLength(&g) - 1`, the last index of runtime-sized global `g`,
    /// made once like [`Lower::array_length`] and emitted after it, for the
    /// clamps of every access (named `Data_last` when read more than once:
    /// [`crate::lets::unname`]).
    pub(crate) fn last_index(&mut self, g: Handle<GlobalVariable>) -> H {
        let n = self.array_length(g);
        if let Some(&(_, Some(last))) = self.array_lengths.get(&g) {
            return last;
        }
        self.flush();
        let one = self.f.expressions.append(E::Literal(Literal::U32(1)), Span::UNDEFINED);
        let last = self.f.expressions.append(E::Binary { op: B::Subtract, left: n, right: one }, Span::UNDEFINED);
        self.array_lengths.insert(g, (n, Some(last)));
        last
    }

    pub(crate) fn specials_snapshot(&self) -> Vec<(OT, Handle<GlobalVariable>)> {
        self.specials.iter().map(|(&k, &v)| (k, v)).collect()
    }

    pub(crate) fn outputs_snapshot(&self) -> Vec<(u32, Handle<GlobalVariable>)> {
        self.outputs.iter().map(|(&k, &v)| (k, v)).collect()
    }
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
