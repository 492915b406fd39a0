//! Action ids (record/ids.rs, the Python package's actions): every legal ply of a position
//! has an id of its own, in positions of every shipped game reached by random play.

use proptest::prelude::*;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rulebook::record::ids::Radices;

use crate::common::{game, shipped_games};

proptest! {
    #![proptest_config(crate::common::config(8))]

    #[test]
    fn the_legal_plies_of_a_position_have_ids_of_their_own(seed in any::<u64>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for name in shipped_games() {
            let g = game(name, &[]);
            let radices = Radices::of(&g);
            let mut state = g.start();
            for _ in 0..40 {
                let legal = g.legal_plies(&state);
                if legal.is_empty() {
                    break;
                }
                let mut ids: Vec<_> = legal.iter().map(|p| radices.id(p)).collect();
                ids.sort();
                ids.dedup();
                prop_assert_eq!(ids.len(), legal.len(), "{} after {} plies", name, state.plies);
                let ply = &legal[rng.random_range(0..legal.len())];
                g.play(&mut state, ply);
            }
        }
    }
}
