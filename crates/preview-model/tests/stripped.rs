//! Shaders without reflection (stripped, as shipped): raw `float4` editors
//! for every declared constant-buffer range, defaults that put a mesh in
//! view, patterns for every declared texture; and the thread-group clamp.

#[allow(dead_code)] // each test binary uses part of it
mod common;

use preview_model::camera::{camera_values, Camera};
use preview_model::compute::{check_group, dispatch, set_thread_group, GroupLimits};
use preview_model::controls::CameraRole;
use preview_model::plan::{self, Resource};
use preview_model::settings::Settings;
use preview_model::{math, PreviewModel, Value};

/// `dcl_constantbuffer` ranges in fxc's own listing: (register, registers).
fn listed_ranges(rel: &str) -> Vec<(u32, u32)> {
    let asm = common::corpus_dir().join(rel.replace(".dxbc", ".asm"));
    let text = std::fs::read_to_string(&asm).unwrap_or_else(|e| panic!("{}: {e}", asm.display()));
    text.lines()
        .filter_map(|l| l.strip_prefix("dcl_constantbuffer "))
        .map(|l| {
            // `CB0[0:0][26], …` (SM5.1) or `cb0[26], …`.
            let head = l.split(',').next().unwrap();
            let nums: Vec<u32> = head
                .split(|c: char| !c.is_ascii_digit())
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().unwrap())
                .collect();
            match nums.as_slice() {
                [_, lo, _, n] => (*lo, *n),
                [r, n] => (*r, *n),
                other => panic!("unexpected {l}: {other:?}"),
            }
        })
        .collect()
}

fn floats(v: &Value) -> Vec<f32> {
    match v {
        Value::Floats(x) => x.clone(),
        other => panic!("{other:?}"),
    }
}

const VS: &str = "fxc/directxtk12_basiceffect_vsbasicvertexlightingbn.dxbc";

#[test]
fn stripped_shaders_get_an_editor_per_declared_register() {
    let mut seen = 0;
    for rel in [
        VS,
        "fxc/directxtk12_tonemap_pssaturate.dxbc",
        "fxc/directxtk12_pbreffect_vsconstant.dxbc",
        "fxc/directxtk12_alphatesteffect_vsalphatest.dxbc",
    ] {
        let s = common::shader(rel);
        assert!(s.rdef.is_none(), "{rel} has RDEF");
        let m = PreviewModel::new(&s);
        let ranges = listed_ranges(rel);
        assert!(!ranges.is_empty(), "{rel}");
        assert_eq!(m.cbuffers.len(), ranges.len(), "{rel}");
        for (cb, (reg, n)) in m.cbuffers.iter().zip(&ranges) {
            assert_eq!((cb.register, cb.size, cb.controls.len()), (Some(*reg), n * 16, *n as usize), "{rel}");
            assert!(cb.raw);
            for (i, c) in cb.controls.iter().enumerate() {
                assert_eq!(c.label, format!("{}[{i}]", cb.name));
                assert_eq!(c.component_offsets, (0..4).map(|k| i as u32 * 16 + k * 4).collect::<Vec<_>>());
            }
            seen += 1;
        }
        // The plan uploads the defaults into the uniform buffer of that register.
        let p = plan::build(&s, &m, &m.defaults(), &Settings::default()).unwrap_or_else(|e| panic!("{rel}: {e}"));
        for cb in &m.cbuffers {
            let e = p.uniform_entry(cb.register.unwrap(), cb.space).expect("bound");
            let Resource::Buffer { blob, .. } = &p.entries[e].resource else { panic!() };
            assert_eq!(&p.blobs[*blob][..cb.size as usize], &preview_model::pack(cb, &m.defaults())[..], "{rel}");
        }
    }
    assert!(seen >= 4);
}

#[test]
fn registers_dotted_into_the_position_hold_the_default_camera() {
    let s = common::shader(VS);
    let m = PreviewModel::new(&s);
    let cb = &m.cbuffers[0];
    // fxc's listing: dp4 o2.x..w, v0, CB0[0][22..25]; dp4 r1.xyz, v0, CB0[0][15..17].
    let listing = std::fs::read_to_string(common::corpus_dir().join(VS.replace(".dxbc", ".asm"))).unwrap();
    for (k, c) in "xyzw".chars().enumerate() {
        assert!(listing.contains(&format!("dp4 o2.{c}, v0.xyzw, CB0[0][{}].xyzw", 22 + k)), "{c}");
    }
    let vp = math::mul(&math::default_view(), &math::default_projection());
    let v = [0.5f32, 0.25, -0.75, 1.0];
    for (k, control) in cb.controls[22..26].iter().enumerate() {
        let reg = floats(&control.default);
        let dp4: f32 = v.iter().zip(&reg).map(|(a, b)| a * b).sum();
        let want: f32 = v.iter().zip(&vp).map(|(a, row)| a * row[k]).sum();
        assert!((dp4 - want).abs() < 1e-5, "component {k}: {dp4} vs {want}");
        assert_eq!(control.camera, Some(CameraRole::ViewProjectionColumn(k as u8)));
    }
    // The world matrix (into a temporary) is the identity; the rest lets colours through.
    for k in 0..3 {
        let want: Vec<f32> = (0..4).map(|r| (r == k) as u8 as f32).collect();
        assert_eq!(floats(&cb.controls[15 + k].default), want);
    }
    // mad o0.xyz, r1.xyzx, CB0[0][0].xyzx, CB0[0][1].xyzx: a colour (1) and an addend (0).
    assert!(listing.contains("mad o0.xyz, r1.xyzx, CB0[0][0].xyzx, CB0[0][1].xyzx"));
    assert_eq!(floats(&cb.controls[0].default), vec![1.0; 4]);
    assert_eq!(floats(&cb.controls[1].default), vec![0.0; 4]);
    // mad r2.xyz, r1.xyzx, r0.wwww, -CB0[0][3].xyzx: a light direction subtracted, not an offset.
    assert!(listing.contains("mad r2.xyz, r1.xyzx, r0.wwww, -CB0[0][3].xyzx"));
    assert_eq!(floats(&cb.controls[3].default), vec![1.0; 4]);
    // The default camera changes nothing; an orbit rewrites exactly the camera's registers.
    let same = camera_values(&m, &Camera::default());
    assert_eq!(same.len(), 4);
    for (id, v) in &same {
        let d = &m.cbuffers[0].controls.iter().find(|c| &c.id == id).unwrap().default;
        let (a, b) = (floats(v), floats(d));
        assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-6), "{id}: {a:?} vs {b:?}");
    }
    let turned = camera_values(&m, &Camera::default().orbit(40.0, 10.0));
    assert_eq!(turned.keys().collect::<Vec<_>>(), same.keys().collect::<Vec<_>>());
    assert_ne!(turned, same);
}

