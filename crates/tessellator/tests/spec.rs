//! The tessellator against counts derived here, independently, from the
//! Direct3D 11 rules (in `f64`, with no fixed point), and against invariants
//! any correct tessellation must hold.

use std::collections::HashSet;
use tessellator::{
    position, process_factors, tessellate, DomainPoint, OutputPrimitive, Partitioning, Patch, TessFactors, Tessellation,
};

const PARTS: [Partitioning; 4] = Partitioning::ALL;

// ---------------------------------------------------------------- the rules

fn range(p: Partitioning) -> (f64, f64) {
    match p {
        Partitioning::Integer | Partitioning::Pow2 => (1.0, 64.0),
        Partitioning::FractionalOdd => (1.0, 63.0),
        Partitioning::FractionalEven => (2.0, 64.0),
    }
}

fn clamp(p: Partitioning, f: f64) -> f64 {
    let (lo, hi) = range(p);
    if f.is_nan() {
        lo
    } else {
        f.clamp(lo, hi)
    }
}

/// Segments of a clamped factor.
fn segments(p: Partitioning, f: f64) -> u32 {
    let c = f.ceil() as u32;
    match p {
        Partitioning::Integer => c,
        Partitioning::Pow2 => {
            let mut n = 1;
            while n < c {
                n *= 2;
            }
            n
        }
        Partitioning::FractionalOdd => c + (c % 2 == 0) as u32,
        Partitioning::FractionalEven => c + (c % 2 == 1) as u32,
    }
}

/// Inside segments: with any factor above 1, an odd-parity inside factor is
/// just above 1 at least (the "picture frame").
fn inside_segments(p: Partitioning, f: f64, any_above_one: bool) -> u32 {
    let f = clamp(p, f);
    if p != Partitioning::FractionalEven && any_above_one && f <= 1.0 {
        return segments(p, 1.0 + 1e-6);
    }
    segments(p, f)
}

/// (points, primitives) the rules imply, for triangle output (lines for isolines).
fn expected(p: Partitioning, factors: &TessFactors) -> (usize, usize) {
    match *factors {
        TessFactors::Tri { edges, inside } => {
            let edges = edges.map(f64::from);
            if edges.iter().any(|&e| e.is_nan() || e <= 0.0) {
                return (0, 0);
            }
            let e: Vec<u32> = edges.iter().map(|&f| segments(p, clamp(p, f))).collect();
            let above = edges.iter().chain([&f64::from(inside)]).any(|&f| clamp(p, f) > 1.0);
            let n = inside_segments(p, f64::from(inside), above);
            if n == 1 {
                return (3, 1);
            }
            let outer: u32 = e.iter().sum();
            let (mut points, mut tris) = (outer as usize, 0usize);
            let mut prev_perimeter = outer;
            let mut k = 1;
            loop {
                let m = n - 2 * k;
                points += if m == 0 { 1 } else { 3 * m as usize };
                tris += (prev_perimeter + 3 * m) as usize;
                if m <= 1 {
                    tris += m as usize; // the innermost triangle
                    return (points, tris);
                }
                prev_perimeter = 3 * m;
                k += 1;
            }
        }
        TessFactors::Quad { edges, inside } => {
            let edges = edges.map(f64::from);
            if edges.iter().any(|&e| e.is_nan() || e <= 0.0) {
                return (0, 0);
            }
            let e: Vec<u32> = edges.iter().map(|&f| segments(p, clamp(p, f))).collect();
            let above = edges.iter().chain(&inside.map(f64::from)).any(|&f| clamp(p, f) > 1.0);
            let nu = inside_segments(p, f64::from(inside[0]), above);
            let nv = inside_segments(p, f64::from(inside[1]), above);
            if nu == 1 && nv == 1 {
                return (4, 2);
            }
            let outer: u32 = e.iter().sum();
            let (mut points, mut tris) = (outer as usize, 0usize);
            let mut prev_perimeter = outer;
            let mut k = 1;
            loop {
                let (a, b) = (nu - 2 * k, nv - 2 * k);
                points += match (a, b) {
                    (0, 0) => 1,
                    (0, x) | (x, 0) => x as usize + 1,
                    _ => 2 * (a + b) as usize,
                };
                tris += (prev_perimeter + 2 * (a + b)) as usize;
                if a.min(b) <= 1 {
                    if a.min(b) == 1 {
                        tris += 2 * (a * b) as usize; // the one-cell strip
                    }
                    return (points, tris);
                }
                prev_perimeter = 2 * (a + b);
                k += 1;
            }
        }
        TessFactors::Isoline { detail, density } => {
            let (detail, density) = (f64::from(detail), f64::from(density));
            if detail.is_nan() || density.is_nan() || detail <= 0.0 || density <= 0.0 {
                return (0, 0);
            }
            let d = segments(p, clamp(p, detail)) as usize;
            let lines = density.clamp(1.0, 64.0).ceil() as usize;
            (lines * (d + 1), lines * d)
        }
    }
}

