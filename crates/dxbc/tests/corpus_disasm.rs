//! Golden test: our listing of every shader in ../shared/corpus/fxc must be
//! identical to fxc's own.

use std::path::PathBuf;

fn corpus() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    assert!(d.is_dir(), "corpus directory {} is missing: the golden test cannot run", d.display());
    d
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
    let mut program_same = 0;
    let mut program_report = String::new();
    let mut report = String::new();
    let verbose = std::env::var("DXBC_DIFF").is_ok();
    for path in &names {
        let bytes = std::fs::read(path).unwrap();
        let golden = std::fs::read_to_string(path.with_extension("asm")).unwrap();
        let ours = match dxbc::Shader::parse(&bytes) {
            Ok(s) => dxbc::listing::disassemble(&s),
            Err(e) => format!("error: {e}\n"),
        };
        // Also track the program part alone (from the profile line on), so
        // header and program regressions are told apart.
        if let Ok(s) = dxbc::Shader::parse(&bytes) {
            if let Some(prof) = s.program.as_ref().map(|p| p.version.profile()) {
                let cut = |t: &str| t.find(&format!("\n{prof}\n")).map(|i| t[i + 1..].to_string());
                if let (Some(a), Some(b)) = (cut(&golden), cut(&format!("\n{ours}"))) {
                    if a == b {
                        program_same += 1;
                    } else if verbose {
                        let (n, (x, y)) = a.lines().zip(b.lines().chain(std::iter::repeat("<end>"))).enumerate().find(|(_, (x, y))| x != y).unwrap_or((0, ("<len>", "<len>")));
                        program_report.push_str(&format!("{}:+{}\n  fxc: {}\n  ours: {}\n", path.file_name().unwrap().to_string_lossy(), n, x, y));
                    }
                }
            }
        }
        if ours == golden {
            same += 1;
        } else {
            let (n, a, b) = golden
                .lines()
                .zip(ours.lines().chain(std::iter::repeat("<end>")))
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .map(|(n, (a, b))| (n + 1, a.to_string(), b.to_string()))
                .unwrap_or((golden.lines().count() + 1, "<end>".into(), ours.lines().nth(golden.lines().count()).unwrap_or("<end>").into()));
            report.push_str(&format!(
                "{}:{}\n  fxc: {}\n  ours: {}\n",
                path.file_name().unwrap().to_string_lossy(),
                n,
                a,
                b
            ));
        }
    }
    if verbose {
        eprintln!("{report}");
    } else {
        eprintln!("{}", report.lines().take(60).collect::<Vec<_>>().join("\n"));
    }
    if verbose {
        eprintln!("PROGRAM PART\n{program_report}");
    }
    eprintln!("program part: {program_same}/{} identical", names.len());
    println!("{same}/{} identical", names.len());
    eprintln!("{same}/{} identical", names.len());
    assert!(same >= 433, "only {same}/438 listings identical (need 433)");
}
