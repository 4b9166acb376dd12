//! The effect reader: one walk over the structured block (see the module
//! notes for the layout), optionally recording every field it reads.

use super::{Effect, EmbeddedShader, PassRef, Stage, Technique, Version, MAX_NAME};
use crate::error::{Error, ErrorKind, Result};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// What a recorded [`Part`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// A little-endian dword field; the string is its field kind (a key of
    /// the spans explanations).
    Dword(&'static str),
    /// A NUL-terminated string (the part covers the NUL), with its text.
    Text(String),
    /// Raw bytes of the given kind (default values, constants, code).
    Bytes(&'static str),
    /// The bytes of embedded shader number `.0` (a DXBC container).
    Shader(usize),
}

/// One field the reader read, with its absolute range and structure path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Absolute byte range.
    pub range: Range<usize>,
    /// Where it sits, e.g. `structured/groups[0]/techniques[1]/name`.
    pub path: String,
    /// What it is.
    pub kind: PartKind,
}

/// Decodes the effect whose layout occupies `range` of `data` (see [`super::find`]).
pub fn decode(data: &[u8], range: Range<usize>) -> Effect {
    walk(data, range, false).0
}

/// Like [`decode`], also returning every field read, in reading order.
pub fn layout(data: &[u8], range: Range<usize>) -> (Effect, Vec<Part>) {
    let (e, parts) = walk(data, range, true);
    (e, parts.unwrap_or_default())
}

struct TypeInfo {
    var_type: u32,
    elements: u32,
    object_type: u32,
    packed_size: u32,
}

struct Cx<'a> {
    data: &'a [u8],
    version: Version,
    un: Range<usize>,
    end: usize,
    pos: usize,
    trace: Option<Vec<Part>>,
    shaders: Vec<EmbeddedShader>,
    /// Shader index by the offset of its block in the unstructured data.
    by_block: HashMap<usize, usize>,
    /// Shader indices by variable name (all elements of an array).
    by_variable: HashMap<String, Vec<usize>>,
    /// Type records already read (absolute offset), with what naming needs.
    types: HashMap<usize, (u32, u32, u32, u32)>,
    types_checked: HashSet<usize>,
}

fn walk(data: &[u8], range: Range<usize>, record: bool) -> (Effect, Option<Vec<Part>>) {
    let base = range.start;
    let end = range.end.min(data.len());
    let dword = |at: usize| data.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let version = dword(base).and_then(Version::from_tag).unwrap_or(Version::Fx5_0);
    let mut effect = Effect {
        offset: base,
        version,
        header: Vec::new(),
        unstructured: base..base,
        structured: base..base,
        shaders: Vec::new(),
        techniques: Vec::new(),
        errors: Vec::new(),
    };
    let mut cx = Cx {
        data: &data[..end],
        version,
        un: base..base,
        end,
        pos: base,
        trace: record.then(Vec::new),
        shaders: Vec::new(),
        by_block: HashMap::new(),
        by_variable: HashMap::new(),
        types: HashMap::new(),
        types_checked: HashSet::new(),
    };
    let r = cx.header(&mut effect).and_then(|()| cx.body(&mut effect));
    if let Err(e) = r {
        effect.errors.push(e);
    }
    effect.shaders = cx.shaders;
    (effect, cx.trace)
}

fn fault(kind: ErrorKind, msg: String, at: usize) -> Error {
    Error::of(kind, msg, at)
}

