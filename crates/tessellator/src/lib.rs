//! # tessellator — the Direct3D 11 fixed-function tessellator, in plain Rust
//!
//! Between the hull shader and the domain shader, Direct3D 11 runs a fixed
//! function: it reads the tessellation factors the hull shader's patch-constant
//! phase wrote (`SV_TessFactor`, `SV_InsideTessFactor`), and produces a set of
//! *domain points* — `(u, v)` for quads and isolines, barycentric `(u, v, w)`
//! for triangles — together with the primitives (points, lines or triangles)
//! that connect them. The domain shader then runs once per point.
//!
//! WebGPU has no such stage, so the explorer emulates it. This crate is the
//! one implementation of it: the compute-shader port (WGSL) is to mirror it
//! step for step and reproduce its output bit for bit, the DXBC interpreter
//! is to call it directly, and tests of the emulation can compare against it.
//!
//! ```
//! use tessellator::{tessellate, OutputPrimitive, Partitioning, TessFactors};
//!
//! // A quad with factor 3 everywhere: (3 + 1)² points, 2 · 3² triangles.
//! let factors = TessFactors::Quad { edges: [3.0; 4], inside: [3.0; 2] };
//! let t = tessellate(Partitioning::Integer, OutputPrimitive::TriangleCw, &factors).unwrap();
//! assert_eq!((t.points.len(), t.indices.len() / 3), (16, 18));
//! assert!(t.points.iter().all(|p| (0.0..=1.0).contains(&p.u) && (0.0..=1.0).contains(&p.v)));
//! ```
//!
//! ## The rules, in our words
//!
//! **Inputs.** A *domain* (tri, quad, isoline), a *partitioning* (integer,
//! pow2, fractional odd, fractional even), an *output primitive* (point, line,
//! clockwise or counter-clockwise triangle), and the patch's factors:
//! * tri: three edge factors and one inside factor. Edge `i` is the edge on
//!   which barycentric coordinate `i` is zero: `[0]` is `u == 0`, `[1]` is
//!   `v == 0`, `[2]` is `w == 0`;
//! * quad: four edge factors — `[0]` is `u == 0`, `[1]` is `v == 0`, `[2]` is
//!   `u == 1`, `[3]` is `v == 1` — and two inside factors, `[0]` for the
//!   number of segments along `u`, `[1]` along `v`;
//! * isoline: `SV_TessFactor[0]` is the line *density* (how many lines, stacked
//!   along `v`) and `SV_TessFactor[1]` the line *detail* (how many segments
//!   each line has along `u`); see [`TessFactors::isoline_from_sv`].
//!
//! **Culling.** If any edge factor (for isolines: density or detail) is not
//! greater than zero — zero, negative or NaN — the patch is discarded and
//! produces nothing. Inside factors never cull: NaN or too small reads as the
//! lower bound of the range.
//!
//! **Range and rounding.** Each factor is clamped to its partitioning's range
//! and rounded to a whole number of *segments*:
//!
//! | partitioning     | range    | segments                         |
//! |------------------|----------|----------------------------------|
//! | integer          | [1, 64]  | `ceil(f)`                        |
//! | pow2             | [1, 64]  | least power of two ≥ `ceil(f)`   |
//! | fractional_odd   | [1, 63]  | least odd number ≥ `f`           |
//! | fractional_even  | [2, 64]  | least even number ≥ `f`          |
//!
//! For integer and pow2 the rounded value *is* the factor: all segments have
//! the same length. For the fractional modes the factor keeps its fraction,
//! and it decides the segments' lengths (below). The isoline density is always
//! rounded like `integer`, whatever the partitioning (Vulkan's isolines, which
//! follow Direct3D's, say the same: equal spacing for the line count); the
//! detail follows the partitioning.
//!
//! **Inside factors.** The inside of a tri or quad patch is a set of nested
//! rings. The ring next to the edges has the inside factor's segment count
//! `n` per side; each ring further in has two segments fewer per side
//! (`n − 2`, `n − 4`, …). The innermost ring is a single point (`0`
//! segments), a line (a quad whose one dimension reached `0`), a single
//! triangle (tri, `1` segment), or a one-cell-wide strip of quads (quad, one
//! dimension `1`). For quads the `u` and `v` counts shrink independently.
//! For the odd-parity modes (integer, pow2 and fractional_odd, whose range
//! starts at 1) an inside factor of exactly 1 would leave no room for a ring,
//! so as soon as *any* factor of the patch (edge or inside) exceeds 1, each
//! inside factor is raised to at least `1 + 2⁻¹⁶`: it becomes 2 segments for
//! integer and pow2, 3 (with two vanishingly short ones) for fractional_odd —
//! the "picture frame". When every factor is exactly 1, the patch is the
//! bare domain: one triangle (tri) or two (quad) over the corners.
//!
//! **Points on a side.** A side with factor `f` rounded to `n` segments is cut
//! into `n − 2` *full* segments of length `1/f` and two *short* ones of
//! `(f − (n − 2)) / (2f)` each, which add up to 1 (when `f` is a whole number
//! of the right parity, all `n` are `1/f`). The short segments sit
//! symmetrically about the side's middle: for even `n` they are the two
//! middle segments, so a new pair of points grows out of the midpoint as `f`
//! rises past an even number; for odd `n` they flank the middle segment
//! (for `n = 3` they are the outer two, so new points grow out of the
//! corners as `f` rises past 1). The point set of a side is therefore
//! symmetric (`t ↔ 1 − t`), and it depends on that side's factor only, so two
//! patches that share an edge and agree on its factor put the same points on
//! it, whichever way each walks it: no cracks. An inner ring reuses the points
//! of the inside factor's partition: ring `k` runs from point `k` to point
//! `n − k`, which (for rings of two segments a side or more) is the partition
//! of a factor `f − 2k` over that span, so the short segments stay in the
//! middle of every ring. Vulkan, whose tessellator mirrors Direct3D's, leaves
//! the short segments' place implementation-defined as long as it is
//! symmetric and the same for equal factors; this crate's choice meets that.
//!
//! **Where a ring lies.** Quad ring `k` is the rectangle
//! `[u_k, u_{n_u − k}] × [v_k, v_{n_v − k}]` of the inside partitions. Tri ring
//! `k` is the triangle of points whose barycentrics are all at least
//! `d = 2·t_k / 3`, where `t_k` is partition point `k`: its sides then have
//! length `1 − 2·t_k`, exactly the span of partition points `k … n − k`, so
//! the inner rings' segments keep the outer rings' lengths.
//!
//! **Stitching.** Each side of a ring is joined to the matching side of the
//! next ring in by a strip of triangles: a side with `a` segments facing one
//! with `b` segments yields `a + b` triangles, made by walking both sides
//! together and always advancing the one whose next segment's midpoint comes
//! first (ties advance the outer side). Between two rings every triangle has
//! two points on one side and one on the other, so none is degenerate. The
//! innermost triangle or strip is filled the same way.
//!
//! **Winding.** Triangles are judged in the `(u, v)` plane with the origin at
//! the top left, `u` to the right and `v` down — the orientation in which
//! Direct3D's documentation calls the quad edge order `u == 0` (left),
//! `v == 0` (top), `u == 1`, `v == 1` clockwise, and Vulkan's default
//! upper-left tessellation origin. For tri patches the plane is spanned by
//! the `u` and `v` barycentrics. `triangle_cw` triangles are clockwise there (a positive
//! `(b − a) × (c − a)` in plain `(u, v)` numbers), `triangle_ccw` ones are the
//! same triangles with two indices swapped.
//!
//! **Isolines.** `density` lines at `v = i / density` (`i = 0 … density − 1`;
//! there is no line at `v = 1`), each cut along `u` by the detail factor like a
//! side (above). `line` output gives each segment as an index pair; `point`
//! output gives each point once.
//!
//! **Point output.** For `point` output every domain point is listed once, in
//! the order of [`Tessellation::points`].
//!
//! **Order.** Points are listed ring by ring from the outside in; within a
//! ring, from its first corner along each side in turn (quad: the `v = 0` side
//! from `u = 0`, then `u = 1`, then `v = 1`, then `u = 0`; tri: from the
//! `u = 1` corner to the `v = 1` corner, then to `w = 1`, then back). Isolines
//! list line by line, each from `u = 0`. Direct3D leaves the order of domain
//! points and primitives to the implementation; this one is fixed so that the
//! compute port can compute every point's index in closed form.
//!
//! ## Determinism and precision
//!
//! Everything after reading the factors is integer arithmetic, so a WGSL port
//! reproduces it bit for bit (WGSL's `f32` division is not correctly rounded,
//! and no transcendental function is used anywhere):
//! * A factor becomes 16.16 fixed point by `trunc(f · 65536)` — exact in
//!   `f32` for `f ≤ 64` — after clamping. Like Direct3D's own fixed-point
//!   tessellator, factors closer than `2⁻¹⁶` are therefore the same factor.
//!   This is the one place where precision matters: the clamp and the
//!   conversion must be done on the `f32` value exactly as here.
//! * A point of a side is the rational `N / (2·F)` (`F` the fixed-point
//!   factor, `N` a sum of whole full- and short-segment numerators, both at
//!   most 2²³), turned into a 0.24 fixed-point coordinate by `⌊N · 2²⁴ / 2F⌋`
//!   ([`div_frac24`], a 24-step division that needs only `u32`). Points past a
//!   side's middle are computed as `2²⁴ −` their mirror, so the symmetry is
//!   exact rather than approximate.
//! * Tri rings use `d = ⌊2·t_k / 3⌋` in the same 0.24 units, and `u = 1 − v − w`
//!   holds exactly in integers.
//! * A 0.24 coordinate converts to `f32` exactly (`q ≤ 2²⁴`, times `2⁻²⁴`),
//!   so barycentrics sum to exactly 1.0 in `f32`.
//! * NaN: WGSL lets an implementation assume that no NaN or infinity occurs,
//!   so its comparisons cannot be trusted to cull a NaN factor. The port must
//!   test the bits instead (`bitcast<u32>`: exponent all ones and a non-zero
//!   mantissa is NaN; sign bit set or all zero is `≤ 0`), then clamp a finite
//!   value.
//!
//! ## Design
//! * One pure function, [`tessellate`], over plain inputs and outputs (two
//!   vectors); no state, no dependencies beyond `std`.
//! * [`process_factors`] is public: the hull-shader emulation needs the
//!   rounded factors (and whether the patch is culled) before it generates a
//!   single point, and the compute port sizes its buffers from them
//!   ([`counts`]).
//! * The ring structure has closed-form counts per ring ([`counts`] walks
//!   them), so a compute port can give each ring, and each point of it, a
//!   fixed output slot: one invocation per patch sizes the output with
//!   [`counts`] and a prefix sum, then one invocation per ring (or per side)
//!   writes its points with [`position`] and its stitch with the same
//!   midpoint walk.
//!
//! ## Caveats
//! * The *counts* follow the rules above exactly. The placement of the two
//!   short segments within a fractional side and the order of stitching are
//!   this crate's own choice (symmetric, crack-free, deterministic); real
//!   hardware places them by its own pattern, so domain points of fractional
//!   patches can differ from a GPU's, though never in number.
//! * `pow2` rounds up to a power of two here. The shader-model 5 assembly
//!   reference notes that hardware treats pow2 like integer and leaves the
//!   rounding to the hull shader (the HLSL `Process*TessFactors*` helpers do
//!   it); for factors the hull shader already rounded, both readings agree.
//!   [`round_fixed`] is the one place to change if hardware parity wins.
//! * The picture-frame rule (which factors count as "above 1") and the
//!   winding convention are our reading of the rules, not yet checked against
//!   a Direct3D device; the vkd3d tessellation tests run through the
//!   emulation are the check to come.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod wgsl;

