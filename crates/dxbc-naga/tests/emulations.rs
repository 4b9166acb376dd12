//! The exact emulations (src/emulate/), each on corpus shaders that need
//! it: the shader translates and validates, the translation reports the
//! emulation, and the emitted WGSL / bindings / I/O have the emulated form.
//! (spirv-val of every corpus module is in corpus_translate.rs; execution
//! against vkd3d's probes — gather-offset 016, uav-atomics 014 — is the
//! shader runner's.)

use dxbc_naga::{BindingKind, Emulation, Translation};
use std::path::PathBuf;

fn translate(rel: &str) -> (dxbc::Shader, Translation, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("corpus file {} missing: {e}", path.display()));
    let shader = dxbc::Shader::parse(&bytes).unwrap_or_else(|e| panic!("{rel}: {e:?}"));
    let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let wgsl = dxbc_naga::to_wgsl(&t).unwrap_or_else(|e| panic!("{rel}: {e}"));
    for (name, r) in [
        ("spirv", dxbc_naga::to_spirv(&t).map(|_| ())),
        ("glsl", dxbc_naga::to_glsl(&t).map(|_| ())),
        ("hlsl", dxbc_naga::to_hlsl(&t).map(|_| ())),
        ("msl", dxbc_naga::to_msl(&t).map(|_| ())),
    ] {
        r.unwrap_or_else(|e| panic!("{rel}: {name}: {e}"));
    }
    (shader, t, wgsl)
}

/// The listing of a shader (fxc's format, the CLI's `disasm`).
fn listing(shader: &dxbc::Shader) -> String {
    dxbc::listing::disassemble(shader)
}

#[test]
fn tiled_feedback_reports_every_tile_resident() {
    for rel in [
        "blobs/vkd3dproton_sparse_sparse_query.dxbc",
        "blobs/vkd3dproton_sparse_buffer_feedback_ld_raw.dxbc",
        "blobs/vkd3dproton_sparse_texture_feedback_ld.dxbc",
        "blobs/vkd3dproton_sparse_texture_feedback_sample_lod.dxbc",
        "blobs/vkd3dproton_sparse_texture_feedback_gather.dxbc",
        "blobs/vkd3dproton_sparse_texture_feedback_gather_po.dxbc",
        "fxc/dxdecompiler_operations_uav_rwtexture2d.dxbc",
    ] {
        let (shader, t, wgsl) = translate(rel);
        assert!(listing(&shader).contains("_s_indexable"), "{rel} has no feedback opcode");
        assert!(t.emulations.contains(&Emulation::TiledFeedback), "{rel}");
        // check_access_fully_mapped is all ones (true); the status is 0.
        if listing(&shader).contains("check_access_fully_mapped") {
            assert!(wgsl.contains("0xffffffffu"), "{rel}");
        }
    }
    // A clamp that is not a literal <= 0: SPIR-V's MinLod (tests/spirv_post.rs);
    // the text targets refuse it, typed.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/blobs/vkd3dproton_sparse_texture_feedback_sample.dxbc");
    let shader = dxbc::Shader::parse(&std::fs::read(path).expect("corpus file")).unwrap();
    let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).unwrap();
    assert!(dxbc_naga::to_spirv(&t).is_ok());
    let e = dxbc_naga::to_wgsl(&t).unwrap_err();
    assert_eq!(e.limitation(), Some(dxbc_naga::Limitation::LodClamp));
}

#[test]
fn vertex_shader_feeding_a_gs_gets_a_synthesised_position() {
    let rel = "fxc/dxdecompiler_detailtessellation11_detailtessellation11_vs.dxbc";
    let (shader, t, wgsl) = translate(rel);
    assert!(t.emulations.contains(&Emulation::SynthesisedPosition));
    let synthesised: Vec<_> = t.outputs.iter().filter(|o| o.synthesised).collect();
    assert_eq!(synthesised.len(), 1);
    assert_eq!(synthesised[0].builtin.as_deref(), Some("position"));
    assert_eq!(synthesised[0].semantic, "SV_Position");
    // The real outputs keep location = register, as the signature gives them.
    let sig = shader.output_signature.as_ref().expect("output signature");
    let real: Vec<_> = t.outputs.iter().filter(|o| !o.synthesised).collect();
    assert!(!real.is_empty());
    for o in real {
        assert!(sig.elements.iter().any(|e| e.register == o.register && e.name == o.semantic), "{o:?}");
        assert_eq!(o.location, Some(o.register), "{o:?}");
    }
    assert!(wgsl.contains("@builtin(position) synthesised_position: vec4<f32>"), "{wgsl}");
    assert!(wgsl.contains("vec4<f32>(0f, 0f, 0f, 1f)"), "{wgsl}");
}

