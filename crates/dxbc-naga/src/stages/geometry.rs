//! Geometry shaders (and vertex shaders) as compute passes: see the module
//! above for the design. This file declares the stage buffers, reads
//! `v[k][r]` from the input records, lowers `emit`/`cut` to appends, and
//! builds the compute entry point.

use super::{ComputeForm, OutputTopology, Pass, REGISTER_STRIDE, WORKGROUP_SIZE};
use crate::lower::{malformed, unsupported, Lower, H, K};
use crate::*;
use dxbc::program::{Instruction, Operand};
use dxbc::spec::{
    Opcode as O, OperandType as OT, Primitive, PrimitiveTopology, ProgramType, SignatureName, DCL_GS_INPUT_CONTROLS,
    DCL_GS_OUTPUT_CONTROLS,
};
use naga::{
    AddressSpace, ArraySize, AtomicFunction, BinaryOperator as B, Expression as E, Function, FunctionArgument,
    GlobalVariable, Handle, Scalar, ShaderStage, Span, Statement as S, TypeInner, VectorSize,
};

/// The stage buffers and per-invocation state of a non-native form.
pub(crate) struct StageIo {
    /// Input records (read-only).
    pub(crate) input: Handle<GlobalVariable>,
    /// Output records (compute forms).
    pub(crate) output: Option<Handle<GlobalVariable>>,
    /// Private vec4<u32>: component 0 is the vertex (VS, draw) or the
    /// primitive (GS) this invocation works on.
    pub(crate) index: Handle<GlobalVariable>,
    /// The draw's vertex_index lands in `index` (filled by the wrapper).
    pub(crate) pull_vertex: Option<Handle<GlobalVariable>>,
    /// Records per invocation (vertices per input primitive; 1 otherwise).
    pub(crate) records: u32,
    /// Geometry state.
    pub(crate) gs: Option<GsState>,
    /// Hull and domain state (`hull.rs`).
    pub(crate) tess: Option<super::hull::TessState>,
}

/// Per-invocation state of a geometry pass.
pub(crate) struct GsState {
    topology: OutputTopology,
    max_out: u32,
    instances: u32,
    count: Handle<GlobalVariable>,
    /// Vertices in the current strip.
    strip_len: Handle<GlobalVariable>,
    /// Vertices emitted by this invocation (bounded by `max_out`).
    emitted: Handle<GlobalVariable>,
    /// First output record of this invocation's slot: invocation ×
    /// `max_list`, so the output keeps D3D's primitive order.
    slot_base: Handle<GlobalVariable>,
    /// List vertices this invocation has written into its slot.
    slot_len: Handle<GlobalVariable>,
    /// List vertices a slot holds ([`ComputeForm::max_list_vertices`]).
    max_list: u32,
    /// Output register of SV_Position (stream 0), if the shader writes one.
    position: Option<u32>,
    /// The strip's last two vertices, older first.
    prev: [Handle<GlobalVariable>; 2],
    /// Output registers of a record.
    regs: Vec<u32>,
    /// `emit_vertex`, the function every `emit` calls, once made.
    emit_vertex: Option<Handle<naga::Function>>,
}

/// Where a list vertex's registers come from.
#[derive(Clone, Copy)]
enum Src {
    Current,
    Prev(usize),
}

