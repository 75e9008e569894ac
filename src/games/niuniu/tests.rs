//! Whole-game tests: the fast evaluator against the literal ten-grouping rule on every
//! hand, and the exact head-to-head against two independent methods (a strength-ordered
//! sweep with inclusion–exclusion over card subsets, and direct enumeration of all
//! opponents for chosen hands). They enumerate all 2.6 M hands, so they run in release
//! builds only (`scripts/test.sh` uses `cargo test --release`).

use std::sync::OnceLock;

use arrow_array::{Array, Float64Array, Int16Array, Int32Array, Int64Array};
use cardtables::colex::{binomial, index_sorted};
use cardtables::niuniu::{HANDS, OPPONENT_HANDS};
use cardtables::{parse_cards, Card, Niuniu};
use rayon::prelude::*;

use super::eval::{category_table, facts, literal_bull, multiset_index, points, tie_order};
use super::job::HandsJob;
use super::rules::*;
use crate::engine::{Job, JobMeta, Outputs, Progress, Stash};

/// Every 5-card hand in colex order, cards increasing.
fn all_hands() -> impl Iterator<Item = [Card; 5]> {
    let card = |id: usize| Card::from_id(id as u8).expect("id < 52");
    (4..52).flat_map(move |e| {
        (3..e).flat_map(move |d| {
            (2..d).flat_map(move |c| {
                (1..c).flat_map(move |b| (0..b).map(move |a| [a, b, c, d, e].map(card)))
            })
        })
    })
}

fn extended_rules() -> NiuniuRules {
    NiuniuRules {
        special_hands: vec![
            Special::FiveSmall,
            Special::Bomb,
            Special::FiveFace,
            Special::FourFace,
        ],
        payout_table: PayoutTable::Common,
        ..NiuniuRules::default()
    }
}

/// Category by the literal rules: card-level special checks, then all ten groupings.
fn literal_category(cards: &[Card; 5], rules: &NiuniuRules) -> u8 {
    // Card-id ranks: 8 = T, 9 = J, 10 = Q, 11 = K, 12 = A.
    let faces = cards
        .iter()
        .filter(|c| (9..=11).contains(&c.rank()))
        .count();
    let tens = cards.iter().filter(|c| c.rank() == 8).count();
    let small = cards.iter().all(|c| c.rank() == 12 || c.rank() <= 2);
    let total: u32 = cards.iter().map(|&c| u32::from(points(c))).sum();
    let quad = cards
        .iter()
        .any(|a| cards.iter().filter(|b| b.rank() == a.rank()).count() == 4);
    for special in &rules.special_hands {
        let hit = match special {
            Special::FiveSmall => small && total <= u32::from(rules.five_small_max_total),
            Special::Bomb => quad,
            Special::FiveFace => faces == 5,
            Special::FourFace => faces == 4 && tens == 1,
        };
        if hit {
            return special.code();
        }
    }
    let bulls = literal_bull(cards);
    match bulls.first() {
        None => NO_BULL,
        Some(0) => BULL_BULL,
        Some(&b) => b,
    }
}

fn run_job(rules: NiuniuRules) -> Outputs {
    let job = HandsJob::from_ranking(Ranking::new(rules).unwrap());
    let units: Vec<_> = (0..job.unit_count())
        .into_par_iter()
        .map(|u| job.run_unit(u))
        .collect();
    job.finish(
        &JobMeta::named("test", "niuniu.hands"),
        units,
        &Progress::hidden(),
        &Stash::none(),
    )
    .unwrap()
}

struct Results {
    table: Niuniu,
    banker_ev: Vec<f64>,
    bull: Vec<Option<u8>>,
    strength: Vec<u16>,
    wins: Vec<u32>,
}

fn results_of(outputs: &Outputs) -> Results {
    let table = Niuniu::from_bytes(&outputs.tables[0].bytes).unwrap();
    let hands = outputs.parquet[0].batches.collect().unwrap();
    let column = |name: &str| hands[0].schema().index_of(name).unwrap();
    let (ev_col, bull_col) = (column("banker_ev"), column("bull"));
    let (strength_col, wins_col) = (column("strength"), column("wins"));
    let mut banker_ev = Vec::with_capacity(HANDS);
    let mut bull = Vec::with_capacity(HANDS);
    let mut strength = Vec::with_capacity(HANDS);
    let mut wins = Vec::with_capacity(HANDS);
    for batch in &hands {
        let s = batch.column(strength_col).as_any();
        let s = s.downcast_ref::<Int32Array>().unwrap();
        strength.extend(s.values().iter().map(|&v| u16::try_from(v).unwrap()));
        let w = batch.column(wins_col).as_any();
        let w = w.downcast_ref::<Int64Array>().unwrap();
        wins.extend(w.values().iter().map(|&v| u32::try_from(v).unwrap()));
        let ev = batch
            .column(ev_col)
            .as_any()
            .downcast_ref::<Float64Array>()
            .unwrap();
        banker_ev.extend(ev.values().iter().copied());
        let b = batch
            .column(bull_col)
            .as_any()
            .downcast_ref::<Int16Array>()
            .unwrap();
        bull.extend((0..b.len()).map(|i| b.is_valid(i).then(|| u8::try_from(b.value(i)).unwrap())));
    }
    Results {
        table,
        banker_ev,
        bull,
        strength,
        wins,
    }
}

fn default_results() -> &'static Results {
    static RESULTS: OnceLock<Results> = OnceLock::new();
    RESULTS.get_or_init(|| results_of(&run_job(NiuniuRules::default())))
}

fn hand(text: &str) -> [Card; 5] {
    let mut cards: [Card; 5] = parse_cards(text).unwrap().try_into().unwrap();
    cards.sort();
    cards
}

