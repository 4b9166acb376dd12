//! `dxbc`: inspect Direct3D shader bytecode from the terminal.
//!
//! Every command reads a file path or `-` for standard input, writes its
//! result to standard output, and on bad input exits non-zero with a
//! one-line error that names the byte offset.

use clap::{Parser, Subcommand, ValueEnum};
use dxbc::listing::Dialect;
use dxbc::Shader;
use std::io::{Read, Write};
use std::process::ExitCode;

use dxbc_cli::scan;
mod workbench;

#[derive(Parser)]
#[command(name = "dxbc", version, about = "Decode, disassemble and rebuild DXBC shader bytecode")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum DialectArg {
    /// Follow the compiler named in the file (default).
    Auto,
    /// fxc 10.x spelling.
    Modern,
    /// fxc 9.x / 6.3 spelling.
    Legacy,
    /// fxc 9.30 spelling (a stripped file's header gains its `///` line).
    Legacy930,
    /// As 3Dmigoto dumps listings: floats that six decimals cannot give
    /// back printed with nine significant digits, so the text is exact.
    Exact,
}

#[derive(Subcommand)]
enum Command {
    /// Chunks with offsets and sizes, checksum status and the profile.
    Info { file: String },
    /// Runs one invocation on the interpreter with the preview's inputs
    /// (a preview link's, or the defaults) and prints the trace: each
    /// instruction as the listing prints it, then what it wrote.
    Run {
        /// The shader (optional with --link, which carries one).
        file: Option<String>,
        /// A preview link (`#v1/…`): its control values and settings, and
        /// a debug link's invocation when no other is given.
        #[arg(long)]
        link: Option<String>,
        /// A pixel of the preview (pixel shaders), X,Y from the top left.
        #[arg(long)]
        pixel: Option<String>,
        /// A vertex of the mesh (vertex shaders).
        #[arg(long)]
        vertex: Option<u32>,
        /// A compute thread: GX,GY,GZ:TX,TY,TZ (group id : thread id in group).
        #[arg(long)]
        thread: Option<String>,
    },
    /// The listing exactly as fxc prints it.
    Disasm {
        file: String,
        /// Which fxc generation's spelling to follow.
        #[arg(long, value_enum, default_value = "auto")]
        dialect: DialectArg,
    },
    /// The HLSL source files embedded by `/Zi` (SPDB), each after a header line naming it.
    Source { file: String },
    /// Every program token: offset, hex dword, role, and each bitfield.
    Dump { file: String },
    /// Every byte as a named leaf: `offset<TAB>length<TAB>path<TAB>value` per line.
    Spans { file: String },
    /// The whole decoded model as JSON.
    Json { file: String },
    /// The container re-serialised from the decoded model (binary, to stdout).
    Rebuild { file: String },
    /// Edit and write the re-signed container (binary, to stdout): set one
    /// field of the token at --at, or the field at --path; delete, insert
    /// or replace the instruction at --at.
    Edit {
        file: String,
        /// Byte offset of the token or instruction (decimal or 0x…).
        #[arg(long, required_unless_present = "path")]
        at: Option<String>,
        /// Field name as `dxbc dump` prints it (`saturate`, `opcode`,
        /// `component selection`, …); `value` sets a whole immediate, index or payload dword.
        #[arg(long, requires_all = ["value", "at"])]
        field: Option<String>,
        /// A field's path as `dxbc spans` prints it (`ISGN/elements[0]/register`).
        #[arg(long, requires = "value", conflicts_with_all = ["at", "field"])]
        path: Option<String>,
        /// A number (decimal or 0x…) or a name of the field's values (`mul`, `nonzero`, …).
        #[arg(long)]
        value: Option<String>,
        /// Delete the instruction that starts at --at.
        #[arg(long, requires = "at", conflicts_with_all = ["field", "insert", "replace"])]
        delete: bool,
        /// Insert these listing lines before the instruction at --at (or at the program's end).
        #[arg(long, requires = "at", conflicts_with_all = ["field", "replace"])]
        insert: Option<String>,
        /// Replace the instruction at --at by these listing lines.
        #[arg(long, requires = "at", conflicts_with = "field")]
        replace: Option<String>,
    },
    /// Assemble an fxc listing (`disasm` output, edited or not) into a container (binary, to stdout).
    Asm { file: String },
    /// The explorer permalink fragment (`#v1/…`) that opens this file.
    Link {
        /// Panes to open (repeatable); default: map and reflection.
        #[arg(long, value_enum)]
        pane: Vec<Pane>,
        /// Open with the token or field holding this byte selected (decimal or 0x…).
        #[arg(long, value_name = "OFFSET")]
        select: Option<String>,
        /// Open the diff view comparing FILE with this file (shown as the
        /// first side; FILE is the one selected and edited).
        #[arg(long, value_name = "OTHER")]
        diff: Option<String>,
        file: String,
    },
    /// Find a mnemonic (`mul`), register (`r3`, `cb0[5]`), reflection name,
    /// hex bytes (`8a 00 01 00`) or offset (`0x8a8`, `@2216`): prints
    /// `offset<TAB>length<TAB>line<TAB>what` per match (line of `disasm`'s
    /// output, 1-based, `-` when none) and the count on stderr.
    Search { file: String, query: String },
    /// Every write, read and declaration of a register (`r0`, `o1.xy`,
    /// `cb0[5]`): prints `kind<TAB>offset<TAB>length<TAB>line<TAB>components<TAB>instruction`
    /// per site in program order (kind `write`, `read` or `declare`; the
    /// operand's bytes; line of `disasm`'s output, 1-based) and the counts on stderr.
    Defuse { file: String, register: String },
    /// Compare two shaders: changed header bytes and chunks, then the program
    /// aligned by instruction. Exits 0 when identical, 1 when different, 2 on error.
    Diff { a: String, b: String },
    /// The file as a C header in the layout `fxc /Fh` writes (listing in `#if 0`, then the bytes).
    Header {
        file: String,
        /// Array name after `g_`.
        #[arg(long, default_value = "main")]
        name: String,
    },
    /// Carve every DXBC container out of files and folders (walked
    /// recursively, in parallel): one JSON line per container found with
    /// `file`, `offset`, `size`, `sha256`, `profile`, `stage`, counts,
    /// features, creator, `checksum` (`valid`, `invalid`, `unsigned`,
    /// `unchecked`) and whether it translates. Progress on stderr.
    Scan {
        #[arg(required = true)]
        paths: Vec<String>,
        /// Print opcode, feature, profile and checksum histograms instead of the lines.
        #[arg(long)]
        summary: bool,
        /// Skip the translation check (faster).
        #[arg(long)]
        no_translate: bool,
    },
    /// Write every container found in files and folders to DIR as `NAME_OFFSET.dxbc`.
    Extract {
        #[arg(required = true)]
        paths: Vec<String>,
        /// Folder to write to (created if missing).
        #[arg(long, value_name = "DIR")]
        out: String,
    },
    /// Translate through naga to another shading language. Exits 3 when the
    /// translator refuses the shader (the reason's name and why on stderr),
    /// 1 on other errors.
    Translate {
        /// Output language.
        #[arg(long, value_enum)]
        to: Target,
        /// Register to bind-group mapping.
        #[arg(long, value_enum, default_value = "group-per-class")]
        bindings: Bindings,
        /// The view format of a typed buffer or typed UAV, which the bytecode
        /// does not carry (repeatable): `u0=rgba32float`, `t2=rg32uint`.
        /// Default: one 32-bit channel of the declared type.
        #[arg(long = "format", value_name = "REGISTER=FORMAT")]
        formats: Vec<String>,
        /// The pixel shader this vertex shader feeds: its outputs take the
        /// interpolation that pixel shader declares (D3D decides it there).
        #[arg(long = "link-ps", value_name = "PS.dxbc")]
        link_ps: Option<String>,
        /// The form of the stage: `auto` is native except for the stages
        /// WebGPU and naga lack: a geometry shader is written as its
        /// compute pass, a hull shader as its control-point pass, a domain
        /// shader as the vertex shader over domain points. `compute` also
        /// turns a vertex shader into the pass that writes its outputs to a
        /// buffer, and a domain shader into one writing output records;
        /// `draw` is a geometry shader's draw (the vertex shader pulling
        /// what the pass wrote) or a domain shader's vertex form;
        /// `patch-constant` is a hull shader's fork/join pass.
        #[arg(long, value_enum, default_value = "auto")]
        form: Form,
        /// SPIR-V: leave SV_Position's y as D3D wrote it (y up), for a
        /// Vulkan viewport of negative height, as vkd3d, DXVK and wgpu set.
        /// By default it is negated, for a viewport of positive height.
        #[arg(long)]
        no_y_flip: bool,
        file: String,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Form {
    Auto,
    Native,
    Compute,
    Draw,
    PatchConstant,
}

#[derive(Clone, Copy, ValueEnum)]
enum Pane {
    Map,
    Reflection,
    Translation,
    Preview,
}

#[derive(Clone, Copy, ValueEnum)]
enum Target {
    Wgsl,
    /// SPIR-V binary.
    Spirv,
    /// SPIR-V disassembly.
    SpirvAsm,
    Glsl,
    Msl,
    Hlsl,
}

#[derive(Clone, Copy, ValueEnum)]
enum Bindings {
    /// cbuffers group 0, SRVs group 1, samplers group 2, UAVs group 3; binding = register.
    GroupPerClass,
    /// group = register space; binding = register + class shift (t 1000, s 2000, u 3000).
    GroupPerSpace,
}

/// `u0=rgba32float` → (UAV, 0, Rgba32Float).
fn parse_format(arg: &str) -> Result<(dxbc_naga::RegisterClass, u32, dxbc_naga::TypedFormat), String> {
    let bad = || format!("--format {arg}: expected uN=FORMAT or tN=FORMAT (FORMAT: r32float … rgba32sint)");
    let (reg, format) = arg.split_once('=').ok_or_else(bad)?;
    let class = match reg.as_bytes().first() {
        Some(b'u') => dxbc_naga::RegisterClass::UnorderedAccess,
        Some(b't') => dxbc_naga::RegisterClass::ShaderResource,
        _ => return Err(bad()),
    };
    let register = reg[1..].parse().map_err(|_| bad())?;
    let format = dxbc_naga::TypedFormat::parse(format).ok_or_else(bad)?;
    Ok((class, register, format))
}

fn read_input(path: &str) -> Result<Vec<u8>, String> {
    if path == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v).map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(v)
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))
    }
}

