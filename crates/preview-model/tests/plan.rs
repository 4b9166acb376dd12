//! Plans built from corpus shaders, and the comparison of read-backs with
//! the plan's tolerance (no GPU: read-backs are made up here).

#[allow(dead_code)] // each test binary uses part of it
mod common;

use preview_model::plan::{self, Readback, Resource};
use preview_model::reference::{compare, fingerprint, Verdict};
use preview_model::settings::{Settings, VertexView};
use preview_model::{PreviewModel, Stage};

fn plan_of(rel: &str, settings: &Settings) -> plan::Plan {
    let s = common::shader(rel);
    let m = PreviewModel::new(&s);
    plan::build(&s, &m, &m.defaults(), settings).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn pixel_plan_binds_every_resource_and_reads_every_target() {
    let p = plan_of("fxc/angle930_clearfloat11ps.dxbc", &Settings::default());
    assert_eq!(p.stage, Stage::Pixel);
    let d = p.draw.as_ref().unwrap();
    assert_eq!((d.topology, d.vertex_count, d.depth), ("triangle-strip", 4, None));
    assert_eq!(d.targets.len(), 8);
    assert!(d.targets.iter().all(|t| t.format == "rgba32float"));
    assert_eq!(p.readbacks.len(), 8);
    assert_eq!(p.modules.len(), 2);
    assert!(p.modules[0].translated && !p.modules[1].translated);
    assert_eq!(p.tolerance.edge_fraction, 0.0);
    // Constant buffers hold the packed values; textures their pattern; samplers make the tolerance filter-aware.
    let s = common::shader("fxc/dxdecompiler_misc_debugtest.dxbc");
    let m = PreviewModel::new(&s);
    let mut values = m.defaults();
    let c = m.cbuffers[0].controls.iter().find(|c| c.path == "g_fAmbient").unwrap();
    values.insert(c.id.clone(), preview_model::Value::Floats(vec![0.75]));
    let p = plan::build(&s, &m, &values, &Settings::default()).unwrap();
    let i = p.uniform_entry(1, 0).expect("cb1 is bound");
    let Resource::Buffer { kind, blob } = &p.entries[i].resource else { panic!() };
    assert_eq!((*kind, p.entries[i].name.as_str()), ("uniform", "cbPerFrame"));
    assert_eq!(p.blobs[*blob].len() % 16, 0);
    assert_eq!(&p.blobs[*blob][12..16], &0.75f32.to_le_bytes(), "g_fAmbient sits at offset 12");
    assert!(p
        .entries
        .iter()
        .any(|e| matches!(e.resource, Resource::Texture { format: "rgba8unorm", sample_type: "float", .. })));
    assert_eq!(p.tolerance.relative, 1.0 / 128.0);
}

#[test]
fn vertex_plans_follow_the_settings() {
    let rel = "fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc";
    let p = plan_of(rel, &Settings::default());
    let d = p.draw.as_ref().unwrap();
    assert_eq!((d.topology, d.depth), ("triangle-list", Some("less")));
    assert!(d.index_count > 0 && d.index_count % 3 == 0);
    assert!(p.tolerance.relative > 0.0 && p.tolerance.edge_fraction > 0.0);
    let wire = plan_of(rel, &Settings { view: VertexView::Wireframe, ..Settings::default() });
    let w = wire.draw.as_ref().unwrap();
    assert_eq!(w.topology, "line-list");
    assert_eq!(w.index_count, d.index_count * 2, "three edges per triangle, two indices per edge");
    // A shader reading only SV_VertexID draws three vertices without a buffer.
    let tri = plan_of("fxc/hbaoplus_fullscreentriangle_vs.dxbc", &Settings::default());
    let t = tri.draw.as_ref().unwrap();
    assert_eq!((t.attributes.len(), t.vertex_count, t.index_blob), (0, 3, None));
}

#[test]
fn compute_plans_read_back_every_writable_resource() {
    let p = plan_of("vkd3d/tgsm/010_cs_5_0.dxbc", &Settings::default());
    assert_eq!(p.stage, Stage::Compute);
    assert!(p.draw.is_none());
    assert!(p.readbacks.iter().all(|r| matches!(r, Readback::Buffer { .. } | Readback::StorageTexture { .. })));
    let writable = p
        .entries
        .iter()
        .filter(|e| matches!(e.resource, Resource::Buffer { kind: "storage", .. } | Resource::StorageTexture { .. }))
        .count();
    assert_eq!(p.readbacks.len(), writable);
    let chosen = plan_of("vkd3d/tgsm/010_cs_5_0.dxbc", &Settings { groups: [3, 2, 1], ..Settings::default() });
    assert_eq!(chosen.dispatch.unwrap().1, [3, 2, 1]);
}

#[test]
fn files_without_a_program_and_refusals_are_errors_not_plans() {
    // The example domain shader's signatures without its program or RDEF:
    // nothing says what stage it is.
    let ds = dxbc::examples::barycentric_domain_shader();
    let c = dxbc::container::Container::parse(&ds).unwrap();
    let isgn = &ds[c.find(b"ISGN").unwrap().data_range()];
    let bytes = dxbc::container::write_container(1, &[(*b"ISGN", isgn)]);
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let m = PreviewModel::new(&s);
    assert_eq!(m.stage, Stage::Other);
    let e = plan::build(&s, &m, &m.defaults(), &Settings::default()).unwrap_err();
    assert!(matches!(e, plan::PlanError::StageNotPreviewable(_)), "{e:?}");
    let s = common::shader("fxc/angle_passthroughrg2darray11ps.dxbc");
    let m = PreviewModel::new(&s);
    let e = plan::build(&s, &m, &m.defaults(), &Settings::default()).unwrap_err();
    assert!(matches!(e, plan::PlanError::Translation { offset: Some(0xfc), .. }), "{e:?}");
}

#[test]
fn a_geometry_shader_plans_its_passes_on_the_mesh() {
    // The fluid particles: one point per mesh vertex, a 4-vertex strip each
    // (two list triangles, so at most 6 list vertices per point).
    let p = plan_of("fxc/dxdecompiler_fluidcs11_fluidrender_gs.dxbc", &Settings::default());
    assert_eq!(p.stage, Stage::Geometry);
    let mesh = Settings::default().mesh.build();
    let points = mesh.positions.len();
    let passes = p.passes.as_ref().unwrap();
    let d = p.draw.as_ref().unwrap();
    assert_eq!((d.topology, d.vertex_count as usize), ("triangle-list", points * 6));
    // The quads are coplanar: primitive order, not a depth test, decides what covers what.
    assert_eq!(d.depth, None);
    // Input records: the GS input signature (POSITION.xy in v0, COLOR in v1) from the mesh.
    let input = &p.blobs[passes.buffers[0].blob.unwrap()];
    assert_eq!(input.len(), points * 512);
    let word = |i: usize| u32::from_le_bytes(input[i * 4..i * 4 + 4].try_into().unwrap());
    let v = points - 1;
    assert_eq!([word(v * 128), word(v * 128 + 1)], [mesh.positions[v][0].to_bits(), mesh.positions[v][1].to_bits()]);
    assert_eq!(word(v * 128 + 4 + 3), mesh.colors[v][3].to_bits());
    // The vertex pass writes what the geometry pass reads, which writes what the draw reads.
    let (vs, gs) = (&passes.compute[0], &passes.compute[1]);
    let out_of = |c: &plan::ComputePass| c.buffers.iter().filter(|b| b.writable).map(|b| b.buffer).collect::<Vec<_>>();
    let in_of = |c: &plan::ComputePass| c.buffers.iter().filter(|b| !b.writable).map(|b| b.buffer).collect::<Vec<_>>();
    assert_eq!(out_of(vs), in_of(gs));
    assert_eq!(out_of(gs).len(), 2);
    assert!(out_of(gs).contains(&passes.draw_buffers[0].buffer));
    assert!(gs.shader_entries && !vs.shader_entries);
}

#[test]
fn comparison_uses_the_plan_tolerance() {
    // A quad (exact class) and a mesh (interpolation and edge allowances).
    let quad = plan_of("fxc/angle930_clearfloat11ps.dxbc", &Settings::default());
    let n = (quad.width * quad.height * 4) as usize;
    let words = |f: &dyn Fn(usize) -> f32| -> Vec<u8> { (0..n).flat_map(|i| f(i).to_le_bytes()).collect() };
    let base = words(&|i| (i % 97) as f32 / 97.0 + 0.25);
    assert!(compare(&quad, 0, &base, &base).ok());
    assert_eq!(compare(&quad, 0, &base, &base).verdict(), Verdict::Identical);
    let near = words(&|i| f32::from_bits(((i % 97) as f32 / 97.0 + 0.25).to_bits() + 64));
    let c = compare(&quad, 0, &near, &base);
    assert!(c.ok() && c.max_ulps == 64, "{c:?}");
    assert_eq!(c.verdict(), Verdict::WithinTolerance { inexact: n, max_ulps: 64 });
    let off = words(&|i| f32::from_bits(((i % 97) as f32 / 97.0 + 0.25).to_bits() + if i == 4000 { 65 } else { 0 }));
    let c = compare(&quad, 0, &off, &base);
    assert!(!c.ok() && c.mismatches == 1 && c.first.map(|f| f.0) == Some(4000), "{c:?}");
    assert!(matches!(c.verdict(), Verdict::Differs { mismatches: 1, first: (4000, _, _) }), "{c:?}");
    assert_eq!(c.max_ulps_within, 0);
    assert!(compare(&quad, 0, &base[4..], &base).size_mismatch.is_some());
    assert_eq!(
        compare(&quad, 0, &base[4..], &base).verdict(),
        Verdict::SizeMismatch { got: base.len() - 4, expected: base.len() }
    );

    let mesh = plan_of("fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc", &Settings::default());
    let pixels = (mesh.width * mesh.height) as usize;
    let allowed = (mesh.tolerance.edge_fraction * pixels as f32) as usize;
    // Small relative differences everywhere pass; so do whole pixels up to the edge allowance.
    let interp = words(&|i| ((i % 97) as f32 / 97.0 + 0.25) * (1.0 + mesh.tolerance.relative * 0.5));
    assert!(compare(&mesh, 0, &interp, &base).ok());
    let edges = |k: usize| words(&|i| if i / 4 < k { 9.0 } else { (i % 97) as f32 / 97.0 + 0.25 });
    let c = compare(&mesh, 0, &edges(allowed), &base);
    assert!(c.ok() && c.pixels_off == allowed, "{c:?}");
    // Matching but for edge pixels is its own verdict: the huge distances of
    // those pixels are not those of the words that agree.
    assert_eq!(c.verdict(), Verdict::EdgePixels { pixels_off: allowed, pixels_allowed: allowed });
    assert!(c.max_ulps > 1 << 20 && c.max_ulps_within == 0, "{c:?}");
    assert!(!compare(&mesh, 0, &edges(allowed + 1), &base).ok());
}

#[test]
fn fingerprints_cover_shader_values_and_settings() {
    let a = fingerprint(b"shader", &[1, 0], &[1, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_ne!(a, fingerprint(b"shader", &[1, 0], &[1, 1, 0, 0, 0, 0, 0, 0, 0]));
    assert_ne!(a, fingerprint(b"shadeR", &[1, 0], &[1, 0, 0, 0, 0, 0, 0, 0, 0]));
    assert_ne!(a, fingerprint(b"shader", &[1, 1], &[1, 0, 0, 0, 0, 0, 0, 0, 0]));
}

#[test]
fn multisampled_inputs_are_filled_by_a_pass() {
    for (rel, format, source, sample_type) in [
        ("vkd3d/texture-load/011_ps_5_0.dxbc", "rgba8unorm", "rgba8unorm", "unfilterable-float"),
        (
            "fxc/hbaoplus_copydepth_ps_resolve_depth_1_depth_layer_count_2_d3d11.dxbc",
            "rgba8unorm",
            "rgba8unorm",
            "unfilterable-float",
        ),
    ] {
        let p = plan_of(rel, &Settings::default());
        let e = p.entries.iter().find(|e| matches!(e.resource, Resource::Texture { samples: 4, .. })).expect(rel);
        let Resource::Texture {
            format: f,
            source_format,
            sample_type: st,
            fill,
            blob,
            width,
            height,
            bytes_per_row,
            ..
        } = &e.resource
        else {
            unreachable!()
        };
        assert_eq!((*f, *source_format, *st), (format, Some(source), sample_type), "{rel}");
        let m = &p.modules[fill.unwrap()];
        assert_eq!((m.stage, m.translated), ("fill", false));
        assert!(m.code.contains("fn vs(") && m.code.contains("fn fs("));
        assert_eq!(p.blobs[*blob].len(), (*bytes_per_row * *height) as usize);
        assert_eq!(*bytes_per_row, *width * 4);
        // The draw's modules are still the translated shader and the quad.
        let d = p.draw.as_ref().unwrap();
        assert_eq!((p.modules[d.fragment_module].translated, p.modules[d.vertex_module].stage), (true, "vertex"));
    }
}

#[test]
fn emulated_bindings_are_bound_as_the_translator_states() {
    // A 1D array texture: the translator states a 2d-array view; the plan
    // binds a 2D array of height 1.
    let rel = "fxc/directxtex_ps1darray.dxbc";
    let s = common::shader(rel);
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).unwrap();
    let b = t
        .bindings
        .iter()
        .find(|b| matches!(&b.kind, dxbc_naga::BindingKind::SampledTexture { dimension, .. } if dimension == "texture1darray"))
        .expect("a 1D array binding");
    let dxbc_naga::BindingKind::SampledTexture { view_dimension, .. } = &b.kind else { unreachable!() };
    let p = plan_of(rel, &Settings::default());
    let e = p.entries.iter().find(|e| (e.group, e.binding) == (b.group, b.binding)).expect("bound");
    let Resource::Texture { view_dimension: view, dimension, height, depth_or_layers, width, blob, .. } = &e.resource
    else {
        panic!("{:?}", e.resource)
    };
    assert_eq!((*view, *dimension, *height), (view_dimension.as_str(), "2d", 1));
    assert!(*depth_or_layers >= 1 && *width > 1);
    assert_eq!(p.blobs[*blob].len(), (*width * *depth_or_layers * 4) as usize);
    // A UAV counter: its own 4-byte storage buffer, count 0.
    let rel = "blobs/vkd3d_d3d12_ps_code_13.dxbc";
    let s = common::shader(rel);
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).unwrap();
    let c = t.bindings.iter().find(|b| b.kind == dxbc_naga::BindingKind::UavCounter).expect("a counter");
    let p = plan_of(rel, &Settings::default());
    let e = p.entries.iter().find(|e| (e.group, e.binding) == (c.group, c.binding)).expect("counter bound");
    let Resource::Buffer { kind, blob } = &e.resource else { panic!("{:?}", e.resource) };
    assert_eq!((*kind, p.blobs[*blob].as_slice()), ("storage", &[0u8; 4][..]));
}

#[test]
fn a_hull_shader_plans_its_passes_the_tessellator_and_an_indirect_draw() {
    // The example: a tri patch of 3 control points, every factor 4, integer partitioning.
    let bytes = dxbc::examples::constant_tessellation_hull_shader();
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let m = PreviewModel::new(&s);
    let p = plan::build(&s, &m, &m.defaults(), &Settings::default()).unwrap();
    assert_eq!(p.stage, Stage::Hull);
    let passes = p.passes.as_ref().unwrap();
    let labels: Vec<(&str, &str)> = passes.compute.iter().map(|c| (c.label, c.entry.as_str())).collect();
    assert_eq!(
        labels,
        [
            ("vertex", "main"),
            ("hull control points", "main"),
            ("hull patch constants", "main"),
            ("tessellator", "count"),
            ("tessellator", "scan"),
            ("tessellator", "generate"),
            ("draw arguments", "main"),
        ]
    );
    let size = |i: usize| passes.buffers[i].size;
    // One patch: its 3 input and 3 output control points, one patch-constant record (512 bytes each).
    assert_eq!((size(0), size(1), size(2), size(3)), (3 * 512, 3 * 512, 3 * 512, 512));
    // The tessellator's parameters: the factors at the words the patch-constant signature names.
    let params = passes.buffers.iter().find(|b| b.uniform).unwrap();
    let words: Vec<u32> =
        p.blobs[params.blob.unwrap()].chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect();
    // Tri (0), integer (0), triangle_cw (2), one patch, 128 words a record; edges in o0.x–o2.x, inside in o3.x.
    assert_eq!(words[..5], [0, 0, 2, 1, 128]);
    assert_eq!(words[8..12], [0, 4, 8, 12]);
    // Each pass reads what the one before wrote; the draw pulls the domain points by the tessellator's indices.
    let writes = |c: &plan::ComputePass| c.buffers.iter().filter(|b| b.writable).map(|b| b.buffer).collect::<Vec<_>>();
    let reads = |c: &plan::ComputePass| c.buffers.iter().filter(|b| !b.writable).map(|b| b.buffer).collect::<Vec<_>>();
    let c = &passes.compute;
    assert_eq!((writes(&c[0]), reads(&c[1])), (vec![1], vec![1]));
    assert_eq!(writes(&c[1]), [2]);
    assert!(reads(&c[2]).contains(&2) && writes(&c[2]) == [3]);
    assert!(reads(&c[3]).contains(&3));
    let (points, indices, arguments) = (writes(&c[5])[1], writes(&c[5])[2], writes(&c[6])[0]);
    assert_eq!(passes.draw_buffers[0].buffer, points);
    assert_eq!((passes.draw_indices, passes.draw_indirect), (Some(indices), Some(arguments)));
    assert!(size(indices) >= u64::from(tessellator::wgsl::MAX_PATCH_INDICES) * 4);
    let d = p.draw.as_ref().unwrap();
    assert_eq!((d.topology, d.depth), ("triangle-list", None));
    assert!(c[1].shader_entries && c[2].shader_entries && !c[3].shader_entries);
}

/// The 32-bit words of a blob.
fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect()
}

