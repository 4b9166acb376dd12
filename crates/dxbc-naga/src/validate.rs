//! naga's validation with every check and capability on, through one
//! validator per thread. `Validator::validate` clears its tables before it
//! starts, so a reused validator judges each module alone; what reuse saves
//! is rebuilding those tables (hash sets, the type layouter, the expression
//! lists) for every module, a large part of validating a small shader.
//! The cost: a thread keeps the tables of the largest module it validated
//! (for the largest corpus shaders, bit sets of tens of kilobytes), and
//! clearing them is a memset of that size. The state `reset` leaves alone
//! belongs to ray tracing, which no translation uses, or is cleared per
//! function.

use std::cell::RefCell;

use naga::valid::{Capabilities, ModuleInfo, ValidationError, ValidationFlags, Validator};
use naga::WithSpan;

thread_local! {
    static VALIDATOR: RefCell<Validator> = RefCell::new(Validator::new(ValidationFlags::all(), Capabilities::all()));
}

/// Validates `module` as a fresh `Validator::new(ValidationFlags::all(),
/// Capabilities::all())` would.
// The error is naga's own, passed on as `Validator::validate` gives it.
#[allow(clippy::result_large_err)]
pub(crate) fn validate(module: &naga::Module) -> Result<ModuleInfo, WithSpan<ValidationError>> {
    VALIDATOR.with(|v| match v.try_borrow_mut() {
        Ok(mut v) => v.validate(module),
        // Not reached (validation calls nothing that validates), but a
        // nested call would still be answered.
        Err(_) => Validator::new(ValidationFlags::all(), Capabilities::all()).validate(module),
    })
}
