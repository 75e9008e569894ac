//! `pipeline merge`: shard parts joined into the files one run writes.

use super::print_summary;
use crate::cli::MergeArgs;
use crate::engine::{self, MergeConfig, Parts};

pub fn merge(args: MergeArgs) -> anyhow::Result<()> {
    let parts = Parts::load(&args.parts)?;
    let job = crate::games::build(&parts.spec)?;
    let config = MergeConfig {
        out: args.out,
        threads: args.threads,
        quiet: args.quiet,
    };
    let summary = engine::merge(&config, parts, &*job)?;
    print_summary(&summary, args.quiet);
    Ok(())
}
