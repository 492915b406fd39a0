//! The statistics of a match's table: a score's 95% interval (Wilson's) and the Elo
//! difference a score stands for, with its interval.
//!
//! Why Wilson's interval and not the normal one (`p ± 1.96·√(p(1-p)/n)`): at a score of
//! 0 or 1 the normal interval has no width at all (six wins in six games would be
//! `100% ± 0%`, as sure as a million), and near them it runs past 0 or 1. Wilson's
//! interval stays inside [0, 1] and is as wide as n games leave it: 6 of 6 is
//! [61.0%, 100%].
//!
//! A score counts a draw as half a win: the interval is Wilson's for the score `s` over
//! `n` games, as if each game were a trial won with probability `s`. A draw varies less
//! than a win or a loss, so with draws the interval is a little wider than it needs to
//! be: it errs on the safe side.

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// Wilson's 95% score interval of a score `score` (from 0 to 1) over `games` games, as
/// `(low, high)`, both within [0, 1]; `(0, 1)` when no game was played. A score of
/// exactly 0 or 1 gives an end of exactly 0 or 1, so that the Elo it stands for is
/// infinite rather than large by rounding.
pub fn wilson(score: f64, games: usize) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let n = games as f64;
    let z2 = Z95 * Z95;
    let centre = (score + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (score * (1.0 - score) / n + z2 / (4.0 * n * n)).sqrt();
    let low = if score <= 0.0 { 0.0 } else { centre - half };
    let high = if score >= 1.0 { 1.0 } else { centre + half };
    (low.clamp(0.0, 1.0), high.clamp(0.0, 1.0))
}

/// The Elo difference a score stands for: `-400·log10(1/s - 1)`, so 0.5 is 0 and 0.75
/// is +190.8. A score of 1 is `+∞` and 0 is `-∞` (never NaN): no finite difference
/// explains a clean sweep.
pub fn elo(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An Elo difference as the table prints it: `+190.8`, `-12.0`, `0.0`, `+inf`, `-inf`.
pub fn elo_text(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".into()
    } else if elo == f64::NEG_INFINITY {
        "-inf".into()
    } else if elo.abs() < 0.05 {
        "0.0".into()
    } else {
        format!("{elo:+.1}")
    }
}

/// An Elo difference for the JSON, which has no infinities: `None` (`null`) for `±∞`,
/// whose sign the score says (1 is `+∞`, 0 is `-∞`; an interval's low end is `-∞`, its
/// high end `+∞`).
pub fn elo_json(elo: f64) -> Option<f64> {
    elo.is_finite().then_some(elo)
}

#[cfg(test)]
mod tests {
    use super::{elo, elo_json, elo_text, wilson};

    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn wilson_intervals_have_their_published_values() {
        // 6 of 6: n/(n + z²) to 1; 0 of 10: 0 to z²/(n + z²); 5 of 10: 0.2366 to 0.7634.
        let (low, high) = wilson(1.0, 6);
        assert!(
            near(low, 6.0 / (6.0 + 1.96 * 1.96)) && near(low, 0.6097),
            "{low}"
        );
        assert_eq!(high, 1.0);
        let (low, high) = wilson(0.0, 10);
        assert_eq!(low, 0.0);
        assert!(near(high, 0.2775), "{high}");
        let (low, high) = wilson(0.5, 10);
        assert!(near(low, 0.2366) && near(high, 0.7634), "{low} {high}");
        assert_eq!(wilson(0.3, 0), (0.0, 1.0));
    }

    #[test]
    fn wilson_intervals_hold_the_score_and_stay_within_0_and_1() {
        for games in 1..=50 {
            for halves in 0..=2 * games {
                let score = halves as f64 / (2 * games) as f64;
                let (low, high) = wilson(score, games);
                assert!((0.0..=score).contains(&low) && (score..=1.0).contains(&high));
                assert!(high > low, "{halves} halves of {games}");
            }
        }
    }

    #[test]
    fn elo_differences_have_their_known_values_and_are_infinite_at_the_ends() {
        assert!(near(elo(0.75), 190.8485), "{}", elo(0.75));
        assert!(near(elo(0.25), -190.8485));
        assert_eq!(elo(0.5), 0.0);
        assert_eq!(elo(1.0), f64::INFINITY);
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_text(elo(0.75)), "+190.8");
        assert_eq!(elo_text(elo(0.25)), "-190.8");
        assert_eq!(elo_text(elo(0.5)), "0.0");
        assert_eq!(elo_text(elo(1.0)), "+inf");
        assert_eq!(elo_text(elo(0.0)), "-inf");
        assert_eq!(elo_json(elo(1.0)), None);
        assert!(elo_json(elo(0.75)).is_some_and(|e| near(e, 190.8485)));
    }
}
