//! Which temp components are live, per instruction: a backward dataflow
//! over the DXBC program, one bit per temp component.
//!
//! The lowering (`lower/`) asks two things of it. A write whose value no
//! path reads is not lowered (a pure instruction whose temp destination is
//! all dead emits nothing), and a component-wise instruction computes only
//! its live lanes. A store of a value into its component's variable (at
//! the end of a block, before a loop or a jump) is skipped where the
//! component is dead, so the variable, never read, is not declared.
//!
//! Control flow in DXBC is structured, so the graph comes from matching
//! `if`/`else`/`endif`, `loop`/`endloop` and `switch`/`case`/`endswitch`:
//! a branch continues at the instruction after its `else` (or at its
//! `endif`), `else` at its `endif`, `endloop` at its `loop`, `break` after
//! the innermost loop's or switch's end, `continue` at the loop, `switch`
//! at each of its labels, `ret` nowhere. Loops make the sets grow until a
//! fixpoint. Reads are counted generously where the instruction is not
//! component-wise (every component a source's swizzle names, relative
//! indices always), so an extra read can only keep a value alive.
//!
//! The same graph gives the temps' live ranges ([`Webs`]): a forward pass
//! carries, per component, which definition reaches each basic block, and
//! where paths join with the component live, the definitions arriving
//! there are merged (union-find) into one web: every definition that can
//! reach one read. Each web gets a variable of its own, typed by how that
//! web is used, so a register reused for a float and then for an integer
//! is two typed variables instead of one variable bitcast at every store
//! and load.
//!
//! Programs the graph does not model (subroutines, interface calls, hull
//! shader phases, other stages than vertex, pixel and compute, temps with
//! relative indices, unmatched structure) get no liveness: everything is
//! live, and the lowering is as without this pass.

use crate::regs::{dst_mask, selection};
use dxbc::program::Program;
use dxbc::spec::{destination_count, OpClass, Opcode as O, OperandType as OT, ProgramType};

/// Instructions × 64-bit words beyond which the sets are not computed.
const MAX_WORDS: usize = 1 << 22;
/// Sweeps after which a fixpoint not reached counts as none.
const MAX_SWEEPS: usize = 256;
/// Basic blocks × temp components beyond which webs are not computed
/// (every component then keeps one variable).
const MAX_WEB_CELLS: usize = 1 << 22;

/// Vectors an analysis leaves for the next one on the same thread.
///
/// Why: a small shader's analysis is a few dozen instructions of work over
/// some seventeen vectors, and allocating and freeing them cost more than
/// the work: keeping them saves 2.4 % of the instructions of translating
/// the vkd3d corpus's median fifth (1.7 % of fxc's). A [`Liveness`] gives
/// its vectors back when dropped, the analysis its scratch ones when it
/// ends; a vector over [`KEPT_BYTES`] is freed instead, so a thread keeps
/// little after a large shader.
#[derive(Default)]
struct Room {
    words: Vec<Vec<u64>>,
    numbers: Vec<Vec<u32>>,
    pairs: Vec<Vec<(u32, u32)>>,
    flags: Vec<Vec<bool>>,
    masks: Vec<Vec<Option<u8>>>,
    effects: Vec<Vec<Effect>>,
    touches: Vec<Vec<(u32, Touch)>>,
}

/// The largest vector [`Room`] keeps, in bytes.
const KEPT_BYTES: usize = 1 << 16;
/// How many vectors of one type [`Room`] keeps.
const KEPT_EACH: usize = 8;

thread_local! {
    static ROOM: std::cell::RefCell<Room> = std::cell::RefCell::new(Room::default());
}

/// An empty vector, with the room a previous analysis left where there is one.
fn take<T>(pick: fn(&mut Room) -> &mut Vec<Vec<T>>) -> Vec<T> {
    // `try_`: a thread being torn down, or a nested call, just allocates.
    ROOM.try_with(|r| r.try_borrow_mut().ok().and_then(|mut r| pick(&mut r).pop())).ok().flatten().unwrap_or_default()
}

/// Keeps `v`'s room for the next analysis (emptied), unless it is large or
/// enough are kept.
fn give<T>(pick: fn(&mut Room) -> &mut Vec<Vec<T>>, mut v: Vec<T>) {
    if v.capacity() == 0 || v.capacity() * std::mem::size_of::<T>() > KEPT_BYTES {
        return;
    }
    v.clear();
    let _ = ROOM.try_with(|r| {
        if let Ok(mut r) = r.try_borrow_mut() {
            let kept = pick(&mut r);
            if kept.len() < KEPT_EACH {
                kept.push(v);
            }
        }
    });
}

/// [`take`], filled with `n` copies of `x`.
fn taken_filled<T: Clone>(pick: fn(&mut Room) -> &mut Vec<Vec<T>>, n: usize, x: T) -> Vec<T> {
    let mut v = take(pick);
    v.resize(n, x);
    v
}

