//! # shader-runner — execution conformance for dxbc-naga
//!
//! Reads vkd3d `.shader_test` files with the corpus' precompiled DXBC
//! (`MANIFEST.tsv`), translates each shader with [`dxbc_naga::translate`],
//! runs the test lines with wgpu on a software Vulkan device and checks every
//! probe with vkd3d's tolerance rules. One row per shader section and
//! compiled profile: PASS, FAIL (first wrong value) or SKIP (with the reason).
// One call is unsafe: handing Vulkan the translator's SPIR-V as it is
// (`--source spirv`, `exec::geometry`), which wgpu cannot check.
#![deny(unsafe_code)]

pub mod cpu;
pub mod exec;
pub mod executor;
pub mod gpu;
pub mod manifest;
pub mod parse;
pub mod preview;
pub mod probe;
pub mod tessellate;
pub mod walk;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;

/// Time one test file may take (all its shader models) before its remaining rows are skipped.
pub const TEST_TIME_LIMIT: Duration = Duration::from_secs(60);

/// The same on the interpreter: only a guard against a hang, far above what
/// [`cpu::FILE_BUDGET`] lets a file run, so the rows do not depend on the
/// machine's speed or load.
pub const CPU_TEST_TIME_LIMIT: Duration = Duration::from_secs(900);

/// The outcome of one row. Only `Pass` passes; every other status says
/// why not, typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Status {
    /// Every probe of the section matched.
    Pass,
    /// A probe, the GPU or the translator's module was wrong.
    Fail,
    /// Translated, accepted and run, but no probe reads its output.
    NoProbes,
    /// The translator refuses the shader (or a shader drawn with it).
    Unsupported(dxbc_naga::Limitation),
    /// The test requires what this runner or adapter lacks.
    MissingCapability(Capability),
    /// A runner feature the test needs is not implemented.
    Todo(RunnerTodo),
    /// Not run by design: the test file or the corpus excludes it here.
    NotRun(NotRun),
}

/// What a `[require]` asks for that the runner or adapter lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Capability {
    Float64,
    Int64,
    /// Typed UAV loads of a format outside WebGPU core (`format … uav-load`).
    TypedUavLoad,
    GeometryShader,
    TessellationShader,
    WaveOps,
    Native16Bit,
    PointSize,
    RtVpArrayIndex,
    RasterizerOrderedViews,
    DepthBounds,
    ClipPlanes,
    Fog,
    /// A requirement word this runner does not know (named in the detail).
    Unrecognised,
}

impl Capability {
    /// The capability a `[require]` word names.
    pub fn from_word(word: &str) -> Capability {
        match word {
            "float64" => Capability::Float64,
            "int64" => Capability::Int64,
            "geometry-shader" => Capability::GeometryShader,
            "tessellation-shader" => Capability::TessellationShader,
            "wave-ops" => Capability::WaveOps,
            "native-16-bit" => Capability::Native16Bit,
            "point-size" => Capability::PointSize,
            "rt-vp-array-index" => Capability::RtVpArrayIndex,
            "rov" => Capability::RasterizerOrderedViews,
            "depth-bounds" => Capability::DepthBounds,
            "clip-planes" => Capability::ClipPlanes,
            "fog" => Capability::Fog,
            _ => Capability::Unrecognised,
        }
    }
}

/// Runner features not implemented yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum RunnerTodo {
    /// Depth-stencil targets and probes.
    DepthStencil,
    /// Multisampled textures and targets.
    Multisampling,
    /// A resource format the runner cannot create.
    ResourceFormat,
    /// A sampler state the runner cannot create.
    SamplerState,
    /// A test command the runner does not run (named in the detail).
    TestCommand,
    /// A test line or section the runner cannot parse.
    TestSyntax,
    /// Binding a resource the way the module declares it.
    Binding,
    /// Feeding the vertex stage (input layout, formats, patch lists).
    VertexInput,
    /// Fitting the module to the test's resources (formats, interpolation).
    Specialisation,
    /// A draw or dispatch without the shaders it needs.
    PipelineShape,
    /// The per-test time limit ran out.
    TimeLimit,
    /// The interpreter (`--cpu`) does not execute this yet (named in the detail).
    Interpreter,
    /// The module's SPIR-V needs dxbc-naga's post-pass (Layer/ViewportIndex
    /// built-ins, level-free size queries), but the runner hands wgpu the
    /// naga module, from which wgpu writes naga's own words.
    SpirvPostPass,
}

