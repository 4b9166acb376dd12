//! Textures, samplers, raw/structured buffers, group-shared memory and
//! atomics.
//!
//! * `t#` textures become sampled images (depth images when any comparison
//!   sample or gather reads them); `s#` samplers keep their comparison mode.
//! * Raw and structured buffers (`t#`, `u#`) and group-shared memory (`g#`)
//!   are arrays of 32-bit words; byte addresses are divided by four and a
//!   structure index is multiplied by the stride. A region any atomic
//!   touches is declared with atomic words, and plain loads and stores on it
//!   go through atomic loads and stores.
//! * A resource operand's swizzle applies to the value the access returns.
//!
//! This module holds the declared resources' types and the binding helpers;
//! `declare` makes the globals, `textures` and `memory` lower the accesses.

use crate::lower::{malformed, saturate, unsupported, Lower, H, K};
use crate::Limitation as L;
use crate::*;
use dxbc::program::{Instruction, Operand};
use dxbc::spec::{
    ExtendedOpcodeType, FieldDef, InstructionReturnType, NumComponents, Opcode as O, OperandType as OT,
    ResinfoReturnType, ResourceDimension as RD, ReturnType, SamplerMode, SelectionMode, DCL_RESOURCE_CONTROLS,
    DCL_SAMPLER_CONTROLS, DCL_UAV_CONTROLS, EXT_SAMPLE_CONTROLS_FIELDS, RESINFO_CONTROLS, RETURN_TYPE_TOKEN_FIELDS,
    SAMPLEINFO_CONTROLS, SYNC_CONTROLS,
};
use naga::{
    AddressSpace, ArraySize, AtomicFunction, BinaryOperator as B, Expression as E, GlobalVariable, Handle, ImageClass,
    ImageDimension, ImageQuery, Literal, ResourceBinding, SampleLevel, Scalar, ScalarKind, Statement as S,
    SwizzleComponent, TypeInner, VectorSize,
};

mod declare;
mod memory;
pub(crate) mod textures;

/// A declared texture.
#[derive(Clone, Copy)]
pub(crate) struct Tex {
    pub g: Handle<GlobalVariable>,
    /// The binding-array element this use names (SM5.1 ranges), else None.
    pub elem: Option<H>,
    pub dim: RD,
    pub k: K,
    pub depth: bool,
}

/// A declared word-addressed region (raw/structured buffer or TGSM).
#[derive(Clone, Copy)]
pub(crate) struct Words {
    pub g: Handle<GlobalVariable>,
    /// A pointer to the words of the binding-array element this use names
    /// (SM5.1 ranges), else None.
    pub elem: Option<H>,
    pub stride: u32,
    pub atomic: Option<K>,
    /// A typed buffer (Buffer / RWBuffer): addressed by element.
    pub typed: bool,
    /// Words per element of a typed buffer, and the element's type.
    pub channels: u32,
    pub k: K,
    /// The kind raw or structured memory's words are declared in (u32
    /// unless its loads and stores favour another: `regs::memory_kinds`).
    pub word: K,
}

/// A typed UAV texture (RWTexture*), kept as a one-channel 32-bit storage
/// texture.
#[derive(Clone, Copy)]
pub(crate) struct StorageTex {
    pub g: Handle<GlobalVariable>,
    /// The binding-array element this use names (SM5.1 ranges), else None.
    pub elem: Option<H>,
    pub dim: RD,
    pub k: K,
}

/// Register file of a word region (the operand type, as stored).
pub(crate) const T: u32 = OT::Resource as u32;
pub(crate) const U: u32 = OT::UnorderedAccessView as u32;
pub(crate) const G: u32 = OT::ThreadGroupSharedMemory as u32;

/// The register view of a declaration's return type token (its x
/// component); doubles and mixed types have none.
fn return_kind(rt: u32) -> Option<K> {
    match ReturnType::from_u32(RETURN_TYPE_TOKEN_FIELDS[0].get(rt))? {
        ReturnType::Unorm | ReturnType::Snorm | ReturnType::Float => Some(K::F),
        ReturnType::Sint => Some(K::I),
        ReturnType::Uint => Some(K::U),
        _ => None,
    }
}

