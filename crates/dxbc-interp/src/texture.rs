//! Texture addressing, level-of-detail selection and filtering, after the
//! D3D11 functional spec's chapter 7.18 ("Texture sampling"): texel
//! coordinates are `u * size - 0.5` for linear filtering (7.18.7) and
//! `floor(u * size)` for point filtering (7.18.6); the level of detail is
//! log2 of the longer screen-space derivative in texels (7.18.11); address
//! modes map integer texel indices back into the texture (7.18.5).

use crate::resources::{Address, Channel, Sampler, TexDim, Texture};

/// Maps texel index `i` into `0..size` by `mode`; `None` means the border colour.
pub fn address(mode: Address, i: i32, size: i32) -> Option<i32> {
    let size = size.max(1);
    Some(match mode {
        Address::Wrap => i.rem_euclid(size),
        Address::Clamp => i.clamp(0, size - 1),
        Address::Border => {
            if i < 0 || i >= size {
                return None;
            }
            i
        }
        Address::Mirror => {
            let period = 2 * size as i64;
            let m = (i as i64).rem_euclid(period) as i32;
            if m < size {
                m
            } else {
                period as i32 - 1 - m
            }
        }
        Address::MirrorOnce => {
            let m = if i < 0 { -1 - i.max(i32::MIN + 1) } else { i };
            m.clamp(0, size - 1)
        }
    })
}

/// The level of detail from the screen-space derivatives of normalised
/// coordinates (7.18.11): log2 of the longer of the two derivative vectors
/// scaled to texels of level 0.
pub fn lod(tex: &Texture, ddx: [f32; 3], ddy: [f32; 3]) -> f32 {
    let size = [tex.width as f32, tex.height as f32, if tex.dim == TexDim::Tex3d { tex.depth as f32 } else { 1.0 }];
    let n = match tex.dim {
        TexDim::Tex1d => 1,
        TexDim::Tex3d => 3,
        TexDim::Tex2d | TexDim::Cube => 2,
    };
    let len = |d: [f32; 3]| (0..n).map(|i| (d[i] * size[i]) * (d[i] * size[i])).sum::<f32>().sqrt();
    let rho = len(ddx).max(len(ddy));
    rho.log2()
}

/// The clamped level(s) to read for a requested level of detail, with the
/// weight of the second (mip filtering between levels).
fn levels(tex: &Texture, s: &Sampler, lod: f32) -> (u32, u32, f32) {
    let last = tex.levels.len().saturating_sub(1) as f32;
    let l = if lod.is_nan() { 0.0 } else { lod };
    let l = l.max(s.min_lod).min(s.max_lod).clamp(0.0, last);
    if s.mip_linear {
        let base = l.floor();
        (base as u32, (base as u32 + 1).min(last as u32), l - base)
    } else {
        // Point mip filtering picks the nearest level (ties round up, as
        // `floor(l + 0.5)`).
        let n = (l + 0.5).floor();
        (n as u32, n as u32, 0.0)
    }
}

/// Float value of a texel component, or the comparison result (1 or 0)
/// for a comparison sample.
fn value(texel: [u32; 4], channel: Channel, c: usize, compare: Option<(crate::resources::Compare, f32)>) -> f32 {
    let v = match channel {
        Channel::Uint => texel[c] as f32,
        Channel::Sint => texel[c] as i32 as f32,
        _ => f32::from_bits(texel[c]),
    };
    match compare {
        Some((op, reference)) => {
            if op.test(reference, f32::from_bits(texel[0])) {
                1.0
            } else {
                0.0
            }
        }
        None => v,
    }
}

/// Where one sample reads: normalised coordinates, array layer, immediate offsets.
#[derive(Clone, Copy, Debug)]
pub struct At {
    /// u, v, w.
    pub coord: [f32; 3],
    /// Array layer (already rounded).
    pub layer: u32,
    /// Texel offsets.
    pub offset: [i32; 3],
}

