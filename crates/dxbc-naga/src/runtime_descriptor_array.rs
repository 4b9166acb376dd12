//! naga 30's SPIR-V writer declares unbounded binding arrays
//! (`OpTypeRuntimeArray` of descriptors) without the
//! `RuntimeDescriptorArray` capability Vulkan requires for them (and its
//! extension when naga did not already add it for non-uniform indexing).
//! This adds both to the written words; nothing else changes.

/// `OpCapability`, `OpExtension` and the capability number (SPIR-V spec).
const OP_CAPABILITY: u32 = 17;
const OP_EXTENSION: u32 = 10;
const RUNTIME_DESCRIPTOR_ARRAY: u32 = 5302;
const EXTENSION: &str = "SPV_EXT_descriptor_indexing";

/// True when the module declares a binding array of unknown size.
pub(crate) fn needed(module: &naga::Module) -> bool {
    module.global_variables.iter().any(|(_, g)| {
        matches!(module.types[g.ty].inner, naga::TypeInner::BindingArray { size: naga::ArraySize::Dynamic, .. })
    })
}

/// A literal string operand: UTF-8, NUL-terminated, padded to words.
fn string_words(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Adds the capability (first, where capabilities go) and the extension
/// (after the capabilities) unless present. Words that do not parse as a
/// module are left alone.
pub(crate) fn add(words: &mut Vec<u32>) {
    const HEADER: usize = 5;
    let mut at = HEADER;
    let mut has_capability = false;
    let mut has_extension = false;
    let mut first_after_capabilities = None;
    let extension = string_words(EXTENSION);
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let op = words[at] & 0xffff;
        if count == 0 || at + count > words.len() {
            return;
        }
        match op {
            OP_CAPABILITY => has_capability |= words.get(at + 1) == Some(&RUNTIME_DESCRIPTOR_ARRAY),
            OP_EXTENSION => has_extension |= words[at + 1..at + count] == extension[..],
            _ => {}
        }
        if op != OP_CAPABILITY && first_after_capabilities.is_none() {
            first_after_capabilities = Some(at);
        }
        if op != OP_CAPABILITY && op != OP_EXTENSION {
            break;
        }
        at += count;
    }
    let Some(after) = first_after_capabilities else { return };
    if !has_extension {
        let mut ins = vec![((1 + extension.len() as u32) << 16) | OP_EXTENSION];
        ins.extend(&extension);
        words.splice(after..after, ins);
    }
    if !has_capability {
        words.splice(HEADER..HEADER, [(2 << 16) | OP_CAPABILITY, RUNTIME_DESCRIPTOR_ARRAY]);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn extension_string_is_nul_padded() {
        let w = super::string_words("abc");
        assert_eq!(w, vec![u32::from_le_bytes(*b"abc\0")]);
        let w = super::string_words("abcd");
        assert_eq!(w, vec![u32::from_le_bytes(*b"abcd"), 0]);
    }
}
