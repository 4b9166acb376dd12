//! Parser for vkd3d `.shader_test` files.
//!
//! The grammar is the one vkd3d's `tests/shader_runner.c` reads: a file is a
//! sequence of `[section]` blocks, numbered from 0 in file order (the corpus
//! MANIFEST names sections by that number). Lines starting with `%` are
//! comments. Test lines may carry `todo(...)`, `bug(...)` and `if(...)`
//! prefixes whose arguments are `|`-separated conjunctions of `sm>=X`,
//! `sm<X` and (optionally negated) backend tags.

use std::fmt;

/// A test-file line or section this runner cannot read; the message quotes
/// the text. The runner skips the section with it and never inspects it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong, quoting the text.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

impl From<&str> for ParseError {
    fn from(m: &str) -> Self {
        ParseError { message: m.to_string() }
    }
}

impl From<String> for ParseError {
    fn from(message: String) -> Self {
        ParseError { message }
    }
}

fn bad<T>(message: String) -> Result<T, ParseError> {
    Err(ParseError { message })
}

/// Shader model as `major * 10 + minor` (4.0 → 40, 5.1 → 51, 6.2 → 62).
pub type Sm = u32;

/// Parses "4", "4.0", "5.1", "6.2" into an [`Sm`].
pub fn parse_sm(s: &str) -> Option<Sm> {
    let s = s.trim();
    let (maj, min) = match s.split_once('.') {
        Some((a, b)) => (a, b),
        None => (s, "0"),
    };
    let maj: u32 = maj.parse().ok()?;
    let min: u32 = min.parse().ok()?;
    if min > 9 {
        return None;
    }
    Some(maj * 10 + min)
}

/// Pipeline stage of a shader section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Pixel,
    Vertex,
    Compute,
    Geometry,
    Hull,
    Domain,
    Effect,
}

impl Stage {
    /// The two-letter profile prefix (`ps`, `vs`, …).
    pub fn short(self) -> &'static str {
        match self {
            Stage::Pixel => "ps",
            Stage::Vertex => "vs",
            Stage::Compute => "cs",
            Stage::Geometry => "gs",
            Stage::Hull => "hs",
            Stage::Domain => "ds",
            Stage::Effect => "fx",
        }
    }

    pub fn from_short(s: &str) -> Option<Stage> {
        Some(match s {
            "ps" => Stage::Pixel,
            "vs" => Stage::Vertex,
            "cs" => Stage::Compute,
            "gs" => Stage::Geometry,
            "hs" => Stage::Hull,
            "ds" => Stage::Domain,
            "fx" => Stage::Effect,
            _ => return None,
        })
    }
}

/// What a `[...]` header introduces.
#[derive(Clone, Debug, PartialEq)]
pub enum SectionKind {
    Require,
    /// A shader; `attrs` is the rest of the header (`fail(sm<6) todo`, `dxbc-tpf-hex`, …).
    Shader {
        stage: Stage,
        attrs: String,
    },
    Test,
    Srv(u32),
    Uav(u32),
    Rtv(u32),
    Dsv,
    Vb(u32),
    Sampler(u32),
    InputLayout,
    Preproc,
    Other(String),
}

/// One `[...]` block.
#[derive(Clone, Debug)]
pub struct Section {
    /// 0-based index in the file (the MANIFEST's `section` column).
    pub index: usize,
    /// 1-based line of the header.
    pub line: usize,
    /// Header text without brackets.
    pub header: String,
    pub kind: SectionKind,
    /// Body lines (1-based line number, text), comments and blank lines removed
    /// for every kind but shaders, which keep their text verbatim.
    pub lines: Vec<(usize, String)>,
}

/// A parsed `.shader_test` file.
#[derive(Clone, Debug, Default)]
pub struct TestFile {
    pub sections: Vec<Section>,
}

fn header_kind(h: &str) -> SectionKind {
    let h = h.trim();
    let word_after = |prefix: &str| -> Option<String> {
        let rest = h.strip_prefix(prefix)?;
        if rest.is_empty() || rest.starts_with(' ') || rest.starts_with('(') {
            Some(rest.trim().to_string())
        } else {
            None
        }
    };
    let num_after = |prefix: &str| -> Option<u32> { h.strip_prefix(prefix)?.trim().parse().ok() };
    for (p, st) in [
        ("pixel shader", Stage::Pixel),
        ("vertex shader", Stage::Vertex),
        ("compute shader", Stage::Compute),
        ("geometry shader", Stage::Geometry),
        ("hull shader", Stage::Hull),
        ("domain shader", Stage::Domain),
        ("effect", Stage::Effect),
    ] {
        if let Some(attrs) = word_after(p) {
            return SectionKind::Shader { stage: st, attrs };
        }
    }
    match h {
        "require" => return SectionKind::Require,
        "test" => return SectionKind::Test,
        "dsv" => return SectionKind::Dsv,
        "input layout" => return SectionKind::InputLayout,
        "preproc" | "preproc fail" => return SectionKind::Preproc,
        _ => {}
    }
    if let Some(n) = num_after("srv ") {
        return SectionKind::Srv(n);
    }
    if let Some(n) = num_after("uav ") {
        return SectionKind::Uav(n);
    }
    if let Some(n) = num_after("rtv ") {
        return SectionKind::Rtv(n);
    }
    if let Some(n) = num_after("vb ") {
        return SectionKind::Vb(n);
    }
    if let Some(n) = num_after("sampler ") {
        return SectionKind::Sampler(n);
    }
    SectionKind::Other(h.to_string())
}

/// Splits a file into sections.
pub fn parse_file(text: &str) -> TestFile {
    let mut sections: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let line = raw.trim_end_matches('\r');
        if line.starts_with('[') {
            let end = line.rfind(']').unwrap_or(line.len());
            let header = line[1..end].to_string();
            sections.push(Section {
                index: sections.len(),
                line: lineno,
                kind: header_kind(&header),
                header,
                lines: Vec::new(),
            });
            continue;
        }
        let Some(sec) = sections.last_mut() else { continue };
        if matches!(sec.kind, SectionKind::Shader { .. }) {
            sec.lines.push((lineno, line.to_string()));
            continue;
        }
        if line.starts_with('%') || line.trim().is_empty() {
            continue;
        }
        sec.lines.push((lineno, line.trim().to_string()));
    }
    TestFile { sections }
}

