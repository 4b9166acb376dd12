//! The orbit camera: dragging the preview turns the eye around the
//! target, the wheel moves it closer or further. The camera only rewrites
//! the controls that hold it ([`crate::controls::CameraRole`]): view and
//! view × projection matrices, eye positions and raw registers found to
//! hold view × projection columns. At [`Camera::default`] every one of them
//! equals its default, so an untouched camera changes nothing.

use crate::controls::CameraRole;
use crate::math::{self, Mat4};
use crate::{PreviewModel, Value, Values};

/// Closest and furthest the eye may be from the target.
pub const DISTANCE_RANGE: (f32, f32) = (0.5, 50.0);
/// Highest elevation (radians) either way, short of the poles where the
/// look-at's up vector would be undefined.
pub const MAX_ELEVATION: f32 = 1.5;
/// Radians turned per pixel dragged.
pub const RADIANS_PER_PIXEL: f32 = 0.01;

/// Where the camera is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Eye position; it always looks at [`math::DEFAULT_TARGET`].
    pub eye: [f32; 3],
}

impl Default for Camera {
    fn default() -> Camera {
        Camera { eye: math::DEFAULT_EYE }
    }
}

impl Camera {
    /// Distance from the target, azimuth about y and elevation.
    fn spherical(&self) -> (f32, f32, f32) {
        let [x, y, z] = self.eye;
        let r = (x * x + y * y + z * z).sqrt().max(f32::MIN_POSITIVE);
        (r, x.atan2(z), (y / r).clamp(-1.0, 1.0).asin())
    }

    fn from_spherical(r: f32, azimuth: f32, elevation: f32) -> Camera {
        let (r, e) = (r.clamp(DISTANCE_RANGE.0, DISTANCE_RANGE.1), elevation.clamp(-MAX_ELEVATION, MAX_ELEVATION));
        Camera { eye: [r * e.cos() * azimuth.sin(), r * e.sin(), r * e.cos() * azimuth.cos()] }
    }

    /// The camera after a drag of (`dx`, `dy`) pixels: right turns the
    /// scene right (the eye goes left), down tilts it towards the viewer.
    pub fn orbit(&self, dx: f32, dy: f32) -> Camera {
        if !dx.is_finite() || !dy.is_finite() {
            return *self;
        }
        let (r, a, e) = self.spherical();
        Camera::from_spherical(r, a - dx * RADIANS_PER_PIXEL, e + dy * RADIANS_PER_PIXEL)
    }

    /// The camera after a wheel turn: the distance is multiplied by
    /// `1.1^steps` (positive steps move away).
    pub fn zoom(&self, steps: f32) -> Camera {
        if !steps.is_finite() {
            return *self;
        }
        let (r, a, e) = self.spherical();
        Camera::from_spherical(r * 1.1f32.powf(steps.clamp(-50.0, 50.0)), a, e)
    }

    /// The view matrix (row-vector convention).
    pub fn view(&self) -> Mat4 {
        math::look_at_rh(self.eye, math::DEFAULT_TARGET, math::DEFAULT_UP)
    }

    /// View × default projection.
    pub fn view_projection(&self) -> Mat4 {
        math::mul(&self.view(), &math::default_projection())
    }

    /// The eye as text for a `data-camera` attribute: `x,y,z` with three decimals.
    pub fn text(&self) -> String {
        format!("{:.3},{:.3},{:.3}", self.eye[0], self.eye[1], self.eye[2])
    }
}

fn matrix_value(m: &Mat4, rows: u8, columns: u8) -> Vec<f32> {
    let mut out = Vec::with_capacity(rows as usize * columns as usize);
    for r in 0..rows as usize {
        for c in 0..columns as usize {
            out.push(m.get(r).and_then(|row| row.get(c)).copied().unwrap_or((r == c) as u8 as f32));
        }
    }
    out
}

/// New values of every control of `model` that holds the camera.
pub fn camera_values(model: &PreviewModel, camera: &Camera) -> Values {
    let (view, vp) = (camera.view(), camera.view_projection());
    let mut out = Values::new();
    for c in model.cbuffers.iter().flat_map(|b| &b.controls) {
        let Some(role) = c.camera else { continue };
        let v = match role {
            CameraRole::View => matrix_value(&view, c.rows, c.columns),
            CameraRole::ViewProjection => matrix_value(&vp, c.rows, c.columns),
            CameraRole::Eye => {
                let mut v = camera.eye.to_vec();
                v.resize(c.components(), 1.0);
                v.truncate(c.components());
                v
            }
            CameraRole::ViewProjectionColumn(k) => {
                (0..c.components()).map(|r| vp[r.min(3)][k.min(3) as usize]).collect()
            }
        };
        let v = Value::Floats(v);
        if c.accepts(&v) {
            out.insert(c.id.clone(), v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbit_keeps_the_distance_and_zoom_keeps_the_direction() {
        let c = Camera::default();
        let (r0, a0, e0) = c.spherical();
        let o = c.orbit(50.0, 0.0);
        let (r1, a1, e1) = o.spherical();
        assert!((r1 - r0).abs() < 1e-4 && (e1 - e0).abs() < 1e-4, "{o:?}");
        assert!((a1 - (a0 - 0.5)).abs() < 1e-4);
        let z = c.zoom(1.0);
        let (r2, a2, e2) = z.spherical();
        assert!((r2 - r0 * 1.1).abs() < 1e-4 && (a2 - a0).abs() < 1e-4 && (e2 - e0).abs() < 1e-4);
        // Clamped at the poles and the distance range, and indifferent to NaN.
        let (_, _, e) = c.orbit(0.0, 1e6).spherical();
        assert!((e - MAX_ELEVATION).abs() < 1e-4);
        assert!((c.zoom(1e9).spherical().0 - DISTANCE_RANGE.1).abs() < 1e-3);
        assert_eq!(c.orbit(f32::NAN, 0.0), c);
        assert_eq!(c.text(), "1.600,1.200,2.800");
    }

    #[test]
    fn the_default_camera_is_the_default_view() {
        assert_eq!(Camera::default().view(), math::default_view());
    }
}