impl Lower<'_> {
    pub(crate) fn stage_buffer(&mut self, role: StageBufferRole, name: &str) -> Handle<GlobalVariable> {
        let writable = matches!(role, StageBufferRole::Output | StageBufferRole::VertexCount);
        self.stage_buffer_access(role, name, writable)
    }

    /// A stage buffer, read-write when the pass writes it.
    pub(crate) fn stage_buffer_access(
        &mut self,
        role: StageBufferRole,
        name: &str,
        writable: bool,
    ) -> Handle<GlobalVariable> {
        self.stage_buffer_of(role, name, writable, K::U)
    }

    /// A read-only stage buffer of records whose registers the pass reads
    /// as `k` (the other passes see the same bits as u32): the operand
    /// types `files` name it (`Lower::memory_kind`).
    pub(crate) fn record_buffer(
        &mut self,
        role: StageBufferRole,
        name: &str,
        k: K,
        files: &[OT],
    ) -> Handle<GlobalVariable> {
        for &f in files {
            self.record_kinds.insert(f as u32, k);
        }
        self.stage_buffer_of(role, name, false, k)
    }

    pub(crate) fn stage_buffer_of(
        &mut self,
        role: StageBufferRole,
        name: &str,
        writable: bool,
        k: K,
    ) -> Handle<GlobalVariable> {
        let (group, binding) = self.options.bindings.place_stage_buffer(role);
        let (ty, access) = match role {
            StageBufferRole::VertexCount => {
                (self.ty(TypeInner::Atomic(Scalar::U32)), naga::StorageAccess::LOAD | naga::StorageAccess::STORE)
            }
            _ => {
                let base = self.vec_ty(k);
                let ty = self.ty(TypeInner::Array { base, size: ArraySize::Dynamic, stride: 16 });
                let access = if writable {
                    naga::StorageAccess::LOAD | naga::StorageAccess::STORE
                } else {
                    naga::StorageAccess::LOAD
                };
                (ty, access)
            }
        };
        self.bindings.push(BindingEntry {
            count: crate::BindingCount::Single,
            class: RegisterClass::UnorderedAccess,
            register: binding,
            space: 0,
            group,
            binding,
            kind: BindingKind::StageBuffer { role, writable },
        });
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name.into()),
                space: AddressSpace::Storage { access },
                binding: Some(naga::ResourceBinding { group, binding }),
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        )
    }

    /// Output registers a record carries: those the program declares, and
    /// those of the output signature (stream 0 for the draw).
    pub(crate) fn record_registers(&self, shader: &dxbc::Shader) -> Result<Vec<u32>, TranslateError> {
        let p = self.p;
        let mut regs = std::collections::BTreeSet::new();
        for ins in &p.instructions {
            if matches!(ins.op(), Some(O::DclOutput | O::DclOutputSiv | O::DclOutputSgv)) {
                if let Some(op) = ins.operand(p, 0) {
                    if op.operand_type() == Some(OT::Output) && op.index_dim() == 1 {
                        regs.insert(u32::try_from(op.index[0].imm).unwrap_or(u32::MAX));
                    }
                }
            }
        }
        for e in shader.output_signature.iter().flat_map(|s| &s.elements) {
            if e.register != u32::MAX && e.stream.unwrap_or(0) == 0 {
                regs.insert(e.register);
            }
        }
        if let Some(&r) = regs.iter().find(|&&r| r >= REGISTER_STRIDE) {
            return malformed(format!("output register o{r} (D3D has {REGISTER_STRIDE})"), p.offset);
        }
        Ok(regs.into_iter().collect())
    }

    /// Declares the stage buffers and state of the form; the description
    /// of the pass.
    pub(crate) fn prepare_form(&mut self, shader: &dxbc::Shader) -> Result<Option<ComputeForm>, TranslateError> {
        let p = self.p;
        if self.form == StageForm::Native {
            return Ok(None);
        }
        if matches!(
            ProgramType::from_u32(p.version.program_type()),
            Some(ProgramType::HullShader | ProgramType::DomainShader)
        ) {
            return self.prepare_tess(shader);
        }
        let is_gs = ProgramType::from_u32(p.version.program_type()) == Some(ProgramType::GeometryShader);
        let regs = self.record_registers(shader)?;
        let vec4u = self.t.vec4u;
        let index = self.private_typed("stage_index", vec4u);
        if self.form == StageForm::DrawFromBuffer {
            let input = self.stage_buffer(StageBufferRole::Input, "stage_input");
            self.io = Some(StageIo {
                input,
                output: None,
                index,
                pull_vertex: Some(index),
                records: 1,
                gs: None,
                tess: None,
            });
            let topology = gs_declarations(p)?.1;
            return Ok(Some(ComputeForm {
                pass: Pass::DrawFromBuffer,
                vertices_per_primitive: 0,
                instances: 1,
                max_vertices: 0,
                output_topology: Some(topology),
                output_registers: regs,
                tessellation: None,
            }));
        }
        // A geometry shader reads its input records only through its input
        // registers: they take the kind its signature and reads favour.
        let input = if is_gs {
            let k = record_kind(p, shader.input_signature.as_ref(), &[OT::Input], 0..p.instructions.len(), K::U);
            self.record_buffer(StageBufferRole::Input, "stage_input", k, &[OT::Input])
        } else {
            self.stage_buffer(StageBufferRole::Input, "stage_input")
        };
        let output = self.stage_buffer(StageBufferRole::Output, "stage_output");
        for &r in &regs {
            self.output(r);
        }
        if !is_gs {
            self.io = Some(StageIo {
                input,
                output: Some(output),
                index,
                pull_vertex: None,
                records: 1,
                gs: None,
                tess: None,
            });
            return Ok(Some(ComputeForm {
                pass: Pass::VertexCompute,
                vertices_per_primitive: 1,
                instances: 1,
                max_vertices: 1,
                output_topology: None,
                output_registers: regs,
                tessellation: None,
            }));
        }
        let (records, topology, max_out, instances) = gs_declarations(p)?;
        let count = self.stage_buffer(StageBufferRole::VertexCount, "vertex_count");
        let u32_ty = self.t.u32;
        let strip_len = self.private_typed("strip_length", u32_ty);
        let emitted = self.private_typed("emitted", u32_ty);
        let n = std::num::NonZeroU32::new(REGISTER_STRIDE).unwrap_or(std::num::NonZeroU32::MIN);
        let arr = self.ty(TypeInner::Array { base: vec4u, size: ArraySize::Constant(n), stride: 16 });
        let prev = [self.private_typed("strip_older", arr), self.private_typed("strip_newer", arr)];
        let slot_base = self.private_typed("slot_base", u32_ty);
        let slot_len = self.private_typed("slot_length", u32_ty);
        let position = shader
            .output_signature
            .iter()
            .flat_map(|s| &s.elements)
            .find(|e| {
                e.stream.unwrap_or(0) == 0
                    && e.register < REGISTER_STRIDE
                    && SignatureName::from_u32(e.system_value) == Some(SignatureName::Position)
            })
            .map(|e| e.register);
        let form = ComputeForm {
            pass: Pass::GeometryCompute,
            vertices_per_primitive: records,
            instances,
            max_vertices: max_out,
            output_topology: Some(topology),
            output_registers: regs.clone(),
            tessellation: None,
        };
        let max_list = form.max_list_vertices();
        self.io = Some(StageIo {
            input,
            output: Some(output),
            index,
            pull_vertex: None,
            records,
            gs: Some(GsState {
                topology,
                max_out,
                instances,
                count,
                strip_len,
                emitted,
                slot_base,
                slot_len,
                max_list,
                position,
                prev,
                regs: regs.clone(),
                emit_vertex: None,
            }),
            tess: None,
        });
        Ok(Some(ComputeForm {
            pass: Pass::GeometryCompute,
            vertices_per_primitive: records,
            instances,
            max_vertices: max_out,
            output_topology: Some(topology),
            output_registers: regs,
            tessellation: None,
        }))
    }

    pub(crate) fn load_global(&mut self, g: Handle<GlobalVariable>) -> H {
        let ptr = self.e(E::GlobalVariable(g));
        self.e(E::Load { pointer: ptr })
    }

    /// A load of a global the entry point sets and the body only reads,
    /// made once while the block it was made in is open.
    pub(crate) fn load_stage_global(&mut self, g: Handle<GlobalVariable>) -> H {
        let key = crate::regs::LoadKey::Stage(g.index() as u32);
        if let Some(&h) = self.loads.get(&key) {
            return h;
        }
        let v = self.load_global(g);
        let x = self.component(v, 0);
        self.loads.insert(key, x);
        x
    }

    /// Component 0 of the private index register: this invocation's vertex
    /// or primitive.
    pub(crate) fn invocation_index(&mut self) -> Result<H, TranslateError> {
        let Some(io) = &self.io else { return malformed("no stage buffers", self.p.offset) };
        let g = io.index;
        Ok(self.load_stage_global(g))
    }

    /// A pointer to the input register an operand names, in the records.
    pub(crate) fn stage_input_pointer(&mut self, op: &Operand) -> Result<H, TranslateError> {
        let at = op.offset as usize;
        let Some(io) = &self.io else { return malformed("no stage buffers", at) };
        let (input, records, gs) = (io.input, io.records, io.gs.is_some());
        let base = self.invocation_index()?;
        let (record, reg) = match (gs, op.index_dim()) {
            (true, 2) => {
                let k = self.index(op, 0)?;
                let n = self.lit_u(records);
                let first = self.bin(B::Multiply, base, n);
                let record = self.bin(B::Add, first, k);
                (record, self.index(op, 1)?)
            }
            (false, 1) => (base, self.index(op, 0)?),
            (_, d) => return malformed(format!("{d}-dimensional input register in this stage"), at),
        };
        let stride = self.lit_u(REGISTER_STRIDE);
        let word = self.bin(B::Multiply, record, stride);
        let i = self.bin(B::Add, word, reg);
        let base = self.e(E::GlobalVariable(input));
        Ok(self.e(E::Access { base, index: i }))
    }

    /// `emit`, `cut`, `emit_then_cut` and their stream forms.
    pub(crate) fn gs_instruction(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        if matches!(code, O::EmitStream | O::CutStream | O::EmitthencutStream) {
            let m = self.op(ins, 0)?;
            if m.index_dim() < 1 || m.index[0].imm != 0 {
                return unsupported(
                    Limitation::GeometryStreams,
                    format!("{} to stream m{}", code.info().asm, m.index[0].imm),
                    ins.offset as usize,
                );
            }
        }
        if matches!(code, O::Emit | O::EmitStream | O::Emitthencut | O::EmitthencutStream) {
            self.gs_emit()?;
        }
        if matches!(code, O::Cut | O::CutStream | O::Emitthencut | O::EmitthencutStream) {
            let Some(gs) = self.io.as_ref().and_then(|io| io.gs.as_ref()) else {
                return malformed("cut outside a geometry shader", ins.offset as usize);
            };
            let g = gs.strip_len;
            let ptr = self.e(E::GlobalVariable(g));
            let zero = self.lit_u(0);
            self.stmt(S::Store { pointer: ptr, value: zero });
        }
        Ok(())
    }

    /// `emit`: a call of `emit_vertex`, made at the first emit. Every emit
    /// does the same with the same globals (the output registers, the
    /// strip, the slot), so it is written once, as a person would.
    fn gs_emit(&mut self) -> Result<(), TranslateError> {
        let Some(gs) = self.io.as_ref().and_then(|io| io.gs.as_ref()) else {
            return malformed("emit outside a geometry shader", self.offset_now());
        };
        let function = match gs.emit_vertex {
            Some(f) => f,
            None => {
                let f = self.build_function("emit_vertex", |l| l.emit_vertex())?;
                if let Some(gs) = self.io.as_mut().and_then(|io| io.gs.as_mut()) {
                    gs.emit_vertex = Some(f);
                }
                f
            }
        };
        self.stmt(S::Call { function, arguments: Vec::new(), result: None });
        Ok(())
    }

    /// The body of `emit_vertex`: the current output registers become the
    /// strip's newest vertex, and the list primitive it completes (if any)
    /// is appended to the invocation's slot. Emits past `dcl_maxout` do
    /// nothing.
    fn emit_vertex(&mut self) -> Result<(), TranslateError> {
        let Some(io) = &self.io else { return malformed("emit without stage buffers", self.offset_now()) };
        let Some(gs) = &io.gs else { return malformed("emit outside a geometry shader", self.offset_now()) };
        let (topology, max_out, strip_len, emitted, prev, regs) =
            (gs.topology, gs.max_out, gs.strip_len, gs.emitted, gs.prev, gs.regs.clone());
        // Emits past dcl_maxout are dropped.
        let em_ptr = self.e(E::GlobalVariable(emitted));
        let em = self.e(E::Load { pointer: em_ptr });
        let max = self.lit_u(max_out);
        let room = self.bin(B::Less, em, max);
        self.open_if(room);
        let one = self.lit_u(1);
        let em1 = self.bin(B::Add, em, one);
        self.stmt(S::Store { pointer: em_ptr, value: em1 });
        let len_ptr = self.e(E::GlobalVariable(strip_len));
        let len = self.e(E::Load { pointer: len_ptr });
        match topology {
            OutputTopology::PointList => self.append(&[(None, Src::Current)], &regs)?,
            OutputTopology::LineList => {
                let one = self.lit_u(1);
                let c = self.bin(B::GreaterEqual, len, one);
                self.open_if(c);
                self.append(&[(None, Src::Prev(1)), (None, Src::Current)], &regs)?;
                self.close_if();
            }
            OutputTopology::TriangleList => {
                let two = self.lit_u(2);
                let c = self.bin(B::GreaterEqual, len, two);
                self.open_if(c);
                // Triangle k = len − 2 of the strip is (k, k+1, k+2), or
                // (k, k+2, k+1) for odd k: D3D's order, which keeps the
                // winding and the first (provoking) vertex.
                let one = self.lit_u(1);
                let zero = self.lit_u(0);
                let k = self.bin(B::Subtract, len, two);
                let bit = self.bin(B::And, k, one);
                let odd = self.bin(B::NotEqual, bit, zero);
                let newer = self.select(odd, two, one);
                let current = self.select(odd, one, two);
                self.append(
                    &[(Some(zero), Src::Prev(0)), (Some(newer), Src::Prev(1)), (Some(current), Src::Current)],
                    &regs,
                )?;
                self.close_if();
                // The newer vertex becomes the older.
                let newer = self.load_global(prev[1]);
                let older = self.e(E::GlobalVariable(prev[0]));
                self.stmt(S::Store { pointer: older, value: newer });
            }
        }
        if topology != OutputTopology::PointList {
            for &r in &regs {
                let o = self.output(r);
                let v = self.load_global(o);
                let base = self.e(E::GlobalVariable(prev[1]));
                let ptr = self.e(E::AccessIndex { base, index: r });
                self.stmt(S::Store { pointer: ptr, value: v });
            }
        }
        let one = self.lit_u(1);
        let len1 = self.bin(B::Add, len, one);
        let len_ptr = self.e(E::GlobalVariable(strip_len));
        self.stmt(S::Store { pointer: len_ptr, value: len1 });
        self.close_if();
        Ok(())
    }

    fn offset_now(&self) -> usize {
        self.span.to_range().map_or(self.p.offset, |r| r.start)
    }

    /// Appends list vertices at the end of this invocation's slot (at
    /// `slot_len + position`, or `slot_len + slot` where a slot expression
    /// is given) if the slot and the output buffer hold them, and adds them
    /// to the count (which tells the caller how many were emitted in all).
    fn append(&mut self, vertices: &[(Option<H>, Src)], regs: &[u32]) -> Result<(), TranslateError> {
        let Some(io) = &self.io else { return malformed("no stage buffers", self.offset_now()) };
        let (Some(output), Some(gs)) = (io.output, io.gs.as_ref()) else {
            return malformed("emit outside a geometry shader", self.offset_now());
        };
        let (count, prev, slot_base, slot_len, max_list) = (gs.count, gs.prev, gs.slot_base, gs.slot_len, gs.max_list);
        let n = self.lit_u(vertices.len() as u32);
        let pointer = self.e(E::GlobalVariable(count));
        self.stmt(S::Atomic { pointer, fun: AtomicFunction::Add, value: n, result: None });
        let written = self.load_global(slot_len);
        let slot_first = self.load_global(slot_base);
        let base = self.bin(B::Add, slot_first, written);
        let written_after = self.bin(B::Add, written, n);
        let room = self.lit_u(max_list);
        let in_slot = self.bin(B::LessEqual, written_after, room);
        let len = self.array_length(output);
        let stride = self.lit_u(REGISTER_STRIDE);
        let capacity = self.bin(B::Divide, len, stride);
        let end = self.bin(B::Add, base, n);
        // `end ≥ base` also rejects a wrapped count.
        let fits = self.bin(B::LessEqual, end, capacity);
        let no_wrap = self.bin(B::GreaterEqual, end, base);
        let ok = self.bin(B::LogicalAnd, fits, no_wrap);
        let ok = self.bin(B::LogicalAnd, ok, in_slot);
        self.open_if(ok);
        let len_ptr = self.e(E::GlobalVariable(slot_len));
        self.stmt(S::Store { pointer: len_ptr, value: written_after });
        for (position, &(slot, src)) in vertices.iter().enumerate() {
            let offset = match slot {
                Some(s) => s,
                None => self.lit_u(position as u32),
            };
            let record = self.bin(B::Add, base, offset);
            let first_word = self.bin(B::Multiply, record, stride);
            for &r in regs {
                let value = match src {
                    Src::Current => {
                        let o = self.output(r);
                        self.load_global(o)
                    }
                    Src::Prev(i) => {
                        let g = self.e(E::GlobalVariable(prev[i]));
                        let ptr = self.e(E::AccessIndex { base: g, index: r });
                        self.e(E::Load { pointer: ptr })
                    }
                };
                let rl = self.lit_u(r);
                let i = self.bin(B::Add, first_word, rl);
                let out = self.e(E::GlobalVariable(output));
                let ptr = self.e(E::Access { base: out, index: i });
                self.stmt(S::Store { pointer: ptr, value });
            }
        }
        self.close_if();
        Ok(())
    }

    /// The compute entry point of a VS or GS pass: one invocation per
    /// record group (and instance); sets the index registers, runs the
    /// body, and (VS) copies the outputs to the invocation's record.
    pub(crate) fn compute_entry_point(&mut self) -> Result<crate::lower::EntryIo, TranslateError> {
        let Some(io) = &self.io else { return malformed("no stage buffers", self.p.offset) };
        let (input, output, index, records) = (io.input, io.output, io.index, io.records);
        let instances = io.gs.as_ref().map_or(1, |g| g.instances);
        let is_gs = io.gs.is_some();
        let uvec3 = self.ty(TypeInner::Vector { size: VectorSize::Tri, scalar: Scalar::U32 });
        let wrapper = Function {
            name: Some("main".into()),
            arguments: vec![FunctionArgument {
                name: Some("global_invocation_id".into()),
                ty: uvec3,
                binding: Some(naga::Binding::BuiltIn(naga::BuiltIn::GlobalInvocationId)),
            }],
            ..Default::default()
        };
        let body = self.take_function(wrapper);
        let body = self.module.functions.append(body, Span::UNDEFINED);
        self.span = Span::UNDEFINED;
        let gid = self.e(E::FunctionArgument(0));
        let id = self.component(gid, 0);
        // Invocations: whole record groups in the input buffer × instances.
        let len = self.array_length(input);
        let group = self.lit_u(REGISTER_STRIDE * records);
        let groups = self.bin(B::Divide, len, group);
        let inst = self.lit_u(instances);
        let total = self.bin(B::Multiply, groups, inst);
        let past = self.bin(B::GreaterEqual, id, total);
        self.open_if(past);
        self.stmt(S::Return { value: None });
        self.close_if();
        let prim = self.bin(B::Divide, id, inst);
        let instance = self.bin(B::Modulo, id, inst);
        let prim4 = self.splat(prim);
        let ptr = self.e(E::GlobalVariable(index));
        self.stmt(S::Store { pointer: ptr, value: prim4 });
        for (ty, g) in self.specials_snapshot() {
            let v = match ty {
                OT::InputPrimitiveid if is_gs => prim4,
                OT::InputGsInstanceId if is_gs => self.splat(instance),
                _ => {
                    let n = ty.row().asm;
                    return unsupported(
                        Limitation::SpecialRegisterInStage,
                        format!("special register {n} (in this compute form)"),
                        self.p.offset,
                    );
                }
            };
            let ptr = self.e(E::GlobalVariable(g));
            self.stmt(S::Store { pointer: ptr, value: v });
        }
        let slot =
            self.io.as_ref().and_then(|io| io.gs.as_ref()).map(|g| (g.slot_base, g.slot_len, g.max_list, g.position));
        if let Some((slot_base, _, max_list, _)) = slot {
            let room = self.lit_u(max_list);
            let first = self.bin(B::Multiply, id, room);
            let ptr = self.e(E::GlobalVariable(slot_base));
            self.stmt(S::Store { pointer: ptr, value: first });
        }
        self.stmt(S::Call { function: body, arguments: Vec::new(), result: None });
        if let (Some((slot_base, slot_len, max_list, Some(position))), Some(output)) = (slot, output) {
            self.fill_slot_with_culled_vertices(output, slot_base, slot_len, max_list, position);
        }
        if let (false, Some(output)) = (is_gs, output) {
            let stride = self.lit_u(REGISTER_STRIDE);
            let first = self.bin(B::Multiply, id, stride);
            for (r, g) in self.outputs_snapshot() {
                let v = self.load_global(g);
                let rl = self.lit_u(r);
                let i = self.bin(B::Add, first, rl);
                let out = self.e(E::GlobalVariable(output));
                let ptr = self.e(E::Access { base: out, index: i });
                self.stmt(S::Store { pointer: ptr, value: v });
            }
        }
        Ok(self.finish_compute_entry())
    }
}