// ---------------------------------------------------------------- qualifiers

/// The environment qualifiers are evaluated in.
#[derive(Clone, Debug)]
pub struct QualEnv {
    /// Shader model of the run.
    pub sm: Sm,
    /// Backend tags that hold (`vulkan`, `llvmpipe`, …).
    pub tags: Vec<String>,
}

/// Evaluates the inside of a qualifier's parentheses: `a & b | c`.
pub fn eval_qualifier(expr: &str, env: &QualEnv) -> Result<bool, ParseError> {
    let mut any = false;
    for conj in expr.split('|') {
        let mut all = true;
        for term in conj.split('&') {
            let t = term.trim();
            if t.is_empty() {
                return bad(format!("empty qualifier term in '{expr}'"));
            }
            let v = if let Some(m) = t.strip_prefix("sm>=") {
                env.sm >= parse_sm(m).ok_or_else(|| format!("bad shader model '{m}'"))?
            } else if let Some(m) = t.strip_prefix("sm<") {
                env.sm < parse_sm(m).ok_or_else(|| format!("bad shader model '{m}'"))?
            } else if let Some(tag) = t.strip_prefix('!') {
                !env.tags.iter().any(|x| x == tag.trim())
            } else {
                env.tags.iter().any(|x| x == t)
            };
            all &= v;
        }
        any |= all;
    }
    Ok(any)
}

/// Shader section attributes from the header rest: `fail(sm<6) todo notimpl(...) dxbc-tpf-hex`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShaderAttrs {
    /// `fail` qualifiers (None = unconditional).
    pub fail: Vec<Option<String>>,
    pub notimpl: Vec<Option<String>>,
    pub todo: Vec<Option<String>>,
    pub tpf_hex: bool,
    pub d3dbc_hex: bool,
    pub dxil_hex: bool,
}

impl ShaderAttrs {
    pub fn parse(s: &str) -> ShaderAttrs {
        let mut a = ShaderAttrs::default();
        let mut rest = s.trim();
        while !rest.is_empty() {
            let word_end = rest.find(|c: char| c == '(' || c.is_whitespace()).unwrap_or(rest.len());
            let word = &rest[..word_end];
            rest = &rest[word_end..];
            let mut arg = None;
            if rest.starts_with('(') {
                let close = rest.find(')').unwrap_or(rest.len() - 1);
                arg = Some(rest[1..close].to_string());
                rest = &rest[(close + 1).min(rest.len())..];
            }
            match word {
                "fail" => a.fail.push(arg),
                "notimpl" => a.notimpl.push(arg),
                "todo" => a.todo.push(arg),
                "dxbc-tpf-hex" => a.tpf_hex = true,
                "d3dbc-hex" => a.d3dbc_hex = true,
                "dxbc-dxil-hex" => a.dxil_hex = true,
                _ => {}
            }
            rest = rest.trim_start();
        }
        a
    }

    /// Whether compilation is expected to fail at `env` (a `fail` or `notimpl` holds).
    pub fn expected_failure(&self, env: &QualEnv) -> Option<String> {
        for (name, list) in [("fail", &self.fail), ("notimpl", &self.notimpl)] {
            for q in list {
                let holds = match q {
                    None => true,
                    Some(e) => eval_qualifier(e, env).unwrap_or(false),
                };
                if holds {
                    return Some(match q {
                        None => name.to_string(),
                        Some(e) => format!("{name}({e})"),
                    });
                }
            }
        }
        None
    }
}

// ---------------------------------------------------------------- [require]

/// What a `[require]` block asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Require {
    /// `shader model >= X` (largest).
    pub min_sm: Option<Sm>,
    /// `shader model < X` (smallest): exclusive bound.
    pub below_sm: Option<Sm>,
    /// Capability words (`float64`, `geometry-shader`, …).
    pub caps: Vec<String>,
    /// `format F uav-load` formats.
    pub uav_load_formats: Vec<String>,
    /// `options: …` (compile options: already applied to the corpus DXBC).
    pub options: Vec<String>,
}

impl Require {
    pub fn parse(lines: &[(usize, String)]) -> Require {
        let mut r = Require::default();
        for (_, l) in lines {
            let l = l.trim();
            if let Some(m) = l.strip_prefix("shader model >=") {
                if let Some(v) = parse_sm(m) {
                    r.min_sm = Some(r.min_sm.map_or(v, |x| x.max(v)));
                }
            } else if let Some(m) = l.strip_prefix("shader model <") {
                if let Some(v) = parse_sm(m) {
                    r.below_sm = Some(r.below_sm.map_or(v, |x| x.min(v)));
                }
            } else if let Some(o) = l.strip_prefix("options:") {
                r.options.extend(o.split_whitespace().map(str::to_string));
            } else if let Some(f) = l.strip_prefix("format ") {
                let mut it = f.split_whitespace();
                if let Some(fmt) = it.next() {
                    r.uav_load_formats.push(fmt.to_string());
                }
            } else {
                r.caps.push(l.to_string());
            }
        }
        r
    }

    /// Whether `sm` is inside the required range.
    pub fn sm_ok(&self, sm: Sm) -> bool {
        self.min_sm.is_none_or(|m| sm >= m) && self.below_sm.is_none_or(|b| sm < b)
    }
}

// ---------------------------------------------------------------- [test]

/// Which resource a probe reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeTarget {
    Rtv(u32),
    Uav(u32),
    Dsv,
}