/// Why a row is not run at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum NotRun {
    /// The corpus has no DXBC for it (its compiler failed or skipped it).
    NoDxbc,
    /// The test expects compilation to fail at this shader model.
    ExpectedCompileFailure,
    /// The test expects the compiler to lack it.
    ExpectedUnimplemented,
    /// An effect (fx) section.
    Effect,
    /// The shader-model range has no SM4/SM5 profile.
    NoSm4Profile,
    /// SM1–3 bytecode.
    D3dbc,
    /// A `[require]` shader-model range excludes this model.
    ShaderModelRange,
    /// vkd3d marks the failing probe `todo` (the compiler's output is known wrong).
    KnownWrong,
    /// A shader drawn with this one failed.
    PartnerFailed,
    /// The runner never reached the section (or the test file).
    NotReached,
}

/// A non-passing outcome with what exactly caused it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skip {
    pub status: Status,
    pub detail: String,
}

impl Skip {
    pub fn new(status: Status, detail: impl Into<String>) -> Skip {
        Skip { status, detail: detail.into() }
    }
    pub fn todo(t: RunnerTodo, detail: impl Into<String>) -> Skip {
        Skip::new(Status::Todo(t), detail)
    }
    pub fn missing(c: Capability, detail: impl Into<String>) -> Skip {
        Skip::new(Status::MissingCapability(c), detail)
    }
    pub fn not_run(n: NotRun, detail: impl Into<String>) -> Skip {
        Skip::new(Status::NotRun(n), detail)
    }
    /// The runner hands naga modules to wgpu's Vulkan backend, which writes
    /// SPIR-V: a feature SPIR-V cannot express (a per-target refusal) is
    /// `Unsupported` too.
    pub fn spirv_refusal(t: &dxbc_naga::Translation) -> Option<Skip> {
        t.refusal(dxbc_naga::Language::Spirv).map(|r| {
            Skip::new(
                Status::Unsupported(r.limitation),
                format!("unsupported for SPIR-V: {} (at offset {:#x})", r.detail, r.offset),
            )
        })
    }
    /// The runner hands wgpu the naga module, so wgpu writes naga's SPIR-V
    /// without [`dxbc_naga::spirv_post`]: a module whose words need an edit
    /// that changes what it means (a built-in, a valid size query) cannot
    /// run that way. The SampleMask array edit only makes the declaration
    /// conform; drivers accept naga's scalar, so it runs.
    pub fn spirv_post_pass(t: &dxbc_naga::Translation) -> Option<Skip> {
        use dxbc_naga::spirv_post::Edit;
        let (_, edits) = dxbc_naga::spirv_with_edits(t).ok()?;
        let needed: Vec<Edit> = edits.into_iter().filter(|e| *e != Edit::SampleMaskArray).collect();
        (!needed.is_empty()).then(|| {
            Skip::todo(
                RunnerTodo::SpirvPostPass,
                format!("runner: the SPIR-V needs the post-pass ({needed:?}), wgpu writes naga's own words"),
            )
        })
    }
    /// A translator error: a refusal is `Unsupported`, anything else fails.
    pub fn translation(e: &dxbc_naga::TranslateError) -> Skip {
        match e.limitation() {
            Some(l) => Skip::new(Status::Unsupported(l), e.to_string()),
            None => Skip::new(Status::Fail, format!("translator: {e}")),
        }
    }
}

