//! What the listing-based tests share: a listing assembled, translated
//! with the default options (as the CLI does) and written as WGSL.

pub fn wgsl_of(listing: &str) -> String {
    let bytes = dxbc::asm::assemble(listing).expect("the fixture assembles");
    let shader = dxbc::Shader::parse(&bytes).expect("parses");
    let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).expect("translates");
    dxbc_naga::to_wgsl(&t).expect("WGSL")
}
