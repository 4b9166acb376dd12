//! The refusal table: over a set of containers, how many translate and how
//! many are refused, counted by [`Limitation`] and by stage, then for each
//! output language how many are written and why the others are not. The
//! `refusals` example prints it; the corpus test asserts against it.

use crate::{Language, Limitation, Options, OutputError, TranslateError, Translation};
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
    /// Per output language, over the containers with a program.
    pub targets: BTreeMap<Language, TargetCounts>,
    /// GS/HS/DS in their compute form ([`crate::translate_standalone`]),
    /// counted apart so the VS/PS/CS figures above stay comparable.
    pub compute_form: ComputeFormCounts,
}

/// Outcomes of GS/HS/DS translated to their compute form.
#[derive(Clone, Debug, Default)]
pub struct ComputeFormCounts {
    /// Translated and validated, by stage prefix.
    pub translated: BTreeMap<&'static str, usize>,
    /// Refusals by limitation, then by stage prefix.
    pub refused: BTreeMap<Limitation, BTreeMap<&'static str, usize>>,
    /// WGSL written, by stage prefix.
    pub wgsl_written: BTreeMap<&'static str, usize>,
    /// SPIR-V written, by stage prefix.
    pub spirv_written: BTreeMap<&'static str, usize>,
    /// Malformed input or naga validation failures (translator bugs).
    pub errors: Vec<(PathBuf, TranslateError)>,
    /// Writer failures on translated modules (WGSL or SPIR-V).
    pub failed: Vec<(PathBuf, OutputError)>,
}

impl ComputeFormCounts {
    /// The stages counted.
    pub const STAGES: [&'static str; 3] = ["gs", "hs", "ds"];

    /// Counts one GS/HS/DS container.
    pub fn add(&mut self, file: &Path, shader: &dxbc::Shader) {
        let stage = stage_of(shader);
        // A hull shader runs as two passes (control points, patch
        // constants): it translates when both do. Other stages: the form
        // they take on their own.
        let standalone = [crate::StageForm::standalone(shader)];
        let forms: &[crate::StageForm] = if stage == "hs" { crate::StageForm::passes(shader) } else { &standalone };
        let mut translations = Vec::new();
        for &form in forms {
            match crate::translate_pipeline_stage(shader, &Options::default(), form) {
                Ok(t) => translations.push(t),
                Err(TranslateError::Unsupported { limitation, .. }) => {
                    *self.refused.entry(limitation).or_default().entry(stage).or_default() += 1;
                    return;
                }
                Err(e) => {
                    self.errors.push((file.to_path_buf(), e));
                    return;
                }
            }
        }
        *self.translated.entry(stage).or_default() += 1;
        let wgsl: Result<Vec<_>, _> = translations.iter().map(crate::to_wgsl).collect();
        match wgsl {
            Ok(_) => *self.wgsl_written.entry(stage).or_default() += 1,
            Err(e) => self.failed.push((file.to_path_buf(), e)),
        }
        let spirv: Result<Vec<_>, _> = translations.iter().map(crate::to_spirv).collect();
        match spirv {
            Ok(_) => *self.spirv_written.entry(stage).or_default() += 1,
            Err(e) => self.failed.push((file.to_path_buf(), e)),
        }
    }

    /// (translated, refused) for one stage.
    pub fn count(&self, stage: &str) -> (usize, usize) {
        let ok = self.translated.get(stage).copied().unwrap_or(0);
        let refused = self.refused.values().filter_map(|m| m.get(stage)).sum();
        (ok, refused)
    }

    /// A line per stage, then the refusals by limitation.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for st in Self::STAGES {
            let (ok, refused) = self.count(st);
            s.push_str(&format!(
                "{st} compute form: {ok} of {} translate ({:.1} %), WGSL {} written, SPIR-V {} written\n",
                ok + refused,
                if ok + refused == 0 { 0.0 } else { 100.0 * ok as f64 / (ok + refused) as f64 },
                self.wgsl_written.get(st).copied().unwrap_or(0),
                self.spirv_written.get(st).copied().unwrap_or(0),
            ));
        }
        for (l, m) in &self.refused {
            let per: Vec<String> = m.iter().map(|(st, n)| format!("{st} {n}")).collect();
            s.push_str(&format!("  refused {}: {} ({})\n", l.name(), per.join(", "), l.why()));
        }
        for (f, e) in &self.errors {
            s.push_str(&format!("compute form error: {}: {e}\n", f.display()));
        }
        for (f, e) in &self.failed {
            s.push_str(&format!("compute form writer failed: {}: {e}\n", f.display()));
        }
        s
    }
}

/// One output language's outcomes over a set of containers.
#[derive(Clone, Debug, Default)]
pub struct TargetCounts {
    /// Written, by stage prefix.
    pub written: BTreeMap<&'static str, usize>,
    /// Not written because of a limitation (the translation's own refusal
    /// or this language's), by limitation, then by stage prefix.
    pub refused: BTreeMap<Limitation, BTreeMap<&'static str, usize>>,
    /// Withheld for a known naga defect, by stage prefix.
    pub withheld: BTreeMap<&'static str, usize>,
    /// The writer failed: the file and naga's message.
    pub failed: Vec<(PathBuf, String)>,
}