/// Fractional bits of a fixed-point tessellation factor (16.16).
pub const FACTOR_FRAC_BITS: u32 = 16;
/// 1.0 as a fixed-point tessellation factor.
pub const FACTOR_ONE: u32 = 1 << FACTOR_FRAC_BITS;
/// Fractional bits of a fixed-point domain coordinate (0.24).
pub const COORD_FRAC_BITS: u32 = 24;
/// 1.0 as a fixed-point domain coordinate.
pub const COORD_ONE: u32 = 1 << COORD_FRAC_BITS;
/// The largest tessellation factor.
pub const MAX_FACTOR: f32 = 64.0;

/// The patch domain (`dcl_tessellator_domain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// Triangle patch; points are barycentric `(u, v, w)`.
    Tri,
    /// Quad patch; points are `(u, v)`.
    Quad,
    /// Isoline patch; points are `(u, v)`.
    Isoline,
}

/// The partitioning (`dcl_tessellator_partitioning`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partitioning {
    /// Whole segments: `ceil(f)` in [1, 64].
    Integer,
    /// A power-of-two number of whole segments in [1, 64].
    Pow2,
    /// An odd number of segments in [1, 63], two of them shorter.
    FractionalOdd,
    /// An even number of segments in [2, 64], two of them shorter.
    FractionalEven,
}