impl Status {
    /// The row's first word.
    pub fn word(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::NoProbes => "RAN",
            Status::Unsupported(_) => "UNSUPPORTED",
            Status::MissingCapability(_) => "MISSING",
            Status::Todo(_) => "TODO",
            Status::NotRun(_) => "SKIP",
        }
    }

    /// The typed reason's name (`doubles`, `Float64`, …), if any.
    pub fn reason_name(self) -> Option<String> {
        match self {
            Status::Unsupported(l) => Some(l.name().to_string()),
            Status::MissingCapability(c) => Some(format!("{c:?}")),
            Status::Todo(t) => Some(format!("{t:?}")),
            Status::NotRun(n) => Some(format!("{n:?}")),
            Status::Pass | Status::Fail | Status::NoProbes => None,
        }
    }
}

/// One output row.
#[derive(Clone, Debug, Serialize)]
pub struct RowResult {
    pub test: String,
    pub section: String,
    pub line: usize,
    pub stage: String,
    pub profile: String,
    pub status: Status,
    /// What exactly failed or stopped it (empty for a pass).
    pub reason: String,
    pub probes: u32,
    pub probes_passed: u32,
    /// A pixel shader whose probed data came only from `uniform` + `draw quad`.
    pub uniform_only: bool,
    /// A VS/PS/CS section with DXBC and at least one probe, not excluded at
    /// this model by the test (rows missing a capability are probed).
    pub probed: bool,
}

impl RowResult {
    pub fn id(&self) -> String {
        format!("{}:{} {}", self.test, self.section, self.profile)
    }

    pub fn line_text(&self) -> String {
        let word = self.status.word();
        match (self.status.reason_name(), self.status) {
            (_, Status::Pass) => format!("{word} {}", self.id()),
            (Some(name), _) => format!("{word} {}: [{name}] {}", self.id(), self.reason),
            (None, _) => format!("{word} {}: {}", self.id(), self.reason),
        }
    }

    /// Whether the runner meets what the row requires (the first denominator).
    pub fn requirements_met(&self) -> bool {
        !matches!(self.status, Status::MissingCapability(_))
    }
}

fn status_reason(row: &manifest::Row, failures: &std::collections::HashMap<(String, String, String), String>) -> Skip {
    let (n, detail) = match row.status.as_str() {
        "fail" => {
            let msg = failures
                .get(&(row.test.clone(), row.section.clone(), row.profile.clone()))
                .map(|m| {
                    let m = m.split(" | ").next().unwrap_or(m);
                    format!(": {m}")
                })
                .unwrap_or_default();
            (NotRun::NoDxbc, format!("no DXBC: the corpus compiler failed{msg}"))
        }
        "skipped-expected-fail" => {
            (NotRun::ExpectedCompileFailure, format!("expected to fail compilation ([{}])", row.header))
        }
        "skipped-expected-notimpl" => {
            (NotRun::ExpectedUnimplemented, format!("expected to be unimplemented by the compiler ([{}])", row.header))
        }
        "skipped-effect" => (NotRun::Effect, "effect (fx) section: no shader stage to run".into()),
        "skipped-no-sm4/5-model" => {
            (NotRun::NoSm4Profile, format!("shader model range {} has no SM4/SM5 profile", row.sm_range))
        }
        "skipped-d3dbc-hex" => (NotRun::D3dbc, "d3dbc (SM1-3) bytecode is not DXBC".into()),
        s => (NotRun::NoDxbc, format!("corpus status '{s}'")),
    };
    Skip::not_run(n, detail)
}

/// Runs every row of one test folder (native doubles).
pub fn run_test(
    gpu: &mut gpu::Gpu,
    test_dir: &Path,
    rows: &[manifest::Row],
    failures: &std::collections::HashMap<(String, String, String), String>,
) -> Vec<RowResult> {
    run_test_with(gpu, test_dir, rows, failures, dxbc_naga::DoubleMode::Native, exec::ModuleSource::Naga)
}