/// One texel through the sampler's addressing (border colour outside).
fn fetch(tex: &Texture, s: &Sampler, level: u32, idx: [i32; 3], layer: u32) -> Option<[u32; 4]> {
    let (w, h, d) = tex.level_size(level);
    let x = address(s.address[0], idx[0], w as i32)?;
    let y = address(s.address[1], idx[1], h as i32)?;
    let z = address(s.address[2], idx[2], d as i32)?;
    tex.texel(level, x, y, z, layer)
}

/// Filters one level: point or linear in each used dimension.
fn filter_level(
    tex: &Texture,
    s: &Sampler,
    level: u32,
    at: &At,
    linear: bool,
    compare: Option<(crate::resources::Compare, f32)>,
) -> [f32; 4] {
    let (w, h, d) = tex.level_size(level);
    let size = [w, h, d];
    let dims = match tex.dim {
        TexDim::Tex1d => 1,
        TexDim::Tex2d | TexDim::Cube => 2,
        TexDim::Tex3d => 3,
    };
    let mut base = [0i32; 3];
    let mut frac = [0f32; 3];
    for i in 0..dims {
        let t = texel_space(at.coord[i] * size[i] as f32);
        if linear {
            let t = t - 0.5;
            let fl = t.floor();
            base[i] = sat_i32(fl).saturating_add(at.offset[i]);
            frac[i] = t - fl;
        } else {
            base[i] = sat_i32(t.floor()).saturating_add(at.offset[i]);
        }
    }
    let border = s.border;
    let read = |idx: [i32; 3]| -> [f32; 4] {
        match fetch(tex, s, level, idx, at.layer) {
            Some(t) => std::array::from_fn(|c| value(t, tex.channel, c, compare)),
            None => match compare {
                Some((op, r)) => [if op.test(r, border[0]) { 1.0 } else { 0.0 }; 4],
                None => border,
            },
        }
    };
    if !linear {
        return read(base);
    }
    let corners = 1usize << dims;
    let mut out = [0f32; 4];
    for k in 0..corners {
        let mut idx = base;
        let mut wgt = 1.0f32;
        for (i, ix) in idx.iter_mut().enumerate().take(dims) {
            if k >> i & 1 == 1 {
                *ix = ix.saturating_add(1);
                wgt *= frac[i];
            } else {
                wgt *= 1.0 - frac[i];
            }
        }
        if wgt == 0.0 {
            continue;
        }
        let v = read(idx);
        for c in 0..4 {
            out[c] += wgt * v[c];
        }
    }
    out
}

fn sat_i32(v: f32) -> i32 {
    v as i32
}

/// A scaled texture coordinate as the sampler's fixed-point conversion
/// sees it (the spec's float → fixed-point conversion): NaN becomes 0 and ±∞ the largest
/// magnitude, so a projected coordinate divided by 0 addresses the edge
/// texel under clamp instead of filtering with NaN weights. 2²⁴ is where
/// f32 stops having a fraction, far beyond any texture (16,384 texels).
fn texel_space(t: f32) -> f32 {
    const LIMIT: f32 = 16_777_216.0;
    if t.is_nan() {
        0.0
    } else {
        t.clamp(-LIMIT, LIMIT)
    }
}

/// A filtered sample at level of detail `lod` (already biased); with
/// `compare` each texel's red is compared with the reference first.
pub fn sample(tex: &Texture, s: &Sampler, at: &At, lod: f32, compare: Option<f32>) -> [f32; 4] {
    let cmp = compare.and_then(|r| s.compare.map(|op| (op, r)));
    let (l0, l1, t) = levels(tex, s, lod);
    // Magnification when the level of detail is at or below 0 (7.18.10).
    let linear = if lod <= 0.0 { s.mag_linear } else { s.min_linear };
    let a = filter_level(tex, s, l0, at, linear, cmp);
    if t == 0.0 || l0 == l1 {
        return a;
    }
    let b = filter_level(tex, s, l1, at, linear, cmp);
    std::array::from_fn(|c| a[c] + (b[c] - a[c]) * t)
}