impl Lower<'_> {
    /// Writes a position of (0, 0, 0, −1) into every record of the slot the
    /// invocation left unwritten: −w < x fails for every vertex, so clipping
    /// discards whatever point, line or triangle those records form, and the
    /// caller can draw every slot whole.
    fn fill_slot_with_culled_vertices(
        &mut self,
        output: Handle<GlobalVariable>,
        slot_base: Handle<GlobalVariable>,
        slot_len: Handle<GlobalVariable>,
        max_list: u32,
        position: u32,
    ) {
        self.open_loop();
        let written = self.load_global(slot_len);
        let room = self.lit_u(max_list);
        let full = self.bin(B::GreaterEqual, written, room);
        self.open_if(full);
        self.stmt(S::Break);
        self.close_if();
        let first = self.load_global(slot_base);
        let record = self.bin(B::Add, first, written);
        let len = self.array_length(output);
        let stride = self.lit_u(REGISTER_STRIDE);
        let capacity = self.bin(B::Divide, len, stride);
        let past = self.bin(B::GreaterEqual, record, capacity);
        self.open_if(past);
        self.stmt(S::Break);
        self.close_if();
        let word = self.bin(B::Multiply, record, stride);
        let reg = self.lit_u(position);
        let i = self.bin(B::Add, word, reg);
        let zero = self.lit_u(0);
        let minus_one = self.lit_u((-1.0f32).to_bits());
        let culled = self.e(E::Compose { ty: self.t.vec4u, components: vec![zero, zero, zero, minus_one] });
        let out = self.e(E::GlobalVariable(output));
        let ptr = self.e(E::Access { base: out, index: i });
        self.stmt(S::Store { pointer: ptr, value: culled });
        let one = self.lit_u(1);
        let next = self.bin(B::Add, written, one);
        let len_ptr = self.e(E::GlobalVariable(slot_len));
        self.stmt(S::Store { pointer: len_ptr, value: next });
        self.close_loop();
    }

    /// Ends the body under construction and makes it the module's compute
    /// entry point `main` (one invocation per record, [`WORKGROUP_SIZE`]
    /// wide): the end every compute form shares.
    pub(super) fn finish_compute_entry(&mut self) -> crate::lower::EntryIo {
        self.stmt(S::Return { value: None });
        let ep = self.take_function(Function::default());
        let workgroup_size = [WORKGROUP_SIZE, 1, 1];
        // The only entry point: no room for four (see `entry_point`).
        self.module.entry_points.reserve_exact(1);
        self.module.entry_points.push(naga::EntryPoint {
            name: "main".into(),
            stage: ShaderStage::Compute,
            early_depth_test: None,
            workgroup_size,
            workgroup_size_overrides: None,
            function: ep,
            mesh_info: None,
            task_payload: None,
            incoming_ray_payload: None,
        });
        let inputs = vec![IoEntry {
            semantic: "global_invocation_id".into(),
            semantic_index: 0,
            register: 0,
            location: None,
            builtin: Some("global_invocation_id".into()),
            scalar: "u32".into(),
            components: 3,
            synthesised: true,
        }];
        (inputs, Vec::new(), workgroup_size)
    }
}

