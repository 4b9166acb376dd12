//! # Software binary64 over 32-bit words
//!
//! WGSL has no `f64` and no 64-bit integers, and neither do the other text
//! targets naga writes for WebGPU-class hardware. D3D's double instructions
//! are therefore lowered, for those targets, to calls of small functions that
//! implement IEEE 754 binary64 exactly on `u32` words: a double is a
//! `vec2<u32>` (low word first, as in a D3D register pair), and every result
//! is the correctly rounded one (round to nearest, ties to even; denormals
//! kept; infinities, NaNs and signed zeros as IEEE 754 says, with D3D's rules
//! where D3D has its own: `dmin`/`dmax` return the non-NaN operand, `dtoi`
//! and `dtou` saturate and send NaN to 0).
//!
//! ## One algorithm, two interpreters
//!
//! Each operation is written once, generically, against [`Ops`]: a tiny
//! instruction set of 32-bit words (wrapping add/sub/mul, bitwise, shifts by
//! less than 32, count-leading-zeros, unsigned and signed comparison, select).
//! [`ir`] implements [`Ops`] by appending naga expressions to a function, so
//! the algorithm becomes a naga `Function` (`f64_add`, `f64_div`, …) that
//! every backend writes; a test-only interpreter evaluates the very same
//! code on `u32`s in Rust, so property tests against Rust's own `f64` run at
//! native speed on millions of operands, and the GPU tests (shader-runner)
//! check that the emitted IR computes the same bits on a real device.
//!
//! The code is branch-free: every path is computed and the answer is picked
//! with selects, so the emitted functions are straight-line code whose size
//! does not depend on data. Wide intermediates are arrays of words: 64-bit
//! pairs and 128-bit quads ([`wide`]); normalisation uses
//! `countLeadingZeros`, never a loop. The only iteration, the 56 quotient
//! bits of the division, is unrolled at a fixed count.
//!
//! ## One rounding, three arithmetic entry points
//!
//! All arithmetic results go through [`round::pack`], which takes a sign, an
//! exact (or sticky-jammed) 128-bit magnitude and a binary exponent,
//! normalises with one count-leading-zeros, shifts right with a sticky bit
//! (further for denormals), rounds to nearest even and packs, overflowing to
//! infinity. Division and the conversions feed it directly. Addition and
//! multiplication are fused multiply-adds with an exact identity operand:
//! `a + b = fma(a, 1, b)` and `a × b = fma(a, b, −0)` give exactly the
//! correctly rounded sum and product (including signed zeros: `x + −0 = x`
//! for every x), so one carefully tested path serves all three; the emitted
//! `f64_add` and `f64_mul` are one-line calls of `f64_fma`.
//!
//! The fused multiply-add forms the 106-bit product in a 128-bit quad with
//! its top bit at position 124 or 125 and the addend's 53 bits at 73..125,
//! shifts the one with the smaller exponent right with a sticky bit, then
//! adds or subtracts (taking the larger magnitude first). Sticky bits are
//! only lost when the exponents differ by more than 20, and then the result
//! keeps its top bit at 123 or above, far above the rounding position, so
//! the single rounding in [`round::pack`] is exact.

pub(crate) mod arith;
pub(crate) mod compare;
pub(crate) mod convert;
pub(crate) mod div;
pub(crate) mod ir;
pub(crate) mod round;
pub(crate) mod wide;

#[cfg(test)]
mod cpu;

/// The instruction set the software double algorithms are written against:
/// 32-bit words (`U`) and booleans (`B`). Shift counts must be below 32.
pub(crate) trait Ops {
    type U: Copy;
    type B: Copy;
    fn k(&mut self, v: u32) -> Self::U;
    fn add(&mut self, a: Self::U, b: Self::U) -> Self::U;
    fn sub(&mut self, a: Self::U, b: Self::U) -> Self::U;
    /// The low 32 bits of the product.
    fn mul(&mut self, a: Self::U, b: Self::U) -> Self::U;
    fn and(&mut self, a: Self::U, b: Self::U) -> Self::U;
    fn or(&mut self, a: Self::U, b: Self::U) -> Self::U;
    fn xor(&mut self, a: Self::U, b: Self::U) -> Self::U;
    fn shl(&mut self, a: Self::U, s: Self::U) -> Self::U;
    fn shr(&mut self, a: Self::U, s: Self::U) -> Self::U;
    fn clz(&mut self, a: Self::U) -> Self::U;
    fn eq(&mut self, a: Self::U, b: Self::U) -> Self::B;
    /// Unsigned `a < b`.
    fn lt(&mut self, a: Self::U, b: Self::U) -> Self::B;
    /// Signed (two's complement) `a < b`.
    fn slt(&mut self, a: Self::U, b: Self::U) -> Self::B;
    fn sel(&mut self, c: Self::B, t: Self::U, f: Self::U) -> Self::U;
    fn band(&mut self, a: Self::B, b: Self::B) -> Self::B;
    fn bor(&mut self, a: Self::B, b: Self::B) -> Self::B;
    fn bnot(&mut self, a: Self::B) -> Self::B;
    /// Another software function's result words.
    fn call(&mut self, f: SoftFn, args: &[Self::U]) -> Vec<Self::U>;

