//! naga's SPIR-V and WGSL writers, one of each per thread.
//!
//! Each writer's `write` first resets every field that its options do not
//! decide and keeps the allocations of its tables (SPIR-V: the type and
//! constant lookups, the layout's word lists; WGSL: the names and the
//! namer's tables), so a reused writer writes each module as a fresh one
//! would. What reuse saves is building those tables again for every
//! module, a large part of writing a small shader.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use naga::back::{spv, wgsl};

thread_local! {
    static SPIRV: RefCell<Option<spv::Writer>> = const { RefCell::new(None) };
    static WGSL: RefCell<Option<(wgsl::Writer<Text>, Text)>> = const { RefCell::new(None) };
}

/// The words `spv::write_vec(module, info, &spirv_options(), None)` gives.
pub(crate) fn spirv(module: &naga::Module, info: &naga::valid::ModuleInfo) -> Result<Vec<u32>, spv::Error> {
    let options = spirv_options();
    SPIRV.with(|cell| {
        // Not reached (writing calls nothing that writes), but a nested call
        // would still be answered.
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return spv::write_vec(module, info, &options, None);
        };
        let writer = match &mut *slot {
            Some(w) => w,
            None => slot.insert(spv::Writer::new(&options)?),
        };
        let mut words = Vec::new();
        writer.write(module, info, None, &options.debug_info, &mut words)?;
        Ok(words)
    })
}

/// naga's default SPIR-V options without `DEBUG` (names for every value),
/// which naga adds to them only when it is built with debug assertions: the
/// tests then write the release build's words.
fn spirv_options() -> spv::Options<'static> {
    let mut options = spv::Options::default();
    options.flags.remove(spv::WriterFlags::DEBUG);
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
        let written = std::mem::take(&mut *text.0.borrow_mut());
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
