//! The SPIR-V post-pass on corpus shaders that use each feature: the words
//! pass `spirv-val --target-env vulkan1.1` (the environment of the corpus
//! test) and hold the construct the SPIR-V specification asks for. The
//! words are decoded here on their own, with the specification's numbers
//! (SPIR-V 1.6 §3), not with the translator's decoder.

mod common;

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

/// A decoded module: (opcode, operands) of each instruction.
type Module = Vec<(u32, Vec<u32>)>;

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
    common::assert_spirv_valid(&words, name);
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

const OP_EXT_INST_IMPORT: u32 = 11;
const OP_EXT_INST: u32 = 12;
const OP_TYPE_FLOAT: u32 = 22;
const OP_FUNCTION_CALL: u32 = 57;
const CAP_MIN_LOD: u32 = 42;
const CAP_INTERPOLATION_FUNCTION: u32 = 52;
const IMAGE_OPERAND_MIN_LOD: u32 = 0x80;
const STORAGE_INPUT: u32 = 1;

/// Every corpus VS/PS/CS whose translation carries `limitation` (a feature
/// only SPIR-V expresses), with its listing.
fn carrying(limitation: Limitation) -> Vec<(String, dxbc_naga::Translation, String)> {
    let mut out = Vec::new();
    for dir in ["fxc", "blobs", "vkd3d"] {
        let files = dxbc_naga::report::dxbc_files(&corpus(dir)).unwrap_or_else(|e| panic!("corpus {dir}: {e}"));
        for f in files {
            let Ok(s) = dxbc::Shader::parse(&std::fs::read(&f).unwrap()) else { continue };
            if !["vs", "ps", "cs"].contains(&dxbc_naga::report::stage_of(&s)) {
                continue;
            }
            let Ok(t) = dxbc_naga::translate(&s, &dxbc_naga::Options::default()) else { continue };
            if t.target_refusals.iter().any(|r| r.limitation == limitation) {
                let name = f.strip_prefix(corpus("")).unwrap().to_string_lossy().into_owned();
                out.push((name, t, dxbc::listing::disassemble(&s)));
            }
        }
    }
    out
}

/// The typed refusal of every target but SPIR-V.
fn only_spirv_writes(name: &str, t: &dxbc_naga::Translation, limitation: Limitation) {
    for l in [Language::Wgsl, Language::Hlsl, Language::Msl, Language::Glsl] {
        assert!(t.target_refusals.iter().any(|r| r.limitation == limitation && r.limitation.why_in(l).is_some()));
        assert!(t.refusal(l).is_some(), "{name} {l:?}");
    }
    assert!(t.refusal(Language::Spirv).is_none(), "{name}");
}

/// No call of a mark function is left (its tag, 0xD3D5_0xxx, as the first
/// argument).
fn no_marks_left(name: &str, m: &[(u32, Vec<u32>)]) {
    let tags: Vec<u32> =
        m.iter().filter(|(o, a)| *o == OP_CONSTANT && a[2] >> 16 == 0xD3D5).map(|(_, a)| a[1]).collect();
    assert!(!m.iter().any(|(o, a)| *o == OP_FUNCTION_CALL && a.len() > 3 && tags.contains(&a[3])), "{name}");
}

/// The corpus shaders whose translation carries `limitation`, a feature
/// only SPIR-V expresses (`count` of them, the refusal table's): each is
/// refused, typed, by every other target, and its SPIR-V passes `spirv-val`
/// with no mark left. Their names, listings and decoded words.
fn spirv_only(limitation: Limitation, count: usize) -> Vec<(String, String, Module)> {
    let files = carrying(limitation);
    assert_eq!(files.len(), count, "{:?}", files.iter().map(|f| &f.0).collect::<Vec<_>>());
    files
        .into_iter()
        .map(|(name, t, listing)| {
            only_spirv_writes(&name, &t, limitation);
            let m = validated_spirv(&name);
            no_marks_left(&name, &m);
            (name, listing, m)
        })
        .collect()
}

