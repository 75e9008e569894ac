//! The outputs of `stud.tables` as Arrow batches (`categories`, `hit_probability`,
//! `break_even`, `headsup`) and the runtime payload of the heads-up tables.

use arrow_array::RecordBatch;
use cardtables::decision::{break_even_outs, hit_probability, rule_of_2_and_4};
use cardtables::stud::HeadsUpTable;
use cardtables::Card;

use super::eval::{Evaluator, CATEGORIES, CATEGORIES_ZH, VARIANTS};
use super::rules::StudRules;
use crate::cards::matchups::{two_cards, Matchup, MatchupResult};
use crate::sink::columns::Columns;

/// Grid of the break-even table.
const POTS: [f64; 5] = [20.0, 50.0, 100.0, 200.0, 400.0];
const CALLS: [f64; 4] = [10.0, 20.0, 50.0, 100.0];
const IMPLIED: [f64; 4] = [0.0, 50.0, 100.0, 200.0];
const UNSEEN: [u32; 4] = [20, 30, 40, 45];

/// The runtime index of one deck: every ordered pair of 2-card sets → its class.
pub(super) fn headsup_table(
    rules: StudRules,
    classes: &[Matchup],
    results: &[MatchupResult],
) -> HeadsUpTable {
    use rayon::prelude::*;
    let deck = rules.deck_mask();
    let perms = rules.suit_symmetries();
    let rename = |i: u16, p: &[u8; 4]| -> u16 {
        let [x, y] =
            two_cards(i).map(|c| Card::new(c.rank(), p[usize::from(c.suit())]).expect("valid"));
        cardtables::colex::index_of(&[x, y]) as u16
    };
    let n = cardtables::stud::TWO_CARD_SETS;
    let class_of: Vec<i32> = (0..n * n)
        .into_par_iter()
        .map(|k| {
            let (a, b) = ((k / n) as u16, (k % n) as u16);
            let (ca, cb) = (two_cards(a), two_cards(b));
            let mask_a = ca.iter().fold(0u64, |m, c| m | 1 << c.id());
            let mask_b = cb.iter().fold(0u64, |m, c| m | 1 << c.id());
            if mask_a & mask_b != 0 || (mask_a | mask_b) & !deck != 0 {
                return 0;
            }
            let (rep, swapped) = perms
                .iter()
                .flat_map(|p| {
                    let (x, y) = (rename(a, p), rename(b, p));
                    [((x, y), false), ((y, x), true)]
                })
                .min()
                .expect("at least the identity");
            let i = classes
                .binary_search_by_key(&rep, |m| (m.a, m.b))
                .expect("every matchup has a class") as i32;
            if swapped && rep.0 != rep.1 {
                -(i + 1)
            } else {
                i + 1
            }
        })
        .collect();
    HeadsUpTable {
        deck: rules.deck,
        class_of,
        wins: results.iter().map(|r| r.wins).collect(),
        ties: results.iter().map(|r| r.ties).collect(),
        deals: results.iter().map(|r| r.deals).collect(),
    }
}

pub(super) fn categories_batch(units: &[[u64; 9]]) -> anyhow::Result<RecordBatch> {
    let (mut deck, mut ace_low, mut flush_beats) = (vec![], vec![], vec![]);
    let (mut category, mut rank, mut count, mut probability) = (vec![], vec![], vec![], vec![]);
    let mut category_zh = vec![];
    for (&(d, low), counts) in VARIANTS.iter().zip(units) {
        let total: u64 = counts.iter().sum();
        for beats in [false, true] {
            let eval = Evaluator::new(StudRules {
                deck: d,
                ace_low_straight: low,
                flush_beats_full_house: beats,
                ..StudRules::default()
            });
            for (c, &n) in counts.iter().enumerate() {
                deck.push(d);
                ace_low.push(low);
                flush_beats.push(beats);
                category.push(CATEGORIES[c]);
                category_zh.push(CATEGORIES_ZH[c]);
                rank.push(eval.category_rank(c as u8));
                count.push(n as u32);
                probability.push(n as f64 / total as f64);
            }
        }
    }
    Columns::new()
        .u8("deck", deck)
        .bool("ace_low_straight", ace_low)
        .bool("flush_beats_full_house", flush_beats)
        .str("category", category)
        .str("category_zh", category_zh)
        .u8("category_rank", rank)
        .u32("count", count)
        .f64("probability", probability)
        .batch()
}

