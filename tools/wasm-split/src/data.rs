//! Which data the primary must keep, and which may move to the secondary.
//!
//! The secondary carries the moved bytes as active data segments into the
//! primary's memory, written when it is instantiated: before that, moved
//! bytes read as zero. So a byte may move only if no code the primary runs
//! before the load can reach it. Code reaches data through addresses, and
//! an address comes from a constant in code (`i32.const`, a load's or
//! store's offset, either half of an `i64.const`), from a global's
//! initialiser, or from a pointer stored in data. Pointers computed by
//! moved functions only exist once the secondary (and its data) is loaded.
//!
//! The optimised module no longer says where one datum ends and the next
//! begins; wasm-ld's output linked with `--emit-relocs` does (web/build.rs):
//! its symbol table gives every data symbol's extent (wasm-bindgen and
//! wasm-opt keep addresses; [`DataLayout::check_image`] checks the bytes),
//! its `reloc.DATA` every pointer stored in data, and its `reloc.CODE`
//! every address code forms and the symbol it names, also where it lies
//! outside it (an end pointer, or `&table[i - 1]` as `table - 4`). A
//! constant in a kept body or a global that some code relocation forms
//! makes the symbols those relocations name hot, and the one holding it.
//! Other constants (wasm-opt folds a few addresses, `table + 8`; most are
//! plain numbers) make hot the symbol holding them and the one ending
//! there, in case they are an end pointer. The pointers hot data holds
//! make their targets hot. Every address stored in data is a relocation
//! (no address is known before linking), and the optimised module's data
//! is checked to be the linked bytes, so `reloc.DATA` lists them all.
//! Everything else may move.

use std::collections::HashMap;
use std::ops::Range;

use wasmparser::{KnownCustom, Linking, Operator, Parser, Payload, RelocationType, SymbolInfo};

use crate::SplitError;

/// The linked module's data symbols, merged where they overlap, and the
/// pointers between them.
pub struct DataLayout {
    /// Address ranges, sorted, disjoint.
    units: Vec<Range<u32>>,
    /// Pointers stored in data: (unit holding the pointer, unit it points into).
    edges: Vec<(usize, usize)>,
    /// Every address code forms (a `reloc.CODE` target) -> the units of the symbols named.
    formed: HashMap<u32, Vec<usize>>,
    /// The linked module's active data: (address, bytes).
    image: Vec<(u32, Vec<u8>)>,
}

