//! What random draws know of an action's shape before any position ([`HeadShape`]):
//! the questions about its parts that would otherwise be asked again at every ply. Worked
//! out at load, once the optimiser has settled the choices; `engine::sample` reads it.

use super::program::{Choice, Domain, Part, Repeat, directions_args};

/// What random draws (`engine::sample`) know of an action before any position: the
/// questions about its shape that would otherwise be asked again at every ply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeadShape {
    /// Some part repeats (a capture chain): the action's plies are listed whole.
    pub repeats: bool,
    /// The first part's `let` and `where` choices that read no chosen name (bit per
    /// index, the first 64): worked out once per position, before the head is numbered.
    pub settled: u64,
    /// The action has one part, whose `in` choices read no name chosen before them: its
    /// candidates are a product of the choices' elements.
    pub product: bool,
    /// The head is the first part alone whatever the position: the action has one part,
    /// its second may be skipped, or the first may not and the second's slots, which the
    /// board alone decides, are no more than the product of the first part's `in`
    /// choices other than sets of cells (a direction to throw in after a step in one of
    /// as many directions). A draw then need not weigh the two parts' slots at every ply
    /// to learn it (`engine::sample`).
    pub shallow: bool,
    /// The first part's choices left once the settled ones are worked out are a set of
    /// cells without a filter, then the part's last `in` choice, followed by nothing but
    /// `let`s and `where`s: a set of cells, the directions of a folded step, or a cell's
    /// link directions (a piece, then where it goes or the way it goes). The second's
    /// elements are worked out as one set; what follows it, on the drawn candidate.
    pub pair: Option<PairShape>,
    /// For a head of one part (first) and of two (second): the part after it, when it
    /// is the action's last and gets slots for each listed combination of the head.
    pub tails: [Option<TailShape>; 2],
    /// The `let` choices of the first and the second part (bit per index, the first 64)
    /// that a candidate made from a listed combination does not work out again: the
    /// first part's settled ones (worked out once per position), and those that only
    /// their own part's `where`s and `in` choices read, which the listing has tested and
    /// chosen already (the lowest stacks, in a rule that takes from one of them). A pair
    /// head whose `where`s the draw tests works every `let` out.
    pub unread_lets: [u64; 2],
}

/// The part after a head of some depth, when it is the action's last, cannot be skipped
/// or repeated, and its one `in` choice is a set of cells bounded by conditions on each
/// cell's own stack ([`SetBound`](super::program::SetBound)): a listing works its slots out for each combination,
/// where the names the head chose and every effect but the head's last part's are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TailShape {
    /// The index of the `in` choice in the part.
    pub choice: u8,
    /// The names (local slots) whose cells the set leaves out and which the head chooses
    /// before its last `in` choice: what a listing that counts that choice knows.
    pub known: u64,
    /// The set leaves out the cell of the head's last `in` choice too: a listing that
    /// counts that choice may take a slot off (see `engine::sample`).
    pub leaves_out_counted: bool,
    /// The names whose cells the set leaves out among all the head chooses (a listing
    /// that walks the last choice knows them all).
    pub known_listed: u64,
}

impl TailShape {
    /// The tail of an action of `parts` after a head of `depth` parts, if it has that shape.
    fn of(parts: &[Part], depth: usize) -> Option<TailShape> {
        let [tail] = parts.get(depth..)? else {
            return None;
        };
        if depth == 0 || tail.optional || tail.repeat != Repeat::Once || tail.choices.len() > 256 {
            return None;
        }
        let mut ins = tail
            .choices
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c, Choice::In { .. }));
        let (
            Some((
                choice,
                Choice::In {
                    domain: Domain::Cells(_),
                    bound,
                    ..
                },
            )),
            None,
        ) = (ins.next(), ins.next())
        else {
            return None;
        };
        if bound.fixed.is_none() || bound.gained_last.is_none() {
            return None;
        }
        // Every name the head's parts choose, and those chosen before the last part's last
        // `in` choice (the one a listing may count rather than walk).
        let last = &parts[depth - 1];
        let counted_at = last
            .choices
            .iter()
            .rposition(|c| matches!(c, Choice::In { .. }));
        let earlier = parts[..depth - 1]
            .iter()
            .fold(0, |bits, part| bits | part.names(part.choices.len()));
        let chosen = earlier | last.names(last.choices.len());
        let before_counted = earlier | last.names(counted_at.unwrap_or(0));
        let leaves_out_counted = counted_at.is_some_and(|at| match &last.choices[at] {
            Choice::In { slot, .. } => *slot < 64 && bound.excluded & (1 << slot) != 0,
            _ => false,
        });
        Some(TailShape {
            choice: choice as u8,
            known: bound.excluded & before_counted,
            leaves_out_counted,
            known_listed: bound.excluded & chosen,
        })
    }
}

