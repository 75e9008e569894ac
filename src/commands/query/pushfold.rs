//! `pipeline query pushfold`: how the small blind and the big blind play a hand at the
//! heads-up push/fold equilibrium at one stack, with each action's EV; with
//! `--players 3`, how the button and the blinds play it at the three-handed equilibrium.

use std::path::PathBuf;

use cardtables::holdem::class_of_text;
use cardtables::PushFoldQueryError;

use super::{open_table, Answer};
use crate::cli::PushFoldQuestion;
use crate::commands::UsageError;
use crate::games::holdem::classes::class_name;

/// The table a question reads, and the job that writes it.
fn table_path(q: &PushFoldQuestion) -> (PathBuf, &'static str) {
    match (&q.table, q.ante.unwrap_or(0.0) > 0.0) {
        (Some(p), true) => (p.clone(), "holdem_pushfold_ante.toml"),
        (Some(p), false) => (p.clone(), "holdem_pushfold.toml"),
        (None, true) => (
            PathBuf::from("tables/holdem_pushfold_ante/pushfold.bin"),
            "holdem_pushfold_ante.toml",
        ),
        (None, false) => (
            PathBuf::from("tables/holdem_pushfold/pushfold.bin"),
            "holdem_pushfold.toml",
        ),
    }
}

/// A frequency as a percentage, with the action it describes.
fn frequency(f: f64, action: &str) -> String {
    match f {
        1.0 => format!("always {action}"),
        0.0 => format!("never {action}"),
        _ => format!("{action} {:.2} % of the time", 100.0 * f),
    }
}

/// An EV margin to five decimals, 0 (indifferent) where it rounds to nothing.
fn margin(m: f64) -> String {
    let text = format!("{m:+.5}");
    if text == "+0.00000" || text == "-0.00000" {
        "0 bb (indifferent)".into()
    } else {
        format!("{text} bb")
    }
}

/// Whether our charts list the hand at this stack (played at least half the time).
fn chart(f: f64, action: &str) -> String {
    if cardtables::pushfold::charted(f) {
        format!("the chart says {action} (played at least half the time)")
    } else {
        "the chart says fold (played less than half the time)".into()
    }
}

/// An ante asked for must be the one the table was computed with.
fn check_ante(asked: Option<f64>, ante: f64, path: &std::path::Path) -> anyhow::Result<()> {
    match asked {
        Some(a) if (a - ante).abs() > 1e-12 => Err(UsageError::error(format!(
            "{} was computed with an ante of {ante} bb, not {a}: pass the table of a job with that ante (--table)",
            path.display(),
        ))),
        _ => Ok(()),
    }
}

pub fn query(q: &PushFoldQuestion, out: &mut Answer) -> anyhow::Result<()> {
    if q.players == 3 {
        return three_handed(q, out);
    }
    let three_only = [
        ("--position", q.position.is_some()),
        ("--facing", q.facing.is_some()),
        ("--stacks", q.stacks.is_some()),
        ("--payouts", q.payouts.is_some()),
    ];
    if let Some((flag, _)) = three_only.iter().find(|f| f.1) {
        return Err(UsageError::error(format!(
            "{flag} is for three-handed questions: add --players 3"
        )));
    }
    let usage = |e: &dyn std::fmt::Display| UsageError::error(e.to_string());
    let stack = q
        .stack
        .ok_or_else(|| UsageError::error("give the effective stack: --stack 10"))?;
    let class = class_of_text(&q.hand).map_err(|e| usage(&e))?;
    let (path, job) = table_path(q);
    let table = open_table(&path, q.table.is_some(), job, |p| {
        cardtables::PushFold::open(p)
    })?;
    check_ante(q.ante, table.ante(), &path)?;
    let answer = |e: PushFoldQueryError| -> anyhow::Error {
        match e {
            PushFoldQueryError::Stack { .. } => usage(&e),
            other => other.into(),
        }
    };
    let push = table.push(class, stack).map_err(answer)?;
    let call = table.call(class, stack).map_err(answer)?;
    let value = table.value(stack).map_err(answer)?;
    let exploitability = table.exploitability(stack).map_err(answer)?;
    out.set("class", class_name(class));
    out.set("asked_stack", stack);
    out.set("stack", push.stack);
    out.set("ante", table.ante());
    out.set("push_freq", push.frequency);
    out.set("call_freq", call.frequency);
    out.set("ev_push_bb", push.ev);
    out.set("ev_fold_bb", push.ev_fold);
    out.set("ev_call_bb", call.ev);
    out.set("push_margin_bb", push.margin());
    out.set("call_margin_bb", call.margin());
    out.set(
        "sb_push_charted",
        cardtables::pushfold::charted(push.frequency),
    );
    out.set(
        "bb_call_charted",
        cardtables::pushfold::charted(call.frequency),
    );
    out.set("sb_value_bb", value);
    out.set("exploitability_bb", exploitability);
    out.line(format!(
        "{} at {} bb (grid stack {}), ante {} bb, heads-up push/fold equilibrium (exact):",
        class_name(class),
        stack,
        push.stack,
        table.ante()
    ));
    out.line(format!(
        "  small blind: {}; EV push {:+.4} bb, fold {:+.4} bb: pushing gains {}; {}",
        frequency(push.frequency, "push"),
        push.ev,
        push.ev_fold,
        margin(push.margin()),
        chart(push.frequency, "push")
    ));
    out.line(format!(
        "  big blind facing a push: {}; EV call {:+.4} bb, fold {:+.4} bb: calling gains {}; {}",
        frequency(call.frequency, "call"),
        call.ev,
        call.ev_fold,
        margin(call.margin()),
        chart(call.frequency, "call")
    ));
    out.line(format!(
        "game value for the small blind: {value:+.4} bb per hand (exploitability {exploitability:.1e} bb)"
    ));
    Ok(())
}

