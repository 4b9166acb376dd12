//! `--cpu`: runs a `.shader_test` file on the interpreter (`dxbc-interp`)
//! instead of the GPU. Section order, `[require]`, the crediting of probes
//! to the sections a draw or dispatch used, and the statuses are the GPU
//! pass's ([`crate::exec`]); what runs the shaders is the interpreter, with
//! a CPU rasteriser ([`raster`]) for draws. What the interpreter or this
//! pass cannot run yet is `TODO [Interpreter]` with the reason, never FAIL.

mod raster;
mod resources;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use dxbc_interp::{Bindings, ErrorKind, Resource};

use crate::exec::{Avail, SecAcc};
use crate::manifest::Row;
use crate::parse::{
    self, Command, Dim, Format, InputElement, ProbeTarget, QualEnv, Require, ResourceDesc, SamplerDesc, SectionKind,
    ShaderAttrs, Stage, Topology,
};
use crate::probe::{self, Readback};
use crate::{Capability, NotRun, RunnerTodo, Skip, Status};

/// Instructions one draw or dispatch may execute on the interpreter.
pub const OP_BUDGET: u64 = 400_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum ResKind {
    Srv,
    Uav,
    Rtv,
    Vb,
}

struct CpuResource {
    desc: ResourceDesc,
    res: Result<Resource, Skip>,
}

struct Compiled {
    shader: dxbc::Shader,
    code: dxbc_interp::Code,
}

struct ShaderEntry {
    stage: Stage,
    avail: Result<Compiled, Avail>,
}

enum OpErr {
    Skip(Skip),
    Fail(String),
}

struct LastOp {
    sections: Vec<usize>,
    refused: Option<Skip>,
}

/// The depth target.
struct Depth {
    width: u32,
    height: u32,
    values: Vec<f32>,
}

/// Capabilities the interpreter provides. Geometry and tessellation
/// requirements are accepted so their sections run up to the draw, which
/// then says what the CPU pass lacks.
fn cap_supported(cap: &str) -> bool {
    matches!(cap, "float64" | "geometry-shader" | "tessellation-shader")
}

/// An interpreter error as the row's outcome: what it does not execute is
/// a TODO, a malformed program fails.
fn interp_skip(e: &dxbc_interp::Error) -> OpErr {
    match e.kind {
        ErrorKind::Malformed | ErrorKind::NoProgram => OpErr::Fail(format!("interpreter: {e}")),
        ErrorKind::Budget => OpErr::Skip(Skip::todo(RunnerTodo::TimeLimit, format!("interpreter: {e}"))),
        _ => OpErr::Skip(Skip::todo(RunnerTodo::Interpreter, format!("interpreter: {e}"))),
    }
}

/// Per-pass state of the CPU runner.
pub struct CpuPass<'a> {
    test_dir: &'a Path,
    rows: &'a [Row],
    sm: u32,
    env: QualEnv,
    deadline: Instant,
    uniforms: Vec<u32>,
    resources: BTreeMap<(ResKind, u32), CpuResource>,
    samplers: HashMap<u32, SamplerDesc>,
    input_layout: Vec<InputElement>,
    current: HashMap<Stage, usize>,
    shaders: HashMap<usize, ShaderEntry>,
    require_unmet: Option<Skip>,
    last_shader_expected_fail: bool,
    last_op: Option<LastOp>,
    unsupported_state: Option<Skip>,
    dsv_declared: bool,
    dsv: Option<Result<Depth, Skip>>,
    depth_compare: Option<parse::Compare>,
    resources_declared: bool,
    /// What happened to each section.
    pub results: BTreeMap<usize, SecAcc>,
}

const QUAD: [f32; 6] = [-2.0, -2.0, -2.0, 4.0, 4.0, -2.0];

