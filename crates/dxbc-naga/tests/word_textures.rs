//! Textures of doubles and tbuffers (`mixed` buffers) are read as 32-bit
//! words: `ld` puts a double's two halves, or a tbuffer row's four words, in
//! the register unchanged, so the view is bound as uint words. The
//! declarations checked are those of fxc's listings (NAME.asm).

mod common;

use dxbc_naga::{BindingKind, Language, RegisterClass};
use std::path::PathBuf;

fn fxc(name: &str) -> (dxbc::Shader, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    let read = |ext: &str| {
        let p = dir.join(format!("{name}.{ext}"));
        std::fs::read(&p).unwrap_or_else(|e| panic!("corpus file {} missing: {e}", p.display()))
    };
    (dxbc::Shader::parse(&read("dxbc")).expect("decodes"), String::from_utf8(read("asm")).unwrap())
}

#[test]
fn double_textures_are_uint_word_textures() {
    let name = "dxdecompiler_3dmigoto_double_precision";
    let (shader, asm) = fxc(name);
    let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).expect("translates");
    for reg in [36, 37, 38] {
        let decl = "dcl_resource_texture2d (double,<continued>,";
        assert!(asm.lines().any(|l| l.starts_with(decl) && l.ends_with(&format!(" t{reg}"))), "t{reg} in the listing");
        let b = t
            .bindings
            .iter()
            .find(|b| b.class == RegisterClass::ShaderResource && b.register == reg)
            .unwrap_or_else(|| panic!("t{reg} bound"));
        match &b.kind {
            BindingKind::SampledTexture { dimension, sample_type, multisampled: false, .. } => {
                assert_eq!((dimension.as_str(), sample_type.as_str()), ("texture2d", "u"), "t{reg}");
            }
            k => panic!("t{reg}: {k:?}"),
        }
    }
    // Native doubles in SPIR-V; software binary64 in WGSL.
    common::assert_spirv_valid(&dxbc_naga::to_spirv(&t).expect("SPIR-V"), name);
    assert!(t.software_doubles().is_some_and(|s| s.is_ok()), "{name}");
    assert!(dxbc_naga::to_wgsl(&t).expect("WGSL").contains("fn f64_"), "{name}");
}

#[test]
fn tbuffers_are_four_word_rows() {
    for name in ["dxdecompiler_internal_dynamicindexing", "dxdecompiler_internal_duplicatenames"] {
        let (shader, asm) = fxc(name);
        assert!(asm.lines().any(|l| l == "dcl_resource_buffer (mixed,mixed,mixed,mixed) t0"), "{name}");
        assert!(asm.lines().any(|l| l.starts_with("// ") && l.contains(" tbuffer ") && l.contains(" t0 ")), "{name}");
        let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).expect("translates");
        let b = t.bindings.iter().find(|b| b.class == RegisterClass::ShaderResource && b.register == 0).unwrap();
        assert_eq!(b.kind, BindingKind::TypedBuffer { writable: false, channels: 4 }, "{name}");
        for l in Language::ALL {
            let written = match l {
                Language::Wgsl => dxbc_naga::to_wgsl(&t).is_ok(),
                Language::Spirv => dxbc_naga::to_spirv(&t).inspect(|w| common::assert_spirv_valid(w, name)).is_ok(),
                Language::Hlsl => dxbc_naga::to_hlsl(&t).is_ok(),
                Language::Msl => dxbc_naga::to_msl(&t).is_ok(),
                Language::Glsl => dxbc_naga::to_glsl(&t).is_ok(),
            };
            assert!(written, "{name}: {l:?}");
        }
    }
}