/// The closed forms for a uniform segment count `n` everywhere. Quad: `n` rings
/// of shrinking rectangles hold the `(n + 1)²` points of the grid, two
/// triangles a cell. Tri: the rings have `3n, 3(n − 2), …` points down to a
/// centre point (even `n`) or a last triangle (odd `n`), so even `n` gives
/// `3n(n + 2)/4 + 1` points and odd `n` gives `3(n + 1)²/4` — not the
/// `(n + 1)(n + 2)/2` of a regular triangular grid, whose rings shrink by three
/// segments a side, not two. Triangles: `a + b` per facing pair of sides.
fn closed_form(domain: &str, n: usize) -> (usize, usize) {
    match domain {
        "quad" => ((n + 1) * (n + 1), 2 * n * n),
        "tri" if n % 2 == 0 => (3 * n * (n + 2) / 4 + 1, 3 * n * n / 2),
        "tri" => (3 * (n + 1) * (n + 1) / 4, 3 * (n * n - 1) / 2 + 1),
        _ => unreachable!(),
    }
}

/// A side's points from the rules, in f64: n − 2 segments of 1/f and two of
/// (f − (n − 2)) / 2f, placed symmetrically about the middle.
fn side_positions_f64(p: Partitioning, f: f64) -> Vec<f64> {
    // Factors are read in 16.16 fixed point, as Direct3D's tessellator does.
    let f = (clamp(p, f) * 65536.0).floor() / 65536.0;
    let n = segments(p, f);
    let f = match p {
        Partitioning::Integer | Partitioning::Pow2 => n as f64,
        _ => f,
    };
    if n == 1 {
        return vec![0.0, 1.0];
    }
    let short = (f - (n - 2) as f64) / (2.0 * f);
    let shorts = if n % 2 == 0 { [n / 2 - 1, n / 2] } else { [(n - 3) / 2, n.div_ceil(2)] };
    let mut t = vec![0.0];
    for s in 0..n {
        let len = if shorts.contains(&s) { short } else { 1.0 / f };
        t.push(t.last().unwrap() + len);
    }
    t
}

// ---------------------------------------------------------------- helpers

fn tri(e: [f32; 3], i: f32) -> TessFactors {
    TessFactors::Tri { edges: e, inside: i }
}
fn quad(e: [f32; 4], i: [f32; 2]) -> TessFactors {
    TessFactors::Quad { edges: e, inside: i }
}
fn iso(detail: f32, density: f32) -> TessFactors {
    TessFactors::Isoline { detail, density }
}

fn run(p: Partitioning, prim: OutputPrimitive, f: &TessFactors) -> Tessellation {
    tessellate(p, prim, f).unwrap()
}

fn main_primitive(f: &TessFactors) -> OutputPrimitive {
    match f {
        TessFactors::Isoline { .. } => OutputPrimitive::Line,
        _ => OutputPrimitive::TriangleCw,
    }
}

