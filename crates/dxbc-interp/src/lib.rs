//! # dxbc-interp — a DXBC interpreter
//!
//! Executes SM4/SM5 programs on the CPU with Direct3D 11's rules: a second,
//! independent implementation of DXBC's meaning beside the GPU translation
//! (`dxbc-naga`), and the engine of a step debugger.
//!
//! ## Design
//!
//! **Pre-translation.** [`compile`] reads a decoded [`dxbc::program::Program`]
//! once: declarations become tables ([`Code`]: temps, indexable temps, the
//! immediate constant buffer, thread-group size, group-shared memory,
//! resource dimensions and strides, input and output registers), and every
//! executable instruction becomes an `Op` with its operands resolved
//! (register file, immediate index or relative index expression, swizzle,
//! modifier, write mask) and its jump target computed (`if` to its `else`
//! or `endif`, `loop`/`endloop` to each other, `break` to past its
//! `endloop` or `endswitch`, `switch` to a table of cases, `call` to its
//! label). Opcode numbers and bitfields come only from [`dxbc::spec`].
//!
//! **Lanes with their own program counter.** A run executes N lanes: a
//! pixel quad (4 lanes), a compute thread group (all its threads), or
//! independent vertices. The GPU model is SIMT with per-lane active masks,
//! and an interpreter could mirror it (a mask stack for `if`/`loop`/
//! `switch`, lanes turned off by `break` and `ret` until the construct
//! closes). We do not: for every program whose result D3D defines, masked
//! lockstep and lanes that each follow their own path give the same
//! values, because lanes only observe each other at three points:
//! derivatives (and the implicit-LOD samples built on them), barriers
//! (`sync` with `_t`), and memory shared between them. So each lane runs
//! alone, as a scalar machine with a program counter and a call stack,
//! until it reaches one of those *rendezvous* instructions or ends. When
//! every lane is parked or done, the lanes parked at the lowest rendezvous
//! execute it together: a derivative reads the source in all four lanes of
//! the quad (lanes that already ended keep their last values, as helper
//! lanes do); a barrier simply releases them. Control flow is then plain
//! jumps, there is no mask bookkeeping on the hot path, and the debugger
//! can step one lane.
//!
//! **Determinism.** Lanes run in index order between rendezvous points.
//! For compute, the lane index is SV_GroupIndex (x fastest, then y, then
//! z), so group-shared memory and UAV writes, and atomics, happen in
//! SV_GroupIndex order within each barrier interval. Programs with races
//! D3D leaves undefined get this one answer every time.
//!
//! **Values.** Registers are `[u32; 4]` bits. Float instructions flush
//! denormal inputs and outputs (data movement — `mov`, `movc`, `swapc` —
//! does not), `_sat` maps NaN to 0, `min`/`max` prefer the number over a
//! NaN, conversions clamp and send NaN to 0, shifts use 5 bits, `udiv` by 0
//! gives all ones; see [`alu`]. Sampling is in [`texture`].
//!
//! **Bounds.** Nothing a shader controls can make a run panic, loop
//! forever or allocate without limit: every executed instruction is
//! charged to [`Limits::budget`] (the run stops with [`ErrorKind::Budget`]);
//! declarations are capped ([`compile::MAX_TEMPS`] and friends) before
//! anything is allocated; register, buffer and texture accesses are
//! checked (reads out of range give 0, writes are dropped); subroutine
//! depth and emitted vertices are capped. Every error names the byte offset
//! of the instruction ("(at offset 0x…)").
//!
//! **Geometry shaders** ([`run_geometry`]) run once per input primitive
//! and instance, each invocation an independent lane; what they emit is
//! cut into points, lines or triangles per stream in D3D's strip order.
//!
//! **Hull and domain shaders** ([`tessellation`]): the hull shader's
//! control-point phase once per output control point, its fork and join
//! phases per instance over the patch-constant record, the tessellator
//! (crates/tessellator, the same one the GPU translation's compute port
//! reproduces) over the factors it wrote, then the domain shader per
//! domain point. Each phase is compiled as a program of its own
//! ([`Code::hull`]), so its temps are its own.
//!
//! Not executed yet: interfaces (`fcall`), cube
//! maps, `lod`, `eval_snapped`, `samplepos`, the residency-feedback forms.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod alu;
pub mod compile;
mod error;
mod exec;
pub mod geometry;
pub mod resources;
pub mod tessellation;
pub mod texture;
pub mod trace;

pub use compile::{compile, Code, GsDecl, Hull, HullPhase, InputDecl, Sys, TessDecl, TgsmDecl, CONTROL_POINT_REGS};
pub use error::{Error, ErrorKind, Result};
pub use exec::{
    group_lanes, run, run_group, Emitted, Grouping, Lane, Limits, Stats, MAX_CALL_DEPTH, MAX_EMITTED, MAX_LANES,
};
pub use geometry::{run_geometry, GsInput, GsPrimitive};
pub use resources::{Address, Bindings, Buffer, Channel, Compare, Resource, Sampler, TexDim, Texture};
pub use tessellation::{patch_factors, run_domain, run_hull, tessellate_patch, HullInput, HullOutput};
pub use trace::{run_traced, Change, Cursor, Memory, Reg, Registers, Step, Store, Trace, TraceOptions, Traced};

