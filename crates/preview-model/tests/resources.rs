//! Textures, samplers, vertex inputs, meshes, compute buffers and the
//! permalink payload, on corpus shaders.

mod common;

use preview_model::compute::{BufferKind, CellFormat, Dispatch, MAX_INVOCATIONS};
use preview_model::mesh::{cube, plane, uv_sphere, MeshKind};
use preview_model::textures::{
    generate, AddressMode, Filter, Image, Pattern, TextureDimension, TextureFormat, TextureSource,
};
use preview_model::vertex::{mesh_inputs, ComponentType, Interpolation, Source, QUAD_COLORS};
use preview_model::{payload, PreviewModel, Stage, Value, Values};

const RESDEF: &str = "fxc/dxdecompiler_internal_resourcedefinitions.dxbc";
const MTR: &str = "fxc/dxdecompiler_multithreadedrendering11_multithreadedrenderin_d7bf.dxbc";

#[test]
fn texture_and_sampler_defaults() {
    let m = PreviewModel::new(&common::shader(MTR));
    let names: Vec<_> = m.textures.iter().map(|t| (t.name.as_str(), t.register, t.source.clone())).collect();
    assert_eq!(
        names,
        [
            ("g_txDiffuse", 0, TextureSource::Pattern(Pattern::Checker)),
            ("g_txNormal", 1, TextureSource::Pattern(Pattern::FlatNormal)),
            ("g_txShadow[0]", 2, TextureSource::Pattern(Pattern::Checker)),
        ]
    );
    let s: Vec<_> =
        m.samplers.iter().map(|s| (s.name.as_str(), s.register, s.filter, s.address, s.comparison)).collect();
    assert_eq!(
        s,
        [
            ("g_samPointClamp", 0, Filter::Nearest, AddressMode::Clamp, false),
            ("g_samLinearWrap", 1, Filter::Linear, AddressMode::Wrap, false)
        ]
    );
    let img = m.textures[0].image(&m.textures[0].source);
    assert_eq!((img.width, img.height, img.layers, img.format), (256, 256, 1, TextureFormat::Rgba8Unorm));
    assert_eq!(img.data.len(), 256 * 256 * 4);

    // Every SRV dimension gets an extent and a format; the comparison sampler is marked.
    let m = PreviewModel::new(&common::shader(RESDEF));
    let dims: Vec<_> = m.textures.iter().map(|t| (t.name.as_str(), t.dimension)).collect();
    assert_eq!(
        dims,
        [
            ("tex1", TextureDimension::D1),
            ("tex2", TextureDimension::D1Array),
            ("tex3", TextureDimension::D2),
            ("tex4", TextureDimension::D2Array),
            ("tex5", TextureDimension::D3),
            ("tex6", TextureDimension::Cube),
            ("tex7", TextureDimension::CubeArray),
            ("tex10", TextureDimension::D2Ms),
            ("tex11", TextureDimension::D2MsArray),
        ]
    );
    let cube = m.textures.iter().find(|t| t.name == "tex6").unwrap();
    assert_eq!(cube.image(&cube.source).layers, 6);
    assert!(m.samplers[1].comparison && !m.samplers[0].comparison);
}

