//! The `stud.tables` report: category counts by deck, exact hit probabilities against
//! the rule of 2 and 4, the heads-up grid and the worked example.

use cardtables::decision::{hit_probability, rule_of_2_and_4};
use cardtables::{parse_cards, Card, CardSet};

use super::eval::{Evaluator, CATEGORIES, CATEGORIES_ZH, VARIANTS};
use super::job::TablesJob;
use super::outs::{analyse, Situation};
use super::rules::StudRules;
use crate::engine::JobMeta;
use crate::report::{
    conventions, header, line_chart_svg, markdown_table, published_box, rank_grid, Line, Published,
    Report,
};

/// Best five of up to seven cards (for the Hold'em reading of the tutorial's example).
fn best_of(eval: &Evaluator, cards: &[Card]) -> u32 {
    let n = cards.len();
    let mut best = 0;
    for skip in 0u32..1 << n {
        if skip.count_ones() as usize != n - 5 {
            continue;
        }
        let five: Vec<Card> = (0..n)
            .filter(|i| skip >> i & 1 == 0)
            .map(|i| cards[i])
            .collect();
        best = best.max(eval.evaluate(&five.try_into().expect("five cards")).1);
    }
    best
}

impl TablesJob {
    /// Equity of each starting-hand class (pair, suited, offsuit) against a random
    /// starting hand, as a rank × rank grid per deck.
    pub(super) fn grid_report(&self, table: &cardtables::Stud) -> anyhow::Result<String> {
        let mut md = String::new();
        for &deck in &self.rules.headsup_decks {
            let rules = self.rules.variant(deck);
            let low = rules.lowest_rank();
            let ranks: Vec<u8> = (low..13).rev().collect();
            // sums[hi][lo][suited]: total equity and count over every opponent hand.
            let mut sum = vec![[0f64; 2]; 13 * 13];
            let mut count = vec![[0u64; 2]; 13 * 13];
            let cards: Vec<Card> = CardSet(rules.deck_mask()).iter().collect();
            for (i, &a1) in cards.iter().enumerate() {
                for &a2 in &cards[i + 1..] {
                    let (hi, lo) = if a1.rank() >= a2.rank() {
                        (a1, a2)
                    } else {
                        (a2, a1)
                    };
                    let suited = usize::from(hi.suit() == lo.suit());
                    let cell = usize::from(hi.rank()) * 13 + usize::from(lo.rank());
                    for (j, &b1) in cards.iter().enumerate() {
                        for &b2 in &cards[j + 1..] {
                            if let Ok(r) = table.starting_hands(deck, &[a1, a2], &[b1, b2]) {
                                sum[cell][suited] += r.equity;
                                count[cell][suited] += 1;
                            }
                        }
                    }
                }
            }
            let grid = rank_grid(&ranks, |hi, lo, suited| {
                let cell = usize::from(hi) * 13 + usize::from(lo);
                let k = usize::from(suited);
                match count[cell][k] {
                    0 => "—".into(),
                    c => format!("{:.3}", sum[cell][k] / c as f64),
                }
            });
            md.push_str(&format!(
                "\n## Starting hands, {deck}-card deck\n\nExact all-in equity of each two-card start \
                 against a random two-card start (both then receive three cards from the same \
                 deck), averaged over every opponent hand: pairs on the diagonal, suited hands \
                 above it, offsuit below. From `headsup.parquet`, which has every matchup {} \
                 ({} classes).\n\n",
                if self.rules.suit_order_breaks_ties {
                    "(suits rank, so no two are alike)"
                } else {
                    "up to suit permutation"
                },
                self.matchups[self.rules.headsup_decks.iter().position(|&d| d == deck).expect("listed")].len()
            ));
            md.push_str(&grid);
        }
        Ok(md)
    }

