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

/// The name a download gets: the opened file's name (`None`: a pasted or
/// linked shader, called `shader`) without its extension, marked `-edited`
/// when the bytes are, with `ext`. Characters a file system may refuse,
/// and a leading dot, become `_`.
pub fn download_name(opened: Option<&str>, edited: bool, ext: &str) -> String {
    let base = opened.unwrap_or("").rsplit(['/', '\\']).next().unwrap_or("");
    let stem = match base.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => base,
    };
    let mut name: String =
        stem.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect();
    if name.trim_matches(['.', '_']).is_empty() {
        name = "shader".into();
    } else if name.starts_with('.') {
        name.replace_range(..1, "_"); // not a hidden file
    }
    if edited {
        name.push_str("-edited");
    }
    format!("{name}.{ext}")
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

/// A field name cut where a line may break: before a capital that follows
/// a lower-case letter or a digit, and after `_` (`enableDoublePrecisionFloatOps`
/// → `enable` `Double` `Precision` `Float` `Ops`). A narrow inspector wraps
/// long names there instead of letting them run into the next column.
pub fn word_parts(name: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in name.char_indices() {
        let cut = match prev {
            Some('_') => true,
            Some(p) => c.is_ascii_uppercase() && (p.is_ascii_lowercase() || p.is_ascii_digit()),
            None => false,
        };
        if cut && i > start {
            parts.push(&name[start..i]);
            start = i;
        }
        prev = Some(c);
    }
    if start < name.len() {
        parts.push(&name[start..]);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::download_name;

    #[test]
    fn download_names() {
        assert_eq!(download_name(Some("skin_ps.cso"), false, "dxbc"), "skin_ps.dxbc");
        assert_eq!(download_name(Some("skin_ps.cso"), true, "asm"), "skin_ps-edited.asm");
        assert_eq!(download_name(None, false, "dxbc"), "shader.dxbc");
        assert_eq!(download_name(Some("a b/c:d e.x.h"), false, "dxbc"), "c_d_e.x.dxbc");
        assert_eq!(download_name(Some("dir/x.dxbc"), false, "asm"), "x.asm");
        assert_eq!(download_name(Some(".hidden"), false, "dxbc"), "_hidden.dxbc");
        assert_eq!(download_name(Some("..."), true, "dxbc"), "shader-edited.dxbc");
        assert_eq!(download_name(Some("tint"), false, "dxbc"), "tint.dxbc");
    }

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
    fn word_parts_cut_at_case_changes_and_underscores() {
        assert_eq!(word_parts("enableDoublePrecisionFloatOps"), ["enable", "Double", "Precision", "Float", "Ops"]);
        assert_eq!(word_parts("enable11_1DoubleExtensions"), ["enable11_", "1", "Double", "Extensions"]);
        assert_eq!(word_parts("opcode"), ["opcode"]);
        assert_eq!(word_parts("RDEF"), ["RDEF"]);
        assert_eq!(word_parts(""), Vec::<&str>::new());
        assert_eq!(word_parts("a_"), ["a_"]);
    }

    #[test]
    fn input_types() {
        assert_eq!(input_type(0), "cbuffer");
        assert_eq!(input_type(3), "sampler");
        assert_eq!(input_type(999), "unknown");
    }
}
