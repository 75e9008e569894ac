//! `pipeline query holdem`: a starting hand's exact equity against random hands or one
//! named hand, or two cards' strength on a board, and, given a pot, each action's EV.

use cardtables::card::quote;
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
    if let Some(board) = &q.board {
        return strength(q, board, out);
    }
    if let Some(third) = &q.third {
        return three_way(q, third, out);
    }
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
                "{} and {} mix a class and two cards: name both hands as cards (As Kd vs Qd Qc) for the exact matchup, or both as classes (AKs vs QQ) for the average over their combinations",
                quote(&q.hand),
                quote(versus)
            )));
        }
        let path = q
            .table
            .clone()
            .unwrap_or_else(|| PathBuf::from("tables/holdem_headsup/holdem_headsup.bin"));
        let table = open_table(&path, q.table.is_some(), "holdem_headsup.toml", |p| {
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
        if !(1..=MULTIWAY_MAX).contains(&q.opponents) {
            return Err(UsageError::error(format!(
                "--opponents {}: ask against 1 to {MULTIWAY_MAX} random hands",
                q.opponents
            )));
        }
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
        let table = open_table(&path, q.table.is_some(), job, |p| {
            cardtables::Holdem::open(p)
        })?;
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
    price(out, bet, w, "")
}

/// The equity a call needs, then every action priced at equity `w`; `why` ends the
/// needed-equity line.
fn price(out: &mut Answer, bet: &crate::cli::Bet, w: f64, why: &str) -> anyhow::Result<()> {
    set_bet(out, bet);
    out.set("required_equity", required_equity(bet.pot, bet.call));
    out.line(format!(
        "needs equity {:.4} to call{why}",
        required_equity(bet.pot, bet.call)
    ));
    write_actions(out, bet_actions(bet, w, ev_call(w, bet.pot, bet.call))?);
    Ok(())
}

/// Two cards' strength on a board from the `holdem.postflop` table of its street: E[HS],
/// E[HS²] and the histogram (HS on the river), then the actions priced at E[HS], the
/// showdown equity against one random hand.
fn strength(q: &HoldemQuestion, board: &str, out: &mut Answer) -> anyhow::Result<()> {
    use cardtables::holdem_strength::{HoldemStrength, STREET_NAMES};
    let usage = |e: &dyn std::fmt::Display| UsageError::error(e.to_string());
    if q.versus.is_some() || q.opponents != 1 {
        return Err(UsageError::error(
            "--board answers against one random hand: leave out VERSUS and --opponents",
        ));
    }
    let hole = cardtables::card::parse_exact(&q.hand, 2).map_err(|e| {
        usage(&format!(
            "HAND {}: with --board, name two cards (Ah Kh): {e}",
            quote(&q.hand)
        ))
    })?;
    let cards = cardtables::parse_cards(board).map_err(|e| usage(&format!("--board: {e}")))?;
    let street = match cards.len() {
        3 => 1,
        4 => 2,
        5 => 3,
        n => {
            return Err(usage(&format!(
                "--board has {n} cards: a flop has 3, a turn 4, a river 5"
            )))
        }
    };
    if let Some(c) = cards.iter().find(|c| hole.contains(c)) {
        return Err(usage(&format!("{c} is both in HAND and on the board")));
    }
    let name = STREET_NAMES[street];
    let path = q
        .table
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("tables/holdem_postflop/strength_{name}.bin")));
    let table = open_table(&path, q.table.is_some(), "holdem_postflop.toml", |p| {
        HoldemStrength::open(p)
    })?;
    let s = table.strength(&hole, &cards).map_err(|e| usage(&e))?;
    out.set("hole", crate::cards::text(&hole));
    out.set("board", crate::cards::text(&cards));
    out.set("street", name);
    out.set("index", s.index);
    out.set("runouts", s.runouts);
    out.set("score_sum", s.score_sum);
    out.set("score_sq_sum", s.score_sq_sum);
    set_method(out, 0.0);
    let shown = format!(
        "{} on {} ({name})",
        crate::cards::text(&hole),
        crate::cards::text(&cards)
    );
    if street == 3 {
        out.set("wins", s.wins);
        out.set("ties", s.ties);
        out.set("losses", s.losses);
        out.set("hs", s.ehs);
        out.line(format!(
            "{shown}: HS {:.6} against one random hand: wins {}, ties {}, losses {} of 990 (exact)",
            s.ehs, s.wins, s.ties, s.losses
        ));
    } else {
        let mut hist = vec![0u64; table.bins()];
        table
            .histogram(&hole, &cards, &mut hist)
            .map_err(|e| usage(&e))?;
        out.set("ehs", s.ehs);
        out.set("ehs2", s.ehs2);
        out.set("histogram", hist.clone());
        out.line(format!(
            "{shown}: E[HS] {:.6}, E[HS²] {:.6} against one random hand over {} runouts (exact)",
            s.ehs, s.ehs2, s.runouts
        ));
        let width = 1.0 / hist.len() as f64;
        out.line(format!(
            "river HS histogram ({} bins of {width}, runouts per bin, lowest first):",
            hist.len()
        ));
        let counts: Vec<String> = hist.iter().map(u64::to_string).collect();
        for chunk in counts.chunks(10) {
            out.line(format!("  {}", chunk.join(" ")));
        }
    }
    raises(&q.bet)?;
    price(
        out,
        &q.bet,
        s.ehs,
        " (E[HS] is the showdown equity against one random hand)",
    )
}

