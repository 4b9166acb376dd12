//! Scalar arithmetic with Direct3D 11's rules (functional spec, chapter 3
//! "Basics" for the float rules and the instruction reference in chapter 22).
//! Every function takes and returns register bits (`u32`), so the executor
//! never reinterprets a value the instruction does not.

/// Flushes a float32 denormal to a zero of the same sign (D3D11 3.1.3.3:
/// float32 arithmetic flushes denormal inputs and outputs; data movement
/// does not).
#[inline(always)]
pub fn flush(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// A float32 result: flushed, then saturated when `sat` (D3D11 3.1.3.4:
/// `_sat` clamps to [0, 1] and turns NaN into 0).
#[inline(always)]
pub fn fresult(v: f32, sat: bool) -> u32 {
    let b = flush(v.to_bits());
    if sat {
        saturate(b)
    } else {
        b
    }
}

/// `_sat` on float bits: NaN becomes 0, then clamp to [0, 1].
#[inline(always)]
pub fn saturate(bits: u32) -> u32 {
    let v = f32::from_bits(bits);
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= 1.0 {
        1.0f32.to_bits()
    } else {
        bits
    }
}

/// The flushed float value of register bits.
#[inline(always)]
pub fn f(bits: u32) -> f32 {
    f32::from_bits(flush(bits))
}

/// All ones for true, zero for false (comparisons write masks).
#[inline(always)]
pub fn mask(b: bool) -> u32 {
    if b {
        !0
    } else {
        0
    }
}

/// `min`: a NaN operand yields the other operand (D3D11 3.1.3.5).
pub fn fmin(a: f32, b: f32) -> f32 {
    a.min(b)
}

/// `max`: a NaN operand yields the other operand (D3D11 3.1.3.5).
pub fn fmax(a: f32, b: f32) -> f32 {
    a.max(b)
}

/// `ftoi`: round toward zero, NaN to 0, clamped to the int range (22.10.9).
pub fn ftoi(v: f32) -> u32 {
    // Rust's float-to-int cast saturates and maps NaN to 0: exactly the rule.
    (v as i32) as u32
}

/// `ftou`: round toward zero, NaN to 0, clamped to [0, 2^32 - 1] (22.10.10).
pub fn ftou(v: f32) -> u32 {
    v as u32
}

/// `udiv`: quotient and remainder; division by zero gives 0xffffffff for
/// both (22.11.24).
pub fn udiv(a: u32, b: u32) -> (u32, u32) {
    match (a.checked_div(b), a.checked_rem(b)) {
        (Some(q), Some(r)) => (q, r),
        _ => (!0, !0),
    }
}

/// `ubfe` (22.11.25): width and offset use their low 5 bits.
pub fn ubfe(width: u32, offset: u32, src: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (src << (32 - (w + o))) >> (32 - w)
    } else {
        src >> o
    }
}

/// `ibfe` (22.11.8): as `ubfe` with the field's top bit extended.
pub fn ibfe(width: u32, offset: u32, src: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (((src << (32 - (w + o))) as i32) >> (32 - w)) as u32
    } else {
        ((src as i32) >> o) as u32
    }
}

/// `bfi` (22.11.1): inserts the low `width` bits of `src` at `offset` in `base`.
pub fn bfi(width: u32, offset: u32, src: u32, base: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    let bitmask = (((1u64 << w) - 1) << o) as u32;
    ((src << o) & bitmask) | (base & !bitmask)
}

/// `firstbit_hi` (22.11.5): position of the highest set bit counted from
/// the most significant end; 0xffffffff when no bit is set.
pub fn firstbit_hi(v: u32) -> u32 {
    if v == 0 {
        !0
    } else {
        v.leading_zeros()
    }
}

/// `firstbit_lo` (22.11.6): position of the lowest set bit; 0xffffffff for 0.
pub fn firstbit_lo(v: u32) -> u32 {
    if v == 0 {
        !0
    } else {
        v.trailing_zeros()
    }
}