#[test]
fn a_lone_domain_shader_plans_fixed_factors_the_tessellator_and_a_draw_of_its_own() {
    // A quad patch of 4 control points (SV_Position in v0, COLOR in v1),
    // bilinear between them; its patch-constant signature puts the four
    // edge factors in o0.x–o3.x and the two inside factors in o4.x, o5.x.
    let p = plan_of("fxc/dxdecompiler_apps_tesselation_ds.dxbc", &Settings::default());
    assert_eq!(p.stage, Stage::Domain);
    let passes = p.passes.as_ref().unwrap();
    let labels: Vec<(&str, &str)> = passes.compute.iter().map(|c| (c.label, c.entry.as_str())).collect();
    assert_eq!(
        labels,
        [("tessellator", "count"), ("tessellator", "scan"), ("tessellator", "generate"), ("draw arguments", "main")]
    );
    // Control points: the plane's corners, position and colour at the registers the input signature names.
    let mesh = preview_model::mesh::plane();
    let cps = words_of(&p.blobs[passes.buffers[0].blob.unwrap()]);
    assert_eq!(cps.len(), 4 * 128);
    for i in 0..4 {
        let [x, y, z] = mesh.positions[i];
        assert_eq!(cps[i * 128..i * 128 + 4], [x.to_bits(), y.to_bits(), z.to_bits(), 1f32.to_bits()]);
        assert_eq!(cps[i * 128 + 4..i * 128 + 8], mesh.colors[i].map(f32::to_bits));
    }
    // The patch constants: the preview's factor at every factor word, nothing else.
    let pc = words_of(&p.blobs[passes.buffers[1].blob.unwrap()]);
    let f = plan::DOMAIN_TESS_FACTOR.to_bits();
    for (w, &v) in pc.iter().enumerate() {
        assert_eq!(v, if w % 4 == 0 && w < 24 { f } else { 0 }, "word {w}");
    }
    // The tessellator reads those words: quad (1), fractional_odd (2), triangle_cw (2), one patch.
    let params = passes.buffers.iter().find(|b| b.uniform).unwrap();
    let words = words_of(&p.blobs[params.blob.unwrap()]);
    assert_eq!(words[..5], [1, 2, 2, 1, 128]);
    assert_eq!(words[8..14], [0, 4, 8, 12, 16, 20]);
    // The draw: the domain shader itself as the vertex stage, reading the
    // control points, the patch constants and the tessellator's points,
    // drawn by its indices and the arguments the last pass writes.
    let c = &passes.compute;
    let writes = |c: &plan::ComputePass| c.buffers.iter().filter(|b| b.writable).map(|b| b.buffer).collect::<Vec<_>>();
    let (points, indices, arguments) = (writes(&c[2])[1], writes(&c[2])[2], writes(&c[3])[0]);
    let mut read: Vec<usize> = passes.draw_buffers.iter().map(|b| b.buffer).collect();
    read.sort();
    assert_eq!(read, [0, 1, points]);
    assert!(passes.draw_buffers.iter().all(|b| !b.writable));
    assert_eq!((passes.draw_indices, passes.draw_indirect), (Some(indices), Some(arguments)));
    assert!(passes.draw_entries && c.iter().all(|c| !c.shader_entries));
    let d = p.draw.as_ref().unwrap();
    assert!(p.modules[d.vertex_module].translated);
    assert_eq!(p.modules[d.vertex_module].stage, "vertex");
    assert_eq!((d.topology, d.depth), ("triangle-list", None));
    // The built-in fragment stage shows the first output after the position (COLOR, o1).
    assert!(p.modules[d.fragment_module].code.contains("@location(1)"));
}