/// Three classes' exact all-in equities against each other, from a `holdem.threeway`
/// table, in the order asked.
fn three_way(q: &HoldemQuestion, third: &str, out: &mut Answer) -> anyhow::Result<()> {
    use cardtables::holdem_threeway::{HoldemThreeWay, ThreeWayQueryError};
    let usage = |e: &dyn std::fmt::Display| UsageError::error(e.to_string());
    if q.opponents != 1 {
        return Err(UsageError::error(
            "--opponents is for random opponents: leave it out when naming three hands",
        ));
    }
    let versus = q.versus.as_deref().unwrap_or_default();
    let mut classes = [0usize; 3];
    for (slot, text) in classes.iter_mut().zip([q.hand.as_str(), versus, third]) {
        if cardtables::card::parse_exact(text, 2).is_ok() {
            return Err(usage(&format!(
                "{}: three-way equities are by class (AKs, QQ, JTs), not two cards",
                quote(text)
            )));
        }
        *slot = class_of_text(text).map_err(|e| usage(&e))?;
    }
    let path = q
        .table
        .clone()
        .unwrap_or_else(|| PathBuf::from("tables/holdem_threeway/holdem_threeway.bin"));
    let table = open_table(&path, q.table.is_some(), "holdem_threeway.toml", |p| {
        HoldemThreeWay::open(p)
    })?;
    let r = match table.equity(classes[0], classes[1], classes[2]) {
        Ok(r) => r,
        Err(ThreeWayQueryError::NotCovered(c)) => {
            return Err(usage(&format!(
                "{} has no triples in {} (its job lists the classes it covers; `pipeline \
                 inspect` shows them): the table of all 169 classes comes from `pipeline run \
                 jobs/holdem_threeway.toml`",
                class_name(c),
                path.display()
            )))
        }
        Err(e) => return Err(usage(&e)),
    };
    let (equity, deals) = (r.equities(), r.combos);
    let names: Vec<String> = classes.iter().map(|&c| class_name(c)).collect();
    out.set("classes", names.clone());
    out.set("equity", equity.to_vec());
    out.set("combos", deals);
    set_method(out, 0.0);
    out.line(format!(
        "{} vs {} vs {}: equity {:.4} / {:.4} / {:.4} (exact, over {deals} deals of \
         holdings that share no card and every board)",
        names[0], names[1], names[2], equity[0], equity[1], equity[2]
    ));
    Ok(())
}
