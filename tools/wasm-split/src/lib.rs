//! Splits a wasm module in two after the release build: the functions a
//! profile never saw run move to a secondary module, with (given the
//! linked module's relocations, [`DataLayout`]) the data only they can
//! reach; the primary keeps everything else (memory, tables, globals, the
//! other data, imports, exports) and a small stub in place of each moved
//! function. The secondary writes its data into the primary's memory as
//! active segments when it is instantiated.
//!
//! A stub keeps its function's index and type, so nothing that refers to
//! it changes (calls, exports, table slots, wasm-bindgen's glue). On its
//! first call it calls the one new import, `__split.load`, which the
//! loader (web/boot.js) answers by instantiating the secondary against the
//! primary's exports, unless it already has (it also does so in the
//! background, once the secondary is compiled). The secondary's active
//! element segment writes the real functions into table slots appended to
//! the primary's function table; every stub then forwards its arguments
//! with `call_indirect` to its slot. Once loaded, a moved function costs one indirect call more.
//!
//! The profile comes from [`instrument`]: a copy of the module whose
//! functions each set an exported global ([`PROFILE_EXPORT`]) when they run. Functions that touch data or element
//! segments by index (`memory.init`, `data.drop`, `table.init`,
//! `elem.drop`) stay in the primary, which owns those segments.

use std::borrow::Cow;
use std::fmt;

use wasm_encoder::reencode::{self, Reencode, RoundtripReencoder};
use wasm_encoder::{
    CodeSection, ConstExpr, ElementSection, Elements, EntityType, ExportKind, ExportSection, FunctionSection,
    GlobalSection, ImportSection, Instruction, Module, RawSection, TableSection, TypeSection, ValType,
};
use wasmparser::{Operator, Parser, Payload, TypeRef};

mod data;
pub use data::DataLayout;

/// The primary's import that loads the secondary: module and name.
pub const LOAD_IMPORT: (&str, &str) = ("__split", "load");
/// The secondary imports the primary's exports from this module name.
pub const PRIMARY_MODULE: &str = "__primary";
/// The instrumented module's exports of its marks: this prefix and the
/// function's position among defined functions (a global, 1 once it has run).
pub const PROFILE_EXPORT: &str = "__split_ran";

