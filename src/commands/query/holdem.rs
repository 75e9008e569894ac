//! `pipeline query holdem`: a starting hand's exact equity against random hands or one
//! named hand and, given a pot, each action's EV.

use std::path::PathBuf;

use cardtables::decision::{ev_call, required_equity};
use cardtables::holdem::{class_of_text, HoldemQueryError};

use super::{
    bet_actions, method_note, open_table, raises, set_bet, set_method, write_actions, Answer,
};
use crate::cli::HoldemQuestion;
use crate::commands::UsageError;
use crate::games::holdem::classes::class_name;
use crate::games::holdem::sampler::MAX_OPPONENTS as MULTIWAY_MAX;

pub fn query(q: &HoldemQuestion, out: &mut Answer) -> anyhow::Result<()> {
    let usage = |e: &dyn std::fmt::Display| UsageError::error(e.to_string());
    let class = class_of_text(&q.hand).map_err(|e| usage(&e))?;
    let bet = &q.bet;
    raises(bet)?;
    let w = if let Some(versus) = &q.versus {
        if q.opponents != 1 {
            return Err(UsageError::error(
                "--opponents is for random opponents: leave it out when naming the opponent's hand",
            ));
        }
        let other = class_of_text(versus).map_err(|e| usage(&e))?;
        let cards = |text: &str| {
            cardtables::card::parse_exact(text, 2)
                .ok()
                .map(|c| [c[0], c[1]])
        };
        let (mine, theirs) = (cards(&q.hand), cards(versus));
        if mine.is_some() != theirs.is_some() {
            return Err(UsageError::error(format!(
                "{:?} and {versus:?} mix a class and two cards: name both hands as cards (As Kd vs Qd Qc) for the exact matchup, or both as classes (AKs vs QQ) for the average over their combinations",
                q.hand
            )));
        }
        let path = q
            .table
            .clone()
            .unwrap_or_else(|| PathBuf::from("tables/holdem_headsup/holdem_headsup.bin"));
        let table = open_table(&path, "holdem_headsup.toml", "--table", |p| {
            cardtables::HoldemHeadsUp::open(p)
        })?;
        match (mine, theirs) {
            (Some(a), Some(b)) => {
                let r = table.cards(a, b).map_err(|e| usage(&e))?;
                out.set("cards_a", crate::cards::text(&a));
                out.set("cards_b", crate::cards::text(&b));
                out.set("class_a", class_name(class));
                out.set("class_b", class_name(other));
                out.set("wins", r.wins);
                out.set("ties", r.ties);
                out.set("losses", r.losses);
                out.set("boards", r.boards);
                out.set("equity_a", r.equity);
                set_method(out, 0.0);
                out.line(format!(
                    "{} {} vs {} {}: wins {}, ties {}, losses {} of {} boards, equity {:.4} (exact)",
                    a[0], a[1], b[0], b[1], r.wins, r.ties, r.losses, r.boards, r.equity
                ));
                r.equity
            }
            _ => {
                let e = table.classes(class, other).map_err(|e| usage(&e))?;
                out.set("class_a", class_name(class));
                out.set("class_b", class_name(other));
                out.set("equity_a", e);
                set_method(out, 0.0);
                out.line(format!(
                    "{} vs {}: equity {e:.4} (exact, averaged over the combos that share no card)",
                    class_name(class),
                    class_name(other)
                ));
                e
            }
        }
    } else {
        let (path, job) = match (&q.table, q.opponents > 1) {
            (Some(p), true) => (p.clone(), "holdem_multiway.toml"),
            (Some(p), false) => (p.clone(), "holdem_preflop.toml"),
            (None, true) => (
                PathBuf::from("tables/holdem_multiway/holdem.bin"),
                "holdem_multiway.toml",
            ),
            (None, false) => (
                PathBuf::from("tables/holdem_preflop/holdem.bin"),
                "holdem_preflop.toml",
            ),
        };
        let table = open_table(&path, job, "--table", |p| cardtables::Holdem::open(p))?;
        let r = match table.preflop(class, q.opponents) {
            Ok(r) => r,
            Err(e @ HoldemQueryError::Opponents { max, .. }) => {
                // Point to the job whose table answers the question.
                let hint = if max < MULTIWAY_MAX {
                    format!(
                        "; against more opponents ask the multiway table: `pipeline run \
                         jobs/holdem_multiway.toml` writes tables/holdem_multiway/holdem.bin \
                         (1 to {MULTIWAY_MAX} opponents), which this query reads by default \
                         when --table is left out"
                    )
                } else {
                    String::new()
                };
                return Err(usage(&format!("--opponents: {e}{hint}")));
            }
            Err(e) => return Err(e.into()),
        };
        out.set("class", class_name(class));
        out.set("opponents", q.opponents);
        out.set("win", r.win);
        out.set("tie", r.tie);
        out.set("equity", r.equity);
        set_method(out, r.std_error);
        out.line(format!(
            "{} vs {} random hand{}: win {:.4}, tie {:.4}, equity {:.4}{}",
            class_name(class),
            q.opponents,
            if q.opponents == 1 { "" } else { "s" },
            r.win,
            r.tie,
            r.equity,
            method_note(r.std_error)
        ));
        r.equity
    };
    set_bet(out, bet);
    out.set("required_equity", required_equity(bet.pot, bet.call));
    out.line(format!(
        "needs equity {:.4} to call",
        required_equity(bet.pot, bet.call)
    ));
    write_actions(out, bet_actions(bet, w, ev_call(w, bet.pot, bet.call))?);
    Ok(())
}
