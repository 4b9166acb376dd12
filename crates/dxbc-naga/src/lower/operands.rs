//! Reading operands: register, constant-buffer and resource pointers,
//! index expressions, the lanes a swizzle selects in the kind the reader
//! wants (bitcast only where the value's kind differs), and source
//! modifiers (`abs`, `-`).

use super::*;

impl<'a> Lower<'a> {
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

    pub(super) fn is_static(op: &Operand, d: usize) -> bool {
        op.index[d].rel == NO_OPERAND
    }

    /// A pointer to the vec4<u32> storage an operand names (for reads and
    /// writes), or None for immediates.
    pub(super) fn pointer(&mut self, op: &Operand) -> Result<Option<H>, TranslateError> {
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
    pub(super) fn static_out_of_bounds(&self, op: &Operand) -> bool {
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
    pub(super) fn int_kind(&self, ins: &Instruction, srcs: &[usize], default: K) -> K {
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
    pub(super) fn memory_kind(&self, op: &Operand) -> K {
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
            // A special register's global (depth is f32); read before any
            // write, the kind its global will have (`io_global`'s).
            Some(t) => match self.specials.get(&t) {
                Some(&g) => self.global_kind(g),
                None if is_depth(t) && self.form == StageForm::Native => K::F,
                None => K::U,
            },
            None => K::U,
        }
    }

    /// `vector.pattern` (the first `size` lanes of `pattern`). A swizzle of
    /// a swizzle is one swizzle of the first one's vector (`t.xyxx.xy` is
    /// `t.xy`), unless the first has a name of its own (a member's lanes);
    /// all of a vector's lanes in order are the vector itself (`r0_xy`, not
    /// `r0_xy.xy`).
    pub(crate) fn swizzle(&mut self, size: VectorSize, vector: H, pattern: [naga::SwizzleComponent; 4]) -> H {
        let n = size as usize;
        // Lanes of a swizzle that are that swizzle (`t.xxxx.xxxx`, `t.zw.xy`):
        // the swizzle itself, named or not.
        if let E::Swizzle { size: s, pattern: p, .. } = self.f.expressions[vector] {
            if s == size && pattern[..n].iter().enumerate().all(|(i, &c)| p.get(c as usize) == Some(&p[i])) {
                return vector;
            }
        }
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
        // Lanes of a splat, or one lane of an unnamed vector of scalars
        // picked for every lane: a splat of that scalar (`vec4(a)`).
        let same = pattern[..n].iter().all(|&c| c == pattern[0]);
        let scalar = match self.f.expressions[vector] {
            E::Splat { value, .. } => Some(value),
            E::Compose { ty, ref components } if same && !self.f.named_expressions.contains_key(&vector) => {
                match self.module.types[ty].inner {
                    TypeInner::Vector { size: s, .. } if components.len() == s as usize => {
                        components.get(pattern[0] as usize).copied()
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(value) = scalar {
            return self.e(E::Splat { size, value });
        }
        if let Some(picked) = self.picked_components(vector, &pattern[..n]) {
            return picked;
        }
        // All of a vector's lanes in order are the vector itself.
        let in_order = pattern[..n].iter().enumerate().all(|(i, &c)| c as usize == i);
        if in_order && (size == VectorSize::Quad || self.known_lanes(vector) == Some(n)) {
            return vector;
        }
        self.e(E::Swizzle { size, vector, pattern })
    }

    /// How many lanes `h` has, where its form, its variable's or argument's
    /// type, or the lowering's record says (`None`: not known here; a
    /// lowering has no types of expressions at hand).
    fn known_lanes(&self, h: H) -> Option<usize> {
        let lanes = |ty: Handle<Type>| match self.module.types[ty].inner {
            TypeInner::Vector { size, .. } => Some(size as usize),
            TypeInner::Scalar(_) => Some(1),
            _ => None,
        };
        match self.f.expressions[h] {
            E::Swizzle { size, .. } | E::Splat { size, .. } => Some(size as usize),
            E::Compose { ty, .. } => lanes(ty),
            E::FunctionArgument(i) => self.f.arguments.get(i as usize).and_then(|a| lanes(a.ty)),
            E::Load { pointer } => match self.f.expressions[pointer] {
                E::GlobalVariable(g) => lanes(self.module.global_variables[g].ty),
                E::LocalVariable(v) => lanes(self.f.local_variables[v].ty),
                _ => self.recorded_width(h),
            },
            _ => self.recorded_width(h),
        }
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

    /// Whether `h` is certainly a vector value (`false` is safe).
    fn is_vector(&self, h: H) -> bool {
        self.known_lanes(h).is_some_and(|n| n > 1)
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
}