fn signed_area(pts: &[DomainPoint], t: &[u32]) -> f64 {
    let p = |i: u32| (f64::from(pts[i as usize].u), f64::from(pts[i as usize].v));
    let (a, b, c) = (p(t[0]), p(t[1]), p(t[2]));
    0.5 * ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0))
}

fn on_boundary(pt: &DomainPoint, is_tri: bool) -> bool {
    if is_tri {
        pt.u == 0.0 || pt.v == 0.0 || pt.w == 0.0
    } else {
        pt.u == 0.0 || pt.v == 0.0 || pt.u == 1.0 || pt.v == 1.0
    }
}

/// Everything a correct tessellation must satisfy.
fn check_invariants(p: Partitioning, f: &TessFactors, t: &Tessellation) {
    let ctx = format!("{p:?} {f:?}");
    let per = tessellator::vertices_per_primitive(t.primitive);
    assert_eq!(t.indices.len() % per, 0, "{ctx}");
    assert!(t.indices.iter().all(|&i| (i as usize) < t.points.len()), "index out of range: {ctx}");
    let mut bits: Vec<[u32; 3]> = t.points.iter().map(|q| [q.u.to_bits(), q.v.to_bits(), q.w.to_bits()]).collect();
    bits.sort_unstable();
    bits.dedup();
    assert_eq!(bits.len(), t.points.len(), "duplicate points: {ctx}");
    let is_tri = matches!(f, TessFactors::Tri { .. });
    for q in &t.points {
        for c in [q.u, q.v, q.w] {
            assert!((0.0..=1.0).contains(&c), "{q:?} {ctx}");
        }
        if is_tri {
            assert_eq!(q.u + q.v + q.w, 1.0, "barycentrics {q:?} {ctx}");
        } else {
            assert_eq!(q.w, 0.0);
        }
    }
    if per != 3 {
        return;
    }
    // Orientation and area.
    let mut area = 0.0;
    for tri in t.indices.chunks(3) {
        let a = signed_area(&t.points, tri);
        match t.primitive {
            OutputPrimitive::TriangleCw => assert!(a > 0.0, "degenerate or wrong winding {tri:?} {a}: {ctx}"),
            _ => assert!(a < 0.0, "degenerate or wrong winding {tri:?} {a}: {ctx}"),
        }
        area += a.abs();
    }
    let want = if is_tri { 0.5 } else { 1.0 };
    assert!((area - want).abs() < 1e-9, "area {area}: {ctx}");
    // Watertight: every edge used once in each direction at most; interior
    // edges twice (opposite ways), boundary edges once and on the boundary.
    let mut directed: Vec<(u32, u32)> =
        t.indices.chunks(3).flat_map(|tri| [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])]).collect();
    directed.sort_unstable();
    assert!(directed.windows(2).all(|w| w[0] != w[1]), "edge used twice the same way: {ctx}");
    let mut boundary_edges = 0;
    for &(a, b) in &directed {
        if directed.binary_search(&(b, a)).is_err() {
            boundary_edges += 1;
            let (pa, pb) = (&t.points[a as usize], &t.points[b as usize]);
            assert!(on_boundary(pa, is_tri) && on_boundary(pb, is_tri), "open edge inside the domain: {ctx}");
        }
    }
    let outer: u32 = match process_factors(p, f) {
        Patch::Tri { edges, inside } if inside.segments > 1 => edges.iter().map(|e| e.segments).sum(),
        Patch::Quad { edges, inside } if inside[0].segments > 1 || inside[1].segments > 1 => {
            edges.iter().map(|e| e.segments).sum()
        }
        Patch::Tri { .. } => 3,
        Patch::Quad { .. } => 4,
        _ => 0,
    };
    assert_eq!(boundary_edges, outer as usize, "{ctx}");
    let boundary_points = t.points.iter().filter(|q| on_boundary(q, is_tri)).count();
    assert_eq!(boundary_points, outer as usize, "{ctx}");
}

