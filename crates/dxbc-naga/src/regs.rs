//! The temp register model: typed values, not typed storage (design in
//! `lower/`). Each temp component holds its current value — an
//! immediate's bits, a component of a naga expression with its kind, or
//! "in its variable" — and only values that cross a naga block boundary go
//! through a (scalar, typed) local variable: one per live range (web, see
//! `liveness.rs`) where the program's flow is modelled, else one per
//! component.

use crate::lower::{Lanes, Lower, H, K};
use crate::TranslateError;
use dxbc::program::{Instruction, Program};
use dxbc::spec::{
    NumComponents, OpClass, Opcode as O, OperandType as OT, ResourceDimension as RD, SelectionMode,
    DCL_RESOURCE_CONTROLS,
};
use naga::{Expression as E, Handle, Literal, LocalVariable, Span, Statement as S, TypeInner, VectorSize};
use std::collections::{BTreeMap, BTreeSet};

/// Where a temp component's current value is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value {
    /// An immediate's bits: each reader builds the literal in its own kind.
    Imm(u32),
    /// Component `comp` of `h` (`None`: `h` is a scalar) of kind `k`.
    Expr { h: H, comp: Option<u8>, k: K },
    /// In the component's variable.
    Var,
    /// A comparison's result, component `comp` of bool expression `h`
    /// (`None`: a scalar): D3D's mask is all ones for true. Conditions read
    /// the bool; other readers build the mask.
    Bool { h: H, comp: Option<u8> },
}

/// One temp component.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Slot {
    pub(crate) now: Value,
    /// The value is not (yet) in the variable.
    pub(crate) dirty: bool,
    /// The web of the definition that wrote the value ([`NO_WEB`] where
    /// webs are not computed).
    pub(crate) web: u32,
}

impl Slot {
    /// A temp before its first write: zero, as its variable starts.
    pub(crate) const ZERO: Slot = Slot { now: Value::Imm(0), dirty: false, web: NO_WEB };
    /// A value in its variable.
    const IN_VAR: Slot = Slot { now: Value::Var, dirty: false, web: NO_WEB };
}

/// A temp component's variable and its kind.
pub(crate) type CompVar = (Handle<LocalVariable>, K);

/// A temp component: register and component (0..4).
pub(crate) type Comp = (u32, u8);

/// The web of every value where webs are not computed: one variable per component.
pub(crate) const NO_WEB: u32 = u32::MAX;

/// A variable's key: the component and its web.
pub(crate) type VarKey = (Comp, u32);

/// Loads that stay valid while the block they were made in is open
/// (constant-buffer rows, input and system-value input registers never
/// change in a body).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum LoadKey {
    /// `cb#[row]` as kind.
    Cbuffer(u32, u32, u8),
    /// Member (and register of it, `u32::MAX`: the whole member) of the
    /// struct of `cb#`, in its own kind.
    CbMember(u32, u32, u32),
    /// The vector of a split variable of `cb#` by its first lane's member.
    CbSplit(u32, u32),
    /// `v#` as kind.
    Input(u32, u8),
    /// A system-value input register (by operand type) as kind.
    Special(u32, u8),
    /// A private global a compute form's entry point sets before the body
    /// runs and the body only reads (the invocation's index, a hull or
    /// domain pass's primitive and control-point ids), by its handle.
    Stage(u32),
    /// A record register a compute-form pass only reads: operand type,
    /// its two static indices (vertex or point, register), kind.
    Record(u32, u32, u32, u8),
    /// The lanes of a loaded value named after the constant-buffer
    /// variable they hold: the value's handle index, the lanes packed two
    /// bits each after their count.
    NamedLanes(u32, u32),
    /// A memory address's word arithmetic (`addr / 4u`, `i * 3u`): the
    /// operator, the left operand's handle index, and the right operand,
    /// a literal's value (`true`) or a handle index.
    Word(u8, u32, u32, bool),
}

/// The register state of an open construct.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scope {
    /// The temps when it opened: each of its blocks starts from them.
    entry: Vec<[Slot; 4]>,
    loads: BTreeMap<LoadKey, H>,
    /// Components written inside it (for a loop, from the start: every
    /// component its body writes, so reads at its head use the variable).
    written: BTreeSet<Comp>,
    /// Components written in the block being built (stored at its end).
    block: BTreeSet<Comp>,
    /// A loop (the target of `continue`) or a switch (with loops, of `break`).
    pub(crate) breakable: bool,
    pub(crate) is_loop: bool,
}

/// What the register model learns from one walk over the program before
/// lowering it.
#[derive(Debug, Default)]
pub(crate) struct Prepass {
    /// Per `loop` instruction (by offset): the temp components its body writes.
    pub(crate) loop_writes: BTreeMap<u32, BTreeSet<Comp>>,
    /// How often each variable's values are read, or written, as f32, i32,
    /// u32, and read as an integer of either sign (see [`VOTE_INT`]).
    /// Without webs, by temp component.
    votes: BTreeMap<Comp, [u32; 4]>,
    /// With webs, by web (a web belongs to one component).
    web_votes: Vec<[u32; 4]>,
    /// With webs, by web: the reads alone (what a value of the web costs
    /// in bitcasts, where it never reaches the variable).
    web_reads: Vec<[u32; 4]>,
    /// The kind of the words of raw and structured memory (`t#`, `u#`,
    /// `g#`, keyed as `Lower::words`) that its loads and stores favour,
    /// where that is not u32 (see [`memory_kinds`]).
    pub(crate) memory_kinds: BTreeMap<(u32, u32), K>,
}

/// The vote of a read by an instruction that takes either integer kind
/// as it comes (`iadd`, `and`, ..., see [`sign_agnostic_source`]).
const VOTE_INT: usize = 3;

/// Whether source `k` (operand index) of `code` is read in whichever
/// integer kind it has: the lowering picks the instruction's kind from its
/// sources (`Lower::int_kind`), as the low 32 bits do not depend on sign.
fn sign_agnostic_source(code: O, k: usize) -> bool {
    use O::*;
    match code {
        Iadd | Ieq | Ine | And | Or | Xor | Not | Imad | Umad => true,
        Ishl => k == 1,
        _ => false,
    }
}

impl Prepass {
    /// How a variable's values are read and written, if at all.
    fn votes_of(&self, (c, web): VarKey) -> Option<[u32; 4]> {
        match self.web_votes.get(web as usize) {
            Some(v) => Some(*v).filter(|v| v.iter().any(|&n| n > 0)),
            None => self.votes.get(&c).copied(),
        }
    }
}

/// The bitcasts that reads and writes counted in `votes` (f32, i32, u32,
/// either-sign integer) cost a value of kind `k`.
fn bitcasts_as([f, i, u, n]: [u32; 4], k: K) -> u32 {
    match k {
        K::F => i + u + n,
        K::I => f + u,
        K::U => f + i,
    }
}