impl Partitioning {
    /// All four, for iteration.
    pub const ALL: [Partitioning; 4] =
        [Partitioning::Integer, Partitioning::Pow2, Partitioning::FractionalOdd, Partitioning::FractionalEven];

    /// The clamping range of a factor.
    pub fn range(self) -> (f32, f32) {
        match self {
            Partitioning::Integer | Partitioning::Pow2 => (1.0, 64.0),
            Partitioning::FractionalOdd => (1.0, 63.0),
            Partitioning::FractionalEven => (2.0, 64.0),
        }
    }

    /// Whether the range starts at 1 (integer, pow2, fractional_odd): these
    /// raise an inside factor of 1 when anything else in the patch exceeds 1.
    pub fn odd_parity(self) -> bool {
        !matches!(self, Partitioning::FractionalEven)
    }
}

/// The output primitive (`dcl_tessellator_output_primitive`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputPrimitive {
    /// Every domain point once.
    Point,
    /// Line segments (isoline domain only).
    Line,
    /// Clockwise triangles (tri and quad domains).
    TriangleCw,
    /// Counter-clockwise triangles (tri and quad domains).
    TriangleCcw,
}

/// A patch's tessellation factors, as the hull shader writes them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TessFactors {
    /// `SV_TessFactor[3]` (edges `u == 0`, `v == 0`, `w == 0`) and `SV_InsideTessFactor`.
    Tri {
        /// Edge factors.
        edges: [f32; 3],
        /// Inside factor.
        inside: f32,
    },
    /// `SV_TessFactor[4]` (edges `u == 0`, `v == 0`, `u == 1`, `v == 1`) and `SV_InsideTessFactor[2]` (`u`, `v`).
    Quad {
        /// Edge factors.
        edges: [f32; 4],
        /// Inside factors along `u` and `v`.
        inside: [f32; 2],
    },
    /// The isoline factors.
    Isoline {
        /// Segments per line (along `u`); `SV_TessFactor[1]`.
        detail: f32,
        /// Number of lines (along `v`); `SV_TessFactor[0]`.
        density: f32,
    },
}

