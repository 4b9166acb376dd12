//! The library side of the `dxbc` command: what the benchmarks measure
//! (`scan`) is the code the command runs, and `run` is what its tests call.

pub mod run;
pub mod scan;
