//! Every question a table cannot answer is an error, never the nearest cell: rule sets,
//! ranks, upcards, chart rows, classes and opponent counts outside the table. And every
//! question inside it reads exactly its own cell (checked against direct indexing).

use cardtables::blackjack::{
    self, Action, BlackjackPayload, BlackjackQueryError, Row, RuleSet, ACTIONS, CHART_ROWS, RANKS,
    STARTING_HANDS,
};
use cardtables::holdem::{HoldemPayload, HoldemQueryError};
use cardtables::holdem_headsup::{HeadsUpPayload, HeadsUpQueryError};
use cardtables::{Blackjack, Holdem, HoldemHeadsUp};

/// A two-rule-set table whose every EV is distinct (its own position), so a wrong cell
/// cannot pass for the right one.
fn blackjack() -> Blackjack {
    let set = |id: &str, offset: f64| RuleSet {
        id: id.into(),
        rules: String::new(),
        conditioned_on_no_blackjack: true,
        max_split_hands: 4,
        house_edge: 0.005,
        basic_strategy_ev: -0.005,
        evs: (0..STARTING_HANDS * RANKS * ACTIONS)
            .map(|i| offset + i as f64)
            .collect(),
        chart: (0..CHART_ROWS * RANKS)
            .map(|i| [(i % ACTIONS) as u8, blackjack::NO_ACTION, 0, 0, 0])
            .collect(),
    };
    let payload = BlackjackPayload {
        rules: String::new(),
        rule_sets: vec![set("a", 0.0), set("b", 1e6)],
    };
    Blackjack::from_bytes(Blackjack::to_bytes(1, &payload).unwrap()).unwrap()
}

/// The starting-hand position of two value indices, by enumerating the hands in table
/// order: (0,0), (0,1) … (0,9), (1,1) … (9,9).
fn oracle_start(a: usize, b: usize) -> usize {
    let (a, b) = (a.min(b), a.max(b));
    let mut n = 0;
    for x in 0..RANKS {
        for y in x..RANKS {
            if (x, y) == (a, b) {
                return n;
            }
            n += 1;
        }
    }
    unreachable!()
}

/// Value index of a card rank (0 = 2 … 12 = A), written out independently.
fn oracle_value(rank: u8) -> usize {
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 0][usize::from(rank)]
}

#[test]
fn blackjack_reads_exactly_its_own_cell_for_every_question_in_range() {
    let table = blackjack();
    for set in 0..2 {
        for a in 0..13u8 {
            for b in 0..13u8 {
                for up in 0..13u8 {
                    let evs = table.evs(set, &[a, b], up).unwrap();
                    let at = (oracle_start(oracle_value(a), oracle_value(b)) * RANKS
                        + oracle_value(up))
                        * ACTIONS;
                    let base = if set == 0 { 0.0 } else { 1e6 };
                    for (k, v) in evs.iter().enumerate() {
                        assert_eq!(*v, base + (at + k) as f64, "{set} {a} {b} {up}");
                    }
                }
            }
        }
        for (i, row) in Row::all().enumerate() {
            for up in 0..13u8 {
                let cell = table.cell(set, row, up).unwrap();
                let expected = ((i * RANKS + oracle_value(up)) % ACTIONS) as u8;
                assert_eq!(cell[0], expected, "{row:?} vs {up}");
            }
        }
    }
}