/// A three-handed question: the seat's decisions (or one, given what it faces) at the
/// spot asked, from a `holdem.pushfold3` table.
fn three_handed(q: &PushFoldQuestion, out: &mut Answer) -> anyhow::Result<()> {
    use cardtables::pushfold3::{Decision, PushFold3, SEAT_NAMES};
    use cardtables::PushFold3QueryError as E;
    let usage = |e: &dyn std::fmt::Display| UsageError::error(e.to_string());
    let class = class_of_text(&q.hand).map_err(|e| usage(&e))?;
    let decisions = match &q.position {
        Some(p) => Decision::of(p, q.facing.as_deref()).map_err(|e| usage(&e))?,
        None => Decision::ALL.to_vec(),
    };
    let path = q
        .table
        .clone()
        .unwrap_or_else(|| PathBuf::from("tables/holdem_pushfold3/pushfold3.bin"));
    let table = open_table(&path, q.table.is_some(), "holdem_pushfold3.toml", |p| {
        PushFold3::open(p)
    })?;
    check_ante(q.ante, table.ante(), &path)?;
    let answer = |e: E| -> anyhow::Error { usage(&e) };
    let payouts = q.payouts.as_ref().map(|p| &p.0[..]);
    let spot = match (q.stacks, q.stack) {
        (Some(stacks), _) => table.spot(stacks, payouts),
        (None, Some(stack)) => table.equal_spot(stack, payouts),
        (None, None) => {
            return Err(usage(
                &"give the stacks: --stack 10 (equal) or --stacks 10,15,20",
            ))
        }
    }
    .map_err(answer)?;
    let (stacks, icm) = table
        .spot_stakes(spot)
        .ok_or_else(|| anyhow::anyhow!("internal error: spot {spot} is not in the table"))?;
    let (exploitability, bb_value) = table
        .exploitability(spot)
        .ok_or_else(|| anyhow::anyhow!("internal error: spot {spot} is not in the table"))?;
    let value = table
        .value(spot)
        .ok_or_else(|| anyhow::anyhow!("internal error: spot {spot} is not in the table"))?;
    // Every answer read before anything is printed, so an error prints nothing else.
    let plays = decisions
        .into_iter()
        .map(|d| table.play(spot, d, class))
        .collect::<Result<Vec<_>, _>>()
        .map_err(answer)?;
    let unit = if icm { "prize pool" } else { "bb" };
    out.set("class", class_name(class));
    out.set("players", 3);
    if let Some(s) = q.stack {
        out.set("asked_stack", s);
    }
    out.set("stacks", stacks.to_vec());
    out.set("ante", table.ante());
    out.set("payoff", if icm { "icm" } else { "chip_ev" });
    if icm {
        out.set("payouts", table.payouts().to_vec());
    }
    out.set("unit", unit);
    out.set("exploitability", exploitability);
    out.set("exploitability_bb", exploitability / bb_value);
    for (seat, stack) in SEAT_NAMES.iter().zip(stacks) {
        out.set(&format!("{seat}_stack_bb"), stack);
    }
    for (seat, v) in SEAT_NAMES.iter().zip(value) {
        out.set(&format!("value_{seat}"), v);
    }
    out.line(format!(
        "{} three-handed at stacks {} (BTN/SB/BB), ante {} bb, {}; push/fold equilibrium (exact card odds, exploitability {:.1e} bb):",
        class_name(class),
        stacks.map(|s| s.to_string()).join("/"),
        table.ante(),
        if icm {
            format!("ICM for payouts {:?}", table.payouts())
        } else {
            "chip EV".to_string()
        },
        exploitability / bb_value
    ));
    let mut list = vec![];
    for play in plays {
        let d = play.decision;
        let action = if d.name().contains("push") {
            "push"
        } else {
            "call"
        };
        let evs = match (play.ev, play.ev_fold, play.margin()) {
            (Some(a), Some(f), Some(m)) => format!(
                "EV {action} {a:+.5}, fold {f:+.5} {unit}: {action}ing gains {}",
                margin(m).replace(" bb", &format!(" {unit}"))
            ),
            _ => "no deal reaches this decision with this hand".to_string(),
        };
        out.line(format!(
            "  {}: {}; faced {:.1} % of the time; {evs}",
            d.describe(),
            frequency(play.frequency, action),
            100.0 * play.p_faced
        ));
        let mut o = serde_json::Map::new();
        o.insert("decision".into(), d.name().into());
        o.insert("seat".into(), SEAT_NAMES[d.seat()].into());
        o.insert("facing".into(), d.facing().into());
        o.insert("frequency".into(), play.frequency.into());
        o.insert("ev_act".into(), play.ev.into());
        o.insert("ev_fold".into(), play.ev_fold.into());
        o.insert("margin".into(), play.margin().into());
        o.insert("p_faced".into(), play.p_faced.into());
        o.insert(
            "charted".into(),
            cardtables::pushfold::charted(play.frequency).into(),
        );
        list.push(serde_json::Value::Object(o));
    }
    // One decision asked: its fields at the top level too.
    if let [serde_json::Value::Object(one)] = &list[..] {
        for (k, v) in one {
            out.set(k, v.clone());
        }
    }
    out.set("decisions", list);
    Ok(())
}
