//! The step debugger's logic: the worker runs one invocation on the
//! interpreter with the preview's inputs ([`session_json`]); the page
//! replays the record ([`Session::registers_at`]) to show any step, forward
//! or back, without executing again.

use preview_model::debug::{self, Invocation};
use preview_model::PreviewModel;
use serde::{Deserialize, Serialize};

/// Most steps a session records.
pub const MAX_STEPS: usize = 1 << 20;

/// What the page asks the worker for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The preview's control values (its link record), None for defaults.
    pub values: Option<Vec<u8>>,
    /// The preview's settings record, None for defaults.
    pub settings: Option<Vec<u8>>,
    /// The invocation.
    pub invocation: Invocation,
}

/// A register a step wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reg {
    /// `r#`.
    Temp(u32),
    /// `o#`.
    Output(u32),
    /// `x#[element]`.
    Indexable(u32, u32),
    /// `oDepth`.
    Depth,
    /// `oMask`.
    Mask,
}

/// One component one step wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Write {
    /// The register.
    pub reg: Reg,
    /// Component 0..3.
    pub c: u8,
    /// Bits before.
    pub old: u32,
    /// Bits after.
    pub new: u32,
}

/// Memory a step wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Memory {
    /// `u#`.
    Uav(u32),
    /// `g#`.
    Groupshared(u32),
}

/// One word of memory one step wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    /// The memory.
    pub memory: Memory,
    /// The word (a texture's: texel × 4 + component).
    pub index: u32,
    /// Bits before.
    pub old: u32,
    /// Bits after.
    pub new: u32,
}

impl Stored {
    fn of(s: &dxbc_interp::Store) -> Stored {
        let memory = match s.memory {
            dxbc_interp::Memory::Uav(n) => Memory::Uav(n),
            dxbc_interp::Memory::Groupshared(n) => Memory::Groupshared(n),
        };
        Stored { memory, index: s.index, old: s.old, new: s.new }
    }

    /// As `dxbc run` prints it: `g0 word 1 = 0x0000000b (was 0x00000000)`.
    pub fn text(&self) -> String {
        let memory = match self.memory {
            Memory::Uav(n) => dxbc_interp::Memory::Uav(n),
            Memory::Groupshared(n) => dxbc_interp::Memory::Groupshared(n),
        };
        let s = dxbc_interp::Store { memory, index: self.index, old: self.old, new: self.new };
        debug::describe_stores(&[s]).concat()
    }
}

/// One executed instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Byte offset of its opcode token.
    pub offset: u32,
    /// What it wrote.
    pub writes: Vec<Write>,
    /// The memory words it stored.
    pub stores: Vec<Stored>,
}

/// Every register of the traced lane.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registers {
    /// `r#`.
    pub temps: Vec<[u32; 4]>,
    /// `v#`.
    pub inputs: Vec<[u32; 4]>,
    /// `o#`.
    pub outputs: Vec<[u32; 4]>,
    /// `x#`: register and elements.
    pub indexable: Vec<(u32, Vec<[u32; 4]>)>,
    /// `oDepth` and `oMask`.
    pub depth_mask: [u32; 2],
}

impl Registers {
    fn set(&mut self, w: &Write, bits: u32) {
        let c = w.c as usize & 3;
        let slot = match w.reg {
            Reg::Temp(r) => self.temps.get_mut(r as usize),
            Reg::Output(r) => self.outputs.get_mut(r as usize),
            Reg::Indexable(r, e) => {
                self.indexable.iter_mut().find(|(x, _)| *x == r).and_then(|(_, v)| v.get_mut(e as usize))
            }
            Reg::Depth => return self.depth_mask[0] = bits,
            Reg::Mask => return self.depth_mask[1] = bits,
        };
        if let Some(v) = slot {
            v[c] = bits;
        }
    }
}

