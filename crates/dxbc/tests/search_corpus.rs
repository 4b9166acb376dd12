//! Search and def-use against fxc's own listings: for every shader of the
//! fxc corpus, the lines a query finds are the lines of fxc's `.asm` text
//! that show what was asked for.

mod common;

use dxbc::search::{search, Query};
use dxbc::Shader;
use std::collections::BTreeSet;

fn corpus() -> Vec<(String, Shader, Vec<String>)> {
    common::corpus_files("fxc", 401)
        .into_iter()
        .map(|p| {
            let s = Shader::decode(&std::fs::read(&p).unwrap()).unwrap();
            let asm = std::fs::read_to_string(p.with_extension("asm")).unwrap();
            (p.display().to_string(), s, asm.lines().map(String::from).collect())
        })
        .collect()
}

/// The instruction word of a listing line (`sample_indexable(texture2d)(…)` → `sample_indexable`).
fn first_word(line: &str) -> &str {
    line.trim_start().split([' ', '(']).next().unwrap_or("")
}

/// True when `line` (its `//` comment removed) holds `token` not run into
/// other letters, digits or an index (`r1` is not in `r10`, `cb0[1]` not in `cb0[10]`).
/// Case-insensitive: some fxc versions write `CB0[3]` in declarations.
fn has_token(line: &str, token: &str) -> bool {
    let code = line.split("//").next().unwrap_or("").to_ascii_lowercase();
    let code = code.as_str();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(token).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + token.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(|c| word(c) || (token.ends_with(']') && c == '['))
    })
}

/// fxc prints a per-vertex input as `v[vertex][register]`: `v1` there is `v[…][1]`.
fn has_vertex_input(line: &str, token: &str) -> bool {
    let Some(reg) = token.strip_prefix('v').filter(|r| r.bytes().all(|b| b.is_ascii_digit())) else { return false };
    let tail = format!("][{reg}]");
    line.match_indices(&tail).any(|(i, _)| line[..i].rfind("v[").is_some_and(|v| !line[v..i].contains(']')))
}

/// The program part of fxc's listing: the lines after the profile line,
/// numbered from 1, as our listing numbers them (it prints what debug
/// builds add from their source too: `#line` directives, variable
/// locations, blank lines).
fn program_lines(lines: &[String]) -> Vec<(usize, &str)> {
    let profile = |l: &str| {
        let p: Vec<&str> = l.split('_').collect();
        p.len() >= 3 && ["ps", "vs", "gs", "hs", "ds", "cs"].contains(&p[0]) && p[1].len() == 1
    };
    let start = lines.iter().position(|l| profile(l)).expect("profile line");
    lines[start + 1..].iter().enumerate().map(|(i, l)| (i + 1, l.as_str())).collect()
}

/// Lines a query finds, counted from the profile line. (fxc's `.asm` files
/// carry the command line in their header, which the container does not
/// hold, so lines are compared from the profile line on.)
fn found_lines(s: &Shader, q: &str) -> BTreeSet<usize> {
    let base = dxbc::listing::lines::LineMap::new(s).program_line.unwrap_or(0);
    search(s, &Query::parse(q)).matches.iter().filter_map(|m| m.line).map(|l| l - base).collect()
}

#[test]
fn mnemonics_find_exactly_fxcs_lines() {
    let mut total = 0;
    for (name, s, lines) in corpus() {
        for m in ["mul", "mad", "dp4", "mov", "dcl_constantbuffer", "sample_indexable", "ret"] {
            let sat = format!("{m}_sat");
            let want: BTreeSet<usize> = program_lines(&lines)
                .into_iter()
                .filter(|(_, l)| !l.starts_with("//") && [m, sat.as_str()].contains(&first_word(l)))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(found_lines(&s, m), want, "{name}: {m}");
            total += want.len();
        }
    }
    eprintln!("mnemonics: {total} lines");
    assert!(total > 5000, "{total} lines checked");
}

