//! `pipeline query zhajinhua`: a hand's exact win / tie / loss and each action's EV, with
//! raises priced against the hands that call them, and the best raise along a fold curve.

use anyhow::Context;
use cardtables::card::quote;
use cardtables::decision::{ev_call, ev_raise_article, optimum_raise, required_equity, Betting};
use cardtables::zhajinhua::RANGE_OPPONENTS;

use super::{method_note, open_table, raises, set_bet, set_method, write_actions, Answer, Priced};
use crate::cli::ZhajinhuaQuestion;
use crate::commands::UsageError;

pub fn query(q: &ZhajinhuaQuestion, out: &mut Answer) -> anyhow::Result<()> {
    // Amounts and the fold rate are range-checked by clap; what is left relates them.
    let bet = &q.bet;
    let raises = raises(bet)?;
    let cost = q.compare.unwrap_or(bet.call);
    let cap = match q.cap {
        Some(cap) if cap < bet.call => {
            return Err(UsageError::error(format!(
                "--cap {cap} must be at least the call ({})",
                bet.call
            )))
        }
        Some(cap) => cap,
        // The default cap is 5 × the pot, raised to the call where the call is larger,
        // so a large --call never trips a limit the user did not set.
        None => (5.0 * bet.pot).max(bet.call),
    };
    let cards = cardtables::card::parse_exact(&q.hand, 3)
        .with_context(|| format!("cannot read the hand {}", quote(&q.hand)))?;
    let path = q
        .table
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("tables/zhajinhua/zhajinhua.bin"));
    let table = open_table(&path, q.table.is_some(), "zhajinhua.toml", |p| {
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
    out.set("cards", crate::cards::text(&cards));
    out.set("category", answer.category.to_string());
    out.set("strength", answer.strength);
    out.set("opponents", answer.opponents);
    out.set("win", answer.win);
    out.set("tie", answer.tie);
    out.set("loss", answer.loss);
    out.set("equity", w);
    set_method(out, answer.std_error);
    set_bet(out, bet);
    out.set("required_equity", required_equity(bet.pot, bet.call));
    out.set("caller_view", if q.blind { "blind" } else { "seen" });
    out.line(format!(
        "hand:        {} ({}, strength {})",
        shown.join(" "),
        answer.category,
        answer.strength
    ));
    out.line(format!("opponents:   {}", answer.opponents));
    out.line(format!(
        "win / tie / loss: {:.6} / {:.6} / {:.6}{}",
        answer.win,
        answer.tie,
        answer.loss,
        method_note(answer.std_error)
    ));
    out.line(format!("equity:      {w:.6}"));
    out.line(format!(
        "pot {} · call {} · needs equity {:.4} to call",
        bet.pot,
        bet.call,
        required_equity(bet.pot, bet.call)
    ));
    // Who calls a raise: the strongest hands, priced exactly for one and two opponents
    // (who call or fold together); beyond, the table has no ranges and callers are
    // taken as random hands.
    let ranged = q.opponents <= RANGE_OPPONENTS;
    let curve = table
        .calling_range(&cards)
        .map_err(|e| UsageError::error(e.to_string()))?;
    let vs = |share: f64| -> Option<f64> {
        if ranged {
            curve.equity(q.opponents, share).ok()
        } else {
            Some(w)
        }
    };
    let breaks: Vec<f64> = if ranged {
        curve.breaks().collect()
    } else {
        Vec::new()
    };
    let betting = Betting {
        seen_multiplier: q.seen_multiplier,
        opponents_blind: q.blind,
        // The comparison is priced in chips (`cost`), not as a multiple of the call.
        showdown_cost: 1.0,
        showdown_both_pay: q.both_pay,
        // Every opponent calls or folds a raise: each caller adds its share.
        callers: q.opponents as u32,
    };
    if q.blind {
        out.line(format!(
            "opponents:   blind: they pay 1/{} of our chips for a stake and call with any hand",
            q.seen_multiplier
        ));
    }
    let share = betting.calling_share(bet.fold);
    let mut actions = vec![
        Priced::new("fold", "fold", 0.0),
        Priced::new(
            "call",
            format!("call {}", bet.call),
            ev_call(w, bet.pot, bet.call),
        )
        .with("call", bet.call),
    ];
    for &r in &raises {
        let label = if q.blind {
            format!(
                "raise to {r} (fold {:.0}%; blind callers: any hand, equity {w:.4})",
                100.0 * bet.fold
            )
        } else if ranged {
            match vs(share) {
                Some(e) => format!(
                    "raise to {r} (fold {:.0}%; callers: top {} %, equity {e:.4})",
                    100.0 * bet.fold,
                    percent(share)
                ),
                None => format!(
                    "raise to {r} (fold {:.0}%; no hand of the top {} % can be dealt beside \
                     ours: nobody calls)",
                    100.0 * bet.fold,
                    percent(share)
                ),
            }
        } else {
            format!(
                "raise to {r} (fold {:.0}%; callers as random hands)",
                100.0 * bet.fold
            )
        };
        // The given fold rate (not the curve's), priced at its calling range's equity;
        // nobody can call where no range hand can be dealt beside ours.
        let callers = (share > 0.0).then(|| vs(share)).flatten();
        let ev = match callers {
            Some(e) => betting.ev_raise(e, bet.pot, bet.call, r, bet.fold),
            None => bet.pot,
        };
        let mut priced = Priced::new("raise", label, ev)
            .with("raise_to", r)
            .with("fold_rate", bet.fold)
            .with("calling_share", share)
            .with("callers_equity", callers)
            .with(
                "ev_raise_article_formula",
                (!q.blind).then(|| ev_raise_article(w, bet.pot, r, bet.fold)),
            );
        if q.blind || !ranged {
            priced = priced.with("calling_share", serde_json::Value::Null);
        }
        actions.push(priced);
    }
    actions.push(
        Priced::new(
            "compare",
            format!(
                "compare, cost {cost}{} (heads-up win {:.4})",
                if q.both_pay {
                    ", the opponent paying its share too"
                } else {
                    ""
                },
                heads_up.win
            ),
            betting.ev_compare(heads_up.equity, bet.pot, cost),
        )
        .with("compare_cost", cost),
    );
    write_actions(out, actions);
    let best = optimum_raise(bet.pot, bet.call, q.max_fold, cap, &betting, vs, &breaks);
    out.set(
        "best_raise",
        serde_json::json!({
            "raise_to": best.raise_to,
            "at_cap": best.at_cap,
            "fold_rate": best.fold,
            "calling_share": (ranged && !q.blind).then_some(best.calling_share),
            "callers_equity": best.equity,
            "ev": best.ev,
            "max_fold": q.max_fold,
            "cap": cap,
        }),
    );
    out.line(format!(
        "best raise if folds grow with the raise, f(R) = {}·(R − C)/(R − C + P), up to {cap}: raise to {:.2}{} (fold {:.1}%, callers {}, equity {:.4}): EV {:+.3} (the optimum over every raise up to the cap)",
        q.max_fold,
        best.raise_to,
        if best.at_cap { ", the cap" } else { "" },
        100.0 * best.fold,
        if q.blind {
            "any hand".to_string()
        } else if ranged {
            format!("top {} %", percent(best.calling_share))
        } else {
            // Beyond two opponents the table has no ranges: the equity is against random
            // hands, whatever the fold rate, and the line must not name a range.
            "as random hands".to_string()
        },
        best.equity,
        best.ev
    ));
    for &r in raises.iter().filter(|_| !q.blind) {
        out.line(format!(
            "  (the article's raise formula for {r} would say {:+.3}: it forgets the opponent's call and that callers hold strong hands)",
            ev_raise_article(w, bet.pot, r, bet.fold)
        ));
    }
    Ok(())
}

/// A calling share as a percentage, with as many decimals as it needs (up to 4).
fn percent(share: f64) -> String {
    let text = format!("{:.4}", 100.0 * share);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
