//! Cards, card sets and the text form used on the command line and in tables.
//!
//! A card is one byte, `4 * rank + suit`, with rank 0..=12 for 2..A and suit 0..=3 for
//! ♦ ♣ ♥ ♠, so a larger id is a stronger card under the common Chinese suit order
//! ♠ > ♥ > ♣ > ♦. Games that rank the ace low map ranks themselves.

use std::fmt;

/// Rank characters in id order (2 is rank 0, A is rank 12).
pub const RANK_CHARS: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];
/// Suit characters in id order (♦ = 0, ♣ = 1, ♥ = 2, ♠ = 3).
pub const SUIT_CHARS: [char; 4] = ['d', 'c', 'h', 's'];
/// Suit symbols in id order.
pub const SUIT_SYMBOLS: [char; 4] = ['♦', '♣', '♥', '♠'];

/// One card of a 52-card deck: its id, one byte (so a slice of ids can be read as cards
/// in place, see [`Card::slice_from_ids`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct Card(u8);

impl Card {
    /// The card with this id, or `None` when `id >= 52`.
    pub const fn from_id(id: u8) -> Option<Card> {
        if id < 52 {
            Some(Card(id))
        } else {
            None
        }
    }

    /// Card ids read as cards in place, without a copy (for callers that hold ids, such
    /// as the C ABI); `Err` holds the first id of 52 or more.
    ///
    /// ```
    /// use cardtables::Card;
    /// let cards = Card::slice_from_ids(&[51, 0, 12]).unwrap();
    /// assert_eq!(cards[0].to_string(), "As");
    /// assert_eq!(Card::slice_from_ids(&[3, 52, 60]), Err(52));
    /// ```
    #[inline]
    pub fn slice_from_ids(ids: &[u8]) -> Result<&[Card], u8> {
        if let Some(&bad) = ids.iter().find(|&&id| id >= 52) {
            return Err(bad);
        }
        // SAFETY: `Card` is `repr(transparent)` over `u8`, so the layouts agree, and every
        // id was just checked to be below 52, the one invariant of `Card`.
        Ok(unsafe { std::slice::from_raw_parts(ids.as_ptr().cast::<Card>(), ids.len()) })
    }

    /// The card of this rank (0 = 2 … 12 = A) and suit (0 = ♦ … 3 = ♠).
    pub const fn new(rank: u8, suit: u8) -> Option<Card> {
        if rank < 13 && suit < 4 {
            Some(Card(rank * 4 + suit))
        } else {
            None
        }
    }

    /// The id, `4 * rank + suit`, in `0..52`.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// Rank 0..=12 for 2..A.
    pub const fn rank(self) -> u8 {
        self.0 >> 2
    }

    /// Suit 0..=3 for ♦ ♣ ♥ ♠.
    pub const fn suit(self) -> u8 {
        self.0 & 3
    }
}

impl fmt::Display for Card {
    /// Writes the short text form, e.g. `As`, `Td`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            RANK_CHARS[self.rank() as usize],
            SUIT_CHARS[self.suit() as usize]
        )
    }
}

/// A set of cards as a bitmask: bit `id` is set when the card is in the set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// True when `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.0 & 1 == 1
    }

    /// The set with `card` added.
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.0)
    }

    /// Number of cards.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds no card.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards in increasing id order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let id = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(Card(id))
        })
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        iter.into_iter().fold(CardSet::EMPTY, CardSet::with)
    }
}

/// Why a piece of card text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    /// A character that is not a rank (`23456789TJQKA`, or `10`).
    #[error("'{found}' at position {position} is not a rank: use one of 2 3 4 5 6 7 8 9 T J Q K A (or 10)")]
    BadRank { found: char, position: usize },
    /// A rank with no suit after it, or an unknown suit character.
    #[error("card {rank} at position {position} needs a suit: one of s h d c or ♠ ♥ ♦ ♣")]
    BadSuit { rank: char, position: usize },
    /// The same card twice.
    #[error("{card} appears more than once")]
    Duplicate { card: Card },
    /// The wrong number of cards for the question asked.
    #[error("expected {expected} cards, got {found}")]
    WrongCount { expected: usize, found: usize },
}