impl TargetCounts {
    /// (written, refused or withheld or failed) over the given stages.
    pub fn count(&self, stages: &[&str]) -> (usize, usize) {
        let sum = |m: &BTreeMap<&'static str, usize>| -> usize {
            m.iter().filter(|(s, _)| stages.contains(s)).map(|(_, n)| n).sum()
        };
        let refused: usize = self.refused.values().map(sum).sum();
        (sum(&self.written), refused + sum(&self.withheld) + self.failed.len())
    }

    /// Refusals of `limitation` over the given stages.
    pub fn refused_in(&self, limitation: Limitation, stages: &[&str]) -> usize {
        self.refused.get(&limitation).map_or(0, |m| m.iter().filter(|(s, _)| stages.contains(s)).map(|(_, n)| n).sum())
    }
}

/// Runs `language`'s writer (SPIR-V: the words) and drops the output.
pub fn write(t: &Translation, language: Language) -> Result<(), OutputError> {
    match language {
        Language::Wgsl => crate::to_wgsl(t).map(drop),
        Language::Spirv => crate::to_spirv(t).map(drop),
        Language::Hlsl => crate::to_hlsl(t).map(drop),
        Language::Msl => crate::to_msl(t).map(drop),
        Language::Glsl => crate::to_glsl(t).map(drop),
    }
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
            t.add(f, &shader, crate::translate(&shader, &Options::default()).as_ref());
            if ComputeFormCounts::STAGES.contains(&stage_of(&shader)) {
                t.compute_form.add(f, &shader);
            }
        }
        Ok(t)
    }

    /// Counts one outcome, running every writer on a translation.
    pub fn add(&mut self, file: &Path, shader: &dxbc::Shader, outcome: Result<&Translation, &TranslateError>) {
        let stage = stage_of(shader);
        match outcome {
            Ok(t) => {
                *self.translated.entry(stage).or_default() += 1;
                for language in Language::ALL {
                    let c = self.targets.entry(language).or_default();
                    match write(t, language) {
                        Ok(()) => *c.written.entry(stage).or_default() += 1,
                        Err(OutputError::Withheld { .. }) => *c.withheld.entry(stage).or_default() += 1,
                        // A refusal, the software-doubles lowering's included, or a failure.
                        Err(e) => match e.limitation() {
                            Some(limitation) => {
                                *c.refused.entry(limitation).or_default().entry(stage).or_default() += 1
                            }
                            None => c.failed.push((file.to_path_buf(), e.to_string())),
                        },
                    }
                }
            }
            Err(&TranslateError::Unsupported { limitation, .. }) => {
                *self.refused.entry(limitation).or_default().entry(stage).or_default() += 1;
                for language in Language::ALL {
                    let c = self.targets.entry(language).or_default();
                    *c.refused.entry(limitation).or_default().entry(stage).or_default() += 1;
                }
            }
            Err(e) => self.errors.push((file.to_path_buf(), e.clone())),
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
        s.push('\n');
        s.push_str(&self.render_targets());
        s.push('\n');
        s.push_str(&self.compute_form.render());
        s
    }

    /// The per-target table over VS/PS/CS: a line per language (written of
    /// all), then one row per limitation with its refusals per language.
    pub fn render_targets(&self) -> String {
        let vpc = ["vs", "ps", "cs"];
        let empty = TargetCounts::default();
        let of = |l: Language| self.targets.get(&l).unwrap_or(&empty);
        let mut s = String::new();
        for l in Language::ALL {
            let c = of(l);
            let (ok, not) = c.count(&vpc);
            let withheld: usize = c.withheld.iter().filter(|(st, _)| vpc.contains(st)).map(|(_, n)| n).sum();
            s.push_str(&format!(
                "{:<6} VS/PS/CS: {ok} of {} written ({:.1} %), {withheld} withheld, {} writer failures\n",
                l.id(),
                ok + not,
                if ok + not == 0 { 0.0 } else { 100.0 * ok as f64 / (ok + not) as f64 },
                c.failed.len()
            ));
        }
        s.push_str(&format!("{:<34}", "VS/PS/CS refused by target"));
        for l in Language::ALL {
            s.push_str(&format!(" {:>5}", l.id()));
        }
        s.push('\n');
        let mut rows: Vec<Limitation> = self
            .targets
            .values()
            .flat_map(|c| c.refused.keys().copied())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        rows.retain(|&r| Language::ALL.iter().any(|&l| of(l).refused_in(r, &vpc) > 0));
        rows.sort_by_key(|&r| (std::cmp::Reverse(of(Language::Wgsl).refused_in(r, &vpc)), r));
        for r in rows {
            s.push_str(&format!("{:<34}", r.name()));
            for l in Language::ALL {
                s.push_str(&format!(" {:>5}", of(l).refused_in(r, &vpc)));
            }
            s.push('\n');
        }
        for l in Language::ALL {
            for (f, e) in &of(l).failed {
                s.push_str(&format!("{} writer failed: {}: {e}\n", l.id(), f.display()));
            }
        }
        s
    }
}
