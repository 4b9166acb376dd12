//! A lone domain shader's live preview (`preview_model::plan`, the plan the
//! browser runs too) executed natively on lavapipe. The corpus shader
//! interpolates its four control points bilinearly; the preview gives it
//! the plane's corners (−1, 1), (−1, −1), (1, −1), (1, 1) and their colour,
//! so its patch is exactly the clip square: every pixel must be covered
//! (a triangle the tessellator or the draw lost leaves a hole), and every
//! pixel must hold the corners' common colour.

use preview_model::plan::{self, Readback};
use preview_model::settings::Settings;
use preview_model::{PreviewModel, Stage};
use shader_runner::gpu::Gpu;
use std::path::PathBuf;

#[test]
fn a_bilinear_domain_shader_covers_the_view_with_its_control_points_colour() {
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/fxc/dxdecompiler_apps_tesselation_ds.dxbc");
    let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("corpus file {} missing: {e}", f.display()));
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let m = PreviewModel::new(&s);
    let p = plan::build(&s, &m, &m.defaults(), &Settings::default()).unwrap();
    assert_eq!(p.stage, Stage::Domain);
    assert!(matches!(p.readbacks[..], [Readback::Target { index: 0, .. }]));
    let mut g = Gpu::new().expect("a Vulkan adapter (lavapipe)");
    let picture = shader_runner::preview::run(&mut g, &p).unwrap().remove(0);
    let colour = preview_model::mesh::plane().colors[0];
    assert!(preview_model::mesh::plane().colors.iter().all(|c| *c == colour));
    let mut off = Vec::new();
    for (i, px) in picture.chunks_exact(16).enumerate() {
        let got: Vec<f32> = px.chunks_exact(4).map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
        if got.iter().zip(colour).any(|(g, w)| (g - w).abs() > 1e-6) {
            off.push((i % 256, i / 256, got));
        }
    }
    assert_eq!(picture.len(), 256 * 256 * 16);
    assert!(off.is_empty(), "{} pixels differ, first {:?}", off.len(), off.first());
}