/// Why a module could not be instrumented or split.
#[derive(Debug)]
pub enum SplitError {
    /// The input is not a valid module (wasmparser's message has the offset).
    Parse(wasmparser::BinaryReaderError),
    /// Re-encoding failed (an index or type the encoder cannot express).
    Reencode(String),
    /// The module has no defined funcref table to hold the moved functions.
    NoFunctionTable,
    /// The module defines no memory or no globals (every Rust module has both).
    MissingSection(&'static str),
    /// The module uses exception tags, which this splitter does not move.
    Tags,
    /// The profile's length is not the number of defined functions.
    ProfileLength { expected: usize, found: usize },
    /// An output failed validation (a bug here, never a bad input).
    Invalid { which: &'static str, error: wasmparser::BinaryReaderError },
    /// The linked module has no `linking` section (link with `--emit-relocs`).
    NoRelocations,
    /// The linked module's symbols or relocations do not describe its data.
    BadLinking(&'static str),
    /// The optimised module's data differs from the linked module's here:
    /// the two are not the same build, or a tool moved data.
    DataMoved { address: u32 },
    /// The module's data is not all active segments at constant addresses in memory 0.
    UnmovableData,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::Parse(e) => write!(f, "invalid input module: {e}"),
            SplitError::Reencode(e) => write!(f, "cannot re-encode the module: {e}"),
            SplitError::NoFunctionTable => write!(f, "the module defines no funcref table"),
            SplitError::MissingSection(s) => write!(f, "the module defines no {s}"),
            SplitError::Tags => write!(f, "the module uses exception tags"),
            SplitError::ProfileLength { expected, found } => {
                write!(f, "the profile has {found} entries for {expected} defined functions")
            }
            SplitError::Invalid { which, error } => write!(f, "the {which} module is invalid: {error}"),
            SplitError::NoRelocations => {
                write!(f, "the linked module has no linking section (link with --emit-relocs)")
            }
            SplitError::BadLinking(what) => write!(f, "the linked module's linking data is inconsistent: {what}"),
            SplitError::DataMoved { address } => {
                write!(f, "the optimised module's data differs from the linked module's (at address {address:#x})")
            }
            SplitError::UnmovableData => {
                write!(f, "the module's data is not all active segments at constant addresses in memory 0")
            }
        }
    }
}

impl std::error::Error for SplitError {}

impl From<wasmparser::BinaryReaderError> for SplitError {
    fn from(e: wasmparser::BinaryReaderError) -> Self {
        SplitError::Parse(e)
    }
}

impl<E: fmt::Debug> From<reencode::Error<E>> for SplitError {
    fn from(e: reencode::Error<E>) -> Self {
        match e {
            reencode::Error::ParseError(p) => SplitError::Parse(p),
            other => SplitError::Reencode(format!("{other:?}")),
        }
    }
}

/// What the splitter needs to know about a function's body.
struct BodyInfo {
    /// Functions it names (`call`, `return_call`, `ref.func`), in the input's index space.
    callees: Vec<u32>,
    /// Functions it takes references of (`ref.func`).
    refs: Vec<u32>,
    /// Whether it names a data or element segment, which must stay in the primary.
    uses_segments: bool,
    /// The values in it that may be data addresses ([`data::addresses_in`]).
    addresses: Vec<u32>,
}

/// The input module's index spaces and sections, read once.
struct Info {
    /// Every function's type index, imported ones first.
    func_types: Vec<u32>,
    imported_funcs: u32,
    /// Per type index: the function signature, or None for a non-function type.
    types: Vec<Option<(Vec<wasmparser::ValType>, Vec<wasmparser::ValType>)>>,
    /// The type section's bytes, copied unchanged into the secondary.
    type_section: Option<std::ops::Range<usize>>,
    tables: Vec<wasmparser::TableType>,
    imported_tables: u32,
    memories: Vec<wasmparser::MemoryType>,
    imported_memories: u32,
    globals: Vec<wasmparser::GlobalType>,
    bodies: Vec<BodyInfo>,
    /// Functions named outside any body: exports, element segments, the
    /// start function, global initialisers (input index space).
    outside_refs: Vec<u32>,
    /// Values in global initialisers that may be data addresses.
    global_addresses: Vec<u32>,
    /// The active data segments: address and the bytes' range in the input;
    /// None when some segment is passive or not at a constant address.
    data: Option<Vec<(u32, std::ops::Range<usize>)>>,
    has_import_section: bool,
    has_global_section: bool,
    has_export_section: bool,
    has_tags: bool,
}

impl Info {
    fn read(wasm: &[u8]) -> Result<Info, SplitError> {
        let mut info = Info {
            func_types: Vec::new(),
            imported_funcs: 0,
            types: Vec::new(),
            type_section: None,
            tables: Vec::new(),
            imported_tables: 0,
            memories: Vec::new(),
            imported_memories: 0,
            globals: Vec::new(),
            bodies: Vec::new(),
            outside_refs: Vec::new(),
            global_addresses: Vec::new(),
            data: Some(Vec::new()),
            has_import_section: false,
            has_global_section: false,
            has_export_section: false,
            has_tags: false,
        };
        for payload in Parser::new(0).parse_all(wasm) {
            match payload? {
                Payload::TypeSection(reader) => {
                    info.type_section = Some(reader.range());
                    for group in reader {
                        for sub in group?.into_types() {
                            info.types.push(match sub.composite_type.inner {
                                wasmparser::CompositeInnerType::Func(f) => {
                                    Some((f.params().to_vec(), f.results().to_vec()))
                                }
                                _ => None,
                            });
                        }
                    }
                }
                Payload::ImportSection(reader) => {
                    info.has_import_section = true;
                    for import in reader.into_imports() {
                        match import?.ty {
                            TypeRef::Func(t) | TypeRef::FuncExact(t) => {
                                info.func_types.push(t);
                                info.imported_funcs += 1;
                            }
                            TypeRef::Table(t) => {
                                info.tables.push(t);
                                info.imported_tables += 1;
                            }
                            TypeRef::Memory(m) => {
                                info.memories.push(m);
                                info.imported_memories += 1;
                            }
                            TypeRef::Global(g) => info.globals.push(g),
                            TypeRef::Tag(_) => info.has_tags = true,
                        }
                    }
                }
                Payload::FunctionSection(reader) => {
                    for t in reader {
                        info.func_types.push(t?);
                    }
                }
                Payload::TableSection(reader) => {
                    for t in reader {
                        info.tables.push(t?.ty);
                    }
                }
                Payload::MemorySection(reader) => {
                    for m in reader {
                        info.memories.push(m?);
                    }
                }
                Payload::GlobalSection(reader) => {
                    info.has_global_section = true;
                    for g in reader {
                        let g = g?;
                        info.globals.push(g.ty);
                        const_expr_refs(&g.init_expr, &mut info.outside_refs)?;
                        let mut ops = g.init_expr.get_operators_reader();
                        while !ops.eof() {
                            data::addresses_in(&ops.read()?, &mut info.global_addresses);
                        }
                    }
                }
                Payload::ExportSection(reader) => {
                    info.has_export_section = true;
                    for e in reader {
                        let e = e?;
                        if e.kind == wasmparser::ExternalKind::Func {
                            info.outside_refs.push(e.index);
                        }
                    }
                }
                Payload::StartSection { func, .. } => info.outside_refs.push(func),
                Payload::ElementSection(reader) => {
                    for e in reader {
                        match e?.items {
                            wasmparser::ElementItems::Functions(funcs) => {
                                for f in funcs {
                                    info.outside_refs.push(f?);
                                }
                            }
                            wasmparser::ElementItems::Expressions(_, exprs) => {
                                for e in exprs {
                                    const_expr_refs(&e?, &mut info.outside_refs)?;
                                }
                            }
                        }
                    }
                }
                Payload::TagSection(_) => info.has_tags = true,
                Payload::DataSection(reader) => {
                    for d in reader {
                        let d = d?;
                        let at = match &d.kind {
                            wasmparser::DataKind::Active { memory_index: 0, offset_expr } => {
                                data::const_i32(offset_expr)
                            }
                            _ => None,
                        };
                        match (at, info.data.as_mut()) {
                            (Some(at), Some(segments)) => segments.push((at, d.range.end - d.data.len()..d.range.end)),
                            _ => info.data = None,
                        }
                    }
                }
                Payload::CodeSectionEntry(body) => info.bodies.push(body_info(&body)?),
                _ => {}
            }
        }
        Ok(info)
    }

