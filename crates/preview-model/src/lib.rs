//! # preview-model — what a live preview feeds a translated shader
//!
//! The explorer's live WebGPU preview runs `dxbc_naga`'s translation of a
//! shader with inputs made up from the shader's own reflection, and a native
//! reference renderer must make up exactly the same inputs to compare
//! pictures. This crate is that shared part: pure data and pure functions,
//! no GPU, no threads, no file system, so it builds for `wasm32` and
//! natively alike.
//!
//! From a decoded [`dxbc::Shader`] it derives:
//!
//! * [`controls`]: an editable control per constant-buffer leaf (slider,
//!   colour, vector, integer, checkbox, matrix with presets), each knowing
//!   the exact bytes it writes under HLSL's packing rules;
//! * [`pack`]: the constant-buffer bytes from control values, and back;
//! * [`textures`]: default images (checker, gradient, noise …) for SRV
//!   textures, user-image replacement, default samplers;
//! * [`vertex`]: the full-viewport quad for pixel shaders (with its
//!   pass-through vertex shader) and built-in meshes ([`mesh`]) laid out
//!   for vertex shaders' input signatures;
//! * [`compute`]: buffers shown as typed tables, storage textures, the
//!   dispatch size;
//! * [`payload`]: control values as compact bytes for permalinks.
//! * [`raw`]: raw `float4` editors for the constant buffers of shaders
//!   without reflection, read off their declarations;
//! * [`camera`]: the orbit camera that rewrites view matrices;
//! * [`picture`]: whether a read-back picture has anything to see.
//!
//! * [`settings`]: the output shown, mesh, dispatch size, texture patterns;
//! * [`plan`]: all of it, joined with the translation's bindings, as one
//!   description of GPU work that the browser and the native reference
//!   renderer both execute.
//!
//! Bindings are identified as D3D registers (`b#`/`t#`/`s#`/`u#` plus
//! space); `dxbc_naga::Translation::bindings` maps the same registers to
//! WebGPU groups and bindings, and [`plan`] joins the two on
//! `(class, register, space)`.
//!
//! Everything read from the file is bounded: array controls, controls per
//! buffer, buffer and texture sizes and the dispatch are capped by the
//! constants in each module, so a hostile file cannot make the preview
//! allocate without limit.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod camera;
pub mod compute;
pub mod controls;
pub mod cpu;
pub mod debug;
pub mod math;
pub mod mesh;
pub mod pack;
pub mod payload;
pub mod picture;
pub mod plan;
pub mod raw;
pub mod reference;
pub mod settings;
pub mod textures;
pub mod vertex;

pub use controls::{CbufferModel, Control, ControlKind, Value, Values};
pub use pack::{pack, unpack};

use serde::Serialize;

/// Pipeline stage of a shader, as the preview runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Stage {
    /// Pixel shader: drawn on the full-viewport quad.
    Pixel,
    /// Vertex shader: drawn with a built-in mesh.
    Vertex,
    /// Compute shader: dispatched.
    Compute,
    /// Geometry shader: run through compute over a built-in mesh, then drawn
    /// ([`plan::Passes`]).
    Geometry,
    /// Hull shader: run through compute over one patch, tessellated, and
    /// drawn with a built-in domain shader ([`plan::Passes`]).
    Hull,
    /// Domain shader: one patch of built-in control points and fixed
    /// tessellation factors, tessellated through compute, the domain shader
    /// drawing the domain points ([`plan::Passes`]).
    Domain,
    /// No program (or an unknown program type): no preview.
    Other,
}

impl Stage {
    /// The stage of `shader`, from its program (or RDEF when the program is missing).
    pub fn of(shader: &dxbc::Shader) -> Stage {
        use dxbc::spec::ProgramType as P;
        let t = match (&shader.program, &shader.rdef) {
            (Some(p), _) => P::from_u32(p.version.program_type()),
            // RDEF's own program type: the high half of a shader version token.
            (None, Some(r)) => {
                dxbc::spec::RdefProgramType::from_u32(u32::from(r.program_type)).map(|t| t.program_type())
            }
            (None, None) => None,
        };
        match t {
            Some(P::PixelShader) => Stage::Pixel,
            Some(P::VertexShader) => Stage::Vertex,
            Some(P::ComputeShader) => Stage::Compute,
            Some(P::GeometryShader) => Stage::Geometry,
            Some(P::HullShader) => Stage::Hull,
            Some(P::DomainShader) => Stage::Domain,
            _ => Stage::Other,
        }
    }
}