/// Expected values of a probe.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// Float components (1, 2 or 4), with an ulp tolerance.
    F32(Vec<f32>, u32),
    /// 32-bit integer components (1 or 4), exact; `signed` only affects printing.
    U32(Vec<u32>, bool),
    /// 64-bit integers (1 or 2), exact.
    U64(Vec<u64>, bool),
    /// Doubles (1 or 2), with an ulp tolerance.
    F64(Vec<f64>, u32),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub target: ProbeTarget,
    /// left, top, right, bottom (exclusive).
    pub rect: (u32, u32, u32, u32),
    pub layer: u32,
    pub expect: Expect,
}

/// Primitive topology of `draw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    TriangleList,
    TriangleStrip,
    PointList,
    Patch(u32),
}

impl Topology {
    /// The vertices of each primitive of `per_primitive` vertices, in the
    /// order D3D gives them to a GS: a strip's odd triangle `k` is (k, k+2, k+1).
    pub fn assemble(self, vertices: u32, per_primitive: u32) -> Option<Vec<u32>> {
        Some(match (self, per_primitive) {
            (Topology::PointList, 1) => (0..vertices).collect(),
            (Topology::TriangleList, 3) => (0..vertices / 3 * 3).collect(),
            (Topology::TriangleStrip, 3) => (0..vertices.saturating_sub(2))
                .flat_map(|k| if k % 2 == 0 { [k, k + 1, k + 2] } else { [k, k + 2, k + 1] })
                .collect(),
            _ => return None,
        })
    }
}

/// One executable test line.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// 32-bit words written into cb0 at `offset` (in 32-bit components).
    Uniform {
        offset: u32,
        words: Vec<u32>,
    },
    DrawQuad,
    Draw {
        topology: Topology,
        vertices: u32,
        instances: u32,
    },
    Dispatch(u32, u32, u32),
    ClearRtv(u32, [f32; 4]),
    ClearDsv(f32),
    /// `depth FUNC`: the depth test's comparison (the test writes depth).
    Depth(Compare),
    /// `sample mask M`: the pipeline's sample mask.
    SampleMask(u32),
    /// `copy rtv 0 srv 0`: a whole-resource copy (from, to).
    Copy((Binding, u32), (Binding, u32)),
    Probe(Probe),
    /// A directive the runner recognises but does not implement (name, text).
    Unsupported(String, String),
}

/// The kind of resource a `copy` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    Rtv,
    Srv,
    Uav,
}

/// Depth and sampler comparison functions: the interpreter's enum, so the
/// CPU runner needs no mapping and the GPU runner maps it to wgpu's.
pub use dxbc_interp::Compare;

/// A comparison function as vkd3d's tests spell it (`less equal`).
pub fn parse_compare(s: &str) -> Option<Compare> {
    let words: Vec<&str> = s.split_whitespace().collect();
    Some(match words.as_slice() {
        ["never"] => Compare::Never,
        ["less"] => Compare::Less,
        ["equal"] => Compare::Equal,
        ["less", "equal"] => Compare::LessEqual,
        ["greater"] => Compare::Greater,
        ["not", "equal"] => Compare::NotEqual,
        ["greater", "equal"] => Compare::GreaterEqual,
        ["always"] => Compare::Always,
        _ => return None,
    })
}

/// A test line with its prefixes.
#[derive(Clone, Debug, PartialEq)]
pub struct TestLine {
    pub line: usize,
    pub text: String,
    /// `todo` holds at this run.
    pub todo: bool,
    pub command: Command,
}

/// Reads `word` (followed by space, `(` or end) at the start of `s`.
fn strip_word<'a>(s: &'a str, word: &str) -> Option<&'a str> {
    let r = s.strip_prefix(word)?;
    if r.is_empty() || r.starts_with(|c: char| c.is_whitespace() || c == '(') {
        Some(r)
    } else {
        None
    }
}

/// Splits `(args)` at the start of `s` (after whitespace): (inside, rest).
fn paren(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    let s = s.strip_prefix('(')?;
    let close = s.find(')')?;
    Some((&s[..close], &s[close + 1..]))
}

/// strtol/strtoul-style integer with base prefix (0x…, leading 0 = octal only for "0").
pub fn parse_c_int(s: &str) -> Option<i128> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if body.len() > 1 && body.starts_with('0') && body.chars().all(|c| c.is_ascii_digit()) {
        i128::from_str_radix(&body[1..], 8).ok()?
    } else {
        body.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// strtof-style float: accepts `inf`, `nan`, `-inf`, hex floats are not used by the corpus.
pub fn parse_c_float(s: &str) -> Option<f64> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let (neg, body) = match lower.strip_prefix('-') {
        Some(b) => (true, b.to_string()),
        None => (false, lower.strip_prefix('+').unwrap_or(&lower).to_string()),
    };
    let v = match body.as_str() {
        "inf" | "infinity" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => {
            let b = body.strip_suffix('f').unwrap_or(&body);
            if let Some(h) = b.strip_prefix("0x") {
                u64::from_str_radix(h, 16).ok()? as f64
            } else {
                b.parse::<f64>().ok()?
            }
        }
    };
    Some(if neg { -v } else { v })
}

fn to_u32_word(v: i128) -> Result<u32, ParseError> {
    if v < i32::MIN as i128 || v > u32::MAX as i128 {
        return bad(format!("integer {v} out of 32-bit range"));
    }
    Ok(v as i64 as u32)
}

