// lowering: being written
use crate::*;
pub(crate) fn translate(_s: &dxbc::Shader, _o: &Options) -> Result<Translation, TranslateError> {
    Err(TranslateError::Unsupported { what: "translation not implemented yet".into(), offset: 0 })
}
