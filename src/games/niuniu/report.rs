//! The reports: `niuniu.hands` (the rule set, the category table with exact win
//! probabilities and banker EVs, the category charts) and `niuniu.bidding` (four cards
//! by the bull they make, the best banker hands, the suggested bids).

use cardtables::niuniu::{HANDS, OPPONENT_HANDS};

use cardtables::niuniu_bidding::CLASSES;

use super::bidding::made_base;
use super::equilibrium::AVERAGING;
use super::multiway::MAX_OTHERS;
use super::rules::{
    code_name, code_name_zh, BiddingSettings, BombOrder, MultiwaySettings, PayoutTable, Ranking,
    Special, BOMB, BULL_BULL, CODES, FIVE_FACE, FOUR_FACE, NO_BULL,
};
use super::tables::{
    band_label, group_figures, strength_bands, Bidding, CategoryStats, SlotResult, CHECK_Z,
};
use crate::engine::JobMeta;
use crate::report::{
    bar_chart_svg, conventions, header, heat_grid_svg, line_chart_svg, markdown_table,
    published_box, with_error, Line, Published, Report,
};

/// The rules in force in words, with every default, and the conventions of the figures.
fn conventions_lines(ranking: &Ranking) -> Vec<String> {
    let rules = &ranking.rules;
    let special = |s: &Special| match s {
        Special::FiveSmall => format!(
            "五小牛 (`five_small`: five cards below 5 totalling at most {})",
            rules.five_small_max_total
        ),
        Special::Bomb => "炸弹 (`bomb`: four of a kind)".to_string(),
        Special::FiveFace => "五花牛 (`five_face`: five J/Q/K)".to_string(),
        Special::FourFace => "四花牛 (`four_face`: four J/Q/K and a 10)".to_string(),
    };
    let specials: Vec<String> = rules.special_hands.iter().map(special).collect();
    let mut lines = vec![
        "Card points: A = 1, 2–9 their face value, 10/J/Q/K = 10. A hand has a bull (牛) when \
         three of its cards total a multiple of 10; its bull number is the other two cards' \
         total mod 10, and 0 is 牛牛. Every such grouping gives the same number (it is the \
         five-card total mod 10). No such three cards: 无牛."
            .to_string(),
        if specials.is_empty() {
            "No special hands: 牛牛 is the top category.".to_string()
        } else {
            format!(
                "Special hands above 牛牛, strongest first (a hand that is two of them is the \
                 first listed): {}.",
                specials.join(" > ")
            )
        },
        format!(
            "Two hands of one category are settled by the highest card, K > Q > J > 10 > … > A, \
             then its suit ♠ > ♥ > ♣ > ♦, so two hands from one deck never tie{}.",
            if !rules.special_hands.contains(&Special::Bomb) {
                ""
            } else if rules.bomb_order == BombOrder::QuadRank {
                "; two 炸弹 by the four of a kind's rank, K high, A low (`bomb_order = \
                 \"quad_rank\"`, the common rule: 3333+4 beats 2222+K)"
            } else {
                "; two 炸弹 by the highest card too (`bomb_order = \"high_card\"`: 2222+K beats \
                 3333+4; the common rule compares the fours instead)"
            }
        ),
        format!(
            "Settling: the loser pays the winner's multiplier, in stakes (one player bet). \
             Payout table `{}`: {}; overrides in `[rules.multipliers]`.",
            match rules.payout_table {
                PayoutTable::Article => "article",
                PayoutTable::Common => "common",
            },
            match rules.payout_table {
                PayoutTable::Article =>
                    "the tutorial article's multipliers (无牛 ×1, 牛1–牛9 ×2–×10, 牛牛 ×15, \
                     四花 ×20, 五花 ×25), far above the tables rooms play",
                PayoutTable::Common =>
                    "the ladder of real rooms (无牛–牛6 ×1, 牛7–牛9 ×2, 牛牛 ×3, 四花 ×4, \
                     五花, 炸弹 and 五小 ×5): the 翻倍 table live-dealer rooms publish (×1, ×2, \
                     ×3, and ×5 for 五花), with 四花, 炸弹 and 五小, which those rooms do not \
                     deal, placed beside their neighbours; sources in the repository's \
                     `docs/rules/niuniu.md`",
            }
        ),
        "Win probability: the chance of beating one opponent dealt five of the 47 unseen \
         cards. Banker EV: the banker's expected result, in stakes, against one player dealt \
         from the 47 unseen cards (the banker wins its own multiplier or pays the player's)."
            .to_string(),
    ];
    lines.push(if rules.banker_wins_ties {
        "`banker_wins_ties = true`: in banker EV the banker also wins every hand of its own \
         category (a *category tie*: the same category, which the tie-break card would \
         otherwise settle); win probabilities still use the tie-break card."
            .to_string()
    } else {
        "`banker_wins_ties = false`: a player of the banker's category is settled by the \
         tie-break card like any other hand."
            .to_string()
    });
    lines
}

