//! # shader-runner — execution conformance for dxbc-naga
//!
//! Reads vkd3d `.shader_test` files with the corpus' precompiled DXBC
//! (`MANIFEST.tsv`), translates each shader with [`dxbc_naga::translate`],
//! runs the test lines with wgpu on a software Vulkan device and checks every
//! probe with vkd3d's tolerance rules. One row per shader section and
//! compiled profile: PASS, FAIL (first wrong value) or SKIP (with the reason).
#![forbid(unsafe_code)]

pub mod exec;
pub mod gpu;
pub mod manifest;
pub mod parse;
pub mod preview;
pub mod probe;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;

/// Time one test file may take (all its shader models) before its remaining rows are skipped.
pub const TEST_TIME_LIMIT: Duration = Duration::from_secs(60);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Status {
    #[serde(rename = "PASS")]
    Pass,
    #[serde(rename = "FAIL")]
    Fail,
    #[serde(rename = "SKIP")]
    Skip,
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
    /// Reason for FAIL/SKIP, a note for PASS without probes.
    pub reason: String,
    pub probes: u32,
    pub probes_passed: u32,
    /// A pixel shader whose probed data came only from `uniform` + `draw quad`.
    pub uniform_only: bool,
    /// Counted by the bars: a VS/PS/CS section with DXBC, met requirements and at least one probe.
    pub probed: bool,
}

impl RowResult {
    pub fn id(&self) -> String {
        format!("{}:{} {}", self.test, self.section, self.profile)
    }

    pub fn line_text(&self) -> String {
        match self.status {
            Status::Pass => format!("PASS {}", self.id()),
            Status::Fail => format!("FAIL {}: {}", self.id(), self.reason),
            Status::Skip => format!("SKIP {}: {}", self.id(), self.reason),
        }
    }
}

fn status_reason(
    row: &manifest::Row,
    failures: &std::collections::HashMap<(String, String, String), String>,
) -> String {
    match row.status.as_str() {
        "fail" => {
            let msg = failures
                .get(&(row.test.clone(), row.section.clone(), row.profile.clone()))
                .map(|m| {
                    let m = m.split(" | ").next().unwrap_or(m);
                    format!(": {m}")
                })
                .unwrap_or_default();
            format!("no DXBC: the corpus compiler failed{msg}")
        }
        "skipped-expected-fail" => format!("expected to fail compilation ([{}])", row.header),
        "skipped-expected-notimpl" => format!("expected to be unimplemented by the compiler ([{}])", row.header),
        "skipped-effect" => "effect (fx) section: no shader stage to run".into(),
        "skipped-no-sm4/5-model" => format!("shader model range {} has no SM4/SM5 profile", row.sm_range),
        "skipped-d3dbc-hex" => "d3dbc (SM1-3) bytecode is not DXBC".into(),
        s => format!("corpus status '{s}'"),
    }
}

/// Runs every row of one test folder.
pub fn run_test(
    gpu: &mut gpu::Gpu,
    test_dir: &Path,
    rows: &[manifest::Row],
    failures: &std::collections::HashMap<(String, String, String), String>,
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
        let deadline = Instant::now() + TEST_TIME_LIMIT;
        for m in models {
            let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut pass = exec::Pass::new(gpu, test_dir, rows, m, deadline);
                pass.run(&file);
                pass.results
            }));
            passes.insert(m, res.map_err(|p| panic_message(&p)));
            if gpu.poisoned {
                if let Ok(g) = gpu::Gpu::new() {
                    *gpu = g;
                }
            }
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
            status: Status::Skip,
            reason: String::new(),
            probes: 0,
            probes_passed: 0,
            uniform_only: false,
            probed: false,
        };
        if !ok(r) {
            rr.reason = status_reason(r, failures);
            out.push(rr);
            continue;
        }
        if let Err(e) = &text {
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
        let requirement_skip = matches!(&acc.unavailable, Some(exec::Avail::NotExpected(_)));
        rr.probed = runnable_stage && acc.probes_total > 0 && !requirement_skip;
        rr.uniform_only = r.stage == "ps" && acc.uniform_only && acc.ops > 0;
        match (&acc.unavailable, &acc.fail, &acc.skip) {
            (Some(exec::Avail::Skip(m) | exec::Avail::NotExpected(m)), _, _) => rr.reason = m.clone(),
            (Some(exec::Avail::Fail(m)), _, _) => {
                rr.status = Status::Fail;
                rr.reason = m.clone();
            }
            (None, Some(f), _) => {
                rr.status = Status::Fail;
                rr.reason = f.clone();
            }
            (None, None, Some(s)) => rr.reason = s.clone(),
            (None, None, None) => {
                rr.status = Status::Pass;
                if acc.probes_total == 0 {
                    rr.reason = "no probes: translated and accepted by wgpu".into();
                }
            }
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
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    /// Probed pixel shaders using only uniforms + draw quad: (passed, total).
    pub uniform_ps: (usize, usize),
    /// All probed VS/PS/CS sections: (passed, total).
    pub probed_all: (usize, usize),
    /// Per stage (ps, vs, cs): (passed, total probed).
    pub per_stage: Vec<(String, usize, usize)>,
}

pub fn summarize(rows: &[RowResult]) -> Summary {
    let mut s = Summary::default();
    for r in rows {
        match r.status {
            Status::Pass => s.passed += 1,
            Status::Fail => s.failed += 1,
            Status::Skip => s.skipped += 1,
        }
        let pass = (r.status == Status::Pass) as usize;
        if r.probed {
            s.probed_all.0 += pass;
            s.probed_all.1 += 1;
            if r.uniform_only {
                s.uniform_ps.0 += pass;
                s.uniform_ps.1 += 1;
            }
        }
    }
    for st in ["ps", "vs", "cs"] {
        let p = rows.iter().filter(|r| r.probed && r.stage == st);
        let total = p.clone().count();
        let passed = p.filter(|r| r.status == Status::Pass).count();
        s.per_stage.push((st.to_string(), passed, total));
    }
    s
}

pub fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}