/// A geometry shader's declarations: vertices per input primitive, output
/// topology, most vertices emitted, instances.
fn gs_declarations(p: &dxbc::program::Program) -> Result<(u32, OutputTopology, u32, u32), TranslateError> {
    let (mut records, mut topology, mut max_out, mut instances) = (None, OutputTopology::PointList, 0, 1);
    for ins in &p.instructions {
        let at = ins.offset as usize;
        match ins.op() {
            Some(O::DclGsInputPrimitive) => {
                let v = DCL_GS_INPUT_CONTROLS[0].get(ins.token);
                records = Some(match Primitive::from_u32(v) {
                    Some(Primitive::Point) => 1,
                    Some(Primitive::Line) => 2,
                    Some(Primitive::Triangle) => 3,
                    Some(Primitive::LineAdj) => 4,
                    Some(Primitive::TriangleAdj) => 6,
                    // 1..32 control point patches are 8..39.
                    _ if (8..=39).contains(&v) => v - 7,
                    _ => return malformed(format!("input primitive {v}"), at),
                });
            }
            Some(O::DclGsOutputPrimitiveTopology) => {
                let v = DCL_GS_OUTPUT_CONTROLS[0].get(ins.token);
                topology = match PrimitiveTopology::from_u32(v) {
                    Some(PrimitiveTopology::Pointlist) => OutputTopology::PointList,
                    Some(PrimitiveTopology::Linestrip | PrimitiveTopology::Linelist) => OutputTopology::LineList,
                    Some(PrimitiveTopology::Trianglestrip | PrimitiveTopology::Trianglelist) => {
                        OutputTopology::TriangleList
                    }
                    _ => return malformed(format!("geometry output topology {v}"), at),
                };
            }
            Some(O::DclMaxOutputVertexCount) => {
                // D3D11 allows at most 1024.
                max_out = ins.payload(p).first().map_or(0, |x| x.value).min(1024);
            }
            Some(O::DclGsInstanceCount) => {
                instances = ins.payload(p).first().map_or(1, |x| x.value).clamp(1, 32);
            }
            _ => {}
        }
    }
    let Some(records) = records else { return malformed("geometry shader without dcl_inputprimitive", p.offset) };
    Ok((records, topology, max_out, instances))
}

