//! The draw of a geometry pass: a vertex shader that pulls record
//! `vertex_index` of the geometry pass's output and outputs its registers as
//! the GS output signature (stream 0) says, so the pixel shader links to it
//! as to any vertex shader. The entry point is the ordinary vertex one
//! (`lower/`), with `vertex_index` as its one input.

use super::REGISTER_STRIDE;
use crate::lower::{malformed, Lower};
use crate::*;
use naga::{BinaryOperator as B, Expression as E, Statement as S};

impl Lower<'_> {
    /// The body of the draw: `o_r = records[vertex_index * stride + r]` for
    /// every output register of stream 0.
    pub(crate) fn pull_body(&mut self, shader: &dxbc::Shader) -> Result<(), TranslateError> {
        let Some(io) = &self.io else { return malformed("no stage buffers", self.p.offset) };
        let (input, index) = (io.input, io.index);
        let mut regs: Vec<u32> = shader
            .output_signature
            .iter()
            .flat_map(|s| &s.elements)
            .filter(|e| e.register != u32::MAX && e.stream.unwrap_or(0) == 0)
            .map(|e| e.register)
            .collect();
        regs.sort_unstable();
        regs.dedup();
        if let Some(&r) = regs.iter().find(|&&r| r >= REGISTER_STRIDE) {
            return malformed(format!("output register o{r} (D3D has {REGISTER_STRIDE})"), self.p.offset);
        }
        let g = self.e(E::GlobalVariable(index));
        let v = self.e(E::Load { pointer: g });
        let vertex = self.component(v, 0);
        let stride = self.lit_u(REGISTER_STRIDE);
        let first = self.bin(B::Multiply, vertex, stride);
        for r in regs {
            let rl = self.lit_u(r);
            let i = self.bin(B::Add, first, rl);
            let base = self.e(E::GlobalVariable(input));
            let ptr = self.e(E::Access { base, index: i });
            let value = self.e(E::Load { pointer: ptr });
            let o = self.output(r);
            let out = self.e(E::GlobalVariable(o));
            self.stmt(S::Store { pointer: out, value });
        }
        self.finish_body();
        Ok(())
    }
}