    // Derived forms.
    fn shlk(&mut self, a: Self::U, s: u32) -> Self::U {
        let s = self.k(s);
        self.shl(a, s)
    }
    fn shrk(&mut self, a: Self::U, s: u32) -> Self::U {
        let s = self.k(s);
        self.shr(a, s)
    }
    fn andk(&mut self, a: Self::U, m: u32) -> Self::U {
        let m = self.k(m);
        self.and(a, m)
    }
    fn ork(&mut self, a: Self::U, m: u32) -> Self::U {
        let m = self.k(m);
        self.or(a, m)
    }
    fn addk(&mut self, a: Self::U, v: u32) -> Self::U {
        let v = self.k(v);
        self.add(a, v)
    }
    fn eqk(&mut self, a: Self::U, v: u32) -> Self::B {
        let v = self.k(v);
        self.eq(a, v)
    }
    fn ne(&mut self, a: Self::U, b: Self::U) -> Self::B {
        let e = self.eq(a, b);
        self.bnot(e)
    }
    fn nz(&mut self, a: Self::U) -> Self::B {
        let z = self.k(0);
        self.ne(a, z)
    }
    fn is0(&mut self, a: Self::U) -> Self::B {
        self.eqk(a, 0)
    }
    /// Unsigned `a >= b`.
    fn ge(&mut self, a: Self::U, b: Self::U) -> Self::B {
        let l = self.lt(a, b);
        self.bnot(l)
    }
    /// 1 or 0.
    fn bit(&mut self, c: Self::B) -> Self::U {
        let (one, zero) = (self.k(1), self.k(0));
        self.sel(c, one, zero)
    }
    fn selk(&mut self, c: Self::B, t: u32, f: Self::U) -> Self::U {
        let t = self.k(t);
        self.sel(c, t, f)
    }
    fn sel2(&mut self, c: Self::B, t: [Self::U; 2], f: [Self::U; 2]) -> [Self::U; 2] {
        [self.sel(c, t[0], f[0]), self.sel(c, t[1], f[1])]
    }
    fn sel4(&mut self, c: Self::B, t: [Self::U; 4], f: [Self::U; 4]) -> [Self::U; 4] {
        [self.sel(c, t[0], f[0]), self.sel(c, t[1], f[1]), self.sel(c, t[2], f[2]), self.sel(c, t[3], f[3])]
    }
    fn umin(&mut self, a: Self::U, b: Self::U) -> Self::U {
        let l = self.lt(a, b);
        self.sel(l, a, b)
    }
}

/// Argument and result shapes: a double (two words) or one 32-bit word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Double,
    Word,
}

/// The software functions (one naga function each, added when used).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SoftFn {
    Add,
    Mul,
    Fma,
    Div,
    Rcp,
    Min,
    Max,
    Saturate,
    Eq,
    Ne,
    Lt,
    Ge,
    Dtof,
    Ftod,
    Dtoi,
    Dtou,
    Itod,
    Utod,
}

impl SoftFn {
    /// Every function.
    pub const ALL: [SoftFn; 18] = [
        SoftFn::Add,
        SoftFn::Mul,
        SoftFn::Fma,
        SoftFn::Div,
        SoftFn::Rcp,
        SoftFn::Min,
        SoftFn::Max,
        SoftFn::Saturate,
        SoftFn::Eq,
        SoftFn::Ne,
        SoftFn::Lt,
        SoftFn::Ge,
        SoftFn::Dtof,
        SoftFn::Ftod,
        SoftFn::Dtoi,
        SoftFn::Dtou,
        SoftFn::Itod,
        SoftFn::Utod,
    ];

