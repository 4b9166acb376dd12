//! STUB (to be replaced): Rdef chunk.
use crate::error::Result;
use serde::Serialize;

/// Decoded Rdef chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Rdef {}

impl Rdef {
    /// Parses the chunk payload; `base` is its absolute offset.
    pub fn parse(_data: &[u8], _base: usize) -> Result<Rdef> {
        Ok(Rdef {})
    }
}
