//! Recording one lane of a run for a step debugger.
//!
//! A traced run executes exactly as [`crate::run`] does (all lanes, the
//! same rendezvous), and records, for one chosen lane, each instruction it
//! executed (its byte offset) and each register component that
//! instruction wrote, with the bits before and after. That record is
//! enough to move to any step in either direction without executing
//! again: the registers at step `n` are the initial registers with the
//! first `n` steps' writes applied ([`Cursor`]).
//!
//! The recorder is a type parameter of the executor: an untraced run uses
//! [`Off`], whose hooks are empty and constant-false, so tracing costs
//! nothing when it is not asked for.
//!
//! Memory the lane writes (UAV and group-shared words, by stores and
//! atomics) is recorded beside the registers, word by word with its old
//! and new bits ([`Trace::stores`]); other lanes' writes to the same memory
//! are not (they are not this lane's steps).
//!
//! Bounds: at most [`TraceOptions::max_steps`] steps are recorded (then
//! [`Trace::truncated`] is set and the run goes on unrecorded, so the
//! lanes' final outputs are still right); each step writes at most two
//! destinations and four words of memory, so the changes are bounded too.

use crate::compile::Code;
use crate::error::Result;
use crate::exec::{Grouping, Lane, Limits, Stats};
use crate::resources::Bindings;

/// A register a step wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// `r#`.
    Temp(u32),
    /// `o#`.
    Output(u32),
    /// `x#[element]`.
    Indexable {
        /// The `x#` register number.
        reg: u32,
        /// The element.
        element: u32,
    },
    /// `oDepth` (component 0).
    Depth,
    /// `oMask` (component 0).
    CoverageMask,
}

/// One component written by one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The register.
    pub reg: Reg,
    /// Component 0..3 (x..w).
    pub component: u8,
    /// Bits before.
    pub old: u32,
    /// Bits after.
    pub new: u32,
}

/// Memory a step wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Memory {
    /// `u#`: a buffer's 32-bit words, or a texture's texels (index
    /// `texel * 4 + component`, texels as [`crate::Texture::levels`] orders level 0).
    Uav(u32),
    /// `g#`: group-shared memory's 32-bit words.
    Groupshared(u32),
}

/// One 32-bit word of memory written by one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Store {
    /// Which memory.
    pub memory: Memory,
    /// Which word of it (see [`Memory`]).
    pub index: u32,
    /// Bits before.
    pub old: u32,
    /// Bits after.
    pub new: u32,
}

/// One executed instruction of the traced lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Byte offset of the instruction's opcode token in the container.
    pub offset: u32,
    /// Its changes are `Trace::changes[first_change..]` up to the next step's.
    first_change: u32,
    /// Its stores likewise.
    first_store: u32,
}

/// What to record.
#[derive(Clone, Copy, Debug)]
pub struct TraceOptions {
    /// The lane whose steps are recorded (index into the run's lanes).
    pub lane: usize,
    /// Most steps recorded.
    pub max_steps: usize,
}

impl Default for TraceOptions {
    fn default() -> TraceOptions {
        TraceOptions { lane: 0, max_steps: 1 << 20 }
    }
}

/// Every register of one lane.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Registers {
    /// `r#`.
    pub temps: Vec<[u32; 4]>,
    /// `v#` (never written by the program).
    pub inputs: Vec<[u32; 4]>,
    /// `o#`.
    pub outputs: Vec<[u32; 4]>,
    /// `x#`: register number and its elements.
    pub indexable: Vec<(u32, Vec<[u32; 4]>)>,
    /// `oDepth` bits.
    pub depth: u32,
    /// `oMask`.
    pub coverage_mask: u32,
}

impl Registers {
    /// The registers of a lane before its first instruction.
    pub fn initial(code: &Code, lane: &Lane) -> Registers {
        let mut outputs = lane.outputs.clone();
        if outputs.len() < code.output_regs as usize {
            outputs.resize(code.output_regs as usize, [0; 4]);
        }
        Registers {
            temps: vec![[0; 4]; code.temps as usize],
            inputs: lane.inputs.clone(),
            outputs,
            indexable: code.indexable_regs().map(|(reg, len)| (reg, vec![[0; 4]; len as usize])).collect(),
            depth: lane.depth,
            coverage_mask: lane.coverage_out,
        }
    }

