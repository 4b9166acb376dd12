//! The tessellator as a WGSL compute module: the same rules as the rest of
//! this crate, step for step, in the same integer arithmetic, so the GPU
//! reproduces [`crate::tessellate`] bit for bit (points and indices). The
//! CPU code is the specification; this is a second execution of it, and
//! the runner's tests compare the two on lavapipe.
//!
//! ## Passes (entry points of [`SOURCE`])
//! 1. `count` — one invocation per patch (workgroups of
//!    [`WORKGROUP_SIZE`]): runs the generator without writing and stores
//!    the patch's point and index counts in its row of the *patch table*.
//! 2. `scan` — one invocation: exclusive prefix sums of those counts (each
//!    patch's first point and first index), and the totals in row
//!    `patches`.
//! 3. `generate` — one invocation per patch: runs the generator again and
//!    writes its points (from its first point on) and its indices (from
//!    its first index on; each index is a *global* point number, so one
//!    indexed draw covers every patch).
//!
//! Counting by running the generator itself (rather than a second, closed
//! form) keeps one implementation of the rules on the GPU; the buffers are
//! sized on the CPU with [`MAX_PATCH_POINTS`] and [`MAX_PATCH_INDICES`] per
//! patch (bounds the crate's tests check against [`crate::counts`]), and a
//! write past them is dropped, never out of bounds.
//!
//! ## Bindings (group 0)
//! | binding | type | contents |
//! |---|---|---|
//! | 0 | uniform | [`Params`] ([`Params::words`], 16 `u32`) |
//! | 1 | storage, read | patch-constant records, `record_words` words each |
//! | 2 | storage, read_write | patch table: `vec4<u32>` (points, indices, first point, first index) per patch, then the totals |
//! | 3 | storage, read_write | domain points: `vec4<u32>` (u, v, w as f32 bits, patch index) |
//! | 4 | storage, read_write | indices: `u32` |
//!
//! The domain point records are those the domain shader's draw form reads
//! (`dxbc-naga`'s `stages/domain.rs`).

use crate::{Domain, OutputPrimitive, Partitioning};

/// Invocations per workgroup of the per-patch passes.
pub const WORKGROUP_SIZE: u32 = 64;

/// Most domain points one patch can produce: a quad's `65 × 65` grid bounds
/// every domain (its outer ring has at most 256 points and the inner rings
/// lie on the inside grid's `63 × 63` interior; an isoline has at most
/// `64 × 65`).
pub const MAX_PATCH_POINTS: u32 = 65 * 65;

/// Most indices one patch can produce: a triangulated disk has fewer than
/// two triangles per point, three indices each.
pub const MAX_PATCH_INDICES: u32 = 6 * MAX_PATCH_POINTS;

/// No factor at this slot: it reads as 0.
pub const NO_WORD: u32 = u32::MAX;

/// The uniform parameters of a dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// The patch domain.
    pub domain: Domain,
    /// The partitioning.
    pub partitioning: Partitioning,
    /// The output primitive.
    pub primitive: OutputPrimitive,
    /// Number of patches (records of the patch-constant buffer).
    pub patches: u32,
    /// 32-bit words per patch-constant record.
    pub record_words: u32,
    /// Capacity of the domain points buffer, in points.
    pub point_capacity: u32,
    /// Capacity of the index buffer, in indices.
    pub index_capacity: u32,
    /// The word of the record holding each factor ([`NO_WORD`]: none, reads
    /// 0). Tri: edges `u == 0`, `v == 0`, `w == 0`, inside. Quad: edges
    /// `u == 0`, `v == 0`, `u == 1`, `v == 1`, inside `u`, inside `v`.
    /// Isoline: `SV_TessFactor[0]` (density), `SV_TessFactor[1]` (detail).
    pub factor_words: [u32; 6],
}

impl Params {
    /// The uniform buffer's contents.
    pub fn words(&self) -> [u32; 16] {
        let domain = match self.domain {
            Domain::Tri => 0,
            Domain::Quad => 1,
            Domain::Isoline => 2,
        };
        let partitioning = match self.partitioning {
            Partitioning::Integer => 0,
            Partitioning::Pow2 => 1,
            Partitioning::FractionalOdd => 2,
            Partitioning::FractionalEven => 3,
        };
        let primitive = match self.primitive {
            OutputPrimitive::Point => 0,
            OutputPrimitive::Line => 1,
            OutputPrimitive::TriangleCw => 2,
            OutputPrimitive::TriangleCcw => 3,
        };
        let f = self.factor_words;
        [
            domain,
            partitioning,
            primitive,
            self.patches,
            self.record_words,
            self.point_capacity,
            self.index_capacity,
            0,
            f[0],
            f[1],
            f[2],
            f[3],
            f[4],
            f[5],
            NO_WORD,
            NO_WORD,
        ]
    }

