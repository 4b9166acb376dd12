//! Writing destinations: a temp records its new value, an indexable temp
//! or memory is stored to, and an output write waits (`pending_outputs`)
//! until it can be stored as one vector.

use super::*;

impl<'a> Lower<'a> {
    /// Writes `value` (vec4 of kind `k`) to the components `dst` masks.
    pub(crate) fn write(&mut self, dst: &Operand, value: H, k: K, saturate: bool) -> Result<(), TranslateError> {
        let ty = dst.operand_type();
        if ty == Some(OT::Null) || self.static_out_of_bounds(dst) {
            return Ok(());
        }
        if !matches!(
            ty,
            Some(
                OT::Temp
                    | OT::Output
                    | OT::IndexableTemp
                    | OT::OutputDepth
                    | OT::OutputCoverageMask
                    | OT::OutputDepthGreaterEqual
                    | OT::OutputDepthLessEqual
                    | OT::OutputStencilRef
            )
        ) {
            let name = ty.map_or("unknown", |t| t.row().spec_name);
            return malformed(format!("{name} register used as a destination"), dst.offset as usize);
        }
        let mut value = value;
        if saturate && k == K::F {
            value = self.math(M::Saturate, value, None, None);
        }
        let mask = self.dst_mask_of(dst);
        let lanes = self.lanes;
        if ty == Some(OT::Temp) {
            if !Self::is_static(dst, 0) {
                return malformed("temp register with a relative index", dst.offset as usize);
            }
            return self.write_temp(dst.index[0].imm as u32, mask, value, k, lanes, dst.offset as usize);
        }
        if ty == Some(OT::Output) && self.defers_outputs() && dst.index_dim() == 1 && Self::is_static(dst, 0) {
            let reg = u32::try_from(dst.index[0].imm).unwrap_or(u32::MAX);
            let g = self.output(reg);
            let bits = self.bitcast(value, k, self.global_kind(g));
            let span = self.span;
            let at = match self.pending_outputs.binary_search_by_key(&reg, |p| p.0) {
                Ok(at) => at,
                Err(at) => {
                    self.pending_outputs.insert(at, (reg, [None; 4]));
                    at
                }
            };
            let pending = &mut self.pending_outputs[at].1;
            let mut lane = 0;
            for c in 0..4u32 {
                if mask & (1 << c) != 0 {
                    let comp = match lanes {
                        1 => None,
                        4 => Some(c),
                        _ => Some(lane),
                    };
                    lane += 1;
                    pending[c as usize] = Some((bits, comp, lanes as u8, span));
                }
            }
            return Ok(());
        }
        let Some(ptr) = self.pointer(dst)? else {
            return malformed("an immediate used as a destination", dst.offset as usize);
        };
        // After `pointer`, which makes the register's global.
        let memory = self.memory_kind(dst);
        let bits = self.bitcast(value, k, memory);
        if mask == 0xf && lanes == 4 {
            self.stmt(S::Store { pointer: ptr, value: bits });
        } else if mask == 0xf && lanes == 1 {
            let v = self.e(E::Splat { size: VectorSize::Quad, value: bits });
            self.stmt(S::Store { pointer: ptr, value: v });
        } else {
            let mut lane = 0;
            for c in 0..4 {
                if mask & (1 << c) != 0 {
                    let p = self.e(E::AccessIndex { base: ptr, index: c });
                    let v = match lanes {
                        1 => bits,
                        4 => self.component(bits, c),
                        _ => self.component(bits, lane),
                    };
                    lane += 1;
                    self.stmt(S::Store { pointer: p, value: v });
                }
            }
        }
        Ok(())
    }

    /// Whether output-register writes wait for the end of their block (not
    /// in a hull or domain pass, whose outputs are stage-buffer pointers).
    fn defers_outputs(&self) -> bool {
        self.io.as_ref().is_none_or(|io| io.tess.is_none())
    }

    /// Stores the pending output writes: one store of the whole register
    /// when its four components are pending, else one per component.
    pub(crate) fn flush_outputs(&mut self) {
        if self.pending_outputs.is_empty() {
            return;
        }
        let mut pending = std::mem::take(&mut self.pending_outputs);
        let span = self.span;
        for (reg, mut lanes) in pending.drain(..) {
            let g = self.output(reg);
            // In a native stage, components no instruction writes stay
            // zero: with them the register is whole.
            let written = self.output_writes.get(&reg).copied().unwrap_or(0xf);
            if self.io.is_none() && (0..4).all(|c| lanes[c].is_some() || written & (1 << c) == 0) {
                let kind = self.global_kind(g);
                let at = lanes.iter().flatten().map(|l| l.3).next().unwrap_or(span);
                for lane in lanes.iter_mut().filter(|l| l.is_none()) {
                    let zero = crate::regs::literal(self, 0, kind);
                    *lane = Some((zero, None, 1, at));
                }
            }
            if let [Some(a), Some(b), Some(c), Some(d)] = lanes {
                let lanes = [a, b, c, d];
                // The store belongs to the last write that completed it.
                self.span =
                    lanes.iter().map(|l| l.3).max_by_key(|s| s.to_range().map_or(0, |r| r.start)).unwrap_or(span);
                let value = self.gather_pending(&lanes, g);
                let pointer = self.e(E::GlobalVariable(g));
                self.stmt(S::Store { pointer, value });
            } else {
                for (c, lane) in lanes.iter().enumerate() {
                    let Some((h, comp, _, at)) = *lane else { continue };
                    self.span = at;
                    let base = self.e(E::GlobalVariable(g));
                    let pointer = self.e(E::AccessIndex { base, index: c as u32 });
                    let value = match comp {
                        Some(i) => self.component(h, i),
                        None => h,
                    };
                    self.stmt(S::Store { pointer, value });
                }
            }
        }
        // The buffer is kept for the next writes (nothing above writes one).
        if self.pending_outputs.is_empty() {
            self.pending_outputs = pending;
        }
        self.span = span;
    }

    /// The vec4 four pending lanes make: the value itself when it is one
    /// vec4 in order, a splat of one scalar, else a compose in which a
    /// whole narrower vector written in order stays whole (`vec4(a, b.w)`).
    fn gather_pending(&mut self, lanes: &[PendingLane; 4], g: Handle<GlobalVariable>) -> H {
        let first = lanes[0].0;
        let same = lanes.iter().all(|l| l.0 == first);
        // Lanes 0..4 of one value in order: it is a vec4.
        if same && lanes.iter().enumerate().all(|(i, l)| l.1 == Some(i as u32)) {
            return first;
        }
        if same && lanes.iter().all(|l| l.1.is_none()) {
            return self.e(E::Splat { size: VectorSize::Quad, value: first });
        }
        let mut components = Vec::with_capacity(4);
        let mut i = 0;
        while i < 4 {
            let (h, comp, width, _) = lanes[i];
            let w = usize::from(width);
            let whole = comp == Some(0)
                && w > 1
                && i + w <= 4
                && (0..w).all(|j| lanes[i + j].0 == h && lanes[i + j].1 == Some(j as u32));
            if whole {
                components.push(h);
                i += w;
                continue;
            }
            components.push(match comp {
                Some(c) => self.component(h, c),
                None => h,
            });
            i += 1;
        }
        let ty = self.module.global_variables[g].ty;
        self.e(E::Compose { ty, components })
    }
}
