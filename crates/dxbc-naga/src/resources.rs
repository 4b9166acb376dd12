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
    ImageDimension, ImageQuery, Literal, ResourceBinding, SampleLevel, Scalar, ScalarKind, Span, Statement as S,
    SwizzleComponent, TypeInner, VectorSize,
};

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

    pub(crate) fn declare_resource(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let p = self.p;
        let at = ins.offset as usize;
        let op = self.op(ins, 0)?;
        let id = res_id(op);
        let (register, count) = self.decl_register(op, at)?;
        if count != BindingCount::Single {
            let range = range_text(register, count);
            self.target_refusal(L::ResourceArrays, format!("register range {range}"), at);
            let buffer = match code {
                O::DclResource => RD::from_u32(DCL_RESOURCE_CONTROLS[0].get(ins.token)) == Some(RD::Buffer),
                O::DclUnorderedAccessViewTyped => RD::from_u32(DCL_UAV_CONTROLS[0].get(ins.token)) == Some(RD::Buffer),
                O::DclSampler => false,
                _ => true,
            };
            if buffer {
                self.target_refusal(L::BufferArrays, format!("buffer range {range}"), at);
            } else if code == O::DclUnorderedAccessViewTyped {
                self.target_refusal(L::UavTextureArrays, format!("UAV texture range {range}"), at);
            }
            if count == BindingCount::Unbounded && code != O::DclSampler {
                self.target_refusal(L::UnboundedResourceArrays, format!("unbounded range {range}"), at);
            }
        }
        let space = Self::space_of(ins, p);
        let payload = ins.payload(p);
        if self.stage == naga::ShaderStage::Vertex
            && matches!(
                code,
                O::DclUnorderedAccessViewRaw | O::DclUnorderedAccessViewStructured | O::DclUnorderedAccessViewTyped
            )
        {
            self.target_refusal(L::UavInVertexShader, format!("u{id} declared in a vertex shader"), at);
        }
        match code {
            O::DclResource => {
                let raw_dim = DCL_RESOURCE_CONTROLS[0].get(ins.token);
                let rt = payload.first().map_or(0, |x| x.value);
                // Doubles are stored as pairs of 32-bit words and tbuffers
                // (`mixed`) as untyped 32-bit rows: `ld` puts those words in
                // the register as they are, so the view is read as uint words
                // (an rg32uint / rgba32uint view of the same bytes).
                let x_type = ReturnType::from_u32(RETURN_TYPE_TOKEN_FIELDS[0].get(rt));
                let mixed = x_type == Some(ReturnType::Mixed);
                let words_view = mixed || x_type == Some(ReturnType::Double);
                let Some(k) = return_kind(rt).or(if words_view { Some(K::U) } else { None }) else {
                    return unsupported(L::DoubleTextures, "textures returning doubles or mixed types", at);
                };
                let Some(dim) = RD::from_u32(raw_dim) else {
                    return malformed(format!("resource dimension {raw_dim}"), at);
                };
                let (idim, arrayed, multi) = match dim {
                    RD::Texture1d => (ImageDimension::D1, false, false),
                    RD::Texture2d => (ImageDimension::D2, false, false),
                    RD::Texture2dms => (ImageDimension::D2, false, true),
                    RD::Texture3d => (ImageDimension::D3, false, false),
                    RD::Texturecube => (ImageDimension::Cube, false, false),
                    RD::Texture2darray => (ImageDimension::D2, true, false),
                    RD::Texture2dmsarray => {
                        self.target_refusal(L::MultisampledTextureArrays, format!("t{register}"), at);
                        (ImageDimension::D2, true, true)
                    }
                    RD::Texturecubearray => (ImageDimension::Cube, true, false),
                    RD::Buffer => {
                        // Buffer<T>: WebGPU has no texel buffers; like typed UAVs the
                        // view is taken to hold one 32-bit channel per element and is
                        // bound as a read-only buffer of words.
                        // A tbuffer's rows are four 32-bit words unless a format says otherwise.
                        let channels = match self.options.typed_format(RegisterClass::ShaderResource, register) {
                            None if mixed => 4,
                            _ => self.options.channels(RegisterClass::ShaderResource, register),
                        };
                        let ty = self.word_array(None, K::U, None);
                        let g = self.resource_global(
                            format!("t{id}"),
                            ty,
                            RegisterClass::ShaderResource,
                            register,
                            space,
                            BindingKind::TypedBuffer { writable: false, channels },
                            AddressSpace::Storage { access: naga::StorageAccess::LOAD },
                            id,
                            count,
                        );
                        self.words.insert(
                            (T, id),
                            Words {
                                g,
                                elem: None,
                                stride: 4 * channels,
                                atomic: None,
                                typed: true,
                                channels,
                                k,
                                word: K::U,
                            },
                        );
                        return Ok(());
                    }
                    // WGSL has no 1D arrays: a 2D array of height 1 (emulate/texture1d_array.rs).
                    RD::Texture1darray => {
                        self.emulations.insert(Emulation::Texture1dArrayAs2dArray);
                        (ImageDimension::D2, true, false)
                    }
                    RD::Unknown | RD::RawBuffer | RD::StructuredBuffer => {
                        return malformed(format!("resource dimension {raw_dim}"), at)
                    }
                };
                let depth = self.depth_textures.contains(&id);
                if depth && (k != K::F || multi) {
                    return unsupported(
                        L::ComparisonOfNonFloatTexture,
                        "comparison sampling of a non-float or multisampled texture",
                        at,
                    );
                }
                let class =
                    if depth { ImageClass::Depth { multi } } else { ImageClass::Sampled { kind: k.kind(), multi } };
                let ty = self.ty(TypeInner::Image { dim: idim, arrayed, class });
                let dim_name = dim.row().asm.to_string();
                let kind = BindingKind::SampledTexture {
                    dimension: dim_name,
                    view_dimension: crate::emulate::texture1d_array::view_dimension(idim, arrayed).into(),
                    sample_type: if depth { "depth".into() } else { format!("{k:?}").to_lowercase() },
                    multisampled: multi,
                };
                let g = self.resource_global(
                    format!("t{id}"),
                    ty,
                    RegisterClass::ShaderResource,
                    register,
                    space,
                    kind,
                    AddressSpace::Handle,
                    id,
                    count,
                );
                self.textures.insert(id, Tex { g, elem: None, dim, k, depth });
            }
            O::DclSampler => {
                let mode = SamplerMode::from_u32(DCL_SAMPLER_CONTROLS[0].get(ins.token));
                let comparison = mode == Some(SamplerMode::Comparison);
                let ty = self.ty(TypeInner::Sampler { comparison });
                let g = self.resource_global(
                    format!("s{id}"),
                    ty,
                    RegisterClass::Sampler,
                    register,
                    space,
                    BindingKind::Sampler { comparison },
                    AddressSpace::Handle,
                    id,
                    count,
                );
                self.samplers.insert(id, g);
            }
            O::DclResourceRaw
            | O::DclResourceStructured
            | O::DclUnorderedAccessViewRaw
            | O::DclUnorderedAccessViewStructured => {
                let uav = matches!(code, O::DclUnorderedAccessViewRaw | O::DclUnorderedAccessViewStructured);
                let file = if uav { U } else { T };
                let stride = if matches!(code, O::DclResourceStructured | O::DclUnorderedAccessViewStructured) {
                    payload.first().map_or(4, |x| x.value)
                } else {
                    0
                };
                if stride % 4 != 0 {
                    return unsupported(
                        L::StructureStride,
                        format!("structure stride {stride} is not a multiple of 4"),
                        at,
                    );
                }
                // The UAV "has counter" bit; fxc leaves it clear on SRVs.
                if uav && (DCL_UAV_CONTROLS[3].get(ins.token) != 0 || self.counted_uavs.contains(&id)) {
                    self.declare_counter(id, register, space, count);
                }
                let atomic = self.atomic_targets.get(&(file, id)).copied();
                let word = self.word_kind(file, id, atomic);
                let ty = self.word_array(atomic, word, None);
                let (class, kind, space_kind) = if uav {
                    (
                        RegisterClass::UnorderedAccess,
                        BindingKind::StorageBuffer { stride },
                        AddressSpace::Storage { access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE },
                    )
                } else {
                    (
                        RegisterClass::ShaderResource,
                        BindingKind::ReadOnlyStorageBuffer { stride },
                        AddressSpace::Storage { access: naga::StorageAccess::LOAD },
                    )
                };
                let name = format!("{}{id}", if uav { "u" } else { "t" });
                let g = self.resource_global(name, ty, class, register, space, kind, space_kind, id, count);
                self.words.insert(
                    (file, id),
                    Words { g, elem: None, stride, atomic, typed: false, channels: 1, k: K::U, word },
                );
            }
            O::DclThreadGroupSharedMemoryRaw | O::DclThreadGroupSharedMemoryStructured => {
                let (stride, bytes) = if code == O::DclThreadGroupSharedMemoryRaw {
                    (0, payload.first().map_or(0, |x| x.value))
                } else {
                    let s = payload.first().map_or(0, |x| x.value);
                    (s, s.saturating_mul(payload.get(1).map_or(0, |x| x.value)))
                };
                if bytes == 0 || bytes > 32768 || bytes % 4 != 0 {
                    return unsupported(L::GroupSharedTooLarge, format!("group-shared memory of {bytes} bytes"), at);
                }
                let atomic = self.atomic_targets.get(&(G, id)).copied();
                let word = self.word_kind(G, id, atomic);
                let ty = self.word_array(atomic, word, Some(bytes / 4));
                let g = self.module.global_variables.append(
                    GlobalVariable {
                        name: Some(format!("g{id}")),
                        space: AddressSpace::WorkGroup,
                        binding: None,
                        ty,
                        init: None,
                        memory_decorations: naga::MemoryDecorations::empty(),
                    },
                    self.span,
                );
                self.words
                    .insert((G, id), Words { g, elem: None, stride, atomic, typed: false, channels: 1, k: K::U, word });
            }
            O::DclUnorderedAccessViewTyped => {
                // The bytecode does not carry the view's format: typed UAVs are
                // taken to hold one 32-bit channel of the declared type
                // (r32uint / r32sint / r32float), the common case and the only
                // one WebGPU can read and write in place.
                let raw_dim = DCL_UAV_CONTROLS[0].get(ins.token);
                let rt = payload.first().map_or(0, |x| x.value);
                let Some(k) = return_kind(rt) else {
                    return unsupported(L::TypedUavOfDoubles, "typed UAVs of doubles or mixed types", at);
                };
                let dim = RD::from_u32(raw_dim);
                if dim == Some(RD::Buffer) {
                    let atomic = self.atomic_targets.get(&(U, id)).copied();
                    let channels = if atomic.is_some() {
                        1
                    } else {
                        self.options.channels(RegisterClass::UnorderedAccess, register)
                    };
                    let ty = self.word_array(atomic, K::U, None);
                    let g = self.resource_global(
                        format!("u{id}"),
                        ty,
                        RegisterClass::UnorderedAccess,
                        register,
                        space,
                        BindingKind::TypedBuffer { writable: true, channels },
                        AddressSpace::Storage { access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE },
                        id,
                        count,
                    );
                    self.words.insert(
                        (U, id),
                        Words { g, elem: None, stride: 4 * channels, atomic, typed: true, channels, k, word: K::U },
                    );
                } else {
                    // Atomics on a typed UAV texture: naga's image atomics on an
                    // r32 uint/sint storage texture (native targets; WebGPU has none).
                    let atomic = self.atomic_targets.contains_key(&(U, id));
                    if atomic {
                        if k == K::F {
                            return unsupported(L::TypedUavAtomics, "atomics on a float typed UAV", at);
                        }
                        self.target_refusal(L::TypedUavAtomics, format!("atomics on the typed UAV u{id}"), at);
                    }
                    let (dim, idim, arrayed) = match dim {
                        Some(d @ RD::Texture1d) => (d, ImageDimension::D1, false),
                        Some(d @ RD::Texture2d) => (d, ImageDimension::D2, false),
                        Some(d @ RD::Texture3d) => (d, ImageDimension::D3, false),
                        Some(d @ RD::Texture2darray) => (d, ImageDimension::D2, true),
                        Some(d @ RD::Texture1darray) => {
                            self.emulations.insert(Emulation::Texture1dArrayAs2dArray);
                            (d, ImageDimension::D2, true)
                        }
                        _ => {
                            return unsupported(L::TypedUavDimension, format!("typed UAVs of dimension {raw_dim}"), at)
                        }
                    };
                    // A given view format of the declared kind replaces r32.
                    let given = self.options.typed_format(RegisterClass::UnorderedAccess, register);
                    let format = match (given.filter(|f| f.scalar_kind() == k.scalar().kind && !atomic), k) {
                        (Some(f), _) => f.storage_format(),
                        (None, K::F) => naga::StorageFormat::R32Float,
                        (None, K::U) => naga::StorageFormat::R32Uint,
                        (None, K::I) => naga::StorageFormat::R32Sint,
                    };
                    let mut access = naga::StorageAccess::LOAD | naga::StorageAccess::STORE;
                    if atomic {
                        access |= naga::StorageAccess::ATOMIC;
                    }
                    let class = ImageClass::Storage { format, access };
                    let ty = self.ty(TypeInner::Image { dim: idim, arrayed, class });
                    let kind = BindingKind::StorageTexture {
                        dimension: dim.row().asm.to_string(),
                        view_dimension: crate::emulate::texture1d_array::view_dimension(idim, arrayed).into(),
                        sample_type: format!("{format:?}").to_lowercase(),
                    };
                    let g = self.resource_global(
                        format!("u{id}"),
                        ty,
                        RegisterClass::UnorderedAccess,
                        register,
                        space,
                        kind,
                        AddressSpace::Handle,
                        id,
                        count,
                    );
                    self.storage_textures.insert(id, StorageTex { g, elem: None, dim, k });
                }
            }
            _ => return malformed("not a resource declaration", at),
        }
        Ok(())
    }

    /// The kind memory `(file, id)`'s words are declared in: u32, or the
    /// kind its uses favour (never for atomics).
    fn word_kind(&self, file: u32, id: u32, atomic: Option<K>) -> K {
        match atomic {
            Some(_) => K::U,
            None => self.prepass.memory_kinds.get(&(file, id)).copied().unwrap_or(K::U),
        }
    }

    /// An array of 32-bit words: atomics of `atomic`'s kind, else plain
    /// words of kind `word`.
    fn word_array(&mut self, atomic: Option<K>, word: K, len: Option<u32>) -> naga::Handle<naga::Type> {
        let base = match atomic {
            Some(K::I) => self.ty(TypeInner::Atomic(Scalar::I32)),
            Some(_) => self.ty(TypeInner::Atomic(Scalar::U32)),
            None => self.ty(TypeInner::Scalar(word.scalar())),
        };
        let size = match len {
            Some(n) => ArraySize::Constant(std::num::NonZeroU32::new(n).unwrap_or(std::num::NonZeroU32::MIN)),
            None => ArraySize::Dynamic,
        };
        self.ty(TypeInner::Array { base, size, stride: 4 })
    }

    // ---------------------------------------------------------- textures

    pub(crate) fn texture(&mut self, op: &Operand) -> Result<Tex, TranslateError> {
        if op.ty() != T {
            return unsupported(
                L::TextureAccessOnUav,
                "texture access on a UAV (typed UAVs are not lowered yet)",
                op.offset as usize,
            );
        }
        match self.textures.get(&res_id(op)).copied() {
            Some(mut t) => {
                t.elem = self.resource_element(t.g, op)?;
                Ok(t)
            }
            None => malformed(format!("t{} is used but not declared as a texture", res_id(op)), op.offset as usize),
        }
    }

    /// The sampler expression, checked against the kind of access: a
    /// comparison (depth reference given) needs a comparison sampler and
    /// anything else needs an ordinary one.
    fn sampler(&mut self, op: &Operand, comparison: bool) -> Result<H, TranslateError> {
        let Some(&g) = self.samplers.get(&res_id(op)) else {
            return malformed(format!("s{} is used but not declared", res_id(op)), op.offset as usize);
        };
        let is_cmp = matches!(self.element_inner(g), TypeInner::Sampler { comparison: true });
        if is_cmp != comparison {
            return malformed(
                format!(
                    "s{} is a {} sampler used for {} sampling",
                    res_id(op),
                    if is_cmp { "comparison" } else { "filtering" },
                    if comparison { "comparison" } else { "ordinary" }
                ),
                op.offset as usize,
            );
        }
        let elem = self.resource_element(g, op)?;
        Ok(self.handle_of(g, elem))
    }

    /// Number of coordinate components for a D3D dimension, and whether an
    /// array index follows them.
    pub(crate) fn coord_shape(dim: RD) -> (u32, bool) {
        match dim {
            RD::Texture1d => (1, false),
            RD::Texture2d | RD::Texture2dms => (2, false),
            RD::Texture3d | RD::Texturecube => (3, false),
            RD::Texture1darray => (1, true),
            RD::Texture2darray | RD::Texture2dmsarray => (2, true),
            RD::Texturecubearray => (3, true),
            _ => (2, false),
        }
    }

    pub(crate) fn sub_vector(&mut self, v: H, n: u32) -> H {
        match n {
            1 => self.component(v, 0),
            2 | 3 => {
                let size = if n == 2 { VectorSize::Bi } else { VectorSize::Tri };
                self.swizzle(size, v, SwizzleComponent::XYZW)
            }
            _ => v,
        }
    }

    /// Immediate texel offset from the sample-controls extended token, as a
    /// constant vector of `n` i32s.
    fn aoffimmi(&mut self, ins: &Instruction, n: u32) -> Option<H> {
        let [kind, _, u, v, w, ..] = EXT_SAMPLE_CONTROLS_FIELDS else { return None };
        let sample_controls = ExtendedOpcodeType::SampleControls as u32;
        let e = ins.ext(self.p).iter().find(|e| kind.get(**e) == sample_controls).copied()?;
        // Each offset is a 4-bit two's complement number.
        let sx = |f: &FieldDef| ((f.get(e) as i32) << 28) >> 28;
        let vals = [sx(u), sx(v), sx(w)];
        if vals.iter().all(|&v| v == 0) {
            return None;
        }
        let lits: Vec<H> = (0..n).map(|i| self.e(E::Literal(Literal::I32(vals[i as usize])))).collect();
        if n == 1 {
            return Some(lits[0]);
        }
        let size = if n == 2 { VectorSize::Bi } else { VectorSize::Tri };
        let ty = self.ty(TypeInner::Vector { size, scalar: Scalar::I32 });
        Some(self.e(E::Compose { ty, components: lits }))
    }

    /// Applies the resource operand's swizzle to a fetched vec4 (of any kind).
    pub(crate) fn resource_swizzle(&mut self, res: &Operand, v: H) -> H {
        if !four_components(res) {
            return v;
        }
        let s = match res.selection() {
            Some(SelectionMode::SwizzleMode) => res.swizzle(),
            Some(SelectionMode::Select1Mode) => [res.select1(); 4],
            _ => return v,
        };
        if s == [0, 1, 2, 3] {
            return v;
        }
        let c = |i: u32| SwizzleComponent::XYZW[i as usize];
        self.swizzle(VectorSize::Quad, v, [c(s[0]), c(s[1]), c(s[2]), c(s[3])])
    }

    /// A vec4 result of a texture fetch: depth images give a scalar.
    fn widen(&mut self, v: H, scalar: bool) -> H {
        if scalar {
            self.splat(v)
        } else {
            v
        }
    }

    /// Float sampling coordinates from operand 1 for a texture: the
    /// coordinate vector and, for arrays, the layer (rounded, never
    /// negative, as D3D picks it). Returns the coordinate count too.
    fn float_coords(&mut self, ins: &Instruction, tex: Tex) -> Result<(u32, H, Option<H>), TranslateError> {
        let (n, arrayed) = Self::coord_shape(tex.dim);
        let addr = {
            let a = self.op(ins, 1)?;
            self.read(a, K::F)?
        };
        let coordinate = self.sub_vector(addr, n);
        let coordinate = self.as_2d(tex.dim, coordinate, Literal::F32(0.5));
        let array_index = if arrayed {
            let z = self.component(addr, n);
            let r = self.math(naga::MathFunction::Round, z, None, None);
            let zero = self.e(E::Literal(Literal::F32(0.0)));
            let r = self.math(naga::MathFunction::Max, r, Some(zero), None);
            Some(self.e(E::As { expr: r, kind: ScalarKind::Sint, convert: Some(4) }))
        } else {
            None
        };
        Ok((n, coordinate, array_index))
    }

    pub(crate) fn sample(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        self.sample_clamped(ins, code, None)
    }

    /// Sampling with an optional minimum LOD (the `_cl` feedback forms):
    /// the clamp goes through a [`crate::spirv_marks::MIN_LOD`] mark, which
    /// only SPIR-V can carry (a [`L::LodClamp`] target refusal for the
    /// others).
    pub(crate) fn sample_clamped(
        &mut self,
        ins: &Instruction,
        code: O,
        min_lod: Option<H>,
    ) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        if self.stage != naga::ShaderStage::Fragment && matches!(code, O::Sample | O::SampleC | O::SampleB) {
            return unsupported(
                L::DerivativesOutsidePixelShader,
                "implicit-derivative sampling outside a pixel shader",
                at,
            );
        }
        let (res_i, samp_i) = (2, 3);
        let res = self.op(ins, res_i)?;
        let tex = self.texture(res)?;
        let (n, coordinate, array_index) = self.float_coords(ins, tex)?;
        let samp_op = self.op(ins, samp_i)?;
        let sampler = self.sampler(samp_op, matches!(code, O::SampleC | O::SampleCLz))?;
        let image = self.handle_of(tex.g, tex.elem);
        let offset =
            if matches!(tex.dim, RD::Texturecube | RD::Texturecubearray) { None } else { self.aoffimmi(ins, n) };
        let offset = offset.map(|o| self.as_2d(tex.dim, o, Literal::I32(0)));
        let scalar_arg = |l: &mut Self, i: usize| -> Result<H, TranslateError> {
            let o = l.op(ins, i)?;
            let v = l.read(o, K::F)?;
            Ok(l.component(v, 0))
        };
        let (level, depth_ref) = match code {
            O::Sample => (SampleLevel::Auto, None),
            O::SampleL => (SampleLevel::Exact(scalar_arg(self, 4)?), None),
            O::SampleB => (SampleLevel::Bias(scalar_arg(self, 4)?), None),
            O::SampleD => {
                let dx = {
                    let o = self.op(ins, 4)?;
                    let v = self.read(o, K::F)?;
                    let g = self.sub_vector(v, n);
                    self.as_2d(tex.dim, g, Literal::F32(0.0))
                };
                let dy = {
                    let o = self.op(ins, 5)?;
                    let v = self.read(o, K::F)?;
                    let g = self.sub_vector(v, n);
                    self.as_2d(tex.dim, g, Literal::F32(0.0))
                };
                (SampleLevel::Gradient { x: dx, y: dy }, None)
            }
            O::SampleC => (SampleLevel::Auto, Some(scalar_arg(self, 4)?)),
            O::SampleCLz => (SampleLevel::Zero, Some(scalar_arg(self, 4)?)),
            _ => return malformed(format!("{} is not a sampling instruction", code.info().asm), at),
        };
        if depth_ref.is_some() != tex.depth && depth_ref.is_some() {
            return malformed("comparison sample of a non-depth texture", at);
        }
        if tex.k != K::F {
            return unsupported(L::SampleIntegerTexture, "sampling an integer texture", at);
        }
        if tex.depth && depth_ref.is_none() && matches!(level, SampleLevel::Bias(_) | SampleLevel::Gradient { .. }) {
            return unsupported(
                L::ComparisonBiasOrGradient,
                "biased or gradient sampling of a texture that is also compared (WGSL depth textures allow neither)",
                at,
            );
        }
        let v = self.e(E::ImageSample {
            image,
            sampler,
            gather: None,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            clamp_to_edge: false,
        });
        let v = match min_lod {
            // SPIR-V allows MinLod with implicit LODs and gradients only.
            Some(clamp) if matches!(level, SampleLevel::Auto | SampleLevel::Bias(_) | SampleLevel::Gradient { .. }) => {
                let ty = if tex.depth { self.t.f32 } else { self.t.vec4f };
                let f32_ty = self.t.f32;
                self.target_refusal(L::LodClamp, format!("{} with a LOD clamp", code.info().asm), at);
                self.spirv_mark(crate::spirv_marks::MIN_LOD, v, ty, &[(clamp, f32_ty)])
            }
            Some(_) => return malformed(format!("{} has no LOD clamp form", code.info().asm), at),
            None => v,
        };
        let v = self.widen(v, tex.depth);
        let v = self.resource_swizzle(res, v);
        let sat = saturate(ins);
        let d = self.op(ins, 0)?;
        self.write(d, v, K::F, sat)
    }

    pub(crate) fn gather(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        // gather4 dst, addr, t, s ; gather4_c dst, addr, t, s, ref ; _po adds an offset operand after addr.
        let po = matches!(code, O::Gather4Po | O::Gather4PoC);
        let base = if po { 3 } else { 2 };
        let res = self.op(ins, base)?;
        let tex = self.texture(res)?;
        let (n, coordinate, array_index) = self.float_coords(ins, tex)?;
        if po && !matches!(tex.dim, RD::Texture2d | RD::Texture2darray) {
            return malformed("gather4_po of a texture that is not 2D", at);
        }
        // The register offset is folded into the coordinate (emulate/gather_offset.rs).
        let coordinate = if po {
            let o = self.op(ins, 2)?;
            self.gather_offset_coordinate(tex, coordinate, o)?
        } else {
            coordinate
        };
        let samp_op = self.op(ins, base + 1)?;
        let channel = if samp_op.selection() == Some(SelectionMode::Select1Mode) && four_components(samp_op) {
            samp_op.select1()
        } else {
            0
        };
        let comparison = matches!(code, O::Gather4C | O::Gather4PoC);
        let sampler = self.sampler(samp_op, comparison)?;
        let image = self.handle_of(tex.g, tex.elem);
        let depth_ref = if comparison {
            let o = self.op(ins, base + 2)?;
            let v = self.read(o, K::F)?;
            Some(self.component(v, 0))
        } else {
            None
        };
        let offset =
            if po || matches!(tex.dim, RD::Texturecube | RD::Texturecubearray) { None } else { self.aoffimmi(ins, n) };
        // Depth images have one channel: comparison gathers always read it.
        let channel = if tex.depth { 0 } else { channel };
        let v = self.e(E::ImageSample {
            image,
            sampler,
            gather: Some(SwizzleComponent::XYZW[channel as usize]),
            coordinate,
            array_index,
            offset,
            level: SampleLevel::Zero,
            depth_ref,
            clamp_to_edge: false,
        });
        let v = self.resource_swizzle(res, v);
        let d = self.op(ins, 0)?;
        self.write(d, v, tex.k, false)
    }

    pub(crate) fn load_texture(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let res = self.op(ins, 2)?;
        if let Some(w) = self.words.get(&(T, res_id(res))).copied() {
            if !w.typed {
                return unsupported(L::LoadOnWordBuffer, "ld on a raw/structured buffer", ins.offset as usize);
            }
            let Some(w) = self.typed_words(res)? else { return malformed("typed buffer", ins.offset as usize) };
            // Buffer<T> element load.
            let addr = {
                let a = self.op(ins, 1)?;
                self.read(a, K::U)?
            };
            let v = self.typed_element(&w, addr);
            let v = self.resource_swizzle(res, v);
            let d = self.op(ins, 0)?;
            return self.write(d, v, K::U, false);
        }
        let tex = self.texture(res)?;
        if tex.depth {
            self.target_refusal(
                L::LoadFromDepthTexture,
                "ld from a texture that is also compared",
                ins.offset as usize,
            );
        }
        let (n, arrayed) = Self::coord_shape(tex.dim);
        // Only the lanes the load takes are read: the texel address, the
        // array layer after it, the level in `.w`.
        let a = self.op(ins, 1)?;
        let coordinate = self.read_masked(a, K::I, (1 << n) - 1)?;
        let array_index = if arrayed { Some(self.read_masked(a, K::I, 1 << n)?) } else { None };
        let multi = matches!(tex.dim, RD::Texture2dms | RD::Texture2dmsarray);
        let (sample, level) = if multi {
            let o = self.op(ins, 3)?;
            (Some(self.read_masked(o, K::I, 1)?), None)
        } else {
            (None, Some(self.read_masked(a, K::I, 8)?))
        };
        // ld's immediate offset is exact integer texel arithmetic.
        let coordinate = match self.aoffimmi(ins, n) {
            Some(off) => self.bin(B::Add, coordinate, off),
            None => coordinate,
        };
        let coordinate = self.as_2d(tex.dim, coordinate, Literal::I32(0));
        let image = self.handle_of(tex.g, tex.elem);
        let v = self.e(E::ImageLoad { image, coordinate, array_index, sample, level });
        let v = self.widen(v, tex.depth);
        let v = self.resource_swizzle(res, v);
        let d = self.op(ins, 0)?;
        self.write(d, v, tex.k, false)
    }

    pub(crate) fn resinfo(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let res = self.op(ins, 2)?;
        // Typed UAV textures answer size queries like sampled ones (one level).
        let tex = if res.ty() == U {
            match self.storage_texture(res)? {
                Some(st) => Tex { g: st.g, elem: st.elem, dim: st.dim, k: st.k, depth: false },
                None => return unsupported(L::ResinfoOnBufferUav, "resinfo on a buffer UAV", ins.offset as usize),
            }
        } else {
            self.texture(res)?
        };
        let storage = res.ty() == U;
        // naga 30's SPIR-V writer queries the layers of multisampled and
        // storage arrays with OpImageQuerySizeLod, which Vulkan forbids:
        // `spirv_post` drops the level.
        let (_, arrayed) = Self::coord_shape(tex.dim);
        // Size components: cubes report a 2-D face size.
        let n = match tex.dim {
            RD::Texture1d | RD::Texture1darray => 1,
            RD::Texture3d => 3,
            _ => 2,
        };
        let mip = {
            let o = self.op(ins, 1)?;
            let v = self.read(o, K::U)?;
            self.component(v, 0)
        };
        let image = self.handle_of(tex.g, tex.elem);
        let multi = matches!(tex.dim, RD::Texture2dms | RD::Texture2dmsarray);
        let size = self.e(E::ImageQuery {
            image,
            query: ImageQuery::Size { level: if multi || storage { None } else { Some(mip) } },
        });
        let mut comps = Vec::new();
        for c in 0..n {
            let whole = n == 1 && tex.dim != RD::Texture1darray;
            comps.push(if whole { size } else { self.component(size, c) });
        }
        if arrayed {
            comps.push(self.e(E::ImageQuery { image, query: ImageQuery::NumLayers }));
        }
        while comps.len() < 3 {
            comps.push(self.lit_u(0));
        }
        let levels = if multi || storage {
            self.lit_u(1)
        } else {
            self.e(E::ImageQuery { image, query: ImageQuery::NumLevels })
        };
        let ty = self.t.vec4u;
        let v = self.e(E::Compose { ty, components: vec![comps[0], comps[1], comps[2], levels] });
        let rt = ResinfoReturnType::from_u32(RESINFO_CONTROLS[0].get(ins.token));
        let (v, k) = match rt {
            Some(ResinfoReturnType::Uint) => (v, K::U),
            _ => {
                let f = self.e(E::As { expr: v, kind: ScalarKind::Float, convert: Some(4) });
                if rt == Some(ResinfoReturnType::Rcpfloat) {
                    // rcpFloat: reciprocals of the sizes, the level count as is.
                    let one = self.splat_f(1.0);
                    let r = self.bin(B::Divide, one, f);
                    let x = self.component(r, 0);
                    let y = self.component(r, 1);
                    let z = self.component(r, 2);
                    let w = self.component(f, 3);
                    let ty = self.t.vec4f;
                    (self.e(E::Compose { ty, components: vec![x, y, z, w] }), K::F)
                } else {
                    (f, K::F)
                }
            }
        };
        let v = self.resource_swizzle(res, v);
        let d = self.op(ins, 0)?;
        self.write(d, v, k, false)
    }

    // ------------------------------------------------------ word regions

    fn words_of(&mut self, op: &Operand) -> Result<Words, TranslateError> {
        let key = (op.ty(), res_id(op));
        match self.words.get(&key).copied() {
            Some(mut w) => {
                w.elem = self.resource_element(w.g, op)?;
                Ok(w)
            }
            None => malformed(
                format!(
                    "{}{} is not a raw or structured buffer / group-shared region",
                    dxbc::spec::OPERAND_TYPE.asm(op.ty()).unwrap_or("?"),
                    key.1
                ),
                op.offset as usize,
            ),
        }
    }

    /// The word index (u32) an address operand names: `byte/4` for raw,
    /// `index*stride/4 + byte/4` for structured.
    fn word_index(&mut self, w: &Words, addr: H) -> H {
        // Literal addresses name their word (`u1_[14u]`, `g0_[2u]`) in
        // runtime-sized buffers and in group-shared memory, whose literal
        // words past the end are never indexed (`Self::clamped_word`);
        // other fixed-size arrays keep theirs computed (`Lower::bin_folded`).
        let global = &self.module.global_variables[w.g];
        let folds = global.space == AddressSpace::WorkGroup
            || (w.elem.is_none()
                && matches!(
                    self.module.types[global.ty].inner,
                    naga::TypeInner::Array { size: naga::ArraySize::Dynamic, .. }
                ));
        let bin = |l: &mut Self, op, a, b| if folds { l.bin_folded(op, a, b) } else { l.bin(op, a, b) };
        if w.typed {
            let e = self.component(addr, 0);
            if w.channels == 1 {
                return e;
            }
            let n = self.lit_u(w.channels);
            return bin(self, B::Multiply, e, n);
        }
        let four = self.lit_u(4);
        if w.stride == 0 {
            let a = self.component(addr, 0);
            bin(self, B::Divide, a, four)
        } else {
            let i = self.component(addr, 0);
            let off = self.component(addr, 1);
            // Literal strides of one word and literal offsets fold here.
            let base = if w.stride == 4 {
                i
            } else {
                let stride_words = self.lit_u(w.stride / 4);
                bin(self, B::Multiply, i, stride_words)
            };
            match self.f.expressions[off] {
                E::Literal(naga::Literal::U32(0..=3)) => base,
                E::Literal(naga::Literal::U32(bytes)) => {
                    let o = self.lit_u(bytes / 4);
                    bin(self, B::Add, base, o)
                }
                _ => {
                    let o = bin(self, B::Divide, off, four);
                    bin(self, B::Add, base, o)
                }
            }
        }
    }

    /// A typed buffer at an operand, with the element the use names.
    fn typed_words(&mut self, op: &Operand) -> Result<Option<Words>, TranslateError> {
        match self.words.get(&(op.ty(), res_id(op))).copied().filter(|w| w.typed) {
            Some(mut w) => {
                w.elem = self.resource_element(w.g, op)?;
                Ok(Some(w))
            }
            None => Ok(None),
        }
    }

    /// A typed UAV texture at an operand, with the element the use names.
    pub(crate) fn storage_texture(&mut self, op: &Operand) -> Result<Option<StorageTex>, TranslateError> {
        match self.storage_textures.get(&res_id(op)).copied() {
            Some(mut st) => {
                st.elem = self.resource_element(st.g, op)?;
                Ok(Some(st))
            }
            None => Ok(None),
        }
    }

    fn word_ptr(&mut self, w: &Words, index: H) -> H {
        let base = self.handle_of(w.g, w.elem);
        self.e(E::Access { base, index })
    }

    /// Number of words in a region: a constant for group-shared memory,
    /// else `arrayLength` (made once per instruction) and the last index.
    fn word_count(&mut self, w: &Words) -> WordCount {
        let g = self.handle_of(w.g, w.elem);
        match self.module.global_variables[w.g].space {
            AddressSpace::WorkGroup => {
                let ty = self.module.global_variables[w.g].ty;
                WordCount::Workgroup(match self.module.types[ty].inner {
                    TypeInner::Array { size: ArraySize::Constant(n), .. } => n.get(),
                    _ => 0,
                })
            }
            _ => {
                let n = match w.elem {
                    None => self.array_length(w.g),
                    Some(_) => self.e(E::ArrayLength(g)),
                };
                let one = self.lit_u(1);
                let last = self.bin(B::Subtract, n, one);
                WordCount::Runtime { n, last }
            }
        }
    }

    /// `first + c`; a literal when `first` is one (`Lower::bin_folded`).
    fn word_at(&mut self, first: H, c: u32) -> H {
        if c == 0 {
            return first;
        }
        let cc = self.lit_u(c);
        self.bin_folded(B::Add, first, cc)
    }

    /// Whether word `first + c` is inside a buffer (`index` is that word).
    fn word_inside(&mut self, index: H, n: H) -> H {
        self.bin(B::Less, index, n)
    }

    /// Word `first + c` of a group-shared region of `n` words, its index
    /// clamped to the last word (see [`WordCount::Workgroup`]); `None` when
    /// the word is past the end whatever `first` is.
    fn clamped_word(&mut self, w: &Words, first: H, c: u32, n: u32) -> Option<H> {
        if c >= n {
            return None;
        }
        let index = self.word_at(first, c);
        if let E::Literal(Literal::U32(k)) = self.f.expressions[index] {
            // A literal word is indexed as itself; past the end, as nothing.
            return (k < n).then(|| self.word_ptr(w, index));
        }
        let last = self.lit_u(n - 1);
        let clamped = self.math(naga::MathFunction::Min, index, Some(last), None);
        Some(self.word_ptr(w, clamped))
    }

    /// Word `first + c`: zero past the end of a buffer, undefined (here:
    /// the last word, or zero) past the end of group-shared memory.
    fn load_word(&mut self, w: &Words, first: H, c: u32, count: WordCount) -> H {
        // On an atomic word the load is an atomicLoad; signed words come back as bits.
        let load = |l: &mut Self, ptr: H| {
            let v = l.e(E::Load { pointer: ptr });
            if w.atomic == Some(K::I) {
                l.bitcast(v, K::I, K::U)
            } else {
                v
            }
        };
        match count {
            WordCount::Workgroup(n) => match self.clamped_word(w, first, c, n) {
                Some(ptr) => load(self, ptr),
                None => crate::regs::literal(self, 0, w.word),
            },
            WordCount::Runtime { n, last } => {
                // D3D reads past the end of a buffer return zero; WGSL would
                // clamp the index, so the load is guarded.
                let index = self.word_at(first, c);
                let inside = self.word_inside(index, n);
                let clamped = self.math(naga::MathFunction::Min, index, Some(last), None);
                let ptr = self.word_ptr(w, clamped);
                let v = load(self, ptr);
                let zero = crate::regs::literal(self, 0, w.word);
                self.select(inside, v, zero)
            }
        }
    }

    /// One element of a typed buffer as vec4<u32> bits: its channels, then
    /// D3D's defaults for missing ones (0, 0, 0, 1 in the element's type).
    fn typed_element(&mut self, w: &Words, addr: H) -> H {
        let first = self.word_index(w, addr);
        let count = self.word_count(w);
        let mut comps = Vec::new();
        for c in 0..4 {
            if c < w.channels {
                comps.push(self.load_word(w, first, c, count));
            } else {
                let one = if w.k == K::F { 1.0f32.to_bits() } else { 1 };
                comps.push(self.lit_u(if c == 3 { one } else { 0 }));
            }
        }
        let ty = self.t.vec4u;
        self.e(E::Compose { ty, components: comps })
    }

    /// Stores word `first + c`: dropped past the end of a buffer (as D3D
    /// drops it), clamped to the last word of group-shared memory.
    fn store_word(&mut self, w: &Words, first: H, c: u32, count: WordCount, value: H) {
        let value = if w.atomic == Some(K::I) { self.bitcast(value, K::U, K::I) } else { value };
        match count {
            WordCount::Workgroup(n) => {
                let Some(ptr) = self.clamped_word(w, first, c, n) else { return };
                self.flush();
                self.stmt(S::Store { pointer: ptr, value });
            }
            WordCount::Runtime { n, .. } => {
                let index = self.word_at(first, c);
                let inside = self.word_inside(index, n);
                let ptr = self.word_ptr(w, index);
                self.flush();
                let mut accept = naga::Block::new();
                accept.push(S::Store { pointer: ptr, value }, self.span);
                self.stmt(S::If { condition: inside, accept, reject: naga::Block::new() });
            }
        }
    }

    /// The address operands of a raw (byte address in operand 1) or
    /// structured (element in operand 1, byte offset in operand 2) access,
    /// as the vector [`Self::word_index`] reads.
    fn word_address(&mut self, ins: &Instruction, structured: bool) -> Result<H, TranslateError> {
        let first = {
            let o = self.op(ins, 1)?;
            self.read(o, K::U)?
        };
        if !structured {
            return Ok(first);
        }
        let byte = {
            let o = self.op(ins, 2)?;
            self.read(o, K::U)?
        };
        let ix = self.component(first, 0);
        let bx = self.component(byte, 0);
        let ty = self.t.vec4u;
        let z = self.lit_u(0);
        Ok(self.e(E::Compose { ty, components: vec![ix, bx, z, z] }))
    }

    pub(crate) fn load_words(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let structured = code == O::LdStructured;
        let res_i = if structured { 3 } else { 2 };
        let res = self.op(ins, res_i)?;
        let w = self.words_of(res)?;
        let addr = self.word_address(ins, structured)?;
        let first = self.word_index(&w, addr);
        let count = self.word_count(&w);
        // Only the words the destination mask reads through the swizzle
        // are loaded; the others are never seen.
        let d = self.op(ins, 0)?;
        let needed = words_needed(d, res);
        let mut comps = Vec::new();
        for c in 0..4 {
            comps.push(if needed & (1 << c) != 0 {
                self.load_word(&w, first, c, count)
            } else {
                crate::regs::literal(self, 0, w.word)
            });
        }
        // One word read: it is the value (written to every masked component).
        if needed.count_ones() == 1 && crate::regs::dst_mask(d).count_ones() == 1 {
            self.lanes = 1;
            let word = comps[needed.trailing_zeros() as usize];
            return self.write(d, word, w.word, false);
        }
        let ty = self.vec_ty(w.word);
        let v = self.e(E::Compose { ty, components: comps });
        let v = self.resource_swizzle(res, v);
        self.write(d, v, w.word, false)
    }

    pub(crate) fn store_words(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let structured = code == O::StoreStructured;
        let dst = self.op(ins, 0)?;
        if dst.ty() == T {
            return malformed("a store to a read-only resource (t#)", dst.offset as usize);
        }
        let w = self.words_of(dst)?;
        let addr = self.word_address(ins, structured)?;
        let value = {
            let o = self.op(ins, if structured { 3 } else { 2 })?;
            self.read(o, w.word)?
        };
        let first = self.word_index(&w, addr);
        let count = self.word_count(&w);
        let mask =
            if four_components(dst) && dst.selection() == Some(SelectionMode::MaskMode) { dst.mask() } else { 1 };
        // Consecutive words take the value's components in mask order.
        let mut k = 0;
        for c in 0..4 {
            if mask & (1 << c) == 0 {
                continue;
            }
            let v = self.component(value, c);
            // A store to an atomic word is an atomicStore of its type.
            self.store_word(&w, first, k, count, v);
            k += 1;
        }
        Ok(())
    }

    pub(crate) fn atomic(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let imm = returns_old_value(code);
        if matches!(code, O::ImmAtomicAlloc | O::ImmAtomicConsume) {
            return self.counter_op(ins, code);
        }
        // atomic_op u, addr, value[, value2] ; imm_atomic_op dst, u, addr, value[, value2]
        let base = if imm { 1 } else { 0 };
        let target = self.op(ins, base)?;
        if target.ty() == T {
            return malformed("an atomic on a read-only resource (t#)", target.offset as usize);
        }
        if target.ty() == U {
            if let Some(st) = self.storage_texture(target)? {
                return self.texture_atomic(ins, code, st, base);
            }
        }
        let w = self.words_of(target)?;
        let Some(k) = w.atomic else { return malformed("atomic on a region the pre-scan missed", at) };
        let addr = {
            let o = self.op(ins, base + 1)?;
            self.read(o, K::U)?
        };
        let idx = self.word_index(&w, addr);
        let ptr = self.word_ptr(&w, idx);
        let v1 = {
            let o = self.op(ins, base + 2)?;
            let v = self.read(o, k)?;
            self.component(v, 0)
        };
        let signed_minmax = matches!(code, O::AtomicImax | O::AtomicImin | O::ImmAtomicImax | O::ImmAtomicImin);
        if signed_minmax && k == K::U {
            // Signed min/max on a region that unsigned min/max also use.
            let max = matches!(code, O::AtomicImax | O::ImmAtomicImax);
            let old = self.signed_minmax_loop(ptr, v1, max);
            if imm {
                let s = self.splat(old);
                let d = self.op(ins, 0)?;
                self.write(d, s, K::U, false)?;
            }
            return Ok(());
        }
        let (fun, value) = match code {
            O::AtomicAnd | O::ImmAtomicAnd => (AtomicFunction::And, v1),
            O::AtomicOr | O::ImmAtomicOr => (AtomicFunction::InclusiveOr, v1),
            O::AtomicXor | O::ImmAtomicXor => (AtomicFunction::ExclusiveOr, v1),
            O::AtomicIadd | O::ImmAtomicIadd => (AtomicFunction::Add, v1),
            O::AtomicImax | O::AtomicUmax | O::ImmAtomicImax | O::ImmAtomicUmax => (AtomicFunction::Max, v1),
            O::AtomicImin | O::AtomicUmin | O::ImmAtomicImin | O::ImmAtomicUmin => (AtomicFunction::Min, v1),
            O::ImmAtomicExch => (AtomicFunction::Exchange { compare: None }, v1),
            O::AtomicCmpStore | O::ImmAtomicCmpExch => {
                // cmp_store / cmp_exch: compare value first, then the new value.
                let v2 = {
                    let o = self.op(ins, base + 3)?;
                    let v = self.read(o, k)?;
                    self.component(v, 0)
                };
                (AtomicFunction::Exchange { compare: Some(v1) }, v2)
            }
            _ => return malformed(format!("{} is not an atomic instruction", code.info().asm), at),
        };
        let compare = matches!(fun, AtomicFunction::Exchange { compare: Some(_) });
        let result = if imm || compare {
            let ty = if compare {
                self.module
                    .generate_predeclared_type(naga::PredeclaredType::AtomicCompareExchangeWeakResult(k.scalar()))
            } else if k == K::I {
                self.ty(TypeInner::Scalar(Scalar::I32))
            } else {
                self.t.u32
            };
            self.flush();
            Some(self.f.expressions.append(E::AtomicResult { ty, comparison: compare }, self.span))
        } else {
            None
        };
        self.stmt(S::Atomic { pointer: ptr, fun, value, result });
        if imm {
            let r = result.unwrap_or(ptr);
            let old = if compare { self.component(r, 0) } else { r };
            let s = self.splat(old);
            let d = self.op(ins, 0)?;
            self.write(d, s, k, false)?;
        }
        Ok(())
    }

    /// ld_uav_typed dst, address, u#
    pub(crate) fn load_typed_uav(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let res = self.op(ins, 2)?;
        let id = res_id(res);
        let addr = {
            let o = self.op(ins, 1)?;
            self.read(o, K::U)?
        };
        if let Some(w) = self.typed_words(res)? {
            let v = self.typed_element(&w, addr);
            let v = self.resource_swizzle(res, v);
            let d = self.op(ins, 0)?;
            return self.write(d, v, K::U, false);
        }
        let Some(st) = self.storage_texture(res)? else {
            return malformed(format!("u{id} is not a typed UAV"), ins.offset as usize);
        };
        let (n, arrayed) = Self::coord_shape(st.dim);
        let ai = self.bitcast(addr, K::U, K::I);
        let coordinate = self.sub_vector(ai, n);
        let coordinate = self.as_2d(st.dim, coordinate, Literal::I32(0));
        let array_index = if arrayed { Some(self.component(ai, n)) } else { None };
        let image = self.handle_of(st.g, st.elem);
        let v = self.e(E::ImageLoad { image, coordinate, array_index, sample: None, level: None });
        let v = self.resource_swizzle(res, v);
        let d = self.op(ins, 0)?;
        self.write(d, v, st.k, false)
    }

    /// store_uav_typed u#.mask, address, value
    pub(crate) fn store_typed_uav(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let dst = self.op(ins, 0)?;
        if dst.ty() != U {
            return malformed("store_uav_typed to a register that is not a UAV", dst.offset as usize);
        }
        let id = res_id(dst);
        let addr = {
            let o = self.op(ins, 1)?;
            self.read(o, K::U)?
        };
        if let Some(w) = self.typed_words(dst)? {
            let value = {
                let o = self.op(ins, 2)?;
                self.read(o, K::U)?
            };
            let first = self.word_index(&w, addr);
            let count = self.word_count(&w);
            for c in 0..w.channels {
                let v = self.component(value, c);
                self.store_word(&w, first, c, count, v);
            }
            return Ok(());
        }
        let Some(st) = self.storage_texture(dst)? else {
            return malformed(format!("u{id} is not a typed UAV"), ins.offset as usize);
        };
        let value = {
            let o = self.op(ins, 2)?;
            self.read(o, st.k)?
        };
        let (n, arrayed) = Self::coord_shape(st.dim);
        let ai = self.bitcast(addr, K::U, K::I);
        let coordinate = self.sub_vector(ai, n);
        let coordinate = self.as_2d(st.dim, coordinate, Literal::I32(0));
        let array_index = if arrayed { Some(self.component(ai, n)) } else { None };
        let image = self.handle_of(st.g, st.elem);
        self.stmt(S::ImageStore { image, coordinate, array_index, value });
        Ok(())
    }

    /// An atomic on a typed UAV texture. naga's image atomics return
    /// nothing and have no compare-exchange, so `imm_atomic_*` and
    /// `atomic_cmp_store` on textures stay refused.
    fn texture_atomic(
        &mut self,
        ins: &Instruction,
        code: O,
        st: StorageTex,
        base: usize,
    ) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let fun = match code {
            O::AtomicAnd => AtomicFunction::And,
            O::AtomicOr => AtomicFunction::InclusiveOr,
            O::AtomicXor => AtomicFunction::ExclusiveOr,
            O::AtomicIadd => AtomicFunction::Add,
            O::AtomicImax | O::AtomicUmax => AtomicFunction::Max,
            O::AtomicImin | O::AtomicUmin => AtomicFunction::Min,
            _ => {
                return unsupported(
                    L::TypedUavAtomics,
                    format!("{} on a typed UAV texture (naga's image atomics return nothing)", code.info().asm),
                    at,
                )
            }
        };
        let addr = {
            let o = self.op(ins, base + 1)?;
            self.read(o, K::U)?
        };
        let value = {
            let o = self.op(ins, base + 2)?;
            let v = self.read(o, st.k)?;
            self.component(v, 0)
        };
        let (n, arrayed) = Self::coord_shape(st.dim);
        let ai = self.bitcast(addr, K::U, K::I);
        let coordinate = self.sub_vector(ai, n);
        let array_index = if arrayed { Some(self.component(ai, n)) } else { None };
        let image = self.handle_of(st.g, st.elem);
        self.stmt(S::ImageAtomic { image, coordinate, array_index, fun, value });
        Ok(())
    }

    /// sampleinfo[_uint] dst, t#: the sample count of a multisampled texture.
    pub(crate) fn sampleinfo(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let res = self.op(ins, 1)?;
        let n = if res.ty() == OT::Rasterizer as u32 {
            // The rasterizer: pipeline state, an emulation binding.
            self.load_rasterizer_sample_count()
        } else if res.ty() != T {
            return malformed("sampleinfo of neither a texture nor the rasterizer", ins.offset as usize);
        } else {
            let tex = self.texture(res)?;
            if !matches!(tex.dim, RD::Texture2dms | RD::Texture2dmsarray) {
                // D3D reports 0 samples for a resource that is not multisampled.
                let z = self.splat_u(0);
                let d = self.op(ins, 0)?;
                return self.write(d, z, K::U, false);
            }
            let image = self.handle_of(tex.g, tex.elem);
            self.e(E::ImageQuery { image, query: ImageQuery::NumSamples })
        };
        let zero = self.lit_u(0);
        let ty = self.t.vec4u;
        let v = self.e(E::Compose { ty, components: vec![n, zero, zero, zero] });
        let rt = InstructionReturnType::from_u32(SAMPLEINFO_CONTROLS[0].get(ins.token));
        let (v, k) = if rt == Some(InstructionReturnType::Uint) {
            (v, K::U)
        } else {
            (self.e(E::As { expr: v, kind: ScalarKind::Float, convert: Some(4) }), K::F)
        };
        let v = self.resource_swizzle(res, v);
        let d = self.op(ins, 0)?;
        self.write(d, v, k, false)
    }

    pub(crate) fn bufinfo(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let res = self.op(ins, 1)?;
        let w = self.words_of(res)?;
        let len = match w.elem {
            None => self.array_length(w.g),
            Some(base) => self.e(E::ArrayLength(base)),
        };
        let v = if w.stride == 0 {
            let four = self.lit_u(4);
            self.bin(B::Multiply, len, four)
        } else {
            let sw = self.lit_u(w.stride / 4);
            self.bin(B::Divide, len, sw)
        };
        let s = self.splat(v);
        let d = self.op(ins, 0)?;
        self.write(d, s, K::U, false)
    }

    pub(crate) fn sync(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let t = ins.token;
        if self.stage != naga::ShaderStage::Compute {
            return unsupported(
                L::BarrierOutsideCompute,
                "barriers and memory fences outside compute shaders",
                ins.offset as usize,
            );
        }
        // The table lists sync's four flags in this order.
        let [threads, group_memory, uav_group, uav_global] = SYNC_CONTROLS else {
            return malformed("sync controls", ins.offset as usize);
        };
        let mut b = naga::Barrier::empty();
        if group_memory.get(t) != 0 {
            b |= naga::Barrier::WORK_GROUP;
        }
        if uav_group.get(t) != 0 || uav_global.get(t) != 0 {
            b |= naga::Barrier::STORAGE;
        }
        if threads.get(t) != 0 {
            self.stmt(S::ControlBarrier(b));
        } else if !b.is_empty() {
            self.stmt(S::MemoryBarrier(b));
        }
        let _ = Span::UNDEFINED;
        Ok(())
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
                    let signed = matches!(code, O::AtomicImax | O::AtomicImin | O::ImmAtomicImax | O::ImmAtomicImin);
                    let unsigned_minmax =
                        matches!(code, O::AtomicUmax | O::AtomicUmin | O::ImmAtomicUmax | O::ImmAtomicUmin);
                    let key = (op.ty(), res_id(op));
                    atomics.entry(key).or_insert(K::U);
                    if signed {
                        signed_regions.insert(key);
                    }
                    if unsigned_minmax {
                        unsigned_regions.insert(key);
                    }
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
