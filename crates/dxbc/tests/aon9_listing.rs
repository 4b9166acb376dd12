//! Every `.dxbc` of the fxc corpus that carries an `Aon9` chunk: decode it
//! and check that the level-9 text appears verbatim in fxc's listing, right
//! after the signature block's closing `//` line.

use dxbc::chunks::aon9::Aon9;
use dxbc::Container;
use std::path::Path;

const CORPUS: &str = "/work/shared/corpus/fxc";
const EXPECTED_FILES: usize = 36;

#[test]
fn aon9_listings_match_fxc() {
    let dir = Path::new(CORPUS);
    assert!(dir.is_dir(), "corpus directory {CORPUS} is missing");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("read corpus directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dxbc"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no .dxbc files in {CORPUS}");

    let mut total = 0;
    let mut identical = 0;
    let mut failures = Vec::new();
    for path in &paths {
        let bytes = std::fs::read(path).expect("read .dxbc");
        let container = Container::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let Some(chunk) = container.chunks.iter().find(|c| &c.tag == b"Aon9") else {
            continue;
        };
        total += 1;
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let golden = std::fs::read_to_string(path.with_extension("asm")).expect("read golden .asm");
        let aon9 = match Aon9::parse(&bytes[chunk.data_range()], chunk.offset + 8) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{name}: parse error: {e}"));
                continue;
            }
        };
        // The profile suffix must agree with the corpus manifest.
        let profile = manifest_profile(&name);
        match aon9.level9_suffix() {
            Some(suffix) if profile.as_deref().is_some_and(|p| p.ends_with(&suffix)) => {}
            other => {
                failures.push(format!("{name}: suffix {other:?} does not match manifest profile {profile:?}"));
                continue;
            }
        }
        let mut text = String::new();
        aon9.write_listing(dxbc::chunks::aon9::Level9Kind::Aon9, &mut text);
        match golden.find(&text) {
            Some(at) => {
                // The boundary documented on write_listing: the signature
                // block's own closing `//` line comes right before.
                let before = &golden[..at];
                let ok_before = before.ends_with("\n//\n") && !before.ends_with("//\n//\n");
                // The SM4 program's version line follows.
                let after = &golden[at + text.len()..];
                let ok_after = after.starts_with("vs_4_0\n") || after.starts_with("ps_4_0\n");
                if ok_before && ok_after {
                    identical += 1;
                } else {
                    failures.push(format!("{name}: text found but not at the documented boundary"));
                }
            }
            None => failures.push(format!("{name}: listing differs\n{}", first_difference(&golden, &text))),
        }
    }
    println!("{identical}/{total} identical");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert_eq!(total, EXPECTED_FILES, "expected {EXPECTED_FILES} corpus files with an Aon9 chunk");
    assert!(failures.is_empty(), "{} of {total} Aon9 listings differ:\n{}", failures.len(), failures.join("\n"));
}

/// The `profile` column of MANIFEST.tsv for corpus file `name`.
fn manifest_profile(name: &str) -> Option<String> {
    let manifest = std::fs::read_to_string(Path::new(CORPUS).join("MANIFEST.tsv")).expect("read MANIFEST.tsv");
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next()?.split('\t').collect();
    let col = header.iter().position(|&h| h == "profile")?;
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f.first() == Some(&name))
        .and_then(|f| f.get(col).map(|s| s.to_string()))
}

/// Shows the first line of ours that is not where the golden text has it.
fn first_difference(golden: &str, ours: &str) -> String {
    let Some(start) = golden.find(ours.lines().next().unwrap_or("")) else {
        return "first line not found in golden".to_string();
    };
    let g = &golden[start..];
    for (i, (a, b)) in g.lines().zip(ours.lines()).enumerate() {
        if a != b {
            return format!("line {}:\n  fxc:  {a:?}\n  ours: {b:?}", i + 1);
        }
    }
    "one is a prefix of the other".to_string()
}