#[test]
fn patterns_are_deterministic_and_exact() {
    for p in Pattern::ALL {
        let a = generate(p, 64, 32, 2, TextureFormat::Rgba8Unorm);
        assert_eq!(a, generate(p, 64, 32, 2, TextureFormat::Rgba8Unorm), "{p:?}");
        assert_eq!(a.data.len(), 64 * 32 * 2 * 4);
        assert_eq!(Pattern::from_name(p.name()), Some(p));
    }
    let c = generate(Pattern::Checker, 16, 16, 1, TextureFormat::Rgba8Unorm);
    // Square (0,0) of layer 0 is the orientation mark; (1,0) is dark, (1,1) light.
    assert_eq!(&c.data[0..4], &[242, 140, 64, 255]);
    assert_eq!(&c.data[2 * 4..2 * 4 + 4], &[64, 64, 64, 255]);
    let at = (2 * 16 + 2) * 4;
    assert_eq!(&c.data[at..at + 4], &[217, 217, 217, 255]);
    let g = generate(Pattern::Gradient, 2, 2, 1, TextureFormat::Rgba32Float);
    assert_eq!(g.texel(3), [0.75, 0.75, 0.75, 1.0]);
    let n = generate(Pattern::Noise, 128, 128, 1, TextureFormat::Rgba8Unorm);
    let distinct: std::collections::BTreeSet<u8> = n.data.chunks(4).map(|p| p[0]).collect();
    assert!(distinct.len() > 64, "noise has {} grey levels", distinct.len());
    let u = generate(Pattern::White, 4, 4, 1, TextureFormat::Rgba32Uint);
    assert_eq!(u.texel(5), [255.0; 4]);
}

#[test]
fn user_images_replace_patterns() {
    assert!(Image::from_rgba8(2, 2, vec![0; 15]).is_none());
    assert!(Image::from_rgba8(0, 2, vec![]).is_none());
    let img = Image::from_rgba8(2, 1, vec![255, 0, 0, 255, 0, 128, 255, 255]).unwrap();
    let m = PreviewModel::new(&common::shader(RESDEF));
    let cube = m.textures.iter().find(|t| t.name == "tex6").unwrap();
    let up = cube.image(&TextureSource::User(img.clone()));
    assert_eq!((up.width, up.height, up.layers), (2, 1, 6));
    assert_eq!(&up.data[8..16], &img.data[..]);
    let f = img.convert(TextureFormat::Rgba32Float, 1);
    assert_eq!(f.texel(0), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(f.convert(TextureFormat::Rgba8Unorm, 1), img);
    let i = img.convert(TextureFormat::Rgba32Uint, 1);
    assert_eq!(i.texel(1), [0.0, 128.0, 255.0, 255.0]);
    assert_eq!(i.to_display_rgba8()[4..8], [0, 128, 255, 255]);
}

#[test]
fn quad_feeds_pixel_shader_inputs() {
    let s = common::shader("fxc/directxtk12_normalmapeffect_psnormalpixellightingtxnofog.dxbc");
    let m = PreviewModel::new(&s);
    assert_eq!(m.stage, Stage::Pixel);
    let q = m.quad.as_ref().unwrap();
    // TEXCOORD0.xy, TEXCOORD1, TEXCOORD2.xyz, COLOR0 in registers 0–3, vec4 each after the position.
    assert_eq!(q.layout.stride, 8 + 4 * 16);
    assert_eq!(q.position_location, 4);
    let regs: Vec<_> =
        q.layout.attributes.iter().map(|a| (a.register, a.offset, a.format.webgpu_name(), a.feeds[0].source)).collect();
    assert_eq!(
        regs,
        [
            (0, 8, "float32x4", Source::TexCoord),
            (1, 24, "float32x4", Source::TexCoord),
            (2, 40, "float32x4", Source::TexCoord),
            (3, 56, "float32x4", Source::Color)
        ]
    );
    assert_eq!(q.data.len(), 4 * 72);
    let f = |v: usize, at: usize| f32::from_le_bytes(q.data[v * 72 + at..v * 72 + at + 4].try_into().unwrap());
    // Vertex 3 is the bottom-right corner: uv (1, 1); vertex 0 top-left (0, 0).
    assert_eq!((f(3, 0), f(3, 4)), (1.0, -1.0));
    assert_eq!((f(3, 8), f(3, 12)), (1.0, 1.0));
    assert_eq!((f(0, 8), f(0, 12)), (0.0, 0.0));
    // TEXCOORD0 only has xy: zw stay 0.
    assert_eq!((f(3, 16), f(3, 20)), (0.0, 0.0));
    assert_eq!([f(1, 56), f(1, 60), f(1, 64), f(1, 68)], QUAD_COLORS[1]);
    assert!(q.interpolation.iter().all(|(_, i)| *i == Interpolation::Perspective));
    let wgsl = q.vertex_wgsl();
    assert!(wgsl.contains("@location(3) @interpolate(perspective, center) v3: vec4<f32>"), "{wgsl}");
    assert!(wgsl.contains("@location(4) position: vec2<f32>"), "{wgsl}");

    // An integer input is flat and typed; SV_Position gets no attribute.
    let s = common::shader(RESDEF);
    let q = PreviewModel::new(&s).quad.unwrap();
    assert_eq!(q.layout.attributes.len(), 1);
    assert_eq!(q.layout.attributes[0].format.ty, ComponentType::Sint);
    assert_eq!(q.interpolation, [(0, Interpolation::Flat)]);
    assert!(q.vertex_wgsl().contains("@interpolate(flat) v0: vec4<i32>"));
}

#[test]
fn meshes_are_closed_outward_and_consistent() {
    for (m, verts, tris) in [(plane(), 4, 2), (cube(), 24, 12), (uv_sphere(16), 17 * 9, 16 * 8 * 2 - 2 * 16)] {
        assert_eq!(m.positions.len(), verts);
        assert_eq!(m.indices.len(), tris * 3);
        for v in [m.normals.len(), m.tangents.len(), m.uvs.len(), m.colors.len()] {
            assert_eq!(v, verts);
        }
        for t in m.indices.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| m.positions[t[k] as usize]);
            let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
            let vn = m.normals[t[0] as usize];
            assert!(n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2] > 0.0, "triangle {t:?} faces inwards");
        }
        for n in &m.normals {
            assert!(((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() - 1.0).abs() < 1e-5);
        }
    }
    assert_eq!(MeshKind::Sphere { segments: 1 }.build().positions.len(), 4 * 3, "segments clamp to 3");
}

