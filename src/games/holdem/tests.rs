//! Tests of the Hold'em jobs as a whole: the matchup classes of the full deck and the
//! class matrix against published figures and the runtime table. The solvers' own tests
//! sit beside them (`eval`, `sweep`, `matchup`, `two_opponents`, `sampler`).

use cardtables::holdem_headsup::HeadsUpPayload;
use cardtables::{Card, HoldemHeadsUp};

use super::classes::{class_of, parse_class, CLASSES};
use super::eval::tables;
use super::matchup::{brute_force, solve, ClassMatrix, MatchupResult, Scratch, BOARDS, FULL_DECK};
use crate::cards::matchups::{matchups, two_cards, Matchup};

#[test]
fn matchup_classes_of_the_full_deck() {
    let m = matchups(FULL_DECK);
    assert_eq!(m.len(), 47_008);
    // Unordered pairs of disjoint 2-card hands: C(52,2) · C(50,2) / 2.
    let raw: u64 = m.iter().map(|c| u64::from(c.weight)).sum();
    assert_eq!(raw, 1326 * 1225 / 2);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves a few matchup classes: run with --release"
)]
fn class_cells_are_complementary_and_match_published_figures() {
    let t = tables();
    let mut scratch = Scratch::default();
    let (aa, kk) = (parse_class("AA").unwrap(), parse_class("KK").unwrap());
    let class = |i: u16| {
        let [x, y] = two_cards(i);
        class_of(x, y)
    };
    let chosen: Vec<Matchup> = matchups(FULL_DECK)
        .into_iter()
        .filter(|m| {
            let (a, b) = (class(m.a), class(m.b));
            (a, b) == (aa, kk) || (a, b) == (kk, aa)
        })
        .collect();
    // 6 × 6 raw matchups of aces against kings.
    assert_eq!(chosen.iter().map(|m| u32::from(m.weight)).sum::<u32>(), 36);
    let results: Vec<MatchupResult> = chosen
        .iter()
        .map(|m| solve(t, two_cards(m.a), two_cards(m.b), &mut scratch))
        .collect();
    let matrix = ClassMatrix::build(&chosen, &results);
    let (ab, ba) = (matrix.equity(aa, kk), matrix.equity(kk, aa));
    assert!((ab + ba - 1.0).abs() < 1e-15);
    assert_eq!(matrix.deals[aa * CLASSES + kk], 36 * BOARDS);
    // Aces against kings: the widely published 81.9 % (82 % rounded).
    assert!((ab - 0.8195).abs() < 5e-5, "{ab}");
    // The runtime table finds any aces-against-kings matchup by renaming suits and
    // swapping sides, and answers like dealing every board.
    let payload = HeadsUpPayload {
        rules: String::new(),
        boards: BOARDS as u32,
        rep_a: chosen.iter().map(|m| m.a).collect(),
        rep_b: chosen.iter().map(|m| m.b).collect(),
        wins: results.iter().map(|r| r.wins as u32).collect(),
        ties: results.iter().map(|r| r.ties as u32).collect(),
        class_equity: vec![0.5; CLASSES * CLASSES],
    };
    let table = HoldemHeadsUp::from_bytes(HoldemHeadsUp::to_bytes(0, &payload).unwrap()).unwrap();
    let two = |s: &str| -> [Card; 2] { cardtables::parse_cards(s).unwrap().try_into().unwrap() };
    for (a, b) in [("Ks Kd", "Ah Ac"), ("Ah Ad", "Kh Kc"), ("Ac As", "Kd Ks")] {
        let (a, b) = (two(a), two(b));
        let got = table.cards(a, b).unwrap();
        let want = brute_force(t, a, b);
        assert_eq!(
            (
                u64::from(got.wins),
                u64::from(got.ties),
                u64::from(got.losses)
            ),
            (want.wins, want.ties, want.losses()),
            "{a:?} vs {b:?}"
        );
    }
    assert!(
        table.cards(two("Ks Kd"), two("Ks Ah")).is_err(),
        "shared card"
    );
    assert!(
        table.cards(two("Qs Qd"), two("Ah Ac")).is_err(),
        "not in this table"
    );
}
