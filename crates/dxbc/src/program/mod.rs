//! STUB: the program token stream (being written).
use crate::error::Error;
use serde::Serialize;

/// Version token.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct VersionToken(pub u32);
impl VersionToken {
    /// Profile name like `ps_5_0`.
    pub fn profile(&self) -> String {
        String::new()
    }
}

/// Decoded program.
#[derive(Clone, Debug, Serialize)]
pub struct Program {
    /// Absolute offset of the version token.
    pub offset: usize,
    /// Version token.
    pub version: VersionToken,
}
impl Program {
    /// Decodes.
    pub fn decode(_data: &[u8], base: usize) -> (Program, Vec<Error>) {
        (Program { offset: base, version: VersionToken(0) }, vec![])
    }
    /// Encodes.
    pub fn encode(&self) -> Vec<u8> {
        vec![]
    }
}
