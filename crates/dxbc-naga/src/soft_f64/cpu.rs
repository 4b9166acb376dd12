//! The software double algorithms evaluated on `u32`s in Rust, checked bit
//! for bit against Rust's own `f64` (the GPU tests in shader-runner check
//! the emitted IR against the same oracle).

use super::{Ops, SoftFn};
use proptest::prelude::*;

struct Cpu;

impl Ops for Cpu {
    type U = u32;
    type B = bool;
    fn k(&mut self, v: u32) -> u32 {
        v
    }
    fn add(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }
    fn sub(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_sub(b)
    }
    fn mul(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_mul(b)
    }
    fn and(&mut self, a: u32, b: u32) -> u32 {
        a & b
    }
    fn or(&mut self, a: u32, b: u32) -> u32 {
        a | b
    }
    fn xor(&mut self, a: u32, b: u32) -> u32 {
        a ^ b
    }
    fn shl(&mut self, a: u32, s: u32) -> u32 {
        assert!(s < 32, "shift by {s}");
        a << s
    }
    fn shr(&mut self, a: u32, s: u32) -> u32 {
        assert!(s < 32, "shift by {s}");
        a >> s
    }
    fn clz(&mut self, a: u32) -> u32 {
        a.leading_zeros()
    }
    fn eq(&mut self, a: u32, b: u32) -> bool {
        a == b
    }
    fn lt(&mut self, a: u32, b: u32) -> bool {
        a < b
    }
    fn slt(&mut self, a: u32, b: u32) -> bool {
        (a as i32) < (b as i32)
    }
    fn sel(&mut self, c: bool, t: u32, f: u32) -> u32 {
        if c {
            t
        } else {
            f
        }
    }
    fn band(&mut self, a: bool, b: bool) -> bool {
        a && b
    }
    fn bor(&mut self, a: bool, b: bool) -> bool {
        a || b
    }
    fn bnot(&mut self, a: bool) -> bool {
        !a
    }
    fn call(&mut self, f: SoftFn, args: &[u32]) -> Vec<u32> {
        f.body(self, args)
    }
}

/// D3D's float32 denormal flush (sign kept).
fn flush(f: f32) -> f32 {
    if f.is_subnormal() {
        0.0f32.copysign(f)
    } else {
        f
    }
}

fn words(d: f64) -> [u32; 2] {
    let b = d.to_bits();
    [b as u32, (b >> 32) as u32]
}

fn run(f: SoftFn, args: &[f64]) -> Vec<u32> {
    let a: Vec<u32> = args.iter().flat_map(|&d| words(d)).collect();
    f.body(&mut Cpu, &a)
}

fn run_d(f: SoftFn, args: &[f64]) -> f64 {
    let r = run(f, args);
    f64::from_bits(u64::from(r[0]) | u64::from(r[1]) << 32)
}

/// Bit-identical, or both NaN (D3D does not define NaN payloads).
fn same(got: f64, want: f64) -> bool {
    (got.is_nan() && want.is_nan()) || got.to_bits() == want.to_bits()
}

fn check2(f: SoftFn, a: f64, b: f64, want: f64) -> Result<(), TestCaseError> {
    let got = run_d(f, &[a, b]);
    prop_assert!(
        same(got, want),
        "{f:?}({a:e} [{:#x}], {b:e} [{:#x}]) = {got:e} [{:#x}], want {want:e} [{:#x}]",
        a.to_bits(),
        b.to_bits(),
        got.to_bits(),
        want.to_bits()
    );
    Ok(())
}

