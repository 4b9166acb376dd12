//! Floats from fxc's `%f` text.
//!
//! Six decimals do not identify a small float: `0.333333` is printed for
//! every float within 5e-7 of it, and the one in the file was most likely
//! 1/3, not the float nearest to 0.333333. Compiler constants are mostly
//! simple fractions (1/3, 1/255, 2/3, 5/11) and literals with few decimals,
//! so among the floats that print as the text, the value of the fraction
//! with the smallest denominator (up to [`MAX_DENOMINATOR`]) is chosen; a
//! literal like 0.25 or 0.299 is its own simplest fraction, and when no
//! fraction qualifies the nearest float is taken. Either way the result
//! prints as the same text.

use crate::listing::program::{write_float, write_float_ties_away};

/// Largest denominator tried: above it, a window of 1e-6 holds some
/// fraction too often for the choice to mean anything.
const MAX_DENOMINATOR: u64 = 1024;

/// `%f` text as its sign and magnitude, with fxc's spellings of infinity
/// and NaN (`1.#INF00`, `1.#QNAN0`, `-1.#IND00`); `None` if not a number.
pub(crate) fn split_text(text: &str) -> Option<(bool, f64)> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let v = match body {
        "1.#INF00" => f64::INFINITY,
        "1.#QNAN0" | "1.#IND00" => f64::NAN,
        _ if body.starts_with(|ch: char| ch.is_ascii_digit()) => body.parse::<f64>().ok()?,
        _ => return None,
    };
    Some((neg, v))
}

