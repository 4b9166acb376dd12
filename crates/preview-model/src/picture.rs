//! Is there anything to see? A colour target read back from the GPU is
//! classified by what the canvas can show of it: the red, green and blue
//! channels (alpha is not drawn). A picture where every pixel is NaN,
//! infinite or black looks like "the preview is broken"; the page says
//! which it is instead of showing a black square without a hint.

use crate::plan::{Plan, Readback};

/// What a colour target holds, pixel by pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    /// At least one pixel has a finite, non-zero colour channel.
    Visible,
    /// Every pixel is NaN, infinite or zero (in red, green and blue).
    Blank {
        /// Pixels with a NaN channel.
        nan: usize,
        /// Pixels with an infinite channel (and no NaN).
        infinite: usize,
        /// Pixels whose channels are all zero.
        zero: usize,
    },
    /// The read-back holds no whole pixel.
    Empty,
}

impl Picture {
    /// The warning to show, or `None` when the picture has something to see.
    pub fn warning(&self) -> Option<String> {
        let Picture::Blank { nan, infinite, zero } = *self else { return None };
        let total = nan + infinite + zero;
        let mut parts = Vec::new();
        for (n, what) in [(nan, "NaN"), (infinite, "infinite"), (zero, "zero (black)")] {
            if n == total {
                return Some(format!("Every pixel is {what}: nothing to see. Check the inputs this shader reads."));
            }
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        Some(format!(
            "Every pixel is NaN, infinite or zero ({} of {total}): nothing to see. Check the inputs this shader reads.",
            parts.join(", ")
        ))
    }
}

/// Classifies a read-back of 16-byte texels in `format` (`rgba32float`,
/// `rgba32uint` or `rgba32sint`).
pub fn classify(format: &str, data: &[u8]) -> Picture {
    let (mut nan, mut infinite, mut zero, mut pixels) = (0, 0, 0, 0);
    for px in data.chunks_exact(16) {
        pixels += 1;
        let w = |i: usize| u32::from_le_bytes([px[4 * i], px[4 * i + 1], px[4 * i + 2], px[4 * i + 3]]);
        let rgb = [w(0), w(1), w(2)];
        if format == "rgba32float" {
            let f = rgb.map(f32::from_bits);
            if f.iter().any(|x| x.is_nan()) {
                nan += 1;
            } else if f.iter().any(|x| x.is_infinite()) {
                infinite += 1;
            } else if f.iter().all(|&x| x == 0.0) {
                zero += 1;
            } else {
                return Picture::Visible;
            }
        } else if rgb == [0; 3] {
            zero += 1;
        } else {
            return Picture::Visible;
        }
    }
    if pixels == 0 {
        Picture::Empty
    } else {
        Picture::Blank { nan, infinite, zero }
    }
}

/// Classifies colour target `index` of `plan` from its read-backs.
pub fn classify_target(plan: &Plan, readbacks: &[Vec<u8>], index: usize) -> Picture {
    let format = plan.draw.as_ref().and_then(|d| d.targets.get(index)).map_or("rgba32float", |t| t.format);
    let data = plan
        .readbacks
        .iter()
        .position(|r| matches!(r, Readback::Target { index: i, .. } if *i == index))
        .and_then(|k| readbacks.get(k));
    match data {
        Some(d) => classify(format, d),
        None => Picture::Empty,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texels(px: &[[f32; 4]]) -> Vec<u8> {
        px.iter().flat_map(|p| p.iter().flat_map(|c| c.to_le_bytes())).collect()
    }

    #[test]
    fn classifies_by_the_shown_channels() {
        let black = [0.0, 0.0, 0.0, 1.0];
        assert_eq!(classify("rgba32float", &texels(&[black, black])), Picture::Blank { nan: 0, infinite: 0, zero: 2 });
        let nan = [f32::NAN, 0.0, 0.0, 1.0];
        let inf = [0.0, f32::INFINITY, 0.0, 1.0];
        let both = [f32::NAN, f32::NEG_INFINITY, 0.0, 0.0];
        assert_eq!(
            classify("rgba32float", &texels(&[nan, inf, both, black])),
            Picture::Blank { nan: 2, infinite: 1, zero: 1 }
        );
        // Alpha alone is not drawn; a tiny red is.
        assert!(matches!(classify("rgba32float", &texels(&[[0.0, 0.0, 0.0, 5.0]])), Picture::Blank { .. }));
        assert_eq!(classify("rgba32float", &texels(&[black, [1e-30, 0.0, 0.0, 0.0]])), Picture::Visible);
        // -0.0 is zero; integer targets have no NaN.
        assert!(matches!(classify("rgba32float", &texels(&[[-0.0, 0.0, -0.0, 0.0]])), Picture::Blank { zero: 1, .. }));
        let ints: Vec<u8> = [0u32, 0, 0, 7, 0, 1, 0, 0].iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(classify("rgba32uint", &ints), Picture::Visible);
        assert_eq!(classify("rgba32uint", &ints[..16]), Picture::Blank { nan: 0, infinite: 0, zero: 1 });
        assert_eq!(classify("rgba32float", &[0; 15]), Picture::Empty);
    }

    #[test]
    fn warnings_name_what_every_pixel_is() {
        assert_eq!(Picture::Visible.warning(), None);
        assert_eq!(Picture::Empty.warning(), None);
        assert_eq!(
            Picture::Blank { nan: 4, infinite: 0, zero: 0 }.warning().unwrap(),
            "Every pixel is NaN: nothing to see. Check the inputs this shader reads."
        );
        assert_eq!(
            Picture::Blank { nan: 0, infinite: 0, zero: 9 }.warning().unwrap(),
            "Every pixel is zero (black): nothing to see. Check the inputs this shader reads."
        );
        assert_eq!(
            Picture::Blank { nan: 1, infinite: 2, zero: 3 }.warning().unwrap(),
            "Every pixel is NaN, infinite or zero (1 NaN, 2 infinite, 3 zero (black) of 6): nothing to see. Check the inputs this shader reads."
        );
    }
}
