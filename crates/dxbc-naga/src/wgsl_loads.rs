//! # Loads written where they are used (WGSL only)
//!
//! naga's writers give every `Load` a `let` of its own, however often it is
//! used (`bake_ref_count` is 1 for loads: a load must happen where it
//! stands, before any later store). So a constant-buffer read used once
//! costs a line and a name the reader has to follow:
//!
//! ```text
//! let _e12 = cb0_[3];
//! let out_target = vec4<f32>(_e12.y, 0f, 0f, 0f);
//! ```
//!
//! A load from memory nothing in the dispatch can write reads the same
//! value wherever it is evaluated: a uniform buffer, and a storage buffer
//! bound read-only (WebGPU refuses a dispatch that binds one buffer both
//! read-only and writable, as D3D refuses an SRV and a UAV of one resource).
//! For such a load with one reference, this pass takes the load out of its
//! `Emit` range (and drops a name that only restates the place it reads,
//! `cb0_5` for `cb0[5]`), so the WGSL writer,
//! which bakes only what an `Emit` lists, prints it at its one use:
//! `vec4<f32>(cb0_[3].y, 0f, 0f, 0f)`. Its operands (an index) are either
//! written inline too, being pure, or already baked where they stood.
//!
//! A load of a variable (a function's local, a private or workgroup global,
//! a writable storage buffer, not an atomic) is written at its one use too
//! when that use is evaluated in the same block, after nothing but `Emit`s
//! and stores to other variables (no store at all for a storage buffer,
//! which another binding may alias), so no barrier, atomic or call lies
//! between: `r3_y = select(r3_y, _e38, c);` for
//! `let _e83 = r3_y; r1_y = …; r3_y = select(_e83, _e38, c);`. Where the
//! use is evaluated follows the writer's rule: up the chain of single
//! readers to the first that gets a `let`, or to the statement reading it.
//! A register's load (a local or private variable at constant indices)
//! read more than once goes the same way when every reader is evaluated so:
//! each prints `r3_y`, where a `let _e83 = r3_y;` stood before them.
//!
//! Only the WGSL writer gets this module: the validator requires every load
//! to be emitted, and the SPIR-V writer evaluates expressions only at their
//! `Emit`. The validation info stays the module's own (handles do not move;
//! only `Emit` ranges and names change), and the web's line links read the
//! same module ([`crate::wgsl_form`]) so lines and names stay matched.

use crate::ir_walk::{for_each_operand, for_each_statement_operand};
use naga::{AddressSpace, Expression as E, Function, Handle, Statement as S, StorageAccess};

/// Takes the loads `gone` marks out of their `Emit` ranges in `f`.
pub(crate) fn take_out(f: &mut Function, gone: &[bool]) {
    if gone.contains(&true) {
        f.named_expressions.retain(|h, _| !gone[h.index()]);
        crate::direct_io::split_emits(&mut f.body, gone);
    }
}

/// Per expression of `f`: whether it is a load written at its one use, of
/// read-only memory anywhere, or of a variable nothing stores to before
/// it is used ([`Uses::unstored_until_used`]).
pub(crate) fn inlined(module: &naga::Module, f: &Function, info: &naga::valid::FunctionInfo) -> Vec<bool> {
    let mut gone: Vec<bool> = f
        .expressions
        .iter()
        .map(|(h, e)| match *e {
            E::Load { pointer } => {
                info[h].ref_count == 1
                    && read_only_root(&module.global_variables, f, pointer)
                    && f.named_expressions.get(&h).is_none_or(|name| {
                        crate::lets::is_register_name(name) || restates_place(module, f, pointer, name)
                    })
            }
            _ => false,
        })
        .collect();
    if let Some(uses) = Uses::of(f) {
        // Readers before their operands (an operand's handle is lower), so
        // that an index loaded into a load taken out is judged where that
        // load is written.
        for (h, e) in f.expressions.iter().rev() {
            if let E::Load { pointer } = *e {
                if !gone[h.index()]
                    && f.named_expressions.get(&h).is_none_or(|name| crate::lets::is_register_name(name))
                    && info[h].ref_count >= 1
                    && uses.unstored_until_used(module, f, info, h, pointer, &gone)
                {
                    gone[h.index()] = true;
                }
            }
        }
    }
    gone
}

/// Where a statement stands: its block (numbered in walk order) and its
/// index in it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct At {
    block: usize,
    index: usize,
}

/// Who reads an expression.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Reader {
    Nobody,
    Expression(Handle<E>),
    Statement(At),
    Several,
}

/// The readers of each expression, where each is emitted, and the blocks.
struct Uses<'f> {
    readers: Vec<Reader>,
    /// Every reader of every `Load`, by the load's index (sorted once the
    /// walk is done): a load read more than once has them all here.
    load_reads: Vec<(usize, Reader)>,
    emitted_at: Vec<Option<At>>,
    blocks: Vec<&'f naga::Block>,
    exprs: &'f naga::Arena<E>,
}

