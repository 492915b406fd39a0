//! A candidate's number split into one element per choice: the mixed radix in which
//! random draws (`engine::sample`) number candidates, and in which a candidate's second
//! part is read before its first is played (`engine::precheck`).

/// The next digit of a candidate's number `value` in mixed radix, for a choice of `n`
/// slots, taken off `value`. The last choice takes what is left (below its count)
/// without a division, the slowest instruction of a trial.
#[inline(always)]
pub fn digit(value: &mut u64, n: u64, last: bool) -> u64 {
    if last {
        std::mem::take(value)
    } else {
        let k = *value % n;
        *value /= n;
        k
    }
}
