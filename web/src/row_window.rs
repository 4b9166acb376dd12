//! The rows a virtualised text view keeps drawn, recycled as its window
//! moves.
//!
//! Why: the listing used to build a row element per line in its window and
//! drop the rows that left it. A jump replaced all of them; a profile of
//! far jumps on the 158 KB shader put about 2 ms in removing and building
//! them (the bench's frame times did not measurably change without it).
//! Here the row elements stay. A scroll moves the rows that left at
//! one end over to the other, in document order, and only they are
//! rewritten. A jump rewrites every row in place. An edit rewrites the rows
//! whose text changed. Rows the window no longer needs (it draws fewer
//! right after a jump) are hidden, kept for when it grows again.
//!
//! This is the plain part: which rows move and which need writing. The
//! view applies it to the DOM.

/// What a view's rows show: the first line, and per row (in document
/// order) the line and text last written into it.
#[derive(Default)]
pub struct RowWindow {
    first: usize,
    rows: Vec<Option<(usize, String)>>,
}

/// How the row elements move before they are rewritten.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// They stay where they are.
    Stay,
    /// This many rows go from the start to the end (the window moved down).
    FrontToBack(usize),
    /// This many rows go from the end to the start (the window moved up).
    BackToFront(usize),
}

impl RowWindow {
    /// Rows in the window.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the window has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Moves the window to `count` rows from line `first`. The view then
    /// rotates the row elements of the window as it was (its first
    /// [`RowWindow::len`] before the call) as returned, and shows or hides
    /// rows at its end until it has `count`.
    pub fn shift(&mut self, first: usize, count: usize) -> Rotation {
        let len = self.rows.len();
        let rotation = if first > self.first && first - self.first < len {
            let k = first - self.first;
            self.rows.rotate_left(k);
            self.rows[len - k..].fill(None);
            Rotation::FrontToBack(k)
        } else if first < self.first && self.first - first < len {
            let k = self.first - first;
            self.rows.rotate_right(k);
            self.rows[..k].fill(None);
            Rotation::BackToFront(k)
        } else {
            if first != self.first {
                self.rows.fill(None);
            }
            Rotation::Stay
        };
        self.first = first;
        self.rows.resize(count, None);
        rotation
    }

    /// The rows written, as (row, line): where the view finds a line's
    /// row without reading the DOM back.
    pub fn shown(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rows.iter().enumerate().filter_map(|(i, r)| Some((i, r.as_ref()?.0)))
    }

    /// The row that shows line `line`, if one was written for it.
    pub fn row_of(&self, line: usize) -> Option<usize> {
        let i = line.checked_sub(self.first)?;
        self.rows.get(i)?.as_ref().filter(|(l, _)| *l == line).map(|_| i)
    }