fn parse_uniform(rest: &str) -> Result<Command, ParseError> {
    let rest = rest.trim();
    let (off, rest) = rest.split_once(char::is_whitespace).ok_or("malformed uniform")?;
    let offset: u32 = off.parse().map_err(|_| format!("bad uniform offset '{off}'"))?;
    let rest = rest.trim();
    let (ty, vals) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let vals: Vec<&str> = vals.split_whitespace().collect();
    let need = |n: usize| -> Result<(), ParseError> {
        if vals.len() < n {
            bad(format!("uniform {ty} needs {n} values"))
        } else {
            Ok(())
        }
    };
    let f32w = |s: &str| -> Result<u32, ParseError> {
        parse_c_float(s).map(|f| (f as f32).to_bits()).ok_or_else(|| format!("bad float '{s}'").into())
    };
    let iw =
        |s: &str| -> Result<u32, ParseError> { to_u32_word(parse_c_int(s).ok_or_else(|| format!("bad int '{s}'"))?) };
    let words: Vec<u32> = match ty {
        "float4" => {
            need(4)?;
            vals[..4].iter().map(|v| f32w(v)).collect::<Result<_, _>>()?
        }
        "float" => {
            need(1)?;
            vec![f32w(vals[0])?]
        }
        "double2" => {
            need(2)?;
            let mut w = Vec::new();
            for v in &vals[..2] {
                let d = parse_c_float(v).ok_or_else(|| format!("bad double '{v}'"))?;
                let b = d.to_bits();
                w.push(b as u32);
                w.push((b >> 32) as u32);
            }
            w
        }
        "int4" | "uint4" => {
            need(4)?;
            vals[..4].iter().map(|v| iw(v)).collect::<Result<_, _>>()?
        }
        "int" | "uint" => {
            need(1)?;
            vec![iw(vals[0])?]
        }
        "int64_t2" | "uint64_t2" => {
            need(2)?;
            let mut w = Vec::new();
            for v in &vals[..2] {
                let x = parse_c_int(v).ok_or_else(|| format!("bad int64 '{v}'"))? as u64;
                w.push(x as u32);
                w.push((x >> 32) as u32);
            }
            w
        }
        _ => return bad(format!("unknown uniform type '{ty}'")),
    };
    Ok(Command::Uniform { offset, words })
}

fn parse_probe(rest: &str) -> Result<Command, ParseError> {
    let mut s = rest.trim_start();
    let mut target = ProbeTarget::Rtv(0);
    let take_num = |s: &str| -> Result<(u32, String), ParseError> {
        let s = s.trim_start();
        let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let n = s[..end].parse().map_err(|_| format!("missing index in '{s}'"))?;
        Ok((n, s[end..].to_string()))
    };
    let owned;
    if let Some(r) = strip_word(s, "uav") {
        let (n, r) = take_num(r)?;
        target = ProbeTarget::Uav(n);
        owned = r;
        s = &owned;
    } else if let Some(r) = strip_word(s, "rtv") {
        let (n, r) = take_num(r)?;
        target = ProbeTarget::Rtv(n);
        owned = r;
        s = &owned;
    } else if let Some(r) = strip_word(s, "dsv") {
        target = ProbeTarget::Dsv;
        s = r;
    }
    let (coords, after) = paren(s).ok_or_else(|| format!("malformed probe coordinates '{s}'"))?;
    let nums: Vec<u32> = coords
        .split(',')
        .map(|c| c.trim().parse::<u32>().map_err(|_| format!("bad probe coordinate '{c}'")))
        .collect::<Result<_, _>>()?;
    let (rect, layer) = match nums.as_slice() {
        [x] => ((*x, 0, x + 1, 1), 0),
        [x, y] => ((*x, *y, x + 1, y + 1), 0),
        [x, y, l] => ((*x, *y, x + 1, y + 1), *l),
        [l, t, r, b] => ((*l, *t, *r, *b), 0),
        _ => return bad(format!("bad probe coordinates '({coords})'")),
    };
    let after = after.trim_start();
    let kind_end = after.find(|c: char| c == '(' || c.is_whitespace()).unwrap_or(after.len());
    let kind = &after[..kind_end];
    let (vals, tail) = paren(&after[kind_end..]).ok_or_else(|| format!("malformed probe values '{after}'"))?;
    let ulps: u32 = tail.split_whitespace().next().and_then(|t| t.parse().ok()).unwrap_or(0);
    let items: Vec<&str> = vals.split(',').map(str::trim).collect();
    let floats = || -> Result<Vec<f64>, ParseError> {
        items.iter().map(|v| parse_c_float(v).ok_or_else(|| format!("bad float '{v}'").into())).collect()
    };
    let ints = || -> Result<Vec<i128>, ParseError> {
        items.iter().map(|v| parse_c_int(v).ok_or_else(|| format!("bad integer '{v}'").into())).collect()
    };
    let expect = match kind {
        "rgba" | "f32" => {
            let f = floats()?;
            if kind == "rgba" && f.len() != 4 || ![1, 2, 4].contains(&f.len()) {
                return bad(format!("bad component count in '{after}'"));
            }
            Expect::F32(f.into_iter().map(|x| x as f32).collect(), ulps)
        }
        "u32" | "i32" => {
            let v = ints()?;
            if ![1, 4].contains(&v.len()) {
                return bad(format!("bad component count in '{after}'"));
            }
            Expect::U32(v.into_iter().map(to_u32_word).collect::<Result<_, _>>()?, kind == "i32")
        }
        "u64" | "i64" => {
            let v = ints()?;
            if ![1, 2].contains(&v.len()) {
                return bad(format!("bad component count in '{after}'"));
            }
            Expect::U64(v.into_iter().map(|x| x as u64).collect(), kind == "i64")
        }
        "f64" => {
            let f = floats()?;
            if ![1, 2].contains(&f.len()) {
                return bad(format!("bad component count in '{after}'"));
            }
            Expect::F64(f, ulps)
        }
        _ => return bad(format!("unknown probe type '{kind}'")),
    };
    Ok(Command::Probe(Probe { target, rect, layer, expect }))
}