#[test]
fn meshes_match_vertex_shader_signatures() {
    // SV_Position (no system value in a VS input) and NORMAL.xyz.
    let s = common::shader("fxc/directxtk_basiceffect_vsbasicpixellighting.dxbc");
    assert_eq!(Stage::of(&s), Stage::Vertex);
    let mi = mesh_inputs(&s, &cube());
    let attrs: Vec<_> = mi
        .layout
        .attributes
        .iter()
        .map(|a| (a.shader_location, a.format.webgpu_name(), a.offset, a.feeds[0].source))
        .collect();
    assert_eq!(attrs, [(0, "float32x4", 0, Source::Position), (1, "float32x3", 16, Source::Normal)]);
    assert_eq!(mi.layout.stride, 28);
    assert_eq!(mi.data.len(), 24 * 28);
    assert_eq!(mi.indices.len(), 36);
    let f = |at: usize| f32::from_le_bytes(mi.data[at..at + 4].try_into().unwrap());
    assert_eq!([f(0), f(4), f(8), f(12)], [-0.6, 0.6, 0.6, 1.0]);
    assert_eq!([f(16), f(20), f(24)], [0.0, 0.0, 1.0]);
    assert!(mi.defaulted.is_empty());

    // Every vertex shader of the corpus gets a layout whose data size adds up.
    let mut n = 0;
    for path in common::all_containers() {
        let s = dxbc::Shader::decode(&std::fs::read(&path).unwrap()).unwrap();
        if Stage::of(&s) != Stage::Vertex {
            continue;
        }
        let mi = mesh_inputs(&s, &uv_sphere(8));
        assert_eq!(mi.data.len(), mi.layout.stride as usize * mi.vertex_count as usize, "{}", path.display());
        for a in &mi.layout.attributes {
            assert_eq!(a.shader_location, a.register);
            assert!(a.offset + a.format.size() <= mi.layout.stride);
        }
        n += 1;
    }
    assert!(n > 100, "{n} vertex shaders");
}

