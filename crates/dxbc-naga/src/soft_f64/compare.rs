//! Comparisons (IEEE: NaN is unordered, −0 equals +0), D3D's `dmin`/`dmax`
//! (a NaN operand loses to a number) and saturation.

use super::arith::decode;
use super::wide::{sub64, P};
use super::Ops;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Ge,
}

/// A double's bits mapped to an unsigned key with the same order
/// (−0 just below +0).
fn key<O: Ops>(o: &mut O, d: P<O>) -> P<O> {
    let neg = o.shrk(d[1], 31);
    let neg = o.nz(neg);
    let m = o.k(u32::MAX);
    let flip_lo = o.xor(d[0], m);
    let flip_hi = o.xor(d[1], m);
    let set_hi = o.ork(d[1], 0x8000_0000);
    o.sel2(neg, [flip_lo, flip_hi], [d[0], set_hi])
}

/// Unsigned 64-bit `a < b`.
fn lt64<O: Ops>(o: &mut O, a: P<O>, b: P<O>) -> O::B {
    sub64(o, a, b).1
}

fn both_zero<O: Ops>(o: &mut O, a: P<O>, b: P<O>) -> O::B {
    let hi = o.or(a[1], b[1]);
    let hi = o.andk(hi, 0x7fff_ffff);
    let lo = o.or(a[0], b[0]);
    let any = o.or(hi, lo);
    o.is0(any)
}

/// The comparison as D3D's mask (0xFFFF_FFFF true, 0 false).
pub(crate) fn mask<O: Ops>(o: &mut O, cmp: Cmp, a: P<O>, b: P<O>) -> O::U {
    let pa = decode(o, a);
    let pb = decode(o, b);
    let nan = o.bor(pa.nan, pb.nan);
    let ordered = o.bnot(nan);
    let zeros = both_zero(o, a, b);
    let same_lo = o.eq(a[0], b[0]);
    let same_hi = o.eq(a[1], b[1]);
    let same = o.band(same_lo, same_hi);
    let equal = o.bor(same, zeros);
    let equal = o.band(equal, ordered);
    let (ka, kb) = (key(o, a), key(o, b));
    let less = lt64(o, ka, kb);
    let not_zeros = o.bnot(zeros);
    let less = o.band(less, not_zeros);
    let less = o.band(less, ordered);
    let t = match cmp {
        Cmp::Eq => equal,
        Cmp::Ne => o.bnot(equal),
        Cmp::Lt => less,
        Cmp::Ge => {
            let not_less = o.bnot(less);
            o.band(not_less, ordered)
        }
    };
    let (on, off) = (o.k(u32::MAX), o.k(0));
    o.sel(t, on, off)
}

/// D3D `dmin` / `dmax`: a NaN operand yields the other operand; otherwise
/// the smaller (larger) by value, −0 ordered below +0.
pub(crate) fn min_max<O: Ops>(o: &mut O, a: P<O>, b: P<O>, max: bool) -> P<O> {
    let pa = decode(o, a);
    let pb = decode(o, b);
    let (ka, kb) = (key(o, a), key(o, b));
    let a_less = lt64(o, ka, kb);
    let r = if max { o.sel2(a_less, b, a) } else { o.sel2(a_less, a, b) };
    let r = o.sel2(pb.nan, a, r);
    o.sel2(pa.nan, b, r)
}

/// The `_sat` modifier: clamp to [0, 1]; NaN gives 0.
pub(crate) fn saturate<O: Ops>(o: &mut O, a: P<O>) -> P<O> {
    let pa = decode(o, a);
    let z = o.k(0);
    let one = [z, o.k(0x3ff0_0000)];
    let ka = key(o, a);
    let k_zero = [z, o.k(0x8000_0000)];
    let k_one = [z, o.k(0xbff0_0000)];
    let above_zero = lt64(o, k_zero, ka);
    let below_one = lt64(o, ka, k_one);
    let r = o.sel2(below_one, a, one);
    let r = o.sel2(above_zero, r, [z, z]);
    o.sel2(pa.nan, [z, z], r)
}