#[test]
fn a_bicubic_domain_shader_gets_a_grid_of_control_points() {
    // SimpleBezier11: 16 control points, BEZIERPOS (no mesh attribute: the ramp, u, v, (u + v) / 2, 1).
    let p = plan_of("fxc/dxdecompiler_simplebezier11_simplebezier11_ds.dxbc", &Settings::default());
    let passes = p.passes.as_ref().unwrap();
    let cps = words_of(&p.blobs[passes.buffers[0].blob.unwrap()]);
    assert_eq!(cps.len(), 16 * 128);
    // Control point 6 is row 1, column 2 of the 4 × 4 grid.
    let (u, v) = (2.0f32 / 3.0, 1.0f32 / 3.0);
    assert_eq!(cps[6 * 128..6 * 128 + 3], [u.to_bits(), v.to_bits(), ((u + v) * 0.5).to_bits()]);
    // Its cbuffer (the view-projection matrix) is bound for the draw.
    assert!(passes.draw_entries && p.entries.iter().any(|e| e.register == "b0"));
}

/// The plan of a pipeline of corpus shaders, the first previewed.
fn pipeline_of(rel: &[&str]) -> Result<plan::Plan, plan::PlanError> {
    let shaders: Vec<dxbc::Shader> = rel.iter().map(|r| common::shader(r)).collect();
    let models: Vec<PreviewModel> = shaders.iter().map(PreviewModel::new).collect();
    let values: Vec<preview_model::Values> = models.iter().map(|m| m.defaults()).collect();
    let stages: Vec<plan::PipelineShader> = (0..shaders.len())
        .map(|i| plan::PipelineShader { shader: &shaders[i], model: &models[i], values: &values[i] })
        .collect();
    plan::build_pipeline(&stages, &Settings::default())
}

