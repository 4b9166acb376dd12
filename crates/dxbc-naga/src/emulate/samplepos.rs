//! `samplepos dst, t#, index`: a sample's position in the pixel, from the
//! standard D3D sample patterns (`D3D11_STANDARD_MULTISAMPLE_PATTERN`, the
//! same as Vulkan's standard sample locations) for 1, 2, 4, 8 and 16
//! samples, in sixteenths of a pixel relative to the pixel centre.
//!
//! The sample count comes from the resource (`textureNumSamples`); the
//! table is laid out by count so that entry `count − 1 + index` is the
//! position. A count with no standard pattern, an index past the count, or
//! a resource that is not multisampled gives (0, 0), as D3D specifies for
//! out-of-range queries. Every entry is a multiple of 1/16, exact in f32.
//! `samplepos` of the rasterizer (its sample count is not visible to
//! WGSL) stays refused.

use crate::lower::{unsupported, Lower, K};
use crate::resources::T;
use crate::Limitation as L;
use crate::TranslateError;
use dxbc::program::Instruction;
use dxbc::spec::ResourceDimension as RD;
use naga::{
    AddressSpace, ArraySize, BinaryOperator as B, Expression as E, GlobalVariable, ImageQuery, Literal, Scalar, Span,
    TypeInner, VectorSize,
};

/// The standard positions for counts 1, 2, 4, 8, 16, concatenated, in
/// sixteenths of a pixel: entry `count − 1 + index`.
pub(crate) const STANDARD_POSITIONS: [(i8, i8); 31] = [
    // 1 sample
    (0, 0),
    // 2 samples
    (4, 4),
    (-4, -4),
    // 4 samples
    (-2, -6),
    (6, -2),
    (-6, 2),
    (2, 6),
    // 8 samples
    (1, -3),
    (-1, 3),
    (5, 1),
    (-3, -5),
    (-5, 5),
    (-7, -1),
    (3, 7),
    (7, -7),
    // 16 samples
    (1, 1),
    (-1, -3),
    (-3, 2),
    (4, -1),
    (-5, -2),
    (2, 5),
    (5, 3),
    (3, -5),
    (-2, 6),
    (0, -7),
    (-4, -6),
    (-6, 4),
    (-8, 0),
    (7, -4),
    (6, 7),
    (-7, -8),
];

/// The position of sample `index` of `count`, in pixels from the centre,
/// or (0, 0) where D3D gives no position (the shader computes the same).
pub fn standard_sample_position(count: u32, index: u32) -> (f32, f32) {
    if !matches!(count, 1 | 2 | 4 | 8 | 16) || index >= count {
        return (0.0, 0.0);
    }
    let (x, y) = STANDARD_POSITIONS[(count - 1 + index) as usize];
    (f32::from(x) / 16.0, f32::from(y) / 16.0)
}

impl Lower<'_> {
    pub(crate) fn samplepos(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let res = self.op(ins, 1)?;
        if res.ty() != T {
            return unsupported(L::SamplePosition, "samplepos of the rasterizer (its sample count is unknown)", at);
        }
        let tex = self.texture(res)?;
        let d = self.op(ins, 0)?;
        if !matches!(tex.dim, RD::Texture2dms | RD::Texture2dmsarray) {
            let z = self.splat_f(0.0);
            let z = self.resource_swizzle(res, z);
            return self.write(d, z, K::F, false);
        }
        let index = {
            let o = self.op(ins, 2)?;
            let v = self.read(o, K::U)?;
            self.component(v, 0)
        };
        let table = self.sample_position_table();
        let image = self.handle_of(tex.g, tex.elem);
        let count = self.e(E::ImageQuery { image, query: ImageQuery::NumSamples });
        // Standard counts are the powers of two up to 16.
        let one = self.lit_u(1);
        let count_minus_one = self.bin(B::Subtract, count, one);
        let power_of_two_bits = self.bin(B::And, count, count_minus_one);
        let zero = self.lit_u(0);
        let power_of_two = self.bin(B::Equal, power_of_two_bits, zero);
        let sixteen = self.lit_u(16);
        let at_most_16 = self.bin(B::LessEqual, count, sixteen);
        let in_range = self.bin(B::Less, index, count);
        let standard = self.bin(B::LogicalAnd, power_of_two, at_most_16);
        let valid = self.bin(B::LogicalAnd, standard, in_range);
        let entry = self.bin(B::Add, count_minus_one, index);
        let entry = self.select(valid, entry, zero);
        let base = self.e(E::GlobalVariable(table));
        let ptr = self.e(E::Access { base, index: entry });
        let xy = self.e(E::Load { pointer: ptr });
        let x = self.component(xy, 0);
        let y = self.component(xy, 1);
        let fz = self.e(E::Literal(Literal::F32(0.0)));
        let x = self.select(valid, x, fz);
        let y = self.select(valid, y, fz);
        let ty = self.t.vec4f;
        let v = self.e(E::Compose { ty, components: vec![x, y, fz, fz] });
        let v = self.resource_swizzle(res, v);
        self.write(d, v, K::F, false)?;
        self.emulations.insert(crate::Emulation::SamplePositions);
        Ok(())
    }

    /// The private array of standard positions (declared once).
    fn sample_position_table(&mut self) -> naga::Handle<GlobalVariable> {
        if let Some((h, _)) =
            self.module.global_variables.iter().find(|(_, g)| g.name.as_deref() == Some("d3d_sample_positions"))
        {
            return h;
        }
        let vec2 = self.ty(TypeInner::Vector { size: VectorSize::Bi, scalar: Scalar::F32 });
        let n = std::num::NonZeroU32::new(STANDARD_POSITIONS.len() as u32).unwrap_or(std::num::NonZeroU32::MIN);
        let array = self.ty(TypeInner::Array { base: vec2, size: ArraySize::Constant(n), stride: 8 });
        let ge = &mut self.module.global_expressions;
        let entries = STANDARD_POSITIONS
            .iter()
            .map(|&(x, y)| {
                let x = ge.append(E::Literal(Literal::F32(f32::from(x) / 16.0)), Span::UNDEFINED);
                let y = ge.append(E::Literal(Literal::F32(f32::from(y) / 16.0)), Span::UNDEFINED);
                ge.append(E::Compose { ty: vec2, components: vec![x, y] }, Span::UNDEFINED)
            })
            .collect();
        let init = ge.append(E::Compose { ty: array, components: entries }, Span::UNDEFINED);
        self.module.global_variables.append(
            GlobalVariable {
                name: Some("d3d_sample_positions".into()),
                space: AddressSpace::Private,
                binding: None,
                ty: array,
                init: Some(init),
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_inside_the_pixel_and_distinct() {
        for count in [1u32, 2, 4, 8, 16] {
            let mut seen = std::collections::BTreeSet::new();
            for i in 0..count {
                let (x, y) = standard_sample_position(count, i);
                assert!((-0.5..0.5).contains(&x) && (-0.5..0.5).contains(&y), "{count}:{i}");
                assert!(seen.insert(((x * 16.0) as i32, (y * 16.0) as i32)), "{count}:{i} repeats");
            }
        }
        // D3D's 4-sample rotated grid, and out-of-range queries.
        assert_eq!(standard_sample_position(4, 0), (-0.125, -0.375));
        assert_eq!(standard_sample_position(4, 3), (0.125, 0.375));
        assert_eq!(standard_sample_position(4, 4), (0.0, 0.0));
        assert_eq!(standard_sample_position(3, 0), (0.0, 0.0));
    }
}