fn k_index(k: K) -> usize {
    match k {
        K::F => 0,
        K::I => 1,
        K::U => 2,
    }
}

pub(crate) fn k_code(k: K) -> u8 {
    k_index(k) as u8
}

/// The kind an opcode reads all its sources in, when it has one.
pub(crate) fn source_kind(code: O) -> Option<K> {
    use O::*;
    Some(match code {
        Add | Mul | Div | Min | Max | Mad | Dp2 | Dp3 | Dp4 | Eq | Ne | Lt | Ge | Frc | RoundNe | RoundNi | RoundPi
        | RoundZ | Sqrt | Rsq | Exp | Log | Rcp | Sincos | DerivRtx | DerivRty | DerivRtxCoarse | DerivRtxFine
        | DerivRtyCoarse | DerivRtyFine | Ftoi | Ftou | F32tof16 | Sample | SampleC | SampleCLz | SampleL | SampleD
        | SampleB | Gather4 | Gather4C | Lod => K::F,
        Iadd | Ieq | Ine | Ilt | Ige | Imax | Imin | Ineg | Itof | Imad | Imul | Ishr | Ibfe | FirstbitShi => K::I,
        And | Or | Xor | Not | Ult | Uge | Umax | Umin | Utof | Umad | Umul | Ushr | Ishl | Udiv | Uaddc | Usubb
        | Countbits | Bfrev | FirstbitLo | FirstbitHi | Ubfe | Bfi | F16tof32 | Ld | LdMs | LdRaw | LdStructured
        | StoreRaw | StoreStructured => K::U,
        _ => return None,
    })
}

/// The kind an opcode's result has, when it has one (what a variable
/// holding it would be stored in without a bitcast).
fn result_kind(code: O) -> Option<K> {
    use O::*;
    Some(match code {
        Eq | Ne | Lt | Ge | Ieq | Ine | Ilt | Ige | Ult | Uge | Ftou | F32tof16 => K::U,
        Ftoi => K::I,
        Itof | Utof | F16tof32 => K::F,
        // Sign-agnostic: the lowering keeps the integer kind the sources have.
        Iadd | And | Or | Xor | Not | Ishl | Imad | Umad => return None,
        _ => return source_kind(code),
    })
}

/// The components a destination operand writes.
pub(crate) fn dst_mask(dst: &dxbc::program::Operand) -> u32 {
    match (NumComponents::from_u32(dst.num_components()), dst.selection()) {
        (Some(NumComponents::Component4), Some(SelectionMode::MaskMode)) => dst.mask(),
        (Some(NumComponents::Component1 | NumComponents::Component0), _) => 1,
        (Some(NumComponents::Component4), Some(SelectionMode::Select1Mode)) => 1 << dst.select1(),
        _ => 0xf,
    }
}

/// The register components a source operand selects, per result lane.
pub(crate) fn selection(op: &dxbc::program::Operand) -> [u32; 4] {
    match NumComponents::from_u32(op.num_components()) {
        Some(NumComponents::Component4) => match op.selection() {
            Some(SelectionMode::SwizzleMode) => op.swizzle(),
            Some(SelectionMode::Select1Mode) => [op.select1(); 4],
            _ => [0, 1, 2, 3],
        },
        _ => [0; 4],
    }
}

/// One walk over the program: which temp components each loop writes, and
/// in which kinds temp components (per web, where `webs` are given) are
/// read and written.
pub(crate) fn prepass(p: &Program, webs: Option<&crate::liveness::Webs>) -> Prepass {
    let n = webs.map_or(0, |w| w.count());
    let mut out = Prepass { web_votes: vec![[0; 4]; n], web_reads: vec![[0; 4]; n], ..Prepass::default() };
    let mut vote = |c: Comp, web: Option<u32>, k: usize, read: bool| match web.filter(|&w| (w as usize) < n) {
        Some(w) => {
            out.web_votes[w as usize][k] += 1;
            if read {
                out.web_reads[w as usize][k] += 1;
            }
        }
        None => out.votes.entry(c).or_default()[k] += 1,
    };
    let mut open: Vec<(u32, BTreeSet<Comp>)> = Vec::new();
    // `ld` reads a texture's texel address as i32 and a typed buffer's
    // element index as u32 (`Lower::load_texture`).
    let buffers: BTreeSet<u32> = p
        .instructions
        .iter()
        .filter(|i| !i.is_customdata() && i.op() == Some(O::DclResource))
        .filter(|i| RD::from_u32(DCL_RESOURCE_CONTROLS[0].get(i.token)) == Some(RD::Buffer))
        .filter_map(|i| i.operand(p, 0).map(crate::resources::res_id))
        .collect();
    // An `fcall` writes what the function bodies (after the first label)
    // write: a loop around one stores all of it first.
    let mut body_writes = BTreeSet::new();
    let first_label = p.instructions.iter().position(|i| !i.is_customdata() && i.op() == Some(O::Label));
    for ins in first_label.map_or(&[][..], |at| &p.instructions[at..]) {
        for op in operands(ins, p) {
            if op.operand_type() == Some(OT::Temp) && op.selection() == Some(SelectionMode::MaskMode) {
                let mask = if op.mask() == 0 { 0xf } else { op.mask() };
                let reg = op.index[0].imm as u32;
                body_writes.extend((0..4u8).filter(|c| mask & (1 << c) != 0).map(|c| (reg, c)));
            }
        }
    }
    for (i, ins) in p.instructions.iter().enumerate() {
        let Some(code) = ins.op().filter(|_| !ins.is_customdata()) else { continue };
        match code {
            O::Loop => open.push((ins.offset, BTreeSet::new())),
            O::InterfaceCall => {
                if let Some((_, set)) = open.last_mut() {
                    set.extend(body_writes.iter().copied());
                }
            }
            O::Endloop => {
                if let Some((at, set)) = open.pop() {
                    if let Some((_, outer)) = open.last_mut() {
                        outer.extend(set.iter().copied());
                    }
                    out.loop_writes.insert(at, set);
                }
            }
            _ => {}
        }
        let kind = match code {
            O::Ld | O::LdMs => {
                let buffer = ins.operand(p, 2).is_some_and(|r| buffers.contains(&crate::resources::res_id(r)));
                Some(if buffer { K::U } else { K::I })
            }
            _ => source_kind(code),
        };
        let written = result_kind(code);
        for (n, op) in operands(ins, p).enumerate() {
            if op.operand_type() != Some(OT::Temp) {
                continue;
            }
            let reg = op.index[0].imm as u32;
            if op.selection() == Some(SelectionMode::MaskMode) {
                let mask = if op.mask() == 0 { 0xf } else { op.mask() };
                if let Some((_, set)) = open.last_mut() {
                    set.extend((0..4u8).filter(|c| mask & (1 << c) != 0).map(|c| (reg, c)));
                }
                // A write in a kind votes too: a variable of that kind stores it as is.
                if let Some(k) = written {
                    for c in (0..4u8).filter(|c| mask & (1 << c) != 0) {
                        vote((reg, c), webs.and_then(|w| w.written(i, reg, c)), k_index(k), false);
                    }
                }
            } else if let Some(k) = kind {
                let k = if sign_agnostic_source(code, n) { VOTE_INT } else { k_index(k) };
                for c in selection(op) {
                    let c = (c & 3) as u8;
                    vote((reg, c), webs.and_then(|w| w.read(i, reg, c)), k, true);
                }
            }
        }
    }
    if let Some(webs) = webs {
        memory_kinds(p, webs, &mut out);
    }
    out
}

