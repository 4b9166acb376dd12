//! `dxbc scan` and `dxbc extract`: carve every container out of files and
//! whole folders ([`dxbc::carve`]), in parallel over files (rayon).

use dxbc::carve::{self, Carve, Checksum, Facts};
use dxbc::Shader;
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Largest file read whole: carving holds one file in memory per thread.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Every regular file under `paths` (folders walked recursively, in name
/// order; symbolic links are not followed into folders).
pub fn walk(paths: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        let path = PathBuf::from(p);
        let meta = std::fs::metadata(&path).map_err(|e| format!("cannot read {p}: {e}"))?;
        if meta.is_dir() {
            walk_dir(&path, &mut out)?;
        } else {
            out.push(path);
        }
    }
    Ok(out)
}

fn walk_dir(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            walk_dir(&e.path(), out)?;
        } else if t.is_file() {
            out.push(e.path());
        }
    }
    Ok(())
}

/// Whether the translator takes the shader, with the same calls as
/// `dxbc translate --to wgsl` with its defaults: `Ok(())`, or the typed
/// limitation's name when it refuses (`None`: it failed otherwise, e.g. a
/// damaged program).
fn translates(bytes: &[u8]) -> Result<(), Option<&'static str>> {
    let s = Shader::parse(bytes).map_err(|_| None)?;
    s.program.as_ref().ok_or(None)?;
    let t = dxbc_naga::translate_standalone(&s, &dxbc_naga::Options::default())
        .map_err(|e| e.limitation().map(|l| l.name()))?;
    dxbc_naga::to_wgsl(&t).map(|_| ()).map_err(|e| e.limitation().map(|l| l.name()))
}

/// One JSON line of `dxbc scan`.
#[derive(Serialize)]
pub struct Line<'a> {
    pub file: &'a str,
    pub offset: usize,
    pub size: usize,
    pub sha256: String,
    pub profile: Option<String>,
    pub stage: Option<&'static str>,
    /// `dxbc`, `dxil` (not disassembled), `effect` or `none`.
    pub program: carve::ProgramKind,
    pub instructions: Option<u32>,
    pub temps: Option<u32>,
    pub features: Vec<&'static str>,
    /// SFI0's required hardware features.
    pub requires: Vec<&'static str>,
    pub creator: Option<String>,
    pub checksum: Checksum,
    /// The name an enclosing effect gives it (`Technique/Pass/vs`, or the variable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The effect's parts of that name: group, technique, pass, stage, variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<&'a dxbc::effects::ShaderName>,
    /// Offset of the enclosing container found in the same file (an effect).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inside: Option<usize>,
    /// Decoding faults (the first), for a container that did not decode cleanly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether `dxbc translate` takes it (false for DXIL, effects, and with `--no-translate`).
    pub translates: bool,
    /// The translator's typed reason when it refuses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<&'static str>,
}

/// Lower-case hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Everything found in one file.
pub struct FileScan {
    pub lines: Vec<String>,
    /// Facts of each found container (for `--summary`).
    pub facts: Vec<(Checksum, Facts)>,
    pub error: Option<String>,
}

fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{}: {} bytes is more than scan reads ({} bytes)",
            path.display(),
            meta.len(),
            MAX_FILE_BYTES
        ));
    }
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn scan_file(path: &Path, translate: bool) -> FileScan {
    match read_bounded(path) {
        Ok(data) => scan_bytes(&path.to_string_lossy(), &data, translate),
        Err(e) => FileScan { lines: Vec::new(), facts: Vec::new(), error: Some(e) },
    }
}

