//! Effects files: an `fx_5_0` file built by our own encoder
//! ([`dxbc::effects::Builder`], because fxc cannot run here) around real fxc
//! shaders from the corpus. The decoder must give back the names, stages
//! and offsets the builder wrote; carving must find every shader at its
//! offset with its name; spans must tile the file; damaged files decode
//! partially, with offsets, never panicking.

use dxbc::carve::{carve, Checksum, ProgramKind};
use dxbc::container::write_container;
use dxbc::effects::{self, Builder, BuiltShader, ShaderSource, Stage, Version};
use dxbc::spans::{Kind, Spans};
use std::path::PathBuf;

fn corpus(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("corpus file {} is missing: {e}", p.display()))
}

/// Two techniques: `Render` (outside any group: an inline VS and a PS
/// variable) and `Post/Blur` (a CS pass, and a pass with a second inline VS
/// and a stream-out GS variable).
fn effect() -> (Vec<u8>, Vec<BuiltShader>, [Vec<u8>; 4]) {
    let vs = corpus("angle63_resolvedepthstencil11_vs.dxbc");
    let ps = corpus("angle63_resolvedepth11_ps.dxbc");
    let cs = corpus("depthoffieldfx_cs_fast_filter_setup.dxbc");
    let gs = corpus("angle63_passthrough3d11gs.dxbc");
    let mut b = Builder::new();
    b.variable("g_PS", Stage::Pixel, ps.clone())
        .variable("g_GS", Stage::GeometryStreamOut, gs.clone())
        .technique(
            None,
            "Render",
            vec![(
                "P0",
                vec![
                    (Stage::Vertex, ShaderSource::Inline(vs.clone())),
                    (Stage::Pixel, ShaderSource::Variable("g_PS".into())),
                ],
            )],
        )
        .technique(
            Some("Post"),
            "Blur",
            vec![
                ("Setup", vec![(Stage::Compute, ShaderSource::Inline(cs.clone()))]),
                (
                    "Stream",
                    vec![
                        (Stage::Vertex, ShaderSource::Inline(vs.clone())),
                        (Stage::Geometry, ShaderSource::Variable("g_GS".into())),
                    ],
                ),
            ],
        );
    let (bytes, shaders) = b.build();
    (bytes, shaders, [vs, ps, cs, gs])
}

fn sorted(mut v: Vec<(usize, usize, String)>) -> Vec<(usize, usize, String)> {
    v.sort();
    v
}

#[test]
fn the_builder_wrote_what_the_test_asked_for() {
    // The expected names are written out here, not taken from the builder.
    let (_, shaders, _) = effect();
    let mut labels: Vec<String> = shaders.iter().map(|s| s.name.label()).collect();
    labels.sort();
    assert_eq!(
        labels,
        ["Post/Blur/Setup/cs", "Post/Blur/Stream/gs_so", "Post/Blur/Stream/vs", "Render/P0/ps", "Render/P0/vs"]
    );
}

#[test]
fn decoding_gives_back_every_name_stage_and_offset_the_builder_wrote() {
    let (bytes, built, [vs, ps, cs, gs]) = effect();
    assert_eq!(effects::find(&bytes), Some(0..bytes.len()));
    let e = effects::decode(&bytes, 0..bytes.len());
    assert!(e.errors.is_empty(), "{:?}", e.errors);
    assert_eq!(e.version, Version::Fx5_0);
    assert_eq!(e.header[19], 2, "groups");
    assert_eq!(e.header[17], 5, "shaders");
    let got = sorted(e.shaders.iter().map(|s| (s.offset, s.size, s.name().label())).collect());
    let want = sorted(built.iter().map(|s| (s.offset, s.size, s.name.label())).collect());
    assert_eq!(got, want);
    for s in &e.shaders {
        let want = match s.stage {
            Stage::Vertex => &vs,
            Stage::Pixel => &ps,
            Stage::Compute => &cs,
            Stage::GeometryStreamOut => &gs,
            other => panic!("unexpected stage {other:?}"),
        };
        assert_eq!(&bytes[s.range()], &want[..]);
    }
    let gs = e.shaders.iter().find(|s| s.stage == Stage::GeometryStreamOut).unwrap();
    assert_eq!(gs.variable.as_deref(), Some("g_GS"));
    let techniques: Vec<(Option<&str>, &str, Vec<&str>)> = e
        .techniques
        .iter()
        .map(|t| (t.group.as_deref(), t.name.as_str(), t.passes.iter().map(|(p, _)| p.as_str()).collect()))
        .collect();
    assert_eq!(techniques, [(None, "Render", vec!["P0"]), (Some("Post"), "Blur", vec!["Setup", "Stream"])]);
    let stages: Vec<&str> = e.techniques[1].passes[1].1.iter().map(|(s, _)| s.short()).collect();
    assert_eq!(stages, ["vs", "gs_so"]);
}

