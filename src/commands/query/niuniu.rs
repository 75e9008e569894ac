//! `pipeline query niuniu`: a hand's category, strength, exact win probability and banker
//! EV; for four cards, the see-four-cards bidding answer.

use cardtables::card::quote;
use std::path::PathBuf;

use anyhow::Context;

use super::{open_table, Answer};
use crate::cli::NiuniuQuestion;

pub fn query(q: &NiuniuQuestion, out: &mut Answer) -> anyhow::Result<()> {
    let cards = cardtables::parse_cards(&q.hand)
        .with_context(|| format!("cannot read the hand {}", quote(&q.hand)))?;
    match cards.len() {
        4 => bidding(q, &cards, out),
        _ => {
            // Five cards, or the error that says how many a hand needs.
            let cards = cardtables::card::parse_exact(&q.hand, 5).with_context(|| {
                format!(
                    "cannot read the hand {} (five cards, or four to ask the bidding table)",
                    quote(&q.hand)
                )
            })?;
            hand(q, &cards, out)
        }
    }
}

/// Four seen cards: the fifth-card odds, the exact EVs and the suggested bid.
fn bidding(q: &NiuniuQuestion, cards: &[cardtables::Card], out: &mut Answer) -> anyhow::Result<()> {
    let path = q
        .table
        .clone()
        .unwrap_or_else(|| PathBuf::from("tables/niuniu_bidding/niuniu_bidding.bin"));
    let table = open_table(&path, q.table.is_some(), "niuniu_bidding.toml", |p| {
        cardtables::NiuniuBidding::open(p)
    })?;
    let a = table.lookup(cards)?;
    out.set("hand_index", a.index);
    out.set("cards", crate::cards::text(cards));
    out.set("rank_class", a.rank_class);
    for (info, &n) in table.categories().iter().zip(a.fifth_cards) {
        out.set(&format!("p_{}", info.name), f64::from(n) / 48.0);
    }
    out.set("player_ev", a.player_ev);
    out.set("banker_ev", a.banker_ev);
    out.set("banker_ev_table", a.banker_ev_table);
    out.set("players", table.players());
    out.set("suggested_bid", a.bid);
    let levels: Vec<serde_json::Value> = a
        .bid_evs
        .iter()
        .zip(a.bid_shares)
        .enumerate()
        .map(|(level, (&ev, &share))| {
            let bid = if level == 0 {
                0
            } else {
                table.bids()[level - 1]
            };
            serde_json::json!({"level": level, "bid": bid, "ev_bid": ev, "share": share})
        })
        .collect();
    out.set("bids", levels);
    out.line(format!("four cards:        {}", crate::cards::text(cards)));
    out.line(format!(
        "four-card index:   {} (rank class {})",
        a.index, a.rank_class
    ));
    out.line("fifth card (of 48 unseen) gives:");
    let categories = table.categories();
    for (info, &n) in categories.iter().zip(a.fifth_cards).rev() {
        if n > 0 {
            out.line(format!(
                "  {:<12} {:>2}/48 = {:.4} (×{})",
                info.name,
                n,
                f64::from(n) / 48.0,
                info.multiplier
            ));
        }
    }
    out.line(format!(
        "player EV:         {:+.6} per stake at ×1 (exact)",
        a.player_ev
    ));
    out.line(format!(
        "banker EV:         {:+.6} per stake at ×1 against one player, {:+.6} against {} (exact)",
        a.banker_ev,
        a.banker_ev_table,
        table.players()
    ));
    out.line(
        "EV of each bid (exact, per stake, the other seats playing the equilibrium; share = how often the equilibrium bids it):"
    );
    for (level, (&ev, &share)) in a.bid_evs.iter().zip(a.bid_shares).enumerate() {
        let name = match level {
            0 => "no bid".to_string(),
            l => format!("×{}", table.bids()[l - 1]),
        };
        out.line(format!("  {name:<7} {ev:+.6}  share {share:.6}"));
    }
    out.line(format!(
        "suggested bid:     {}",
        if a.bid == 0 {
            "no bid".to_string()
        } else {
            format!("×{}", a.bid)
        }
    ));
    Ok(())
}

/// Five cards: the hand's category, strength, win probability and banker EV.
fn hand(q: &NiuniuQuestion, cards: &[cardtables::Card], out: &mut Answer) -> anyhow::Result<()> {
    let path = q
        .table
        .clone()
        .unwrap_or_else(|| PathBuf::from("tables/niuniu/niuniu.bin"));
    let table = open_table(&path, q.table.is_some(), "niuniu.toml", |p| {
        cardtables::Niuniu::open(p)
    })?;
    let answer = table.lookup(cards)?;
    let points = cardtables::niuniu::points(cards)?;
    out.set("hand_index", answer.index);
    out.set("cards", crate::cards::text(cards));
    out.set("category", answer.category);
    out.set("category_rank", answer.category_rank);
    out.set("bull", points.bull);
    out.set("point_total", points.point_total);
    out.set("grouping", points.grouping.map(|g| crate::cards::text(&g)));
    out.set("high_card", answer.tie_break.to_string());
    out.set("multiplier", answer.multiplier);
    out.set("strength", answer.strength);
    out.set("wins", answer.wins);
    out.set("win_probability", answer.win_probability);
    out.set("banker_ev", answer.banker_ev);
    out.line(format!("hand:            {}", crate::cards::text(cards)));
    out.line(format!("hand index:      {}", answer.index));
    out.line(format!(
        "category:        {} (rank {})",
        answer.category, answer.category_rank
    ));
    out.line(format!(
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
    ));
    out.line(format!("tie-break card:  {}", answer.tie_break));
    out.line(format!("multiplier:      {}", answer.multiplier));
    out.line(format!("strength:        {}", answer.strength));
    out.line(format!(
        "win probability: {:.6} ({} of {} opponent hands)",
        answer.win_probability,
        answer.wins,
        cardtables::niuniu::OPPONENT_HANDS
    ));
    out.line(format!(
        "banker EV:       {:+.6} per stake (as banker against one player)",
        answer.banker_ev
    ));
    Ok(())
}
