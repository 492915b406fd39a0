//! The order lists of plies are shown in: natural order, where a run of digits counts as
//! the number it writes, so that `a2` comes before `a10` and `b9-b10` before `b10-b9`
//! (code-point order puts `a10` between `a1` and `a2`, and a board of more than nine
//! ranks reads out of order).
//!
//! Only for what people read and number (`moves`, `perft --divide`, `play`'s `moves`):
//! traces keep code-point order, as programs reading them expect.

use std::cmp::Ordering;

/// Compares two texts in natural order: runs of digits by their value (then by length,
/// so `a02` and `a2` are not equal), everything else character by character; texts equal
/// that way are ordered by their code points, so the order is total.
pub fn natural_order(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a, b);
    loop {
        let (Some(c), Some(d)) = (x.chars().next(), y.chars().next()) else {
            return x.len().cmp(&y.len()).then_with(|| a.cmp(b));
        };
        let order = if c.is_ascii_digit() && d.is_ascii_digit() {
            let (m, rest_x) = digits(x);
            let (n, rest_y) = digits(y);
            x = rest_x;
            y = rest_y;
            number_order(m, n)
        } else {
            x = &x[c.len_utf8()..];
            y = &y[d.len_utf8()..];
            c.cmp(&d)
        };
        if order != Ordering::Equal {
            return order;
        }
    }
}

/// Sorts texts (each with what goes with it) in [`natural_order`].
pub fn sort_natural<T>(items: &mut [(String, T)]) {
    items.sort_by(|(a, _), (b, _)| natural_order(a, b));
}

/// The run of ASCII digits `text` starts with, and the rest.
fn digits(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    text.split_at(end)
}

/// Two runs of digits by the numbers they write, however long: without leading zeros,
/// the shorter is the smaller; of one length, the first digit that differs decides; a
/// tie goes to the run with fewer leading zeros.
fn number_order(m: &str, n: &str) -> Ordering {
    let (i, j) = (m.trim_start_matches('0'), n.trim_start_matches('0'));
    i.len()
        .cmp(&j.len())
        .then_with(|| i.cmp(j))
        .then_with(|| m.len().cmp(&n.len()))
}

#[cfg(test)]
mod tests {
    use super::natural_order;

    fn sorted(texts: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
        v.sort_by(|a, b| natural_order(a, b));
        v
    }

    #[test]
    fn numbers_in_texts_sort_by_their_value() {
        assert_eq!(
            sorted(&["a10", "a2", "a1", "b1", "a11", "a9"]),
            ["a1", "a2", "a9", "a10", "a11", "b1"]
        );
        assert_eq!(
            sorted(&["b10-b9", "b9-b10", "b9-b8", "b9"]),
            ["b9", "b9-b8", "b9-b10", "b10-b9"]
        );
        assert_eq!(
            sorted(&["Nb1-a3", "a2-a3", "pass"]),
            ["Nb1-a3", "a2-a3", "pass"]
        );
        assert_eq!(sorted(&["x02", "x2", "x1", "x"]), ["x", "x1", "x2", "x02"]);
        let long = "9".repeat(40);
        assert_eq!(sorted(&[&long, "10"]), ["10", long.as_str()]);
    }
}
