//! `pipeline query blackjack`: every action's exact EV for a hand against an upcard, and
//! the best one; with `--count`, the play at that count from a count-index table.

use cardtables::card::quote;
use std::path::PathBuf;

use cardtables::blackjack::{
    parse_hand, parse_rank, total, value_index, Action, BlackjackQueryError,
};
use cardtables::card::RANK_CHARS;

use super::{open_table, Answer};
use crate::cli::BlackjackQuestion;
use crate::commands::UsageError;

pub fn query(q: &BlackjackQuestion, out: &mut Answer) -> anyhow::Result<()> {
    if let Some(count) = q.count {
        return query_at_count(q, count, out);
    }
    let usage = |e: BlackjackQueryError| UsageError::error(e.to_string());
    let path = q.table.clone().unwrap_or_else(|| {
        let grid = PathBuf::from("tables/blackjack/blackjack.bin");
        if grid.exists() {
            grid
        } else {
            PathBuf::from("tables/blackjack_6d_s17/blackjack.bin")
        }
    });
    let table = open_table(&path, q.table.is_some(), "blackjack_6d_s17.toml", |p| {
        cardtables::Blackjack::open(p)
    })?;
    if q.rules.as_deref() == Some("list") {
        let mut sets = Vec::new();
        for set in table.rule_sets() {
            out.line(format!(
                "{:<28} house edge {:.4} %",
                set.id,
                100.0 * set.house_edge
            ));
            sets.push(serde_json::json!({"rule_set": set.id, "house_edge": set.house_edge}));
        }
        out.set("rule_sets", sets);
        return Ok(());
    }
    let set = match &q.rules {
        Some(id) => table.rule_set(id).map_err(usage)?,
        None => 0,
    };
    let cards = hand_cards(&q.hand)?;
    let up = upcard(&q.upcard)?;
    let (t, soft) = total(&cards).map_err(usage)?;
    let id = &table.rule_sets()[set].id;
    let name = |r: u8| RANK_CHARS[usize::from(r)].to_string();
    let names: Vec<String> = cards.iter().map(|&r| name(r)).collect();
    let row = row_name(&cards, t, soft);
    let advice = table.best_action(set, &cards, up).map_err(usage)?;
    set_hand(out, id, &cards, t, soft, up);
    out.set("best_action", advice.action.name());
    out.set("best_ev", advice.ev);
    match table.evs(set, &cards, up) {
        Ok(evs) => {
            for a in Action::ALL {
                out.set(&format!("ev_{}", a.name()), evs[a as usize]);
            }
            out.set(
                "conditioned_on_no_blackjack",
                table.rule_sets()[set].conditioned_on_no_blackjack,
            );
            out.set("source", "exact");
            out.line(format!(
                "{} ({row}) against {} under {id}:",
                names.join(" "),
                name(up)
            ));
            if cards.len() == 2 && t == 21 {
                out.line("  a natural: paid at once (the stand line is its payout)");
            }
            for a in Action::ALL {
                let v = evs[a as usize];
                if !v.is_nan() {
                    out.line(format!("  {:<10} {v:+.4}", a.name()));
                }
            }
            if table.rule_sets()[set].conditioned_on_no_blackjack {
                out.line("  (EVs per unit bet, given that the dealer has checked for blackjack and has none)");
            }
            out.line(format!(
                "best: {} ({:+.4})",
                advice.action.name(),
                advice.ev.unwrap_or(f64::NAN)
            ));
        }
        Err(BlackjackQueryError::NotTwoCards(_)) => {
            out.set("source", "chart");
            out.line(format!(
                "{} ({row}) against {} under {id}:",
                names.join(" "),
                name(up)
            ));
            out.line(format!(
                "best: {} (the basic strategy chart's action for {row}; exact EVs are tabled for two-card hands)",
                advice.action.name(),
            ));
        }
        Err(e) => return Err(usage(e)),
    }
    Ok(())
}