/// A raw or structured memory access: the operand that names the memory,
/// the one that is stored into it, if a store, and whether it loads.
fn memory_access(code: O) -> Option<(usize, usize, bool)> {
    match code {
        O::LdRaw => Some((2, 0, true)),
        O::LdStructured => Some((3, 0, true)),
        O::StoreRaw => Some((0, 2, false)),
        O::StoreStructured => Some((0, 3, false)),
        _ => None,
    }
}

/// Types raw and structured memory by use, as webs type temps. Memory has
/// no type of its own in DXBC: its words are declared u32, so a float
/// stored there is bitcast on the way in and again at each load. Here each
/// region touched only by `ld_raw`/`ld_structured`/`store_raw`/
/// `store_structured` (and `bufinfo`) is voted on: a load by the reads of
/// the webs it starts, a store by the kind its value's web is kept in (an
/// immediate by whether its bits look like a float). A region whose votes
/// would bitcast fewer times as f32 or i32 than as u32 takes that kind
/// (`Words::word`), and the votes the first sweep gave its loads'
/// destinations and its stored values as u32 move to that kind. Atomics,
/// typed access and anything else keep a region u32.
fn memory_kinds(p: &Program, webs: &crate::liveness::Webs, out: &mut Prepass) {
    let is_memory = |op: &dxbc::program::Operand| {
        let t = op.ty();
        t == crate::resources::T || t == crate::resources::U || t == crate::resources::G
    };
    let key = |op: &dxbc::program::Operand| (op.ty(), crate::resources::res_id(op));
    // What each kind of words would cost a region in bitcasts, by K order
    // (`k_index`).
    let mut costs: BTreeMap<(u32, u32), [u32; 3]> = BTreeMap::new();
    const KINDS: [K; 3] = [K::U, K::F, K::I];
    let mut untyped = BTreeSet::new();
    // The temp components a load writes or a store reads, by lane of the
    // destination's mask.
    let lanes = |ins: &Instruction, n: usize| -> Vec<(u32, u8)> {
        let Some(op) = ins.operand(p, n).filter(|o| o.operand_type() == Some(OT::Temp)) else { return Vec::new() };
        let reg = op.index[0].imm as u32;
        if op.selection() == Some(SelectionMode::MaskMode) {
            let mask = if op.mask() == 0 { 0xf } else { op.mask() };
            (0..4u8).filter(|c| mask & (1 << c) != 0).map(|c| (reg, c)).collect()
        } else {
            let store_mask = ins.operand(p, 0).map_or(1, |d| dst_mask(d).max(1));
            let sel = selection(op);
            (0..4).filter(|c| store_mask & (1 << c) != 0).map(|c| (reg, (sel[c] & 3) as u8)).collect()
        }
    };
    // The reads of a stored value, as the first sweep counted them (one
    // per swizzle lane) by web.
    let value_reads = |ins: &Instruction, i: usize, value: usize| -> Vec<usize> {
        let Some(op) = ins.operand(p, value).filter(|o| o.operand_type() == Some(OT::Temp)) else { return Vec::new() };
        let reg = op.index[0].imm as u32;
        selection(op).into_iter().filter_map(|c| webs.read(i, reg, (c & 3) as u8)).map(|w| w as usize).collect()
    };
    // The reads by stores into memory, by web: the first sweep counted them
    // as u32, and they would type the value by the memory's old type.
    let mut store_reads = vec![0u32; out.web_votes.len()];
    for (i, ins) in p.instructions.iter().enumerate() {
        let Some((_, value, false)) = ins.op().filter(|_| !ins.is_customdata()).and_then(memory_access) else {
            continue;
        };
        for w in value_reads(ins, i, value) {
            if let Some(n) = store_reads.get_mut(w) {
                *n += 1;
            }
        }
    }
    for (i, ins) in p.instructions.iter().enumerate() {
        let Some(code) = ins.op().filter(|_| !ins.is_customdata()) else { continue };
        if ins.info().is_some_and(|o| o.class == OpClass::Decl) {
            continue;
        }
        let Some((res, value, load)) = memory_access(code) else {
            if code != O::Bufinfo {
                untyped.extend(ins.operands(p).filter(|o| is_memory(o)).map(key));
            }
            continue;
        };
        let Some(r) = ins.operand(p, res).filter(|o| is_memory(o)) else { continue };
        let cost = costs.entry(key(r)).or_default();
        // A stored value costs a bitcast unless the words are of its kind.
        let mut stored = |k: K| KINDS.into_iter().for_each(|w| cost[k_index(w)] += u32::from(w != k));
        if load {
            // A loaded value's reads cost their bitcasts, or one, where
            // the value is converted once as it is loaded (`kind_for_reads`).
            for (reg, c) in lanes(ins, value) {
                if let Some(&w) = webs.written(i, reg, c).and_then(|w| out.web_reads.get(w as usize)) {
                    let least = KINDS.into_iter().map(|k| bitcasts_as(w, k)).min().unwrap_or(0);
                    KINDS.into_iter().for_each(|k| cost[k_index(k)] += bitcasts_as(w, k).min(least + 1));
                }
            }
            continue;
        }
        match ins.operand(p, value) {
            Some(op) if op.operand_type() == Some(OT::Temp) => {
                for (reg, c) in lanes(ins, value) {
                    let Some(web) = webs.read(i, reg, c).map(|w| w as usize) else { continue };
                    if let (Some(&w), Some(&n)) = (out.web_votes.get(web), store_reads.get(web)) {
                        let mut w = w;
                        w[k_index(K::U)] = w[k_index(K::U)].saturating_sub(n);
                        stored(KINDS.into_iter().min_by_key(|&k| bitcasts_as(w, k)).unwrap_or(K::U));
                    }
                }
            }
            Some(op) if op.operand_type() == Some(OT::Immediate32) => {
                for &bits in op.imm(p) {
                    stored(if looks_float(bits) { K::F } else { K::U });
                }
            }
            _ => {}
        }
    }
    for (region, cost) in costs {
        if untyped.contains(&region) {
            continue;
        }
        // Ties keep u32.
        let best = KINDS.into_iter().min_by_key(|&k| cost[k_index(k)]).unwrap_or(K::U);
        if best != K::U {
            out.memory_kinds.insert(region, best);
        }
    }
    // The first sweep counted these loads and stores as u32.
    for (i, ins) in p.instructions.iter().enumerate() {
        let Some((res, value, load)) = ins.op().filter(|_| !ins.is_customdata()).and_then(memory_access) else {
            continue;
        };
        let Some(&k) = ins.operand(p, res).and_then(|r| out.memory_kinds.get(&key(r))) else { continue };
        let (from, to) = (k_index(K::U), k_index(k));
        let webs_voted: Vec<usize> = if load {
            lanes(ins, value).into_iter().filter_map(|(reg, c)| webs.written(i, reg, c)).map(|w| w as usize).collect()
        } else {
            value_reads(ins, i, value)
        };
        let n = out.web_votes.len();
        for w in webs_voted.into_iter().filter(|&w| w < n) {
            let moved = if load {
                [&mut out.web_votes[w], &mut [0; 4]]
            } else {
                [&mut out.web_votes[w], &mut out.web_reads[w]]
            };
            for v in moved {
                v[from] = v[from].saturating_sub(1);
                v[to] += 1;
            }
        }
    }
}

