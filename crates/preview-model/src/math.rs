//! The little linear algebra the matrix presets need.
//!
//! Matrices are `[[f32; 4]; 4]` indexed `m[row][column]` — the *logical*
//! HLSL matrix, before the constant-buffer packing decides whether rows or
//! columns go into 16-byte registers. The presets follow the D3D row-vector
//! convention (`mul(v, M)`, translation in row 3), which is what
//! DirectXMath-era shaders (the DirectXTK effects among them) expect; the
//! column-vector convention (`mul(M, v)`) is the transpose.

/// A logical 4×4 matrix, `m[row][column]`.
pub type Mat4 = [[f32; 4]; 4];

/// The camera every preset and built-in mesh is framed for: right-handed,
/// y up, looking at the origin from slightly above and to the right.
pub const DEFAULT_EYE: [f32; 3] = [1.6, 1.2, 2.8];
/// Point the default camera looks at.
pub const DEFAULT_TARGET: [f32; 3] = [0.0, 0.0, 0.0];
/// Up direction of the default camera.
pub const DEFAULT_UP: [f32; 3] = [0.0, 1.0, 0.0];
/// Vertical field of view of the default projection, in radians (60°).
pub const DEFAULT_FOV_Y: f32 = std::f32::consts::FRAC_PI_3;
/// Near plane of the default projection.
pub const DEFAULT_NEAR: f32 = 0.1;
/// Far plane of the default projection.
pub const DEFAULT_FAR: f32 = 100.0;

/// The identity.
pub fn identity() -> Mat4 {
    let mut m = [[0.0; 4]; 4];
    for (i, row) in m.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    m
}

/// Product `a · b` (with row vectors, `v · a · b` applies `a` first).
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut m = [[0.0; 4]; 4];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = (0..4).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    m
}

/// Transpose: switches between the row- and column-vector conventions.
pub fn transpose(a: &Mat4) -> Mat4 {
    let mut m = [[0.0; 4]; 4];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = a[c][r];
        }
    }
    m
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn normalize(a: [f32; 3]) -> [f32; 3] {
    let l = dot(a, a).sqrt();
    if l > 0.0 {
        [a[0] / l, a[1] / l, a[2] / l]
    } else {
        a
    }
}

/// Right-handed view matrix (row-vector convention), like
/// `XMMatrixLookAtRH`: world → view space with the camera looking down −z.
pub fn look_at_rh(eye: [f32; 3], target: [f32; 3], up: [f32; 3]) -> Mat4 {
    let z = normalize(sub(eye, target));
    let x = normalize(cross(up, z));
    let y = cross(z, x);
    [
        [x[0], y[0], z[0], 0.0],
        [x[1], y[1], z[1], 0.0],
        [x[2], y[2], z[2], 0.0],
        [-dot(x, eye), -dot(y, eye), -dot(z, eye), 1.0],
    ]
}

/// Right-handed perspective projection (row-vector convention) onto D3D's
/// (and WebGPU's) 0..1 depth range, like `XMMatrixPerspectiveFovRH`.
pub fn perspective_rh(fov_y: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
    let ys = 1.0 / (fov_y * 0.5).tan();
    let xs = ys / aspect;
    let q = far / (near - far);
    [[xs, 0.0, 0.0, 0.0], [0.0, ys, 0.0, 0.0], [0.0, 0.0, q, -1.0], [0.0, 0.0, q * near, 0.0]]
}

/// The default camera's view matrix.
pub fn default_view() -> Mat4 {
    look_at_rh(DEFAULT_EYE, DEFAULT_TARGET, DEFAULT_UP)
}

/// The default projection for a square viewport.
pub fn default_projection() -> Mat4 {
    perspective_rh(DEFAULT_FOV_Y, 1.0, DEFAULT_NEAR, DEFAULT_FAR)
}

/// Transforms a row vector: `v · m`.
pub fn transform(v: [f32; 4], m: &Mat4) -> [f32; 4] {
    let mut o = [0.0; 4];
    for (c, x) in o.iter_mut().enumerate() {
        *x = (0..4).map(|k| v[k] * m[k][c]).sum();
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_lands_in_the_middle_of_the_view() {
        let vp = mul(&default_view(), &default_projection());
        let p = transform([0.0, 0.0, 0.0, 1.0], &vp);
        let (x, y, z) = (p[0] / p[3], p[1] / p[3], p[2] / p[3]);
        assert!(x.abs() < 1e-5 && y.abs() < 1e-5, "{p:?}");
        assert!(z > 0.0 && z < 1.0, "depth {z}");
        // A point at the eye's distance behind the origin is further away.
        let q = transform([-1.6, -1.2, -2.8, 1.0], &vp);
        assert!(q[2] / q[3] > z);
    }

    #[test]
    fn transpose_is_an_involution() {
        let p = default_projection();
        assert_eq!(transpose(&transpose(&p)), p);
        assert_eq!(mul(&identity(), &p), p);
    }
}
