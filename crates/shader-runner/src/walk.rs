//! The walk of one `.shader_test` file at one shader model, shared by the
//! GPU runner ([`crate::exec`]) and the interpreter's ([`crate::cpu`]), as
//! vkd3d's runner walks it: sections are read in order; shaders, resources,
//! samplers, the input layout and the uniforms persist until replaced;
//! `[require]` sets the conditions for everything after it; each `[test]`
//! line runs against the shaders that are current. Each probe is credited
//! to the shader sections used by the draw or dispatch that produced the
//! probed data. What differs between the runners — compiling a shader,
//! creating, clearing, copying and reading resources, drawing and
//! dispatching — is a [`Backend`]; everything else, and so every status
//! and reason the walk decides, is here once.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use crate::manifest::Row;
use crate::parse::{
    self, Command, Dim, Format, InputElement, ProbeTarget, QualEnv, Require, ResourceDesc, SamplerDesc, SectionKind,
    ShaderAttrs, Stage, Topology,
};
use crate::probe::{self, Readback};
use crate::{NotRun, RunnerTodo, Skip, Status};

/// What happened to one shader section in one pass.
#[derive(Clone, Debug, Default)]
pub struct SecAcc {
    pub probes_passed: u32,
    pub probes_total: u32,
    pub fail: Option<String>,
    pub skip: Option<Skip>,
    /// Only `uniform` + `draw quad` (built-in vertex stage, no resources) produced its probed data.
    pub uniform_only: bool,
    /// Section could not be run at all (translation error, …): the reason.
    pub unavailable: Option<Avail>,
    pub ops: u32,
}

#[derive(Clone, Debug)]
pub enum Avail {
    Skip(Skip),
    /// Skipped because the test file says so: an unmet `[require]` or an
    /// expected compile failure (sections excluded at this model do not
    /// count as probed; those missing a capability do).
    NotExpected(Skip),
    Fail(String),
}

/// Which binding table a declared resource belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResKind {
    Srv,
    Uav,
    Rtv,
    Vb,
}

/// Why a draw, dispatch or readback did not happen: a skip with its
/// typed reason, or a failure.
pub enum OpErr {
    Skip(Skip),
    Fail(String),
}

/// A declared resource: the test's description and what the backend made of it.
pub struct Declared<R> {
    pub desc: ResourceDesc,
    pub res: Result<R, Skip>,
}

/// A shader section read at this model.
pub struct ShaderEntry<C> {
    pub stage: Stage,
    pub avail: Result<C, Avail>,
}

/// The pipeline state the test lines build up, which draws and dispatches read.
pub struct State<B: Backend> {
    pub uniforms: Vec<u32>,
    pub resources: BTreeMap<(ResKind, u32), Declared<B::Resource>>,
    pub samplers: HashMap<u32, SamplerDesc>,
    pub input_layout: Vec<InputElement>,
    /// The current section of each stage.
    pub current: HashMap<Stage, usize>,
    pub shaders: HashMap<usize, ShaderEntry<B::Compiled>>,
    /// The `[dsv]` target.
    pub dsv: Option<Result<B::Depth, Skip>>,
    /// The `depth` command's comparison (None: no depth test).
    pub depth_compare: Option<parse::Compare>,
    /// The `sample mask` command's mask.
    pub sample_mask: u32,
}

impl<B: Backend> State<B> {
    /// The current shader of `stage`, if it compiled.
    pub fn compiled(&self, stage: Stage) -> Option<&B::Compiled> {
        let i = self.current.get(&stage)?;
        self.shaders.get(i)?.avail.as_ref().ok()
    }
}