fn words_of(r: &mut Room) -> &mut Vec<Vec<u64>> {
    &mut r.words
}
fn numbers(r: &mut Room) -> &mut Vec<Vec<u32>> {
    &mut r.numbers
}
fn pairs(r: &mut Room) -> &mut Vec<Vec<(u32, u32)>> {
    &mut r.pairs
}
fn flags(r: &mut Room) -> &mut Vec<Vec<bool>> {
    &mut r.flags
}
fn masks(r: &mut Room) -> &mut Vec<Vec<Option<u8>>> {
    &mut r.masks
}
fn effect_lists(r: &mut Room) -> &mut Vec<Vec<Effect>> {
    &mut r.effects
}
fn touch_lists(r: &mut Room) -> &mut Vec<Vec<(u32, Touch)>> {
    &mut r.touches
}

impl Drop for Liveness {
    fn drop(&mut self) {
        give(words_of, std::mem::take(&mut self.needed));
        give(masks, std::mem::take(&mut self.dst_live));
        give(flags, std::mem::take(&mut self.narrow));
    }
}

impl Drop for Webs {
    fn drop(&mut self) {
        for v in [&mut self.block_of, &mut self.block_start, &mut self.rows, &mut self.def_at, &mut self.read_at] {
            give(numbers, std::mem::take(v));
        }
        give(pairs, std::mem::take(&mut self.defs));
        give(pairs, std::mem::take(&mut self.reads));
    }
}

/// How an instruction touches one temp register.
#[derive(Clone, Copy, Debug)]
enum Touch {
    /// Writes the components of the mask.
    Def(u8),
    /// Reads the components of the mask.
    Read(u8),
    /// A component-wise instruction's source: lane `c` reads component
    /// `sel[c]`, only when destination component `c` is live.
    Lanes([u8; 4]),
}

/// An instruction's successors: two at most, but for a `switch`.
#[derive(Clone, Debug)]
enum Succ {
    Few([u32; 2], u8),
    Many(Vec<u32>),
}

impl Default for Succ {
    fn default() -> Self {
        Succ::Few([0; 2], 0)
    }
}

impl Succ {
    fn push(&mut self, s: u32) {
        match self {
            Succ::Few(a, k) if (*k as usize) < 2 => {
                a[*k as usize] = s;
                *k += 1;
            }
            Succ::Few(a, k) => *self = Succ::Many(a[..*k as usize].iter().copied().chain([s]).collect()),
            Succ::Many(v) => v.push(s),
        }
    }
    fn as_slice(&self) -> &[u32] {
        match self {
            Succ::Few(a, k) => &a[..*k as usize],
            Succ::Many(v) => v,
        }
    }
}

/// What one instruction does to temps.
#[derive(Clone, Debug, Default)]
struct Effect {
    /// Its touches: `touches[start..end]` of the analysis.
    start: u32,
    end: u32,
    /// The single temp destination (register, mask) of an instruction that
    /// can be left out (pure) or narrowed (component-wise).
    dst: Option<(u32, u8)>,
    /// Component-wise: only live lanes are computed.
    narrow: bool,
    /// Successors (indices; `n` is the program's end).
    succ: Succ,
    /// Where a `break` or `continue` (conditional or not) goes.
    jump: Option<u32>,
    /// A flow instruction (its stores serve what follows it only).
    flow: bool,
}

/// Per instruction, the temp components live before and after it.
#[derive(Debug)]
pub(crate) struct Liveness {
    words: usize,
    /// Per instruction: the components a store made while lowering it
    /// serves (see [`Liveness::needed`]).
    needed: Vec<u64>,
    /// Per instruction: the live part of its narrowable or removable temp
    /// destination (`None`: not such an instruction).
    dst_live: Vec<Option<u8>>,
    narrow: Vec<bool>,
    /// The temps' live ranges (`None`: one variable per component).
    webs: Option<Webs>,
}

/// The live ranges of temp components. A web is named by a number unique
/// over the program; the definitions of one web and the reads they reach
/// share its variable.
#[derive(Debug)]
pub(crate) struct Webs {
    comps: usize,
    /// Per instruction: its basic block.
    block_of: Vec<u32>,
    /// Per block: its first instruction.
    block_start: Vec<u32>,
    /// Per block × component (`reg * 4 + c`): the web of the value
    /// reaching the block.
    rows: Vec<u32>,
    /// Per instruction, the start of its definitions in `defs` (`n + 1` entries).
    def_at: Vec<u32>,
    /// (component, web) of each definition, grouped by instruction.
    defs: Vec<(u32, u32)>,
    /// Per instruction, the start of its reads in `reads` (`n + 1` entries).
    read_at: Vec<u32>,
    /// (component, web) of each component an instruction reads.
    reads: Vec<(u32, u32)>,
    /// Union-find nodes: one per component (its start value), one per definition.
    nodes: usize,
}

