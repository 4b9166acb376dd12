//! The entry point around the body: arguments typed by the input
//! signature and copied into the input registers, the result built from
//! the output registers, early returns that return the result where they
//! stand, and the globals nothing reads any more dropped (`direct_io`).

use super::names::semantic_identifier;
use super::*;
use std::borrow::Cow;

/// A signature element.
type Element = dxbc::chunks::signature::SignatureElement;

/// The entry point's result as it is built: its members, how each is read
/// at a return, and the outputs' report.
#[derive(Default)]
struct ResultParts {
    members: Vec<StructMember>,
    values: Vec<OutValue>,
    entries: Vec<IoEntry>,
    /// The next member's offset (the struct's size when done).
    offset: u32,
}

impl ResultParts {
    /// Adds a member of `size` bytes at the end.
    fn push(&mut self, mut member: StructMember, size: u32, value: OutValue, entry: IoEntry) {
        member.offset = self.offset;
        self.offset += size;
        self.members.push(member);
        self.values.push(value);
        self.entries.push(entry);
    }
}

impl<'a> Lower<'a> {
    /// Wraps the lowered body into the entry point `main`: the arguments
    /// copied in first, then the body, then the result returned (also at
    /// each early return). Returns the inputs' and outputs' report and the
    /// workgroup size.
    pub(super) fn entry_point(&mut self, shader: &dxbc::Shader) -> Result<EntryIo, TranslateError> {
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
        let (interp, workgroup_size) = self.stage_declarations()?;

        let mut inputs = Vec::new();
        let mut copies = Vec::new();
        let sig_in = self.input_elements(shader);
        self.signature_arguments(&sig_in, &interp, &mut ep, &mut copies, &mut inputs)?;
        self.special_arguments(&mut ep, &mut copies, &mut inputs)?;
        let position_at_centre = self.position_at_centre(&sig_in, &interp);
        let mut stmts = Block::new();
        let mut dead_globals = Vec::new();
        self.copy_arguments(&mut ep, &mut block, copies, position_at_centre, &mut stmts, &mut dead_globals);
        stmts.extend_block(block);

        let mut parts = ResultParts::default();
        let sig_out = self.output_elements(shader);
        let clip = self.distances(&sig_out, SN::ClipDistance)?;
        let cull = self.distances(&sig_out, SN::CullDistance)?;
        self.register_outputs(&sig_out, &mut parts)?;
        self.distance_output(SN::ClipDistance, &clip, &mut parts)?;
        self.distance_output(SN::CullDistance, &cull, &mut parts)?;
        self.special_outputs(&mut parts)?;
        if self.stage == ShaderStage::Vertex && !parts.entries.iter().any(|o| o.builtin.as_deref() == Some("position"))
        {
            // A VS that feeds a GS or HS writes no SV_Position, but naga and
            // WebGPU require one: a constant position is added after the real
            // outputs (their locations are untouched) and reported as
            // synthesised.
            let (member, entry) = crate::emulate::position::synthesised_position(self.t.vec4f);
            parts.push(member, 16, OutValue::SynthesisedPosition, entry);
            self.emulations.insert(Emulation::SynthesisedPosition);
        }
        let ResultParts { members, values, entries: outputs, offset } = parts;
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
        let registers: Vec<_> = values
            .iter()
            .filter_map(|v| match *v {
                OutValue::Register { g, .. } => Some(g),
                _ => None,
            })
            .collect();
        if early_returns {
            expand_returns(&mut stmts, &mut |block| self.return_result(&mut ep, &values, &registers, result, block));
        }
        self.return_result(&mut ep, &values, &registers, result, &mut stmts);
        crate::direct_io::drop_unread_outputs(&self.module, &mut ep, &mut stmts, &registers, &mut dead_globals);
        ep.body = stmts;
        let early_depth_test = self.early_depth_test();
        if early_depth_test == Some(naga::EarlyDepthTest::Force) && self.writes_storage() {
            self.target_refusal(L::ForcedEarlyDepthTest, "forceEarlyDepthStencil with UAV writes", self.p.offset);
        }
        let stage = self.stage;
        // The module's only entry point: a Vec's first growth would hold
        // four (1.4 KiB), and glibc answers a request that size by
        // consolidating its free lists, a cost every translation paid.
        self.module.entry_points.reserve_exact(1);
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

    /// What the declarations say of the entry point: the interpolation of
    /// each pixel-shader input register (`dcl_input_ps`), and the thread
    /// group's size (`dcl_thread_group`, within D3D's limits).
    fn stage_declarations(&self) -> Result<(BTreeMap<u32, InterpolationMode>, [u32; 3]), TranslateError> {
        let p = self.p;
        let mut interp = BTreeMap::new();
        let mut workgroup_size = [1, 1, 1];
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
                _ => {}
            }
        }
        Ok((interp, workgroup_size))
    }

    /// The input signature's elements, with a float vec4 varying at
    /// location = register for each register read but absent from it (or
    /// when there is no signature at all).
    ///
    /// Borrowed where the signature has them: cloning the elements (and
    /// their names) cost a few allocations per translation.
    fn input_elements<'s>(&self, shader: &'s dxbc::Shader) -> Vec<Cow<'s, Element>> {
        let mut sig_in: Vec<Cow<'s, Element>> =
            shader.input_signature.as_ref().map_or_else(Vec::new, |s| s.elements.iter().map(Cow::Borrowed).collect());
        for &reg in self.inputs.keys() {
            if !sig_in.iter().any(|e| e.register == reg) {
                sig_in.push(Cow::Owned(synthetic_element(reg, &format!("V{reg}"), reg)));
            }
        }
        sig_in
    }

    /// The arguments of the input registers the body reads: the user
    /// elements of a register share one location (typed by the first of
    /// them); each system value is its own built-in written into the
    /// components its mask names.
    fn signature_arguments(
        &mut self,
        sig_in: &[Cow<'_, Element>],
        interp: &BTreeMap<u32, InterpolationMode>,
        ep: &mut Function,
        copies: &mut Vec<ArgCopy>,
        inputs: &mut Vec<IoEntry>,
    ) -> Result<(), TranslateError> {
        let stage = self.stage;
        let mut regs: BTreeMap<u32, Vec<&Element>> = BTreeMap::new();
        for e in sig_in {
            if e.register != u32::MAX {
                regs.entry(e.register).or_default().push(e);
            }
        }
        for (reg, elems) in &regs {
            let Some(&g) = self.inputs.get(reg) else {
                continue; // never read
            };
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
                        let binding = naga::Binding::Location {
                            location: *reg,
                            interpolation,
                            sampling,
                            blend_src: None,
                            per_primitive: false,
                        };
                        (binding, ty, 4, None, 0, ArgKind::Plain)
                    }
                    // naga's IR has clip distances as vertex outputs only: a
                    // pixel shader's one SV_ClipDistance input is its
                    // components at a reserved location, interpolated as
                    // declared, which `spirv_post` makes the ClipDistance
                    // built-in.
                    (ShaderStage::Fragment, Some(SN::ClipDistance), None) => {
                        let clips = sig_in
                            .iter()
                            .filter(|o| {
                                SN::from_u32(o.system_value) == Some(SN::ClipDistance) && o.register != u32::MAX
                            })
                            .count();
                        if clips != 1 {
                            return unsupported(
                                L::ClipDistance,
                                format!("{clips} SV_ClipDistance inputs (one is read, through SPIR-V)"),
                                e.offset,
                            );
                        }
                        let n = (e.mask as u32 & 0xf).count_ones();
                        if k != K::F || n == 0 || c0 + n > 4 || (e.mask as u32 & 0xf) >> c0 != (1 << n) - 1 {
                            return malformed(format!("SV_ClipDistance input of mask {:#x}", e.mask), e.offset);
                        }
                        let what = format!("input system value {} ({})", e.name, e.system_value_name());
                        self.target_refusal(L::ClipDistance, what, e.offset);
                        let mode = interp.get(reg).copied().unwrap_or(InterpolationMode::Linear);
                        let (interpolation, sampling) = specialise::Interpolation::of_mode(mode).naga();
                        let binding = naga::Binding::Location {
                            location: crate::spirv_post::CLIP_DISTANCE_LOCATION,
                            interpolation: Some(interpolation),
                            sampling,
                            blend_src: None,
                            per_primitive: false,
                        };
                        let ty = match n {
                            1 => self.t.f32,
                            2 => self.ty(TypeInner::Vector { size: VectorSize::Bi, scalar: Scalar::F32 }),
                            3 => self.ty(TypeInner::Vector { size: VectorSize::Tri, scalar: Scalar::F32 }),
                            _ => self.t.vec4f,
                        };
                        (binding, ty, n, Some("clip_distances"), c0, ArgKind::Plain)
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
                let arg = add_argument(ep, semantic_identifier(&e.name, e.semantic_index), ty, binding);
                // A scalar built-in reads as u32 (or bool), but for the
                // clip distance, an f32.
                let kk = if ty == self.t.f32 {
                    K::F
                } else if builtin.is_some() && comps == 1 {
                    K::U
                } else {
                    k
                };
                let register_name = self.input_names.get(reg).cloned().unwrap_or_else(|| format!("v{reg}"));
                copies.push(ArgCopy { arg, g, k: kk, comps, c0, how, register_name: Some(register_name) });
                inputs.push(IoEntry {
                    semantic: e.name.clone(),
                    semantic_index: e.semantic_index,
                    register: *reg,
                    location: builtin.is_none().then_some(*reg),
                    builtin: builtin.map(str::to_string),
                    scalar: kk.wgsl_name().into(),
                    components: comps,
                    synthesised: false,
                });
            }
        }
        Ok(())
    }

    /// The arguments of the special input registers the body reads
    /// (compute ids, `vPrim`, the input coverage mask), then the vertex
    /// index a pulled vertex is fetched by.
    fn special_arguments(
        &mut self,
        ep: &mut Function,
        copies: &mut Vec<ArgCopy>,
        inputs: &mut Vec<IoEntry>,
    ) -> Result<(), TranslateError> {
        let compute = self.stage == ShaderStage::Compute;
        let fragment = self.stage == ShaderStage::Fragment;
        for (&ty, &g) in &self.specials.clone() {
            // naga's IR has no inner-coverage built-in: a flat u32 at a
            // reserved location, which `spirv_post` makes FullyCoveredEXT.
            if ty == OT::InnerCoverage && fragment {
                self.target_refusal(L::InnerCoverage, "the inner-coverage input (vInnerCoverage)", self.p.offset);
                let binding = flat_location(crate::spirv_post::INNER_COVERAGE_LOCATION);
                let arg = add_argument(ep, "inner_coverage".into(), self.t.u32, binding);
                copies.push(ArgCopy { arg, g, k: K::U, comps: 1, c0: 0, how: ArgKind::Plain, register_name: None });
                inputs.push(IoEntry {
                    semantic: "SV_InnerCoverage".into(),
                    semantic_index: 0,
                    register: 0,
                    location: Some(crate::spirv_post::INNER_COVERAGE_LOCATION),
                    builtin: None,
                    scalar: "u32".into(),
                    components: 1,
                    synthesised: false,
                });
                continue;
            }
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
                    return unsupported(l, format!("special register {n} (in this stage)"), self.p.offset);
                }
            };
            let t = if comps == 3 {
                self.ty(TypeInner::Vector { size: VectorSize::Tri, scalar: Scalar::U32 })
            } else {
                self.t.u32
            };
            // An input register may already carry this value (`vPrim` read
            // in a pixel shader that also declares an SV_PrimitiveID input):
            // both registers are filled from the one argument, as an entry
            // point may bind each built-in once.
            let binding = naga::Binding::BuiltIn(builtin);
            if let Some(i) = ep.arguments.iter().position(|a| a.binding.as_ref() == Some(&binding)) {
                if ep.arguments[i].ty != t {
                    let n = ty.row().asm;
                    return malformed(
                        format!("{n} and an input of another type are both bound as {name}"),
                        self.p.offset,
                    );
                }
                let arg = argument_expression(ep, i as u32);
                copies.push(ArgCopy { arg, g, k: K::U, comps, c0: 0, how: ArgKind::Plain, register_name: None });
                continue;
            }
            let arg = add_argument(ep, name.into(), t, binding);
            copies.push(ArgCopy { arg, g, k: K::U, comps, c0: 0, how: ArgKind::Plain, register_name: None });
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
        if let Some(g) = self.io.as_ref().and_then(|io| io.pull_vertex) {
            let binding = naga::Binding::BuiltIn(naga::BuiltIn::VertexIndex);
            let arg = add_argument(ep, "vertex_index".into(), self.t.u32, binding);
            copies.push(ArgCopy { arg, g, k: K::U, comps: 1, c0: 0, how: ArgKind::Plain, register_name: None });
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
        Ok(())
    }

    /// Whether SV_Position is moved to the pixel centre: a shader that
    /// reads SV_SampleIndex or has a per-sample input runs once per sample;
    /// D3D still gives SV_Position at the pixel centre unless it is itself
    /// declared centroid or sample, while WebGPU (like Vulkan) then gives
    /// the sample's position.
    fn position_at_centre(&self, sig_in: &[Cow<'_, Element>], interp: &BTreeMap<u32, InterpolationMode>) -> bool {
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
        per_sample
            && matches!(
                position_mode,
                None | Some(
                    InterpolationMode::Linear | InterpolationMode::LinearNoperspective | InterpolationMode::Undefined
                )
            )
    }

    /// Copies the arguments into the private input globals (into `stmts`):
    /// whole registers where the argument is a vec4 at component 0, else
    /// component by component. A register one argument fills that the body
    /// (`block`) only loads is read from its argument instead, and its
    /// global joins `dead_globals` (`direct_io`).
    fn copy_arguments(
        &self,
        ep: &mut Function,
        block: &mut Block,
        copies: Vec<ArgCopy>,
        position_at_centre: bool,
        stmts: &mut Block,
        dead_globals: &mut Vec<Handle<GlobalVariable>>,
    ) {
        let mut read_directly = Vec::new();
        let filled_by = |g| copies.iter().filter(|a| a.g == g).count();
        // The inputs that might be read from their arguments: one argument
        // fills the global, unconverted. Which of them the body allows is
        // worked out for all at once, before any is rewritten: a rewrite
        // touches only its own global's expressions, and the copies of the
        // others add expressions that name no candidate.
        let fills: Vec<_> = copies
            .iter()
            .map(|copy| {
                let fill = match (&ep.expressions[copy.arg], copy.how) {
                    (&E::FunctionArgument(idx), ArgKind::Plain) => {
                        Some(crate::direct_io::Fill { arg: idx, first: copy.c0, count: copy.comps.min(4 - copy.c0) })
                    }
                    // SV_Position's x, y and z arrive as D3D gives them (its w
                    // does not, nor x and y moved to the pixel centre): a body
                    // that reads no more than those reads the argument.
                    (&E::FunctionArgument(idx), ArgKind::Position) if !position_at_centre => {
                        Some(crate::direct_io::Fill { arg: idx, first: 0, count: 3 })
                    }
                    _ => None,
                };
                (copy.g, fill.filter(|_| copy.k == self.global_kind(copy.g) && filled_by(copy.g) == 1))
            })
            .collect();
        let readable = crate::direct_io::readable_inputs(&self.module, &ep.expressions, block, &fills);
        for (c, copy) in copies.into_iter().enumerate() {
            let ArgCopy { arg, g, k, comps, c0, how, register_name } = copy;
            let gk = self.global_kind(g);
            if let (Some(fill), true) = (fills[c].1, readable.ok(c)) {
                crate::direct_io::read_argument(ep, &readable, c, fill, &mut read_directly);
                if let Some(name) = register_name {
                    ep.arguments[fill.arg as usize].name = Some(name);
                }
                dead_globals.push(g);
                continue;
            }
            let first = ep.expressions.len();
            let ptr = ep.expressions.append(E::GlobalVariable(g), Span::UNDEFINED);
            let stores = match how {
                ArgKind::Position => vec![(ptr, self.position_bits(ep, arg, gk, position_at_centre))],
                ArgKind::Bool => {
                    // D3D booleans are all ones or zero.
                    let mut e = |x: E| ep.expressions.append(x, Span::UNDEFINED);
                    let t = e(E::Literal(Literal::U32(u32::MAX)));
                    let f = e(E::Literal(Literal::U32(0)));
                    let v = e(E::Select { condition: arg, accept: t, reject: f });
                    let v = if gk == K::U { v } else { e(E::As { expr: v, kind: gk.kind(), convert: None }) };
                    vec![(e(E::AccessIndex { base: ptr, index: c0 }), v)]
                }
                ArgKind::Plain if comps == 4 && c0 == 0 => {
                    let v = if k == gk {
                        arg
                    } else {
                        ep.expressions.append(E::As { expr: arg, kind: gk.kind(), convert: None }, Span::UNDEFINED)
                    };
                    vec![(ptr, v)]
                }
                ArgKind::Plain => {
                    let mut e = |x: E| ep.expressions.append(x, Span::UNDEFINED);
                    (0..comps.min(4 - c0))
                        .map(|i| {
                            let v = if comps == 1 { arg } else { e(E::AccessIndex { base: arg, index: i }) };
                            let v = if k == gk { v } else { e(E::As { expr: v, kind: gk.kind(), convert: None }) };
                            (e(E::AccessIndex { base: ptr, index: c0 + i }), v)
                        })
                        .collect()
                }
            };
            emit_all(ep, first, stmts);
            for (p, v) in stores {
                stmts.push(S::Store { pointer: p, value: v }, Span::UNDEFINED);
            }
        }
        if read_directly.contains(&true) {
            crate::direct_io::split_emits(block, &read_directly);
        }
    }

    /// SV_Position's register value from its argument `arg`, in the
    /// global's kind `gk`: D3D's w is the clip-space w where WebGPU gives
    /// 1/w, and x and y move to the pixel centre where `at_centre`.
    fn position_bits(&self, ep: &mut Function, arg: H, gk: K, at_centre: bool) -> H {
        let mut e = |x: E| ep.expressions.append(x, Span::UNDEFINED);
        let one = e(E::Literal(Literal::F32(1.0)));
        let mut c: Vec<H> = (0..4).map(|i| e(E::AccessIndex { base: arg, index: i })).collect();
        c[3] = e(E::Binary { op: B::Divide, left: one, right: c[3] });
        if at_centre {
            let half = e(E::Literal(Literal::F32(0.5)));
            for x in &mut c[..2] {
                let f = e(E::Math { fun: M::Floor, arg: *x, arg1: None, arg2: None, arg3: None });
                *x = e(E::Binary { op: B::Add, left: f, right: half });
            }
        }
        let v = e(E::Compose { ty: self.t.vec4f, components: c });
        if gk == K::F {
            v
        } else {
            e(E::As { expr: v, kind: gk.kind(), convert: None })
        }
    }

    /// The output signature's elements of stream 0 (the one a geometry
    /// shader's draw rasterises), with a float vec4 for each register
    /// written but absent from it (`SV_Target` in a pixel shader).
    fn output_elements<'s>(&self, shader: &'s dxbc::Shader) -> Vec<Cow<'s, Element>> {
        let mut sig_out: Vec<Cow<'s, Element>> = shader.output_signature.as_ref().map_or_else(Vec::new, |s| {
            s.elements.iter().filter(|e| e.stream.unwrap_or(0) == 0).map(Cow::Borrowed).collect()
        });
        for &reg in self.outputs.keys() {
            if !sig_out.iter().any(|e| e.register == reg) {
                let name =
                    if self.stage == ShaderStage::Fragment { "SV_Target".to_string() } else { format!("O{reg}") };
                sig_out.push(Cow::Owned(synthetic_element(reg, &name, reg)));
            }
        }
        sig_out
    }

    /// Whether `e` is a vertex shader's SV_ClipDistance or SV_CullDistance.
    fn is_distance(&self, e: &Element) -> bool {
        self.stage == ShaderStage::Vertex
            && matches!(SN::from_u32(e.system_value), Some(SN::ClipDistance | SN::CullDistance))
    }

    /// The result's members for the output registers the body writes, but
    /// clip distances: each register as the signature element that first
    /// names it says.
    fn register_outputs(
        &mut self,
        sig_out: &[Cow<'_, Element>],
        parts: &mut ResultParts,
    ) -> Result<(), TranslateError> {
        let stage = self.stage;
        let mut out_regs: BTreeMap<u32, &Element> = BTreeMap::new();
        for e in sig_out {
            if e.register != u32::MAX {
                out_regs.entry(e.register).or_insert(e);
            }
        }
        let mut used_locations = BTreeSet::new();
        for (&reg, &g) in &self.outputs.clone() {
            let Some(e) = out_regs.get(&reg) else {
                return malformed(format!("o{reg} is written but not in the output signature"), self.p.offset);
            };
            if self.is_distance(e) {
                continue;
            }
            let k = register_kind(e.component_type);
            let alone = sig_out.iter().filter(|o| o.register == reg).count() == 1;
            // A scalar output: the one component it takes from the register.
            let mut scalar_from = None;
            let (binding, ty, builtin, location) = match (stage, SN::from_u32(e.system_value)) {
                (ShaderStage::Vertex, Some(sv @ (SN::RenderTargetArrayIndex | SN::ViewportArrayIndex))) if alone => {
                    let (limitation, location, name) = layer_or_viewport(sv);
                    let what = format!("output system value {} ({})", e.name, e.system_value_name());
                    self.target_refusal(limitation, what, e.offset);
                    scalar_from = Some((e.mask as u32 & 0xf).trailing_zeros().min(3));
                    (flat_location(location), self.t.u32, Some(name), None)
                }
                // Only a geometry shader's draw pass writes it (see
                // `Options::primitive_id_from_geometry`).
                (ShaderStage::Vertex, Some(SN::PrimitiveId)) if alone => {
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
                    let binding = naga::Binding::Location {
                        location: e.semantic_index,
                        interpolation: None,
                        sampling: None,
                        blend_src: None,
                        per_primitive: false,
                    };
                    (binding, ty, None, Some(e.semantic_index))
                }
                (ShaderStage::Vertex, Some(SN::Undefined)) => {
                    let ty = self.vec_ty(k);
                    let (interpolation, sampling) = vertex_output_interpolation(self.options, reg, k);
                    let binding = naga::Binding::Location {
                        location: reg,
                        interpolation,
                        sampling,
                        blend_src: None,
                        per_primitive: false,
                    };
                    (binding, ty, None, Some(reg))
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
            if let Some(l) = location {
                if !used_locations.insert(l) {
                    return malformed(format!("two outputs at location {l} (o{reg})"), e.offset);
                }
            }
            if parts.members.iter().any(|m| m.binding.as_ref() == Some(&binding)) {
                return malformed(format!("two outputs bound as {binding:?} (o{reg})"), e.offset);
            }
            let mut member = semantic_identifier(&e.name, e.semantic_index);
            while parts.members.iter().any(|m| m.name.as_deref() == Some(member.as_str())) {
                member.push('_');
            }
            let entry = IoEntry {
                semantic: e.name.clone(),
                semantic_index: e.semantic_index,
                register: reg,
                location,
                builtin: builtin.map(str::to_string),
                scalar: k_out.wgsl_name().into(),
                components: if scalar_from.is_some() { 1 } else { 4 },
                synthesised: false,
            };
            let member = StructMember { name: Some(member), ty, binding: Some(binding), offset: 0 };
            parts.push(member, 16, OutValue::Register { g, scalar_from, gk, k_out }, entry);
        }
        Ok(())
    }

    /// A vertex shader's SV_ClipDistance (or SV_CullDistance, `which`)
    /// components, by (semantic index, register, component): the order of
    /// the `clip_distances` (`cull_distances`) array. Registers holding them
    /// hold nothing else but the other kind of distance.
    fn distances(&self, sig_out: &[Cow<'_, Element>], which: SN) -> Result<Vec<(u32, u32, u32)>, TranslateError> {
        let limitation = if which == SN::CullDistance { L::CullDistance } else { L::ClipDistance };
        let mut out: Vec<(u32, u32, u32)> = Vec::new();
        for e in sig_out
            .iter()
            .filter(|e| self.is_distance(e) && SN::from_u32(e.system_value) == Some(which) && e.register != u32::MAX)
        {
            if sig_out.iter().any(|o| o.register == e.register && !self.is_distance(o)) {
                let what = if which == SN::CullDistance { "cull" } else { "clip" };
                return unsupported(
                    limitation,
                    format!("{what} distances share o{} with other outputs", e.register),
                    e.offset,
                );
            }
            out.extend((0..4).filter(|c| e.mask & (1 << c) != 0).map(|c| (e.semantic_index, e.register, c)));
        }
        out.sort_unstable();
        Ok(out)
    }

    /// The clip (or cull, `which`) distances as one array member,
    /// `clip_distances` (`cull_distances`). WGSL has no cull distances.
    fn distance_output(
        &mut self,
        which: SN,
        distances: &[(u32, u32, u32)],
        parts: &mut ResultParts,
    ) -> Result<(), TranslateError> {
        if distances.is_empty() {
            return Ok(());
        }
        let (limitation, builtin, name, semantic) = match which {
            SN::CullDistance => (L::CullDistance, naga::BuiltIn::CullDistance, "cull_distances", "SV_CullDistance"),
            _ => (L::ClipDistance, naga::BuiltIn::ClipDistances, "clip_distances", "SV_ClipDistance"),
        };
        let Some(n) = std::num::NonZeroU32::new(distances.len() as u32).filter(|n| n.get() <= 8) else {
            let what = format!("{} {} distances (at most 8)", distances.len(), &name[..4]);
            return unsupported(limitation, what, self.p.offset);
        };
        if which == SN::CullDistance {
            self.target_refusal(L::CullDistance, "the SV_CullDistance output", self.p.offset);
        }
        let f32_ty = self.t.f32;
        let ty = self.ty(TypeInner::Array { base: f32_ty, size: ArraySize::Constant(n), stride: 4 });
        let sources = distances.iter().map(|&(_, reg, c)| self.outputs.get(&reg).map(|&g| (g, c))).collect();
        let member =
            StructMember { name: Some(name.into()), ty, binding: Some(naga::Binding::BuiltIn(builtin)), offset: 0 };
        let entry = IoEntry {
            semantic: semantic.into(),
            semantic_index: 0,
            register: distances[0].1,
            location: None,
            builtin: Some(name.into()),
            scalar: "f32".into(),
            components: n.get(),
            synthesised: false,
        };
        parts.push(member, 4 * n.get(), OutValue::Clip { ty, parts: sources }, entry);
        Ok(())
    }

    /// The result's members for the special output registers the body
    /// writes: depth and the coverage mask (a stencil reference has no
    /// WebGPU form).
    fn special_outputs(&mut self, parts: &mut ResultParts) -> Result<(), TranslateError> {
        for (ty, g) in self.specials.clone() {
            let builtin = |b| Some(naga::Binding::BuiltIn(b));
            let (binding, name, t, float) = match ty {
                OT::OutputDepth | OT::OutputDepthGreaterEqual | OT::OutputDepthLessEqual => {
                    (builtin(naga::BuiltIn::FragDepth), "frag_depth", self.t.f32, true)
                }
                OT::OutputCoverageMask => (builtin(naga::BuiltIn::SampleMask), "sample_mask", self.t.u32, false),
                // naga's IR has no stencil reference output: a reserved
                // location that `spirv_post` makes FragStencilRefEXT.
                OT::OutputStencilRef => {
                    self.target_refusal(L::StencilExport, "the stencil reference output (oStencilRef)", self.p.offset);
                    let location = naga::Binding::Location {
                        location: crate::spirv_post::STENCIL_REF_LOCATION,
                        interpolation: None,
                        sampling: None,
                        blend_src: None,
                        per_primitive: false,
                    };
                    (Some(location), "stencil_ref", self.t.u32, false)
                }
                _ => continue,
            };
            let member = StructMember { name: Some(name.into()), ty: t, binding, offset: 0 };
            let entry = IoEntry {
                semantic: name.into(),
                semantic_index: 0,
                register: 0,
                location: None,
                builtin: Some(name.into()),
                scalar: if float { "f32" } else { "u32" }.into(),
                components: 1,
                synthesised: false,
            };
            parts.push(member, 16, OutValue::Special { g, float }, entry);
        }
        Ok(())
    }
}

/// Appends an argument to `ep` and returns the expression reading it.
fn add_argument(ep: &mut Function, name: String, ty: Handle<Type>, binding: naga::Binding) -> H {
    let idx = ep.arguments.len() as u32;
    ep.arguments.push(FunctionArgument { name: Some(name), ty, binding: Some(binding) });
    ep.expressions.append(E::FunctionArgument(idx), Span::UNDEFINED)
}

/// The expression of argument `idx`, added with it by [`add_argument`].
fn argument_expression(ep: &mut Function, idx: u32) -> H {
    let found = ep.expressions.iter().find(|(_, e)| matches!(e, E::FunctionArgument(i) if *i == idx));
    match found.map(|(h, _)| h) {
        Some(h) => h,
        None => ep.expressions.append(E::FunctionArgument(idx), Span::UNDEFINED),
    }
}

impl Lower<'_> {
    /// Pushes into `block` the entry point's return of its result (struct
    /// type `result`, none: a bare return), its members read as `values`
    /// say; `registers` are the output registers among them.
    fn return_result(
        &self,
        ep: &mut Function,
        values: &[OutValue],
        registers: &[Handle<GlobalVariable>],
        result: Option<Handle<Type>>,
        block: &mut Block,
    ) {
        let Some(ty) = result else {
            block.push(S::Return { value: None }, Span::UNDEFINED);
            return;
        };
        let stored = crate::direct_io::take_final_stores(&self.module, ep, block, registers);
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

/// The register view of a signature element's component type (floats for
/// anything but 32-bit integers).
pub(super) fn register_kind(component_type: u32) -> K {
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
    crate::ir_walk::rebuild_blocks_where(block, &|s| matches!(s, S::Return { value: None }), &mut |_, _, out| {
        at_return(out)
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