/// What runs a test's shaders: the GPU through the translation, or the interpreter.
pub trait Backend: Sized {
    /// A shader ready to draw or dispatch with.
    type Compiled;
    /// A created resource.
    type Resource;
    /// The depth target.
    type Depth;
    /// The tags (`[test]` line qualifiers) that hold, under `require` once one was read.
    fn tags(&self, require: Option<&Require>) -> Vec<String>;
    /// The first requirement of `r` (past the shader model) this backend lacks.
    fn missing(&self, r: &Require) -> Option<Skip>;
    fn compile(&mut self, shader: dxbc::Shader, stage: Stage) -> Result<Self::Compiled, Avail>;
    fn create_resource(&mut self, kind: ResKind, desc: &ResourceDesc) -> Result<Self::Resource, Skip>;
    fn create_depth(&mut self, desc: &ResourceDesc) -> Result<Self::Depth, Skip>;
    fn clear_rtv(&mut self, target: &mut Self::Resource, color: [f32; 4]);
    fn clear_dsv(&mut self, depth: &mut Self::Depth, value: f32);
    /// `copy`: the contents of one declared resource into another.
    fn copy(&mut self, st: &mut State<Self>, from: (ResKind, u32), to: (ResKind, u32)) -> Result<(), OpErr>;
    fn read_resource(&mut self, r: &Declared<Self::Resource>, layer: u32) -> Result<Readback, OpErr>;
    fn read_depth(&mut self, d: &Self::Depth, layer: u32) -> Result<Readback, OpErr>;
    /// A draw with a pixel shader, every current shader available.
    fn draw(
        &mut self,
        st: &mut State<Self>,
        topology: Topology,
        vertices: u32,
        instances: u32,
        quad: bool,
    ) -> Result<(), OpErr>;
    /// A dispatch with an available compute shader.
    fn dispatch(&mut self, st: &mut State<Self>, groups: [u32; 3]) -> Result<(), OpErr>;
    /// The device was lost: the rest of the file cannot run.
    fn lost(&self) -> bool {
        false
    }
}

struct LastOp {
    sections: Vec<usize>,
    /// Why the operation did not run (its probes are skipped with this reason).
    refused: Option<Skip>,
}

/// The vertices of `draw quad`: one triangle covering the viewport.
pub const QUAD: [f32; 6] = [-2.0, -2.0, -2.0, 4.0, 4.0, -2.0];

/// One pass over a test file at one shader model on a backend.
pub struct Walker<'a, B: Backend> {
    pub backend: B,
    pub state: State<B>,
    test_dir: &'a Path,
    rows: &'a [Row],
    sm: u32,
    env: QualEnv,
    deadline: Instant,
    require_unmet: Option<Skip>,
    last_shader_expected_fail: bool,
    last_op: Option<LastOp>,
    unsupported_state: Option<Skip>,
    dsv_declared: bool,
    resources_declared: bool,
    /// What happened to each section.
    pub results: BTreeMap<usize, SecAcc>,
}