/// Everything the preview needs for one shader, before the user changes anything.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PreviewModel {
    /// Stage.
    pub stage: Stage,
    /// Constant buffers and their controls.
    pub cbuffers: Vec<CbufferModel>,
    /// SRV textures (`t#`) with default images.
    pub textures: Vec<textures::TextureSlot>,
    /// Samplers (`s#`).
    pub samplers: Vec<textures::SamplerSlot>,
    /// SRV and UAV buffers (`t#`, `u#`).
    pub buffers: Vec<compute::BufferSlot>,
    /// Typed UAV textures (`u#`).
    pub storage_textures: Vec<compute::StorageTextureSlot>,
    /// The quad, for pixel shaders.
    pub quad: Option<vertex::QuadInputs>,
    /// The dispatch, for compute shaders.
    pub dispatch: Option<compute::Dispatch>,
}

/// Why a permalink's preview records did not restore.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestoreError {
    /// The values record (link record 6).
    Values(payload::PayloadError),
    /// The settings record (link record 7).
    Settings(payload::PayloadError),
}

impl std::fmt::Display for RestoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RestoreError::Values(e) => write!(f, "the link's preview values: {e}"),
            RestoreError::Settings(e) => write!(f, "the link's preview settings: {e}"),
        }
    }
}

impl std::error::Error for RestoreError {}

impl PreviewModel {
    /// Builds the model of `shader`. (Vertex shaders get their mesh layout
    /// from [`vertex::mesh_inputs`] once a mesh is chosen.)
    pub fn new(shader: &dxbc::Shader) -> PreviewModel {
        let stage = Stage::of(shader);
        let rdef = shader.rdef.as_ref();
        let mut cbuffers = rdef.map(controls::cbuffers).unwrap_or_default();
        // Declared buffers RDEF does not describe (stripped shaders): raw registers.
        let raw = raw::raw_cbuffers(shader, &cbuffers);
        cbuffers.extend(raw);
        let mut m = PreviewModel {
            stage,
            cbuffers,
            textures: rdef.map(textures::texture_slots).unwrap_or_default(),
            samplers: rdef.map(textures::sampler_slots).unwrap_or_default(),
            buffers: rdef.map(compute::buffer_slots).unwrap_or_default(),
            storage_textures: rdef.map(compute::storage_texture_slots).unwrap_or_default(),
            quad: (stage == Stage::Pixel).then(|| vertex::quad_inputs(shader)),
            dispatch: (stage == Stage::Compute).then(|| compute::dispatch(shader)),
        };
        if let Some(d) = &mut m.dispatch {
            d.groups = d.clamp_groups(compute::covering_groups(d.workgroup_size, &m.storage_textures, &m.buffers));
        }
        m
    }

    /// Every control's default, across all constant buffers.
    pub fn defaults(&self) -> Values {
        self.cbuffers.iter().flat_map(|c| c.defaults()).collect()
    }

    /// The bytes of every constant buffer for `values`, in [`PreviewModel::cbuffers`] order.
    pub fn pack_all(&self, values: &Values) -> Vec<Vec<u8>> {
        self.cbuffers.iter().map(|c| pack(c, values)).collect()
    }

    /// The preview's permalink records: the values that differ from the
    /// defaults ([`payload`]) and the settings ([`settings`]).
    pub fn link_state(&self, values: &Values, settings: &settings::Settings) -> (Vec<u8>, Vec<u8>) {
        (payload::encode(&payload::changed(values, &self.defaults())), settings::encode(settings))
    }

    /// Values and settings from a permalink's records, defaults for what is
    /// missing. Ids this shader does not have, and values of another shape,
    /// are dropped, so the page and the native renderer read a link alike.
    pub fn restore_state(
        &self,
        values: Option<&[u8]>,
        settings_bytes: Option<&[u8]>,
    ) -> Result<(Values, settings::Settings), RestoreError> {
        let mut all = self.defaults();
        if let Some(v) = values {
            let given = payload::decode(v).map_err(RestoreError::Values)?;
            for (k, v) in given {
                if all.get(&k).is_some_and(|d| d.scalar() == v.scalar() && d.len() == v.len()) {
                    all.insert(k, v);
                }
            }
        }
        let s = match settings_bytes {
            Some(b) => settings::decode(b).map_err(RestoreError::Settings)?,
            None => settings::Settings::default(),
        };
        Ok((all, s))
    }

    /// [`reference::fingerprint`] of `shader` with these values and settings.
    pub fn fingerprint(&self, shader: &[u8], values: &Values, settings: &settings::Settings) -> u64 {
        let (v, s) = self.link_state(values, settings);
        reference::fingerprint(shader, &v, &s)
    }
}
