//! Conversions between doubles and f32 / i32 / u32.

use super::arith::decode;
use super::round::{pack, Format};
use super::wide::{shr128, P};
use super::Ops;

/// `dtof`: rounded to nearest even; an f32 result that is denormal after
/// rounding is flushed to a zero of its sign (D3D flushes float32
/// denormals, and so does the native path on the devices we run); NaNs stay
/// quiet NaNs keeping the top payload bits.
pub(crate) fn to_f32<O: Ops>(o: &mut O, d: P<O>) -> O::U {
    let p = decode(o, d);
    let z = o.k(0);
    let kk = o.k(1075);
    let x = o.sub(p.e, kk);
    let r = pack(o, p.sign, [p.sig[0], p.sig[1], z, z], x, Format::F32)[0];
    let exp = o.andk(r, 0x7f80_0000);
    let denormal = o.is0(exp);
    let r = o.sel(denormal, p.sign, r);
    let payload_hi = o.andk(d[1], 0x000f_ffff);
    let payload_hi = o.shlk(payload_hi, 3);
    let payload_lo = o.shrk(d[0], 29);
    let payload = o.or(payload_hi, payload_lo);
    let nan = o.ork(payload, 0x7fc0_0000);
    let nan = o.or(nan, p.sign);
    let inf = o.ork(p.sign, 0x7f80_0000);
    let r = o.sel(p.zero, p.sign, r);
    let r = o.sel(p.inf, inf, r);
    o.sel(p.nan, nan, r)
}

/// `ftod`: exact; NaNs become quiet NaNs with the payload kept.
pub(crate) fn from_f32<O: Ops>(o: &mut O, f: O::U) -> P<O> {
    let z = o.k(0);
    let sign = o.andk(f, 0x8000_0000);
    let exp = o.shrk(f, 23);
    let exp = o.andk(exp, 0xff);
    let frac = o.andk(f, 0x007f_ffff);
    let exp_zero = o.is0(exp);
    let exp_max = o.eqk(exp, 0xff);
    let frac_zero = o.is0(frac);
    let hidden = o.ork(frac, 0x0080_0000);
    let sig = o.sel(exp_zero, frac, hidden);
    let one = o.k(1);
    let e = o.sel(exp_zero, one, exp);
    let kk = o.k(150);
    let x = o.sub(e, kk);
    // Zero significands are replaced (pack needs a nonzero one); selected away below.
    let sig_nz = o.sel(frac_zero, hidden, sig);
    let r = pack(o, sign, [sig_nz, z, z, z], x, Format::F64);
    let zero = o.band(exp_zero, frac_zero);
    let r = o.sel2(zero, [z, sign], r);
    let inf_hi = o.ork(sign, 0x7ff0_0000);
    let pay_hi = o.shrk(frac, 3);
    let pay_hi = o.or(pay_hi, inf_hi);
    let nan_hi = o.ork(pay_hi, 0x0008_0000);
    let nan_lo = o.shlk(frac, 29);
    let special = o.sel2(frac_zero, [z, inf_hi], [nan_lo, nan_hi]);
    o.sel2(exp_max, special, r)
}

/// `dtoi` (`signed`) / `dtou`: truncation toward zero, saturating at the
/// integer range, NaN to 0 (D3D).
pub(crate) fn to_int<O: Ops>(o: &mut O, d: P<O>, signed: bool) -> O::U {
    let p = decode(o, d);
    let z = o.k(0);
    let neg = o.nz(p.sign);
    // |d| < 1: 0. |d| >= 2^32: saturated. Else the raw significand (with its
    // hidden bit) shifted right by 1075 − exp, in 21..=52.
    let kk = o.k(1023);
    let below_one = o.lt(p.exp, kk);
    let kk = o.k(1023 + 32);
    let huge = o.ge(p.exp, kk);
    let frac_hi = o.andk(d[1], 0x000f_ffff);
    let sig_hi = o.ork(frac_hi, 0x0010_0000);
    let kk = o.k(1075);
    let sh = o.sub(kk, p.exp);
    let kk = o.k(127);
    let sh = o.umin(sh, kk);
    let m = shr128(o, [d[0], sig_hi, z, z], sh)[0];
    let m = o.sel(below_one, z, m);
    let r = if signed {
        let neg_m = o.sub(z, m);
        let min = o.k(0x8000_0000);
        let max = o.k(0x7fff_ffff);
        let neg_over = o.lt(min, m);
        let neg_over = o.bor(neg_over, huge);
        let pos_over = o.lt(max, m);
        let pos_over = o.bor(pos_over, huge);
        let n = o.sel(neg_over, min, neg_m);
        let pv = o.sel(pos_over, max, m);
        o.sel(neg, n, pv)
    } else {
        let max = o.k(u32::MAX);
        let pv = o.sel(huge, max, m);
        o.sel(neg, z, pv)
    };
    o.sel(p.nan, z, r)
}

/// `itod` (`signed`) / `utod`: exact.
pub(crate) fn from_int<O: Ops>(o: &mut O, i: O::U, signed: bool) -> P<O> {
    let z = o.k(0);
    let sign = if signed { o.andk(i, 0x8000_0000) } else { z };
    let neg = o.nz(sign);
    let ni = o.sub(z, i);
    let mag = o.sel(neg, ni, i);
    let zero = o.is0(mag);
    let one = o.k(1);
    let mag_nz = o.sel(zero, one, mag);
    let r = pack(o, sign, [mag_nz, z, z, z], z, Format::F64);
    o.sel2(zero, [z, z], r)
}