/// Everything `dxbc scan` reports about one file's bytes (`name` is the
/// `file` of each line): carving, then per container the SHA-256, the
/// decoded facts and, with `translate`, the translation check.
pub fn scan_bytes(name: &str, data: &[u8], translate: bool) -> FileScan {
    let mut f = FileScan { lines: Vec::new(), facts: Vec::new(), error: None };
    let found: Carve = carve::carve(data);
    for c in &found.found {
        let bytes = &data[c.range()];
        // Carving checked the header and chunk table, so decoding succeeds.
        let Ok(s) = Shader::decode(bytes) else { continue };
        let facts = Facts::of(&s);
        let line = Line {
            file: name,
            offset: c.offset,
            size: c.size,
            sha256: sha256_hex(bytes),
            profile: facts.profile.clone(),
            stage: facts.stage,
            program: facts.program,
            instructions: facts.instructions,
            temps: facts.temps,
            features: facts.features.iter().map(|f| f.name()).collect(),
            requires: facts.requires.clone(),
            creator: facts.creator.clone(),
            checksum: c.checksum,
            name: c.name.as_ref().map(|n| n.label()),
            effect: c.name.as_ref(),
            inside: c.parent.map(|i| found.found[i].offset),
            error: s.errors.first().map(|e| format!("{}: {e}", e.kind())),
            translates: false,
            refused: None,
        };
        let mut line = line;
        if translate && c.program == carve::ProgramKind::Dxbc {
            match translates(bytes) {
                Ok(()) => line.translates = true,
                Err(reason) => line.refused = reason,
            }
        }
        f.lines.push(serde_json::to_string(&line).unwrap_or_default());
        f.facts.push((c.checksum, facts));
    }
    f
}

/// Scans every file, in parallel batches; calls `each` with each file's
/// result in input order as its batch completes, and reports progress on
/// stderr (at most once a second).
pub fn scan(files: &[PathBuf], translate: bool, mut each: impl FnMut(FileScan)) {
    const BATCH: usize = 64;
    let start = Instant::now();
    let mut last = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let mut shaders = 0;
    for (b, batch) in files.chunks(BATCH).enumerate() {
        let results: Vec<FileScan> = batch.par_iter().map(|p| scan_file(p, translate)).collect();
        for r in results {
            shaders += r.lines.len();
            each(r);
        }
        if last.elapsed() >= Duration::from_secs(1) {
            last = Instant::now();
            let n = (b * BATCH + batch.len()).min(files.len());
            let msg = format!("dxbc scan: {n}/{} files, {shaders} shaders", files.len());
            if tty {
                eprint!("\r{msg}");
            } else {
                eprintln!("{msg}");
            }
        }
    }
    let clear = if tty { "\r" } else { "" };
    eprintln!("{clear}dxbc scan: {} files, {shaders} shaders in {:.1} s", files.len(), start.elapsed().as_secs_f64());
}

/// Histograms over everything scanned, for `--summary`.
#[derive(Default)]
pub struct Summary {
    pub files: usize,
    pub shaders: usize,
    pub by_checksum: std::collections::BTreeMap<&'static str, usize>,
    pub by_profile: std::collections::BTreeMap<String, usize>,
    /// Shaders using each feature.
    pub features: std::collections::BTreeMap<&'static str, usize>,
    /// Occurrences of each opcode over all programs, and in how many shaders.
    pub opcodes: std::collections::BTreeMap<&'static str, (u64, usize)>,
}

impl Summary {
    pub fn add(&mut self, f: &FileScan) {
        self.files += 1;
        for (checksum, facts) in &f.facts {
            self.shaders += 1;
            *self.by_checksum.entry(checksum.name()).or_default() += 1;
            *self.by_profile.entry(facts.profile.clone().unwrap_or_else(|| "(none)".into())).or_default() += 1;
            for feat in &facts.features {
                *self.features.entry(feat.name()).or_default() += 1;
            }
            for name in &facts.requires {
                *self.features.entry(name).or_default() += 1;
            }
            for &(op, n) in &facts.opcodes {
                let e = self.opcodes.entry(op).or_default();
                e.0 += u64::from(n);
                e.1 += 1;
            }
        }
    }