impl TessFactors {
    /// The isoline factors from the hull shader's `SV_TessFactor[2]`: `[0]` is
    /// the line density, `[1]` the line detail.
    pub fn isoline_from_sv(tess_factor: [f32; 2]) -> Self {
        TessFactors::Isoline { density: tess_factor[0], detail: tess_factor[1] }
    }

    /// The domain these factors belong to.
    pub fn domain(&self) -> Domain {
        match self {
            TessFactors::Tri { .. } => Domain::Tri,
            TessFactors::Quad { .. } => Domain::Quad,
            TessFactors::Isoline { .. } => Domain::Isoline,
        }
    }
}

/// One processed factor: its 16.16 fixed-point value after clamping (and, for
/// integer and pow2, rounding) and its number of segments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Factor {
    /// The factor in 16.16 fixed point; decides the segment lengths.
    pub fixed: u32,
    /// The number of segments.
    pub segments: u32,
}

/// A patch's factors after culling, clamping and rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Patch {
    /// An edge factor (or isoline factor) was ≤ 0 or NaN: no output.
    Culled,
    /// A tri patch. `inside.segments == 1` only when every factor is 1.
    Tri {
        /// Edge factors (`u == 0`, `v == 0`, `w == 0`).
        edges: [Factor; 3],
        /// Inside factor.
        inside: Factor,
    },
    /// A quad patch. `inside` segments are 1 only when every factor is 1.
    Quad {
        /// Edge factors (`u == 0`, `v == 0`, `u == 1`, `v == 1`).
        edges: [Factor; 4],
        /// Inside factors along `u` and `v`.
        inside: [Factor; 2],
    },
    /// An isoline patch.
    Isoline {
        /// Segments per line.
        detail: Factor,
        /// Number of lines.
        density: Factor,
    },
}

/// Why a tessellation request is invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TessError {
    /// Lines need the isoline domain; triangles need tri or quad.
    PrimitiveNotForDomain {
        /// The domain of the factors.
        domain: Domain,
        /// The requested primitive.
        primitive: OutputPrimitive,
    },
}

impl std::fmt::Display for TessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TessError::PrimitiveNotForDomain { domain, primitive } => {
                write!(f, "output primitive {primitive:?} is not valid for the {domain:?} domain")
            }
        }
    }
}

impl std::error::Error for TessError {}

/// A domain point. For quads and isolines `w` is 0; for tris `u + v + w == 1`
/// exactly. `repr(C)`: three `f32`s, ready to upload.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct DomainPoint {
    /// `u` (barycentric for tris).
    pub u: f32,
    /// `v` (barycentric for tris).
    pub v: f32,
    /// `w` (barycentric for tris; 0 otherwise).
    pub w: f32,
}

/// The tessellator's output for one patch.
#[derive(Clone, Debug, PartialEq)]
pub struct Tessellation {
    /// The domain points, each once.
    pub points: Vec<DomainPoint>,
    /// Indices into `points`: one per point, two per line, three per triangle.
    pub indices: Vec<u32>,
    /// The primitive the indices form.
    pub primitive: OutputPrimitive,
}

impl Tessellation {
    /// Number of output primitives.
    pub fn primitive_count(&self) -> usize {
        self.indices.len() / vertices_per_primitive(self.primitive)
    }
}

/// Indices per primitive: 1, 2 or 3.
pub fn vertices_per_primitive(primitive: OutputPrimitive) -> usize {
    match primitive {
        OutputPrimitive::Point => 1,
        OutputPrimitive::Line => 2,
        OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw => 3,
    }
}

/// Clamp an inside factor: NaN and anything below the range read as the lower bound.
fn clamp_inside(f: f32, (lo, hi): (f32, f32)) -> f32 {
    if f >= lo {
        f.min(hi)
    } else {
        lo
    }
}

/// Clamp an edge factor, or `None` when it culls the patch (≤ 0 or NaN).
fn clamp_edge(f: f32, (lo, hi): (f32, f32)) -> Option<f32> {
    if f > 0.0 {
        Some(f.max(lo).min(hi))
    } else {
        None
    }
}

/// A clamped factor to 16.16 fixed point: `trunc(f · 2¹⁶)`, exact for `f ≤ 64`.
pub fn to_fixed(clamped: f32) -> u32 {
    (clamped * FACTOR_ONE as f32) as u32
}

