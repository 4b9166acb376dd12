//! What the user chose in the preview besides constant-buffer values: the
//! output shown, the mesh, the dispatch size and the texture patterns; with
//! a compact codec for permalinks.
//!
//! ```text
//! settings := version:u8 (= 1)  target:varint  mesh:u8  segments:varint
//!             view:u8  groups:varint×3  textures:varint  (register:varint pattern:u8)*
//! mesh: 0 plane, 1 cube, 2 sphere     view: 0 colour of `target`, 1 wireframe
//! pattern: index into Pattern::ALL
//! ```
//! The decoder checks every field against its range, refuses trailing
//! bytes and reports the offset of the first fault.

use crate::mesh::{MeshKind, SPHERE_SEGMENTS};
use crate::payload::{put_varint, Cursor, PayloadError};
use crate::textures::{Image, Pattern};
use serde::Serialize;

/// Version this module writes.
pub const VERSION: u8 = 1;
/// Most texture overrides a settings record may hold.
pub const MAX_TEXTURE_OVERRIDES: usize = 128;
/// Side of the square the preview renders, in pixels.
pub const DEFAULT_SIZE: u32 = 256;

/// How a vertex shader's result is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum VertexView {
    /// The chosen output register, interpolated, as colour.
    Colour,
    /// The triangles' edges at the positions the shader computed.
    Wireframe,
}

/// The preview's choices other than control values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settings {
    /// Pixel shaders: the output location shown. Vertex shaders: the output
    /// location drawn as colour.
    pub target: u32,
    /// Vertex shaders: the mesh.
    pub mesh: MeshKind,
    /// Vertex shaders: colour or wireframe.
    pub view: VertexView,
    /// Compute shaders: groups dispatched (clamped by `Dispatch::clamp_groups`);
    /// `[0, 0, 0]` means the model's default (enough groups to cover the output).
    pub groups: [u32; 3],
    /// Texture registers (`t#`) given another pattern than their default.
    pub textures: Vec<(u32, Pattern)>,
    /// Texture registers given a picture of the user's (RGBA8). Pictures
    /// stay on the user's machine: links do not carry them, and a user
    /// image wins over a pattern.
    #[serde(skip)]
    pub images: Vec<(u32, Image)>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            target: 0,
            mesh: MeshKind::Sphere { segments: 32 },
            view: VertexView::Colour,
            groups: AUTO_GROUPS,
            textures: Vec::new(),
            images: Vec::new(),
        }
    }
}

/// [`Settings::groups`] meaning "the model's default".
pub const AUTO_GROUPS: [u32; 3] = [0, 0, 0];

impl Settings {
    /// The pattern chosen for texture register `register`, if any.
    pub fn pattern(&self, register: u32) -> Option<Pattern> {
        self.textures.iter().find(|(r, _)| *r == register).map(|(_, p)| *p)
    }

    /// The user's picture for texture register `register`, if any.
    pub fn image(&self, register: u32) -> Option<&Image> {
        self.images.iter().find(|(r, _)| *r == register).map(|(_, i)| i)
    }

    /// Sets (or clears, with `None`) the user's picture for `register`.
    pub fn set_image(&mut self, register: u32, image: Option<Image>) {
        self.images.retain(|(r, _)| *r != register);
        if let Some(i) = image {
            self.images.push((register, i));
        }
    }

    /// Sets (or clears, with `None`) the pattern of `register`.
    pub fn set_pattern(&mut self, register: u32, pattern: Option<Pattern>) {
        self.textures.retain(|(r, _)| *r != register);
        if let Some(p) = pattern {
            self.textures.push((register, p));
            self.textures.sort_by_key(|(r, _)| *r);
        }
    }
}

/// Encodes `s` (texture overrides past [`MAX_TEXTURE_OVERRIDES`] are left out).
pub fn encode(s: &Settings) -> Vec<u8> {
    let mut out = vec![VERSION];
    put_varint(&mut out, s.target);
    let (mesh, segments) = match s.mesh {
        MeshKind::Plane => (0u8, 0),
        MeshKind::Cube => (1, 0),
        MeshKind::Sphere { segments } => (2, segments),
    };
    out.push(mesh);
    put_varint(&mut out, segments);
    out.push(match s.view {
        VertexView::Colour => 0,
        VertexView::Wireframe => 1,
    });
    for g in s.groups {
        put_varint(&mut out, g);
    }
    let t = &s.textures[..s.textures.len().min(MAX_TEXTURE_OVERRIDES)];
    put_varint(&mut out, t.len() as u32);
    for (r, p) in t {
        put_varint(&mut out, *r);
        out.push(Pattern::ALL.iter().position(|q| q == p).unwrap_or(0) as u8);
    }
    out
}

