//! "Compare with the CPU interpreter": the worker computes the preview's
//! read-backs on `dxbc-interp` ([`preview_model::cpu`]) for the page's
//! inputs and answers with a reference file, the same file the native
//! renderer writes (`shader-runner preview --out`), so that the page's
//! compare mode reads it as it reads a loaded one.

use preview_model::reference::{self, Reference};
use preview_model::PreviewModel;
use serde::{Deserialize, Serialize};

/// What the page asks the worker for: the preview's state, as its link records it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The control values record, None for defaults.
    pub values: Option<Vec<u8>>,
    /// The settings record, None for defaults.
    pub settings: Option<Vec<u8>>,
}

/// The reference file for the file `bytes` under `req`, computed on the
/// interpreter, or why there is none (the worker's side).
pub fn reference_file(bytes: &[u8], req: &Request) -> Result<Vec<u8>, String> {
    let shader = dxbc::Shader::decode(bytes).map_err(|e| e.to_string())?;
    let model = PreviewModel::new(&shader);
    let (values, settings) =
        model.restore_state(req.values.as_deref(), req.settings.as_deref()).map_err(|e| e.to_string())?;
    let plan =
        preview_model::plan::build(&shader, &model, &values, &settings).map_err(|e| format!("not previewable: {e}"))?;
    let readbacks =
        preview_model::cpu::readbacks(&shader, &model, &plan, preview_model::cpu::BUDGET).map_err(|e| e.to_string())?;
    let fingerprint = model.fingerprint(bytes, &values, &settings);
    Ok(reference::encode(&Reference { fingerprint, adapter: preview_model::cpu::ADAPTER.into(), readbacks }))
}

/// [`reference_file`] with the request as JSON.
pub fn reference_file_json(bytes: &[u8], request_json: &str) -> Result<Vec<u8>, String> {
    let req = serde_json::from_str::<Request>(request_json).map_err(|e| format!("bad compare request: {e}"))?;
    reference_file(bytes, &req)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preview;
    use crate::test_corpus::file as corpus;

    #[test]
    fn the_reference_carries_the_fingerprint_the_page_checks() {
        let bytes = corpus("fxc/angle930_clearfloat11ps.dxbc");
        let file = reference_file_json(&bytes, "{\"values\":null,\"settings\":null}").unwrap();
        let r = reference::decode(&file).unwrap();
        let shader = dxbc::Shader::decode(&bytes).unwrap();
        let model = PreviewModel::new(&shader);
        let (values, settings) = model.restore_state(None, None).unwrap();
        assert_eq!(r.fingerprint, model.fingerprint(&bytes, &values, &settings));
        assert_eq!(r.adapter, preview_model::cpu::ADAPTER);
        let plan = preview_model::plan::build(&shader, &model, &values, &settings).unwrap();
        assert_eq!(r.readbacks.len(), plan.readbacks.len());
        // Comparing the reference with itself is identical, row by row.
        let rows = preview::compare_all(&plan, &r.readbacks, &r);
        assert_eq!(preview::CompareOutcome::of(&rows), preview::CompareOutcome::Matches);
    }

    #[test]
    fn stages_the_interpreter_does_not_draw_are_refused_by_name() {
        let vs = corpus("fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc");
        let e = reference_file(&vs, &Request::default()).unwrap_err();
        assert_eq!(e, preview_model::cpu::CpuError::Rasterisation.to_string());
        assert!(reference_file_json(&vs, "{").unwrap_err().starts_with("bad compare request"));
    }
}
