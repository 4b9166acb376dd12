//! The diff view's plain logic: [`dxbc::diff`]'s alignment turned into the
//! rows the page draws side by side (long unchanged runs folded), the
//! changed fields in words, the chunk-level changes, the counts, and which
//! bytes of the current file to highlight in the hex view.
//!
//! The first file ("a") is what the current file is compared with (the
//! unedited original or a second file); the second ("b") is the current
//! file, the one the listing, bytes and inspector show.

use crate::model::Model;
use crate::selection::ROW_BYTES;
use dxbc::diff::{ChunkChange, InsDiff, ShaderDiff};
use std::ops::Range;

/// What the current file is compared with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CompareWith {
    /// The file as opened, before the playground's edits.
    #[default]
    Original,
    /// A second file the user opened, dropped or pasted (or a diff link carried).
    File {
        /// How the page names it.
        name: String,
        bytes: std::sync::Arc<Vec<u8>>,
    },
}

/// Most rows the page draws (a diff of two unrelated big shaders has
/// thousands); the summary still counts them all.
pub const MAX_ROWS: usize = 2000;

/// Unchanged instructions kept on each side of a change; longer unchanged
/// runs fold into one row.
pub const CONTEXT: usize = 2;

/// What a row of the diff shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowStatus {
    /// The same instruction in both files.
    Same,
    /// A paired instruction whose dwords differ.
    Changed,
    /// Only in the first file.
    Removed,
    /// Only in the current file.
    Added,
    /// A run of unchanged instructions, folded.
    Folded,
}

impl RowStatus {
    /// The row's `data-status` and CSS class.
    pub fn id(self) -> &'static str {
        match self {
            RowStatus::Same => "same",
            RowStatus::Changed => "changed",
            RowStatus::Removed => "removed",
            RowStatus::Added => "added",
            RowStatus::Folded => "folded",
        }
    }

    /// The sign in the row's gutter.
    pub fn sign(self) -> &'static str {
        match self {
            RowStatus::Same | RowStatus::Folded => " ",
            RowStatus::Changed => "~",
            RowStatus::Removed => "−",
            RowStatus::Added => "+",
        }
    }
}

/// One side of a row: an instruction of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ins {
    /// Index in its program.
    pub index: usize,
    /// Byte offset of its first dword in its file.
    pub offset: u32,
    /// Its length in bytes.
    pub len: u32,
    /// Its listing line, as fxc writes it (indentation trimmed).
    pub text: String,
}

/// One row of the side-by-side view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub status: RowStatus,
    /// The first file's instruction (None for Added and Folded rows).
    pub a: Option<Ins>,
    /// The current file's instruction (None for Removed and Folded rows).
    pub b: Option<Ins>,
    /// Each changed field in words: `saturate 0 → 1`.
    pub fields: Vec<String>,
    /// The changed dwords in the first file.
    pub a_bytes: Vec<Range<usize>>,
    /// The changed dwords in the current file.
    pub b_bytes: Vec<Range<usize>>,
    /// For a Folded row: how many unchanged instructions it stands for.
    pub folded: usize,
    /// For a Changed row: its changed bytes in both files ([`byte_changes`]).
    pub shown: Vec<ByteChange>,
}

/// A changed range spelled out: its offset in the current file, then the
/// bytes of each file, each with whether it differs from the other's.
pub type ByteChange = (usize, Vec<(u8, bool)>, Vec<(u8, bool)>);

/// How many rows of each kind (counting instructions, folded ones included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub same: usize,
    pub changed: usize,
    pub removed: usize,
    pub added: usize,
    /// Chunks that are not the same (changed, removed or added).
    pub chunks: usize,
}

/// A chunk that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkLine {
    /// FourCC.
    pub tag: String,
    pub change: ChunkChange,
}

impl ChunkLine {
    /// `RDEF changed`, `STAT removed`, …
    pub fn text(&self) -> String {
        let what = match self.change {
            ChunkChange::Same => "same",
            ChunkChange::Changed => "changed",
            ChunkChange::Removed => "removed",
            ChunkChange::Added => "added",
        };
        format!("{} {what}", self.tag)
    }
}

/// Which bytes of the current file the hex view highlights, per hex row:
/// bit k of a mask stands for byte `row * ROW_BYTES + k`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByteMarks {
    /// Dwords of changed and added instructions.
    tokens: Vec<u16>,
    /// Of those, the bytes whose value differs from the first file's.
    bytes: Vec<u16>,
}

