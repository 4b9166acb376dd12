//! `--cpu`: runs a `.shader_test` file on the interpreter (`dxbc-interp`)
//! instead of the GPU. The walk of the file — section order, `[require]`,
//! the crediting of probes to the sections a draw or dispatch used, and the
//! statuses — is the GPU runner's ([`crate::walk`]); this is its other
//! [`Backend`]: the interpreter runs the shaders, with a CPU rasteriser
//! ([`raster`]) for draws. What the interpreter or this backend cannot run
//! yet is `TODO [Interpreter]` with the reason, never FAIL.

mod raster;
mod resources;
mod tess;

use std::path::Path;
use std::time::Instant;

use dxbc_interp::{Bindings, ErrorKind, Resource};

use crate::manifest::Row;
use crate::parse::{Dim, Require, ResourceDesc, Stage, Topology};
use crate::probe::Readback;
use crate::walk::{Avail, Backend, Declared, OpErr, ResKind, State, Walker};
use crate::{Capability, RunnerTodo, Skip};

/// Instructions one stage of a draw, or one dispatch, may execute on the interpreter.
pub const OP_BUDGET: u64 = 400_000_000;

/// Instructions one pass over a test file may execute on the interpreter.
/// This, not the clock, is what bounds a file on the CPU, so its rows are
/// the same on any machine, under any load, on any number of threads.
pub const FILE_BUDGET: u64 = 4_000_000_000;

/// What is left of a pass's [`FILE_BUDGET`].
struct FileBudget(u64);

impl FileBudget {
    /// A stage's budget: [`OP_BUDGET`], or what is left of the file's.
    fn stage(&self) -> u64 {
        OP_BUDGET.min(self.0)
    }

    /// Charges what a stage executed.
    fn charge(&mut self, executed: u64) {
        self.0 = self.0.saturating_sub(executed);
    }
}

/// A shader ready for the interpreter.
pub struct Compiled {
    shader: dxbc::Shader,
    code: dxbc_interp::Code,
}

/// The depth target.
pub struct Depth {
    width: u32,
    height: u32,
    values: Vec<f32>,
}

/// Capabilities the interpreter provides.
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

/// The interpreter as a [`Backend`].
pub struct Cpu {
    deadline: Instant,
    left: FileBudget,
}

/// A pass of the CPU runner over one test file at one shader model.
pub type CpuPass<'a> = Walker<'a, Cpu>;

/// A pass over one test file at shader model `sm`, stopping at `deadline`.
pub fn pass<'a>(test_dir: &'a Path, rows: &'a [Row], sm: u32, deadline: Instant) -> CpuPass<'a> {
    Walker::new(Cpu { deadline, left: FileBudget(FILE_BUDGET) }, test_dir, rows, sm, deadline)
}

impl Backend for Cpu {
    type Compiled = Compiled;
    type Resource = Resource;
    type Depth = Depth;

    fn tags(&self, _require: Option<&Require>) -> Vec<String> {
        Vec::new()
    }

    fn missing(&self, r: &Require) -> Option<Skip> {
        // Typed UAV loads of every format: the interpreter's UAVs are plain data.
        r.caps.iter().find(|c| !cap_supported(c)).map(|c| {
            Skip::missing(Capability::from_word(c), format!("requires '{c}', which the interpreter does not provide"))
        })
    }

    fn compile(&mut self, shader: dxbc::Shader, _stage: Stage) -> Result<Compiled, Avail> {
        let code = dxbc_interp::compile_shader(&shader).map_err(|e| match interp_skip(&e) {
            OpErr::Skip(s) => Avail::Skip(s),
            OpErr::Fail(m) => Avail::Fail(m),
        })?;
        Ok(Compiled { shader, code })
    }

    fn create_resource(&mut self, kind: ResKind, desc: &ResourceDesc) -> Result<Resource, Skip> {
        if kind == ResKind::Rtv && matches!(desc.dim, Some(Dim::Tex2dMs(n)) if n > 1) {
            return Err(Skip::todo(RunnerTodo::Multisampling, "runner: multisampled render target on the CPU"));
        }
        resources::create(desc)
    }

    fn create_depth(&mut self, d: &ResourceDesc) -> Result<Depth, Skip> {
        let (width, height) = (d.width.max(1), d.height.max(1));
        Ok(Depth { width, height, values: vec![0.0; width as usize * height as usize] })
    }

    fn clear_rtv(&mut self, target: &mut Resource, c: [f32; 4]) {
        if let Resource::Texture(t) = target {
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

    fn clear_dsv(&mut self, depth: &mut Depth, value: f32) {
        depth.values.fill(value);
    }

    fn copy(&mut self, st: &mut State<Cpu>, from: (ResKind, u32), to: (ResKind, u32)) -> Result<(), OpErr> {
        let src = st.resources.get(&from).and_then(|r| r.res.as_ref().ok()).cloned();
        match (src, st.resources.get_mut(&to)) {
            (Some(s), Some(Declared { res: Ok(dst), .. })) => {
                copy_contents(&s, dst);
                Ok(())
            }
            _ => Err(OpErr::Skip(Skip::todo(
                RunnerTodo::TestCommand,
                "runner: copy between resources that do not both exist",
            ))),
        }
    }

    fn read_resource(&mut self, r: &Declared<Resource>, layer: u32) -> Result<Readback, OpErr> {
        match &r.res {
            Ok(res) => Ok(resources::readback(res, &r.desc, layer)),
            Err(e) => Err(OpErr::Skip(e.clone())),
        }
    }

    fn read_depth(&mut self, d: &Depth, _layer: u32) -> Result<Readback, OpErr> {
        Ok(Readback {
            width: d.width,
            height: d.height,
            texel_size: 4,
            data: d.values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        })
    }

    fn draw(
        &mut self,
        st: &mut State<Cpu>,
        topology: Topology,
        vertices: u32,
        instances: u32,
        quad: bool,
    ) -> Result<(), OpErr> {
        raster::draw(st, &mut self.left, topology, vertices, instances, quad)
    }

    fn dispatch(&mut self, st: &mut State<Cpu>, [x, y, z]: [u32; 3]) -> Result<(), OpErr> {
        let Some(cs) = st.compiled(Stage::Compute) else {
            return Err(OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, "runner: no compute shader")));
        };
        let code = cs.code.clone();
        let mut b = take_bindings(st);
        let start = self.left.stage();
        let mut budget = start;
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
        return_bindings(st, b);
        self.left.charge(start - budget);
        result
    }
}

/// Moves the bound resources into the interpreter's bindings.
fn take_bindings(st: &mut State<Cpu>) -> Bindings {
    let mut b = Bindings { rasterizer_samples: 1, ..Bindings::default() };
    b.cbs.insert(0, st.uniforms.clone());
    for ((kind, slot), r) in st.resources.iter_mut() {
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
    for (slot, s) in &st.samplers {
        b.samplers.insert(*slot, resources::sampler(s));
    }
    b
}

/// Puts the bindings' resources back.
fn return_bindings(st: &mut State<Cpu>, mut b: Bindings) {
    for ((kind, slot), r) in st.resources.iter_mut() {
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