pub(super) fn hit_batch() -> anyhow::Result<RecordBatch> {
    let (mut outs, mut unseen, mut cards) = (vec![], vec![], vec![]);
    let (mut exact, mut rule, mut error) = (vec![], vec![], vec![]);
    for k in 1..=2u32 {
        for u in 20..=47u32 {
            for o in 1..=20u32 {
                let p = hit_probability(o, u, k);
                let r = rule_of_2_and_4(o, k);
                outs.push(o as u8);
                unseen.push(u as u8);
                cards.push(k as u8);
                exact.push(p);
                rule.push(r);
                error.push(r - p);
            }
        }
    }
    Columns::new()
        .u8("outs", outs)
        .u8("unseen", unseen)
        .u8("cards_to_come", cards)
        .f64("exact", exact)
        .f64("rule_of_2_and_4", rule)
        .f64("rule_error", error)
        .batch()
}

pub(super) fn break_even_batch() -> anyhow::Result<RecordBatch> {
    let mut cols: [Vec<f64>; 3] = [vec![], vec![], vec![]];
    let (mut unseen, mut cards, mut outs, mut prob) = (vec![], vec![], vec![], vec![]);
    for &pot in &POTS {
        for &call in &CALLS {
            for &implied in &IMPLIED {
                for &u in &UNSEEN {
                    for k in 1..=2u32 {
                        let o = break_even_outs(pot, call, implied, u, k);
                        cols[0].push(pot);
                        cols[1].push(call);
                        cols[2].push(implied);
                        unseen.push(u as u8);
                        cards.push(k as u8);
                        outs.push(o.map(|o| o as u8));
                        // The hit probability at which calling breaks even: C / (P + I + C).
                        prob.push(call / (pot + implied + call));
                    }
                }
            }
        }
    }
    let [pot, call, implied] = cols;
    Columns::new()
        .f64("pot", pot)
        .f64("call", call)
        .f64("implied", implied)
        .u8("unseen", unseen)
        .u8("cards_to_come", cards)
        .u8_or_null("break_even_outs", outs)
        .f64("break_even_probability", prob)
        .batch()
}

/// `headsup.parquet`: every matchup class of every heads-up deck with its exact result.
pub(super) fn headsup_batch(
    decks: &[u8],
    matchups: &[Vec<Matchup>],
    results: &[Vec<MatchupResult>],
) -> anyhow::Result<RecordBatch> {
    let text = |i: u16| crate::cards::text(&two_cards(i));
    let (mut deck, mut a, mut b, mut weight) = (vec![], vec![], vec![], vec![]);
    let (mut wins, mut ties, mut losses, mut deals, mut equity) =
        (vec![], vec![], vec![], vec![], vec![]);
    for ((&d, classes), r) in decks.iter().zip(matchups).zip(results) {
        for (m, h) in classes.iter().zip(r) {
            deck.push(d);
            a.push(text(m.a));
            b.push(text(m.b));
            weight.push(u32::from(m.weight));
            wins.push(h.wins);
            ties.push(h.ties);
            losses.push(h.losses());
            deals.push(h.deals);
            equity.push(h.equity());
        }
    }
    Columns::new()
        .u8("deck", deck)
        .str("cards_a", a)
        .str("cards_b", b)
        .u32("matchups", weight)
        .u64("wins", wins)
        .u64("ties", ties)
        .u64("losses", losses)
        .u64("deals", deals)
        .f64("equity_a", equity)
        .batch()
}
