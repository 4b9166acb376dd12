//! 1D texture arrays as 2D arrays of height 1.
//!
//! WGSL has no 1D array textures. A `Texture1DArray` / `RWTexture1DArray`
//! is declared as a 2D array texture and the pipeline binds a 2D array of
//! height 1 (the binding's `view_dimension` says `2d-array`). Every access
//! gains a second coordinate:
//!
//! * sampling uses v = 0.5, the centre of the only row. For any address mode
//!   and filter, v·height − 0.5 = 0 there, so row 0 has weight 1 at every
//!   mip level (all levels of a height-1 texture have height 1), and the
//!   derivative of a constant v is 0, so the LOD is that of u alone, as
//!   D3D computes it for 1D textures. Explicit gradients get dv = 0;
//!   immediate offsets get 0 in v.
//! * `ld` and typed UAV accesses use texel row 0.
//! * `resinfo` returns the width (the x of the 2D size), the layer count
//!   and the level count, as D3D returns them for 1D arrays.

use crate::lower::{Lower, H};
use dxbc::spec::ResourceDimension as RD;
use naga::{Expression as E, ImageDimension, Literal, Scalar, TypeInner, VectorSize};

/// The WebGPU view dimension a pipeline binds for a naga image.
pub(crate) fn view_dimension(dim: ImageDimension, arrayed: bool) -> &'static str {
    match (dim, arrayed) {
        (ImageDimension::D1, _) => "1d",
        (ImageDimension::D2, false) => "2d",
        (ImageDimension::D2, true) => "2d-array",
        (ImageDimension::D3, _) => "3d",
        (ImageDimension::Cube, false) => "cube",
        (ImageDimension::Cube, true) => "cube-array",
    }
}

impl Lower<'_> {
    /// For a 1D array, the scalar `v` (coordinate, offset or gradient)
    /// widened to a 2-vector with `second` as its y; anything else as is.
    pub(crate) fn as_2d(&mut self, dim: RD, v: H, second: Literal) -> H {
        if dim != RD::Texture1darray {
            return v;
        }
        let scalar = match second {
            Literal::I32(_) => Scalar::I32,
            Literal::U32(_) => Scalar::U32,
            _ => Scalar::F32,
        };
        let y = self.e(E::Literal(second));
        let ty = self.ty(TypeInner::Vector { size: VectorSize::Bi, scalar });
        self.e(E::Compose { ty, components: vec![v, y] })
    }
}