/// Runs every row of one test folder, translating doubles as `doubles` says
/// and giving wgpu what `source` says.
pub fn run_test_with(
    gpu: &mut gpu::Gpu,
    test_dir: &Path,
    rows: &[manifest::Row],
    failures: &std::collections::HashMap<(String, String, String), String>,
    doubles: dxbc_naga::DoubleMode,
    source: exec::ModuleSource,
) -> Vec<RowResult> {
    let no_probes = "no probes: translated and accepted by wgpu";
    rows_from_passes(test_dir, rows, failures, no_probes, TEST_TIME_LIMIT, |file, m, deadline| {
        let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut pass = exec::Pass::with_translation(gpu, test_dir, rows, m, deadline, doubles, source);
            pass.run(file);
            pass.results
        }));
        if gpu.poisoned {
            if let Ok(g) = gpu::Gpu::new() {
                *gpu = g;
            }
        }
        res.map_err(|p| panic_message(&p))
    })
}

/// Runs every row of one test folder on the interpreter (`--cpu`): the
/// same rows and statuses as the GPU runner, no GPU.
pub fn run_test_cpu(
    test_dir: &Path,
    rows: &[manifest::Row],
    failures: &std::collections::HashMap<(String, String, String), String>,
) -> Vec<RowResult> {
    let no_probes = "no probes: ran on the interpreter";
    rows_from_passes(test_dir, rows, failures, no_probes, CPU_TEST_TIME_LIMIT, |file, m, deadline| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut pass = cpu::pass(test_dir, rows, m, deadline);
            pass.run(file);
            pass.results
        }))
        .map_err(|p| panic_message(&p))
    })
}

/// Runs test folders (name, rows) under `root` on the interpreter on
/// `threads` threads, each taking the next folder from a shared queue, and
/// hands each folder's rows to `emit` in the order of `tests` as soon as
/// it and every folder before it are done.
pub fn run_tests_cpu(
    root: &Path,
    tests: &[(&str, &[manifest::Row])],
    failures: &std::collections::HashMap<(String, String, String), String>,
    threads: usize,
    emit: impl FnMut(Vec<RowResult>) + Send,
) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    // Rows done but not yet handed on (waiting for an earlier folder), the
    // count handed on, and `emit`.
    let done = Mutex::new((vec![None; tests.len()], 0usize, emit));
    let next = AtomicUsize::new(0);
    let worker = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some((name, rows)) = tests.get(i) else { break };
            let res = run_test_cpu(&root.join(name), rows, failures);
            // A worker that panicked holding the lock left the table whole.
            let mut g = done.lock().unwrap_or_else(|e| e.into_inner());
            let (slots, handed, emit) = &mut *g;
            slots[i] = Some(res);
            while let Some(r) = slots.get_mut(*handed).and_then(Option::take) {
                emit(r);
                *handed += 1;
            }
        }
    };
    std::thread::scope(|s| {
        // The interpreter and the rasteriser run on the worker's stack: as much as the main thread's.
        let spawned = (0..threads.max(1))
            .take_while(|_| std::thread::Builder::new().stack_size(8 << 20).spawn_scoped(s, worker).is_ok())
            .count();
        if spawned == 0 {
            worker();
        }
    });
}

/// The per-section results of one pass over a test file at one shader model.
type PassResults = Result<BTreeMap<usize, walk::SecAcc>, String>;

