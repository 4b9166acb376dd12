//! Writes every translatable shader under a directory (recursively) N
//! times in one language, for profilers: the backend's share of
//! DXBC→SPIR-V (or →WGSL) without decoding or lowering.
//!
//! ```sh
//! valgrind --tool=callgrind --toggle-collect='writer_passes::run_passes' \
//!     target/release/examples/writer_passes ../shared/corpus/vkd3d spirv 2 median
//! ```
//!
//! Every shader is translated once, outside the measured part. With
//! `median`, only the middle fifth of the shaders by instruction count is
//! written (as `lower_passes` picks them).
mod common {
    pub mod band;
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: writer_passes DIR spirv|wgsl [PASSES [median]]";
    let dir = args.next().expect(usage);
    let language = args.next().expect(usage);
    let write: fn(&dxbc_naga::Translation) -> bool = match language.as_str() {
        "spirv" => |t| dxbc_naga::to_spirv(t).is_ok(),
        "wgsl" => |t| dxbc_naga::to_wgsl(t).is_ok(),
        other => panic!("unknown language {other} ({usage})"),
    };
    let passes: u32 = args.next().map_or(20, |s| s.parse().expect("PASSES is a number"));
    let shaders = common::band::translatable(&dir, common::band::median_arg(args.next()));
    let translations: Vec<dxbc_naga::Translation> =
        shaders.iter().filter_map(|s| dxbc_naga::translate(s, &Default::default()).ok()).collect();
    let start = std::time::Instant::now();
    let written = run_passes(&translations, passes, write);
    println!(
        "{} translations, {written} written per pass, {:?} per pass",
        translations.len(),
        start.elapsed() / passes.max(1)
    );
}

/// The measured part.
#[inline(never)]
fn run_passes(
    translations: &[dxbc_naga::Translation],
    passes: u32,
    write: fn(&dxbc_naga::Translation) -> bool,
) -> usize {
    let mut written = 0;
    for _ in 0..passes {
        written = translations.iter().filter(|t| std::hint::black_box(write(t))).count();
    }
    written
}
