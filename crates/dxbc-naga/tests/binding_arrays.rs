//! SM5.1 register ranges (`T0[8:15]`, `S0[1:*]`, `CB2[2:3][1]`) become naga
//! binding arrays: the binding map states each range's register, space and
//! descriptor count as the declaration in the listing does, uses index the
//! array by register minus the range's lower bound, SPIR-V passes
//! spirv-val, and each language either writes the shader or refuses it with
//! the typed limitation it lacks.

mod common;

use dxbc_naga::{BindingCount, Language, Limitation, OutputError, RegisterClass, Translation};
use std::path::PathBuf;

fn blob(name: &str) -> dxbc::Shader {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/blobs").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("corpus file {} missing: {e}", path.display()));
    dxbc::Shader::parse(&bytes).expect("decodes")
}

fn translate(name: &str) -> Translation {
    dxbc_naga::translate(&blob(name), &dxbc_naga::Options::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every corpus blob that declares a range of more than one register.
const RANGES: &[&str] = &[
    "vkd3d_d3d12_cs_code_10.dxbc",
    "vkd3d_d3d12_cs_code_11.dxbc",
    "vkd3d_d3d12_cs_code_12.dxbc",
    "vkd3d_d3d12_cs_code_13.dxbc",
    "vkd3d_d3d12_cs_code_14.dxbc",
    "vkd3d_vkd3d_shader_api_ps_5_1.dxbc",
    "vkd3dproton_bindless_bindless_bufinfo.dxbc",
    "vkd3dproton_bindless_bindless_cbv.dxbc",
    "vkd3dproton_bindless_bindless_uav.dxbc",
    "vkd3dproton_bindless_bindless_uav_counter.dxbc",
    "vkd3dproton_command_cbv_hoisting.dxbc",
    "vkd3dproton_descriptors_custom_border_color.dxbc",
    "vkd3dproton_descriptors_custom_border_color_swizzle.dxbc",
    "vkd3dproton_descriptors_rwtex1d_array_reinterpretation.dxbc",
    "vkd3dproton_descriptors_rwtex2d_array_reinterpretation.dxbc",
    "vkd3dproton_descriptors_tex1d_array_reinterpretation.dxbc",
    "vkd3dproton_descriptors_tex2d_array_reinterpretation.dxbc",
    "vkd3dproton_descriptors_typed_buffer_many_objects.dxbc",
    "vkd3dproton_descriptors_uav_counters_null_behavior.dxbc",
    "vkd3dproton_resource_use_before_alloc_sentinel.dxbc",
    "vkd3dproton_robustness_buffers_oob_behavior.dxbc",
    "vkd3dproton_robustness_null_descriptor_mismatch_type.dxbc",
    "vkd3dproton_robustness_undefined_read_typed_buffer_as_untyped.dxbc",
];

/// A declaration's range as the listing prints it: `(class, lo, count, space)`
/// from lines such as `dcl_resource_texture2d (float,…) T0[8:15], space=4`.
fn listed_ranges(shader: &dxbc::Shader) -> Vec<(RegisterClass, u32, BindingCount, u32)> {
    let mut out = Vec::new();
    for line in dxbc::listing::disassemble(shader).lines().filter(|l| l.starts_with("dcl_")) {
        let Some(space) = line.rsplit_once("space=").and_then(|(_, s)| s.trim().parse::<u32>().ok()) else {
            continue;
        };
        let Some((class, rest)) = [
            ("CB", RegisterClass::ConstantBuffer),
            ("T", RegisterClass::ShaderResource),
            ("S", RegisterClass::Sampler),
            ("U", RegisterClass::UnorderedAccess),
        ]
        .iter()
        .find_map(|(p, c)| {
            line.split_whitespace()
                .find(|w| w.starts_with(p) && w[p.len()..].starts_with(|ch: char| ch.is_ascii_digit()))
                .map(|w| (*c, w.to_string()))
        }) else {
            continue;
        };
        let range = &rest[rest.find('[').unwrap() + 1..rest.find(']').unwrap()];
        let (lo, hi) = range.split_once(':').unwrap();
        let lo: u32 = lo.parse().unwrap();
        let count = match hi {
            "*" => BindingCount::Unbounded,
            h if h.parse::<u32>().unwrap() == lo => BindingCount::Single,
            h => BindingCount::Array(h.parse::<u32>().unwrap() - lo + 1),
        };
        out.push((class, lo, count, space));
    }
    out
}

#[test]
fn the_binding_map_states_each_declared_range() {
    let mut arrays = 0;
    for name in RANGES {
        let shader = blob(name);
        let listed = listed_ranges(&shader);
        assert!(listed.iter().any(|r| r.2 != BindingCount::Single), "{name}: no range in the listing");
        let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mapped: Vec<_> = t
            .bindings
            .iter()
            .filter(|b| b.kind != dxbc_naga::BindingKind::UavCounter)
            .map(|b| (b.class, b.register, b.count, b.space))
            .collect();
        let mut want = listed.clone();
        want.sort_by_key(|r| format!("{r:?}"));
        let mut got = mapped.clone();
        got.sort_by_key(|r| format!("{r:?}"));
        assert_eq!(got, want, "{name}");
        // One binding per declaration, none shared.
        let mut places: Vec<_> = t.bindings.iter().map(|b| (b.group, b.binding)).collect();
        places.sort();
        places.dedup();
        assert_eq!(places.len(), t.bindings.len(), "{name}");
        arrays += got.iter().filter(|r| r.2 != BindingCount::Single).count();
    }
    assert!(arrays >= 60, "{arrays} ranges");
}

/// `T0[15]` of `T0[8:15]` is element 7: every constant use indexes the
/// binding array by register minus lower bound (listing: vkd3d-shader's
/// api test, ps_5_1).
#[test]
fn constant_uses_index_by_register_minus_lower_bound() {
    let t = translate("vkd3d_vkd3d_shader_api_ps_5_1.dxbc");
    let mut used = Vec::new();
    // The body's function, or the entry point it is written into.
    let functions = t.module.functions.iter().map(|(_, f)| f).chain(t.module.entry_points.iter().map(|e| &e.function));
    for f in functions {
        for (_, e) in f.expressions.iter() {
            if let naga::Expression::AccessIndex { base, index } = *e {
                if let naga::Expression::GlobalVariable(g) = f.expressions[base] {
                    let g = &t.module.global_variables[g];
                    if matches!(t.module.types[g.ty].inner, naga::TypeInner::BindingArray { .. }) {
                        used.push((g.name.clone().unwrap(), index));
                    }
                }
            }
        }
    }
    used.sort();
    // sample T0[15] S0[13]; sample T1[11] S1[17]; ld T0[12]
    let want = [("s0", 3), ("s1", 6), ("t0", 4), ("t0", 7), ("t1", 2)];
    assert_eq!(used, want.iter().map(|(n, i)| (n.to_string(), *i)).collect::<Vec<_>>());
}

fn refused_by(t: &Translation, l: Language) -> Option<Limitation> {
    let r = match l {
        Language::Wgsl => dxbc_naga::to_wgsl(t).map(|_| ()),
        Language::Spirv => dxbc_naga::to_spirv(t).map(|_| ()),
        Language::Hlsl => dxbc_naga::to_hlsl(t).map(|_| ()),
        Language::Msl => dxbc_naga::to_msl(t).map(|_| ()),
        Language::Glsl => dxbc_naga::to_glsl(t).map(|_| ()),
    };
    match r {
        Ok(()) => None,
        Err(OutputError::Refused { limitation, .. }) => Some(limitation),
        Err(e) => panic!("{l:?}: {e}"),
    }
}

#[test]
fn each_language_writes_or_refuses_typed() {
    use Language::*;
    use Limitation as L;
    let cases: &[(&str, [Option<Limitation>; 5])] = &[
        // Bounded texture and sampler ranges: every native target.
        ("vkd3d_vkd3d_shader_api_ps_5_1.dxbc", [Some(L::ResourceArrays), None, None, None, Some(L::ResourceArrays)]),
        // Constant-buffer ranges: binding arrays of uniform blocks.
        (
            "vkd3dproton_command_cbv_hoisting.dxbc",
            [Some(L::ConstantBufferArrays), None, None, None, Some(L::ConstantBufferArrays)],
        ),
        // Buffer ranges: not in naga's HLSL writer.
        (
            "vkd3dproton_robustness_buffers_oob_behavior.dxbc",
            [Some(L::ResourceArrays), None, Some(L::BufferArrays), None, Some(L::ResourceArrays)],
        ),
        // Unbounded textures: not in naga's HLSL writer.
        (
            "vkd3dproton_descriptors_custom_border_color_swizzle.dxbc",
            [Some(L::ResourceArrays), None, Some(L::UnboundedResourceArrays), None, Some(L::ResourceArrays)],
        ),
        // Unbounded samplers: HLSL has them.
        ("vkd3d_d3d12_cs_code_13.dxbc", [Some(L::ResourceArrays), None, None, None, Some(L::ResourceArrays)]),
        // Read-write texture ranges: not in naga's MSL writer.
        (
            "vkd3dproton_bindless_bindless_uav.dxbc",
            [Some(L::ResourceArrays), None, Some(L::BufferArrays), Some(L::UavTextureArrays), Some(L::ResourceArrays)],
        ),
    ];
    for (name, want) in cases {
        let t = translate(name);
        let got: Vec<_> = [Wgsl, Spirv, Hlsl, Msl, Glsl].iter().map(|&l| refused_by(&t, l)).collect();
        assert_eq!(got, want.to_vec(), "{name}");
    }
    // UAV counters of a range: a binding array of counters, one per UAV, as
    // many as the range (listing: `dcl_uav_structured U0[2:*], 4, space=1`).
    let t = translate("vkd3dproton_bindless_bindless_uav_counter.dxbc");
    let counters: Vec<_> = t
        .bindings
        .iter()
        .filter(|b| b.kind == dxbc_naga::BindingKind::UavCounter)
        .map(|b| (b.register, b.space, b.count))
        .collect();
    assert_eq!(counters, [(2, 1, BindingCount::Unbounded)]);
    assert_eq!(refused_by(&t, Spirv), None);
}

/// Every range shader SPIR-V writes passes spirv-val (unbounded arrays need
/// the RuntimeDescriptorArray capability, and uniform-block arrays the Block
/// decoration, that naga 30 leaves out).
#[test]
fn spirv_of_ranges_passes_spirv_val() {
    let mut checked = 0;
    for name in RANGES {
        let Ok(t) = dxbc_naga::translate(&blob(name), &dxbc_naga::Options::default()) else { continue };
        let Ok(words) = dxbc_naga::to_spirv(&t) else { continue };
        common::assert_spirv_valid(&words, name);
        checked += 1;
    }
    assert_eq!(checked, 23);
}
