//! Structural diff of two shaders: the container header, the chunks, and
//! the program aligned instruction by instruction.
//!
//! Chunks are paired by FourCC (the n-th chunk of a tag with the n-th of
//! the same tag in the other file) and compared by payload bytes.
//! Instructions are aligned by a longest common subsequence over their
//! encoded dwords ([`align`]); a second pass pairs each run of removed
//! instructions with the run of added ones beside it, in order, where the
//! opcodes agree, so an edited instruction shows as one change rather than
//! a removal and an addition. A changed pair whose dwords have the same
//! roles names every changed bitfield (the names `dxbc dump` prints) and
//! the changed dwords in both files.

pub mod align;

use crate::program::{Program, TokenRole};
use crate::Shader;
use align::{align, Step};
use std::ops::Range;

/// How a chunk differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum ChunkChange {
    /// Same payload bytes.
    Same,
    /// Payload differs.
    Changed,
    /// Only in the first file.
    Removed,
    /// Only in the second file.
    Added,
}

/// One chunk of either file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChunkDiff {
    /// FourCC as text.
    pub tag: String,
    /// How it differs.
    pub change: ChunkChange,
    /// The chunk (header and payload) in the first file.
    pub a: Option<Range<usize>>,
    /// The chunk in the second file.
    pub b: Option<Range<usize>>,
}

/// One changed bitfield (or whole immediate, index or payload dword).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FieldChange {
    /// Field name as `dxbc dump` prints it (`value` for a whole dword).
    pub name: &'static str,
    /// Value in the first file.
    pub a: u32,
    /// Value in the second file.
    pub b: u32,
    /// Offset of the dword holding it in the first file.
    pub a_offset: usize,
    /// Offset of the dword holding it in the second file.
    pub b_offset: usize,
}

/// One step of the instruction alignment.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum InsDiff {
    /// The same dwords (instruction indices in each program).
    Same(usize, usize),
    /// A paired instruction whose dwords differ.
    Changed {
        /// Index in the first program.
        a: usize,
        /// Index in the second program.
        b: usize,
        /// Changed fields; empty when the two have different layouts.
        fields: Vec<FieldChange>,
        /// Changed bytes in the first file (whole dwords).
        a_bytes: Vec<Range<usize>>,
        /// Changed bytes in the second file.
        b_bytes: Vec<Range<usize>>,
    },
    /// Only in the first program.
    Removed(usize),
    /// Only in the second program.
    Added(usize),
}

/// Everything that differs.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ShaderDiff {
    /// Runs of differing bytes in the 32-byte container header (magic,
    /// checksum, version, size, chunk count), as offsets in both files.
    pub header: Vec<Range<usize>>,
    /// Every chunk of both files, in the first file's order then the added ones.
    pub chunks: Vec<ChunkDiff>,
    /// The program alignment (empty when either file has no program).
    pub instructions: Vec<InsDiff>,
}

impl ShaderDiff {
    /// True when nothing differs.
    pub fn is_empty(&self) -> bool {
        self.header.is_empty()
            && self.chunks.iter().all(|c| c.change == ChunkChange::Same)
            && self.instructions.iter().all(|i| matches!(i, InsDiff::Same(..)))
    }
}

/// Compares two decoded shaders (their files are `a.bytes` and `b.bytes`).
pub fn diff(a: &Shader, b: &Shader) -> ShaderDiff {
    let h = crate::container::HEADER_SIZE.min(a.bytes.len()).min(b.bytes.len());
    let header = runs((0..h).filter(|&i| a.bytes[i] != b.bytes[i]));
    let chunks = chunk_diffs(a, b);
    let instructions = match (&a.program, &b.program) {
        (Some(pa), Some(pb)) => instruction_diffs(pa, &a.bytes, pb, &b.bytes),
        _ => Vec::new(),
    };
    ShaderDiff { header, chunks, instructions }
}

/// Consecutive indices as ranges.
fn runs(ix: impl Iterator<Item = usize>) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for i in ix {
        match out.last_mut() {
            Some(r) if r.end == i => r.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

fn chunk_diffs(a: &Shader, b: &Shader) -> Vec<ChunkDiff> {
    let (ca, cb) = (&a.container.chunks, &b.container.chunks);
    let mut used = vec![false; cb.len()];
    let mut out = Vec::new();
    for (i, x) in ca.iter().enumerate() {
        let nth = ca[..i].iter().filter(|y| y.tag == x.tag).count();
        let pair = cb.iter().enumerate().filter(|(_, y)| y.tag == x.tag).nth(nth);
        let tag = x.fourcc();
        match pair {
            Some((j, y)) => {
                used[j] = true;
                let same = a.bytes.get(x.data_range()) == b.bytes.get(y.data_range());
                let change = if same { ChunkChange::Same } else { ChunkChange::Changed };
                out.push(ChunkDiff { tag, change, a: Some(x.range()), b: Some(y.range()) });
            }
            None => out.push(ChunkDiff { tag, change: ChunkChange::Removed, a: Some(x.range()), b: None }),
        }
    }
    for (j, y) in cb.iter().enumerate().filter(|(j, _)| !used[*j]) {
        let _ = j;
        out.push(ChunkDiff { tag: y.fourcc(), change: ChunkChange::Added, a: None, b: Some(y.range()) });
    }
    out
}

/// The encoded bytes of each instruction (the alignment key).
fn keys<'f>(p: &Program, file: &'f [u8]) -> Vec<&'f [u8]> {
    p.instructions
        .iter()
        .map(|i| {
            let s = i.offset as usize;
            file.get(s..s + 4 * i.length as usize).unwrap_or(&[])
        })
        .collect()
}