/// The kind a pass reads records of signature `sig` through operand types
/// `files` in: f32 when every element with a register is a float and more
/// of the reads of them by the pass's instructions (indices `pass`) are
/// float than not (a copy to an output counts as the outputs' kind
/// `outputs`: bits, but for a hull pass's float outputs), else u32 (the
/// records' bits as they are).
pub(crate) fn record_kind(
    p: &dxbc::program::Program,
    sig: Option<&dxbc::chunks::signature::Signature>,
    files: &[OT],
    pass: impl Iterator<Item = usize>,
    outputs: K,
) -> K {
    if signature_kind(sig) != K::F {
        return K::U;
    }
    let (mut float, mut other) = (0usize, 0usize);
    for ins in pass.filter_map(|i| p.instructions.get(i)).filter(|i| !i.is_customdata()) {
        let Some(code) = ins.op() else { continue };
        let dst_is_output = ins.operand(p, 0).is_some_and(|d| d.operand_type() == Some(OT::Output));
        let kind = crate::regs::source_kind(code).or((dst_is_output && code == O::Mov).then_some(outputs));
        let reads = ins.operands(p).skip(1).filter(|o| o.operand_type().is_some_and(|t| files.contains(&t))).count();
        match kind {
            Some(K::F) => float += reads,
            Some(_) => other += reads,
            None => {}
        }
    }
    if float > other {
        K::F
    } else {
        K::U
    }
}

/// F when every element of `sig` with a register is a float.
pub(crate) fn signature_kind(sig: Option<&dxbc::chunks::signature::Signature>) -> K {
    use dxbc::spec::RegisterComponentType as C;
    let mut kinds = sig
        .into_iter()
        .flat_map(|s| s.elements.iter())
        .filter(|e| e.register != u32::MAX)
        .map(|e| C::from_u32(e.component_type))
        .peekable();
    if kinds.peek().is_some() && kinds.all(|k| k == Some(C::Float32)) {
        K::F
    } else {
        K::U
    }
}