#[test]
fn carving_finds_every_shader_at_its_offset_with_its_name() {
    let (bytes, built, _) = effect();
    let r = carve(&bytes);
    let got = sorted(
        r.found
            .iter()
            .map(|f| {
                assert_eq!(f.checksum, Checksum::Valid);
                (f.offset, f.size, f.name.as_ref().map_or_else(String::new, |n| n.label()))
            })
            .collect(),
    );
    assert_eq!(got, sorted(built.iter().map(|s| (s.offset, s.size, s.name.label())).collect()));
    let ps = r.found.iter().find_map(|f| f.name.as_ref().filter(|n| n.stage == "ps")).unwrap();
    assert_eq!(
        serde_json::to_value(ps).unwrap(),
        serde_json::json!({"technique": "Render", "pass": "P0", "stage": "ps", "variable": "g_PS"})
    );
}

#[test]
fn an_effect_in_a_container_among_junk_names_its_shaders_too() {
    // fx_4 effects come wrapped in a DXBC container with one FX10 chunk.
    let (fx, built, _) = effect();
    let wrapped = write_container(1, &[(*b"FX10", &fx)]);
    let mut data = b"junk before the container".to_vec();
    let at = data.len() + 44; // header, one table slot, chunk header
    data.extend_from_slice(&wrapped);
    data.extend_from_slice(b"and after");
    let r = carve(&data);
    assert_eq!(r.found[0].program, ProgramKind::Effect);
    assert_eq!(r.found.len(), 1 + built.len());
    for s in &built {
        let f = r.found.iter().find(|f| f.offset == at + s.offset).expect("shader found at its offset");
        assert_eq!(f.parent, Some(0));
        assert_eq!(f.name.as_ref().map(|n| n.label()), Some(s.name.label()));
    }
    // Spans of the container open the effect inside the FX10 chunk.
    let sh = dxbc::Shader::decode(&wrapped).unwrap();
    let sp = dxbc::spans::leaves(&sh);
    assert_tiles(&sp, wrapped.len());
    let tag = sp.leaves.iter().find(|l| l.path == "FX10/header/tag").expect("effect header leaf");
    assert_eq!((tag.offset, tag.value.clone()), (44, dxbc::spans::Value::Number(0xFEFF_2001)));
}

fn assert_tiles(sp: &Spans, len: usize) {
    let mut end = 0;
    for l in &sp.leaves {
        assert_eq!(l.offset, end, "gap or overlap at {}", l.path);
        assert!(l.len > 0 && !l.explanation.is_empty(), "{}", l.path);
        end += l.len;
    }
    assert_eq!(end, len);
    assert!(sp.overlaps.is_empty(), "{:?}", sp.overlaps);
}

