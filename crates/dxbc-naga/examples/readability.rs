//! Readability of the WGSL translation over corpora (issue 14's measure).
//!
//! `cargo run --release -p dxbc-naga --example readability -- DIR...`
//! translates every `.dxbc` file under the directories as the CLI does
//! (default options, every form holding the shader's code: a hull shader's
//! control-point and patch-constant passes, otherwise the standalone form)
//! and prints, per DXBC
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
            let forms = match translate_for_reading(&shader, &options) {
                Ok(forms) => forms,
                Err(e) => {
                    // READABILITY_VERBOSE=1 names the files not translated.
                    if std::env::var_os("READABILITY_VERBOSE").is_some() {
                        eprintln!("{}: {e}", path.display());
                    }
                    refused += 1;
                    continue;
                }
            };
            let pairs: Vec<(&naga::Module, &str)> = forms.iter().map(|(t, w)| (&t.module, w.as_str())).collect();
            // READABILITY_VERBOSE=1 also names the members read but not named.
            if std::env::var_os("READABILITY_VERBOSE").is_some() {
                let idents: Vec<&str> =
                    pairs.iter().flat_map(|(_, w)| dxbc_naga::readability::identifiers(w)).collect();
                for m in dxbc_naga::readability::members_read(&shader) {
                    if !idents.iter().any(|i| dxbc_naga::readability::names_member(i, &m)) {
                        eprintln!("{}: member {m} not named", path.display());
                    }
                }
            }
            sum += Figures::of(&shader, &pairs);
        }
        print_row(dir, &sum, refused);
        total += sum;
        total_refused += refused;
    }
    if dirs.len() > 1 {
        print_row("all", &total, total_refused);
    }
}

/// Every module holding the shader's code ([`dxbc_naga::readability::code_forms`])
/// with its WGSL.
fn translate_for_reading(
    shader: &dxbc::Shader,
    options: &dxbc_naga::Options,
) -> Result<Vec<(dxbc_naga::Translation, String)>, String> {
    let mut out = Vec::new();
    for form in dxbc_naga::readability::code_forms(shader) {
        let t = dxbc_naga::translate_pipeline_stage(shader, options, form).map_err(|e| e.to_string())?;
        let wgsl = dxbc_naga::to_wgsl(&t).map_err(|e| e.to_string())?;
        out.push((t, wgsl));
    }
    Ok(out)
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
