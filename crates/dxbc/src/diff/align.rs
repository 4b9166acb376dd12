//! Aligning two sequences by a longest common subsequence.
//!
//! The common prefix and suffix are matched first (an edit leaves most of a
//! program alone, so the middle is small); the middle is aligned by the
//! classic length table when it fits in [`MAX_CELLS`], and otherwise left
//! unaligned (all removed, then all added), which bounds time and memory on
//! any input.

/// Largest middle (rows × columns) aligned by the table (16 MiB of u32).
pub const MAX_CELLS: usize = 4 << 20;

/// One step of an alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `a[i]` equals `b[j]`.
    Keep(usize, usize),
    /// `a[i]` is not in `b`.
    Remove(usize),
    /// `b[j]` is not in `a`.
    Add(usize),
}

/// Steps turning `a` into `b`, in order.
pub fn align<T: PartialEq>(a: &[T], b: &[T]) -> Vec<Step> {
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..].iter().rev().zip(b[pre..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (am, bm) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let mut out: Vec<Step> = (0..pre).map(|i| Step::Keep(i, i)).collect();
    let (n, m) = (am.len(), bm.len());
    if n.saturating_mul(m) <= MAX_CELLS && n > 0 && m > 0 {
        // t[i][j]: LCS length of am[i..] and bm[j..].
        let w = m + 1;
        let mut t = vec![0u32; (n + 1) * w];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                t[i * w + j] =
                    if am[i] == bm[j] { t[(i + 1) * w + j + 1] + 1 } else { t[(i + 1) * w + j].max(t[i * w + j + 1]) };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n && j < m {
            if am[i] == bm[j] {
                out.push(Step::Keep(pre + i, pre + j));
                i += 1;
                j += 1;
            } else if t[(i + 1) * w + j] >= t[i * w + j + 1] {
                out.push(Step::Remove(pre + i));
                i += 1;
            } else {
                out.push(Step::Add(pre + j));
                j += 1;
            }
        }
        out.extend((i..n).map(|i| Step::Remove(pre + i)));
        out.extend((j..m).map(|j| Step::Add(pre + j)));
    } else {
        out.extend((0..n).map(|i| Step::Remove(pre + i)));
        out.extend((0..m).map(|j| Step::Add(pre + j)));
    }
    out.extend((0..suf).map(|k| Step::Keep(a.len() - suf + k, b.len() - suf + k)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lcs_alignments() {
        use Step::*;
        assert_eq!(align(b"abc", b"abc"), [Keep(0, 0), Keep(1, 1), Keep(2, 2)]);
        assert_eq!(align(b"abc", b"ac"), [Keep(0, 0), Remove(1), Keep(2, 1)]);
        assert_eq!(align(b"ac", b"abc"), [Keep(0, 0), Add(1), Keep(1, 2)]);
        assert_eq!(align(b"axc", b"ayc"), [Keep(0, 0), Remove(1), Add(1), Keep(2, 2)]);
        let steps = align(b"xaby", b"bxya");
        let kept = steps.iter().filter(|s| matches!(s, Keep(..))).count();
        assert_eq!(kept, 2);
        assert_eq!(align::<u8>(&[], &[]), []);
    }
}
