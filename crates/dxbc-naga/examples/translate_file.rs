fn main() {
    let path = std::env::args().nth(1).unwrap();
    let b = std::fs::read(&path).unwrap();
    let s = dxbc::Shader::parse(&b).unwrap();
    print!(
        "{}",
        dxbc::listing::disassemble(&s).lines().filter(|l| !l.starts_with("//")).collect::<Vec<_>>().join("\n")
    );
    println!();
    match dxbc_naga::translate(&s, &Default::default()) {
        Ok(t) => println!("{}", dxbc_naga::to_wgsl(&t).unwrap()),
        Err(e) => println!("ERROR {e:?}"),
    }
}
