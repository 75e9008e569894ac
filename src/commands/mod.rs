//! The subcommands, one file each (as `fst-bin/src/cmd/`): each takes its parsed
//! arguments, prints its answer to stdout and returns errors for `main` to print.
//!
//! This layer is where a job kind becomes a job: it asks the games registry
//! ([`crate::games::build`]) and hands the result to the engine, which knows no game.

mod cards;
mod check;
mod equity;
mod inspect;
mod list;
mod merge;
pub mod query;
mod run;

use crate::cli::{Cli, Command};
use crate::engine::RunSummary;

/// A command-line value that is out of range (exit code 2, like a bad job file).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

impl UsageError {
    /// A usage error as an [`anyhow::Error`], for `?` in command code.
    pub fn error(message: impl Into<String>) -> anyhow::Error {
        anyhow::Error::new(UsageError(message.into()))
    }
}

/// Runs one parsed command line.
pub fn execute(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Merge(args) => merge::merge(args),
        Command::Check(args) => check::check(args),
        Command::List { jobs, kinds } => {
            if kinds {
                list::kinds();
                Ok(())
            } else {
                list::list(&jobs)
            }
        }
        Command::Inspect { file } => inspect::inspect(&file),
        Command::Cards { hand, json } => cards::cards(&hand, json),
        Command::Equity(args) => equity::equity(&args),
        Command::Query { json, game } => query::query(game, json),
    }
}

/// The closing lines of `run` and `merge`: a summary on stderr (unless quiet), the files
/// written on stdout.
fn print_summary(summary: &RunSummary, quiet: bool) {
    if !quiet {
        eprintln!(
            "{}: {} units computed{}, {:.2} s wall, {:.2} s CPU on {} threads",
            summary.job,
            summary.units_run,
            if summary.units_resumed > 0 {
                format!(", {} taken from earlier work", summary.units_resumed)
            } else {
                String::new()
            },
            summary.wall_seconds,
            summary.cpu_seconds,
            summary.threads
        );
        for line in &summary.headline {
            eprintln!("  {line}");
        }
    }
    for file in &summary.files {
        println!("{}", file.display());
    }
}
