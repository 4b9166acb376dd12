//! naga's validation with every check and capability on, through
//! validators kept per thread (two, below). `Validator::validate` clears
//! its tables before it starts, so a reused validator judges each module
//! alone; what reuse saves is rebuilding those tables (hash sets, the type
//! layouter, the expression lists) for every module, a large part of
//! validating a small shader. The cost: a validator keeps the tables of the
//! largest module it validated (for the largest corpus shaders, bit sets of
//! tens of kilobytes). The state `reset` leaves alone belongs to ray
//! tracing, which no translation uses, or is cleared per function.
//!
//! Those tables are cleared whole, at the size of the largest module the
//! validator ever held: a bit set per function is zeroed in full for every
//! module. After one large shader, each small one paid for zeroing the
//! large one's sets (in a pass over the fxc corpus, 2.8 % of a median
//! translation's instructions went to that `memset`). So a thread keeps two
//! validators, one for modules of at most [`SMALL`] expressions in their
//! largest function and one for the others: a small module's tables are
//! never wider than [`SMALL`] handles.

use std::cell::RefCell;

use naga::valid::{Capabilities, ModuleInfo, ValidationError, ValidationFlags, Validator};
use naga::WithSpan;

/// The most expressions the largest function of a module validated by the
/// small validator may have (its bit sets are then at most 512 bytes).
const SMALL: usize = 4096;

thread_local! {
    static SMALL_VALIDATOR: RefCell<Validator> = RefCell::new(Validator::new(ValidationFlags::all(), Capabilities::all()));
    static LARGE_VALIDATOR: RefCell<Validator> = RefCell::new(Validator::new(ValidationFlags::all(), Capabilities::all()));
}

/// Validates `module` as a fresh `Validator::new(ValidationFlags::all(),
/// Capabilities::all())` would.
// The error is naga's own, passed on as `Validator::validate` gives it.
#[allow(clippy::result_large_err)]
pub(crate) fn validate(module: &naga::Module) -> Result<ModuleInfo, WithSpan<ValidationError>> {
    let largest = module
        .functions
        .iter()
        .map(|(_, f)| f.expressions.len())
        .chain(module.entry_points.iter().map(|e| e.function.expressions.len()))
        .max()
        .unwrap_or(0);
    let validator = if largest <= SMALL { &SMALL_VALIDATOR } else { &LARGE_VALIDATOR };
    validator.with(|v| match v.try_borrow_mut() {
        Ok(mut v) => v.validate(module),
        // Not reached (validation calls nothing that validates), but a
        // nested call would still be answered.
        Err(_) => Validator::new(ValidationFlags::all(), Capabilities::all()).validate(module),
    })
}