    fn slot(&mut self, reg: Reg) -> Option<&mut [u32; 4]> {
        match reg {
            Reg::Temp(r) => self.temps.get_mut(r as usize),
            Reg::Output(r) => self.outputs.get_mut(r as usize),
            Reg::Indexable { reg, element } => {
                self.indexable.iter_mut().find(|(r, _)| *r == reg).and_then(|(_, v)| v.get_mut(element as usize))
            }
            Reg::Depth | Reg::CoverageMask => None,
        }
    }

    fn set(&mut self, reg: Reg, component: u8, bits: u32) {
        match reg {
            Reg::Depth => self.depth = bits,
            Reg::CoverageMask => self.coverage_mask = bits,
            _ => {
                if let Some(v) = self.slot(reg) {
                    v[component as usize & 3] = bits;
                }
            }
        }
    }
}

/// The record of one lane.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The traced lane.
    pub lane: usize,
    /// Executed instructions, in order.
    pub steps: Vec<Step>,
    changes: Vec<Change>,
    stores: Vec<Store>,
    /// More steps ran than [`TraceOptions::max_steps`]; the rest are not recorded.
    pub truncated: bool,
    /// The lane's registers before its first step.
    pub initial: Registers,
}

impl Trace {
    /// The components step `n` wrote (empty past the end).
    pub fn changes(&self, n: usize) -> &[Change] {
        let Some(s) = self.steps.get(n) else { return &[] };
        let end = self.steps.get(n + 1).map_or(self.changes.len(), |t| t.first_change as usize);
        self.changes.get(s.first_change as usize..end).unwrap_or(&[])
    }

    /// The memory words step `n` wrote (empty past the end).
    pub fn stores(&self, n: usize) -> &[Store] {
        let Some(s) = self.steps.get(n) else { return &[] };
        let end = self.steps.get(n + 1).map_or(self.stores.len(), |t| t.first_store as usize);
        self.stores.get(s.first_store as usize..end).unwrap_or(&[])
    }

    /// The first step at or after `from` that executes the instruction at
    /// `offset` (a breakpoint).
    pub fn next_at(&self, from: usize, offset: u32) -> Option<usize> {
        self.steps.iter().skip(from).position(|s| s.offset == offset).map(|i| i + from)
    }

    /// A cursor before the first step.
    pub fn cursor(&self) -> Cursor<'_> {
        Cursor { trace: self, at: 0, regs: self.initial.clone() }
    }
}

/// A position in a trace with the registers there: before step
/// [`Cursor::at`] executes (`at == steps.len()` is the end).
#[derive(Clone, Debug)]
pub struct Cursor<'t> {
    trace: &'t Trace,
    at: usize,
    regs: Registers,
}

impl Cursor<'_> {
    /// The next step to execute.
    pub fn at(&self) -> usize {
        self.at
    }

    /// The registers before step [`Cursor::at`].
    pub fn registers(&self) -> &Registers {
        &self.regs
    }

    /// Executes one step from the record; false at the end.
    pub fn forward(&mut self) -> bool {
        if self.at >= self.trace.steps.len() {
            return false;
        }
        for c in self.trace.changes(self.at) {
            self.regs.set(c.reg, c.component, c.new);
        }
        self.at += 1;
        true
    }

    /// Undoes one step; false at the start.
    pub fn back(&mut self) -> bool {
        if self.at == 0 {
            return false;
        }
        self.at -= 1;
        for c in self.trace.changes(self.at).iter().rev() {
            self.regs.set(c.reg, c.component, c.old);
        }
        true
    }

    /// Moves to before step `n` (clamped to the end).
    pub fn seek(&mut self, n: usize) {
        let n = n.min(self.trace.steps.len());
        while self.at < n {
            self.forward();
        }
        while self.at > n {
            self.back();
        }
    }
}

/// The executor's hooks.
pub(crate) trait Recorder {
    /// Whether any hook does anything (a constant, so an untraced run
    /// compiles the hooks away).
    const ON: bool;
    /// Lane `lane` starts the instruction at `offset`.
    fn begin(&mut self, lane: usize, offset: u32);
    /// Lane `lane` writes the `mask` components of `reg`.
    fn wrote(&mut self, lane: usize, reg: Reg, mask: u8, old: [u32; 4], new: [u32; 4]);
    /// Lane `lane` writes word `index` of `memory`.
    fn stored(&mut self, lane: usize, memory: Memory, index: u32, old: u32, new: u32);
}

/// No recording.
pub(crate) struct Off;

