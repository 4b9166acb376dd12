//! Division (and through it `drcp`, which is `1 / x`).

use super::arith::{decode, nan};
use super::round::{pack, Format};
use super::wide::{sub64, P};
use super::Ops;

/// Quotient bits computed: with both significands in [2^52, 2^53) the first
/// is the integer bit, and 55 more leave at least 54 significant bits, one
/// more than the round bit needs, with the remainder as the sticky bit.
const QUOTIENT_BITS: u32 = 56;

/// `a / b` correctly rounded.
pub(crate) fn div<O: Ops>(o: &mut O, a: P<O>, b: P<O>) -> P<O> {
    let pa = decode(o, a);
    let pb = decode(o, b);
    let z = o.k(0);
    let sign = o.xor(pa.sign, pb.sign);

    let any_nan = o.bor(pa.nan, pb.nan);
    let both_inf = o.band(pa.inf, pb.inf);
    let both_zero = o.band(pa.zero, pb.zero);
    let invalid = o.bor(any_nan, both_inf);
    let invalid = o.bor(invalid, both_zero);
    let to_inf = o.bor(pa.inf, pb.zero);
    let to_zero = o.bor(pa.zero, pb.inf);

    // Restoring division, one quotient bit per step, unrolled.
    let mut rem = pa.sig;
    let mut q = [z, z];
    for i in 0..QUOTIENT_BITS {
        let (d, borrow) = sub64(o, rem, pb.sig);
        let fits = o.bnot(borrow);
        rem = o.sel2(fits, d, rem);
        let pos = QUOTIENT_BITS - 1 - i;
        let bit = o.bit(fits);
        let bit = o.shlk(bit, pos % 32);
        let w = (pos / 32) as usize;
        q[w] = o.or(q[w], bit);
        // rem < 2 × b_sig < 2^54: doubling stays within 64 bits.
        let hi = o.shlk(rem[1], 1);
        let carry = o.shrk(rem[0], 31);
        let hi = o.or(hi, carry);
        let lo = o.shlk(rem[0], 1);
        rem = [lo, hi];
    }
    let rest = o.or(rem[0], rem[1]);
    let sticky = o.nz(rest);
    let sticky = o.bit(sticky);
    // (q << 1 | sticky) × 2^(ea − eb − 56) is the quotient.
    let lo = o.shlk(q[0], 1);
    let lo = o.or(lo, sticky);
    let c = o.shrk(q[0], 31);
    let hi = o.shlk(q[1], 1);
    let hi = o.or(hi, c);
    let x = o.sub(pa.e, pb.e);
    let k = o.k(QUOTIENT_BITS);
    let x = o.sub(x, k);
    let r = pack(o, sign, [lo, hi, z, z], x, Format::F64);

    let inf = o.ork(sign, 0x7ff0_0000);
    let r = o.sel2(to_zero, [z, sign], r);
    let r = o.sel2(to_inf, [z, inf], r);
    let qnan = nan(o);
    o.sel2(invalid, qnan, r)
}