    /// The text `dxbc scan --summary` prints: each histogram most frequent first.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut o = String::new();
        let _ = writeln!(o, "files\t{}\nshaders\t{}", self.files, self.shaders);
        let sorted = |m: Vec<(String, String, u64)>| {
            let mut m = m;
            m.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
            m
        };
        let section = |o: &mut String, title: &str, rows: Vec<(String, String, u64)>| {
            let _ = writeln!(o, "\n{title}");
            for (k, v, _) in sorted(rows) {
                let _ = writeln!(o, "{k}\t{v}");
            }
        };
        section(
            &mut o,
            "checksum\tshaders",
            self.by_checksum.iter().map(|(k, &v)| (k.to_string(), v.to_string(), v as u64)).collect(),
        );
        section(
            &mut o,
            "profile\tshaders",
            self.by_profile.iter().map(|(k, &v)| (k.clone(), v.to_string(), v as u64)).collect(),
        );
        section(
            &mut o,
            "feature\tshaders",
            self.features.iter().map(|(k, &v)| (k.to_string(), v.to_string(), v as u64)).collect(),
        );
        section(
            &mut o,
            "opcode\tcount\tshaders",
            self.opcodes.iter().map(|(k, &(n, s))| (k.to_string(), format!("{n}\t{s}"), n)).collect(),
        );
        o
    }
}

/// `NAME_OFFSET.dxbc` for a container found at `offset` in `path`;
/// `NAME_SHADER_OFFSET.dxbc` when an effect names the shader (`SHADER` is
/// that name with every character but letters, digits, `-` and `.` made `_`,
/// at most 64 of them, so a shader-controlled name cannot leave the folder).
pub fn extract_name(path: &Path, offset: usize, name: Option<&str>) -> String {
    let stem = path.file_stem().map_or_else(|| "input".into(), |s| s.to_string_lossy().into_owned());
    match name {
        Some(n) => {
            let clean: String = n
                .chars()
                .take(64)
                .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' })
                .collect();
            format!("{stem}_{clean}_{offset}.dxbc")
        }
        None => format!("{stem}_{offset}.dxbc"),
    }
}

/// Writes every container found in `files` to `out`; returns how many.
pub fn extract(files: &[PathBuf], out: &Path) -> Result<usize, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let written = AtomicUsize::new(0);
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    files.par_iter().for_each(|path| {
        let data = match read_bounded(path) {
            Ok(d) => d,
            Err(e) => {
                if let Ok(mut v) = errors.lock() {
                    v.push(e);
                }
                return;
            }
        };
        for c in carve::carve(&data).found {
            let label = c.name.as_ref().map(|n| n.label());
            let dest = out.join(extract_name(path, c.offset, label.as_deref()));
            match std::fs::write(&dest, &data[c.range()]) {
                Ok(()) => {
                    written.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => {
                    if let Ok(mut v) = errors.lock() {
                        v.push(format!("cannot write {}: {e}", dest.display()));
                    }
                }
            }
        }
    });
    let n = written.load(Ordering::Relaxed);
    eprintln!("dxbc extract: {n} containers from {} files", files.len());
    match errors.into_inner().unwrap_or_default().into_iter().next() {
        Some(e) => Err(e),
        None => Ok(n),
    }
}

/// Runs `dxbc scan`: JSON lines (or the summary) on `out`.
pub fn run(paths: &[String], summary: bool, translate: bool, out: &mut impl Write) -> Result<(), String> {
    let files = walk(paths)?;
    let mut hist = Summary::default();
    let mut first_error = None;
    let mut write_error = None;
    scan(&files, translate && !summary, |f| {
        if let Some(e) = &f.error {
            eprintln!("dxbc: {e}");
            first_error.get_or_insert_with(|| e.clone());
        }
        if summary {
            hist.add(&f);
        } else {
            for l in &f.lines {
                if let Err(e) = writeln!(out, "{l}") {
                    write_error.get_or_insert_with(|| format!("cannot write output: {e}"));
                }
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    if summary {
        out.write_all(hist.text().as_bytes()).map_err(|e| format!("cannot write output: {e}"))?;
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
