//! The examples the page offers, all assembled by the project itself.

/// One gallery entry.
pub struct Example {
    /// Short id (used in the select box).
    pub id: &'static str,
    /// Name shown.
    pub name: &'static str,
    /// Stage and model.
    pub profile: &'static str,
    /// One line about it.
    pub about: &'static str,
    /// Builds the container.
    pub build: fn() -> Vec<u8>,
}

/// Every example; the first one opens the page.
pub static EXAMPLES: &[Example] = &[
    Example { id: "ps", name: "Textured pixel shader", profile: "ps_5_0", about: "Samples a texture, inverts and tints it: extended tokens, immediates, an immediate constant buffer. The tour uses it.", build: dxbc::examples::textured_pixel_shader },
    Example { id: "vs", name: "Transform vertex shader", profile: "vs_5_0", about: "Multiplies a position by a matrix from a constant buffer.", build: dxbc::examples::transform_vertex_shader },
    Example { id: "gs", name: "Point to triangle", profile: "gs_4_0", about: "An SM4 geometry shader: one triangle per point, emit and cut.", build: dxbc::examples::point_to_triangle_geometry_shader },
    Example { id: "hs", name: "Constant tessellation", profile: "hs_5_0", about: "A hull shader with fork phases writing tessellation factors.", build: dxbc::examples::constant_tessellation_hull_shader },
    Example { id: "ds", name: "Barycentric domain shader", profile: "ds_5_0", about: "Interpolates a triangle patch with the domain point.", build: dxbc::examples::barycentric_domain_shader },
    Example { id: "cs", name: "Gradient compute shader", profile: "cs_5_0", about: "Writes a gradient into a RWTexture2D from 8×8 thread groups.", build: dxbc::examples::gradient_compute_shader },
    Example { id: "tint", name: "Minimal tint (SHEX only)", profile: "ps_5_0", about: "The smallest example: one chunk, six instructions.", build: dxbc::examples::tint_pixel_shader },
];

/// The example with `id`.
pub fn by_id(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stage_is_covered_and_decodes() {
        let mut stages: Vec<&str> = EXAMPLES.iter().map(|e| &e.profile[..2]).collect();
        stages.sort();
        stages.dedup();
        assert_eq!(stages, ["cs", "ds", "gs", "hs", "ps", "vs"]);
        for e in EXAMPLES {
            let s = dxbc::Shader::parse(&(e.build)()).unwrap();
            assert_eq!(s.profile().as_deref(), Some(e.profile), "{}", e.id);
            assert_eq!(by_id(e.id).unwrap().id, e.id);
        }
    }
}
