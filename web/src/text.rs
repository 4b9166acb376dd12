//! Plain text formatting used by the views.

/// `1234567` → `1,234,567`.
pub fn fmt_thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A component mask as fxc prints it in signatures: `xy w`.
pub fn mask_text(m: u8) -> String {
    "xyzw".chars().enumerate().map(|(i, c)| if m >> i & 1 == 1 { c } else { ' ' }).collect()
}

/// An RDEF resource binding's input type, in words.
pub fn input_type(t: u32) -> &'static str {
    use dxbc::spec::ShaderInputType as T;
    match T::from_u32(t) {
        Some(T::Cbuffer) => "cbuffer",
        Some(T::Tbuffer) => "tbuffer",
        Some(T::Texture) => "texture",
        Some(T::Sampler) => "sampler",
        Some(T::UavRwtyped) => "RW typed (UAV)",
        Some(T::Structured) => "structured",
        Some(T::UavRwstructured) => "RW structured",
        Some(T::Byteaddress) => "byte address",
        Some(T::UavRwbyteaddress) => "RW byte address",
        Some(T::UavAppendStructured) => "append structured",
        Some(T::UavConsumeStructured) => "consume structured",
        Some(T::UavRwstructuredWithCounter) => "RW structured + counter",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands() {
        assert_eq!(fmt_thousands(0), "0");
        assert_eq!(fmt_thousands(999), "999");
        assert_eq!(fmt_thousands(1000), "1,000");
        assert_eq!(fmt_thousands(16_777_217), "16,777,217");
    }

    #[test]
    fn masks() {
        assert_eq!(mask_text(0b1111), "xyzw");
        assert_eq!(mask_text(0b1011), "xy w");
        assert_eq!(mask_text(0), "    ");
    }

    #[test]
    fn input_types() {
        assert_eq!(input_type(0), "cbuffer");
        assert_eq!(input_type(3), "sampler");
        assert_eq!(input_type(999), "unknown");
    }
}
