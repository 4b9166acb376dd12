//! fxc-identical text listings.

pub mod header;
