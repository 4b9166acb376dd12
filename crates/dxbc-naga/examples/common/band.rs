//! The shaders the profiling examples run over: every translatable one
//! under a directory (recursively), or only the middle fifth of them by
//! instruction count (declarations included), the shaders the benches'
//! median per shader is about.

/// `DIR`'s translatable shaders in path order, or with `median` the middle
/// fifth by instruction count (a stable sort: the same files every run),
/// with a line saying which sizes that band holds.
pub fn translatable(dir: &str, median: bool) -> Vec<dxbc::Shader> {
    let mut todo = vec![std::path::PathBuf::from(dir)];
    let mut paths = Vec::new();
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    let mut shaders: Vec<dxbc::Shader> = paths
        .iter()
        .filter_map(|p| dxbc::Shader::parse(&std::fs::read(p).ok()?).ok())
        .filter(|s| dxbc_naga::translate(s, &Default::default()).is_ok())
        .collect();
    if median {
        shaders.sort_by_key(|s| s.program.as_ref().map_or(0, |p| p.instructions.len()));
        let n = shaders.len();
        shaders = shaders.drain(n * 2 / 5..n * 3 / 5).collect();
        let size = |s: Option<&dxbc::Shader>| s.and_then(|s| s.program.as_ref()).map_or(0, |p| p.instructions.len());
        println!("median band: {} to {} instructions", size(shaders.first()), size(shaders.last()));
    }
    shaders
}

/// The optional last argument: `median`, or nothing.
pub fn median_arg(arg: Option<String>) -> bool {
    match arg.as_deref() {
        None => false,
        Some("median") => true,
        Some(other) => panic!("unknown option {other} (expected `median`)"),
    }
}