/// The hand's JSON fields, named as in `hands.parquet`: `rule_set`, `cards` (tens merged,
/// high to low, ace highest), `hand_label`, `hand_kind`, `total`, `upcard` (2..11) and
/// `upcard_label`.
fn set_hand(out: &mut Answer, rule_set: &str, cards: &[u8], total: u8, soft: bool, up: u8) {
    use crate::games::blackjack::hands::{rank_name, upcard_value};
    // The tables' value index (0 = ace … 9 = ten), its label and its value, ace highest.
    let label = |r: u8| {
        let v = value_index(r).unwrap_or(0);
        (rank_name(v), upcard_value(v))
    };
    let mut values: Vec<(&str, u8)> = cards.iter().map(|&r| label(r)).collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.1));
    let text: Vec<&str> = values.iter().map(|(c, _)| *c).collect();
    let row = row_name(cards, total, soft);
    let (hand_label, kind) = if cards.len() == 2 && total == 21 {
        ("blackjack".to_string(), "blackjack")
    } else {
        let kind = row.split(' ').next().unwrap_or("hard");
        let kind = match kind {
            "pair" => "pair",
            "soft" => "soft",
            _ => "hard",
        };
        (row.clone(), kind)
    };
    let (up_label, up_value) = label(up);
    out.set("rule_set", rule_set);
    out.set("cards", text.join(" "));
    out.set("hand_label", hand_label);
    out.set("hand_kind", kind);
    out.set("total", total);
    out.set("upcard", up_value);
    out.set("upcard_label", up_label);
}

/// The hand asked about: its cards, or a chart row by name (see [`row_cards`]).
/// The dealer's upcard: a rank as in a hand, or `11` / `1` for an ace (the value the
/// tables' `upcard` column gives an ace).
fn upcard(text: &str) -> anyhow::Result<u8> {
    let text = match text.trim() {
        "11" | "1" => "A",
        other => other,
    };
    parse_rank(text).map_err(|e| {
        UsageError::error(format!(
            "the upcard {}: {e} (or 11 for an ace)",
            quote(text)
        ))
    })
}

/// The chart row a hand is read on: `pair 8` for two cards of one value (`T K` is a
/// pair of tens), else `soft 18` or `hard 16`.
fn row_name(cards: &[u8], total: u8, soft: bool) -> String {
    if let [a, b] = cards {
        if let (Ok(x), Ok(y)) = (value_index(*a), value_index(*b)) {
            if x == y {
                // Two ranks of one value are tens (T J Q K): the row is the tens'.
                let shown = if a == b {
                    RANK_CHARS[usize::from(*a)]
                } else {
                    'T'
                };
                return format!("pair {shown}");
            }
        }
    }
    format!("{} {total}", if soft { "soft" } else { "hard" })
}

fn hand_cards(text: &str) -> anyhow::Result<Vec<u8>> {
    match parse_hand(text) {
        Ok(cards) => Ok(cards),
        Err(e) => match row_cards(text) {
            Some(Ok(cards)) => Ok(cards),
            Some(Err(why)) => Err(UsageError::error(why)),
            None => Err(UsageError::error(format!(
                "{e} (a hand is its cards, e.g. \"T 6\", or a chart row: \"16\", \"hard 16\", \
                 \"soft 18\", \"pair 8\")"
            ))),
        },
    }
}

/// Two cards that stand for a chart row named instead of dealt: `16` or `hard 16` (hard
/// 5 to 19, two cards that are not a pair), `soft 13` to `soft 20` (an ace and one card),
/// `pair 8` (any rank). Every two-card hand of a row has the row's chart play and
/// indices, and the exact EVs printed are those of the cards shown. `None` when the text
/// names no row; an error for a row no two cards of that kind make.
fn row_cards(text: &str) -> Option<Result<Vec<u8>, String>> {
    // Card ranks: 0..=7 are 2..9, 8 is ten, 12 is ace.
    const TEN: u8 = 8;
    const ACE: u8 = 12;
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    let number = |w: &str| w.parse::<u8>().ok();
    match (lower.as_slice(), words.as_slice()) {
        (["pair", _], [_, rank]) => Some(
            parse_rank(rank)
                .map(|r| vec![r, r])
                .map_err(|e| format!("pair {rank}: {e}")),
        ),
        (["soft", t], _) => {
            let t = number(t)?;
            Some(match t {
                13..=20 => Ok(vec![ACE, t - 13]),
                _ => Err(format!(
                    "soft {t}: a soft row of two cards is soft 13 to soft 20 (soft 12 is A A, \
                     \"pair A\"; soft 21 is a natural)"
                )),
            })
        }
        (["hard", t] | [t], _) => {
            let t = number(t)?;
            Some(match t {
                5..=11 => Ok(vec![0, t - 4]),
                12..=19 => Ok(vec![TEN, t - 12]),
                _ => Err(format!(
                    "hard {t}: a hard row of two cards that are not a pair is 5 to 19; give \
                     the cards for others (e.g. \"2 2\", \"T T\" or \"T 5 5\")"
                )),
            })
        }
        _ => None,
    }
}

