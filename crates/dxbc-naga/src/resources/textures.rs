//! Texture access: sampling, gathering, loads of texels, and the size and
//! sample-count queries (`resinfo`, `sampleinfo`), with D3D's offsets,
//! swizzles and return types.

use super::*;

/// Says that operand `op`, in a place for a `what`, names another register file.
pub(crate) fn not_a(op: &Operand, what: &str) -> String {
    match op.operand_type() {
        Some(t) => format!("the {what} operand is a register of file {t:?}, not a {what}"),
        None => format!("the {what} operand's register file {} is not a {what}", op.ty()),
    }
}

impl Lower<'_> {
    pub(crate) fn texture(&mut self, op: &Operand) -> Result<Tex, TranslateError> {
        match op.ty() {
            T => {}
            U => {
                return unsupported(
                    L::TextureAccessOnUav,
                    "texture access on a UAV (typed UAVs are not lowered yet)",
                    op.offset as usize,
                )
            }
            _ => return malformed(not_a(op, "texture"), op.offset as usize),
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
        if op.ty() != OT::Sampler as u32 {
            return malformed(not_a(op, "sampler"), op.offset as usize);
        }
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
            // A literal layer is picked here (ties to even, as WGSL's round).
            if let E::Literal(Literal::F32(v)) = self.f.expressions[z] {
                let layer = v.round_ties_even().max(0.0);
                if layer < 2_147_483_648.0 {
                    return Ok((n, coordinate, Some(self.e(E::Literal(Literal::I32(layer as i32))))));
                }
            }
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
        // A texture that is also compared is a depth texture, and naga's
        // IR samples one without comparison at an implicit, zero or integer
        // level or with gradients. A bias or another level goes through a
        // mark (`spirv_marks`) that gives SPIR-V its operand; WGSL's depth
        // textures take neither, nor gradients.
        let mut marked = None;
        let level = match level {
            _ if !tex.depth || depth_ref.is_some() => level,
            SampleLevel::Exact(lod) => match self.f.expressions[lod] {
                E::Literal(Literal::F32(v)) if v.fract() == 0.0 && (0.0..2_147_483_648.0).contains(&v) => {
                    SampleLevel::Exact(self.e(E::Literal(Literal::I32(v as i32))))
                }
                _ => {
                    marked = Some((crate::spirv_marks::LOD, lod));
                    SampleLevel::Zero
                }
            },
            SampleLevel::Bias(bias) => {
                marked = Some((crate::spirv_marks::BIAS, bias));
                SampleLevel::Auto
            }
            SampleLevel::Auto | SampleLevel::Zero | SampleLevel::Gradient { .. } => level,
        };
        let gradient = matches!(level, SampleLevel::Gradient { .. });
        if tex.depth && depth_ref.is_none() && (marked.is_some() || gradient) {
            let what = format!("{} of a texture that is also compared", code.info().asm);
            self.target_refusal(L::ComparisonBiasOrGradient, what, at);
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
        let v = match marked {
            Some((tag, operand)) => self.spirv_mark(tag, v, self.t.f32, &[(operand, self.t.f32)]),
            None => v,
        };
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
}