    /// Workgroups of the `count` and `generate` passes.
    pub fn workgroups(&self) -> u32 {
        self.patches.div_ceil(WORKGROUP_SIZE)
    }
}

/// The WGSL module (entry points `count`, `scan`, `generate`).
pub const SOURCE: &str = r#"
// The D3D11 tessellator (crates/tessellator), ported step for step.
struct Params {
    domain: u32,          // 0 tri, 1 quad, 2 isoline
    partitioning: u32,    // 0 integer, 1 pow2, 2 fractional odd, 3 fractional even
    primitive: u32,       // 0 point, 1 line, 2 triangle cw, 3 triangle ccw
    patches: u32,
    record_words: u32,
    point_capacity: u32,
    index_capacity: u32,
    pad: u32,
    factor_words: array<vec4<u32>, 2>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> patch_constants: array<u32>;
@group(0) @binding(2) var<storage, read_write> patch_table: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> domain_points: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> indices: array<u32>;

const NONE: u32 = 0xffffffffu;
const FACTOR_ONE: u32 = 65536u;
const COORD_ONE: u32 = 16777216u;

struct Factor { fixed: u32, segments: u32 }

// Side of a ring: point l is first + dir * l, except point special_at.
struct Side { first: i32, dir: i32, m: u32, special_at: u32, special_idx: u32 }

var<private> writing: bool;
var<private> patch_id: u32;
var<private> n_points: u32;
var<private> n_indices: u32;
var<private> first_point: u32;
var<private> first_index: u32;
// What ring_point needs about the ring being emitted.
var<private> ring_edges: array<Factor, 4>;
var<private> inside_u: Factor;
var<private> inside_v: Factor;
var<private> ring_k: u32;
var<private> ring_m: u32;
var<private> ring_d: u32;
var<private> ring_tk: u32;

// A 0.24 coordinate (at most 2^24) as f32 bits, exactly.
fn coord_bits(q: u32) -> u32 {
    if (q == 0u) { return 0u; }
    let msb = 31u - countLeadingZeros(q);
    var mant: u32;
    if (msb <= 23u) { mant = q << (23u - msb); } else { mant = q >> (msb - 23u); }
    return ((msb + 103u) << 23u) | (mant & 0x7fffffu);
}

fn emit_point(u: u32, v: u32, w: u32) -> u32 {
    let local = n_points;
    n_points += 1u;
    let g = first_point + local;
    if (writing && g < params.point_capacity) {
        domain_points[g] = vec4<u32>(coord_bits(u), coord_bits(v), coord_bits(w), patch_id);
    }
    return local;
}

fn emit_index(local: u32) {
    let g = first_index + n_indices;
    n_indices += 1u;
    if (writing && g < params.index_capacity) {
        indices[g] = first_point + local;
    }
}

fn emit_tri(a: u32, b: u32, c: u32) {
    if (params.primitive == 2u) {
        emit_index(a); emit_index(b); emit_index(c);
    } else if (params.primitive == 3u) {
        emit_index(a); emit_index(c); emit_index(b);
    }
}

fn emit_line(a: u32, b: u32) {
    if (params.primitive == 1u) {
        emit_index(a); emit_index(b);
    }
}

// The factor at a slot, as f32 bits (0 where the slot names no word).
fn factor_bits(slot: u32) -> u32 {
    let w = params.factor_words[slot / 4u][slot % 4u];
    if (w == NONE || w >= params.record_words) { return 0u; }
    let at = patch_id * params.record_words + w;
    if (at >= arrayLength(&patch_constants)) { return 0u; }
    return patch_constants[at];
}

fn is_nan(b: u32) -> bool {
    return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0u;
}

// trunc(f * 2^16) of a positive f (bits b, at most 64), in integers.
fn fixed_of_bits(b: u32) -> u32 {
    let e = (b >> 23u) & 0xffu;
    if (e == 0u) { return 0u; }
    let m = (b & 0x7fffffu) | 0x800000u;
    if (e >= 134u) { return m << min(e - 134u, 31u); }
    let shift = 134u - e;
    if (shift >= 32u) { return 0u; }
    return m >> shift;
}

fn range_lo_bits() -> u32 {
    if (params.partitioning == 3u) { return 0x40000000u; } // 2.0
    return 0x3f800000u; // 1.0
}

fn range_hi_bits() -> u32 {
    if (params.partitioning == 2u) { return 0x427c0000u; } // 63.0
    return 0x42800000u; // 64.0
}

// Clamps positive, non-NaN bits to [lo, hi] (positive floats order as their bits).
fn clamp_bits(b: u32, lo: u32, hi: u32) -> u32 {
    return fixed_of_bits(min(max(b, lo), hi));
}

// An edge factor in 16.16, or NONE when it culls the patch (<= 0 or NaN).
fn edge_fixed(b: u32, lo: u32, hi: u32) -> u32 {
    if (is_nan(b) || (b & 0x80000000u) != 0u || b == 0u) { return NONE; }
    return clamp_bits(b, lo, hi);
}

// An inside factor in 16.16: NaN and anything below the range read as its lower bound.
fn inside_fixed(b: u32, lo: u32, hi: u32) -> u32 {
    if (is_nan(b) || (b & 0x80000000u) != 0u) { return fixed_of_bits(lo); }
    return clamp_bits(b, lo, hi);
}

fn round_fixed(partitioning: u32, fixed: u32) -> Factor {
    let c = (fixed + FACTOR_ONE - 1u) / FACTOR_ONE;
    if (partitioning == 0u) { return Factor(c * FACTOR_ONE, c); }
    if (partitioning == 1u) {
        var n = 1u;
        while (n < c) { n = n << 1u; }
        return Factor(n * FACTOR_ONE, n);
    }
    if (partitioning == 2u) { return Factor(fixed, select(c, c + 1u, c % 2u == 0u)); }
    return Factor(fixed, select(c, c + 1u, c % 2u == 1u));
}

fn inside_factor(fixed: u32, any_above_one: bool) -> Factor {
    var f = fixed;
    if (params.partitioning != 3u && any_above_one) { f = max(f, FACTOR_ONE + 1u); }
    return round_fixed(params.partitioning, f);
}

// floor(num * 2^24 / den) for num <= den <= 2^25, in u32.
fn div_frac24(num: u32, den: u32) -> u32 {
    var q = num / den;
    var r = num % den;
    for (var i = 0u; i < 24u; i++) {
        r = r << 1u;
        q = q << 1u;
        if (r >= den) {
            r -= den;
            q |= 1u;
        }
    }
    return q;
}

fn numerator(f: Factor, i: u32) -> u32 {
    let n = f.segments;
    if (n == 1u) { return i * 2u * f.fixed; }
    let short_len = f.fixed - (n - 2u) * FACTOR_ONE;
    var s0: u32;
    var s1: u32;
    if (n % 2u == 0u) { s0 = n / 2u - 1u; s1 = n / 2u; } else { s0 = n / 2u - 1u; s1 = n / 2u + 1u; }
    let shorts = select(0u, 1u, i > s0) + select(0u, 1u, i > s1);
    return 2u * (i - shorts) * FACTOR_ONE + shorts * short_len;
}

fn position(f: Factor, i: u32) -> u32 {
    let n = f.segments;
    let den = 2u * f.fixed;
    if (2u * i <= n) { return div_frac24(numerator(f, i), den); }
    return COORD_ONE - div_frac24(numerator(f, n - i), den);
}

fn plain_side(first: u32, m: u32) -> Side {
    return Side(i32(first), 1, m, NONE, 0u);
}

fn side_idx(s: Side, l: u32) -> u32 {
    if (l == s.special_at) { return s.special_idx; }
    return u32(s.first + s.dir * i32(l));
}

fn reversed(s: Side) -> Side {
    var at = NONE;
    if (s.special_at != NONE) { at = s.m - s.special_at; }
    return Side(s.first + s.dir * i32(s.m), -s.dir, s.m, at, s.special_idx);
}

// Joins side `outer` to the side `inner` next to it: a + b triangles,
// always advancing the side whose next segment's midpoint comes first.
fn stitch(outer: Side, inner: Side) {
    let a = outer.m;
    let b = inner.m;
    var i = 0u;
    var j = 0u;
    while (i < a || j < b) {
        let advance_outer = j == b || (i < a && (2u * i + 1u) * b <= (2u * j + 1u) * a);
        if (advance_outer) {
            emit_tri(side_idx(outer, i), side_idx(outer, i + 1u), side_idx(inner, j));
            i += 1u;
        } else {
            emit_tri(side_idx(outer, i), side_idx(inner, j + 1u), side_idx(inner, j));
            j += 1u;
        }
    }
}

fn tri_uvw(s: u32, p: vec3<u32>) -> vec3<u32> {
    if (s == 0u) { return p; }
    if (s == 1u) { return vec3<u32>(p.z, p.x, p.y); }
    return vec3<u32>(p.y, p.z, p.x);
}

fn tri_side_point(d: u32, s: u32, from_end: bool) -> vec3<u32> {
    let far = COORD_ONE - 2u * d - s;
    let near = d + s;
    if (from_end) { return vec3<u32>(near, far, d); }
    return vec3<u32>(far, near, d);
}

// Point l of side s of the ring being emitted. Kinds: 0 quad outer,
// 1 quad inner ring ring_k, 2 tri outer, 3 tri inner ring ring_k.
fn ring_point(kind: u32, s: u32, l: u32) -> vec3<u32> {
    if (kind == 0u) {
        let f = ring_edges[s];
        let n = f.segments;
        if (s == 0u) { return vec3<u32>(position(f, l), 0u, 0u); }
        if (s == 1u) { return vec3<u32>(COORD_ONE, position(f, l), 0u); }
        if (s == 2u) { return vec3<u32>(position(f, n - l), COORD_ONE, 0u); }
        return vec3<u32>(0u, position(f, n - l), 0u);
    }
    if (kind == 1u) {
        let k = ring_k;
        let a = inside_u.segments - 2u * k;
        let b = inside_v.segments - 2u * k;
        if (s == 0u) { return vec3<u32>(position(inside_u, k + l), position(inside_v, k), 0u); }
        if (s == 1u) { return vec3<u32>(position(inside_u, k + a), position(inside_v, k + l), 0u); }
        if (s == 2u) { return vec3<u32>(position(inside_u, k + a - l), position(inside_v, k + b), 0u); }
        return vec3<u32>(position(inside_u, k), position(inside_v, k + b - l), 0u);
    }
    if (kind == 2u) {
        let f = ring_edges[s];
        return tri_uvw(s, vec3<u32>(position(f, f.segments - l), position(f, l), 0u));
    }
    let k = ring_k;
    let m = ring_m;
    var p: vec3<u32>;
    if (2u * l <= m) {
        p = tri_side_point(ring_d, position(inside_u, k + l) - ring_tk, false);
    } else {
        p = tri_side_point(ring_d, position(inside_u, k + m - l) - ring_tk, true);
    }
    return tri_uvw(s, p);
}

// Emits a closed ring of `sides` sides (each at least one segment) and
// returns its sides; a side's last point is the next side's first.
fn closed_ring(kind: u32, segs: vec4<u32>, sides: u32) -> array<Side, 4> {
    let base = n_points;
    let p0 = ring_point(kind, 0u, 0u);
    emit_point(p0.x, p0.y, p0.z);
    var sides_out: array<Side, 4>;
    var start = base;
    for (var s = 0u; s < sides; s++) {
        let m = segs[s];
        let last = s + 1u == sides;
        sides_out[s] = Side(i32(start), 1, m, select(NONE, m, last), base);
        for (var l = 1u; l <= m; l++) {
            if (!(last && l == m)) {
                let p = ring_point(kind, s, l);
                emit_point(p.x, p.y, p.z);
            }
        }
        start += m;
    }
    return sides_out;
}

fn quad_inner_ring(k: u32) -> array<Side, 4> {
    let a = inside_u.segments - 2u * k;
    let b = inside_v.segments - 2u * k;
    ring_k = k;
    var sides_out: array<Side, 4>;
    if (a == 0u || b == 0u) {
        // A line (or one point), walked there and back.
        let first = n_points;
        var len: u32;
        if (a == 0u) {
            len = b;
            for (var j = 0u; j <= b; j++) {
                emit_point(position(inside_u, k), position(inside_v, k + j), 0u);
            }
        } else {
            len = a;
            for (var i = 0u; i <= a; i++) {
                emit_point(position(inside_u, k + i), position(inside_v, k), 0u);
            }
        }
        let line = plain_side(first, len);
        let back = reversed(line);
        let p_first = plain_side(first, 0u);
        let p_last = plain_side(first + len, 0u);
        if (a == 0u) {
            sides_out = array<Side, 4>(p_first, line, p_last, back);
        } else {
            sides_out = array<Side, 4>(line, p_last, back, p_first);
        }
        return sides_out;
    }
    return closed_ring(1u, vec4<u32>(a, b, a, b), 4u);
}

fn quad(edges: array<Factor, 4>) {
    if (inside_u.segments == 1u && inside_v.segments == 1u) {
        let c0 = emit_point(0u, 0u, 0u);
        let c1 = emit_point(COORD_ONE, 0u, 0u);
        let c2 = emit_point(COORD_ONE, COORD_ONE, 0u);
        let c3 = emit_point(0u, COORD_ONE, 0u);
        emit_tri(c0, c1, c2);
        emit_tri(c0, c2, c3);
        return;
    }
    // Outer ring: v = 0 (edge 1), u = 1 (edge 2), v = 1 (edge 3), u = 0 (edge 0).
    ring_edges = array<Factor, 4>(edges[1], edges[2], edges[3], edges[0]);
    var prev = closed_ring(0u, vec4<u32>(edges[1].segments, edges[2].segments, edges[3].segments, edges[0].segments), 4u);
    let nu = inside_u.segments;
    let nv = inside_v.segments;
    for (var k = 1u; k <= 32u; k++) {
        let a = nu - 2u * k;
        let b = nv - 2u * k;
        var ring = quad_inner_ring(k);
        for (var s = 0u; s < 4u; s++) {
            stitch(prev[s], ring[s]);
        }
        if (a == 0u || b == 0u) { return; }
        if (a == 1u) {
            stitch(ring[1], reversed(ring[3]));
            return;
        }
        if (b == 1u) {
            stitch(ring[0], reversed(ring[2]));
            return;
        }
        prev = ring;
    }
}

fn tri(edges: array<Factor, 4>) {
    if (inside_u.segments == 1u) {
        let c0 = emit_point(COORD_ONE, 0u, 0u);
        let c1 = emit_point(0u, COORD_ONE, 0u);
        let c2 = emit_point(0u, 0u, COORD_ONE);
        emit_tri(c0, c1, c2);
        return;
    }
    // Outer ring: U->V on w == 0 (edge 2), V->W on u == 0 (edge 0), W->U on v == 0 (edge 1).
    ring_edges = array<Factor, 4>(edges[2], edges[0], edges[1], edges[1]);
    var prev = closed_ring(2u, vec4<u32>(edges[2].segments, edges[0].segments, edges[1].segments, 0u), 3u);
    let n = inside_u.segments;
    for (var k = 1u; k <= 32u; k++) {
        let m = n - 2u * k;
        let tk = position(inside_u, k);
        let d = 2u * tk / 3u;
        ring_k = k;
        ring_m = m;
        ring_d = d;
        ring_tk = tk;
        var ring: array<Side, 4>;
        if (m == 0u) {
            let c = emit_point(COORD_ONE - 2u * d, d, d);
            ring = array<Side, 4>(plain_side(c, 0u), plain_side(c, 0u), plain_side(c, 0u), plain_side(c, 0u));
        } else {
            ring = closed_ring(3u, vec4<u32>(m, m, m, 0u), 3u);
        }
        for (var s = 0u; s < 3u; s++) {
            stitch(prev[s], ring[s]);
        }
        if (m == 0u) { return; }
        if (m == 1u) {
            emit_tri(side_idx(ring[0], 0u), side_idx(ring[1], 0u), side_idx(ring[2], 0u));
            return;
        }
        prev = ring;
    }
}

fn isoline(detail: Factor, density: Factor) {
    let lines = density.segments;
    let n = detail.segments;
    for (var i = 0u; i < lines; i++) {
        let v = div_frac24(i, lines);
        let first = n_points;
        for (var l = 0u; l <= n; l++) {
            emit_point(position(detail, l), v, 0u);
        }
        for (var l = 0u; l < n; l++) {
            emit_line(first + l, first + l + 1u);
        }
    }
}

// Runs the whole tessellation of patch_id (counting, and writing if `writing`).
fn tessellate_patch() {
    n_points = 0u;
    n_indices = 0u;
    let domain = params.domain;
    let prim = params.primitive;
    let valid = prim == 0u || (prim == 1u && domain == 2u) || (prim >= 2u && domain != 2u);
    if (!valid) { return; }
    let lo = range_lo_bits();
    let hi = range_hi_bits();
    if (domain == 2u) {
        let detail = edge_fixed(factor_bits(1u), lo, hi);
        let density = edge_fixed(factor_bits(0u), 0x3f800000u, 0x42800000u);
        if (detail == NONE || density == NONE) { return; }
        isoline(round_fixed(params.partitioning, detail), round_fixed(0u, density));
    } else {
        let edge_count = select(3u, 4u, domain == 1u);
        var edges: array<Factor, 4>;
        var above = false;
        for (var e = 0u; e < edge_count; e++) {
            let f = edge_fixed(factor_bits(e), lo, hi);
            if (f == NONE) { return; }
            above = above || f > FACTOR_ONE;
            edges[e] = round_fixed(params.partitioning, f);
        }
        if (domain == 1u) {
            let fu = inside_fixed(factor_bits(4u), lo, hi);
            let fv = inside_fixed(factor_bits(5u), lo, hi);
            above = above || fu > FACTOR_ONE || fv > FACTOR_ONE;
            inside_u = inside_factor(fu, above);
            inside_v = inside_factor(fv, above);
            quad(edges);
        } else {
            let fi = inside_fixed(factor_bits(3u), lo, hi);
            above = above || fi > FACTOR_ONE;
            inside_u = inside_factor(fi, above);
            tri(edges);
        }
    }
    if (prim == 0u) {
        for (var i = 0u; i < n_points; i++) {
            emit_index(i);
        }
    }
}

@compute @workgroup_size(64)
fn count(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (gid.x >= params.patches) { return; }
    patch_id = gid.x;
    writing = false;
    first_point = 0u;
    first_index = 0u;
    tessellate_patch();
    patch_table[gid.x] = vec4<u32>(n_points, n_indices, 0u, 0u);
}

@compute @workgroup_size(1)
fn scan() {
    var points = 0u;
    var idx = 0u;
    for (var p = 0u; p < params.patches; p++) {
        let row = patch_table[p];
        patch_table[p] = vec4<u32>(row.x, row.y, points, idx);
        points += row.x;
        idx += row.y;
    }
    patch_table[params.patches] = vec4<u32>(points, idx, 0u, 0u);
}

@compute @workgroup_size(64)
fn generate(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (gid.x >= params.patches) { return; }
    patch_id = gid.x;
    writing = true;
    let row = patch_table[gid.x];
    first_point = row.z;
    first_index = row.w;
    tessellate_patch();
}
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{counts, process_factors, TessFactors};