#[test]
fn a_vertex_shader_runs_as_compute_before_a_geometry_shader() {
    // FluidCS11's render pair: the VS reads particle i from two structured
    // buffers by SV_VertexID, the GS expands each point to a quad.
    let p = pipeline_of(&[
        "fxc/dxdecompiler_fluidcs11_fluidrender_gs.dxbc",
        "fxc/dxdecompiler_fluidcs11_fluidrender_vs.dxbc",
    ])
    .unwrap();
    assert_eq!((p.stage, p.shaders.as_slice()), (Stage::Geometry, &[Stage::Geometry, Stage::Vertex][..]));
    let passes = p.passes.as_ref().unwrap();
    let (vs, gs) = (&passes.compute[0], &passes.compute[1]);
    // The user's VS is the vertex pass, binding its own buffers (t0, t1); the GS pass the GS's.
    assert!(p.modules[vs.module].translated && vs.shader_entries && vs.shader == 1);
    assert!(gs.shader_entries && gs.shader == 0);
    let regs = |s: u32| p.entries.iter().filter(|e| e.shader == s).map(|e| e.register.as_str()).collect::<Vec<_>>();
    assert_eq!(regs(1), ["t0", "t1"]);
    // Its input records hold SV_VertexID: record i is mesh vertex i.
    let input = words_of(&p.blobs[passes.buffers[0].blob.unwrap()]);
    let points = Settings::default().mesh.build().positions.len();
    assert_eq!(input.len(), points * 128);
    assert!((0..points).all(|i| input[i * 128] == i as u32));
    // The VS writes the records the GS reads.
    let writes = |c: &plan::ComputePass| c.buffers.iter().filter(|b| b.writable).map(|b| b.buffer).collect::<Vec<_>>();
    let reads = |c: &plan::ComputePass| c.buffers.iter().filter(|b| !b.writable).map(|b| b.buffer).collect::<Vec<_>>();
    assert_eq!(writes(vs), reads(gs));
    // The order of the files does not matter, only which is previewed.
    let q = pipeline_of(&[
        "fxc/dxdecompiler_fluidcs11_fluidrender_vs.dxbc",
        "fxc/dxdecompiler_fluidcs11_fluidrender_gs.dxbc",
    ])
    .unwrap();
    assert_eq!(q.shaders, [Stage::Vertex, Stage::Geometry]);
    assert_eq!(q.modules, p.modules);
}

