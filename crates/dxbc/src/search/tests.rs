use super::*;

#[test]
fn tint_example_kinds() {
    let bytes = crate::examples::tint_pixel_shader();
    let s = Shader::decode(&bytes).unwrap();
    let lines: Vec<String> = crate::listing::disassemble(&s).lines().map(String::from).collect();
    let f = search(&s, &Query::parse("mul"));
    assert_eq!(f.matches.len(), 1);
    assert!(lines[f.matches[0].line.unwrap()].starts_with("mul o0.xyzw"));
    // The ret token 0x0100003e, little-endian, is the last dword.
    let f = search(&s, &Query::parse("3e 00 00 01"));
    assert_eq!(f.matches.iter().map(|m| m.range.clone()).collect::<Vec<_>>(), vec![bytes.len() - 4..bytes.len()]);
    assert_eq!(lines[f.matches[0].line.unwrap()], "ret ");
    let f = search(&s, &Query::parse(&format!("@{}", bytes.len() - 2)));
    assert_eq!(f.matches[0].range, bytes.len() - 4..bytes.len());
    let f = search(&s, &Query::parse("o0"));
    let texts: Vec<&str> = f.matches.iter().map(|m| lines[m.line.unwrap()].as_str()).collect();
    assert_eq!(texts, ["dcl_output o0.xyzw", "mul o0.xyzw, v0.xyzw, cb0[0].xyzw"]);
    assert_eq!(f.matches[1].kind, MatchKind::Operand(Access::Write));
    assert!(search(&s, &Query::parse("nothing_here")).matches.is_empty());
}

#[test]
fn find_all_is_every_overlapping_occurrence() {
    let naive = |h: &[u8], p: &[u8]| -> Vec<usize> {
        (0..=h.len().saturating_sub(p.len())).filter(|&i| h[i..].starts_with(p)).collect()
    };
    let cases: [(&[u8], &[u8]); 5] =
        [(b"aaaa", b"aa"), (b"abababa", b"aba"), (b"abcabdabc", b"abc"), (b"xyz", b"xyzw"), (b"aabaabaaab", b"aab")];
    for (h, p) in cases {
        assert_eq!(find_all(h, p, usize::MAX), naive(h, p), "{h:?} {p:?}");
    }
    assert_eq!(find_all(&[0; 100], &[0; 4], 3), [0, 1, 2]);
}
