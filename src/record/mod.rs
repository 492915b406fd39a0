//! Records of games: the JSON Lines trace written by `selfplay --trace`.

pub mod trace;
