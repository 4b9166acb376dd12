//! The SPIR-V post-pass on corpus shaders that use each feature: the words
//! pass `spirv-val --target-env vulkan1.1` (the environment of the corpus
//! test) and hold the construct the SPIR-V specification asks for. The
//! words are decoded here on their own, with the specification's numbers
//! (SPIR-V 1.6 §3), not with the translator's decoder.

use dxbc_naga::{Language, Limitation};
use std::path::PathBuf;

// Opcodes.
const OP_EXTENSION: u32 = 10;
const OP_CAPABILITY: u32 = 17;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_DECORATE: u32 = 71;
const OP_IMAGE_QUERY_SIZE_LOD: u32 = 103;
const OP_IMAGE_QUERY_SIZE: u32 = 104;
// Decorations, built-ins, capabilities.
const BUILT_IN: u32 = 11;
const LOCATION: u32 = 30;
const LAYER: u32 = 9;
const VIEWPORT_INDEX: u32 = 10;
const SAMPLE_MASK: u32 = 20;
const CAP_GEOMETRY: u32 = 2;
const CAP_MULTI_VIEWPORT: u32 = 57;
const CAP_VIEWPORT_INDEX_LAYER_EXT: u32 = 5254;

/// (opcode, operands) of every instruction after the header.
fn decode(words: &[u32]) -> Vec<(u32, Vec<u32>)> {
    assert_eq!(words[0], 0x0723_0203, "SPIR-V magic");
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let n = (words[at] >> 16) as usize;
        assert!(n > 0 && at + n <= words.len(), "instruction at word {at}");
        out.push((words[at] & 0xffff, words[at + 1..at + n].to_vec()));
        at += n;
    }
    out
}

fn literal_string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
    String::from_utf8(bytes).unwrap()
}

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(name)
}

fn translate(name: &str) -> dxbc_naga::Translation {
    let path = corpus(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("corpus file {} missing: {e}", path.display()));
    dxbc_naga::translate(&dxbc::Shader::parse(&bytes).unwrap(), &dxbc_naga::Options::default()).unwrap()
}

