//! DXBC Explorer's plain logic, shared by the two wasm binaries and tested
//! natively: the view model of a decoded file (`model`), how the hex view
//! colours each byte (`byte_look`), selections,
//! the playground's undo history (`history`),
//! the inspector's rows, paste detection, listing syntax, the tour, the
//! gallery of examples, the translation pane's data (`translation`) and the
//! live preview's logic (`preview`).
//!
//! `translator` runs `dxbc_naga` and naga's writers. Only the worker
//! binary (`worker.rs`) calls it; the UI binary (`main.rs`) receives its
//! results as JSON, so naga is linked into the worker's wasm alone and the
//! first view loads without it.

pub mod byte_look;
pub mod carved;
pub mod cpu_compare;
pub mod debugger;
pub mod def_use;
pub mod diff_view;
pub mod gallery;
pub mod history;
pub mod hlsl_syntax;
pub mod input;
pub mod inspect;
pub mod layout;
pub mod listing_edit;
pub mod model;
pub mod preview;
pub mod row_window;
pub mod search;
pub mod selection;
pub mod source_map;
pub mod syntax;
pub mod text;
pub mod tour;
pub mod translation;
pub mod translator;

#[cfg(test)]
pub(crate) mod test_corpus;
