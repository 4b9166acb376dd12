//! Declarations (`dcl_*`): the globals, resources, indexable temps and the
//! immediate constant buffer an instruction stream declares, made before
//! the body reads them.

use super::*;

impl<'a> Lower<'a> {
    pub(super) fn declare(&mut self, ins: &Instruction, op: O) -> Result<(), TranslateError> {
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

    pub(super) fn icb(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
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
}
