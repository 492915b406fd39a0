//! Action ids: a ply's own number, the same for the same ply in any position, process or
//! machine, so that a policy, a replay buffer or a log written by one run reads in another
//! (the Python package's actions are these).
//!
//! A ply is its action, the optional parts it skipped and the values it chose; the id packs
//! them into one non-negative integer:
//!
//! ```text
//! id = action + A * (skipped + S * (d0 + d1 * B + d2 * B^2 + ...))
//! ```
//!
//! `A` is the number of actions, `S` two to the number of parts that may be skipped (one
//! when none may), and `B` one more than the larger of the board's cells and 64. Each value
//! is folded to a natural (`0, -1, 1, -2, ...` to `0, 1, 2, 3, ...`) and written as one
//! digit from 1 to `B - 2` when it is small (every cell is), or as the digit `B - 1`, a
//! count, and that many digits in base `B - 1` when it is not. No digit is 0, so the
//! number of values is part of the number, and the ids of two plies differ whenever the
//! plies do. The ids are not dense: a ply of one cell on a board of 121 cells has an id
//! from 1 to 121, one of two cells one below 2^14 or so, and a capture of many jumps a
//! large Python integer.

use crate::engine::game::{Game, Ply};
use num_bigint::BigUint;

/// The radices of one game's ids: [`Radices::id`] numbers its plies.
#[derive(Clone, Copy, Debug)]
pub struct Radices {
    actions: u64,
    skips: u64,
    digit: u64,
}

impl Radices {
    /// The radices of `game`'s ids, from its actions, their parts and its board.
    pub fn of(game: &Game) -> Radices {
        let last_optional = game
            .actions
            .iter()
            .flat_map(|a| a.parts.iter().enumerate())
            .filter(|(_, p)| p.optional)
            .map(|(i, _)| i + 1)
            .max()
            .unwrap_or(0)
            .min(8);
        Radices {
            actions: game.actions.len().max(1) as u64,
            skips: 1 << last_optional,
            digit: game.board.len().max(64) as u64 + 1,
        }
    }

    /// The id of `ply`.
    pub fn id(&self, ply: &Ply) -> BigUint {
        let mut digits: Vec<u64> = Vec::with_capacity(ply.values.len());
        for &v in &ply.values {
            self.push_value(&mut digits, v);
        }
        // Horner's rule from the last digit; in 128 bits while it fits.
        let mut small: Option<u128> = Some(0);
        for &d in digits.iter().rev() {
            small = small.and_then(|n| n.checked_mul(self.digit as u128)?.checked_add(d as u128));
        }
        let head = u128::from(self.actions) * u128::from(self.skips);
        let low = u128::from(ply.action) + u128::from(self.actions) * u128::from(ply.skipped);
        if let Some(id) = small
            .and_then(|n| n.checked_mul(head))
            .and_then(|n| n.checked_add(low))
        {
            return BigUint::from(id);
        }
        let mut n = BigUint::ZERO;
        for &d in digits.iter().rev() {
            n = n * self.digit + d;
        }
        n * head + low
    }

    /// Appends the digits of one value (see the module's documentation).
    fn push_value(&self, digits: &mut Vec<u64>, value: i64) {
        let folded = ((value << 1) ^ (value >> 63)) as u64;
        let escape = self.digit - 1;
        if folded < escape - 1 {
            digits.push(folded + 1);
            return;
        }
        let mut rest = folded - (escape - 1);
        let mut big: Vec<u64> = Vec::new();
        let base = escape;
        loop {
            big.push(rest % base);
            rest /= base;
            if rest == 0 {
                break;
            }
        }
        digits.push(escape);
        digits.push(big.len() as u64);
        // Digits in base `B - 1` shifted up by one, so that none is 0.
        digits.extend(big.iter().map(|d| d + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn radices() -> Radices {
        Radices {
            actions: 3,
            skips: 4,
            digit: 65,
        }
    }

    fn ply(action: u16, skipped: u8, values: &[i64]) -> Ply {
        Ply {
            action,
            values: values.iter().copied().collect(),
            skipped,
        }
    }

    #[test]
    fn a_ply_of_small_values_packs_into_its_digits() {
        let r = radices();
        // 5 folds to 10 and 0 to 0: digits 11 and 1.
        // 2 + 3 * (1 + 4 * (11 + 65 * 1))
        assert_eq!(
            r.id(&ply(2, 1, &[5, 0])),
            BigUint::from(2u32 + 3 * (1 + 4 * 76))
        );
        assert_eq!(r.id(&ply(0, 0, &[])), BigUint::ZERO);
    }

    #[test]
    fn different_plies_have_different_ids() {
        let r = radices();
        let values = [0, 1, -1, 30, 31, 62, 63, 64, -64, 1000, i64::MAX, i64::MIN];
        let mut seen = std::collections::HashSet::new();
        let mut plies = Vec::new();
        for action in 0..3 {
            for skipped in 0..4 {
                plies.push(ply(action, skipped, &[]));
                for &a in &values {
                    plies.push(ply(action, skipped, &[a]));
                    for &b in &values {
                        plies.push(ply(action, skipped, &[a, b]));
                    }
                }
            }
        }
        for p in &plies {
            assert!(seen.insert(r.id(p)), "{p:?} shares its id");
        }
    }

    #[test]
    fn a_long_ply_gets_a_large_id_and_keeps_it() {
        let r = radices();
        let long = ply(1, 3, &[7; 40]);
        assert!(r.id(&long) > BigUint::from(u128::MAX));
        assert_eq!(r.id(&long), r.id(&long.clone()));
    }
}