/// Why a command failed: an error (exit 1), or the translator's refusal
/// of a shader it cannot express (exit 3, with the typed reason).
enum Failure {
    Error(String),
    /// `language` is the output language that refused, or None when the
    /// translation itself (every target) refused.
    Refused {
        message: String,
        limitation: dxbc_naga::Limitation,
        language: Option<dxbc_naga::Language>,
    },
}

/// Exit status of `dxbc translate` when the translator refuses the shader.
const EXIT_REFUSED: u8 = 3;

impl From<String> for Failure {
    fn from(e: String) -> Failure {
        Failure::Error(e)
    }
}

impl From<&str> for Failure {
    fn from(e: &str) -> Failure {
        Failure::Error(e.to_string())
    }
}

impl From<dxbc_naga::TranslateError> for Failure {
    fn from(e: dxbc_naga::TranslateError) -> Failure {
        match e.limitation() {
            Some(limitation) => Failure::Refused { message: e.to_string(), limitation, language: None },
            None => Failure::Error(e.to_string()),
        }
    }
}

impl From<dxbc_naga::OutputError> for Failure {
    fn from(e: dxbc_naga::OutputError) -> Failure {
        match e.limitation() {
            Some(limitation) => Failure::Refused { message: e.to_string(), limitation, language: Some(e.language()) },
            None => Failure::Error(e.to_string()),
        }
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| format!("cannot write output: {e}");
    match cli.command {
        Command::Info { file } => {
            let s = Shader::decode(&read_input(&file)?).map_err(|e| e.to_string())?;
            out.write_all(info(&s).as_bytes()).map_err(io)?;
            faults(&s)?;
        }
        Command::Source { file } => {
            let s = Shader::decode(&read_input(&file)?).map_err(|e| e.to_string())?;
            let Some(p) = s.spdb.as_deref() else {
                return Err(format!("{file}: no SPDB chunk: the shader was compiled without /Zi").into());
            };
            out.write_all(p.source_text().as_bytes()).map_err(io)?;
            faults(&s)?;
        }
        Command::Run { file, link, pixel, vertex, thread } => {
            let bytes = file.as_deref().map(read_input).transpose()?;
            let inputs = dxbc_cli::run::inputs(bytes.as_deref(), link.as_deref())?;
            // Without --pixel, --vertex or --thread, a debug link's invocation.
            let inv = match (&pixel, vertex, &thread, inputs.invocation) {
                (None, None, None, Some(inv)) => inv,
                _ => dxbc_cli::run::invocation(pixel.as_deref(), vertex, thread.as_deref())?,
            };
            let text = dxbc_cli::run::trace_text(&inputs, inv)?;
            out.write_all(text.as_bytes()).map_err(io)?;
        }
        Command::Disasm { file, dialect } => {
            // A damaged file prints what decoded, then fails.
            let s = Shader::decode(&read_input(&file)?).map_err(|e| e.to_string())?;
            let d = match dialect {
                DialectArg::Auto => Dialect::Auto,
                DialectArg::Modern => Dialect::Modern,
                DialectArg::Legacy => Dialect::Legacy,
                DialectArg::Legacy930 => Dialect::Legacy930,
                DialectArg::Exact => Dialect::Exact,
            };
            out.write_all(dxbc::listing::disassemble_with(&s, d).as_bytes()).map_err(io)?;
            faults(&s)?;
        }
        Command::Dump { file } => {
            let s = Shader::decode(&read_input(&file)?).map_err(|e| e.to_string())?;
            out.write_all(dump(&s).as_bytes()).map_err(io)?;
            faults(&s)?;
        }
        Command::Spans { file } => {
            let bytes = read_input(&file)?;
            // A bare effect file (fx_5_0 .fxo) has no DXBC header of its own.
            if let Some(spans) = dxbc::spans::effect_leaves(&bytes) {
                out.write_all(spans.to_tsv(&bytes).as_bytes()).map_err(io)?;
                let effect = dxbc::effects::decode(&bytes, 0..bytes.len());
                return match effect.errors.first() {
                    Some(e) => Err(Failure::Error(e.to_string())),
                    None => Ok(()),
                };
            }
            let s = Shader::decode(&bytes).map_err(|e| e.to_string())?;
            out.write_all(dxbc::spans::leaves(&s).to_tsv(&s.bytes).as_bytes()).map_err(io)?;
            if let Some(e) = s.errors.first() {
                return Err(Failure::Error(e.to_string()));
            }
        }
        Command::Json { file } => {
            let s = Shader::decode(&read_input(&file)?).map_err(|e| e.to_string())?;
            let mut v = serde_json::to_value(&s).map_err(|e| format!("cannot encode JSON: {e}"))?;
            if let Some(obj) = v.as_object_mut() {
                obj.insert("checksum_valid".into(), s.checksum_ok().into());
                obj.insert("profile".into(), s.profile().into());
            }
            serde_json::to_writer_pretty(&mut out, &v).map_err(|e| format!("cannot write JSON: {e}"))?;
            out.write_all(b"\n").map_err(io)?;
            faults(&s)?;
        }
        Command::Rebuild { file } => {
            let s = Shader::parse(&read_input(&file)?).map_err(|e| e.to_string())?;
            out.write_all(&s.rebuild()).map_err(io)?;
        }
        Command::Edit { file, at, field, path, value, delete, insert, replace } => {
            use dxbc::edit;
            let bytes = read_input(&file)?;
            let at = match at {
                Some(a) => Some(edit::parse_number(&a).ok_or_else(|| format!("--at {a}: not a byte offset"))? as usize),
                None => None,
            };
            let edited =
                match (at, field, path, value, insert, replace) {
                    (Some(at), Some(f), _, Some(v), _, _) => edit::set_field(&bytes, at, &f, &v),
                    (_, _, Some(p), Some(v), _, _) => edit::set_path(&bytes, &p, &v),
                    (Some(at), _, _, _, Some(text), _) => edit::insert_text(&bytes, at, &text),
                    (Some(at), _, _, _, _, Some(text)) => edit::replace_text(&bytes, at, &text),
                    (Some(at), ..) if delete => edit::delete_instruction(&bytes, at),
                    _ => return Err(
                        "edit: give --at with --field/--value, --delete, --insert or --replace; or --path with --value"
                            .into(),
                    ),
                }
                .map_err(|e| e.to_string())?;
            out.write_all(&edited.bytes).map_err(io)?;
        }
        Command::Asm { file } => {
            let bytes = read_input(&file)?;
            let text = std::str::from_utf8(&bytes)
                .map_err(|e| format!("the listing is not UTF-8 text (at offset {:#x})", e.valid_up_to()))?;
            let dxbc = dxbc::asm::assemble(text).map_err(|e| e.to_string())?;
            out.write_all(&dxbc).map_err(io)?;
        }
        Command::Link { pane, select, diff, file } => {
            use dxbc::permalink::{self, panes};
            let shader = read_input(&file)?;
            // Refuse what the explorer could not open: the link must decode.
            let decoded = Shader::decode(&shader).map_err(|e| e.to_string())?;
            let panes = if pane.is_empty() {
                panes::DEFAULT
            } else {
                pane.iter().fold(0, |acc, p| {
                    acc | match p {
                        Pane::Map => panes::MAP,
                        Pane::Reflection => panes::REFLECTION,
                        Pane::Translation => panes::TRANSLATION,
                        Pane::Preview => panes::PREVIEW,
                    }
                })
            };
            let selection = match select {
                None => None,
                Some(a) => {
                    let at = dxbc::edit::parse_number(&a)
                        .filter(|&o| (o as usize) < shader.len())
                        .ok_or_else(|| format!("--select {a}: not a byte offset in this {}-byte file", shader.len()))?;
                    // The token (one dword in the program) or field holding that byte,
                    // as the explorer draws it.
                    match dxbc::spans::leaves(&decoded).at(at as usize) {
                        Some(l) => Some((l.offset as u32, l.len as u32)),
                        None => Some((at & !3, 4.min(shader.len() as u32 - (at & !3)))),
                    }
                }
            };
            // The compared file must open too (its side of the diff is decoded).
            let compare = match diff {
                None => None,
                Some(other) => {
                    let bytes = read_input(&other)?;
                    Shader::decode(&bytes).map_err(|e| format!("--diff {other}: {e}"))?;
                    Some(bytes)
                }
            };
            let panes = if compare.is_some() { panes | permalink::panes::DIFF } else { panes };
            let view = permalink::ViewState { panes, selection, compare, ..Default::default() };
            let link = permalink::Permalink { shader, view };
            writeln!(out, "{}", permalink::encode(&link)).map_err(io)?;
        }
        Command::Search { file, query } => {
            let s = Shader::decode(&read_input(&file)?).map_err(|e| e.to_string())?;
            let (text, count) = workbench::search_text(&s, &query);
            out.write_all(text.as_bytes()).map_err(io)?;
            eprintln!("{count}");
        }
        Command::Defuse { file, register } => {
            let s = Shader::decode(&read_input(&file)?).map_err(|e| e.to_string())?;
            let (text, count) = workbench::defuse_text(&s, &register)?;
            out.write_all(text.as_bytes()).map_err(io)?;
            eprintln!("{count}");
        }
        Command::Scan { paths, summary, no_translate } => {
            scan::run(&paths, summary, !no_translate, &mut out)?;
        }
        Command::Extract { paths, out: dir } => {
            let files = scan::walk(&paths)?;
            scan::extract(&files, std::path::Path::new(&dir))?;
        }
        Command::Diff { .. } => return Err(Failure::Error("diff is run by main".into())),
        Command::Header { file, name } => {
            let bytes = read_input(&file)?;
            Shader::decode(&bytes).map_err(|e| e.to_string())?;
            out.write_all(dxbc::export::c_header(&bytes, &name).as_bytes()).map_err(io)?;
        }
        Command::Translate { to, bindings, formats, link_ps, form, no_y_flip, file } => {
            let typed_formats = formats.iter().map(|f| parse_format(f)).collect::<Result<Vec<_>, _>>()?;
            let interpolation_from = match &link_ps {
                Some(path) => {
                    let ps = Shader::parse(&read_input(path)?).map_err(|e| format!("{path}: {e}"))?;
                    Some(dxbc_naga::PixelInputs::of(&ps).map_err(|e| format!("--link-ps {path}: {e}"))?)
                }
                None => None,
            };
            let s = Shader::parse(&read_input(&file)?).map_err(|e| e.to_string())?;
            let options = dxbc_naga::Options {
                bindings: match bindings {
                    Bindings::GroupPerClass => dxbc_naga::BindingScheme::GroupPerClass,
                    Bindings::GroupPerSpace => dxbc_naga::BindingScheme::GroupPerSpace,
                },
                typed_formats,
                interpolation_from,
                ..Default::default()
            };
            let form = match form {
                Form::Auto => dxbc_naga::StageForm::standalone(&s),
                Form::Native => dxbc_naga::StageForm::Native,
                Form::Compute => dxbc_naga::StageForm::Compute,
                Form::Draw => dxbc_naga::StageForm::DrawFromBuffer,
                Form::PatchConstant => dxbc_naga::StageForm::PatchConstant,
            };
            let t = dxbc_naga::translate_pipeline_stage(&s, &options, form)?;
            let y = if no_y_flip { dxbc_naga::ClipSpaceY::AsD3d } else { dxbc_naga::ClipSpaceY::Negated };
            let text = match to {
                Target::Wgsl => dxbc_naga::to_wgsl(&t)?,
                Target::Glsl => dxbc_naga::to_glsl(&t)?,
                Target::Msl => dxbc_naga::to_msl(&t)?,
                Target::Hlsl => dxbc_naga::to_hlsl(&t)?,
                Target::Spirv => {
                    let words = dxbc_naga::to_spirv_with(&t, y)?;
                    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                    out.write_all(&bytes).map_err(io)?;
                    return Ok(());
                }
                Target::SpirvAsm => {
                    use rspirv::binary::Disassemble;
                    let words = dxbc_naga::to_spirv_with(&t, y)?;
                    rspirv::dr::load_words(&words).map(|m| m.disassemble() + "\n").map_err(|e| e.to_string())?
                }
            };
            // The chosen binding as a comment block, so the mapping travels with the output.
            let comment =
                if matches!(to, Target::Wgsl | Target::Glsl | Target::Msl | Target::Hlsl) { "//" } else { ";" };
            let mut header = String::new();
            // The passes of a compute form, so a reader knows how to run it.
            if let Some(c) = &t.compute_form {
                for line in c.describe() {
                    header.push_str(&format!("{comment} {line}\n"));
                }
            }
            for b in &t.bindings {
                let reg = match b.class {
                    dxbc_naga::RegisterClass::ConstantBuffer => "b",
                    dxbc_naga::RegisterClass::ShaderResource => "t",
                    dxbc_naga::RegisterClass::Sampler => "s",
                    dxbc_naga::RegisterClass::UnorderedAccess => "u",
                };
                // Emulation bindings: a UAV counter (BindingKind::UavCounter)
                // and the rasterizer's sample count, which has no register.
                if b.kind == dxbc_naga::BindingKind::RasterizerSampleCount {
                    header.push_str(&format!(
                        "{comment} rasterizer sample count -> @group({}) @binding({})\n",
                        b.group, b.binding
                    ));
                    continue;
                }
                // The class instances of interface slots: no register; the
                // defaults (dxbc_naga::default_class_instances) are printed
                // so a reader can bind them.
                if let dxbc_naga::BindingKind::ClassInstances { slots, default_words } = &b.kind {
                    header.push_str(&format!(
                        "{comment} class instances ({slots} interface slots) -> @group({}) @binding({})\n",
                        b.group, b.binding
                    ));
                    for (s, this) in default_words.chunks(4).take(*slots as usize).enumerate() {
                        let table = default_words.get((*slots as usize + s) * 4).copied().unwrap_or(0);
                        header.push_str(&format!(
                            "{comment}   slot {s} default: table ft{table}, this = {{cb {}, row {}, t {}, s {}}}\n",
                            this[0], this[1], this[2], this[3]
                        ));
                    }
                    continue;
                }
                // A stage buffer of a compute form is no D3D register.
                if let dxbc_naga::BindingKind::StageBuffer { role, writable } = b.kind {
                    header.push_str(&format!(
                        "{comment} {} buffer ({}) -> @group({}) @binding({})\n",
                        role.name(),
                        if writable { "read-write" } else { "read-only" },
                        b.group,
                        b.binding
                    ));
                    continue;
                }
                // An emulated UAV counter has its own binding (see BindingKind::UavCounter).
                let counter = if b.kind == dxbc_naga::BindingKind::UavCounter { " counter" } else { "" };
                // An SM5.1 range is one binding array: its registers as declared.
                let range = b.range_text().map_or(String::new(), |r| format!(" {r} (binding array)"));
                header.push_str(&format!(
                    "{comment} {reg}{}{range}{counter}, space{} -> @group({}) @binding({})\n",
                    b.register, b.space, b.group, b.binding
                ));
            }
            // What was emulated, so a reader knows what the pipeline must provide.
            for e in &t.emulations {
                header.push_str(&format!("{comment} emulated ({}): {}\n", e.name(), e.what()));
            }
            if !header.is_empty() {
                header.push('\n');
            }
            out.write_all(header.as_bytes()).map_err(io)?;
            out.write_all(text.as_bytes()).map_err(io)?;
        }
    }
    Ok(())
}

/// Fails with one line naming the first fault (and how many there were).
fn faults(s: &Shader) -> Result<(), String> {
    match s.errors.as_slice() {
        [] => Ok(()),
        [e] => Err(format!("{}: {e}", e.kind())),
        [e, rest @ ..] => Err(format!("{} errors; first: {}: {e}", rest.len() + 1, e.kind())),
    }
}

fn hex_sum(w: &[u32; 4]) -> String {
    w.iter().map(|x| format!("{x:08x}")).collect::<Vec<_>>().join(" ")
}

fn info(s: &Shader) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let c = &s.container;
    if c.total_size as usize == s.bytes.len() {
        let _ = writeln!(o, "size      {} bytes", c.total_size);
    } else {
        let _ = writeln!(o, "size      {} bytes (the input has {})", c.total_size, s.bytes.len());
    }
    match (s.profile(), dxbc::carve::dxil_version(s)) {
        (Some(p), _) => {
            let _ = writeln!(o, "profile   {p}");
        }
        (None, Some(v)) => {
            let p = dxbc::carve::dxil_profile(v);
            let _ =
                writeln!(o, "profile   {p} (DXIL: signatures and reflection decode; DXIL code is not disassembled)");
        }
        (None, None) => {
            let _ = writeln!(o, "profile   (no program chunk)");
        }
    }
    if s.checksum_ok() {
        let _ = writeln!(o, "checksum  valid ({})", hex_sum(&c.checksum));
    } else {
        let _ = writeln!(
            o,
            "checksum  INVALID: stored {}, expected {}",
            hex_sum(&c.checksum),
            hex_sum(&s.computed_checksum())
        );
    }
    let _ = writeln!(o, "chunks    {}", c.chunks.len());
    for ch in &c.chunks {
        let _ = writeln!(
            o,
            "  {:<6} offset 0x{:06x}  size {:>7}  {}",
            ch.fourcc(),
            ch.offset,
            ch.size,
            dxbc::container::chunk_kind_description(&ch.tag)
        );
    }
    if let Some(p) = s.spdb.as_deref() {
        o.push_str(&p.source_summary());
    }
    if !s.errors.is_empty() {
        let _ = writeln!(o, "errors    {}", s.errors.len());
        for e in &s.errors {
            let _ = writeln!(o, "  [{}] {e}", e.kind());
        }
    }
    o
}

