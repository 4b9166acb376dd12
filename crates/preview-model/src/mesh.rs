//! Built-in meshes for previewing vertex shaders: a plane, a cube and a UV
//! sphere, each with every attribute a vertex shader might ask for, so the
//! signature matching in [`crate::vertex`] never has to invent geometry.
//!
//! Conventions: right-handed, y up, sized to fill the default camera's
//! view ([`crate::math::DEFAULT_EYE`]) without clipping, triangle lists
//! with counter-clockwise front faces seen from outside, uv (0, 0) at the
//! top-left of each face (D3D texture space), tangents along +u with
//! handedness in w. Colours are pastel, derived from the normal, so
//! lighting-free shaders still show shape.

use crate::math;
use serde::Serialize;

/// Fewest and most segments [`uv_sphere`] builds.
pub const SPHERE_SEGMENTS: std::ops::RangeInclusive<u32> = 3..=256;

/// Which built-in mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MeshKind {
    /// A 2 × 2 square in the xy plane facing +z.
    Plane,
    /// A cube of side 1.2 centred at the origin.
    Cube,
    /// A sphere of radius 0.8 with this many segments around (half as many rings).
    Sphere {
        /// Segments around the equator.
        segments: u32,
    },
}

impl MeshKind {
    /// Builds the mesh.
    pub fn build(self) -> Mesh {
        match self {
            MeshKind::Plane => plane(),
            MeshKind::Cube => cube(),
            MeshKind::Sphere { segments } => uv_sphere(segments),
        }
    }
}

/// Geometry with every per-vertex attribute; all vectors have the same length.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mesh {
    /// Object-space positions.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Vec<[f32; 3]>,
    /// Unit tangents (+u direction), handedness in w.
    pub tangents: Vec<[f32; 4]>,
    /// Texture coordinates.
    pub uvs: Vec<[f32; 2]>,
    /// RGBA colours.
    pub colors: Vec<[f32; 4]>,
    /// Triangle list, counter-clockwise front faces.
    pub indices: Vec<u32>,
}

impl Mesh {
    fn push(&mut self, p: [f32; 3], n: [f32; 3], t: [f32; 3], uv: [f32; 2]) {
        self.positions.push(p);
        self.normals.push(n);
        self.tangents.push([t[0], t[1], t[2], 1.0]);
        self.uvs.push(uv);
        self.colors.push([0.55 + 0.4 * n[0], 0.55 + 0.4 * n[1], 0.55 + 0.4 * n[2], 1.0]);
    }

    fn empty() -> Mesh {
        Mesh {
            positions: Vec::new(),
            normals: Vec::new(),
            tangents: Vec::new(),
            uvs: Vec::new(),
            colors: Vec::new(),
            indices: Vec::new(),
        }
    }

    /// Adds a square face: `centre`, half-extent vectors `right` (+u) and
    /// `up` (−v); the normal is `right × up`.
    fn face(&mut self, centre: [f32; 3], right: [f32; 3], up: [f32; 3]) {
        let base = self.positions.len() as u32;
        let n = math::normalize(math::cross(right, up));
        let t = math::normalize(right);
        for (su, sv, uv) in
            [(-1.0, 1.0, [0.0, 0.0]), (-1.0, -1.0, [0.0, 1.0]), (1.0, -1.0, [1.0, 1.0]), (1.0, 1.0, [1.0, 0.0])]
        {
            let p = [0, 1, 2].map(|k| centre[k] + su * right[k] + sv * up[k]);
            self.push(p, n, t, uv);
        }
        // Top-left, bottom-left, bottom-right, top-right: counter-clockwise seen from +n.
        self.indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
}

/// A 2 × 2 square in the xy plane, facing +z (towards the default camera).
pub fn plane() -> Mesh {
    let mut m = Mesh::empty();
    m.face([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    m
}

/// `k × k` points over [`plane`]'s square, row by row from the top left
/// (u along +x, v down, as the plane's uvs): the control points of a
/// bicubic (k = 4) or biquadratic (k = 3) patch. No indices.
pub fn patch_grid(k: u32) -> Mesh {
    let mut m = Mesh::empty();
    let last = k.saturating_sub(1).max(1) as f32;
    for row in 0..k {
        for col in 0..k {
            let (u, v) = (col as f32 / last, row as f32 / last);
            m.push([2.0 * u - 1.0, 1.0 - 2.0 * v, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [u, v]);
        }
    }
    m
}

/// A cube of side 1.2: 24 vertices (4 per face, so normals and uvs are per face), 36 indices.
pub fn cube() -> Mesh {
    let h = 0.6;
    let mut m = Mesh::empty();
    m.face([0.0, 0.0, h], [h, 0.0, 0.0], [0.0, h, 0.0]); // +z
    m.face([0.0, 0.0, -h], [-h, 0.0, 0.0], [0.0, h, 0.0]); // −z
    m.face([h, 0.0, 0.0], [0.0, 0.0, -h], [0.0, h, 0.0]); // +x
    m.face([-h, 0.0, 0.0], [0.0, 0.0, h], [0.0, h, 0.0]); // −x
    m.face([0.0, h, 0.0], [h, 0.0, 0.0], [0.0, 0.0, -h]); // +y
    m.face([0.0, -h, 0.0], [h, 0.0, 0.0], [0.0, 0.0, h]); // −y
    m
}

/// A UV sphere of radius 0.8 with `segments` around (clamped to
/// [`SPHERE_SEGMENTS`]) and `segments / 2` rings; the seam and poles have
/// duplicated vertices so uvs are continuous.
pub fn uv_sphere(segments: u32) -> Mesh {
    let segs = segments.clamp(*SPHERE_SEGMENTS.start(), *SPHERE_SEGMENTS.end());
    let rings = (segs / 2).max(2);
    let r = 0.8;
    let mut m = Mesh::empty();
    for ring in 0..=rings {
        let v = ring as f32 / rings as f32;
        let theta = v * std::f32::consts::PI; // 0 at the north pole
        for seg in 0..=segs {
            let u = seg as f32 / segs as f32;
            let phi = u * std::f32::consts::TAU;
            // u grows eastwards seen from outside: counter-clockwise about +y from +z.
            let n = [theta.sin() * phi.sin(), theta.cos(), theta.sin() * phi.cos()];
            let t = [phi.cos(), 0.0, -phi.sin()];
            m.push(n.map(|c| c * r), n, t, [u, v]);
        }
    }
    let row = segs + 1;
    for ring in 0..rings {
        for seg in 0..segs {
            let a = ring * row + seg; // top-left
            let b = a + row; // bottom-left
            let (c, d) = (b + 1, a + 1); // bottom-right, top-right
            if ring != 0 {
                m.indices.extend([a, b, d]);
            }
            if ring != rings - 1 {
                m.indices.extend([d, b, c]);
            }
        }
    }
    m
}
