//! Fused multiply-add (and through it addition and multiplication), plus
//! the operand decoding every operation shares.

use super::round::{pack, Format};
use super::wide::{add128, is_zero128, mul64, shl128, shr128_jam, sub128, P, Q};
use super::Ops;

/// A double's fields and classification.
pub(crate) struct Parts<O: Ops> {
    /// The sign bit in place (0 or 0x8000_0000).
    pub sign: O::U,
    /// Biased exponent field.
    pub exp: O::U,
    pub nan: O::B,
    pub inf: O::B,
    pub zero: O::B,
    /// The significand normalised to [2^52, 2^53) (garbage for zero).
    pub sig: P<O>,
    /// Its exponent: the value is `sig × 2^(e − 1075)` (signed).
    pub e: O::U,
}

pub(crate) fn decode<O: Ops>(o: &mut O, d: P<O>) -> Parts<O> {
    let sign = o.andk(d[1], 0x8000_0000);
    let exp = o.shrk(d[1], 20);
    let exp = o.andk(exp, 0x7ff);
    let frac_hi = o.andk(d[1], 0x000f_ffff);
    let frac_any = o.or(frac_hi, d[0]);
    let frac_zero = o.is0(frac_any);
    let exp_max = o.eqk(exp, 0x7ff);
    let exp_zero = o.is0(exp);
    let nan = {
        let f = o.bnot(frac_zero);
        o.band(exp_max, f)
    };
    let inf = o.band(exp_max, frac_zero);
    let zero = o.band(exp_zero, frac_zero);
    // Denormals: no hidden bit, exponent 1.
    let hidden = o.ork(frac_hi, 0x0010_0000);
    let sig_hi = o.sel(exp_zero, frac_hi, hidden);
    let one = o.k(1);
    let e = o.sel(exp_zero, one, exp);
    // Normalise: bring the top bit to 52 (a no-op for normal numbers).
    let z = o.k(0);
    let n = super::wide::clz128(o, [d[0], sig_hi, z, z]);
    let eleven = o.k(75);
    let n = o.sub(n, eleven);
    let n = o.umin(n, eleven);
    let s = shl128(o, [d[0], sig_hi, z, z], n);
    let e = o.sub(e, n);
    Parts { sign, exp, nan, inf, zero, sig: [s[0], s[1]], e }
}

/// The canonical quiet NaN D3D hardware returns.
pub(crate) fn nan<O: Ops>(o: &mut O) -> P<O> {
    [o.k(0), o.k(0x7ff8_0000)]
}

/// `a × b + c` with one rounding.
pub(crate) fn fma<O: Ops>(o: &mut O, a: P<O>, b: P<O>, c: P<O>) -> P<O> {
    let pa = decode(o, a);
    let pb = decode(o, b);
    let pc = decode(o, c);
    let z = o.k(0);
    let sp = o.xor(pa.sign, pb.sign);
    let same_sign = o.eq(sp, pc.sign);

    // Special operands.
    let any_nan = o.bor(pa.nan, pb.nan);
    let any_nan = o.bor(any_nan, pc.nan);
    let inf_zero = o.band(pa.inf, pb.zero);
    let zero_inf = o.band(pa.zero, pb.inf);
    let prod_inf = o.bor(pa.inf, pb.inf);
    let opposite = o.bnot(same_sign);
    let inf_minus_inf = o.band(prod_inf, pc.inf);
    let inf_minus_inf = o.band(inf_minus_inf, opposite);
    let invalid = o.bor(any_nan, inf_zero);
    let invalid = o.bor(invalid, zero_inf);
    let invalid = o.bor(invalid, inf_minus_inf);
    let prod_zero = o.bor(pa.zero, pb.zero);
    let inf_bits = o.k(0x7ff0_0000);
    let prod_inf_bits = [z, o.or(inf_bits, sp)];

    // The exact product, top bit at 124 or 125.
    let p = mul64(o, pa.sig, pb.sig);
    let twenty = o.k(20);
    let p = shl128(o, p, twenty);
    let ep = o.add(pa.e, pb.e);
    let kk = o.k(2170);
    let xp = o.sub(ep, kk);
    // The addend at bits 73..125 (zero: far below the product).
    let c73 = o.k(73);
    let cq = shl128(o, [pc.sig[0], pc.sig[1], z, z], c73);
    let cq: Q<O> = o.sel4(pc.zero, [z, z, z, z], cq);
    let kk = o.k(1148);
    let xc = o.sub(pc.e, kk);
    let kk = o.k(200);
    let xp_low = o.sub(xp, kk);
    let xc = o.sel(pc.zero, xp_low, xc);

    // Align the smaller exponent to the larger, with a sticky bit.
    let d = o.sub(xp, xc);
    let p_first = {
        let neg = o.slt(d, z);
        o.bnot(neg)
    };
    let nd = o.sub(z, d);
    let amt = o.sel(p_first, d, nd);
    let big = o.sel4(p_first, p, cq);
    let small = o.sel4(p_first, cq, p);
    let x = o.sel(p_first, xp, xc);
    let s_big = o.sel(p_first, sp, pc.sign);
    let s_small = o.sel(p_first, pc.sign, sp);
    let small = shr128_jam(o, small, amt);

    let sum = add128(o, big, small);
    let (diff, borrow) = sub128(o, big, small);
    let (rdiff, _) = sub128(o, small, big);
    let diff_mag = o.sel4(borrow, rdiff, diff);
    let diff_sign = o.sel(borrow, s_small, s_big);
    let mag = o.sel4(same_sign, sum, diff_mag);
    let sign = o.sel(same_sign, s_big, diff_sign);
    let cancelled = is_zero128(o, mag);
    // Avoid packing zero (the select below overrides it).
    let one = o.k(1);
    let mag_nz = o.sel4(cancelled, [one, z, z, z], mag);
    let r = pack(o, sign, mag_nz, x, Format::F64);
    // Exact cancellation rounds to +0.
    let r = o.sel2(cancelled, [z, z], r);

    // An exact zero product: c, or +0 for (+0) + (−0).
    let c_zero_sum = {
        let hi = o.sel(same_sign, c[1], z);
        [z, hi]
    };
    let zero_prod = o.sel2(pc.zero, c_zero_sum, c);
    let r = o.sel2(prod_zero, zero_prod, r);
    let r = o.sel2(pc.inf, c, r);
    let r = o.sel2(prod_inf, prod_inf_bits, r);
    let qnan = nan(o);
    o.sel2(invalid, qnan, r)
}