/// Parses one `[test]` line; returns None when an `if(...)` prefix rules it out.
pub fn parse_test_line(line: usize, text: &str, env: &QualEnv) -> Result<Option<TestLine>, ParseError> {
    let mut s = text.trim();
    let mut todo = false;
    let mut skip = false;
    loop {
        let mut matched = false;
        for word in ["todo", "bug", "broken", "if"] {
            if let Some(r) = strip_word(s, word) {
                let (holds, r) = if r.starts_with('(') {
                    let (inner, r) = paren(r).ok_or_else(|| format!("unclosed qualifier in '{text}'"))?;
                    (eval_qualifier(inner, env)?, r)
                } else {
                    (true, r)
                };
                if word == "todo" && holds {
                    todo = true;
                }
                if word == "if" && !holds {
                    skip = true;
                }
                s = r.trim_start();
                matched = true;
            }
        }
        if !matched {
            break;
        }
    }
    if skip {
        return Ok(None);
    }
    let command = if let Some(r) = strip_word(s, "uniform") {
        parse_uniform(r)?
    } else if s == "draw quad" || s.starts_with("draw quad ") {
        Command::DrawQuad
    } else if let Some(r) = strip_word(s, "draw") {
        let r = r.trim();
        let (topology, r) = if let Some(x) = r.strip_prefix("triangle list") {
            (Topology::TriangleList, x)
        } else if let Some(x) = r.strip_prefix("triangle strip") {
            (Topology::TriangleStrip, x)
        } else if let Some(x) = r.strip_prefix("point list") {
            (Topology::PointList, x)
        } else if let Some((n, x)) = r.split_once(" control point patch list") {
            (Topology::Patch(n.trim().parse().map_err(|_| "bad patch size")?), x)
        } else {
            return bad(format!("unknown topology in '{s}'"));
        };
        let mut it = r.split_whitespace();
        let vertices = it.next().and_then(|v| v.parse().ok()).ok_or("bad vertex count")?;
        let instances = it.next().and_then(|v| v.parse().ok()).unwrap_or(1);
        Command::Draw { topology, vertices, instances }
    } else if let Some(r) = strip_word(s, "dispatch") {
        let v: Vec<u32> = r.split_whitespace().filter_map(|x| x.parse().ok()).collect();
        if v.len() < 3 {
            return bad(format!("malformed dispatch '{s}'"));
        }
        Command::Dispatch(v[0], v[1], v[2])
    } else if let Some(r) = s.strip_prefix("clear rtv") {
        let v: Vec<&str> = r.split_whitespace().collect();
        if v.len() < 5 {
            return bad(format!("malformed clear '{s}'"));
        }
        let slot = v[0].parse().map_err(|_| "bad rtv slot")?;
        let mut c = [0f32; 4];
        for i in 0..4 {
            c[i] = parse_c_float(v[i + 1]).ok_or("bad clear value")? as f32;
        }
        Command::ClearRtv(slot, c)
    } else if let Some(r) = s.strip_prefix("clear dsv") {
        Command::ClearDsv(r.split_whitespace().next().and_then(parse_c_float).ok_or("bad dsv clear")? as f32)
    } else if let Some(r) = s.strip_prefix("sample mask ") {
        Command::SampleMask(
            parse_c_int(r).and_then(|v| u32::try_from(v).ok()).ok_or_else(|| format!("bad sample mask in '{s}'"))?,
        )
    } else if let Some(r) = strip_word(s, "copy") {
        let w: Vec<&str> = r.split_whitespace().collect();
        let res = |k: &str, n: &str| -> Option<(Binding, u32)> {
            let kind = match k {
                "rtv" => Binding::Rtv,
                "srv" => Binding::Srv,
                "uav" => Binding::Uav,
                _ => return None,
            };
            Some((kind, n.parse().ok()?))
        };
        match w.as_slice() {
            [a, n, b, m] => match (res(a, n), res(b, m)) {
                (Some(from), Some(to)) => Command::Copy(from, to),
                _ => return bad(format!("malformed copy '{s}'")),
            },
            _ => return bad(format!("malformed copy '{s}'")),
        }
    } else if let Some(r) = strip_word(s, "depth") {
        Command::Depth(parse_compare(r.trim()).ok_or_else(|| format!("unknown depth comparison in '{s}'"))?)
    } else if let Some(r) = strip_word(s, "probe") {
        parse_probe(r)?
    } else {
        let name: String = s.split(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("").to_string();
        let name = match name.as_str() {
            "sample" if s.starts_with("sample mask") => "sample mask".to_string(),
            "alpha" => "alpha test".to_string(),
            "shade" => "shade mode".to_string(),
            _ => name,
        };
        Command::Unsupported(name, s.to_string())
    };
    Ok(Some(TestLine { line, text: text.to_string(), todo, command }))
}

// ---------------------------------------------------------------- resources

/// A resource format name as the test files spell it (`r32g32b32a32-float`, older `r32g32b32a32 float`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Rgba32Float,
    Rgba32Sint,
    Rgba32Uint,
    Rg32Float,
    Rg32Sint,
    Rg32Uint,
    R32Float,
    R32FloatShadow,
    R32Sint,
    R32Uint,
    R32Typeless,
    Unknown,
}

impl Format {
    pub fn parse(s: &str) -> Option<(Format, &str)> {
        let s = s.trim_start();
        const NAMES: &[(&str, Format)] = &[
            ("r32g32b32a32-float", Format::Rgba32Float),
            ("r32g32b32a32-sint", Format::Rgba32Sint),
            ("r32g32b32a32-uint", Format::Rgba32Uint),
            ("r32g32-float", Format::Rg32Float),
            ("r32g32-sint", Format::Rg32Sint),
            ("r32g32-uint", Format::Rg32Uint),
            ("r32-float-shadow", Format::R32FloatShadow),
            ("r32-float", Format::R32Float),
            ("r32-sint", Format::R32Sint),
            ("r32-uint", Format::R32Uint),
            ("r32-typeless", Format::R32Typeless),
            ("unknown", Format::Unknown),
            ("r32g32b32a32 float", Format::Rgba32Float),
            ("r32g32b32a32 sint", Format::Rgba32Sint),
            ("r32g32b32a32 uint", Format::Rgba32Uint),
            ("r32g32 float", Format::Rg32Float),
            ("r32g32 int", Format::Rg32Sint),
            ("r32g32 uint", Format::Rg32Uint),
            ("r32 float shadow", Format::R32FloatShadow),
            ("r32 float", Format::R32Float),
            ("r32 sint", Format::R32Sint),
            ("r32 uint", Format::R32Uint),
        ];
        for (n, f) in NAMES {
            if let Some(r) = s.strip_prefix(n) {
                if r.is_empty() || r.starts_with(char::is_whitespace) {
                    return Some((*f, r));
                }
            }
        }
        None
    }

