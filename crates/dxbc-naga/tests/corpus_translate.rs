//! Every VS/PS/CS of the corpus either translates to a module naga
//! validates, or fails with a message from the documented list.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn walk(d: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(d).unwrap_or_else(|e| panic!("corpus {} missing: {e}", d.display())).flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxbc") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_translates_or_fails_documented() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for sub in ["fxc", "blobs", "vkd3d"] {
        walk(&root.join(sub), &mut files);
    }
    files.sort();
    let mut ok = 0;
    let mut reasons: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut wgsl_fail = 0;
    let mut undocumented = Vec::new();
    let mut backend_fail: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let Ok(shader) = dxbc::Shader::parse(&bytes) else {
            continue;
        };
        match dxbc_naga::translate(&shader, &dxbc_naga::Options::default()) {
            Ok(t) => {
                ok += 1;
                if dxbc_naga::to_wgsl(&t).is_err() {
                    wgsl_fail += 1;
                }
                for (name, r) in
                    [("glsl", dxbc_naga::to_glsl(&t)), ("msl", dxbc_naga::to_msl(&t)), ("hlsl", dxbc_naga::to_hlsl(&t))]
                {
                    if let Err(e) = r {
                        let key = format!("{name}: {}", e.to_string().chars().take(80).collect::<String>());
                        *backend_fail.entry(key).or_default() += 1;
                    }
                }
            }
            Err(e) => {
                let msg = e.to_string();
                let documented = match &e {
                    dxbc_naga::TranslateError::Unsupported { what, .. } => {
                        dxbc_naga::LIMITATIONS.iter().any(|(prefix, _)| what.starts_with(prefix))
                    }
                    _ => false,
                };
                if !documented {
                    undocumented.push(format!("{}: {msg}", f.display()));
                }
                let key: String = msg.split(" (at offset").next().unwrap_or(&msg).chars().take(90).collect();
                let entry = reasons.entry(key).or_insert((0, f.display().to_string()));
                entry.0 += 1;
            }
        }
    }
    println!("{ok}/{} translate and validate; WGSL writer failures: {wgsl_fail}", files.len());
    let mut v: Vec<_> = reasons.iter().collect();
    v.sort_by_key(|(_, (n, _))| std::cmp::Reverse(*n));
    for (k, (n, example)) in v.iter().take(60) {
        println!("{n:5}  {k}   e.g. {example}");
    }
    for (k, n) in &backend_fail {
        println!("backend error {n:5}  {k}");
    }
    assert_eq!(wgsl_fail, 0, "the WGSL writer rejected validated modules");
    assert!(
        undocumented.is_empty(),
        "undocumented failures (validation errors are translator bugs):\n{}",
        undocumented.join("\n")
    );
    assert!(ok >= 2900, "only {ok} shaders translate");
}

/// Every SPIR-V module we emit for the corpus passes `spirv-val` (Debian's
/// spirv-tools; the test fails if the tool is missing).
#[test]
fn spirv_output_passes_spirv_val() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for sub in ["fxc", "blobs", "vkd3d"] {
        walk(&root.join(sub), &mut files);
    }
    files.sort();
    let dir = std::env::temp_dir().join(format!("dxbc-spv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut modules = Vec::new();
    for f in &files {
        let Ok(shader) = dxbc::Shader::parse(&std::fs::read(f).unwrap()) else { continue };
        let Ok(t) = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()) else { continue };
        let words = match dxbc_naga::to_spirv(&t) {
            Ok(w) => w,
            Err(dxbc_naga::OutputError::Withheld { .. }) => continue,
            Err(e) => panic!("{}: SPIR-V writer: {e}", f.display()),
        };
        let out = dir.join(format!("{}.spv", modules.len()));
        std::fs::write(&out, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
        modules.push((f.clone(), out));
    }
    // Validate in two parallel streams.
    let half = modules.len() / 2;
    let (a, b) = modules.split_at(half);
    let run = |set: &[(PathBuf, PathBuf)]| -> Vec<String> {
        let mut bad = Vec::new();
        for (src, spv) in set {
            let o = std::process::Command::new("spirv-val")
                .args(["--target-env", "vulkan1.1"])
                .arg(spv)
                .output()
                .expect("spirv-val is missing: install Debian's spirv-tools");
            if !o.status.success() {
                bad.push(format!(
                    "{}: {}",
                    src.display(),
                    String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or("")
                ));
            }
        }
        bad
    };
    let (bad_a, bad_b) = std::thread::scope(|s| {
        let h = s.spawn(|| run(a));
        let r = run(b);
        (h.join().unwrap(), r)
    });
    let bad: Vec<String> = bad_a.into_iter().chain(bad_b).collect();
    let _ = std::fs::remove_dir_all(&dir);
    println!("{}/{} SPIR-V modules pass spirv-val", modules.len() - bad.len(), modules.len());
    for b in bad.iter().take(20) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} modules fail spirv-val", bad.len());
}
