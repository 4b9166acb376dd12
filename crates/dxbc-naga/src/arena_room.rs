//! The room of the entry point's expression arena, kept on the thread from
//! one translation to the next.
//!
//! Why: the lowering appends every expression of the shader to one naga
//! `Arena`, which starts empty (naga's arena has no `with_capacity`) and
//! grows by doubling: about ten reallocations and copies of its two
//! vectors per shader. A dropped [`crate::Translation`] gives its entry
//! point's arena back here, emptied (`Arena::clear` keeps the vectors'
//! capacity), and the next translation on the thread starts from it. The
//! handles an emptied arena gives are those a fresh one gives, so the
//! module is the same whichever arena it was built in
//! (`kept_state_translates_as_a_fresh_thread_does` in lib.rs). Counted with
//! `examples/lower_passes.rs` (callgrind), one pass of `translate`: 2.2 %
//! fewer instructions over the fxc corpus, 2.7 % over vkd3d's.
//!
//! The room kept is bounded ([`MAX_KEPT`] expressions, about 3 MB at 48
//! bytes each with its span), so a thread that once translated a huge
//! shader does not hold its memory for good; a larger arena is dropped.
//! The cost to callers: `Translation` implements `Drop`, so its fields are
//! taken (`std::mem::take`), not moved, out of it.

use std::cell::RefCell;

use naga::{Arena, Expression};

/// The most expressions a kept arena may have room for.
const MAX_KEPT: usize = 1 << 16;

thread_local! {
    static KEPT: RefCell<Option<Arena<Expression>>> = const { RefCell::new(None) };
}

/// An empty arena: the kept one, when there is one, else a new one.
pub(crate) fn take() -> Arena<Expression> {
    KEPT.try_with(|k| k.borrow_mut().take()).ok().flatten().unwrap_or_default()
}

/// Keeps `arena`'s room for the next [`take`] on this thread, emptied,
/// unless it held more than [`MAX_KEPT`] expressions or a room is already
/// kept (each translation takes the kept room, so one is kept only while
/// two translations made on the thread are alive at once).
pub(crate) fn give(mut arena: Arena<Expression>) {
    if arena.is_empty() || arena.len() > MAX_KEPT {
        return;
    }
    arena.clear();
    let _ = KEPT.try_with(|k| {
        if let Ok(mut k) = k.try_borrow_mut() {
            k.get_or_insert(arena);
        }
    });
}

#[cfg(test)]
mod tests {
    /// A dropped translation leaves its arena's room for the next one.
    #[test]
    fn a_dropped_translation_leaves_its_room() {
        let t = crate::test_corpus::fxc_files()
            .into_iter()
            .find_map(|(_, bytes)| {
                let shader = dxbc::Shader::parse(&bytes).ok()?;
                drop(super::take());
                crate::translate(&shader, &Default::default()).ok()
            })
            .expect("an fxc shader translates");
        assert!(super::KEPT.with(|k| k.borrow().is_none()), "the translation took no room");
        drop(t);
        assert!(super::KEPT.with(|k| k.borrow().as_ref().is_some_and(|a| a.is_empty())), "no empty room kept");
    }
}