/// `gather4`: component `channel` of the four texels a bilinear footprint
/// at level 0 reads, in D3D's order (7.18.9): (u0, v1), (u1, v1), (u1, v0), (u0, v0).
pub fn gather(tex: &Texture, s: &Sampler, at: &At, channel: usize, compare: Option<f32>) -> [u32; 4] {
    let cmp = compare.and_then(|r| s.compare.map(|op| (op, r)));
    let (w, h, _) = tex.level_size(0);
    let u = texel_space(at.coord[0] * w as f32) - 0.5;
    let v = texel_space(at.coord[1] * h as f32) - 0.5;
    let (u0, v0) = (sat_i32(u.floor()).saturating_add(at.offset[0]), sat_i32(v.floor()).saturating_add(at.offset[1]));
    let pick = |x: i32, y: i32| -> u32 {
        let c = channel.min(3);
        match fetch(tex, s, 0, [x, y, 0], at.layer) {
            Some(t) => match cmp {
                Some(_) => value(t, tex.channel, c, cmp).to_bits(),
                None => t[c],
            },
            None => match cmp {
                Some((op, r)) => (if op.test(r, s.border[0]) { 1.0f32 } else { 0.0 }).to_bits(),
                None => s.border[c].to_bits(),
            },
        }
    };
    let (u1, v1) = (u0.saturating_add(1), v0.saturating_add(1));
    [pick(u0, v1), pick(u1, v1), pick(u1, v0), pick(u0, v0)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::Compare;

    fn ramp(w: u32, h: u32) -> Texture {
        let texels = (0..w * h).map(|i| [(i as f32).to_bits(), 0, 0, 1.0f32.to_bits()]).collect();
        Texture::new_2d(w, h, Channel::Float, 4, texels)
    }

    fn at(u: f32, v: f32) -> At {
        At { coord: [u, v, 0.0], layer: 0, offset: [0; 3] }
    }

    #[test]
    fn address_modes_follow_the_spec_table() {
        // 7.18.5: size 4, indices -1 and 5.
        assert_eq!(address(Address::Wrap, -1, 4), Some(3));
        assert_eq!(address(Address::Wrap, 5, 4), Some(1));
        assert_eq!(address(Address::Clamp, -1, 4), Some(0));
        assert_eq!(address(Address::Clamp, 5, 4), Some(3));
        assert_eq!(address(Address::Border, -1, 4), None);
        assert_eq!(address(Address::Border, 3, 4), Some(3));
        // Mirror: ... 1 0 | 0 1 2 3 | 3 2 1 0 | 0 1 ...
        assert_eq!(address(Address::Mirror, -1, 4), Some(0));
        assert_eq!(address(Address::Mirror, 4, 4), Some(3));
        assert_eq!(address(Address::Mirror, 5, 4), Some(2));
        assert_eq!(address(Address::Mirror, 8, 4), Some(0));
        // Mirror once: mirrored about 0, then clamped.
        assert_eq!(address(Address::MirrorOnce, -2, 4), Some(1));
        assert_eq!(address(Address::MirrorOnce, 9, 4), Some(3));
    }

    #[test]
    fn point_sampling_picks_the_texel_containing_the_coordinate() {
        // 7.18.6: texel floor(u * width).
        let t = ramp(4, 2);
        let s = Sampler { min_linear: false, mag_linear: false, mip_linear: false, ..Sampler::default() };
        assert_eq!(sample(&t, &s, &at(0.3, 0.75), 0.0, None)[0], 5.0);
        assert_eq!(sample(&t, &s, &at(0.99, 0.1), 0.0, None)[0], 3.0);
    }

    #[test]
    fn linear_sampling_weights_the_four_neighbours() {
        // 7.18.7: u*w - 0.5 = 1.0 - 0.5... at u = 0.375 (w = 4): x = 1.0, weight 0 on texel 2.
        let t = ramp(4, 1);
        let s = Sampler::default();
        let one_d = |u: f32| sample(&t, &s, &At { coord: [u, 0.5, 0.0], layer: 0, offset: [0; 3] }, 0.0, None)[0];
        assert_eq!(one_d(0.375), 1.0);
        // Halfway between texel 1 and 2.
        assert_eq!(one_d(0.5), 1.5);
        // Clamped at the edge: the left neighbour of texel 0 is texel 0.
        assert_eq!(one_d(0.0), 0.0);
    }

    #[test]
    fn border_colour_outside_with_border_addressing() {
        let t = ramp(2, 2);
        let s = Sampler {
            min_linear: false,
            mag_linear: false,
            address: [Address::Border; 3],
            border: [9.0, 8.0, 7.0, 6.0],
            ..Sampler::default()
        };
        assert_eq!(sample(&t, &s, &at(1.5, 0.5), 0.0, None), [9.0, 8.0, 7.0, 6.0]);
    }

    #[test]
    fn infinite_coordinates_address_the_edge_under_clamp() {
        // Float → fixed point sends ±INF to the extremes and NaN to 0;
        // clamp addressing (7.18.5) then picks the last or first texel.
        let t = ramp(3, 3);
        let s = Sampler { address: [Address::Clamp; 3], ..Sampler::default() };
        assert!(s.min_linear && s.mag_linear, "the default sampler filters linearly");
        assert_eq!(sample(&t, &s, &at(f32::INFINITY, f32::INFINITY), 0.0, None), [8.0, 0.0, 0.0, 1.0]);
        assert_eq!(sample(&t, &s, &at(f32::NEG_INFINITY, f32::NAN), 0.0, None), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(gather(&t, &s, &at(f32::INFINITY, f32::INFINITY), 0, None), [8.0f32.to_bits(); 4]);
    }

    #[test]
    fn level_of_detail_is_log2_of_the_texel_footprint() {
        // 7.18.11: a derivative of 4 texels per pixel is lod 2.
        let t = ramp(64, 64);
        assert_eq!(lod(&t, [4.0 / 64.0, 0.0, 0.0], [0.0, 1.0 / 64.0, 0.0]), 2.0);
        assert_eq!(lod(&t, [1.0 / 64.0, 0.0, 0.0], [0.0, 1.0 / 64.0, 0.0]), 0.0);
    }

    #[test]
    fn comparison_filters_the_comparison_results() {
        // 7.18.12: each texel's red is compared, then the results are filtered.
        let t =
            Texture::new_2d(2, 1, Channel::Float, 1, vec![[0.25f32.to_bits(), 0, 0, 0], [0.75f32.to_bits(), 0, 0, 0]]);
        let s = Sampler { compare: Some(Compare::LessEqual), ..Sampler::default() };
        // Halfway: one texel passes (0.5 <= 0.75), one fails.
        assert_eq!(sample(&t, &s, &at(0.5, 0.5), 0.0, Some(0.5))[0], 0.5);
    }

    #[test]
    fn gather_returns_the_footprint_counter_clockwise_from_bottom_left() {
        // 7.18.9: x = (u0, v1), y = (u1, v1), z = (u1, v0), w = (u0, v0).
        let t = ramp(4, 4);
        let s = Sampler::default();
        let g = gather(&t, &s, &at(0.5, 0.5), 0, None).map(f32::from_bits);
        assert_eq!(g, [9.0, 10.0, 6.0, 5.0]);
    }

    #[test]
    fn mip_levels_blend_linearly() {
        let mut t = ramp(2, 2);
        t.levels.push(vec![[100.0f32.to_bits(), 0, 0, 0]]);
        let s = Sampler { min_linear: false, mag_linear: false, ..Sampler::default() };
        assert_eq!(sample(&t, &s, &at(0.25, 0.25), 0.5, None)[0], 50.0);
        assert_eq!(sample(&t, &s, &at(0.25, 0.25), 7.0, None)[0], 100.0);
    }
}
