//! The DXBC container checksum.
//!
//! It is MD5's compression function run over bytes `20..` of the container
//! (everything after the magic and the checksum itself), but with a padding
//! scheme of its own: the bit length goes in the first word of the final
//! block and `(bits >> 2) | 1` in its last word, instead of MD5's trailing
//! 64-bit length. The 16-byte result is stored as four little-endian words.

const S: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15,
    21,
];

/// MD5's sine-derived constants, floor(|sin(i+1)| * 2^32).
fn k(i: usize) -> u32 {
    const K: [u32; 64] = [
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8,
        0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
        0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87,
        0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
        0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039,
        0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
        0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
        0xeb86d391,
    ];
    K[i]
}

fn compress(state: &mut [u32; 4], block: &[u8]) {
    let mut m = [0u32; 16];
    for (i, w) in m.iter_mut().enumerate() {
        *w = u32::from_le_bytes([block[i * 4], block[i * 4 + 1], block[i * 4 + 2], block[i * 4 + 3]]);
    }
    let [mut a, mut b, mut c, mut d] = *state;
    for (i, &shift) in S.iter().enumerate() {
        let (f, g) = match i / 16 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        let t = d;
        d = c;
        c = b;
        b = b.wrapping_add(a.wrapping_add(f).wrapping_add(k(i)).wrapping_add(m[g]).rotate_left(shift));
        a = t;
    }
    state[0] = state[0].wrapping_add(a);
    state[1] = state[1].wrapping_add(b);
    state[2] = state[2].wrapping_add(c);
    state[3] = state[3].wrapping_add(d);
}

/// Plain MD5 of `data` (the PDB's file checksums use it), as its 16 bytes.
pub fn md5(data: &[u8]) -> [u8; 16] {
    let mut state = [0x67452301u32, 0xefcdab89, 0x98badcfe, 0x10325476];
    let full = data.len() / 64 * 64;
    for block in data[..full].chunks_exact(64) {
        compress(&mut state, block);
    }
    let rest = &data[full..];
    let bits = (data.len() as u64).wrapping_mul(8);
    let mut tail = [0u8; 128];
    tail[..rest.len()].copy_from_slice(rest);
    tail[rest.len()] = 0x80;
    let n = if rest.len() < 56 { 64 } else { 128 };
    tail[n - 8..n].copy_from_slice(&bits.to_le_bytes());
    for block in tail[..n].chunks_exact(64) {
        compress(&mut state, block);
    }
    let mut out = [0u8; 16];
    for (i, w) in state.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// Computes the checksum of a whole container (`data` includes the 32-byte
/// header; bytes 0..20 are skipped). Returns the four words as stored.
pub fn dxbc_checksum(data: &[u8]) -> [u32; 4] {
    let body = data.get(20..).unwrap_or(&[]);
    let mut state = [0x67452301u32, 0xefcdab89, 0x98badcfe, 0x10325476];
    let full = body.len() / 64 * 64;
    for block in body[..full].chunks_exact(64) {
        compress(&mut state, block);
    }
    let rest = &body[full..];
    let bits = (body.len() as u32).wrapping_mul(8);
    let tail = (bits >> 2) | 1;
    let mut block = [0u8; 64];
    if rest.len() < 56 {
        block[0..4].copy_from_slice(&bits.to_le_bytes());
        block[4..4 + rest.len()].copy_from_slice(rest);
        block[4 + rest.len()] = 0x80;
        block[60..64].copy_from_slice(&tail.to_le_bytes());
        compress(&mut state, &block);
    } else {
        block[..rest.len()].copy_from_slice(rest);
        block[rest.len()] = 0x80;
        compress(&mut state, &block);
        let mut last = [0u8; 64];
        last[0..4].copy_from_slice(&bits.to_le_bytes());
        last[60..64].copy_from_slice(&tail.to_le_bytes());
        compress(&mut state, &last);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md5_plain(msg: &[u8]) -> [u32; 4] {
        // Standard MD5 padding, to prove the compression function itself.
        let mut state = [0x67452301u32, 0xefcdab89, 0x98badcfe, 0x10325476];
        let mut m = msg.to_vec();
        let bits = (msg.len() as u64) * 8;
        m.push(0x80);
        while m.len() % 64 != 56 {
            m.push(0);
        }
        m.extend_from_slice(&bits.to_le_bytes());
        for b in m.chunks_exact(64) {
            compress(&mut state, b);
        }
        state
    }

    #[test]
    fn md5_of_known_strings() {
        let hex = |d: [u8; 16]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(hex(md5(b"")), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(hex(md5(b"abc")), "900150983cd24fb0d6963f7d28e17f72");
        let long = [b'a'; 100];
        assert_eq!(hex(md5(&long)), "36a92cc94a9e0fa21f625f8bfb007adf");
    }

    #[test]
    fn compression_matches_rfc1321_vectors() {
        let hex = |s: [u32; 4]| s.iter().map(|w| format!("{:08x}", w.swap_bytes())).collect::<String>();
        assert_eq!(hex(md5_plain(b"")), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(hex(md5_plain(b"abc")), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(
            hex(md5_plain(b"12345678901234567890123456789012345678901234567890123456789012345678901234567890")),
            "57edf4a22be3c955ac49da2e2107b67a"
        );
    }
}
