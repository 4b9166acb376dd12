//! Two omissions of naga 30's SPIR-V writer for binding arrays, added to
//! the written words (nothing else changes):
//!
//! * unbounded binding arrays (`OpTypeRuntimeArray` of descriptors) need the
//!   `RuntimeDescriptorArray` capability (and its extension when naga did
//!   not already add it for non-uniform indexing);
//! * the struct of a uniform-buffer binding array must be decorated
//!   `Block` (naga decorates only storage-buffer ones).

/// `OpCapability`, `OpExtension` and the capability number (SPIR-V spec).
const OP_CAPABILITY: u32 = 17;
const OP_EXTENSION: u32 = 10;
const RUNTIME_DESCRIPTOR_ARRAY: u32 = 5302;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_RUNTIME_ARRAY: u32 = 29;
const OP_TYPE_POINTER: u32 = 32;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const OP_MEMBER_DECORATE: u32 = 72;
const DECORATION_BLOCK: u32 = 2;
const STORAGE_UNIFORM: u32 = 2;
const EXTENSION: &str = "SPV_EXT_descriptor_indexing";

/// True when the module declares a binding array of unknown size.
pub(crate) fn unbounded(module: &naga::Module) -> bool {
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
pub(crate) fn add_runtime_descriptor_array(words: &mut Vec<u32>) {
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

/// True when the module declares a binding array of uniform buffers.
pub(crate) fn uniform_arrays(module: &naga::Module) -> bool {
    module.global_variables.iter().any(|(_, g)| {
        g.space == naga::AddressSpace::Uniform
            && matches!(module.types[g.ty].inner, naga::TypeInner::BindingArray { .. })
    })
}

/// Decorates `Block` the element struct of every `Uniform` variable whose
/// type is an array (a binding array of uniform blocks) and that lacks it.
/// Words that do not parse as a module are left alone.
pub(crate) fn add_uniform_array_blocks(words: &mut Vec<u32>) {
    use std::collections::{BTreeMap, BTreeSet};
    const HEADER: usize = 5;
    let mut pointers = BTreeMap::new(); // id -> (storage class, pointee)
    let mut arrays = BTreeMap::new(); // id -> element
    let mut blocks = BTreeSet::new();
    let mut uniform_pointer_types = Vec::new();
    let mut first_decoration = None;
    let mut at = HEADER;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let op = words[at] & 0xffff;
        if count == 0 || at + count > words.len() {
            return;
        }
        let w = &words[at + 1..at + count];
        match (op, w) {
            (OP_DECORATE | OP_MEMBER_DECORATE, _) if first_decoration.is_none() => first_decoration = Some(at),
            _ => {}
        }
        match (op, w) {
            (OP_DECORATE, [id, DECORATION_BLOCK, ..]) => {
                blocks.insert(*id);
            }
            (OP_TYPE_POINTER, [id, class, pointee, ..]) => {
                pointers.insert(*id, (*class, *pointee));
            }
            (OP_TYPE_ARRAY | OP_TYPE_RUNTIME_ARRAY, [id, element, ..]) => {
                arrays.insert(*id, *element);
            }
            (OP_VARIABLE, [ty, _, STORAGE_UNIFORM, ..]) => uniform_pointer_types.push(*ty),
            _ => {}
        }
        at += count;
    }
    let Some(insert_at) = first_decoration else { return };
    let mut missing = BTreeSet::new();
    for ty in uniform_pointer_types {
        let Some(&(_, pointee)) = pointers.get(&ty) else { continue };
        if let Some(&element) = arrays.get(&pointee) {
            if !blocks.contains(&element) {
                missing.insert(element);
            }
        }
    }
    let ins: Vec<u32> = missing.into_iter().flat_map(|id| [(3 << 16) | OP_DECORATE, id, DECORATION_BLOCK]).collect();
    words.splice(insert_at..insert_at, ins);
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