impl<'f> Uses<'f> {
    /// None when `f` holds an expression or statement kind the walk does
    /// not know.
    fn of(f: &'f Function) -> Option<Uses<'f>> {
        let n = f.expressions.len();
        let mut u = Uses {
            readers: vec![Reader::Nobody; n],
            load_reads: Vec::new(),
            emitted_at: vec![None; n],
            blocks: Vec::new(),
            exprs: &f.expressions,
        };
        for (h, e) in f.expressions.iter() {
            let (readers, load_reads) = (&mut u.readers, &mut u.load_reads);
            if !for_each_operand(e, |o| add_reader(readers, load_reads, u.exprs, o, Reader::Expression(h))) {
                return None;
            }
        }
        let ok = u.walk(&f.body);
        u.load_reads.sort_by_key(|&(load, _)| load);
        ok.then_some(u)
    }

    /// Every reader of the load `load`.
    fn reads_of(&self, load: Handle<E>) -> &[(usize, Reader)] {
        let k = load.index();
        let from = self.load_reads.partition_point(|&(l, _)| l < k);
        let to = self.load_reads.partition_point(|&(l, _)| l <= k);
        &self.load_reads[from..to]
    }

    fn walk(&mut self, block: &'f naga::Block) -> bool {
        let id = self.blocks.len();
        self.blocks.push(block);
        for (index, s) in block.iter().enumerate() {
            let at = At { block: id, index };
            let (readers, load_reads, exprs) = (&mut self.readers, &mut self.load_reads, self.exprs);
            if !for_each_statement_operand(s, |o| add_reader(readers, load_reads, exprs, o, Reader::Statement(at))) {
                return false;
            }
            let nested_ok = match s {
                S::Emit(range) => {
                    range.clone().for_each(|h| self.emitted_at[h.index()] = Some(at));
                    true
                }
                S::Block(b) => self.walk(b),
                S::If { accept, reject, .. } => self.walk(accept) && self.walk(reject),
                S::Switch { cases, .. } => cases.iter().all(|c| self.walk(&c.body)),
                S::Loop { body, continuing, .. } => self.walk(body) && self.walk(continuing),
                _ => true,
            };
            if !nested_ok {
                return false;
            }
        }
        true
    }

    /// Whether the load `load` of `pointer`, a function or private variable,
    /// reads the same value where the WGSL writer would print it once taken
    /// out of its `Emit` as where it stands: the statement that evaluates
    /// it (that of the first reader up its chain of single readers that
    /// gets a `let`, or the statement reading that chain) is in the load's
    /// block, at or after it, with nothing between but `Emit`s and stores
    /// to other variables. A loop's `break_if` is evaluated after its
    /// body, so a load read there stays.
    ///
    /// A load read more than once is printed at each of its readers, so
    /// each is evaluated again there: this holds for a register (a local
    /// or private variable, which only this invocation writes) when every
    /// reader is evaluated so, with nothing but `Emit`s and stores to other
    /// variables up to the last of them. `let _e5 = r0_x;` then goes, and
    /// its readers read `r0_x`.
    fn unstored_until_used(
        &self,
        module: &naga::Module,
        f: &Function,
        info: &naga::valid::FunctionInfo,
        load: Handle<E>,
        pointer: Handle<E>,
        gone: &[bool],
    ) -> bool {
        let Some(root) = variable_root(module, f, pointer) else { return false };
        // An atomic's load keeps its place among the invocation's atomics.
        if let naga::TypeInner::Pointer { base, .. } = *info[pointer].ty.inner_with(&module.types) {
            if matches!(module.types[base].inner, naga::TypeInner::Atomic(_)) {
                return false;
            }
        }
        let Some(from) = self.emitted_at[load.index()] else { return false };
        let mut last = from.index;
        let mut evaluated_in_block = |reader: Reader| match self.evaluated_at(f, info, reader, gone) {
            Some(at) if at.block == from.block && at.index >= from.index => {
                last = last.max(at.index);
                true
            }
            _ => false,
        };
        let reads = self.reads_of(load);
        // A load read more than once is repeated at each reader: only a
        // register's plain name is worth that, not a computed index.
        let repeatable =
            reads.len() == 1 || matches!(root, Root::Local(_) | Root::Private(_)) && constant_place(f, pointer);
        if !repeatable || reads.len() != info[load].ref_count || !reads.iter().all(|&(_, r)| evaluated_in_block(r)) {
            return false;
        }
        let block = self.blocks[from.block];
        (from.index + 1..last).all(|k| match &block[k] {
            S::Emit(_) => true,
            // Two writable bindings may be one buffer: a storage load moves
            // past no store.
            S::Store { pointer, .. } => {
                !matches!(root, Root::Storage(_))
                    && variable_root(module, f, *pointer).is_some_and(|r| r != root && !matches!(r, Root::Storage(_)))
            }
            _ => false,
        })
    }

    /// The statement that evaluates `reader` as the WGSL writer prints it:
    /// that of the first reader up its chain of single readers that gets a
    /// `let`, or the statement reading that chain.
    fn evaluated_at(
        &self,
        f: &Function,
        info: &naga::valid::FunctionInfo,
        reader: Reader,
        gone: &[bool],
    ) -> Option<At> {
        let mut reader = reader;
        loop {
            match reader {
                Reader::Statement(at) => {
                    let s = &self.blocks[at.block][at.index];
                    let evaluates = matches!(
                        s,
                        S::Store { .. } | S::If { .. } | S::Switch { .. } | S::Return { .. } | S::Call { .. }
                    );
                    return evaluates.then_some(at);
                }
                Reader::Expression(e) => {
                    let at = self.emitted_at[e.index()]?;
                    if !gone[e.index()] && baked(f, info, e) {
                        return Some(at);
                    }
                    if info[e].ref_count != 1 {
                        return None;
                    }
                    reader = self.readers[e.index()];
                }
                Reader::Nobody | Reader::Several => return None,
            }
        }
    }
}

/// Whether `pointer` is a variable, or constant indices into one.
fn constant_place(f: &Function, mut pointer: Handle<E>) -> bool {
    loop {
        match f.expressions[pointer] {
            E::AccessIndex { base, .. } => pointer = base,
            E::LocalVariable(_) | E::GlobalVariable(_) => return true,
            _ => return false,
        }
    }
}

fn add_reader(
    readers: &mut [Reader],
    load_reads: &mut Vec<(usize, Reader)>,
    exprs: &naga::Arena<E>,
    operand: Handle<E>,
    reader: Reader,
) {
    if matches!(exprs[operand], E::Load { .. }) {
        load_reads.push((operand.index(), reader));
    }
    let r = &mut readers[operand.index()];
    *r = match *r {
        Reader::Nobody => reader,
        _ => Reader::Several,
    };
}

/// Whether naga's WGSL writer gives the emitted expression `h` a `let` (its
/// rule: a name, the kinds it always bakes, or as many references as the
/// kind's `bake_ref_count`).
fn baked(f: &Function, info: &naga::valid::FunctionInfo, h: Handle<E>) -> bool {
    let e = &f.expressions[h];
    f.named_expressions.contains_key(&h)
        || matches!(e, E::ImageLoad { .. } | E::ImageQuery { .. } | E::ImageSample { .. })
        || e.bake_ref_count() <= info[h].ref_count
}

/// The variable an access chain starts from, when a load from it may move
/// later in this invocation's code past what [`Uses::unstored_until_used`]
/// allows: a function's local or a private global (only this invocation
/// stores to them), a workgroup variable or a writable storage buffer
/// (other invocations' stores are ordered against this one's loads only by
/// a barrier or an atomic, which no load moves past; WGSL's memory model,
/// like D3D's, lets a load move within an invocation where nothing
/// synchronises).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Root {
    Local(Handle<naga::LocalVariable>),
    Private(Handle<naga::GlobalVariable>),
    Workgroup(Handle<naga::GlobalVariable>),
    Storage(Handle<naga::GlobalVariable>),
}

