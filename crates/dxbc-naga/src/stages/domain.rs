//! Domain shaders over the tessellator's output (see `hull.rs` for the
//! passes).
//!
//! The *domain points* buffer ([`crate::StageBufferRole::DomainPoints`])
//! holds one `vec4<u32>` per point: words 0, 1, 2 are the domain location
//! (u, v, w) as f32 bits (w is 0 outside the triangle domain), word 3 the
//! patch index. As a vertex shader ([`crate::StageForm::DrawFromBuffer`])
//! vertex `vertex_index` is point `vertex_index`; as compute
//! ([`crate::StageForm::Compute`]) invocation `i` is point `i` and writes
//! its output registers to record `i` of the stage output buffer (what a
//! geometry pass after it reads). `vDomain` is words 0–2, `vPrimitiveID`
//! word 3; `vicp[i][r]` reads record `patch × n + i` of the control points
//! buffer (`n` = `dcl_input_control_point_count`, the hull shader's output
//! control points), `vpc[r]` record `patch` of the patch constants buffer.
//! The vertex form's outputs are a vertex shader's: SV_Position as the
//! position, the others at location = register, so the pixel shader links
//! to it exactly as to a vertex shader.

use crate::lower::{malformed, Lower};
use crate::*;
use dxbc::spec::OperandType as OT;
use naga::{Expression as E, GlobalVariable, Handle, Statement as S};

/// 32-bit words per domain point record.
pub const DOMAIN_POINT_WORDS: u32 = 4;

impl Lower<'_> {
    /// Fills vDomain and vPrimitiveID from the invocation's domain point.
    pub(crate) fn domain_prologue(
        &mut self,
        domain_points: Option<Handle<GlobalVariable>>,
    ) -> Result<(), TranslateError> {
        let Some(dps) = domain_points else { return malformed("no domain points", self.p.offset) };
        let id = self.invocation_index()?;
        let base = self.e(E::GlobalVariable(dps));
        let ptr = self.e(E::Access { base, index: id });
        let rec = self.e(E::Load { pointer: ptr });
        let patch = self.component(rec, 3);
        let patch4 = self.splat(patch);
        for (ty, v) in [(OT::InputDomainPoint, rec), (OT::InputPrimitiveid, patch4)] {
            if let Some(&g) = self.tess().and_then(|t| t.specials.get(&ty)) {
                let ptr = self.e(E::GlobalVariable(g));
                self.stmt(S::Store { pointer: ptr, value: v });
            }
        }
        Ok(())
    }
}