#[test]
fn registers_find_exactly_the_lines_naming_them() {
    let mut total = 0;
    for (name, s, lines) in corpus() {
        for r in [
            "r0", "r1", "r7", "o0", "o1", "v0", "v2", "cb0[0]", "cb0[3]", "cb1[2]", "t0", "s0", "u0", "icb[..]",
            "x0[..]",
        ] {
            // Shader model 5.1 spells resources by range (`T0[0]`, `CB0[2][1]`).
            let sm51 = s.program.as_ref().is_some_and(|p| p.version.is_sm51());
            if sm51 && !r.starts_with(['r', 'o', 'v']) {
                continue;
            }
            let want: BTreeSet<usize> = program_lines(&lines)
                .into_iter()
                .filter(|(_, l)| match r.strip_suffix("[..]") {
                    // Any index: the file and number followed by `[`.
                    Some(f) => {
                        let code = l.split("//").next().unwrap_or("");
                        code.match_indices(&format!("{f}["))
                            .any(|(i, _)| !code[..i].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric()))
                    }
                    None => has_token(l, r) || has_vertex_input(l, r),
                })
                .map(|(i, _)| i)
                .collect();
            assert_eq!(found_lines(&s, r), want, "{name}: {r}");
            total += want.len();
        }
    }
    eprintln!("registers: {total} lines");
    assert!(total > 10000, "{total} lines checked");
}

/// The operands of a listing line, split at top-level commas (not those
/// inside `l(…)` or `[…]`).
fn operands(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("").trim();
    // Skip the mnemonic and its parenthesised parts (`sample_indexable(texture2d)(…)`).
    let mut depth = 0;
    let mut start = None;
    for (i, c) in code.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ' ' if depth == 0 => {
                start = Some(i + 1);
                break;
            }
            _ => {}
        }
    }
    let Some(mut start) = start else { return Vec::new() };
    // The `[precise(x)]` marker of 5.1 stands between mnemonic and operands.
    if code[start..].starts_with("[precise") {
        start += code[start..].find("] ").map_or(0, |i| i + 2);
    }
    let mut out = vec![String::new()];
    let mut depth = 0;
    for c in code[start..].chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().unwrap().push(c);
    }
    out.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

/// Listing mnemonics whose first two operands are both results (the D3D11
/// instruction reference: high/low, quotient/remainder, carry, sin/cos,
/// swapc, the returned old value of `imm_atomic_*`, and the residency
/// feedback of the `_s` samples and loads).
fn destinations(mnemonic: &str) -> usize {
    let base = mnemonic.trim_end_matches("_sat");
    if ["imul", "umul", "udiv", "uaddc", "usubb", "swapc", "sincos"].contains(&base)
        || base.starts_with("imm_atomic")
        || base.split('_').any(|w| w == "s")
    {
        2
    } else if base.starts_with("dcl_")
        || ["if", "breakc", "continuec", "retc", "discard", "callc", "switch", "case", "emit", "cut", "emitThenCut"]
            .iter()
            .any(|f| base == *f || base.starts_with(&format!("{f}_")))
    {
        0
    } else {
        1
    }
}

#[test]
fn temp_writes_are_fxcs_destination_operands() {
    use dxbc::defuse::def_use;
    use dxbc::register::Register;
    let mut total = 0;
    for (name, s, lines) in corpus() {
        let Some(p) = s.program.as_ref() else { continue };
        let map = dxbc::listing::lines::LineMap::new(&s);
        let base = map.program_line.unwrap();
        let program = program_lines(&lines);
        for r in ["r0", "r1", "r2", "r3", "r0.x", "r1.w", "o0", "o1.y"] {
            let reg = Register::parse(r).unwrap();
            let (file, mask) = r.split_once('.').unwrap_or((r, "xyzw"));
            let want: BTreeSet<usize> = program
                .iter()
                .filter(|(_, l)| {
                    let ops = operands(l);
                    let n = destinations(first_word(l));
                    ops.iter().take(n).any(|o| {
                        let (f, m) = o.trim_start_matches('-').split_once('.').unwrap_or((o, "xyzw"));
                        f == file && m.chars().any(|c| mask.contains(c))
                    })
                })
                .map(|(i, _)| *i)
                .collect();
            let got: BTreeSet<usize> =
                def_use(p, &reg).writes.iter().map(|w| map.instruction_line(w.instruction).unwrap() - base).collect();
            assert_eq!(got, want, "{name}: {r}");
            total += want.len();
        }
    }
    eprintln!("def-use writes: {total} lines");
    assert!(total > 5000, "{total} writes checked");
}

