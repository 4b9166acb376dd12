//! [`Ops`] as naga IR: each software operation becomes one naga `Function`
//! (`fn f64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32>`), added to the
//! module the first time a shader uses it.

use super::{Ops, Shape, SoftFn};
use naga::{
    BinaryOperator as B, Expression as E, Function, FunctionArgument, FunctionResult, Handle, Literal, MathFunction,
    Module, Range, Scalar, ScalarKind, Span, Statement, Type, TypeInner, UnaryOperator, VectorSize,
};
use std::collections::BTreeMap;

type H = Handle<E>;

/// The software functions already in a module.
pub(crate) type Cache = BTreeMap<SoftFn, Handle<Function>>;

pub(crate) fn u32_ty(module: &mut Module) -> Handle<Type> {
    module.types.insert(Type { name: None, inner: TypeInner::Scalar(Scalar::U32) }, Span::UNDEFINED)
}

pub(crate) fn vec2u_ty(module: &mut Module) -> Handle<Type> {
    module.types.insert(
        Type { name: None, inner: TypeInner::Vector { size: VectorSize::Bi, scalar: Scalar::U32 } },
        Span::UNDEFINED,
    )
}

/// The type of a shape.
pub(crate) fn shape_ty(module: &mut Module, s: Shape) -> Handle<Type> {
    match s {
        Shape::Double => vec2u_ty(module),
        Shape::Word => u32_ty(module),
    }
}

/// The handle of `f` in `module`, building it (and what it calls) first.
pub(crate) fn function(module: &mut Module, cache: &mut Cache, f: SoftFn) -> Handle<Function> {
    if let Some(&h) = cache.get(&f) {
        return h;
    }
    let mut b = Build {
        module,
        cache,
        f: Function { name: Some(f.name().into()), ..Default::default() },
        emit_from: None,
        emit_last: None,
        literals: BTreeMap::new(),
        known: BTreeMap::new(),
        bools: BTreeMap::new(),
    };
    let mut words = Vec::new();
    for (i, &shape) in f.args().iter().enumerate() {
        let ty = shape_ty(b.module, shape);
        b.f.arguments.push(FunctionArgument { name: Some(["a", "b", "c"][i.min(2)].into()), ty, binding: None });
        let arg = b.e(E::FunctionArgument(i as u32));
        match shape {
            Shape::Double => {
                words.push(b.e(E::AccessIndex { base: arg, index: 0 }));
                words.push(b.e(E::AccessIndex { base: arg, index: 1 }));
            }
            Shape::Word => words.push(arg),
        }
    }
    let out = f.body(&mut b, &words);
    let ty = shape_ty(b.module, f.result());
    b.f.result = Some(FunctionResult { ty, binding: None });
    let value = match f.result() {
        Shape::Double => b.e(E::Compose { ty, components: out[..2].to_vec() }),
        Shape::Word => out[0],
    };
    b.flush();
    b.f.body.push(Statement::Return { value: Some(value) }, Span::UNDEFINED);
    let Build { module, cache, f: func, .. } = b;
    let h = module.functions.append(func, Span::UNDEFINED);
    cache.insert(f, h);
    h
}

/// Emits a call of `f` into `func`'s `block`-to-be: flushes nothing itself;
/// returns the call statement and the result expression.
pub(crate) fn call_statement(func: &mut Function, g: Handle<Function>, arguments: Vec<H>) -> (Statement, H) {
    let result = func.expressions.append(E::CallResult(g), Span::UNDEFINED);
    (Statement::Call { function: g, arguments, result: Some(result) }, result)
}

struct Build<'m> {
    module: &'m mut Module,
    cache: &'m mut Cache,
    f: Function,
    emit_from: Option<H>,
    emit_last: Option<H>,
    literals: BTreeMap<u32, H>,
    /// The u32 literals by handle: what [`Build::fold`] computes with.
    known: BTreeMap<H, u32>,
    /// The bool literals built, by value.
    bools: BTreeMap<bool, H>,
}

