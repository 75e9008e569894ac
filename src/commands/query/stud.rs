//! `pipeline query stud`: exact outs, win / tie probabilities and the EV of a call.

use anyhow::Context;
use cardtables::card::quote;
use cardtables::decision::{break_even_outs, ev_call_implied, hit_probability, required_equity};

use super::{bet_actions, raises, set_bet, write_actions, Answer};
use crate::cli::StudQuestion;
use crate::commands::UsageError;
use crate::games::stud::outs::{analyse, Situation};
use crate::games::stud::rules::StudRules;

pub fn query(q: &StudQuestion, out: &mut Answer) -> anyhow::Result<()> {
    let rules = StudRules {
        deck: q.deck,
        flush_beats_full_house: q.flush_beats_full_house,
        ace_low_straight: !q.no_ace_low_straight,
        suit_order_breaks_ties: q.suit_order,
    };
    let read = |what: &str, text: &str| {
        cardtables::parse_cards(text).with_context(|| format!("cannot read {what} {}", quote(text)))
    };
    let situation = Situation {
        mine: read("your hand", &q.hand)?,
        theirs: read("the opponent's cards", &q.versus)?,
        seen: read("--seen", &q.seen)?,
        rules,
    };
    if let Some(k) = q.to_come {
        if situation.mine.len() + k != 5 {
            return Err(UsageError::error(format!(
                "--to-come {k} with {} cards in hand does not make a five-card hand",
                situation.mine.len()
            )));
        }
    }
    let bet = &q.bet;
    raises(bet)?;
    let a = analyse(&situation).map_err(|e| UsageError::error(e.to_string()))?;
    let show = |cards: &[cardtables::Card]| {
        cards
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    out.set("cards", crate::cards::text(&situation.mine));
    out.set("versus", crate::cards::text(&situation.theirs));
    out.set("seen", crate::cards::text(&situation.seen));
    out.set("deck", rules.deck);
    out.set("cards_to_come", a.my_draws);
    out.set("versus_to_come", a.their_draws);
    out.set("unseen", a.unseen);
    out.set("deals", a.deals);
    out.set("win", a.win());
    out.set("tie", a.tie());
    out.set("loss", 1.0 - a.win() - a.tie());
    out.set("equity", a.equity());
    out.set("method", "exact");
    out.line(format!(
        "mine: {} (+{} to come) · theirs: {} (+{} to come) · {} unseen in the {}-card deck",
        show(&situation.mine),
        a.my_draws,
        show(&situation.theirs),
        a.their_draws,
        a.unseen,
        rules.deck
    ));
    out.line(format!(
        "exact over {} deals: win {:.4}, tie {:.4}, lose {:.4}",
        a.deals,
        a.win(),
        a.tie(),
        1.0 - a.win() - a.tie()
    ));
    if a.my_draws > 0 {
        out.set("outs", a.outs.len());
        out.set("out_cards", crate::cards::text(&a.outs));
        out.set(
            "hit_probability",
            hit_probability(a.outs.len() as u32, a.unseen as u32, a.my_draws as u32),
        );
        out.line(format!("outs ({}): {}", a.outs.len(), show(&a.outs)));
        out.line(format!(
            "outs formula 1 - C({}-{o}, {k})/C({}, {k}) = {:.4}{}",
            a.unseen,
            a.unseen,
            hit_probability(a.outs.len() as u32, a.unseen as u32, a.my_draws as u32),
            if a.their_draws > 0 || a.my_draws > 1 {
                " (the exact figure above also counts the opponent's draws and runner-runner hands)"
            } else {
                ""
            },
            o = a.outs.len(),
            k = a.my_draws
        ));
    }
    let p = a.equity();
    set_bet(out, bet);
    out.set("implied", q.implied);
    out.set(
        "required_equity",
        required_equity(bet.pot + q.implied, bet.call),
    );
    out.line(format!(
        "pot {} · call {} · implied {}: needs equity {:.4} to call",
        bet.pot,
        bet.call,
        q.implied,
        // Implied winnings count as pot the call can win.
        required_equity(bet.pot + q.implied, bet.call),
    ));
    write_actions(
        out,
        bet_actions(bet, p, ev_call_implied(p, bet.pot, bet.call, q.implied))?,
    );
    if a.my_draws > 0 {
        match break_even_outs(
            bet.pot,
            bet.call,
            q.implied,
            a.unseen as u32,
            a.my_draws as u32,
        ) {
            Some(o) => {
                out.set("break_even_outs", o);
                out.line(format!("break-even outs for these odds: {o}"))
            }
            None => {
                out.set("break_even_outs", serde_json::Value::Null);
                out.line("break-even outs for these odds: none (no number of outs pays)")
            }
        }
    }
    Ok(())
}