/// The lower register and descriptor count of an SM5.1 range `[lo:hi]`
/// (`hi` all ones: unbounded).
pub(crate) fn range_of(lo: u64, hi: u64, at: usize) -> Result<(u32, BindingCount), TranslateError> {
    let Ok(lo32) = u32::try_from(lo) else { return malformed(format!("register range starting at {lo}"), at) };
    if hi == u64::from(u32::MAX) {
        return Ok((lo32, BindingCount::Unbounded));
    }
    match hi.checked_sub(lo) {
        Some(0) => Ok((lo32, BindingCount::Single)),
        Some(d) if d < u64::from(u32::MAX) => Ok((lo32, BindingCount::Array(d as u32 + 1))),
        _ => malformed(format!("register range [{lo}:{hi}]"), at),
    }
}

/// `[lo:hi]` as fxc prints a range.
pub(crate) fn range_text(lo: u32, count: BindingCount) -> String {
    match count {
        BindingCount::Single => format!("[{lo}:{lo}]"),
        BindingCount::Array(n) => format!("[{lo}:{}]", u64::from(lo) + u64::from(n) - 1),
        BindingCount::Unbounded => format!("[{lo}:*]"),
    }
}

/// Register id of a resource operand (SM5.1: the first index is the range id).
pub(crate) fn res_id(op: &Operand) -> u32 {
    u32::try_from(op.index[0].imm).unwrap_or(u32::MAX)
}

