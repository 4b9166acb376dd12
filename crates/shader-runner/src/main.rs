//! `shader-runner DIR [--filter SUBSTR] [--summary] [--json FILE] [--require-bars] [--doubles native|software]
//! [--source naga|wgsl|spirv] [--against RUN.json] [--cpu]`
//! `shader-runner preview FILE|LINK [--with FILE]… [--out REF] [--plan]`
//! `shader-runner preview --sweep DIR`
//!
//! **preview**: the explorer's live preview, natively. FILE is a `.dxbc`
//! (default inputs) or LINK an explorer permalink (`#v1/…`, with the
//! control values and settings it carries). Writes the reference file the
//! explorer's compare mode reads (`--out`, `-` for stdout), or the plan as
//! JSON (`--plan`); without either, prints a summary of each read-back.
//! Each `--with FILE` adds a companion shader (default inputs) to a
//! pipeline around FILE: vertex + geometry, vertex + hull (+ domain),
//! hull + domain (`preview_model::plan::build_pipeline`).
//! `--sweep DIR` previews every `.dxbc` under DIR with default inputs and
//! counts what ran, what could not be planned and what the GPU refused.
//!
//! `--source wgsl` gives wgpu each shader's WGSL text (what the explorer's
//! preview runs and `dxbc translate` prints) instead of the translator's
//! naga module; `--against RUN.json` then exits 1 unless every row equals
//! its row in that earlier `--json` run or is now UNSUPPORTED (a shader
//! WGSL cannot express), and lists the rows that became so.
//! `--source spirv` gives Vulkan the SPIR-V words `dxbc translate` writes,
//! post-pass included, as they are (wgpu's `PASSTHROUGH_SHADERS`); against
//! a naga run, the rows that run needed the post-pass for may then change
//! too, unless they fail, and are listed.
//!
//! `--cpu` runs the shaders on the interpreter (`dxbc-interp`) with a CPU
//! rasteriser instead of translating them for the GPU: the same rows and
//! summary, no GPU needed. Test files run on all cores (rows in the same
//! order as on one).
//!
//! DIR is the vkd3d corpus folder (holding MANIFEST.tsv) or one test folder
//! inside it. Each row is PASS, FAIL, RAN (no probes), UNSUPPORTED
//! [limitation], MISSING [capability], TODO [runner feature] or SKIP [not
//! run by design]. Exits 0 whatever the rows say, unless `--require-bars`
//! asks it to exit 1 when a conformance bar is missed (≥ 95 % of the probed
//! pixel shaders that use only uniforms and `draw quad`, ≥ 85 % of the
//! probed VS/PS/CS sections whose requirements the runner meets, ≥ 97 % of
//! all probed VS/PS/CS sections, missing capabilities counted as not
//! passed); non-zero too
//! when the directory or manifest is missing or the GPU cannot be opened.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use shader_runner::{gpu, manifest, pct, run_test_with, run_tests_cpu, summarize, RowResult};

struct Args {
    dir: PathBuf,
    filter: Option<String>,
    summary: bool,
    json: Option<PathBuf>,
    require_bars: bool,
    doubles: dxbc_naga::DoubleMode,
    source: shader_runner::exec::ModuleSource,
    /// An earlier run's `--json`: every row must equal its row there, or be
    /// `Unsupported` now.
    against: Option<PathBuf>,
    cpu: bool,
}

fn usage() -> ! {
    eprintln!("usage: shader-runner DIR [--filter SUBSTR] [--summary] [--json FILE] [--require-bars] [--doubles native|software] [--source naga|wgsl|spirv] [--against RUN.json] [--cpu]");
    std::process::exit(2);
}

