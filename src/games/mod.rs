//! The games, one folder each, and the registry of job kinds.

pub mod blackjack;
pub mod holdem;
pub mod niuniu;
pub mod stud;
pub mod zhajinhua;

use crate::engine::ErasedJob;
use crate::job::{JobError, JobSpec, EXTRA_TABLES};

/// Every job kind this build knows, with a one-line description.
pub const KINDS: &[(&str, &str)] = &[
    (
        "blackjack.strategy",
        "Blackjack: exact EVs, basic strategy and house edge for a grid of rule sets, checked by simulation",
    ),
    (
        "blackjack.indices",
        "Blackjack: count-index plays for a counting system, EV and insurance by true count, exact per drawn shoe",
    ),
    (
        "blackjack.counter",
        "Blackjack: a card counter at the table (bet ramp, index plays, hands, wonging), simulated: win rate, SCORE, N0, risk of ruin",
    ),
    (
        "holdem.headsup",
        "Texas Hold'em: exact heads-up equity of every matchup (47,008 classes) and the 169 × 169 class matrix",
    ),
    (
        "holdem.multiway",
        "Texas Hold'em: every class against 1 (exact) to 9 random opponents (seeded Monte Carlo)",
    ),
    (
        "holdem.pushfold",
        "Texas Hold'em: the exact heads-up push/fold equilibrium at every stack, with antes",
    ),
    (
        "holdem.preflop",
        "Texas Hold'em: exact equity of all 169 starting hands (and 1,326 combos) vs one random hand",
    ),
    (
        "niuniu.hands",
        "Niuniu: all C(52,5) hands, categories, exact win probability and banker EV",
    ),
    (
        "niuniu.bidding",
        "Niuniu see-four-cards bidding (看牌抢庄): every four-card hand's fifth-card odds, exact EVs, suggested bid",
    ),
    (
        "niuniu.multiway",
        "Niuniu at a full table: every hand against 1 to 5 players, beating them all (通比) and the banker's spread (庄家)",
    ),
    (
        "zhajinhua.hands",
        "Zhajinhua: all C(52,3) hands under a rule variant, exact win/tie/loss vs 1 and 2 opponents",
    ),
    (
        "stud.tables",
        "Five-card stud: categories per deck, exact hit probability vs the rule of 2 and 4, break-even outs",
    ),
    (
        "zhajinhua.multiway",
        "Zhajinhua: as zhajinhua.hands, plus 3 to 5 opponents by seeded Monte Carlo",
    ),
];

/// The tables beyond `[job]`, `[rules]` and `[run]` that a job kind reads; any other is
/// an error, so a misplaced `[grid]` never silently does nothing.
fn extra_tables(kind: &str) -> &'static [&'static str] {
    match kind {
        "blackjack.strategy" => &["grid", "simulation", "analysis"],
        "blackjack.indices" => &["grid", "count", "indices"],
        "blackjack.counter" => &["grid", "count", "play", "betting"],
        "holdem.pushfold" => &["pushfold"],
        "niuniu.bidding" => &["bidding"],
        "niuniu.multiway" => &["multiway"],
        "zhajinhua.hands" | "zhajinhua.multiway" => &["betting"],
        _ => &[],
    }
}

/// Plans the job a spec names, validating its rules.
pub fn build(spec: &JobSpec) -> Result<Box<dyn ErasedJob>, JobError> {
    if KINDS.iter().any(|(k, _)| *k == spec.kind) {
        for table in EXTRA_TABLES {
            if spec.has_table(table) && !extra_tables(&spec.kind).contains(&table) {
                let readers: Vec<&str> = KINDS
                    .iter()
                    .map(|(k, _)| *k)
                    .filter(|k| extra_tables(k).contains(&table))
                    .collect();
                let reader = match readers.split_last() {
                    Some((last, [])) => format!("{last} reads"),
                    Some((last, rest)) => format!("{} and {last} read", rest.join(", ")),
                    None => "no job kind reads".to_string(),
                };
                return Err(spec.field_error(
                    table,
                    format!(
                        "a {} job has no [{table}] table (only {reader} it)",
                        spec.kind
                    ),
                ));
            }
        }
    }
    match spec.kind.as_str() {
        "blackjack.strategy" => Ok(Box::new(blackjack::job::StrategyJob::new(spec)?)),
        "blackjack.indices" => Ok(Box::new(blackjack::job::IndicesJob::new(spec)?)),
        "blackjack.counter" => Ok(Box::new(blackjack::job::CounterJob::new(spec)?)),
        "holdem.headsup" => Ok(Box::new(holdem::job::HeadsUpJob::new(spec)?)),
        "holdem.multiway" => Ok(Box::new(holdem::job::MultiwayJob::new(spec)?)),
        "holdem.preflop" => Ok(Box::new(holdem::job::PreflopJob::new(spec)?)),
        "holdem.pushfold" => Ok(Box::new(holdem::job::PushFoldJob::new(spec)?)),
        "niuniu.hands" => Ok(Box::new(niuniu::job::HandsJob::new(spec)?)),
        "niuniu.bidding" => Ok(Box::new(niuniu::job::BiddingJob::new(spec)?)),
        "niuniu.multiway" => Ok(Box::new(niuniu::job::MultiwayJob::new(spec)?)),
        "stud.tables" => Ok(Box::new(stud::job::TablesJob::new(spec)?)),
        "zhajinhua.hands" => Ok(Box::new(zhajinhua::job::HandsJob::new(spec)?)),
        "zhajinhua.multiway" => Ok(Box::new(zhajinhua::job::HandsJob::multiway(spec)?)),
        other => Err(spec.field_error(
            "job.kind",
            format!(
                "unknown job kind {other:?}: this build knows {}",
                KINDS
                    .iter()
                    .map(|(k, _)| format!("{k:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> JobSpec {
        JobSpec::parse("j.toml", text.to_string()).unwrap()
    }

    #[test]
    fn tables_a_kind_does_not_read_are_errors() {
        let e = build(&spec(
            "[job]\nkind = \"niuniu.hands\"\nname = \"n\"\n[grid]\ndecks = [1, 2]\n",
        ))
        .err()
        .expect("refused");
        assert_eq!(e.field.as_deref(), Some("grid"));
        assert_eq!(e.location.map(|l| l.0), Some(4));
        assert!(e.message.contains("only blackjack.strategy"), "{e}");
        let e = build(&spec(
            "[job]\nkind = \"holdem.headsup\"\nname = \"h\"\n[pushfold]\nstack_min = 2\n",
        ))
        .err()
        .expect("refused");
        assert_eq!(e.field.as_deref(), Some("pushfold"));
        assert!(e.message.contains("only holdem.pushfold reads it"), "{e}");
        let e = build(&spec(
            "[job]\nkind = \"zhajinhua.hands\"\nname = \"z\"\n[simulation]\nrounds = 1\n",
        ))
        .err()
        .expect("refused");
        assert_eq!(e.field.as_deref(), Some("simulation"));
    }

    #[test]
    fn unknown_kinds_list_the_known_ones() {
        let e = build(&spec("[job]\nkind = \"poker.texas\"\nname = \"p\"\n"))
            .err()
            .expect("refused");
        assert!(e.message.contains("\"niuniu.hands\""), "{e}");
    }
}
