//! Normalise, round to nearest even and pack: the one rounding step every
//! arithmetic result and narrowing conversion goes through.

use super::wide::{add64, clz128, shl128, shr128_jam, P, Q};
use super::Ops;

/// The binary format a result is packed into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    F64,
    F32,
}

impl Format {
    /// Stored fraction bits.
    fn frac(self) -> u32 {
        match self {
            Format::F64 => 52,
            Format::F32 => 23,
        }
    }
    fn bias(self) -> u32 {
        match self {
            Format::F64 => 1023,
            Format::F32 => 127,
        }
    }
    /// The biased exponent of infinity.
    fn emax(self) -> u32 {
        match self {
            Format::F64 => 2047,
            Format::F32 => 255,
        }
    }
}

/// The value `sign × s × 2^x` correctly rounded into `fmt`: `sign` is the
/// sign bit in place (0 or 0x8000_0000), `s` a nonzero 128-bit magnitude
/// (its bit 0 may be a sticky bit standing for lower nonzero bits, as long
/// as it lies at least two places below the rounding position), `x` a
/// signed exponent. Returns `[lo, hi]` for F64 and `[bits, 0]` for F32.
pub(crate) fn pack<O: Ops>(o: &mut O, sign: O::U, s: Q<O>, x: O::U, fmt: Format) -> P<O> {
    let frac = fmt.frac();
    // Normalise: the top bit to bit 127.
    let n = clz128(o, s);
    let s = shl128(o, s, n);
    let t = o.sub(x, n);
    // The biased exponent if the result is normal: s × 2^t = (s / 2^(127−frac)) × 2^(t + 127 − frac).
    let e = o.addk(t, 127 + fmt.bias());
    let one = o.k(1);
    let kk = o.k(0);
    let normal = o.slt(kk, e);
    // Denormal: shift further right by 1 − e (capped: past that all is sticky).
    let deficit = o.sub(one, e);
    let z = o.k(0);
    let deficit = o.sel(normal, z, deficit);
    let cap = o.k(frac + 2);
    let deficit = o.umin(deficit, cap);
    let r = o.addk(deficit, 127 - frac);
    // Keep two extra bits: the round bit (1) and a sticky bit (0).
    let two = o.k(2);
    let r2 = o.sub(r, two);
    let t = shr128_jam(o, s, r2);
    let round = o.shrk(t[0], 1);
    let round = o.andk(round, 1);
    let sticky = o.andk(t[0], 1);
    let m0a = o.shrk(t[0], 2);
    let m0b = o.shlk(t[1], 30);
    let m0 = o.or(m0a, m0b);
    let m1a = o.shrk(t[1], 2);
    let m1b = o.shlk(t[2], 30);
    let m1 = o.or(m1a, m1b);
    // Ties to even.
    let lsb = o.andk(m0, 1);
    let odd_or_sticky = o.or(sticky, lsb);
    let inc = o.and(round, odd_or_sticky);
    let m = add64(o, [m0, m1], [inc, z]);
    // The exponent field less one (the hidden bit adds it back, and a carry
    // out of the fraction carries into it); 0 for denormals.
    let em1 = o.sub(e, one);
    let em1 = o.sel(normal, em1, z);
    let emax = o.k(fmt.emax());
    let em1 = o.umin(em1, emax);
    let inf = o.k(fmt.emax() << (frac % 32));
    match fmt {
        Format::F64 => {
            let hi = o.shlk(em1, 20);
            let hi = o.add(hi, m[1]);
            let over = o.ge(hi, inf);
            let hi = o.sel(over, inf, hi);
            let lo = o.sel(over, z, m[0]);
            [lo, o.or(hi, sign)]
        }
        Format::F32 => {
            let w = o.shlk(em1, 23);
            let w = o.add(w, m[0]);
            let over = o.ge(w, inf);
            let w = o.sel(over, inf, w);
            [o.or(w, sign), z]
        }
    }
}