/// Round a clamped fixed-point factor to its segments.
pub fn round_fixed(partitioning: Partitioning, fixed: u32) -> Factor {
    let ceil = fixed.div_ceil(FACTOR_ONE);
    match partitioning {
        Partitioning::Integer => Factor { fixed: ceil * FACTOR_ONE, segments: ceil },
        Partitioning::Pow2 => {
            let n = ceil.next_power_of_two();
            Factor { fixed: n * FACTOR_ONE, segments: n }
        }
        Partitioning::FractionalOdd => Factor { fixed, segments: if ceil % 2 == 0 { ceil + 1 } else { ceil } },
        Partitioning::FractionalEven => Factor { fixed, segments: if ceil % 2 == 1 { ceil + 1 } else { ceil } },
    }
}

/// Cull, clamp and round a patch's factors (see the module documentation).
pub fn process_factors(partitioning: Partitioning, factors: &TessFactors) -> Patch {
    let range = partitioning.range();
    let edge = |f: f32| clamp_edge(f, range).map(to_fixed);
    // The "picture frame": with any factor above 1, inside factors of the
    // odd-parity modes are at least 1 + 2⁻¹⁶.
    let inside = |fixed: u32, any_above_one: bool| {
        let fixed = if partitioning.odd_parity() && any_above_one { fixed.max(FACTOR_ONE + 1) } else { fixed };
        round_fixed(partitioning, fixed)
    };
    match *factors {
        TessFactors::Tri { edges, inside: i } => {
            let (Some(e0), Some(e1), Some(e2)) = (edge(edges[0]), edge(edges[1]), edge(edges[2])) else {
                return Patch::Culled;
            };
            let fi = to_fixed(clamp_inside(i, range));
            let above = [e0, e1, e2, fi].iter().any(|&x| x > FACTOR_ONE);
            Patch::Tri { edges: [e0, e1, e2].map(|e| round_fixed(partitioning, e)), inside: inside(fi, above) }
        }
        TessFactors::Quad { edges, inside: i } => {
            let (Some(e0), Some(e1), Some(e2), Some(e3)) =
                (edge(edges[0]), edge(edges[1]), edge(edges[2]), edge(edges[3]))
            else {
                return Patch::Culled;
            };
            let fu = to_fixed(clamp_inside(i[0], range));
            let fv = to_fixed(clamp_inside(i[1], range));
            let above = [e0, e1, e2, e3, fu, fv].iter().any(|&x| x > FACTOR_ONE);
            Patch::Quad {
                edges: [e0, e1, e2, e3].map(|e| round_fixed(partitioning, e)),
                inside: [inside(fu, above), inside(fv, above)],
            }
        }
        TessFactors::Isoline { detail, density } => {
            let (Some(detail), Some(density)) = (edge(detail), clamp_edge(density, (1.0, MAX_FACTOR)).map(to_fixed))
            else {
                return Patch::Culled;
            };
            Patch::Isoline {
                detail: round_fixed(partitioning, detail),
                density: round_fixed(Partitioning::Integer, density),
            }
        }
    }
}

/// `⌊num · 2²⁴ / den⌋` for `num ≤ den ≤ 2²⁵`, with `u32` arithmetic only
/// (the compute port does exactly this).
pub fn div_frac24(num: u32, den: u32) -> u32 {
    debug_assert!(num <= den && den <= 1 << 25 && den > 0);
    let mut q = num / den;
    let mut r = num % den;
    for _ in 0..COORD_FRAC_BITS {
        r <<= 1;
        q <<= 1;
        if r >= den {
            r -= den;
            q |= 1;
        }
    }
    q
}

/// The indices of the two short segments of an `n`-segment fractional side
/// (meaningless for `n == 1`).
fn short_segments(n: u32) -> (u32, u32) {
    // Even: the two middle segments. Odd: the two either side of the middle one.
    if n % 2 == 0 {
        (n / 2 - 1, n / 2)
    } else {
        (n / 2 - 1, n / 2 + 1)
    }
}

/// Numerator of point `i` (over the denominator `2·fixed`).
fn numerator(f: Factor, i: u32) -> u32 {
    let n = f.segments;
    if n == 1 {
        return i * 2 * f.fixed;
    }
    let short = f.fixed - (n - 2) * FACTOR_ONE;
    let (s0, s1) = short_segments(n);
    let shorts = u32::from(i > s0) + u32::from(i > s1);
    2 * (i - shorts) * FACTOR_ONE + shorts * short
}

/// Point `i` (`0 ≤ i ≤ segments`) of a side with factor `f`, as a 0.24
/// fixed-point coordinate. `position(f, n − i) == COORD_ONE − position(f, i)`
/// exactly.
pub fn position(f: Factor, i: u32) -> u32 {
    let n = f.segments;
    debug_assert!(i <= n);
    let den = 2 * f.fixed;
    if 2 * i <= n {
        div_frac24(numerator(f, i), den)
    } else {
        COORD_ONE - div_frac24(numerator(f, n - i), den)
    }
}