#[test]
fn spans_tile_the_effect_and_each_shader_is_one_leaf() {
    let (bytes, built, _) = effect();
    let sp = dxbc::spans::effect_leaves(&bytes).expect("an effect");
    assert_tiles(&sp, bytes.len());
    assert!(sp.leaves.iter().all(|l| l.kind != Kind::Undecoded));
    for s in &built {
        let l = sp.at(s.offset).unwrap();
        assert_eq!((l.offset, l.len), (s.offset, s.size), "{}", l.path);
        assert!(l.path.ends_with("/shader/bytecode"), "{}", l.path);
        assert_eq!(l.meaning, format!("DXBC container: {}", s.name.label()));
        let size = sp.at(s.offset - 4).unwrap();
        assert_eq!(size.value, dxbc::spans::Value::Number(s.size as u64));
    }
    let named = |p: &str| sp.leaves.iter().find(|l| l.path == p).unwrap_or_else(|| panic!("no leaf {p}"));
    assert_eq!(
        named("header/unstructured_size").value,
        dxbc::spans::Value::Number(u32::from_le_bytes(bytes[32..36].try_into().unwrap()).into())
    );
    assert_eq!(named("structured/groups[1]/name/text").value, dxbc::spans::Value::Text("Post".into()));
    assert_eq!(
        named("structured/groups[1]/techniques[0]/passes[1]/name/text").value,
        dxbc::spans::Value::Text("Stream".into())
    );
    // Only the reserved first dword of the unstructured block is unreferenced.
    let loose: Vec<&str> = sp.leaves.iter().filter(|l| l.kind != Kind::Field).map(|l| l.path.as_str()).collect();
    assert!(loose.iter().all(|p| p.starts_with("unstructured/")), "{loose:?}");
}

#[test]
fn truncated_effects_decode_partially_with_offsets() {
    let (bytes, built, _) = effect();
    let full = effects::decode(&bytes, 0..bytes.len()).shaders.len();
    assert_eq!(full, built.len());
    // Every cut outside the shaders' bytes (which the effect reader does
    // not look into), and every 64th inside them.
    let inside = |n: usize| built.iter().any(|s| s.range().contains(&n));
    for n in (4..bytes.len()).filter(|&n| !inside(n) || n % 64 == 0) {
        let cut = &bytes[..n];
        let e = effects::decode(cut, 0..n);
        let err = e.errors.first().unwrap_or_else(|| panic!("cut at {n} decoded without a fault"));
        assert!(err.offset() <= n, "cut at {n}: {err}");
        assert!(err.to_string().contains(&format!("(at offset {:#x})", err.offset())));
        assert!(e.shaders.len() <= full);
        for s in &e.shaders {
            assert!(s.range().end <= n);
            assert!(built.iter().any(|b| b.offset == s.offset), "cut at {n}: a shader no one wrote");
        }
        let sp = dxbc::spans::effect_leaves(cut).unwrap();
        assert_tiles_loosely(&sp, n);
    }
}

/// Tiling without the no-overlap-claims check (damaged records may point
/// into each other; the tiling still holds).
fn assert_tiles_loosely(sp: &Spans, len: usize) {
    let mut end = 0;
    for l in &sp.leaves {
        assert_eq!(l.offset, end, "gap or overlap at {}", l.path);
        assert!(l.len > 0);
        end += l.len;
    }
    assert_eq!(end, len);
}

#[test]
fn damaged_dwords_never_panic_and_faults_name_offsets() {
    let (bytes, built, _) = effect();
    let mut faults = 0;
    // Every dword the effect reader reads: all but the shaders' own bytes.
    let inside = |at: usize| built.iter().any(|s| s.range().contains(&at));
    for at in (0..bytes.len()).step_by(4).filter(|&at| !inside(at)) {
        for v in [0xFFFF_FFFFu32, 0x7FFF_FFF0, 3] {
            let mut d = bytes.clone();
            d[at..at + 4].copy_from_slice(&v.to_le_bytes());
            let Some(r) = effects::find(&d) else { continue };
            let e = effects::decode(&d, r);
            for err in &e.errors {
                assert!(err.offset() <= d.len(), "{err}");
                faults += 1;
            }
            for s in &e.shaders {
                assert!(s.range().end <= d.len());
            }
            assert_tiles_loosely(&dxbc::spans::effect_leaves(&d).unwrap(), d.len());
            let _ = carve(&d);
        }
    }
    assert!(faults > 100, "damage should be noticed: {faults} faults");
}

#[test]
fn a_non_effect_is_not_taken_for_one() {
    let vs = corpus("angle63_resolvedepthstencil11_vs.dxbc");
    assert_eq!(effects::find(&vs), None);
    assert!(dxbc::spans::effect_leaves(&vs).is_none());
    assert!(carve(&vs).found[0].name.is_none());
    assert!(effects::find(&[0x01, 0x20, 0xFF]).is_none());
}