#[test]
fn texture_1d_arrays_are_2d_arrays_of_height_one() {
    for rel in [
        "vkd3d/uav-rwtexture/024_ps_5_0.dxbc",
        "vkd3d/uav-rwtexture/025_ps_5_0.dxbc",
        "fxc/directxtex_ps1darray.dxbc",
        "fxc/d3d12tl_precompiledshaders_g_genmipsps1d.dxbc",
    ] {
        let (_, t, wgsl) = translate(rel);
        assert!(t.emulations.contains(&Emulation::Texture1dArrayAs2dArray), "{rel}");
        let one_d: Vec<_> = t
            .bindings
            .iter()
            .filter_map(|b| match &b.kind {
                BindingKind::SampledTexture { dimension, view_dimension, .. }
                | BindingKind::StorageTexture { dimension, view_dimension, .. }
                    if dimension == "texture1darray" =>
                {
                    Some(view_dimension.as_str())
                }
                _ => None,
            })
            .collect();
        assert!(!one_d.is_empty(), "{rel}: no 1D array binding");
        assert!(one_d.iter().all(|v| *v == "2d-array"), "{rel}: {one_d:?}");
        assert!(wgsl.contains("texture_2d_array<") || wgsl.contains("texture_storage_2d_array<"), "{rel}");
        assert!(!wgsl.contains("texture_1d"), "{rel}");
    }
    // Sampling is at the centre of the only row.
    let (_, _, wgsl) = translate("fxc/directxtex_ps1darray.dxbc");
    assert!(wgsl.contains("0.5f)"), "{wgsl}");
}

#[test]
fn uav_counters_get_their_own_binding() {
    for (rel, register) in [
        ("blobs/vkd3d_d3d12_cs_producer_code.dxbc", 0),
        ("fxc/dxdecompiler_operations_uav_appendstructuredbuffer.dxbc", 1),
    ] {
        let (_, t, wgsl) = translate(rel);
        assert!(t.emulations.contains(&Emulation::UavCounters), "{rel}");
        let counter = t.bindings.iter().find(|b| b.kind == BindingKind::UavCounter).expect("a counter binding");
        assert_eq!(counter.register, register, "{rel}");
        assert_eq!(
            (counter.group, counter.binding),
            dxbc_naga::BindingScheme::GroupPerClass.place_counter(register, 0)
        );
        // It does not collide with any other binding.
        assert_eq!(t.bindings.iter().filter(|b| (b.group, b.binding) == (counter.group, counter.binding)).count(), 1);
        assert!(wgsl.contains("atomic<u32>"), "{rel}");
    }
    let (_, _, wgsl) = translate("blobs/vkd3d_d3d12_cs_producer_code.dxbc");
    assert!(wgsl.contains("atomicAdd((&u0_counter), 1u)"), "{wgsl}");
    let (_, _, wgsl) = translate("blobs/vkd3d_d3d12_cs_consumer_code.dxbc");
    assert!(wgsl.contains("atomicSub((&u"), "{wgsl}");
}

#[test]
fn gather_with_a_register_offset_folds_it_into_the_coordinate() {
    for rel in ["vkd3d/gather-offset/016_ps_5_0.dxbc", "blobs/vkd3d_d3d12_gather4_po_c_code.dxbc"] {
        let (_, t, wgsl) = translate(rel);
        assert!(t.emulations.contains(&Emulation::GatherRegisterOffset), "{rel}");
        assert!(wgsl.contains("textureGather"), "{rel}");
        // Six signed bits: shifted up and back by 26.
        assert!(wgsl.contains("26u"), "{rel}");
    }
}