impl Webs {
    /// The web of the value of (`reg`, `c`) that reaches instruction `i`
    /// (the one it reads).
    pub(crate) fn read(&self, i: usize, reg: u32, c: u8) -> Option<u32> {
        let comp = reg * 4 + c as u32;
        if comp as usize >= self.comps {
            return None;
        }
        let b = *self.block_of.get(i)? as usize;
        let row = |comp: u32| self.rows.get(b * self.comps + comp as usize).copied();
        if self.block_start[b] as usize == i {
            return row(comp);
        }
        let range = self.read_at[i] as usize..self.read_at[i + 1] as usize;
        if let Some(r) = self.reads[range].iter().find(|r| r.0 == comp) {
            return Some(r.1);
        }
        // A read the analysis did not record: the last write before it in its block.
        (self.block_start[b] as usize..i).rev().find_map(|j| self.written(j, reg, c)).or_else(|| row(comp))
    }

    /// Web numbers are below this.
    pub(crate) fn count(&self) -> usize {
        self.nodes
    }

    /// The web of the value instruction `i` writes into (`reg`, `c`).
    pub(crate) fn written(&self, i: usize, reg: u32, c: u8) -> Option<u32> {
        let comp = reg * 4 + c as u32;
        let range = *self.def_at.get(i)? as usize..*self.def_at.get(i + 1)? as usize;
        self.defs.get(range)?.iter().find(|d| d.0 == comp).map(|d| d.1)
    }
}

