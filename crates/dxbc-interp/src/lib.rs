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
//! Not executed yet: hull and domain shaders, interfaces (`fcall`), cube
//! maps, `lod`, `eval_snapped`, `samplepos`, the residency-feedback forms.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod alu;
pub mod compile;
mod error;
mod exec;
pub mod resources;
pub mod texture;

pub use compile::{compile, Code, InputDecl, Sys, TgsmDecl};
pub use error::{Error, ErrorKind, Result};
pub use exec::{run, run_group, Emitted, Grouping, Lane, Limits, Stats, MAX_CALL_DEPTH, MAX_EMITTED, MAX_LANES};
pub use resources::{Address, Bindings, Buffer, Channel, Compare, Resource, Sampler, TexDim, Texture};

/// Compiles the program of a decoded shader container.
pub fn compile_shader(shader: &dxbc::Shader) -> Result<Code> {
    match &shader.program {
        Some(p) => compile(p),
        None => Err(Error::new(ErrorKind::NoProgram, "the container has no SHDR/SHEX chunk", 0)),
    }
}

#[cfg(test)]
mod tests;
