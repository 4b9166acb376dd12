//! A hull shader's live preview (`preview_model::plan`, the plan the
//! browser runs too) executed natively on lavapipe, checked against the CPU
//! tessellator (crates/tessellator, the D3D11 rules): the built-in domain
//! shader colours each primitive by the (u, v, w) of its first domain
//! point, flat, so every colour in the picture must be the first point of
//! one of the primitives the CPU tessellator makes from the factors the
//! shader writes, and nearly all of them must show.
//!
//! The shaders are fixtures assembled from listings (tests/browser/fixtures,
//! derived from corpus hull shaders): no corpus hull shader tessellates a
//! quad with fractional_odd partitioning, or writes non-zero isoline factors.

use preview_model::plan::{self, Readback};
use preview_model::settings::Settings;
use preview_model::{PreviewModel, Stage};
use shader_runner::gpu::Gpu;
use std::collections::BTreeSet;
use std::path::PathBuf;
use tessellator::{OutputPrimitive, Partitioning, TessFactors};

fn listing(name: &str) -> String {
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/browser/fixtures").join(name);
    std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("fixture {} missing: {e}", f.display()))
}

/// The distinct colours of a read-back `rgba32float` target, as bits, without the clear colour.
fn colours(picture: &[u8]) -> BTreeSet<[u32; 4]> {
    picture
        .chunks_exact(16)
        .map(|p| [0, 1, 2, 3].map(|i| u32::from_le_bytes([p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]])))
        .filter(|c| *c != [0; 4])
        .collect()
}

/// What the CPU tessellator says the picture may hold: each primitive's first point as a colour.
fn first_points(partitioning: Partitioning, primitive: OutputPrimitive, factors: &TessFactors) -> BTreeSet<[u32; 4]> {
    let t = tessellator::tessellate(partitioning, primitive, factors).expect("a valid mode");
    let n = tessellator::vertices_per_primitive(primitive);
    t.indices
        .chunks_exact(n)
        .map(|p| {
            let q = t.points[p[0] as usize];
            [q.u.to_bits(), q.v.to_bits(), q.w.to_bits(), 1f32.to_bits()]
        })
        .collect()
}

fn preview(name: &str) -> (plan::Plan, Vec<u8>) {
    preview_listing(name, &listing(name))
}

fn preview_listing(name: &str, text: &str) -> (plan::Plan, Vec<u8>) {
    let bytes = dxbc::asm::assemble(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let s = dxbc::Shader::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let m = PreviewModel::new(&s);
    let p = plan::build(&s, &m, &m.defaults(), &Settings::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(p.stage, Stage::Hull);
    assert!(matches!(p.readbacks[..], [Readback::Target { index: 0, .. }]));
    let mut g = Gpu::new().expect("a Vulkan adapter (lavapipe)");
    let mut out = shader_runner::preview::run(&mut g, &p).unwrap_or_else(|e| panic!("{name}: {e}"));
    (p, out.remove(0))
}

fn check(name: &str, shown: &BTreeSet<[u32; 4]>, expected: &BTreeSet<[u32; 4]>) {
    let stray: Vec<_> = shown.difference(expected).collect();
    assert!(stray.is_empty(), "{name}: colours no primitive starts with: {stray:?}");
    // A sliver may cover no pixel centre; nearly every primitive shows.
    assert!(shown.len() * 10 >= expected.len() * 9, "{name}: {} of {} first points shown", shown.len(), expected.len());
}

// One test running both in turn: two lavapipe devices compiling the
// tessellator at once can pass the runner's GPU time limit on a loaded machine.
#[test]
fn hull_previews_show_the_cpu_tessellation() {
    a_quad_fractional_odd_patch();
    an_isoline_patch();
    a_quad_patch_whose_factor_reads_a_control_point();
}

/// The factors the quad fixture's fork phases write.
const QUAD_FACTORS: TessFactors = TessFactors::Quad { edges: [3.3, 4.7, 2.2, 5.9], inside: [3.6, 4.4] };

fn a_quad_fractional_odd_patch() {
    let (p, picture) = preview("hs_quad_fractional_odd.asm");
    assert_eq!(p.draw.as_ref().map(|d| d.topology), Some("triangle-list"));
    let expected = first_points(Partitioning::FractionalOdd, OutputPrimitive::TriangleCw, &QUAD_FACTORS);
    assert!(expected.len() > 30, "{} primitives", expected.len());
    check("quad", &colours(&picture), &expected);
}

/// The quad patch again, but its first edge factor is read from an input
/// control point: |x| of a corner of the preview's plane (±1) + 2.3 = 3.3.
/// The patch-constant pass reads its input points mostly as floats, so
/// they are f32 records there (`record_kind`), over the vertex pass's bits.
fn a_quad_patch_whose_factor_reads_a_control_point() {
    let name = "the quad fixture, its first edge factor from vicp[0][0].x";
    let quad = listing("hs_quad_fractional_odd.asm");
    let text = quad
        .replace(
            "dcl_output_siv o0.x, finalQuadUeq0EdgeTessFactor",
            "dcl_input vicp[4][0].x\ndcl_output_siv o0.x, finalQuadUeq0EdgeTessFactor",
        )
        .replace("mov o0.x, l(3.300000)", "add o0.x, |vicp[0][0].x|, l(2.300000)");
    assert_eq!(text.matches("vicp[").count(), 2, "both edits apply to the quad fixture");
    let bytes = dxbc::asm::assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let shader = dxbc::Shader::decode(&bytes).unwrap();
    let t =
        dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), dxbc_naga::StageForm::PatchConstant).unwrap();
    let wgsl = dxbc_naga::to_wgsl(&t).unwrap();
    assert!(wgsl.contains("var<storage> stage_input: array<vec4<f32>>;"), "{wgsl}");
    let (_, picture) = preview_listing(name, &text);
    let expected = first_points(Partitioning::FractionalOdd, OutputPrimitive::TriangleCw, &QUAD_FACTORS);
    check("quad from points", &colours(&picture), &expected);
}

fn an_isoline_patch() {
    let (p, picture) = preview("hs_isoline_fractional_odd.asm");
    assert_eq!(p.draw.as_ref().map(|d| d.topology), Some("line-list"));
    // Density 12 (fork instance 0: 0 × −2.6 + 12), detail 9.4 (instance 1: 1 × −2.6 + 12).
    let factors = TessFactors::isoline_from_sv([12.0, (-2.6f32).mul_add(1.0, 12.0)]);
    let expected = first_points(Partitioning::FractionalOdd, OutputPrimitive::Line, &factors);
    assert!(expected.len() >= 12 * 9, "{} segments", expected.len());
    check("isoline", &colours(&picture), &expected);
}
