//! Reading shaders from the shared corpus, in place.

use std::path::PathBuf;

/// `../shared/corpus` (relative to the workspace), failing loudly when absent.
pub fn corpus_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    assert!(
        dir.join("fxc").is_dir() && dir.join("vkd3d").is_dir(),
        "the shader corpus is missing: expected {} with fxc/ and vkd3d/",
        dir.display()
    );
    dir
}

/// Decodes `corpus/<rel>`.
pub fn shader(rel: &str) -> dxbc::Shader {
    let path = corpus_dir().join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    dxbc::Shader::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `.dxbc` file of the corpus (fxc, and vkd3d one level down).
pub fn all_containers() -> Vec<PathBuf> {
    let root = corpus_dir();
    let mut out = Vec::new();
    let mut stack = vec![root.join("fxc"), root.join("vkd3d")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(out.len() > 1000, "only {} containers in the corpus", out.len());
    out
}
