//! A 32-bit word shown as the float it holds, for the inspector.
//!
//! fxc's listing prints floats with `%f` (six decimals), which hides most
//! of a float's digits and all of a small one's. The inspector shows the
//! shortest decimal that reads back to the same bits instead (Rust's
//! `Debug` formatting of `f32`, which switches to an exponent for very
//! small or large values, so the smallest denormal is `1e-45`), next to
//! the raw word. Infinities and NaNs are spelled as fxc spells them.

use crate::listing::program::write_float;

/// The shortest decimal that reads back to `word`'s bits (`1.5`, `1e-45`,
/// `-0.0`), or fxc's spelling of an infinity or NaN (`1.#INF00`, `-1.#INF00`,
/// `1.#QNAN0`, `-1.#IND00`).
pub fn float_text(word: u32) -> String {
    let f = f32::from_bits(word);
    if f.is_finite() {
        format!("{f:?}")
    } else {
        let mut s = String::new();
        write_float(f, &mut s);
        s
    }
}

/// The float and the raw word beside it: `1.5 (0x3fc00000)`.
pub fn float_with_word(word: u32) -> String {
    format!("{} (0x{word:08x})", float_text(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_round_trip_and_fxc_spellings() {
        assert_eq!(float_text(0x3fc0_0000), "1.5");
        assert_eq!(float_text(1), "1e-45");
        assert_eq!(float_text(0x8000_0000), "-0.0");
        assert_eq!(float_text(0x3dcc_cccd), "0.1");
        assert_eq!(float_text(0x7f7f_ffff), "3.4028235e38");
        assert_eq!(float_text(0x7f80_0000), "1.#INF00");
        assert_eq!(float_text(0xff80_0000), "-1.#INF00");
        assert_eq!(float_text(0x7fc0_0000), "1.#QNAN0");
        assert_eq!(float_text(0xffc0_0000), "-1.#IND00");
        assert_eq!(float_with_word(0x3f80_0000), "1.0 (0x3f800000)");
        for w in [1u32, 0x0080_0000, 0x3eaa_aaab, 0x4049_0fdb, 0x7f7f_ffff, 0x8000_0001] {
            assert_eq!(float_text(w).parse::<f32>().unwrap().to_bits(), w);
        }
    }
}
