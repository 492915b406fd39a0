//! Dobutsu shogi reference: being written.
