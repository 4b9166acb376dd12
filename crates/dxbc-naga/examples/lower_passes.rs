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
mod common {
    pub mod band;
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: lower_passes DIR [PASSES [median]]");
    let passes: u32 = args.next().map_or(20, |s| s.parse().expect("PASSES is a number"));
    let shaders = common::band::translatable(&dir, common::band::median_arg(args.next()));
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