#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all hands: run with --release")]
fn fast_evaluator_agrees_with_the_literal_rule_on_every_hand() {
    for rules in [NiuniuRules::default(), extended_rules()] {
        let ranking = Ranking::new(rules.clone()).unwrap();
        let table = category_table(&ranking);
        let mut checked = 0u32;
        for cards in all_hands() {
            let f = facts(&cards, &table);
            assert_eq!(f.code, literal_category(&cards, &rules), "{cards:?}");
            let bulls = literal_bull(&cards);
            // Grouping invariance: every valid grouping gives the total mod 10.
            assert!(bulls
                .iter()
                .all(|&b| u32::from(b) == u32::from(f.point_total) % 10));
            assert_eq!(f.bull, bulls.first().copied());
            assert_eq!(f.grouping.is_some(), !bulls.is_empty());
            if let Some(g) = f.grouping {
                let sum: u8 = g.iter().map(|&i| points(cards[usize::from(i)])).sum();
                assert_eq!(sum % 10, 0);
            }
            checked += 1;
        }
        assert_eq!(checked, binomial(52, 5));
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all hands: run with --release")]
fn category_counts_match_independent_counts() {
    let ranking = Ranking::new(extended_rules()).unwrap();
    let table = category_table(&ranking);
    let mut counts = [0u32; CODES];
    for cards in all_hands() {
        counts[usize::from(table[multiset_index(&cards)])] += 1;
    }
    assert_eq!(counts.iter().sum::<u32>(), 2_598_960);
    // Bombs outrank five_face and four_face here: C(12,5) five-face hands less the
    // 3 ranks × 8 fifth faces that hold four of a kind; C(12,4) × 4 tens less 3 × 4.
    assert_eq!(counts[usize::from(FIVE_FACE)], 792 - 24);
    assert_eq!(counts[usize::from(FOUR_FACE)], 495 * 4 - 12);
    // Bombs: 13 ranks × 48 fifth cards, minus those that are also five small
    // (A A A A 2..4 style quads under 5 with total <= 10), which rank higher here.
    let mut small_by_hand = 0u32;
    let mut small_bombs = 0u32;
    // Five small by an independent count over rank multisets of A..4 (points 1..4):
    // choose how many of each (0..=4 of 4 suits), total 5 cards, points <= 10.
    for a in 0..=4u32 {
        for b in 0..=4u32 {
            for c in 0..=4u32 {
                for d in 0..=4u32 {
                    if a + b + c + d != 5 || a + 2 * b + 3 * c + 4 * d > 10 {
                        continue;
                    }
                    let ways = [a, b, c, d]
                        .iter()
                        .map(|&k| binomial(4, k as usize))
                        .product::<u32>();
                    small_by_hand += ways;
                    if [a, b, c, d].contains(&4) {
                        small_bombs += ways;
                    }
                }
            }
        }
    }
    assert_eq!(counts[usize::from(FIVE_SMALL)], small_by_hand);
    assert_eq!(counts[usize::from(BOMB)], 13 * 48 - small_bombs);
    // Default rules: no bombs or five small; they fall back to their bull numbers.
    let default = category_table(&Ranking::new(NiuniuRules::default()).unwrap());
    let mut bulls = [0u32; 10];
    let mut default_counts = [0u32; CODES];
    for cards in all_hands() {
        default_counts[usize::from(default[multiset_index(&cards)])] += 1;
        if default[multiset_index(&cards)] != NO_BULL {
            let total: u32 = cards.iter().map(|&c| u32::from(points(c))).sum();
            bulls[(total % 10) as usize] += 1;
        }
    }
    for b in 1..10 {
        assert_eq!(
            bulls[b],
            bulls[10 - b],
            "count(bull {b}) != count(bull {})",
            10 - b
        );
    }
    assert_eq!(default_counts[usize::from(FIVE_FACE)], 792); // C(12,5)
    assert_eq!(default_counts[usize::from(FOUR_FACE)], 495 * 4); // C(12,4) × 4 tens
    assert_eq!(default_counts[usize::from(BOMB)], 0);
    // Every hand with a bull is 牛1..牛9, 牛牛 or a face special (which are all 牛牛 by points).
    let with_bull: u32 = (1..=12).map(|c| default_counts[c]).sum();
    assert_eq!(with_bull, bulls.iter().sum::<u32>());
}

/// Calls `f(size, colex index)` for each of the 31 proper subsets of a sorted hand.
fn for_each_proper_subset(cards: &[Card; 5], mut f: impl FnMut(usize, usize)) {
    let mut subset = [cards[0]; 5];
    for mask in 0u32..31 {
        let mut k = 0;
        for (bit, &card) in cards.iter().enumerate() {
            if mask >> bit & 1 == 1 {
                subset[k] = card;
                k += 1;
            }
        }
        f(k, index_sorted(&subset[..k]) as usize);
    }
}

/// The method: sweep hands in strength order, counting for each hand the weaker
/// hands disjoint from it by inclusion–exclusion over its 31 proper card subsets.
fn sweep_wins(strength_of: impl Fn(u32) -> u16) -> Vec<u32> {
    let hands: Vec<[Card; 5]> = all_hands().collect();
    let mut order: Vec<u32> = (0..HANDS as u32).collect();
    order.sort_by_key(|&i| strength_of(i));
    let mut counters: Vec<Vec<u32>> = (0..5).map(|k| vec![0; binomial(52, k) as usize]).collect();
    let mut wins = vec![0u32; HANDS];
    let mut group = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let s = strength_of(order[i]);
        group.clear();
        while i < order.len() && strength_of(order[i]) == s {
            group.push(order[i]);
            i += 1;
        }
        for &h in &group {
            let mut total = 0i64;
            for_each_proper_subset(&hands[h as usize], |k, index| {
                let n = i64::from(counters[k][index]);
                total += if k % 2 == 0 { n } else { -n };
            });
            wins[h as usize] = total as u32;
        }
        for &h in &group {
            for_each_proper_subset(&hands[h as usize], |k, index| counters[k][index] += 1);
        }
    }
    wins
}

/// The runtime table stores one entry per rank multiset and tie-break suit; expanded to
/// every hand it must give each hand's Parquet row, bit for bit.
#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all hands: run with --release")]
fn the_runtime_table_answers_every_hand_as_its_parquet_row() {
    for r in [default_results(), &results_of(&run_job(extended_rules()))] {
        assert_eq!(r.strength.len(), HANDS);
        for i in 0..HANDS {
            let index = i as u32;
            assert_eq!(r.table.strength_at(index), Some(r.strength[i]), "hand {i}");
            assert_eq!(r.table.wins_at(index), Some(r.wins[i]), "hand {i}");
            let ev = r.table.banker_ev_at(index).unwrap();
            assert_eq!(ev.to_bits(), r.banker_ev[i].to_bits(), "hand {i}");
        }
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all hands: run with --release")]
fn exact_wins_agree_with_an_inclusion_exclusion_sweep() {
    let r = default_results();
    let swept = sweep_wins(|i| r.table.strength_at(i).unwrap());
    for (i, &w) in swept.iter().enumerate() {
        assert_eq!(r.table.wins_at(i as u32), Some(w), "hand {i}");
    }
    let total: u64 = swept.iter().map(|&w| u64::from(w)).sum();
    assert_eq!(2 * total, HANDS as u64 * u64::from(OPPONENT_HANDS));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all hands: run with --release")]
fn chosen_hands_agree_with_direct_enumeration_of_every_opponent() {
    let r = default_results();
    let ranking = Ranking::new(NiuniuRules::default()).unwrap();
    let table = category_table(&ranking);
    let strength = |cards: &[Card; 5]| {
        let f = facts(cards, &table);
        u32::from(ranking.rank(f.code)) * 52 + u32::from(tie_order(f.high_card))
    };
    let multiplier = |cards: &[Card; 5]| {
        i64::from(ranking.multiplier_of_code[usize::from(facts(cards, &table).code)])
    };
    for text in [
        "Ks Qh Jd Tc 9s",
        "As 2d 3c 4h 5s",
        "Ks Kh Qd Qc Js",
        "As 2h 3c 4s 8h",
        "2d 2c 2h 2s 3d",
        "7h 8h 9h Th Jh",
    ] {
        let mine = hand(text);
        let my_strength = strength(&mine);
        let (mut wins, mut ties, mut seen, mut banker) = (0u32, 0u32, 0u32, 0i64);
        for theirs in all_hands() {
            if theirs.iter().any(|c| mine.contains(c)) {
                continue;
            }
            seen += 1;
            let s = strength(&theirs);
            if s < my_strength {
                wins += 1;
                banker += multiplier(&mine);
            } else if s == my_strength {
                ties += 1;
            } else {
                banker -= multiplier(&theirs);
            }
        }
        assert_eq!(seen, OPPONENT_HANDS);
        assert_eq!(ties, 0, "disjoint hands never tie");
        let index = index_sorted(&mine);
        assert_eq!(r.table.wins_at(index), Some(wins), "{text}");
        assert_eq!(
            r.banker_ev[index as usize],
            banker as f64 / f64::from(OPPONENT_HANDS),
            "{text}"
        );
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all hands: run with --release")]
fn banker_ev_is_zero_sum_unless_the_banker_wins_ties() {
    let denominator = f64::from(OPPONENT_HANDS);
    let total = |evs: &[f64]| -> i64 { evs.iter().map(|e| (e * denominator).round() as i64).sum() };
    let r = default_results();
    assert_eq!(total(&r.banker_ev), 0);
    // Bull numbers from the Parquet column: count(b) = count(10 - b).
    let mut bulls = [0u32; 10];
    for b in r.bull.iter().flatten() {
        bulls[usize::from(*b)] += 1;
    }
    for b in 1..10 {
        assert_eq!(bulls[b], bulls[10 - b]);
    }
    let ties = results_of(&run_job(NiuniuRules {
        banker_wins_ties: true,
        ..NiuniuRules::default()
    }));
    assert!(total(&ties.banker_ev) > 0);
    for (with_ties, plain) in ties.banker_ev.iter().zip(&r.banker_ev) {
        assert!(with_ties >= plain);
    }
    // Win probabilities are symmetric and do not depend on who is banker.
    assert_eq!(ties.table.wins_at(12345), r.table.wins_at(12345));
}

/// The runtime's `niuniu::points` (what apps compute without a table) agrees with the
/// pipeline's evaluator on every one of the 2,598,960 hands: point total, bull number,
/// the first grouping in card order and the tie-break card.
#[test]
fn runtime_points_agree_with_the_evaluator_on_every_hand() {
    use super::eval::{bull_of_points, first_grouping, high_card};
    let mismatches = all_hands()
        .par_bridge()
        .filter(|cards| {
            let got = cardtables::niuniu::points(cards).expect("five distinct cards");
            let pts = cards.map(points);
            let grouping = first_grouping(pts).map(|g| g.map(|i| cards[usize::from(i)]));
            got.point_total != pts.iter().sum::<u8>()
                || got.bull != bull_of_points(pts)
                || got.grouping != grouping
                || got.high_card != high_card(cards)
        })
        .count();
    assert_eq!(mismatches, 0);
    // Any order of the same cards gives the same answer.
    let a = parse_cards("Ks Qh 5d 3c 2s").unwrap();
    let b = parse_cards("2s 3c Ks 5d Qh").unwrap();
    assert_eq!(
        cardtables::niuniu::points(&a).unwrap(),
        cardtables::niuniu::points(&b).unwrap()
    );
    assert!(cardtables::niuniu::points(&a[..4]).is_err());
}

/// Strength by the literal rules, from the cards alone: the category's rank, then the tie
/// card — the highest card, or for a bomb settled by its four's rank the ♠ of the four.
fn literal_strength(cards: &[Card; 5], ranking: &Ranking) -> u16 {
    let code = literal_category(cards, &ranking.rules);
    let four = cards
        .iter()
        .find(|a| cards.iter().filter(|b| b.rank() == a.rank()).count() == 4);
    let tie = match (code, ranking.rules.bomb_order, four) {
        (BOMB, BombOrder::QuadRank, Some(four)) => Card::new(four.rank(), 3).unwrap(),
        _ => *cards.iter().max_by_key(|c| tie_order(**c)).unwrap(),
    };
    u16::from(ranking.rank(code)) * 52 + u16::from(tie_order(tie))
}

#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all hands: run with --release")]
fn bombs_settle_by_the_rule_in_force_and_every_win_count_agrees_with_a_sweep() {
    let hands: Vec<[Card; 5]> = all_hands().collect();
    let index = |text: &str| index_sorted(&hand(text)) as usize;
    let (low_kicker, high_kicker) = (index("3d 3c 3h 3s 4d"), index("2d 2c 2h 2s Kd"));
    for order in [BombOrder::QuadRank, BombOrder::HighCard] {
        let rules = NiuniuRules {
            bomb_order: order,
            ..extended_rules()
        };
        let ranking = Ranking::new(rules.clone()).unwrap();
        let r = results_of(&run_job(rules));
        let literal: Vec<u16> = hands
            .par_iter()
            .map(|h| literal_strength(h, &ranking))
            .collect();
        assert!(r.strength == literal, "{order:?}: strengths differ");
        // Wins by a sweep in the literal order, each hand counting the weaker hands
        // disjoint from it: every one of the 2.6 M win counts.
        let swept = sweep_wins(|i| literal[i as usize]);
        assert!(r.wins == swept, "{order:?}: win counts differ");
        let runtime = r.table.lookup(&hands[low_kicker]).unwrap();
        assert_eq!(runtime.strength, literal[low_kicker]);
        let threes_win = r.strength[low_kicker] > r.strength[high_kicker];
        assert_eq!(threes_win, order == BombOrder::QuadRank, "{order:?}");
    }
}

// ---- niuniu.bidding: the four-card tables and the bidding model ----

use super::bidding::{
    four_stats, settle, simulate_class, Deck, FourStats, Hand, Mixture, Scorer, Table, Valuer,
};
use super::equilibrium::BidGame;
use super::job::BiddingJob;
use super::opponents::Outcome;
use cardtables::niuniu_bidding::{class_of, CLASSES, FOUR_HANDS};

/// Rules under which a player's and a banker's EV differ: the extended specials, and the
/// banker takes category ties.
fn banker_ties_rules() -> NiuniuRules {
    NiuniuRules {
        banker_wins_ties: true,
        ..extended_rules()
    }
}

/// The exact five-card outcomes of a rule set, as `niuniu.bidding` computes them.
fn outcomes_of(job: &BiddingJob) -> Vec<[Outcome; 4]> {
    let units: Vec<_> = (0..job.hands.unit_count())
        .into_par_iter()
        .map(|u| job.hands.run_unit(u))
        .collect();
    job.hands.outcomes_of_units(units).unwrap()
}

/// The valuer of a job's rules over its exact outcomes.
fn valuer_of<'a>(job: &'a HandsJob, outcomes: &'a [[Outcome; 4]]) -> Valuer<'a> {
    Valuer {
        scorer: Scorer {
            ranking: &job.ranking,
            categories: &job.categories,
        },
        outcomes,
    }
}

fn bidding_job(rules: NiuniuRules, players: u8) -> BiddingJob {
    let settings = BiddingSettings {
        players,
        ..BiddingSettings::default()
    };
    BiddingJob::from_parts(Ranking::new(rules).unwrap(), settings, 7)
}

/// Every five-card hand is four cards and a fifth in five ways, so summing any four-card
/// figure over all 270,725 four-card hands gives five times its sum over the 2,598,960
/// five-card hands: the category counts (counted here by the literal rules) and the
/// banker's and player's results.
#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all hands: run with --release")]
fn four_card_tables_sum_to_five_times_the_five_card_tables() {
    let job = bidding_job(banker_ties_rules(), 4);
    let outcomes = outcomes_of(&job);
    let ranking = &job.hands.ranking;
    let valuer = valuer_of(&job.hands, &outcomes);
    let stats: Vec<FourStats> = (0..FOUR_HANDS as u32)
        .into_par_iter()
        .map(|i| four_stats(i, &valuer))
        .collect();
    let mut four_counts = [0u64; CODES];
    let (mut four_banker, mut four_player) = (0i64, 0i64);
    for s in &stats {
        assert_eq!(s.fifth_cards.iter().map(|&n| u32::from(n)).sum::<u32>(), 48);
        for (total, &n) in four_counts.iter_mut().zip(&s.fifth_cards) {
            *total += u64::from(n);
        }
        four_banker += s.banker;
        four_player += s.player;
    }
    let mut five_counts = [0u64; CODES];
    for cards in all_hands() {
        five_counts[usize::from(ranking.rank(literal_category(&cards, &ranking.rules)))] += 1;
    }
    assert_eq!(four_counts, five_counts.map(|n| 5 * n));
    let (five_banker, five_player) = all_hands()
        .par_bridge()
        .map(|cards| {
            let (_, o) = valuer.hand(&cards);
            (o.banker_numerator, o.player_numerator)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert_eq!(
        (four_banker, four_player),
        (5 * five_banker, 5 * five_player)
    );
    // With the banker taking category ties, the banker gains and the player loses.
    assert!(five_banker > 0 && five_player < 0);
}

/// Two four-card hands against every deal: each of the 48 fifth cards against every one of
/// the C(47,5) opponent hands, settled literally (strengths from the literal rules, the
/// banker taking category ties), gives the table's counts and sums exactly.
#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all deals: run with --release")]
fn chosen_four_card_hands_agree_with_every_deal_settled_literally() {
    let job = bidding_job(banker_ties_rules(), 4);
    let outcomes = outcomes_of(&job);
    let ranking = &job.hands.ranking;
    let valuer = valuer_of(&job.hands, &outcomes);
    let strength: Vec<u16> = all_hands()
        .collect::<Vec<_>>()
        .par_iter()
        .map(|h| literal_strength(h, ranking))
        .collect();
    let multiplier = |s: u16| {
        i64::from(
            ranking.multiplier_of_code[usize::from(ranking.codes_by_rank[usize::from(s / 52)])],
        )
    };
    // K♠ Q J J: one of the four-card hands with the highest banker EV.
    for text in ["Ks Qh Jd Tc", "As 2h 3d 2c", "7s 7h 7d 3c", "Ks Qd Jc Jd"] {
        let four: Vec<Card> = parse_cards(text).unwrap();
        let mut sorted: [Card; 4] = four.clone().try_into().unwrap();
        sorted.sort();
        let got = four_stats(index_sorted(&sorted), &valuer);
        let per_fifth: Vec<([u64; CODES], i64, i64)> = (0..52u8)
            .into_par_iter()
            .map(|id| Card::from_id(id).unwrap())
            .filter(|c| !four.contains(c))
            .map(|fifth| {
                let mut mine = [fifth; 5];
                mine[..4].copy_from_slice(&sorted);
                mine.sort();
                let me = strength[index_sorted(&mine) as usize];
                let mut counts = [0u64; CODES];
                counts[usize::from(me / 52)] += 1;
                let rest: Vec<Card> = (0..52u8)
                    .map(|i| Card::from_id(i).unwrap())
                    .filter(|c| !mine.contains(c))
                    .collect();
                let (mut banker, mut player) = (0i64, 0i64);
                let mut idx = [0usize, 1, 2, 3, 4];
                loop {
                    let other = idx.map(|i| rest[i]);
                    let them = strength[index_sorted(&other) as usize];
                    let same_category = me / 52 == them / 52;
                    // Me as banker: I take my category's ties.
                    banker += if me > them || same_category {
                        multiplier(me)
                    } else {
                        -multiplier(them)
                    };
                    // Me as player: the banker takes them.
                    player += if me > them && !same_category {
                        multiplier(me)
                    } else {
                        -multiplier(them)
                    };
                    // Next 5-subset of the 47 in lexicographic order.
                    let mut k = 4;
                    while idx[k] == 47 - 5 + k {
                        if k == 0 {
                            return (counts, banker, player);
                        }
                        k -= 1;
                    }
                    idx[k] += 1;
                    for j in k + 1..5 {
                        idx[j] = idx[j - 1] + 1;
                    }
                }
            })
            .collect();
        assert_eq!(per_fifth.len(), 48);
        let mut counts = [0u64; CODES];
        let (mut banker, mut player) = (0i64, 0i64);
        for (c, b, p) in per_fifth {
            for (t, n) in counts.iter_mut().zip(c) {
                *t += n;
            }
            banker += b;
            player += p;
        }
        assert_eq!(got.fifth_cards.map(u64::from), counts, "{text}");
        assert_eq!((got.banker, got.player), (banker, player), "{text}");
    }
}

/// The table simulation against exact figures. When the other seats never bid, a bid
/// makes us banker against the whole table: its mean is the bid × `players` × the
/// class's exact one-player banker EV (the linearity the tables rely on, here with card
/// removal between every hand at the table); not bidding makes a seat drawn evenly banker
/// at ×1. When they always bid the top multiplier, not bidding makes us a player against
/// one of them, and the top bid ties them all. Each mean must agree within four standard
/// errors.
#[test]
#[cfg_attr(debug_assertions, ignore = "simulates many tables: run with --release")]
fn the_table_simulation_agrees_with_the_exact_evs() {
    for players in [1u8, 4] {
        let job = bidding_job(banker_ties_rules(), players);
        let outcomes = outcomes_of(&job);
        let valuer = valuer_of(&job.hands, &outcomes);
        let bids = &job.settings.bids;
        let top = bids.len();
        let x = bids[top - 1] as f64;
        let n = f64::from(players);
        // Exact class means of the one-player EVs.
        let mut sums = vec![(0i64, 0i64, 0u32); CLASSES];
        let mut four = [Card::from_id(0).unwrap(); 4];
        for index in 0..FOUR_HANDS as u32 {
            cardtables::colex::unrank(index, 4, &mut four);
            let s = four_stats(index, &valuer);
            let e = &mut sums[class_of(&four)];
            *e = (e.0 + s.banker, e.1 + s.player, e.2 + 1);
        }
        let exact = |class: usize| {
            let (b, p, k) = sums[class];
            let d = 48.0 * f64::from(OPPONENT_HANDS) * f64::from(k);
            (b as f64 / d, p as f64 / d)
        };
        let mut worst = 0.0f64;
        for class in [0usize, 300, 1274, 1500, 1700] {
            let (b, p) = exact(class);
            assert_ne!(b, p, "the rules must tell banker from player");
            for (strategy_level, expected) in [
                (0u8, [n * (b + p) / (n + 1.0), x * n * b]),
                (top as u8, [x * p, x * n * (b + p) / (n + 1.0)]),
            ] {
                let rivals = Mixture::pure(&vec![strategy_level; CLASSES], top + 1);
                let table = Table {
                    scorer: &valuer.scorer,
                    players: usize::from(players),
                    bids,
                    rivals: &rivals,
                    deck: Deck::Shared,
                };
                let mut rng = crate::engine::stream(11, class as u64);
                let s = simulate_class(&table, class, 0, 40_000, &mut rng);
                for (level, want) in [(0, expected[0]), (top, expected[1])] {
                    assert!(
                        s.ev_se(level) > 0.0,
                        "class {class}: no variance to test with"
                    );
                    let z = (s.ev(level) - want) / s.ev_se(level);
                    worst = worst.max(z.abs());
                    assert!(
                        z.abs() < 4.0,
                        "{players} players, class {} level {level}: simulated {} ± {}, exact {want}",
                        super::tables::class_text(class),
                        s.ev(level),
                        s.ev_se(level)
                    );
                }
            }
        }
        assert!(worst > 0.0);
    }
}

/// The whole job on a small simulation: the runtime table answers every sampled
/// four-card hand as its `four_cards.parquet` row, the same seed gives the same bytes,
/// and strong made hands bid while hopeless ones do not.
/// The one-deck check is units, as a shard computes them: check units run by a job that
/// never ran the counts (so computes the equilibrium itself), counts by another, and the
/// outputs built by a third, are the bytes of one job doing everything. Swapped or forged
/// unit results are refused.
#[test]
#[cfg_attr(debug_assertions, ignore = "runs the job: run with --release")]
fn the_bidding_check_units_shard_to_the_same_bytes() {
    use super::job::BiddingUnit;
    let settings = BiddingSettings {
        check_deals_per_class: 200,
        ..BiddingSettings::default()
    };
    let job = || {
        BiddingJob::from_parts(
            Ranking::new(NiuniuRules::default()).unwrap(),
            settings.clone(),
            11,
        )
    };
    let meta = JobMeta::named("test", "niuniu.bidding");
    let whole = job();
    let n = whole.unit_count();
    let counts = whole.hands.unit_count();
    assert_eq!(n, counts + 35, "35 check units of 52 classes");
    let units: Vec<_> = (0..n).into_par_iter().map(|u| whole.run_unit(u)).collect();
    for (u, unit) in units.iter().enumerate() {
        whole.check_unit(u, unit).unwrap();
    }
    let one = whole
        .finish(&meta, units, &Progress::hidden(), &Stash::none())
        .unwrap();

    let (checker, counter, merger) = (job(), job(), job());
    let mut parts: Vec<_> = (counts..n).map(|u| checker.run_unit(u)).collect();
    let mut units: Vec<_> = (0..counts).map(|u| counter.run_unit(u)).collect();
    units.append(&mut parts);
    // A unit of the wrong kind, and a forged sample, are refused by index.
    assert!(merger.check_unit(0, &units[counts]).is_err());
    assert!(merger.check_unit(counts, &units[0]).is_err());
    let BiddingUnit::Check(samples) = &units[counts] else {
        panic!("a check unit")
    };
    let mut forged = samples.clone();
    forged[3].deals += 1;
    assert!(merger
        .check_unit(counts, &BiddingUnit::Check(forged))
        .is_err());
    let mut forged = samples.clone();
    forged[0].sum.pop();
    assert!(merger
        .check_unit(counts, &BiddingUnit::Check(forged))
        .is_err());
    let mut forged = samples.clone();
    forged[1].sum[0] = i64::MAX;
    assert!(merger
        .check_unit(counts, &BiddingUnit::Check(forged))
        .is_err());
    assert!(merger
        .check_unit(counts, &BiddingUnit::Check(samples[1..].to_vec()))
        .is_err());
    let merged = merger
        .finish(&meta, units, &Progress::hidden(), &Stash::none())
        .unwrap();
    assert!(one.tables[0].bytes == merged.tables[0].bytes);
    assert_eq!(one.report.markdown, merged.report.markdown);
    assert_eq!(one.report.charts, merged.report.charts);
    for (a, b) in one.parquet.iter().zip(&merged.parquet) {
        assert_eq!(a.batches.collect().unwrap(), b.batches.collect().unwrap());
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "runs the job: run with --release")]
fn the_bidding_job_runtime_table_matches_its_parquet_rows() {
    let settings = BiddingSettings {
        check_deals_per_class: 300,
        ..BiddingSettings::default()
    };
    let run = || {
        let job = BiddingJob::from_parts(
            Ranking::new(NiuniuRules::default()).unwrap(),
            settings.clone(),
            5,
        );
        let units: Vec<_> = (0..job.unit_count()).map(|u| job.run_unit(u)).collect();
        job.finish(
            &JobMeta::named("test", "niuniu.bidding"),
            units,
            &Progress::hidden(),
            &Stash::none(),
        )
        .unwrap()
    };
    let outputs = run();
    let again = run();
    assert!(
        outputs.tables[0].bytes == again.tables[0].bytes,
        "not reproducible"
    );
    let table = cardtables::NiuniuBidding::from_bytes(&outputs.tables[0].bytes).unwrap();
    let batch = &outputs.parquet[0].batches.collect().unwrap()[0];
    let f64s = |name: &str| {
        let i = batch.schema().index_of(name).unwrap();
        batch
            .column(i)
            .as_any()
            .downcast_ref::<Float64Array>()
            .unwrap()
            .clone()
    };
    let (player, banker) = (f64s("player_ev"), f64s("banker_ev"));
    let p_bull_bull = f64s("p_bull_bull");
    let bid_col = batch.schema().index_of("suggested_bid").unwrap();
    let bids = batch
        .column(bid_col)
        .as_any()
        .downcast_ref::<Int64Array>()
        .unwrap();
    let bull_bull = table
        .categories()
        .iter()
        .position(|c| c.name == "bull_bull")
        .unwrap();
    let mut four = [Card::from_id(0).unwrap(); 4];
    for index in (0..FOUR_HANDS as u32).step_by(997) {
        cardtables::colex::unrank(index, 4, &mut four);
        let a = table.lookup(&four).unwrap();
        let i = index as usize;
        assert_eq!(a.index, index);
        assert_eq!(a.player_ev, player.value(i));
        assert_eq!(a.banker_ev, banker.value(i));
        assert_eq!(
            f64::from(a.fifth_cards[bull_bull]) / 48.0,
            p_bull_bull.value(i)
        );
        assert_eq!(i64::from(a.bid), bids.value(i));
    }
    let bid = |text: &str| table.lookup(&parse_cards(text).unwrap()).unwrap().bid;
    // K Q J and a 10: a bull already made, 四花牛 on 9 fifth cards.
    assert_eq!(bid("Ks Qh Jd Tc"), 4);
    // A 2 3 4: no three make ten, so most fifth cards leave no bull.
    let weak = table.lookup(&parse_cards("As 2h 3d 4c").unwrap()).unwrap();
    assert!(weak.banker_ev < 0.0);
    // It bids below the made bulls, and whatever it bids it loses on average at this
    // table of strong bids.
    assert!(bid("As 2h 3d 4c") < 4);
    assert!(weak.bid_evs.iter().all(|&v| v < 0.0));
    assert!((weak.bid_shares.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // Every hand's regret is its own best bid's gain over its class's: never negative,
    // and its mean is the table's exploitability.
    let regret = f64s("bid_regret");
    let mean = (0..FOUR_HANDS).map(|i| regret.value(i)).sum::<f64>() / FOUR_HANDS as f64;
    assert!((0..FOUR_HANDS).all(|i| regret.value(i) >= 0.0));
    let certificate = &outputs.parquet[2].batches.collect().unwrap()[0];
    let exploitability = certificate
        .column(certificate.schema().index_of("exploitability").unwrap())
        .as_any()
        .downcast_ref::<Float64Array>()
        .unwrap()
        .value(0);
    assert!(
        (mean - exploitability).abs() < 1e-15,
        "{mean} {exploitability}"
    );
    assert!(exploitability < 1e-3, "{exploitability}");
}

// ---- niuniu.multiway: every hand against 1 to 5 players ----

use super::multiway::{sample_slot, slots, Slot};

/// The scorer, exact outcomes and slots of a rule set.
fn multiway_parts(rules: NiuniuRules) -> (HandsJob, Vec<[Outcome; 4]>, Vec<Slot>) {
    let job = HandsJob::from_ranking(Ranking::new(rules).unwrap());
    let units: Vec<_> = (0..job.unit_count())
        .into_par_iter()
        .map(|u| job.run_unit(u))
        .collect();
    let outcomes = job.outcomes_of_units(units).unwrap();
    let slots = slots(&job.categories, &job.ranking);
    (job, outcomes, slots)
}

/// The slots cover every hand once, and sampled slots agree with the exact figures: the
/// chance of beating the first player with the exact win probability, and the banker's
/// mean against five players with five times the exact one-player EV, within four
/// standard errors each.
#[test]
#[cfg_attr(debug_assertions, ignore = "enumerates all hands: run with --release")]
fn sampled_slots_agree_with_the_exact_one_player_figures() {
    let (job, outcomes, slots) = multiway_parts(banker_ties_rules());
    assert_eq!(
        slots.iter().map(|s| u64::from(s.hands)).sum::<u64>(),
        HANDS as u64
    );
    let scorer = Scorer {
        ranking: &job.ranking,
        categories: &job.categories,
    };
    let deals = 20_000u64;
    let mut worst = 0.0f64;
    for (k, slot) in slots.iter().enumerate().step_by(997) {
        let exact = outcomes[slot.id as usize / 4][slot.id as usize % 4];
        let mut rng = crate::engine::stream(3, k as u64);
        let s = sample_slot(&scorer, slot, deals, &mut rng);
        let p1 = f64::from(exact.wins) / f64::from(OPPONENT_HANDS);
        if s.p_beat_all_se(1) > 0.0 {
            let z = (s.p_beat_all(1) - p1) / s.p_beat_all_se(1);
            worst = worst.max(z.abs());
            assert!(
                z.abs() < 4.0,
                "slot {}: {} vs exact {p1}",
                slot.id,
                s.p_beat_all(1)
            );
        }
        let ev5 = 5.0 * exact.banker_numerator as f64 / f64::from(OPPONENT_HANDS);
        let var = s.banker_mean_sq(5) - s.banker_mean(5).powi(2);
        if var > 0.0 {
            let z = (s.banker_mean(5) - ev5) / (var / deals as f64).sqrt();
            worst = worst.max(z.abs());
            assert!(
                z.abs() < 4.0,
                "slot {}: banker {} vs exact {ev5}",
                slot.id,
                s.banker_mean(5)
            );
        }
        // Beating all of more players is never likelier.
        assert!((1..5).all(|n| s.beat_all[n] <= s.beat_all[n - 1]));
    }
    assert!(worst > 0.0);
}

/// The exact chance that a hand beats both of two other players, by counting ordered
/// pairs of disjoint opponent hands over their rank multisets: the ways to give each rank
/// to the two opponents, with the cards of our top rank split by suit where an opponent
/// of our category and top rank must hold only suits below ours to lose. No bombs (their
/// tie-break card is not the highest card).
fn exact_beat_two(hand: &[Card; 5], job: &HandsJob) -> f64 {
    let (ranking, categories) = (&job.ranking, &job.categories);
    assert!(!ranking.rules.special_hands.contains(&Special::Bomb));
    let niu = |r: u8| (r + 1) % 13;
    let code = categories[multiset_index(hand)];
    let my_rank = ranking.rank(code);
    let top = *hand.iter().max_by_key(|c| tie_order(**c)).unwrap();
    let mut held = [0u8; 13];
    for c in hand {
        held[usize::from(c.rank())] += 1;
    }
    let t = usize::from(top.rank());
    let (above, below) = (3 - top.suit(), top.suit() + 1 - held[t]);
    let choose = |n: u8, k: u8| u64::from(binomial(usize::from(n), usize::from(k)));
    // Each opponent multiset: its rank counts, category rank, and whether it beats us,
    // loses to us, or loses only if its cards of our top rank are all below our suit.
    #[derive(Clone, Copy, PartialEq)]
    enum Against {
        Win,
        Lose,
        LoseIfBelow,
    }
    let mut theirs = Vec::new();
    for (m, &category) in categories.iter().enumerate() {
        if category == u8::MAX {
            continue;
        }
        let ranks = super::eval::multiset_ranks(m);
        let mut counts = [0u8; 13];
        for r in ranks {
            counts[usize::from(r)] += 1;
        }
        if (0..13).any(|r| counts[r] + held[r] > 4) {
            continue;
        }
        let rank = ranking.rank(category);
        let their_top = ranks.iter().copied().max_by_key(|&r| niu(r)).unwrap();
        let against = if rank != my_rank {
            if rank < my_rank {
                Against::Lose
            } else {
                Against::Win
            }
        } else if niu(their_top) != niu(top.rank()) {
            if niu(their_top) < niu(top.rank()) {
                Against::Lose
            } else {
                Against::Win
            }
        } else {
            Against::LoseIfBelow
        };
        if against != Against::Win {
            theirs.push((counts, against));
        }
    }
    let total: u64 = theirs
        .par_iter()
        .map(|&(a, need_a)| {
            let mut sum = 0u64;
            for &(b, need_b) in &theirs {
                let mut ways = 1u64;
                for r in (0..13).filter(|&r| r != t) {
                    let free = 4 - held[r];
                    if a[r] + b[r] > free {
                        ways = 0;
                        break;
                    }
                    ways *= choose(free, a[r]) * choose(free - a[r], b[r]);
                }
                if ways == 0 {
                    continue;
                }
                let (ka, kb, all) = (a[t], b[t], above + below);
                let at_top = match (
                    need_a == Against::LoseIfBelow,
                    need_b == Against::LoseIfBelow,
                ) {
                    (true, true) if ka + kb <= below => choose(below, ka) * choose(below - ka, kb),
                    (true, false) if ka <= below && ka + kb <= all => {
                        choose(below, ka) * choose(all - ka, kb)
                    }
                    (false, true) if kb <= below && ka + kb <= all => {
                        choose(below, kb) * choose(all - kb, ka)
                    }
                    (false, false) if ka + kb <= all => choose(all, ka) * choose(all - ka, kb),
                    _ => 0,
                };
                sum += ways * at_top;
            }
            sum
        })
        .sum();
    total as f64 / (f64::from(OPPONENT_HANDS) * f64::from(binomial(42, 5)))
}

/// Beating both of two players, simulated per slot, against exact counting for hands of
/// several categories (a 牛牛, a 牛9, a 牛5 and a 无牛 whose top rank others can share).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "counts 38 M pairs of multisets: run with --release"
)]
fn beating_two_players_agrees_with_exact_counting() {
    let (job, _, slots) = multiway_parts(NiuniuRules::default());
    let scorer = Scorer {
        ranking: &job.ranking,
        categories: &job.categories,
    };
    for text in [
        "Ks Qh Jd 5c 5s",
        "9s 8h 3d 7c 2s",
        "Kd Qc 3h 2s 9d",
        "Jh 9c 7d 4s 2c",
    ] {
        let cards = hand(text);
        let exact = exact_beat_two(&cards, &job);
        let id = (multiset_index(&cards) * 4) as u32 + u32::from(high_card_suit(&cards));
        let slot = slots.iter().find(|s| s.id == id).unwrap();
        let mut rng = crate::engine::stream(9, u64::from(id));
        let s = sample_slot(&scorer, slot, 400_000, &mut rng);
        let z = (s.p_beat_all(2) - exact) / s.p_beat_all_se(2);
        assert!(
            z.abs() < 4.0,
            "{text}: simulated {} ± {}, exact {exact}",
            s.p_beat_all(2),
            s.p_beat_all_se(2)
        );
        // The slot's representative is another hand of the slot: the exact figure of
        // the representative is the same.
        let mut rep = [Card::from_id(0).unwrap(); 5];
        cardtables::colex::unrank(slot.hand, 5, &mut rep);
        assert_eq!(exact_beat_two(&rep, &job), exact, "{text}");
    }
}

fn high_card_suit(sorted: &[Card; 5]) -> u8 {
    sorted.iter().max_by_key(|c| tie_order(**c)).unwrap().suit()
}

// ---- niuniu.bidding: the exact equilibrium ----

/// The value of bidding `mine` with hand `me` when the rivals bid and hold `rivals`, by
/// the table's rules read directly: the highest bid is banker (ties drawn evenly), and
/// when nobody bids every seat is banker at ×1 with equal chance.
fn table_value(
    me: Hand,
    mine: usize,
    rivals: &[(usize, Hand)],
    multiplier: &[f64],
    bwt: bool,
) -> f64 {
    let n = rivals.len() as f64;
    let top = rivals.iter().map(|r| r.0).max().unwrap();
    let as_banker: f64 = rivals.iter().map(|r| settle(me, r.1, bwt) as f64).sum();
    let as_player = |r: &(usize, Hand)| -settle(r.1, me, bwt) as f64;
    let at = |level: usize| rivals.iter().filter(move |r| r.0 == level);
    if mine == 0 && top == 0 {
        (as_banker + rivals.iter().map(as_player).sum::<f64>()) / (n + 1.0)
    } else if mine > top {
        multiplier[mine] * as_banker
    } else if mine == top {
        let k = at(top).count() as f64;
        multiplier[top] * (as_banker + at(top).map(as_player).sum::<f64>()) / (k + 1.0)
    } else {
        let k = at(top).count() as f64;
        multiplier[top] * at(top).map(as_player).sum::<f64>() / k
    }
}

/// The per-strength values of the exact model equal a direct sum over every way 1, 2 or
/// 3 rivals can bid and hold, by the table's rules, with strengths that tie on the
/// category and on the tie-break card, under both tie rules.
#[test]
fn equilibrium_values_equal_a_direct_sum_over_the_rivals() {
    // Two categories (multipliers 1 and 3), tie orders 0, 1 and 7 of each.
    let payout: Vec<f64> = (0..104).map(|h| if h < 52 { 1.0 } else { 3.0 }).collect();
    let strengths = [0usize, 1, 7, 52, 53, 59];
    let hand = |h: usize| Hand {
        rank: (h / 52) as u8,
        tie: (h % 52) as u8,
        multiplier: payout[h] as i64,
    };
    let multiplier = vec![1.0, 2.0, 5.0];
    // A rival's chance of each (level, strength): uneven, with level 1 never bid at the
    // strongest strengths.
    let mut atoms = Vec::new();
    for (i, &h) in strengths.iter().enumerate() {
        for level in 0..3 {
            if level == 1 && h >= 53 {
                continue;
            }
            atoms.push((level, h, (1 + (i * 3 + level) % 5) as f64));
        }
    }
    let total: f64 = atoms.iter().map(|a| a.2).sum();
    for bwt in [false, true] {
        for n in 1..=3usize {
            let game = BidGame::synthetic(n, multiplier.clone(), bwt, payout.clone());
            let mut rival = vec![0.0; 3 * 104];
            for &(level, h, w) in &atoms {
                rival[level * 104 + h] += w / total;
            }
            let values = game.strength_values(&rival);
            for &me in &strengths {
                for mine in 0..3 {
                    let mut direct = 0.0;
                    let mut pick = vec![0usize; n];
                    loop {
                        let rivals: Vec<(usize, Hand)> = pick
                            .iter()
                            .map(|&i| (atoms[i].0, hand(atoms[i].1)))
                            .collect();
                        let chance: f64 = pick.iter().map(|&i| atoms[i].2 / total).product();
                        direct += chance * table_value(hand(me), mine, &rivals, &multiplier, bwt);
                        // The next combination of atoms, odometer-wise.
                        let mut d = 0;
                        while d < n && pick[d] + 1 == atoms.len() {
                            pick[d] = 0;
                            d += 1;
                        }
                        if d == n {
                            break;
                        }
                        pick[d] += 1;
                    }
                    let got = values[me * 3 + mine];
                    assert!(
                        (got - direct).abs() < 1e-12,
                        "bwt {bwt}, {n} rivals, strength {me}, level {mine}: {got} vs {direct}"
                    );
                }
            }
        }
    }
}

/// The solved equilibrium: the certificate holds (class exploitability at the target,
/// any four-card deviation under 1e-3), the seats' values average to zero, and the exact
/// values agree with a seeded simulation of independent seats playing it, within four
/// standard errors, for classes from the weakest to the strongest.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves the equilibrium: run with --release"
)]
fn the_bidding_equilibrium_is_certified_and_matches_a_simulation() {
    for (rules, players) in [(NiuniuRules::default(), 4u8), (banker_ties_rules(), 2)] {
        let hands = HandsJob::from_ranking(Ranking::new(rules).unwrap());
        let scorer = Scorer {
            ranking: &hands.ranking,
            categories: &hands.categories,
        };
        let bids = [1u32, 2, 3, 4];
        let game = BidGame::new(&scorer, usize::from(players), &bids);
        let solve = game.solve(&scorer, &vec![0u8; CLASSES], 1e-9, 100_000, |_, _| {});
        assert!(
            solve.class_exploitability <= 1e-9,
            "{}",
            solve.class_exploitability
        );
        assert!(solve.exploitability < 1e-3, "{}", solve.exploitability);
        assert!(solve.exploitability >= solve.class_exploitability - 1e-12);
        let weight: f64 = (0..CLASSES).map(|c| game.class_weight(c)).sum();
        assert!((weight - 1.0).abs() < 1e-12);
        let mean: f64 = (0..CLASSES)
            .map(|c| game.class_weight(c) * solve.class_value(c))
            .sum();
        assert!(mean.abs() < 1e-9, "mean value {mean}");
        let rivals = Mixture::from_strategy(&solve.strategy, solve.levels);
        let table = Table {
            scorer: &scorer,
            players: usize::from(players),
            bids: &bids,
            rivals: &rivals,
            deck: Deck::PerSeat,
        };
        let mut worst = 0.0f64;
        for class in [0usize, 450, 911, 1274, 1819] {
            let mut rng = crate::engine::stream(23, class as u64);
            let s = simulate_class(&table, class, 0, 60_000, &mut rng);
            for level in 0..solve.levels {
                let want = solve.values[class * solve.levels + level];
                let z = (s.ev(level) - want) / s.ev_se(level);
                worst = worst.max(z.abs());
                assert!(
                    z.abs() < 4.0,
                    "class {} level {level}: simulated {} ± {}, exact {want}",
                    super::tables::class_text(class),
                    s.ev(level),
                    s.ev_se(level)
                );
            }
        }
        assert!(worst > 0.0);
    }
}

/// The standard error of the banker's simulated standard deviation (delta method on the
/// deals' moments) matches the spread of that standard deviation over independent
/// streams: for two slots, over 60 runs of 2,000 deals, the runs' own standard deviation
/// of the estimate is within 25% of the mean stated standard error, for 1 and 5 players.
#[test]
#[cfg_attr(debug_assertions, ignore = "simulates many deals: run with --release")]
fn the_banker_spread_carries_a_standard_error_that_matches_its_spread_over_streams() {
    let job = HandsJob::from_ranking(Ranking::new(NiuniuRules::default()).unwrap());
    let all = slots(&job.categories, &job.ranking);
    let scorer = Scorer {
        ranking: &job.ranking,
        categories: &job.categories,
    };
    for slot in [all[100], all[all.len() - 300]] {
        for others in [1usize, 5] {
            let runs: Vec<(f64, f64)> = (0..60u64)
                .into_par_iter()
                .map(|k| {
                    let mut rng = crate::engine::stream(31, k);
                    let sample = sample_slot(&scorer, &slot, 2_000, &mut rng);
                    let result = super::tables::SlotResult {
                        slot,
                        code: 0,
                        strength: 0,
                        tie_card: Card::from_id(0).unwrap(),
                        ranks: String::new(),
                        exact: Outcome::default(),
                        sample,
                    };
                    (result.banker_sd(others), result.banker_sd_se(others))
                })
                .collect();
            let n = runs.len() as f64;
            let mean = runs.iter().map(|r| r.0).sum::<f64>() / n;
            let spread =
                (runs.iter().map(|r| (r.0 - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            let stated = runs.iter().map(|r| r.1).sum::<f64>() / n;
            assert!(stated > 0.0 && spread > 0.0, "slot {}: no spread", slot.id);
            assert!(
                (spread / stated - 1.0).abs() < 0.25,
                "slot {}, {others} players: standard deviation {mean}, its spread over runs {spread}, stated standard error {stated}",
                slot.id
            );
        }
    }
}
