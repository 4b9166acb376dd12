//! Constant-buffer bytes from control values, and back.
//!
//! Every control already knows the byte offset of each of its components
//! (see [`crate::controls`]), so packing is a scatter of little-endian
//! 32-bit words into a zeroed buffer of [`CbufferModel::size`] bytes, and
//! unpacking the matching gather. A value of the wrong type or length is
//! ignored in favour of the control's default, so a stale permalink can
//! never write a malformed buffer.

use crate::controls::{CbufferModel, Value, Values};

/// The bytes of `cbuffer` for `values` (defaults for missing or ill-typed
/// entries); `cbuffer.size` long, a multiple of 16.
pub fn pack(cbuffer: &CbufferModel, values: &Values) -> Vec<u8> {
    let mut out = vec![0u8; cbuffer.size as usize];
    for c in &cbuffer.controls {
        let v = values.get(&c.id).filter(|v| c.accepts(v)).unwrap_or(&c.default);
        if !c.accepts(v) {
            continue;
        }
        for (i, &at) in c.component_offsets.iter().enumerate() {
            let at = at as usize;
            if let Some(dst) = out.get_mut(at..at + 4) {
                dst.copy_from_slice(&v.bits(i).to_le_bytes());
            }
        }
    }
    out
}

/// The control values stored in `bytes` (the inverse of [`pack`]); a short
/// buffer reads as zeros past its end.
pub fn unpack(cbuffer: &CbufferModel, bytes: &[u8]) -> Values {
    cbuffer
        .controls
        .iter()
        .map(|c| {
            let words: Vec<u32> = c
                .component_offsets
                .iter()
                .map(|&at| {
                    let at = at as usize;
                    bytes.get(at..at + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                })
                .collect();
            (c.id.clone(), Value::from_bits(c.scalar, &words))
        })
        .collect()
}