impl Recorder for Off {
    const ON: bool = false;
    #[inline(always)]
    fn begin(&mut self, _: usize, _: u32) {}
    #[inline(always)]
    fn wrote(&mut self, _: usize, _: Reg, _: u8, _: [u32; 4], _: [u32; 4]) {}
    #[inline(always)]
    fn stored(&mut self, _: usize, _: Memory, _: u32, _: u32, _: u32) {}
}

struct Rec {
    opts: TraceOptions,
    trace: Trace,
    recording: bool,
}

impl Recorder for Rec {
    const ON: bool = true;
    fn begin(&mut self, lane: usize, offset: u32) {
        if lane != self.opts.lane || !self.recording {
            return;
        }
        if self.trace.steps.len() >= self.opts.max_steps {
            self.trace.truncated = true;
            self.recording = false;
            return;
        }
        let first_change = self.trace.changes.len() as u32;
        let first_store = self.trace.stores.len() as u32;
        self.trace.steps.push(Step { offset, first_change, first_store });
    }

    fn wrote(&mut self, lane: usize, reg: Reg, mask: u8, old: [u32; 4], new: [u32; 4]) {
        if lane != self.opts.lane || !self.recording {
            return;
        }
        for c in 0..4 {
            if mask >> c & 1 == 1 {
                self.trace.changes.push(Change { reg, component: c, old: old[c as usize], new: new[c as usize] });
            }
        }
    }

    fn stored(&mut self, lane: usize, memory: Memory, index: u32, old: u32, new: u32) {
        if lane != self.opts.lane || !self.recording {
            return;
        }
        self.trace.stores.push(Store { memory, index, old, new });
    }
}

/// A traced run: the record, and how the run ended (an error keeps the
/// steps up to the instruction that failed).
#[derive(Clone, Debug)]
pub struct Traced {
    /// The record of the chosen lane.
    pub trace: Trace,
    /// The run's outcome.
    pub result: Result<Stats>,
}

