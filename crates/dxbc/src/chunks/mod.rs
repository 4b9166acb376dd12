//! Decoders for the container's chunks other than the program.

pub mod aon9;
pub mod ifce;
pub mod rdef;
pub mod sfi0;
pub mod signature;
pub mod spdb;
pub mod stat;
pub mod write;
