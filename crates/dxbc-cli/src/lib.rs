//! The library side of the `dxbc` command: what the benchmarks measure
//! (`scan`) is the code the command runs.

pub mod scan;