/// The SPIR-V of a corpus shader, after `spirv-val` accepted it.
fn validated_spirv(name: &str) -> Vec<(u32, Vec<u32>)> {
    let words = dxbc_naga::to_spirv(&translate(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let file =
        std::env::temp_dir().join(format!("dxbc-spirv-post-{}-{}.spv", std::process::id(), name.replace('/', "_")));
    std::fs::write(&file, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let o = std::process::Command::new("spirv-val")
        .args(["--target-env", "vulkan1.1"])
        .arg(&file)
        .output()
        .expect("spirv-val is missing: install Debian's spirv-tools");
    let _ = std::fs::remove_file(&file);
    assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
    decode(&words)
}

fn find(m: &[(u32, Vec<u32>)], op: u32, result: u32, at: usize) -> &[u32] {
    &m.iter()
        .find(|(o, a)| *o == op && a.get(at) == Some(&result))
        .unwrap_or_else(|| panic!("op {op} defining %{result}"))
        .1
}

fn built_ins(m: &[(u32, Vec<u32>)], which: u32) -> Vec<u32> {
    m.iter().filter(|(o, a)| *o == OP_DECORATE && a[1..] == [BUILT_IN, which]).map(|(_, a)| a[0]).collect()
}

fn capabilities(m: &[(u32, Vec<u32>)]) -> Vec<u32> {
    m.iter().filter(|(o, _)| *o == OP_CAPABILITY).map(|(_, a)| a[0]).collect()
}

#[test]
fn sample_mask_is_an_array_of_one_u32_read_and_written_at_element_0() {
    // SV_Coverage in (vCoverage), then out (oMask).
    for file in ["blobs/vkd3d_d3d12_ps_code_22.dxbc", "vkd3d/coverage/002_ps_5_0.dxbc"] {
        let m = validated_spirv(file);
        let vars = built_ins(&m, SAMPLE_MASK);
        assert_eq!(vars.len(), 1, "{file}");
        sample_mask_array(&m, vars[0]);
    }
}

fn sample_mask_array(m: &[(u32, Vec<u32>)], var: u32) {
    let ptr = find(m, OP_VARIABLE, var, 1)[0];
    let array = find(m, OP_TYPE_POINTER, ptr, 0)[2];
    let a = find(m, OP_TYPE_ARRAY, array, 0);
    assert_eq!(find(m, OP_TYPE_INT, a[1], 0)[1..], [32, 0], "element u32");
    assert_eq!(find(m, OP_CONSTANT, a[2], 1)[2], 1, "length 1");
    // No load or store of the array itself: every use is a chain to 0.
    assert!(!m.iter().any(|(o, a)| (*o == OP_LOAD && a[2] == var) || (*o == OP_STORE && a[0] == var)));
    let chains: Vec<&Vec<u32>> =
        m.iter().filter(|(o, a)| *o == OP_ACCESS_CHAIN && a[2] == var).map(|(_, a)| a).collect();
    assert!(!chains.is_empty());
    for c in chains {
        assert_eq!(c.len(), 4);
        assert_eq!(find(m, OP_CONSTANT, c[3], 1)[2], 0, "element 0");
    }
}

#[test]
fn render_target_array_index_is_the_layer_built_in_in_both_stages() {
    for (file, builtin, capability, limitation) in [
        (
            "vkd3d/rt-array-index/002_vs_5_0.dxbc",
            LAYER,
            CAP_VIEWPORT_INDEX_LAYER_EXT,
            Limitation::RenderTargetArrayIndex,
        ),
        (
            "vkd3d/rt-array-index/002_vs_4_0.dxbc",
            LAYER,
            CAP_VIEWPORT_INDEX_LAYER_EXT,
            Limitation::RenderTargetArrayIndex,
        ),
        ("vkd3d/rt-array-index/003_ps_5_0.dxbc", LAYER, CAP_GEOMETRY, Limitation::RenderTargetArrayIndex),
        (
            "vkd3d/vp-array-index/002_vs_5_0.dxbc",
            VIEWPORT_INDEX,
            CAP_VIEWPORT_INDEX_LAYER_EXT,
            Limitation::ViewportArrayIndex,
        ),
        ("vkd3d/vp-array-index/003_ps_5_0.dxbc", VIEWPORT_INDEX, CAP_MULTI_VIEWPORT, Limitation::ViewportArrayIndex),
    ] {
        let m = validated_spirv(file);
        assert_eq!(built_ins(&m, builtin).len(), 1, "{file}");
        assert!(capabilities(&m).contains(&capability), "{file}");
        // The reserved locations are gone.
        assert!(!m.iter().any(|(o, a)| *o == OP_DECORATE && a[1] == LOCATION && a[2] >= 1024), "{file}");
        let ext: Vec<String> = m.iter().filter(|(o, _)| *o == OP_EXTENSION).map(|(_, a)| literal_string(a)).collect();
        let vertex = capability == CAP_VIEWPORT_INDEX_LAYER_EXT;
        assert_eq!(ext.contains(&"SPV_EXT_shader_viewport_index_layer".to_string()), vertex, "{file}");
        // The other targets refuse it, typed and per target.
        let t = translate(file);
        for l in [Language::Wgsl, Language::Hlsl, Language::Msl, Language::Glsl] {
            assert_eq!(t.refusal(l).map(|r| r.limitation), Some(limitation), "{file} {l:?}");
        }
        assert!(t.refusal(Language::Spirv).is_none());
    }
}

#[test]
fn size_queries_of_multisampled_and_storage_arrays_have_no_level() {
    for (file, ms, storage) in [
        ("fxc/dxdecompiler_operations_texture_texture2dmsarray.dxbc", 1, 1),
        ("blobs/vkd3d_d3d12_ps_ld_2d_uint_arr_code.dxbc", 0, 2),
    ] {
        let m = validated_spirv(file);
        let image_type_of = |id: u32| -> &[u32] {
            let ty = find(&m, OP_LOAD, id, 1)[0];
            find(&m, OP_TYPE_IMAGE, ty, 0)
        };
        let queries: Vec<&Vec<u32>> = m.iter().filter(|(o, _)| *o == OP_IMAGE_QUERY_SIZE).map(|(_, a)| a).collect();
        // (MS, Sampled) operands of OpTypeImage.
        assert!(queries.iter().any(|q| image_type_of(q[2])[5..7] == [ms, storage]), "{file}");
        for (_, q) in m.iter().filter(|(o, _)| *o == OP_IMAGE_QUERY_SIZE_LOD) {
            let t = image_type_of(q[2]);
            assert!(t[5] == 0 && t[6] == 1, "{file}: level query of an MS or storage image");
        }
    }
}
