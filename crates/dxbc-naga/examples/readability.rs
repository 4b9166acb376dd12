//! Readability of the WGSL translation over corpora (issue 14's measure).
//!
//! `cargo run --release -p dxbc-naga --example readability -- DIR...`
//! translates every `.dxbc` file under the directories as the CLI does
//! (`translate_standalone`, default options with register names) and prints, per DXBC
//! instruction, what `dxbc_naga::readability` counts.
use dxbc_naga::readability::Figures;

fn dxbc_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            dxbc_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "dxbc") {
            out.push(path);
        }
    }
    Ok(())
}

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: readability DIR...");
        std::process::exit(2);
    }
    let options = dxbc_naga::Options::default();
    let mut total = Figures::default();
    let mut total_refused = 0;
    for dir in &dirs {
        let mut files = Vec::new();
        if let Err(e) = dxbc_files(std::path::Path::new(dir), &mut files) {
            eprintln!("{dir}: {e}");
            std::process::exit(1);
        }
        files.sort();
        let mut sum = Figures::default();
        let mut refused = 0;
        for path in &files {
            let Ok(bytes) = std::fs::read(path) else { continue };
            let Ok(shader) = dxbc::Shader::parse(&bytes) else { continue };
            let t = match dxbc_naga::translate_standalone(&shader, &options) {
                Ok(t) => t,
                Err(e) => {
                    // READABILITY_VERBOSE=1 names the files not translated.
                    if std::env::var_os("READABILITY_VERBOSE").is_some() {
                        eprintln!("{}: {e}", path.display());
                    }
                    refused += 1;
                    continue;
                }
            };
            let wgsl = match dxbc_naga::to_wgsl(&t) {
                Ok(w) => w,
                Err(e) => {
                    if std::env::var_os("READABILITY_VERBOSE").is_some() {
                        eprintln!("{}: {e}", path.display());
                    }
                    refused += 1;
                    continue;
                }
            };
            sum += Figures::of(&shader, &t.module, &wgsl);
        }
        print_row(dir, &sum, refused);
        total += sum;
        total_refused += refused;
    }
    if dirs.len() > 1 {
        print_row("all", &total, total_refused);
    }
}

fn print_row(name: &str, f: &Figures, refused: u64) {
    println!(
        "{name}: {} shaders ({refused} not translatable), {} instructions; per instruction: \
         {:.3} bitcasts, {:.3} WGSL lines, {:.3} raw-integer floats; cbuffer members named {}/{} ({:.1} %)",
        f.shaders,
        f.instructions,
        f.per_instruction(f.bitcasts),
        f.per_instruction(f.lines),
        f.per_instruction(f.raw_floats),
        f.members_named,
        f.members_read,
        100.0 * f.members_named as f64 / f.members_read.max(1) as f64,
    );
}