impl Build<'_> {
    fn e(&mut self, expr: E) -> H {
        let pre = expr.needs_pre_emit();
        if pre {
            self.flush();
        }
        let h = self.f.expressions.append(expr, Span::UNDEFINED);
        if !pre {
            self.emit_from.get_or_insert(h);
            self.emit_last = Some(h);
        }
        h
    }

    fn flush(&mut self) {
        if let (Some(a), Some(b)) = (self.emit_from.take(), self.emit_last.take()) {
            self.f.body.push(Statement::Emit(Range::new_from_bounds(a, b)), Span::UNDEFINED);
        }
    }

    fn bin(&mut self, op: B, left: H, right: H) -> H {
        self.e(E::Binary { op, left, right })
    }

    fn value(&self, h: H) -> Option<u32> {
        self.known.get(&h).copied()
    }

    fn truth(&self, h: H) -> Option<bool> {
        match self.f.expressions[h] {
            E::Literal(Literal::Bool(b)) => Some(b),
            _ => None,
        }
    }

    fn bool_literal(&mut self, v: bool) -> H {
        if let Some(&h) = self.bools.get(&v) {
            return h;
        }
        let h = self.e(E::Literal(Literal::Bool(v)));
        self.bools.insert(v, h);
        h
    }

    /// `op` on `a` and `b`, computed here when both are literals (`exact`
    /// says how, as the CPU form computes it) or when one operand decides
    /// it (`x + 0u` is `x`, `x & 0u` is `0u`): the helper functions are
    /// written once for every operand, and some of their steps take
    /// constants (a zero high word, a shift by 0).
    fn fold(&mut self, op: B, a: H, b: H, exact: fn(u32, u32) -> Option<u32>) -> H {
        let (x, y) = (self.value(a), self.value(b));
        if let (Some(x), Some(y)) = (x, y) {
            if let Some(v) = exact(x, y) {
                return self.k(v);
            }
        }
        match (op, x, y) {
            (B::Add | B::InclusiveOr | B::ExclusiveOr, Some(0), _) => b,
            (B::Add | B::Subtract | B::InclusiveOr | B::ExclusiveOr | B::ShiftLeft | B::ShiftRight, _, Some(0)) => a,
            (B::Multiply, Some(1), _) => b,
            (B::Multiply, _, Some(1)) => a,
            (B::And, Some(u32::MAX), _) => b,
            (B::And, _, Some(u32::MAX)) => a,
            (B::Multiply | B::And | B::ShiftLeft | B::ShiftRight, Some(0), _) | (B::Multiply | B::And, _, Some(0)) => {
                self.k(0)
            }
            (B::InclusiveOr, Some(u32::MAX), _) | (B::InclusiveOr, _, Some(u32::MAX)) => self.k(u32::MAX),
            _ => self.bin(op, a, b),
        }
    }

    /// A comparison, computed here when both operands are literals.
    fn compare(&mut self, op: B, a: H, b: H, exact: fn(u32, u32) -> bool) -> H {
        match (self.value(a), self.value(b)) {
            (Some(x), Some(y)) => self.bool_literal(exact(x, y)),
            _ => self.bin(op, a, b),
        }
    }
}

