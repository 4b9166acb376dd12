//! GLSL combines an image with its sampler: an image sampled through several
//! samplers gets one combined sampler per pair, and glslang (Debian's
//! glslang-tools; the test fails if it is missing) accepts the output.

use std::collections::BTreeSet;
use std::path::PathBuf;

fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel)
}

/// (texture, sampler) pairs of the `sample*` / `gather4*` instructions of
/// the fxc-style listing, e.g. `sample r0.xyzw, l(…), t3.xyzw, s2`.
fn sampled_pairs(listing: &str) -> BTreeSet<(String, String)> {
    let mut pairs = BTreeSet::new();
    for line in listing.lines().map(str::trim) {
        if !(line.starts_with("sample") || line.starts_with("gather4")) {
            continue;
        }
        let ops: Vec<&str> = line.split(", ").collect();
        // `t3` (SM4/5) or `T0[0]` (SM5.1: range and index).
        let reg = |prefix: char| {
            ops.iter().map(|o| o.split('.').next().unwrap_or("")).find_map(|o| {
                let rest = o.strip_prefix(prefix).or_else(|| o.strip_prefix(prefix.to_ascii_uppercase()))?;
                let ok = rest.starts_with(|c: char| c.is_ascii_digit())
                    && rest.chars().all(|c| c.is_ascii_digit() || c == '[' || c == ']');
                ok.then(|| o.to_string())
            })
        };
        if let (Some(t), Some(s)) = (reg('t'), reg('s')) {
            pairs.insert((t, s));
        }
    }
    pairs
}

#[test]
fn images_sampled_with_several_samplers_get_one_combined_sampler_per_pair() {
    // vkd3d's combined-samplers test: t3 is sampled with s0, s2 and s1.
    for rel in [
        "vkd3d/combined-samplers/030_ps_4_0.dxbc",
        "vkd3d/combined-samplers/030_ps_5_0.dxbc",
        "fxc/hbaoplus_blurx_ps_enable_sharpness_profile_0_kernel_radius_b50a.dxbc",
        "blobs/vkd3d_d3d12_ps_code_27.dxbc",
    ] {
        let path = corpus(rel);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("corpus file {} missing: {e}", path.display()));
        let shader = dxbc::Shader::parse(&bytes).unwrap();
        let pairs = sampled_pairs(&dxbc::listing::disassemble(&shader));
        let textures: BTreeSet<&String> = pairs.iter().map(|p| &p.0).collect();
        assert!(pairs.len() > textures.len(), "{rel}: no texture is sampled with two samplers: {pairs:?}");

        let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).unwrap();
        let glsl = dxbc_naga::to_glsl(&t).unwrap_or_else(|e| panic!("{rel}: {e}"));
        // One combined sampler per pair; the extra ones are named in the header.
        let combined = glsl.lines().filter(|l| l.starts_with("uniform ") && l.contains("sampler")).count();
        assert_eq!(combined, pairs.len(), "{rel}:\n{glsl}");
        let named = glsl.lines().filter(|l| l.starts_with("// ") && l.contains(" sampled with s")).count();
        assert_eq!(named, pairs.len() - textures.len(), "{rel}");

        let file =
            std::env::temp_dir().join(format!("dxbc-glsl-{}-{}.frag", std::process::id(), rel.replace('/', "_")));
        std::fs::write(&file, &glsl).unwrap();
        let out = std::process::Command::new("glslangValidator")
            .arg(&file)
            .output()
            .expect("glslangValidator is missing: install Debian's glslang-tools");
        let _ = std::fs::remove_file(&file);
        assert!(out.status.success(), "{rel}: glslang rejects the GLSL:\n{}", String::from_utf8_lossy(&out.stdout));
    }
}