/// `firstbit_shi` (22.11.7): from the top, the first bit that differs from
/// the sign bit; 0xffffffff for 0 and -1.
pub fn firstbit_shi(v: u32) -> u32 {
    let x = if (v as i32) < 0 { !v } else { v };
    if x == 0 {
        !0
    } else {
        x.leading_zeros()
    }
}

/// `f32tof16` (22.10.7): round to nearest even; too large becomes
/// infinity, NaN stays NaN; the half lands in the low 16 bits.
pub fn f32_to_f16(bits: u32) -> u32 {
    let bits = flush(bits);
    let sign = (bits >> 16) & 0x8000;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 | (man >> 13) } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // A half denormal (or zero): shift the full mantissa into place.
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rest > mid || (rest == mid && half & 1 == 1);
        return sign | (half + round as u32);
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    let round = rest > 0x1000 || (rest == 0x1000 && half & 1 == 1);
    // A carry out of the mantissa correctly bumps the exponent (up to infinity).
    sign | (half + round as u32)
}

/// `f16tof32` (22.10.6): the low 16 bits as a half, exactly.
pub fn f16_to_f32(v: u32) -> u32 {
    let h = v & 0xffff;
    let sign = (h & 0x8000) << 16;
    let exp = (h >> 10) & 0x1f;
    let man = h & 0x3ff;
    if exp == 0x1f {
        return sign | 0x7f80_0000 | (man << 13);
    }
    if exp == 0 {
        if man == 0 {
            return sign;
        }
        // Half denormals are normal floats.
        let value = man as f32 / 1024.0 / 16384.0;
        return sign | value.to_bits();
    }
    sign | ((exp + 127 - 15) << 23) | (man << 13)
}

/// `msad` (22.11.13): masked sum of absolute byte differences; reference
/// bytes of 0 are skipped.
pub fn msad(reference: u32, source: u32, accum: u32) -> u32 {
    let mut sum = accum;
    for i in 0..4 {
        let r = (reference >> (8 * i)) & 0xff;
        let s = (source >> (8 * i)) & 0xff;
        if r != 0 {
            sum = sum.wrapping_add(r.abs_diff(s));
        }
    }
    sum
}

/// A double from two register halves (x low, y high).
#[inline(always)]
pub fn d(lo: u32, hi: u32) -> f64 {
    f64::from_bits(lo as u64 | (hi as u64) << 32)
}

