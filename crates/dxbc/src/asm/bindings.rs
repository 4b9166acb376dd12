//! The "Resource Bindings" table of the listing header back to RDEF binding
//! records.
//!
//! Rows are `name type format dim [ID] bind count` (10.0 and later; the `ID`
//! column and `,spaceN` suffixes in SM5.1) or `name type format dim slot
//! elements` (older compilers). Names hold no blanks, so a row is split at
//! blanks; only the format column may be empty (return type undefined).
//!
//! The columns are functions of the record's fields, which are inverted
//! here ([`crate::listing::header`] prints them). What they do not show is
//! chosen as fxc writes it most often in the corpus: the user-packed flag
//! set, multisample count 0 behind `2dMS`, and the stride of structured
//! buffers taken afterwards from their "Resource bind info" block.

use super::text::{Cursor, Res};
use crate::chunks::rdef::ResourceBinding;
use crate::spec::ReturnType;

/// `D3D_SIF_USERPACKED`: the register was chosen in the source.
const USER_PACKED: u32 = 1;
/// `D3D_SIF_COMPARISON_SAMPLER`.
const COMPARISON: u32 = 2;
/// `D3D_SIF_TEXTURE_COMPONENTS` holds the component count − 1 from bit 2.
const COMPONENTS_SHIFT: u32 = 2;
/// `D3D_RETURN_TYPE_MIXED`, what untyped buffers store.
const MIXED: u32 = ReturnType::Mixed as u32;
/// `D3D_SRV_DIMENSION_BUFFER`.
const DIM_BUFFER: u32 = 1;

/// Which header the table has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Columns {
    /// `Slot Elements` (before 10.0).
    Old,
    /// `HLSL Bind Count`.
    Modern,
    /// `ID HLSL Bind Count` (SM5.1).
    Sm51,
}

impl Columns {
    /// The column-title line's layout, if it is one.
    pub fn from_title(line: &str) -> Option<Columns> {
        let body = line.strip_prefix("// Name ")?;
        if body.contains("Slot Elements") {
            Some(Columns::Old)
        } else if body.contains(" ID ") {
            Some(Columns::Sm51)
        } else if body.contains("HLSL Bind") {
            Some(Columns::Modern)
        } else {
            None
        }
    }
}

/// Reads one row (the line after `// `).
pub(crate) fn row(c: &Cursor, cols: Columns) -> Res<ResourceBinding> {
    let body = c.line.get(3..).unwrap_or("");
    let words: Vec<(usize, &str)> = words(body).map(|(i, w)| (i + 3, w)).collect();
    let fixed = if cols == Columns::Sm51 { 4 } else { 3 }; // dim, [id], bind, count after type/format
    if words.len() < fixed + 2 || words.len() > fixed + 3 {
        return Err(c.err_at(3, "expected a resource binding row"));
    }
    let name = words[0].1.to_string();
    let (ty_at, ty) = words[1];
    let format = if words.len() == fixed + 3 { words[2].1 } else { "" };
    let tail = &words[words.len() - fixed..];
    let (dim_at, dim) = tail[0];
    let (bind_at, bind) = tail[fixed - 2];
    let (count_at, count) = tail[fixed - 1];
    let num = |at: usize, s: &str| s.parse::<u32>().map_err(|_| c.err_at(at, format!("bad number `{s}`")));
    let (bind_point, space) = if cols == Columns::Old {
        (num(bind_at, bind)?, None)
    } else {
        let (reg, space) = match bind.split_once(",space") {
            Some((r, s)) => (r, Some(num(bind_at, s)?)),
            None => (bind, None),
        };
        let digits = reg.trim_start_matches(|ch: char| ch.is_ascii_alphabetic());
        (num(bind_at, digits)?, space)
    };
    let sm51 = cols == Columns::Sm51;
    let id = if sm51 {
        let (at, id) = tail[1];
        Some(num(at, id.trim_start_matches(|ch: char| ch.is_ascii_alphabetic()))?)
    } else {
        None
    };
    // Unbounded arrays: 0 before SM5.1, which stores the largest count.
    let bind_count = match count {
        "unbounded" if sm51 => u32::MAX,
        "unbounded" => 0,
        n => num(count_at, n)?,
    };
    let mut b = ResourceBinding {
        offset: 0,
        name_offset: 0,
        name,
        input_type: 0,
        return_type: 0,
        dimension: 0,
        sample_count: 0,
        bind_point,
        bind_count,
        flags: user_packed(words[0].1, ty, sm51),
        space: sm51.then_some(space.unwrap_or(0)),
        id,
    };
    b.input_type = input_type(ty, format, dim).ok_or_else(|| c.err_at(ty_at, format!("unknown binding `{ty}`")))?;
    if ty == "sampler_c" {
        b.flags |= COMPARISON;
    }
    if matches!(b.input_type, 2 | 4) {
        let (rt, n) = return_type(format).ok_or_else(|| c.err_at(ty_at, format!("unknown format `{format}`")))?;
        b.return_type = rt;
        b.flags |= (n - 1) << COMPONENTS_SHIFT;
        let (d, samples) = dimension(dim).ok_or_else(|| c.err_at(dim_at, format!("unknown dimension `{dim}`")))?;
        b.dimension = d;
        b.sample_count = samples;
    } else if b.input_type >= 5 {
        b.return_type = MIXED;
        b.dimension = DIM_BUFFER;
    }
    Ok(b)
}