    /// Bytes per texel.
    pub fn texel_size(self) -> u32 {
        match self {
            Format::Rgba32Float | Format::Rgba32Sint | Format::Rgba32Uint => 16,
            Format::Rg32Float | Format::Rg32Sint | Format::Rg32Uint => 8,
            Format::Unknown => 0,
            _ => 4,
        }
    }

    pub fn components(self) -> u32 {
        (self.texel_size() / 4).max(1)
    }
}

/// Resource dimension from `size (...)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    Buffer,
    RawBuffer,
    CounterBuffer,
    Tex2d,
    Tex2dMs(u32),
    Tex2dArray,
    Tex3d,
    Cube,
}

/// A `[srv]`, `[uav]`, `[rtv]`, `[dsv]` or `[vb]` block.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceDesc {
    pub format: Format,
    pub explicit_format: bool,
    pub stride: u32,
    pub dim: Option<Dim>,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub levels: u32,
    pub data: Vec<u32>,
}

impl ResourceDesc {
    pub fn parse(lines: &[(usize, String)], default_format: Format) -> Result<ResourceDesc, ParseError> {
        let mut r = ResourceDesc {
            format: default_format,
            explicit_format: false,
            stride: 0,
            dim: None,
            width: 0,
            height: 1,
            depth: 1,
            levels: 1,
            data: Vec::new(),
        };
        for (_, l) in lines {
            let l = l.trim();
            if let Some(f) = strip_word(l, "format") {
                r.format = Format::parse(f).ok_or_else(|| format!("unknown format '{f}'"))?.0;
                r.explicit_format = true;
            } else if let Some(s) = strip_word(l, "stride") {
                r.stride = s.trim().parse().map_err(|_| format!("bad stride '{s}'"))?;
                r.format = Format::Unknown;
                r.explicit_format = true;
            } else if let Some(s) = strip_word(l, "size") {
                let (inner, _) = paren(s).ok_or_else(|| format!("bad size '{s}'"))?;
                let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
                let n = |i: usize| -> Result<u32, ParseError> {
                    parts.get(i).and_then(|p| p.parse().ok()).ok_or_else(|| format!("bad size '({inner})'").into())
                };
                match parts[0] {
                    "buffer" => (r.dim, r.width) = (Some(Dim::Buffer), n(1)?),
                    "raw_buffer" => (r.dim, r.width) = (Some(Dim::RawBuffer), n(1)?),
                    "counter_buffer" => {
                        (r.dim, r.width) = (Some(Dim::CounterBuffer), n(1)?);
                        r.stride = 4;
                        r.format = Format::Unknown;
                    }
                    "2d" => (r.dim, r.width, r.height) = (Some(Dim::Tex2d), n(1)?, n(2)?),
                    "2dms" => (r.dim, r.width, r.height) = (Some(Dim::Tex2dMs(n(1)?)), n(2)?, n(3)?),
                    "2darray" => (r.dim, r.width, r.height, r.depth) = (Some(Dim::Tex2dArray), n(1)?, n(2)?, n(3)?),
                    "3d" => (r.dim, r.width, r.height, r.depth) = (Some(Dim::Tex3d), n(1)?, n(2)?, n(3)?),
                    "cube" => (r.dim, r.width, r.height, r.depth) = (Some(Dim::Cube), n(1)?, n(1)?, 6),
                    other => return bad(format!("unknown resource dimension '{other}'")),
                }
            } else if let Some(s) = strip_word(l, "levels") {
                r.levels = s.trim().parse().map_err(|_| format!("bad levels '{s}'"))?;
            } else {
                // Data: each token is an integer (any base) unless it has a '.',
                // then a float; as vkd3d's strtoul-then-strtof reading.
                for tok in l.split_whitespace() {
                    if tok.starts_with('%') {
                        break;
                    }
                    let w = if tok.contains('.') || tok.contains("inf") || tok.contains("nan") {
                        (parse_c_float(tok).ok_or_else(|| format!("bad data '{tok}'"))? as f32).to_bits()
                    } else {
                        match parse_c_int(tok) {
                            Some(v) => v as i64 as u32,
                            None => (parse_c_float(tok).ok_or_else(|| format!("bad data '{tok}'"))? as f32).to_bits(),
                        }
                    };
                    r.data.push(w);
                }
            }
        }
        Ok(r)
    }

    /// Bytes per element (format texel size, or the structured stride).
    pub fn element_size(&self) -> u32 {
        if self.format == Format::Unknown {
            self.stride.max(4)
        } else {
            self.format.texel_size()
        }
    }
}

/// `[input layout]` element: slot, format, semantic name, index.
#[derive(Clone, Debug, PartialEq)]
pub struct InputElement {
    pub slot: u32,
    pub format: Format,
    pub name: String,
    pub index: u32,
}

pub fn parse_input_layout(lines: &[(usize, String)]) -> Result<Vec<InputElement>, ParseError> {
    let mut out = Vec::new();
    for (_, l) in lines {
        let l = l.trim();
        let (slot, rest) = l.split_once(char::is_whitespace).ok_or_else(|| format!("bad input layout '{l}'"))?;
        let slot = slot.parse().map_err(|_| format!("bad slot in '{l}'"))?;
        let (format, rest) = Format::parse(rest).ok_or_else(|| format!("bad format in '{l}'"))?;
        let mut it = rest.split_whitespace();
        let name = it.next().ok_or_else(|| format!("missing name in '{l}'"))?.to_string();
        let index = it.next().and_then(|i| i.parse().ok()).unwrap_or(0);
        out.push(InputElement { slot, format, name, index });
    }
    Ok(out)
}