    /// The function's name in the emitted shader (no trailing digit: naga's
    /// namer would append an underscore).
    pub fn name(self) -> &'static str {
        match self {
            SoftFn::Add => "f64_add",
            SoftFn::Mul => "f64_mul",
            SoftFn::Fma => "f64_fma",
            SoftFn::Div => "f64_div",
            SoftFn::Rcp => "f64_rcp",
            SoftFn::Min => "f64_min",
            SoftFn::Max => "f64_max",
            SoftFn::Saturate => "f64_saturate",
            SoftFn::Eq => "f64_eq",
            SoftFn::Ne => "f64_ne",
            SoftFn::Lt => "f64_lt",
            SoftFn::Ge => "f64_ge",
            SoftFn::Dtof => "f64_to_float",
            SoftFn::Ftod => "f64_from_float",
            SoftFn::Dtoi => "f64_to_int",
            SoftFn::Dtou => "f64_to_uint",
            SoftFn::Itod => "f64_from_int",
            SoftFn::Utod => "f64_from_uint",
        }
    }

    /// Argument shapes.
    pub fn args(self) -> &'static [Shape] {
        use Shape::*;
        match self {
            SoftFn::Fma => &[Double, Double, Double],
            SoftFn::Add
            | SoftFn::Mul
            | SoftFn::Div
            | SoftFn::Min
            | SoftFn::Max
            | SoftFn::Eq
            | SoftFn::Ne
            | SoftFn::Lt
            | SoftFn::Ge => &[Double, Double],
            SoftFn::Rcp | SoftFn::Saturate | SoftFn::Dtof | SoftFn::Dtoi | SoftFn::Dtou => &[Double],
            SoftFn::Ftod | SoftFn::Itod | SoftFn::Utod => &[Word],
        }
    }

    /// Result shape (comparisons give D3D's 0xFFFFFFFF / 0 mask; `Dtof` the
    /// f32's bits, `Dtoi` the i32's).
    pub fn result(self) -> Shape {
        match self {
            SoftFn::Eq | SoftFn::Ne | SoftFn::Lt | SoftFn::Ge | SoftFn::Dtof | SoftFn::Dtoi | SoftFn::Dtou => {
                Shape::Word
            }
            _ => Shape::Double,
        }
    }

    /// The body: argument words in, result words out.
    pub(crate) fn body<O: Ops>(self, o: &mut O, a: &[O::U]) -> Vec<O::U> {
        let d = |i: usize| [a[2 * i], a[2 * i + 1]];
        let r: Vec<O::U> = match self {
            SoftFn::Add => {
                let one = [o.k(0), o.k(0x3ff0_0000)];
                o.call(SoftFn::Fma, &[a[0], a[1], one[0], one[1], a[2], a[3]])
            }
            SoftFn::Mul => {
                let neg_zero = [o.k(0), o.k(0x8000_0000)];
                o.call(SoftFn::Fma, &[a[0], a[1], a[2], a[3], neg_zero[0], neg_zero[1]])
            }
            SoftFn::Fma => arith::fma(o, d(0), d(1), d(2)).to_vec(),
            SoftFn::Div => div::div(o, d(0), d(1)).to_vec(),
            SoftFn::Rcp => {
                let one = [o.k(0), o.k(0x3ff0_0000)];
                o.call(SoftFn::Div, &[one[0], one[1], a[0], a[1]])
            }
            SoftFn::Min => compare::min_max(o, d(0), d(1), false).to_vec(),
            SoftFn::Max => compare::min_max(o, d(0), d(1), true).to_vec(),
            SoftFn::Saturate => compare::saturate(o, d(0)).to_vec(),
            SoftFn::Eq => vec![compare::mask(o, compare::Cmp::Eq, d(0), d(1))],
            SoftFn::Ne => vec![compare::mask(o, compare::Cmp::Ne, d(0), d(1))],
            SoftFn::Lt => vec![compare::mask(o, compare::Cmp::Lt, d(0), d(1))],
            SoftFn::Ge => vec![compare::mask(o, compare::Cmp::Ge, d(0), d(1))],
            SoftFn::Dtof => vec![convert::to_f32(o, d(0))],
            SoftFn::Ftod => convert::from_f32(o, a[0]).to_vec(),
            SoftFn::Dtoi => vec![convert::to_int(o, d(0), true)],
            SoftFn::Dtou => vec![convert::to_int(o, d(0), false)],
            SoftFn::Itod => convert::from_int(o, a[0], true).to_vec(),
            SoftFn::Utod => convert::from_int(o, a[0], false).to_vec(),
        };
        r
    }
}