fn variable_root(module: &naga::Module, f: &Function, mut pointer: Handle<E>) -> Option<Root> {
    loop {
        match f.expressions[pointer] {
            E::Access { base, .. } | E::AccessIndex { base, .. } => pointer = base,
            E::LocalVariable(v) => return Some(Root::Local(v)),
            E::GlobalVariable(g) => {
                return match module.global_variables[g].space {
                    AddressSpace::Private => Some(Root::Private(g)),
                    AddressSpace::WorkGroup => Some(Root::Workgroup(g)),
                    AddressSpace::Storage { .. } => Some(Root::Storage(g)),
                    _ => None,
                };
            }
            _ => return None,
        }
    }
}

/// Whether `name` only restates the place `pointer` reads, as the
/// lowering names a row of a buffer that has no variables (`cb0_5` for
/// `cb0[5]`): the global's name, then `_` and each constant index. A name
/// that says more (a constant-buffer variable's) keeps its `let`.
fn restates_place(module: &naga::Module, f: &Function, mut pointer: Handle<E>, name: &str) -> bool {
    let mut indices = Vec::new();
    loop {
        match f.expressions[pointer] {
            E::AccessIndex { base, index } => {
                indices.push(index);
                pointer = base;
            }
            E::GlobalVariable(g) => {
                let Some(global) = module.global_variables[g].name.as_deref() else { return false };
                let mut place = global.to_string();
                for index in indices.iter().rev() {
                    place.push_str(&format!("_{index}"));
                }
                return place == name;
            }
            _ => return false,
        }
    }
}

/// Whether `pointer` is an access chain into a uniform buffer or a storage
/// buffer bound read-only.
pub(crate) fn read_only_root(
    globals: &naga::Arena<naga::GlobalVariable>,
    f: &Function,
    mut pointer: Handle<E>,
) -> bool {
    loop {
        match f.expressions[pointer] {
            E::Access { base, .. } | E::AccessIndex { base, .. } => pointer = base,
            E::GlobalVariable(g) => {
                return match globals[g].space {
                    AddressSpace::Uniform => true,
                    AddressSpace::Storage { access } => !access.contains(StorageAccess::STORE),
                    _ => false,
                };
            }
            _ => return false,
        }
    }
}