    #[test]
    fn per_patch_bounds_hold_for_every_factor() {
        // Every partitioning, domain and factor 1..=64 (uniform, and the
        // edges against a different inside factor), against counts().
        for p in Partitioning::ALL {
            for a in 1..=64 {
                for b in [1, 2, 3, 33, 63, 64, a] {
                    let (a, b) = (a as f32, b as f32);
                    let cases = [
                        (TessFactors::Quad { edges: [a; 4], inside: [b, a] }, OutputPrimitive::TriangleCw),
                        (TessFactors::Quad { edges: [b, a, b, a], inside: [a, b] }, OutputPrimitive::TriangleCw),
                        (TessFactors::Tri { edges: [a; 3], inside: b }, OutputPrimitive::TriangleCw),
                        (TessFactors::Isoline { detail: a, density: b }, OutputPrimitive::Line),
                    ];
                    for (f, prim) in cases {
                        let (points, prims) = counts(&process_factors(p, &f), prim);
                        assert!(points as u32 <= MAX_PATCH_POINTS, "{p:?} {f:?}: {points} points");
                        let idx = prims * crate::vertices_per_primitive(prim);
                        assert!(idx as u32 <= MAX_PATCH_INDICES, "{p:?} {f:?}: {idx} indices");
                    }
                }
            }
        }
    }

    #[test]
    fn params_place_the_factor_words() {
        let p = Params {
            domain: Domain::Quad,
            partitioning: Partitioning::FractionalOdd,
            primitive: OutputPrimitive::TriangleCcw,
            patches: 5,
            record_words: 128,
            point_capacity: 10,
            index_capacity: 20,
            factor_words: [0, 1, 2, 3, 4, NO_WORD],
        };
        assert_eq!(p.words(), [1, 2, 3, 5, 128, 10, 20, 0, 0, 1, 2, 3, 4, NO_WORD, NO_WORD, NO_WORD]);
        assert_eq!(p.workgroups(), 1);
    }
}