impl DataLayout {
    /// Reads the symbol table and relocations of `linked` (wasm-ld's output
    /// with `--emit-relocs`).
    pub fn read(linked: &[u8]) -> Result<DataLayout, SplitError> {
        let mut segments: Vec<Option<(u32, Range<usize>)>> = Vec::new();
        let mut data_section_start = None;
        let mut symbols: Vec<Option<(u32, u32, u32)>> = Vec::new(); // (segment, offset, size) of defined data
        let mut saw_linking = false;
        let mut code_relocs = Vec::new();
        let mut data_relocs = Vec::new();
        for payload in Parser::new(0).parse_all(linked) {
            match payload? {
                Payload::DataSection(reader) => {
                    data_section_start = Some(reader.range().start);
                    for d in reader {
                        let d = d?;
                        let start = d.range.end - d.data.len();
                        segments.push(match d.kind {
                            wasmparser::DataKind::Active { memory_index: 0, offset_expr } => {
                                const_i32(&offset_expr).map(|a| (a, start..d.range.end))
                            }
                            _ => None,
                        });
                    }
                }
                Payload::CustomSection(c) => match c.as_known() {
                    KnownCustom::Linking(reader) => {
                        saw_linking = true;
                        for sub in reader.subsections() {
                            if let Linking::SymbolTable(table) = sub? {
                                for s in table {
                                    symbols.push(match s? {
                                        SymbolInfo::Data { symbol: Some(d), .. } => Some((d.index, d.offset, d.size)),
                                        _ => None,
                                    });
                                }
                            }
                        }
                    }
                    KnownCustom::Reloc(reader) if c.name() == "reloc.CODE" => {
                        for e in reader.entries() {
                            code_relocs.push(e?);
                        }
                    }
                    KnownCustom::Reloc(reader) if c.name() == "reloc.DATA" => {
                        for e in reader.entries() {
                            data_relocs.push(e?);
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        if !saw_linking {
            return Err(SplitError::NoRelocations);
        }
        let data_section_start = data_section_start.ok_or(SplitError::MissingSection("data section"))?;

        // Each defined data symbol's address range.
        let mut ranges: Vec<Option<Range<u32>>> = Vec::with_capacity(symbols.len());
        for s in &symbols {
            ranges.push(match s {
                Some((seg, off, size)) => {
                    let (base, _) = segments
                        .get(*seg as usize)
                        .and_then(|s| s.clone())
                        .ok_or(SplitError::BadLinking("a data symbol in a passive or missing segment"))?;
                    let start = base.checked_add(*off).ok_or(SplitError::BadLinking("a data symbol past 4 GiB"))?;
                    let end = start.checked_add(*size).ok_or(SplitError::BadLinking("a data symbol past 4 GiB"))?;
                    Some(start..end)
                }
                None => None,
            });
        }
        let mut sorted: Vec<Range<u32>> = ranges.iter().flatten().filter(|r| !r.is_empty()).cloned().collect();
        sorted.sort_by_key(|r| (r.start, r.end));
        let mut units: Vec<Range<u32>> = Vec::new();
        for r in sorted {
            match units.last_mut() {
                Some(last) if r.start < last.end => last.end = last.end.max(r.end),
                _ => units.push(r),
            }
        }
        let mut layout = DataLayout { units, edges: Vec::new(), formed: HashMap::new(), image: Vec::new() };
        let unit_of_symbol = |layout: &DataLayout, sym: u32| -> Option<(usize, Range<u32>)> {
            let r = ranges.get(sym as usize)?.clone()?;
            Some((layout.unit_at(r.start).or_else(|| layout.unit_ending_at(r.start))?, r))
        };

        for e in code_relocs.iter().filter(|e| is_memory_address(e.ty)) {
            if let Some((unit, r)) = unit_of_symbol(&layout, e.index) {
                let target = u32::try_from(i64::from(r.start) + e.addend)
                    .map_err(|_| SplitError::BadLinking("an address outside 4 GiB"))?;
                layout.formed.entry(target).or_default().push(unit);
            }
        }
        // Data relocation offsets count from the data section's contents.
        for e in data_relocs.iter().filter(|e| is_memory_address(e.ty)) {
            let Some((to, r)) = unit_of_symbol(&layout, e.index) else { continue };
            let at = data_section_start + e.offset as usize;
            let (base, bytes) = segments
                .iter()
                .flatten()
                .find(|(_, bytes)| bytes.contains(&at))
                .ok_or(SplitError::BadLinking("a data relocation outside every segment"))?;
            let address = base + (at - bytes.start) as u32;
            // The linked bytes hold the target: a check that offsets are read right.
            if e.ty == RelocationType::MemoryAddrI32 {
                let word = linked.get(at..at + 4).ok_or(SplitError::BadLinking("a data relocation past the end"))?;
                let value = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
                if i64::from(value) != i64::from(r.start) + e.addend {
                    return Err(SplitError::BadLinking("a data relocation that does not hold its target"));
                }
            }
            if let Some(from) = layout.unit_at(address) {
                layout.edges.push((from, to));
            }
        }
        layout.edges.sort_unstable();
        layout.edges.dedup();
        for s in segments.iter().flatten() {
            layout.image.push((s.0, linked[s.1.clone()].to_vec()));
        }
        Ok(layout)
    }

    /// The unit holding address `a`.
    fn unit_at(&self, a: u32) -> Option<usize> {
        let i = self.units.partition_point(|r| r.start <= a);
        (i > 0 && self.units[i - 1].contains(&a)).then(|| i - 1)
    }

    /// The unit that ends at `a` (an end pointer names it).
    fn unit_ending_at(&self, a: u32) -> Option<usize> {
        let i = self.units.partition_point(|r| r.end < a);
        (i < self.units.len() && self.units[i].end == a).then_some(i)
    }

    /// Marks the units address `a` may point into.
    fn mark(&self, a: u32, hot: &mut [bool], work: &mut Vec<usize>) {
        let named = self.formed.get(&a);
        let ending = if named.is_some() { None } else { self.unit_ending_at(a) };
        for u in self.unit_at(a).into_iter().chain(ending).chain(named.into_iter().flatten().copied()) {
            if !hot[u] {
                hot[u] = true;
                work.push(u);
            }
        }
    }

    /// Checks that `data` (the optimised module's active segments) holds the
    /// linked module's bytes at the same addresses (zero where absent).
    pub fn check_image(&self, data: &[(u32, &[u8])]) -> Result<(), SplitError> {
        let read = |a: u32| -> u8 {
            for (base, bytes) in data {
                if a >= *base && ((a - base) as usize) < bytes.len() {
                    return bytes[(a - base) as usize];
                }
            }
            0
        };
        for (base, bytes) in &self.image {
            for (i, &b) in bytes.iter().enumerate() {
                let a = base + i as u32;
                if read(a) != b {
                    return Err(SplitError::DataMoved { address: a });
                }
            }
        }
        Ok(())
    }

    /// The address ranges no kept code can reach: `addresses` are the
    /// constants of the kept bodies and globals; `memory` reads the
    /// optimised module's bytes, to merge ranges across padding (bytes no
    /// symbol covers) only where it is all zero.
    pub fn cold_ranges(&self, addresses: &[u32], memory: impl Fn(u32) -> u8) -> Vec<Range<u32>> {
        let mut hot = vec![false; self.units.len()];
        let mut work = Vec::new();
        for &a in addresses {
            self.mark(a, &mut hot, &mut work);
        }
        while let Some(u) = work.pop() {
            let from = self.edges.partition_point(|&(f, _)| f < u);
            for &(_, to) in self.edges[from..].iter().take_while(|&&(f, _)| f == u) {
                if !hot[to] {
                    hot[to] = true;
                    work.push(to);
                }
            }
        }
        let mut out: Vec<Range<u32>> = Vec::new();
        for (u, r) in self.units.iter().enumerate() {
            if hot[u] {
                continue;
            }
            match out.last_mut() {
                Some(last) if (last.end..r.start).all(|a| memory(a) == 0) => last.end = r.end,
                _ => out.push(r.clone()),
            }
        }
        out
    }
}

/// Whether a relocation writes a data address (which names a data symbol).
fn is_memory_address(ty: RelocationType) -> bool {
    use RelocationType::*;
    matches!(
        ty,
        MemoryAddrLeb
            | MemoryAddrSleb
            | MemoryAddrI32
            | MemoryAddrRelSleb
            | MemoryAddrLeb64
            | MemoryAddrSleb64
            | MemoryAddrI64
            | MemoryAddrRelSleb64
            | MemoryAddrTlsSleb
            | MemoryAddrTlsSleb64
            | MemoryAddrLocrelI32
    )
}

/// The value of a constant expression that is one `i32.const`.
pub fn const_i32(expr: &wasmparser::ConstExpr<'_>) -> Option<u32> {
    let mut ops = expr.get_operators_reader();
    let first = ops.read().ok()?;
    let end = ops.read().ok()?;
    match (first, end) {
        (Operator::I32Const { value }, Operator::End) if ops.eof() => Some(value as u32),
        _ => None,
    }
}

/// The values in `op` that may be addresses: an `i32.const`, both halves of
/// an `i64.const`, a memory access's static offset.
pub fn addresses_in(op: &Operator<'_>, out: &mut Vec<u32>) {
    match op {
        Operator::I32Const { value } => out.push(*value as u32),
        Operator::I64Const { value } => {
            out.push(*value as u32);
            out.push((*value as u64 >> 32) as u32);
        }
        _ => {
            if let Some(offset) = memarg_offset(op) {
                if let Ok(offset) = u32::try_from(offset) {
                    out.push(offset);
                }
            }
        }
    }
}

/// The static offset of any operator that accesses memory through a
/// `MemArg` (every proposal's, generated from wasmparser's operator list so
/// none is missed).
fn memarg_offset(op: &Operator<'_>) -> Option<u64> {
    macro_rules! memarg_arms {
        ($( @$proposal:ident $op:ident $({ $($arg:ident: $argty:ty),* })? => $visit:ident ($($ann:tt)*))*) => {
            $( memarg_arms!(@one $op $($($arg)*)?); )*
        };
        (@one $op:ident) => {};
        (@one $op:ident memarg $($rest:ident)*) => {
            if let Operator::$op { memarg, .. } = op {
                return Some(memarg.offset);
            }
        };
        (@one $op:ident $first:ident $($rest:ident)*) => { memarg_arms!(@one $op $($rest)*) };
    }
    wasmparser::for_each_operator!(memarg_arms);
    None
}