    /// The tutorial's worked example three ways: as the tutorial ran it, as the Hold'em flop it
    /// really is, and as a stud hand. Returns Markdown.
    fn article_example(&self) -> anyhow::Result<String> {
        let eval = Evaluator::new(StudRules::default());
        let cards = |t: &str| parse_cards(t).expect("fixed example cards");
        let hole = cards("As Ks");
        let board = cards("Qs Js 2h");
        let opp = cards("2c 2d");
        // Hold'em reading: 7 known cards, the turn card gives us a 6-card hand.
        let known: Vec<Card> = hole.iter().chain(&board).chain(&opp).copied().collect();
        let count = |removed: &[Card]| {
            let mut outs = 0;
            let mut unseen = 0;
            for id in 0..52u8 {
                let c = Card::from_id(id).expect("id < 52");
                if known.contains(&c) || removed.contains(&c) {
                    continue;
                }
                unseen += 1;
                let mine: Vec<Card> = hole.iter().chain(&board).copied().chain([c]).collect();
                let theirs: Vec<Card> = opp.iter().chain(&board).copied().chain([c]).collect();
                if best_of(&eval, &mine) > best_of(&eval, &theirs) {
                    outs += 1;
                }
            }
            (outs, unseen)
        };
        let (right_outs, right_unseen) = count(&[]);
        // The tutorial's array has one slot too many; the empty slot is card 0, 2♠.
        let two_spades = cards("2s");
        let (seed_outs, seed_unseen) = count(&two_spades);
        // Stud reading (the query example): our four spades, their 2c 2d, 2h seen.
        let stud = analyse(&Situation {
            mine: cards("As Ks Qs Js"),
            theirs: cards("2c 2d"),
            seen: cards("2h"),
            rules: StudRules::default(),
        })?;
        let pr = |o: u32, u: u32| f64::from(o) / f64::from(u);
        let mut md = String::from("## The tutorial article's worked example\n\n");
        md.push_str(&format!(
            "The tutorial article's example holds A♠ K♠ with Q♠ J♠ 2♥ against 2♣ 2♦ — a Hold'em flop, not \
             five-card stud. Its known-cards array has one slot more than it fills, and the \
             empty slot is card 0, 2♠: a card silently taken out of the deck. It then feeds \
             six cards to its five-card evaluator.\n\n\
             - As the article runs it (2♠ missing): **{seed_outs} outs of {seed_unseen}** unseen \
             cards, P(hit on the turn) = {:.4}.\n\
             - Done right (best five of six cards, 2♠ in the deck): **{right_outs} outs of \
             {right_unseen}**, P = {:.4}. {} The article's probability is off by {:+.4}.\n\
             - As a five-card stud hand (`pipeline query stud \"As Ks Qs Js\" \"2c 2d\" \
             --seen \"2h\"`): our fifth card against the opponent's three unknown \
             cards, enumerated jointly over {} deals: P(win) = {:.4}, P(tie) = {:.4}, with {} \
             cards that make us the favourite.\n\n",
            pr(seed_outs, seed_unseen),
            pr(right_outs, right_unseen),
            if right_outs == seed_outs {
                format!(
                    "The outs agree (2♠ is no out: it gives the opponent four of a kind), but \
                     the article counts {} unseen card{} too few.",
                    right_unseen - seed_unseen,
                    if right_unseen - seed_unseen == 1 {
                        ""
                    } else {
                        "s"
                    }
                )
            } else {
                format!(
                    "The article miscounts the outs by {} and the unseen cards by {}.",
                    right_outs.abs_diff(seed_outs),
                    right_unseen - seed_unseen
                )
            },
            pr(seed_outs, seed_unseen) - pr(right_outs, right_unseen),
            stud.deals,
            stud.win(),
            stud.tie(),
            stud.outs.len()
        ));
        Ok(md)
    }

