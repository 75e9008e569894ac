//! `pipeline query niuniu`: a hand's category, strength, exact win probability and banker
//! EV.

use anyhow::Context;

use super::open_table;
use crate::cli::NiuniuQuestion;

pub fn query(q: &NiuniuQuestion) -> anyhow::Result<()> {
    let cards = cardtables::card::parse_exact(&q.hand, 5)
        .with_context(|| format!("cannot read the hand {:?}", q.hand))?;
    let table = open_table(&q.table, "niuniu.toml", "--table", |p| {
        cardtables::Niuniu::open(p)
    })?;
    let answer = table.lookup(&cards)?;
    let points = cardtables::niuniu::points(&cards)?;
    println!("hand:            {}", crate::cards::text(&cards));
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
