//! Controls and packing against fxc's own listing of the same files: the
//! offsets below are the ones fxc prints in the `.asm` next to each
//! container (element 0), with later elements and components computed by
//! hand from the packing rules.

mod common;

use dxbc::spec::{CbufferType, ShaderVariableClass, ShaderVariableType};
use preview_model::controls::{
    self, BufferClass, ControlKind, MatrixConvention, MatrixOrder, MatrixPreset, Scalar, Value, Values,
};
use preview_model::{pack, unpack, PreviewModel};

fn model(rel: &str) -> PreviewModel {
    PreviewModel::new(&common::shader(rel))
}

fn control<'a>(m: &'a PreviewModel, id: &str) -> &'a controls::Control {
    m.cbuffers.iter().find_map(|c| c.control(id)).unwrap_or_else(|| {
        panic!(
            "no control {id}; have {:?}",
            m.cbuffers.iter().flat_map(|c| &c.controls).map(|c| &c.id).take(40).collect::<Vec<_>>()
        )
    })
}

const RESDEF: &str = "fxc/dxdecompiler_internal_resourcedefinitions.dxbc";

#[test]
fn nested_structs_arrays_and_matrices_land_where_fxc_says() {
    let m = model(RESDEF);
    let at = |id: &str| control(&m, id).offset;
    // Array of structs: stride = struct size (1844) rounded to 16.
    assert_eq!(at("cbuffer2/structVal1[0].foofoo"), 0);
    assert_eq!(at("cbuffer2/structVal1[1].foofoo"), 1856);
    assert_eq!(at("cbuffer2/structVal1[0].foobar"), 4);
    assert_eq!(control(&m, "cbuffer2/structVal1[0].foobar").scalar, Scalar::U32);
    assert_eq!(at("cbuffer2/structVal1[0].inner_struct_1.bar"), 20);
    // inner_struct_2 elements are 592 bytes (16 + 2 × 288) apart.
    assert_eq!(at("cbuffer2/structVal1[0].inner_struct_2[1].baz"), 32 + 592);
    let m34 = control(&m, "cbuffer2/structVal1[0].inner_struct_2[1].inner_struct_3[1].sValue2[1]");
    assert_eq!((m34.rows, m34.columns, m34.matrix_order), (3, 4, Some(MatrixOrder::ColumnMajor)));
    // 624 + 16 (inner_struct_3) + 288 (element 1) + 32 (sValue2) + 64 (element 1).
    assert_eq!(m34.offset, 1024);
    assert_eq!(m34.size, 60);
    for r in 0..3u32 {
        for c in 0..4u32 {
            assert_eq!(m34.component_offsets[(r * 4 + c) as usize], 1024 + c * 16 + r * 4);
        }
    }
    // Scalar and small-vector arrays: one register per element, the next
    // variable packed into the last element's register.
    assert_eq!(at("cbuffer2/structVal1[0].foobuz[0]"), 1232);
    assert_eq!(at("cbuffer2/structVal1[0].foobuz[7]"), 1344);
    assert_eq!(at("cbuffer2/structVal1[0].binary_decompiler_array_size_calculation_looks_sketchy"), 1348);
    assert_eq!(at("cbuffer2/structVal1[0].really[2]"), 1392);
    assert_eq!(control(&m, "cbuffer2/structVal1[0].really[2]").size, 8);
    assert_eq!(at("cbuffer2/structVal1[0].sketchy"), 1400);
    assert_eq!(at("cbuffer2/structVal1[0].did[4]"), 1472);
    assert_eq!(at("cbuffer2/structVal1[0].i"), 1484);
    assert_eq!(at("cbuffer2/structVal1[0].mention[6]"), 1488 + 96);
    // Row-major 4×3: rows in registers.
    let rm = control(&m, "cbuffer2/structVal1[0].matRM43");
    assert_eq!((rm.offset, rm.size, rm.matrix_order), (1728, 60, Some(MatrixOrder::RowMajor)));
    assert_eq!(rm.component_offsets[3 * 3 + 2], 1728 + 3 * 16 + 2 * 4);
    // Column-major 4×3: columns in registers.
    let cm = control(&m, "cbuffer2/structVal1[0].matCM43");
    assert_eq!((cm.offset, cm.size), (1616, 48));
    assert_eq!(cm.component_offsets[3 * 3 + 2], 1616 + 2 * 16 + 3 * 4);
    assert_eq!(at("cbuffer2/structVal1[0].val"), 1840);
    assert_eq!(at("cbuffer2/dummy"), 3700);
    assert_eq!(at("cbuffer2/structVal2.val"), 5552);
    assert_eq!(at("cbuffer2/anonStruct2.val2"), 5592);
    // The tbuffer is modelled too, bound as t12.
    let tb = m.cbuffers.iter().find(|c| c.name == "tbuffer1").unwrap();
    assert_eq!((tb.class, tb.register), (BufferClass::Texture, Some(12)));
    let cb6 = m.cbuffers.iter().find(|c| c.name == "cbuffer6").unwrap();
    assert_eq!((cb6.class, cb6.register, cb6.size), (BufferClass::Constant, Some(5), 48));
}