/// A 0.24 fixed-point coordinate as `f32` (exact).
pub fn coord_to_f32(q: u32) -> f32 {
    q as f32 * (1.0 / COORD_ONE as f32)
}

/// Point and primitive counts of a patch, for sizing buffers, in closed form
/// (ring by ring, without generating anything). The primitive count is that
/// of `primitive`: points, line segments or triangles.
pub fn counts(patch: &Patch, primitive: OutputPrimitive) -> (usize, usize) {
    let (points, tris, lines) = match *patch {
        Patch::Culled => (0, 0, 0),
        Patch::Tri { inside, .. } if inside.segments == 1 => (3, 1, 0),
        Patch::Quad { inside: [fu, fv], .. } if fu.segments == 1 && fv.segments == 1 => (4, 2, 0),
        Patch::Tri { edges, inside } => {
            let outer: u32 = edges.iter().map(|e| e.segments).sum();
            let (mut points, mut tris, mut prev) = (outer, 0, outer);
            let mut k = 1;
            loop {
                let m = inside.segments - 2 * k;
                // A ring of m segments a side has 3m points (one when m is 0),
                // and a stitch gives one triangle per segment on either side.
                points += if m == 0 { 1 } else { 3 * m };
                tris += prev + 3 * m;
                if m <= 1 {
                    break (points, tris + m, 0);
                }
                prev = 3 * m;
                k += 1;
            }
        }
        Patch::Quad { edges, inside: [fu, fv] } => {
            let outer: u32 = edges.iter().map(|e| e.segments).sum();
            let (mut points, mut tris, mut prev) = (outer, 0, outer);
            let mut k = 1;
            loop {
                let (a, b) = (fu.segments - 2 * k, fv.segments - 2 * k);
                points += match (a, b) {
                    (0, 0) => 1,
                    (0, x) | (x, 0) => x + 1,
                    _ => 2 * (a + b),
                };
                tris += prev + 2 * (a + b);
                if a.min(b) == 0 {
                    break (points, tris, 0);
                }
                if a.min(b) == 1 {
                    break (points, tris + 2 * a * b, 0);
                }
                prev = 2 * (a + b);
                k += 1;
            }
        }
        Patch::Isoline { detail, density } => {
            (density.segments * (detail.segments + 1), 0, density.segments * detail.segments)
        }
    };
    let prims = match primitive {
        OutputPrimitive::Point => points,
        OutputPrimitive::Line => lines,
        OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw => tris,
    };
    (points as usize, prims as usize)
}

/// Tessellate one patch. The domain is that of `factors`.
pub fn tessellate(
    partitioning: Partitioning,
    primitive: OutputPrimitive,
    factors: &TessFactors,
) -> Result<Tessellation, TessError> {
    let domain = factors.domain();
    let valid = match primitive {
        OutputPrimitive::Point => true,
        OutputPrimitive::Line => domain == Domain::Isoline,
        OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw => domain != Domain::Isoline,
    };
    if !valid {
        return Err(TessError::PrimitiveNotForDomain { domain, primitive });
    }
    let patch = process_factors(partitioning, factors);
    let raw = generate(&patch);
    let indices = match primitive {
        OutputPrimitive::Point => (0..raw.points.len() as u32).collect(),
        OutputPrimitive::Line => raw.lines.iter().flatten().copied().collect(),
        OutputPrimitive::TriangleCw => raw.tris.iter().flatten().copied().collect(),
        OutputPrimitive::TriangleCcw => raw.tris.iter().flat_map(|t| [t[0], t[2], t[1]]).collect(),
    };
    Ok(Tessellation { points: raw.points, indices, primitive })
}

/// The generator's raw output: points, and triangles (positive orientation in
/// plain `(u, v)` numbers: clockwise with `v` down) or lines.
struct Raw {
    points: Vec<DomainPoint>,
    tris: Vec<[u32; 3]>,
    lines: Vec<[u32; 2]>,
}

impl Raw {
    fn point(&mut self, u: u32, v: u32, w: u32) -> u32 {
        self.points.push(DomainPoint { u: coord_to_f32(u), v: coord_to_f32(v), w: coord_to_f32(w) });
        (self.points.len() - 1) as u32
    }

    /// Join side `outer` to the side `inner` on its left (with `v` up; on its
    /// right with `v` down) running the same way: `a + b` triangles.
    fn stitch(&mut self, outer: &[u32], inner: &[u32]) {
        let a = outer.len() as u32 - 1;
        let b = inner.len() as u32 - 1;
        let (mut i, mut j) = (0u32, 0u32);
        while i < a || j < b {
            // Advance the side whose next segment's midpoint comes first.
            let advance_outer = j == b || (i < a && (2 * i + 1) * b <= (2 * j + 1) * a);
            if advance_outer {
                self.tris.push([outer[i as usize], outer[i as usize + 1], inner[j as usize]]);
                i += 1;
            } else {
                self.tris.push([outer[i as usize], inner[j as usize + 1], inner[j as usize]]);
                j += 1;
            }
        }
    }
}

