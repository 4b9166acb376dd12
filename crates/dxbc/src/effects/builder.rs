//! A small `fx_5_0` writer: shader variables and techniques in groups
//! whose passes set shaders inline or by variable. It exists because fxc
//! cannot run here: tests, fuzz seeds and demos build effects with it.

use super::{ShaderName, Stage, Version};
use std::collections::HashMap;

/// How a pass sets a shader.
#[derive(Clone, Debug)]
pub enum ShaderSource {
    /// The shader's container written inline in the pass.
    Inline(Vec<u8>),
    /// A shader variable, by name (added with [`Builder::variable`]).
    Variable(String),
}

/// A shader the builder placed: where its container lies and what the
/// effect says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltShader {
    /// Absolute offset of its container in the built file.
    pub offset: usize,
    /// Its size.
    pub size: usize,
    /// The name the effect gives it (first pass that sets it, variable).
    pub name: ShaderName,
}

impl BuiltShader {
    /// Its container's bytes within the built file.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.size
    }
}

type Pass = (String, Vec<(Stage, ShaderSource)>);
/// A technique: its name and passes.
type Tech = (String, Vec<Pass>);

/// Builds an `fx_5_0` effect (see the module notes for the layout).
#[derive(Clone, Debug, Default)]
pub struct Builder {
    variables: Vec<(String, Stage, Vec<u8>)>,
    groups: Vec<(Option<String>, Vec<Tech>)>,
}

/// The two blocks being written; unstructured offsets are known as soon as
/// an item is added, so the structured records can point at them at once.
struct Blocks {
    un: Vec<u8>,
    st: Vec<u8>,
    strings: HashMap<String, u32>,
}

impl Blocks {
    fn put(&mut self, bytes: &[u8]) -> u32 {
        let o = self.un.len() as u32;
        self.un.extend_from_slice(bytes);
        o
    }
    fn put_words(&mut self, words: &[u32]) -> u32 {
        let o = self.un.len() as u32;
        for w in words {
            self.un.extend_from_slice(&w.to_le_bytes());
        }
        o
    }
    fn string(&mut self, s: &str) -> u32 {
        if let Some(&o) = self.strings.get(s) {
            return o;
        }
        let o = self.put(s.as_bytes());
        self.un.push(0);
        self.strings.insert(s.to_string(), o);
        o
    }
    fn align(&mut self) {
        while !self.un.len().is_multiple_of(4) {
            self.un.push(0);
        }
    }
    fn shader(&mut self, bytes: &[u8]) -> u32 {
        self.align();
        let o = self.put_words(&[bytes.len() as u32]);
        self.put(bytes);
        self.align();
        o
    }
    /// The 36-byte shader data for a shader block; a stream-out geometry
    /// shader gets one declaration.
    fn data5(&mut self, block: u32, stage: Stage) -> [u32; 9] {
        let so = if stage == Stage::GeometryStreamOut { self.string("SV_Position.xyzw") } else { 0 };
        [block, so, 0, 0, 0, u32::from(so != 0), 0, 0, 0]
    }
    fn words(&mut self, words: &[u32]) {
        for w in words {
            self.st.extend_from_slice(&w.to_le_bytes());
        }
    }
}

impl Builder {
    /// An empty effect.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Adds a shader variable `name` of `stage` holding `container`.
    pub fn variable(&mut self, name: &str, stage: Stage, container: Vec<u8>) -> &mut Builder {
        self.variables.push((name.to_string(), stage, container));
        self
    }

    /// Adds a technique to `group` (`None`: the unnamed group of techniques
    /// outside any `fxgroup`); each pass sets the listed shaders in order.
    pub fn technique(
        &mut self,
        group: Option<&str>,
        name: &str,
        passes: Vec<(&str, Vec<(Stage, ShaderSource)>)>,
    ) -> &mut Builder {
        let passes = passes.into_iter().map(|(n, s)| (n.to_string(), s)).collect();
        let g = group.map(str::to_string);
        match self.groups.iter_mut().find(|(n, _)| *n == g) {
            Some((_, t)) => t.push((name.to_string(), passes)),
            None => self.groups.push((g, vec![(name.to_string(), passes)])),
        }
        self
    }

