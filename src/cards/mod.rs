//! Card types shared by every game. They live in the runtime crate (`cardtables`) so that
//! apps reading our tables encode cards exactly as we do; this module re-exports them.

pub use cardtables::card::{parse_cards, parse_exact, Card, CardError, CardSet};
pub use cardtables::colex;

pub mod matchups;

/// Appends cards as table text in the one canonical order every Parquet table uses: high
/// to low as people write them (by rank, then suit ♠ ♥ ♣ ♦), space-separated, e.g.
/// `Ks Qh Jd Tc 9s`. Tables keep the card ids in ascending order in `c1..ck` for joins.
/// Allocates only if `buf` must grow.
pub fn push_text(buf: &mut String, cards: &[Card]) {
    use cardtables::card::{RANK_CHARS, SUIT_CHARS};
    let mut sorted = [0u8; 7];
    let n = cards.len().min(sorted.len());
    for (slot, card) in sorted.iter_mut().zip(cards) {
        *slot = card.id();
    }
    let sorted = &mut sorted[..n];
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    for (i, &id) in sorted.iter().enumerate() {
        if i > 0 {
            buf.push(' ');
        }
        buf.push(RANK_CHARS[usize::from(id >> 2)]);
        buf.push(SUIT_CHARS[usize::from(id & 3)]);
    }
}

/// Writes the cards of the deck that are not in `held`, in id order, to the front of `out`
/// and returns how many there are (52 − the distinct held cards). `out` must have room
/// for them; samplers deal from this prefix.
pub fn fill_unseen(held: &[Card], out: &mut [Card]) -> usize {
    let mut n = 0;
    for id in 0..52u8 {
        let card = Card::from_id(id).expect("id < 52");
        if !held.contains(&card) {
            out[n] = card;
            n += 1;
        }
    }
    n
}

/// Cards as canonical table text (see [`push_text`]).
pub fn text(cards: &[Card]) -> String {
    let mut buf = String::with_capacity(3 * cards.len());
    push_text(&mut buf, cards);
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unseen_cards_are_the_rest_of_the_deck_in_id_order() {
        let held = parse_cards("As Kd 2c").unwrap();
        let mut out = [held[0]; 52];
        let n = fill_unseen(&held, &mut out);
        assert_eq!(n, 49);
        assert!(out[..n].windows(2).all(|w| w[0] < w[1]));
        assert!(out[..n].iter().all(|c| !held.contains(c)));
        assert_eq!(fill_unseen(&[], &mut out), 52);
    }

    #[test]
    fn table_text_is_high_to_low_whatever_the_input_order() {
        let cards = parse_cards("9s Tc Jd Qh Ks").unwrap();
        assert_eq!(text(&cards), "Ks Qh Jd Tc 9s");
        let mut reversed = cards.clone();
        reversed.reverse();
        assert_eq!(text(&reversed), "Ks Qh Jd Tc 9s");
        // Equal ranks by suit, ♠ ♥ ♣ ♦.
        assert_eq!(text(&parse_cards("2d 2s 2c 2h").unwrap()), "2s 2h 2c 2d");
        assert_eq!(text(&[]), "");
        // Round trip: the text parses back to the same set.
        let back = parse_cards(&text(&cards)).unwrap();
        assert_eq!(
            back.iter().copied().collect::<CardSet>(),
            cards.iter().copied().collect::<CardSet>()
        );
    }
}