/// Every matrix shape in both orders has the size fxc prints.
#[test]
fn matrix_sizes_match_fxc_for_every_shape() {
    let m = model(RESDEF);
    let expect = [
        ("matRM11", 0, 4),
        ("matRM12", 4, 8),
        ("matRM21", 48, 20),
        ("matRM34", 320, 48),
        ("matRM43", 496, 60),
        ("matRM44", 560, 64),
        ("matCM12", 640, 20),
        ("matCM14", 720, 52),
        ("matCM21", 772, 8),
        ("matCM34", 1024, 60),
        ("matCM41", 1088, 16),
        ("matCM43", 1136, 48),
        ("matCM44", 1184, 64),
    ];
    for (name, offset, size) in expect {
        let c = control(&m, &format!("matrices/{name}"));
        assert_eq!((c.offset, c.size), (offset, size), "{name}");
        assert!(matches!(c.kind, ControlKind::Matrix { .. }), "{name}: {:?}", c.kind);
    }
}

/// Over the whole corpus, the packing rules reproduce the size fxc
/// recorded for every cbuffer variable we can represent.
#[test]
fn packing_rules_reproduce_every_rdef_variable_size() {
    let mut checked = 0;
    let mut bad = Vec::new();
    for path in common::all_containers() {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(s) = dxbc::Shader::decode(&bytes) else { continue };
        let Some(rdef) = &s.rdef else { continue };
        for cb in rdef.constant_buffers.iter().filter(|c| c.kind <= CbufferType::Tbuffer as u32) {
            for v in &cb.variables {
                if !representable(&v.ty) {
                    continue;
                }
                if controls::total_size(&v.ty) != v.size as u64 {
                    // Only class instances (dynamic linkage) disagree; the
                    // model must leave them out rather than misplace them.
                    let m = PreviewModel::new(&s);
                    let model_cb = m.cbuffers.iter().find(|c| c.name == cb.name).unwrap();
                    assert!(model_cb.truncated);
                    let prefix = format!("{}/{}", cb.name, v.name);
                    assert!(!model_cb
                        .controls
                        .iter()
                        .any(|c| c.id == prefix || c.id.starts_with(&format!("{prefix}."))));
                    bad.push(v.name.clone());
                }
                checked += 1;
            }
        }
    }
    assert_eq!(bad, ["gAbstractInterface2", "gAbstractInterface3"]);
    assert!(checked > 2000, "only {checked} variables checked");
}

fn representable(ty: &dxbc::chunks::rdef::Type) -> bool {
    type C = ShaderVariableClass;
    match C::from_u32(u32::from(ty.class)) {
        Some(C::Scalar | C::Vector | C::MatrixRows | C::MatrixColumns) => {
            Scalar::from_base_type(ty.base_type).is_some()
        }
        Some(C::Struct) => !ty.members.is_empty() && ty.members.iter().all(|m| representable(&m.ty)),
        _ => false,
    }
}

#[test]
fn colours_matrices_and_names_choose_widgets() {
    let m = model("fxc/dxdecompiler_multithreadedrendering11_multithreadedrenderin_d7bf.dxbc");
    let obj = control(&m, "cbPerObject/g_vObjectColor");
    assert_eq!(obj.kind, ControlKind::Color { alpha: true });
    assert_eq!(obj.default, Value::Floats(vec![1.0; 4]));
    // Light 2's colour: 2 × 128-byte elements + 96.
    let light = control(&m, "cbPerLight/g_LightData[2].m_vLightColor");
    assert_eq!((light.offset, light.size), (352, 16));
    assert_eq!(light.kind, ControlKind::Color { alpha: true });
    let vp = control(&m, "cbPerLight/g_LightData[3].m_mLightViewProj");
    assert_eq!(vp.offset, 384);
    assert!(matches!(&vp.kind, ControlKind::Matrix { rows: 4, columns: 4, presets } if presets.len() == 4));
    let expected = controls::matrix_preset(MatrixPreset::ViewProjection, MatrixConvention::RowVector, 4, 4);
    assert_eq!(vp.default, Value::Floats(expected));
    assert!(matches!(control(&m, "cbPerScene/g_vMirrorPlane").kind, ControlKind::Vector { components: 4, .. }));
    assert_eq!(control(&m, "cbPerScene/g_vTintColor").kind, ControlKind::Color { alpha: true });
    let cb = &m.cbuffers[1];
    assert_eq!((cb.name.as_str(), cb.register, cb.size, cb.truncated), ("cbPerLight", Some(1), 512, false));
}

#[test]
fn scalar_guesses() {
    let m = model("vkd3d/cast-to-float/000_ps_4_0.dxbc");
    let ids: Vec<_> = m.cbuffers[0].controls.iter().map(|c| (c.id.as_str(), c.offset, c.scalar)).collect();
    assert_eq!(
        ids,
        [
            ("$Globals/i", 0, Scalar::I32),
            ("$Globals/u", 4, Scalar::U32),
            ("$Globals/b", 8, Scalar::Bool),
            ("$Globals/h", 12, Scalar::F32)
        ]
    );
    assert_eq!(control(&m, "$Globals/b").kind, ControlKind::Checkbox { components: 1 });
    assert!(
        matches!(control(&m, "$Globals/h").kind, ControlKind::Slider { min, max, .. } if min == -10.0 && max == 10.0)
    );
}