impl Ops for Build<'_> {
    type U = H;
    type B = H;
    fn k(&mut self, v: u32) -> H {
        if let Some(&h) = self.literals.get(&v) {
            return h;
        }
        let h = self.e(E::Literal(Literal::U32(v)));
        self.literals.insert(v, h);
        self.known.insert(h, v);
        h
    }
    fn add(&mut self, a: H, b: H) -> H {
        self.fold(B::Add, a, b, |x, y| Some(x.wrapping_add(y)))
    }
    fn sub(&mut self, a: H, b: H) -> H {
        self.fold(B::Subtract, a, b, |x, y| Some(x.wrapping_sub(y)))
    }
    fn mul(&mut self, a: H, b: H) -> H {
        self.fold(B::Multiply, a, b, |x, y| Some(x.wrapping_mul(y)))
    }
    fn and(&mut self, a: H, b: H) -> H {
        self.fold(B::And, a, b, |x, y| Some(x & y))
    }
    fn or(&mut self, a: H, b: H) -> H {
        self.fold(B::InclusiveOr, a, b, |x, y| Some(x | y))
    }
    fn xor(&mut self, a: H, b: H) -> H {
        self.fold(B::ExclusiveOr, a, b, |x, y| Some(x ^ y))
    }
    // A shift by 32 or more is left to the GPU, as written (the CPU form
    // refuses it): only in-range shifts are computed here.
    fn shl(&mut self, a: H, s: H) -> H {
        self.fold(B::ShiftLeft, a, s, |x, s| x.checked_shl(s))
    }
    fn shr(&mut self, a: H, s: H) -> H {
        self.fold(B::ShiftRight, a, s, |x, s| x.checked_shr(s))
    }
    fn clz(&mut self, a: H) -> H {
        match self.value(a) {
            Some(x) => self.k(x.leading_zeros()),
            None => {
                self.e(E::Math { fun: MathFunction::CountLeadingZeros, arg: a, arg1: None, arg2: None, arg3: None })
            }
        }
    }
    fn eq(&mut self, a: H, b: H) -> H {
        self.compare(B::Equal, a, b, |x, y| x == y)
    }
    fn lt(&mut self, a: H, b: H) -> H {
        self.compare(B::Less, a, b, |x, y| x < y)
    }
    fn slt(&mut self, a: H, b: H) -> H {
        if let (Some(x), Some(y)) = (self.value(a), self.value(b)) {
            return self.bool_literal((x as i32) < (y as i32));
        }
        let a = self.e(E::As { expr: a, kind: ScalarKind::Sint, convert: None });
        let b = self.e(E::As { expr: b, kind: ScalarKind::Sint, convert: None });
        self.bin(B::Less, a, b)
    }
    fn sel(&mut self, c: H, t: H, f: H) -> H {
        match self.truth(c) {
            Some(true) => t,
            Some(false) => f,
            None if t == f => t,
            None => self.e(E::Select { condition: c, accept: t, reject: f }),
        }
    }
    fn band(&mut self, a: H, b: H) -> H {
        match (self.truth(a), self.truth(b)) {
            (Some(false), _) | (_, Some(false)) => self.bool_literal(false),
            (Some(true), _) => b,
            (_, Some(true)) => a,
            _ => self.bin(B::LogicalAnd, a, b),
        }
    }
    fn bor(&mut self, a: H, b: H) -> H {
        match (self.truth(a), self.truth(b)) {
            (Some(true), _) | (_, Some(true)) => self.bool_literal(true),
            (Some(false), _) => b,
            (_, Some(false)) => a,
            _ => self.bin(B::LogicalOr, a, b),
        }
    }
    fn bnot(&mut self, a: H) -> H {
        match self.truth(a) {
            Some(v) => self.bool_literal(!v),
            None => self.e(E::Unary { op: UnaryOperator::LogicalNot, expr: a }),
        }
    }
    fn call(&mut self, g: SoftFn, args: &[H]) -> Vec<H> {
        let gh = function(self.module, self.cache, g);
        let mut arguments = Vec::new();
        let mut i = 0;
        for &shape in g.args() {
            match shape {
                Shape::Double => {
                    let ty = vec2u_ty(self.module);
                    arguments.push(self.e(E::Compose { ty, components: vec![args[i], args[i + 1]] }));
                    i += 2;
                }
                Shape::Word => {
                    arguments.push(args[i]);
                    i += 1;
                }
            }
        }
        self.flush();
        let (stmt, r) = call_statement(&mut self.f, gh, arguments);
        self.f.body.push(stmt, Span::UNDEFINED);
        match g.result() {
            Shape::Double => {
                vec![self.e(E::AccessIndex { base: r, index: 0 }), self.e(E::AccessIndex { base: r, index: 1 })]
            }
            Shape::Word => vec![r],
        }
    }
}