/// Whether fxc marks the register as chosen in the source. The buffers
/// the compiler makes (`$Globals`, `$Params`) never are; in SM5.1 the
/// corpus has it on constant buffers only; otherwise most bindings are.
fn user_packed(name: &str, ty: &str, sm51: bool) -> u32 {
    let generated = name == "$Globals" || name == "$Params";
    if generated || (sm51 && ty != "cbuffer") {
        0
    } else {
        USER_PACKED
    }
}

/// Blank-separated words with their byte positions.
fn words(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split(' ')
        .scan(0usize, |at, w| {
            let here = *at;
            *at += w.len() + 1;
            Some((here, w))
        })
        .filter(|(_, w)| !w.is_empty())
}

/// `D3D_SHADER_INPUT_TYPE` from the type, format and dimension columns.
fn input_type(ty: &str, format: &str, dim: &str) -> Option<u32> {
    Some(match (ty, format, dim) {
        ("cbuffer", ..) => 0,
        ("tbuffer", ..) => 1,
        ("sampler" | "sampler_c", ..) => 3,
        ("texture", "struct", _) => 5,
        ("texture", "byte", _) => 7,
        ("texture", ..) => 2,
        ("UAV", _, "append") => 9,
        ("UAV", _, "consume") => 10,
        ("UAV", _, "r/w+cnt") => 11,
        ("UAV", "struct", _) => 6,
        ("UAV", "byte", _) => 8,
        ("UAV", ..) => 4,
        _ => return None,
    })
}

/// Return type and component count of a format column (`float4`, `cont`).
fn return_type(format: &str) -> Option<(u32, u32)> {
    let (base, n) = match format.as_bytes().last() {
        Some(d @ b'2'..=b'4') => (&format[..format.len() - 1], u32::from(d - b'0')),
        _ => (format, 1),
    };
    if base.is_empty() {
        return Some((ReturnType::Undefined as u32, n));
    }
    if base == "cont" {
        return Some((ReturnType::Continued as u32, n));
    }
    (1..=7).find(|&v| ReturnType::from_u32(v).is_some_and(|t| t.row().asm == base)).map(|v| (v, n))
}

/// `D3D_SRV_DIMENSION` and sample count of a dimension column.
fn dimension(dim: &str) -> Option<(u32, u32)> {
    let ms = |prefix: &str| dim.strip_prefix(prefix).map(|n| if n.is_empty() { Some(0) } else { n.parse().ok() });
    if let Some(n) = ms("2darrayMS") {
        return n.map(|n| (7, n));
    }
    if let Some(n) = ms("2dMS") {
        return n.map(|n| (6, n));
    }
    let d = match dim {
        "buf" => 1,
        "1d" => 2,
        "1darray" => 3,
        "2d" => 4,
        "2darray" => 5,
        "3d" => 8,
        "cube" => 9,
        "cubearray" => 10,
        _ => return None,
    };
    Some((d, u32::MAX))
}
