//! 64- and 128-bit integers as little-endian word arrays (`[lo, hi]`,
//! `[w0, w1, w2, w3]`), built from [`Ops`] words.

use super::Ops;

pub(crate) type P<O> = [<O as Ops>::U; 2];
pub(crate) type Q<O> = [<O as Ops>::U; 4];

/// `a + b + cin` and the carry out.
fn add_carry<O: Ops>(o: &mut O, a: O::U, b: O::U, cin: O::B) -> (O::U, O::B) {
    let s = o.add(a, b);
    let c = o.bit(cin);
    let s = o.add(s, c);
    let below = o.lt(s, a);
    let same = o.eq(s, a);
    let same_in = o.band(same, cin);
    (s, o.bor(below, same_in))
}

/// `a − b − bin` and the borrow out.
fn sub_borrow<O: Ops>(o: &mut O, a: O::U, b: O::U, bin: O::B) -> (O::U, O::B) {
    let d = o.sub(a, b);
    let c = o.bit(bin);
    let d = o.sub(d, c);
    let below = o.lt(a, b);
    let same = o.eq(a, b);
    let same_in = o.band(same, bin);
    (d, o.bor(below, same_in))
}

fn no<O: Ops>(o: &mut O) -> O::B {
    let z = o.k(0);
    o.nz(z)
}

pub(crate) fn add64<O: Ops>(o: &mut O, a: P<O>, b: P<O>) -> P<O> {
    let f = no(o);
    let (l, c) = add_carry(o, a[0], b[0], f);
    let (h, _) = add_carry(o, a[1], b[1], c);
    [l, h]
}

/// `a − b` and whether it borrowed (`a < b`).
pub(crate) fn sub64<O: Ops>(o: &mut O, a: P<O>, b: P<O>) -> (P<O>, O::B) {
    let f = no(o);
    let (l, c) = sub_borrow(o, a[0], b[0], f);
    let (h, c) = sub_borrow(o, a[1], b[1], c);
    ([l, h], c)
}

pub(crate) fn add128<O: Ops>(o: &mut O, a: Q<O>, b: Q<O>) -> Q<O> {
    let mut c = no(o);
    let mut r = a;
    for i in 0..4 {
        let (s, c2) = add_carry(o, a[i], b[i], c);
        r[i] = s;
        c = c2;
    }
    r
}

/// `a − b` and whether it borrowed (`a < b`).
pub(crate) fn sub128<O: Ops>(o: &mut O, a: Q<O>, b: Q<O>) -> (Q<O>, O::B) {
    let mut c = no(o);
    let mut r = a;
    for i in 0..4 {
        let (s, c2) = sub_borrow(o, a[i], b[i], c);
        r[i] = s;
        c = c2;
    }
    (r, c)
}

pub(crate) fn is_zero128<O: Ops>(o: &mut O, a: Q<O>) -> O::B {
    let x = o.or(a[0], a[1]);
    let y = o.or(a[2], a[3]);
    let x = o.or(x, y);
    o.is0(x)
}

/// The full 64-bit product of two words.
pub(crate) fn mul32<O: Ops>(o: &mut O, a: O::U, b: O::U) -> P<O> {
    let (al, ah) = (o.andk(a, 0xffff), o.shrk(a, 16));
    let (bl, bh) = (o.andk(b, 0xffff), o.shrk(b, 16));
    let p0 = o.mul(al, bl);
    let p1 = o.mul(al, bh);
    let p2 = o.mul(ah, bl);
    let p3 = o.mul(ah, bh);
    let mid = o.add(p1, p2);
    let mid_carry = o.lt(mid, p1);
    let mid_lo = o.shlk(mid, 16);
    let lo = o.add(p0, mid_lo);
    let lo_carry = o.lt(lo, p0);
    let mid_hi = o.shrk(mid, 16);
    let hi = o.add(p3, mid_hi);
    let kk = o.k(0);
    let c1 = o.selk(mid_carry, 0x1_0000, kk);
    let hi = o.add(hi, c1);
    let c2 = o.bit(lo_carry);
    let hi = o.add(hi, c2);
    [lo, hi]
}

