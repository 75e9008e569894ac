//! `pipeline query niuniu`: a hand's category, strength and exact win probability.

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
    let shown: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    println!("hand:            {}", shown.join(" "));
    println!("hand index:      {}", answer.index);
    println!(
        "category:        {} (rank {})",
        answer.category, answer.category_rank
    );
    println!("multiplier:      {}", answer.multiplier);
    println!("strength:        {}", answer.strength);
    println!(
        "win probability: {:.6} ({} of {} opponent hands)",
        answer.win_probability,
        answer.wins,
        cardtables::niuniu::OPPONENT_HANDS
    );
    Ok(())
}