impl ByteMarks {
    fn new(len: usize) -> ByteMarks {
        let rows = len.div_ceil(ROW_BYTES);
        ByteMarks { tokens: vec![0; rows], bytes: vec![0; rows] }
    }

    fn mark(masks: &mut [u16], b: usize) {
        if let Some(m) = masks.get_mut(b / ROW_BYTES) {
            *m |= 1 << (b % ROW_BYTES);
        }
    }

    /// The (token, byte) masks of the hex row starting at `base`.
    pub fn row_masks(&self, base: usize) -> (u16, u16) {
        let r = base / ROW_BYTES;
        (self.tokens.get(r).copied().unwrap_or(0), self.bytes.get(r).copied().unwrap_or(0))
    }

    /// Every highlighted byte offset: (in a changed token, differs itself).
    pub fn offsets(&self) -> (Vec<usize>, Vec<usize>) {
        let list = |masks: &[u16]| {
            masks
                .iter()
                .enumerate()
                .flat_map(|(r, &m)| (0..ROW_BYTES).filter(move |k| m & (1 << k) != 0).map(move |k| r * ROW_BYTES + k))
                .collect()
        };
        (list(&self.tokens), list(&self.bytes))
    }
}

/// The diff as the page draws it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiffView {
    pub rows: Vec<Row>,
    /// Chunks that differ, in the diff's order.
    pub chunks: Vec<ChunkLine>,
    /// Whether the container header differs beyond the checksum.
    pub header_changed: bool,
    /// Whether the checksums differ.
    pub checksum_changed: bool,
    pub counts: Counts,
    /// What the hex view highlights in the current file.
    pub marks: ByteMarks,
    /// Listing lines of the current file's changed and added instructions, sorted.
    pub b_lines: Vec<usize>,
    /// Why there is no instruction alignment (a file without a program,
    /// or one that does not decode).
    pub no_program: Option<&'static str>,
}

impl DiffView {
    /// Compares `a` (the file compared with) and `b` (the current file).
    pub fn new(a: &Model, b: &Model) -> DiffView {
        let (Some(sa), Some(sb)) = (&a.shader, &b.shader) else {
            let no_program = Some(if a.shader.is_none() {
                "the compared file does not decode"
            } else {
                "this file does not decode"
            });
            return DiffView { no_program, ..DiffView::default() };
        };
        let d = dxbc::diff::diff(sa, sb);
        let mut v = DiffView::from_diff(&d, a, b);
        if a.program().is_none() || b.program().is_none() {
            v.no_program = Some("a file has no program to align");
        }
        v
    }

    fn from_diff(d: &ShaderDiff, a: &Model, b: &Model) -> DiffView {
        let checksum = 4..20;
        let checksum_changed = d.header.iter().any(|r| r.start < checksum.end && r.end > checksum.start);
        let header_changed = d.header.iter().any(|r| r.start < checksum.start || r.end > checksum.end);
        let chunks: Vec<ChunkLine> = d
            .chunks
            .iter()
            .filter(|c| c.change != ChunkChange::Same)
            .map(|c| ChunkLine { tag: c.tag.clone(), change: c.change })
            .collect();
        let mut counts = Counts { chunks: chunks.len(), ..Counts::default() };
        let mut marks = ByteMarks::new(b.bytes.len());
        let mut full = Vec::with_capacity(d.instructions.len());
        for step in &d.instructions {
            let row = match step {
                InsDiff::Same(i, j) => {
                    counts.same += 1;
                    row(RowStatus::Same, ins(a, *i), ins(b, *j))
                }
                InsDiff::Removed(i) => {
                    counts.removed += 1;
                    row(RowStatus::Removed, ins(a, *i), None)
                }
                InsDiff::Added(j) => {
                    counts.added += 1;
                    let r = row(RowStatus::Added, None, ins(b, *j));
                    if let Some(x) = &r.b {
                        for o in x.offset as usize..(x.offset + x.len) as usize {
                            ByteMarks::mark(&mut marks.tokens, o);
                            ByteMarks::mark(&mut marks.bytes, o);
                        }
                    }
                    r
                }
                InsDiff::Changed { a: i, b: j, fields, a_bytes, b_bytes } => {
                    counts.changed += 1;
                    for (k, rb) in b_bytes.iter().enumerate() {
                        let ra = a_bytes.get(k);
                        for (n, o) in rb.clone().enumerate() {
                            ByteMarks::mark(&mut marks.tokens, o);
                            let before = ra.and_then(|ra| a.bytes.get(ra.start + n).filter(|_| ra.start + n < ra.end));
                            if before != b.bytes.get(o) {
                                ByteMarks::mark(&mut marks.bytes, o);
                            }
                        }
                    }
                    let mut r = Row {
                        fields: fields.iter().map(|f| format!("{} {} → {}", f.name, f.a, f.b)).collect(),
                        a_bytes: a_bytes.clone(),
                        b_bytes: b_bytes.clone(),
                        ..row(RowStatus::Changed, ins(a, *i), ins(b, *j))
                    };
                    r.shown = byte_changes(&r, &a.bytes, &b.bytes);
                    r
                }
            };
            full.push(row);
        }
        let mut b_lines: Vec<usize> = full
            .iter()
            .filter(|r| matches!(r.status, RowStatus::Changed | RowStatus::Added))
            .filter_map(|r| b.ins_line.get(r.b.as_ref()?.index).map(|&l| l as usize))
            .collect();
        b_lines.sort_unstable();
        DiffView {
            rows: fold(full),
            chunks,
            header_changed,
            checksum_changed,
            counts,
            marks,
            b_lines,
            no_program: None,
        }
    }