/// Union-find root of `x`, halving the path on the way.
fn root(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// The components instruction touches `t` read (all lanes of a
/// component-wise source: an extra read only joins webs).
fn read_comps(t: Touch) -> u8 {
    match t {
        Touch::Def(_) => 0,
        Touch::Read(mask) => mask,
        Touch::Lanes(sel) => sel.iter().fold(0, |m, &c| m | 1 << (c & 3)),
    }
}

/// The webs of the program whose effects, touches and live-in sets are
/// given; `None` when too large. Nodes `0..comps` are the values each
/// component has at the start (zero); each definition is a node after them.
/// Values are carried per basic block (a flow instruction is a block of
/// its own, and so is every jump target), within a block in order.
fn webs(
    effects: &[Effect],
    touches: &[(u32, Touch)],
    live_in: &[u64],
    words: usize,
    temps: u32,
    back_edges: bool,
) -> Option<Webs> {
    let n = effects.len();
    let comps = temps as usize * 4;
    if n == 0 {
        return None;
    }
    // A definition node per component a write names, at most: sized once.
    let most_defs = touches.iter().map(|(_, t)| if let Touch::Def(m) = t { m.count_ones() as usize } else { 0 }).sum();
    let mut parent: Vec<u32> = take(numbers);
    parent.reserve(comps + most_defs);
    parent.extend(0..comps as u32);
    let mut def_at = take(numbers);
    def_at.reserve(n + 1);
    let mut defs: Vec<(u32, u32)> = take(pairs);
    defs.reserve(most_defs);
    for e in effects {
        let first = defs.len();
        def_at.push(first as u32);
        for &(reg, t) in &touches[e.start as usize..e.end as usize] {
            let Touch::Def(mask) = t else { continue };
            for c in (0..4u32).filter(|c| mask & (1 << c) != 0) {
                let comp = reg * 4 + c;
                if !defs[first..].iter().any(|d| d.0 == comp) {
                    let node = parent.len() as u32;
                    parent.push(node);
                    defs.push((comp, node));
                }
            }
        }
    }
    def_at.push(defs.len() as u32);
    // Blocks: a leader starts each.
    let mut leader = taken_filled(flags, n, false);
    leader[0] = true;
    for (j, e) in effects.iter().enumerate() {
        let succ = e.succ.as_slice();
        if e.flow {
            leader[j] = true;
        }
        if (e.flow || succ != [j as u32 + 1]) && j + 1 < n {
            leader[j + 1] = true;
        }
        // A jump's target (a fall-through's is the next instruction).
        for &t in succ.iter().filter(|&&t| (t as usize) < n && t as usize != j + 1) {
            leader[t as usize] = true;
        }
    }
    let mut block_of = take(numbers);
    block_of.reserve(n);
    let mut block_start: Vec<u32> = take(numbers);
    block_start.reserve(leader.iter().filter(|&&l| l).count());
    for (i, &l) in leader.iter().enumerate() {
        if l {
            block_start.push(i as u32);
        }
        block_of.push(block_start.len() as u32 - 1);
    }
    give(flags, leader);
    let blocks = block_start.len();
    if comps.saturating_mul(blocks) > MAX_WEB_CELLS {
        return None;
    }
    let block_end = |b: usize| block_start.get(b + 1).map_or(n, |&e| e as usize);
    const NONE: u32 = u32::MAX;
    // A row is unreached (all NONE) until a predecessor reaches it; then
    // every cell holds a node (not always its root: roots are taken where
    // values meet, and once at the end).
    let mut rows = taken_filled(numbers, blocks * comps, NONE);
    rows[..comps].iter_mut().enumerate().for_each(|(c, r)| *r = c as u32);
    let mut out = taken_filled(numbers, comps, NONE);
    let mut converged = false;
    for _ in 0..MAX_SWEEPS {
        let mut changed = false;
        for b in 0..blocks {
            if comps == 0 || rows[b * comps] == NONE {
                continue;
            }
            out.copy_from_slice(&rows[b * comps..(b + 1) * comps]);
            let last = block_end(b) - 1;
            for &(comp, node) in &defs[def_at[block_start[b] as usize] as usize..def_at[last + 1] as usize] {
                out[comp as usize] = node;
            }
            for &s in effects[last].succ.as_slice() {
                let s = s as usize;
                if s >= n {
                    continue;
                }
                let sb = block_of[s] as usize;
                let row = &mut rows[sb * comps..(sb + 1) * comps];
                if row[0] == NONE {
                    row.copy_from_slice(&out);
                    changed = true;
                    continue;
                }
                if *row == out[..] {
                    continue;
                }
                let live = &live_in[s * words..(s + 1) * words];
                for (comp, (cell, &v)) in row.iter_mut().zip(&out).enumerate() {
                    if *cell == v {
                        continue;
                    }
                    let (a, b) = (root(&mut parent, *cell), root(&mut parent, v));
                    if a == b {
                        *cell = a;
                    } else if bit(live, comp as u32 / 4, (comp % 4) as u8) {
                        // Where the component is dead, no read tells the values apart.
                        let (lo, hi) = (a.min(b), a.max(b));
                        parent[hi as usize] = lo;
                        *cell = lo;
                        changed = true;
                    }
                }
            }
        }
        // Without a back edge every successor comes later: one sweep is exact.
        if !changed || !back_edges {
            converged = true;
            break;
        }
    }
    if !converged {
        return None;
    }
    for (k, r) in rows.iter_mut().enumerate() {
        // A block no path reaches reads the start values.
        let x = if *r == NONE { (k % comps) as u32 } else { *r };
        *r = root(&mut parent, x);
    }
    for d in defs.iter_mut() {
        d.1 = root(&mut parent, d.1);
    }
    // What each instruction reads, from its block's row and the writes before it.
    let mut read_at = take(numbers);
    read_at.reserve(n + 1);
    let mut reads: Vec<(u32, u32)> = take(pairs);
    for b in 0..blocks {
        out.copy_from_slice(&rows[b * comps..(b + 1) * comps]);
        for i in block_start[b] as usize..block_end(b) {
            let first = reads.len();
            read_at.push(first as u32);
            let e = &effects[i];
            for &(reg, t) in &touches[e.start as usize..e.end as usize] {
                let m = read_comps(t);
                for c in (0..4u32).filter(|c| m & (1 << c) != 0) {
                    let comp = reg * 4 + c;
                    if (comp as usize) < comps && !reads[first..].iter().any(|r| r.0 == comp) {
                        reads.push((comp, out[comp as usize]));
                    }
                }
            }
            for &(comp, web) in &defs[def_at[i] as usize..def_at[i + 1] as usize] {
                out[comp as usize] = web;
            }
        }
    }
    read_at.push(reads.len() as u32);
    let nodes = parent.len();
    give(numbers, parent);
    give(numbers, out);
    Some(Webs { comps, block_of, block_start, rows, def_at, defs, read_at, reads, nodes })
}

fn bit(words: &[u64], reg: u32, c: u8) -> bool {
    let b = reg as usize * 4 + c as usize;
    words.get(b / 64).is_some_and(|w| w & (1 << (b % 64)) != 0)
}

fn set(words: &mut [u64], reg: u32, c: u8, on: bool) {
    let b = reg as usize * 4 + c as usize;
    if let Some(w) = words.get_mut(b / 64) {
        if on {
            *w |= 1 << (b % 64);
        } else {
            *w &= !(1 << (b % 64));
        }
    }
}

impl Liveness {
    /// Whether a store of temp component (`reg`, `c`) into its variable,
    /// made while lowering instruction `i`, can be read: for a `break` or
    /// `continue`, the component is live where it goes; for other flow
    /// instructions, live after it; for the rest (whose emulations may
    /// open blocks of their own), live before or after it.
    pub(crate) fn needed(&self, i: usize, reg: u32, c: u8) -> bool {
        self.needed.get(i * self.words..(i + 1) * self.words).is_none_or(|w| bit(w, reg, c))
    }

    /// For a pure instruction with one temp destination: the components of
    /// it that are live after it (0: the instruction can be left out).
    pub(crate) fn live_dst(&self, i: usize) -> Option<u8> {
        self.dst_live.get(i).copied().flatten()
    }

    /// The temps' live ranges, where computed.
    pub(crate) fn webs(&self) -> Option<&Webs> {
        self.webs.as_ref()
    }

    /// Whether instruction `i` computes only its live lanes.
    pub(crate) fn narrows(&self, i: usize) -> bool {
        self.narrow.get(i).copied().unwrap_or(false)
    }
}

/// Opcodes with no effect but their destination.
fn pure(code: O) -> bool {
    matches!(code.info().class, OpClass::Alu | OpClass::Resource)
        && !matches!(code, O::StoreRaw | O::StoreStructured | O::StoreUavTyped)
}

/// The temp component liveness of `p`, or `None` where it is not modelled.
pub(crate) fn analyse(p: &Program) -> Option<Liveness> {
    let stage = ProgramType::from_u32(p.version.program_type());
    if !matches!(stage, Some(ProgramType::PixelShader | ProgramType::VertexShader | ProgramType::ComputeShader)) {
        return None;
    }
    // Without temps there is nothing to track (most small shaders).
    if !p.operands.iter().any(|op| op.operand_type() == Some(OT::Temp)) {
        return None;
    }
    let n = p.instructions.len();
    let mut effects: Vec<Effect> = taken_filled(effect_lists, n, Effect::default());
    let mut touches: Vec<(u32, Touch)> = take(touch_lists);
    touches.reserve(2 * n);
    let mut temps: u32 = 0;
    for (i, ins) in p.instructions.iter().enumerate() {
        if ins.is_customdata() {
            continue;
        }
        let code = ins.op()?;
        if matches!(
            code,
            O::Label
                | O::Call
                | O::Callc
                | O::InterfaceCall
                | O::HsDecls
                | O::HsControlPointPhase
                | O::HsForkPhase
                | O::HsJoinPhase
        ) {
            return None;
        }
        if code.info().class == OpClass::Decl {
            continue;
        }
        let e = &mut effects[i];
        let n_dst = destination_count(code.info());
        let single_temp_dst = n_dst == 1 && ins.operand(p, 0).is_some_and(|op| op.operand_type() == Some(OT::Temp));
        e.narrow = single_temp_dst && crate::lower::component_wise(code);
        e.start = touches.len() as u32;
        for (k, &id) in ins.ops.as_slice().iter().enumerate() {
            let role = if k < n_dst {
                Role::Dst
            } else if e.narrow {
                Role::Lanes
            } else {
                Role::Src
            };
            touch(p, id, role, 0, &mut touches, &mut temps)?;
        }
        e.end = touches.len() as u32;
        if single_temp_dst && pure(code) {
            e.dst = touches[e.start as usize..e.end as usize].iter().find_map(|&(reg, t)| match t {
                Touch::Def(mask) => Some((reg, mask)),
                _ => None,
            });
        }
    }
    // Without a back edge every successor comes later: one sweep is exact.
    let back_edges = successors(p, &mut effects)?;
    if temps == 0 {
        return None;
    }
    let words = (temps as usize * 4).div_ceil(64).max(1);
    if words.saturating_mul(n) > MAX_WORDS {
        return None;
    }
    let mut live_in = taken_filled(words_of, n * words, 0);
    let mut live_out = taken_filled(words_of, n * words, 0);
    let mut dst_live: Vec<Option<u8>> = take(masks);
    dst_live.extend(effects.iter().map(|e| e.dst.map(|_| 0)));
    // What flows out of and into the instruction being looked at, in one buffer.
    let mut scratch = taken_filled(words_of, 2 * words, 0);
    let (out, inn) = scratch.split_at_mut(words);
    let mut sweeps = 0;
    loop {
        let mut changed = false;
        for i in (0..n).rev() {
            let e = &effects[i];
            out.iter_mut().for_each(|w| *w = 0);
            for &s in e.succ.as_slice() {
                let s = s as usize;
                if s < n {
                    for (o, w) in out.iter_mut().zip(&live_in[s * words..(s + 1) * words]) {
                        *o |= w;
                    }
                }
            }
            inn.copy_from_slice(out);
            // What the destination leaves live, and whether it is computed at all.
            let live = e.dst.map(|(reg, mask)| {
                (0..4u8).filter(|c| mask & (1 << c) != 0 && bit(out, reg, *c)).fold(0u8, |m, c| m | 1 << c)
            });
            let mine = &touches[e.start as usize..e.end as usize];
            for &(reg, t) in mine {
                if let Touch::Def(mask) = t {
                    for c in (0..4u8).filter(|c| mask & (1 << c) != 0) {
                        set(inn, reg, c, false);
                    }
                }
            }
            if live != Some(0) {
                // A component-wise instruction's lane c reads lane c's selector.
                let lanes = if e.narrow { live.unwrap_or(0xf) } else { 0xf };
                let dst = e.dst.map_or(0xf, |(_, m)| m);
                for &(reg, t) in mine {
                    match t {
                        Touch::Def(_) => {}
                        Touch::Read(mask) => {
                            for c in (0..4u8).filter(|c| mask & (1 << c) != 0) {
                                set(inn, reg, c, true);
                            }
                        }
                        Touch::Lanes(sel) => {
                            for c in (0..4usize).filter(|c| lanes & dst & (1 << c) != 0) {
                                set(inn, reg, sel[c], true);
                            }
                        }
                    }
                }
            }
            let at = i * words..(i + 1) * words;
            if live_out[at.clone()] != *out || live_in[at.clone()] != *inn {
                live_out[at.clone()].copy_from_slice(out);
                live_in[at].copy_from_slice(inn);
                changed = true;
            }
            if let Some(l) = live {
                dst_live[i] = Some(l);
            }
        }
        sweeps += 1;
        if !changed || !back_edges {
            break;
        }
        if sweeps >= MAX_SWEEPS {
            return None;
        }
    }
    // What each instruction's stores serve, written over its live-out set
    // (not needed after this).
    let mut needed = live_out;
    for (i, e) in effects.iter().enumerate() {
        let at = i * words..(i + 1) * words;
        let to = &mut needed[at.clone()];
        match e.jump.map(|t| t as usize) {
            Some(t) if t < n => to.copy_from_slice(&live_in[t * words..(t + 1) * words]),
            Some(_) => to.fill(0),
            None if e.flow => {}
            None => {
                for (w, a) in to.iter_mut().zip(&live_in[at]) {
                    *w |= a;
                }
            }
        }
    }
    give(words_of, scratch);
    let mut narrow = take(flags);
    narrow.extend(effects.iter().map(|e| e.narrow));
    let webs = webs(&effects, &touches, &live_in, words, temps, back_edges);
    give(words_of, live_in);
    give(effect_lists, effects);
    give(touch_lists, touches);
    Some(Liveness { words, needed, dst_live, narrow, webs })
}

/// How an instruction uses an operand.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Dst,
    Src,
    /// A source of a component-wise instruction.
    Lanes,
}