/// Operands biased to the hard cases: specials, denormals, extremes,
/// neighbours of simple values, plus uniformly random bit patterns.
pub(crate) fn operand() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => any::<u64>().prop_map(f64::from_bits),
        1 => prop::sample::select(vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1.0, -1.0,
            f64::MAX, f64::MIN, f64::MIN_POSITIVE, f64::EPSILON, 0.5, 2.0, 3.0]),
        // Denormals.
        2 => (any::<bool>(), 1u64..(1 << 52)).prop_map(|(s, m)| f64::from_bits(m | u64::from(s) << 63)),
        // Near overflow / underflow boundaries.
        2 => (any::<bool>(), prop_oneof![2040u64..2047, 0u64..8, 1020u64..1028], any::<u64>())
            .prop_map(|(s, e, m)| f64::from_bits(u64::from(s) << 63 | e << 52 | (m & ((1 << 52) - 1)))),
        // Few significant bits (exact halfway sums and products).
        2 => (any::<bool>(), 900u64..1150, 0u64..16, 0u32..52)
            .prop_map(|(s, e, m, sh)| f64::from_bits(u64::from(s) << 63 | e << 52 | ((m << sh) & ((1 << 52) - 1)))),
        // All-ones / one-bit fractions (rounding carries).
        1 => (any::<bool>(), 1u64..2047, prop::bool::ANY)
            .prop_map(|(s, e, ones)| f64::from_bits(u64::from(s) << 63 | e << 52 | if ones { (1 << 52) - 1 } else { 1 })),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn add_sub(a in operand(), b in operand()) {
        check2(SoftFn::Add, a, b, a + b)?;
        // Cancellation: b close to −a.
        let c = f64::from_bits((-a).to_bits() ^ (b.to_bits() & 0xff));
        check2(SoftFn::Add, a, c, a + c)?;
    }

    #[test]
    fn mul(a in operand(), b in operand()) {
        check2(SoftFn::Mul, a, b, a * b)?;
    }

    #[test]
    fn fma(a in operand(), b in operand(), c in operand()) {
        let got = run_d(SoftFn::Fma, &[a, b, c]);
        let want = a.mul_add(b, c);
        prop_assert!(same(got, want), "fma({a:e}, {b:e}, {c:e}) = {got:e} [{:#x}], want {want:e} [{:#x}]",
            got.to_bits(), want.to_bits());
        // The addend cancelling most of the product.
        let c = -(a * b);
        let got = run_d(SoftFn::Fma, &[a, b, c]);
        let want = a.mul_add(b, c);
        prop_assert!(same(got, want), "fma({a:e}, {b:e}, {c:e}) = {got:e} [{:#x}], want {want:e} [{:#x}]",
            got.to_bits(), want.to_bits());
    }

    #[test]
    fn div_rcp(a in operand(), b in operand()) {
        check2(SoftFn::Div, a, b, a / b)?;
        let got = run_d(SoftFn::Rcp, &[b]);
        prop_assert!(same(got, 1.0 / b), "rcp({b:e}) = {got:e}");
    }

    #[test]
    fn comparisons_min_max(a in operand(), b in operand()) {
        let m = |t: bool| if t { u32::MAX } else { 0 };
        prop_assert_eq!(run(SoftFn::Eq, &[a, b])[0], m(a == b));
        prop_assert_eq!(run(SoftFn::Ne, &[a, b])[0], m(a != b));
        prop_assert_eq!(run(SoftFn::Lt, &[a, b])[0], m(a < b));
        prop_assert_eq!(run(SoftFn::Ge, &[a, b])[0], m(a >= b));
        prop_assert_eq!(run(SoftFn::Eq, &[a, a])[0], m(a == a));
        // D3D: a NaN operand loses; −0 orders below +0.
        let order = |x: f64, y: f64| x < y || (x == 0.0 && y == 0.0 && x.is_sign_negative() && y.is_sign_positive());
        let want_min = if a.is_nan() { b } else if b.is_nan() { a } else if order(b, a) { b } else { a };
        let want_max = if a.is_nan() { b } else if b.is_nan() { a } else if order(a, b) { b } else { a };
        check2(SoftFn::Min, a, b, want_min)?;
        check2(SoftFn::Max, a, b, want_max)?;
    }

    #[test]
    fn conversions(a in operand(), f in any::<u32>(), i in any::<i32>()) {
        let got = f32::from_bits(run(SoftFn::Dtof, &[a])[0]);
        let want = flush(a as f32);
        prop_assert!((got.is_nan() && want.is_nan()) || got.to_bits() == want.to_bits(),
            "dtof({a:e}) = {got:e} [{:#x}], want {want:e} [{:#x}]", got.to_bits(), want.to_bits());
        // Rust's `as` saturates and sends NaN to 0, as D3D does.
        prop_assert_eq!(run(SoftFn::Dtoi, &[a])[0], (a as i32) as u32, "dtoi({:e})", a);
        prop_assert_eq!(run(SoftFn::Dtou, &[a])[0], a as u32, "dtou({:e})", a);
        let x = f32::from_bits(f);
        let r = SoftFn::Ftod.body(&mut Cpu, &[f]);
        let got = f64::from_bits(u64::from(r[0]) | u64::from(r[1]) << 32);
        prop_assert!(same(got, f64::from(x)), "ftod({x:e}) = {got:e}");
        let r = SoftFn::Itod.body(&mut Cpu, &[i as u32]);
        prop_assert_eq!(u64::from(r[0]) | u64::from(r[1]) << 32, f64::from(i).to_bits());
        let r = SoftFn::Utod.body(&mut Cpu, &[f]);
        prop_assert_eq!(u64::from(r[0]) | u64::from(r[1]) << 32, f64::from(f).to_bits());
    }
}

