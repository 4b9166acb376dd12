//! STUB (to be replaced): the `//` comment header fxc prints before the program.
use crate::Shader;

/// Writes everything fxc prints before the program's version line.
pub fn write_header(_shader: &Shader, _out: &mut String) {}