    fn defined_funcs(&self) -> usize {
        self.bodies.len()
    }

    /// The function signature of function `func` (input index space).
    fn signature(&self, func: u32) -> Result<&(Vec<wasmparser::ValType>, Vec<wasmparser::ValType>), SplitError> {
        let ty = self.func_types.get(func as usize).copied();
        ty.and_then(|t| self.types.get(t as usize))
            .and_then(|t| t.as_ref())
            .ok_or_else(|| SplitError::Reencode(format!("function {func} has no function type")))
    }

    /// The defined funcref table that receives the moved functions.
    fn function_table(&self) -> Result<u32, SplitError> {
        (self.imported_tables as usize..self.tables.len())
            .find(|&i| self.tables[i].element_type == wasmparser::RefType::FUNCREF && !self.tables[i].table64)
            .map(|i| i as u32)
            .ok_or(SplitError::NoFunctionTable)
    }
}

/// Adds the functions `expr` takes references of to `out`.
fn const_expr_refs(expr: &wasmparser::ConstExpr<'_>, out: &mut Vec<u32>) -> Result<(), SplitError> {
    let mut ops = expr.get_operators_reader();
    while !ops.eof() {
        if let Operator::RefFunc { function_index } = ops.read()? {
            out.push(function_index);
        }
    }
    Ok(())
}

fn body_info(body: &wasmparser::FunctionBody<'_>) -> Result<BodyInfo, SplitError> {
    let mut info = BodyInfo { callees: Vec::new(), refs: Vec::new(), uses_segments: false, addresses: Vec::new() };
    let mut ops = body.get_operators_reader()?;
    while !ops.eof() {
        let op = ops.read()?;
        data::addresses_in(&op, &mut info.addresses);
        match op {
            Operator::Call { function_index } | Operator::ReturnCall { function_index } => {
                info.callees.push(function_index)
            }
            Operator::RefFunc { function_index } => {
                info.callees.push(function_index);
                info.refs.push(function_index);
            }
            Operator::MemoryInit { .. }
            | Operator::DataDrop { .. }
            | Operator::TableInit { .. }
            | Operator::ElemDrop { .. } => info.uses_segments = true,
            _ => {}
        }
    }
    Ok(info)
}

/// Returns a copy of `wasm` that records which defined functions run: the
/// `i`-th defined function sets a new global, exported as
/// [`PROFILE_EXPORT`] followed by `i`, to 1. Indices and behaviour are otherwise unchanged.
/// (One global per function rather than a byte array in a second memory:
/// node 20's V8 has no multi-memory, and the tests run the output there.)
pub fn instrument(wasm: &[u8]) -> Result<Vec<u8>, SplitError> {
    let info = Info::read(wasm)?;
    if !info.has_global_section {
        return Err(SplitError::MissingSection("global section"));
    }
    if !info.has_export_section {
        return Err(SplitError::MissingSection("export section"));
    }
    let mut enc =
        Instrumenter { first_mark: info.globals.len() as u32, marks: info.defined_funcs() as u32, next_body: 0 };
    let mut module = Module::new();
    enc.parse_core_module(&mut module, Parser::new(0), wasm)?;
    let out = module.finish();
    validate(&out, "instrumented")?;
    Ok(out)
}

struct Instrumenter {
    /// The global of defined function 0; the others follow.
    first_mark: u32,
    marks: u32,
    next_body: u32,
}

impl Reencode for Instrumenter {
    type Error = std::convert::Infallible;

