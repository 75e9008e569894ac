//! `pipeline run`: one job file (or one shard of it) computed and written. Ctrl-C and
//! SIGTERM stop it with its work saved; the same command resumes it.

use super::{print_summary, UsageError};
use crate::cli::RunArgs;
use anyhow::Context;

use crate::engine::plan::check_shard;
use crate::engine::{self, RunConfig, Shard};
use crate::job::JobSpec;

pub fn run(args: RunArgs) -> anyhow::Result<()> {
    let shard = match args.shard {
        Some(s) => Some(s),
        None => match Shard::from_env(|k| std::env::var(k).ok(), args.shards)
            .map_err(UsageError::error)?
        {
            Some((s, source)) => {
                if !args.quiet {
                    eprintln!("shard {}/{} from {source}", s.index, s.count);
                }
                Some(s)
            }
            None if args.shards.is_some() => {
                return Err(UsageError::error(
                    "--shards N only completes a scheduler's index (JOB_COMPLETION_INDEX, \
                     AWS_BATCH_JOB_ARRAY_INDEX) and none is set: use --shard I/N",
                ))
            }
            None => None,
        },
    };
    let spec = JobSpec::load(&args.job)?;
    let job = crate::games::build(&spec)?;
    check_shard(shard, job.unit_count()).map_err(UsageError::error)?;
    let config = RunConfig {
        out: args.out,
        threads: args.threads,
        quiet: args.quiet,
        shard,
        restart: args.restart,
    };
    engine::interrupt::install().context("cannot install the handler for Ctrl-C and SIGTERM")?;
    let summary = engine::run(&config, &spec, &*job)?;
    print_summary(&summary, args.quiet);
    Ok(())
}
