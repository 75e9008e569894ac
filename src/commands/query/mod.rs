//! `pipeline query <game>`: questions answered from a runtime table, one file per game,
//! with the printing they share (the action list, the exact / Monte Carlo note).
//!
//! Every answer is written once, through an [`Answer`]: as lines a person reads, or with
//! `--json` as one JSON object whose fields carry the names of the Parquet columns that
//! hold the same figures (`docs/tables.md`).

mod blackjack;
mod holdem;
mod niuniu;
mod pushfold;
mod stud;
mod zhajinhua;

use serde_json::{Map, Value};

use crate::cli::QueryGame;

/// Answers one `pipeline query` question, as text or (`json`) as one JSON object.
pub fn query(game: QueryGame, json: bool) -> anyhow::Result<()> {
    let (name, mut out) = (game.name(), Answer::new(json));
    out.set("query", name);
    match game {
        QueryGame::Blackjack(q) => blackjack::query(&q, &mut out),
        QueryGame::Niuniu(q) => niuniu::query(&q, &mut out),
        QueryGame::Holdem(q) => holdem::query(&q, &mut out),
        QueryGame::Pushfold(q) => pushfold::query(&q, &mut out),
        QueryGame::Stud(q) => stud::query(&q, &mut out),
        QueryGame::Zhajinhua(q) => zhajinhua::query(&q, &mut out),
    }?;
    out.finish();
    Ok(())
}

/// One answer being written: text lines go to stdout at once, unless the answer is JSON,
/// whose fields are printed together at the end.
pub(super) struct Answer {
    json: bool,
    fields: Map<String, Value>,
}

impl Answer {
    fn new(json: bool) -> Answer {
        Answer {
            json,
            fields: Map::new(),
        }
    }

    /// A line of the text answer (nothing with `--json`).
    pub(super) fn line(&mut self, text: impl AsRef<str>) {
        if !self.json {
            println!("{}", text.as_ref());
        }
    }

    /// A field of the JSON answer, named as the Parquet column of the same figure where
    /// one exists. A non-finite number is written as null.
    pub(super) fn set(&mut self, name: &str, value: impl Into<Value>) {
        self.fields.insert(name.to_string(), value.into());
    }

    fn finish(self) {
        if self.json {
            println!("{}", Value::Object(self.fields));
        }
    }
}

/// A priced action: its text label, its EV in chips and its JSON fields beyond `ev`.
pub(super) struct Priced {
    label: String,
    ev: f64,
    fields: Map<String, Value>,
}

impl Priced {
    /// An action (`fold`, `call`, `raise`, `compare`) with its text label and EV.
    pub(super) fn new(action: &str, label: impl Into<String>, ev: f64) -> Priced {
        let mut fields = Map::new();
        fields.insert("action".into(), action.into());
        Priced {
            label: label.into(),
            ev,
            fields,
        }
    }

    /// Adds a JSON field (`call`, `raise_to`, `fold_rate`, …).
    pub(super) fn with(mut self, name: &str, value: impl Into<Value>) -> Priced {
        self.fields.insert(name.into(), value.into());
        self
    }
}

/// How a table figure was computed, as JSON: `std_error` (0 when exact) and `method`.
fn set_method(out: &mut Answer, std_error: f64) {
    out.set("std_error", std_error);
    out.set(
        "method",
        if std_error > 0.0 {
            "monte_carlo"
        } else {
            "exact"
        },
    );
}

/// How a table figure was computed, for the end of a printed line: exact, or Monte Carlo
/// with its standard error.
fn method_note(std_error: f64) -> String {
    if std_error > 0.0 {
        format!(" (Monte Carlo, s.e. {std_error:.1e})")
    } else {
        " (exact)".to_string()
    }
}