/// The inspector's float text against fxc's `%f` text for every float
/// immediate fxc prints: ours reads back to the same bits, fxc's is ours
/// rounded to six decimals, and infinities and NaNs are spelled alike.
#[test]
fn immediate_floats_agree_with_fxcs_listing() {
    use dxbc::spec::{NumType, OperandType};
    let mut finite = 0;
    for (name, s, lines) in corpus() {
        let Some(p) = s.program.as_ref() else { continue };
        if dxbc::listing::creator_major(&s).is_some_and(|m| m < 10) {
            continue; // fxc 9.x prints `%f` with its own rounding of huge values.
        }
        let map = dxbc::listing::lines::LineMap::new(&s);
        let base = map.program_line.unwrap();
        let program = program_lines(&lines);
        for (k, ins) in p.instructions.iter().enumerate() {
            if ins.info().is_none_or(|i| i.imm != NumType::Float) {
                continue;
            }
            let line = program[map.instruction_line(k).unwrap() - base - 1].1;
            let printed: Vec<&str> =
                line.match_indices("l(").map(|(i, _)| &line[i + 2..i + 2 + line[i + 2..].find(')').unwrap()]).collect();
            let words: Vec<&[u32]> = ins
                .operands(p)
                .filter(|o| o.operand_type() == Some(OperandType::Immediate32))
                .map(|o| o.imm(p))
                .collect();
            assert_eq!(printed.len(), words.len(), "{name}: {line}");
            for (text, ws) in printed.iter().zip(&words) {
                for (t, &w) in text.split(',').map(str::trim).zip(ws.iter()) {
                    let ours = dxbc::value::float_text(w);
                    if t.contains('#') {
                        // (The corpus has none today; fxc's spellings are in the unit test.)
                        assert_eq!(ours, t, "{name}: {line}");
                    } else if t.contains('.') {
                        assert_eq!(ours.parse::<f32>().unwrap().to_bits(), w, "{name}: {ours}");
                        let fxc: f64 = t.parse().unwrap();
                        assert!((fxc - f32::from_bits(w) as f64).abs() <= 5e-7, "{name}: fxc {t}, ours {ours}");
                        finite += 1;
                    }
                }
            }
        }
    }
    eprintln!("immediate floats: {finite}");
    assert!(finite > 2000, "{finite} floats checked");
}

/// Rows of a signature table in fxc's header: (name, index, mask, register).
fn signature_rows(lines: &[String], title: &str) -> Vec<(String, u32, String, u32)> {
    let Some(start) = lines.iter().position(|l| l == &format!("// {title}:")) else { return Vec::new() };
    lines[start + 4..]
        .iter()
        .take_while(|l| l.len() > 3)
        .filter_map(|l| {
            let f: Vec<&str> = l[3..].split_whitespace().collect();
            // Name, index, mask letters, register (or N/A), system value, format, used.
            let (name, index) = (f.first()?, f.get(1)?.parse().ok()?);
            let reg_at = f.iter().skip(2).position(|x| x.parse::<u32>().is_ok() || *x == "N/A")? + 2;
            let mask = f[2..reg_at].concat();
            Some((name.to_string(), index, mask, f[reg_at].parse().ok()?))
        })
        .collect()
}

/// True when `line` names register `reg` (`v1`, `o0`) with a component in `mask`.
fn names_components(line: &str, reg: &str, mask: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    code.match_indices(reg).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = &code[i + reg.len()..];
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '[')
            || after.starts_with(|c: char| c.is_ascii_digit())
        {
            return false;
        }
        match after.strip_prefix('.') {
            Some(comps) => comps.chars().take_while(|c| "xyzw".contains(*c)).any(|c| mask.contains(c)),
            None => true,
        }
    })
}

#[test]
fn semantic_names_find_their_registers_lines() {
    let mut total = 0;
    for (name, s, lines) in corpus() {
        let Some(p) = s.program.as_ref() else { continue };
        // Vertex and pixel shaders: one input register file, indexed by register alone.
        if p.version.program_type() > 1 {
            continue;
        }
        let program = program_lines(&lines);
        // A semantic may be both an input and an output (`TEXCOORD0` passed through).
        let rows: Vec<(String, String, String)> = [("Input signature", "v"), ("Output signature", "o")]
            .iter()
            .flat_map(|(title, file)| {
                signature_rows(&lines, title)
                    .into_iter()
                    .map(move |(sem, index, mask, reg)| (format!("{sem}{index}"), format!("{file}{reg}"), mask))
            })
            .collect();
        for (query, ..) in &rows {
            let want: BTreeSet<usize> = program
                .iter()
                .filter(|(_, l)| rows.iter().any(|(q, r, mask)| q == query && names_components(l, r, mask)))
                .map(|(i, _)| *i)
                .collect();
            assert_eq!(found_lines(&s, query), want, "{name}: {query}");
            total += want.len();
        }
    }
    eprintln!("semantic names: {total} lines");
    assert!(total > 2000, "{total} lines checked");
}