#[test]
fn a_vertex_hull_and_domain_shader_run_as_one_pipeline() {
    // One application's three stages: the VS transforms the control points
    // by World, View and Projection, the HS sets factors from its
    // constants, the DS interpolates bilinearly.
    let p = pipeline_of(&[
        "fxc/dxdecompiler_apps_tesselation_hs.dxbc",
        "fxc/dxdecompiler_apps_tesselation_vs.dxbc",
        "fxc/dxdecompiler_apps_tesselation_ds.dxbc",
    ])
    .unwrap();
    assert_eq!(p.stage, Stage::Hull);
    let passes = p.passes.as_ref().unwrap();
    let c = &passes.compute;
    assert_eq!((c[0].label, c[0].shader_entries, c[0].shader), ("vertex", true, 1));
    assert!(p.modules[c[0].module].translated);
    assert!(c[1].shader_entries && c[1].shader == 0 && c[2].shader == 0);
    // The draw: the user's DS, its entries, and the control points, patch constants and points it reads.
    let d = p.draw.as_ref().unwrap();
    assert!(p.modules[d.vertex_module].translated);
    assert!(passes.draw_entries && passes.draw_shader == 2);
    let mut read: Vec<usize> = passes.draw_buffers.iter().map(|b| b.buffer).collect();
    read.sort();
    assert_eq!(read, [2, 3, 6]);
    // The VS and the HS each bind their own b0 (the DS has no resources).
    let b0: Vec<u32> = p.entries.iter().filter(|e| e.register == "b0").map(|e| e.shader).collect();
    assert_eq!(b0, [0, 1]);
    // Control values are the previewed shader's: its b0 is the one a control writes.
    assert_eq!(p.entries[p.uniform_entry(0, 0).unwrap()].shader, 0);
}