/// Records how operand `id` (and the relative indices inside it, always
/// read) touch temps; `None` for a temp this analysis does not model.
fn touch(p: &Program, id: u32, role: Role, depth: usize, out: &mut Vec<(u32, Touch)>, temps: &mut u32) -> Option<()> {
    let op = p.operands.get(id as usize).filter(|_| depth < 8)?;
    if op.operand_type() == Some(OT::Temp) {
        if op.index_dim() != 1 || op.index_representation(0).is_none_or(|r| r.is_relative()) {
            return None;
        }
        let reg = u32::try_from(op.index[0].imm).ok().filter(|&r| r < 1 << 20)?;
        *temps = (*temps).max(reg + 1);
        let t = match role {
            Role::Dst => Touch::Def((dst_mask(op) & 0xf) as u8),
            Role::Lanes => Touch::Lanes(selection(op).map(|c| (c & 3) as u8)),
            Role::Src => Touch::Read(selection(op).iter().fold(0u8, |m, &c| m | 1 << (c & 3))),
        };
        out.push((reg, t));
    }
    for d in 0..op.index_dim() {
        let rel = op.index[d].rel;
        if rel != dxbc::program::NO_OPERAND && op.index_representation(d).is_some_and(|r| r.is_relative()) {
            touch(p, rel, Role::Src, depth + 1, out, temps)?;
        }
    }
    Some(())
}