#[test]
fn lod_clamps_are_the_min_lod_image_operand() {
    // The refusal table's count of `_cl_s` samples with a register clamp.
    for (name, listing, m) in spirv_only(Limitation::LodClamp, 7) {
        assert!(capabilities(&m).contains(&CAP_MIN_LOD), "{name}");
        // Every sample with MinLod: the mask's bit, then a float clamp last.
        let clamped: Vec<&Vec<u32>> = m
            .iter()
            .filter(|(o, a)| {
                let mask_at = match o {
                    87 | 88 => 4,
                    89 | 90 => 5,
                    _ => return false,
                };
                a.get(mask_at).is_some_and(|mask| mask & IMAGE_OPERAND_MIN_LOD != 0)
            })
            .map(|(_, a)| a)
            .collect();
        let in_listing = listing
            .lines()
            .filter(|l| l.trim_start().split([' ', '(']).next().is_some_and(|op| op.contains("_cl_s")))
            .count();
        assert!(!clamped.is_empty() && clamped.len() <= in_listing, "{name}: {} of {in_listing}", clamped.len());
        for a in clamped {
            let clamp = *a.last().unwrap();
            let ty = m.iter().find(|(_, b)| b.len() > 1 && b[1] == clamp && b[0] != clamp).map(|(_, b)| b[0]);
            let ty = ty.unwrap_or_else(|| panic!("{name}: clamp %{clamp} has no definition"));
            assert_eq!(find(&m, OP_TYPE_FLOAT, ty, 0)[1], 32, "{name}: the clamp is an f32");
        }
        no_marks_left(&name, &m);
    }
}

#[test]
fn eval_instructions_are_glsl_interpolate_at_of_the_input_variable() {
    // vkd3d's three and two 3Dmigoto signature tests.
    for (name, listing, m) in spirv_only(Limitation::PullModelInterpolation, 5) {
        assert!(capabilities(&m).contains(&CAP_INTERPOLATION_FUNCTION), "{name}");
        let glsl = m
            .iter()
            .find(|(o, a)| *o == OP_EXT_INST_IMPORT && literal_string(&a[1..]) == "GLSL.std.450")
            .map(|(_, a)| a[0])
            .unwrap_or_else(|| panic!("{name}: no GLSL.std.450 import"));
        let calls: Vec<&Vec<u32>> = m
            .iter()
            .filter(|(o, a)| *o == OP_EXT_INST && a[2] == glsl && (76..=78).contains(&a[3]))
            .map(|(_, a)| a)
            .collect();
        assert!(!calls.is_empty(), "{name}");
        for a in calls {
            // The instruction is the listing's: centroid, sample, offset.
            let asm = ["eval_centroid ", "eval_sample_index ", "eval_snapped "][(a[3] - 76) as usize];
            assert!(listing.contains(asm), "{name}: {asm}");
            // The interpolant is an Input variable with a location.
            let var = find(&m, OP_VARIABLE, a[4], 1);
            assert_eq!(var[2], STORAGE_INPUT, "{name}");
            assert!(m.iter().any(|(o, d)| *o == OP_DECORATE && d[0] == a[4] && d[1] == LOCATION), "{name}");
            // Sample and offset take one more operand.
            assert_eq!(a.len(), if a[3] == 76 { 5 } else { 6 }, "{name}");
        }
        no_marks_left(&name, &m);
    }
}

const OP_TYPE_SAMPLED_IMAGE_OPERAND: usize = 2;
const OP_SAMPLED_IMAGE: u32 = 86;
const OP_IMAGE_SAMPLE_IMPLICIT_LOD: u32 = 87;
const OP_IMAGE_SAMPLE_EXPLICIT_LOD: u32 = 88;
const IMAGE_OPERAND_BIAS: u32 = 0x1;
const IMAGE_OPERAND_LOD: u32 = 0x2;