/// A `[sampler N]` block.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerDesc {
    /// min, mag, mip: true = linear.
    pub filter: [bool; 3],
    /// u, v, w address modes as spelled.
    pub address: [String; 3],
    pub comparison: Option<String>,
}

impl SamplerDesc {
    pub fn parse(lines: &[(usize, String)]) -> Result<SamplerDesc, ParseError> {
        let mut s = SamplerDesc {
            filter: [false; 3],
            address: ["clamp".into(), "clamp".into(), "clamp".into()],
            comparison: None,
        };
        for (_, l) in lines {
            let l = l.trim();
            if let Some(r) = strip_word(l, "address") {
                let v: Vec<&str> = r.split_whitespace().collect();
                for i in 0..3 {
                    s.address[i] = v.get(i).unwrap_or(&"clamp").to_string();
                }
            } else if let Some(r) = strip_word(l, "filter") {
                let v: Vec<&str> = r.split_whitespace().collect();
                for i in 0..3 {
                    s.filter[i] = v.get(i) == Some(&"linear");
                }
            } else if let Some(r) = strip_word(l, "comparison") {
                s.comparison = Some(r.trim().to_string());
            } else {
                return bad(format!("unknown sampler directive '{l}'"));
            }
        }
        Ok(s)
    }
}

impl fmt::Display for ProbeTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeTarget::Rtv(n) => write!(f, "rtv {n}"),
            ProbeTarget::Uav(n) => write!(f, "uav {n}"),
            ProbeTarget::Dsv => write!(f, "dsv"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SNIPPET: &str = "\
[require]
shader model >= 5.0
shader model < 6.0
float64
format r32-float uav-load

[uav 1]
format r32g32b32a32-float
size (2d, 2, 1)
0.5 1 0x10 -1

[pixel shader fail(sm<4) todo]
float4 main() : sv_target { return 0; }

[test]
% a comment
uniform 0 float4 0.1 -0.7 1e3 inf
uniform 4 int -2
uniform 5 uint 0xffffffff
uniform 8 double2 1.5 -2
todo(msl & sm>=6) draw quad
if(sm<4) probe (0, 0) rgba (1, 1, 1, 1)
if(sm>=5) probe (1, 2, 30, 40) rgba(0.5, 0.25, 1.0, -2.0) 4
probe uav 1 (3) u32(0xfffffffe)
bug(mvk) probe rtv 2 (5, 6) i32(-1, 2, -3, 4)
probe (7, 8) f32(1.5, 2.5) 2
dispatch 4 2 1
sample mask 3
";

    fn env(sm: Sm) -> QualEnv {
        QualEnv { sm, tags: vec!["llvmpipe".into()] }
    }

    #[test]
    fn depth_commands_name_their_comparison() {
        let env = QualEnv { sm: 50, tags: vec![] };
        let cmd = |t: &str| parse_test_line(1, t, &env).unwrap().unwrap().command;
        assert_eq!(cmd("depth less"), Command::Depth(Compare::Less));
        assert_eq!(cmd("depth greater equal"), Command::Depth(Compare::GreaterEqual));
        assert_eq!(cmd("depth not equal"), Command::Depth(Compare::NotEqual));
        assert!(parse_test_line(1, "depth sideways", &env).is_err());
        assert_eq!(cmd("sample mask 0x0b"), Command::SampleMask(0xb));
        assert_eq!(cmd("copy rtv 0 srv 1"), Command::Copy((Binding::Rtv, 0), (Binding::Srv, 1)));
        // `depth-bounds` is another command.
        assert!(matches!(cmd("depth-bounds 0.3 0.6"), Command::Unsupported(n, _) if n == "depth-bounds"));
    }

    #[test]
    fn sections_are_numbered_in_file_order() {
        let f = parse_file(SNIPPET);
        assert_eq!(f.sections.len(), 4);
        assert_eq!(f.sections[0].kind, SectionKind::Require);
        assert_eq!(f.sections[1].kind, SectionKind::Uav(1));
        assert_eq!(f.sections[1].line, 7);
        assert!(
            matches!(&f.sections[2].kind, SectionKind::Shader { stage: Stage::Pixel, attrs } if attrs == "fail(sm<4) todo")
        );
        assert_eq!(f.sections[3].kind, SectionKind::Test);
        // the `%` comment is dropped
        assert!(f.sections[3].lines.iter().all(|(_, l)| !l.starts_with('%')));
    }

    #[test]
    fn require_block() {
        let f = parse_file(SNIPPET);
        let r = Require::parse(&f.sections[0].lines);
        assert_eq!(r.min_sm, Some(50));
        assert_eq!(r.below_sm, Some(60));
        assert!(r.sm_ok(50) && r.sm_ok(51) && !r.sm_ok(41) && !r.sm_ok(60));
        assert_eq!(r.caps, vec!["float64".to_string()]);
        assert_eq!(r.uav_load_formats, vec!["r32-float".to_string()]);
    }

    #[test]
    fn resource_block() {
        let f = parse_file(SNIPPET);
        let r = ResourceDesc::parse(&f.sections[1].lines, Format::Rgba32Float).unwrap();
        assert_eq!(r.format, Format::Rgba32Float);
        assert_eq!(r.dim, Some(Dim::Tex2d));
        assert_eq!((r.width, r.height), (2, 1));
        assert_eq!(r.data, vec![0.5f32.to_bits(), 1, 16, 0xffff_ffff]);
    }

    #[test]
    fn shader_attributes() {
        let a = ShaderAttrs::parse("fail(sm<4) todo");
        assert_eq!(a.expected_failure(&env(40)), None);
        assert_eq!(a.expected_failure(&env(30)).as_deref(), Some("fail(sm<4)"));
        assert!(ShaderAttrs::parse("dxbc-tpf-hex").tpf_hex);
        assert_eq!(ShaderAttrs::parse("fail").expected_failure(&env(50)).as_deref(), Some("fail"));
        assert!(ShaderAttrs::parse("notimpl(sm<6) fail(sm>=6)").expected_failure(&env(50)).is_some());
    }

    #[test]
    fn qualifiers() {
        let e = env(50);
        assert!(eval_qualifier("sm>=4", &e).unwrap());
        assert!(!eval_qualifier("sm<5", &e).unwrap());
        assert!(eval_qualifier("sm<5.1", &e).unwrap());
        assert!(eval_qualifier("msl | sm>=5 & sm<6", &e).unwrap());
        assert!(!eval_qualifier("msl & sm>=6", &e).unwrap());
        assert!(eval_qualifier("llvmpipe", &e).unwrap());
        assert!(!eval_qualifier("!llvmpipe", &e).unwrap());
        assert!(eval_qualifier("!d3d12 | sm>=6", &e).unwrap());
    }

    fn test_lines(sm: Sm) -> Vec<TestLine> {
        let f = parse_file(SNIPPET);
        f.sections[3].lines.iter().filter_map(|(n, l)| parse_test_line(*n, l, &env(sm)).unwrap()).collect()
    }

    #[test]
    fn test_block_at_sm5() {
        let t = test_lines(50);
        let cmds: Vec<&Command> = t.iter().map(|l| &l.command).collect();
        assert_eq!(
            cmds[0],
            &Command::Uniform {
                offset: 0,
                words: vec![0.1f32.to_bits(), (-0.7f32).to_bits(), 1000f32.to_bits(), f32::INFINITY.to_bits()]
            }
        );
        assert_eq!(cmds[1], &Command::Uniform { offset: 4, words: vec![(-2i32) as u32] });
        assert_eq!(cmds[2], &Command::Uniform { offset: 5, words: vec![0xffff_ffff] });
        let d = [1.5f64.to_bits(), (-2f64).to_bits()];
        assert_eq!(
            cmds[3],
            &Command::Uniform {
                offset: 8,
                words: vec![d[0] as u32, (d[0] >> 32) as u32, d[1] as u32, (d[1] >> 32) as u32]
            }
        );
        assert_eq!(cmds[4], &Command::DrawQuad);
        assert!(!t[4].todo, "todo(msl & sm>=6) does not hold");
        // `if(sm<4)` line dropped; rectangle form is (left, top, right, bottom).
        assert_eq!(
            cmds[5],
            &Command::Probe(Probe {
                target: ProbeTarget::Rtv(0),
                rect: (1, 2, 30, 40),
                layer: 0,
                expect: Expect::F32(vec![0.5, 0.25, 1.0, -2.0], 4)
            })
        );
        assert_eq!(
            cmds[6],
            &Command::Probe(Probe {
                target: ProbeTarget::Uav(1),
                rect: (3, 0, 4, 1),
                layer: 0,
                expect: Expect::U32(vec![0xffff_fffe], false)
            })
        );
        assert_eq!(
            cmds[7],
            &Command::Probe(Probe {
                target: ProbeTarget::Rtv(2),
                rect: (5, 6, 6, 7),
                layer: 0,
                expect: Expect::U32(vec![0xffff_ffff, 2, (-3i32) as u32, 4], true)
            })
        );
        assert_eq!(
            cmds[8],
            &Command::Probe(Probe {
                target: ProbeTarget::Rtv(0),
                rect: (7, 8, 8, 9),
                layer: 0,
                expect: Expect::F32(vec![1.5, 2.5], 2)
            })
        );
        assert_eq!(cmds[9], &Command::Dispatch(4, 2, 1));
        assert_eq!(cmds[10], &Command::SampleMask(3));
        assert_eq!(cmds.len(), 11);
    }

    #[test]
    fn test_block_at_sm3_keeps_the_other_branch() {
        let t = test_lines(30);
        assert!(t.iter().any(|l| matches!(&l.command, Command::Probe(p) if p.rect == (0, 0, 1, 1))));
        assert!(!t.iter().any(|l| matches!(&l.command, Command::Probe(p) if p.rect == (1, 2, 30, 40))));
    }

    #[test]
    fn plain_todo_and_draw_forms() {
        let e = env(40);
        let l = parse_test_line(1, "todo draw triangle strip 4 2", &e).unwrap().unwrap();
        assert!(l.todo);
        assert_eq!(l.command, Command::Draw { topology: Topology::TriangleStrip, vertices: 4, instances: 2 });
        let l = parse_test_line(1, "probe(0,0) rgba(1.0, 2.0, 3.0, 4.0)", &e).unwrap().unwrap();
        assert!(matches!(l.command, Command::Probe(_)));
        let l = parse_test_line(1, "probe uav 0 (1, 2) f64(1.5, -0.25) 1", &e).unwrap().unwrap();
        assert_eq!(
            l.command,
            Command::Probe(Probe {
                target: ProbeTarget::Uav(0),
                rect: (1, 2, 2, 3),
                layer: 0,
                expect: Expect::F64(vec![1.5, -0.25], 1)
            })
        );
        assert!(parse_test_line(1, "probe (0, 0) rgba (1, 2)", &e).is_err());
        assert!(parse_test_line(1, "uniform 0 float4 1 2", &e).is_err());
    }

    #[test]
    fn input_layout_and_sampler() {
        let l =
            parse_input_layout(&[(1, "0 r32g32-float POSITION".into()), (2, "1 r32-uint TEXCOORD 2".into())]).unwrap();
        assert_eq!(l[0], InputElement { slot: 0, format: Format::Rg32Float, name: "POSITION".into(), index: 0 });
        assert_eq!(l[1], InputElement { slot: 1, format: Format::R32Uint, name: "TEXCOORD".into(), index: 2 });
        let s =
            SamplerDesc::parse(&[(1, "filter linear point linear".into()), (2, "address wrap clamp border".into())])
                .unwrap();
        assert_eq!(s.filter, [true, false, true]);
        assert_eq!(s.address[2], "border");
    }
}
