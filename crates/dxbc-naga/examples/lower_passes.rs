//! Lowers every translatable shader under a directory (recursively) N
//! times, for profilers: the instruction counts in the README come from
//!
//! ```sh
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/lower_passes ../shared/corpus/fxc 1   # and 3
//! ```
//!
//! (the difference of the two, halved, is one pass of `translate`; the
//! setup, decoding every file and translating it once to pick the
//! translatable ones, cancels out).
//!
//! With `median` after the pass count, only the middle fifth of the
//! shaders by instruction count (declarations included) is lowered: the
//! shaders the benches' median per shader is about, where the fixed cost
//! of a translation dominates. Count only the passes with
//! `--toggle-collect='lower_passes::run_passes'`.
fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: lower_passes DIR [PASSES [median]]");
    let passes: u32 = args.next().map_or(20, |s| s.parse().expect("PASSES is a number"));
    let median = match args.next().as_deref() {
        None => false,
        Some("median") => true,
        Some(other) => panic!("unknown option {other} (expected `median`)"),
    };
    let mut todo = vec![std::path::PathBuf::from(&dir)];
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
        // A stable sort: the band is the same files on every run.
        shaders.sort_by_key(|s| s.program.as_ref().map_or(0, |p| p.instructions.len()));
        let n = shaders.len();
        shaders = shaders.drain(n * 2 / 5..n * 3 / 5).collect();
        let size = |s: Option<&dxbc::Shader>| s.and_then(|s| s.program.as_ref()).map_or(0, |p| p.instructions.len());
        println!("median band: {} to {} instructions", size(shaders.first()), size(shaders.last()));
    }
    let start = std::time::Instant::now();
    run_passes(&shaders, passes);
    println!("{} shaders, {:?} per pass", shaders.len(), start.elapsed() / passes.max(1));
}

/// The measured part.
#[inline(never)]
fn run_passes(shaders: &[dxbc::Shader], passes: u32) {
    for _ in 0..passes {
        for s in shaders {
            std::hint::black_box(dxbc_naga::translate(s, &Default::default()).ok());
        }
    }
}
