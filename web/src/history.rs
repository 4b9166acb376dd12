//! The playground's undo history: every accepted edit pushes the bytes it
//! replaced; undo and redo swap the current bytes with the stacks' tops.
//! The file as opened is kept apart, so the page can say whether the bytes
//! it shows are edited (an undo back to them, or an edit that happens to
//! restore them, clears the badge).

/// Most edits kept to undo; the oldest are forgotten beyond it.
pub const MAX_UNDO: usize = 256;

/// Undo and redo stacks over whole containers (shaders are small: whole
/// copies keep every step exact and the logic trivial).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    /// The bytes as opened.
    opened: Vec<u8>,
    /// Earlier bytes, the most recent last.
    undo: Vec<Vec<u8>>,
    /// Undone bytes, the most recently undone last.
    redo: Vec<Vec<u8>>,
}

impl History {
    /// A history for a file just opened.
    pub fn opened(bytes: &[u8]) -> History {
        History { opened: bytes.to_vec(), undo: Vec::new(), redo: Vec::new() }
    }

    /// Records an accepted edit that replaced `before`; what was undone is
    /// no longer redoable.
    pub fn edited(&mut self, before: Vec<u8>) {
        if self.undo.len() == MAX_UNDO {
            self.undo.remove(0);
        }
        self.undo.push(before);
        self.redo.clear();
    }

    /// The bytes before the last edit (None when nothing is left to undo);
    /// `current` becomes redoable.
    pub fn undo(&mut self, current: Vec<u8>) -> Option<Vec<u8>> {
        let back = self.undo.pop()?;
        self.redo.push(current);
        Some(back)
    }

    /// The bytes of the last undone edit (None when nothing is left to
    /// redo); `current` becomes undoable again.
    pub fn redo(&mut self, current: Vec<u8>) -> Option<Vec<u8>> {
        let next = self.redo.pop()?;
        self.undo.push(current);
        Some(next)
    }

    /// Whether an undo is possible.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether a redo is possible.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The bytes as opened (what the diff view compares edits with).
    pub fn opened_bytes(&self) -> &[u8] {
        &self.opened
    }

    /// Whether `current` differs from the file as opened.
    pub fn is_edited(&self, current: &[u8]) -> bool {
        current != self.opened.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_walk_the_edits() {
        let mut h = History::opened(b"a");
        assert!(!h.can_undo() && !h.can_redo());
        assert_eq!(h.undo(b"a".to_vec()), None);
        h.edited(b"a".to_vec()); // a → b
        h.edited(b"b".to_vec()); // b → c
        assert!(h.is_edited(b"c"));
        assert_eq!(h.opened_bytes(), b"a");
        assert_eq!(h.undo(b"c".to_vec()).as_deref(), Some(&b"b"[..]));
        assert_eq!(h.undo(b"b".to_vec()).as_deref(), Some(&b"a"[..]));
        assert!(!h.is_edited(b"a"));
        assert_eq!(h.undo(b"a".to_vec()), None);
        assert_eq!(h.redo(b"a".to_vec()).as_deref(), Some(&b"b"[..]));
        assert_eq!(h.redo(b"b".to_vec()).as_deref(), Some(&b"c"[..]));
        assert_eq!(h.redo(b"c".to_vec()), None);
        assert!(h.can_undo() && !h.can_redo());
    }

    #[test]
    fn a_new_edit_drops_the_redo_stack() {
        let mut h = History::opened(b"a");
        h.edited(b"a".to_vec()); // a → b
        assert_eq!(h.undo(b"b".to_vec()).as_deref(), Some(&b"a"[..]));
        assert!(h.can_redo());
        h.edited(b"a".to_vec()); // a → d
        assert!(!h.can_redo());
        assert_eq!(h.undo(b"d".to_vec()).as_deref(), Some(&b"a"[..]));
    }

    #[test]
    fn an_edit_back_to_the_opened_bytes_is_not_edited() {
        let mut h = History::opened(b"a");
        h.edited(b"a".to_vec()); // a → b
        h.edited(b"b".to_vec()); // b → a
        assert!(!h.is_edited(b"a"));
        assert!(h.can_undo());
    }

    #[test]
    fn the_oldest_edits_are_forgotten() {
        let mut h = History::opened(&[0]);
        for k in 0..MAX_UNDO + 10 {
            h.edited(vec![k as u8]);
        }
        let mut n = 0;
        let mut cur = vec![0xff];
        while h.can_undo() {
            cur = h.undo(cur).unwrap();
            n += 1;
        }
        assert_eq!(n, MAX_UNDO);
        assert_eq!(cur, vec![10u8]);
    }
}