/// One traced invocation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// What ran.
    pub invocation: Invocation,
    /// Its lane among [`Session::lanes`] (a pixel's quad, a thread's group).
    pub lane: usize,
    /// Lanes run together.
    pub lanes: usize,
    /// The executed instructions, in order.
    pub steps: Vec<Step>,
    /// The registers before the first step.
    pub initial: Registers,
    /// The record stops before the run did.
    pub truncated: bool,
    /// Why the run stopped early, if it did.
    pub error: Option<String>,
}

impl Session {
    /// The registers after the first `n` steps (replayed from the record).
    pub fn registers_at(&self, n: usize) -> Registers {
        let mut r = self.initial.clone();
        for s in self.steps.iter().take(n) {
            for w in &s.writes {
                r.set(w, w.new);
            }
        }
        r
    }

    /// The first position after `from` whose next instruction is at
    /// `offset` (a breakpoint), if the run reaches it again.
    pub fn next_break(&self, from: usize, offset: u32) -> Option<usize> {
        self.steps.iter().enumerate().skip(from + 1).find(|(_, s)| s.offset == offset).map(|(i, _)| i)
    }

    /// The components written by the instruction that ran last at position `n`.
    pub fn last_writes(&self, n: usize) -> &[Write] {
        n.checked_sub(1).and_then(|k| self.steps.get(k)).map_or(&[], |s| s.writes.as_slice())
    }

    /// The memory words stored by the instruction that ran last at position `n`.
    pub fn last_stores(&self, n: usize) -> &[Stored] {
        n.checked_sub(1).and_then(|k| self.steps.get(k)).map_or(&[], |s| s.stores.as_slice())
    }

    /// The first position after `from` whose next instruction is at one
    /// of the `breakpoints` (sorted offsets), or the end.
    pub fn next_stop(&self, from: usize, breakpoints: &[u32]) -> usize {
        self.steps
            .iter()
            .enumerate()
            .skip(from + 1)
            .find(|(_, s)| breakpoints.binary_search(&s.offset).is_ok())
            .map_or(self.steps.len(), |(i, _)| i)
    }
}

fn reg(r: dxbc_interp::Reg) -> Reg {
    match r {
        dxbc_interp::Reg::Temp(n) => Reg::Temp(n),
        dxbc_interp::Reg::Output(n) => Reg::Output(n),
        dxbc_interp::Reg::Indexable { reg, element } => Reg::Indexable(reg, element),
        dxbc_interp::Reg::Depth => Reg::Depth,
        dxbc_interp::Reg::CoverageMask => Reg::Mask,
    }
}

/// Runs `req` on the file `bytes` (the worker's side): a [`Session`], or
/// why there is none.
pub fn session(bytes: &[u8], req: &Request) -> Result<Session, String> {
    let shader = dxbc::Shader::decode(bytes).map_err(|e| e.to_string())?;
    let model = PreviewModel::new(&shader);
    let (values, settings) =
        model.restore_state(req.values.as_deref(), req.settings.as_deref()).map_err(|e| e.to_string())?;
    let plan =
        preview_model::plan::build(&shader, &model, &values, &settings).map_err(|e| format!("not previewable: {e}"))?;
    let d = debug::debug(&shader, &model, &plan, req.invocation, dxbc_interp::Limits::default(), MAX_STEPS)
        .map_err(|e| e.to_string())?;
    let t = &d.traced.trace;
    let steps = t
        .steps
        .iter()
        .enumerate()
        .map(|(n, s)| Step {
            offset: s.offset,
            writes: t
                .changes(n)
                .iter()
                .map(|c| Write { reg: reg(c.reg), c: c.component, old: c.old, new: c.new })
                .collect(),
            stores: t.stores(n).iter().map(Stored::of).collect(),
        })
        .collect();
    let i = &t.initial;
    Ok(Session {
        invocation: req.invocation,
        lane: d.prepared.lane,
        lanes: d.prepared.lanes.len(),
        steps,
        initial: Registers {
            temps: i.temps.clone(),
            inputs: i.inputs.clone(),
            outputs: i.outputs.clone(),
            indexable: i.indexable.clone(),
            depth_mask: [i.depth, i.coverage_mask],
        },
        truncated: t.truncated,
        error: d.traced.result.err().map(|e| e.to_string()),
    })
}