impl HeadShape {
    /// The shape of an action (of `parts`) whose choices the optimiser has settled, where
    /// `fixed_slots` gives the slots of a choice's domain that the board decides
    /// (`None` where the position does).
    pub fn of(parts: &[Part], fixed_slots: impl Fn(&Domain) -> Option<u64>) -> HeadShape {
        let Some(part) = parts.first() else {
            return HeadShape::default();
        };
        let fixed = part.fixed_choices();
        let settled = part
            .choices
            .iter()
            .enumerate()
            .take(64)
            .filter(|(i, ch)| fixed & (1 << i) != 0 && !matches!(ch, Choice::In { .. }))
            .fold(0u64, |bits, (i, _)| bits | 1 << i);
        let settled_lets = (part.choices.iter().enumerate().take(64))
            .filter(|(i, ch)| settled & (1 << i) != 0 && matches!(ch, Choice::Let(..)))
            .fold(0u64, |bits, (i, _)| bits | 1 << i);
        let product = parts.len() == 1
            && part.choices.iter().all(|ch| match ch {
                Choice::In { invariant, .. } => *invariant,
                _ => true,
            });
        let open: Vec<(usize, &Choice)> = part
            .choices
            .iter()
            .enumerate()
            .filter(|(i, _)| *i >= 64 || settled & (1 << i) == 0)
            .collect();
        let cells = |ch: &Choice| {
            matches!(
                ch,
                Choice::In {
                    domain: Domain::Cells(_),
                    filter: None,
                    ..
                }
            )
        };
        let leaf = |ch: &Choice| match ch {
            Choice::In {
                domain: Domain::Cells(_) | Domain::Steps { .. },
                filter: None,
                ..
            } => true,
            Choice::In {
                domain: Domain::Native(native, args),
                filter: None,
                ..
            } => native.name == "directions" && directions_args(args).is_some(),
            _ => false,
        };
        let pair = match open.as_slice() {
            [(first, a), (last, b), rest @ ..]
                if !part.optional
                    && part.choices.len() <= 64
                    && cells(a)
                    && leaf(b)
                    && rest.iter().all(|(_, ch)| !matches!(ch, Choice::In { .. })) =>
            {
                Some(PairShape {
                    first: *first as u8,
                    last: *last as u8,
                    tested: rest.iter().any(|(_, ch)| matches!(ch, Choice::Where(_))),
                })
            }
            _ => None,
        };
        HeadShape {
            repeats: parts.iter().any(|p| p.repeat != Repeat::Once),
            settled,
            product,
            shallow: shallow(parts, fixed_slots),
            pair,
            tails: [TailShape::of(parts, 1), TailShape::of(parts, 2)],
            unread_lets: [
                settled_lets | listed_only_lets(parts, 0),
                listed_only_lets(parts, 1),
            ],
        }
    }
}

/// The `let` choices of part `p` (bit per index, the first 64) that only their own
/// part's `where`s and `in` choices read: no effect, check or notation, no other `let`,
/// no choice of a later part ([`HeadShape::unread_lets`]).
fn listed_only_lets(parts: &[Part], p: usize) -> u64 {
    let Some(part) = parts.get(p) else {
        return 0;
    };
    let choices = || parts.iter().flat_map(|q| &q.choices);
    let mut bits = 0;
    for (i, choice) in part.choices.iter().enumerate().take(64) {
        let Choice::Let(slot, _) = choice else {
            continue;
        };
        let slots = [*slot];
        let read_by_lets =
            choices().any(|ch| matches!(ch, Choice::Let(s, n) if s != slot && n.reads_any(&slots)));
        let read_later = (parts[p + 1..].iter())
            .flat_map(|q| &q.choices)
            .any(|ch| ch.reads_any(&slots));
        let played = parts.iter().any(|q| q.played_reads_any(&slots));
        if !(read_by_lets || read_later || played) {
            bits |= 1 << i;
        }
    }
    bits
}

/// Whether an action's head is its first part alone in every position
/// ([`HeadShape::shallow`]). A draw lists the second part with the first when it has more
/// slots than the first part's choices (see `engine::sample`); where the second part's
/// slots are all fixed by the board and no more than the product of the first part's fixed
/// ones, it never has, unless a set of cells of the first part has a bound of 0 in the
/// position: then the set is empty, and so is the head at any depth, so the draws are
/// the same either way. A first part that may be skipped is left to the draw: skipped, it
/// has a combination with no slot.
fn shallow(parts: &[Part], fixed_slots: impl Fn(&Domain) -> Option<u64>) -> bool {
    let [first, second, ..] = parts else {
        return true;
    };
    if second.optional {
        return true;
    }
    if first.optional {
        return false;
    }
    let domains = |part: &Part| {
        let ins = part.choices.iter();
        ins.filter_map(|choice| match choice {
            Choice::In { domain, .. } => Some(fixed_slots(domain)),
            _ => None,
        })
        .collect::<Vec<_>>()
    };
    let later = domains(second)
        .into_iter()
        .try_fold(1u64, |n, slots| Some(n.saturating_mul(slots?)));
    let least = domains(first)
        .into_iter()
        .flatten()
        .fold(1u64, u64::saturating_mul);
    later.is_some_and(|later| later <= least)
}

/// Where the two choices of a [`HeadShape::pair`] stand in the first part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairShape {
    /// The index of the piece's choice.
    pub first: u8,
    /// The index of the part's last `in` choice.
    pub last: u8,
    /// Whether a `where` that is not settled follows the last choice: the listing counts
    /// every element, and a drawn candidate is tested before it is played.
    pub tested: bool,
}
