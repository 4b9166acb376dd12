fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let f = dxbc_naga::SoftDouble::ALL.into_iter().find(|f| f.name() == name).unwrap_or(dxbc_naga::SoftDouble::Add);
    match dxbc_naga::software_doubles_wgsl(&[f]) {
        Ok(s) => print!("{s}"),
        Err(e) => eprintln!("{e}"),
    }
}