fn operands<'p>(ins: &Instruction, p: &'p Program) -> impl Iterator<Item = &'p dxbc::program::Operand> + 'p {
    ins.operands(p)
}

/// Bits that read as a float a person would write (not a small integer,
/// not a NaN or infinity).
pub(crate) fn looks_float(bits: u32) -> bool {
    // A normal float: small integers are denormals, -1 and other small
    // negative integers NaNs.
    let exponent = (bits >> 23) & 0xff;
    exponent != 0 && exponent != 0xff
}

pub(crate) fn vector_size(n: usize) -> Option<VectorSize> {
    match n {
        2 => Some(VectorSize::Bi),
        3 => Some(VectorSize::Tri),
        4 => Some(VectorSize::Quad),
        _ => None,
    }
}

/// `r3_xy`: the name of temp `reg`'s components `mask`, built in one
/// allocation (every temp write names its value).
fn temp_name(reg: u32, mask: u32) -> String {
    let mut s = String::with_capacity(16);
    s.push('r');
    dxbc::listing::push_decimal(&mut s, reg.into());
    s.push('_');
    s.extend((0..4).filter(|c| mask & (1 << c) != 0).map(|c| ['x', 'y', 'z', 'w'][c]));
    s
}

/// A literal of kind `k` with `bits`. A float that is not finite keeps its
/// bits and is read from a variable: WGSL has no such literal, and
/// `bitcast<f32>(0x7fc00000u)` would be a const-expression, which WGSL
/// forbids to evaluate to a NaN or an infinity (browsers refuse the shader).
/// So does a subnormal (a small integer's bits, often): WGSL lets an
/// implementation flush a subnormal constant to zero. The variable is
/// never stored to, so a function declares one per value.
pub(crate) fn literal(l: &mut Lower, bits: u32, k: K) -> H {
    let float = f32::from_bits(bits);
    match k {
        K::F if float.is_normal() || float == 0.0 => l.e(E::Literal(Literal::F32(float))),
        K::F => {
            let name = format!("bits_{bits:08x}");
            let declared = l.f.local_variables.iter().find(|(_, v)| v.name.as_deref() == Some(name.as_str()));
            let var = match declared {
                Some((var, _)) => var,
                None => {
                    // The initialiser is a constant expression: outside the open Emit range.
                    l.flush();
                    let ty = l.ty(TypeInner::Scalar(naga::Scalar::U32));
                    let init = l.f.expressions.append(E::Literal(Literal::U32(bits)), Span::UNDEFINED);
                    l.f.local_variables.append(LocalVariable { name: Some(name), ty, init: Some(init) }, l.span)
                }
            };
            let pointer = l.e(E::LocalVariable(var));
            let u = l.e(E::Load { pointer });
            l.bitcast(u, K::U, K::F)
        }
        K::I => l.e(E::Literal(Literal::I32(bits as i32))),
        K::U => l.lit_u(bits),
    }
}

/// An unrecorded entry of `Lower::widths`.
const NO_WIDTH: u8 = u8::MAX;

impl<'a> Lower<'a> {
    /// Declares `n` temps (`dcl_temps`), all zero.
    pub(crate) fn declare_temps(&mut self, n: u32) {
        let n = n as usize;
        if self.regs.len() < n {
            self.regs.resize(n, [Slot::ZERO; 4]);
        }
    }

    fn check_temp(&self, reg: u32, at: usize) -> Result<(), TranslateError> {
        if (reg as usize) < self.regs.len() {
            Ok(())
        } else {
            crate::lower::malformed(format!("r{reg} is used but dcl_temps declares {}", self.regs.len()), at)
        }
    }

    /// The bits of lane `lane` (0..4, a destination lane) of `op` when they
    /// are an immediate's: an immediate operand, or a temp that holds one.
    pub(crate) fn lane_immediate(&self, op: &dxbc::program::Operand, lane: usize) -> Option<u32> {
        let s = (selection(op)[lane.min(3)] & 3) as usize;
        match op.operand_type()? {
            OT::Temp if op.index[0].rel == dxbc::program::NO_OPERAND => {
                match self.regs.get(usize::try_from(op.index[0].imm).ok()?)?[s].now {
                    Value::Imm(b) => Some(b),
                    _ => None,
                }
            }
            OT::Immediate32 => match op.imm(self.p) {
                [b] => Some(*b),
                v => v.get(s).copied(),
            },
            _ => None,
        }
    }

    /// The kind lane `lane` (0..4, a destination lane) of `op` already
    /// has, where reading it in another kind would cost a bitcast: a temp's
    /// value or variable, an immediate that reads as a float (F) or as a
    /// nonzero integer (U). `None`: every kind reads it alike (zero, other
    /// register files, whose loads pick their own kind).
    pub(crate) fn lane_kind(&self, op: &dxbc::program::Operand, lane: usize) -> Option<K> {
        if let Some(bits) = self.lane_immediate(op, lane) {
            return match bits {
                0 => None,
                b if looks_float(b) => Some(K::F),
                _ => Some(K::U),
            };
        }
        let s = (selection(op)[lane.min(3)] & 3) as usize;
        match op.operand_type()? {
            OT::Temp if op.index[0].rel == dxbc::program::NO_OPERAND => {
                let reg = usize::try_from(op.index[0].imm).ok()?;
                match self.regs.get(reg)?[s].now {
                    Value::Expr { k, .. } => Some(k),
                    Value::Bool { .. } => Some(K::U),
                    Value::Imm(_) => None,
                    Value::Var => {
                        let key = self.read_key((reg as u32, s as u8));
                        match self.reg_vars.get(&key) {
                            Some((_, k)) => Some(*k),
                            None => self.prepass.votes_of(key).map(|_| self.var_kind(key, K::U)),
                        }
                    }
                }
            }
            _ => None,
        }
    }

