//! The 169 starting-hand classes: 13 pairs, 78 suited and 78 offsuit hands, named `AA`,
//! `AKs`, `AKo`. A class's index orders them pairs first (AA … 22), then suited, then
//! offsuit, each from the highest ranks down.

use cardtables::card::RANK_CHARS;

/// Number of classes.
pub const CLASSES: usize = 169;

/// (high rank, low rank, suited) of each class index.
pub fn class_ranks(index: usize) -> (u8, u8, bool) {
    if index < 13 {
        let r = 12 - index as u8;
        return (r, r, false);
    }
    let k = (index - 13) % 78;
    let suited = index < 13 + 78;
    // k enumerates (high, low) with high > low, from AK down to 32.
    let mut n = 0;
    for hi in (1..13u8).rev() {
        for lo in (0..hi).rev() {
            if n == k {
                return (hi, lo, suited);
            }
            n += 1;
        }
    }
    unreachable!("k < 78")
}

/// Class index of two distinct cards (shared with the runtime).
pub use cardtables::holdem::class_of;

/// Class name: `AA`, `AKs`, `AKo`.
pub fn class_name(index: usize) -> String {
    let (hi, lo, suited) = class_ranks(index);
    let (h, l) = (RANK_CHARS[usize::from(hi)], RANK_CHARS[usize::from(lo)]);
    if hi == lo {
        format!("{h}{l}")
    } else {
        format!("{h}{l}{}", if suited { 's' } else { 'o' })
    }
}

/// Combos in a class: 6 pairs, 4 suited, 12 offsuit.
pub fn combos(index: usize) -> u32 {
    match index {
        0..=12 => 6,
        13..=90 => 4,
        _ => 12,
    }
}

/// Each class's combos as card masks (bit `id` for card `id`), by class index: the
/// deals of several classes are the ways to pick one mask of each, pairwise disjoint.
pub fn combo_masks() -> Vec<Vec<u64>> {
    let mut masks = vec![Vec::new(); CLASSES];
    for a in 0..52u8 {
        for b in a + 1..52 {
            if let (Some(x), Some(y)) = (cardtables::Card::from_id(a), cardtables::Card::from_id(b))
            {
                masks[class_of(x, y)].push((1u64 << a) | (1u64 << b));
            }
        }
    }
    masks
}

/// Class index of a name such as `AKs`, `qq`, `T9o`, or of two cards (`As Kd`).
pub fn parse_class(text: &str) -> Option<usize> {
    cardtables::holdem::class_of_text(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardtables::Card;

    #[test]
    fn every_class_round_trips_and_combos_add_up() {
        let mut total = 0;
        for i in 0..CLASSES {
            assert_eq!(parse_class(&class_name(i)), Some(i), "{}", class_name(i));
            total += combos(i);
        }
        assert_eq!(total, 1326);
        assert_eq!(class_name(0), "AA");
        assert_eq!(class_name(13), "AKs");
        assert_eq!(class_name(168), "32o");
        assert_eq!(parse_class("aks"), Some(13));
        assert_eq!(parse_class("AKx"), None);
        // Every one of the 1,326 combos falls in its class, with the right multiplicity.
        let mut seen = vec![0u32; CLASSES];
        for a in 0..52u8 {
            for b in a + 1..52 {
                seen[class_of(Card::from_id(a).unwrap(), Card::from_id(b).unwrap())] += 1;
            }
        }
        assert!((0..CLASSES).all(|i| seen[i] == combos(i)));
    }
}