#[test]
fn blackjack_questions_outside_the_table_are_errors() {
    use BlackjackQueryError as E;
    let table = blackjack();
    let no_set = E::RuleSetIndex { index: 2, count: 2 };
    assert_eq!(table.evs(2, &[6, 6], 8), Err(no_set));
    assert_eq!(
        table.evs(usize::MAX, &[6, 6], 8),
        Err(E::RuleSetIndex {
            index: usize::MAX,
            count: 2
        })
    );
    assert_eq!(table.evs(0, &[13, 6], 8), Err(E::RankOutOfRange(13)));
    assert_eq!(table.evs(0, &[6, 255], 8), Err(E::RankOutOfRange(255)));
    assert_eq!(table.evs(0, &[6, 6], 13), Err(E::RankOutOfRange(13)));
    assert_eq!(table.evs(0, &[6, 6], 42), Err(E::RankOutOfRange(42)));
    assert_eq!(table.evs(0, &[6], 8), Err(E::NotTwoCards(1)));
    assert_eq!(table.evs(0, &[6, 6, 6], 8), Err(E::NotTwoCards(3)));
    assert_eq!(
        table.ev(2, &[6, 6], 8, Action::Stand),
        Err(E::RuleSetIndex { index: 2, count: 2 })
    );
    assert_eq!(
        table.ev(0, &[6, 6], 99, Action::Hit),
        Err(E::RankOutOfRange(99))
    );
    assert_eq!(
        table.best_action(2, &[6, 6], 8),
        Err(E::RuleSetIndex { index: 2, count: 2 })
    );
    assert_eq!(
        table.best_action(0, &[6, 6], 13),
        Err(E::RankOutOfRange(13))
    );
    assert_eq!(
        table.best_action(0, &[6, 20], 8),
        Err(E::RankOutOfRange(20))
    );
    assert_eq!(
        table.best_action(0, &[0, 1, 20], 8),
        Err(E::RankOutOfRange(20))
    );
    assert_eq!(table.best_action(0, &[6], 8), Err(E::TooFewCards(1)));
    assert_eq!(table.best_action(0, &[8, 8, 8], 8), Err(E::Bust(30)));
    assert_eq!(
        table.cell(2, Row::Hard(16), 8),
        Err(E::RuleSetIndex { index: 2, count: 2 })
    );
    assert_eq!(table.cell(0, Row::Hard(16), 13), Err(E::RankOutOfRange(13)));
    for row in [
        Row::Hard(3),
        Row::Hard(22),
        Row::Soft(11),
        Row::Soft(22),
        Row::Pair(10),
    ] {
        assert_eq!(table.cell(0, row, 8), Err(E::NoSuchRow(row)));
    }
    assert_eq!(blackjack::total(&[13]), Err(E::RankOutOfRange(13)));
    assert_eq!(Row::pair_of(13), Err(E::RankOutOfRange(13)));
    assert!(blackjack::parse_hand("8 11").is_err());
    assert!(blackjack::parse_rank("11").is_err());
}

fn holdem() -> Holdem {
    let cells = 169 * 2;
    let payload = HoldemPayload {
        rules: String::new(),
        max_opponents: 2,
        win: (0..cells).map(|i| i as f64 / 1000.0).collect(),
        tie: vec![0.0; cells],
        equity: (0..cells).map(|i| i as f64 / 1000.0).collect(),
        std_error: vec![0.0; cells],
    };
    Holdem::from_bytes(Holdem::to_bytes(1, &payload).unwrap()).unwrap()
}

#[test]
fn holdem_classes_and_opponents_outside_the_table_are_errors() {
    let table = holdem();
    assert_eq!(
        table.preflop(168, 2).unwrap().win,
        (169 + 168) as f64 / 1000.0
    );
    assert_eq!(table.preflop(169, 1), Err(HoldemQueryError::Class(169)));
    assert_eq!(
        table.preflop(usize::MAX, 1),
        Err(HoldemQueryError::Class(usize::MAX))
    );
    assert_eq!(
        table.preflop(0, 0),
        Err(HoldemQueryError::Opponents { asked: 0, max: 2 })
    );
    assert_eq!(
        table.preflop(0, 3),
        Err(HoldemQueryError::Opponents { asked: 3, max: 2 })
    );
}

#[test]
fn headsup_classes_outside_the_table_are_errors() {
    let payload = HeadsUpPayload {
        rules: String::new(),
        boards: 1_712_304,
        rep_a: vec![],
        rep_b: vec![],
        wins: vec![],
        ties: vec![],
        class_equity: (0..169 * 169).map(|i| i as f64 / 1e5).collect(),
    };
    let table = HoldemHeadsUp::from_bytes(HoldemHeadsUp::to_bytes(1, &payload).unwrap()).unwrap();
    assert_eq!(table.classes(3, 5), Ok((3 * 169 + 5) as f64 / 1e5));
    assert_eq!(table.classes(169, 0), Err(HeadsUpQueryError::Class(169)));
    assert_eq!(table.classes(0, 200), Err(HeadsUpQueryError::Class(200)));
}

