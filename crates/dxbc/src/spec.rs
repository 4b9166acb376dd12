//! The format table (being written).
