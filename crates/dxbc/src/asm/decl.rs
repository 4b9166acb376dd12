//! Declaration lines (`dcl_*`): each spelling as the printer writes it,
//! back to the opcode token's control fields and the payload dwords in the
//! order [`crate::spec::layout`] gives.

use super::instruction::{finish_length, return_types};
use super::operand::{self, parse_number, set, Comps, Role};
use super::text::{Cursor, Res};
use crate::spec::{self, opc::*, EnumDef, FieldDef, NumType, OpClass, OpcodeInfo, OPCODE_COMMON_FIELDS};

/// Parses a declaration line (cursor at `dcl_`) and appends its tokens;
/// `legacy` when the listing comes from an fxc before 10.0.
pub(crate) fn parse(c: &mut Cursor, legacy: bool, w: &mut Vec<u32>) -> Res<()> {
    let at = c.pos;
    let word = c.word();
    let (info, rest) = split(word).ok_or_else(|| c.err_at(at, format!("unknown declaration `{word}`")))?;
    let code = info.code;
    let f = spec::opcode_controls(code);
    let mut t = 0u32;
    set(&mut t, OPCODE_COMMON_FIELDS, "opcode", code as u32);
    let mut body = Vec::new();
    let bad_suffix = || c.err_at(at + info.asm.len(), format!("unexpected `{rest}` after `{}`", info.asm));
    match code {
        DCL_RESOURCE => resource(c, f, rest, &mut t, &mut body)?,
        DCL_UAV_TYPED | DCL_UAV_RAW | DCL_UAV_STRUCTURED => uav(c, code, f, rest, &mut t, &mut body)?,
        DCL_INTERFACE => {
            match rest {
                "" => {}
                "_dynamicindexed" => set(&mut t, f, "dynamically indexed", 1),
                _ => return Err(bad_suffix()),
            }
            interface(c, &mut body)?;
        }
        _ if !rest.is_empty() => return Err(bad_suffix()),
        DCL_CONSTANT_BUFFER => constant_buffer(c, f, &mut t, &mut body)?,
        DCL_SAMPLER => {
            decl_operand(c, &mut body)?;
            c.expect(",")?;
            set(&mut t, f, "sampler mode", enum_word(c, &spec::SAMPLER_MODE)?);
            space(c, &mut body)?;
        }
        DCL_INDEX_RANGE => {
            decl_operand(c, &mut body)?;
            body.push(c.uint()?);
        }
        DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => set(&mut t, f, "topology", enum_word(c, &spec::PRIMITIVE_TOPOLOGY)?),
        DCL_GS_INPUT_PRIMITIVE => set(&mut t, f, "primitive", enum_word(c, &spec::PRIMITIVE)?),
        DCL_TESS_DOMAIN => set(&mut t, f, "domain", enum_word(c, &spec::TESS_DOMAIN)?),
        DCL_TESS_PARTITIONING => set(&mut t, f, "partitioning", enum_word(c, &spec::TESS_PARTITIONING)?),
        DCL_TESS_OUTPUT_PRIMITIVE => set(&mut t, f, "output primitive", enum_word(c, &spec::TESS_OUTPUT_PRIMITIVE)?),
        DCL_INPUT_CONTROL_POINT_COUNT | DCL_OUTPUT_CONTROL_POINT_COUNT => set(&mut t, f, "control points", c.uint()?),
        DCL_MAX_OUTPUT_VERTEX_COUNT
        | DCL_TEMPS
        | DCL_HS_FORK_PHASE_INSTANCE_COUNT
        | DCL_HS_JOIN_PHASE_INSTANCE_COUNT
        | DCL_GS_INSTANCE_COUNT => body.push(c.uint()?),
        DCL_INPUT | DCL_OUTPUT | DCL_STREAM => decl_operand(c, &mut body)?,
        DCL_INPUT_SGV | DCL_INPUT_SIV | DCL_OUTPUT_SGV | DCL_OUTPUT_SIV => {
            decl_operand(c, &mut body)?;
            system_name(c, &mut body)?;
        }
        DCL_INPUT_PS | DCL_INPUT_PS_SGV | DCL_INPUT_PS_SIV => {
            c.skip_ws();
            // fxc before 10.0 leaves out the mode of system-generated
            // inputs, which are always constant.
            let mode = interpolation(c).or_else(|| {
                (legacy && code == DCL_INPUT_PS_SGV)
                    .then(|| spec::INTERPOLATION_MODE.from_spec_name("CONSTANT"))
                    .flatten()
            });
            if let Some(mode) = mode {
                set(&mut t, f, "interpolation", mode);
            }
            decl_operand(c, &mut body)?;
            if code != DCL_INPUT_PS {
                system_name(c, &mut body)?;
            }
        }
        DCL_INDEXABLE_TEMP => {
            c.expect("x")?;
            body.push(c.uint()?);
            c.expect("[")?;
            body.push(c.uint()?);
            c.expect("]")?;
            comma_uint(c, &mut body)?;
        }
        DCL_GLOBAL_FLAGS => loop {
            c.skip_ws();
            let fat = c.pos;
            let name = c.word();
            let field = spec::field(spec::GLOBAL_FLAGS_CONTROLS, name)
                .filter(|d| d.lo == d.hi)
                .ok_or_else(|| c.err_at(fat, format!("unknown global flag `{name}`")))?;
            t = field.put(t, 1);
            c.skip_ws();
            if !c.eat("|") {
                break;
            }
        },
        DCL_FUNCTION_BODY => {
            c.expect("fb")?;
            body.push(c.uint()?);
        }
        DCL_FUNCTION_TABLE => {
            c.expect("ft")?;
            body.push(c.uint()?);
            let ids = id_list(c, "fb")?;
            body.push(ids.len() as u32);
            body.extend(ids);
        }
        DCL_HS_MAX_TESSFACTOR => {
            c.expect("l(")?;
            let at = c.pos;
            let text = c.take_while(|ch| ch != ')');
            body.push(
                parse_number(text, NumType::Float, c.exact)
                    .ok_or_else(|| c.err_at(at, format!("bad number `{text}`")))?,
            );
            c.expect(")")?;
        }
        DCL_THREAD_GROUP => {
            body.push(c.uint()?);
            comma_uint(c, &mut body)?;
            comma_uint(c, &mut body)?;
        }
        DCL_TGSM_RAW | DCL_TGSM_STRUCTURED | DCL_RESOURCE_RAW | DCL_RESOURCE_STRUCTURED => {
            decl_operand(c, &mut body)?;
            if code != DCL_RESOURCE_RAW {
                comma_uint(c, &mut body)?;
            }
            if code == DCL_TGSM_STRUCTURED {
                comma_uint(c, &mut body)?;
            }
            space(c, &mut body)?;
        }
        _ => loop {
            let op = operand::parse(c, Role::Src, NumType::Int)?;
            operand::encode(&op, &mut body);
            c.skip_ws();
            if !c.eat(",") {
                break;
            }
        },
    }
    c.end()?;
    let start = w.len();
    w.push(t);
    w.extend(body);
    finish_length(w, start);
    Ok(())
}