impl<'a> CpuPass<'a> {
    /// A pass over one test file at shader model `sm`.
    pub fn new(test_dir: &'a Path, rows: &'a [Row], sm: u32, deadline: Instant) -> CpuPass<'a> {
        CpuPass {
            test_dir,
            rows,
            sm,
            env: QualEnv { sm, tags: Vec::new() },
            deadline,
            uniforms: Vec::new(),
            resources: BTreeMap::new(),
            samplers: HashMap::new(),
            input_layout: Vec::new(),
            current: HashMap::new(),
            shaders: HashMap::new(),
            require_unmet: None,
            last_shader_expected_fail: false,
            last_op: None,
            unsupported_state: None,
            dsv_declared: false,
            dsv: None,
            depth_compare: None,
            resources_declared: false,
            results: BTreeMap::new(),
        }
    }

    /// Runs every section of `file`.
    pub fn run(&mut self, file: &parse::TestFile) {
        for sec in &file.sections {
            if Instant::now() > self.deadline {
                for acc in self.results.values_mut() {
                    if acc.fail.is_none() && acc.skip.is_none() {
                        acc.skip = Some(Skip::todo(RunnerTodo::TimeLimit, "runner: per-test time limit reached"));
                    }
                }
                return;
            }
            match &sec.kind {
                SectionKind::Require => {
                    let r = Require::parse(&sec.lines);
                    self.require_unmet = self.check_require(&r);
                }
                SectionKind::Shader { stage, attrs } => self.read_shader(sec.index, *stage, attrs),
                SectionKind::Test => {
                    let excluded = self.require_unmet.as_ref().is_some_and(|r| matches!(r.status, Status::NotRun(_)));
                    if excluded || self.last_shader_expected_fail {
                        continue;
                    }
                    let missing = self.require_unmet.clone();
                    for (line, text) in &sec.lines {
                        match parse::parse_test_line(*line, text, &self.env) {
                            Ok(Some(tl)) if missing.is_some() => self.refuse(&tl.command, missing.as_ref()),
                            Ok(Some(tl)) => self.exec(tl.line, &tl.command, tl.todo),
                            Ok(None) => {}
                            Err(e) => {
                                self.unsupported_state = Some(Skip::todo(
                                    RunnerTodo::TestSyntax,
                                    format!("runner: cannot parse line {line}: {e}"),
                                ))
                            }
                        }
                    }
                }
                SectionKind::Srv(n) => self.declare(ResKind::Srv, *n, &sec.lines, Format::Rgba32Float),
                SectionKind::Uav(n) => self.declare(ResKind::Uav, *n, &sec.lines, Format::Rgba32Float),
                SectionKind::Rtv(n) => self.declare(ResKind::Rtv, *n, &sec.lines, Format::Rgba32Float),
                SectionKind::Vb(n) => self.declare(ResKind::Vb, *n, &sec.lines, Format::Unknown),
                SectionKind::Dsv => {
                    self.dsv_declared = true;
                    self.resources_declared = true;
                    self.dsv = Some(match ResourceDesc::parse(&sec.lines, Format::R32Float) {
                        Ok(d) => Ok(Depth {
                            width: d.width.max(1),
                            height: d.height.max(1),
                            values: vec![0.0; d.width.max(1) as usize * d.height.max(1) as usize],
                        }),
                        Err(e) => Err(Skip::todo(RunnerTodo::TestSyntax, format!("runner: {e}"))),
                    });
                }
                SectionKind::Sampler(n) => {
                    self.resources_declared = true;
                    match SamplerDesc::parse(&sec.lines) {
                        Ok(s) => {
                            self.samplers.insert(*n, s);
                        }
                        Err(e) => {
                            self.unsupported_state = Some(Skip::todo(RunnerTodo::TestSyntax, format!("runner: {e}")))
                        }
                    }
                }
                SectionKind::InputLayout => {
                    self.resources_declared = true;
                    match parse::parse_input_layout(&sec.lines) {
                        Ok(l) => self.input_layout = l,
                        Err(e) => {
                            self.unsupported_state = Some(Skip::todo(RunnerTodo::TestSyntax, format!("runner: {e}")))
                        }
                    }
                }
                SectionKind::Preproc | SectionKind::Other(_) => {}
            }
        }
    }

    fn refuse(&mut self, cmd: &Command, missing: Option<&Skip>) {
        let Some(skip) = missing else { return };
        let stages: &[Stage] = match cmd {
            Command::DrawQuad | Command::Draw { .. } => {
                &[Stage::Vertex, Stage::Hull, Stage::Domain, Stage::Geometry, Stage::Pixel]
            }
            Command::Dispatch(..) => &[Stage::Compute],
            Command::Probe(_) => {
                if let Some(op) = &self.last_op {
                    let (sections, reason) = (op.sections.clone(), op.refused.clone());
                    let reason = reason.unwrap_or_else(|| skip.clone());
                    self.credit(&sections, |a| {
                        a.probes_total += 1;
                        if a.skip.is_none() {
                            a.skip = Some(reason.clone());
                        }
                    });
                }
                return;
            }
            _ => return,
        };
        let (sections, _) = self.stage_sections(stages);
        self.finish_op(sections, Err(OpErr::Skip(skip.clone())), false);
    }

    fn check_require(&self, r: &Require) -> Option<Skip> {
        if !r.sm_ok(self.sm) {
            return Some(Skip::not_run(
                NotRun::ShaderModelRange,
                format!("requires shader model range outside {}.{}", self.sm / 10, self.sm % 10),
            ));
        }
        for c in &r.caps {
            if !cap_supported(c) {
                return Some(Skip::missing(
                    Capability::from_word(c),
                    format!("requires '{c}', which the interpreter does not provide"),
                ));
            }
        }
        // Typed UAV loads of every format: the interpreter's UAVs are plain data.
        None
    }

    fn manifest_row(&self, index: usize, stage: Stage, hex: bool) -> Option<&'a Row> {
        let profile = format!("{}_{}_{}", stage.short(), self.sm / 10, self.sm % 10);
        self.rows
            .iter()
            .find(|r| r.section_index() == index && if hex { r.profile == "tpf-hex" } else { r.profile == profile })
    }

    fn read_shader(&mut self, index: usize, stage: Stage, attrs: &str) {
        let a = ShaderAttrs::parse(attrs);
        let expected_fail = a.expected_failure(&self.env);
        self.last_shader_expected_fail = expected_fail.is_some() || a.d3dbc_hex || a.dxil_hex;
        if stage == Stage::Effect {
            return;
        }
        self.current.insert(stage, index);
        let avail = if let Some(r) = &self.require_unmet {
            Err(Avail::NotExpected(r.clone()))
        } else if let Some(f) = expected_fail {
            Err(Avail::NotExpected(Skip::not_run(
                NotRun::ExpectedCompileFailure,
                format!("expected to fail compilation: {f}"),
            )))
        } else {
            match self.manifest_row(index, stage, a.tpf_hex) {
                None => Err(Avail::Skip(Skip::not_run(NotRun::NoDxbc, "no DXBC for this shader model in the corpus"))),
                Some(row) if row.status != "ok" && row.status != "ok-hex" => {
                    Err(Avail::Skip(Skip::not_run(NotRun::NoDxbc, format!("no DXBC: corpus status '{}'", row.status))))
                }
                Some(row) => self.compile(row),
            }
        };
        let acc = self.results.entry(index).or_default();
        acc.uniform_only = true;
        if let Err(e) = &avail {
            acc.unavailable = Some(e.clone());
        }
        self.shaders.insert(index, ShaderEntry { stage, avail });
    }

    fn compile(&self, row: &Row) -> Result<Compiled, Avail> {
        let path = row.dxbc_file(self.test_dir);
        let bytes = std::fs::read(&path).map_err(|e| Avail::Fail(format!("cannot read {}: {e}", path.display())))?;
        let shader = dxbc::Shader::decode(&bytes).map_err(|e| Avail::Fail(format!("DXBC decode: {e}")))?;
        let code = dxbc_interp::compile_shader(&shader).map_err(|e| match interp_skip(&e) {
            OpErr::Skip(s) => Avail::Skip(s),
            OpErr::Fail(m) => Avail::Fail(m),
        })?;
        Ok(Compiled { shader, code })
    }

    fn declare(&mut self, kind: ResKind, slot: u32, lines: &[(usize, String)], default: Format) {
        self.resources_declared = true;
        let desc = match ResourceDesc::parse(lines, default) {
            Ok(d) => d,
            Err(e) => {
                self.unsupported_state = Some(Skip::todo(RunnerTodo::TestSyntax, format!("runner: {e}")));
                return;
            }
        };
        let res = if kind == ResKind::Rtv && matches!(desc.dim, Some(Dim::Tex2dMs(n)) if n > 1) {
            Err(Skip::todo(RunnerTodo::Multisampling, "runner: multisampled render target on the CPU"))
        } else {
            resources::create(&desc)
        };
        self.resources.insert((kind, slot), CpuResource { desc, res });
    }

    fn ensure_default_rt(&mut self) {
        if !self.resources.contains_key(&(ResKind::Rtv, 0)) && !self.dsv_declared {
            let desc = ResourceDesc {
                format: Format::Rgba32Float,
                explicit_format: true,
                stride: 0,
                dim: Some(Dim::Tex2d),
                width: 640,
                height: 480,
                depth: 1,
                levels: 1,
                data: Vec::new(),
            };
            let res = resources::create(&desc);
            self.resources.insert((ResKind::Rtv, 0), CpuResource { desc, res });
        }
    }

    fn credit(&mut self, sections: &[usize], f: impl Fn(&mut SecAcc)) {
        for s in sections {
            if let Some(acc) = self.results.get_mut(s) {
                f(acc);
            }
        }
    }

    fn exec(&mut self, line: usize, cmd: &Command, todo: bool) {
        match cmd {
            Command::Uniform { offset, words } => {
                let end = (*offset as usize + words.len()).div_ceil(4) * 4;
                if self.uniforms.len() < end {
                    self.uniforms.resize(end, 0x7f7f_7f7f);
                }
                self.uniforms[*offset as usize..*offset as usize + words.len()].copy_from_slice(words);
            }
            Command::DrawQuad => {
                self.ensure_default_rt();
                self.input_layout =
                    vec![InputElement { slot: 0, format: Format::Rg32Float, name: "position".into(), index: 0 }];
                let desc = ResourceDesc {
                    format: Format::Unknown,
                    explicit_format: false,
                    stride: 0,
                    dim: Some(Dim::Buffer),
                    width: 24,
                    height: 1,
                    depth: 1,
                    levels: 1,
                    data: QUAD.iter().map(|f| f.to_bits()).collect(),
                };
                let res = resources::create(&desc);
                self.resources.insert((ResKind::Vb, 0), CpuResource { desc, res });
                self.draw(Topology::TriangleList, 3, 1, true);
            }
            Command::Draw { topology, vertices, instances } => {
                self.ensure_default_rt();
                self.draw(*topology, *vertices, *instances, false);
            }
            Command::Dispatch(x, y, z) => self.dispatch(*x, *y, *z),
            Command::ClearRtv(slot, c) => {
                self.ensure_default_rt();
                if let Some(CpuResource { res: Ok(Resource::Texture(t)), .. }) =
                    self.resources.get_mut(&(ResKind::Rtv, *slot))
                {
                    let v: [u32; 4] = std::array::from_fn(|i| match t.channel {
                        dxbc_interp::Channel::Uint => c[i] as u32,
                        dxbc_interp::Channel::Sint => c[i] as i32 as u32,
                        _ => c[i].to_bits(),
                    });
                    for level in &mut t.levels {
                        level.fill(v);
                    }
                }
            }
            Command::ClearDsv(v) => {
                if let Some(Ok(d)) = &mut self.dsv {
                    d.values.fill(*v);
                }
            }
            Command::Depth(c) => self.depth_compare = Some(*c),
            // Single-sampled targets: every sample mask that keeps sample 0 draws.
            Command::SampleMask(_) => {}
            Command::Copy(from, to) => {
                let key = |(b, n): (parse::Binding, u32)| {
                    let kind = match b {
                        parse::Binding::Rtv => ResKind::Rtv,
                        parse::Binding::Srv => ResKind::Srv,
                        parse::Binding::Uav => ResKind::Uav,
                    };
                    (kind, n)
                };
                let src = self.resources.get(&key(*from)).and_then(|r| r.res.as_ref().ok()).cloned();
                match (src, self.resources.get_mut(&key(*to))) {
                    (Some(s), Some(CpuResource { res: Ok(dst), .. })) => copy_contents(&s, dst),
                    _ => {
                        self.unsupported_state.get_or_insert(Skip::todo(
                            RunnerTodo::TestCommand,
                            "runner: copy between resources that do not both exist",
                        ));
                    }
                }
            }
            Command::Probe(p) => {
                let Some(op) = &self.last_op else { return };
                let sections = op.sections.clone();
                if let Some(reason) = &op.refused {
                    let reason = reason.clone();
                    self.credit(&sections, |a| {
                        a.probes_total += 1;
                        if a.skip.is_none() {
                            a.skip = Some(reason.clone());
                        }
                    });
                    return;
                }
                let rb = self.readback(p.target, p.layer);
                let failure: Option<String> = match rb {
                    Err(OpErr::Skip(s)) => {
                        self.credit(&sections, |a| {
                            a.probes_total += 1;
                            if a.skip.is_none() {
                                a.skip = Some(s.clone());
                            }
                        });
                        return;
                    }
                    Err(OpErr::Fail(s)) => Some(format!("line {line}: {s}")),
                    Ok(rb) => probe::check(p, &rb).err().map(|m| {
                        format!(
                            "line {line}: probe {} ({}, {}): expected {}, got {}",
                            p.target, m.x, m.y, m.expected, m.got
                        )
                    }),
                };
                self.credit(&sections, |a| {
                    a.probes_total += 1;
                    match &failure {
                        None => a.probes_passed += 1,
                        Some(e) if todo => {
                            if a.skip.is_none() {
                                a.skip = Some(Skip::not_run(
                                    NotRun::KnownWrong,
                                    format!("vkd3d marks this probe todo: {e}"),
                                ));
                            }
                        }
                        Some(e) => {
                            if a.fail.is_none() {
                                a.fail = Some(e.clone());
                            }
                        }
                    }
                });
            }
            Command::Unsupported(name, _) => {
                self.unsupported_state =
                    Some(Skip::todo(RunnerTodo::TestCommand, format!("runner: '{name}' not supported")));
                if let Some(ps) = self.current.get(&Stage::Pixel).copied() {
                    if let Some(a) = self.results.get_mut(&ps) {
                        a.uniform_only = false;
                    }
                }
            }
        }
    }

    fn readback(&self, target: ProbeTarget, layer: u32) -> Result<Readback, OpErr> {
        let key = match target {
            ProbeTarget::Rtv(n) => (ResKind::Rtv, n),
            ProbeTarget::Uav(n) => (ResKind::Uav, n),
            ProbeTarget::Dsv => {
                return match &self.dsv {
                    Some(Ok(d)) => Ok(Readback {
                        width: d.width,
                        height: d.height,
                        texel_size: 4,
                        data: d.values.iter().flat_map(|v| v.to_le_bytes()).collect(),
                    }),
                    Some(Err(e)) => Err(OpErr::Skip(e.clone())),
                    None => {
                        Err(OpErr::Skip(Skip::todo(RunnerTodo::TestSyntax, "runner: probed dsv was never declared")))
                    }
                };
            }
        };
        let Some(r) = self.resources.get(&key) else {
            return Err(OpErr::Skip(Skip::todo(
                RunnerTodo::TestSyntax,
                format!("runner: probed resource {target} was never declared"),
            )));
        };
        match &r.res {
            Err(e) => Err(OpErr::Skip(e.clone())),
            Ok(res) => Ok(resources::readback(res, &r.desc, layer)),
        }
    }

    fn stage_sections(&self, stages: &[Stage]) -> (Vec<usize>, Option<OpErr>) {
        let mut secs = Vec::new();
        let mut err = None;
        for st in stages {
            if let Some(&i) = self.current.get(st) {
                secs.push(i);
                if let Some(e) = self.shaders.get(&i) {
                    if let Err(a) = &e.avail {
                        let (status, msg) = match a {
                            Avail::Skip(s) | Avail::NotExpected(s) => (s.status, &s.detail),
                            Avail::Fail(m) => (Status::NotRun(NotRun::PartnerFailed), m),
                        };
                        let detail = format!("{} shader (section {i:03}) not available: {msg}", e.stage.short());
                        err.get_or_insert(OpErr::Skip(Skip::new(status, detail)));
                    }
                }
            }
        }
        (secs, err)
    }

    fn finish_op(&mut self, sections: Vec<usize>, r: Result<(), OpErr>, uniform_only: bool) {
        let refused = match r {
            Ok(()) => None,
            Err(OpErr::Skip(s)) => Some(s),
            Err(OpErr::Fail(s)) => {
                self.credit(&sections, |a| {
                    if a.fail.is_none() {
                        a.fail = Some(s.clone());
                    }
                });
                Some(Skip::new(Status::Fail, s))
            }
        };
        self.credit(&sections, |a| {
            a.ops += 1;
            a.uniform_only &= uniform_only;
        });
        self.last_op = Some(LastOp { sections, refused });
    }

    fn draw(&mut self, topology: Topology, vertices: u32, instances: u32, quad: bool) {
        let (sections, err) =
            self.stage_sections(&[Stage::Vertex, Stage::Hull, Stage::Domain, Stage::Geometry, Stage::Pixel]);
        let has_user_vs = self.current.contains_key(&Stage::Vertex);
        let uniform_only = quad && !has_user_vs && !self.resources_declared;
        let r = if let Some(u) = &self.require_unmet {
            Err(OpErr::Skip(u.clone()))
        } else if let Some(e) = err {
            Err(e)
        } else if let Some(u) = &self.unsupported_state {
            Err(OpErr::Skip(u.clone()))
        } else if !self.current.contains_key(&Stage::Pixel) {
            Err(OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, "runner: draw without a pixel shader")))
        } else if let Some(Err(e)) = &self.dsv {
            Err(OpErr::Skip(e.clone()))
        } else if [Stage::Hull, Stage::Domain, Stage::Geometry].iter().any(|s| self.current.contains_key(s)) {
            Err(OpErr::Skip(Skip::todo(
                RunnerTodo::Interpreter,
                "cpu runner: geometry and tessellation stages are not drawn yet",
            )))
        } else {
            raster::draw(self, topology, vertices, instances, quad)
        };
        self.finish_op(sections, r, uniform_only);
    }

    fn dispatch(&mut self, x: u32, y: u32, z: u32) {
        let (sections, err) = self.stage_sections(&[Stage::Compute]);
        let r = if let Some(u) = &self.require_unmet {
            Err(OpErr::Skip(u.clone()))
        } else if let Some(e) = err {
            Err(e)
        } else if let Some(u) = &self.unsupported_state {
            Err(OpErr::Skip(u.clone()))
        } else if sections.is_empty() {
            Err(OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, "runner: dispatch without a compute shader")))
        } else {
            self.do_dispatch(x, y, z)
        };
        self.finish_op(sections, r, false);
    }

    fn compiled(&self, stage: Stage) -> Option<&Compiled> {
        let i = self.current.get(&stage)?;
        self.shaders.get(i)?.avail.as_ref().ok()
    }

    /// Moves the bound resources into the interpreter's bindings.
    fn take_bindings(&mut self) -> Bindings {
        let mut b = Bindings { rasterizer_samples: 1, ..Bindings::default() };
        b.cbs.insert(0, self.uniforms.clone());
        for ((kind, slot), r) in self.resources.iter_mut() {
            let target = match kind {
                ResKind::Srv => &mut b.srvs,
                ResKind::Uav => &mut b.uavs,
                _ => continue,
            };
            if let Ok(res) = &mut r.res {
                let taken = std::mem::replace(res, Resource::Buffer(Default::default()));
                target.insert(*slot, taken);
            }
        }
        for (slot, s) in &self.samplers {
            b.samplers.insert(*slot, resources::sampler(s));
        }
        b
    }

    /// Puts the bindings' resources back.
    fn return_bindings(&mut self, mut b: Bindings) {
        for ((kind, slot), r) in self.resources.iter_mut() {
            let from = match kind {
                ResKind::Srv => &mut b.srvs,
                ResKind::Uav => &mut b.uavs,
                _ => continue,
            };
            if let (Ok(res), Some(back)) = (&mut r.res, from.remove(slot)) {
                *res = back;
            }
        }
    }

    fn do_dispatch(&mut self, x: u32, y: u32, z: u32) -> Result<(), OpErr> {
        let Some(cs) = self.compiled(Stage::Compute) else {
            return Err(OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, "runner: no compute shader")));
        };
        let code = cs.code.clone();
        let mut b = self.take_bindings();
        let mut budget = OP_BUDGET;
        let mut result = Ok(());
        'groups: for gz in 0..z {
            for gy in 0..y {
                for gx in 0..x {
                    if Instant::now() > self.deadline {
                        result =
                            Err(OpErr::Skip(Skip::todo(RunnerTodo::TimeLimit, "runner: per-test time limit reached")));
                        break 'groups;
                    }
                    match dxbc_interp::run_group(&code, &mut b, [gx, gy, gz], dxbc_interp::Limits { budget }) {
                        Ok(s) => budget = budget.saturating_sub(s.instructions),
                        Err(e) => {
                            result = Err(interp_skip(&e));
                            break 'groups;
                        }
                    }
                }
            }
        }
        self.return_bindings(b);
        result
    }
}

/// A whole-resource copy: the contents, in the destination's shape.
fn copy_contents(src: &Resource, dst: &mut Resource) {
    match (src, dst) {
        (Resource::Texture(s), Resource::Texture(d)) => {
            for (dl, sl) in d.levels.iter_mut().zip(&s.levels) {
                for (x, y) in dl.iter_mut().zip(sl) {
                    *x = *y;
                }
            }
        }
        (Resource::Buffer(s), Resource::Buffer(d)) => {
            for (x, y) in d.words.iter_mut().zip(&s.words) {
                *x = *y;
            }
        }
        _ => {}
    }
}
