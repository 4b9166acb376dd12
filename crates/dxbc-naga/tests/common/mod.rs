//! What the tests share: a listing assembled, translated with the default
//! options (as the CLI does) and written as WGSL; SPIR-V words checked by
//! `spirv-val`.

#[allow(dead_code)]
pub fn wgsl_of(listing: &str) -> String {
    let bytes = dxbc::asm::assemble(listing).expect("the fixture assembles");
    let shader = dxbc::Shader::parse(&bytes).expect("parses");
    let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).expect("translates");
    dxbc_naga::to_wgsl(&t).expect("WGSL")
}

/// The WGSL from the function holding the program on: `fn dxbc_main`, or
/// the entry point `fn main(` when the body is written into it. Panics
/// when there is neither, so that no check passes on an empty text.
#[allow(dead_code)]
pub fn body_of(wgsl: &str) -> &str {
    let start = wgsl.find("fn dxbc_main").or_else(|| wgsl.find("fn main(")).expect("the body function");
    &wgsl[start..]
}

/// Asserts that `spirv-val` accepts the words for Vulkan 1.1 (the
/// environment of the corpus tests); `what` names them when it does not.
#[allow(dead_code)]
pub fn assert_spirv_valid(words: &[u32], what: &str) {
    let file = std::env::temp_dir().join(format!("dxbc-test-{}-{:p}.spv", std::process::id(), words.as_ptr()));
    std::fs::write(&file, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let o = std::process::Command::new("spirv-val")
        .args(["--target-env", "vulkan1.1"])
        .arg(&file)
        .output()
        .expect("spirv-val is missing: install Debian's spirv-tools");
    let _ = std::fs::remove_file(&file);
    assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
}