    fn parse_global_section(
        &mut self,
        globals: &mut GlobalSection,
        section: wasmparser::GlobalSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_global_section(self, globals, section)?;
        let ty = wasm_encoder::GlobalType { val_type: ValType::I32, mutable: true, shared: false };
        for _ in 0..self.marks {
            globals.global(ty, &ConstExpr::i32_const(0));
        }
        Ok(())
    }

    fn parse_export_section(
        &mut self,
        exports: &mut ExportSection,
        section: wasmparser::ExportSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_export_section(self, exports, section)?;
        for i in 0..self.marks {
            exports.export(&format!("{PROFILE_EXPORT}{i}"), ExportKind::Global, self.first_mark + i);
        }
        Ok(())
    }

    fn parse_function_body(
        &mut self,
        code: &mut CodeSection,
        func: wasmparser::FunctionBody<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        let mut f = self.new_function_with_parsed_locals(&func)?;
        f.instruction(&Instruction::I32Const(1));
        f.instruction(&Instruction::GlobalSet(self.first_mark + self.next_body));
        self.next_body += 1;
        let mut ops = func.get_operators_reader()?;
        while !ops.eof() {
            f.instruction(&self.parse_instruction(&mut ops)?);
        }
        code.function(&f);
        Ok(())
    }
}

/// The two halves of a split module and what moved.
pub struct Split {
    pub primary: Vec<u8>,
    pub secondary: Vec<u8>,
    /// Defined functions moved to the secondary.
    pub moved: usize,
    /// Defined functions kept in the primary.
    pub kept: usize,
    /// Data bytes moved to the secondary.
    pub moved_data: usize,
}

/// Runs of unreachable data shorter than this stay in the primary: a
/// segment of their own would cost about as much as it saves.
const MIN_MOVED_DATA: u32 = 16;

/// The data segments of both halves, when data moves.
struct DataPlan {
    primary: Vec<(u32, Vec<u8>)>,
    secondary: Vec<(u32, Vec<u8>)>,
}

/// Splits `wasm`: defined function `i` stays in the primary when `hot[i]`
/// (or when it names a segment); every other one moves to the secondary.
/// All data stays in the primary.
pub fn split(wasm: &[u8], hot: &[bool]) -> Result<Split, SplitError> {
    split_with_data(wasm, hot, None)
}

/// [`split`], and with `layout` (the linked module's, see [`DataLayout`])
/// the data no kept function can reach moves to the secondary too.
pub fn split_with_data(wasm: &[u8], hot: &[bool], layout: Option<&DataLayout>) -> Result<Split, SplitError> {
    let info = Info::read(wasm)?;
    if hot.len() != info.defined_funcs() {
        return Err(SplitError::ProfileLength { expected: info.defined_funcs(), found: hot.len() });
    }
    if info.has_tags {
        return Err(SplitError::Tags);
    }
    if !info.has_global_section {
        return Err(SplitError::MissingSection("global section"));
    }
    if !info.has_export_section {
        return Err(SplitError::MissingSection("export section"));
    }
    // `__split.load` joins the import section (a module without one has no imports to keep).
    if !info.has_import_section {
        return Err(SplitError::MissingSection("import section"));
    }
    let table = info.function_table()?;
    let imported = info.imported_funcs;
    // cold[i]: defined function i moves. Its slot is base + its rank among the moved.
    let cold: Vec<bool> = info.bodies.iter().zip(hot).map(|(b, &h)| !h && !b.uses_segments).collect();
    let moved: Vec<u32> = (0..cold.len() as u32).filter(|&i| cold[i as usize]).collect();
    // Moved functions the primary can still reach (a call from a kept body,
    // an export, a table slot, ...) get a stub and a slot; the others only
    // run when called from the secondary, so their primary body is `unreachable`.
    let mut reached = vec![false; info.func_types.len()];
    let kept_callees = info.bodies.iter().zip(&cold).filter(|(_, &c)| !c).flat_map(|(b, _)| &b.callees);
    for &f in info.outside_refs.iter().chain(kept_callees) {
        if let Some(r) = reached.get_mut(f as usize) {
            *r = true;
        }
    }
    let slotted: Vec<u32> = moved.iter().copied().filter(|&i| reached[(imported + i) as usize]).collect();
    let base = info.tables[table as usize].initial;
    let grow = slotted.len() as u64;

    // What the secondary needs from the primary: every non-moved function a moved one names.
    let mut needed = vec![false; info.func_types.len()];
    let mut declared = Vec::new();
    for &i in &moved {
        let body = &info.bodies[i as usize];
        for &callee in &body.callees {
            let moved_callee = callee >= imported && cold.get((callee - imported) as usize) == Some(&true);
            if !moved_callee {
                *needed
                    .get_mut(callee as usize)
                    .ok_or_else(|| SplitError::Reencode(format!("call to function {callee}")))? = true;
            }
        }
        declared.extend_from_slice(&body.refs);
    }
    let needed: Vec<u32> = (0..needed.len() as u32).filter(|&f| needed[f as usize]).collect();
    let data_plan = layout.map(|l| plan_data(wasm, &info, &cold, l)).transpose()?;

    let primary = {
        let mut enc = PrimaryEncoder {
            info: &info,
            cold: &cold,
            reached: &reached,
            table,
            base,
            grow,
            needed: &needed,
            load_type: info.types.len() as u32,
            loaded_global: info.globals.len() as u32,
            next_table: info.imported_tables,
            next_body: 0,
            slot: base,
            data: data_plan.as_ref(),
        };
        let mut module = Module::new();
        enc.parse_core_module(&mut module, Parser::new(0), wasm).map_err(|e| match e {
            reencode::Error::UserError(SplitErrorBox(e)) => *e,
            other => SplitError::from(other),
        })?;
        module.finish()
    };
    validate(&primary, "primary")?;

    let moved_data = data_plan.as_ref().map_or(0, |p| p.secondary.iter().map(|(_, b)| b.len()).sum());
    let secondary_data = data_plan.as_ref().map(|p| p.secondary.as_slice()).unwrap_or(&[]);
    let secondary =
        secondary(wasm, &info, table, base, grow, &cold, &moved, &slotted, &needed, &declared, secondary_data)?;
    validate(&secondary, "secondary")?;
    Ok(Split { primary, secondary, moved: moved.len(), kept: cold.len() - moved.len(), moved_data })
}

/// Which data bytes stay and which move ([`DataLayout::cold_ranges`] for
/// the kept functions and the globals).
fn plan_data(wasm: &[u8], info: &Info, cold: &[bool], layout: &DataLayout) -> Result<DataPlan, SplitError> {
    let mut segments: Vec<(u32, &[u8])> =
        info.data.as_ref().ok_or(SplitError::UnmovableData)?.iter().map(|(a, r)| (*a, &wasm[r.clone()])).collect();
    segments.sort_by_key(|s| s.0);
    // Overlapping segments would make the later one win; none of our tools emit them.
    for w in segments.windows(2) {
        if u64::from(w[0].0) + w[0].1.len() as u64 > u64::from(w[1].0) {
            return Err(SplitError::UnmovableData);
        }
    }
    layout.check_image(&segments)?;
    let memory = |a: u32| -> u8 {
        let i = segments.partition_point(|(b, _)| *b <= a);
        i.checked_sub(1).and_then(|i| segments[i].1.get((a - segments[i].0) as usize)).copied().unwrap_or(0)
    };
    let kept = info.bodies.iter().zip(cold).filter(|(_, &c)| !c).flat_map(|(b, _)| &b.addresses);
    let addresses: Vec<u32> = info.global_addresses.iter().chain(kept).copied().collect();
    let cold_ranges: Vec<std::ops::Range<u32>> =
        layout.cold_ranges(&addresses, memory).into_iter().filter(|r| r.end - r.start >= MIN_MOVED_DATA).collect();

    let mut plan = DataPlan { primary: Vec::new(), secondary: Vec::new() };
    for &(base, bytes) in &segments {
        let end = base + bytes.len() as u32;
        let mut at = base;
        let first = cold_ranges.partition_point(|r| r.end <= base);
        for r in cold_ranges[first..].iter().take_while(|r| r.start < end) {
            let (from, to) = (r.start.max(base), r.end.min(end));
            if from > at {
                plan.primary.push((at, bytes[(at - base) as usize..(from - base) as usize].to_vec()));
            }
            let moved = &bytes[(from - base) as usize..(to - base) as usize];
            // Zeros need no writing: the memory starts zeroed.
            if let (Some(lo), Some(hi)) = (moved.iter().position(|&b| b != 0), moved.iter().rposition(|&b| b != 0)) {
                plan.secondary.push((from + lo as u32, moved[lo..=hi].to_vec()));
            }
            at = at.max(to);
        }
        if at < end {
            plan.primary.push((at, bytes[(at - base) as usize..].to_vec()));
        }
    }
    Ok(plan)
}

/// Active data segments in memory 0 at their addresses.
fn data_section(segments: &[(u32, Vec<u8>)]) -> wasm_encoder::DataSection {
    let mut section = wasm_encoder::DataSection::new();
    for (at, bytes) in segments {
        section.active(0, &ConstExpr::i32_const(*at as i32), bytes.iter().copied());
    }
    section
}

/// The primary's export name for function `f`, table `t`, memory `m`, global `g`
/// (input index spaces), as the secondary imports them.
fn export_name(kind: char, index: u32) -> String {
    format!("{kind}{index}")
}

struct PrimaryEncoder<'a> {
    info: &'a Info,
    cold: &'a [bool],
    reached: &'a [bool],
    table: u32,
    base: u64,
    grow: u64,
    needed: &'a [u32],
    load_type: u32,
    loaded_global: u32,
    next_table: u32,
    next_body: usize,
    slot: u64,
    data: Option<&'a DataPlan>,
}