/// Category counts beside their textbook counts, where the category is not shadowed by a
/// special hand listed before it: all hands C(52,5); 五花牛 C(12,5) = 792; 四花牛
/// C(12,4)·4 = 1,980; 炸弹 13·48 = 624.
fn published(ranking: &Ranking, hands_of: &dyn Fn(u8) -> f64) -> Vec<Published> {
    const SOURCE: &str = "counting: C(52,5) hands; five of the 12 J/Q/K, C(12,5); four of \
                          them and one of the four 10s, C(12,4)·4; four of a kind, 13·48";
    let mut figures = vec![Published {
        what: "five-card hands".into(),
        ours: (0..CODES as u8)
            .filter(|&c| ranking.rank_of_code[usize::from(c)].is_some())
            .map(hands_of)
            .sum(),
        published: 2_598_960.0,
        decimals: 0,
        tolerance: None,
        source: SOURCE,
    }];
    let specials = &ranking.rules.special_hands;
    // A special hand listed before another can take some of its hands (JJJJ+Q is a bomb
    // and five face cards): only an unshadowed count is the textbook one.
    let unshadowed = |s: Special, shadows: &[Special]| {
        specials
            .iter()
            .position(|&x| x == s)
            .is_some_and(|i| !specials[..i].iter().any(|x| shadows.contains(x)))
    };
    for (special, code, count, what) in [
        (Special::FiveFace, FIVE_FACE, 792.0, "五花牛 hands"),
        (Special::FourFace, FOUR_FACE, 1_980.0, "四花牛 hands"),
        (Special::Bomb, BOMB, 624.0, "炸弹 hands"),
    ] {
        let shadows: &[Special] = match special {
            Special::Bomb => &[Special::FiveSmall, Special::FiveFace, Special::FourFace],
            _ => &[Special::Bomb],
        };
        if unshadowed(special, shadows) {
            figures.push(Published {
                what: what.into(),
                ours: hands_of(code),
                published: count,
                decimals: 0,
                tolerance: None,
                source: SOURCE,
            });
        }
    }
    figures
}

/// The report: rules, the category table and its chart.
pub(super) fn build(
    ranking: &Ranking,
    meta: &JobMeta,
    stats: &[CategoryStats; CODES],
    rules: &str,
) -> anyhow::Result<Report> {
    let denominator = f64::from(OPPONENT_HANDS);
    let codes: Vec<u8> = ranking.codes_by_rank.iter().rev().copied().collect();
    let rows: Vec<Vec<String>> = codes
        .iter()
        .map(|&c| {
            let s = stats[usize::from(c)];
            let per_hand = |x: f64| {
                if s.hands == 0 {
                    "—".to_string()
                } else {
                    format!("{:.6}", x / (s.hands as f64 * denominator))
                }
            };
            vec![
                format!("`{}`", code_name(c)),
                code_name_zh(c).to_string(),
                s.hands.to_string(),
                format!("{:.6}", s.hands as f64 / HANDS as f64),
                ranking.multiplier_of_code[usize::from(c)].to_string(),
                per_hand(s.wins as f64),
                per_hand(s.banker as f64),
            ]
        })
        .collect();
    let total_banker: i64 = stats.iter().map(|s| s.banker).sum();
    let pairs = HANDS as f64 * denominator;
    let order: Vec<String> = codes.iter().map(|&c| code_name_zh(c).to_string()).collect();
    let mut md = header("Niuniu (斗牛)", meta);
    md.push_str(
        ". Every figure is exact: \
             categories are counted over all 2,598,960 five-card hands, and head-to-head \
             results over all 1,533,939 opponent hands dealt from the 47 unseen cards.\n",
    );
    md.push_str(&conventions(&conventions_lines(ranking)));
    md.push_str(&format!(
        "\nCategory order, strongest first: {}.\n\nThe rule set as the tables record it:\n\n```toml\n{rules}```\n",
        order.join(" > ")
    ));
    md.push_str(&published_box(&published(ranking, &|c| {
        stats[usize::from(c)].hands as f64
    }))?);
    md.push_str("\n## Categories\n\n");
    md.push_str(&markdown_table(
        &[
            "category",
            "中文",
            "hands",
            "probability",
            "multiplier",
            "mean win probability",
            "mean banker EV",
        ],
        &rows,
    ));
    md.push_str(&format!(
        "\nWin probability is against one opponent; banker EV is the banker's expected \
             result against one random player, in player bets. Averaged over all hands the \
             banker's expected result is **{:+.6}** bets per player bet (exactly {} / {}){}.\n\n",
        total_banker as f64 / pairs,
        total_banker,
        HANDS as u64 * u64::from(OPPONENT_HANDS),
        if ranking.rules.banker_wins_ties {
            ""
        } else {
            ": zero by symmetry, since both hands come from the same deck and the loser \
                 pays the winner's multiplier either way; only `banker_wins_ties` (the banker \
                 takes every pair of hands of the same category, which the tie-break card \
                 settles otherwise) gives the banker an edge"
        }
    ));
    md.push_str(&format!(
        "![Mean win probability by category]({0}/win_probability.svg)\n\n\
         ![Mean banker EV by category]({0}/banker_ev.svg)\n\n",
        meta.name
    ));
    md.push_str(
        "Checks that hold for this table (asserted when it is built): the category counts \
             sum to C(52,5) = 2,598,960, every hand sees exactly C(47,5) opponents, and the \
             win probabilities of all hands sum to exactly half the number of hands.\n",
    );

    // Both charts in the table's order (strongest first), on linear axes, over the
    // categories that occur.
    let shown: Vec<u8> = codes
        .iter()
        .copied()
        .filter(|&c| stats[usize::from(c)].hands > 0)
        .collect();
    let labels: Vec<String> = shown.iter().map(|&c| code_name(c).to_string()).collect();
    let mean = |c: u8, total: f64| total / (stats[usize::from(c)].hands as f64 * denominator);
    let win_values: Vec<f64> = shown
        .iter()
        .map(|&c| mean(c, stats[usize::from(c)].wins as f64))
        .collect();
    let banker_values: Vec<f64> = shown
        .iter()
        .map(|&c| mean(c, stats[usize::from(c)].banker as f64))
        .collect();
    let win_chart = bar_chart_svg(
        "Mean win probability against one opponent, by category (strongest first)",
        &labels,
        &win_values,
        "win probability",
        false,
    )?;
    let banker_chart = bar_chart_svg(
        "Mean banker EV against one player, by category (strongest first)",
        &labels,
        &banker_values,
        "banker EV (player bets)",
        false,
    )?;
    let chance = |code: usize| stats[code].hands as f64 / HANDS as f64;
    let (top, bottom) = (
        ranking.codes_by_rank[ranking.codes_by_rank.len() - 1],
        ranking.codes_by_rank[0],
    );
    let headline = vec![
        format!(
            "{} {:.6}, {} {:.6} of all 2,598,960 hands (exact)",
            code_name(top),
            chance(usize::from(top)),
            code_name(bottom),
            chance(usize::from(bottom))
        ),
        format!(
            "banker's expected result against one random player: {:+.6} bets per player bet",
            total_banker as f64 / pairs
        ),
    ];
    Ok(Report {
        markdown: md,
        charts: vec![
            ("win_probability.svg".to_string(), win_chart),
            ("banker_ev.svg".to_string(), banker_chart),
        ],
        headline,
    })
}