fn generate(patch: &Patch) -> Raw {
    let mut raw = Raw { points: Vec::new(), tris: Vec::new(), lines: Vec::new() };
    match *patch {
        Patch::Culled => {}
        Patch::Tri { edges, inside } => tri(&mut raw, edges, inside),
        Patch::Quad { edges, inside } => quad(&mut raw, edges, inside),
        Patch::Isoline { detail, density } => isoline(&mut raw, detail, density),
    }
    raw
}

/// Emit a closed ring whose sides each have at least one segment. `side(s, l)`
/// is point `l` (`0 ≤ l ≤ segments[s]`) of side `s`; a side's last point is
/// the next side's first. Returns each side's point indices.
fn closed_ring(raw: &mut Raw, segments: &[u32], side: impl Fn(usize, u32) -> (u32, u32, u32)) -> Vec<Vec<u32>> {
    let first = {
        let (u, v, w) = side(0, 0);
        raw.point(u, v, w)
    };
    let mut sides = Vec::with_capacity(segments.len());
    let mut start = first;
    for (s, &m) in segments.iter().enumerate() {
        let mut poly = vec![start];
        for l in 1..=m {
            if s + 1 == segments.len() && l == m {
                poly.push(first);
            } else {
                let (u, v, w) = side(s, l);
                poly.push(raw.point(u, v, w));
            }
        }
        start = *poly.last().unwrap();
        sides.push(poly);
    }
    sides
}

fn quad(raw: &mut Raw, edges: [Factor; 4], inside: [Factor; 2]) {
    let [fu, fv] = inside;
    if fu.segments == 1 && fv.segments == 1 {
        let c = [(0, 0), (COORD_ONE, 0), (COORD_ONE, COORD_ONE), (0, COORD_ONE)].map(|(u, v)| raw.point(u, v, 0));
        raw.tris.push([c[0], c[1], c[2]]);
        raw.tris.push([c[0], c[2], c[3]]);
        return;
    }
    // Outer ring: v = 0 (edge 1), u = 1 (edge 2), v = 1 (edge 3), u = 0 (edge 0).
    let e = [edges[1], edges[2], edges[3], edges[0]];
    let segs = e.map(|f| f.segments);
    let mut prev = closed_ring(raw, &segs, |s, l| {
        let f = e[s];
        let n = f.segments;
        match s {
            0 => (position(f, l), 0, 0),
            1 => (COORD_ONE, position(f, l), 0),
            2 => (position(f, n - l), COORD_ONE, 0),
            _ => (0, position(f, n - l), 0),
        }
    });
    let (nu, nv) = (fu.segments, fv.segments);
    let mut k = 1;
    loop {
        let a = nu - 2 * k;
        let b = nv - 2 * k;
        let ring = quad_inner_ring(raw, fu, fv, k);
        for s in 0..4 {
            raw.stitch(&prev[s], &ring[s]);
        }
        if a == 0 || b == 0 {
            return;
        }
        if a == 1 {
            // A strip one cell wide: the u = 1 side (upwards) against the u = 0 side.
            let left: Vec<u32> = ring[3].iter().rev().copied().collect();
            raw.stitch(&ring[1], &left);
            return;
        }
        if b == 1 {
            let top: Vec<u32> = ring[2].iter().rev().copied().collect();
            raw.stitch(&ring[0], &top);
            return;
        }
        prev = ring;
        k += 1;
    }
}

/// Quad ring `k ≥ 1`: the inside partitions' grid points `(k + i, k + j)` on
/// the rectangle's boundary, each once even when the ring is a line or a point.
fn quad_inner_ring(raw: &mut Raw, fu: Factor, fv: Factor, k: u32) -> Vec<Vec<u32>> {
    let a = fu.segments - 2 * k;
    let b = fv.segments - 2 * k;
    let u = |i: u32| position(fu, k + i);
    let v = |j: u32| position(fv, k + j);
    if a == 0 || b == 0 {
        // A line (or a single point), walked there and back.
        let line: Vec<u32> = if a == 0 {
            (0..=b).map(|j| raw.point(u(0), v(j), 0)).collect()
        } else {
            (0..=a).map(|i| raw.point(u(i), v(0), 0)).collect()
        };
        let back: Vec<u32> = line.iter().rev().copied().collect();
        let (first, last) = (line[0], line[line.len() - 1]);
        return if a == 0 {
            vec![vec![first], line, vec![last], back]
        } else {
            vec![line, vec![last], back, vec![first]]
        };
    }
    closed_ring(raw, &[a, b, a, b], |s, l| match s {
        0 => (u(l), v(0), 0),
        1 => (u(a), v(l), 0),
        2 => (u(a - l), v(b), 0),
        _ => (u(0), v(b - l), 0),
    })
}