impl Lower<'_> {
    fn space_of(ins: &Instruction, p: &dxbc::program::Program) -> u32 {
        ins.payload(p).iter().rev().find(|x| x.word == dxbc::spec::Word::Space).map_or(0, |x| x.value)
    }

    /// Register number (lower bound) and descriptor count of a declaration
    /// operand (SM5.1: `T0[lo:hi]`, `hi` all ones for `*`).
    fn decl_register(&self, op: &Operand, at: usize) -> Result<(u32, BindingCount), TranslateError> {
        if op.index_dim() == 3 {
            range_of(op.index[1].imm, op.index[2].imm, at)
        } else {
            Ok((res_id(op), BindingCount::Single))
        }
    }

    /// The type of a resource declared over a register range: a binding
    /// array of `ty`; buffers (storage, uniform) are wrapped in a struct,
    /// as naga's binding arrays of buffers require.
    pub(crate) fn binding_array_type(
        &mut self,
        ty: naga::Handle<naga::Type>,
        space_kind: AddressSpace,
        count: BindingCount,
    ) -> naga::Handle<naga::Type> {
        let size = match count {
            BindingCount::Single => return ty,
            BindingCount::Array(n) => {
                ArraySize::Constant(std::num::NonZeroU32::new(n).unwrap_or(std::num::NonZeroU32::MIN))
            }
            BindingCount::Unbounded => ArraySize::Dynamic,
        };
        let base = if space_kind == AddressSpace::Handle {
            ty
        } else {
            let span = match self.module.types[ty].inner {
                TypeInner::Array { size: ArraySize::Constant(n), stride, .. } => n.get().saturating_mul(stride),
                TypeInner::Array { stride, .. } => stride,
                // An atomic word (a UAV counter).
                _ => 4,
            };
            self.ty(TypeInner::Struct {
                members: vec![naga::StructMember { name: Some("words".into()), ty, binding: None, offset: 0 }],
                span,
            })
        };
        self.ty(TypeInner::BindingArray { base, size })
    }

    /// The resource an operand names: the global itself, or for a register
    /// range the binding-array element at the operand's register index
    /// (immediate plus relative register) minus the range's lower bound;
    /// for buffers, a pointer to the element's words.
    pub(crate) fn resource_element(
        &mut self,
        g: Handle<GlobalVariable>,
        op: &Operand,
    ) -> Result<Option<H>, TranslateError> {
        let Some(&(lo, count)) = self.ranges.get(&(op.ty(), res_id(op))) else { return Ok(None) };
        let at = op.offset as usize;
        if op.index_dim() < 2 {
            return malformed("a register range used without a register index", at);
        }
        let base = self.e(E::GlobalVariable(g));
        let element = if op.index[1].rel == dxbc::program::NO_OPERAND {
            let reg = op.index[1].imm;
            let inside = match count {
                BindingCount::Array(n) => reg >= u64::from(lo) && reg - u64::from(lo) < u64::from(n),
                _ => reg >= u64::from(lo) && reg <= u64::from(u32::MAX),
            };
            if !inside {
                return malformed(format!("register {reg} is outside its declared range"), at);
            }
            self.e(E::AccessIndex { base, index: (reg - u64::from(lo)) as u32 })
        } else {
            let reg = self.index(op, 1)?;
            let index = if lo == 0 {
                reg
            } else {
                let l = self.lit_u(lo);
                self.bin(B::Subtract, reg, l)
            };
            self.e(E::Access { base, index })
        };
        Ok(Some(match self.module.global_variables[g].space {
            AddressSpace::Handle => element,
            _ => self.e(E::AccessIndex { base: element, index: 0 }),
        }))
    }

    /// The expression of a resource: the element a use names, or the global.
    pub(crate) fn handle_of(&mut self, g: Handle<GlobalVariable>, elem: Option<H>) -> H {
        match elem {
            Some(e) => e,
            None => self.e(E::GlobalVariable(g)),
        }
    }

    /// The type a resource global holds per descriptor (through a binding array).
    pub(crate) fn element_inner(&self, g: Handle<GlobalVariable>) -> &TypeInner {
        let ty = self.module.global_variables[g].ty;
        match self.module.types[ty].inner {
            TypeInner::BindingArray { base, .. } => match &self.module.types[base].inner {
                TypeInner::Struct { members, .. } if !members.is_empty() => &self.module.types[members[0].ty].inner,
                inner => inner,
            },
            ref inner => inner,
        }
    }

    #[allow(clippy::too_many_arguments)] // one per binding property; a struct would only rename them
    fn resource_global(
        &mut self,
        name: String,
        ty: naga::Handle<naga::Type>,
        class: RegisterClass,
        register: u32,
        space: u32,
        kind: BindingKind,
        space_kind: AddressSpace,
        id: u32,
        count: BindingCount,
    ) -> Handle<GlobalVariable> {
        let (group, binding) = self.options.bindings.place(class, register, space);
        self.bindings.push(BindingEntry { class, register, space, group, binding, kind, count });
        let ty = self.binding_array_type(ty, space_kind, count);
        if count != BindingCount::Single {
            let file = match class {
                RegisterClass::ShaderResource => T,
                RegisterClass::UnorderedAccess => U,
                RegisterClass::Sampler => OT::Sampler as u32,
                RegisterClass::ConstantBuffer => OT::ConstantBuffer as u32,
            };
            self.ranges.insert((file, id), (register, count));
        }
        // The shader's own name for the resource when RDEF has one.
        let name = self.rdef_name(class, register, space).unwrap_or(name);
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name),
                space: space_kind,
                binding: Some(ResourceBinding { group, binding }),
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            self.span,
        )
    }
}

/// True for an operand of four components (mask, swizzle or select-1).
fn four_components(op: &Operand) -> bool {
    NumComponents::from_u32(op.num_components()) == Some(NumComponents::Component4)
}

/// True for the imm_atomic_* forms, which return the old value in an extra
/// first operand.
fn returns_old_value(code: O) -> bool {
    dxbc::spec::destination_count(code.info()) == 2
}

/// The signedness a min or max atomic compares with (`atomic_imax`,
/// `imm_atomic_imin` … signed; `atomic_umax` … unsigned); `None` for the
/// other atomics, which do not depend on it.
fn minmax_signedness(code: O) -> Option<K> {
    match code {
        O::AtomicImax | O::AtomicImin | O::ImmAtomicImax | O::ImmAtomicImin => Some(K::I),
        O::AtomicUmax | O::AtomicUmin | O::ImmAtomicUmax | O::ImmAtomicUmin => Some(K::U),
        _ => None,
    }
}

