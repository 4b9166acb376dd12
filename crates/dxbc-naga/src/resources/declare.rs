//! Resource declarations: `dcl_resource*`, `dcl_sampler`, `dcl_uav_*`,
//! `dcl_tgsm_*` and their SM5.1 ranges, each made a global (or a binding
//! array of them) at the binding the options give.

use super::*;

/// What every resource declaration names: its offset, id, register (range)
/// and space.
#[derive(Clone, Copy)]
struct Declared {
    at: usize,
    id: u32,
    register: u32,
    count: BindingCount,
    space: u32,
}

impl Lower<'_> {
    /// A resource declaration: the refusals its range and stage call for,
    /// then the global its kind makes.
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
        let d = Declared { at, id, register, count, space };
        if self.stage == naga::ShaderStage::Vertex
            && matches!(
                code,
                O::DclUnorderedAccessViewRaw | O::DclUnorderedAccessViewStructured | O::DclUnorderedAccessViewTyped
            )
        {
            self.target_refusal(L::UavInVertexShader, format!("u{id} declared in a vertex shader"), at);
        }
        match code {
            O::DclResource => self.declare_texture(ins, d)?,
            O::DclSampler => self.declare_sampler(ins, d)?,
            O::DclResourceRaw
            | O::DclResourceStructured
            | O::DclUnorderedAccessViewRaw
            | O::DclUnorderedAccessViewStructured => self.declare_buffer(ins, code, d)?,
            O::DclThreadGroupSharedMemoryRaw | O::DclThreadGroupSharedMemoryStructured => {
                self.declare_group_shared(ins, code, d)?
            }
            O::DclUnorderedAccessViewTyped => self.declare_typed_uav(ins, d)?,
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

    /// `dcl_resource`: a sampled (or depth) texture, or a `Buffer<T>` read as a
    /// buffer of words.
    fn declare_texture(&mut self, ins: &Instruction, d: Declared) -> Result<(), TranslateError> {
        let Declared { at, id, register, count, space } = d;
        let payload = ins.payload(self.p);
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
                self.declare_typed_buffer(d, false, None, channels, k);
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
        let class = if depth { ImageClass::Depth { multi } } else { ImageClass::Sampled { kind: k.kind(), multi } };
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
        Ok(())
    }

    /// `dcl_sampler`: a sampler, comparing when its mode says so.
    fn declare_sampler(&mut self, ins: &Instruction, d: Declared) -> Result<(), TranslateError> {
        let Declared { id, register, count, space, .. } = d;
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
        Ok(())
    }

    /// `dcl_resource_raw`/`_structured` and their UAV forms: a storage buffer
    /// of 32-bit words (atomic where an atomic touches it), with its counter
    /// when the UAV has one.
    fn declare_buffer(&mut self, ins: &Instruction, code: O, d: Declared) -> Result<(), TranslateError> {
        let Declared { at, id, register, count, space } = d;
        let payload = ins.payload(self.p);
        let uav = matches!(code, O::DclUnorderedAccessViewRaw | O::DclUnorderedAccessViewStructured);
        let file = if uav { U } else { T };
        let stride = if matches!(code, O::DclResourceStructured | O::DclUnorderedAccessViewStructured) {
            payload.first().map_or(4, |x| x.value)
        } else {
            0
        };
        if stride % 4 != 0 {
            return unsupported(L::StructureStride, format!("structure stride {stride} is not a multiple of 4"), at);
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
        self.words
            .insert((file, id), Words { g, elem: None, stride, atomic, typed: false, channels: 1, k: K::U, word });
        Ok(())
    }

    /// `dcl_tgsm_raw`/`_structured`: a workgroup array of 32-bit words (at most
    /// 32 KB).
    fn declare_group_shared(&mut self, ins: &Instruction, code: O, d: Declared) -> Result<(), TranslateError> {
        let Declared { at, id, .. } = d;
        let payload = ins.payload(self.p);
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
        self.words.insert((G, id), Words { g, elem: None, stride, atomic, typed: false, channels: 1, k: K::U, word });
        Ok(())
    }

    /// `dcl_uav_typed`: a buffer as words of one channel (or the channels the
    /// options give), a texture as a storage texture of r32 (or the given
    /// format) of the declared kind.
    fn declare_typed_uav(&mut self, ins: &Instruction, d: Declared) -> Result<(), TranslateError> {
        let Declared { at, id, register, count, space } = d;
        let payload = ins.payload(self.p);
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
            let channels =
                if atomic.is_some() { 1 } else { self.options.channels(RegisterClass::UnorderedAccess, register) };
            self.declare_typed_buffer(d, true, atomic, channels, k);
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
                _ => return unsupported(L::TypedUavDimension, format!("typed UAVs of dimension {raw_dim}"), at),
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
        Ok(())
    }

    /// A typed buffer (`Buffer<T>`, or a typed UAV's buffer when `uav`): a
    /// storage buffer of 32-bit words, `channels` to an element, read in
    /// kind `k` (atomic words of `atomic`'s kind where atomics touch it).
    fn declare_typed_buffer(&mut self, d: Declared, uav: bool, atomic: Option<K>, channels: u32, k: K) {
        let Declared { id, register, count, space, .. } = d;
        let (file, prefix, class, access) = if uav {
            (U, "u", RegisterClass::UnorderedAccess, naga::StorageAccess::LOAD | naga::StorageAccess::STORE)
        } else {
            (T, "t", RegisterClass::ShaderResource, naga::StorageAccess::LOAD)
        };
        let ty = self.word_array(atomic, K::U, None);
        let kind = BindingKind::TypedBuffer { writable: uav, channels };
        let g = self.resource_global(
            format!("{prefix}{id}"),
            ty,
            class,
            register,
            space,
            kind,
            AddressSpace::Storage { access },
            id,
            count,
        );
        let words = Words { g, elem: None, stride: 4 * channels, atomic, typed: true, channels, k, word: K::U };
        self.words.insert((file, id), words);
    }
}