/// Reads the test file, runs `pass` once per shader model its rows use,
/// and turns the sections' results into rows.
fn rows_from_passes(
    test_dir: &Path,
    rows: &[manifest::Row],
    failures: &std::collections::HashMap<(String, String, String), String>,
    no_probes: &str,
    time_limit: Duration,
    mut pass: impl FnMut(&parse::TestFile, u32, Instant) -> PassResults,
) -> Vec<RowResult> {
    let name = rows.first().map(|r| r.test.clone()).unwrap_or_default();
    let file_path = test_dir.join(format!("{name}.shader_test"));
    let text = std::fs::read_to_string(&file_path);
    let model_of = |r: &manifest::Row| -> Option<u32> {
        if r.profile == "tpf-hex" {
            r.range_min().map(|m| m.max(40))
        } else {
            r.profile_sm()
        }
    };
    let ok = |r: &manifest::Row| r.status == "ok" || r.status == "ok-hex";
    let models: BTreeSet<u32> = rows.iter().filter(|r| ok(r)).filter_map(model_of).collect();
    let mut passes = std::collections::HashMap::new();
    if let Ok(text) = &text {
        let file = parse::parse_file(text);
        let deadline = Instant::now() + time_limit;
        for m in models {
            passes.insert(m, pass(&file, m, deadline));
        }
    }
    let mut out = Vec::new();
    for r in rows {
        let mut rr = RowResult {
            test: r.test.clone(),
            section: r.section.clone(),
            line: r.line,
            stage: r.stage.clone(),
            profile: r.profile.clone(),
            status: Status::NotRun(NotRun::NotReached),
            reason: String::new(),
            probes: 0,
            probes_passed: 0,
            uniform_only: false,
            probed: false,
        };
        if !ok(r) {
            let skip = status_reason(r, failures);
            (rr.status, rr.reason) = (skip.status, skip.detail);
            out.push(rr);
            continue;
        }
        if let Err(e) = &text {
            rr.status = Status::Fail;
            rr.reason = format!("runner: cannot read {}: {e}", file_path.display());
            out.push(rr);
            continue;
        }
        let acc = match model_of(r).and_then(|m| passes.get(&m)) {
            None => {
                rr.reason = "runner: no shader model to run this profile at".into();
                out.push(rr);
                continue;
            }
            Some(Err(p)) => {
                rr.status = Status::Fail;
                rr.reason = format!("panic while running this test file: {p}");
                out.push(rr);
                continue;
            }
            Some(Ok(map)) => map.get(&r.section_index()).cloned(),
        };
        let Some(acc) = acc else {
            rr.reason = "runner: section not reached".into();
            out.push(rr);
            continue;
        };
        rr.probes = acc.probes_total;
        rr.probes_passed = acc.probes_passed;
        let runnable_stage = matches!(r.stage.as_str(), "ps" | "vs" | "cs");
        // Sections the test itself excludes at this model are not probed;
        // those needing a capability the runner lacks are.
        let excluded =
            matches!(&acc.unavailable, Some(walk::Avail::NotExpected(s)) if matches!(s.status, Status::NotRun(_)));
        rr.probed = runnable_stage && acc.probes_total > 0 && !excluded;
        rr.uniform_only = r.stage == "ps" && acc.uniform_only && acc.ops > 0;
        match (&acc.unavailable, &acc.fail, &acc.skip) {
            (Some(walk::Avail::Skip(s) | walk::Avail::NotExpected(s)), _, _) => {
                (rr.status, rr.reason) = (s.status, s.detail.clone())
            }
            (Some(walk::Avail::Fail(m)), _, _) | (None, Some(m), _) => {
                rr.status = Status::Fail;
                rr.reason = m.clone();
            }
            (None, None, Some(s)) => (rr.status, rr.reason) = (s.status, s.detail.clone()),
            (None, None, None) if acc.probes_total == 0 => {
                rr.status = Status::NoProbes;
                rr.reason = no_probes.into();
            }
            (None, None, None) => rr.status = Status::Pass,
        }
        out.push(rr);
    }
    out
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic".into()
    }
}

/// The counts the CI bars use.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Rows by status word (`PASS`, `FAIL`, `RAN`, `UNSUPPORTED`, …).
    pub rows: BTreeMap<&'static str, usize>,
    /// Probed pixel shaders using only uniforms + draw quad, requirements
    /// met: (passed, total).
    pub uniform_ps: (usize, usize),
    /// Probed VS/PS/CS sections whose requirements the runner meets: (passed, total).
    pub probed_met: (usize, usize),
    /// All probed VS/PS/CS sections: (passed, total).
    pub probed_all: (usize, usize),
    /// Per stage (ps, vs, cs): passed, total with requirements met, total probed.
    pub per_stage: Vec<(String, usize, usize, usize)>,
    /// Probed sections that did not pass, by status (typed reason); in
    /// JSON a list of `[status, count]` (statuses are not strings).
    #[serde(serialize_with = "as_pairs")]
    pub not_passed: BTreeMap<Status, usize>,
}