    /// Whether row `i` must be written to show `text` as line `first + i`;
    /// when it must, it is taken as written.
    pub fn needs_write(&mut self, i: usize, text: &str) -> bool {
        let line = self.first + i;
        let Some(row) = self.rows.get_mut(i) else { return false };
        if row.as_ref().is_some_and(|(l, t)| *l == line && t == text) {
            return false;
        }
        *row = Some((line, text.to_owned()));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies a shift to a model of the DOM (row ids in document order) and
    /// returns which rows were written (by id) and the lines they show.
    /// Row ids are never reused for another element: a new id means a new
    /// element was built. Hidden rows stay after the window's.
    fn apply(
        w: &mut RowWindow,
        dom: &mut Vec<u32>,
        next_id: &mut u32,
        lines: &[String],
        first: usize,
        count: usize,
    ) -> Vec<u32> {
        let before = w.len();
        match w.shift(first, count) {
            Rotation::Stay => {}
            Rotation::FrontToBack(k) => dom[..before].rotate_left(k),
            Rotation::BackToFront(k) => dom[..before].rotate_right(k),
        }
        while dom.len() < count {
            dom.push(*next_id);
            *next_id += 1;
        }
        (0..count).filter(|&i| w.needs_write(i, &lines[first + i])).map(|i| dom[i]).collect()
    }

    #[test]
    fn a_scroll_rewrites_only_the_rows_that_enter_and_keeps_the_rest() {
        let lines: Vec<String> = (0..200).map(|i| format!("mov r{i}.x, l(1)")).collect();
        let (mut w, mut dom, mut id) = (RowWindow::default(), Vec::new(), 0);
        assert_eq!(apply(&mut w, &mut dom, &mut id, &lines, 0, 10).len(), 10);
        let before = dom.clone();
        // Three lines down: the three rows that left the top show the three new lines.
        let written = apply(&mut w, &mut dom, &mut id, &lines, 3, 10);
        assert_eq!(written, before[..3].to_vec());
        assert_eq!(dom[..7], before[3..]);
        // Two up: the two at the end come back to the start.
        let mid = dom.clone();
        let written = apply(&mut w, &mut dom, &mut id, &lines, 1, 10);
        assert_eq!(written, mid[8..].to_vec());
        assert_eq!(dom[2..], mid[..8]);
        // Nothing moved: nothing written.
        assert!(apply(&mut w, &mut dom, &mut id, &lines, 1, 10).is_empty());
    }

    #[test]
    fn a_jump_rewrites_every_row_in_place() {
        let lines: Vec<String> = (0..200).map(|i| format!("add r{i}.x, r0.x, r1.x")).collect();
        let (mut w, mut dom, mut id) = (RowWindow::default(), Vec::new(), 0);
        apply(&mut w, &mut dom, &mut id, &lines, 20, 10);
        let before = dom.clone();
        let written = apply(&mut w, &mut dom, &mut id, &lines, 150, 10);
        assert_eq!((&written, &dom), (&before, &before));
        // Growing after a jump (the lookahead) adds rows at the end only.
        let written = apply(&mut w, &mut dom, &mut id, &lines, 150, 14);
        assert_eq!(written, vec![10, 11, 12, 13]);
        // Shrinking for the next jump writes nothing and builds nothing; the
        // rows it hid come back for the lookahead, rewritten.
        assert!(apply(&mut w, &mut dom, &mut id, &lines, 150, 6).is_empty());
        assert_eq!(apply(&mut w, &mut dom, &mut id, &lines, 10, 6), dom[..6].to_vec());
        assert_eq!(apply(&mut w, &mut dom, &mut id, &lines, 10, 14), vec![6, 7, 8, 9, 10, 11, 12, 13]);
        assert_eq!(id, 14);
    }

    #[test]
    fn an_edit_rewrites_only_the_rows_whose_text_changed() {
        let mut lines: Vec<String> = (0..50).map(|i| format!("mul r{i}.x, r0.x, r1.x")).collect();
        let (mut w, mut dom, mut id) = (RowWindow::default(), Vec::new(), 0);
        apply(&mut w, &mut dom, &mut id, &lines, 5, 10);
        lines[8] = "mul_sat r8.x, r0.x, r1.x".into();
        assert_eq!(apply(&mut w, &mut dom, &mut id, &lines, 5, 10), vec![dom[3]]);
        // A line inserted above the window shifts every line's text by one row.
        lines.insert(0, "nop".into());
        assert_eq!(apply(&mut w, &mut dom, &mut id, &lines, 5, 10).len(), 10);
    }

    #[test]
    fn a_line_is_found_at_the_row_written_for_it() {
        let lines: Vec<String> = (0..200).map(|i| format!("dp4 r{i}.x, r0, r1")).collect();
        let (mut w, mut dom, mut id) = (RowWindow::default(), Vec::new(), 0);
        apply(&mut w, &mut dom, &mut id, &lines, 20, 10);
        assert_eq!(w.row_of(23), Some(3));
        assert_eq!((w.row_of(19), w.row_of(30)), (None, None));
        // A scroll down by two: the kept rows moved up two places.
        apply(&mut w, &mut dom, &mut id, &lines, 22, 10);
        assert_eq!((w.row_of(23), w.row_of(31)), (Some(1), Some(9)));
        assert_eq!(w.shown().collect::<Vec<_>>(), (0..10).map(|i| (i, 22 + i)).collect::<Vec<_>>());
        // Rows not yet written name no line.
        w.shift(100, 4);
        assert_eq!((w.row_of(100), w.shown().count()), (None, 0));
    }
}
