//! `pipeline check`: everything `run` would refuse, found without computing anything —
//! the job file, its rules (every rule set of a grid), the run settings, a shard, and
//! whether the output folders can be written — and a summary of what the run would do.
//! Users run it before an overnight or cluster run.

use super::UsageError;
use crate::cli::CheckArgs;
use crate::engine::plan::{check_outputs, check_shard, units_of};
use crate::engine::{saved_progress, switch, SavedProgress};
use crate::job::JobSpec;

pub fn check(args: CheckArgs) -> anyhow::Result<()> {
    let spec = JobSpec::load(&args.job)?;
    let job = crate::games::build(&spec)?;
    let units = job.unit_count();
    check_shard(args.shard, units).map_err(UsageError::error)?;
    let tables = args.out.join("tables").join(&spec.name);
    let report = args.out.join("reports").join(format!("{}.md", spec.name));
    check_outputs(&args.out, &spec.name)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let thread_count = match args.threads.unwrap_or(spec.run.threads) {
        0 => cores,
        n => n,
    };
    let threads = match args.threads.unwrap_or(spec.run.threads) {
        0 => format!("every core ({cores})"),
        n => n.to_string(),
    };
    println!("{}: ok", spec.path);
    println!("  kind:     {}", spec.kind);
    println!("  name:     {}", spec.name);
    println!(
        "  units:    {units}{}",
        match args.shard {
            Some(s) => format!(
                " ({} in shard {}/{})",
                units_of(units, Some(s)).len(),
                s.index,
                s.count
            ),
            None => String::new(),
        }
    );
    println!("  threads:  {threads}");
    for line in job.describe() {
        println!("  work:     {line}");
    }
    let mut warnings = job.warnings();
    if let Some(cpu) = job.cpu_seconds() {
        // The shard's share of the work, spread over its threads.
        let share = match args.shard {
            Some(s) => units_of(units, Some(s)).len() as f64 / units.max(1) as f64,
            None => 1.0,
        };
        let wall = cpu * share / thread_count as f64;
        println!(
            "  estimate: about {} of CPU, {} on {thread_count} thread{} (a cost model, not a measurement)",
            duration(cpu * share),
            duration(wall),
            if thread_count == 1 { "" } else { "s" }
        );
        if wall > ABSURD_WALL_SECONDS {
            warnings.push(format!(
                "this run would take about {} on {thread_count} thread{}: check the settings that scale it (rounds, points per count, grid), or shard it",
                duration(wall),
                if thread_count == 1 { "" } else { "s" }
            ));
        }
    }
    for line in &warnings {
        println!("  warning:  {line}");
    }
    println!("  tables:   {}", tables.display());
    println!("  report:   {}", report.display());
    match saved_progress(&args.out, &spec, args.shard, units) {
        SavedProgress::None => {}
        SavedProgress::Resumable { done, total } => println!(
            "  checkpoint: {done} of {total} units done (a run resumes from it; --restart starts over)"
        ),
        SavedProgress::Refused(why) => println!("  checkpoint: unreadable or not this run's: {why}"),
    }
    if switch::pending(&tables) {
        println!(
            "  note:     a run died while switching its outputs into place ({} is left); the run finishes that switch first",
            tables.join(switch::JOURNAL).display()
        );
    }
    Ok(())
}

/// A run longer than this (three days) is flagged as probably not meant.
const ABSURD_WALL_SECONDS: f64 = 3.0 * 86_400.0;

/// `45 s`, `12 min`, `3.1 h`, `4.2 days`, `3.0 years`.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5_400.0 => format!("{:.0} min", s / 60.0),
        s if s < 2.0 * 86_400.0 => format!("{:.1} h", s / 3_600.0),
        s if s < 730.0 * 86_400.0 => format!("{:.1} days", s / 86_400.0),
        s => format!("{:.1} years", s / (365.25 * 86_400.0)),
    }
}