#[test]
fn buffers_and_storage_textures() {
    let m = PreviewModel::new(&common::shader(RESDEF));
    let b = |name: &str| m.buffers.iter().find(|b| b.name == name).unwrap_or_else(|| panic!("no {name}"));
    let t9 = b("tex9");
    assert_eq!((t9.kind, t9.writable, t9.stride, t9.register), (BufferKind::Structured, false, 32, 9));
    let cols: Vec<_> = t9.columns.iter().map(|c| (c.name.as_str(), c.offset, c.format)).collect();
    assert_eq!(cols[0], ("sValue1.x", 0, CellFormat::F32));
    assert_eq!(cols[7], ("sValue2.w", 28, CellFormat::F32));
    assert_eq!((b("uav1").kind, b("uav1").writable), (BufferKind::Structured, true));
    assert_eq!(
        (b("uav3").kind, b("uav3").stride, b("uav3").columns[0].format),
        (BufferKind::Typed, 4, CellFormat::F32)
    );
    assert_eq!((b("uav4").kind, b("uav4").stride), (BufferKind::Raw, 16));
    assert_eq!((b("tex0").kind, b("tex0").writable), (BufferKind::Typed, false));
    assert_eq!(b("tex8").kind, BufferKind::Raw);

    // Read-only buffers start with their element index; UAVs with zeros.
    let data = t9.initial_data();
    assert_eq!(data.len(), 32 * 64);
    let table = t9.table(&data, 3, None);
    assert_eq!(table.total_rows, 64);
    assert_eq!(table.rows[2][0], "2.0");
    let hex = t9.table(&data, 3, Some(&[CellFormat::Hex]));
    assert_eq!(hex.rows[2][0], "0x40000000");
    assert_eq!(hex.rows[2][1], "2.0");
    assert!(b("uav5").initial_data().iter().all(|&x| x == 0));

    let st: Vec<_> = m.storage_textures.iter().map(|s| (s.name.as_str(), s.dimension, s.format)).collect();
    assert_eq!(
        st,
        [
            ("uav6", TextureDimension::D1, TextureFormat::R32Float),
            ("uav7", TextureDimension::D1Array, TextureFormat::R32Float),
            ("uav8", TextureDimension::D2, TextureFormat::R32Float),
            ("uav9", TextureDimension::D2Array, TextureFormat::R32Float),
            ("uav10", TextureDimension::D3, TextureFormat::R32Float),
        ]
    );
    let img = m.storage_textures[2].initial_image();
    assert_eq!(img.data.len(), 64 * 64 * 4);
    assert_eq!(img.to_display_rgba8().len(), 64 * 64 * 4);

    // Every buffer of the corpus has one column per word of its stride.
    let mut n = 0;
    for path in common::all_containers() {
        let Ok(s) = dxbc::Shader::decode(&std::fs::read(&path).unwrap()) else { continue };
        for b in &PreviewModel::new(&s).buffers {
            assert_eq!(b.columns.len() as u32, b.stride / 4, "{}: {}", path.display(), b.name);
            let mut offsets: Vec<_> = b.columns.iter().map(|c| c.offset).collect();
            offsets.dedup();
            assert_eq!(offsets.len(), b.columns.len());
            n += 1;
        }
    }
    assert!(n > 100, "{n} buffers");
}

#[test]
fn compute_dispatch() {
    let s = common::shader("vkd3d/compute/002_cs_5_0.dxbc");
    let m = PreviewModel::new(&s);
    assert_eq!(m.stage, Stage::Compute);
    let d = m.dispatch.clone().unwrap();
    // One-thread groups over a 64 × 64 storage texture: 64 × 64 groups cover it.
    assert_eq!(m.storage_textures[0].extent, (64, 64, 1));
    assert_eq!((d.workgroup_size, d.groups), ([1, 1, 1], [64, 64, 1]));
    assert_eq!(m.storage_textures[0].format, TextureFormat::R32Float);
    let big = Dispatch { workgroup_size: [64, 1, 1], groups: [1, 1, 1] };
    let g = big.clamp_groups([100_000, 100_000, 0]);
    assert!(g.iter().all(|&x| (1..=65535).contains(&x)));
    assert!(g.iter().map(|&x| x as u64).product::<u64>() * 64 <= MAX_INVOCATIONS);
    assert_eq!(big.clamp_groups([4, 2, 1]), [4, 2, 1]);
}

