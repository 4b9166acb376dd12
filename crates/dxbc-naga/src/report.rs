//! The refusal table: over a set of containers, how many translate and how
//! many are refused, counted by [`Limitation`] and by stage. The
//! `refusals` example prints it; the corpus test asserts against it.

use crate::{Limitation, Options, TranslateError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Counts over a set of containers.
#[derive(Clone, Debug, Default)]
pub struct RefusalTable {
    /// Containers read.
    pub files: usize,
    /// Containers whose program did not decode (not counted below).
    pub undecodable: usize,
    /// Translated and validated, by stage prefix (`vs`, `ps`, `cs`).
    pub translated: BTreeMap<&'static str, usize>,
    /// Refusals by limitation, then by stage prefix.
    pub refused: BTreeMap<Limitation, BTreeMap<&'static str, usize>>,
    /// Errors that are not refusals (malformed input, naga validation):
    /// the file, and the error.
    pub errors: Vec<(PathBuf, TranslateError)>,
}

/// Every `.dxbc` file under `dir`, sorted.
pub fn dxbc_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let p = e?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The two-letter stage prefix of a shader (`xx` without a program).
pub fn stage_of(shader: &dxbc::Shader) -> &'static str {
    shader.program.as_ref().map_or("xx", |p| p.version.stage_prefix())
}

impl RefusalTable {
    /// Translates every file with default options and counts the outcome.
    pub fn of_files(files: &[PathBuf]) -> std::io::Result<RefusalTable> {
        let mut t = RefusalTable::default();
        for f in files {
            let bytes = std::fs::read(f)?;
            t.files += 1;
            let Ok(shader) = dxbc::Shader::parse(&bytes) else {
                t.undecodable += 1;
                continue;
            };
            t.add(f, &shader, crate::translate(&shader, &Options::default()).map(|_| ()));
        }
        Ok(t)
    }

    /// Counts one outcome.
    pub fn add(&mut self, file: &Path, shader: &dxbc::Shader, outcome: Result<(), TranslateError>) {
        let stage = stage_of(shader);
        match outcome {
            Ok(()) => *self.translated.entry(stage).or_default() += 1,
            Err(TranslateError::Unsupported { limitation, .. }) => {
                *self.refused.entry(limitation).or_default().entry(stage).or_default() += 1
            }
            Err(e) => self.errors.push((file.to_path_buf(), e)),
        }
    }

    /// Refusals of `limitation` over all stages.
    pub fn refused_total(&self, limitation: Limitation) -> usize {
        self.refused.get(&limitation).map_or(0, |m| m.values().sum())
    }

    /// Translated plus refused, for the given stages.
    pub fn count(&self, stages: &[&str]) -> (usize, usize) {
        let ok = self.translated.iter().filter(|(s, _)| stages.contains(s)).map(|(_, n)| n).sum();
        let refused =
            self.refused.values().flat_map(|m| m.iter()).filter(|(s, _)| stages.contains(s)).map(|(_, n)| n).sum();
        (ok, refused)
    }

    /// The table as text: a line of totals, then one row per limitation
    /// (most frequent first) with its count per stage and its reason.
    pub fn render(&self) -> String {
        let stages = ["vs", "ps", "cs", "gs", "hs", "ds"];
        let (ok, refused) = self.count(&["vs", "ps", "cs"]);
        let mut s = format!(
            "{} containers, {} undecodable; VS/PS/CS: {ok} of {} translate ({:.1} %), {refused} refused, {} other errors\n",
            self.files,
            self.undecodable,
            ok + refused,
            if ok + refused == 0 { 0.0 } else { 100.0 * ok as f64 / (ok + refused) as f64 },
            self.errors.len()
        );
        s.push_str(&format!("{:<34} {:>5}", "limitation", "total"));
        for st in stages {
            s.push_str(&format!(" {st:>4}"));
        }
        s.push_str("  why\n");
        let mut rows: Vec<_> = self.refused.keys().copied().collect();
        rows.sort_by_key(|l| (std::cmp::Reverse(self.refused_total(*l)), *l));
        for l in rows {
            s.push_str(&format!("{:<34} {:>5}", l.name(), self.refused_total(l)));
            for st in stages {
                let n = self.refused[&l].get(st).copied().unwrap_or(0);
                s.push_str(&format!(" {n:>4}"));
            }
            s.push_str(&format!("  {}\n", l.why()));
        }
        for (f, e) in &self.errors {
            s.push_str(&format!("error: {}: {e}\n", f.display()));
        }
        s
    }
}
