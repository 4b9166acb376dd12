//! The corpus MANIFEST.tsv: which DXBC file belongs to which section and profile.

use std::collections::HashMap;
use std::path::Path;

/// One MANIFEST row.
#[derive(Clone, Debug)]
pub struct Row {
    pub test: String,
    /// Section index as written (`000`).
    pub section: String,
    pub line: usize,
    /// `ps`, `vs`, `cs`, `gs`, `hs`, `ds`, `fx`.
    pub stage: String,
    /// `ps_4_0`, `tpf-hex`, `d3dbc-hex`, `-`.
    pub profile: String,
    /// `ok`, `ok-hex`, `fail`, `skipped-…`.
    pub status: String,
    pub has_probes: String,
    pub header: String,
    /// `2.0..6.2`
    pub sm_range: String,
    pub require_caps: String,
}

impl Row {
    pub fn section_index(&self) -> usize {
        self.section.parse().unwrap_or(usize::MAX)
    }

    /// The DXBC file of this row inside `test_dir`.
    pub fn dxbc_file(&self, test_dir: &Path) -> std::path::PathBuf {
        if self.profile == "tpf-hex" {
            test_dir.join(format!("{}_tpfhex.dxbc", self.section))
        } else {
            let p = self.profile.split_once('_').map(|(_, v)| v).unwrap_or(&self.profile);
            test_dir.join(format!("{}_{}_{}.dxbc", self.section, self.stage, p))
        }
    }

    /// Shader model of a compiled profile (`ps_5_1` → 51).
    pub fn profile_sm(&self) -> Option<u32> {
        let mut it = self.profile.split('_').skip(1);
        let a: u32 = it.next()?.parse().ok()?;
        let b: u32 = it.next()?.parse().ok()?;
        Some(a * 10 + b)
    }

    /// Lower bound of the section's shader-model range.
    pub fn range_min(&self) -> Option<u32> {
        crate::parse::parse_sm(self.sm_range.split("..").next()?)
    }
}

/// Reads MANIFEST.tsv; rows grouped by test name, in file order.
pub fn read(path: &Path) -> Result<HashMap<String, Vec<Row>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().ok_or("empty manifest")?.split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).ok_or(format!("manifest has no '{name}' column"));
    let (ct, cs, cl, cst, cp, cstat, chp, chd, csm, ccap) = (
        col("test")?,
        col("section")?,
        col("line")?,
        col("stage")?,
        col("profile")?,
        col("status")?,
        col("has_probes")?,
        col("header")?,
        col("sm_range")?,
        col("require_caps")?,
    );
    let mut map: HashMap<String, Vec<Row>> = HashMap::new();
    for l in lines {
        if l.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = l.split('\t').collect();
        let g = |i: usize| f.get(i).copied().unwrap_or("").to_string();
        let row = Row {
            test: g(ct),
            section: g(cs),
            line: g(cl).parse().unwrap_or(0),
            stage: g(cst),
            profile: g(cp),
            status: g(cstat),
            has_probes: g(chp),
            header: g(chd),
            sm_range: g(csm),
            require_caps: g(ccap),
        };
        map.entry(row.test.clone()).or_default().push(row);
    }
    Ok(map)
}

/// Reads COMPILE_FAILURES.tsv: (test, section, profile) → compiler message.
pub fn read_failures(path: &Path) -> HashMap<(String, String, String), String> {
    let mut m = HashMap::new();
    if let Ok(text) = std::fs::read_to_string(path) {
        for l in text.lines().skip(1) {
            let f: Vec<&str> = l.split('\t').collect();
            if f.len() >= 5 {
                m.insert((f[0].to_string(), f[1].to_string(), f[2].to_string()), f[4].to_string());
            }
        }
    }
    m
}