/// Writes each action's EV in chips, aligned, then the best one; as JSON, `actions` (one
/// object per action with its `ev`) and `best_action` / `best_ev`. `actions` is never
/// empty: folding is always an action.
fn write_actions(out: &mut Answer, actions: Vec<Priced>) {
    let width = actions.iter().map(|a| a.label.chars().count()).max();
    let width = width.unwrap_or(0).max(28);
    out.line("EV of each action (chips):");
    for a in &actions {
        out.line(format!("  {:<width$} {:+.3}", a.label, a.ev));
    }
    if let Some(best) = actions.iter().max_by(|a, b| a.ev.total_cmp(&b.ev)) {
        out.line(format!("best: {} ({:+.3})", best.label, best.ev));
        out.set("best_action", best.fields["action"].clone());
        out.set("best_ev", best.ev);
    }
    let list: Vec<Value> = actions
        .into_iter()
        .map(|mut a| {
            a.fields.insert("ev".into(), a.ev.into());
            Value::Object(a.fields)
        })
        .collect();
    out.set("actions", list);
}
/// The raise-to amounts a question prices: those given, else 2× and 3× the call and
/// call + pot; each must be at least the call, and each is priced once (a size given or
/// reached twice, like 3× the call equal to call + pot, is listed once).
fn raises(bet: &crate::cli::Bet) -> anyhow::Result<Vec<f64>> {
    let mut raises = if bet.raises.is_empty() {
        vec![
            2.0 * bet.call.max(1.0),
            3.0 * bet.call.max(1.0),
            bet.call + bet.pot,
        ]
    } else {
        bet.raises.clone()
    };
    if let Some(r) = raises.iter().find(|r| **r < bet.call) {
        return Err(crate::commands::UsageError::error(format!(
            "--raise {r} must be at least the call ({})",
            bet.call
        )));
    }
    let mut seen: Vec<f64> = Vec::with_capacity(raises.len());
    raises.retain(|r| {
        let new = !seen.contains(r);
        seen.push(*r);
        new
    });
    Ok(raises)
}

/// The fold, call and raise actions every priced question lists, for a hand with equity
/// `w` (a call's EV given by `call_ev`, which stud extends with implied odds).
fn bet_actions(bet: &crate::cli::Bet, w: f64, call_ev: f64) -> anyhow::Result<Vec<Priced>> {
    use cardtables::decision::{ev_raise, EV_FOLD};
    let mut actions = vec![
        Priced::new("fold", "fold", EV_FOLD),
        Priced::new("call", format!("call {}", bet.call), call_ev).with("call", bet.call),
    ];
    for r in raises(bet)? {
        actions.push(
            Priced::new(
                "raise",
                format!("raise to {r} (fold {:.0}%)", 100.0 * bet.fold),
                ev_raise(w, bet.pot, bet.call, r, bet.fold),
            )
            .with("raise_to", r)
            .with("fold_rate", bet.fold),
        );
    }
    Ok(actions)
}

/// The bet a priced question was asked with, as JSON fields.
fn set_bet(out: &mut Answer, bet: &crate::cli::Bet) {
    out.set("pot", bet.pot);
    out.set("call", bet.call);
    out.set("fold_rate", bet.fold);
}

/// Opens the heads-up table (for `pipeline equity` too); `given`: the user named it.
pub(crate) fn open_headsup(
    path: &std::path::Path,
    given: bool,
) -> anyhow::Result<cardtables::HoldemHeadsUp> {
    open_table(path, given, "holdem_headsup.toml", |p| {
        cardtables::HoldemHeadsUp::open(p)
    })
}

/// Opens a runtime table. A file the user named (`given`, with `--table`) that cannot be
/// read as the right table is bad input (exit 2); a default path that is missing says
/// which job writes it.
fn open_table<T>(
    path: &std::path::Path,
    given: bool,
    job: &str,
    open: impl FnOnce(&std::path::Path) -> Result<T, cardtables::TableError>,
) -> anyhow::Result<T> {
    use anyhow::Context;
    if let Some(dir) = path.parent().filter(|d| crate::engine::switch::pending(d)) {
        anyhow::bail!(
            "{} is not a complete output set: a run died while switching its outputs into place ({} is left); the next `pipeline run jobs/{job}` or `pipeline merge` finishes the switch",
            dir.display(),
            dir.join(crate::engine::switch::JOURNAL).display()
        );
    }
    if given {
        return open(path).map_err(|e| {
            crate::commands::UsageError::error(format!(
                "--table {}: {e}; pass the table that `pipeline run jobs/{job}` writes",
                path.display()
            ))
        });
    }
    open(path).with_context(|| {
        format!(
            "cannot load {} (run `pipeline run jobs/{job}` first, or pass --table)",
            path.display()
        )
    })
}