/// The bidding model in words, after the rules.
fn bidding_lines(settings: &BiddingSettings) -> Vec<String> {
    let bids: Vec<String> = settings.bids.iter().map(|b| format!("×{b}")).collect();
    vec![
        format!(
            "The table: a banker and {} players (`players = {}`). Each seat sees four of its \
             five cards and bids a banker multiplier ({}) or nothing; the highest bid is \
             banker, equal top bids are settled by an even draw, and when nobody bids a seat \
             drawn evenly is banker at ×1. Then the fifth cards are turned and each player \
             settles one stake with the banker: the winner's category multiplier times the \
             banker's bid (players do not choose bet multipliers in this model).",
            settings.players,
            settings.players,
            bids.join(", ")
        ),
        "Exact EVs (per stake, at ×1): player EV is a hand's result as a player against a \
         banker dealt from the unseen cards; banker EV against one player the reverse; \
         banker EV against the table is `players` × the one-player EV, exactly: the banker \
         settles with each player separately and, given the banker's five cards, each \
         player's hand is a uniform draw from the 47 others whatever the other players hold. \
         Each is the mean over the 48 equally likely fifth cards."
            .to_string(),
        format!(
            "Dealing (the equilibrium's model): each seat's five cards come from a 52-card \
             deck of its own, so the seats' hands are independent: a seat's four seen cards \
             are uniform over the 270,725 four-card hands and its fifth card uniform over the \
             other 48, suits included (the tie-break card's suit counts). Two hands of one \
             category with the same tie-break card, possible only across decks, push. At a \
             real table the seats share one deck; the one-deck check below measures what the \
             independence leaves out."
        ),
        format!(
            "Bids: a seat bids by its four cards' rank class (1,820 classes), mixing levels \
             at fixed shares. The equilibrium is symmetric: every seat plays it. It is solved \
             by fictitious play on exact values, from no class bidding: round t's best \
             response of every class (its lowest level of highest value) is averaged into \
             the strategy with weight {AVERAGING}/(t + {AVERAGING}), until no class gains more \
             than {:e} stakes per hand by changing its bids or {} rounds have run. Nothing \
             in the solve is random.",
            settings.target_exploitability, settings.max_rounds
        ),
        "Exploitability (the certificate): the most one seat gains per hand, in stakes at \
         ×1, by bidding otherwise with its four cards (suits included) while every other \
         seat keeps the equilibrium: Σ over four-card hands of (the best level's value − \
         the equilibrium's value) / 270,725. The class exploitability allows only changes by \
         class. The certificate holds in the model it is computed in, independent decks \
         (above), and its unit is one stake at bid ×1 per hand (a gain at ×3 counts three \
         times its stakes). It says nothing of a one-deck table beyond what the one-deck \
         check measures."
            .to_string(),
        format!(
            "One-deck check: {} tables per class dealt from one deck (the class's four cards, \
             suits drawn evenly, at one seat; the other seats drawing their levels from the \
             equilibrium), every level scored on the same tables, from streams of the job \
             seed and the class. A level counts as better when it beats the class's main bid \
             by more than {CHECK_Z} standard errors.",
            settings.check_deals_per_class
        ),
        "EVs of bids are per stake *including* the multiplier: a banker at ×3 winning one \
         stake from each of 4 players gains 12."
            .to_string(),
    ]
}