    /// The summary line: `1 changed, 0 removed, 0 added, 41 unchanged; 1 chunk differs`.
    pub fn summary(&self) -> String {
        let c = &self.counts;
        let chunks = match c.chunks {
            1 => "1 chunk differs".to_string(),
            n => format!("{n} chunks differ"),
        };
        format!("{} changed, {} removed, {} added, {} unchanged; {chunks}", c.changed, c.removed, c.added, c.same)
    }

    /// Whether listing line `l` of the current file is a changed or added instruction.
    pub fn marks_line(&self, l: usize) -> bool {
        self.b_lines.binary_search(&l).is_ok()
    }

    /// Whether the two files are byte for byte the same (as far as the diff sees).
    pub fn identical(&self) -> bool {
        let c = &self.counts;
        c.changed + c.removed + c.added + c.chunks == 0 && !self.header_changed && !self.checksum_changed
    }
}

/// The changed bytes of a Changed row, side by side: for each changed
/// range, its offset in the current file and up to [`SHOWN_BYTES`] bytes of
/// each file, each byte with whether it differs.
pub fn byte_changes(r: &Row, a: &[u8], b: &[u8]) -> Vec<ByteChange> {
    let slice = |f: &[u8], r: &Range<usize>| f.get(r.start..r.end.min(r.start + SHOWN_BYTES)).unwrap_or(&[]).to_vec();
    r.b_bytes
        .iter()
        .zip(&r.a_bytes)
        .take(SHOWN_RANGES)
        .map(|(rb, ra)| {
            let (xa, xb) = (slice(a, ra), slice(b, rb));
            let mark = |x: &[u8], y: &[u8]| x.iter().enumerate().map(|(k, &v)| (v, y.get(k) != Some(&v))).collect();
            (rb.start, mark(&xa, &xb), mark(&xb, &xa))
        })
        .collect()
}

/// Most changed ranges a row spells out, and most bytes of each.
pub const SHOWN_RANGES: usize = 8;
pub const SHOWN_BYTES: usize = 32;

fn row(status: RowStatus, a: Option<Ins>, b: Option<Ins>) -> Row {
    Row { status, a, b, fields: Vec::new(), a_bytes: Vec::new(), b_bytes: Vec::new(), folded: 0, shown: Vec::new() }
}

/// Instruction `k` of `m`'s program, with its listing line.
fn ins(m: &Model, k: usize) -> Option<Ins> {
    let i = m.program()?.instructions.get(k)?;
    let text = m.ins_line.get(k).and_then(|&l| m.lines.get(l as usize)).map_or("", |t| t.trim()).to_string();
    Some(Ins { index: k, offset: i.offset, len: i.length.saturating_mul(4), text })
}