fn as_pairs<S: serde::Serializer>(m: &BTreeMap<Status, usize>, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(m.iter())
}

pub fn summarize(rows: &[RowResult]) -> Summary {
    let mut s = Summary::default();
    for r in rows {
        *s.rows.entry(r.status.word()).or_default() += 1;
        if !r.probed {
            continue;
        }
        let pass = (r.status == Status::Pass) as usize;
        s.probed_all.0 += pass;
        s.probed_all.1 += 1;
        if r.requirements_met() {
            s.probed_met.0 += pass;
            s.probed_met.1 += 1;
            if r.uniform_only {
                s.uniform_ps.0 += pass;
                s.uniform_ps.1 += 1;
            }
        }
        if pass == 0 {
            *s.not_passed.entry(r.status).or_default() += 1;
        }
    }
    for st in ["ps", "vs", "cs"] {
        let p = rows.iter().filter(|r| r.probed && r.stage == st);
        let total = p.clone().count();
        let met = p.clone().filter(|r| r.requirements_met()).count();
        let passed = p.filter(|r| r.status == Status::Pass).count();
        s.per_stage.push((st.to_string(), passed, met, total));
    }
    s
}

impl Summary {
    /// Rows with `word` as their status word.
    pub fn rows_of(&self, word: &str) -> usize {
        self.rows.get(word).copied().unwrap_or(0)
    }

    /// The summary as the runner prints it: the bars' figures, both
    /// denominators, and the table of what did not pass.
    pub fn render(&self) -> String {
        let mut out = format!(
            "pixel shaders using only uniforms + draw quad: {}/{} passed ({:.1}%, bar 95%)\n",
            self.uniform_ps.0,
            self.uniform_ps.1,
            pct(self.uniform_ps.0, self.uniform_ps.1)
        );
        out += &format!(
            "probed VS/PS/CS sections whose requirements the runner meets: {}/{} passed ({:.1}%, bar 85%)\n",
            self.probed_met.0,
            self.probed_met.1,
            pct(self.probed_met.0, self.probed_met.1)
        );
        out += &format!(
            "all probed VS/PS/CS sections: {}/{} passed ({:.1}%, bar 97%)\n",
            self.probed_all.0,
            self.probed_all.1,
            pct(self.probed_all.0, self.probed_all.1)
        );
        for (st, p, met, all) in &self.per_stage {
            out += &format!("  {st}: {p} passed of {met} with requirements met, of {all} probed\n");
        }
        out += "probed sections not passed, by reason:\n";
        let mut v: Vec<_> = self.not_passed.iter().collect();
        v.sort_by_key(|(st, n)| (std::cmp::Reverse(**n), **st));
        for (st, n) in v {
            let name = st.reason_name().map(|n| format!(" [{n}]")).unwrap_or_default();
            out += &format!("  {n:5}  {}{name}\n", st.word());
        }
        out
    }
}