/// The `niuniu.bidding` report: the four-card table by the bull already made, the hands
/// that are best as banker, and the bidding model's suggestions.
pub(super) fn build_bidding(
    ranking: &Ranking,
    settings: &BiddingSettings,
    meta: &JobMeta,
    bidding: &Bidding,
    rules: &str,
) -> anyhow::Result<Report> {
    use cardtables::colex::unrank;
    use cardtables::niuniu_bidding::{class_of, FIFTH_CARDS, FOUR_HANDS};
    use cardtables::Card;

    let players = f64::from(settings.players);
    let levels = settings.bids.len() + 1;
    let solve = &bidding.solve;
    let level_name = |l: usize| match l {
        0 => "no bid".to_string(),
        l => format!("×{}", settings.bids[l - 1]),
    };
    // Per made base (None, then 0..=9): hands, fifth cards of no bull and of 牛牛 or
    // better, EV sums, and hands per suggested level.
    struct Row {
        hands: u64,
        no_bull: u64,
        bull_bull_up: u64,
        player: i64,
        banker: i64,
        by_level: Vec<f64>,
    }
    let bull_bull_rank = usize::from(ranking.rank(BULL_BULL));
    let mut rows: Vec<Row> = (0..11)
        .map(|_| Row {
            hands: 0,
            no_bull: 0,
            bull_bull_up: 0,
            player: 0,
            banker: 0,
            by_level: vec![0.0; levels],
        })
        .collect();
    let mut four = [Card::from_id(0).expect("card 0"); 4];
    let mut best: Vec<(i64, u32)> = Vec::with_capacity(FOUR_HANDS);
    for (index, s) in bidding.stats.iter().enumerate() {
        unrank(index as u32, 4, &mut four);
        let row = &mut rows[made_base(&four).map_or(0, |b| usize::from(b) + 1)];
        row.hands += 1;
        row.no_bull += u64::from(s.fifth_cards[usize::from(ranking.rank(NO_BULL))]);
        row.bull_bull_up += s.fifth_cards[bull_bull_rank..]
            .iter()
            .map(|&n| u64::from(n))
            .sum::<u64>();
        row.player += s.player;
        row.banker += s.banker;
        let class = class_of(&four);
        for (level, slot) in row.by_level.iter_mut().enumerate() {
            *slot += solve.strategy[class * levels + level];
        }
        best.push((s.banker, index as u32));
    }
    let row_name = |i: usize| match i {
        0 => "none".to_string(),
        b => format!("{}", b - 1),
    };
    let fifth = f64::from(FIFTH_CARDS);
    let table_rows: Vec<Vec<String>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let n = r.hands as f64;
            let mut cells = vec![
                row_name(i),
                r.hands.to_string(),
                format!("{:.4}", r.no_bull as f64 / (n * fifth)),
                format!("{:.4}", r.bull_bull_up as f64 / (n * fifth)),
                format!("{:+.4}", Bidding::ev(r.player) / n),
                format!("{:+.4}", Bidding::ev(r.banker) / n),
                format!("{:+.4}", players * Bidding::ev(r.banker) / n),
            ];
            cells.extend(r.by_level.iter().map(|&k| format!("{:.3}", k / n)));
            cells
        })
        .collect();

    let mut md = header("Niuniu see-four-cards bidding (看牌抢庄)", meta);
    md.push_str(
        ". The fifth-card odds and every EV at ×1 are exact (all 270,725 four-card hands, \
         each of their 48 fifth cards, every opponent hand from the 47 cards left); the \
         bids are an equilibrium of the bidding model solved on exact values and certified \
         by its exploitability; only the one-deck check is simulated, with standard \
         errors.\n",
    );
    let mut lines = conventions_lines(ranking);
    lines.extend(bidding_lines(settings));
    md.push_str(&conventions(&lines));
    // Every five-card hand is four seen cards and a fifth in five ways: the fifth-card
    // counts of all four-card hands, summed, are five times the five-card counts.
    let mut fifth_sums = vec![0u64; ranking.codes_by_rank.len()];
    for s in &bidding.stats {
        for (sum, &n) in fifth_sums.iter_mut().zip(&s.fifth_cards) {
            *sum += u64::from(n);
        }
    }
    md.push_str(&published_box(&published(ranking, &|code| {
        fifth_sums[usize::from(ranking.rank(code))] as f64 / 5.0
    }))?);
    md.push_str(
        "\nThe box counts five-card hands from this job's fifth-card odds (every five-card \
         hand is four seen cards and a fifth in five ways, so the odds of all four-card \
         hands, summed, count each five-card hand five times). Nothing published prices \
         this table's bidding to check the equilibrium against; its certificate is the \
         exploitability below.\n",
    );
    md.push_str(&format!(
        "\nThe rule set and bidding settings as the tables record them:\n\n```toml\n{rules}```\n"
    ));

    md.push_str(
        "\n## Four cards by the bull they already make\n\n\
         *Made base*: when three of the four cards total a multiple of 10 the hand already \
         has a bull whatever the fifth card, and the base is the four cards' total mod 10 \
         (the bull number if the fifth card is worth 10); *none*: no three of them do, so \
         the fifth card decides whether there is a bull at all. Probabilities are over the \
         48 fifth cards; the last columns are the share of the time the equilibrium bids \
         each level with these hands (exact).\n\n",
    );
    let mut head: Vec<String> = [
        "made base",
        "hands",
        "P(无牛)",
        "P(牛牛 or better)",
        "player EV",
        "banker EV vs 1",
        "banker EV vs table",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    head.extend((0..levels).map(|l| format!("bid {}", level_name(l))));
    let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
    md.push_str(&markdown_table(&head_refs, &table_rows));

    best.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    md.push_str(&format!(
        "\n## The best four cards to hold as banker\n\n\
         The four-card hands with the highest exact banker EV against one player (against \
         the table of {} players it is {} times as much), the best hand of each of the top \
         rank classes (the other suits of a class differ only through the tie-break card), \
         with the bid the equilibrium makes most often:\n\n",
        settings.players, settings.players
    ));
    let mut seen_classes = std::collections::HashSet::new();
    let top_rows: Vec<Vec<String>> = best
        .iter()
        .filter(|&&(_, index)| {
            let mut cards = [Card::from_id(0).expect("card 0"); 4];
            unrank(index, 4, &mut cards);
            seen_classes.insert(class_of(&cards))
        })
        .take(8)
        .map(|&(banker, index)| {
            unrank(index, 4, &mut four);
            let s = &bidding.stats[index as usize];
            let top_two: Vec<String> = {
                let mut ranked: Vec<(u8, usize)> = s.fifth_cards[..ranking.codes_by_rank.len()]
                    .iter()
                    .enumerate()
                    .map(|(r, &n)| (n, r))
                    .filter(|&(n, _)| n > 0)
                    .collect();
                ranked.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
                ranked
                    .iter()
                    .take(2)
                    .map(|&(n, r)| format!("{} {}/48", code_name_zh(ranking.codes_by_rank[r]), n))
                    .collect()
            };
            vec![
                crate::cards::text(&four),
                format!("{:+.6}", Bidding::ev(banker)),
                format!("{:+.6}", players * Bidding::ev(banker)),
                format!("{:+.6}", Bidding::ev(s.player)),
                top_two.join(", "),
                level_name(usize::from(solve.main_level(class_of(&four)))),
            ]
        })
        .collect();
    let sharing_top = best.iter().take_while(|b| b.0 == best[0].0).count();
    md.push_str(&format!(
        "{sharing_top} four-card hands share the highest banker EV, {:+.6} per player \
         (exactly {} / (48 · 1,533,939)).\n\n",
        Bidding::ev(best[0].0),
        best[0].0
    ));
    md.push_str(&markdown_table(
        &[
            "four cards",
            "banker EV vs 1",
            "banker EV vs table",
            "player EV",
            "likeliest fifth-card categories",
            "suggested bid",
        ],
        &top_rows,
    ));

    // The equilibrium: its certificate, the shares, the close calls and the check.
    let bid_share: f64 = rows
        .iter()
        .map(|r| r.hands as f64 - r.by_level[0])
        .sum::<f64>()
        / FOUR_HANDS as f64;
    let all_levels: Vec<String> = (0..levels)
        .map(|l| {
            let share: f64 = rows.iter().map(|r| r.by_level[l]).sum::<f64>() / FOUR_HANDS as f64;
            format!("{} {:.4}", level_name(l), share)
        })
        .collect();
    // Classes that bid a second level at least 0.1% of the time (fictitious play's
    // averaging leaves most classes a trace of early rounds' bids).
    let mixed = (0..CLASSES)
        .filter(|&c| {
            let main = usize::from(solve.main_level(c));
            (0..levels).any(|l| l != main && solve.strategy[c * levels + l] >= 1e-3)
        })
        .count();
    // A class's margin: how much its main level's value exceeds the next best level's.
    let margin = |c: usize| {
        let main = usize::from(solve.main_level(c));
        let v = &solve.values[c * levels..(c + 1) * levels];
        (0..levels)
            .filter(|&l| l != main)
            .map(|l| v[main] - v[l])
            .fold(f64::INFINITY, f64::min)
    };
    let close = (0..CLASSES).filter(|&c| margin(c) < 1e-3).count();
    md.push_str(&format!(
        "\n## The bidding equilibrium\n\n\
         Solved in {} rounds. **Exploitability: {:.3e} stakes per hand** — no seat gains \
         more than that, on average per hand, by bidding otherwise with its four cards \
         while the others keep the equilibrium (`exploitability` in `equilibrium.parquet`). \
         Changing bids by class alone gains at most {:.3e}; the rest is what the suits of \
         the four cards are worth beyond their ranks (the tie-break card's suit), which a \
         strategy by class cannot use (`bid_regret` in `four_cards.parquet`, per hand). The \
         average value of a seat is {:+.1e} stakes per hand: the table's payments sum to \
         zero, so a symmetric equilibrium is worth nothing on average.\n\n\
         In the equilibrium {:.1}% of four-card hands bid; the share of hands at each level: \
         {}. {} of the 1,820 classes bid a second level at least 0.1% of the time (the \
         others' shares off their main bid are traces of early rounds, left by fictitious \
         play's averaging; `share` in `bidding.parquet`); in {} classes the main bid's value exceeds the next \
         best level's by less than 0.001 stakes, close calls a table's small differences \
         from the model could turn.\n\n\
         ![Bid shares by made base]({}/bids.svg)\n",
        solve.rounds,
        solve.exploitability,
        solve.class_exploitability,
        (0..CLASSES)
            .map(|c| bidding.weights[c] * solve.class_value(c))
            .sum::<f64>(),
        100.0 * bid_share,
        all_levels.join(", "),
        mixed,
        close,
        meta.name
    ));
    md.push_str(&match bidding.one_deck_summary() {
        None => "\nNo one-deck check was run (`check_deals_per_class = 0`).\n".to_string(),
        Some(s) if s.classes == 0 => format!(
            "\n**One-deck check.** On {} tables per class dealt from one deck, no class has \
             a level that beats the equilibrium's main bid by more than {CHECK_Z} standard \
             errors. The largest standard error of a class's gain is {:.3} stakes, so a \
             class's one-deck gain of more than about {:.1} stakes (at ×1, per hand of that \
             class) would have shown: that is the smallest gain the check can detect. \
             Smaller ones, and so anything near the exploitability above, are not ruled out: \
             the exact certificate holds in the independent-decks model only. \
             `bidding.parquet` gives every class's one-deck EVs and gains with their \
             standard errors.\n",
            settings.check_deals_per_class,
            s.max_se,
            CHECK_Z * s.max_se
        ),
        Some(s) => format!(
            "\n**One-deck check.** On {} tables per class dealt from one deck, {} classes \
             have a level that beats the equilibrium's main bid by more than {CHECK_Z} \
             standard errors; what those levels gain, weighted by how often \
             the classes are dealt, is {} stakes per hand: an estimate of what dealing from \
             one deck adds to the exploitability (gains within {CHECK_Z} standard errors are \
             not counted; the largest standard error of a class's gain is {:.3} stakes). \
             `bidding.parquet` gives every class's one-deck EVs and gains with their standard \
             errors.\n",
            settings.check_deals_per_class,
            s.classes,
            with_error(s.gain, s.gain_se, false),
            s.max_se
        ),
    });
    md.push_str(
        "\nChecks that hold for these tables (asserted when they are built or in the test \
         suite): every four-card hand's fifth-card counts sum to 48; the fifth-card \
         distribution and EVs equal those of the five-card table for every completion; the \
         banker EV against the table equals a seeded simulation of full tables within four \
         standard errors; the equilibrium's exact values equal a brute-force sum over every \
         rival bid and hand on small games and a seeded simulation of independent seats \
         within four standard errors; the seats' values average to zero.\n\n## Tables\n\n\
         `four_cards.parquet` (one row per four-card hand: `p_<category>` over the 48 fifth \
         cards, the exact EVs, the bid the equilibrium makes most often and its share, what \
         the hand's own best bid gains over its class's), `bidding.parquet` (one row per \
         class and bid level: the equilibrium's share, the exact EV and gain over not \
         bidding, the class's regret, the one-deck check's EV and gain with standard \
         errors), `equilibrium.parquet` (one row: the exploitability, the rounds, the \
         one-deck check's findings) and `niuniu_bidding.bin` (the runtime table: \
         `cardtables::NiuniuBidding`, or `pipeline query niuniu` with four cards).\n",
    );

    let chart_rows: Vec<String> = (0..rows.len())
        .map(|i| format!("base {}", row_name(i)))
        .collect();
    let chart_columns: Vec<String> = (0..levels).map(level_name).collect();
    let shares: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| r.by_level.iter().map(|&k| k / r.hands as f64).collect())
        .collect();
    let chart = heat_grid_svg(
        "The equilibrium's bids by the bull four cards already make (share of hands)",
        &chart_rows,
        &chart_columns,
        &shares,
        (0.0, 1.0),
        "share",
        |v| format!("{v:.2}"),
    );
    let top = best[0];
    unrank(top.1, 4, &mut four);
    let headline = vec![
        format!(
            "best four cards as banker: {} (banker EV {:+.4} per player, exact)",
            crate::cards::text(&four),
            Bidding::ev(top.0)
        ),
        format!(
            "bidding equilibrium: exploitability {:.2e} stakes per hand ({} rounds, exact); {:.1}% of four-card hands bid",
            solve.exploitability,
            solve.rounds,
            100.0 * bid_share
        ),
    ];
    Ok(Report {
        markdown: md,
        charts: vec![("bids.svg".to_string(), chart)],
        headline,
    })
}

