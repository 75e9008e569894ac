//! `pipeline query niuniu`: a hand's category, strength, exact win probability and banker
//! EV; for four cards, the see-four-cards bidding answer.

use std::path::PathBuf;

use anyhow::Context;

use super::open_table;
use crate::cli::NiuniuQuestion;

pub fn query(q: &NiuniuQuestion) -> anyhow::Result<()> {
    let cards = cardtables::parse_cards(&q.hand)
        .with_context(|| format!("cannot read the hand {:?}", q.hand))?;
    match cards.len() {
        4 => bidding(q, &cards),
        _ => {
            // Five cards, or the error that says how many a hand needs.
            let cards = cardtables::card::parse_exact(&q.hand, 5).with_context(|| {
                format!(
                    "cannot read the hand {:?} (five cards, or four to ask the bidding table)",
                    q.hand
                )
            })?;
            hand(q, &cards)
        }
    }
}

/// Four seen cards: the fifth-card odds, the exact EVs and the suggested bid.
fn bidding(q: &NiuniuQuestion, cards: &[cardtables::Card]) -> anyhow::Result<()> {
    let path = q
        .table
        .clone()
        .unwrap_or_else(|| PathBuf::from("tables/niuniu_bidding/niuniu_bidding.bin"));
    let table = open_table(&path, "niuniu_bidding.toml", "--table", |p| {
        cardtables::NiuniuBidding::open(p)
    })?;
    let a = table.lookup(cards)?;
    println!("four cards:        {}", crate::cards::text(cards));
    println!(
        "four-card index:   {} (rank class {})",
        a.index, a.rank_class
    );
    println!("fifth card (of 48 unseen) gives:");
    let categories = table.categories();
    for (info, &n) in categories.iter().zip(a.fifth_cards).rev() {
        if n > 0 {
            println!(
                "  {:<12} {:>2}/48 = {:.4} (×{})",
                info.name,
                n,
                f64::from(n) / 48.0,
                info.multiplier
            );
        }
    }
    println!(
        "player EV:         {:+.6} per stake at ×1 (exact)",
        a.player_ev
    );
    println!(
        "banker EV:         {:+.6} per stake at ×1 against one player, {:+.6} against {} (exact)",
        a.banker_ev,
        a.banker_ev_table,
        table.players()
    );
    println!(
        "EV of each bid (exact, per stake, the other seats playing the equilibrium; share = how often the equilibrium bids it):"
    );
    for (level, (&ev, &share)) in a.bid_evs.iter().zip(a.bid_shares).enumerate() {
        let name = match level {
            0 => "no bid".to_string(),
            l => format!("×{}", table.bids()[l - 1]),
        };
        println!("  {name:<7} {ev:+.6}  share {share:.6}");
    }
    println!(
        "suggested bid:     {}",
        if a.bid == 0 {
            "no bid".to_string()
        } else {
            format!("×{}", a.bid)
        }
    );
    Ok(())
}

/// Five cards: the hand's category, strength, win probability and banker EV.
fn hand(q: &NiuniuQuestion, cards: &[cardtables::Card]) -> anyhow::Result<()> {
    let path = q
        .table
        .clone()
        .unwrap_or_else(|| PathBuf::from("tables/niuniu/niuniu.bin"));
    let table = open_table(&path, "niuniu.toml", "--table", |p| {
        cardtables::Niuniu::open(p)
    })?;
    let answer = table.lookup(cards)?;
    let points = cardtables::niuniu::points(cards)?;
    println!("hand:            {}", crate::cards::text(cards));
    println!("hand index:      {}", answer.index);
    println!(
        "category:        {} (rank {})",
        answer.category, answer.category_rank
    );
    println!(
        "points:          {}{}",
        points.point_total,
        match (points.bull, points.grouping) {
            (Some(bull), Some(group)) => format!(
                ", bull {} (the group {} makes a multiple of 10)",
                if bull == 0 {
                    "牛牛".to_string()
                } else {
                    bull.to_string()
                },
                crate::cards::text(&group)
            ),
            _ => ", no bull (no three cards make a multiple of 10)".to_string(),
        }
    );
    println!("tie-break card:  {}", answer.tie_break);
    println!("multiplier:      {}", answer.multiplier);
    println!("strength:        {}", answer.strength);
    println!(
        "win probability: {:.6} ({} of {} opponent hands)",
        answer.win_probability,
        answer.wins,
        cardtables::niuniu::OPPONENT_HANDS
    );
    println!(
        "banker EV:       {:+.6} per stake (as banker against one player)",
        answer.banker_ev
    );
    Ok(())
}