#[test]
fn pipelines_are_linked_by_signature_and_by_stage() {
    // The fluid GS reads POSITION.xy and COLOR: the detail-tessellation particle VS writes POSITION only.
    let e = pipeline_of(&[
        "fxc/dxdecompiler_fluidcs11_fluidrender_gs.dxbc",
        "fxc/dxdecompiler_detailtessellation11_particle_vs.dxbc",
    ])
    .unwrap_err();
    let gs = common::shader("fxc/dxdecompiler_fluidcs11_fluidrender_gs.dxbc");
    let colour = gs.input_signature.as_ref().unwrap().elements.iter().find(|e| e.name == "COLOR").unwrap();
    assert_eq!(
        e,
        plan::PlanError::Link {
            message: "vertex → geometry: the input COLOR0 in v1 (xyzw) is not written there by the stage before".into(),
            offset: colour.offset
        }
    );
    assert!(e.to_string().ends_with(&format!("(at offset {:#x})", colour.offset)));
    // A domain shader of another domain than the hull shader's.
    let e = pipeline_of(&[
        "fxc/dxdecompiler_apps_tesselation_hs.dxbc",
        "fxc/dxdecompiler_pntriangles11_pntriangles11_ds.dxbc",
    ])
    .unwrap_err();
    assert!(e.to_string().starts_with("hull → domain: the input POSITION0 in v0"), "{e}");
    // Stages the preview does not chain.
    for set in [
        &["fxc/dxdecompiler_fluidcs11_fluidrender_vs.dxbc", "fxc/angle930_clearfloat11ps.dxbc"][..],
        &["fxc/dxdecompiler_fluidcs11_fluidrender_vs.dxbc", "fxc/dxdecompiler_apps_tesselation_vs.dxbc"][..],
        &["fxc/dxdecompiler_fluidcs11_fluidrender_vs.dxbc", "fxc/dxdecompiler_apps_tesselation_ds.dxbc"][..],
    ] {
        let e = pipeline_of(set).unwrap_err();
        assert!(matches!(e, plan::PlanError::Pipeline(_)), "{set:?}: {e:?}");
    }
}