/// A sampled probability with its standard error; one every deal agreed on (standard
/// error 0) says so instead of printing ± 0.
fn sampled(p: f64, std_error: f64) -> String {
    match (std_error > 0.0, p) {
        (true, _) => with_error(p, std_error, false),
        (false, p) if p >= 1.0 => "1 (no deal lost)".to_string(),
        (false, p) if p <= 0.0 => "0 (no deal won)".to_string(),
        (false, p) => format!("{p:.6}"),
    }
}

/// A simulated standard deviation with its standard error; one every deal agreed on says
/// so instead of printing ± 0.
fn sd_text(sd: f64, std_error: f64) -> String {
    if std_error > 0.0 {
        with_error(sd, std_error, false)
    } else {
        format!("{sd:.3} (no deal differed)")
    }
}

/// The `niuniu.multiway` report: by category and by strength band, the chance of beating
/// all of 1 to 5 other players and the banker's EV and spread against them, with the
/// curves by category.
pub(super) fn build_multiway(
    ranking: &Ranking,
    settings: &MultiwaySettings,
    meta: &JobMeta,
    results: &[SlotResult],
    rules: &str,
) -> anyhow::Result<Report> {
    let by_category =
        |code: u8, n: usize| group_figures(results.iter().filter(|r| r.code == code), n);
    let codes: Vec<u8> = ranking.codes_by_rank.iter().rev().copied().collect();
    let mut md = header("Niuniu at a full table (通比 and 庄家)", meta);
    md.push_str(&format!(
        ". Against one other player every figure is exact; beating all of 2 to 5 players \
         and the spread of the banker's result are seeded Monte Carlo, {} deals per slot \
         (a slot is a rank multiset and the suit of the tie-break card: every hand of a \
         slot has the same results), with standard errors.\n",
        settings.deals_per_slot
    ));
    let mut lines = conventions_lines(ranking);
    lines.push(
        "通比 (everyone against everyone): a hand wins when it beats every other hand at \
         the table, each comparison settled as above (so two hands never tie). \
         P(beat all N) is that chance against N other players dealt from the same deck."
            .to_string(),
    );
    lines.push(
        "庄家 (one banker against each player): the banker settles with every player \
         separately, at one stake each. Banker EV against N players is exactly N times the \
         one-player banker EV: given the banker's cards each player's hand is a uniform \
         draw from the 47 others whatever the other players hold. The standard deviation \
         of the banker's result is not linear in N (the players' hands are not \
         independent of each other) and is simulated."
            .to_string(),
    );
    md.push_str(&conventions(&lines));
    md.push_str(&published_box(&published(ranking, &|code| {
        results
            .iter()
            .filter(|r| r.code == code)
            .map(|r| f64::from(r.slot.hands))
            .sum()
    }))?);
    md.push_str(
        "\nNothing published gives the chance of beating every one of several players or \
         the banker's spread at a full table that we could check; the box holds the nearest \
         published figures: the category counts of the hands the slots hold, which every \
         figure below is weighted by.\n",
    );
    md.push_str(&format!(
        "\nThe rule set and settings as the tables record them:\n\n```toml\n{rules}```\n"
    ));

    md.push_str("\n## Beating everyone (通比)\n\nP(beat all N other players), by category, strongest first; the hand-weighted mean over the category's hands. Against 1 player it is exact.\n\n");
    let mut head = vec![
        "category".to_string(),
        "中文".to_string(),
        "hands".to_string(),
    ];
    head.extend((1..=MAX_OTHERS).map(|n| format!("vs {n}")));
    let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
    let rows: Vec<Vec<String>> = codes
        .iter()
        .map(|&c| {
            let mut row = vec![
                format!("`{}`", code_name(c)),
                code_name_zh(c).to_string(),
                by_category(c, 1).hands.to_string(),
            ];
            row.extend((1..=MAX_OTHERS).map(|n| {
                let f = by_category(c, n);
                if n == 1 {
                    format!("{:.6}", f.p_beat_all)
                } else {
                    sampled(f.p_beat_all, f.std_error)
                }
            }));
            row
        })
        .collect();
    md.push_str(&markdown_table(&head_refs, &rows));
    let bull_bull = by_category(BULL_BULL, 4);
    md.push_str(&format!(
        "\nA 牛牛 beats all of 4 other players with probability {} (one standard error), \
         against {:.6} for one player (exact).\n\n![P(beat all N) by category]({}/beat_all.svg)\n",
        sampled(bull_bull.p_beat_all, bull_bull.std_error),
        by_category(BULL_BULL, 1).p_beat_all,
        meta.name
    ));

    md.push_str("\n## The banker against a full table (庄家)\n\nThe banker's EV per player stake (exact) and the standard deviation of its result (simulated), against 1 and against 5 players, by the banker's category.\n\n");
    let rows: Vec<Vec<String>> = codes
        .iter()
        .map(|&c| {
            let (one, five) = (by_category(c, 1), by_category(c, MAX_OTHERS));
            vec![
                format!("`{}`", code_name(c)),
                format!("{:+.6}", one.banker_ev),
                sd_text(one.banker_sd, one.banker_sd_se),
                format!("{:+.6}", five.banker_ev),
                sd_text(five.banker_sd, five.banker_sd_se),
            ]
        })
        .collect();
    md.push_str(&markdown_table(
        &[
            "banker's category",
            "EV vs 1",
            "s.d. vs 1",
            "EV vs 5",
            "s.d. vs 5",
        ],
        &rows,
    ));
    let all = |n| group_figures(results.iter(), n);
    // Exactly: the hand-weighted sum of the integer numerators.
    let total: i128 = results
        .iter()
        .map(|r| i128::from(r.slot.hands) * i128::from(r.exact.banker_numerator))
        .sum();
    let banker_five = MAX_OTHERS as f64 * total as f64 / (HANDS as f64 * f64::from(OPPONENT_HANDS));
    md.push_str(&format!(
        "\nOver every banker hand: EV {:+.6} per player stake against 5 players (exact: 5 × \
         the one-player mean{}), standard deviation {} stakes (simulated).\n",
        banker_five,
        if ranking.rules.banker_wins_ties {
            ""
        } else {
            ", which is zero: the settlement is symmetric"
        },
        sd_text(all(MAX_OTHERS).banker_sd, all(MAX_OTHERS).banker_sd_se)
    ));

    let bands = settings.strength_bands;
    let band_of = strength_bands(results, bands);
    md.push_str(&format!(
        "\n## By hand strength\n\n{bands} bands of equal shares of all hands, strongest \
         first (a slot counts in the band that holds its middle hand):\n\n"
    ));
    let rows: Vec<Vec<String>> = (0..bands)
        .rev()
        .map(|b| {
            let f = |n| {
                group_figures(
                    results
                        .iter()
                        .zip(&band_of)
                        .filter(|(_, &x)| x == b)
                        .map(|(r, _)| r),
                    n,
                )
            };
            let mut row = vec![band_label(b, bands), f(1).hands.to_string()];
            row.extend((1..=MAX_OTHERS).map(|n| {
                let g = f(n);
                if n == 1 {
                    format!("{:.4}", g.p_beat_all)
                } else {
                    sampled(g.p_beat_all, g.std_error)
                }
            }));
            row.push(format!("{:+.4}", f(MAX_OTHERS).banker_ev));
            row
        })
        .collect();
    let mut head = vec!["strength percentile".to_string(), "hands".to_string()];
    head.extend((1..=MAX_OTHERS).map(|n| format!("P(beat all {n})")));
    head.push("banker EV vs 5".to_string());
    let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
    md.push_str(&markdown_table(&head_refs, &rows));
    md.push_str(
        "\nChecks that hold for these tables (in the test suite): the simulated chance of \
         beating one player agrees with the exact one within four standard errors, and so \
         does the simulated banker's mean against five players with five times the exact \
         one-player EV, slot by slot.\n\n## Tables\n\n`slots.parquet` (one row per slot and \
         number of other players: `ranks`, `tie_card`, the category, `hands`, \
         `p_beat_all` with `std_error` and `method`, `banker_ev`, `banker_sd` with \
         `banker_sd_se`) and \
         `summary.parquet` (the same per category and per strength band). A hand's slot is \
         its five ranks with its tie-break card (`high_card` in the `niuniu.hands` table, \
         or the ♠ of a bomb's four under `bomb_order = \"quad_rank\"`).\n",
    );

    let lines: Vec<Line> = codes
        .iter()
        .enumerate()
        .map(|(i, &c)| Line {
            name: code_name(c).to_string(),
            points: (1..=MAX_OTHERS)
                .map(|n| (n as f64, by_category(c, n).p_beat_all))
                .collect(),
            colour: i,
            dashed: i >= 8,
        })
        .collect();
    let chart = line_chart_svg(
        "P(beat all N other players), by category",
        "other players N",
        "P(beat all N)",
        &lines,
        &[],
    )?;
    let headline = vec![
        format!(
            "牛牛 beats all of 4 other players: {}",
            sampled(bull_bull.p_beat_all, bull_bull.std_error)
        ),
        format!(
            "banker against 5 players: EV {:+.6}, s.d. {} stakes",
            banker_five,
            sd_text(all(MAX_OTHERS).banker_sd, all(MAX_OTHERS).banker_sd_se)
        ),
    ];
    Ok(Report {
        markdown: md,
        charts: vec![("beat_all.svg".to_string(), chart)],
        headline,
    })
}
