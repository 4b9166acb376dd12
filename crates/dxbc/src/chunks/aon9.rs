//! STUB (to be replaced): Aon9 chunk.
use crate::error::Result;
use serde::Serialize;

/// Decoded Aon9 chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Aon9 {}

impl Aon9 {
    /// Parses the chunk payload; `base` is its absolute offset.
    pub fn parse(_data: &[u8], _base: usize) -> Result<Aon9> {
        Ok(Aon9 {})
    }
    /// `_level_9_1` / `_level_9_3` as fxc appends to the profile name.
    pub fn level9_suffix(&self) -> Option<String> {
        None
    }
    /// Writes the level-9 sections of fxc's listing header.
    pub fn write_listing(&self, _out: &mut String) {}
}