/// Whether `text` is a listing that prints its floats exactly: one whose
/// program prints a float with more than six decimals (3Dmigoto's dumps
/// print a float that six decimals would not give back with nine
/// significant digits, [`crate::listing::Dialect::Exact`]). There every
/// six-decimal float read back as itself when printed, so the float
/// nearest the text is the one printed, and the simplest-fraction reading
/// would pick another.
pub(crate) fn exact_listing(text: &str) -> bool {
    // Only `l(…)` immediates: a level-9 section's `def` lines print nine
    // digits in any listing.
    let long = |g: &str| {
        let b = g.as_bytes();
        (1..b.len()).any(|i| {
            b[i] == b'.'
                && b[i - 1].is_ascii_digit()
                && b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count() > 6
        })
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .any(|l| l.split("l(").skip(1).any(|g| long(g.split(')').next().unwrap_or(""))))
}

/// The float for `%f` text `text`, or `None` if it is not a number; with
/// `exact`, the float nearest the text ([`exact_listing`]).
pub(crate) fn from_text(text: &str, exact: bool) -> Option<f32> {
    let (neg, v) = split_text(text)?;
    if exact && v.is_finite() {
        let body = text.strip_prefix('-').unwrap_or(text);
        let f = body.parse::<f32>().ok()?;
        return Some(if neg { -f } else { f });
    }
    let sign = if neg { -1.0 } else { 1.0 };
    // Negation, not a multiplication by -1: the sign of a NaN product is
    // unspecified, and `-1.#IND00` must keep its sign bit.
    let nearest = if neg { -(v as f32) } else { v as f32 };
    if !v.is_finite() || v >= 16.0 {
        return Some(nearest);
    }
    let Some((p, q)) = simplest_between(v - 5e-7, v + 5e-7) else { return Some(nearest) };
    let candidate = (sign * p as f64 / q as f64) as f32;
    Some(if prints_as(candidate, text) { candidate } else { nearest })
}

/// Whether `f` prints as `text` under either rounding of a tie at the sixth
/// decimal (fxc 10 rounds to even, fxc 9 away from zero).
fn prints_as(f: f32, text: &str) -> bool {
    let mut s = String::with_capacity(text.len());
    write_float(f, &mut s);
    if s == text {
        return true;
    }
    s.clear();
    write_float_ties_away(f, &mut s);
    s == text
}

/// The fraction p/q with the smallest q (at most [`MAX_DENOMINATOR`])
/// strictly between `lo` and `hi` (0 <= lo < hi), by descending the
/// Stern–Brocot tree, runs of steps in one direction taken at once.
fn simplest_between(lo: f64, hi: f64) -> Option<(u64, u64)> {
    let lo = lo.max(0.0);
    // left = a/b, right = c/d (1/0 stands for infinity).
    let (mut a, mut b, mut c, mut d) = (0u64, 1u64, 1u64, 0u64);
    for _ in 0..64 {
        let (p, q) = (a + c, b + d);
        if q > MAX_DENOMINATOR {
            return None;
        }
        let x = p as f64 / q as f64;
        if x <= lo {
            // Move left bound right k times: largest k with (a+kc)/(b+kd) <= lo.
            let den = c as f64 - lo * d as f64;
            let k = if den > 0.0 { ((lo * b as f64 - a as f64) / den).floor().max(1.0) } else { 1.0 };
            let k = k.min(MAX_DENOMINATOR as f64) as u64;
            a += k * c;
            b += k * d;
        } else if x >= hi {
            // Move right bound left k times: largest k with (ka+c)/(kb+d) >= hi.
            let den = hi * b as f64 - a as f64;
            let k = if den > 0.0 { ((c as f64 - hi * d as f64) / den).floor().max(1.0) } else { 1.0 };
            let k = k.min(MAX_DENOMINATOR as f64) as u64;
            c += k * a;
            d += k * b;
        } else {
            return Some((p, q));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_text_fxc(t: &str) -> Option<f32> {
        from_text(t, false)
    }

    #[test]
    fn an_exact_listing_reads_every_float_as_the_nearest() {
        assert!(exact_listing("ps_5_0\nmov r0.x, l(3.14159274)\n"));
        assert!(!exact_listing(
            "// Generated by Microsoft (R) HLSL Shader Compiler 9.29.952.3111\nps_4_0\nmov r0.x, l(0.333333)\n"
        ));
        // -2.854452 reads as 0xc036af57, the nearest float; fxc's text reads
        // as the simplest fraction within its rounding, 0xc036af58.
        assert_eq!(from_text("-2.854452", true).map(f32::to_bits), Some(0xc036_af57));
        assert_eq!(from_text("-2.854452", false).map(f32::to_bits), Some(0xc036_af58));
        assert_eq!(from_text("0.333332211", true), Some(0.333_332_2));
    }

    #[test]
    fn simple_fractions_are_preferred() {
        assert_eq!(from_text_fxc("0.333333"), Some(1.0 / 3.0));
        assert_eq!(from_text_fxc("-0.666667"), Some(-2.0 / 3.0));
        assert_eq!(from_text_fxc("0.003922"), Some(1.0 / 255.0));
        assert_eq!(from_text_fxc("0.003906"), Some(1.0 / 256.0));
        assert_eq!(from_text_fxc("0.250000"), Some(0.25));
        assert_eq!(from_text_fxc("0.299000"), Some(0.299));
        assert_eq!(from_text_fxc("12.345678"), Some(12.345678));
        assert_eq!(simplest_between(0.3333325, 0.3333335), Some((1, 3)));
    }
}

#[cfg(test)]
mod nan_tests {
    /// fxc prints the negative quiet NaN as `-1.#IND00` and the positive one
    /// as `1.#QNAN0`; both must come back with their sign (a fuzz finding:
    /// `-1.0 * NaN` had dropped it).
    #[test]
    fn nan_spellings_keep_their_sign() {
        let ind = super::from_text("-1.#IND00", false).unwrap();
        let qnan = super::from_text("1.#QNAN0", false).unwrap();
        assert!(ind.is_nan() && ind.is_sign_negative());
        assert!(qnan.is_nan() && qnan.is_sign_positive());
        assert_eq!(super::from_text("-1.#INF00", false), Some(f32::NEG_INFINITY));
    }
}