/// The inspector's float text for immediate constant buffer values fxc
/// prints as floats: reads back to the word, and fxc's text is it to six
/// decimals.
#[test]
fn icb_floats_agree_with_fxcs_listing() {
    let mut checked = 0;
    for (name, s, lines) in corpus() {
        let Some(p) = s.program.as_ref() else { continue };
        let Some(ins) = p.instructions.iter().find(|i| {
            i.is_customdata() && i.customdata_class() == dxbc::spec::CustomdataClass::DclImmediateConstantBuffer as u32
        }) else {
            continue;
        };
        let start = lines.iter().position(|l| l.starts_with("dcl_immediateConstantBuffer")).unwrap();
        let mut text = String::new();
        for l in &lines[start..] {
            text.push_str(l);
            if text.matches('{').count() == text.matches('}').count() {
                break;
            }
        }
        let printed: Vec<&str> = text["dcl_immediateConstantBuffer".len()..]
            .split(|c: char| c == '{' || c == '}' || c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .collect();
        let words: Vec<u32> = ins.payload(p).iter().map(|w| w.value).collect();
        assert_eq!(printed.len(), words.len(), "{name}");
        for (t, &w) in printed.iter().zip(&words) {
            if t.contains('.') {
                let ours = dxbc::value::float_text(w);
                assert_eq!(ours.parse::<f32>().unwrap().to_bits(), w, "{name}: {ours}");
                let fxc: f64 = t.parse().unwrap();
                assert!((fxc - f32::from_bits(w) as f64).abs() <= 5e-7, "{name}: fxc {t}, ours {ours}");
                checked += 1;
            }
        }
    }
    eprintln!("ICB floats: {checked}");
    assert!(checked > 100, "{checked} ICB floats checked");
}

/// cbuffer variables of fxc's header: (variable, cbuffer, offset, size) for
/// the top-level members (three-space indent).
fn cbuffer_variables(lines: &[String]) -> Vec<(String, String, u32, u32)> {
    let mut out = Vec::new();
    let mut current = None;
    for l in lines {
        if let Some(name) = l.strip_prefix("// cbuffer ") {
            current = Some(name.trim().to_string());
        } else if l == "// }" {
            current = None;
        } else if let (Some(cb), Some(decl)) = (&current, l.strip_prefix("//   ")) {
            if decl.starts_with(' ') {
                continue;
            }
            let Some((code, info)) = decl.split_once("// Offset:") else { continue };
            let Some(var) = code.trim().strip_suffix(';').and_then(|c| c.split_whitespace().last()) else { continue };
            let var = var.split('[').next().unwrap_or(var).to_string();
            let nums: Vec<u32> = info.split_whitespace().filter_map(|t| t.parse().ok()).collect();
            if let [offset, size, ..] = nums[..] {
                out.push((var, cb.clone(), offset, size));
            }
        }
    }
    out
}

/// Name and slot of each row of fxc's resource binding table whose type is `kind`.
fn binding_slots(lines: &[String], kind: &str) -> Vec<(String, u32)> {
    lines
        .iter()
        .filter_map(|l| {
            let f: Vec<&str> = l.strip_prefix("// ")?.split_whitespace().collect();
            if f.get(1) != Some(&kind) {
                return None;
            }
            // `Slot` (a number) or `HLSL Bind` (`cb3`).
            let slot = f.iter().skip(2).find_map(|x| x.trim_start_matches("cb").parse().ok())?;
            Some((f[0].to_string(), slot))
        })
        .collect()
}

#[test]
fn cbuffer_variables_find_the_elements_they_occupy() {
    let mut total = 0;
    for (name, s, lines) in corpus() {
        let Some(p) = s.program.as_ref() else { continue };
        if p.version.is_sm51() {
            continue;
        }
        let vars = cbuffer_variables(&lines);
        let slots = binding_slots(&lines, "cbuffer");
        let mut taken: Vec<String> = lines
            .iter()
            .filter_map(|l| {
                l.strip_prefix("// ").and_then(|r| r.split_whitespace().next()).map(|w| w.to_ascii_lowercase())
            })
            .collect();
        for t in ["Input signature", "Output signature", "Patch Constant signature"] {
            taken.extend(signature_rows(&lines, t).iter().map(|(n, i, ..)| format!("{n}{i}").to_ascii_lowercase()));
        }
        let program = program_lines(&lines);
        for (var, ..) in &vars {
            // A name that is also a binding or a semantic finds those too.
            if taken.iter().filter(|w| w.as_str() == var.to_ascii_lowercase()).count() > 0 {
                continue;
            }
            let elements: Vec<String> = vars
                .iter()
                .filter(|(v, ..)| v == var)
                .filter_map(|(_, cb, offset, size)| {
                    let slot = slots.iter().find(|(n, _)| n == cb)?.1;
                    Some((offset / 16..=(offset + size.max(&1) - 1) / 16).map(move |e| format!("cb{slot}[{e}]")))
                })
                .flatten()
                .collect();
            let want: BTreeSet<usize> = program
                .iter()
                .filter(|(_, l)| !l.starts_with("dcl_") && elements.iter().any(|e| has_token(l, e)))
                .map(|(i, _)| *i)
                .collect();
            let got: BTreeSet<usize> = found_lines(&s, var)
                .into_iter()
                .filter(|&i| program.get(i.wrapping_sub(1)).is_some_and(|(_, l)| !l.starts_with("dcl_")))
                .collect();
            assert_eq!(got, want, "{name}: {var} in {elements:?}");
            total += want.len();
        }
    }
    eprintln!("cbuffer variables: {total} lines");
    assert!(total > 500, "{total} lines checked");
}

/// Each file's last dword (fxc ends every program with `ret`, 0x0100003e)
/// found as hex bytes: a match at the last instruction's offset, on the
/// line where fxc prints `ret`.
#[test]
fn hex_finds_the_closing_ret() {
    let mut n = 0;
    for (name, s, lines) in corpus() {
        let Some(p) = s.program.as_ref() else { continue };
        let Some(last) = p.instructions.last() else { continue };
        let program = program_lines(&lines);
        let (ret_line, ret) =
            *program.iter().rev().find(|(_, l)| !l.starts_with("//") && !l.trim().is_empty()).unwrap();
        if ret.trim_end() != "ret" {
            continue;
        }
        let at = last.offset as usize;
        let q = s.bytes[at..at + 4].iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ");
        assert_eq!(q, "3e 00 00 01", "{name}");
        let base = dxbc::listing::lines::LineMap::new(&s).program_line.unwrap();
        let found = search(&s, &Query::parse(&q));
        let m = found.matches.iter().find(|m| m.range.start == at).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(m.line.map(|l| l - base), Some(ret_line), "{name}");
        n += 1;
    }
    eprintln!("closing ret: {n} files");
    assert!(n > 400, "{n} files");
}

/// A search without descriptions (the explorer's) finds the same matches,
/// each with its range, line and kind, only with `what` left empty (but a
/// reflection name's): for every kind of query on every corpus shader.
#[test]
fn matches_without_descriptions_are_the_same_matches() {
    let mut total = 0;
    for (name, s, _) in corpus() {
        let mid = s.bytes.len() / 2;
        let pattern = s.bytes[mid..mid + 4].iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ");
        for q in ["mul", "mov", "dcl_temps", "sample", "r0", "cb0[1]", "v1", "o0", "0x40", &pattern, "main", "color"] {
            let q = Query::parse(q);
            let mut described = search(&s, &q);
            for m in described.matches.iter_mut().filter(|m| m.kind != dxbc::search::MatchKind::Reflection) {
                m.what.clear();
            }
            let bare = dxbc::search::Searcher::new(&s).without_descriptions().find(&q);
            assert_eq!(bare, described, "{name}: {q:?}");
            total += bare.matches.len();
        }
    }
    eprintln!("matches compared: {total}");
    assert_eq!(total, 77_843, "matches compared");
}