/// The play at a count, from a `blackjack.indices` table, with the index that decided it.
fn query_at_count(q: &BlackjackQuestion, count: i32, out: &mut Answer) -> anyhow::Result<()> {
    let usage = |e: BlackjackQueryError| UsageError::error(e.to_string());
    let path = q
        .table
        .clone()
        .unwrap_or_else(|| PathBuf::from("tables/blackjack_indices/blackjack_indices.bin"));
    let table = open_table(&path, q.table.is_some(), "blackjack_indices.toml", |p| {
        cardtables::BlackjackIndices::open(p)
    })?;
    if q.rules.as_deref() == Some("list") {
        let mut sets = Vec::new();
        for set in table.rule_sets() {
            out.line(format!(
                "{:<28} {} ({} index plays)",
                set.id,
                set.system,
                set.indices.len()
            ));
            sets.push(serde_json::json!({
                "rule_set": set.id,
                "system": set.system,
                "indices": set.indices.len(),
            }));
        }
        out.set("rule_sets", sets);
        return Ok(());
    }
    let set = match &q.rules {
        Some(id) => table.rule_set(id).map_err(usage)?,
        None => 0,
    };
    let cards = hand_cards(&q.hand)?;
    let up = upcard(&q.upcard)?;
    let (t, soft) = total(&cards).map_err(usage)?;
    let advice = table
        .best_action_at_count(set, &cards, up, count)
        .map_err(usage)?;
    let s = &table.rule_sets()[set];
    let name = |r: u8| RANK_CHARS[usize::from(r)].to_string();
    let names: Vec<String> = cards.iter().map(|&r| name(r)).collect();
    let axis = if s.true_count {
        "true count"
    } else {
        "running count"
    };
    let shown = count.clamp(s.low, s.high);
    set_hand(out, &s.id, &cards, t, soft, up);
    out.set("system", s.system.clone());
    out.set("true_count", s.true_count);
    out.set("count", count);
    out.set("count_answered", shown);
    out.set("chart_play", advice.chart.name());
    out.set("play", advice.action.name());
    // The index play that decides it, as its `indices.parquet` row says (null: none).
    out.set("index", advice.index.map(|x| x.index));
    out.set(
        "direction",
        advice.index.map(|x| {
            if x.below {
                "at_or_below"
            } else {
                "at_or_above"
            }
        }),
    );
    out.set("gain_per_100", advice.index.map(|x| x.gain_per_100));
    out.line(format!(
        "{} ({}) against {} under {} at {} {count:+} ({}{}):",
        names.join(" "),
        row_name(&cards, t, soft),
        name(up),
        s.id,
        s.system,
        axis,
        if shown == count {
            String::new()
        } else {
            format!(", answered as {shown:+}, the table's end")
        }
    ));
    out.line(format!("  chart:  {}", advice.chart.name()));
    match advice.index {
        Some(x) => out.line(format!(
            "  play:   {} (index {} {:+}, worth {:.2e} bets per 100 rounds)",
            advice.action.name(),
            if x.below {
                "at or below"
            } else {
                "at or above"
            },
            x.index,
            x.gain_per_100
        )),
        None => out.line(format!(
            "  play:   {} (no index changes it here)",
            advice.action.name()
        )),
    }
    if up == 12 {
        let insure = table.insure(set, count).map_err(usage)?;
        out.set("insure", insure);
        out.set("insure_from", s.insure_from);
        out.line(format!(
            "  insurance: {}",
            match (insure, s.insure_from) {
                (true, Some(from)) => format!("take it (index {from:+})"),
                (false, Some(from)) => format!("decline (index {from:+})"),
                _ => "decline (no insurance index in the table's range)".into(),
            }
        ));
    }
    Ok(())
}
