//! The executor: lanes, each with its own program counter, run to the next
//! rendezvous (a derivative, an implicit-LOD sample, a group barrier) and
//! execute it together. See the crate documentation for why.

use std::collections::BTreeMap;
use std::sync::Arc;

use dxbc::spec::{Opcode, ResourceDimension};

use crate::alu::{self, d, d_bits, f, fresult, mask};
use crate::compile::{Code, Dst, Idx, Loc, ModKind, Op, Opnd, Src, CONTROL_POINT_REGS, SYS_SLOTS};
use crate::error::{Error, ErrorKind, Result};
use crate::resources::{Bindings, Resource};
use crate::texture::{self, At};
use crate::trace::{Memory, Off, Recorder, Reg};

/// Most vertices one lane may emit (D3D11 caps a GS at 1024 scalars of
/// output, which is never more vertices than this).
pub const MAX_EMITTED: usize = 1024;
/// Deepest subroutine nesting (D3D11: 32).
pub const MAX_CALL_DEPTH: usize = 32;
/// Most lanes in one run.
pub const MAX_LANES: usize = 1024;
/// Most registers (temps plus indexable elements) over all lanes of a run.
pub const MAX_LANE_REGISTERS: usize = 1 << 22;

/// How lanes relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouping {
    /// Each lane alone (vertices).
    Independent,
    /// Lanes 4k..4k+3 form 2×2 quads (top-left, top-right, bottom-left,
    /// bottom-right) for derivatives.
    Quads,
    /// All lanes are one thread group (barriers, group-shared memory).
    Group,
}

/// Bounds of a run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Instructions all lanes together may execute.
    pub budget: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { budget: 50_000_000 }
    }
}

/// One vertex a geometry shader emitted.
#[derive(Clone, Debug, PartialEq)]
pub struct Emitted {
    /// Stream.
    pub stream: u32,
    /// The output registers at the emit.
    pub outputs: Vec<[u32; 4]>,
    /// A `cut` came right after (the strip ends).
    pub cut_after: bool,
}

/// One invocation's inputs and outputs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lane {
    /// Input registers `v#` (for 2-D inputs, vertex-major: `v[i][r]` is
    /// `inputs[i * code.input_regs + r]`).
    pub inputs: Vec<[u32; 4]>,
    /// Output registers `o#`.
    pub outputs: Vec<[u32; 4]>,
    /// System values by [`crate::Sys`] slot.
    pub sys: [[u32; 4]; SYS_SLOTS],
    /// oDepth bits.
    pub depth: u32,
    /// oMask.
    pub coverage_out: u32,
    /// `discard` ran (the lane went on as a helper).
    pub discarded: bool,
    /// A helper pixel (outside the primitive, run for its quad's
    /// derivatives): like a discarded one, it writes no memory.
    pub helper: bool,
    /// Geometry-shader vertices.
    pub emitted: Vec<Emitted>,
    /// A hull shader's input control points (`vicp`),
    /// [`crate::CONTROL_POINT_REGS`] registers per point, shared by the
    /// lanes of a patch.
    pub input_points: Arc<[[u32; 4]]>,
    /// The hull shader's output control points: `vocp` of its fork and
    /// join phases, `vicp` of a domain shader; laid out as `input_points`.
    pub control_points: Arc<[[u32; 4]]>,
    /// The patch constants (`vpc`) of a domain shader or a join phase.
    pub patch_constants: Arc<[[u32; 4]]>,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instructions executed, over all lanes.
    pub instructions: u64,
}

struct LaneState {
    pc: u32,
    calls: Vec<u32>,
    done: bool,
}

enum Flow {
    Next,
    Jump(u32),
    Done,
}

struct Machine<'a, R: Recorder> {
    rec: &'a mut R,
    code: &'a Code,
    b: &'a mut Bindings,
    lanes: &'a mut [Lane],
    st: Vec<LaneState>,
    temps: Vec<[u32; 4]>,
    xs: Vec<[u32; 4]>,
    tgsm: BTreeMap<u32, Vec<u32>>,
    grouping: Grouping,
    budget: u64,
    executed: u64,
}

/// Runs `code` over `lanes` to the end.
pub fn run(code: &Code, b: &mut Bindings, lanes: &mut [Lane], grouping: Grouping, limits: Limits) -> Result<Stats> {
    run_with(code, b, lanes, grouping, limits, &mut Off)
}

/// [`run`] with a recorder's hooks.
pub(crate) fn run_with<R: Recorder>(
    code: &Code,
    b: &mut Bindings,
    lanes: &mut [Lane],
    grouping: Grouping,
    limits: Limits,
    rec: &mut R,
) -> Result<Stats> {
    let at = code.ops.first().map_or(0, |o| o.offset);
    let n = lanes.len();
    if n > MAX_LANES || (grouping == Grouping::Quads && n % 4 != 0) {
        return Err(Error::new(ErrorKind::Limit, format!("{n} lanes"), at));
    }
    let per_lane = code.temps as usize + code.indexable_total as usize;
    if per_lane.saturating_mul(n) > MAX_LANE_REGISTERS {
        return Err(Error::new(ErrorKind::Limit, format!("{per_lane} registers × {n} lanes"), at));
    }
    for l in lanes.iter_mut() {
        if l.outputs.len() < code.output_regs as usize {
            l.outputs.resize(code.output_regs as usize, [0; 4]);
        }
    }
    let tgsm = code.tgsm.iter().map(|(&k, t)| (k, vec![0u32; t.words as usize])).collect();
    let mut m = Machine {
        rec,
        code,
        b,
        lanes,
        st: (0..n).map(|_| LaneState { pc: 0, calls: Vec::new(), done: false }).collect(),
        temps: vec![[0; 4]; code.temps as usize * n],
        xs: vec![[0; 4]; code.indexable_total as usize * n],
        tgsm,
        grouping,
        budget: limits.budget,
        executed: 0,
    };
    m.run_all()?;
    Ok(Stats { instructions: m.executed })
}

/// Runs one compute thread group `group` (lanes in SV_GroupIndex order);
/// returns the executed-instruction count.
pub fn run_group(code: &Code, b: &mut Bindings, group: [u32; 3], limits: Limits) -> Result<Stats> {
    run(code, b, &mut group_lanes(code, group), Grouping::Group, limits)
}

/// The lanes of compute thread group `group`, in SV_GroupIndex order, with
/// their thread ids set.
pub fn group_lanes(code: &Code, group: [u32; 3]) -> Vec<Lane> {
    let [gx, gy, gz] = code.thread_group;
    let mut lanes = Vec::with_capacity((gx * gy * gz) as usize);
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                let mut l = Lane::default();
                let flat = (z * gy + y) * gx + x;
                l.sys[crate::Sys::ThreadInGroup as usize] = [x, y, z, 0];
                l.sys[crate::Sys::GroupId as usize] = [group[0], group[1], group[2], 0];
                l.sys[crate::Sys::Flattened as usize] = [flat; 4];
                l.sys[crate::Sys::ThreadId as usize] = [
                    group[0].wrapping_mul(gx).wrapping_add(x),
                    group[1].wrapping_mul(gy).wrapping_add(y),
                    group[2].wrapping_mul(gz).wrapping_add(z),
                    0,
                ];
                lanes.push(l);
            }
        }
    }
    lanes
}

fn is_implicit_lod(op: Opcode) -> bool {
    matches!(op, Opcode::Sample | Opcode::SampleB | Opcode::SampleC | Opcode::Lod)
}

fn is_derivative(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::DerivRtx
            | Opcode::DerivRty
            | Opcode::DerivRtxCoarse
            | Opcode::DerivRtxFine
            | Opcode::DerivRtyCoarse
            | Opcode::DerivRtyFine
    )
}