/// `dcl_resource_texture2dms(4) (float,float,float,float) t0[, space=N]`.
fn resource(c: &mut Cursor, f: &[FieldDef], rest: &str, t: &mut u32, body: &mut Vec<u32>) -> Res<()> {
    let at = c.pos - rest.len();
    let dim = rest
        .strip_prefix('_')
        .and_then(|d| spec::RESOURCE_DIMENSION.from_asm(d))
        .ok_or_else(|| c.err_at(at, format!("unknown resource dimension in `{rest}`")))?;
    set(t, f, "resource dimension", dim);
    if c.eat("(") {
        set(t, f, "sample count", c.uint()?);
        c.expect(")")?;
    }
    let ret = return_type_token(c)?;
    decl_operand(c, body)?;
    body.push(ret);
    space(c, body)
}

/// `dcl_uav_typed_texture2d_glc (float,float,float,float) u0`, `dcl_uav_raw
/// u0`, `dcl_uav_structured_opc u0, 16` (with optional `, space=N`).
fn uav(c: &mut Cursor, code: u16, f: &[FieldDef], rest: &str, t: &mut u32, body: &mut Vec<u32>) -> Res<()> {
    let at = c.pos - rest.len();
    let bad = || c.err_at(at, format!("unexpected `{rest}` in a UAV declaration"));
    let mut r = rest;
    if code == DCL_UAV_TYPED {
        let name = r.strip_prefix('_').unwrap_or("");
        let (dim, len) = spec::RESOURCE_DIMENSION
            .values
            .iter()
            .filter(|v| !v.asm.is_empty() && name.starts_with(v.asm))
            .filter(|v| name[v.asm.len()..].chars().next().is_none_or(|ch| ch == '_'))
            .map(|v| (v.value, v.asm.len()))
            .max_by_key(|x| x.1)
            .ok_or_else(bad)?;
        set(t, f, "resource dimension", dim);
        r = &name[len..];
    }
    for (s, field) in [("_glc", "globally coherent"), ("_rov", "rasterizer ordered"), ("_opc", "has counter")] {
        if let Some(x) = r.strip_prefix(s) {
            set(t, f, field, 1);
            r = x;
        }
    }
    if !r.is_empty() {
        return Err(bad());
    }
    let ret = if code == DCL_UAV_TYPED { Some(return_type_token(c)?) } else { None };
    decl_operand(c, body)?;
    body.extend(ret);
    if code == DCL_UAV_STRUCTURED {
        comma_uint(c, body)?;
    }
    space(c, body)
}