fn parse_args() -> Args {
    let mut it = std::env::args().skip(1);
    let mut dir = None;
    let mut a = Args {
        dir: PathBuf::new(),
        filter: None,
        summary: false,
        json: None,
        require_bars: false,
        doubles: Default::default(),
        source: Default::default(),
        against: None,
        cpu: false,
    };
    while let Some(x) = it.next() {
        match x.as_str() {
            "--filter" => a.filter = Some(it.next().unwrap_or_else(|| usage())),
            "--summary" => a.summary = true,
            "--cpu" => a.cpu = true,
            "--require-bars" => a.require_bars = true,
            "--doubles" => {
                a.doubles = match it.next().as_deref() {
                    Some("native") => dxbc_naga::DoubleMode::Native,
                    Some("software") => dxbc_naga::DoubleMode::Software,
                    _ => usage(),
                }
            }
            "--source" => {
                use shader_runner::exec::ModuleSource as M;
                a.source = match it.next().as_deref() {
                    Some("naga") => M::Naga,
                    Some("wgsl") => M::Wgsl,
                    Some("spirv") => M::Spirv,
                    _ => usage(),
                }
            }
            "--against" => a.against = Some(PathBuf::from(it.next().unwrap_or_else(|| usage()))),
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
    if std::env::args().nth(1).as_deref() == Some("preview") {
        return preview_cli::main(std::env::args().skip(2).collect());
    }
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
    // `--cpu` needs no GPU at all.
    let mut gpu = if args.cpu {
        None
    } else {
        match gpu::Gpu::new() {
            Ok(g)
                if args.source == shader_runner::exec::ModuleSource::Spirv
                    && !g.features.contains(wgpu::Features::PASSTHROUGH_SHADERS) =>
            {
                eprintln!(
                    "shader-runner: ERROR: --source spirv: the adapter takes no SPIR-V as it is (PASSTHROUGH_SHADERS)"
                );
                return ExitCode::from(3);
            }
            Ok(g) => Some(g),
            Err(e) => {
                eprintln!("shader-runner: ERROR: {e} (is mesa-vulkan-drivers installed? WGPU_BACKEND=vulkan)");
                return ExitCode::from(3);
            }
        }
    };
    // Translator panics are caught per test file and reported as rows.
    std::panic::set_hook(Box::new(|_| {}));
    let mut names: Vec<&String> = manifest.keys().collect();
    names.sort();
    let tests: Vec<(&str, &[manifest::Row])> = names
        .into_iter()
        .filter(|t| only.as_ref().is_none_or(|o| o == *t))
        .map(|t| (t.as_str(), &manifest[t][..]))
        .filter(|(_, rows)| match &args.filter {
            Some(f) => rows.iter().any(|r| format!("{}:{} {}", r.test, r.section, r.profile).contains(f.as_str())),
            None => true,
        })
        .collect();
    let mut all: Vec<RowResult> = Vec::new();
    let stdout = std::io::stdout();
    let mut emit = |res: Vec<RowResult>| {
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
    };
    match &mut gpu {
        Some(gpu) => {
            for (t, rows) in &tests {
                emit(run_test_with(gpu, &root.join(t), rows, &failures, args.doubles, args.source));
            }
        }
        None => {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            run_tests_cpu(&root, &tests, &failures, threads, emit);
        }
    }
    let s = summarize(&all);
    if args.summary {
        print!("{}", s.render());
    }
    if let Some(path) = &args.json {
        let (adapter, driver) = match &gpu {
            Some(g) => (g.adapter_name.clone(), g.driver_info.clone()),
            None => ("dxbc-interp".to_string(), env!("CARGO_PKG_VERSION").to_string()),
        };
        let v = serde_json::json!({ "rows": all, "summary": s, "adapter": adapter, "driver": driver });
        if let Err(e) = std::fs::write(path, serde_json::to_string_pretty(&v).unwrap_or_default()) {
            eprintln!("shader-runner: ERROR: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    let rows: Vec<String> = s.rows.iter().map(|(w, n)| format!("{n} {w}")).collect();
    println!("rows: {}", rows.join(", "));
    if let Some(path) = &args.against {
        let before = std::fs::read(path).ok().and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
        let Some(serde_json::Value::Array(before)) = before.map(|mut v| v["rows"].take()) else {
            eprintln!("shader-runner: ERROR: {} holds no rows of a --json run", path.display());
            return ExitCode::from(2);
        };
        let post_pass = args.source == shader_runner::exec::ModuleSource::Spirv;
        let changed = shader_runner::changed_rows(&all, &before, post_pass);
        if post_pass {
            let todo = serde_json::to_value(shader_runner::Status::Todo(shader_runner::RunnerTodo::SpirvPostPass)).ok();
            let now_run: Vec<String> = all
                .iter()
                .zip(&before)
                .filter(|(_, old)| old.get("status") == todo.as_ref())
                .map(|(r, _)| format!("{} {}", r.id(), r.status.word()))
                .collect();
            println!("against {}: {} rows the post-pass's words now run {now_run:?}", path.display(), now_run.len());
        }
        let unsupported =
            all.iter().zip(&before).filter(|(r, _)| matches!(r.status, shader_runner::Status::Unsupported(_)));
        let refused: Vec<String> = unsupported
            .filter(|(r, old)| serde_json::to_value(r).ok().as_ref() != Some(*old))
            .map(|(r, _)| r.id())
            .collect();
        println!(
            "against {}: {} rows changed, {} now unsupported {refused:?}",
            path.display(),
            changed.len(),
            refused.len()
        );
        if !changed.is_empty() {
            eprintln!("shader-runner: rows changed against {}: {changed:?}", path.display());
            return ExitCode::from(1);
        }
    }
    if args.require_bars {
        let ps = pct(s.uniform_ps.0, s.uniform_ps.1);
        let met = pct(s.probed_met.0, s.probed_met.1);
        let all = pct(s.probed_all.0, s.probed_all.1);
        if s.uniform_ps.1 == 0 || ps < 95.0 || met < 85.0 || all < 97.0 {
            eprintln!(
                "shader-runner: conformance bars missed: {ps:.1}% (bar 95%), {met:.1}% (bar 85%), {all:.1}% (bar 97%)"
            );
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

mod preview_cli {
    use preview_model::plan::{Plan, PlanError, Readback};
    use preview_model::{reference, PreviewModel};
    use shader_runner::gpu::{Gpu, GpuError};
    use std::io::Write;
    use std::path::Path;
    use std::process::ExitCode;

    /// Shader bytes, values and settings from a file or a permalink.
    pub struct Inputs {
        pub shader: Vec<u8>,
        pub values: Option<Vec<u8>>,
        pub settings: Option<Vec<u8>>,
        /// The other shaders of a pipeline preview.
        pub companions: Vec<Vec<u8>>,
    }

    fn read_inputs(arg: &str) -> Result<Inputs, String> {
        if arg.contains("#v1/") || arg.starts_with("v1/") {
            let l = dxbc::permalink::decode(arg).map_err(|e| format!("permalink: {e}"))?;
            return Ok(Inputs {
                shader: l.shader,
                values: l.view.preview_values,
                settings: l.view.preview_settings,
                companions: Vec::new(),
            });
        }
        let shader = std::fs::read(arg).map_err(|e| format!("{arg}: {e}"))?;
        Ok(Inputs { shader, values: None, settings: None, companions: Vec::new() })
    }

    /// Why a file has no plan; the sweep counts by variant.
    pub enum PlanFailure {
        Decode(dxbc::Error),
        Restore(preview_model::RestoreError),
        Plan(PlanError),
    }

    impl std::fmt::Display for PlanFailure {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self {
                PlanFailure::Decode(e) => write!(f, "{e}"),
                PlanFailure::Restore(e) => write!(f, "{e}"),
                PlanFailure::Plan(e @ PlanError::Translation { .. }) => write!(f, "not previewable: translation: {e}"),
                PlanFailure::Plan(e) => write!(f, "not previewable: {e}"),
            }
        }
    }

    /// Plan for `inp` plus its fingerprint.
    pub fn plan(inp: &Inputs) -> Result<(Plan, u64), PlanFailure> {
        let shader = dxbc::Shader::decode(&inp.shader).map_err(PlanFailure::Decode)?;
        let model = PreviewModel::new(&shader);
        let (values, settings) =
            model.restore_state(inp.values.as_deref(), inp.settings.as_deref()).map_err(PlanFailure::Restore)?;
        if inp.companions.is_empty() {
            let plan = preview_model::plan::build(&shader, &model, &values, &settings).map_err(PlanFailure::Plan)?;
            let fp = model.fingerprint(&inp.shader, &values, &settings);
            return Ok((plan, fp));
        }
        let others: Vec<dxbc::Shader> = inp
            .companions
            .iter()
            .map(|b| dxbc::Shader::decode(b))
            .collect::<Result<_, _>>()
            .map_err(PlanFailure::Decode)?;
        let models: Vec<PreviewModel> = others.iter().map(PreviewModel::new).collect();
        let defaults: Vec<preview_model::Values> = models.iter().map(|m| m.defaults()).collect();
        let mut stages = vec![preview_model::plan::PipelineShader { shader: &shader, model: &model, values: &values }];
        for ((s, m), v) in others.iter().zip(&models).zip(&defaults) {
            stages.push(preview_model::plan::PipelineShader { shader: s, model: m, values: v });
        }
        let plan = preview_model::plan::build_pipeline(&stages, &settings).map_err(PlanFailure::Plan)?;
        let (v, s) = model.link_state(&values, &settings);
        let companions: Vec<&[u8]> = inp.companions.iter().map(|c| c.as_slice()).collect();
        Ok((plan, reference::pipeline_fingerprint(&inp.shader, &v, &s, &companions)))
    }

    fn usage() -> ExitCode {
        eprintln!(
            "usage: shader-runner preview FILE|LINK [--with FILE]... [--out REF|-] [--plan]\n       shader-runner preview --sweep DIR"
        );
        ExitCode::from(2)
    }

    pub fn main(args: Vec<String>) -> ExitCode {
        let mut input = None;
        let mut out = None;
        let mut sweep = None;
        let mut show_plan = false;
        let mut with = Vec::new();
        let mut it = args.into_iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--out" => out = it.next(),
                "--sweep" => sweep = it.next(),
                "--plan" => show_plan = true,
                "--with" => match it.next() {
                    Some(f) => with.push(f),
                    None => return usage(),
                },
                s if s.starts_with("--") => return usage(),
                _ => input = Some(a),
            }
        }
        if let Some(dir) = sweep {
            return run_sweep(Path::new(&dir));
        }
        let Some(input) = input else { return usage() };
        let inp = match read_inputs(&input).and_then(|mut i| {
            for f in &with {
                i.companions.push(std::fs::read(f).map_err(|e| format!("{f}: {e}"))?);
            }
            Ok(i)
        }) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("shader-runner: ERROR: {e}");
                return ExitCode::from(1);
            }
        };
        let (plan, fp) = match plan(&inp) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("shader-runner: {e}");
                return ExitCode::from(1);
            }
        };
        if show_plan {
            println!("{}", serde_json::to_string_pretty(&plan).unwrap_or_default());
            return ExitCode::SUCCESS;
        }
        let mut gpu = match Gpu::new() {
            Ok(g) => g,
            Err(e) => {
                eprintln!("shader-runner: ERROR: {e}");
                return ExitCode::from(1);
            }
        };
        let readbacks = match shader_runner::preview::run(&mut gpu, &plan) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("shader-runner: ERROR: the GPU refused the preview: {e}");
                return ExitCode::from(1);
            }
        };
        match out.as_deref() {
            Some(path) => {
                let bytes = reference::encode(&reference::Reference {
                    fingerprint: fp,
                    adapter: gpu.adapter_name.clone(),
                    readbacks,
                });
                let r = if path == "-" { std::io::stdout().write_all(&bytes) } else { std::fs::write(path, &bytes) };
                if let Err(e) = r {
                    eprintln!("shader-runner: ERROR: {path}: {e}");
                    return ExitCode::from(1);
                }
            }
            None => {
                for (r, data) in plan.readbacks.iter().zip(&readbacks) {
                    println!("{}", describe(&plan, r, data));
                }
            }
        }
        ExitCode::SUCCESS
    }

    /// One line about a read-back: what it is and a few values.
    fn describe(plan: &Plan, r: &Readback, data: &[u8]) -> String {
        let words: Vec<u32> = data.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
        match r {
            Readback::Target { location, .. } => {
                let c = (plan.height as usize / 2 * plan.width as usize + plan.width as usize / 2) * 4;
                let px: Vec<String> =
                    words.get(c..c + 4).unwrap_or(&[]).iter().map(|&w| format!("{:?}", f32::from_bits(w))).collect();
                format!("target {location}: {}x{} rgba, centre pixel ({})", plan.width, plan.height, px.join(", "))
            }
            Readback::Buffer { entry, .. } => {
                let head: Vec<String> = words.iter().take(8).map(|w| w.to_string()).collect();
                format!(
                    "buffer {}: {} bytes, first words {}",
                    plan.entries[*entry].register,
                    data.len(),
                    head.join(" ")
                )
            }
            Readback::StorageTexture { entry } => {
                let head: Vec<String> = words.iter().take(8).map(|w| format!("{w:#x}")).collect();
                format!(
                    "storage texture {}: {} bytes, first texels {}",
                    plan.entries[*entry].register,
                    data.len(),
                    head.join(" ")
                )
            }
        }
    }

    fn walk(d: &Path, out: &mut Vec<std::path::PathBuf>) {
        if let Ok(rd) = std::fs::read_dir(d) {
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "dxbc") {
                    out.push(p);
                }
            }
        }
    }

    fn run_sweep(dir: &Path) -> ExitCode {
        let mut files = Vec::new();
        walk(dir, &mut files);
        files.sort();
        if files.is_empty() {
            eprintln!("shader-runner: ERROR: no .dxbc files under {}", dir.display());
            return ExitCode::from(2);
        }
        let mut gpu = match Gpu::new() {
            Ok(g) => g,
            Err(e) => {
                eprintln!("shader-runner: ERROR: {e}");
                return ExitCode::from(1);
            }
        };
        let (mut ran, mut other_stage, mut not_translated, mut not_planned, mut refused, mut timed_out) =
            (0, 0, 0, 0, 0, 0);
        for f in &files {
            let inp = Inputs {
                shader: std::fs::read(f).unwrap_or_default(),
                values: None,
                settings: None,
                companions: Vec::new(),
            };
            match plan(&inp) {
                Err(PlanFailure::Plan(PlanError::StageNotPreviewable(_))) => other_stage += 1,
                Err(PlanFailure::Plan(PlanError::Translation { .. })) => not_translated += 1,
                Err(e) => {
                    not_planned += 1;
                    println!("NOT PLANNED {}: {e}", f.display());
                }
                Ok((p, _)) => {
                    if gpu.poisoned {
                        gpu = match Gpu::new() {
                            Ok(g) => g,
                            Err(_) => return ExitCode::from(1),
                        };
                    }
                    match shader_runner::preview::run(&mut gpu, &p) {
                        Ok(_) => ran += 1,
                        Err(e @ GpuError::TimedOut) => {
                            timed_out += 1;
                            println!("TIMED OUT {}: {e}", f.display());
                        }
                        Err(e) => {
                            refused += 1;
                            println!("GPU REFUSED {}: {e}", f.display());
                        }
                    }
                }
            }
        }
        println!(
            "{} files: {ran} previewed, {other_stage} without a program (no preview), {not_translated} not translated, {not_planned} not planned, {refused} refused by the GPU, {timed_out} timed out (GPU_TIMEOUT {} s)",
            files.len(),
            shader_runner::gpu::GPU_TIMEOUT.as_secs()
        );
        if refused > 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}
