//! The app's views, one component per file. Each reads the app's `State`
//! from context; logic they need lives in the plain modules (`layout`,
//! `selection`, `inspect`, `text`, …), tested with `#[test]`.

pub mod carve_list;
pub mod code_view;
pub mod container_map;
pub mod copy_button;
pub mod debug_panel;
pub mod def_use_bar;
pub mod diff_pane;
pub mod diff_source;
pub mod disassembly;
pub mod edit_bar;
pub mod error_banner;
pub mod header;
pub mod hex_view;
pub mod inspector;
pub mod listing_editor;
pub mod listing_tools;
pub mod pipeline_control;
pub mod preview;
pub mod reflection;
pub mod search_box;
pub mod side_pane;
pub mod source_pane;
pub mod splitter;
pub mod theme_toggle;
pub mod tour_panel;
pub mod translation_pane;
pub mod workspace;