/// `dcl_constantbuffer CB0[4], immediateIndexed`, or in SM5.1
/// `CB0[0:0][4], dynamicIndexed, space=0` (the size is a payload dword).
fn constant_buffer(c: &mut Cursor, f: &[FieldDef], t: &mut u32, body: &mut Vec<u32>) -> Res<()> {
    c.skip_ws();
    let mut op = operand::parse_unchecked(c, Role::Decl, NumType::Int)?;
    let size = if op.index.len() == 4 { op.index.pop().map(|i| i.imm) } else { None };
    if op.comps == Comps::Mask(0) {
        op.comps = IDENTITY_SWIZZLE;
    }
    operand::encode(&op, body);
    c.expect(",")?;
    set(t, f, "access pattern", enum_word(c, &spec::CB_ACCESS_PATTERN)?);
    // The SM5.1 payload is [size, space]: the printer shows the size only
    // on a three-index operand but takes the space from the second word,
    // so a space without a printed size keeps a size word (0) before it.
    let mut rest = Vec::new();
    space(c, &mut rest)?;
    if !rest.is_empty() {
        body.push(size.unwrap_or(0));
    } else {
        body.extend(size);
    }
    body.extend(rest);
    Ok(())
}

/// The swizzle `.xyzw` (x=0, y=1, z=2, w=3 packed two bits each), which fxc
/// stores on constant-buffer declarations and the printer leaves out.
const IDENTITY_SWIZZLE: Comps = Comps::Swizzle(0b11_10_01_00);

/// The declaration whose mnemonic is the longest prefix of `word`, and
/// the rest of the word.
fn split(word: &str) -> Option<(&'static OpcodeInfo, &str)> {
    let mut cut = word.len();
    loop {
        if let Some(info) = super::lookup::get().opcode(&word[..cut]).filter(|i| i.class == OpClass::Decl) {
            return Some((info, &word[cut..]));
        }
        cut = word[..cut].rfind('_')?;
    }
}

/// A declared register. SM5.1 range declarations (`T0[0:3]`) store the
/// identity swizzle, which the printer leaves out.
fn decl_operand(c: &mut Cursor, body: &mut Vec<u32>) -> Res<()> {
    let mut op = operand::parse(c, Role::Decl, NumType::Int)?;
    if op.index.len() == 3 && op.comps == operand::default_components(op.ty, true) {
        op.comps = IDENTITY_SWIZZLE;
    }
    operand::encode(&op, body);
    Ok(())
}

