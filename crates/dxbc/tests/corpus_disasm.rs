//! Golden test: our listing of every shader in ../shared/corpus/fxc against
//! fxc's own.
//!
//! Prints "N/438 identical". Every listing that differs must fall in one of
//! the categories below, each a case where fxc printed something the file
//! does not carry; any other difference fails the test.
//! * `command line`: fxc 9.29 echoed its command line into the listing.
//! * `stripped legacy`: the file has no RDEF (so no creator string naming the
//!   compiler) and the listing was made by a pre-10 fxc, whose spelling
//!   (`///`, `dcl_constantbuffer cb0`) differs from the modern one we print;
//!   other stripped files in the corpus were listed by fxc 10.
//! * `debug source`: the listing interleaves HLSL source lines (`#line`,
//!   "Initial variable locations") from the SPDB debug chunk, which we do not
//!   decode yet.

use std::path::PathBuf;

fn corpus() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    assert!(d.is_dir(), "corpus directory {} is missing: the golden test cannot run", d.display());
    d
}

fn first_difference(golden: &str, ours: &str) -> (usize, String, String) {
    let mut g = golden.lines();
    let mut o = ours.lines();
    let mut n = 0;
    loop {
        n += 1;
        match (g.next(), o.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (a, b) => return (n, a.unwrap_or("<end>").to_string(), b.unwrap_or("<end>").to_string()),
        }
    }
}

fn explained(golden: &str, shader: &dxbc::Shader) -> Option<&'static str> {
    let header_end = golden.find("\n//\n").unwrap_or(0) + 200;
    if golden[..header_end.min(golden.len())].lines().any(|l| l.starts_with("//   fxc ")) {
        return Some("command line");
    }
    if shader.rdef.is_none() && (golden.contains("\n///\n") || golden.contains("\ndcl_constantbuffer cb")) {
        return Some("stripped legacy");
    }
    if golden.contains("\n#line ") && shader.container.find(b"SPDB").is_some() {
        return Some("debug source");
    }
    None
}

#[test]
fn disassembly_matches_fxc() {
    let dir = corpus();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 438, "expected 438 corpus shaders");
    let mut same = 0;
    let mut by_reason = std::collections::BTreeMap::<&str, usize>::new();
    let mut unexplained = Vec::new();
    let all = std::env::var("DXBC_DIFF").is_ok();
    for path in &names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(path).unwrap();
        let golden = std::fs::read_to_string(path.with_extension("asm")).unwrap();
        let shader = match dxbc::Shader::parse(&bytes) {
            Ok(s) => s,
            Err(e) => {
                unexplained.push(format!("{name}: does not decode: {e}"));
                continue;
            }
        };
        let ours = dxbc::listing::disassemble(&shader);
        if ours == golden {
            same += 1;
            continue;
        }
        let (n, a, b) = first_difference(&golden, &ours);
        match explained(&golden, &shader) {
            Some(r) if !all => *by_reason.entry(r).or_default() += 1,
            r => {
                if let Some(r) = r {
                    *by_reason.entry(r).or_default() += 1;
                }
                unexplained.push(format!("{name}:{n} ({})\n  fxc:  {a}\n  ours: {b}", r.unwrap_or("unexplained")));
            }
        }
    }
    println!("{same}/{} identical", names.len());
    for (r, n) in &by_reason {
        println!("  differing, {r}: {n}");
    }
    for u in unexplained.iter().take(if all { usize::MAX } else { 40 }) {
        println!("{u}");
    }
    if !all {
        assert!(unexplained.is_empty(), "{} listings differ for no documented reason", unexplained.len());
    }
    assert!(same >= 410, "only {same}/438 listings identical");
}