    /// The webs and the instruction being lowered, where webs are computed.
    fn webs_here(&self) -> Option<(&crate::liveness::Webs, usize)> {
        Some((self.liveness.as_ref()?.webs()?, self.here?))
    }

    /// The variable that holds the value of `c` the instruction being
    /// lowered reads.
    fn read_key(&self, c: Comp) -> VarKey {
        (c, self.webs_here().and_then(|(w, i)| w.read(i, c.0, c.1)).unwrap_or(NO_WEB))
    }

    /// The web of the value the instruction being lowered writes into `c`.
    fn written_web(&self, c: Comp) -> u32 {
        self.webs_here().and_then(|(w, i)| w.written(i, c.0, c.1)).unwrap_or(NO_WEB)
    }

    /// The kind a variable takes: the one fewest of its web's reads and
    /// writes would bitcast (an either-sign integer read bitcasts from
    /// f32 only); on a tie, `fallback` (the first value's kind), else f32,
    /// u32, i32.
    fn var_kind(&self, key: VarKey, fallback: K) -> K {
        let Some(votes) = self.prepass.votes_of(key) else { return fallback };
        [fallback, K::F, K::U, K::I].into_iter().min_by_key(|&k| bitcasts_as(votes, k)).unwrap_or(fallback)
    }

    /// The reads (counted by kind, as in the prepass) of the webs that the
    /// instruction being lowered starts by writing `reg`'s components
    /// `mask`, where webs are computed.
    fn reads_of_write(&self, reg: u32, mask: u32) -> Option<[u32; 4]> {
        let (webs, i) = self.webs_here()?;
        let mut reads = [0u32; 4];
        for c in (0..4u8).filter(|c| mask & (1 << c) != 0) {
            let Some(v) = webs.written(i, reg, c).and_then(|w| self.prepass.web_reads.get(w as usize)) else {
                continue;
            };
            for (sum, n) in reads.iter_mut().zip(v) {
                *sum += n;
            }
        }
        Some(reads)
    }