impl PrimaryEncoder<'_> {
    /// Index of the new `__split.load` import: after the input's function imports.
    fn load_func(&self) -> u32 {
        self.info.imported_funcs
    }

    /// The body that loads the secondary once, then forwards to the moved function's slot.
    fn stub(&mut self, func: u32) -> Result<wasm_encoder::Function, SplitError> {
        let (params, _) = self.info.signature(func)?;
        let mut f = wasm_encoder::Function::new([]);
        f.instruction(&Instruction::GlobalGet(self.loaded_global));
        f.instruction(&Instruction::I32Eqz);
        f.instruction(&Instruction::If(wasm_encoder::BlockType::Empty));
        f.instruction(&Instruction::Call(self.load_func()));
        f.instruction(&Instruction::I32Const(1));
        f.instruction(&Instruction::GlobalSet(self.loaded_global));
        f.instruction(&Instruction::End);
        for p in 0..params.len() as u32 {
            f.instruction(&Instruction::LocalGet(p));
        }
        let slot = i32::try_from(self.slot).map_err(|_| SplitError::Reencode("table slot past i32".into()))?;
        f.instruction(&Instruction::I32Const(slot));
        self.slot += 1;
        f.instruction(&Instruction::CallIndirect {
            type_index: self.info.func_types[func as usize],
            table_index: self.table,
        });
        f.instruction(&Instruction::End);
        Ok(f)
    }
}

