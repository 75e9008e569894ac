//! `pipeline query zhajinhua`: a hand's exact win / tie / loss and each action's EV.

use anyhow::Context;
use cardtables::decision::{
    ev_call, ev_compare, ev_raise, ev_raise_article, half_kelly, kelly, required_equity, EV_FOLD,
};

use super::{method_note, open_table, print_actions};
use crate::cli::ZhajinhuaQuestion;
use crate::commands::UsageError;

pub fn query(q: &ZhajinhuaQuestion) -> anyhow::Result<()> {
    // Amounts and the fold rate are range-checked by clap; what is left relates them.
    let raises = if q.raises.is_empty() {
        vec![2.0 * q.call.max(1.0), 3.0 * q.call.max(1.0), q.call + q.pot]
    } else {
        q.raises.clone()
    };
    if let Some(r) = raises.iter().find(|r| **r < q.call) {
        return Err(UsageError::error(format!(
            "--raise {r} must be at least the call ({})",
            q.call
        )));
    }
    let cost = q.compare.unwrap_or(q.call);
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
        q.pot,
        q.call,
        required_equity(q.pot, q.call)
    );
    let mut actions: Vec<(String, f64)> = vec![
        ("fold".to_string(), EV_FOLD),
        (format!("call {}", q.call), ev_call(w, q.pot, q.call)),
    ];
    for &r in &raises {
        actions.push((
            format!("raise to {r} (fold {:.0}%)", 100.0 * q.fold),
            ev_raise(w, q.pot, q.call, r, q.fold),
        ));
    }
    actions.push((
        format!("compare, cost {cost} (heads-up win {:.4})", heads_up.win),
        ev_compare(heads_up.equity, q.pot, cost),
    ));
    print_actions(&actions);
    for &r in &raises {
        println!(
            "  (the article's raise formula for {r} would say {:+.3}: it forgets the opponent's call)",
            ev_raise_article(w, q.pot, r, q.fold)
        );
    }
    if q.call > 0.0 {
        let odds = q.pot / q.call;
        println!(
            "Kelly fraction for this call at odds {odds:.2}:1: {:.4} (half-Kelly {:.4})",
            kelly(odds, w),
            half_kelly(odds, w)
        );
    }
    Ok(())
}