#[test]
fn saturate() {
    for (x, want) in [
        (0.5, 0.5),
        (-0.5, 0.0),
        (-0.0, 0.0),
        (2.0, 1.0),
        (f64::NAN, 0.0),
        (f64::INFINITY, 1.0),
        (f64::NEG_INFINITY, 0.0),
        (1.0, 1.0),
        (f64::from_bits(1), f64::from_bits(1)),
    ] {
        let got = run_d(SoftFn::Saturate, &[x]);
        assert_eq!(got.to_bits(), want.to_bits(), "saturate({x:e})");
    }
}

/// Cases known to break naive implementations.
#[test]
fn known_hard_cases() {
    let tiny = f64::from_bits(1);
    let add = [
        (1.0, f64::EPSILON / 2.0),                                   // tie to even: stays 1
        (1.0 + f64::EPSILON, f64::EPSILON / 2.0),                    // tie to even: rounds up
        (f64::MAX, f64::MAX),                                        // overflow to inf
        (f64::MIN_POSITIVE, -f64::from_bits(0x000f_ffff_ffff_ffff)), // to the smallest denormal
        (tiny, -tiny),                                               // +0
        (-0.0, -0.0),
        (-0.0, 0.0),
        (1e308, -1e308),
        (f64::INFINITY, f64::NEG_INFINITY),
        (1.0, -(1.0 - f64::EPSILON / 2.0)), // cancellation to 2^-53
    ];
    for (a, b) in add {
        assert!(same(run_d(SoftFn::Add, &[a, b]), a + b), "{a:e} + {b:e}");
    }
    let mul = [
        (tiny, 0.5),
        (tiny, 1.5),
        (f64::MIN_POSITIVE, 0.5),
        (1.0 + f64::EPSILON, 1.0 - f64::EPSILON),
        (f64::MAX, 1.0 + f64::EPSILON),
        (-0.0, 5.0),
        (f64::INFINITY, 0.0),
        (3.0, 1.0 / 3.0),
    ];
    for (a, b) in mul {
        assert!(same(run_d(SoftFn::Mul, &[a, b]), a * b), "{a:e} * {b:e}");
    }
    let div = [
        (1.0, 3.0),
        (tiny, 2.0),
        (f64::MAX, tiny),
        (1.0, 0.0),
        (-1.0, 0.0),
        (0.0, 0.0),
        (tiny, f64::MAX),
        (f64::MIN_POSITIVE, 3.0),
        (3.0 * tiny, 2.0),
    ];
    for (a, b) in div {
        assert!(same(run_d(SoftFn::Div, &[a, b]), a / b), "{a:e} / {b:e}");
    }
    let fma = [
        (1.0 + f64::EPSILON, 1.0 - f64::EPSILON, -1.0),
        (tiny, 0.5, -0.0),
        (f64::MAX, 2.0, -f64::MAX),
        (0.1, 10.0, -1.0),
        (-0.0, 0.0, 0.0),
        (0.0, 1.0, -0.0),
    ];
    for (a, b, c) in fma {
        assert!(same(run_d(SoftFn::Fma, &[a, b, c]), a.mul_add(b, c)), "fma({a:e}, {b:e}, {c:e})");
    }
    for a in [
        f64::from(f32::MAX) * (1.0 + f64::EPSILON),
        1.0e-45,
        0.7e-45,
        1.4e-45 * 1.5,
        f64::from(f32::MIN_POSITIVE) * 0.75,
    ] {
        assert_eq!(run(SoftFn::Dtof, &[a])[0], flush(a as f32).to_bits(), "dtof({a:e})");
    }
    for a in [2147483647.5, -2147483648.9, 4294967295.9, -0.9, 4294967296.0, f64::NAN, f64::NEG_INFINITY] {
        assert_eq!(run(SoftFn::Dtoi, &[a])[0], (a as i32) as u32, "dtoi({a:e})");
        assert_eq!(run(SoftFn::Dtou, &[a])[0], a as u32, "dtou({a:e})");
    }
}
