//! naga's SPIR-V and WGSL writers, one of each per thread.
//!
//! Each writer's `write` first resets every field that its options do not
//! decide and keeps the allocations of its tables (SPIR-V: the type and
//! constant lookups, the layout's word lists; WGSL: the names and the
//! namer's tables), so a reused writer writes each module as a fresh one
//! would. What reuse saves is building those tables again for every
//! module, a large part of writing a small shader. Their outputs' room
//! is kept too (the SPIR-V words, the WGSL text), so a module's output
//! grows into room that is already there and is copied out once.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use naga::back::{spv, wgsl};

thread_local! {
    /// The writer, the words it last wrote into (kept for their room) and
    /// whether it negates SV_Position's y.
    static SPIRV: RefCell<Option<(spv::Writer, Vec<u32>, bool)>> = const { RefCell::new(None) };
    static WGSL: RefCell<Option<(wgsl::Writer<Text>, Text)>> = const { RefCell::new(None) };
}

/// The words `spv::write_vec(module, info, &spirv_options(flip_y), None)`
/// gives.
pub(crate) fn spirv(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    flip_y: bool,
) -> Result<Vec<u32>, spv::Error> {
    let options = spirv_options(flip_y);
    SPIRV.with(|cell| {
        // Not reached (writing calls nothing that writes), but a nested call
        // would still be answered.
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return spv::write_vec(module, info, &options, None);
        };
        if slot.as_ref().is_some_and(|w| w.2 != flip_y) {
            *slot = None;
        }
        let (writer, room, _) = match &mut *slot {
            Some(w) => w,
            None => slot.insert((spv::Writer::new(&options)?, Vec::new(), flip_y)),
        };
        // naga appends the module section by section, and a fresh vector
        // grew (and was copied) at most of them. Written into the room of
        // the last module's words, the result is copied once, at its size.
        room.clear();
        writer.write(module, info, None, &options.debug_info, room)?;
        let words = room.to_vec();
        if room.capacity() * 4 > KEPT_BYTES {
            *room = Vec::new();
        }
        Ok(words)
    })
}

/// The most room kept between modules, in bytes (SPIR-V words and WGSL
/// text alike): a huge module's room is given back after it.
const KEPT_BYTES: usize = 4 << 20;

/// naga's default SPIR-V options without `DEBUG` (names for every value),
/// which naga adds to them only when it is built with debug assertions: the
/// tests then write the release build's words. With `flip_y` off, also
/// without `ADJUST_COORDINATE_SPACE` (the negated position y).
fn spirv_options(flip_y: bool) -> spv::Options<'static> {
    let mut options = spv::Options::default();
    options.flags.remove(spv::WriterFlags::DEBUG);
    options.flags.set(spv::WriterFlags::ADJUST_COORDINATE_SPACE, flip_y);
    options
}

/// The text `wgsl::write_string(module, info, wgsl::WriterFlags::empty())`
/// gives.
pub(crate) fn wgsl(module: &naga::Module, info: &naga::valid::ModuleInfo) -> Result<String, wgsl::Error> {
    WGSL.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return wgsl::write_string(module, info, wgsl::WriterFlags::empty());
        };
        let (writer, text) = slot.get_or_insert_with(|| {
            let text = Text::default();
            (wgsl::Writer::new(text.clone(), wgsl::WriterFlags::empty()), text)
        });
        // A failed write leaves text behind; the next one starts afresh.
        text.0.borrow_mut().clear();
        writer.write(module, info)?;
        // Copied out at its size; the text's room stays for the next module
        // (as the SPIR-V words' does).
        let mut room = text.0.borrow_mut();
        let written = room.as_str().to_owned();
        if room.capacity() > KEPT_BYTES {
            *room = String::new();
        }
        Ok(written)
    })
}

/// The WGSL writer's output, shared with [`wgsl`]: the writer owns its
/// output and gives it back only when it is dropped (`finish`).
#[derive(Clone, Default)]
struct Text(Rc<RefCell<String>>);

impl fmt::Write for Text {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.borrow_mut().push_str(s);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept writers (and their kept output room) write what a fresh
    /// writer writes into a fresh vector or string, for every fxc corpus
    /// shader that translates, written largest, smallest, next largest, …
    /// so that each module follows one of a very different size.
    #[test]
    fn kept_writers_write_what_fresh_ones_write() {
        let mut translations: Vec<(std::path::PathBuf, crate::Translation)> = crate::test_corpus::fxc_files()
            .into_iter()
            .filter_map(|(p, bytes)| {
                let shader = dxbc::Shader::parse(&bytes).ok()?;
                let t = crate::translate(&shader, &Default::default()).ok()?;
                Some((p, t))
            })
            .collect();
        assert!(translations.len() > 300, "{} fxc shaders translate", translations.len());
        translations.sort_by_cached_key(|(p, t)| {
            (t.module.entry_points.iter().map(|e| e.function.expressions.len()).sum::<usize>(), p.clone())
        });
        for i in crate::test_corpus::largest_then_smallest(translations.len()) {
            let (path, t) = &translations[i];
            // Both clip-space conventions, switching between them.
            let flip_y = i % 3 != 0;
            let fresh = spv::write_vec(&t.module, &t.info, &spirv_options(flip_y), None);
            match (spirv(&t.module, &t.info, flip_y), fresh) {
                (Ok(kept), Ok(fresh)) => assert!(kept == fresh, "{}: SPIR-V differs", path.display()),
                (kept, fresh) => assert_eq!(kept.is_ok(), fresh.is_ok(), "{}: SPIR-V", path.display()),
            }
            let fresh = wgsl::write_string(&t.module, &t.info, wgsl::WriterFlags::empty());
            match (wgsl(&t.module, &t.info), fresh) {
                (Ok(kept), Ok(fresh)) => assert!(kept == fresh, "{}: WGSL differs", path.display()),
                (kept, fresh) => assert_eq!(kept.is_ok(), fresh.is_ok(), "{}: WGSL", path.display()),
            }
        }
    }
}