/// The parameters of the points on one outer edge, sorted. `edge` is the
/// SV_TessFactor index.
fn edge_params(t: &Tessellation, f: &TessFactors, edge: usize) -> Vec<u32> {
    let mut out: Vec<u32> = t
        .points
        .iter()
        .filter_map(|q| match (f, edge) {
            (TessFactors::Tri { .. }, 0) => (q.u == 0.0).then_some(q.v),
            (TessFactors::Tri { .. }, 1) => (q.v == 0.0).then_some(q.w),
            (TessFactors::Tri { .. }, _) => (q.w == 0.0).then_some(q.u),
            (TessFactors::Quad { .. }, 0) => (q.u == 0.0).then_some(q.v),
            (TessFactors::Quad { .. }, 1) => (q.v == 0.0).then_some(q.u),
            (TessFactors::Quad { .. }, 2) => (q.u == 1.0).then_some(q.v),
            (TessFactors::Quad { .. }, _) => (q.v == 1.0).then_some(q.u),
            _ => unreachable!(),
        })
        .map(f32::to_bits)
        .collect();
    out.sort_by(|a, b| f32::from_bits(*a).total_cmp(&f32::from_bits(*b)));
    out
}

/// A small deterministic generator (no dependency).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    /// A factor in quarter steps over [0.25, 70], exact in f32 and f64.
    fn factor(&mut self) -> f32 {
        (self.next() % 280 + 1) as f32 * 0.25
    }
}

// ---------------------------------------------------------------- tests

