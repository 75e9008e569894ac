//! `pipeline query zhajinhua`: a hand's exact win / tie / loss and each action's EV.

use anyhow::Context;
use cardtables::decision::{
    ev_call, ev_compare, ev_raise_article, half_kelly, kelly, required_equity,
};

use super::{bet_actions, method_note, open_table, print_actions, raises};
use crate::cli::ZhajinhuaQuestion;
use crate::commands::UsageError;

pub fn query(q: &ZhajinhuaQuestion) -> anyhow::Result<()> {
    // Amounts and the fold rate are range-checked by clap; what is left relates them.
    let bet = &q.bet;
    let raises = raises(bet)?;
    let cost = q.compare.unwrap_or(bet.call);
    let cards = cardtables::card::parse_exact(&q.hand, 3)
        .with_context(|| format!("cannot read the hand {:?}", q.hand))?;
    let table = open_table(&q.table, "zhajinhua.toml", "--table", |p| {
        cardtables::Zhajinhua::open(p)
    })?;
    let answer = match table.win_rate(&cards, q.opponents) {
        Ok(a) => a,
        Err(cardtables::zhajinhua::QueryError::Cards(e)) => return Err(e.into()),
        Err(e) => return Err(UsageError::error(e.to_string())),
    };
    let heads_up = table
        .win_rate(&cards, 1)
        .map_err(|e| UsageError::error(e.to_string()))?;
    let w = answer.equity;
    let shown: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    println!(
        "hand:        {} ({}, strength {})",
        shown.join(" "),
        answer.category,
        answer.strength
    );
    println!("opponents:   {}", answer.opponents);
    println!(
        "win / tie / loss: {:.6} / {:.6} / {:.6}{}",
        answer.win,
        answer.tie,
        answer.loss,
        method_note(answer.std_error)
    );
    println!("equity:      {w:.6}");
    println!(
        "pot {} · call {} · needs equity {:.4} to call",
        bet.pot,
        bet.call,
        required_equity(bet.pot, bet.call)
    );
    let mut actions = bet_actions(bet, w, ev_call(w, bet.pot, bet.call))?;
    actions.push((
        format!("compare, cost {cost} (heads-up win {:.4})", heads_up.win),
        ev_compare(heads_up.equity, bet.pot, cost),
    ));
    print_actions(&actions);
    for &r in &raises {
        println!(
            "  (the article's raise formula for {r} would say {:+.3}: it forgets the opponent's call)",
            ev_raise_article(w, bet.pot, r, bet.fold)
        );
    }
    if bet.call > 0.0 {
        let odds = bet.pot / bet.call;
        println!(
            "Kelly fraction for this call at odds {odds:.2}:1: {:.4} (half-Kelly {:.4})",
            kelly(odds, w),
            half_kelly(odds, w)
        );
    }
    Ok(())
}