/// Folds each run of unchanged rows longer than twice [`CONTEXT`] plus one,
/// keeping `CONTEXT` rows beside each change (and none before the first
/// change or after the last).
fn fold(rows: Vec<Row>) -> Vec<Row> {
    let mut out = Vec::with_capacity(rows.len().min(1024));
    let mut k = 0;
    while k < rows.len() {
        if rows[k].status != RowStatus::Same {
            out.push(rows[k].clone());
            k += 1;
            continue;
        }
        let end = rows[k..].iter().position(|r| r.status != RowStatus::Same).map_or(rows.len(), |n| k + n);
        let keep_before = if k == 0 { 0 } else { CONTEXT };
        let keep_after = if end == rows.len() { 0 } else { CONTEXT };
        let n = end - k;
        if n > keep_before + keep_after + 1 {
            out.extend(rows[k..k + keep_before].iter().cloned());
            out.push(Row { folded: n - keep_before - keep_after, ..row(RowStatus::Folded, None, None) });
            out.extend(rows[end - keep_after..end].iter().cloned());
        } else {
            out.extend(rows[k..end].iter().cloned());
        }
        k = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_corpus::file as corpus;

    /// Offsets (outside the 32-byte container header) where the files differ.
    fn differing(a: &[u8], b: &[u8]) -> Vec<usize> {
        (32..a.len().min(b.len())).filter(|&o| a[o] != b[o]).collect()
    }

    fn changed_rows(v: &DiffView) -> Vec<&Row> {
        v.rows.iter().filter(|r| !matches!(r.status, RowStatus::Same | RowStatus::Folded)).collect()
    }

    #[test]
    fn a_field_edit_gives_one_changed_row_holding_the_edited_token() {
        // The `ld` at 0x33c, as the CLI's diff test edits it; then a `mul`
        // of a bigger file; then the first instruction of each of a few others.
        let cases: [(&str, Option<usize>); 3] = [
            ("fxc/angle930_buffertotexture11_ps_4f.dxbc", Some(0x33c)),
            ("fxc/xenia_resolve_full_8bpp_3xres_cs.dxbc", None),
            ("fxc/angle63_passthrough2d11vs.dxbc", None),
        ];
        for (f, at) in cases {
            let bytes = corpus(f);
            let a = Model::new(bytes.clone());
            let p = a.program().unwrap();
            // The first instruction (from `at`) that takes a saturate flag.
            let (off, e) = p
                .instructions
                .iter()
                .map(|i| i.offset as usize)
                .filter(|&o| at.is_none_or(|at| o == at))
                .find_map(|o| dxbc::edit::set_field(&bytes, o, "saturate", "1").ok().map(|e| (o, e)))
                .unwrap_or_else(|| panic!("{f}: no instruction takes saturate"));
            let b = Model::new(e.bytes.clone());
            let v = DiffView::new(&a, &b);
            let changed = changed_rows(&v);
            assert_eq!(changed.len(), 1, "{f}: {changed:?}");
            let r = changed[0];
            assert_eq!(r.status, RowStatus::Changed);
            assert_eq!(r.b.as_ref().map(|x| x.offset as usize), Some(off), "{f}");
            assert_eq!(r.a.as_ref().map(|x| x.offset as usize), Some(off), "{f}");
            assert_eq!(r.fields, ["saturate 0 → 1"], "{f}");
            // The changed bytes are the edited token: the opcode dword.
            let token = std::iter::once(off..off + 4).collect::<Vec<_>>();
            assert_eq!((&r.b_bytes, &r.a_bytes), (&token, &token), "{f}");
            let (tokens, diffs) = v.marks.offsets();
            assert_eq!(tokens, (off..off + 4).collect::<Vec<_>>(), "{f}");
            // The bytes marked as differing are exactly those that differ in
            // the files (the container header's checksum aside).
            assert_eq!(diffs, differing(&bytes, &e.bytes), "{f}");
            assert!(!diffs.is_empty());
            assert!(r.b.as_ref().unwrap().text.contains("_sat"), "{f}: {:?}", r.b);
            // The row spells out the token in both files, marking the bytes that differ.
            let shown = &r.shown;
            assert_eq!(shown, &byte_changes(r, &bytes, &e.bytes));
            assert_eq!(shown.len(), 1);
            let (at, was, now) = &shown[0];
            assert_eq!((*at, was.len(), now.len()), (off, 4, 4));
            let marked: Vec<usize> = now.iter().enumerate().filter(|(_, x)| x.1).map(|(k, _)| off + k).collect();
            assert_eq!(marked, diffs, "{f}");
            assert_eq!(now.iter().map(|x| x.0).collect::<Vec<_>>(), e.bytes[off..off + 4]);
            assert_eq!(was.iter().map(|x| x.0).collect::<Vec<_>>(), bytes[off..off + 4]);
            assert!(!r.a.as_ref().unwrap().text.contains("_sat"), "{f}: {:?}", r.a);
            let n = p.instructions.len();
            assert_eq!(v.counts, Counts { same: n - 1, changed: 1, removed: 0, added: 0, chunks: 1 }, "{f}");
            assert_eq!(v.chunks.iter().map(ChunkLine::text).collect::<Vec<_>>(), [format!("{} changed", shex(&a))]);
            assert!(v.checksum_changed && !v.header_changed && !v.identical());
            // The listing marks the edited instruction's line, the one that now reads `_sat`.
            assert_eq!(v.b_lines.len(), 1);
            assert!(b.lines[v.b_lines[0]].contains("_sat") && v.marks_line(v.b_lines[0]), "{f}");
            assert_eq!(b.line_bytes(v.b_lines[0]).map(|x| x.0 as usize), Some(off), "{f}");
        }
    }

    fn shex(m: &Model) -> String {
        let s = m.shader.as_ref().unwrap();
        s.container.chunks.iter().map(|c| c.fourcc()).find(|t| t == "SHEX" || t == "SHDR").unwrap()
    }

    #[test]
    fn the_same_file_is_identical_and_folds_to_one_row() {
        let bytes = corpus("fxc/xenia_resolve_full_8bpp_3xres_cs.dxbc");
        let a = Model::new(bytes);
        let v = DiffView::new(&a, &a);
        assert!(v.identical());
        let n = a.program().unwrap().instructions.len();
        assert_eq!(v.counts, Counts { same: n, ..Counts::default() });
        assert_eq!(v.rows.len(), 1);
        assert_eq!((v.rows[0].status, v.rows[0].folded), (RowStatus::Folded, n));
        assert_eq!(v.marks.offsets(), (vec![], vec![]));
        assert_eq!(v.summary(), format!("0 changed, 0 removed, 0 added, {n} unchanged; 0 chunks differ"));
    }

    #[test]
    fn deleted_and_inserted_instructions_are_removed_and_added_rows() {
        let bytes = corpus("fxc/angle930_buffertotexture11_ps_4f.dxbc");
        let a = Model::new(bytes.clone());
        let p = a.program().unwrap();
        let ld = &p.instructions[4];
        assert_eq!(ld.offset, 0x33c);
        let del = dxbc::edit::delete_instruction(&bytes, 0x33c).unwrap();
        let b = Model::new(del.bytes.clone());
        let v = DiffView::new(&a, &b);
        let changed = changed_rows(&v);
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert_eq!(changed[0].status, RowStatus::Removed);
        assert_eq!(changed[0].a.as_ref().map(|x| (x.offset, x.len)), Some((0x33c, ld.length * 4)));
        assert_eq!(v.marks.offsets(), (vec![], vec![]), "nothing of the current file to highlight");
        // The reverse: the instruction comes back as an addition, all its bytes marked.
        let v = DiffView::new(&b, &a);
        let changed = changed_rows(&v);
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert_eq!(changed[0].status, RowStatus::Added);
        let want: Vec<usize> = (0x33c..0x33c + 4 * ld.length as usize).collect();
        assert_eq!(v.marks.offsets(), (want.clone(), want));
        // Unchanged context on each side: the first four instructions are 0..4,
        // the last one after; 4 + 1 = 5 same rows with CONTEXT 2 fold the front run.
        let statuses: Vec<_> = v.rows.iter().map(|r| r.status).collect();
        assert_eq!(statuses, [RowStatus::Folded, RowStatus::Same, RowStatus::Same, RowStatus::Added, RowStatus::Same]);
        assert_eq!(v.rows[0].folded, 2);
    }

    #[test]
    fn files_that_do_not_decode_say_so() {
        let good = Model::new(corpus("fxc/angle63_passthrough2d11vs.dxbc"));
        let bad = Model::new(b"not a shader".to_vec());
        assert_eq!(DiffView::new(&bad, &good).no_program, Some("the compared file does not decode"));
        assert_eq!(DiffView::new(&good, &bad).no_program, Some("this file does not decode"));
        assert!(DiffView::new(&good, &bad).rows.is_empty());
    }
}
