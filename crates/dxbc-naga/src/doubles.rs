//! Double-precision instructions, as native f64 or as calls of the
//! software binary64 functions ([`crate::soft_f64`], `Options::doubles`).
//!
//! A double lives in two 32-bit register components, low word first: `.xy`
//! holds double 0 and `.zw` double 1, and a source swizzle picks word pairs.
//! The halves become an f64 through a 64-bit integer (`hi << 32 | lo`, then
//! a bitcast), and back the same way, so every bit (NaN payloads, signed
//! zeros, denormals) survives. naga carries f64 and u64, SPIR-V writes them;
//! the languages that cannot are written from a second lowering in which
//! the halves go, as they are, to software functions on `vec2<u32>`.

use crate::lower::{saturate, Lower, H, K};
use crate::soft_f64::{ir, Shape, SoftFn};
use crate::TranslateError;
use dxbc::program::{Instruction, Operand};
use dxbc::spec::{NumComponents, Opcode as O, OperandModifier, SelectionMode};
use naga::{BinaryOperator as B, Expression as E, Literal, MathFunction as M, ScalarKind, UnaryOperator};

impl Lower<'_> {
    /// `hi << 32 | lo` as an f64.
    fn f64_of(&mut self, lo: H, hi: H) -> H {
        let lo = self.e(E::As { expr: lo, kind: ScalarKind::Uint, convert: Some(8) });
        let hi = self.e(E::As { expr: hi, kind: ScalarKind::Uint, convert: Some(8) });
        let n = self.lit_u(32);
        let hi = self.bin(B::ShiftLeft, hi, n);
        let bits = self.bin(B::InclusiveOr, hi, lo);
        self.e(E::As { expr: bits, kind: ScalarKind::Float, convert: None })
    }

    /// An f64's (low, high) words.
    fn halves_of(&mut self, d: H) -> (H, H) {
        let bits = self.e(E::As { expr: d, kind: ScalarKind::Uint, convert: None });
        let lo = self.e(E::As { expr: bits, kind: ScalarKind::Uint, convert: Some(4) });
        let n = self.lit_u(32);
        let hi = self.bin(B::ShiftRight, bits, n);
        let hi = self.e(E::As { expr: hi, kind: ScalarKind::Uint, convert: Some(4) });
        (lo, hi)
    }

    /// A source read as its two doubles, with source modifiers applied.
    fn read_doubles(&mut self, op: &Operand) -> Result<[H; 2], TranslateError> {
        let v = self.read_bits(op)?;
        let m = OperandModifier::from_u32(op.modifier(self.p));
        let mut out = Vec::with_capacity(2);
        for i in 0..2 {
            let lo = self.component(v, 2 * i);
            let hi = self.component(v, 2 * i + 1);
            let mut d = self.f64_of(lo, hi);
            if matches!(m, Some(OperandModifier::Abs | OperandModifier::Absneg)) {
                d = self.math(M::Abs, d, None, None);
            }
            if matches!(m, Some(OperandModifier::Neg | OperandModifier::Absneg)) {
                d = self.e(E::Unary { op: UnaryOperator::Negate, expr: d });
            }
            out.push(d);
        }
        Ok([out[0], out[1]])
    }

    /// The components a destination writes (bit c: component c).
    fn dest_mask(&self, dst: &Operand) -> u32 {
        match (NumComponents::from_u32(dst.num_components()), dst.selection()) {
            (Some(NumComponents::Component4), Some(SelectionMode::MaskMode)) => dst.mask(),
            (Some(NumComponents::Component1 | NumComponents::Component0), _) => 1,
            (Some(NumComponents::Component4), Some(SelectionMode::Select1Mode)) => 1 << dst.select1(),
            _ => 0xf,
        }
    }

    /// Writes doubles to a 64-bit destination: `.xy` takes double 0, `.zw`
    /// double 1 (only the halves the mask names are stored).
    fn write_doubles(&mut self, dst: &Operand, d: [H; 2], sat: bool) -> Result<(), TranslateError> {
        let mask = self.dest_mask(dst);
        let zero = self.lit_u(0);
        let mut words = [zero; 4];
        for (i, &v) in d.iter().enumerate() {
            if mask & (3 << (2 * i)) != 0 {
                let v = if sat { self.math(M::Saturate, v, None, None) } else { v };
                let (lo, hi) = self.halves_of(v);
                words[2 * i] = lo;
                words[2 * i + 1] = hi;
            }
        }
        let ty = self.t.vec4u;
        let value = self.e(E::Compose { ty, components: words.to_vec() });
        self.write(dst, value, K::U, false)
    }

    /// Writes one 32-bit result per double to a 32-bit destination: the
    /// components its mask names take results 0 and 1 in order.
    fn write_per_double(&mut self, dst: &Operand, r: [H; 2], k: K, sat: bool) -> Result<(), TranslateError> {
        let mask = self.dest_mask(dst);
        let zero = match k {
            K::F => self.e(E::Literal(Literal::F32(0.0))),
            K::I => self.e(E::Literal(Literal::I32(0))),
            K::U => self.lit_u(0),
        };
        let mut comps = [zero; 4];
        let mut next = 0;
        for (c, slot) in comps.iter_mut().enumerate() {
            if mask & (1 << c) != 0 {
                *slot = r[next.min(1)];
                next += 1;
            }
        }
        let ty = self.vec_ty(k);
        let value = self.e(E::Compose { ty, components: comps.to_vec() });
        self.write(dst, value, k, sat)
    }

    /// Lowers one double-precision instruction.
    pub(crate) fn double(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        self.uses_doubles = true;
        if self.options.doubles == crate::DoubleMode::Software {
            return self.double_soft(ins, code);
        }
        let sat = saturate(ins);
        let p = self.p;
        let op = |i: usize| self.op(ins, i);
        let (dst, a) = (op(0)?, op(1)?);
        let _ = p;
        match code {
            O::Dadd | O::Dmul | O::Ddiv | O::Dmin | O::Dmax => {
                let b = self.op(ins, 2)?;
                let x = self.read_doubles(a)?;
                let y = self.read_doubles(b)?;
                let mut r = [x[0]; 2];
                for i in 0..2 {
                    r[i] = match code {
                        O::Dadd => self.bin(B::Add, x[i], y[i]),
                        O::Dmul => self.bin(B::Multiply, x[i], y[i]),
                        O::Ddiv => self.bin(B::Divide, x[i], y[i]),
                        O::Dmin => self.math(M::Min, x[i], Some(y[i]), None),
                        _ => self.math(M::Max, x[i], Some(y[i]), None),
                    };
                }
                self.write_doubles(dst, r, sat)
            }
            O::Dfma => {
                let (b, c) = (self.op(ins, 2)?, self.op(ins, 3)?);
                let x = self.read_doubles(a)?;
                let y = self.read_doubles(b)?;
                let z = self.read_doubles(c)?;
                let r0 = self.e(E::Math { fun: M::Fma, arg: x[0], arg1: Some(y[0]), arg2: Some(z[0]), arg3: None });
                let r1 = self.e(E::Math { fun: M::Fma, arg: x[1], arg1: Some(y[1]), arg2: Some(z[1]), arg3: None });
                self.write_doubles(dst, [r0, r1], sat)
            }
            O::Drcp => {
                let x = self.read_doubles(a)?;
                let one = self.e(E::Literal(Literal::F64(1.0)));
                let r0 = self.bin(B::Divide, one, x[0]);
                let r1 = self.bin(B::Divide, one, x[1]);
                self.write_doubles(dst, [r0, r1], sat)
            }
            O::Dmov => {
                let x = self.read_doubles(a)?;
                self.write_doubles(dst, x, sat)
            }
            O::Dmovc => {
                // The condition is 32-bit: component i decides double i.
                let (b, c) = (self.op(ins, 2)?, self.op(ins, 3)?);
                let cond = self.read(a, K::U)?;
                let x = self.read_doubles(b)?;
                let y = self.read_doubles(c)?;
                let zero = self.lit_u(0);
                let mut r = [x[0]; 2];
                for i in 0..2 {
                    let ci = self.component(cond, i as u32);
                    let nz = self.bin(B::NotEqual, ci, zero);
                    r[i] = self.select(nz, x[i], y[i]);
                }
                self.write_doubles(dst, r, sat)
            }
            O::Deq | O::Dne | O::Dlt | O::Dge => {
                let b = self.op(ins, 2)?;
                let x = self.read_doubles(a)?;
                let y = self.read_doubles(b)?;
                let (on, off) = (self.lit_u(u32::MAX), self.lit_u(0));
                let mut r = [on; 2];
                for i in 0..2 {
                    let op = match code {
                        O::Deq => B::Equal,
                        O::Dne => B::NotEqual,
                        O::Dlt => B::Less,
                        _ => B::GreaterEqual,
                    };
                    let c = self.bin(op, x[i], y[i]);
                    r[i] = self.select(c, on, off);
                }
                self.write_per_double(dst, r, K::U, false)
            }
            O::Dtof => {
                let x = self.read_doubles(a)?;
                let r0 = self.e(E::As { expr: x[0], kind: ScalarKind::Float, convert: Some(4) });
                let r1 = self.e(E::As { expr: x[1], kind: ScalarKind::Float, convert: Some(4) });
                self.write_per_double(dst, [r0, r1], K::F, sat)
            }
            O::Dtoi | O::Dtou => {
                // D3D: NaN → 0, out-of-range values clamp (both bounds are exact in f64).
                let x = self.read_doubles(a)?;
                let (lo, hi, k) =
                    if code == O::Dtoi { (-2147483648.0f64, 2147483647.0f64, K::I) } else { (0.0, 4294967295.0, K::U) };
                let lo = self.e(E::Literal(Literal::F64(lo)));
                let hi = self.e(E::Literal(Literal::F64(hi)));
                let zero = match k {
                    K::I => self.e(E::Literal(Literal::I32(0))),
                    _ => self.lit_u(0),
                };
                let mut r = [zero; 2];
                for i in 0..2 {
                    let c = self.math(M::Clamp, x[i], Some(lo), Some(hi));
                    let conv = self.e(E::As { expr: c, kind: k.kind(), convert: Some(4) });
                    let nan = self.bin(B::NotEqual, x[i], x[i]);
                    r[i] = self.select(nan, zero, conv);
                }
                self.write_per_double(dst, r, k, false)
            }
            O::Ftod | O::Itod | O::Utod => {
                // 32-bit source: component i becomes double i.
                let k = match code {
                    O::Ftod => K::F,
                    O::Itod => K::I,
                    _ => K::U,
                };
                let v = self.read(a, k)?;
                let mut r = [v; 2];
                for (i, slot) in r.iter_mut().enumerate() {
                    let c = self.component(v, i as u32);
                    *slot = self.e(E::As { expr: c, kind: ScalarKind::Float, convert: Some(8) });
                }
                self.write_doubles(dst, r, sat)
            }
            _ => crate::lower::malformed(format!("{} is not a double instruction", code.info().asm), at),
        }
    }
}

