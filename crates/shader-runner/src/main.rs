//! `shader-runner DIR [--filter SUBSTR] [--summary] [--json FILE] [--require-bars]`
//!
//! DIR is the vkd3d corpus folder (holding MANIFEST.tsv) or one test folder
//! inside it. Exits 0 whatever the rows say, unless `--require-bars` asks it
//! to exit 1 when a conformance bar is missed (≥ 95 % of the probed pixel
//! shaders that use only uniforms and `draw quad`, ≥ 85 % of all probed
//! VS/PS/CS sections); non-zero too when the directory or manifest is
//! missing or the GPU cannot be opened.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use shader_runner::{gpu, manifest, pct, run_test, summarize, RowResult};

struct Args {
    dir: PathBuf,
    filter: Option<String>,
    summary: bool,
    json: Option<PathBuf>,
    require_bars: bool,
}

fn usage() -> ! {
    eprintln!("usage: shader-runner DIR [--filter SUBSTR] [--summary] [--json FILE] [--require-bars]");
    std::process::exit(2);
}

fn parse_args() -> Args {
    let mut it = std::env::args().skip(1);
    let mut dir = None;
    let mut a = Args { dir: PathBuf::new(), filter: None, summary: false, json: None, require_bars: false };
    while let Some(x) = it.next() {
        match x.as_str() {
            "--filter" => a.filter = Some(it.next().unwrap_or_else(|| usage())),
            "--summary" => a.summary = true,
            "--require-bars" => a.require_bars = true,
            "--json" => a.json = Some(PathBuf::from(it.next().unwrap_or_else(|| usage()))),
            "-h" | "--help" => usage(),
            s if s.starts_with("--") => usage(),
            s => dir = Some(PathBuf::from(s)),
        }
    }
    a.dir = dir.unwrap_or_else(|| usage());
    a
}

fn main() -> ExitCode {
    let args = parse_args();
    if !args.dir.is_dir() {
        eprintln!("shader-runner: ERROR: directory {} does not exist", args.dir.display());
        return ExitCode::from(2);
    }
    // Corpus root, or one test folder inside it.
    let (root, only): (PathBuf, Option<String>) = if args.dir.join("MANIFEST.tsv").is_file() {
        (args.dir.clone(), None)
    } else {
        let parent = args.dir.canonicalize().ok().and_then(|p| p.parent().map(Path::to_path_buf));
        match parent {
            Some(p) if p.join("MANIFEST.tsv").is_file() => {
                (p, args.dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned())))
            }
            _ => {
                eprintln!("shader-runner: ERROR: no MANIFEST.tsv in {} or its parent", args.dir.display());
                return ExitCode::from(2);
            }
        }
    };
    let manifest = match manifest::read(&root.join("MANIFEST.tsv")) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("shader-runner: ERROR: {e}");
            return ExitCode::from(2);
        }
    };
    let failures = manifest::read_failures(&root.join("COMPILE_FAILURES.tsv"));
    let mut gpu = match gpu::Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("shader-runner: ERROR: {e} (is mesa-vulkan-drivers installed? WGPU_BACKEND=vulkan)");
            return ExitCode::from(3);
        }
    };
    // Translator panics are caught per test file and reported as rows.
    std::panic::set_hook(Box::new(|_| {}));
    let mut tests: Vec<&String> = manifest.keys().collect();
    tests.sort();
    let mut all: Vec<RowResult> = Vec::new();
    let stdout = std::io::stdout();
    for t in tests {
        if only.as_ref().is_some_and(|o| o != t) {
            continue;
        }
        let rows: Vec<manifest::Row> = manifest[t].clone();
        if let Some(f) = &args.filter {
            let any = rows.iter().any(|r| format!("{}:{} {}", r.test, r.section, r.profile).contains(f.as_str()));
            if !any {
                continue;
            }
        }
        let res = run_test(&mut gpu, &root.join(t), &rows, &failures);
        for r in res {
            if let Some(f) = &args.filter {
                if !r.id().contains(f.as_str()) {
                    continue;
                }
            }
            if !args.summary {
                let _ = writeln!(stdout.lock(), "{}", r.line_text());
            }
            all.push(r);
        }
    }
    let s = summarize(&all);
    if args.summary {
        println!(
            "pixel shaders using only uniforms + draw quad: {}/{} passed ({:.1}%, bar 95%)",
            s.uniform_ps.0,
            s.uniform_ps.1,
            pct(s.uniform_ps.0, s.uniform_ps.1)
        );
        println!(
            "all probed VS/PS/CS sections: {}/{} passed ({:.1}%, bar 85%)",
            s.probed_all.0,
            s.probed_all.1,
            pct(s.probed_all.0, s.probed_all.1)
        );
        for (st, p, n) in &s.per_stage {
            println!("  {st}: {p}/{n} probed sections passed");
        }
    }
    if let Some(path) = &args.json {
        let v =
            serde_json::json!({ "rows": all, "summary": s, "adapter": gpu.adapter_name, "driver": gpu.driver_info });
        if let Err(e) = std::fs::write(path, serde_json::to_string_pretty(&v).unwrap_or_default()) {
            eprintln!("shader-runner: ERROR: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    println!("{} passed, {} failed, {} skipped", s.passed, s.failed, s.skipped);
    if args.require_bars {
        let ps = pct(s.uniform_ps.0, s.uniform_ps.1);
        let all = pct(s.probed_all.0, s.probed_all.1);
        if s.uniform_ps.1 == 0 || ps < 95.0 || all < 85.0 {
            eprintln!("shader-runner: conformance bars missed: {ps:.1}% (bar 95%), {all:.1}% (bar 85%)");
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