#[test]
fn pack_is_byte_exact() {
    let m = model("vkd3d/cast-to-float/000_ps_4_0.dxbc");
    let cb = &m.cbuffers[0];
    let mut v = Values::new();
    v.insert("$Globals/i".into(), Value::Ints(vec![-1]));
    v.insert("$Globals/u".into(), Value::Uints(vec![3]));
    v.insert("$Globals/b".into(), Value::Bools(vec![true]));
    v.insert("$Globals/h".into(), Value::Floats(vec![0.5]));
    let bytes = pack(cb, &v);
    assert_eq!(
        bytes,
        [0xff, 0xff, 0xff, 0xff, 3, 0, 0, 0, 1, 0, 0, 0, 0x00, 0x00, 0x00, 0x3f],
        "the layout vkd3d's test writes with `uniform 0 int -1` … `uniform 3 float 0.5`"
    );
    assert_eq!(unpack(cb, &bytes), v);
    // Wrong type or length falls back to the default (zero here).
    v.insert("$Globals/h".into(), Value::Ints(vec![7]));
    assert_eq!(&pack(cb, &v)[12..16], &[0, 0, 0, 0]);

    // A column-major 4×4 in an array of structs: m[r][c] at base + 16c + 4r.
    let m = model("fxc/dxdecompiler_multithreadedrendering11_multithreadedrenderin_d7bf.dxbc");
    let cb = m.cbuffers.iter().find(|c| c.name == "cbPerLight").unwrap();
    let mut v = Values::new();
    v.insert("cbPerLight/g_LightData[1].m_mLightViewProj".into(), Value::Floats((0..16).map(|i| i as f32).collect()));
    let bytes = pack(cb, &v);
    assert_eq!(bytes.len(), 512);
    let word = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    for r in 0..4 {
        for c in 0..4 {
            assert_eq!(word(128 + 16 * c + 4 * r), (r * 4 + c) as f32);
        }
    }
}

#[test]
fn pack_round_trips_over_the_corpus() {
    let mut buffers = 0;
    for path in common::all_containers().iter().step_by(3) {
        let bytes = std::fs::read(path).unwrap();
        let Ok(s) = dxbc::Shader::decode(&bytes) else { continue };
        let m = PreviewModel::new(&s);
        for cb in &m.cbuffers {
            // Distinct values everywhere so any overlap or misplacement shows.
            let mut v = Values::new();
            for (k, c) in cb.controls.iter().enumerate() {
                let n = c.components();
                let val = match c.scalar {
                    Scalar::F32 => Value::Floats((0..n).map(|i| (k * 16 + i) as f32 + 0.25).collect()),
                    Scalar::I32 => Value::Ints((0..n).map(|i| -((k * 16 + i) as i32) - 1).collect()),
                    Scalar::U32 => Value::Uints((0..n).map(|i| (k * 16 + i) as u32 + 7).collect()),
                    Scalar::Bool => Value::Bools((0..n).map(|i| (k + i) % 2 == 0).collect()),
                };
                v.insert(c.id.clone(), val);
            }
            let bytes = pack(cb, &v);
            assert_eq!(bytes.len() as u32, cb.size);
            assert_eq!(bytes.len() % 16, 0);
            assert_eq!(unpack(cb, &bytes), v, "{}: {}", path.display(), cb.id);
            assert_eq!(unpack(cb, &pack(cb, &cb.defaults())).len(), cb.controls.len());
            buffers += 1;
        }
    }
    assert!(buffers > 300, "only {buffers} buffers");
}

#[test]
fn rdef_defaults_are_used() {
    // A file whose variables carry initialisers.
    for path in common::all_containers() {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(s) = dxbc::Shader::decode(&bytes) else { continue };
        let Some(rdef) = &s.rdef else { continue };
        let Some((cb, var)) = rdef
            .constant_buffers
            .iter()
            .filter(|c| c.kind == CbufferType::Cbuffer as u32)
            .flat_map(|c| c.variables.iter().map(move |v| (c, v)))
            .find(|(_, v)| {
                v.default_value.as_ref().is_some_and(|d| d.iter().any(|&b| b != 0))
                    && v.ty.class <= ShaderVariableClass::Vector as u16
                    && v.ty.elements == 0
                    && v.ty.base_type == ShaderVariableType::Float as u16
            })
        else {
            continue;
        };
        let m = PreviewModel::new(&s);
        let c = control(&m, &format!("{}/{}", cb.name, var.name));
        let d = var.default_value.as_ref().unwrap();
        let expect: Vec<f32> =
            d.chunks_exact(4).take(c.components()).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
        assert_eq!(c.default, Value::Floats(expect), "{}", path.display());
        return;
    }
    panic!("no corpus variable has a non-zero float default");
}