/// A double as its (low, high) word expressions.
type Words = [H; 2];

impl Lower<'_> {
    /// A source's two doubles as words, with abs / neg applied to the sign bit.
    fn read_words(&mut self, op: &Operand) -> Result<[Words; 2], TranslateError> {
        let v = self.read_bits(op)?;
        let m = OperandModifier::from_u32(op.modifier(self.p));
        let mut out = [[v; 2]; 2];
        for (i, d) in out.iter_mut().enumerate() {
            let lo = self.component(v, 2 * i as u32);
            let mut hi = self.component(v, 2 * i as u32 + 1);
            if matches!(m, Some(OperandModifier::Abs | OperandModifier::Absneg)) {
                let k = self.lit_u(0x7fff_ffff);
                hi = self.bin(B::And, hi, k);
            }
            if matches!(m, Some(OperandModifier::Neg | OperandModifier::Absneg)) {
                let k = self.lit_u(0x8000_0000);
                hi = self.bin(B::ExclusiveOr, hi, k);
            }
            *d = [lo, hi];
        }
        Ok(out)
    }

    /// Calls a software double function: argument words in, result words out.
    fn soft(&mut self, f: SoftFn, args: &[H]) -> Vec<H> {
        let g = ir::function(&mut self.module, &mut self.soft_fns, f);
        let mut arguments = Vec::new();
        let mut i = 0;
        for &shape in f.args() {
            match shape {
                Shape::Double => {
                    let ty = ir::vec2u_ty(&mut self.module);
                    arguments.push(self.e(E::Compose { ty, components: vec![args[i], args[i + 1]] }));
                    i += 2;
                }
                Shape::Word => {
                    arguments.push(args[i]);
                    i += 1;
                }
            }
        }
        // The call result is not emitted: the call statement defines it.
        self.flush();
        let (call, r) = ir::call_statement(&mut self.f, g, arguments);
        self.stmt(call);
        match f.result() {
            Shape::Double => vec![self.component(r, 0), self.component(r, 1)],
            Shape::Word => vec![r],
        }
    }

    fn soft_d(&mut self, f: SoftFn, args: &[H]) -> Words {
        let r = self.soft(f, args);
        [r[0], r[1]]
    }

    /// Whether double `i` of a 64-bit destination is written.
    fn writes_double(&self, dst: &Operand, i: usize) -> bool {
        self.dest_mask(dst) & (3 << (2 * i)) != 0
    }

    /// Whether result `i` of a per-double 32-bit destination is written.
    fn writes_result(&self, dst: &Operand, i: usize) -> bool {
        (self.dest_mask(dst).count_ones() as usize) > i
    }

    /// Writes word pairs to a 64-bit destination (`.xy` double 0, `.zw` double 1).
    fn write_words(&mut self, dst: &Operand, d: [Option<Words>; 2], sat: bool) -> Result<(), TranslateError> {
        let zero = self.lit_u(0);
        let mut words = [zero; 4];
        for (i, w) in d.into_iter().enumerate() {
            if let Some(mut w) = w {
                if sat {
                    w = self.soft_d(SoftFn::Saturate, &w);
                }
                words[2 * i] = w[0];
                words[2 * i + 1] = w[1];
            }
        }
        let ty = self.t.vec4u;
        let value = self.e(E::Compose { ty, components: words.to_vec() });
        self.write(dst, value, K::U, false)
    }

    /// Lowers one double-precision instruction to software function calls.
    fn double_soft(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let sat = saturate(ins);
        let (dst, a) = (self.op(ins, 0)?, self.op(ins, 1)?);
        match code {
            O::Dadd | O::Dmul | O::Ddiv | O::Dmin | O::Dmax => {
                let f = match code {
                    O::Dadd => SoftFn::Add,
                    O::Dmul => SoftFn::Mul,
                    O::Ddiv => SoftFn::Div,
                    O::Dmin => SoftFn::Min,
                    _ => SoftFn::Max,
                };
                let b = self.op(ins, 2)?;
                let x = self.read_words(a)?;
                let y = self.read_words(b)?;
                let mut r = [None; 2];
                for (i, slot) in r.iter_mut().enumerate() {
                    if self.writes_double(dst, i) {
                        *slot = Some(self.soft_d(f, &[x[i][0], x[i][1], y[i][0], y[i][1]]));
                    }
                }
                self.write_words(dst, r, sat)
            }
            O::Dfma => {
                let (b, c) = (self.op(ins, 2)?, self.op(ins, 3)?);
                let x = self.read_words(a)?;
                let y = self.read_words(b)?;
                let z = self.read_words(c)?;
                let mut r = [None; 2];
                for (i, slot) in r.iter_mut().enumerate() {
                    if self.writes_double(dst, i) {
                        let args = [x[i][0], x[i][1], y[i][0], y[i][1], z[i][0], z[i][1]];
                        *slot = Some(self.soft_d(SoftFn::Fma, &args));
                    }
                }
                self.write_words(dst, r, sat)
            }
            O::Drcp | O::Dmov => {
                let x = self.read_words(a)?;
                let mut r = [None; 2];
                for (i, slot) in r.iter_mut().enumerate() {
                    if self.writes_double(dst, i) {
                        *slot = Some(if code == O::Drcp { self.soft_d(SoftFn::Rcp, &x[i]) } else { x[i] });
                    }
                }
                self.write_words(dst, r, sat)
            }
            O::Dmovc => {
                let (b, c) = (self.op(ins, 2)?, self.op(ins, 3)?);
                let cond = self.read(a, K::U)?;
                let x = self.read_words(b)?;
                let y = self.read_words(c)?;
                let zero = self.lit_u(0);
                let mut r = [None; 2];
                for (i, slot) in r.iter_mut().enumerate() {
                    let ci = self.component(cond, i as u32);
                    let nz = self.bin(B::NotEqual, ci, zero);
                    let lo = self.select(nz, x[i][0], y[i][0]);
                    let hi = self.select(nz, x[i][1], y[i][1]);
                    *slot = Some([lo, hi]);
                }
                self.write_words(dst, r, sat)
            }
            O::Deq | O::Dne | O::Dlt | O::Dge => {
                let f = match code {
                    O::Deq => SoftFn::Eq,
                    O::Dne => SoftFn::Ne,
                    O::Dlt => SoftFn::Lt,
                    _ => SoftFn::Ge,
                };
                let b = self.op(ins, 2)?;
                let x = self.read_words(a)?;
                let y = self.read_words(b)?;
                let zero = self.lit_u(0);
                let mut r = [zero; 2];
                for (i, slot) in r.iter_mut().enumerate() {
                    if self.writes_result(dst, i) {
                        *slot = self.soft(f, &[x[i][0], x[i][1], y[i][0], y[i][1]])[0];
                    }
                }
                self.write_per_double(dst, r, K::U, false)
            }
            O::Dtof | O::Dtoi | O::Dtou => {
                let (f, k) = match code {
                    O::Dtof => (SoftFn::Dtof, K::F),
                    O::Dtoi => (SoftFn::Dtoi, K::I),
                    _ => (SoftFn::Dtou, K::U),
                };
                let x = self.read_words(a)?;
                let zero = self.lit_u(0);
                let mut r = [zero; 2];
                for (i, slot) in r.iter_mut().enumerate() {
                    if self.writes_result(dst, i) {
                        *slot = self.soft(f, &x[i])[0];
                    }
                    *slot = self.bitcast(*slot, K::U, k);
                }
                self.write_per_double(dst, r, k, sat && code == O::Dtof)
            }
            O::Ftod | O::Itod | O::Utod => {
                // 32-bit source: component i becomes double i.
                let (f, k) = match code {
                    O::Ftod => (SoftFn::Ftod, K::F),
                    O::Itod => (SoftFn::Itod, K::I),
                    _ => (SoftFn::Utod, K::U),
                };
                let v = self.read(a, k)?;
                let v = self.bitcast(v, k, K::U);
                let mut r = [None; 2];
                for (i, slot) in r.iter_mut().enumerate() {
                    if self.writes_double(dst, i) {
                        let c = self.component(v, i as u32);
                        *slot = Some(self.soft_d(f, &[c]));
                    }
                }
                self.write_words(dst, r, sat)
            }
            _ => crate::lower::malformed(format!("{} is not a double instruction", code.info().asm), at),
        }
    }
}
