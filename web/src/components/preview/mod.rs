//! The live preview's widgets, one component per file. The signals they
//! share, the effects that drive the GPU and the WebGPU calls are in
//! `crate::preview_pane`.

pub mod blank_warning;
pub mod buffer_tables;
pub mod compare_controls;
pub mod constant_controls;
pub mod cpu_picture;
pub mod pane;
pub mod pixel_readout;
pub mod stage_controls;
pub mod status_line;
pub mod texture_controls;
