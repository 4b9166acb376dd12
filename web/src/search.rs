//! The search box's logic: the matches of one query on the current file
//! (`dxbc::search` does the finding), which hex-view bytes and listing
//! lines they light, and where Enter goes next.

use crate::model::Model;
use crate::selection::{self, Selection, ROW_BYTES};
use dxbc::search::{Match, MatchKind, Query, Searcher};

/// The matches of one query, ready for the views.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hits {
    /// Ordered by offset.
    pub matches: Vec<Match>,
    /// Listing lines holding a match, sorted, without repeats.
    pub lines: Vec<usize>,
    /// More matches existed than `dxbc::search::MAX_MATCHES`.
    pub truncated: bool,
    /// Per hex-view row, the bytes a match covers (bit k: byte k of the row).
    row_masks: Vec<u16>,
}

impl Hits {
    /// Runs `query` on `m` (no matches when the file did not decode).
    pub fn find(m: &Model, query: &str) -> Hits {
        let q = Query::parse(query);
        let Some(sh) = m.shader.as_ref().filter(|_| q != Query::Empty) else { return Hits::default() };
        let found = Searcher::with_lines(sh, m.line_map()).without_descriptions().find(&q);
        let mut lines: Vec<usize> = found.matches.iter().filter_map(|x| x.line).collect();
        lines.sort_unstable();
        lines.dedup();
        // One sweep over the matches (sorted by start): each byte is marked
        // once, however many matches overlap it.
        let mut row_masks = vec![0u16; m.bytes.len().div_ceil(ROW_BYTES)];
        let mut reach = 0;
        for x in &found.matches {
            for b in x.range.start.max(reach)..x.range.end.min(m.bytes.len()) {
                row_masks[b / ROW_BYTES] |= 1 << (b % ROW_BYTES);
            }
            reach = reach.max(x.range.end);
        }
        Hits { matches: found.matches, lines, truncated: found.truncated, row_masks }
    }

    /// Whether listing line `l` holds a match.
    pub fn has_line(&self, l: usize) -> bool {
        self.lines.binary_search(&l).is_ok()
    }

    /// Which of the `ROW_BYTES` bytes from `base` a match covers (bit k:
    /// byte `base + k`), as [`selection::row_mask`] does for the selection.
    pub fn row_mask(&self, base: usize) -> u16 {
        self.row_masks.get(base / ROW_BYTES).copied().unwrap_or(0)
    }

    /// The match Enter goes to from `sel`: the first one starting after the
    /// selection's start (`forward`), or the last one before it, wrapping.
    pub fn step(&self, sel: Option<&Selection>, forward: bool) -> Option<usize> {
        let n = self.matches.len();
        if n == 0 {
            return None;
        }
        let Some(at) = sel.map(|s| s.start as usize) else { return Some(if forward { 0 } else { n - 1 }) };
        if forward {
            Some(self.matches.iter().position(|x| x.range.start > at).unwrap_or(0))
        } else {
            Some(self.matches.iter().rposition(|x| x.range.start < at).unwrap_or(n - 1))
        }
    }

    /// The index of the match the selection sits on, if any.
    pub fn current(&self, sel: Option<&Selection>) -> Option<usize> {
        // Matches are sorted by start: the first one starting at the
        // selection, found by bisection (this runs on every selection change).
        let at = sel?.start as usize;
        let k = self.matches.partition_point(|x| x.range.start < at);
        self.matches.get(k).filter(|x| x.range.start == at).map(|_| k)
    }

    /// The selection for match `k`: an instruction by its listing line, a
    /// register operand or string by its bytes.
    pub fn select(&self, m: &Model, k: usize) -> Option<Selection> {
        let x = self.matches.get(k)?;
        match (x.kind, x.line) {
            (MatchKind::Instruction, Some(l)) => selection::select_line(m, l),
            _ => selection::select_range(m, x.range.start as u32, (x.range.end - x.range.start).max(1) as u32),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tint() -> Model {
        Model::new(dxbc::examples::tint_pixel_shader())
    }

    #[test]
    fn an_opcode_finds_its_listing_line_and_enter_selects_it() {
        let m = tint();
        let h = Hits::find(&m, "mul");
        assert_eq!(h.matches.len(), 1, "{h:?}");
        let l = h.lines[0];
        assert!(m.lines[l].starts_with("mul "), "{}", m.lines[l]);
        let k = h.step(None, true).unwrap();
        let sel = h.select(&m, k).unwrap();
        assert_eq!(selection::line_of(&m, &sel), Some(l));
        assert_eq!(h.current(Some(&sel)), Some(k));
        // Enter again wraps to the same (only) match.
        assert_eq!(h.step(Some(&sel), true), Some(0));
    }

    #[test]
    fn registers_light_their_bytes_and_lines() {
        let m = tint();
        let h = Hits::find(&m, "o0");
        assert!(!h.matches.is_empty());
        for x in &h.matches {
            let base = x.range.start / ROW_BYTES * ROW_BYTES;
            assert_ne!(h.row_mask(base) & (1 << (x.range.start - base)), 0);
            assert!(m.lines[x.line.unwrap()].contains("o0"), "{}", m.lines[x.line.unwrap()]);
        }
        // A row with no match has an empty mask.
        assert_eq!(h.row_mask(0), 0);
    }

    #[test]
    fn empty_and_unknown_queries_find_nothing() {
        let m = tint();
        assert_eq!(Hits::find(&m, "  "), Hits::default());
        assert!(Hits::find(&m, "no_such_name_anywhere").matches.is_empty());
        assert_eq!(Hits::find(&m, "").step(None, true), None);
    }
}