#[test]
fn added_registers_default_to_zero() {
    // `add r0.xy, v0.xyxx, cb0[7].xyxx`: a texel offset; 1 would load past the texture's edge.
    let rel = "fxc/hbaoplus_copydepth_ps_resolve_depth_1_depth_layer_count_2_d3d11.dxbc";
    let listing = std::fs::read_to_string(common::corpus_dir().join(rel.replace(".dxbc", ".asm"))).unwrap();
    assert!(listing.contains("add r0.xy, v0.xyxx, cb0[7].xyxx"));
    let m = PreviewModel::new(&common::shader(rel));
    assert_eq!(floats(&m.cbuffers[0].controls[7].default), vec![0.0; 4]);
    assert_eq!(floats(&m.cbuffers[0].controls[0].default), vec![1.0; 4]);
}

#[test]
fn reflected_camera_controls_follow_the_orbit() {
    // A shader with reflection: its view-projection matrix and eye position follow the camera.
    let s = common::shader("fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc");
    let m = PreviewModel::new(&s);
    let cam = Camera::default().orbit(-30.0, 5.0).zoom(2.0);
    let vals = camera_values(&m, &cam);
    for c in m.cbuffers.iter().flat_map(|b| &b.controls).filter(|c| c.camera.is_some()) {
        assert!(vals.contains_key(&c.id), "{}", c.id);
        if c.camera == Some(CameraRole::ViewProjection) {
            let want: Vec<f32> = cam.view_projection().iter().flatten().copied().collect();
            assert_eq!(floats(&vals[&c.id]), want);
        }
    }
}

#[test]
fn declared_textures_get_patterns_without_reflection() {
    let rel = "fxc/directxtk12_basiceffect_psbasictxnofog.dxbc";
    let s = common::shader(rel);
    assert!(s.rdef.is_none());
    let m = PreviewModel::new(&s);
    let p = plan::build(&s, &m, &m.defaults(), &Settings::default()).unwrap();
    let listing = std::fs::read_to_string(common::corpus_dir().join(rel.replace(".dxbc", ".asm"))).unwrap();
    let declared = listing.lines().filter(|l| l.starts_with("dcl_resource_texture")).count();
    let textures: Vec<_> = p.entries.iter().filter(|e| matches!(e.resource, Resource::Texture { .. })).collect();
    assert_eq!(textures.len(), declared);
    for e in textures {
        let Resource::Texture { blob, .. } = &e.resource else { unreachable!() };
        // A pattern, not a flat colour.
        let px = &p.blobs[*blob];
        assert!(px.chunks_exact(4).any(|t| t != &px[..4]), "{} is flat", e.register);
    }
}

#[test]
fn group_sizes_beyond_the_limits_are_clamped_by_an_edit() {
    let limits = GroupLimits { size: [256, 256, 64], invocations: 256 };
    assert_eq!(check_group([64, 4, 1], limits), None);
    let t = check_group([512, 1, 1], limits).unwrap();
    assert_eq!(t.clamped, [256, 1, 1]);
    assert_eq!(check_group([32, 32, 1], limits).unwrap().clamped, [16, 16, 1]);
    assert_eq!(check_group([1, 1, 128], limits).unwrap().clamped, [1, 1, 64]);
    assert_eq!(
        t.to_string(),
        "groups of 512×1×1 = 512 threads; this adapter allows at most 256×256×64 and 256 threads a group. Clamped to 256×1×1 the shader runs, on fewer threads than it was written for."
    );
    // The edit rewrites dcl_thread_group, as fxc's listing shows it.
    let rel = "fxc/dxdecompiler_computeshadersort11_computeshadersort11_bitonicsort.dxbc";
    let listing = std::fs::read_to_string(common::corpus_dir().join(rel.replace(".dxbc", ".asm"))).unwrap();
    assert!(listing.contains("dcl_thread_group 512, 1, 1"));
    let bytes = std::fs::read(common::corpus_dir().join(rel)).unwrap();
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let t = check_group(dispatch(&s).workgroup_size, limits).unwrap();
    let e = set_thread_group(&bytes, t.clamped).unwrap();
    assert_eq!(dispatch(&e.shader).workgroup_size, [256, 1, 1]);
    let text = dxbc::listing::disassemble(&e.shader);
    assert!(text.contains("dcl_thread_group 256, 1, 1"), "{text}");
    assert!(set_thread_group(b"junk", [1, 1, 1]).is_err());
}