/// The full 128-bit product of two 64-bit integers.
pub(crate) fn mul64<O: Ops>(o: &mut O, a: P<O>, b: P<O>) -> Q<O> {
    let z = o.k(0);
    let ll = mul32(o, a[0], b[0]);
    let lh = mul32(o, a[0], b[1]);
    let hl = mul32(o, a[1], b[0]);
    let hh = mul32(o, a[1], b[1]);
    let r = [ll[0], ll[1], hh[0], hh[1]];
    let r = add128(o, r, [z, lh[0], lh[1], z]);
    add128(o, r, [z, hl[0], hl[1], z])
}

/// Leading zeros of a 128-bit integer (128 for zero).
pub(crate) fn clz128<O: Ops>(o: &mut O, a: Q<O>) -> O::U {
    let mut n = o.clz(a[0]);
    for &w in &a[1..] {
        // Each higher word: its own count, or 32 more than the count below.
        let zi = o.is0(w);
        let ci = o.clz(w);
        let below = o.addk(n, 32);
        n = o.sel(zi, below, ci);
    }
    n
}

/// `w[offset + q]` for the dynamic `q` in `0..4`, 0 past the end.
fn word_at<O: Ops>(o: &mut O, w: Q<O>, q: O::U, offset: i32) -> O::U {
    let mut r = o.k(0);
    for qv in 0..4 {
        let idx = offset + qv;
        if (0..4).contains(&idx) {
            let hit = o.eqk(q, qv as u32);
            r = o.sel(hit, w[idx as usize], r);
        }
    }
    r
}

/// `a << n` for `n` in `0..128`.
pub(crate) fn shl128<O: Ops>(o: &mut O, a: Q<O>, n: O::U) -> Q<O> {
    let q = o.shrk(n, 5);
    let s = o.andk(n, 31);
    let mut y = a;
    // y[i] = a[i - q]
    for (i, yi) in y.iter_mut().enumerate() {
        let mut r = o.k(0);
        for qv in 0..4usize {
            if qv <= i {
                let hit = o.eqk(q, qv as u32);
                r = o.sel(hit, a[i - qv], r);
            }
        }
        *yi = r;
    }
    let s0 = o.is0(s);
    let back = o.k(32);
    let back = o.sub(back, s);
    let back = o.andk(back, 31);
    let mut r = y;
    for i in 0..4 {
        let up = o.shl(y[i], s);
        if i == 0 {
            r[i] = up;
        } else {
            let carry = o.shr(y[i - 1], back);
            let z = o.k(0);
            let carry = o.sel(s0, z, carry);
            r[i] = o.or(up, carry);
        }
    }
    r
}

/// `a >> n` for `n` in `0..128`.
pub(crate) fn shr128<O: Ops>(o: &mut O, a: Q<O>, n: O::U) -> Q<O> {
    let q = o.shrk(n, 5);
    let s = o.andk(n, 31);
    let mut y = a;
    for (i, yi) in y.iter_mut().enumerate() {
        *yi = word_at(o, a, q, i as i32);
    }
    let s0 = o.is0(s);
    let back = o.k(32);
    let back = o.sub(back, s);
    let back = o.andk(back, 31);
    let mut r = y;
    for i in 0..4 {
        let down = o.shr(y[i], s);
        if i == 3 {
            r[i] = down;
        } else {
            let carry = o.shl(y[i + 1], back);
            let z = o.k(0);
            let carry = o.sel(s0, z, carry);
            r[i] = o.or(down, carry);
        }
    }
    r
}

/// `a >> n` for any `n` (at least 128: zero) with every bit shifted out
/// OR-ed into bit 0 (the sticky bit).
pub(crate) fn shr128_jam<O: Ops>(o: &mut O, a: Q<O>, n: O::U) -> Q<O> {
    let cap = o.k(127);
    let big = o.lt(cap, n);
    let m = o.umin(n, cap);
    let mut r = shr128(o, a, m);
    let z = o.k(0);
    // The bits kept, shifted back, equal `a` exactly when nothing was lost.
    let back = shl128(o, r, m);
    let (d, _) = sub128(o, a, back);
    let exact = is_zero128(o, d);
    let lost = o.bnot(exact);
    // n > 127: even the top bit left.
    for w in r.iter_mut() {
        *w = o.sel(big, z, *w);
    }
    let nonzero = is_zero128(o, a);
    let nonzero = o.bnot(nonzero);
    let big_lost = o.band(big, nonzero);
    let lost = o.bor(lost, big_lost);
    let sticky = o.bit(lost);
    r[0] = o.or(r[0], sticky);
    r
}
