//! Probe comparison with vkd3d's tolerance rules.
//!
//! Floats: both values are mapped from sign-magnitude to a monotonic integer
//! line (negative x → INT_MIN − x) and may differ by at most `ulps` steps; the
//! default is 0 (exact, but −0 equals +0). We additionally treat two NaNs as
//! equal, since the bit pattern of a NaN is not specified by D3D. Integers
//! are compared exactly. A rectangle probe checks every texel and reports
//! the first one that differs.

use crate::parse::{Expect, Probe};

/// Tightly packed texels read back from a resource (rows of `width * texel_size` bytes).
#[derive(Clone, Debug)]
pub struct Readback {
    pub width: u32,
    pub height: u32,
    pub texel_size: u32,
    pub data: Vec<u8>,
}

impl Readback {
    fn word(&self, x: u32, y: u32, i: u32) -> u32 {
        let off = (y as usize * self.width as usize + x as usize) * self.texel_size as usize + i as usize * 4;
        match self.data.get(off..off + 4) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            None => 0,
        }
    }
    fn dword64(&self, x: u32, y: u32, i: u32) -> u64 {
        self.word(x, y, 2 * i) as u64 | (self.word(x, y, 2 * i + 1) as u64) << 32
    }
}

fn ordered32(f: f32) -> i64 {
    let x = f.to_bits() as i32;
    (if x < 0 { i32::MIN.wrapping_sub(x) } else { x }) as i64
}

fn ordered64(f: f64) -> i128 {
    let x = f.to_bits() as i64;
    (if x < 0 { i64::MIN.wrapping_sub(x) } else { x }) as i128
}

/// vkd3d's `compare_float`, plus NaN == NaN.
pub fn compare_f32(got: f32, expected: f32, ulps: u32) -> bool {
    if got.is_nan() && expected.is_nan() {
        return true;
    }
    (ordered32(got) - ordered32(expected)).unsigned_abs() <= ulps as u64
}

/// vkd3d's `compare_double`, plus NaN == NaN.
pub fn compare_f64(got: f64, expected: f64, ulps: u32) -> bool {
    if got.is_nan() && expected.is_nan() {
        return true;
    }
    (ordered64(got) - ordered64(expected)).unsigned_abs() <= ulps as u128
}

/// A probe that did not match: where, what was expected, what was read.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub x: u32,
    pub y: u32,
    pub expected: String,
    pub got: String,
}

fn fmt_f32s(v: &[f32]) -> String {
    let s: Vec<String> = v.iter().map(|f| format!("{f:?}")).collect();
    format!("({})", s.join(", "))
}

fn fmt_ints(v: &[u32], signed: bool) -> String {
    let s: Vec<String> = v.iter().map(|&u| if signed { format!("{}", u as i32) } else { format!("{u:#x}") }).collect();
    format!("({})", s.join(", "))
}

