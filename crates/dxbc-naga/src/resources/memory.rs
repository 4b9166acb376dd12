//! Word-addressed memory: raw and structured buffers and group-shared
//! memory (loads, stores, bounds, atomics), typed UAV loads and stores,
//! `bufinfo`, and the `sync` barriers.

use super::textures::not_a;
use super::*;

impl Lower<'_> {
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
        // Two accesses at one address compute its word once (while the
        // block that computed it is open: the loads cache's scope).
        let bin = |l: &mut Self, op: B, a: H, b: H| {
            let right = match l.f.expressions[b] {
                E::Literal(naga::Literal::U32(v)) => (v, true),
                _ => (b.index() as u32, false),
            };
            let key = crate::regs::LoadKey::Word(op as u8, a.index() as u32, right.0, right.1);
            if let Some(&h) = l.loads.get(&key) {
                return h;
            }
            let h = if folds { l.bin_folded(op, a, b) } else { l.bin(op, a, b) };
            l.loads.insert(key, h);
            h
        };
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
    pub(super) fn typed_words(&mut self, op: &Operand) -> Result<Option<Words>, TranslateError> {
        match self.words.get(&(op.ty(), res_id(op))).copied().filter(|w| w.typed) {
            Some(mut w) => {
                w.elem = self.resource_element(w.g, op)?;
                Ok(Some(w))
            }
            None => Ok(None),
        }
    }

    /// A typed UAV texture at an operand, with the element the use names
    /// (an operand of another register file is malformed).
    pub(crate) fn storage_texture(&mut self, op: &Operand) -> Result<Option<StorageTex>, TranslateError> {
        if op.ty() != U {
            return malformed(not_a(op, "UAV"), op.offset as usize);
        }
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
    /// else `arrayLength` and the last index (made once per function, or per
    /// instruction for an element of a binding array).
    fn word_count(&mut self, w: &Words) -> WordCount {
        let g = self.handle_of(w.g, w.elem);
        match self.group_shared_words(w) {
            Some(n) => WordCount::Workgroup(n),
            None => {
                let (n, last) = match w.elem {
                    None => (self.array_length(w.g), self.last_index(w.g)),
                    Some(_) => {
                        let n = self.e(E::ArrayLength(g));
                        let one = self.lit_u(1);
                        (n, self.bin(B::Subtract, n, one))
                    }
                };
                WordCount::Runtime { n, last }
            }
        }
    }

    /// The number of words of a group-shared region (`None` for buffers).
    fn group_shared_words(&self, w: &Words) -> Option<u32> {
        let global = &self.module.global_variables[w.g];
        if global.space != AddressSpace::WorkGroup {
            return None;
        }
        match self.module.types[global.ty].inner {
            TypeInner::Array { size: ArraySize::Constant(n), .. } => Some(n.get()),
            _ => None,
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
    pub(super) fn typed_element(&mut self, w: &Words, addr: H) -> H {
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
        let ptr = match self.group_shared_words(&w) {
            // A literal word past the end of group-shared memory: no word
            // is touched (as a store there is dropped) and the old value
            // reads 0 (as a load there does).
            Some(n) if matches!(self.f.expressions[idx], E::Literal(Literal::U32(word)) if word >= n) => {
                if imm {
                    let zero = crate::regs::literal(self, 0, k);
                    let s = self.splat(zero);
                    let d = self.op(ins, 0)?;
                    self.write(d, s, k, false)?;
                }
                return Ok(());
            }
            _ => self.word_ptr(&w, idx),
        };
        let v1 = {
            let o = self.op(ins, base + 2)?;
            let v = self.read(o, k)?;
            self.component(v, 0)
        };
        if minmax_signedness(code) == Some(K::I) && k == K::U {
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
        let (fun, value) = match (rmw_function(code), code) {
            (Some(f), _) => (f, v1),
            (None, O::ImmAtomicExch) => (AtomicFunction::Exchange { compare: None }, v1),
            (None, O::AtomicCmpStore | O::ImmAtomicCmpExch) => {
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
        let (coordinate, array_index) = self.storage_coordinate(&st, addr);
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
        let (coordinate, array_index) = self.storage_coordinate(&st, addr);
        let image = self.handle_of(st.g, st.elem);
        self.stmt(S::ImageStore { image, coordinate, array_index, value });
        Ok(())
    }

    /// An atomic on a typed UAV texture. naga's image atomics return
    /// nothing and do not exchange: an `imm_atomic_*` (which returns the
    /// texel's old value) or an exchange is written as the image atomic
    /// (an add for the exchanges) and a mark after it (`spirv_marks`), from
    /// which SPIR-V gets the result and the exchange; the other targets
    /// refuse it.
    fn texture_atomic(
        &mut self,
        ins: &Instruction,
        code: O,
        st: StorageTex,
        base: usize,
    ) -> Result<(), TranslateError> {
        use crate::spirv_marks as m;
        let at = ins.offset as usize;
        let (fun, how) = match (rmw_function(code), code) {
            (Some(f), _) => (f, 0),
            (None, O::ImmAtomicExch) => (AtomicFunction::Add, m::ATOMIC_EXCHANGE),
            (None, O::AtomicCmpStore | O::ImmAtomicCmpExch) => (AtomicFunction::Add, m::ATOMIC_COMPARE_EXCHANGE),
            _ => return malformed(format!("{} is not an atomic instruction", code.info().asm), at),
        };
        let addr = {
            let o = self.op(ins, base + 1)?;
            self.read(o, K::U)?
        };
        let scalar = |l: &mut Self, i: usize| -> Result<H, TranslateError> {
            let o = l.op(ins, base + i)?;
            let v = l.read(o, st.k)?;
            Ok(l.component(v, 0))
        };
        // cmp_store / cmp_exch: the comparator first, then the new value.
        let (value, comparator) = if how == m::ATOMIC_COMPARE_EXCHANGE {
            let c = scalar(self, 2)?;
            (scalar(self, 3)?, Some(c))
        } else {
            (scalar(self, 2)?, None)
        };
        let (coordinate, array_index) = self.storage_coordinate(&st, addr);
        let image = self.handle_of(st.g, st.elem);
        self.stmt(S::ImageAtomic { image, coordinate, array_index, fun, value });
        let imm = returns_old_value(code);
        let asm = code.info().asm;
        // The old value and the exchanges (written as an add) need the mark.
        if imm || how != 0 {
            self.target_refusal(L::TypedUavAtomicResults, format!("{asm} on a typed UAV texture"), at);
        }
        // naga's min and max compare as the image's type is signed; D3D's
        // opcode says how.
        let how = if minmax_signedness(code).is_some_and(|s| (s == K::I) != (st.k == K::I)) {
            let detail = format!("{asm} on a typed UAV texture of the other signedness");
            self.target_refusal(L::TypedUavAtomicSignedness, detail, at);
            m::ATOMIC_OTHER_SIGNEDNESS
        } else {
            how
        };
        if !imm && how == 0 {
            return Ok(());
        }
        let ty = match st.k {
            K::I => self.ty(TypeInner::Scalar(Scalar::I32)),
            _ => self.t.u32,
        };
        let extra: Vec<(H, naga::Handle<naga::Type>)> = comparator.map(|c| (c, ty)).into_iter().collect();
        let old = self.spirv_mark(m::IMAGE_ATOMIC | how, value, ty, &extra);
        if imm {
            let s = self.splat(old);
            let d = self.op(ins, 0)?;
            self.write(d, s, st.k, false)?;
        }
        Ok(())
    }

    /// A typed UAV texture's coordinate and array layer from an address
    /// (a 1D array's as the 2D array it is declared as).
    fn storage_coordinate(&mut self, st: &StorageTex, addr: H) -> (H, Option<H>) {
        let (n, arrayed) = Self::coord_shape(st.dim);
        let ai = self.bitcast(addr, K::U, K::I);
        let coordinate = self.sub_vector(ai, n);
        let coordinate = self.as_2d(st.dim, coordinate, Literal::I32(0));
        let array_index = if arrayed { Some(self.component(ai, n)) } else { None };
        (coordinate, array_index)
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
        let at = ins.offset as usize;
        // The table lists sync's four flags in this order.
        let [threads, group_memory, uav_group, uav_global] = SYNC_CONTROLS else {
            return malformed("sync controls", at);
        };
        if self.stage != naga::ShaderStage::Compute {
            // Outside compute there is no group to wait for or share
            // memory with, only a fence on UAVs (`sync_uglobal`), which
            // naga's IR lacks: a mark gives SPIR-V its `OpMemoryBarrier`.
            if threads.get(t) != 0 || group_memory.get(t) != 0 {
                return unsupported(L::BarrierOutsideCompute, "group barriers outside compute shaders", at);
            }
            if uav_group.get(t) != 0 || uav_global.get(t) != 0 {
                self.target_refusal(L::BarrierOutsideCompute, "a UAV memory fence outside compute shaders", at);
                let u32_ty = self.t.u32;
                let zero = self.lit_u(0);
                // Device scope; acquire-release of uniform and image memory
                // (the two a UAV is).
                let scope = self.lit_u(1);
                let semantics = self.lit_u(0x8 | 0x40 | 0x800);
                self.spirv_mark(
                    crate::spirv_marks::MEMORY_BARRIER,
                    zero,
                    u32_ty,
                    &[(scope, u32_ty), (semantics, u32_ty)],
                );
            }
            return Ok(());
        }
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
        Ok(())
    }
}