#[test]
fn lod_samplepos_msad_and_mixed_sign_atomics_translate() {
    // Every corpus shader with `lod` is refused for another reason (a LOD
    // clamp, comparison bias): this one is assembled from fxc's listing form.
    let listing = "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_sampler s0, mode_default\n\
                   dcl_resource_texture2d (float,float,float,float) t0\ndcl_input_ps linear v0.xy\n\
                   dcl_output o0.xyzw\nlod o0.xyzw, v0.xyxx, t0.xyzw, s0\nret\n";
    let bytes = dxbc::asm::assemble(listing).expect("assembles");
    let shader = dxbc::Shader::parse(&bytes).unwrap();
    let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).expect("lod translates");
    let wgsl = dxbc_naga::to_wgsl(&t).unwrap();
    assert!(t.emulations.contains(&Emulation::Lod));
    // ρ = max(|∂uv/∂x · size|, |∂uv/∂y · size|); x clamped to the levels, y not.
    assert!(wgsl.contains("log2(max(length((_e8 * _e7)), length((_e9 * _e7))))"), "{wgsl}");
    assert!(wgsl.contains("vec4<f32>(clamp(_e15, 0f, f32((_e16 - 1u))), _e15, 0f, 0f)"), "{wgsl}");
    let (_, t, wgsl) = translate("fxc/dxdecompiler_operations_texture_texture2dms.dxbc");
    assert!(t.emulations.contains(&Emulation::SamplePositions));
    assert!(wgsl.contains("textureNumSamples("));
    // The table is D3D's: 4 samples' first position is (-2/16, -6/16).
    assert!(wgsl.contains("vec2<f32>(-0.125f, -0.375f)"), "{wgsl}");
    assert_eq!(dxbc_naga::standard_sample_position(4, 0), (-0.125, -0.375));
    let (_, t, _) = translate("blobs/vkd3dproton_shaders_cs_msad.dxbc");
    assert!(t.emulations.contains(&Emulation::Msad));
    for rel in ["vkd3d/uav-atomics/014_cs_5_0.dxbc", "blobs/vkd3d_d3d12_cs_atomics_code.dxbc"] {
        let (_, t, wgsl) = translate(rel);
        assert!(t.emulations.contains(&Emulation::MixedSignAtomics), "{rel}");
        assert!(wgsl.contains("atomicCompareExchangeWeak("), "{rel}");
    }
}

#[test]
fn emulation_names_are_unique() {
    let mut seen = std::collections::HashSet::new();
    for e in Emulation::ALL {
        assert!(seen.insert(e.name()), "{e}");
        assert!(!e.what().is_empty());
    }
}

#[test]
fn rasterizer_sampleinfo_reads_the_sample_count_binding_on_every_target() {
    // vkd3d rt-get-sample-info 002: GetRenderTargetSampleCount().
    for rel in ["vkd3d/rt-get-sample-info/002_ps_4_1.dxbc", "vkd3d/rt-get-sample-info/002_ps_5_0.dxbc"] {
        let (shader, t, wgsl) = translate(rel);
        assert!(listing(&shader).contains("rasterizer"), "{rel} has no sampleinfo of the rasterizer");
        assert!(t.emulations.contains(&Emulation::RasterizerSampleCount), "{rel}");
        let b: Vec<_> = t.bindings.iter().filter(|b| b.kind == dxbc_naga::BindingKind::RasterizerSampleCount).collect();
        assert_eq!(b.len(), 1, "{rel}");
        assert_eq!((b[0].group, b[0].binding), dxbc_naga::BindingScheme::GroupPerClass.place_rasterizer_sample_count());
        assert!(wgsl.contains("@group(0) @binding(128)"), "{rel}");
        assert!(t.target_refusals.is_empty(), "{rel}");
    }
}