/// The read-modify-write of an atomic opcode (its signedness aside:
/// [`minmax_signedness`]); `None` for the exchanges and the counters.
fn rmw_function(code: O) -> Option<naga::AtomicFunction> {
    use naga::AtomicFunction as F;
    Some(match code {
        O::AtomicAnd | O::ImmAtomicAnd => F::And,
        O::AtomicOr | O::ImmAtomicOr => F::InclusiveOr,
        O::AtomicXor | O::ImmAtomicXor => F::ExclusiveOr,
        O::AtomicIadd | O::ImmAtomicIadd => F::Add,
        O::AtomicImax | O::AtomicUmax | O::ImmAtomicImax | O::ImmAtomicUmax => F::Max,
        O::AtomicImin | O::AtomicUmin | O::ImmAtomicImin | O::ImmAtomicUmin => F::Min,
        _ => return None,
    })
}

/// Pre-scan: which texture ids are read with comparison, and which word
/// regions atomics touch (with the signedness of their min/max).
pub(crate) fn prescan(p: &dxbc::program::Program) -> Result<RegistersAndRanges<K>, TranslateError> {
    let mut depth = std::collections::BTreeSet::new();
    let mut atomics: std::collections::BTreeMap<(u32, u32), K> = std::collections::BTreeMap::new();
    let mut signed_regions = std::collections::BTreeSet::new();
    let mut unsigned_regions = std::collections::BTreeSet::new();
    for ins in &p.instructions {
        let Some(code) = ins.op() else { continue };
        match code {
            O::SampleC | O::SampleCLz | O::Gather4C | O::Gather4PoC => {
                let i = if code == O::Gather4PoC { 3 } else { 2 };
                if let Some(op) = ins.operand(p, i) {
                    depth.insert(res_id(op));
                }
            }
            // Every atomic on memory; the counter ones (alloc/consume) touch no words.
            c if c.info().class == dxbc::spec::OpClass::Atomic
                && !matches!(c, O::ImmAtomicAlloc | O::ImmAtomicConsume) =>
            {
                let i = if returns_old_value(code) { 1 } else { 0 };
                if let Some(op) = ins.operand(p, i) {
                    let key = (op.ty(), res_id(op));
                    atomics.entry(key).or_insert(K::U);
                    match minmax_signedness(code) {
                        Some(K::I) => signed_regions.insert(key),
                        Some(_) => unsigned_regions.insert(key),
                        None => false,
                    };
                }
            }
            _ => {}
        }
    }
    // Signed min/max alone make a region signed (add, and, exchange … are
    // sign-agnostic on the bits). Mixed with unsigned min/max it stays
    // unsigned and the signed ones become compare-exchange loops
    // (emulate/atomics.rs).
    for key in signed_regions.difference(&unsigned_regions) {
        atomics.insert(*key, K::I);
    }
    Ok((depth, atomics))
}

/// Registers in use, and the declared ranges keyed by (space, first register).
type RegistersAndRanges<K> = (std::collections::BTreeSet<u32>, std::collections::BTreeMap<(u32, u32), K>);

/// The size of a word region (see `Lower::word_count`), which decides
/// what an access past its end does.
#[derive(Clone, Copy)]
enum WordCount {
    /// Group-shared memory (g#) of this many words. D3D leaves an access
    /// past the end of a g# undefined: a read returns an undefined value,
    /// and a write leaves all shared memory undefined. The index is clamped
    /// to the last word, so nothing outside the variable is touched and
    /// no guard is needed.
    Workgroup(u32),
    /// A buffer (t#, u#): D3D reads past the end return zero and writes
    /// there are dropped, so each access is guarded.
    Runtime { n: H, last: H },
}

/// The words (bit c: word c of the element) a load reads for destination
/// `dst` through the resource operand's swizzle.
fn words_needed(dst: &Operand, res: &Operand) -> u32 {
    let mask = crate::regs::dst_mask(dst) & 0xf;
    let swizzle = if four_components(res) {
        match res.selection() {
            Some(SelectionMode::SwizzleMode) => res.swizzle(),
            Some(SelectionMode::Select1Mode) => [res.select1(); 4],
            _ => [0, 1, 2, 3],
        }
    } else {
        [0, 1, 2, 3]
    };
    (0..4).filter(|c| mask & (1 << c) != 0).fold(0, |m, c| m | 1 << (swizzle[c] & 3))
}