    /// The integer kind the reads of the webs that a write to `reg`'s
    /// components `mask` starts take more often, if one does.
    pub(crate) fn int_kind_of_reads(&self, reg: u32, mask: u32) -> Option<K> {
        let reads = self.reads_of_write(reg, mask)?;
        match bitcasts_as(reads, K::I).cmp(&bitcasts_as(reads, K::U)) {
            std::cmp::Ordering::Less => Some(K::I),
            std::cmp::Ordering::Greater => Some(K::U),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The kind a value of kind `k` written to `reg`'s components `mask`
    /// is kept in: `k`, unless the reads of the webs it starts would
    /// bitcast it at least twice more in `k` than in another kind (which
    /// then costs one bitcast here), and the webs' variables, if they get
    /// any, are of that kind too (a value that reaches its variable is
    /// read in the variable's kind after it). So bits loaded from
    /// typeless memory and read as floats become floats once, where they
    /// are loaded.
    pub(crate) fn kind_for_reads(&self, reg: u32, mask: u32, k: K) -> K {
        let (Some((webs, i)), Some(reads)) = (self.webs_here(), self.reads_of_write(reg, mask)) else { return k };
        let written = || (0..4u8).filter(|c| mask & (1 << c) != 0);
        // Fewer than two reads that would bitcast: nothing to gain.
        if bitcasts_as(reads, k) < 2 {
            return k;
        }
        let best = [K::F, K::U, K::I].into_iter().min_by_key(|&x| bitcasts_as(reads, x)).unwrap_or(k);
        let variables_agree = || {
            written().all(|c| {
                let key = ((reg, c), webs.written(i, reg, c).unwrap_or(NO_WEB));
                self.reg_vars.get(&key).map_or_else(|| self.var_kind(key, k), |&(_, vk)| vk) == best
            })
        };
        if bitcasts_as(reads, best) + 1 < bitcasts_as(reads, k) && variables_agree() {
            best
        } else {
            k
        }
    }

    /// A web's variable (made on first use).
    fn var(&mut self, key: VarKey, fallback: K) -> (Handle<LocalVariable>, K) {
        if let Some(&v) = self.reg_vars.get(&key) {
            return v;
        }
        let c = key.0;
        let k = self.var_kind(key, fallback);
        let ty = self.ty(TypeInner::Scalar(k.scalar()));
        // The initialiser is a constant expression: it must not fall inside
        // the open Emit range.
        self.flush();
        let zero = self.f.expressions.append(E::ZeroValue(ty), Span::UNDEFINED);
        let name = format!("r{}_{}", c.0, ['x', 'y', 'z', 'w'][c.1 as usize]);
        let h = self.f.local_variables.append(LocalVariable { name: Some(name), ty, init: Some(zero) }, self.span);
        self.reg_vars.insert(key, (h, k));
        (h, k)
    }

    /// A scalar expression of kind `k` for one value.
    fn scalar_of(&mut self, v: Value, want: K, c: Comp) -> H {
        match v {
            Value::Imm(bits) => literal(self, bits, want),
            Value::Expr { h, comp, k } => {
                let s = match comp {
                    Some(i) => self.component(h, i as u32),
                    None => h,
                };
                self.bitcast(s, k, want)
            }
            Value::Var => {
                let (h, k) = self.var(self.read_key(c), want);
                let ptr = self.e(E::LocalVariable(h));
                let load = self.e(E::Load { pointer: ptr });
                self.bitcast(load, k, want)
            }
            Value::Bool { h, comp } => {
                let b = match comp {
                    Some(i) => self.component(h, i as u32),
                    None => h,
                };
                let mask = self.mask_of(b, 1);
                self.bitcast(mask, K::U, want)
            }
        }
    }

    /// D3D's mask (u32, all ones for true) of `n`-lane bool `b`.
    fn mask_of(&mut self, b: H, n: usize) -> H {
        let (t, f) = (self.lit_u(u32::MAX), self.lit_u(0));
        let (t, f) = match vector_size(n) {
            Some(size) => (self.e(E::Splat { size, value: t }), self.e(E::Splat { size, value: f })),
            None => (t, f),
        };
        self.select(b, t, f)
    }

    /// The lanes `parts` when all are components of one expression `h`:
    /// `h` itself, a component, a splat of a scalar or a swizzle.
    fn lanes_of_one(&mut self, h: H, comps: &[Option<u8>]) -> Option<H> {
        let n = comps.len();
        if comps.iter().all(Option::is_none) {
            return Some(match vector_size(n) {
                Some(size) => self.e(E::Splat { size, value: h }),
                None => h,
            });
        }
        if !comps.iter().all(Option::is_some) {
            return None;
        }
        let idx: Lanes<u8> = comps.iter().map(|c| c.unwrap_or(0)).collect();
        let width = self.width_of(h);
        Some(if n == 1 {
            self.component(h, idx[0] as u32)
        } else if width == n && idx.iter().enumerate().all(|(i, &c)| c as usize == i) {
            h
        } else {
            let mut pattern = [naga::SwizzleComponent::X; 4];
            for (i, &c) in idx.iter().enumerate() {
                pattern[i] = naga::SwizzleComponent::XYZW[c as usize & 3];
            }
            self.swizzle(vector_size(n).unwrap_or(VectorSize::Quad), h, pattern)
        })
    }

    /// Whether lanes `mask` of `op` hold an immediate whose bits do not
    /// look like a float (a typeless reader then takes integers, so that
    /// `1u` is not written as a denormal float).
    pub(crate) fn has_integer_bits(&self, op: &dxbc::program::Operand, mask: u32) -> bool {
        let all = selection(op);
        let mask = if mask & 0xf == 0 { 0xf } else { mask };
        let lanes = (0..4).filter(|c| mask & (1 << c) != 0).map(|c| all[c] as usize & 3);
        match op.operand_type() {
            Some(OT::Immediate32) => {
                let v = op.imm(self.p);
                lanes.into_iter().any(|c| v.get(if v.len() == 1 { 0 } else { c }).is_some_and(|&b| !looks_float(b)))
            }
            Some(OT::Temp) if op.index[0].rel == dxbc::program::NO_OPERAND => {
                let Some(regs) = self.regs.get(op.index[0].imm as usize) else { return false };
                lanes.into_iter().any(|c| matches!(regs[c].now, Value::Imm(b) if !looks_float(b)))
            }
            _ => false,
        }
    }

    /// Whether `temp_condition` gives a bool for these lanes (builds nothing).
    pub(crate) fn is_condition(&self, op: &dxbc::program::Operand, mask: u32) -> bool {
        if op.operand_type() != Some(OT::Temp)
            || op.index[0].rel != dxbc::program::NO_OPERAND
            || op.modifier(self.p) != 0
        {
            return false;
        }
        let all = selection(op);
        let mask = if mask & 0xf == 0 { 0xf } else { mask };
        let Some(regs) = self.regs.get(op.index[0].imm as usize) else { return false };
        (0..4).filter(|c| mask & (1 << c) != 0).all(|c| matches!(regs[all[c] as usize & 3].now, Value::Bool { .. }))
    }

    /// The bool a condition reader (`movc`, `if_nz`, `breakc`, …) wants
    /// from lanes `mask` of temp operand `op`, when every lane it selects
    /// holds a comparison's result and the operand has no modifier.
    pub(crate) fn temp_condition(&mut self, op: &dxbc::program::Operand, mask: u32) -> Option<H> {
        if !self.is_condition(op, mask) {
            return None;
        }
        let all = selection(op);
        let mask = if mask & 0xf == 0 { 0xf } else { mask };
        let regs = *self.regs.get(op.index[0].imm as usize)?;
        let mut parts = Vec::with_capacity(4);
        for c in (0..4).filter(|c| mask & (1 << c) != 0) {
            match regs[all[c] as usize & 3].now {
                Value::Bool { h, comp } => parts.push((h, comp)),
                _ => return None,
            }
        }
        let h = parts.first()?.0;
        if parts.iter().all(|p| p.0 == h) {
            let comps: Vec<Option<u8>> = parts.iter().map(|p| p.1).collect();
            return self.lanes_of_one(h, &comps);
        }
        // Lanes of several comparisons: a bool vector of them.
        let lanes: Vec<H> = parts
            .iter()
            .map(|&(h, comp)| match comp {
                Some(i) => self.component(h, i as u32),
                None => h,
            })
            .collect();
        let size = vector_size(lanes.len())?;
        let ty = self.ty(TypeInner::Vector { size, scalar: naga::Scalar::BOOL });
        Some(self.e(E::Compose { ty, components: lanes }))
    }

    /// Stores a dirty component into its variable.
    fn spill(&mut self, c: Comp) {
        let slot = self.regs[c.0 as usize][c.1 as usize];
        if !slot.dirty {
            return;
        }
        // No path from here reads it before writing it: the store would be dead.
        if let (Some(lv), Some(i)) = (&self.liveness, self.here) {
            if !lv.needed(i, c.0, c.1) {
                return;
            }
            // At a flow instruction (which defines nothing), a value of
            // another web than the one reaching it is overwritten on
            // every path before a read: e.g. the value before an `if`
            // whose branches both write the component.
            let flow =
                self.p.instructions.get(i).and_then(|ins| ins.op()).is_some_and(|o| o.info().class == OpClass::Flow);
            if flow && slot.web != NO_WEB && lv.webs().and_then(|w| w.read(i, c.0, c.1)) != Some(slot.web) {
                return;
            }
        }
        let fallback = match slot.now {
            Value::Expr { k, .. } => k,
            Value::Bool { .. } => K::U,
            Value::Imm(bits) if looks_float(bits) => K::F,
            _ => K::U,
        };
        let (var, k) = self.var((c, slot.web), fallback);
        let value = self.scalar_of(slot.now, k, c);
        let ptr = self.e(E::LocalVariable(var));
        self.stmt(S::Store { pointer: ptr, value });
        self.regs[c.0 as usize][c.1 as usize].dirty = false;
    }

    /// Reads temp `reg`'s components `sel` (one per lane): a scalar for one
    /// lane, else a vector, in `want` (or, for a typeless reader, the kind
    /// the values have).
    pub(crate) fn read_temp(
        &mut self,
        reg: u32,
        sel: &Lanes<u32>,
        want: Option<K>,
        at: usize,
    ) -> Result<(H, K), TranslateError> {
        self.check_temp(reg, at)?;
        let mut parts: Lanes<Value> = Lanes::new();
        for &s in sel.iter() {
            let c = (reg, s.min(3) as u8);
            let mut v = self.regs[reg as usize][c.1 as usize].now;
            if v == Value::Var {
                // Load once per block; later reads in it reuse the load.
                let (var, k) = self.var(self.read_key(c), want.unwrap_or(K::U));
                let ptr = self.e(E::LocalVariable(var));
                let h = self.e(E::Load { pointer: ptr });
                v = Value::Expr { h, comp: None, k };
                self.regs[reg as usize][c.1 as usize].now = v;
            }
            parts.push(v);
        }
        let k = want.unwrap_or_else(|| {
            parts
                .iter()
                .find_map(|v| match v {
                    Value::Expr { k, .. } => Some(*k),
                    Value::Bool { .. } => Some(K::U),
                    _ => None,
                })
                .unwrap_or_else(|| {
                    let float = parts.iter().any(|v| matches!(v, Value::Imm(b) if looks_float(*b)));
                    if float {
                        K::F
                    } else {
                        K::U
                    }
                })
        });
        Ok((self.gather_lanes(&parts, k, reg), k))
    }

    /// Builds the lanes `parts` as one value of kind `k`.
    fn gather_lanes(&mut self, parts: &[Value], k: K, reg: u32) -> H {
        let n = parts.len();
        // Every lane one comparison's: its mask.
        if let Some(Value::Bool { h, .. }) = parts.first().copied() {
            if parts.iter().all(|p| matches!(p, Value::Bool { h: ph, .. } if *ph == h)) {
                let comps: Lanes<Option<u8>> =
                    parts.iter().map(|p| if let Value::Bool { comp, .. } = p { *comp } else { None }).collect();
                if let Some(b) = self.lanes_of_one(h, &comps) {
                    let mask = self.mask_of(b, n);
                    return self.bitcast(mask, K::U, k);
                }
            }
        }
        // Every lane from one expression: a swizzle of it (or it).
        if let Some(Value::Expr { h, k: vk, .. }) = parts.first().copied() {
            if parts.iter().all(|p| matches!(p, Value::Expr { h: ph, k: pk, .. } if *ph == h && *pk == vk)) {
                let comps: Lanes<Option<u8>> =
                    parts.iter().map(|p| if let Value::Expr { comp, .. } = p { *comp } else { None }).collect();
                let v = if comps.iter().all(Option::is_none) {
                    // A scalar: replicated.
                    if n == 1 {
                        h
                    } else {
                        self.e(E::Splat { size: vector_size(n).unwrap_or(VectorSize::Quad), value: h })
                    }
                } else if comps.iter().all(Option::is_some) {
                    let idx: Lanes<u8> = comps.iter().map(|c| c.unwrap_or(0)).collect();
                    let width = self.width_of(h);
                    if n == 1 {
                        self.component(h, idx[0] as u32)
                    } else if width == n && idx.iter().enumerate().all(|(i, &c)| c as usize == i) {
                        h
                    } else {
                        let comp = |c: u8| naga::SwizzleComponent::XYZW[c as usize & 3];
                        let mut pattern = [naga::SwizzleComponent::X; 4];
                        for (i, &c) in idx.iter().enumerate() {
                            pattern[i] = comp(c);
                        }
                        self.swizzle(vector_size(n).unwrap_or(VectorSize::Quad), h, pattern)
                    }
                } else {
                    return self.compose_parts(parts, k, reg);
                };
                return self.bitcast(v, vk, k);
            }
        }
        // Every lane an immediate: literals, a splat when they agree.
        if parts.iter().all(|p| matches!(p, Value::Imm(_))) {
            let bits: Lanes<u32> = parts.iter().map(|p| if let Value::Imm(b) = p { *b } else { 0 }).collect();
            return self.immediate(&bits, k);
        }
        self.compose_parts(parts, k, reg)
    }

    fn compose_parts(&mut self, parts: &[Value], k: K, reg: u32) -> H {
        let scalars: Vec<H> = parts.iter().enumerate().map(|(i, &p)| self.scalar_of(p, k, (reg, i as u8))).collect();
        if scalars.len() == 1 {
            return scalars[0];
        }
        let size = vector_size(scalars.len()).unwrap_or(VectorSize::Quad);
        let ty = self.ty(TypeInner::Vector { size, scalar: k.scalar() });
        self.e(E::Compose { ty, components: scalars })
    }

    /// An immediate's lanes as a literal of kind `k` (a splat when they agree).
    pub(crate) fn immediate(&mut self, bits: &[u32], k: K) -> H {
        let n = bits.len();
        if bits.iter().all(|&b| b == bits[0]) {
            let x = literal(self, bits[0], k);
            return match vector_size(n) {
                Some(size) => self.e(E::Splat { size, value: x }),
                None => x,
            };
        }
        let comps: Vec<H> = bits.iter().map(|&b| literal(self, b, k)).collect();
        let size = vector_size(n).unwrap_or(VectorSize::Quad);
        let ty = self.ty(TypeInner::Vector { size, scalar: k.scalar() });
        self.e(E::Compose { ty, components: comps })
    }

    /// The lane count of an expression this lowering built (1 for a scalar).
    /// `widths` is indexed by the expression's handle; [`NO_WIDTH`] marks
    /// one not recorded (a whole vec4).
    pub(crate) fn width_of(&self, h: H) -> usize {
        match self.widths.get(h.index()) {
            Some(&w) if w != NO_WIDTH => usize::from(w),
            _ => 4,
        }
    }

    /// The lane count recorded for `h`, if one was.
    pub(crate) fn recorded_width(&self, h: H) -> Option<usize> {
        self.widths.get(h.index()).filter(|&&w| w != NO_WIDTH).map(|&w| usize::from(w))
    }

    /// Sets temp `reg`'s components `mask` from `value` (`lanes` wide: 1 a
    /// scalar for every component, 4 a vector indexed by component, else a
    /// vector of one lane per masked component).
    pub(crate) fn write_temp(
        &mut self,
        reg: u32,
        mask: u32,
        value: H,
        k: K,
        lanes: usize,
        at: usize,
    ) -> Result<(), TranslateError> {
        let kept = self.kind_for_reads(reg, mask, k);
        let (value, k, lanes) = if kept == k {
            (value, k, lanes)
        } else {
            // Only the lanes written are converted.
            let written: Vec<u32> = (0..4).filter(|c| mask & (1 << c) != 0).collect();
            let (value, lanes) = if lanes == 4 && written.len() < 4 {
                (self.select_lanes(value, &written), written.len())
            } else {
                (value, lanes)
            };
            (self.bitcast(value, k, kept), kept, lanes)
        };
        for (c, comp) in self.bind_temp_value(reg, mask, value, lanes, at)? {
            self.set_slot((reg, c), Value::Expr { h: value, comp, k });
        }
        Ok(())
    }

    /// What `write_temp` and `write_temp_bool` share: checks `reg`, names
    /// `value` after the register and mask, and gives each written
    /// component with the lane of `value` it reads (`lanes` as in
    /// `write_temp`).
    fn bind_temp_value(
        &mut self,
        reg: u32,
        mask: u32,
        value: H,
        lanes: usize,
        at: usize,
    ) -> Result<impl Iterator<Item = (u8, Option<u8>)>, TranslateError> {
        self.check_temp(reg, at)?;
        if self.widths.len() <= value.index() {
            self.widths.resize(value.index() + 1, NO_WIDTH);
        }
        self.widths[value.index()] = lanes as u8;
        if !self.f.named_expressions.contains_key(&value) && !self.f.expressions[value].needs_pre_emit() {
            self.f.named_expressions.insert(value, temp_name(reg, mask));
        }
        Ok((0..4u8).filter(move |c| mask & (1 << c) != 0).enumerate().map(move |(lane, c)| {
            let comp = match lanes {
                1 => None,
                4 => Some(c),
                _ => Some(lane as u8),
            };
            (c, comp)
        }))
    }

    /// Sets temp `reg`'s components `mask` from comparison result `b` (a
    /// bool, or a vector of them, `lanes` wide as in `write_temp`).
    pub(crate) fn write_temp_bool(
        &mut self,
        reg: u32,
        mask: u32,
        b: H,
        lanes: usize,
        at: usize,
    ) -> Result<(), TranslateError> {
        for (c, comp) in self.bind_temp_value(reg, mask, b, lanes, at)? {
            self.set_slot((reg, c), Value::Bool { h: b, comp });
        }
        Ok(())
    }

    /// Sets temp components from immediates (a `mov` of literals: no line
    /// of its own; readers build the literal in their kind).
    pub(crate) fn write_temp_imm(
        &mut self,
        reg: u32,
        mask: u32,
        bits: [u32; 4],
        at: usize,
    ) -> Result<(), TranslateError> {
        self.check_temp(reg, at)?;
        for c in 0..4u8 {
            if mask & (1 << c) != 0 {
                self.set_slot((reg, c), Value::Imm(bits[c as usize]));
            }
        }
        Ok(())
    }

    fn set_slot(&mut self, c: Comp, v: Value) {
        let web = self.written_web(c);
        self.regs[c.0 as usize][c.1 as usize] = Slot { now: v, dirty: true, web };
        if let Some(scope) = self.scopes.last_mut() {
            scope.written.insert(c);
            scope.block.insert(c);
        }
    }

    /// The temp components an immediate-only source of `mov` gives, if it is one.
    pub(crate) fn immediate_lanes(&self, op: &dxbc::program::Operand) -> Option<[u32; 4]> {
        let sel = selection(op);
        match op.operand_type() {
            Some(OT::Immediate32) => {
                let v = op.imm(self.p);
                match v.len() {
                    1 => Some([v[0]; 4]),
                    4 => Some(sel.map(|c| v[c as usize & 3])),
                    _ => None,
                }
            }
            Some(OT::Temp) if op.index[0].rel == dxbc::program::NO_OPERAND => {
                let regs = self.regs.get(op.index[0].imm as usize)?;
                let mut out = [0; 4];
                for (i, &c) in sel.iter().enumerate() {
                    match regs[c as usize & 3].now {
                        Value::Imm(b) => out[i] = b,
                        _ => return None,
                    }
                }
                Some(out)
            }
            _ => None,
        }
    }

    /// The kind of the value in the first component a temp operand selects.
    pub(crate) fn temp_kind(&self, op: &dxbc::program::Operand) -> Option<K> {
        let c = selection(op)[0] as usize & 3;
        let reg = op.index[0].imm as usize;
        match self.regs.get(reg)?[c].now {
            Value::Expr { k, .. } => Some(k),
            Value::Bool { .. } => Some(K::U),
            Value::Var => self.reg_vars.get(&self.read_key((reg as u32, c as u8))).map(|&(_, k)| k),
            Value::Imm(_) => None,
        }
    }

    // ------------------------------------------------------------ scopes

    /// Opens the register scope of a construct. A loop first stores the
    /// values its body overwrites (`writes`; None: every component) so that
    /// its head reads them from their variables.
    pub(crate) fn open_scope(&mut self, is_loop: bool, breakable: bool, writes: Option<BTreeSet<Comp>>) {
        self.flush_outputs();
        let mut written = BTreeSet::new();
        if is_loop {
            let all: BTreeSet<Comp> = match writes {
                Some(w) => w,
                None => (0..self.regs.len() as u32).flat_map(|r| (0..4u8).map(move |c| (r, c))).collect(),
            };
            for &c in &all {
                if (c.0 as usize) < self.regs.len() {
                    self.spill(c);
                    self.regs[c.0 as usize][c.1 as usize] = Slot::IN_VAR;
                }
            }
            written = all;
        }
        self.flush();
        self.scopes.push(Scope {
            entry: self.regs.clone(),
            loads: self.loads.clone(),
            written,
            block: BTreeSet::new(),
            breakable,
            is_loop,
        });
    }

    /// Ends one block of the innermost construct: what it wrote goes to the
    /// variables.
    pub(crate) fn end_block(&mut self) {
        self.flush_outputs();
        let written: Vec<Comp> = self.scopes.last().map(|s| s.block.iter().copied().collect()).unwrap_or_default();
        for c in written {
            if (c.0 as usize) < self.regs.len() {
                self.spill(c);
            }
        }
        self.flush();
    }

    /// Starts the next block (`else`, the next `case`) from the state the
    /// construct opened with.
    pub(crate) fn restart_block(&mut self) {
        if let Some(s) = self.scopes.last_mut() {
            s.block.clear();
            self.regs = s.entry.clone();
            self.loads = s.loads.clone();
        }
    }

    /// Closes the innermost construct, before its statement joins the
    /// enclosing block: values it overwrites that were not yet in their
    /// variables are stored first, and after it those components are read
    /// from the variables.
    pub(crate) fn close_scope(&mut self) {
        let Some(scope) = self.scopes.pop() else { return };
        self.regs = scope.entry;
        self.loads = scope.loads;
        for &c in &scope.written {
            if (c.0 as usize) < self.regs.len() {
                self.spill(c);
                self.regs[c.0 as usize][c.1 as usize] = Slot::IN_VAR;
            }
        }
        self.flush();
        if let Some(outer) = self.scopes.last_mut() {
            outer.written.extend(scope.written.iter().copied());
            outer.block.extend(scope.written.iter().copied());
        }
    }

    /// Before a `break` or `continue`: the values written inside the
    /// constructs it leaves go to their variables.
    pub(crate) fn before_jump(&mut self, is_continue: bool) {
        let mut comps = BTreeSet::new();
        for s in self.scopes.iter().rev() {
            comps.extend(s.written.iter().copied());
            if s.is_loop || (!is_continue && s.breakable) {
                break;
            }
        }
        for c in comps {
            if (c.0 as usize) < self.regs.len() {
                self.spill(c);
            }
        }
        self.flush();
    }

    /// Forgets every value (a new function, or a hull shader phase).
    pub(crate) fn forget_values(&mut self) {
        self.regs.clear();
        self.reg_vars.clear();
        self.loads.clear();
        self.widths.clear();
        self.scopes.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_looking_bits() {
        assert!(looks_float(1.0f32.to_bits()));
        assert!(looks_float((-0.5f32).to_bits()));
        assert!(!looks_float(0));
        assert!(!looks_float(7));
        assert!(!looks_float(u32::MAX));
        assert!(!looks_float(f32::NAN.to_bits()));
        assert!(!looks_float(f32::INFINITY.to_bits()));
    }

    #[test]
    fn temp_names() {
        assert_eq!(temp_name(1, 0b1010), "r1_yw");
        assert_eq!(temp_name(0, 0b0111), "r0_xyz");
        assert_eq!(temp_name(4_294_967_295, 0b1000), "r4294967295_w");
        assert_eq!(temp_name(10, 0b0001), "r10_x");
    }
}
