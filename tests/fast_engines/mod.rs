//! The hand-written engines of `tests/fast/` agree with the interpreter: at every position
//! of seeded random games the same legal plies (by their texts) and the same result, the
//! same perft counts, and random playouts that draw exactly as listing every ply and
//! picking one uniformly would.

mod bounce;
mod sight;
mod splut;
mod staqs;
mod vlkno;