    pub(super) fn report(
        &self,
        meta: &JobMeta,
        units: &[[u64; 9]],
        rules: &str,
    ) -> anyhow::Result<Report> {
        let mut md = header("Five-card stud (梭哈)", meta);
        md.push_str(
            ". Category counts enumerate every 5-card hand of each deck; probabilities are \
             exact.\n",
        );
        let r = &self.rules;
        let ties = if r.suit_order_breaks_ties {
            "Equal hands are settled by suit (`suit_order_breaks_ties = true`, traditional \
             梭哈): the top card — the highest card of the hand's leading rank (the four, the \
             three, the higher pair, a straight's top card, else the highest card) — of the \
             better suit wins, ♠ > ♥ > ♣ > ♦, so two hands never tie."
        } else {
            "Hands of equal rank split the pot (`suit_order_breaks_ties = false`): an equity \
             counts a tie as half, or 1/n among n tied hands. Traditional 梭哈 settles them \
             by the suit of the top card instead, ♠ > ♥ > ♣ > ♦; set \
             `suit_order_breaks_ties = true` for that rule."
        };
        md.push_str(&conventions(&[
            format!(
                "Rules: every player's hand is exactly five cards, ranked as poker: 同花顺 \
                 straight flush > 铁支 four of a kind > {} > 顺子 straight > 三条 three of a \
                 kind > 两对 two pair > 对子 pair > 散牌 high card; {}; worked examples and \
                 decisions use the {}-card deck ({}), and the category table covers the 52-, \
                 32- (7–A) and 28-card (8–A) decks.",
                if r.flush_beats_full_house {
                    "同花 flush > 葫芦 full house (`flush_beats_full_house = true`)"
                } else {
                    "葫芦 full house > 同花 flush"
                },
                if r.ace_low_straight {
                    "the ace also plays low in a straight (A-2-3-4-5, or A with the deck's four \
                     lowest ranks), the lowest straight"
                } else {
                    "the ace plays high only (`ace_low_straight = false`)"
                },
                r.deck,
                match r.deck {
                    32 => "7 to A",
                    28 => "8 to A",
                    _ => "2 to A",
                }
            ),
            ties.to_string(),
            "Outs are unseen cards that, dealt to us, make our final hand beat the opponent's, \
             each counted once; with two cards to come every run-out is enumerated."
                .to_string(),
            "EV(call) = p·(P + I) − (1 − p)·C, in chips: P is the pot before our call (every \
             chip already in it, the bet we face included), C our call, I the implied win \
             (chips won later when we hit) and p the chance of winning; a tie, where ties \
             split, counts as half a win."
                .to_string(),
        ]));
        md.push_str(&format!(
            "\nThe rule set as the tables record it:\n\n```toml\n{rules}```\n\n"
        ));
        md.push_str("## Categories by deck\n\n");
        let rows: Vec<Vec<String>> = (0..CATEGORIES.len())
            .rev()
            .map(|c| {
                let mut row = vec![format!("`{}`", CATEGORIES[c]), CATEGORIES_ZH[c].to_string()];
                for (i, counts) in units.iter().enumerate() {
                    if VARIANTS[i].1 {
                        let total: u64 = counts.iter().sum();
                        row.push(format!(
                            "{} ({:.4} %)",
                            counts[c],
                            100.0 * counts[c] as f64 / total as f64
                        ));
                    }
                }
                row
            })
            .collect();
        md.push_str(&markdown_table(
            &[
                "category",
                "中文",
                "52 cards",
                "32 cards (7–A)",
                "28 cards (8–A)",
            ],
            &rows,
        ));
        md.push_str(
            "\nWith the ace also low (A-2-3-4-5, or A with the deck's four lowest ranks). In the \
             short decks a flush is rarer than a full house (and than four of a kind), which is \
             why `flush_beats_full_house = true` is common there; `categories.parquet` has every \
             deck, with and without ace-low straights, in both orders (suits never change \
             a category count).\n\n",
        );
        // The 52-card counts with the ace also low, strongest category first.
        let textbook: [u64; 9] = [
            1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40,
        ];
        let full_deck = VARIANTS
            .iter()
            .position(|&v| v == (52, true))
            .and_then(|i| units.get(i));
        if let Some(counts) = full_deck {
            let figures: Vec<Published> = (0..CATEGORIES.len())
                .rev()
                .map(|c| Published {
                    what: format!("52 cards: {} ({})", CATEGORIES[c], CATEGORIES_ZH[c]),
                    ours: counts[c] as f64,
                    published: textbook[c] as f64,
                    decimals: 0,
                    tolerance: None,
                    source: "the five-card poker hand counts of every probability textbook (e.g. Wikipedia, Poker probability)",
                })
                .collect();
            md.push_str(&published_box(&figures)?);
            md.push('\n');
        }
        md.push_str("## Exact hit probability against the rule of 2 and 4\n\n");
        // Each count of cards to come in one colour: exact solid, its rule dashed.
        let mut lines = Vec::new();
        for (colour, (k, u)) in [(1u32, 45u32), (2, 46)].into_iter().enumerate() {
            lines.push(Line::solid(
                format!(
                    "exact, {k} card{} to come ({u} unseen)",
                    if k > 1 { "s" } else { "" }
                ),
                (1..=20)
                    .map(|o| (f64::from(o), hit_probability(o, u, k)))
                    .collect(),
                colour,
            ));
            lines.push(Line::dashed(
                format!("rule of {}", 2 * k),
                (1..=20)
                    .map(|o| (f64::from(o), rule_of_2_and_4(o, k)))
                    .collect(),
                colour,
            ));
        }
        let chart = line_chart_svg(
            "P(hit) by outs: exact (solid) vs rule of 2 and 4 (dashed)",
            "outs",
            "probability",
            &lines,
            &[],
        )?;
        let rows: Vec<Vec<String>> = [4u32, 8, 9, 12, 15, 20]
            .iter()
            .map(|&o| {
                let (one, two) = (hit_probability(o, 45, 1), hit_probability(o, 46, 2));
                vec![
                    o.to_string(),
                    format!("{one:.4}"),
                    format!("{:+.4}", rule_of_2_and_4(o, 1) - one),
                    format!("{two:.4}"),
                    format!("{:+.4}", rule_of_2_and_4(o, 2) - two),
                ]
            })
            .collect();
        md.push_str(&format!(
            "![exact vs rule of 2 and 4]({}/hit_probability.svg)\n\n",
            meta.name
        ));
        md.push_str(&markdown_table(
            &[
                "outs",
                "exact, 1 card (45 unseen)",
                "rule of 2 error",
                "exact, 2 cards (46 unseen)",
                "rule of 4 error",
            ],
            &rows,
        ));
        // Where the rule of 4 turns from understating to overstating (46 unseen, 2 cards),
        // and whether the rule of 2 ever overstates (45 unseen, 1 card), from the figures.
        let over4 = (1..=20u32).find(|&o| rule_of_2_and_4(o, 2) > hit_probability(o, 46, 2));
        let over2 = (1..=20u32).any(|o| rule_of_2_and_4(o, 1) > hit_probability(o, 45, 1));
        let four = match over4 {
            Some(1) => "The rule of 4 overstates the two-card chance at every number of outs".to_string(),
            Some(o) => format!(
                "The rule of 4 understates the two-card chance up to {} outs and overstates it \
                 from {o} on, by more the more outs there are (it counts hitting twice as two hits)",
                o - 1
            ),
            None => "The rule of 4 understates the two-card chance at every number of outs up to 20".to_string(),
        };
        let two = if over2 {
            "the rule of 2 overstates the one-card chance somewhere in 1–20 outs"
        } else {
            "the rule of 2 understates the one-card chance throughout (one card from 45 unseen \
             is 1/45 ≈ 2.22 % per out, not 2 %)"
        };
        md.push_str(&format!(
            "\n{four}; {two}. `hit_probability.parquet` has outs 1–20 × 20–47 \
             unseen × 1 or 2 cards; `break_even.parquet` the fewest outs that make a call \
             profitable, EV(call) = p·(P + I) − (1 − p)·C, over pot, call, implied win, unseen \
             cards and cards to come.\n\n",
        ));
        md.push_str(&self.article_example()?);
        let (one, two) = (hit_probability(9, 45, 1), hit_probability(9, 46, 2));
        let headline = vec![
            format!(
                "9 outs: hit on the next card {one:.4}, on one of the next two {two:.4} (exact; the rule of 2 and 4 says {:.2} and {:.2})",
                rule_of_2_and_4(9, 1),
                rule_of_2_and_4(9, 2)
            ),
        ];
        Ok(Report {
            markdown: md,
            charts: vec![("hit_probability.svg".into(), chart)],
            headline,
        })
    }
}