impl Cx<'_> {
    fn push(&mut self, range: Range<usize>, path: impl FnOnce() -> String, kind: PartKind) {
        if let Some(t) = &mut self.trace {
            t.push(Part { range, path: path(), kind });
        }
    }

    fn dword_at(&self, at: usize, what: &str) -> Result<u32> {
        match self.data.get(at..at.saturating_add(4)) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(fault(ErrorKind::Truncated, format!("expected 4 bytes of {what}"), at.min(self.end))),
        }
    }

    /// The next structured dword, recorded as field `key` at `path/key`.
    fn u32(&mut self, path: &str, key: &'static str) -> Result<u32> {
        let at = self.pos;
        let v = self.dword_at(at, key)?;
        self.pos += 4;
        self.push(at..at + 4, || format!("{path}/{key}"), PartKind::Dword(key));
        Ok(v)
    }

    /// Absolute position of unstructured offset `o` with `len` bytes there.
    fn un_at(&self, o: u32, len: usize, what: &str, field: usize) -> Result<usize> {
        let at = self.un.start.saturating_add(o as usize);
        if at.checked_add(len).is_none_or(|e| e > self.un.end) {
            return Err(fault(
                ErrorKind::OutOfBounds,
                format!(
                    "{what} offset {o:#x} (+{len} bytes) lies outside the {}-byte unstructured block",
                    self.un.len()
                ),
                field,
            ));
        }
        Ok(at)
    }

    /// The string at unstructured offset `o` (read from the field just
    /// before the cursor, `field`); `None` for offset 0.
    fn string(&mut self, o: u32, path: impl FnOnce() -> String, field: usize) -> Result<Option<String>> {
        if o == 0 {
            return Ok(None);
        }
        let at = self.un_at(o, 1, "string", field)?;
        let rest = &self.data[at..self.un.end];
        let n = match rest.iter().take(MAX_NAME + 1).position(|&b| b == 0) {
            Some(n) => n,
            None if rest.len() > MAX_NAME => {
                return Err(fault(ErrorKind::LimitExceeded, format!("string longer than {MAX_NAME} bytes"), at))
            }
            None => return Err(fault(ErrorKind::Truncated, "string is not NUL-terminated".into(), at)),
        };
        let text: String = rest[..n].iter().map(|&b| b as char).collect();
        self.push(at..at + n + 1, path, PartKind::Text(text.clone()));
        Ok(Some(text))
    }

    /// A name field: the dword at the cursor and the string it points at.
    fn name(&mut self, path: &str, key: &'static str) -> Result<Option<String>> {
        let field = self.pos;
        let o = self.u32(path, key)?;
        self.string(o, || format!("{path}/{key}/text"), field)
    }

    fn header(&mut self, e: &mut Effect) -> Result<()> {
        let base = e.offset;
        let tag = self.dword_at(base, "effect tag")?;
        if Version::from_tag(tag).is_none() {
            return Err(fault(ErrorKind::NotDxbc, format!("{tag:#010x} is no effect version tag"), base));
        }
        for &key in self.version.header_fields() {
            let v = self.u32("header", key)?;
            e.header.push(v);
        }
        let un_size = e.header[8] as usize;
        let un_start = base + self.version.header_size();
        if un_size > self.end - un_start {
            return Err(fault(
                ErrorKind::OutOfBounds,
                format!("unstructured block of {un_size} bytes runs past the end ({} bytes left)", self.end - un_start),
                base + 32,
            ));
        }
        self.un = un_start..un_start + un_size;
        e.unstructured = self.un.clone();
        e.structured = self.un.end..self.end;
        self.pos = self.un.end;
        if e.header[4..7].iter().any(|&c| c != 0) {
            return Err(fault(
                ErrorKind::Unsupported,
                "effect-pool (shared) variables are not decoded".into(),
                base + 16,
            ));
        }
        Ok(())
    }

    /// A count read at the cursor, checked against the bytes left for
    /// records of at least `min` bytes each.
    fn count(&mut self, path: &str, key: &'static str, min: usize) -> Result<u32> {
        let at = self.pos;
        let n = self.u32(path, key)?;
        if (n as usize).saturating_mul(min) > self.end - self.pos {
            return Err(fault(
                ErrorKind::OutOfBounds,
                format!("{key} {n} needs more than the {} bytes left", self.end - self.pos),
                at,
            ));
        }
        Ok(n)
    }

    fn body(&mut self, e: &mut Effect) -> Result<()> {
        let left = |cx: &Self| cx.end - cx.pos;
        let check = |cx: &Self, n: u32, min: usize, at: usize, what: &str| {
            if (n as usize).saturating_mul(min) > left(cx) {
                Err(fault(ErrorKind::OutOfBounds, format!("{n} {what} need more than the {} bytes left", left(cx)), at))
            } else {
                Ok(())
            }
        };
        let base = e.offset;
        check(self, e.header[1], 24, base + 4, "constant buffers")?;
        for i in 0..e.header[1] {
            self.constant_buffer(&format!("structured/constant_buffers[{i}]"))?;
        }
        check(self, e.header[3], 20, base + 12, "object variables")?;
        for i in 0..e.header[3] {
            self.object_variable(&format!("structured/object_variables[{i}]"))?;
        }
        if self.version == Version::Fx5_0 {
            check(self, e.header[21], 20, base + 84, "interface variables")?;
            for i in 0..e.header[21] {
                let p = format!("structured/interface_variables[{i}]");
                self.name(&p, "name")?;
                let ty = self.u32(&p, "type")?;
                self.ty(ty, &p, self.pos - 4)?;
                for key in ["default_value", "flags"] {
                    self.u32(&p, key)?;
                }
                self.annotations(&p)?;
            }
            check(self, e.header[19], 12, base + 76, "groups")?;
            for g in 0..e.header[19] {
                let p = format!("structured/groups[{g}]");
                let group = self.name(&p, "name")?;
                let n = self.count(&p, "technique_count", 12)?;
                self.annotations(&p)?;
                for t in 0..n {
                    let t = self.technique(&format!("{p}/techniques[{t}]"), group.clone())?;
                    e.techniques.push(t);
                }
            }
        } else {
            check(self, e.header[7], 12, base + 28, "techniques")?;
            for t in 0..e.header[7] {
                let t = self.technique(&format!("structured/techniques[{t}]"), None)?;
                e.techniques.push(t);
            }
        }
        Ok(())
    }

    fn annotations(&mut self, path: &str) -> Result<()> {
        let n = self.count(path, "annotation_count", 12)?;
        for i in 0..n {
            let p = format!("{path}/annotations[{i}]");
            self.name(&p, "name")?;
            let o = self.u32(&p, "type")?;
            let t = self.ty(o, &p, self.pos - 4)?;
            let is_string = t.var_type == 2 && t.object_type == 1;
            let values = if is_string { t.elements.max(1) } else { 1 };
            if (values as usize).saturating_mul(4) > self.end - self.pos {
                return Err(fault(
                    ErrorKind::OutOfBounds,
                    format!("{values} annotation values run past the end"),
                    self.pos,
                ));
            }
            for v in 0..values {
                let field = self.pos;
                let o = self.u32(&p, "value")?;
                if is_string {
                    self.string(o, || format!("{p}/value[{v}]/text"), field)?;
                } else {
                    self.default_value(o, t.packed_size, &p, field)?;
                }
            }
        }
        Ok(())
    }

    fn default_value(&mut self, o: u32, size: u32, path: &str, field: usize) -> Result<()> {
        if o != 0 && size != 0 {
            let at = self.un_at(o, size as usize, "default value", field)?;
            self.push(at..at + size as usize, || format!("{path}/default_value/data"), PartKind::Bytes("default_data"));
        }
        Ok(())
    }

    fn constant_buffer(&mut self, p: &str) -> Result<()> {
        self.name(p, "name")?;
        for key in ["size", "flags"] {
            self.u32(p, key)?;
        }
        let n = self.count(p, "variable_count", 28)?;
        self.u32(p, "bind_point")?;
        self.annotations(p)?;
        for v in 0..n {
            let p = format!("{p}/variables[{v}]");
            self.name(&p, "name")?;
            let field = self.pos;
            let o = self.u32(&p, "type")?;
            let t = self.ty(o, &p, field)?;
            let field = self.pos;
            let o = self.u32(&p, "semantic")?;
            self.string(o, || format!("{p}/semantic/text"), field)?;
            self.u32(&p, "buffer_offset")?;
            let field = self.pos;
            let o = self.u32(&p, "default_value")?;
            self.default_value(o, t.packed_size, &p, field)?;
            self.u32(&p, "flags")?;
            self.annotations(&p)?;
        }
        Ok(())
    }

    /// Reads the type record at unstructured offset `o` (traced once per
    /// offset; member types followed up to a depth).
    fn ty(&mut self, o: u32, path: &str, field: usize) -> Result<TypeInfo> {
        self.ty_at(o, path, field, 0)
    }

    fn ty_at(&mut self, o: u32, path: &str, field: usize, depth: usize) -> Result<TypeInfo> {
        let at = self.un_at(o, 24, "type", field)?;
        if let Some(&(var_type, elements, object_type, packed_size)) = self.types.get(&at) {
            return Ok(TypeInfo { var_type, elements, object_type, packed_size });
        }
        if depth > 16 {
            return Err(fault(ErrorKind::LimitExceeded, "type members nested more than 16 deep".into(), at));
        }
        let w = |i: usize| self.dword_at(at + 4 * i, "type");
        let (name_o, var_type, elements, packed_size) = (w(0)?, w(1)?, w(2)?, w(5)?);
        let tp = format!("{path}/type");
        // The first visit of a type record reads (and checks) all of it, when
        // recording or not: what the walk finds must not depend on recording.
        let record = self.types_checked.insert(at);
        if record {
            for (i, key) in
                ["type_name", "var_type", "elements", "total_size", "stride", "packed_size"].into_iter().enumerate()
            {
                self.push(at + 4 * i..at + 4 * i + 4, || format!("{tp}/{key}"), PartKind::Dword(key));
            }
            self.string(name_o, || format!("{tp}/type_name/text"), at)?;
        }
        let mut object_type = 0;
        let extra = at + 24;
        match var_type {
            1 | 2 => {
                let v = self.un_at(o + 24, 4, "type detail", at).and_then(|x| self.dword_at(x, "type detail"))?;
                if var_type == 2 {
                    object_type = v;
                }
                let key = if var_type == 1 { "numeric_layout" } else { "object_type" };
                if record {
                    self.push(extra..extra + 4, || format!("{tp}/{key}"), PartKind::Dword(key));
                }
            }
            3 => {
                self.un_at(o + 24, 4, "member count", at)?;
                let n = self.dword_at(extra, "member count")? as usize;
                let members_end = n.checked_mul(16).and_then(|b| extra.checked_add(4 + b));
                if members_end.is_none_or(|e| e > self.un.end) {
                    return Err(fault(
                        ErrorKind::OutOfBounds,
                        format!("{n} members run past the unstructured block"),
                        extra,
                    ));
                }
                if record {
                    self.push(extra..extra + 4, || format!("{tp}/member_count"), PartKind::Dword("member_count"));
                    for m in 0..n {
                        let ma = extra + 4 + 16 * m;
                        let mp = format!("{tp}/members[{m}]");
                        for (i, key) in ["name", "semantic", "offset", "type"].into_iter().enumerate() {
                            self.push(ma + 4 * i..ma + 4 * i + 4, || format!("{mp}/{key}"), PartKind::Dword(key));
                        }
                        let (mn, ms, mt) = (
                            self.dword_at(ma, "member")?,
                            self.dword_at(ma + 4, "member")?,
                            self.dword_at(ma + 12, "member")?,
                        );
                        self.string(mn, || format!("{mp}/name/text"), ma)?;
                        self.string(ms, || format!("{mp}/semantic/text"), ma + 4)?;
                        self.ty_at(mt, &mp, ma + 12, depth + 1)?;
                    }
                    if self.version == Version::Fx5_0 {
                        let ia = extra + 4 + 16 * n;
                        let ia_o = (ia - self.un.start) as u32;
                        self.un_at(ia_o, 8, "class inheritance", ia)?;
                        let k = self.dword_at(ia + 4, "interface count")? as usize;
                        self.un_at(ia_o, 8usize.saturating_add(k.saturating_mul(4)), "interfaces", ia + 4)?;
                        self.push(ia..ia + 4, || format!("{tp}/base_class"), PartKind::Dword("base_class"));
                        self.push(
                            ia + 4..ia + 8,
                            || format!("{tp}/interface_count"),
                            PartKind::Dword("interface_count"),
                        );
                        for i in 0..k {
                            let x = ia + 8 + 4 * i;
                            self.push(x..x + 4, || format!("{tp}/interfaces[{i}]"), PartKind::Dword("interface_type"));
                        }
                    }
                }
            }
            _ => {}
        }
        self.types.insert(at, (var_type, elements, object_type, packed_size));
        Ok(TypeInfo { var_type, elements, object_type, packed_size })
    }

    /// A shader block at unstructured offset `o` (its size dword and bytes);
    /// registers a non-null shader and returns its index.
    fn shader_block(&mut self, o: u32, stage: Stage, path: &str, field: usize) -> Result<Option<usize>> {
        let at = self.un_at(o, 4, "shader block", field)?;
        if let Some(&i) = self.by_block.get(&at) {
            return Ok(Some(i));
        }
        let size = self.dword_at(at, "shader size")? as usize;
        self.un_at(o + 4, size, "shader bytes", at)?;
        self.push(at..at + 4, || format!("{path}/shader/size"), PartKind::Dword("shader_size"));
        if size == 0 {
            return Ok(None);
        }
        let i = self.shaders.len();
        self.shaders.push(EmbeddedShader { offset: at + 4, size, stage, variable: None, passes: Vec::new() });
        self.by_block.insert(at, i);
        self.push(at + 4..at + 4 + size, || format!("{path}/shader/bytecode"), PartKind::Shader(i));
        Ok(Some(i))
    }

    /// The 36-byte `fx_5_0` shader data at absolute `at` (structured or
    /// unstructured); returns the shader index and whether it streams out.
    fn shader_data5(&mut self, at: usize, stage: Stage, path: &str) -> Result<Option<usize>> {
        let keys = [
            "shader",
            "so_decl0",
            "so_decl1",
            "so_decl2",
            "so_decl3",
            "so_decl_count",
            "rasterized_stream",
            "interface_binding_count",
            "interface_bindings",
        ];
        let mut v = [0u32; 9];
        for (i, key) in keys.into_iter().enumerate() {
            v[i] = self.dword_at(at + 4 * i, "shader data")?;
            self.push(at + 4 * i..at + 4 * i + 4, || format!("{path}/{key}"), PartKind::Dword(key));
        }
        let so = v[5].min(4) as usize;
        for d in 0..so {
            self.string(v[1 + d], || format!("{path}/so_decl{d}/text"), at + 4 + 4 * d)?;
        }
        let stage = if stage == Stage::Geometry && so > 0 { Stage::GeometryStreamOut } else { stage };
        let i = self.shader_block(v[0], stage, path, at)?;
        if v[7] != 0 {
            let n = v[7] as usize;
            let b = self.un_at(v[8], n.saturating_mul(8), "interface bindings", at + 32)?;
            for k in 0..n {
                let x = b + 8 * k;
                let name = self.dword_at(x, "binding")?;
                self.push(
                    x..x + 4,
                    || format!("{path}/interface_bindings[{k}]/instance_name"),
                    PartKind::Dword("instance_name"),
                );
                self.push(
                    x + 4..x + 8,
                    || format!("{path}/interface_bindings[{k}]/array_index"),
                    PartKind::Dword("array_index"),
                );
                self.string(name, || format!("{path}/interface_bindings[{k}]/instance_name/text"), x)?;
            }
        }
        Ok(i)
    }

    fn object_variable(&mut self, p: &str) -> Result<()> {
        let name = self.name(p, "name")?.unwrap_or_default();
        let field = self.pos;
        let o = self.u32(p, "type")?;
        let t = self.ty(o, p, field)?;
        let field = self.pos;
        let o = self.u32(p, "semantic")?;
        self.string(o, || format!("{p}/semantic/text"), field)?;
        self.u32(p, "bind_point")?;
        let elements = t.elements.max(1);
        let label = |k: u32| if t.elements == 0 { name.clone() } else { format!("{name}[{k}]") };
        let stage = Stage::of_object_type(t.object_type).filter(|_| t.var_type == 2);
        let per = match (t.var_type, t.object_type) {
            (2, 2..=4 | 21) => 4,
            (2, 1 | 5..=7) => 4,
            (2, 8) => 8,
            (2, 25..=30) => 36,
            _ => 0,
        };
        if (elements as usize).saturating_mul(per) > self.end - self.pos {
            return Err(fault(ErrorKind::OutOfBounds, format!("{elements} elements run past the end"), self.pos));
        }
        // Resources carry no per-element data: nothing to walk, whatever the count.
        let walked = if per == 0 { 0 } else { elements };
        for k in 0..walked {
            let ep = if t.elements == 0 { p.to_string() } else { format!("{p}/elements[{k}]") };
            match (t.var_type, t.object_type) {
                (2, 2..=4 | 21) => {
                    let n = self.count(&ep, "assignment_count", 16)?;
                    for a in 0..n {
                        self.assignment(&format!("{ep}/assignments[{a}]"), None)?;
                    }
                }
                (2, 1) => {
                    let field = self.pos;
                    let o = self.u32(&ep, "string")?;
                    self.string(o, || format!("{ep}/string/text"), field)?;
                }
                (2, 5..=8) => {
                    let field = self.pos;
                    let o = self.u32(&ep, "shader")?;
                    if t.object_type == 8 {
                        let f2 = self.pos;
                        let so = self.u32(&ep, "so_decl")?;
                        self.string(so, || format!("{ep}/so_decl/text"), f2)?;
                    }
                    if let Some(i) = self.shader_block(o, stage.unwrap_or(Stage::Vertex), &ep, field)? {
                        self.name_variable(i, label(k));
                    }
                }
                (2, 25..=30) => {
                    let at = self.pos;
                    self.pos += 36;
                    if let Some(i) = self.shader_data5(at, stage.unwrap_or(Stage::Vertex), &ep)? {
                        self.name_variable(i, label(k));
                    }
                }
                _ => {}
            }
        }
        self.annotations(p)
    }

    fn name_variable(&mut self, i: usize, label: String) {
        let base = label.split('[').next().unwrap_or_default().to_string();
        if let Some(s) = self.shaders.get_mut(i) {
            s.variable.get_or_insert(label);
        }
        self.by_variable.entry(base).or_default().push(i);
    }

    fn technique(&mut self, p: &str, group: Option<String>) -> Result<Technique> {
        let name = self.name(p, "name")?.unwrap_or_default();
        let n = self.count(p, "pass_count", 12)?;
        self.annotations(p)?;
        let mut t = Technique { group: group.clone(), name: name.clone(), passes: Vec::new() };
        for k in 0..n {
            let pp = format!("{p}/passes[{k}]");
            let pass = self.name(&pp, "name")?.unwrap_or_default();
            let m = self.count(&pp, "assignment_count", 16)?;
            self.annotations(&pp)?;
            let at = PassRef { group: group.clone(), technique: name.clone(), pass: pass.clone() };
            let mut set = Vec::new();
            for a in 0..m {
                if let Some(x) = self.assignment(&format!("{pp}/assignments[{a}]"), Some(&at))? {
                    set.push(x);
                }
            }
            t.passes.push((pass, set));
        }
        Ok(t)
    }

    /// One assignment at the cursor; in a pass (`pass`), returns the shader it sets.
    fn assignment(&mut self, p: &str, pass: Option<&PassRef>) -> Result<Option<(Stage, usize)>> {
        let state = self.u32(p, "state")?;
        self.u32(p, "index")?;
        let kind_at = self.pos;
        let kind = self.u32(p, "kind")?;
        let field = self.pos;
        let o = self.u32(p, "initializer")?;
        let stage = pass.and(Stage::of_state(state));
        let ip = format!("{p}/initializer");
        let set: Vec<usize> = match kind {
            1 => {
                let at = self.un_at(o, 4, "constants", field)?;
                let n = self.dword_at(at, "constant count")? as usize;
                self.un_at(o, 4usize.saturating_add(n.saturating_mul(8)), "constants", at)?;
                self.push(at..at + 4, || format!("{ip}/constant_count"), PartKind::Dword("constant_count"));
                self.push(at + 4..at + 4 + 8 * n, || format!("{ip}/constants"), PartKind::Bytes("constants"));
                Vec::new()
            }
            2 => {
                let v = self.string(o, || format!("{ip}/variable"), field)?.unwrap_or_default();
                self.by_variable.get(&v).cloned().unwrap_or_default()
            }
            3 => {
                let at = self.un_at(o, 8, "array element", field)?;
                let (name_o, index) = (self.dword_at(at, "array name")?, self.dword_at(at + 4, "array index")?);
                self.push(at..at + 4, || format!("{ip}/array_name"), PartKind::Dword("array_name"));
                self.push(at + 4..at + 8, || format!("{ip}/array_index"), PartKind::Dword("array_index"));
                let v = self.string(name_o, || format!("{ip}/array_name/text"), at)?.unwrap_or_default();
                self.by_variable.get(&v).and_then(|s| s.get(index as usize)).copied().into_iter().collect()
            }
            4..=6 => {
                // Run-time selection: name and code offsets, not followed.
                let len = if kind == 6 { 4 } else { 8 };
                let at = self.un_at(o, len, "indexed assignment", field)?;
                self.push(at..at + len, || format!("{ip}/reference"), PartKind::Bytes("indexed"));
                Vec::new()
            }
            7 => {
                let at = self.un_at(o, 8, "inline shader", field)?;
                let (sh, so) = (self.dword_at(at, "inline shader")?, self.dword_at(at + 4, "stream out")?);
                self.push(at..at + 4, || format!("{ip}/shader"), PartKind::Dword("shader"));
                self.push(at + 4..at + 8, || format!("{ip}/so_decl"), PartKind::Dword("so_decl"));
                self.string(so, || format!("{ip}/so_decl/text"), at + 4)?;
                let st = match stage {
                    Some(Stage::Geometry) if so != 0 => Stage::GeometryStreamOut,
                    Some(s) => s,
                    None => Stage::Vertex,
                };
                self.shader_block(sh, st, &ip, at)?.into_iter().collect()
            }
            8 => {
                let at = self.un_at(o, 36, "inline shader data", field)?;
                self.shader_data5(at, stage.unwrap_or(Stage::Vertex), &ip)?.into_iter().collect()
            }
            _ => return Err(fault(ErrorKind::InvalidValue, format!("assignment kind {kind} is not defined"), kind_at)),
        };
        let (Some(stage), Some(pass)) = (stage, pass) else { return Ok(None) };
        for &i in &set {
            if let Some(s) = self.shaders.get_mut(i) {
                s.passes.push(pass.clone());
            }
        }
        Ok(set.first().map(|&i| (self.shaders.get(i).map_or(stage, |s| s.stage), i)))
    }
}