impl Reencode for PrimaryEncoder<'_> {
    type Error = SplitErrorBox;

    /// wasm-ld's relocations (`--emit-relocs`), if a tool passed them on,
    /// describe the linked module, not this one: they are dropped.
    fn parse_custom_section(
        &mut self,
        module: &mut Module,
        section: wasmparser::CustomSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        if section.name() == "linking" || section.name().starts_with("reloc.") {
            return Ok(());
        }
        reencode::utils::parse_custom_section(self, module, section)
    }

    fn data_count(&mut self, count: u32) -> Result<u32, reencode::Error<Self::Error>> {
        Ok(self.data.map_or(count, |p| p.primary.len() as u32))
    }

    fn parse_data_section(
        &mut self,
        data: &mut wasm_encoder::DataSection,
        section: wasmparser::DataSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        match self.data {
            Some(plan) => {
                *data = data_section(&plan.primary);
                Ok(())
            }
            None => reencode::utils::parse_data_section(self, data, section),
        }
    }

    fn function_index(&mut self, func: u32) -> Result<u32, reencode::Error<Self::Error>> {
        Ok(if func >= self.info.imported_funcs { func + 1 } else { func })
    }

    fn parse_type_section(
        &mut self,
        types: &mut TypeSection,
        section: wasmparser::TypeSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_type_section(self, types, section)?;
        types.ty().function([], []);
        Ok(())
    }

    fn parse_import_section(
        &mut self,
        imports: &mut ImportSection,
        section: wasmparser::ImportSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_import_section(self, imports, section)?;
        imports.import(LOAD_IMPORT.0, LOAD_IMPORT.1, EntityType::Function(self.load_type));
        Ok(())
    }

    fn parse_table(
        &mut self,
        tables: &mut TableSection,
        table: wasmparser::Table<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        let mut ty = self.table_type(table.ty)?;
        if self.next_table == self.table {
            ty.minimum += self.grow;
            ty.maximum = ty.maximum.map(|m| m.max(self.base) + self.grow);
        }
        self.next_table += 1;
        match table.init {
            wasmparser::TableInit::RefNull => tables.table(ty),
            wasmparser::TableInit::Expr(e) => tables.table_with_init(ty, &self.const_expr(e)?),
        };
        Ok(())
    }

    fn parse_global_section(
        &mut self,
        globals: &mut GlobalSection,
        section: wasmparser::GlobalSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_global_section(self, globals, section)?;
        let ty = wasm_encoder::GlobalType { val_type: ValType::I32, mutable: true, shared: false };
        globals.global(ty, &ConstExpr::i32_const(0));
        Ok(())
    }

    fn parse_export_section(
        &mut self,
        exports: &mut ExportSection,
        section: wasmparser::ExportSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_export_section(self, exports, section)?;
        for t in 0..self.info.tables.len() as u32 {
            exports.export(&export_name('t', t), ExportKind::Table, t);
        }
        for m in 0..self.info.memories.len() as u32 {
            exports.export(&export_name('m', m), ExportKind::Memory, m);
        }
        for g in 0..self.info.globals.len() as u32 {
            exports.export(&export_name('g', g), ExportKind::Global, g);
        }
        for &f in self.needed {
            let index = self.function_index(f)?;
            exports.export(&export_name('f', f), ExportKind::Func, index);
        }
        Ok(())
    }

    fn parse_function_body(
        &mut self,
        code: &mut CodeSection,
        func: wasmparser::FunctionBody<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        let i = self.next_body;
        self.next_body += 1;
        let index = self.info.imported_funcs + i as u32;
        if self.cold[i] && !self.reached[index as usize] {
            let mut f = wasm_encoder::Function::new([]);
            f.instruction(&Instruction::Unreachable);
            f.instruction(&Instruction::End);
            code.function(&f);
            Ok(())
        } else if self.cold[i] {
            let stub = self.stub(index).map_err(|e| reencode::Error::UserError(SplitErrorBox(Box::new(e))))?;
            code.function(&stub);
            Ok(())
        } else {
            reencode::utils::parse_function_body(self, code, func)
        }
    }
}

