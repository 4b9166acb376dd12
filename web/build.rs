//! The UI's wasm keeps wasm-ld's relocations and symbol table
//! (`--emit-relocs`): the release split (tools/wasm-split) reads the data
//! symbols' extents from them, to move data only cold code reads.
//! wasm-bindgen drops these sections, so the shipped module is unchanged.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bin=dxbc-web=--emit-relocs");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