fn dump(s: &Shader) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let Some(p) = &s.program else {
        return "no program chunk\n".into();
    };
    let sm51 = p.version.is_sm51();
    let _ = sm51;
    let mut last_ins = usize::MAX;
    for t in p.tokens() {
        if let Some(i) = t.instruction {
            if i != last_ins {
                last_ins = i;
                let ins = &p.instructions[i];
                let mut line = String::new();
                dxbc::listing::program::write_instruction(p, ins, dxbc::listing::program::Ctx::modern(p), &mut line);
                let first = line.lines().next().unwrap_or("");
                let _ = writeln!(o, "; {first}");
            }
        }
        let _ = writeln!(o, "0x{:06x}  {:08x}  {}", t.offset, t.value, role_name(&t.role));
        for f in t.fields(p) {
            let bits = if f.lo == f.hi { format!("[{}]", f.lo) } else { format!("[{}:{}]", f.hi, f.lo) };
            let meaning = f.meaning.map(|m| format!(" {m}")).unwrap_or_default();
            let _ = writeln!(o, "            {bits:<8} {:<24} = {}{meaning}", f.name, f.value);
        }
    }
    o
}

fn role_name(r: &dxbc::program::TokenRole) -> String {
    use dxbc::program::TokenRole::*;
    match r {
        Version => "version token".into(),
        Length => "length token".into(),
        Opcode => "opcode token".into(),
        InstructionLength => "length dword".into(),
        ExtendedOpcode => "extended opcode token".into(),
        Operand { operand } => format!("operand token (#{operand})"),
        ExtendedOperand { operand } => format!("extended operand token (#{operand})"),
        Immediate { operand, component } => format!("immediate #{operand}[{component}]"),
        Index { operand, dim } => format!("index {dim} of operand #{operand}"),
        Payload(w) => format!("payload: {}", w.name()),
    }
}