/// A [`SplitError`] carried through the re-encoder's error type.
#[derive(Debug)]
pub struct SplitErrorBox(Box<SplitError>);

#[allow(clippy::too_many_arguments)]
fn secondary(
    wasm: &[u8],
    info: &Info,
    table: u32,
    base: u64,
    grow: u64,
    cold: &[bool],
    moved: &[u32],
    slotted: &[u32],
    needed: &[u32],
    declared: &[u32],
    data: &[(u32, Vec<u8>)],
) -> Result<Vec<u8>, SplitError> {
    let imported = info.imported_funcs;
    // Input function index -> secondary index: the imported primary functions, then the moved ones.
    let mut map = vec![u32::MAX; info.func_types.len()];
    for (s, &f) in needed.iter().enumerate() {
        map[f as usize] = s as u32;
    }
    for (s, &i) in moved.iter().enumerate() {
        map[(imported + i) as usize] = (needed.len() + s) as u32;
    }
    let mut enc = SecondaryEncoder { map: &map };

    let mut module = Module::new();
    if let Some(range) = &info.type_section {
        module.section(&RawSection { id: wasm_encoder::SectionId::Type as u8, data: &wasm[range.clone()] });
    }
    let mut imports = ImportSection::new();
    for (t, ty) in info.tables.iter().enumerate() {
        let mut ty = RoundtripReencoder.table_type(*ty)?;
        if t as u32 == table {
            ty.minimum += grow;
            ty.maximum = ty.maximum.map(|m| m.max(base) + grow);
        }
        imports.import(PRIMARY_MODULE, &export_name('t', t as u32), ty);
    }
    for (m, ty) in info.memories.iter().enumerate() {
        imports.import(PRIMARY_MODULE, &export_name('m', m as u32), RoundtripReencoder.memory_type(*ty)?);
    }
    for (g, ty) in info.globals.iter().enumerate() {
        imports.import(PRIMARY_MODULE, &export_name('g', g as u32), RoundtripReencoder.global_type(*ty)?);
    }
    for &f in needed {
        imports.import(PRIMARY_MODULE, &export_name('f', f), EntityType::Function(info.func_types[f as usize]));
    }
    module.section(&imports);

    let mut functions = FunctionSection::new();
    for &i in moved {
        functions.function(info.func_types[(imported + i) as usize]);
    }
    module.section(&functions);

    let mut elements = ElementSection::new();
    let slots: Vec<u32> = slotted.iter().map(|&i| map[(imported + i) as usize]).collect();
    let offset = i32::try_from(base).map_err(|_| SplitError::Reencode("table base past i32".into()))?;
    elements.active(Some(table), &ConstExpr::i32_const(offset), Elements::Functions(Cow::Owned(slots)));
    if !declared.is_empty() {
        let refs: Vec<u32> = declared.iter().map(|&f| map[f as usize]).collect();
        elements.declared(Elements::Functions(Cow::Owned(refs)));
    }
    module.section(&elements);

    let mut code = CodeSection::new();
    let mut i = 0usize;
    for payload in Parser::new(0).parse_all(wasm) {
        if let Payload::CodeSectionEntry(body) = payload? {
            if cold[i] {
                enc.parse_function_body(&mut code, body)?;
            }
            i += 1;
        }
    }
    module.section(&code);
    if !data.is_empty() {
        module.section(&data_section(data));
    }
    // The moved code uses the features the input declares (bulk memory,
    // …); tools that optimise the secondary on its own read them here.
    for payload in Parser::new(0).parse_all(wasm) {
        if let Payload::CustomSection(c) = payload? {
            if c.name() == TARGET_FEATURES {
                module.section(&wasm_encoder::CustomSection {
                    name: Cow::Borrowed(TARGET_FEATURES),
                    data: Cow::Borrowed(c.data()),
                });
            }
        }
    }
    Ok(module.finish())
}

