//! The translation pane's data: every target's text, the binding map, the
//! validation result and, for each WGSL line, the DXBC bytes it came from.
//! [`crate::translator`] makes it in the worker; it crosses to the page as
//! JSON ([`Outcome::to_json`], [`Outcome::from_json`]).

use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Output languages the pane offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    /// WebGPU Shading Language (lines linked to the bytes).
    Wgsl,
    /// Desktop GLSL 4.50.
    Glsl,
    /// Metal Shading Language 2.4.
    Msl,
    /// HLSL, shader model 5.1.
    Hlsl,
}

/// Every target, in tab order.
pub const TARGETS: [Target; 4] = [Target::Wgsl, Target::Glsl, Target::Msl, Target::Hlsl];

impl Target {
    /// Tab label.
    pub fn label(self) -> &'static str {
        match self {
            Target::Wgsl => "WGSL",
            Target::Glsl => "GLSL",
            Target::Msl => "MSL",
            Target::Hlsl => "HLSL",
        }
    }

    /// The translator's output language.
    pub fn language(self) -> dxbc_naga::Language {
        match self {
            Target::Wgsl => dxbc_naga::Language::Wgsl,
            Target::Glsl => dxbc_naga::Language::Glsl,
            Target::Msl => dxbc_naga::Language::Msl,
            Target::Hlsl => dxbc_naga::Language::Hlsl,
        }
    }

    /// Index into [`TARGETS`].
    pub fn index(self) -> usize {
        TARGETS.iter().position(|&t| t == self).unwrap_or(0)
    }
}

/// One row of the binding map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BindingRow {
    /// D3D register, e.g. `t0` or `cb1, space2`.
    pub register: String,
    /// Bind group.
    pub group: u32,
    /// Binding in the group.
    pub binding: u32,
    /// What the pipeline must bind there.
    pub kind: String,
}

/// A shader that translated.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Translated {
    /// naga stage name (`vertex`, `fragment`, `compute`).
    pub stage: String,
    /// Text per target (in [`TARGETS`] order), or why that target has none
    /// (its own refusal, or the writer's failure).
    pub outputs: Vec<Result<Vec<String>, Failure>>,
    /// For each WGSL line, the DXBC bytes (start, length) it came from.
    pub wgsl_spans: Vec<Option<(u32, u32)>>,
    /// The binding map.
    pub bindings: Vec<BindingRow>,
    /// Expressions and statements naga validated (a size hint for the UI).
    pub expressions: usize,
    /// For a stage run through compute (geometry, hull, domain): what each
    /// pass does, the lines the CLI writes as the module's header comment.
    #[serde(default)]
    pub passes: Vec<String>,
}

/// What kind of failure stopped the translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FailureKind {
    /// No translation ran (unreadable file, the worker failed).
    NotTranslated,
    /// The translator refused: a [`dxbc_naga::Limitation`].
    Unsupported(dxbc_naga::Limitation),
    /// The input is malformed for translation.
    Malformed,
    /// naga rejected the module built (a translator bug).
    Validation,
    /// naga's writer for one target failed.
    Backend,
}

impl FailureKind {
    /// The label the pane shows.
    pub fn label(self) -> &'static str {
        match self {
            FailureKind::NotTranslated => "not translated",
            FailureKind::Unsupported(_) => "unsupported",
            FailureKind::Malformed => "malformed",
            FailureKind::Validation => "naga validation failed",
            FailureKind::Backend => "the writer failed",
        }
    }

    /// The limitation behind a refusal.
    pub fn limitation(self) -> Option<dxbc_naga::Limitation> {
        match self {
            FailureKind::Unsupported(l) => Some(l),
            _ => None,
        }
    }
}

/// Why a shader did not translate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// What stopped it (a refusal carries its limitation).
    pub kind: FailureKind,
    /// The translator's message, without the offset.
    pub message: String,
    /// Byte offset it names.
    pub offset: Option<usize>,
    /// The one target that failed (None: the translation, so every target).
    #[serde(default)]
    pub target: Option<Target>,
}

/// The outcome for one shader.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Outcome {
    /// Translated and validated.
    Ok(Arc<Translated>),
    /// Refused, with the reason.
    Failed(Failure),
}

impl Translated {
    /// The whole text of `target`, as the writer wrote it (its lines, each
    /// ending in a newline), or None when that backend failed.
    pub fn text(&self, target: Target) -> Option<String> {
        let lines = self.outputs.get(target.index())?.as_ref().ok()?;
        Some(lines.iter().flat_map(|l| [l.as_str(), "\n"]).collect())
    }
}

impl Outcome {
    /// The worker's answer.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            Outcome::Failed(Failure::new(
                FailureKind::NotTranslated,
                format!("the answer did not serialise: {e}"),
                None,
            ))
            .to_json()
        })
    }

    /// Reads the worker's answer; a garbled one is a failure to show.
    pub fn from_json(json: &str) -> Outcome {
        serde_json::from_str(json).unwrap_or_else(|e| {
            Outcome::Failed(Failure::new(
                FailureKind::NotTranslated,
                format!("the worker's answer did not read: {e}"),
                None,
            ))
        })
    }
}

impl Failure {
    /// A failure of `kind`.
    pub fn new(kind: FailureKind, message: String, offset: Option<usize>) -> Failure {
        Failure { kind, message, offset, target: None }
    }

    /// Why the limitation behind this failure stops it, for its target.
    pub fn why(&self) -> Option<&'static str> {
        let l = self.kind.limitation()?;
        Some(match self.target {
            Some(t) => l.why_in(t.language()).unwrap_or(l.why()),
            None => l.why(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_crosses_the_worker_with_its_limitation() {
        let l = dxbc_naga::Limitation::Doubles;
        let o = Outcome::Failed(Failure::new(FailureKind::Unsupported(l), "instruction dadd".into(), Some(0x9c)));
        match Outcome::from_json(&o.to_json()) {
            Outcome::Failed(f) => {
                assert_eq!(f.kind.limitation(), Some(l));
                assert_eq!((f.kind.label(), f.offset), ("unsupported", Some(0x9c)));
            }
            Outcome::Ok(_) => panic!("a failure read back as a translation"),
        }
    }

    #[test]
    fn a_tab_copies_its_whole_text_and_a_failed_backend_nothing() {
        let t = Translated {
            stage: "fragment".into(),
            outputs: vec![
                Ok(vec!["fn a() {".into(), "}".into()]),
                Err(Failure::new(FailureKind::Backend, "no".into(), None)),
                Ok(vec![]),
                Ok(vec!["".into()]),
            ],
            wgsl_spans: Vec::new(),
            bindings: Vec::new(),
            expressions: 0,
            passes: Vec::new(),
        };
        assert_eq!(t.text(Target::Wgsl).as_deref(), Some("fn a() {\n}\n"));
        assert_eq!(t.text(Target::Glsl), None);
        assert_eq!(t.text(Target::Msl).as_deref(), Some(""));
        assert_eq!(t.text(Target::Hlsl).as_deref(), Some("\n"));
    }
}