impl<'a, B: Backend> Walker<'a, B> {
    /// A pass over one test file at shader model `sm`.
    pub fn new(backend: B, test_dir: &'a Path, rows: &'a [Row], sm: u32, deadline: Instant) -> Walker<'a, B> {
        let env = QualEnv { sm, tags: backend.tags(None) };
        Walker {
            backend,
            state: State {
                uniforms: Vec::new(),
                resources: BTreeMap::new(),
                samplers: HashMap::new(),
                input_layout: Vec::new(),
                current: HashMap::new(),
                shaders: HashMap::new(),
                dsv: None,
                depth_compare: None,
                sample_mask: !0,
            },
            test_dir,
            rows,
            sm,
            env,
            deadline,
            require_unmet: None,
            last_shader_expected_fail: false,
            last_op: None,
            unsupported_state: None,
            dsv_declared: false,
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
                    self.env.tags = self.backend.tags(Some(&r));
                }
                SectionKind::Shader { stage, attrs } => self.read_shader(sec.index, *stage, attrs),
                SectionKind::Test => {
                    // A missing capability still runs the lines: draws and
                    // dispatches are refused, so their probes count.
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
                        if self.backend.lost() {
                            return;
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
                    self.state.dsv = Some(match ResourceDesc::parse(&sec.lines, Format::R32Float) {
                        Ok(d) => self.backend.create_depth(&d),
                        Err(e) => Err(Skip::todo(RunnerTodo::TestSyntax, format!("runner: {e}"))),
                    });
                }
                SectionKind::Sampler(n) => {
                    self.resources_declared = true;
                    match SamplerDesc::parse(&sec.lines) {
                        Ok(s) => {
                            self.state.samplers.insert(*n, s);
                        }
                        Err(e) => {
                            self.unsupported_state = Some(Skip::todo(RunnerTodo::TestSyntax, format!("runner: {e}")))
                        }
                    }
                }
                SectionKind::InputLayout => {
                    self.resources_declared = true;
                    match parse::parse_input_layout(&sec.lines) {
                        Ok(l) => self.state.input_layout = l,
                        Err(e) => {
                            self.unsupported_state = Some(Skip::todo(RunnerTodo::TestSyntax, format!("runner: {e}")))
                        }
                    }
                }
                SectionKind::Preproc | SectionKind::Other(_) => {}
            }
        }
    }

    /// Under a missing capability: draws and dispatches are refused with
    /// it (nothing runs, no state changes), probes are credited to them.
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
        self.backend.missing(r)
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
        self.state.current.insert(stage, index);
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
                Some(row) => self.compile(row, stage),
            }
        };
        let acc = self.results.entry(index).or_default();
        acc.uniform_only = true;
        if let Err(e) = &avail {
            acc.unavailable = Some(e.clone());
        }
        self.state.shaders.insert(index, ShaderEntry { stage, avail });
    }

    fn compile(&mut self, row: &Row, stage: Stage) -> Result<B::Compiled, Avail> {
        let path = row.dxbc_file(self.test_dir);
        let bytes = std::fs::read(&path).map_err(|e| Avail::Fail(format!("cannot read {}: {e}", path.display())))?;
        let shader = dxbc::Shader::decode(&bytes).map_err(|e| Avail::Fail(format!("DXBC decode: {e}")))?;
        self.backend.compile(shader, stage)
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
        let res = self.backend.create_resource(kind, &desc);
        self.state.resources.insert((kind, slot), Declared { desc, res });
    }

    /// Draws without a declared target go to a 640×480 RGBA32F one, as vkd3d's runner does.
    fn ensure_default_rt(&mut self) {
        if !self.state.resources.contains_key(&(ResKind::Rtv, 0)) && !self.dsv_declared {
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
            let res = self.backend.create_resource(ResKind::Rtv, &desc);
            self.state.resources.insert((ResKind::Rtv, 0), Declared { desc, res });
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
                let uniforms = &mut self.state.uniforms;
                let end = (*offset as usize + words.len()).div_ceil(4) * 4;
                if uniforms.len() < end {
                    uniforms.resize(end, 0x7f7f_7f7f);
                }
                uniforms[*offset as usize..*offset as usize + words.len()].copy_from_slice(words);
            }
            Command::DrawQuad => {
                self.ensure_default_rt();
                self.state.input_layout =
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
                let res = self.backend.create_resource(ResKind::Vb, &desc);
                self.state.resources.insert((ResKind::Vb, 0), Declared { desc, res });
                self.draw(Topology::TriangleList, 3, 1, true);
            }
            Command::Draw { topology, vertices, instances } => {
                self.ensure_default_rt();
                self.draw(*topology, *vertices, *instances, false);
            }
            Command::Dispatch(x, y, z) => self.dispatch([*x, *y, *z]),
            Command::ClearRtv(slot, c) => {
                self.ensure_default_rt();
                if let Some(Declared { res: Ok(t), .. }) = self.state.resources.get_mut(&(ResKind::Rtv, *slot)) {
                    self.backend.clear_rtv(t, *c);
                }
            }
            Command::ClearDsv(v) => {
                if let Some(Ok(d)) = &mut self.state.dsv {
                    self.backend.clear_dsv(d, *v);
                }
            }
            Command::Depth(c) => self.state.depth_compare = Some(*c),
            Command::SampleMask(m) => self.state.sample_mask = *m,
            Command::Copy(from, to) => {
                let key = |(b, n): (parse::Binding, u32)| {
                    let kind = match b {
                        parse::Binding::Rtv => ResKind::Rtv,
                        parse::Binding::Srv => ResKind::Srv,
                        parse::Binding::Uav => ResKind::Uav,
                    };
                    (kind, n)
                };
                if let Err(e) = self.backend.copy(&mut self.state, key(*from), key(*to)) {
                    let skip = match e {
                        OpErr::Skip(s) => s,
                        OpErr::Fail(m) => Skip::new(Status::Fail, m),
                    };
                    self.unsupported_state.get_or_insert(skip);
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
                // The probe's failure, if it failed.
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
                // Our DXBC comes from vkd3d's compiler: a probe vkd3d marks `todo`
                // for this shader model fails there too (its output is known wrong),
                // so its failure is reported as a skip, not as a runner failure.
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
                if let Some(ps) = self.state.current.get(&Stage::Pixel).copied() {
                    if let Some(a) = self.results.get_mut(&ps) {
                        a.uniform_only = false;
                    }
                }
            }
        }
    }

    fn readback(&mut self, target: ProbeTarget, layer: u32) -> Result<Readback, OpErr> {
        let key = match target {
            ProbeTarget::Rtv(n) => (ResKind::Rtv, n),
            ProbeTarget::Uav(n) => (ResKind::Uav, n),
            ProbeTarget::Dsv => {
                return match &self.state.dsv {
                    Some(Ok(d)) => self.backend.read_depth(d, layer),
                    Some(Err(e)) => Err(OpErr::Skip(e.clone())),
                    None => {
                        Err(OpErr::Skip(Skip::todo(RunnerTodo::TestSyntax, "runner: probed dsv was never declared")))
                    }
                };
            }
        };
        let Some(r) = self.state.resources.get(&key) else {
            return Err(OpErr::Skip(Skip::todo(
                RunnerTodo::TestSyntax,
                format!("runner: probed resource {target} was never declared"),
            )));
        };
        match &r.res {
            Err(e) => Err(OpErr::Skip(e.clone())),
            Ok(_) => self.backend.read_resource(r, layer),
        }
    }

    /// Sections a draw uses, or why it cannot run.
    fn stage_sections(&self, stages: &[Stage]) -> (Vec<usize>, Option<OpErr>) {
        let mut secs = Vec::new();
        let mut err = None;
        for st in stages {
            if let Some(&i) = self.state.current.get(st) {
                secs.push(i);
                if let Some(e) = self.state.shaders.get(&i) {
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

    /// Why a draw or dispatch cannot run whatever it draws: an unmet
    /// requirement, an unavailable shader (`err`), a state the runner
    /// could not set up.
    fn refusal(&self, err: Option<OpErr>) -> Option<OpErr> {
        if let Some(u) = &self.require_unmet {
            Some(OpErr::Skip(u.clone()))
        } else if err.is_some() {
            err
        } else {
            self.unsupported_state.as_ref().map(|u| OpErr::Skip(u.clone()))
        }
    }

    fn draw(&mut self, topology: Topology, vertices: u32, instances: u32, quad: bool) {
        let (sections, err) =
            self.stage_sections(&[Stage::Vertex, Stage::Hull, Stage::Domain, Stage::Geometry, Stage::Pixel]);
        let has_user_vs = self.state.current.contains_key(&Stage::Vertex);
        let uniform_only = quad && !has_user_vs && !self.resources_declared;
        let r = if let Some(e) = self.refusal(err) {
            Err(e)
        } else if !self.state.current.contains_key(&Stage::Pixel) {
            Err(OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, "runner: draw without a pixel shader")))
        } else if let Some(Err(e)) = &self.state.dsv {
            Err(OpErr::Skip(e.clone()))
        } else {
            self.backend.draw(&mut self.state, topology, vertices, instances, quad)
        };
        self.finish_op(sections, r, uniform_only);
    }

    fn dispatch(&mut self, groups: [u32; 3]) {
        let (sections, err) = self.stage_sections(&[Stage::Compute]);
        let r = if let Some(e) = self.refusal(err) {
            Err(e)
        } else if sections.is_empty() {
            Err(OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, "runner: dispatch without a compute shader")))
        } else {
            self.backend.dispatch(&mut self.state, groups)
        };
        self.finish_op(sections, r, false);
    }
}