/// Interfaces: every corpus shader with `fcall` translates on every target
/// (spirv-val in corpus_translate.rs), reports the emulation and binds the
/// class instances; each `fcall` is a switch with one case per table the
/// interface lists (fxc's `dcl_interface` line).
#[test]
fn interfaces_switch_over_the_selected_table() {
    for (rel, slots, switches) in [
        ("fxc/dxdecompiler_ps5_interfaces.dxbc", 3, 3),
        ("fxc/slimshader_ps5_interfaces.dxbc", 3, 3),
        ("fxc/slimshader_ps5_interface_arrays.dxbc", 6, 3),
        ("fxc/dxdecompiler_general_advancedhlsl_vs.dxbc", 1, 3),
        ("fxc/slimshader_dynamicshaderlinkage11_dynamicshaderlinkage11_ps.dxbc", 4, 8),
    ] {
        let (shader, t, wgsl) = translate(rel);
        let text = listing(&shader);
        assert_eq!(text.matches("\nfcall ").count(), switches, "{rel}");
        assert!(t.emulations.contains(&Emulation::ClassInstances), "{rel}");
        let b: Vec<_> = t.bindings.iter().filter(|b| matches!(b.kind, BindingKind::ClassInstances { .. })).collect();
        assert_eq!(b.len(), 1, "{rel}");
        let BindingKind::ClassInstances { slots: n, default_words } = &b[0].kind else { unreachable!() };
        assert_eq!((*n, default_words.len()), (slots, slots as usize * 8), "{rel}");
        assert!(wgsl.contains(&format!("var<uniform> class_instances: array<vec4<u32>, {}>", slots * 2)), "{rel}");
        // Each fcall's switch: the first listed table shares its case with default.
        assert_eq!(wgsl.matches(", default: {").count(), switches, "{rel}");
        for line in text.lines().filter(|l| l.starts_with("dcl_interface")) {
            let tables = line.split('{').nth(1).unwrap().trim_end_matches('}');
            for ft in tables.split(", ") {
                let n: u32 = ft.trim_start_matches("ft").parse().unwrap();
                assert!(wgsl.contains(&format!("case {n}u")), "{rel}: no case for {ft}");
            }
        }
    }
}

/// The default selection follows IFCE as fxc lists it for
/// DynamicShaderLinkage11's PS ("Available Class Instances", "Interface
/// slots"): slot 0 (materials, types 0-6) gets the first listed instance of
/// those types, g_plasticMaterial (type 5: table ft5, cb1 row 0); slots 1-3
/// (lights, types 7-12) get g_ambientLight (type 12, cb0 row 0), whose
/// tables there are ft12, ft18 and ft24.
#[test]
fn default_class_instances_follow_ifce() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/fxc/slimshader_dynamicshaderlinkage11_dynamicshaderlinkage11_ps.dxbc");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("corpus file {} missing: {e}", path.display()));
    let shader = dxbc::Shader::parse(&bytes).unwrap();
    let text = listing(&shader);
    assert!(text.contains("// g_plasticMaterial              5  1         0       -       -"));
    assert!(text.contains("// g_ambientLight                12  0         0       -       -"));
    let w = dxbc_naga::default_class_instances(&shader);
    let this: Vec<&[u32]> = w.chunks(4).take(4).collect();
    assert_eq!(this, [&[1, 0, 0, 0][..], &[0, 0, 0, 0], &[0, 0, 0, 0], &[0, 0, 0, 0]]);
    let tables: Vec<u32> = w.chunks(4).skip(4).map(|r| r[0]).collect();
    assert_eq!(tables, [5, 12, 18, 24]);
}

#[test]
fn atomics_on_a_1d_array_typed_uav_address_its_2d_array() {
    // A typed UAV texture 1D array is declared as a 2D array of height one;
    // an atomic's address (x, layer) becomes ((x, 0), layer), as loads and
    // stores already do.
    let listing = "cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_typed_texture1darray (uint,uint,uint,uint) u0
dcl_input vThreadID.xy
dcl_thread_group 8, 8, 1
atomic_iadd u0, vThreadID.xyxx, l(1)
ret
";
    let bytes = dxbc::asm::assemble(listing).expect("the fixture assembles");
    let shader = dxbc::Shader::parse(&bytes).expect("parses");
    let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).expect("translates and validates");
    assert!(t.emulations.contains(&Emulation::Texture1dArrayAs2dArray));
    // naga's validator checks the coordinate against the image's dimension
    // (a scalar x for the 2D array was refused); SPIR-V is written.
    assert!(!dxbc_naga::to_spirv(&t).expect("SPIR-V").is_empty());
}