/// [`session`] as JSON (`Result<Session, String>`), the worker's answer.
pub fn session_json(bytes: &[u8], request_json: &str) -> String {
    let r = serde_json::from_str::<Request>(request_json)
        .map_err(|e| format!("bad debug request: {e}"))
        .and_then(|req| session(bytes, &req));
    serde_json::to_string(&r).unwrap_or_default()
}

/// Adds the breakpoint at `offset` to the sorted set, or removes it.
pub fn toggle_breakpoint(breakpoints: &mut Vec<u32>, offset: u32) {
    match breakpoints.binary_search(&offset) {
        Ok(i) => {
            breakpoints.remove(i);
        }
        Err(i) => breakpoints.insert(i, offset),
    }
}

/// How the register view prints a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Radix {
    /// As a float.
    Float,
    /// As a signed integer.
    Int,
    /// As hexadecimal bits.
    Hex,
}

/// One component as the register view prints it.
pub fn component_text(bits: u32, radix: Radix) -> String {
    match radix {
        Radix::Float => format!("{:?}", f32::from_bits(bits)),
        Radix::Int => format!("{}", bits as i32),
        Radix::Hex => format!("{bits:#010x}"),
    }
}

/// A register row of the view: name, the four components, which of them
/// the last instruction wrote (bit c).
pub fn rows(r: &Registers, written: &[Write]) -> Vec<(String, [u32; 4], u8)> {
    let mask = |want: Reg| written.iter().filter(|w| w.reg == want).fold(0u8, |m, w| m | 1 << (w.c & 3));
    let mut out = Vec::new();
    for (n, v) in r.inputs.iter().enumerate() {
        out.push((format!("v{n}"), *v, 0));
    }
    for (n, v) in r.temps.iter().enumerate() {
        out.push((format!("r{n}"), *v, mask(Reg::Temp(n as u32))));
    }
    for (x, els) in &r.indexable {
        for (e, v) in els.iter().enumerate() {
            out.push((format!("x{x}[{e}]"), *v, mask(Reg::Indexable(*x, e as u32))));
        }
    }
    for (n, v) in r.outputs.iter().enumerate() {
        out.push((format!("o{n}"), *v, mask(Reg::Output(n as u32))));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_corpus::file as corpus;

    #[test]
    fn a_session_replays_forward_and_back_and_crosses_the_worker_as_json() {
        // angle930's clear shader copies its constant-buffer colour to o0 and o1.
        let bytes = corpus("fxc/angle930_clearfloat11ps.dxbc");
        let req = Request { values: None, settings: None, invocation: Invocation::Pixel { x: 37, y: 201 } };
        let json = session_json(&bytes, &serde_json::to_string(&req).unwrap());
        let s: Session = serde_json::from_str::<Result<Session, String>>(&json).unwrap().unwrap();
        assert_eq!(s.lanes, 4);
        assert_eq!(s.lane, 2 + 1);
        assert!(s.error.is_none() && !s.truncated);
        let end = s.registers_at(s.steps.len());
        // Replaying each step's writes equals the lane's state after it.
        let one_by_one = (0..s.steps.len()).fold(s.initial.clone(), |mut r, k| {
            for w in &s.steps[k].writes {
                assert_eq!(r.registers_at_component(w), w.old);
                r.set(w, w.new);
            }
            r
        });
        assert_eq!(end, one_by_one);
        assert_eq!(s.registers_at(0), s.initial);
        assert_ne!(end.outputs, s.initial.outputs);
    }

    #[test]
    fn a_compute_session_carries_the_words_each_step_stored() {
        // Thread 0 of the reduction stores g0 word 0 seven times (fxc's
        // listing), each the r0.x it just computed, then u0 word 0.
        let bytes = corpus("fxc/slimshader_hdrtonemappingcs11_reduceto1dcs.dxbc");
        let inv = Invocation::Thread { group: [0; 3], thread: [0; 3] };
        let req = Request { values: None, settings: None, invocation: inv };
        let s = session(&bytes, &req).unwrap();
        let stores: Vec<(usize, Stored)> =
            s.steps.iter().enumerate().flat_map(|(n, st)| st.stores.iter().map(move |w| (n, *w))).collect();
        let g0: Vec<_> = stores.iter().filter(|(_, w)| w.memory == Memory::Groupshared(0)).collect();
        assert_eq!(g0.len(), 7);
        for (n, w) in &g0 {
            assert_eq!(w.index, 0);
            assert_eq!(s.registers_at(*n).temps[0][0], w.new, "step {n}");
        }
        let last = g0.last().unwrap().1.new;
        let u0: Vec<_> = stores.iter().filter(|(_, w)| w.memory == Memory::Uav(0)).map(|(_, w)| *w).collect();
        assert_eq!(u0, [Stored { memory: Memory::Uav(0), index: 0, old: 0, new: last }]);
    }

    #[test]
    fn a_breakpoint_finds_the_next_pass_and_rows_mark_written_components() {
        let st = Stored { memory: Memory::Groupshared(0), index: 3, old: 1, new: 2 };
        let s = Session {
            invocation: Invocation::Vertex(0),
            lane: 0,
            lanes: 1,
            steps: vec![
                Step { offset: 8, writes: vec![Write { reg: Reg::Temp(0), c: 1, old: 0, new: 5 }], stores: vec![] },
                Step { offset: 12, writes: vec![], stores: vec![st] },
                Step { offset: 8, writes: vec![Write { reg: Reg::Temp(0), c: 1, old: 5, new: 6 }], stores: vec![] },
            ],
            initial: Registers { temps: vec![[0; 4]], ..Registers::default() },
            truncated: false,
            error: None,
        };
        assert_eq!(s.next_break(0, 8), Some(2));
        assert_eq!(s.next_break(2, 8), None);
        // Several breakpoints: run stops at whichever comes first, then at the end.
        let mut bps = Vec::new();
        toggle_breakpoint(&mut bps, 12);
        toggle_breakpoint(&mut bps, 8);
        assert_eq!(bps, [8, 12]);
        assert_eq!((s.next_stop(0, &bps), s.next_stop(1, &bps), s.next_stop(2, &bps)), (1, 2, 3));
        toggle_breakpoint(&mut bps, 12);
        assert_eq!(s.next_stop(0, &bps), 2);
        assert_eq!(s.last_stores(2), [st]);
        assert_eq!(st.text(), "g0 word 3 = 0x00000002 (was 0x00000001)");
        let r = s.registers_at(1);
        assert_eq!(rows(&r, s.last_writes(1)), vec![("r0".to_string(), [0, 5, 0, 0], 0b10)]);
        assert_eq!(s.registers_at(3).temps[0][1], 6);
        assert_eq!(component_text(1.5f32.to_bits(), Radix::Float), "1.5");
        assert_eq!(component_text(u32::MAX, Radix::Int), "-1");
        assert_eq!(component_text(255, Radix::Hex), "0x000000ff");
    }

    impl Registers {
        fn registers_at_component(&self, w: &Write) -> u32 {
            let c = w.c as usize & 3;
            match w.reg {
                Reg::Temp(r) => self.temps[r as usize][c],
                Reg::Output(r) => self.outputs[r as usize][c],
                Reg::Indexable(x, e) => self.indexable.iter().find(|(r, _)| *r == x).unwrap().1[e as usize][c],
                Reg::Depth => self.depth_mask[0],
                Reg::Mask => self.depth_mask[1],
            }
        }
    }
}
