//! The games, one folder each, and the registry of job kinds.

pub mod blackjack;
pub mod holdem;
pub mod niuniu;
pub mod stud;
pub mod zhajinhua;

use crate::engine::{ErasedJob, Job};
use crate::job::{JobError, JobSpec, EXTRA_TABLES};

/// A job kind: what `[job] kind` names, as each game declares it once.
pub struct Kind {
    /// The `kind` a job file writes, `game.what`.
    pub name: &'static str,
    /// One line for `pipeline list` and errors.
    pub description: &'static str,
    /// The tables beyond `[job]`, `[rules]` and `[run]` the kind reads; any other is an
    /// error, so a misplaced `[grid]` never silently does nothing.
    pub tables: &'static [&'static str],
    /// Plans a job of this kind, validating its rules.
    plan: fn(&JobSpec) -> Result<Box<dyn ErasedJob>, JobError>,
}

/// A planned job of any kind, for the engine.
fn erased<J: Job + 'static>(job: J) -> Box<dyn ErasedJob> {
    Box::new(job)
}

/// Every job kind this build knows: the one registry.
pub const KINDS: &[Kind] = &[
    Kind {
        name: "blackjack.strategy",
        description: "Blackjack: exact EVs, basic strategy and house edge for a grid of rule sets, checked by simulation",
        tables: &["grid", "simulation", "analysis"],
        plan: |spec| blackjack::job::StrategyJob::new(spec).map(erased),
    },
    Kind {
        name: "blackjack.indices",
        description: "Blackjack: count-index plays for a counting system, EV and insurance by true count, exact per drawn shoe",
        tables: &["grid", "count", "indices"],
        plan: |spec| blackjack::job::IndicesJob::new(spec).map(erased),
    },
    Kind {
        name: "blackjack.counter",
        description: "Blackjack: a card counter at the table (bet ramp, index plays, hands, wonging), simulated: win rate, SCORE, N0, risk of ruin",
        tables: &["grid", "count", "play", "betting"],
        plan: |spec| blackjack::job::CounterJob::new(spec).map(erased),
    },
    Kind {
        name: "holdem.headsup",
        description: "Texas Hold'em: exact heads-up equity of every matchup (47,008 classes) and the 169 × 169 class matrix",
        tables: &[],
        plan: |spec| holdem::job::HeadsUpJob::new(spec).map(erased),
    },
    Kind {
        name: "holdem.multiway",
        description: "Texas Hold'em: every class against 1 (exact) to 9 random opponents (seeded Monte Carlo)",
        tables: &[],
        plan: |spec| holdem::job::MultiwayJob::new(spec).map(erased),
    },
    Kind {
        name: "holdem.pushfold",
        description: "Texas Hold'em: the exact heads-up push/fold equilibrium at every stack, with antes",
        tables: &["pushfold"],
        plan: |spec| holdem::job::PushFoldJob::new(spec).map(erased),
    },
    Kind {
        name: "holdem.preflop",
        description: "Texas Hold'em: exact equity of all 169 starting hands (and 1,326 combos) vs one random hand",
        tables: &[],
        plan: |spec| holdem::job::PreflopJob::new(spec).map(erased),
    },
    Kind {
        name: "holdem.postflop",
        description: "Texas Hold'em: exact hand strength of every flop, turn and river state against a random hand (HS, E[HS], E[HS²], histograms)",
        tables: &["postflop"],
        plan: |spec| holdem::job::PostflopJob::new(spec).map(erased),
    },
    Kind {
        name: "holdem.threeway",
        description: "Texas Hold'em: exact three-way all-in equity of every triple of starting-hand classes (818,805 with all 169)",
        tables: &["threeway"],
        plan: |spec| holdem::job::ThreeWayJob::new(spec).map(erased),
    },
    Kind {
        name: "holdem.pushfold3",
        description: "Texas Hold'em: the three-handed push/fold equilibrium (BTN, SB, BB) at equal stacks, chip EV and ICM, certified by its exploitability",
        tables: &["pushfold3"],
        plan: |spec| holdem::job::PushFold3Job::new(spec).map(erased),
    },
    Kind {
        name: "niuniu.hands",
        description: "Niuniu: all C(52,5) hands, categories, exact win probability and banker EV",
        tables: &[],
        plan: |spec| niuniu::job::HandsJob::new(spec).map(erased),
    },
    Kind {
        name: "niuniu.bidding",
        description: "Niuniu see-four-cards bidding (看牌抢庄): every four-card hand's fifth-card odds, exact EVs, suggested bid",
        tables: &["bidding"],
        plan: |spec| niuniu::job::BiddingJob::new(spec).map(erased),
    },
    Kind {
        name: "niuniu.multiway",
        description: "Niuniu at a full table: every hand against 1 to 5 players, beating them all (通比) and the banker's spread (庄家)",
        tables: &["multiway"],
        plan: |spec| niuniu::job::MultiwayJob::new(spec).map(erased),
    },
    Kind {
        name: "zhajinhua.hands",
        description: "Zhajinhua: all C(52,3) hands under a rule variant, exact win/tie/loss vs 1 and 2 opponents",
        tables: &["betting"],
        plan: |spec| zhajinhua::job::HandsJob::new(spec).map(erased),
    },
    Kind {
        name: "stud.tables",
        description: "Five-card stud: categories per deck, exact hit probability vs the rule of 2 and 4, break-even outs",
        tables: &[],
        plan: |spec| stud::job::TablesJob::new(spec).map(erased),
    },
    Kind {
        name: "zhajinhua.multiway",
        description: "Zhajinhua: as zhajinhua.hands, plus 3 to 5 opponents by seeded Monte Carlo",
        tables: &["betting"],
        plan: |spec| zhajinhua::job::HandsJob::multiway(spec).map(erased),
    },
];

/// Plans the job a spec names, validating its rules.
pub fn build(spec: &JobSpec) -> Result<Box<dyn ErasedJob>, JobError> {
    let Some(kind) = KINDS.iter().find(|k| k.name == spec.kind) else {
        return Err(spec.field_error(
            "job.kind",
            format!(
                "unknown job kind {:?}: this build knows {}",
                spec.kind,
                KINDS
                    .iter()
                    .map(|k| format!("{:?}", k.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    };
    for table in EXTRA_TABLES {
        if spec.has_table(table) && !kind.tables.contains(&table) {
            let readers: Vec<&str> = KINDS
                .iter()
                .filter(|k| k.tables.contains(&table))
                .map(|k| k.name)
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
                    kind.name
                ),
            ));
        }
    }
    (kind.plan)(spec)
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

    /// The registry names each kind once, and every table a kind reads is one the job
    /// file parser knows.
    #[test]
    fn the_registry_names_each_kind_once() {
        for (i, k) in KINDS.iter().enumerate() {
            assert!(
                KINDS[..i].iter().all(|o| o.name != k.name),
                "{} twice",
                k.name
            );
            for t in k.tables {
                assert!(EXTRA_TABLES.contains(t), "{}: [{t}]", k.name);
            }
        }
    }
}