/// The texture register (`t0`) of a listing line, and its opcode.
fn sampled_texture(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let opcode = line.split([' ', '(']).next()?;
    let operands = line.split_once(' ')?.1;
    let t = operands
        .split(", ")
        .map(str::trim)
        .find(|o| o.starts_with('t') && o[1..].starts_with(|c: char| c.is_ascii_digit()))?;
    Some((opcode, t.split(['.', '[']).next()?))
}

/// The non-comparison samples of depth images (the `OpTypeImage` of the
/// sampled image has Depth 1), with their operands.
fn depth_samples(m: &[(u32, Vec<u32>)]) -> Vec<(u32, &Vec<u32>)> {
    m.iter()
        .filter(|(o, _)| matches!(*o, OP_IMAGE_SAMPLE_IMPLICIT_LOD | OP_IMAGE_SAMPLE_EXPLICIT_LOD))
        .filter(|(_, a)| {
            let image = find(m, OP_SAMPLED_IMAGE, a[OP_TYPE_SAMPLED_IMAGE_OPERAND], 1)[2];
            let ty = find(m, OP_LOAD, image, 1)[0];
            find(m, OP_TYPE_IMAGE, ty, 0)[3] == 1
        })
        .map(|(o, a)| (*o, a))
        .collect()
}

/// The value of a 32-bit float `OpConstant`.
fn float_constant(m: &[(u32, Vec<u32>)], id: u32) -> Option<f32> {
    m.iter().find(|(o, a)| *o == OP_CONSTANT && a[1] == id).map(|(_, a)| f32::from_bits(a[2]))
}

#[test]
fn compared_textures_sampled_with_a_bias_or_a_level_take_them_as_spirv_operands() {
    // A texture that is also compared is a depth texture. naga's IR has no
    // biased or fractional-level sample of one, SPIR-V has both.
    // The refusal table's count (fxc's texture-operation tests).
    for (name, listing, m) in spirv_only(Limitation::ComparisonBiasOrGradient, 6) {
        let lines: Vec<(&str, &str)> = listing.lines().filter_map(sampled_texture).collect();
        let compared: Vec<&str> = lines.iter().filter(|(op, _)| op.starts_with("sample_c")).map(|(_, t)| *t).collect();
        let biased = lines.iter().filter(|(op, t)| op.starts_with("sample_b") && compared.contains(t)).count();
        // One depth sample with the Bias operand per sample_b of a compared texture.
        let depth = depth_samples(&m);
        let with_bias = depth
            .iter()
            .filter(|(o, a)| {
                *o == OP_IMAGE_SAMPLE_IMPLICIT_LOD && a.get(4).is_some_and(|mask| mask & IMAGE_OPERAND_BIAS != 0)
            })
            .count();
        assert!(biased > 0 || lines.iter().any(|(op, t)| op.starts_with("sample_d") && compared.contains(t)), "{name}");
        assert_eq!(with_bias, biased, "{name}");
    }
    // Their values are the listing's: `sample_b … l(0.500000)` and
    // `sample_l … l(1.500000)` of t0, which `sample_c … t0, s1` compares.
    for name in ["fxc/dxdecompiler_internal_textures_ps.dxbc", "fxc/slimshader_internal_textures_ps.dxbc"] {
        let m = validated_spirv(name);
        let depth = depth_samples(&m);
        let operand = |op: u32, bit: u32| -> Vec<Option<f32>> {
            depth
                .iter()
                .filter(|(o, a)| *o == op && a.get(4) == Some(&bit))
                .map(|(_, a)| float_constant(&m, a[5]))
                .collect()
        };
        assert_eq!(operand(OP_IMAGE_SAMPLE_IMPLICIT_LOD, IMAGE_OPERAND_BIAS), [Some(0.5)], "{name}");
        assert_eq!(operand(OP_IMAGE_SAMPLE_EXPLICIT_LOD, IMAGE_OPERAND_LOD), [Some(1.5)], "{name}");
    }
}