/// A count-index table whose play at every cell and count is its own position mod 5, with
/// one index play (stand on hard 16 against a ten from +1) and insurance from +3.
fn indices() -> cardtables::BlackjackIndices {
    use cardtables::blackjack_indices::{BlackjackIndicesPayload, IndexPlay, IndexRuleSet, CELLS};
    let counts = 5;
    let hard16_ten = Row::Hard(16).index().unwrap() * RANKS + 9;
    let set = IndexRuleSet {
        id: "a".into(),
        rules: String::new(),
        system: "hi-lo".into(),
        true_count: true,
        low: -2,
        high: 2,
        max_split_hands: 4,
        chart: (0..CELLS)
            .map(|_| {
                [
                    Action::Hit as u8,
                    Action::Stand as u8,
                    blackjack::NO_ACTION,
                    0,
                    0,
                ]
            })
            .collect(),
        chart_plays: vec![Action::Hit as u8; CELLS],
        plays: (0..CELLS * counts).map(|i| (i % ACTIONS) as u8).collect(),
        indices: vec![IndexPlay {
            cell: hard16_ten as u16,
            play: Action::Stand as u8,
            below: false,
            index: 1,
            gain_per_100: 0.01,
        }],
        insure_from: Some(3),
    };
    let payload = BlackjackIndicesPayload {
        rules: String::new(),
        rule_sets: vec![set],
    };
    let bytes = cardtables::BlackjackIndices::to_bytes(1, &payload).unwrap();
    cardtables::BlackjackIndices::from_bytes(bytes).unwrap()
}

#[test]
fn count_index_questions_read_their_own_cell_and_refuse_the_rest() {
    use BlackjackQueryError as E;
    let table = indices();
    let counts = 5;
    // Every two-card hard total against every upcard at every count reads its own cell;
    // counts beyond the range read the nearest end.
    for (a, b) in [(8u8, 4u8), (0, 1), (7, 6), (2, 3)] {
        let (t, _) = blackjack::total(&[a, b]).unwrap();
        for up in 0..13u8 {
            let v = if up == 12 {
                0
            } else {
                usize::from(up.min(8)) + 1
            };
            let cell = Row::Hard(t).index().unwrap() * RANKS + v;
            for count in -4..=4 {
                let at = count.clamp(-2, 2);
                let want = Action::from_code(((cell * counts + (at + 2) as usize) % ACTIONS) as u8);
                let got = table.best_action_at_count(0, &[a, b], up, count).unwrap();
                assert_eq!(Some(got.action), want, "{a} {b} vs {up} at {count}");
            }
        }
    }
    // More cards: the chart's hit, changed to stand by the hard 16 index from +1 on.
    let sixteen = [8, 2, 0]; // T 4 2
    assert_eq!(blackjack::total(&sixteen).unwrap(), (16, false));
    assert_eq!(
        table
            .best_action_at_count(0, &sixteen, 8, 0)
            .unwrap()
            .action,
        Action::Hit
    );
    let play = table.best_action_at_count(0, &sixteen, 8, 1).unwrap();
    assert_eq!((play.action, play.chart), (Action::Stand, Action::Hit));
    assert_eq!(play.index.map(|x| x.index), Some(1));
    // Insurance from +3, beyond the range's end (+2): every count reads as at most +2.
    assert_eq!(table.insure(0, 2), Ok(false));
    assert_eq!(table.insure(0, 50), Ok(false));
    assert_eq!(
        table.best_action_at_count(1, &[8, 4], 8, 0),
        Err(E::RuleSetIndex { index: 1, count: 1 })
    );
    assert_eq!(
        table.best_action_at_count(0, &[8, 4], 13, 0),
        Err(E::RankOutOfRange(13))
    );
    assert_eq!(
        table.best_action_at_count(0, &[8, 40], 8, 0),
        Err(E::RankOutOfRange(40))
    );
    assert_eq!(
        table.best_action_at_count(0, &[8], 8, 0),
        Err(E::TooFewCards(1))
    );
    assert_eq!(
        table.best_action_at_count(0, &[8, 8, 8], 8, 0),
        Err(E::Bust(30))
    );
    assert_eq!(
        table.best_action_at_count(0, &[8, 4], 8, 1001),
        Err(E::CountOutOfRange(1001))
    );
    assert_eq!(table.insure(0, i32::MIN), Err(E::CountOutOfRange(i32::MIN)));
}