#[test]
fn payload_round_trips_and_rejects_garbage() {
    let m =
        PreviewModel::new(&common::shader("fxc/dxdecompiler_multithreadedrendering11_multithreadedrenderin_d7bf.dxbc"));
    let mut v = m.defaults();
    v.insert("x/ints".into(), Value::Ints(vec![i32::MIN, -1, 0, 1, i32::MAX]));
    v.insert("x/uints".into(), Value::Uints(vec![0, 127, 128, u32::MAX]));
    v.insert("x/bools".into(), Value::Bools(vec![true, false, true, true, false, false, false, false, true]));
    v.insert("x/nan".into(), Value::Floats(vec![f32::from_bits(0x7fc0_1234), -0.0]));
    let bytes = payload::encode(&v);
    let back = payload::decode(&bytes).unwrap();
    assert_eq!(payload::encode(&back), bytes, "stable");
    assert_eq!(back.len(), v.len());
    for (k, x) in &v {
        let y = &back[k];
        assert!((0..x.len()).all(|i| x.bits(i) == y.bits(i)), "{k}");
    }
    // Front coding keeps it compact: shared prefixes are not repeated.
    let raw_ids: usize = v.keys().map(|k| k.len()).sum();
    assert!(bytes.len() < raw_ids + v.values().map(|x| 4 * x.len() + 3).sum::<usize>());
    // Only changes need storing.
    let mut changed = m.defaults();
    changed.insert("cbPerObject/g_vObjectColor".into(), Value::Floats(vec![0.5, 0.25, 1.0, 1.0]));
    let diff = payload::changed(&changed, &m.defaults());
    assert_eq!(diff.len(), 1);
    assert_eq!(payload::decode(&payload::encode(&diff)).unwrap(), diff);
    // A golden payload: version 1, one entry `a/b` = float 1.0.
    let mut one = Values::new();
    one.insert("a/b".into(), Value::Floats(vec![1.0]));
    assert_eq!(payload::encode(&one), [1, 1, 0, 3, b'a', b'/', b'b', 0, 1, 0, 0, 0x80, 0x3f]);

    // Every truncation, every single-byte change and pseudo-random bytes: errors, never panics.
    for n in 0..bytes.len() {
        assert!(payload::decode(&bytes[..n]).is_err(), "truncated at {n}");
    }
    for i in 0..bytes.len() {
        for x in [0x00u8, 0x01, 0x7f, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[i] ^= x;
            let _ = payload::decode(&b);
        }
    }
    let mut seed = 0x1234_5678u32;
    for len in 0..2000 {
        let garbage: Vec<u8> = (0..len % 97)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                seed as u8
            })
            .collect();
        let _ = payload::decode(&garbage);
    }
    assert!(payload::decode(&[2, 0]).unwrap_err().message.contains("version"));
    assert!(payload::decode(&[1, 0, 0]).unwrap_err().message.contains("after the last entry"));
    assert!(payload::decode(&[1, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err());
}

#[test]
fn every_corpus_shader_builds_a_model() {
    for path in common::all_containers() {
        let Ok(s) = dxbc::Shader::decode(&std::fs::read(&path).unwrap()) else { continue };
        let m = PreviewModel::new(&s);
        for (cb, bytes) in m.cbuffers.iter().zip(m.pack_all(&m.defaults())) {
            assert_eq!(bytes.len() as u32, cb.size, "{}", path.display());
            for c in &cb.controls {
                assert!(c.accepts(&c.default), "{}: {}", path.display(), c.id);
                assert!(c.offset + c.size <= cb.size);
            }
        }
        let p = payload::encode(&m.defaults());
        assert_eq!(payload::decode(&p).unwrap().len(), m.defaults().len());
        if let Some(q) = &m.quad {
            assert_eq!(q.data.len(), q.layout.stride as usize * 4);
        }
    }
}