fn rank_of(c: char) -> Option<u8> {
    let upper = c.to_ascii_uppercase();
    RANK_CHARS.iter().position(|&r| r == upper).map(|r| r as u8)
}

fn suit_of(c: char) -> Option<u8> {
    let lower = c.to_ascii_lowercase();
    SUIT_CHARS
        .iter()
        .position(|&s| s == lower)
        .or_else(|| SUIT_SYMBOLS.iter().position(|&s| s == c))
        .or_else(|| ['♢', '♧', '♡', '♤'].iter().position(|&s| s == c))
        .map(|s| s as u8)
}

/// Reads card text such as `"As Kh Td 2c"`, `"AsKhTd2c"`, `"10♠ 9♥"`, `"As,Kh"` or, suit
/// first, `"♠A ♥K"`.
///
/// Ranks are `23456789TJQKA` (any case, `10` for T); suits are `shdc` or `♠♥♦♣`, after
/// the rank or before it. Cards may be separated by spaces or commas. A card given twice
/// is an error.
///
/// ```
/// use cardtables::parse_cards;
/// let cards = parse_cards("A♠ 10h,2d").unwrap();
/// assert_eq!(cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(), ["As", "Th", "2d"]);
/// assert!(parse_cards("As As").is_err());
/// assert_eq!(parse_cards("♠K ♥10 dQ").unwrap(), parse_cards("Ks Th Qd").unwrap());
/// ```
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardError> {
    let mut cards = Vec::new();
    let mut seen = CardSet::EMPTY;
    for token in tokens(text) {
        let (rank, suit) = token?;
        let suit = suit.ok_or(CardError::BadSuit {
            rank: RANK_CHARS[rank.rank as usize],
            position: rank.position,
        })?;
        let card = Card(rank.rank * 4 + suit);
        if seen.contains(card) {
            return Err(CardError::Duplicate { card });
        }
        seen = seen.with(card);
        cards.push(card);
    }
    Ok(cards)
}

/// Reads ranks in the card grammar of [`parse_cards`] where suits do not matter (as in
/// blackjack): each rank may carry a suit, which is ignored, and ranks may repeat.
/// Returns ranks in the [`Card::rank`] convention (0 = 2 … 12 = A).
///
/// ```
/// use cardtables::card::parse_ranks;
/// assert_eq!(parse_ranks("8s 8h").unwrap(), parse_ranks("8 8").unwrap());
/// assert_eq!(parse_ranks("A7").unwrap(), vec![12, 5]);
/// assert_eq!(parse_ranks("10 K").unwrap(), vec![8, 11]);
/// assert!(parse_ranks("11").is_err()); // not a rank: write A
/// ```
pub fn parse_ranks(text: &str) -> Result<Vec<u8>, CardError> {
    tokens(text)
        .map(|token| token.map(|(rank, _)| rank.rank))
        .collect()
}

/// A rank read from text, and where.
struct ReadRank {
    rank: u8,
    /// 1-based character position, for messages.
    position: usize,
}