const OP_COPY_OBJECT: u32 = 83;
const OP_IMAGE_TEXEL_POINTER: u32 = 60;
const OP_ATOMIC_EXCHANGE: u32 = 229;
const OP_ATOMIC_COMPARE_EXCHANGE: u32 = 230;
const OP_ATOMIC_IADD: u32 = 234;

/// The SPIR-V of an assembled listing, after `spirv-val` accepted it.
fn validated_spirv_of_listing(listing: &str) -> (dxbc_naga::Translation, Vec<(u32, Vec<u32>)>) {
    let bytes = dxbc::asm::assemble(listing).unwrap_or_else(|e| panic!("{e}"));
    let t = dxbc_naga::translate(&dxbc::Shader::parse(&bytes).unwrap(), &dxbc_naga::Options::default()).unwrap();
    let words = dxbc_naga::to_spirv(&t).unwrap();
    common::assert_spirv_valid(&words, "the listing");
    (t, decode(&words))
}

/// The unsigned value of a 32-bit integer `OpConstant`.
fn int_constant(m: &[(u32, Vec<u32>)], id: u32) -> Option<u32> {
    m.iter().find(|(o, a)| *o == OP_CONSTANT && a[1] == id).map(|(_, a)| a[2])
}

#[test]
fn texture_atomics_that_return_the_old_value_or_exchange_are_spirv_atomics() {
    // D3D: `imm_atomic_* dst, u, address, src0[, src1]` returns the texel's
    // old value; `imm_atomic_cmp_exch` and `atomic_cmp_store` store src1
    // where the texel equals src0. Literal operands name each in the words.
    let listing = "cs_5_0\ndcl_globalFlags refactoringAllowed\n\
        dcl_uav_typed_texture2d (uint,uint,uint,uint) u1\ndcl_temps 2\ndcl_thread_group 1, 1, 1\n\
        imm_atomic_iadd r0.x, u1, l(1, 0, 0, 0), l(11)\n\
        imm_atomic_exch r0.y, u1, l(2, 0, 0, 0), l(22)\n\
        imm_atomic_cmp_exch r0.z, u1, l(3, 0, 0, 0), l(33), l(44)\n\
        atomic_cmp_store u1, l(4, 0, 0, 0), l(55), l(66)\n\
        store_uav_typed u1.xyzw, l(5, 0, 0, 0), r0.xyzw\n\
        ret\n";
    // The corpus's two (a fxc pixel shader, vkd3d's uav-atomics 008; the
    // runner's --source spirv runs the latter against vkd3d's probes).
    spirv_only(Limitation::TypedUavAtomicResults, 2);
    let (t, m) = validated_spirv_of_listing(listing);
    only_spirv_writes("listing", &t, Limitation::TypedUavAtomicResults);
    no_marks_left("listing", &m);
    let on_texel = |a: &Vec<u32>| m.iter().any(|(o, p)| *o == OP_IMAGE_TEXEL_POINTER && p[1] == a[2]);
    let atomics: Vec<(u32, &Vec<u32>)> =
        m.iter().filter(|(o, a)| (227..=242).contains(o) && on_texel(a)).map(|(o, a)| (*o, a)).collect();
    // [type, result, pointer, scope, semantics(, unequal), value(, comparator)]
    let described: Vec<(u32, Vec<Option<u32>>)> = atomics
        .iter()
        .map(|(o, a)| {
            (
                *o,
                a[if *o == OP_ATOMIC_COMPARE_EXCHANGE { 6 } else { 5 }..]
                    .iter()
                    .map(|&id| int_constant(&m, id))
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        described,
        [
            (OP_ATOMIC_IADD, vec![Some(11)]),
            (OP_ATOMIC_EXCHANGE, vec![Some(22)]),
            (OP_ATOMIC_COMPARE_EXCHANGE, vec![Some(44), Some(33)]),
            (OP_ATOMIC_COMPARE_EXCHANGE, vec![Some(66), Some(55)]),
        ]
    );
    // The values returned are the atomics' results, stored (r0.xyz).
    let copy_of = |a: &Vec<u32>| m.iter().find(|(o, c)| *o == OP_COPY_OBJECT && c[2] == a[1]).map(|(_, c)| c[1]);
    for (_, a) in &atomics[..3] {
        let copy = copy_of(a).expect("the returned value is the atomic's result");
        assert!(m.iter().any(|(o, c)| *o != OP_COPY_OBJECT && c.len() > 2 && c[2..].contains(&copy)));
    }
}

const OP_ATOMIC_SMIN: u32 = 236;
const OP_ATOMIC_UMIN: u32 = 237;
const OP_ATOMIC_SMAX: u32 = 238;
const OP_ATOMIC_UMAX: u32 = 239;

#[test]
fn texture_min_and_max_compare_as_the_opcode_says_whatever_the_textures_type() {
    // D3D: `atomic_imax`/`imin` compare signed and `atomic_umax`/`umin`
    // unsigned, on an R32_UINT or R32_SINT texture alike; naga's image
    // atomics take the signedness from the image's type. The listing's
    // literal values name each atomic in the words.
    let listing = "cs_5_0\ndcl_globalFlags refactoringAllowed\n\
        dcl_uav_typed_texture2d (uint,uint,uint,uint) u1\n\
        dcl_uav_typed_texture2d (sint,sint,sint,sint) u2\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n\
        atomic_imax u1, l(0, 0, 0, 0), l(11)\n\
        atomic_umin u2, l(0, 0, 0, 0), l(22)\n\
        imm_atomic_imin r0.x, u1, l(1, 0, 0, 0), l(33)\n\
        imm_atomic_umax r0.y, u2, l(1, 0, 0, 0), l(44)\n\
        atomic_umax u1, l(2, 0, 0, 0), l(55)\n\
        atomic_imin u2, l(2, 0, 0, 0), l(66)\n\
        store_uav_typed u1.xyzw, l(3, 0, 0, 0), r0.xyxx\n\
        ret\n";
    let (t, m) = validated_spirv_of_listing(listing);
    only_spirv_writes("listing", &t, Limitation::TypedUavAtomicSignedness);
    no_marks_left("listing", &m);
    let on_texel = |a: &Vec<u32>| m.iter().any(|(o, p)| *o == OP_IMAGE_TEXEL_POINTER && p[1] == a[2]);
    // [type, result, pointer, scope, semantics, value]
    let atomics: Vec<(u32, Option<u32>)> = m
        .iter()
        .filter(|(o, a)| (227..=242).contains(o) && on_texel(a))
        .map(|(o, a)| (*o, int_constant(&m, a[5])))
        .collect();
    assert_eq!(
        atomics,
        [
            (OP_ATOMIC_SMAX, Some(11)),
            (OP_ATOMIC_UMIN, Some(22)),
            (OP_ATOMIC_SMIN, Some(33)),
            (OP_ATOMIC_UMAX, Some(44)),
            (OP_ATOMIC_UMAX, Some(55)),
            (OP_ATOMIC_SMIN, Some(66)),
        ]
    );
    // No corpus shader has one: fxc writes the opcode of the texture's type.
    assert!(carrying(Limitation::TypedUavAtomicSignedness).is_empty());
}

const OP_MEMORY_BARRIER: u32 = 225;

#[test]
fn uav_fences_outside_compute_are_spirv_memory_barriers() {
    // The refusal table's count (vkd3d's barriers test, ps_4_0 and ps_5_0).
    for (name, listing, m) in spirv_only(Limitation::BarrierOutsideCompute, 2) {
        // One barrier per fence: Device scope (1), acquire-release of
        // uniform and image memory (0x8 | 0x40 | 0x800).
        let fences = listing.lines().filter(|l| l.trim_start().starts_with("sync_uglobal")).count();
        let barriers: Vec<(Option<u32>, Option<u32>)> = m
            .iter()
            .filter(|(o, _)| *o == OP_MEMORY_BARRIER)
            .map(|(_, a)| (int_constant(&m, a[0]), int_constant(&m, a[1])))
            .collect();
        assert!(fences > 0, "{name}");
        assert_eq!(barriers, vec![(Some(1), Some(0x848)); fences], "{name}");
    }
    // A group barrier has no meaning outside compute: refused whole.
    let listing = "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_typed_texture2d (uint,uint,uint,uint) u1\n\
        sync_uglobal_t\nret\n";
    let bytes = dxbc::asm::assemble(listing).unwrap_or_else(|e| panic!("{e}"));
    let e = dxbc_naga::translate(&dxbc::Shader::parse(&bytes).unwrap(), &dxbc_naga::Options::default()).unwrap_err();
    assert_eq!(e.limitation(), Some(Limitation::BarrierOutsideCompute));
}

const FRAG_STENCIL_REF_EXT: u32 = 5014;
const CAP_STENCIL_EXPORT_EXT: u32 = 5013;
const OP_TYPE_INT_SIGNEDNESS: usize = 2;

#[test]
fn stencil_reference_is_the_frag_stencil_ref_built_in() {
    // The refusal table's count (a vkd3d pixel shader writing oStencilRef,
    // a fxc decompiler test that also reads vInnerCoverage).
    for (name, listing, m) in spirv_only(Limitation::StencilExport, 2) {
        assert!(listing.lines().any(|l| l.contains("oStencilRef")), "{name}");
        let vars = built_ins(&m, FRAG_STENCIL_REF_EXT);
        assert_eq!(vars.len(), 1, "{name}");
        // An Output variable of a 32-bit integer, stored to.
        let var = find(&m, OP_VARIABLE, vars[0], 1);
        assert_eq!(var[2], 3, "{name}: storage class Output");
        let pointee = find(&m, OP_TYPE_POINTER, var[0], 0)[2];
        assert_eq!(find(&m, OP_TYPE_INT, pointee, 0)[1..=OP_TYPE_INT_SIGNEDNESS], [32, 0], "{name}");
        assert!(m.iter().any(|(o, a)| *o == OP_STORE && a[0] == vars[0]), "{name}");
        assert!(capabilities(&m).contains(&CAP_STENCIL_EXPORT_EXT), "{name}");
        let ext: Vec<String> = m.iter().filter(|(o, _)| *o == OP_EXTENSION).map(|(_, a)| literal_string(a)).collect();
        assert!(ext.contains(&"SPV_EXT_shader_stencil_export".to_string()), "{name}");
        assert!(!m.iter().any(|(o, a)| *o == OP_DECORATE && a[1] == LOCATION && a[2] >= 1024), "{name}");
    }
}

const FULLY_COVERED_EXT: u32 = 5264;
const CAP_FRAGMENT_FULLY_COVERED_EXT: u32 = 5265;
const OP_TYPE_BOOL: u32 = 20;
const OP_SELECT: u32 = 169;
const FLAT: u32 = 14;

#[test]
fn inner_coverage_is_the_fully_covered_built_in_read_as_one_or_zero() {
    // The refusal table's count (a fxc decompiler test, a vkd3d-proton
    // conservative-rasterization shader).
    for (name, listing, m) in spirv_only(Limitation::InnerCoverage, 2) {
        assert!(listing.contains("dcl_input vInnerCoverage"), "{name}");
        let vars = built_ins(&m, FULLY_COVERED_EXT);
        assert_eq!(vars.len(), 1, "{name}");
        // A bool Input variable without Flat (SPIR-V's type for it) …
        let var = find(&m, OP_VARIABLE, vars[0], 1);
        assert_eq!(var[2], STORAGE_INPUT, "{name}");
        let pointee = find(&m, OP_TYPE_POINTER, var[0], 0)[2];
        assert!(m.iter().any(|(o, a)| *o == OP_TYPE_BOOL && a[0] == pointee), "{name}");
        assert!(!m.iter().any(|(o, a)| *o == OP_DECORATE && a[..] == [vars[0], FLAT]), "{name}");
        // … that each load turns into D3D's u32, 1 when fully covered, else 0.
        let loads: Vec<u32> = m.iter().filter(|(o, a)| *o == OP_LOAD && a[2] == vars[0]).map(|(_, a)| a[1]).collect();
        assert!(!loads.is_empty(), "{name}");
        for l in loads {
            let (_, select) = m.iter().find(|(o, a)| *o == OP_SELECT && a[2] == l).expect("the load is selected");
            assert_eq!((int_constant(&m, select[3]), int_constant(&m, select[4])), (Some(1), Some(0)), "{name}");
        }
        assert!(capabilities(&m).contains(&CAP_FRAGMENT_FULLY_COVERED_EXT), "{name}");
        let ext: Vec<String> = m.iter().filter(|(o, _)| *o == OP_EXTENSION).map(|(_, a)| literal_string(a)).collect();
        assert!(ext.contains(&"SPV_EXT_fragment_fully_covered".to_string()), "{name}");
    }
}

const BUILT_IN_CLIP_DISTANCE: u32 = 3;
const CAP_CLIP_DISTANCE: u32 = 32;
const OP_COMPOSITE_EXTRACT: u32 = 81;

#[test]
fn a_pixel_shaders_clip_distance_input_is_the_clip_distance_built_in() {
    // The refusal table's count (two 3Dmigoto signature tests).
    for (name, listing, m) in spirv_only(Limitation::ClipDistance, 2) {
        // `dcl_input_ps_siv linear v8.x, clip_distance`: one component.
        let declared: u32 = listing
            .lines()
            .filter(|l| l.starts_with("dcl_input_ps_siv") && l.ends_with(", clip_distance"))
            .map(|l| l.split(", ").next().and_then(|r| r.rsplit('.').next()).map_or(4, |mask| mask.len() as u32))
            .sum();
        assert!(declared > 0, "{name}");
        let vars = built_ins(&m, BUILT_IN_CLIP_DISTANCE);
        assert_eq!(vars.len(), 1, "{name}");
        // An Input float[N] of the declared components, without the
        // user varying's interpolation decorations …
        let var = find(&m, OP_VARIABLE, vars[0], 1);
        assert_eq!(var[2], STORAGE_INPUT, "{name}");
        let array = find(&m, OP_TYPE_POINTER, var[0], 0)[2];
        let array = find(&m, OP_TYPE_ARRAY, array, 0);
        assert_eq!(int_constant(&m, array[2]), Some(declared), "{name}");
        assert!(m.iter().any(|(o, a)| *o == OP_TYPE_FLOAT && a[..] == [array[1], 32]), "{name}");
        assert!(!m.iter().any(|(o, a)| *o == OP_DECORATE && a[0] == vars[0] && a[1] != BUILT_IN), "{name}");
        // … whose elements each load reads.
        let loads: Vec<u32> = m.iter().filter(|(o, a)| *o == OP_LOAD && a[2] == vars[0]).map(|(_, a)| a[1]).collect();
        assert!(!loads.is_empty(), "{name}");
        for l in loads {
            assert!(m.iter().any(|(o, a)| *o == OP_COMPOSITE_EXTRACT && a[2] == l), "{name}");
        }
        assert!(capabilities(&m).contains(&CAP_CLIP_DISTANCE), "{name}");
    }
}