/// Checks every texel of the probe's rectangle.
pub fn check(probe: &Probe, rb: &Readback) -> Result<(), Mismatch> {
    let (l, t, r, b) = probe.rect;
    if r > rb.width || b > rb.height || l >= r || t >= b {
        return Err(Mismatch {
            x: l,
            y: t,
            expected: "a rectangle inside the resource".into(),
            got: format!("resource of {}x{}", rb.width, rb.height),
        });
    }
    for y in t..b {
        for x in l..r {
            let bad = match &probe.expect {
                Expect::F32(e, ulps) => {
                    let g: Vec<f32> = (0..e.len() as u32).map(|i| f32::from_bits(rb.word(x, y, i))).collect();
                    (!g.iter().zip(e).all(|(g, e)| compare_f32(*g, *e, *ulps))).then(|| (fmt_f32s(e), fmt_f32s(&g)))
                }
                Expect::U32(e, signed) => {
                    let g: Vec<u32> = (0..e.len() as u32).map(|i| rb.word(x, y, i)).collect();
                    (g != *e).then(|| (fmt_ints(e, *signed), fmt_ints(&g, *signed)))
                }
                Expect::U64(e, signed) => {
                    let g: Vec<u64> = (0..e.len() as u32).map(|i| rb.dword64(x, y, i)).collect();
                    let f = |v: &[u64]| {
                        let s: Vec<String> = v
                            .iter()
                            .map(|&u| if *signed { format!("{}", u as i64) } else { format!("{u:#x}") })
                            .collect();
                        format!("({})", s.join(", "))
                    };
                    (g != *e).then(|| (f(e), f(&g)))
                }
                Expect::F64(e, ulps) => {
                    let g: Vec<f64> = (0..e.len() as u32).map(|i| f64::from_bits(rb.dword64(x, y, i))).collect();
                    let f = |v: &[f64]| {
                        let s: Vec<String> = v.iter().map(|d| format!("{d:?}")).collect();
                        format!("({})", s.join(", "))
                    };
                    (!g.iter().zip(e).all(|(g, e)| compare_f64(*g, *e, *ulps))).then(|| (f(e), f(&g)))
                }
            };
            if let Some((expected, got)) = bad {
                return Err(Mismatch { x, y, expected, got });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{Expect, Probe, ProbeTarget};

    fn next_up(f: f32, n: u32) -> f32 {
        f32::from_bits(f.to_bits() + n)
    }

    #[test]
    fn ulp_rules() {
        assert!(compare_f32(1.0, 1.0, 0));
        assert!(!compare_f32(next_up(1.0, 1), 1.0, 0), "default is exact");
        assert!(compare_f32(next_up(1.0, 4), 1.0, 4));
        assert!(!compare_f32(next_up(1.0, 5), 1.0, 4));
        assert!(compare_f32(-0.0, 0.0, 0), "signed zeros are one step apart: none");
        // Across zero: the smallest positive and negative denormals are 2 steps apart.
        assert!(compare_f32(f32::from_bits(1), f32::from_bits(0x8000_0001), 2));
        assert!(!compare_f32(f32::from_bits(1), f32::from_bits(0x8000_0001), 1));
        assert!(compare_f32(f32::NAN, f32::from_bits(0x7fc0_0001), 0));
        assert!(!compare_f32(f32::NAN, 1.0, 1000));
        assert!(compare_f32(f32::INFINITY, f32::INFINITY, 0));
        assert!(!compare_f32(f32::INFINITY, f32::MAX, 0));
        assert!(compare_f32(f32::INFINITY, f32::MAX, 1));
        assert!(compare_f64(0.1 + 0.2, 0.3, 1));
        assert!(!compare_f64(0.1 + 0.2, 0.3, 0));
    }

    fn rb(texels: &[[u32; 4]], width: u32) -> Readback {
        let data: Vec<u8> = texels.iter().flat_map(|t| t.iter().flat_map(|w| w.to_le_bytes())).collect();
        Readback { width, height: texels.len() as u32 / width, texel_size: 16, data }
    }

    fn probe(rect: (u32, u32, u32, u32), expect: Expect) -> Probe {
        Probe { target: ProbeTarget::Rtv(0), rect, layer: 0, expect }
    }

    #[test]
    fn rectangle_reports_first_wrong_texel() {
        let one = 1.0f32.to_bits();
        let two = 2.0f32.to_bits();
        let r = rb(&[[one, one, one, one], [one, one, one, one], [one, one, one, one], [one, two, one, one]], 2);
        assert!(check(&probe((0, 0, 2, 1), Expect::F32(vec![1.0; 4], 0)), &r).is_ok());
        let m = check(&probe((0, 0, 2, 2), Expect::F32(vec![1.0; 4], 0)), &r).unwrap_err();
        assert_eq!((m.x, m.y), (1, 1));
        assert_eq!(m.got, "(1.0, 2.0, 1.0, 1.0)");
        // Only the probed components count.
        assert!(check(&probe((1, 1, 2, 2), Expect::F32(vec![1.0], 0)), &r).is_ok());
        assert!(check(&probe((1, 1, 2, 2), Expect::F32(vec![1.0, 1.0], 0)), &r).is_err());
        // Outside the resource.
        assert!(check(&probe((0, 0, 3, 1), Expect::F32(vec![1.0], 0)), &r).is_err());
    }

    #[test]
    fn integers_are_exact() {
        let r = rb(&[[0xffff_ffff, 2, 3, 4]], 1);
        assert!(check(&probe((0, 0, 1, 1), Expect::U32(vec![0xffff_ffff, 2, 3, 4], false)), &r).is_ok());
        let m = check(&probe((0, 0, 1, 1), Expect::U32(vec![0xffff_fffe], true)), &r).unwrap_err();
        assert_eq!((m.expected.as_str(), m.got.as_str()), ("(-2)", "(-1)"));
        assert!(check(&probe((0, 0, 1, 1), Expect::U64(vec![0x2_ffff_ffff], false)), &r).is_ok());
    }
}