/// Register halves (low, high) of a double.
#[inline(always)]
pub fn d_bits(v: f64) -> (u32, u32) {
    let b = v.to_bits();
    (b as u32, (b >> 32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denormals_flush_to_signed_zero() {
        // 3.1.3.3: float32 denormals are flushed, keeping the sign.
        assert_eq!(flush(0x0000_0001), 0);
        assert_eq!(flush(0x8040_0000), 0x8000_0000);
        assert_eq!(flush(1.5f32.to_bits()), 1.5f32.to_bits());
    }

    #[test]
    fn saturate_maps_nan_to_zero() {
        // 3.1.3.4: NaN saturates to 0.
        assert_eq!(saturate(f32::NAN.to_bits()), 0);
        assert_eq!(saturate((-3.0f32).to_bits()), 0);
        assert_eq!(saturate(7.0f32.to_bits()), 1.0f32.to_bits());
        assert_eq!(saturate(0.25f32.to_bits()), 0.25f32.to_bits());
    }

    #[test]
    fn min_max_prefer_the_number_over_nan() {
        // 3.1.3.5: min/max return the non-NaN operand.
        assert_eq!(fmin(f32::NAN, 2.0), 2.0);
        assert_eq!(fmax(3.0, f32::NAN), 3.0);
        assert!(fmax(f32::NAN, f32::NAN).is_nan());
    }

    #[test]
    fn float_to_int_conversions_clamp_and_zero_nan() {
        // 22.10.9/10: NaN -> 0, out of range clamps.
        assert_eq!(ftoi(f32::NAN), 0);
        assert_eq!(ftoi(-3.7), (-3i32) as u32);
        assert_eq!(ftoi(3.0e10), i32::MAX as u32);
        assert_eq!(ftoi(-3.0e10), i32::MIN as u32);
        assert_eq!(ftou(-1.0), 0);
        assert_eq!(ftou(5.9), 5);
        assert_eq!(ftou(1.0e12), u32::MAX);
    }

    #[test]
    fn unsigned_division_by_zero_is_all_ones() {
        // 22.11.24.
        assert_eq!(udiv(7, 0), (!0, !0));
        assert_eq!(udiv(7, 2), (3, 1));
    }

    #[test]
    fn bitfield_extract_and_insert_follow_the_pseudocode() {
        // 22.11.25 ubfe / 22.11.8 ibfe / 22.11.1 bfi.
        assert_eq!(ubfe(4, 4, 0xabcd), 0xc);
        assert_eq!(ubfe(0, 4, 0xabcd), 0);
        assert_eq!(ubfe(8, 28, 0xf000_0000), 0xf);
        assert_eq!(ibfe(4, 4, 0xabcd), 0xffff_fffc);
        assert_eq!(ibfe(4, 0, 0x7), 7);
        assert_eq!(bfi(4, 8, 0xf, 0), 0xf00);
        assert_eq!(bfi(4, 8, 0x3, 0xffff_ffff), 0xffff_f3ff);
        assert_eq!(bfi(0, 8, 0x3, 0x1234), 0x1234);
        // Counts use their low 5 bits: width 36 is width 4.
        assert_eq!(ubfe(36, 4, 0xabcd), 0xc);
    }

    #[test]
    fn first_bit_positions() {
        // 22.11.5-7: from the top for _hi/_shi, from the bottom for _lo.
        assert_eq!(firstbit_hi(1), 31);
        assert_eq!(firstbit_hi(0x8000_0000), 0);
        assert_eq!(firstbit_hi(0), !0);
        assert_eq!(firstbit_lo(8), 3);
        assert_eq!(firstbit_lo(0), !0);
        assert_eq!(firstbit_shi(!0), !0);
        assert_eq!(firstbit_shi((-2i32) as u32), 31);
        assert_eq!(firstbit_shi(1), 31);
    }

    #[test]
    fn half_conversions() {
        // IEEE 754 binary16: 1.0 = 0x3c00, 65504 = 0x7bff, smallest denormal 0x0001 = 2^-24.
        assert_eq!(f32_to_f16(1.0f32.to_bits()), 0x3c00);
        assert_eq!(f32_to_f16((-2.0f32).to_bits()), 0xc000);
        assert_eq!(f32_to_f16(65504.0f32.to_bits()), 0x7bff);
        assert_eq!(f32_to_f16(1.0e6f32.to_bits()), 0x7c00);
        assert_eq!(f32_to_f16(2.0f32.powi(-24).to_bits()), 0x0001);
        assert_eq!(f16_to_f32(0x3c00), 1.0f32.to_bits());
        assert_eq!(f16_to_f32(0x0001), 2.0f32.powi(-24).to_bits());
        assert_eq!(f16_to_f32(0xfc00), f32::NEG_INFINITY.to_bits());
        // Round to nearest even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
        assert_eq!(f32_to_f16((1.0f32 + 2.0f32.powi(-11)).to_bits()), 0x3c00);
        assert_eq!(f32_to_f16((1.0f32 + 3.0 * 2.0f32.powi(-11)).to_bits()), 0x3c02);
    }

    #[test]
    fn msad_skips_zero_reference_bytes() {
        // 22.11.13: reference byte 0 contributes nothing.
        assert_eq!(msad(0x0000_0a00, 0x0000_0300, 1), 1 + 7);
        assert_eq!(msad(0x0102_0304, 0x0403_0201, 0), 3 + 1 + 1 + 3);
    }
}