/// The custom section in which LLVM lists the wasm features the code uses.
const TARGET_FEATURES: &str = "target_features";

struct SecondaryEncoder<'a> {
    map: &'a [u32],
}

impl Reencode for SecondaryEncoder<'_> {
    type Error = std::convert::Infallible;

    fn function_index(&mut self, func: u32) -> Result<u32, reencode::Error<Self::Error>> {
        Ok(self.map[func as usize])
    }
}

fn validate(wasm: &[u8], which: &'static str) -> Result<(), SplitError> {
    let features = wasmparser::WasmFeatures::default() | wasmparser::WasmFeatures::MULTI_MEMORY;
    wasmparser::Validator::new_with_features(features)
        .validate_all(wasm)
        .map(|_| ())
        .map_err(|error| SplitError::Invalid { which, error })
}

/// Reads a profile (one byte per defined function, non-zero for those that
/// ran, as the browser dumped the marks) into one flag per defined function.
pub fn hot_from_profile(profile: &[u8], defined_funcs: usize) -> Result<Vec<bool>, SplitError> {
    if profile.len() < defined_funcs {
        return Err(SplitError::ProfileLength { expected: defined_funcs, found: profile.len() });
    }
    Ok(profile[..defined_funcs].iter().map(|&b| b != 0).collect())
}

/// The number of functions `wasm` defines (the profile's length).
pub fn defined_functions(wasm: &[u8]) -> Result<usize, SplitError> {
    Ok(Info::read(wasm)?.defined_funcs())
}

#[cfg(test)]
mod tests;