/// The card grammar: a rank (`23456789TJQKA` in any case, or `10`), then an optional
/// suit, or a suit then a rank, with spaces or commas between cards (or nothing).
fn tokens(text: &str) -> impl Iterator<Item = Result<(ReadRank, Option<u8>), CardError>> + '_ {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    std::iter::from_fn(move || {
        while chars.get(i).is_some_and(|&c| c.is_whitespace() || c == ',') {
            i += 1;
        }
        let &c = chars.get(i)?;
        let position = i + 1;
        // Suit first (`♠K`, `sK`, `♥10`): a suit, then a rank, is one card.
        if let Some(suit) = suit_of(c) {
            let rank = match (chars.get(i + 1), chars.get(i + 2)) {
                (Some('1'), Some('0')) => Some((8, i + 3)),
                (Some(&r), _) => rank_of(r).map(|r| (r, i + 2)),
                (None, _) => None,
            };
            if let Some((rank, next)) = rank {
                i = next;
                return Some(Ok((ReadRank { rank, position }, Some(suit))));
            }
        }
        let (rank, next) = if c == '1' && chars.get(i + 1) == Some(&'0') {
            (8, i + 2)
        } else {
            match rank_of(c) {
                Some(r) => (r, i + 1),
                None => {
                    i = chars.len();
                    return Some(Err(CardError::BadRank { found: c, position }));
                }
            }
        };
        let suit = chars.get(next).and_then(|&s| suit_of(s));
        i = next + usize::from(suit.is_some());
        Some(Ok((ReadRank { rank, position }, suit)))
    })
}

/// Reads exactly `count` distinct cards (see [`parse_cards`]).
pub fn parse_exact(text: &str, count: usize) -> Result<Vec<Card>, CardError> {
    let cards = parse_cards(text)?;
    if cards.len() != count {
        return Err(CardError::WrongCount {
            expected: count,
            found: cards.len(),
        });
    }
    Ok(cards)
}

/// User text as an error quotes it: whole when short, else its first 40 characters and
/// its length, so that an error about a huge argument stays a line.
pub fn quote(text: &str) -> String {
    const KEEP: usize = 40;
    let chars = text.chars().count();
    if chars <= 2 * KEEP {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(KEEP).collect();
    format!("{head:?}… ({chars} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_for_every_card() {
        for id in 0..52 {
            let card = Card::from_id(id).unwrap();
            assert_eq!(parse_cards(&card.to_string()).unwrap(), vec![card]);
        }
    }

    #[test]
    fn accepts_the_suit_first() {
        for id in 0..52 {
            let card = Card::from_id(id).unwrap();
            let text = card.to_string();
            let (rank, suit) = text.split_at(1);
            assert_eq!(parse_cards(&format!("{suit}{rank}")).unwrap(), vec![card]);
        }
        assert_eq!(
            parse_cards("♠K♥10,dQ").unwrap(),
            parse_cards("Ks Th Qd").unwrap()
        );
        // Rank first still wins where both readings start: `Ks` is the king of spades.
        assert_eq!(parse_cards("KsQh").unwrap(), parse_cards("Ks Qh").unwrap());
        assert!(matches!(parse_cards("s"), Err(CardError::BadRank { .. })));
    }

    #[test]
    fn accepts_symbols_ten_and_no_spaces() {
        let a = parse_cards("10♠ 9♥,2d").unwrap();
        let b = parse_cards("Ts9h2D").unwrap();
        assert_eq!(a, b);
        assert_eq!(a[0], Card::new(8, 3).unwrap());
        assert_eq!(a[2].id(), 0);
        assert_eq!(a[1], Card::new(7, 2).unwrap());
    }

    #[test]
    fn rejects_bad_text() {
        assert_eq!(
            parse_cards("Zx"),
            Err(CardError::BadRank {
                found: 'Z',
                position: 1
            })
        );
        assert!(matches!(
            parse_cards("Ks Q"),
            Err(CardError::BadSuit { .. })
        ));
        assert!(matches!(parse_cards("Kx"), Err(CardError::BadSuit { .. })));
        assert!(matches!(
            parse_cards("Ks Ks"),
            Err(CardError::Duplicate { .. })
        ));
        assert_eq!(
            parse_exact("Ks Qs", 5),
            Err(CardError::WrongCount {
                expected: 5,
                found: 2
            })
        );
    }

    #[test]
    fn card_set_iterates_in_id_order() {
        let set: CardSet = [5u8, 1, 51]
            .iter()
            .map(|&i| Card::from_id(i).unwrap())
            .collect();
        assert_eq!(set.len(), 3);
        let ids: Vec<u8> = set.iter().map(Card::id).collect();
        assert_eq!(ids, vec![1, 5, 51]);
    }
}