    /// Writes the file; returns it with every shader's place and name.
    pub fn build(&self) -> (Vec<u8>, Vec<BuiltShader>) {
        let header_size = Version::Fx5_0.header_size();
        // Offset 0 means "none", so the block opens with a reserved dword.
        let mut b = Blocks { un: vec![0; 4], st: Vec::new(), strings: HashMap::new() };
        let mut placed: Vec<(u32, usize, ShaderName)> = Vec::new();
        let mut by_var: HashMap<&str, usize> = HashMap::new();
        let mut type_of: HashMap<u32, u32> = HashMap::new();
        for (name, stage, code) in &self.variables {
            let obj = stage.object_type5();
            let ty = match type_of.get(&obj) {
                Some(&t) => t,
                None => {
                    let tn = b.string(type_name(*stage));
                    b.align();
                    let t = b.put_words(&[tn, 2, 0, 0, 0, 0, obj]);
                    type_of.insert(obj, t);
                    t
                }
            };
            let block = b.shader(code);
            let data = b.data5(block, *stage);
            let oname = b.string(name);
            b.words(&[oname, ty, 0, u32::MAX]);
            b.words(&data);
            b.words(&[0]);
            by_var.insert(name, placed.len());
            let n = ShaderName {
                group: None,
                technique: None,
                pass: None,
                stage: stage.short(),
                variable: Some(name.clone()),
            };
            placed.push((block, code.len(), n));
        }
        let mut inline = 0u32;
        let mut techniques = 0u32;
        for (group, techs) in &self.groups {
            let g = group.as_deref().map_or(0, |g| b.string(g));
            b.words(&[g, techs.len() as u32, 0]);
            for (tname, passes) in techs {
                techniques += 1;
                let t = b.string(tname);
                b.words(&[t, passes.len() as u32, 0]);
                for (pname, sets) in passes {
                    let p = b.string(pname);
                    b.words(&[p, sets.len() as u32, 0]);
                    for (stage, source) in sets {
                        let (kind, init, index) = match source {
                            ShaderSource::Inline(code) => {
                                inline += 1;
                                let block = b.shader(code);
                                let data = b.data5(block, *stage);
                                let init = b.put_words(&data);
                                placed.push((
                                    block,
                                    code.len(),
                                    ShaderName {
                                        group: None,
                                        technique: None,
                                        pass: None,
                                        stage: stage.short(),
                                        variable: None,
                                    },
                                ));
                                (8, init, placed.len() - 1)
                            }
                            ShaderSource::Variable(v) => {
                                let init = b.string(v);
                                (2, init, by_var.get(v.as_str()).copied().unwrap_or(usize::MAX))
                            }
                        };
                        b.words(&[stage.state(), 0, kind, init]);
                        if let Some((_, _, n)) = placed.get_mut(index) {
                            if n.technique.is_none() {
                                n.group = group.clone();
                                n.technique = Some(tname.clone());
                                n.pass = Some(pname.clone());
                            }
                        }
                    }
                }
            }
        }
        b.align();
        let mut header = [0u32; 24];
        header[0] = Version::Fx5_0.tag();
        header[3] = self.variables.len() as u32;
        header[7] = techniques;
        header[8] = b.un.len() as u32;
        header[17] = self.variables.len() as u32 + inline;
        header[18] = inline;
        header[19] = self.groups.len() as u32;
        let mut out: Vec<u8> = header.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.extend_from_slice(&b.un);
        out.extend_from_slice(&b.st);
        let shaders = placed
            .into_iter()
            .map(|(block, size, name)| BuiltShader { offset: header_size + block as usize + 4, size, name })
            .collect();
        (out, shaders)
    }
}

fn type_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Vertex => "VertexShader",
        Stage::Pixel => "PixelShader",
        Stage::Geometry | Stage::GeometryStreamOut => "GeometryShader",
        Stage::Hull => "HullShader",
        Stage::Domain => "DomainShader",
        Stage::Compute => "ComputeShader",
    }
}
