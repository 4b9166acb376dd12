//! Fields drive bytes: edit one field of a decoded chunk, rebuild, decode
//! again, and find the new value, every other field as it was, and a
//! container whose checksum verifies. Positions (`offset`, `*_offset`,
//! `*_at`) and stored counts are left out of the comparison: the encoder
//! recomputes them, and that the file decodes at all checks them.

use dxbc::chunks::rdef::ResourceBinding;
use dxbc::Shader;
use serde_json::Value;
use std::path::PathBuf;

fn corpus(name: &str) -> (Vec<u8>, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    assert!(dir.is_dir(), "corpus directory {} is missing", dir.display());
    let bytes = std::fs::read(dir.join(format!("{name}.dxbc"))).unwrap();
    let asm = std::fs::read_to_string(dir.join(format!("{name}.asm"))).unwrap();
    (bytes, asm)
}

const VS: &str = "dxdecompiler_apps_tesselation_vs";

/// Keys that hold positions or counts the encoder computes.
fn computed(key: &str) -> bool {
    key == "offset"
        || key.ends_with("_offset")
        || key.ends_with("_at")
        || matches!(key, "container" | "constant_buffer_count" | "binding_count" | "variable_count" | "element_count")
}

fn fields(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            Value::Object(m.into_iter().filter(|(k, _)| !computed(k)).map(|(k, v)| (k, fields(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(fields).collect()),
        v => v,
    }
}

/// Rebuilds the edited shader, checks the container, and returns it decoded.
fn rebuild_and_decode(original: &[u8], edited: &Shader) -> Shader {
    let bytes = edited.rebuild();
    assert_ne!(bytes, original, "the edit did not change the bytes");
    let s = Shader::parse(&bytes).unwrap_or_else(|e| panic!("rebuilt file does not decode: {e}"));
    assert!(s.checksum_ok(), "rebuilt container's checksum does not verify");
    // Everything else decodes to what the edited model holds.
    let want = fields(serde_json::to_value(edited).unwrap());
    let got = fields(serde_json::to_value(&s).unwrap());
    assert_eq!(got, want, "re-decoded fields differ from the edited model");
    s
}

#[test]
fn renaming_a_cbuffer_variable_moves_everything_after_it() {
    let (bytes, asm) = corpus(VS);
    let mut s = Shader::parse(&bytes).unwrap();
    let old_rdef_size = s.container.find(b"RDEF").unwrap().size;
    let v = &mut s.rdef.as_mut().unwrap().constant_buffers[0].variables[0];
    assert_eq!(v.name, "World");
    v.name = "WorldFromObjectSpace".into();
    let t = rebuild_and_decode(&bytes, &s);
    let r = t.rdef.as_ref().unwrap();
    assert_eq!(r.constant_buffers[0].variables[0].name, "WorldFromObjectSpace");
    // The name grew by 15 bytes; packed strings and padding take the rest.
    let new_size = t.container.find(b"RDEF").unwrap().size;
    assert!(new_size > old_rdef_size && new_size <= old_rdef_size + 15 + 3, "{old_rdef_size} -> {new_size}");
    // fxc's own listing, with the declaration re-padded to its column, is
    // what the rebuilt file disassembles to.
    let want = asm.replace("float4x4 World;                    //", "float4x4 WorldFromObjectSpace;     //");
    assert_ne!(want, asm);
    assert_eq!(dxbc::listing::disassemble(&t), want);
}

#[test]
fn editing_a_signature_element_changes_only_that_element() {
    let (bytes, asm) = corpus(VS);
    let mut s = Shader::parse(&bytes).unwrap();
    let e = &mut s.output_signature.as_mut().unwrap().elements[1];
    assert_eq!((e.name.as_str(), e.register, e.mask), ("COLOR", 1, 0xf));
    e.register = 5;
    e.mask = 0x3;
    e.name = "COLOR_AND_MORE".into();
    let t = rebuild_and_decode(&bytes, &s);
    let e = &t.output_signature.as_ref().unwrap().elements[1];
    assert_eq!((e.name.as_str(), e.register, e.mask), ("COLOR_AND_MORE", 5, 0x3));
    // The listing's output signature row follows the fields.
    let want = asm.replace(
        "// COLOR                    0   xyzw        1     NONE   float   xyzw\n//\nvs_5_0",
        "// COLOR_AND_MORE           0   xy          5     NONE   float   xy  \n//\nvs_5_0",
    );
    assert_ne!(want, asm);
    assert_eq!(dxbc::listing::disassemble(&t), want);
}

#[test]
fn adding_a_resource_binding_grows_the_table() {
    let (bytes, _) = corpus(VS);
    let mut s = Shader::parse(&bytes).unwrap();
    let r = s.rdef.as_mut().unwrap();
    assert_eq!(r.bindings.len(), 1);
    r.bindings.push(ResourceBinding {
        offset: 0,
        name_offset: 0,
        name: "extraTexture".into(),
        input_type: 2,
        return_type: 5,
        dimension: 4,
        sample_count: u32::MAX,
        bind_point: 9,
        bind_count: 1,
        flags: 0xc,
        space: None,
        id: None,
    });
    let t = rebuild_and_decode(&bytes, &s);
    let r = t.rdef.as_ref().unwrap();
    assert_eq!((r.binding_count, r.bindings.len()), (2, 2));
    assert_eq!((r.bindings[1].name.as_str(), r.bindings[1].bind_point), ("extraTexture", 9));
    // The buffer records moved up by one 32-byte binding record and the name.
    let old = Shader::parse(&bytes).unwrap();
    assert!(r.constant_buffer_offset >= old.rdef.unwrap().constant_buffer_offset + 32);
}

#[test]
fn changing_a_stat_count() {
    let (bytes, _) = corpus(VS);
    let mut s = Shader::parse(&bytes).unwrap();
    let st = s.stat.as_mut().unwrap();
    st.instruction_count.value += 7;
    st.temp_register_count.value = 9;
    let want = (st.instruction_count.value, 9);
    let t = rebuild_and_decode(&bytes, &s);
    let st = t.stat.as_ref().unwrap();
    assert_eq!((st.instruction_count.value, st.temp_register_count.value), want);
}

#[test]
fn unedited_rebuild_is_identical() {
    let (bytes, _) = corpus(VS);
    assert_eq!(Shader::parse(&bytes).unwrap().rebuild(), bytes);
}