pub fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// The ids of the rows of `now` that differ from the same rows of an
/// earlier run (`before`: the `rows` of its `--json`), every field
/// compared, except rows `now` marks `Unsupported` (a shader the target
/// of this run cannot express: WGSL for `--source wgsl`) and, when this
/// run has the post-pass's words (`--source spirv`), rows the earlier run
/// could not run for want of them ([`RunnerTodo::SpirvPostPass`]) that now
/// do not fail. A run with other rows than `before` differs in each row
/// past the shorter.
pub fn changed_rows(now: &[RowResult], before: &[serde_json::Value], post_pass: bool) -> Vec<String> {
    let wanted_post_pass = serde_json::to_value(Status::Todo(RunnerTodo::SpirvPostPass)).ok();
    let mut out: Vec<String> = now
        .iter()
        .zip(before)
        .filter(|(row, old)| {
            let now_run = post_pass && row.status != Status::Fail && old.get("status") == wanted_post_pass.as_ref();
            !now_run
                && !matches!(row.status, Status::Unsupported(_))
                && serde_json::to_value(row).ok().as_ref() != Some(*old)
        })
        .map(|(row, _)| row.id())
        .collect();
    out.extend(now.iter().skip(before.len()).map(RowResult::id));
    out.extend(before.iter().skip(now.len()).map(|old| format!("{old}")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_may_differ_from_an_earlier_run_only_by_becoming_unsupported() {
        let l = dxbc_naga::Limitation::Doubles;
        let before = [row("ps", Status::Pass, 2, true), row("vs", Status::Pass, 1, true)];
        let before: Vec<serde_json::Value> = before.iter().map(|r| serde_json::to_value(r).unwrap()).collect();
        // The same rows: no change.
        let same = [row("ps", Status::Pass, 2, true), row("vs", Status::Pass, 1, true)];
        assert!(changed_rows(&same, &before, false).is_empty());
        // A row the target refuses may become Unsupported.
        let refused = [row("ps", Status::Unsupported(l), 2, true), row("vs", Status::Pass, 1, true)];
        assert!(changed_rows(&refused, &before, false).is_empty());
        // Any other change is one, down to a field other than the status.
        let failed = [row("ps", Status::Fail, 2, true), row("vs", Status::Pass, 1, true)];
        assert_eq!(changed_rows(&failed, &before, false), ["t:000 ps_5_0"]);
        let mut reason = same.clone();
        reason[1].reason = "another".into();
        assert_eq!(changed_rows(&reason, &before, false), ["t:000 vs_5_0"]);
        // A missing row is a change.
        assert_eq!(changed_rows(&same[..1], &before, false).len(), 1);
        // A row the earlier run left for the post-pass may run with its
        // words, if it does not fail.
        let todo = [row("ps", Status::Todo(RunnerTodo::SpirvPostPass), 0, true), row("vs", Status::Pass, 1, true)];
        let todo: Vec<serde_json::Value> = todo.iter().map(|r| serde_json::to_value(r).unwrap()).collect();
        assert!(changed_rows(&same, &todo, true).is_empty());
        assert_eq!(changed_rows(&same, &todo, false), ["t:000 ps_5_0"]);
        assert_eq!(changed_rows(&failed, &todo, true), ["t:000 ps_5_0"]);
    }

    fn row(stage: &str, status: Status, probes: u32, probed: bool) -> RowResult {
        RowResult {
            test: "t".into(),
            section: "000".into(),
            line: 1,
            stage: stage.into(),
            profile: format!("{stage}_5_0"),
            status,
            reason: "why".into(),
            probes,
            probes_passed: if status == Status::Pass { probes } else { 0 },
            uniform_only: false,
            probed,
        }
    }

    #[test]
    fn two_denominators_and_no_probe_rows_are_not_passes() {
        let l = dxbc_naga::Limitation::Doubles;
        let rows = [
            row("ps", Status::Pass, 2, true),
            row("ps", Status::Fail, 1, true),
            row("ps", Status::Unsupported(l), 1, true),
            row("vs", Status::MissingCapability(Capability::Float64), 3, true),
            row("cs", Status::NoProbes, 0, false),
            row("ps", Status::NotRun(NotRun::ShaderModelRange), 0, false),
        ];
        let s = summarize(&rows);
        assert_eq!(s.probed_met, (1, 3));
        assert_eq!(s.probed_all, (1, 4));
        assert_eq!(s.rows_of("PASS"), 1);
        assert_eq!(s.rows_of("RAN"), 1);
        assert_eq!(s.not_passed.get(&Status::Unsupported(l)), Some(&1));
        assert_eq!(s.not_passed.get(&Status::MissingCapability(Capability::Float64)), Some(&1));
        assert_eq!(s.not_passed.get(&Status::NoProbes), None, "not probed");
        assert_eq!(s.per_stage[0], ("ps".to_string(), 1, 3, 3));
        assert_eq!(s.per_stage[1], ("vs".to_string(), 0, 0, 1));
        let json = serde_json::to_value(&s).expect("the summary serialises");
        assert_eq!(json["not_passed"][0], serde_json::json!(["Fail", 1]));
        assert_eq!(json["probed_met"], serde_json::json!([1, 3]));
        let text = s.render();
        assert!(text.contains("whose requirements the runner meets: 1/3 passed (33.3%"), "{text}");
        assert!(text.contains("all probed VS/PS/CS sections: 1/4 passed (25.0%, bar 97%)"), "{text}");
        assert!(text.contains("UNSUPPORTED [doubles]"), "{text}");
    }

    #[test]
    fn row_lines_name_the_typed_reason() {
        let r = row("ps", Status::Unsupported(dxbc_naga::Limitation::Lod), 1, true);
        assert_eq!(r.line_text(), "UNSUPPORTED t:000 ps_5_0: [lod] why");
        let r = row("ps", Status::MissingCapability(Capability::from_word("wave-ops")), 1, true);
        assert_eq!(r.line_text(), "MISSING t:000 ps_5_0: [WaveOps] why");
        assert!(!r.requirements_met());
        assert_eq!(row("ps", Status::Pass, 1, true).line_text(), "PASS t:000 ps_5_0");
        assert_eq!(Capability::from_word("no-such-word"), Capability::Unrecognised);
    }

    #[test]
    fn a_refusal_is_unsupported_and_a_malformed_shader_fails() {
        let e = dxbc_naga::TranslateError::Unsupported {
            limitation: dxbc_naga::Limitation::Interfaces,
            detail: "instruction fcall".into(),
            offset: 0x40,
        };
        let s = Skip::translation(&e);
        assert_eq!(s.status, Status::Unsupported(dxbc_naga::Limitation::Interfaces));
        assert!(s.detail.ends_with("(at offset 0x40)"), "{}", s.detail);
        let e = dxbc_naga::TranslateError::Malformed { what: "x".into(), offset: 0 };
        assert_eq!(Skip::translation(&e).status, Status::Fail);
    }

    #[test]
    fn a_spirv_only_refusal_is_unsupported_and_wgsl_only_ones_run() {
        use dxbc_naga::{Language, Limitation as L};
        let read = |f: &str| {
            let path = format!("{}/../../../shared/corpus/{f}", env!("CARGO_MANIFEST_DIR"));
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("corpus file {path} missing: {e}"));
            dxbc_naga::translate(&dxbc::Shader::parse(&bytes).unwrap(), &dxbc_naga::Options::default()).unwrap()
        };
        // resinfo on an arrayed UAV: every target writes it, but naga's own
        // SPIR-V (what wgpu writes from the module) needs the post-pass.
        let t = read("blobs/vkd3d_d3d12_ps_ld_2d_uint_arr_code.dxbc");
        assert!(t.refusal(Language::Wgsl).is_none() && Skip::spirv_refusal(&t).is_none());
        let s = Skip::spirv_post_pass(&t).expect("needs the post-pass");
        assert_eq!(s.status, Status::Todo(RunnerTodo::SpirvPostPass));
        assert!(s.detail.contains("SizeQueryWithoutLevel"), "{}", s.detail);
        // SV_RenderTargetArrayIndex: SPIR-V only, through the post-pass.
        let t = read("vkd3d/rt-array-index/003_ps_5_0.dxbc");
        assert_eq!(t.refusal(Language::Wgsl).map(|r| r.limitation), Some(L::RenderTargetArrayIndex));
        assert!(Skip::spirv_refusal(&t).is_none());
        assert!(Skip::spirv_post_pass(&t).is_some_and(|s| s.detail.contains("Layer")));
        // Doubles: no target refuses (native in SPIR-V, software elsewhere).
        let t = read("fxc/dxdecompiler_basiccompute11_basiccompute11_raw_double.dxbc");
        assert!(Language::ALL.iter().all(|&l| t.refusal(l).is_none()));
        assert!(t.software_doubles().is_some_and(|s| s.is_ok()));
        assert!(Skip::spirv_refusal(&t).is_none());
    }
}