fn comma_uint(c: &mut Cursor, body: &mut Vec<u32>) -> Res<()> {
    c.expect(",")?;
    body.push(c.uint()?);
    Ok(())
}

/// An optional `, space=N` (SM5.1).
fn space(c: &mut Cursor, body: &mut Vec<u32>) -> Res<()> {
    let save = c.pos;
    c.skip_ws();
    if c.eat(",") {
        c.skip_ws();
        if c.eat("space=") {
            body.push(c.uint()?);
            return Ok(());
        }
    }
    c.pos = save;
    Ok(())
}

/// `(float,float,float,float)` as a return-type token.
fn return_type_token(c: &mut Cursor) -> Res<u32> {
    c.expect("(")?;
    let at = c.pos;
    let g = c.take_while(|ch| ch != ')');
    c.expect(")")?;
    let r = return_types(c, at, g)?;
    let fields: &[FieldDef] = spec::RETURN_TYPE_TOKEN_FIELDS;
    let mut t = 0;
    for (name, v) in ["return type x", "return type y", "return type z", "return type w"].iter().zip(r) {
        set(&mut t, fields, name, v);
    }
    Ok(t)
}

/// A word spelled as one of `e`'s values.
fn enum_word(c: &mut Cursor, e: &EnumDef) -> Res<u32> {
    c.skip_ws();
    let at = c.pos;
    let word = c.word();
    e.from_asm(word).ok_or_else(|| c.err_at(at, format!("unknown {} `{word}`", e.name)))
}

/// `, position` and the like: the system-value name token.
fn system_name(c: &mut Cursor, body: &mut Vec<u32>) -> Res<()> {
    c.expect(",")?;
    let v = enum_word(c, &spec::SYSTEM_NAME)?;
    let mut t = 0;
    set(&mut t, spec::NAME_TOKEN_FIELDS, "system value", v);
    body.push(t);
    Ok(())
}

/// The longest interpolation-mode spelling at the cursor, followed by a blank.
fn interpolation(c: &mut Cursor) -> Option<u32> {
    let rest = c.rest();
    let (v, len) = spec::INTERPOLATION_MODE
        .values
        .iter()
        .filter(|v| !v.asm.is_empty() && rest.starts_with(v.asm) && rest[v.asm.len()..].starts_with(' '))
        .map(|v| (v.value, v.asm.len()))
        .max_by_key(|x| x.1)?;
    c.pos += len;
    Some(v)
}

/// ` = {p0, p1}`: the ids after prefix `p`.
fn id_list(c: &mut Cursor, p: &str) -> Res<Vec<u32>> {
    c.expect("=")?;
    c.expect("{")?;
    let mut ids = Vec::new();
    c.skip_ws();
    if c.eat("}") {
        return Ok(ids);
    }
    loop {
        c.expect(p)?;
        ids.push(c.uint()?);
        if ids.len() > c.line.len() {
            return Err(c.err("too many ids"));
        }
        c.skip_ws();
        if c.eat("}") {
            return Ok(ids);
        }
        c.expect(",")?;
    }
}

/// `fpN[array][table length] = {ft0, …}`.
fn interface(c: &mut Cursor, body: &mut Vec<u32>) -> Res<()> {
    c.expect("fp")?;
    body.push(c.uint()?);
    c.expect("[")?;
    let array = c.uint()?;
    c.expect("]")?;
    c.expect("[")?;
    body.push(c.uint()?);
    c.expect("]")?;
    let ids = id_list(c, "ft")?;
    let mut lens = 0;
    set(&mut lens, spec::INTERFACE_LENGTHS_FIELDS, "array length", array);
    set(&mut lens, spec::INTERFACE_LENGTHS_FIELDS, "table length", ids.len() as u32);
    body.push(lens);
    body.extend(ids);
    Ok(())
}
