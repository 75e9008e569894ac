//! `pipeline query pushfold`: how the small blind and the big blind play a hand at the
//! heads-up push/fold equilibrium at one stack, with each action's EV.

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

pub fn query(q: &PushFoldQuestion, out: &mut Answer) -> anyhow::Result<()> {
    let usage = |e: &dyn std::fmt::Display| UsageError::error(e.to_string());
    let class = class_of_text(&q.hand).map_err(|e| usage(&e))?;
    let (path, job) = table_path(q);
    let table = open_table(&path, q.table.is_some(), job, |p| {
        cardtables::PushFold::open(p)
    })?;
    if let Some(ante) = q.ante {
        if (ante - table.ante()).abs() > 1e-12 {
            return Err(UsageError::error(format!(
                "{} was computed with an ante of {} bb, not {ante}: pass the table of a job with that ante (--table)",
                path.display(),
                table.ante()
            )));
        }
    }
    let answer = |e: PushFoldQueryError| -> anyhow::Error {
        match e {
            PushFoldQueryError::Stack { .. } => usage(&e),
            other => other.into(),
        }
    };
    let push = table.push(class, q.stack).map_err(answer)?;
    let call = table.call(class, q.stack).map_err(answer)?;
    let value = table.value(q.stack).map_err(answer)?;
    let exploitability = table.exploitability(q.stack).map_err(answer)?;
    out.set("class", class_name(class));
    out.set("asked_stack", q.stack);
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
        q.stack,
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