/// Every partitioning, domain and uniform factor from 1 to 64 (whole and half
/// steps): counts from the rules, the closed forms, and the invariants.
#[test]
fn uniform_factors_1_to_64() {
    let mut checked = 0;
    for p in PARTS {
        for step in 2..=128u32 {
            let x = step as f32 * 0.5;
            for (name, f) in [("tri", tri([x; 3], x)), ("quad", quad([x; 4], [x; 2])), ("iso", iso(x, x))] {
                let t = run(p, main_primitive(&f), &f);
                let got = (t.points.len(), t.primitive_count());
                assert_eq!(got, expected(p, &f), "{p:?} {name} {x}");
                if name != "iso" {
                    let n = segments(p, clamp(p, f64::from(x))) as usize;
                    assert_eq!(got, closed_form(name, n), "{p:?} {name} {x} (n = {n})");
                } else {
                    let d = segments(p, clamp(p, f64::from(x))) as usize;
                    let lines = x.ceil() as usize;
                    assert_eq!(got, (lines * (d + 1), lines * d), "{p:?} iso {x}");
                }
                check_invariants(p, &f, &t);
                assert_eq!(tessellator::counts(&process_factors(p, &f), main_primitive(&f)), got);
                let pts = run(p, OutputPrimitive::Point, &f);
                assert_eq!(pts.points, t.points);
                assert_eq!(pts.indices, (0..t.points.len() as u32).collect::<Vec<_>>());
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 127 * 3);
}

/// Spot values of the closed forms, computed by hand.
#[test]
fn hand_counted() {
    let c = |p, f: &TessFactors| {
        let t = run(p, main_primitive(f), f);
        (t.points.len(), t.primitive_count())
    };
    let int = Partitioning::Integer;
    assert_eq!(c(int, &quad([1.0; 4], [1.0; 2])), (4, 2));
    assert_eq!(c(int, &quad([2.0; 4], [2.0; 2])), (9, 8));
    assert_eq!(c(int, &quad([3.0; 4], [3.0; 2])), (16, 18));
    assert_eq!(c(int, &tri([1.0; 3], 1.0)), (3, 1));
    assert_eq!(c(int, &tri([2.0; 3], 2.0)), (7, 6));
    assert_eq!(c(int, &tri([3.0; 3], 3.0)), (12, 13));
    assert_eq!(c(int, &tri([4.0; 3], 4.0)), (19, 24));
    // Picture frame: edges 2, inside 1 → inside 2 (integer) / 3 (fractional odd).
    assert_eq!(c(int, &tri([2.0; 3], 1.0)), (7, 6));
    assert_eq!(c(Partitioning::FractionalOdd, &tri([1.0, 1.0, 1.5], 1.0)), (3 + 2 + 3, 5 + 3 + 1));
    // Pow2: 3 → 4, 5 → 8. Outer 16 points; ring 1 is 6 × 2 (16 points), ring 2 a
    // 4-segment line (5 points); 16 + 16 and 16 + 8 triangles.
    assert_eq!(c(Partitioning::Pow2, &quad([3.0; 4], [5.0, 3.0])), (37, 56));
    // Isolines: density 3 lines of detail 4.
    assert_eq!(c(int, &iso(4.0, 3.0)), (15, 12));
    assert_eq!(c(Partitioning::FractionalEven, &iso(1.0, 2.5)), (9, 6));
}

/// Non-uniform factors of every domain and partitioning.
#[test]
fn non_uniform_factors() {
    let mut rng = Lcg(0x5eed);
    for p in PARTS {
        for _ in 0..400 {
            let e = [rng.factor(), rng.factor(), rng.factor(), rng.factor()];
            let i = [rng.factor(), rng.factor()];
            for f in [tri([e[0], e[1], e[2]], i[0]), quad(e, i), iso(e[0], e[1])] {
                let t = run(p, main_primitive(&f), &f);
                assert_eq!((t.points.len(), t.primitive_count()), expected(p, &f), "{p:?} {f:?}");
                check_invariants(p, &f, &t);
                for prim in [main_primitive(&f), OutputPrimitive::Point] {
                    let t = run(p, prim, &f);
                    let c = tessellator::counts(&process_factors(p, &f), prim);
                    assert_eq!(c, (t.points.len(), t.primitive_count()), "counts() {p:?} {prim:?} {f:?}");
                }
            }
        }
        // Extremes and small values, including all ones but one.
        let picks = [1.0, 1.25, 2.0, 2.5, 3.0, 63.0, 63.5, 64.0, 100.0, f32::INFINITY, 0.5];
        for &a in &picks {
            for &b in &picks {
                for f in [
                    tri([1.0, a, 1.0], b),
                    tri([a, a, b], 1.0),
                    quad([1.0, 1.0, a, 1.0], [b, 1.0]),
                    quad([a, b, a, b], [1.0, b]),
                    quad([1.0; 4], [a, b]),
                    iso(a, b),
                ] {
                    let t = run(p, main_primitive(&f), &f);
                    assert_eq!((t.points.len(), t.primitive_count()), expected(p, &f), "{p:?} {f:?}");
                    check_invariants(p, &f, &t);
                }
            }
        }
    }
}

#[test]
fn culling_and_nan() {
    for p in PARTS {
        for bad in [0.0, -1.0, f32::NAN, -0.0, f32::NEG_INFINITY] {
            for f in [tri([2.0, bad, 3.0], 4.0), quad([2.0, 2.0, 2.0, bad], [4.0; 2]), iso(bad, 2.0), iso(2.0, bad)] {
                assert_eq!(process_factors(p, &f), Patch::Culled);
                let t = run(p, main_primitive(&f), &f);
                assert!(t.points.is_empty() && t.indices.is_empty(), "{p:?} {f:?}");
            }
        }
        // A NaN, zero or negative inside factor reads as the lower bound.
        let lo = range(p).0 as f32;
        for bad in [f32::NAN, 0.0, -5.0] {
            assert_eq!(
                run(p, OutputPrimitive::TriangleCw, &tri([3.0; 3], bad)),
                run(p, OutputPrimitive::TriangleCw, &tri([3.0; 3], lo))
            );
            assert_eq!(
                run(p, OutputPrimitive::TriangleCw, &quad([3.0; 4], [bad, 5.0])),
                run(p, OutputPrimitive::TriangleCw, &quad([3.0; 4], [lo, 5.0]))
            );
        }
    }
}

#[test]
fn primitive_domain_mismatch_is_an_error() {
    let p = Partitioning::Integer;
    assert!(tessellate(p, OutputPrimitive::Line, &tri([1.0; 3], 1.0)).is_err());
    assert!(tessellate(p, OutputPrimitive::Line, &quad([1.0; 4], [1.0; 2])).is_err());
    assert!(tessellate(p, OutputPrimitive::TriangleCw, &iso(1.0, 1.0)).is_err());
    assert!(tessellate(p, OutputPrimitive::TriangleCcw, &iso(1.0, 1.0)).is_err());
}

/// Outer-edge points lie exactly on the edge, at the rules' positions, are
/// symmetric (t ↔ 1 − t exactly), and depend on that edge's factor only: the
/// same factor gives the same points on any edge of any tri or quad patch.
#[test]
fn edges_exact_symmetric_and_crack_free() {
    let mut rng = Lcg(42);
    for p in PARTS {
        for step in 1..=140u32 {
            let x = step as f32 * 0.46;
            let reference = edge_params(
                &run(p, OutputPrimitive::TriangleCw, &quad([x, 1.0, 1.0, 1.0], [1.0; 2])),
                &quad([x, 1.0, 1.0, 1.0], [1.0; 2]),
                0,
            );
            // The rules' positions, in f64.
            let want = side_positions_f64(p, f64::from(x));
            assert_eq!(reference.len(), want.len(), "{p:?} {x}");
            for (got, want) in reference.iter().zip(&want) {
                assert!((f64::from(f32::from_bits(*got)) - want).abs() < 1e-6, "{p:?} {x}: {got} vs {want}");
            }
            // Symmetric, exactly.
            let set: HashSet<u32> = reference.iter().copied().collect();
            for &t in &reference {
                assert!(set.contains(&(1.0 - f32::from_bits(t)).to_bits()), "{p:?} {x}: asymmetric");
            }
            // Exactly the crate's fixed-point positions.
            if let Patch::Quad { edges, .. } = process_factors(p, &quad([x, 1.0, 1.0, 1.0], [1.0; 2])) {
                let fixed: Vec<u32> = (0..=edges[0].segments)
                    .map(|i| tessellator::coord_to_f32(position(edges[0], i)).to_bits())
                    .collect();
                assert_eq!(reference, fixed);
            }
            // Any edge of other patches with the same factor: same points.
            for _ in 0..4 {
                let o = [rng.factor(), rng.factor(), rng.factor(), rng.factor()];
                for edge in 0..4 {
                    let mut e = o;
                    e[edge] = x;
                    let f = quad(e, [rng.factor(), rng.factor()]);
                    let t = run(p, OutputPrimitive::TriangleCcw, &f);
                    assert_eq!(edge_params(&t, &f, edge), reference, "{p:?} quad edge {edge} {f:?}");
                }
                for edge in 0..3 {
                    let mut e = [o[0], o[1], o[2]];
                    e[edge] = x;
                    let f = tri(e, rng.factor());
                    let t = run(p, OutputPrimitive::TriangleCw, &f);
                    assert_eq!(edge_params(&t, &f, edge), reference, "{p:?} tri edge {edge} {f:?}");
                }
            }
        }
    }
}

/// cw and ccw give the same points and the same triangles, each reversed.
#[test]
fn cw_and_ccw_reverse_winding() {
    let mut rng = Lcg(7);
    for p in PARTS {
        for _ in 0..100 {
            let e = [rng.factor(), rng.factor(), rng.factor(), rng.factor()];
            for f in [tri([e[0], e[1], e[2]], e[3]), quad(e, [e[1], e[2]])] {
                let cw = run(p, OutputPrimitive::TriangleCw, &f);
                let ccw = run(p, OutputPrimitive::TriangleCcw, &f);
                assert_eq!(cw.points, ccw.points);
                assert_eq!(cw.indices.len(), ccw.indices.len());
                for (a, b) in cw.indices.chunks(3).zip(ccw.indices.chunks(3)) {
                    assert!(signed_area(&cw.points, a) > 0.0);
                    assert!(signed_area(&ccw.points, b) < 0.0);
                    let (mut sa, mut sb) = (a.to_vec(), b.to_vec());
                    sa.sort();
                    sb.sort();
                    assert_eq!(sa, sb);
                }
                check_invariants(p, &f, &ccw);
            }
        }
    }
}

/// Isolines: `density` lines at v = i / density, each along u like an edge.
#[test]
fn isoline_layout() {
    for p in PARTS {
        let f = iso(3.5, 4.0);
        let t = run(p, OutputPrimitive::Line, &f);
        let d = segments(p, clamp(p, 3.5)) as usize;
        let vs: Vec<f32> = t.points.chunks(d + 1).map(|line| line[0].v).collect();
        assert_eq!(vs, [0.0, 0.25, 0.5, 0.75]);
        for line in t.points.chunks(d + 1) {
            assert!(line.iter().all(|q| q.v == line[0].v));
            assert_eq!(line[0].u, 0.0);
            assert_eq!(line[d].u, 1.0);
            assert!(line.windows(2).all(|w| w[0].u < w[1].u));
        }
        for seg in t.indices.chunks(2) {
            assert_eq!(seg[1], seg[0] + 1);
        }
        // Density is integer-partitioned whatever the partitioning: 2.5 → 3 lines.
        let t = run(p, OutputPrimitive::Point, &iso(2.0, 2.5));
        assert_eq!(t.points.len() / (segments(p, clamp(p, 2.0)) as usize + 1), 3);
    }
}

/// Fractional factors move points continuously: a tiny change of the factor
/// (within one rounded segment count) moves no point far.
#[test]
fn fractional_points_move_continuously() {
    for p in [Partitioning::FractionalOdd, Partitioning::FractionalEven] {
        for step in 0..200u32 {
            let x = 2.1 + step as f32 * 0.3;
            let y = x + 0.001;
            let a = run(p, OutputPrimitive::TriangleCw, &quad([x; 4], [x; 2]));
            let b = run(p, OutputPrimitive::TriangleCw, &quad([y; 4], [y; 2]));
            if a.points.len() != b.points.len() {
                continue;
            }
            for (q, r) in a.points.iter().zip(&b.points) {
                assert!((q.u - r.u).abs() < 1e-3 && (q.v - r.v).abs() < 1e-3, "{p:?} {x}");
            }
        }
    }
}

/// The output is part of a contract: the compute port must reproduce it bit for
/// bit, so any change to a point or an index here is a change to that port
/// too. A checksum of every point's bits and every index over a fixed set of
/// patches guards it.
#[test]
fn output_is_frozen() {
    fn fnv(h: &mut u64, x: u32) {
        for b in x.to_le_bytes() {
            *h = (*h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for p in PARTS {
        for x in [1.0f32, 1.5, 2.0, 3.3, 4.0, 7.9, 17.25, 64.0] {
            for f in [tri([x, 2.0, 5.5], x), quad([x, 3.0, 1.0, 9.75], [x, 6.5]), iso(x, 3.0)] {
                let t = run(p, main_primitive(&f), &f);
                for q in &t.points {
                    fnv(&mut h, q.u.to_bits());
                    fnv(&mut h, q.v.to_bits());
                    fnv(&mut h, q.w.to_bits());
                }
                t.indices.iter().for_each(|&i| fnv(&mut h, i));
            }
        }
    }
    assert_eq!(h, 0x9603_d954_1f42_d230, "checksum {h:#x}");
}