/// Compiles the program of a decoded shader container.
pub fn compile_shader(shader: &dxbc::Shader) -> Result<Code> {
    match &shader.program {
        Some(p) => compile(p),
        None => Err(Error::new(ErrorKind::NoProgram, "the container has no SHDR/SHEX chunk", 0)),
    }
}

#[cfg(test)]
mod tests;

/// Bindings for every resource the program declares: a 256-word buffer per
/// buffer view, a 4×4 two-level float texture per texture view (texel
/// values counting up), default samplers, and constant buffers 0..14 of
/// 4096 words counting up. What the fuzz target, the bench and a bare
/// `dxbc run` use when the caller has nothing better.
pub fn default_bindings(code: &Code) -> Bindings {
    use dxbc::spec::ResourceDimension as D;
    let mut b = Bindings { rasterizer_samples: 1, ..Bindings::default() };
    let resource = |dim: D, stride: u32| -> Resource {
        match dim {
            D::Buffer | D::RawBuffer | D::StructuredBuffer | D::Unknown => Resource::Buffer(Buffer {
                words: (0..256).collect(),
                stride,
                typed: (dim == D::Buffer).then_some((Channel::Float, 4)),
                counter: 0,
            }),
            _ => {
                let level = |n: u32| (0..n * n * 6).map(|i| [(i as f32).to_bits(), 0, 0, 1.0f32.to_bits()]).collect();
                let is_3d = dim == D::Texture3d;
                let dim_of = match dim {
                    D::Texture1d | D::Texture1darray => TexDim::Tex1d,
                    D::Texture3d => TexDim::Tex3d,
                    D::Texturecube | D::Texturecubearray => TexDim::Cube,
                    _ => TexDim::Tex2d,
                };
                Resource::Texture(Texture {
                    dim: dim_of,
                    width: 4,
                    height: 4,
                    depth: if is_3d { 4 } else { 1 },
                    layers: if is_3d { 1 } else { 6 },
                    samples: 1,
                    channel: Channel::Float,
                    components: 4,
                    levels: vec![level(4), level(2)],
                })
            }
        }
    };
    for (&slot, &dim) in &code.srv_dims {
        b.srvs.insert(slot, resource(dim, code.strides.get(&(false, slot)).copied().unwrap_or(0)));
    }
    for (&slot, &dim) in &code.uav_dims {
        b.uavs.insert(slot, resource(dim, code.strides.get(&(true, slot)).copied().unwrap_or(0)));
    }
    for slot in 0..16 {
        b.samplers.insert(slot, Sampler::default());
    }
    for slot in 0..14 {
        b.cbs.insert(slot, (0..4096).collect());
    }
    b
}

/// Runs one default invocation of the program's stage: a pixel quad, thread
/// group (0, 0, 0), or one vertex / primitive, with zeroed inputs.
pub fn run_default(code: &Code, b: &mut Bindings, limits: Limits) -> Result<Stats> {
    use dxbc::spec::ProgramType as P;
    let lane = |n: usize| Lane { inputs: vec![[0; 4]; n], ..Lane::default() };
    match code.stage {
        P::ComputeShader => run_group(code, b, [0, 0, 0], limits),
        P::PixelShader => {
            let mut lanes: Vec<Lane> = (0..4).map(|_| lane(code.input_regs as usize)).collect();
            run(code, b, &mut lanes, Grouping::Quads, limits)
        }
        // One patch of zeroed input control points through every phase.
        P::HullShader => {
            let points = code.tess.input_control_points as usize * CONTROL_POINT_REGS;
            let input = HullInput { primitive_id: 0, control_points: vec![[0; 4]; points] };
            run_hull(code, b, &[input], limits).map(|(_, s)| s)
        }
        // The domain's first corner of a patch of zeroed control points.
        P::DomainShader => {
            let patch = HullOutput {
                primitive_id: 0,
                control_points: vec![[0; 4]; code.tess.input_control_points as usize * CONTROL_POINT_REGS].into(),
                patch_constants: vec![[0; 4]; CONTROL_POINT_REGS].into(),
            };
            let corner = tessellator::DomainPoint { u: 0.0, v: 0.0, w: 1.0 };
            run_domain(code, b, &patch, &[corner], limits).map(|(_, s)| s)
        }
        // A geometry shader reads up to six vertices (triangles with adjacency).
        _ => run(code, b, &mut [lane(code.input_regs as usize * 6)], Grouping::Independent, limits),
    }
}