fn swizzle(v: [u32; 4], s: [u8; 4]) -> [u32; 4] {
    [v[s[0] as usize & 3], v[s[1] as usize & 3], v[s[2] as usize & 3], v[s[3] as usize & 3]]
}

fn bits(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

impl<R: Recorder> Machine<'_, R> {
    fn rendezvous(&self, op: &Op) -> bool {
        match self.grouping {
            Grouping::Quads => is_derivative(op.code) || is_implicit_lod(op.code),
            Grouping::Group => op.code == Opcode::Sync && op.sync_threads,
            Grouping::Independent => false,
        }
    }

    fn run_all(&mut self) -> Result<()> {
        let n = self.lanes.len();
        loop {
            for l in 0..n {
                self.run_lane(l)?;
            }
            // Every lane is done or waits at a rendezvous: the lowest one runs.
            let Some(pc) = self.st.iter().filter(|s| !s.done).map(|s| s.pc).min() else { return Ok(()) };
            let group: Vec<usize> = (0..n).filter(|&l| !self.st[l].done && self.st[l].pc == pc).collect();
            self.charge(group.len() as u64, pc)?;
            if R::ON {
                let at = self.code.ops.get(pc as usize).map_or(0, |o| o.offset);
                for &l in &group {
                    self.rec.begin(l, at);
                }
            }
            self.joint(pc, &group)?;
            for &l in &group {
                self.st[l].pc = pc + 1;
            }
        }
    }

    fn charge(&mut self, n: u64, pc: u32) -> Result<()> {
        self.executed += n;
        if self.executed > self.budget {
            let at = self.code.ops.get(pc as usize).map_or(0, |o| o.offset);
            return Err(Error::new(ErrorKind::Budget, format!("{} instructions", self.budget), at));
        }
        Ok(())
    }

    fn run_lane(&mut self, l: usize) -> Result<()> {
        let code = self.code;
        loop {
            if self.st[l].done {
                return Ok(());
            }
            let pc = self.st[l].pc;
            let Some(op) = code.ops.get(pc as usize) else {
                self.st[l].done = true;
                return Ok(());
            };
            if self.rendezvous(op) {
                return Ok(());
            }
            self.executed += 1;
            if self.executed > self.budget {
                return Err(Error::new(ErrorKind::Budget, format!("{} instructions", self.budget), op.offset));
            }
            if R::ON {
                self.rec.begin(l, op.offset);
            }
            match self.exec(l, op)? {
                Flow::Next => self.st[l].pc = pc + 1,
                Flow::Jump(t) => self.st[l].pc = t,
                Flow::Done => self.st[l].done = true,
            }
        }
    }

    // ------------------------------------------------------------ operands

    fn index(&self, l: usize, i: &Idx) -> Result<u32> {
        Ok(match &i.rel {
            None => i.imm,
            Some(s) => i.imm.wrapping_add(self.src(l, s, ModKind::Int)?[0]),
        })
    }

    fn read(&self, l: usize, loc: &Loc) -> Result<[u32; 4]> {
        let code = self.code;
        Ok(match loc {
            Loc::Temp(r) => {
                let i = l * code.temps as usize + *r as usize;
                if *r < code.temps {
                    self.temps.get(i).copied().unwrap_or([0; 4])
                } else {
                    [0; 4]
                }
            }
            Loc::Input(i) => self.lanes[l].inputs.get(self.index(l, i)? as usize).copied().unwrap_or([0; 4]),
            Loc::InputVertex(v, r) => {
                let (v, r) = (self.index(l, v)? as usize, self.index(l, r)? as usize);
                let stride = code.input_regs as usize;
                if r >= stride {
                    [0; 4]
                } else {
                    self.lanes[l].inputs.get(v.saturating_mul(stride).saturating_add(r)).copied().unwrap_or([0; 4])
                }
            }
            Loc::ControlPoint(v, r) => self.control_point(l, &self.lanes[l].input_points, v, r)?,
            Loc::OutputControlPoint(v, r) => self.control_point(l, &self.lanes[l].control_points, v, r)?,
            Loc::PatchConstant(i) => {
                self.lanes[l].patch_constants.get(self.index(l, i)? as usize).copied().unwrap_or([0; 4])
            }
            Loc::Output(i) => self.lanes[l].outputs.get(self.index(l, i)? as usize).copied().unwrap_or([0; 4]),
            Loc::Indexable(reg, i) => match code.indexable.get(reg) {
                Some(&(len, base)) => {
                    let e = self.index(l, i)?;
                    if e < len {
                        self.xs[l * code.indexable_total as usize + (base + e) as usize]
                    } else {
                        // Out-of-range reads return 0 (D3D11 leaves them undefined).
                        [0; 4]
                    }
                }
                None => [0; 4],
            },
            Loc::Imm(v) => *v,
            Loc::Cb(slot, i) => {
                let e = self.index(l, i)? as usize;
                match self.b.cbs.get(slot) {
                    // Out-of-range constant-buffer reads return 0 (D3D11 5.4.2).
                    Some(words) => {
                        std::array::from_fn(|c| e.checked_mul(4).and_then(|w| words.get(w + c)).copied().unwrap_or(0))
                    }
                    None => [0; 4],
                }
            }
            Loc::Icb(i) => code.icb.get(self.index(l, i)? as usize).copied().unwrap_or([0; 4]),
            Loc::Sys(s) => self.lanes[l].sys[*s as usize],
            Loc::OutDepth => [self.lanes[l].depth; 4],
            Loc::OutMask => [self.lanes[l].coverage_out; 4],
            Loc::Null => [0; 4],
        })
    }

    /// Register `r` of control point `v` in `points` (0 out of range).
    fn control_point(&self, l: usize, points: &[[u32; 4]], v: &Idx, r: &Idx) -> Result<[u32; 4]> {
        let (v, r) = (self.index(l, v)? as usize, self.index(l, r)? as usize);
        Ok(if r >= CONTROL_POINT_REGS {
            [0; 4]
        } else {
            points.get(v.saturating_mul(CONTROL_POINT_REGS).saturating_add(r)).copied().unwrap_or([0; 4])
        })
    }

    /// A source through its swizzle and modifier, the modifier read as the
    /// instruction's number type (float sign bit, integer negation, or the
    /// sign of each double).
    fn src(&self, l: usize, s: &Src, k: ModKind) -> Result<[u32; 4]> {
        let mut v = swizzle(self.read(l, &s.loc)?, s.swz);
        if s.abs || s.neg {
            match k {
                ModKind::Float => {
                    for x in &mut v {
                        if s.abs {
                            *x &= 0x7fff_ffff;
                        }
                        if s.neg {
                            *x ^= 0x8000_0000;
                        }
                    }
                }
                ModKind::Int => {
                    for x in &mut v {
                        if s.abs {
                            *x = (*x as i32).wrapping_abs() as u32;
                        }
                        if s.neg {
                            *x = x.wrapping_neg();
                        }
                    }
                }
                ModKind::Double => {
                    for hi in [1, 3] {
                        if s.abs {
                            v[hi] &= 0x7fff_ffff;
                        }
                        if s.neg {
                            v[hi] ^= 0x8000_0000;
                        }
                    }
                }
            }
        }
        Ok(v)
    }

    fn write(&mut self, l: usize, d: &Dst, v: [u32; 4]) -> Result<()> {
        let code = self.code;
        let m = d.mask;
        let put = |r: &mut [u32; 4]| {
            for c in 0..4 {
                if m >> c & 1 == 1 {
                    r[c] = v[c];
                }
            }
        };
        match &d.loc {
            Loc::Temp(r) => {
                if *r < code.temps {
                    if let Some(x) = self.temps.get_mut(l * code.temps as usize + *r as usize) {
                        if R::ON {
                            self.rec.wrote(l, Reg::Temp(*r), m, *x, v);
                        }
                        put(x);
                    }
                }
            }
            Loc::Output(i) => {
                let i = self.index(l, i)? as usize;
                if let Some(x) = self.lanes[l].outputs.get_mut(i) {
                    if R::ON {
                        self.rec.wrote(l, Reg::Output(i as u32), m, *x, v);
                    }
                    put(x);
                }
            }
            Loc::Indexable(reg, i) => {
                if let Some(&(len, base)) = code.indexable.get(reg) {
                    let e = self.index(l, i)?;
                    // Out-of-range writes are dropped.
                    if e < len {
                        let at = l * code.indexable_total as usize + (base + e) as usize;
                        if let Some(x) = self.xs.get_mut(at) {
                            if R::ON {
                                self.rec.wrote(l, Reg::Indexable { reg: *reg, element: e }, m, *x, v);
                            }
                            put(x);
                        }
                    }
                }
            }
            Loc::OutDepth => {
                if R::ON {
                    self.rec.wrote(l, Reg::Depth, 1, [self.lanes[l].depth; 4], [v[first(m)]; 4]);
                }
                self.lanes[l].depth = v[first(m)]
            }
            Loc::OutMask => {
                if R::ON {
                    self.rec.wrote(l, Reg::CoverageMask, 1, [self.lanes[l].coverage_out; 4], [v[first(m)]; 4]);
                }
                self.lanes[l].coverage_out = v[first(m)]
            }
            Loc::Null => {}
            _ => return Err(self.malformed_at(l, "destination is not writable")),
        }
        Ok(())
    }

    fn malformed_at(&self, l: usize, what: &str) -> Error {
        let at = self.code.ops.get(self.st[l].pc as usize).map_or(0, |o| o.offset);
        Error::new(ErrorKind::Malformed, what.to_string(), at)
    }

    fn s(&self, l: usize, op: &Op, i: usize) -> Result<[u32; 4]> {
        match op.ops.get(i) {
            Some(Opnd::Src(s)) => self.src(l, s, op.modk),
            Some(Opnd::Dst(d)) => self.read(l, &d.loc),
            _ => Err(Error::new(ErrorKind::Malformed, format!("operand {i} is not a register"), op.offset)),
        }
    }

    /// A source read as floats (flushed: D3D11 3.1.3.3).
    fn sf(&self, l: usize, op: &Op, i: usize) -> Result<[f32; 4]> {
        Ok(self.s(l, op, i)?.map(f))
    }

    fn dst<'o>(&self, op: &'o Op, i: usize) -> Result<&'o Dst> {
        match op.ops.get(i) {
            Some(Opnd::Dst(d)) => Ok(d),
            _ => Err(Error::new(ErrorKind::Malformed, format!("operand {i} is not a destination"), op.offset)),
        }
    }

    fn out(&mut self, l: usize, op: &Op, i: usize, v: [u32; 4]) -> Result<()> {
        let d = self.dst(op, i)?;
        self.write(l, d, v)
    }

    fn holds(&self, l: usize, op: &Op) -> Result<bool> {
        let c = self.s(l, op, 0)?[0];
        Ok((c != 0) == op.nz)
    }

    fn float_op(&mut self, l: usize, op: &Op, n: usize, g: impl Fn(&[[f32; 4]; 3], usize) -> f32) -> Result<()> {
        let mut a = [[0f32; 4]; 3];
        for (i, x) in a.iter_mut().enumerate().take(n) {
            *x = self.sf(l, op, i + 1)?;
        }
        let r: [u32; 4] = std::array::from_fn(|c| fresult(g(&a, c), op.sat));
        self.out(l, op, 0, r)
    }

    fn int_op(&mut self, l: usize, op: &Op, n: usize, g: impl Fn(&[[u32; 4]; 4], usize) -> u32) -> Result<()> {
        let mut a = [[0u32; 4]; 4];
        for (i, x) in a.iter_mut().enumerate().take(n) {
            *x = self.s(l, op, i + 1)?;
        }
        let r: [u32; 4] = std::array::from_fn(|c| g(&a, c));
        self.out(l, op, 0, r)
    }

    fn cmp_f(&mut self, l: usize, op: &Op, g: impl Fn(f32, f32) -> bool) -> Result<()> {
        let (a, b) = (self.sf(l, op, 1)?, self.sf(l, op, 2)?);
        self.out(l, op, 0, std::array::from_fn(|c| mask(g(a[c], b[c]))))
    }

    /// The two doubles of a source (x,y and z,w).
    fn sd(&self, l: usize, op: &Op, i: usize) -> Result<[f64; 2]> {
        let v = self.s(l, op, i)?;
        Ok([d(v[0], v[1]), d(v[2], v[3])])
    }

    fn double_op(&mut self, l: usize, op: &Op, n: usize, g: impl Fn(&[[f64; 2]; 3], usize) -> f64) -> Result<()> {
        let mut a = [[0f64; 2]; 3];
        for (i, x) in a.iter_mut().enumerate().take(n) {
            *x = self.sd(l, op, i + 1)?;
        }
        let (lo0, hi0) = d_bits(g(&a, 0));
        let (lo1, hi1) = d_bits(g(&a, 1));
        self.out(l, op, 0, [lo0, hi0, lo1, hi1])
    }

    /// Writes per-double results into the written 32-bit components in order.
    fn out_packed(&mut self, l: usize, op: &Op, vals: [u32; 2]) -> Result<()> {
        let d = self.dst(op, 0)?;
        let mut v = [0u32; 4];
        let mut k = 0;
        for (c, x) in v.iter_mut().enumerate() {
            if d.mask >> c & 1 == 1 {
                *x = vals[k.min(1)];
                k += 1;
            }
        }
        self.out(l, op, 0, v)
    }

    // ------------------------------------------------------------ execute

    fn exec(&mut self, l: usize, op: &Op) -> Result<Flow> {
        use Opcode as O;
        let sat = op.sat;
        match op.code {
            // Control flow.
            O::If => return Ok(if self.holds(l, op)? { Flow::Next } else { Flow::Jump(op.jump) }),
            O::Else | O::Endloop | O::Break | O::Continue => return Ok(Flow::Jump(op.jump)),
            O::Breakc | O::Continuec => return Ok(if self.holds(l, op)? { Flow::Jump(op.jump) } else { Flow::Next }),
            O::Endif | O::Loop | O::Case | O::Default | O::Endswitch | O::Nop | O::DebugBreak => {}
            O::Switch => {
                let v = self.s(l, op, 0)?[0];
                let Some(c) = &op.cases else { return Err(self.malformed_at(l, "switch without cases")) };
                let t = c.cases.iter().find(|(x, _)| *x == v).map(|(_, t)| *t).or(c.default).unwrap_or(c.end);
                return Ok(Flow::Jump(t));
            }
            O::Label => return Ok(self.ret(l)),
            O::Ret => return Ok(self.ret(l)),
            O::Retc => return Ok(if self.holds(l, op)? { self.ret(l) } else { Flow::Next }),
            O::Call | O::Callc => {
                if op.code == O::Callc && !self.holds(l, op)? {
                    return Ok(Flow::Next);
                }
                if self.st[l].calls.len() >= MAX_CALL_DEPTH {
                    return Err(Error::new(ErrorKind::Limit, "subroutine nesting over 32", op.offset));
                }
                let back = self.st[l].pc + 1;
                self.st[l].calls.push(back);
                return Ok(Flow::Jump(op.jump));
            }
            O::Discard => {
                if self.holds(l, op)? {
                    // The pixel is killed; it keeps running as a helper lane
                    // so its quad's derivatives stay defined.
                    self.lanes[l].discarded = true;
                }
            }
            O::Abort => return Ok(Flow::Done),
            O::Emit | O::EmitStream | O::Emitthencut | O::EmitthencutStream => {
                let stream = match op.ops.first() {
                    Some(Opnd::Stream(s)) => *s,
                    _ => 0,
                };
                let lane = &mut self.lanes[l];
                if lane.emitted.len() >= MAX_EMITTED {
                    return Err(Error::new(ErrorKind::Limit, "over 1024 emitted vertices", op.offset));
                }
                let cut = matches!(op.code, O::Emitthencut | O::EmitthencutStream);
                lane.emitted.push(Emitted { stream, outputs: lane.outputs.clone(), cut_after: cut });
            }
            O::Cut | O::CutStream => {
                // The strip that ends is the stream's own.
                let stream = match op.ops.first() {
                    Some(Opnd::Stream(s)) => *s,
                    _ => 0,
                };
                if let Some(e) = self.lanes[l].emitted.iter_mut().rev().find(|e| e.stream == stream) {
                    e.cut_after = true;
                }
            }
            O::Sync => {}

            // Float arithmetic.
            O::Add => self.float_op(l, op, 2, |a, c| a[0][c] + a[1][c])?,
            O::Mul => self.float_op(l, op, 2, |a, c| a[0][c] * a[1][c])?,
            O::Div => self.float_op(l, op, 2, |a, c| a[0][c] / a[1][c])?,
            O::Mad => self.float_op(l, op, 3, |a, c| f(fresult(a[0][c] * a[1][c], false)) + a[2][c])?,
            O::Min => self.float_op(l, op, 2, |a, c| alu::fmin(a[0][c], a[1][c]))?,
            O::Max => self.float_op(l, op, 2, |a, c| alu::fmax(a[0][c], a[1][c]))?,
            O::Frc => self.float_op(l, op, 1, |a, c| a[0][c] - a[0][c].floor())?,
            O::RoundNe => self.float_op(l, op, 1, |a, c| a[0][c].round_ties_even())?,
            O::RoundNi => self.float_op(l, op, 1, |a, c| a[0][c].floor())?,
            O::RoundPi => self.float_op(l, op, 1, |a, c| a[0][c].ceil())?,
            O::RoundZ => self.float_op(l, op, 1, |a, c| a[0][c].trunc())?,
            O::Rcp => self.float_op(l, op, 1, |a, c| 1.0 / a[0][c])?,
            O::Rsq => self.float_op(l, op, 1, |a, c| 1.0 / a[0][c].sqrt())?,
            O::Sqrt => self.float_op(l, op, 1, |a, c| a[0][c].sqrt())?,
            O::Exp => self.float_op(l, op, 1, |a, c| a[0][c].exp2())?,
            O::Log => self.float_op(l, op, 1, |a, c| a[0][c].log2())?,
            O::Dp2 | O::Dp3 | O::Dp4 => {
                let n = match op.code {
                    O::Dp2 => 2,
                    O::Dp3 => 3,
                    _ => 4,
                };
                let (a, b) = (self.sf(l, op, 1)?, self.sf(l, op, 2)?);
                let mut acc = 0f32;
                for c in 0..n {
                    acc = f(fresult(acc + f(fresult(a[c] * b[c], false)), false));
                }
                self.out(l, op, 0, [fresult(acc, sat); 4])?;
            }
            O::Sincos => {
                let a = self.sf(l, op, 2)?;
                let sin: [u32; 4] = std::array::from_fn(|c| fresult(a[c].sin(), sat));
                let cos: [u32; 4] = std::array::from_fn(|c| fresult(a[c].cos(), sat));
                self.out(l, op, 0, sin)?;
                self.out(l, op, 1, cos)?;
            }
            O::Eq => self.cmp_f(l, op, |a, b| a == b)?,
            O::Ne => self.cmp_f(l, op, |a, b| a != b)?,
            O::Lt => self.cmp_f(l, op, |a, b| a < b)?,
            O::Ge => self.cmp_f(l, op, |a, b| a >= b)?,
            O::Ftoi => {
                let a = self.sf(l, op, 1)?;
                self.out(l, op, 0, a.map(alu::ftoi))?
            }
            O::Ftou => {
                let a = self.sf(l, op, 1)?;
                self.out(l, op, 0, a.map(alu::ftou))?
            }
            O::Itof => self.int_op(l, op, 1, |a, c| fresult(a[0][c] as i32 as f32, sat))?,
            O::Utof => self.int_op(l, op, 1, |a, c| fresult(a[0][c] as f32, sat))?,
            O::F32tof16 => {
                let a = self.s(l, op, 1)?;
                self.out(l, op, 0, a.map(alu::f32_to_f16))?
            }
            O::F16tof32 => self.int_op(l, op, 1, |a, c| {
                let v = alu::f16_to_f32(a[0][c]);
                if sat {
                    alu::saturate(v)
                } else {
                    v
                }
            })?,

            // Data movement keeps bits (denormals included).
            O::Mov => {
                let mut v = self.s(l, op, 1)?;
                if sat {
                    v = v.map(alu::saturate);
                }
                self.out(l, op, 0, v)?
            }
            O::Movc => {
                let (c, a, b) = (self.s(l, op, 1)?, self.s(l, op, 2)?, self.s(l, op, 3)?);
                let mut v: [u32; 4] = std::array::from_fn(|i| if c[i] != 0 { a[i] } else { b[i] });
                if sat {
                    v = v.map(alu::saturate);
                }
                self.out(l, op, 0, v)?
            }
            O::Swapc => {
                let (c, a, b) = (self.s(l, op, 2)?, self.s(l, op, 3)?, self.s(l, op, 4)?);
                let d0: [u32; 4] = std::array::from_fn(|i| if c[i] != 0 { b[i] } else { a[i] });
                let d1: [u32; 4] = std::array::from_fn(|i| if c[i] != 0 { a[i] } else { b[i] });
                self.out(l, op, 0, d0)?;
                self.out(l, op, 1, d1)?;
            }

            // Integer arithmetic.
            O::Iadd => self.int_op(l, op, 2, |a, c| a[0][c].wrapping_add(a[1][c]))?,
            O::Imad | O::Umad => self.int_op(l, op, 3, |a, c| a[0][c].wrapping_mul(a[1][c]).wrapping_add(a[2][c]))?,
            O::Ineg => self.int_op(l, op, 1, |a, c| a[0][c].wrapping_neg())?,
            O::Imax => self.int_op(l, op, 2, |a, c| (a[0][c] as i32).max(a[1][c] as i32) as u32)?,
            O::Imin => self.int_op(l, op, 2, |a, c| (a[0][c] as i32).min(a[1][c] as i32) as u32)?,
            O::Umax => self.int_op(l, op, 2, |a, c| a[0][c].max(a[1][c]))?,
            O::Umin => self.int_op(l, op, 2, |a, c| a[0][c].min(a[1][c]))?,
            O::And => self.int_op(l, op, 2, |a, c| a[0][c] & a[1][c])?,
            O::Or => self.int_op(l, op, 2, |a, c| a[0][c] | a[1][c])?,
            O::Xor => self.int_op(l, op, 2, |a, c| a[0][c] ^ a[1][c])?,
            O::Not => self.int_op(l, op, 1, |a, c| !a[0][c])?,
            // Shift counts use their low 5 bits (22.11.10).
            O::Ishl => self.int_op(l, op, 2, |a, c| a[0][c] << (a[1][c] & 31))?,
            O::Ishr => self.int_op(l, op, 2, |a, c| ((a[0][c] as i32) >> (a[1][c] & 31)) as u32)?,
            O::Ushr => self.int_op(l, op, 2, |a, c| a[0][c] >> (a[1][c] & 31))?,
            O::Ieq => self.int_op(l, op, 2, |a, c| mask(a[0][c] == a[1][c]))?,
            O::Ine => self.int_op(l, op, 2, |a, c| mask(a[0][c] != a[1][c]))?,
            O::Ilt => self.int_op(l, op, 2, |a, c| mask((a[0][c] as i32) < a[1][c] as i32))?,
            O::Ige => self.int_op(l, op, 2, |a, c| mask(a[0][c] as i32 >= a[1][c] as i32))?,
            O::Ult => self.int_op(l, op, 2, |a, c| mask(a[0][c] < a[1][c]))?,
            O::Uge => self.int_op(l, op, 2, |a, c| mask(a[0][c] >= a[1][c]))?,
            O::Countbits => self.int_op(l, op, 1, |a, c| a[0][c].count_ones())?,
            O::FirstbitHi => self.int_op(l, op, 1, |a, c| alu::firstbit_hi(a[0][c]))?,
            O::FirstbitLo => self.int_op(l, op, 1, |a, c| alu::firstbit_lo(a[0][c]))?,
            O::FirstbitShi => self.int_op(l, op, 1, |a, c| alu::firstbit_shi(a[0][c]))?,
            O::Bfrev => self.int_op(l, op, 1, |a, c| a[0][c].reverse_bits())?,
            O::Ubfe => self.int_op(l, op, 3, |a, c| alu::ubfe(a[0][c], a[1][c], a[2][c]))?,
            O::Ibfe => self.int_op(l, op, 3, |a, c| alu::ibfe(a[0][c], a[1][c], a[2][c]))?,
            O::Bfi => self.int_op(l, op, 4, |a, c| alu::bfi(a[0][c], a[1][c], a[2][c], a[3][c]))?,
            O::Msad => self.int_op(l, op, 3, |a, c| alu::msad(a[0][c], a[1][c], a[2][c]))?,
            O::Imul | O::Umul | O::Udiv | O::Uaddc | O::Usubb => {
                let (a, b) = (self.s(l, op, 2)?, self.s(l, op, 3)?);
                let mut hi = [0u32; 4];
                let mut lo = [0u32; 4];
                for c in 0..4 {
                    (hi[c], lo[c]) = match op.code {
                        O::Imul => {
                            let p = (a[c] as i32 as i64) * (b[c] as i32 as i64);
                            ((p >> 32) as u32, p as u32)
                        }
                        O::Umul => {
                            let p = a[c] as u64 * b[c] as u64;
                            ((p >> 32) as u32, p as u32)
                        }
                        O::Udiv => alu::udiv(a[c], b[c]),
                        O::Uaddc => {
                            let (s, carry) = a[c].overflowing_add(b[c]);
                            (s, carry as u32)
                        }
                        _ => {
                            let (s, borrow) = a[c].overflowing_sub(b[c]);
                            (s, borrow as u32)
                        }
                    };
                }
                self.out(l, op, 0, hi)?;
                self.out(l, op, 1, lo)?;
            }

            // Doubles.
            O::Dadd => self.double_op(l, op, 2, |a, k| a[0][k] + a[1][k])?,
            O::Dmul => self.double_op(l, op, 2, |a, k| a[0][k] * a[1][k])?,
            O::Ddiv => self.double_op(l, op, 2, |a, k| a[0][k] / a[1][k])?,
            O::Dmin => self.double_op(l, op, 2, |a, k| a[0][k].min(a[1][k]))?,
            O::Dmax => self.double_op(l, op, 2, |a, k| a[0][k].max(a[1][k]))?,
            O::Dfma => self.double_op(l, op, 3, |a, k| a[0][k].mul_add(a[1][k], a[2][k]))?,
            O::Drcp => self.double_op(l, op, 1, |a, k| 1.0 / a[0][k])?,
            O::Dmov => self.double_op(l, op, 1, |a, k| a[0][k])?,
            O::Dmovc => {
                let c = self.s(l, op, 1)?;
                let (a, b) = (self.s(l, op, 2)?, self.s(l, op, 3)?);
                // Each double takes the condition component of its low half.
                let v: [u32; 4] = std::array::from_fn(|i| if c[i & 2] != 0 { a[i] } else { b[i] });
                self.out(l, op, 0, v)?
            }
            O::Deq | O::Dne | O::Dlt | O::Dge | O::Dtof | O::Dtoi | O::Dtou => {
                let (a, b) = (self.sd(l, op, 1)?, self.sd(l, op, 2).unwrap_or([0.0; 2]));
                let r: [u32; 2] = std::array::from_fn(|k| match op.code {
                    O::Deq => mask(a[k] == b[k]),
                    O::Dne => mask(a[k] != b[k]),
                    O::Dlt => mask(a[k] < b[k]),
                    O::Dge => mask(a[k] >= b[k]),
                    O::Dtof => fresult(a[k] as f32, false),
                    O::Dtoi => (a[k] as i32) as u32,
                    _ => a[k] as u32,
                });
                self.out_packed(l, op, r)?
            }
            O::Ftod | O::Itod | O::Utod => {
                let a = self.s(l, op, 1)?;
                let conv = |x: u32| -> f64 {
                    match op.code {
                        O::Ftod => f(x) as f64,
                        O::Itod => x as i32 as f64,
                        _ => x as f64,
                    }
                };
                let d = self.dst(op, 0)?;
                // The first written pair takes source component 0, the second component 1.
                let (lo0, hi0) = d_bits(conv(a[0]));
                let second = if d.mask & 3 != 0 { a[1] } else { a[0] };
                let (lo1, hi1) = d_bits(conv(second));
                self.out(l, op, 0, [lo0, hi0, lo1, hi1])?
            }

            // Pixel-shader attribute evaluation: every pixel the runner shades
            // is fully covered, so the centroid and the single sample are the
            // pixel centre, where the input was interpolated.
            O::EvalCentroid | O::EvalSampleIndex => {
                let v = self.s(l, op, 1)?;
                self.out(l, op, 0, v)?
            }

            // Derivatives outside quads (vertex or compute lanes) are 0.
            O::DerivRtx | O::DerivRty | O::DerivRtxCoarse | O::DerivRtxFine | O::DerivRtyCoarse | O::DerivRtyFine => {
                self.out(l, op, 0, [0; 4])?
            }

            // Resources.
            O::Ld | O::LdMs | O::LdUavTyped => self.load(l, op)?,
            O::StoreUavTyped => self.store_typed(l, op)?,
            O::LdRaw | O::LdStructured => self.load_words(l, op)?,
            O::StoreRaw | O::StoreStructured => self.store_words(l, op)?,
            O::Resinfo => self.resinfo(l, op)?,
            O::Bufinfo => {
                let n = match op.ops.get(1) {
                    Some(Opnd::Srv(s, _)) => self.b.srvs.get(s),
                    Some(Opnd::Uav(s, _, _)) => self.b.uavs.get(s),
                    _ => None,
                };
                let n = match n {
                    Some(Resource::Buffer(b)) => match self.resource_stride(op, 1) {
                        Some(stride) if stride > 0 => (b.words.len() as u64 * 4 / stride as u64) as u32,
                        _ => b.element_count(),
                    },
                    _ => 0,
                };
                self.out(l, op, 0, [n; 4])?
            }
            O::SampleInfo => {
                let n = match op.ops.get(1) {
                    Some(Opnd::Rasterizer) => self.b.rasterizer_samples.max(1),
                    Some(Opnd::Srv(s, _)) => match self.b.srvs.get(s) {
                        Some(Resource::Texture(t)) => t.samples,
                        _ => 0,
                    },
                    _ => 0,
                };
                let v = if op.ret == 1 { n } else { (n as f32).to_bits() };
                self.out(l, op, 0, [v, 0, 0, 0])?
            }
            O::Sample | O::SampleB | O::SampleC | O::SampleL | O::SampleD | O::SampleCLz => self.sample(l, op, None)?,
            O::Gather4 | O::Gather4C | O::Gather4Po | O::Gather4PoC => self.gather(l, op)?,
            c if c.info().class == dxbc::spec::OpClass::Atomic => self.atomic(l, op)?,
            c => return Err(Error::new(ErrorKind::Unsupported(c), "", op.offset)),
        }
        Ok(Flow::Next)
    }

    fn ret(&mut self, l: usize) -> Flow {
        match self.st[l].calls.pop() {
            Some(t) => Flow::Jump(t),
            None => Flow::Done,
        }
    }

    // ------------------------------------------------------------ rendezvous

    fn joint(&mut self, pc: u32, group: &[usize]) -> Result<()> {
        let code = self.code;
        let Some(op) = code.ops.get(pc as usize) else { return Ok(()) };
        if op.code == Opcode::Sync {
            return Ok(());
        }
        // Every lane's result is computed before any is written: the
        // destination may be a register the neighbours' sources read.
        let mut results = Vec::with_capacity(group.len());
        if is_derivative(op.code) {
            for &l in group {
                let q = l & !3;
                let mut v = [[0f32; 4]; 4];
                for (k, x) in v.iter_mut().enumerate() {
                    *x = self.sf(q + k, op, 1)?;
                }
                let me = l & 3;
                let r: [f32; 4] = std::array::from_fn(|c| match op.code {
                    // Coarse (and the unspecified rate): one value per quad,
                    // from the top row and the left column.
                    Opcode::DerivRtx | Opcode::DerivRtxCoarse => v[1][c] - v[0][c],
                    Opcode::DerivRty | Opcode::DerivRtyCoarse => v[2][c] - v[0][c],
                    // Fine: per row / per column.
                    Opcode::DerivRtxFine => {
                        let row = me & 2;
                        v[row + 1][c] - v[row][c]
                    }
                    _ => {
                        let col = me & 1;
                        v[col + 2][c] - v[col][c]
                    }
                });
                results.push(r.map(|x| fresult(x, op.sat)));
            }
        } else {
            // Implicit-LOD samples: the quad's coordinates give the derivatives.
            for &l in group {
                let q = l & !3;
                let mut c = [[0f32; 4]; 4];
                for (k, x) in c.iter_mut().enumerate() {
                    *x = self.sf(q + k, op, 1)?;
                }
                results.push(self.sample_value(l, op, Some(c))?);
            }
        }
        for (&l, r) in group.iter().zip(results) {
            self.out(l, op, 0, r)?;
        }
        Ok(())
    }

    // ------------------------------------------------------------ resources

    fn srv_dim(&self, op: &Op, i: usize) -> ResourceDimension {
        match op.ops.get(i) {
            Some(Opnd::Srv(s, _)) => self.code.srv_dims.get(s).copied(),
            Some(Opnd::Uav(s, _, _)) => self.code.uav_dims.get(s).copied(),
            _ => None,
        }
        .unwrap_or(ResourceDimension::Unknown)
    }

    fn resource_stride(&self, op: &Op, i: usize) -> Option<u32> {
        match op.ops.get(i) {
            Some(Opnd::Srv(s, _)) => self.code.strides.get(&(false, *s)).copied(),
            Some(Opnd::Uav(s, _, _)) => self.code.strides.get(&(true, *s)).copied(),
            Some(Opnd::Tgsm(g, _, _)) => self.code.tgsm.get(g).map(|t| t.stride),
            _ => None,
        }
    }

    fn res_swz(op: &Op, i: usize) -> [u8; 4] {
        match op.ops.get(i) {
            Some(Opnd::Srv(_, s) | Opnd::Uav(_, s, _) | Opnd::Tgsm(_, s, _)) => *s,
            _ => [0, 1, 2, 3],
        }
    }

    fn resource(&self, op: &Op, i: usize) -> Option<&Resource> {
        match op.ops.get(i) {
            Some(Opnd::Srv(s, _)) => self.b.srvs.get(s),
            Some(Opnd::Uav(s, _, _)) => self.b.uavs.get(s),
            _ => None,
        }
    }

    /// Texel coordinates (x, y, z, layer) of an address for a dimension.
    fn split_address(dim: ResourceDimension, a: [u32; 4]) -> ([i32; 3], u32) {
        use ResourceDimension as D;
        let i = |k: usize| a[k] as i32;
        match dim {
            D::Texture1d => ([i(0), 0, 0], 0),
            D::Texture1darray => ([i(0), 0, 0], a[1]),
            D::Texture2darray | D::Texture2dmsarray | D::Texturecube | D::Texturecubearray => ([i(0), i(1), 0], a[2]),
            D::Texture3d => ([i(0), i(1), i(2)], 0),
            _ => ([i(0), i(1), 0], 0),
        }
    }

    fn load(&mut self, l: usize, op: &Op) -> Result<()> {
        let a = self.s(l, op, 1)?;
        let dim = self.srv_dim(op, 2);
        let swz = Self::res_swz(op, 2);
        let v = match self.resource(op, 2) {
            Some(Resource::Buffer(b)) => b.element(a[0]).unwrap_or([0; 4]),
            Some(Resource::Texture(t)) => {
                let (mut xyz, layer) = Self::split_address(dim, a);
                for (k, x) in xyz.iter_mut().enumerate() {
                    *x = x.wrapping_add(op.aoff[k]);
                }
                let level = if op.code == Opcode::Ld
                    && !matches!(dim, ResourceDimension::Texture2dms | ResourceDimension::Texture2dmsarray)
                {
                    a[3]
                } else {
                    0
                };
                t.texel(level, xyz[0], xyz[1], xyz[2], layer).unwrap_or([0; 4])
            }
            None => [0; 4],
        };
        self.out(l, op, 0, swizzle(v, swz))
    }

    /// Helper and discarded pixels write no memory (D3D11 16.8.1).
    fn writes_memory(&self, l: usize) -> bool {
        !(self.lanes[l].helper || self.lanes[l].discarded)
    }

    fn store_typed(&mut self, l: usize, op: &Op) -> Result<()> {
        if !self.writes_memory(l) {
            return Ok(());
        }
        let (a, v) = (self.s(l, op, 1)?, self.s(l, op, 2)?);
        let dim = self.srv_dim(op, 0);
        let slot = match op.ops.first() {
            Some(Opnd::Uav(s, _, _)) => *s,
            _ => return Err(Error::new(ErrorKind::Malformed, "store_uav_typed without a UAV", op.offset)),
        };
        // Words written: (index, old, new), for the recorder.
        let mut written = [(0u32, 0u32, 0u32); 4];
        let mut n_written = 0;
        match self.b.uavs.get_mut(&slot) {
            Some(Resource::Buffer(b)) => {
                if let Some((ch, n)) = b.typed {
                    let n = n.clamp(1, 4) as usize;
                    if let Some(start) = (a[0] as usize).checked_mul(n) {
                        if let Some(w) = b.words.get_mut(start..start + n) {
                            for (c, x) in w.iter_mut().enumerate() {
                                let old = *x;
                                *x = ch.store(v[c]);
                                written[c] = ((start + c) as u32, old, *x);
                            }
                            n_written = n;
                        }
                    }
                }
            }
            Some(Resource::Texture(t)) => {
                let (xyz, layer) = Self::split_address(dim, a);
                let at = texel_index(t, xyz, layer);
                let old = at.and_then(|i| t.levels.first()?.get(i).copied());
                t.store(0, xyz[0], xyz[1], xyz[2], layer, v);
                if let (Some(i), Some(old)) = (at, old) {
                    let new = t.levels.first().and_then(|lv| lv.get(i)).copied().unwrap_or(old);
                    n_written = t.components.clamp(1, 4) as usize;
                    for c in 0..n_written {
                        written[c] = ((i * 4 + c) as u32, old[c], new[c]);
                    }
                }
            }
            None => {}
        }
        if R::ON {
            for &(index, old, new) in &written[..n_written] {
                self.rec.stored(l, Memory::Uav(slot), index, old, new);
            }
        }
        Ok(())
    }

    /// Word storage of a raw/structured operand (buffer or group-shared memory).
    fn words_of(&mut self, op: &Op, i: usize) -> Option<&mut Vec<u32>> {
        match op.ops.get(i) {
            Some(Opnd::Srv(s, _)) => match self.b.srvs.get_mut(s) {
                Some(Resource::Buffer(b)) => Some(&mut b.words),
                _ => None,
            },
            Some(Opnd::Uav(s, _, _)) => match self.b.uavs.get_mut(s) {
                Some(Resource::Buffer(b)) => Some(&mut b.words),
                _ => None,
            },
            Some(Opnd::Tgsm(g, _, _)) => self.tgsm.get_mut(g),
            _ => None,
        }
    }

    /// Byte address of a raw or structured access (operands from `first`).
    fn byte_address(&self, l: usize, op: &Op, first: usize, res: usize) -> Result<u64> {
        let structured = matches!(op.code, Opcode::LdStructured | Opcode::StoreStructured);
        if structured {
            let (i, o) = (self.s(l, op, first)?[0], self.s(l, op, first + 1)?[0]);
            let stride = self.resource_stride(op, res).unwrap_or(0);
            Ok(i as u64 * stride as u64 + o as u64)
        } else {
            Ok(self.s(l, op, first)?[0] as u64)
        }
    }

    fn load_words(&mut self, l: usize, op: &Op) -> Result<()> {
        let res = if op.code == Opcode::LdStructured { 3 } else { 2 };
        let addr = self.byte_address(l, op, 1, res)? / 4;
        let swz = Self::res_swz(op, res);
        let words = self.words_of(op, res).map(|w| &*w);
        let v: [u32; 4] = std::array::from_fn(|c| {
            let at = addr + swz[c] as u64;
            // Out-of-bounds reads return 0 (D3D11 5.3.9).
            words.and_then(|w| w.get(at as usize)).copied().unwrap_or(0)
        });
        self.out(l, op, 0, v)
    }

    fn store_words(&mut self, l: usize, op: &Op) -> Result<()> {
        if !self.writes_memory(l) {
            return Ok(());
        }
        let vi = if op.code == Opcode::StoreStructured { 3 } else { 2 };
        let addr = self.byte_address(l, op, 1, 0)? / 4;
        let v = self.s(l, op, vi)?;
        let m = match op.ops.first() {
            Some(Opnd::Uav(_, _, m) | Opnd::Tgsm(_, _, m)) => *m,
            _ => return Err(Error::new(ErrorKind::Malformed, "store to something not a UAV or g#", op.offset)),
        };
        let memory = match op.ops.first() {
            Some(Opnd::Tgsm(g, _, _)) => Memory::Groupshared(*g),
            Some(Opnd::Uav(u, _, _)) => Memory::Uav(*u),
            _ => Memory::Uav(u32::MAX),
        };
        let mut written = [(0u32, 0u32, 0u32); 4];
        let mut n_written = 0;
        if let Some(words) = self.words_of(op, 0) {
            for (c, &x) in v.iter().enumerate() {
                if m >> c & 1 == 1 {
                    // Out-of-bounds writes are dropped.
                    let at = (addr + c as u64) as usize;
                    if let Some(w) = words.get_mut(at) {
                        written[n_written] = (at as u32, *w, x);
                        n_written += 1;
                        *w = x;
                    }
                }
            }
        }
        if R::ON {
            for &(index, old, new) in &written[..n_written] {
                self.rec.stored(l, memory, index, old, new);
            }
        }
        Ok(())
    }

    fn resinfo(&mut self, l: usize, op: &Op) -> Result<()> {
        use ResourceDimension as D;
        let mip = self.s(l, op, 1)?[0];
        let dim = self.srv_dim(op, 2);
        let swz = Self::res_swz(op, 2);
        let (dims, levels) = match self.resource(op, 2) {
            Some(Resource::Texture(t)) => {
                let levels = t.levels.len() as u32;
                if mip >= levels {
                    ([0, 0, 0], levels)
                } else {
                    let (w, h, d) = t.level_size(mip);
                    let layers =
                        if matches!(dim, D::Texturecube | D::Texturecubearray) { t.layers / 6 } else { t.layers };
                    let v = match dim {
                        D::Texture1d => [w, 0, 0],
                        D::Texture1darray => [w, layers, 0],
                        D::Texture2d | D::Texture2dms | D::Texturecube => [w, h, 0],
                        D::Texture3d => [w, h, d],
                        _ => [w, h, layers],
                    };
                    (v, levels)
                }
            }
            _ => ([0, 0, 0], 0),
        };
        let all = [dims[0], dims[1], dims[2], levels];
        // Return type: 0 float, 1 reciprocal float (levels stay plain float), 2 uint.
        let v: [u32; 4] = std::array::from_fn(|c| match op.ret {
            2 => all[c],
            1 if c < 3 => (1.0 / all[c] as f32).to_bits(),
            _ => (all[c] as f32).to_bits(),
        });
        let mut v = swizzle(v, swz);
        if op.sat && op.ret != 2 {
            v = v.map(alu::saturate);
        }
        self.out(l, op, 0, v)
    }

    fn sampler(&self, op: &Op, i: usize) -> Option<(crate::resources::Sampler, u8)> {
        match op.ops.get(i) {
            Some(Opnd::Sampler(s, c)) => Some((self.b.samplers.get(s).copied().unwrap_or_default(), *c)),
            _ => None,
        }
    }

    fn coords(dim: ResourceDimension, c: [f32; 4]) -> Option<([f32; 3], u32)> {
        use ResourceDimension as D;
        let layer = |x: f32| if x.is_nan() { 0 } else { x.round_ties_even().max(0.0) as u32 };
        Some(match dim {
            D::Texture1d => ([c[0], 0.5, 0.0], 0),
            D::Texture1darray => ([c[0], 0.5, 0.0], layer(c[1])),
            D::Texture2darray => ([c[0], c[1], 0.0], layer(c[2])),
            D::Texture3d => ([c[0], c[1], c[2]], 0),
            D::Texturecube | D::Texturecubearray => return None,
            _ => ([c[0], c[1], 0.0], 0),
        })
    }

    fn sample(&mut self, l: usize, op: &Op, quad: Option<[[f32; 4]; 4]>) -> Result<()> {
        let v = self.sample_value(l, op, quad)?;
        self.out(l, op, 0, v)
    }

    /// What a sample instruction returns (before the write).
    fn sample_value(&self, l: usize, op: &Op, quad: Option<[[f32; 4]; 4]>) -> Result<[u32; 4]> {
        use Opcode as O;
        let cf = self.sf(l, op, 1)?;
        let dim = self.srv_dim(op, 2);
        let swz = Self::res_swz(op, 2);
        let Some((s, _)) = self.sampler(op, 3) else {
            return Err(Error::new(ErrorKind::Malformed, "sample without a sampler", op.offset));
        };
        let Some((coord, layer)) = Self::coords(dim, cf) else {
            return Err(Error::new(ErrorKind::UnsupportedFeature, "cube-map sampling", op.offset));
        };
        let Some(Resource::Texture(t)) = self.resource(op, 2) else {
            return Ok([0; 4]);
        };
        let at = At { coord, layer, offset: op.aoff };
        let scalar = |i: usize| -> Result<f32> { Ok(self.sf(l, op, i)?[0]) };
        let implicit = |t: &crate::resources::Texture| -> f32 {
            match quad {
                Some(q) => {
                    let ddx: [f32; 3] = std::array::from_fn(|k| q[1][k] - q[0][k]);
                    let ddy: [f32; 3] = std::array::from_fn(|k| q[2][k] - q[0][k]);
                    texture::lod(t, ddx, ddy)
                }
                None => 0.0,
            }
        };
        let (lod, compare) = match op.code {
            O::Sample => (implicit(t), None),
            O::SampleB => (implicit(t) + scalar(4)?, None),
            O::SampleL => (scalar(4)?, None),
            O::SampleC => (implicit(t), Some(scalar(4)?)),
            O::SampleCLz => (0.0, Some(scalar(4)?)),
            O::SampleD => {
                let (dx, dy) = (self.sf(l, op, 4)?, self.sf(l, op, 5)?);
                (texture::lod(t, [dx[0], dx[1], dx[2]], [dy[0], dy[1], dy[2]]), None)
            }
            O::Lod => {
                return Err(Error::new(ErrorKind::Unsupported(O::Lod), "", op.offset));
            }
            _ => (0.0, None),
        };
        let lod = if matches!(op.code, O::SampleL | O::SampleCLz) { lod } else { lod + s.lod_bias };
        let v = texture::sample(t, &s, &at, lod, compare);
        let v = if compare.is_some() { [v[0]; 4] } else { v };
        Ok(swizzle(bits(v.map(|x| f(x.to_bits()))), swz))
    }

    fn gather(&mut self, l: usize, op: &Op) -> Result<()> {
        use Opcode as O;
        let po = matches!(op.code, O::Gather4Po | O::Gather4PoC);
        let (ri, si) = if po { (3, 4) } else { (2, 3) };
        let cf = self.sf(l, op, 1)?;
        let dim = self.srv_dim(op, ri);
        let swz = Self::res_swz(op, ri);
        let Some((s, channel)) = self.sampler(op, si) else {
            return Err(Error::new(ErrorKind::Malformed, "gather without a sampler", op.offset));
        };
        let Some((coord, layer)) = Self::coords(dim, cf) else {
            return Err(Error::new(ErrorKind::UnsupportedFeature, "cube-map gather", op.offset));
        };
        let mut offset = op.aoff;
        if po {
            // Programmable offsets use their low 6 bits, sign-extended (22.4.5).
            let o = self.s(l, op, 2)?;
            for k in 0..2 {
                offset[k] = ((o[k] << 26) as i32) >> 26;
            }
        }
        let compare = match op.code {
            O::Gather4C => Some(self.sf(l, op, 4)?[0]),
            O::Gather4PoC => Some(self.sf(l, op, 5)?[0]),
            _ => None,
        };
        let Some(Resource::Texture(t)) = self.resource(op, ri) else {
            return self.out(l, op, 0, [0; 4]);
        };
        let v = texture::gather(t, &s, &At { coord, layer, offset }, channel as usize, compare);
        self.out(l, op, 0, swizzle(v, swz))
    }

    fn atomic(&mut self, l: usize, op: &Op) -> Result<()> {
        use Opcode as O;
        if !self.writes_memory(l) {
            return Ok(());
        }
        // The immediate forms write the old value to a second destination first.
        let imm = dxbc::spec::destination_count(op.code.info()) == 2;
        let (ri, ai) = if imm { (1, 2) } else { (0, 1) };
        if matches!(op.code, O::ImmAtomicAlloc | O::ImmAtomicConsume) {
            let slot = match op.ops.get(1) {
                Some(Opnd::Uav(s, _, _)) => *s,
                _ => return Err(Error::new(ErrorKind::Malformed, "counter op without a UAV", op.offset)),
            };
            let old = match self.b.uavs.get_mut(&slot) {
                Some(Resource::Buffer(b)) => {
                    if op.code == O::ImmAtomicAlloc {
                        let o = b.counter;
                        b.counter = b.counter.wrapping_add(1);
                        o
                    } else {
                        b.counter = b.counter.wrapping_sub(1);
                        b.counter
                    }
                }
                _ => 0,
            };
            return self.out(l, op, 0, [old; 4]);
        }
        let a = self.s(l, op, ai)?;
        let v0 = self.s(l, op, ai + 1)?[0];
        let v1 = if matches!(op.code, O::AtomicCmpStore | O::ImmAtomicCmpExch) { self.s(l, op, ai + 2)?[0] } else { 0 };
        let dim = self.srv_dim(op, ri);
        let stride = self.resource_stride(op, ri).unwrap_or(0);
        // The word the atomic touches: raw (byte offset), structured (index,
        // offset), typed buffer (element) or typed texture (texel component 0).
        // The word and where it is (memory, index) for the recorder.
        let slot: Option<(&mut u32, Memory, u64)> = match op.ops.get(ri) {
            Some(Opnd::Tgsm(g, _, _)) => {
                let w = if stride > 0 { (a[0] as u64 * stride as u64 + a[1] as u64) / 4 } else { a[0] as u64 / 4 };
                self.tgsm.get_mut(g).and_then(|m| m.get_mut(w as usize)).map(|x| (x, Memory::Groupshared(*g), w))
            }
            Some(Opnd::Uav(s, _, _)) => match self.b.uavs.get_mut(s) {
                Some(Resource::Buffer(b)) => {
                    let w = match (dim, b.typed) {
                        (ResourceDimension::StructuredBuffer, _) => (a[0] as u64 * stride as u64 + a[1] as u64) / 4,
                        (ResourceDimension::RawBuffer, _) => a[0] as u64 / 4,
                        (_, Some((_, n))) => a[0] as u64 * n.clamp(1, 4) as u64,
                        _ => a[0] as u64 / 4,
                    };
                    b.words.get_mut(w as usize).map(|x| (x, Memory::Uav(*s), w))
                }
                Some(Resource::Texture(t)) => {
                    let (xyz, layer) = Self::split_address(dim, a);
                    texel_index(t, xyz, layer).and_then(|i| {
                        t.levels
                            .get_mut(0)
                            .and_then(|lv| lv.get_mut(i))
                            .map(|t| (&mut t[0], Memory::Uav(*s), i as u64 * 4))
                    })
                }
                None => None,
            },
            _ => return Err(Error::new(ErrorKind::Malformed, "atomic on something not a UAV or g#", op.offset)),
        };
        let mut written = None;
        let old = match slot {
            Some((w, memory, index)) => {
                let old = *w;
                *w = match op.code {
                    O::AtomicAnd | O::ImmAtomicAnd => old & v0,
                    O::AtomicOr | O::ImmAtomicOr => old | v0,
                    O::AtomicXor | O::ImmAtomicXor => old ^ v0,
                    O::AtomicIadd | O::ImmAtomicIadd => old.wrapping_add(v0),
                    O::AtomicImax | O::ImmAtomicImax => (old as i32).max(v0 as i32) as u32,
                    O::AtomicImin | O::ImmAtomicImin => (old as i32).min(v0 as i32) as u32,
                    O::AtomicUmax | O::ImmAtomicUmax => old.max(v0),
                    O::AtomicUmin | O::ImmAtomicUmin => old.min(v0),
                    O::ImmAtomicExch => v0,
                    O::AtomicCmpStore | O::ImmAtomicCmpExch => {
                        if old == v0 {
                            v1
                        } else {
                            old
                        }
                    }
                    c => return Err(Error::new(ErrorKind::Unsupported(c), "", op.offset)),
                };
                written = Some((memory, index as u32, old, *w));
                old
            }
            None => 0,
        };
        if let (true, Some((memory, index, old, new))) = (R::ON, written) {
            self.rec.stored(l, memory, index, old, new);
        }
        if imm {
            self.out(l, op, 0, [old; 4])?;
        }
        Ok(())
    }
}

/// Index in level 0 of texel (x, y, z) of `layer`, when it is inside.
fn texel_index(t: &crate::resources::Texture, xyz: [i32; 3], layer: u32) -> Option<usize> {
    let (w, h, d) = t.level_size(0);
    let inside = xyz.iter().all(|&x| x >= 0)
        && (xyz[0] as u32) < w
        && (xyz[1] as u32) < h
        && (xyz[2] as u32) < d
        && layer < t.layers;
    inside.then(|| {
        let slice = w as usize * h as usize * d as usize;
        layer as usize * slice + (xyz[2] as usize * h as usize + xyz[1] as usize) * w as usize + xyz[0] as usize
    })
}

fn first(m: u8) -> usize {
    (m.trailing_zeros() as usize).min(3)
}
