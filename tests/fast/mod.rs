//! Hand-written engines, written for speed (bitboards, no allocation per ply), that the
//! interpreter's playouts are measured against in `benches/playouts.rs`. Each is checked
//! against the interpreter in `tests/fast_engines/`.

pub mod bounce;
pub mod sight;
pub mod splut;
pub mod staqs;
pub mod vlkno;
