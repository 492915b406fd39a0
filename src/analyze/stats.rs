//! The intervals and tests of an analysis: a proportion's Wilson interval (the one
//! `match` prints, from `tournament::stats`), a mean's normal interval, and the two tests
//! that mark a variant's difference from the first column as significant: the pooled
//! two-proportion z-test and Welch's test of two means (with the normal distribution,
//! which the numbers of games an analysis plays make close to Student's).

use serde::Serialize;

use crate::tournament::stats::wilson;

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// How small a p-value must be for a difference to be marked significant.
pub const ALPHA: f64 = 0.05;

/// A share of trials (games, positions, plies) with its 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proportion {
    /// What was counted (halves and thirds where a shared result counts in part).
    pub count: f64,
    /// Out of how many.
    pub of: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Proportion {
    /// `count` out of `of`; a rate of 0 with interval [0, 1] when `of` is 0.
    pub fn new(count: f64, of: u64) -> Proportion {
        let rate = if of == 0 { 0.0 } else { count / of as f64 };
        let (low, high) = wilson(rate, of as usize);
        Proportion {
            count: round(count),
            of,
            rate: round(rate),
            low: round(low),
            high: round(high),
        }
    }

    /// As the table prints it: `52.0% (45.1-58.8)`.
    pub fn text(&self) -> String {
        format!(
            "{} ({}-{})",
            percent(self.rate),
            percent_bare(self.low),
            percent_bare(self.high)
        )
    }
}

/// A mean with its spread and 95% interval (`mean ± 1.96·sd/√n`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mean {
    pub n: u64,
    pub mean: f64,
    /// The sample standard deviation (n - 1 in the denominator; 0 below two values).
    pub sd: f64,
    pub low: f64,
    pub high: f64,
}

impl Mean {
    /// The mean of `values` (0 with no value).
    pub fn of(values: impl IntoIterator<Item = f64>) -> Mean {
        let values: Vec<f64> = values.into_iter().collect();
        let n = values.len();
        if n == 0 {
            return Mean {
                n: 0,
                mean: 0.0,
                sd: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let sd = var.sqrt();
        let half = Z95 * sd / (n as f64).sqrt();
        Mean {
            n: n as u64,
            mean: round(mean),
            sd: round(sd),
            low: round(mean - half),
            high: round(mean + half),
        }
    }

    /// As the table prints it: `23.4 (22.1-24.7)`.
    pub fn text(&self) -> String {
        format!(
            "{} ({}-{})",
            short(self.mean),
            short(self.low),
            short(self.high)
        )
    }
}

/// The two-sided p-value of the pooled two-proportion z-test of `a` against `b`; 1 when
/// either is empty or neither varies.
pub fn two_proportions(a: &Proportion, b: &Proportion) -> f64 {
    if a.of == 0 || b.of == 0 {
        return 1.0;
    }
    let (na, nb) = (a.of as f64, b.of as f64);
    let pooled = (a.count + b.count) / (na + nb);
    let se = (pooled * (1.0 - pooled) * (1.0 / na + 1.0 / nb)).sqrt();
    if se <= 0.0 {
        return 1.0;
    }
    let z = (a.count / na - b.count / nb) / se;
    2.0 * (1.0 - normal_cdf(z.abs()))
}

/// The two-sided p-value of Welch's test of two means (normal distribution); 1 when
/// either has fewer than two values or neither varies.
pub fn welch(a: &Mean, b: &Mean) -> f64 {
    if a.n < 2 || b.n < 2 {
        return 1.0;
    }
    let se = (a.sd * a.sd / a.n as f64 + b.sd * b.sd / b.n as f64).sqrt();
    if se <= 0.0 {
        return if a.mean == b.mean { 1.0 } else { 0.0 };
    }
    let z = (a.mean - b.mean) / se;
    2.0 * (1.0 - normal_cdf(z.abs()))
}

/// The standard normal distribution function, by Abramowitz and Stegun's 7.1.26 (error
/// below 1.5e-7): plain arithmetic, so every machine computes the same bits.
pub fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// A number to six decimals, so the JSON does not carry the last bits of a division.
pub fn round(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// A rate as a percentage with one decimal: `52.0%`.
pub fn percent(v: f64) -> String {
    format!("{}%", percent_bare(v))
}

/// A rate as a percentage with one decimal and no sign: `52.0`.
pub fn percent_bare(v: f64) -> String {
    format!("{:.1}", v * 100.0)
}

/// A mean as the table prints it: one decimal below 100, none above.
pub fn short(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_distribution_has_its_table_values() {
        assert!((normal_cdf(1.96) - 0.975).abs() < 1e-4);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(-1.0) - 0.158_655).abs() < 1e-5);
    }

    #[test]
    fn tests_tell_a_real_difference_from_noise() {
        let a = Proportion::new(70.0, 100);
        let b = Proportion::new(50.0, 100);
        assert!(two_proportions(&a, &b) < 0.01);
        assert!(two_proportions(&a, &Proportion::new(68.0, 100)) > 0.5);
        let x = Mean::of((0..100).map(|i| (i % 10) as f64));
        let y = Mean::of((0..100).map(|i| (i % 10) as f64 + 2.0));
        assert!(welch(&x, &y) < 0.001);
        assert!((welch(&x, &x) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_mean_interval_holds_the_mean() {
        let m = Mean::of([1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m.mean, 2.5);
        assert!(m.low < 2.5 && m.high > 2.5);
        assert!((m.sd - 1.290_994).abs() < 1e-6);
    }
}