/// `dxbc diff`: true when the files are identical.
fn diff(a: &str, b: &str) -> Result<bool, String> {
    let (ba, bb) = (read_input(a)?, read_input(b)?);
    let sa = Shader::decode(&ba).map_err(|e| format!("{a}: {e}"))?;
    let sb = Shader::decode(&bb).map_err(|e| format!("{b}: {e}"))?;
    let d = dxbc::diff::diff(&sa, &sb);
    let text = workbench::diff_text(&sa, &sb, &d);
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).map_err(|e| format!("cannot write output: {e}"))?;
    Ok(ba == bb)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Diff { a, b } = &cli.command {
        return match diff(a, b) {
            Ok(same) => ExitCode::from(u8::from(!same)),
            Err(e) => {
                eprintln!("dxbc: {e}");
                ExitCode::from(2)
            }
        };
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Error(e)) => {
            let _ = std::io::stdout().flush();
            eprintln!("dxbc: {e}");
            ExitCode::from(1)
        }
        Err(Failure::Refused { message, limitation, language }) => {
            let _ = std::io::stdout().flush();
            eprintln!("dxbc: {message}");
            match language {
                Some(l) => eprintln!(
                    "dxbc: refused for {} ({}): {}",
                    l.name(),
                    limitation.name(),
                    limitation.why_in(l).unwrap_or(limitation.why())
                ),
                None => eprintln!("dxbc: refused ({}): {}", limitation.name(), limitation.why()),
            }
            ExitCode::from(EXIT_REFUSED)
        }
    }
}