/// Decodes settings written by [`encode`].
pub fn decode(data: &[u8]) -> Result<Settings, PayloadError> {
    let mut c = Cursor { data, at: 0 };
    let v = c.u8("version")?;
    if v != VERSION {
        c.at -= 1;
        return c.fail(format!("settings version {v}, expected {VERSION}"));
    }
    let target = c.varint("target")?;
    if target > 7 {
        return c.fail(format!("output location {target} is past the 8 render targets"));
    }
    let mesh = c.u8("mesh")?;
    let segments = c.varint("sphere segments")?;
    let mesh = match mesh {
        0 => MeshKind::Plane,
        1 => MeshKind::Cube,
        2 if SPHERE_SEGMENTS.contains(&segments) => MeshKind::Sphere { segments },
        2 => return c.fail(format!("sphere of {segments} segments (allowed {SPHERE_SEGMENTS:?})")),
        m => return c.fail(format!("mesh {m} (0 plane, 1 cube, 2 sphere)")),
    };
    let view = match c.u8("view")? {
        0 => VertexView::Colour,
        1 => VertexView::Wireframe,
        v => return c.fail(format!("vertex view {v} (0 colour, 1 wireframe)")),
    };
    let mut groups = [0u32; 3];
    for g in &mut groups {
        *g = c.varint("group count")?;
    }
    if groups != AUTO_GROUPS && groups.contains(&0) {
        return c.fail("group count 0 (all three are 0 for the default, or none)");
    }
    let n = c.varint("texture count")? as usize;
    if n > MAX_TEXTURE_OVERRIDES {
        return c.fail(format!("{n} texture overrides (at most {MAX_TEXTURE_OVERRIDES})"));
    }
    let mut textures = Vec::with_capacity(n);
    for _ in 0..n {
        let r = c.varint("texture register")?;
        let p = c.u8("pattern")?;
        let Some(&p) = Pattern::ALL.get(p as usize) else {
            return c.fail(format!("pattern {p} (0..{})", Pattern::ALL.len() - 1));
        };
        if textures.last().is_some_and(|&(q, _)| q >= r) {
            return c.fail("texture registers out of order");
        }
        textures.push((r, p));
    }
    if c.at != data.len() {
        return c.fail(format!("{} bytes after the settings", data.len() - c.at));
    }
    Ok(Settings { target, mesh, view, groups, textures, images: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let s = Settings {
            target: 3,
            mesh: MeshKind::Sphere { segments: 48 },
            view: VertexView::Wireframe,
            groups: [4, 2, 300],
            textures: vec![(0, Pattern::Noise), (7, Pattern::White)],
            images: Vec::new(),
        };
        let b = encode(&s);
        assert_eq!(b, [1, 3, 2, 48, 1, 4, 2, 0xac, 2, 2, 0, 2, 7, 4]);
        assert_eq!(decode(&b).unwrap(), s);
        assert_eq!(decode(&encode(&Settings::default())).unwrap(), Settings::default());
    }

    #[test]
    fn faults_name_their_offset() {
        let e = decode(&[1, 9]).unwrap_err();
        assert_eq!((e.offset, e.message.contains("location 9")), (2, true));
        let e = decode(&[1, 0, 2, 1, 0, 1, 1, 1, 0]).unwrap_err();
        assert!(e.message.contains("sphere of 1"), "{e}");
        let e = decode(&[1, 0, 0, 0, 0, 1, 0, 1, 0]).unwrap_err();
        assert_eq!(e.message, "group count 0 (all three are 0 for the default, or none)");
        assert_eq!(decode(&[1, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap().groups, AUTO_GROUPS);
        let e = decode(&[1, 0, 0, 0, 0, 1, 1, 1, 2, 5, 0, 5, 1]).unwrap_err();
        assert_eq!(e.message, "texture registers out of order");
        let e = decode(&[1, 0, 0, 0, 0, 1, 1, 1, 0, 0]).unwrap_err();
        assert_eq!((e.offset, e.message.as_str()), (9, "1 bytes after the settings"));
        for n in 0..12 {
            let _ = decode(&encode(&Settings::default())[..n.min(9)]);
        }
    }
}