fn instruction_diffs(pa: &Program, fa: &[u8], pb: &Program, fb: &[u8]) -> Vec<InsDiff> {
    let steps = align(&keys(pa, fa), &keys(pb, fb));
    let mut out = Vec::with_capacity(steps.len());
    let mut k = 0;
    while k < steps.len() {
        if let Step::Keep(i, j) = steps[k] {
            out.push(InsDiff::Same(i, j));
            k += 1;
            continue;
        }
        // A run of removals and additions between two kept instructions.
        let end = steps[k..].iter().position(|s| matches!(s, Step::Keep(..))).map_or(steps.len(), |n| k + n);
        let removed: Vec<usize> =
            steps[k..end].iter().filter_map(|s| if let Step::Remove(i) = s { Some(*i) } else { None }).collect();
        let added: Vec<usize> =
            steps[k..end].iter().filter_map(|s| if let Step::Add(j) = s { Some(*j) } else { None }).collect();
        let mut tail_removed = Vec::new();
        let mut tail_added = Vec::new();
        for n in 0..removed.len().max(added.len()) {
            match (removed.get(n), added.get(n)) {
                (Some(&i), Some(&j)) if pa.instructions[i].opcode() == pb.instructions[j].opcode() => {
                    out.push(changed(pa, i, pb, j));
                }
                (r, a) => {
                    tail_removed.extend(r.copied());
                    tail_added.extend(a.copied());
                }
            }
        }
        out.extend(tail_removed.into_iter().map(InsDiff::Removed));
        out.extend(tail_added.into_iter().map(InsDiff::Added));
        k = end;
    }
    out
}

/// What differs between instruction `i` of `pa` and `j` of `pb`.
fn changed(pa: &Program, i: usize, pb: &Program, j: usize) -> InsDiff {
    let (ta, tb) = (pa.instruction_dwords(i), pb.instruction_dwords(j));
    let same_layout = ta.len() == tb.len() && ta.iter().zip(&tb).all(|(x, y)| same_role(&x.role, &y.role));
    let mut fields = Vec::new();
    let (mut a_bytes, mut b_bytes) = (Vec::new(), Vec::new());
    if same_layout {
        for (x, y) in ta.iter().zip(&tb).filter(|(x, y)| x.value != y.value) {
            a_bytes.push(x.offset..x.offset + 4);
            b_bytes.push(y.offset..y.offset + 4);
            let (fx, fy) = (x.fields(pa), y.fields(pb));
            if fx.is_empty() {
                fields.push(FieldChange {
                    name: "value",
                    a: x.value,
                    b: y.value,
                    a_offset: x.offset,
                    b_offset: y.offset,
                });
            }
            for (f, g) in fx.iter().zip(&fy).filter(|(f, g)| f.name == g.name && f.value != g.value) {
                fields.push(FieldChange {
                    name: f.name,
                    a: f.value,
                    b: g.value,
                    a_offset: x.offset,
                    b_offset: y.offset,
                });
            }
        }
    } else {
        let whole = |t: &[crate::program::Located]| {
            t.first().map(|f| f.offset..t.last().map_or(f.offset, |l| l.offset) + 4).into_iter().collect()
        };
        a_bytes = whole(&ta);
        b_bytes = whole(&tb);
    }
    InsDiff::Changed { a: i, b: j, fields, a_bytes, b_bytes }
}

/// Roles compared without operand ids (which shift when instructions are
/// added or removed before).
fn same_role(x: &TokenRole, y: &TokenRole) -> bool {
    use TokenRole::*;
    match (x, y) {
        (Operand { .. }, Operand { .. }) | (ExtendedOperand { .. }, ExtendedOperand { .. }) => true,
        (Immediate { component: a, .. }, Immediate { component: b, .. }) => a == b,
        (Index { dim: a, .. }, Index { dim: b, .. }) => a == b,
        (Payload(a), Payload(b)) => a == b,
        _ => std::mem::discriminant(x) == std::mem::discriminant(y),
    }
}

#[cfg(test)]
mod tests;