/// An open construct while matching the structure.
enum Open {
    If { at: usize, else_at: Option<usize> },
    Loop { at: usize, breaks: Vec<usize> },
    Switch { at: usize, labels: Vec<usize>, default: bool, breaks: Vec<usize> },
}

/// Fills in every instruction's successors; `None` on unmatched structure.
/// Says whether any goes back (`endloop`, `continue`).
fn successors(p: &Program, effects: &mut [Effect]) -> Option<bool> {
    let mut back_edges = false;
    let n = p.instructions.len();
    let mut open: Vec<Open> = Vec::new();
    for (i, ins) in p.instructions.iter().enumerate() {
        let next = i as u32 + 1;
        let code = if ins.is_customdata() { None } else { ins.op() };
        let succ: Succ = match code {
            Some(O::If) => {
                open.push(Open::If { at: i, else_at: None });
                Succ::default() // set at endif
            }
            Some(O::Else) => match open.last_mut() {
                Some(Open::If { else_at: e @ None, .. }) => {
                    *e = Some(i);
                    Succ::default() // set at endif
                }
                _ => return None,
            },
            Some(O::Endif) => match open.pop() {
                Some(Open::If { at, else_at }) => {
                    effects[at].succ = Succ::Few([at as u32 + 1, else_at.map_or(i as u32, |e| e as u32 + 1)], 2);
                    if let Some(e) = else_at {
                        effects[e].succ = Succ::Few([i as u32, 0], 1);
                    }
                    Succ::Few([next, 0], 1)
                }
                _ => return None,
            },
            Some(O::Loop) => {
                back_edges = true;
                open.push(Open::Loop { at: i, breaks: Vec::new() });
                Succ::Few([next, 0], 1)
            }
            Some(O::Endloop) => match open.pop() {
                Some(Open::Loop { at, breaks }) => {
                    for b in breaks {
                        effects[b].succ.push(next);
                        effects[b].jump = Some(next);
                    }
                    Succ::Few([at as u32, 0], 1)
                }
                _ => return None,
            },
            Some(O::Switch) => {
                open.push(Open::Switch { at: i, labels: Vec::new(), default: false, breaks: Vec::new() });
                Succ::default() // set at endswitch
            }
            Some(O::Case | O::Default) => match open.last_mut() {
                Some(Open::Switch { labels, default, .. }) => {
                    labels.push(i);
                    *default |= code == Some(O::Default);
                    Succ::Few([next, 0], 1)
                }
                _ => return None,
            },
            Some(O::Endswitch) => match open.pop() {
                Some(Open::Switch { at, labels, default, breaks }) => {
                    let mut s: Vec<u32> = labels.iter().map(|&l| l as u32).collect();
                    if !default {
                        s.push(i as u32);
                    }
                    effects[at].succ = Succ::Many(s);
                    for b in breaks {
                        effects[b].succ.push(next);
                        effects[b].jump = Some(next);
                    }
                    Succ::Few([next, 0], 1)
                }
                _ => return None,
            },
            Some(O::Break | O::Breakc) => {
                let target = open.iter_mut().rev().find_map(|o| match o {
                    Open::Loop { breaks, .. } | Open::Switch { breaks, .. } => Some(breaks),
                    Open::If { .. } => None,
                });
                // With none open, `break` ends the program.
                if let Some(breaks) = target {
                    breaks.push(i);
                }
                if code == Some(O::Breakc) {
                    Succ::Few([next, 0], 1)
                } else {
                    Succ::default()
                }
            }
            Some(O::Continue | O::Continuec) => {
                let head = open.iter().rev().find_map(|o| match o {
                    Open::Loop { at, .. } => Some(*at as u32),
                    _ => None,
                })?;
                effects[i].jump = Some(head);
                if code == Some(O::Continuec) {
                    Succ::Few([next, head], 2)
                } else {
                    Succ::Few([head, 0], 1)
                }
            }
            Some(O::Ret) => Succ::default(),
            _ => Succ::Few([next, 0], 1),
        };
        effects[i].flow = code.is_some_and(|c| c.info().class == OpClass::Flow);
        if !(code == Some(O::If) || code == Some(O::Else) || code == Some(O::Switch)) {
            effects[i].succ = succ;
        }
    }
    if !open.is_empty() {
        return None;
    }
    debug_assert!(effects.iter().all(|e| e.succ.as_slice().iter().all(|&s| s as usize <= n)));
    Some(back_edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn liveness_of(listing: &str) -> (Program, Liveness) {
        let bytes = dxbc::asm::assemble(listing).expect("assembles");
        let shader = dxbc::Shader::parse(&bytes).expect("parses");
        let p = shader.program.expect("has a program");
        let lv = analyse(&p).expect("modelled");
        (p, lv)
    }

    /// An analysis made in vectors a previous one left ([`Room`]) equals one
    /// made on a fresh thread, for every fxc corpus shader, analysed largest,
    /// smallest, next largest, … so that each follows one of a very
    /// different size.
    #[test]
    fn kept_room_analyses_as_a_fresh_thread_does() {
        let mut files: Vec<(usize, std::path::PathBuf, Vec<u8>)> = crate::test_corpus::fxc_files()
            .into_iter()
            .filter_map(|(p, bytes)| {
                let n = dxbc::Shader::parse(&bytes).ok()?.program?.instructions.len();
                Some((n, p, bytes))
            })
            .collect();
        files.sort();
        let analysed = |bytes: &[u8]| {
            let p = dxbc::Shader::parse(bytes).ok().and_then(|s| s.program);
            p.map(|p| format!("{:?}", analyse(&p)))
        };
        let mut modelled = 0;
        for i in crate::test_corpus::largest_then_smallest(files.len()) {
            let (_, path, bytes) = &files[i];
            let kept = analysed(bytes);
            let owned = bytes.clone();
            let fresh = std::thread::spawn(move || analysed(&owned)).join().expect("fresh thread");
            assert!(kept == fresh, "{}: liveness differs", path.display());
            modelled += kept.is_some_and(|k| k != "None") as usize;
        }
        assert!(modelled > 300, "{modelled} fxc shaders analysed");
    }

    /// The index of the `n`th instruction (0-based) that is no declaration.
    fn nth_body(p: &Program, n: usize) -> usize {
        let body: Vec<usize> = (0..p.instructions.len())
            .filter(|&i| p.instructions[i].info().is_some_and(|info| info.class != OpClass::Decl))
            .collect();
        body[n]
    }

    #[test]
    fn a_register_reused_for_another_value_is_another_web() {
        // r0.x holds a float (0, 1), then an integer (2, 3): two webs. The
        // `if` writes r1.x on one path only, so the read after it (5) sees
        // both the write before the `if` (4) and the one inside it: one web.
        let (p, lv) = liveness_of(
            "ps_4_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n\
             add r0.x, v0.x, l(1.000000)\n\
             mul r1.y, r0.x, r0.x\n\
             ftoi r0.x, v0.y\n\
             iadd r1.z, r0.x, l(1)\n\
             mov r1.x, l(0)\n\
             if_nz v0.z\n\
             mov r1.x, l(2)\n\
             endif\n\
             mov o0.xyzw, r1.xyzx\n\
             ret\n",
        );
        let w = lv.webs().expect("webs");
        let (add, mul, ftoi, iadd) = (nth_body(&p, 0), nth_body(&p, 1), nth_body(&p, 2), nth_body(&p, 3));
        let float = w.written(add, 0, 0).unwrap();
        assert_eq!(w.read(mul, 0, 0), Some(float));
        let int = w.written(ftoi, 0, 0).unwrap();
        assert_eq!(w.read(iadd, 0, 0), Some(int));
        assert_ne!(float, int);
        let (before, inside, out) = (nth_body(&p, 4), nth_body(&p, 6), nth_body(&p, 8));
        assert_eq!(w.written(before, 1, 0), w.read(out, 1, 0));
        assert_eq!(w.written(inside, 1, 0), w.read(out, 1, 0));
        // Nothing else reaches the output: the value r1.x starts with is
        // overwritten on every path, so it is a web of its own.
        assert_ne!(w.read(add, 1, 0), w.read(out, 1, 0));
    }

    #[test]
    fn a_loop_counter_is_one_web_across_the_back_edge() {
        let (p, lv) = liveness_of(
            "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\n\
             mov r0.x, l(0)\n\
             loop\n\
             ige r0.y, r0.x, l(4)\n\
             breakc_nz r0.y\n\
             iadd r0.x, r0.x, l(1)\n\
             endloop\n\
             mov o0.xyzw, r0.xxxx\n\
             ret\n",
        );
        let w = lv.webs().expect("webs");
        let (init, test, step, out) = (nth_body(&p, 0), nth_body(&p, 2), nth_body(&p, 4), nth_body(&p, 6));
        let web = w.written(init, 0, 0).unwrap();
        assert_eq!(w.written(step, 0, 0), Some(web));
        assert_eq!(w.read(test, 0, 0), Some(web));
        assert_eq!(w.read(step, 0, 0), Some(web));
        assert_eq!(w.read(out, 0, 0), Some(web));
    }

    #[test]
    fn dead_lanes_and_writes_follow_d3d_semantics() {
        // 0: the add reads r0.x and r0.z (its lanes x, y through .xz), r0.y
        // is written by the add before the output reads it, r0.w never read;
        // 1: r1 is overwritten before any read; 2: the add reads r1.xy.
        let (p, lv) = liveness_of(
            "ps_4_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n\
             mov r0.xyzw, v0.xyzw\n\
             mov r1.xyzw, v0.wzyx\n\
             mov r1.xyzw, l(1.000000,1.000000,1.000000,1.000000)\n\
             add r0.xy, r0.xzxx, r1.xyxx\n\
             mov o0.xyzw, r0.xyxy\n\
             ret\n",
        );
        assert_eq!(lv.live_dst(nth_body(&p, 0)), Some(0b0101));
        assert!(lv.narrows(nth_body(&p, 0)));
        assert_eq!(lv.live_dst(nth_body(&p, 1)), Some(0));
        assert_eq!(lv.live_dst(nth_body(&p, 2)), Some(0b0011));
        assert_eq!(lv.live_dst(nth_body(&p, 3)), Some(0b0011));
    }

    #[test]
    fn loops_carry_values_round_the_back_edge() {
        // r0.x counts (read at the head on every iteration); r0.y is written
        // in the body and read only after it, by the `break`'s target;
        // r0.z is written in the body and never read.
        let (p, lv) = liveness_of(
            "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\n\
             mov r0.xy, l(0,0,0,0)\n\
             loop\n\
             ige r0.w, r0.x, l(4)\n\
             breakc_nz r0.w\n\
             iadd r0.x, r0.x, l(1)\n\
             mov r0.yz, r0.xxxx\n\
             endloop\n\
             mov o0.xyzw, r0.yyyy\n\
             ret\n",
        );
        let (init, breakc, body_mov) = (nth_body(&p, 0), nth_body(&p, 3), nth_body(&p, 5));
        assert_eq!(lv.live_dst(init), Some(0b0011));
        assert_eq!(lv.live_dst(body_mov), Some(0b0010));
        // At the `breakc`, a store serves the code after the loop: r0.y, not
        // the condition r0.w nor the counter r0.x.
        assert!(lv.needed(breakc, 0, 1));
        assert!(!lv.needed(breakc, 0, 0));
        assert!(!lv.needed(breakc, 0, 3));
        // At the `endloop`, the next iteration needs r0.x (the head reads it)
        // and r0.y (it may leave through the `breakc` before writing it).
        let endloop = nth_body(&p, 6);
        assert!(lv.needed(endloop, 0, 0) && lv.needed(endloop, 0, 1));
        assert!(!lv.needed(endloop, 0, 2) && !lv.needed(endloop, 0, 3));
    }

    #[test]
    fn subroutines_are_not_modelled() {
        let bytes = dxbc::asm::assemble(
            "vs_4_0\ndcl_output o0.xyzw\ndcl_temps 1\nmov r0.xyzw, l(0,0,0,0)\ncall l0\nmov o0.xyzw, r0.xyzw\nret\n\
             label l0\nmov r0.x, l(1)\nret\n",
        )
        .expect("assembles");
        let shader = dxbc::Shader::parse(&bytes).expect("parses");
        assert!(analyse(shader.program.as_ref().expect("has a program")).is_none());
    }
}