/// A point on a side of tri ring `d` running from the corner where barycentric
/// `x` is largest to the one where `y` is, `s` along it from the start (or,
/// `from_end`, from the end); the third barycentric is `d`. Returns (x, y, z).
fn tri_side_point(d: u32, s: u32, from_end: bool) -> (u32, u32, u32) {
    let far = COORD_ONE - 2 * d - s;
    let near = d + s;
    if from_end {
        (near, far, d)
    } else {
        (far, near, d)
    }
}

/// Reorder (x, y, z) of side `s` (U→V, V→W, W→U) into (u, v, w).
fn tri_uvw(s: usize, (x, y, z): (u32, u32, u32)) -> (u32, u32, u32) {
    match s {
        0 => (x, y, z),
        1 => (z, x, y),
        _ => (y, z, x),
    }
}

fn tri(raw: &mut Raw, edges: [Factor; 3], inside: Factor) {
    if inside.segments == 1 {
        let c = [(COORD_ONE, 0, 0), (0, COORD_ONE, 0), (0, 0, COORD_ONE)].map(|(u, v, w)| raw.point(u, v, w));
        raw.tris.push(c);
        return;
    }
    // Outer ring: U→V on w == 0 (edge 2), V→W on u == 0 (edge 0), W→U on v == 0 (edge 1).
    let e = [edges[2], edges[0], edges[1]];
    let segs = e.map(|f| f.segments);
    let mut prev = closed_ring(raw, &segs, |s, l| {
        let f = e[s];
        tri_uvw(s, (position(f, f.segments - l), position(f, l), 0))
    });
    let n = inside.segments;
    let mut k = 1;
    loop {
        let m = n - 2 * k;
        let tk = position(inside, k);
        let d = 2 * tk / 3;
        let ring = if m == 0 {
            let c = raw.point(COORD_ONE - 2 * d, d, d);
            vec![vec![c]; 3]
        } else {
            closed_ring(raw, &[m; 3], |s, l| {
                let p = if 2 * l <= m {
                    tri_side_point(d, position(inside, k + l) - tk, false)
                } else {
                    tri_side_point(d, position(inside, k + m - l) - tk, true)
                };
                tri_uvw(s, p)
            })
        };
        for s in 0..3 {
            raw.stitch(&prev[s], &ring[s]);
        }
        if m == 0 {
            return;
        }
        if m == 1 {
            raw.tris.push([ring[0][0], ring[1][0], ring[2][0]]);
            return;
        }
        prev = ring;
        k += 1;
    }
}

fn isoline(raw: &mut Raw, detail: Factor, density: Factor) {
    let lines = density.segments;
    let n = detail.segments;
    for i in 0..lines {
        let v = div_frac24(i, lines);
        let first = raw.points.len() as u32;
        for l in 0..=n {
            raw.point(position(detail, l), v, 0);
        }
        for l in 0..n {
            raw.lines.push([first + l, first + l + 1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div_frac24_matches_wide_arithmetic() {
        let dens = [1u32, 2, 3, 7, 64, 131_074, 1 << 23, (1 << 23) - 5, 3 * (1 << 23)];
        for &den in &dens {
            for num in [0, 1, den / 3, den / 2, den - 1, den] {
                let wide = ((u64::from(num)) << 24) / u64::from(den);
                assert_eq!(u64::from(div_frac24(num, den)), wide, "{num}/{den}");
            }
        }
    }

    #[test]
    fn rounding_table() {
        let r = |p, f: f32| round_fixed(p, to_fixed(f)).segments;
        assert_eq!(r(Partitioning::Integer, 3.2), 4);
        assert_eq!(r(Partitioning::Pow2, 5.0), 8);
        assert_eq!(r(Partitioning::Pow2, 1.0), 1);
        assert_eq!(r(Partitioning::FractionalOdd, 3.0), 3);
        assert_eq!(r(Partitioning::FractionalOdd, 3.01), 5);
        assert_eq!(r(Partitioning::FractionalEven, 2.0), 2);
        assert_eq!(r(Partitioning::FractionalEven, 2.5), 4);
    }

    #[test]
    fn fractional_side_lengths() {
        // f = 4.5, even → 6 segments: four of 1/4.5 and two of 0.25/4.5 in the middle.
        let f = round_fixed(Partitioning::FractionalEven, to_fixed(4.5));
        let p: Vec<f64> = (0..=6).map(|i| position(f, i) as f64 / COORD_ONE as f64).collect();
        let full = 1.0 / 4.5;
        let short = (4.5 - 4.0) / (2.0 * 4.5);
        let want = [0.0, full, 2.0 * full, 2.0 * full + short, 2.0 * full + 2.0 * short, 3.0 * full + 2.0 * short, 1.0];
        for (got, want) in p.iter().zip(want) {
            assert!((got - want).abs() < 1e-6, "{p:?}");
        }
    }
}