/// [`crate::run`], recording lane `opts.lane` (a lane index out of range
/// records nothing).
pub fn run_traced(
    code: &Code,
    b: &mut Bindings,
    lanes: &mut [Lane],
    grouping: Grouping,
    limits: Limits,
    opts: TraceOptions,
) -> Traced {
    let initial = lanes.get(opts.lane).map(|l| Registers::initial(code, l)).unwrap_or_default();
    let mut rec = Rec { opts, trace: Trace { lane: opts.lane, initial, ..Trace::default() }, recording: true };
    let result = crate::exec::run_with(code, b, lanes, grouping, limits, &mut rec);
    Traced { trace: rec.trace, result }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compile, group_lanes, Buffer, ErrorKind, Resource};

    fn code(text: &str) -> Code {
        let bytes = dxbc::asm::assemble_program(text).unwrap_or_else(|e| panic!("assembling: {e}\n{text}"));
        let (p, errors) = dxbc::program::Program::decode(&bytes, 0);
        assert!(errors.is_empty(), "{errors:?}");
        compile(&p).unwrap()
    }

    fn opts(lane: usize) -> TraceOptions {
        TraceOptions { lane, ..TraceOptions::default() }
    }

    #[test]
    fn steps_record_offsets_and_each_written_component() {
        // 22.11.10: shift counts use their low 5 bits; 22.11.25: udiv by 0
        // gives 0xffffffff in both results; add is IEEE (1.5 + 2.25 = 3.75).
        let c = code(
            "cs_5_0\ndcl_temps 2\ndcl_thread_group 1, 1, 1\n\
             add r0.xy, l(1.500000, 2.000000, 0, 0), l(2.250000, 0.500000, 0, 0)\n\
             ishl r0.z, l(1), l(33)\nudiv r1.x, r1.y, l(7), l(0)\nret\n",
        );
        let mut lanes = group_lanes(&c, [0, 0, 0]);
        let t =
            run_traced(&c, &mut crate::Bindings::default(), &mut lanes, Grouping::Group, Limits::default(), opts(0));
        t.result.unwrap();
        let t = t.trace;
        let offsets: Vec<u32> = c.instruction_offsets().collect();
        assert_eq!(t.steps.iter().map(|s| s.offset).collect::<Vec<_>>(), offsets);
        let ch = |reg, component, old: u32, new: u32| Change { reg, component, old, new };
        assert_eq!(t.changes(0), [ch(Reg::Temp(0), 0, 0, 3.75f32.to_bits()), ch(Reg::Temp(0), 1, 0, 2.5f32.to_bits())]);
        assert_eq!(t.changes(1), [ch(Reg::Temp(0), 2, 0, 2)]);
        assert_eq!(t.changes(2), [ch(Reg::Temp(1), 0, 0, u32::MAX), ch(Reg::Temp(1), 1, 0, u32::MAX)]);
        assert!(t.changes(3).is_empty() && !t.truncated);
    }

    #[test]
    fn the_cursor_steps_forward_and_back_through_the_record() {
        let c = code(
            "cs_5_0\ndcl_temps 1\ndcl_indexableTemp x0[3], 4\ndcl_thread_group 1, 1, 1\n\
             mov r0.x, l(5)\nmov x0[1].y, r0.x\niadd r0.x, r0.x, l(1)\nret\n",
        );
        let mut lanes = group_lanes(&c, [0, 0, 0]);
        let t =
            run_traced(&c, &mut crate::Bindings::default(), &mut lanes, Grouping::Group, Limits::default(), opts(0))
                .trace;
        let mut cur = t.cursor();
        assert_eq!(cur.registers(), &t.initial);
        assert!(cur.forward() && cur.forward());
        assert_eq!(cur.registers().temps, vec![[5, 0, 0, 0]]);
        assert_eq!(cur.registers().indexable, vec![(0, vec![[0; 4], [0, 5, 0, 0], [0; 4]])]);
        assert!(cur.forward() && cur.forward() && !cur.forward());
        assert_eq!(cur.registers().temps, vec![[6, 0, 0, 0]]);
        assert!(cur.back() && cur.back());
        assert_eq!(cur.registers().temps, vec![[5, 0, 0, 0]]);
        cur.seek(0);
        assert_eq!(cur.registers(), &t.initial);
        assert!(!cur.back());
    }

    #[test]
    fn a_breakpoint_finds_each_pass_of_a_loop() {
        let c = code(
            "cs_5_0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nmov r0.x, l(0)\nloop\n\
             uge r0.y, r0.x, l(3)\nbreakc_nz r0.y\niadd r0.x, r0.x, l(1)\nendloop\nret\n",
        );
        let iadd = c.instruction_offsets().nth(4).unwrap();
        let mut lanes = group_lanes(&c, [0, 0, 0]);
        let t =
            run_traced(&c, &mut crate::Bindings::default(), &mut lanes, Grouping::Group, Limits::default(), opts(0))
                .trace;
        let first = t.next_at(0, iadd).unwrap();
        let second = t.next_at(first + 1, iadd).unwrap();
        let third = t.next_at(second + 1, iadd).unwrap();
        assert_eq!(t.next_at(third + 1, iadd), None);
        let mut cur = t.cursor();
        cur.seek(third + 1);
        assert_eq!(cur.registers().temps[0][0], 3);
    }

    #[test]
    fn the_record_is_capped_and_the_budget_still_stops_the_run() {
        let c = code("cs_5_0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nloop\niadd r0.x, r0.x, l(1)\nendloop\nret\n");
        let mut lanes = group_lanes(&c, [0, 0, 0]);
        let t = run_traced(
            &c,
            &mut crate::Bindings::default(),
            &mut lanes,
            Grouping::Group,
            Limits { budget: 1000 },
            TraceOptions { lane: 0, max_steps: 10 },
        );
        assert_eq!(t.result.unwrap_err().kind, ErrorKind::Budget);
        assert_eq!(t.trace.steps.len(), 10);
        assert!(t.trace.truncated);
    }

    #[test]
    fn a_traced_thread_sees_what_its_group_wrote_before_the_barrier() {
        // 7.14 / 18.6: sync_g_t makes every thread's group-shared writes
        // visible to the group; thread 1 reads thread 0's word.
        let c = code(
            "cs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_tgsm_raw g0, 8\ndcl_thread_group 2, 1, 1\n\
             ishl r0.x, vThreadIDInGroup.x, l(2)\niadd r0.y, vThreadIDInGroup.x, l(10)\n\
             store_raw g0.x, r0.x, r0.y\nsync_g_t\nxor r0.z, r0.x, l(4)\nld_raw r0.w, r0.z, g0.xxxx\n\
             store_raw u0.x, r0.x, r0.w\nret\n",
        );
        let mut b = crate::Bindings::default();
        b.uavs.insert(0, Resource::Buffer(Buffer { words: vec![0; 2], ..Buffer::default() }));
        let mut lanes = group_lanes(&c, [0, 0, 0]);
        let t = run_traced(&c, &mut b, &mut lanes, Grouping::Group, Limits::default(), opts(1));
        t.result.unwrap();
        let ld = c.instruction_offsets().nth(5).unwrap();
        let at = t.trace.next_at(0, ld).unwrap();
        assert_eq!(t.trace.changes(at), [Change { reg: Reg::Temp(0), component: 3, old: 0, new: 10 }]);
        assert_eq!(t.trace.steps.len(), 8);
        // Thread 1's stores: g0 word 1 (byte 4) = 1 + 10, then u0 word 1 = thread 0's 0 + 10.
        let store = |memory, index, old, new| Store { memory, index, old, new };
        assert_eq!(t.trace.stores(2), [store(Memory::Groupshared(0), 1, 0, 11)]);
        assert_eq!(t.trace.stores(6), [store(Memory::Uav(0), 1, 0, 10)]);
        assert!((0..8).filter(|&n| n != 2 && n != 6).all(|n| t.trace.stores(n).is_empty()));
        assert!(t.trace.changes(2).is_empty());
    }

    #[test]
    fn atomics_and_typed_stores_record_the_word_they_change() {
        // 22.15.5 atomic_iadd adds to the addressed word; imm_atomic_exch
        // returns the old word and writes the new one; store_uav_typed of a
        // one-channel typed buffer writes one word per element.
        let c = code(
            "cs_5_0\ndcl_uav_raw u0\ndcl_uav_typed_buffer (uint,uint,uint,uint) u1\ndcl_temps 1\n\
             dcl_tgsm_raw g0, 16\ndcl_thread_group 1, 1, 1\n\
             atomic_iadd u0, l(8), l(5)\nimm_atomic_exch r0.x, g0, l(12), l(7)\n\
             store_uav_typed u1.xyzw, l(2), l(9, 9, 9, 9)\nret\n",
        );
        let mut b = crate::Bindings::default();
        b.uavs.insert(0, Resource::Buffer(Buffer { words: vec![1, 2, 3, 4], ..Buffer::default() }));
        let typed = Some((crate::Channel::Uint, 1));
        b.uavs.insert(1, Resource::Buffer(Buffer { words: vec![0; 4], typed, ..Buffer::default() }));
        let mut lanes = group_lanes(&c, [0, 0, 0]);
        let t = run_traced(&c, &mut b, &mut lanes, Grouping::Group, Limits::default(), opts(0));
        t.result.unwrap();
        let store = |memory, index, old, new| Store { memory, index, old, new };
        assert_eq!(t.trace.stores(0), [store(Memory::Uav(0), 2, 3, 8)]);
        assert_eq!(t.trace.stores(1), [store(Memory::Groupshared(0), 3, 0, 7)]);
        assert_eq!(t.trace.changes(1), [Change { reg: Reg::Temp(0), component: 0, old: 0, new: 0 }]);
        assert_eq!(t.trace.stores(2), [store(Memory::Uav(1), 2, 0, 9)]);
    }

    #[test]
    fn a_corpus_pixel_shader_replays_to_its_final_output() {
        // xenia's float24 depth rounding: depth d becomes 2d in 20e4
        // (exponent bias 15) and is decoded back with bias 0x37800000 (2^-16),
        // so the result is d rounded to 20 mantissa bits, ties to even:
        // 0.05 (0x3d4ccccd, dropped bits 101) gives 0x3d4cccd0. fxc's listing
        // has 30 instructions, all straight-line.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/fxc/xenia_float24_round_ps.dxbc");
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("the corpus is missing ({path}): {e}"));
        let shader = dxbc::Shader::parse(&bytes).unwrap();
        let c = crate::compile_shader(&shader).unwrap();
        let mut lanes: Vec<Lane> = (0..4)
            .map(|_| {
                let mut inputs = vec![[0; 4]; c.input_regs as usize];
                inputs[17][2] = 0.05f32.to_bits();
                Lane { inputs, ..Lane::default() }
            })
            .collect();
        let t =
            run_traced(&c, &mut crate::Bindings::default(), &mut lanes, Grouping::Quads, Limits::default(), opts(2));
        t.result.unwrap();
        assert_eq!(t.trace.steps.len(), 30);
        let mut cur = t.trace.cursor();
        cur.seek(usize::MAX);
        assert_eq!(cur.registers().depth, 0x3d4cccd0);
        assert_eq!(lanes[2].depth, 0x3d4cccd0);
    }
}
