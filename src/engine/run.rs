//! `run` and `merge`: a job the caller built, computed (or joined from shard parts) and
//! written. The caller resolves the job kind; the engine only sees [`ErasedJob`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};

use super::checkpoint::{part_stem, Checkpoint, PartFile};
use super::execute::{compute_units, cpu_seconds, thread_pool};
use super::interrupt::{self, Interrupted};
use super::lock::OutputLock;
use super::plan::{check_outputs, check_shard, lock_path, units_of, Parts, Shard};
use super::progress::Progress;
use super::stash::Stash;
use super::switch;
use super::write::{finish_and_write, Tally};
use super::ErasedJob;
use crate::job::JobSpec;

/// Everything `pipeline run` needs, validated from the command line.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Root of the outputs: tables go to `<out>/tables/<name>/`, reports to `<out>/reports/`.
    pub out: PathBuf,
    /// Overrides `[run] threads`; 0 or absent with `threads = 0` means every core.
    pub threads: Option<usize>,
    pub quiet: bool,
    pub shard: Option<Shard>,
    /// Discard a checkpoint of an earlier run instead of resuming from it (`--restart`).
    pub restart: bool,
}

/// Everything `pipeline merge` needs besides the parts.
#[derive(Clone, Debug)]
pub struct MergeConfig {
    pub out: PathBuf,
    /// Worker threads for building and writing (default: the job's `[run] threads`).
    pub threads: Option<usize>,
    pub quiet: bool,
}

/// What a run or merge did, for the closing message.
#[derive(Debug, Clone)]
pub struct RunSummary {
    pub job: String,
    pub files: Vec<PathBuf>,
    pub units_run: usize,
    pub units_resumed: usize,
    pub wall_seconds: f64,
    pub cpu_seconds: f64,
    pub threads: usize,
    /// The main results in two or three lines (empty for a shard).
    pub headline: Vec<String>,
}

/// Runs `job` (planned from `spec`), or one shard of it, and writes its outputs.
pub fn run(config: &RunConfig, spec: &JobSpec, job: &dyn ErasedJob) -> anyhow::Result<RunSummary> {
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let pool = thread_pool(config.threads, spec.run.threads)?;
    let unit_count = job.unit_count();
    check_shard(config.shard, unit_count).map_err(anyhow::Error::msg)?;
    check_outputs(&config.out, &spec.name)?;
    let dir = config.out.join("tables").join(&spec.name);
    let shard_pair = config.shard.map(Shard::pair);
    let checkpoint_path = Checkpoint::path(&dir, shard_pair);
    let _lock = OutputLock::acquire(&lock_path(&dir, config.shard))?;
    // Holding the lock, every temporary file of what this run writes is a dead run's.
    match config.shard {
        Some(s) => {
            let stem = part_stem(s.index, s.count);
            remove_stale_temps(&dir, |target| target == format!(".checkpoint-{stem}.bin"))?;
            remove_stale_temps(&dir.join("parts"), |target| target == format!("{stem}.bin"))?;
        }
        None => {
            finish_pending_switch(&config.out, &spec.name)?;
            remove_stale_output_temps(&config.out, &spec.name)?;
        }
    }

    let mut finished: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    let mine = units_of(unit_count, config.shard);
    if checkpoint_path.exists() {
        if config.restart {
            eprintln!(
                "note: --restart: discarding the progress saved in {}",
                checkpoint_path.display()
            );
        } else {
            let units = resumable_units(&checkpoint_path, spec, shard_pair, unit_count)?;
            // Said even with --quiet: a batch log must show that work was taken over.
            eprintln!(
                "resuming: {} of {} units done (saved in {}; --restart starts over)",
                units.len(),
                mine.len(),
                checkpoint_path.display()
            );
            finished.extend(units);
        }
    }

    // Work a stopped run saved while building its outputs (see `Stash`).
    if config.shard.is_none() && Stash::exists_in(&dir) {
        if config.restart {
            Stash::of(&dir, &spec.hash).remove()?;
            eprintln!(
                "note: --restart: discarding the work saved in {}",
                Stash::folder(&dir).display()
            );
        } else {
            eprintln!(
                "resuming: the work saved in {} is used where it fits (--restart starts over)",
                Stash::folder(&dir).display()
            );
        }
    }

    let mut todo: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|u| !finished.contains_key(&(*u as u32)))
        .collect();
    todo.sort_by_key(|&u| (job.start_order(u), u));
    let resumed = mine.len() - todo.len();
    let progress = Progress::units(mine.len() as u64, resumed as u64, config.quiet, &spec.name);
    let template = Checkpoint {
        job_hash: spec.hash.clone(),
        shard: shard_pair,
        unit_count: unit_count as u32,
        units: Vec::new(),
    };
    let saved = compute_units(
        job,
        &todo,
        mine.len(),
        &pool,
        &mut finished,
        (&checkpoint_path, &template),
        &progress,
    )
    .inspect_err(|_| progress.finish())?;
    if let Some(signal) = interrupt::finishing(saved, mine.len()) {
        progress.finish();
        return Err(Interrupted {
            signal,
            saved,
            total: mine.len(),
        }
        .into());
    }

    let (files, headline) = if let Some(shard) = config.shard {
        progress.phase("writing shard part");
        let part = PartFile {
            job_hash: spec.hash.clone(),
            job_path: spec.path.clone(),
            job_text: spec.text.clone(),
            shard: shard.index,
            shards: shard.count,
            unit_count: unit_count as u32,
            units: finished.into_iter().collect(),
        };
        let path = dir.join("parts").join(part.file_name());
        part.save(&path)?;
        progress.finish();
        (vec![path], Vec::new())
    } else {
        let units: Vec<Vec<u8>> = finished.into_values().collect();
        let tally = Tally {
            units: unit_count as u32,
            shards: 1,
            threads: pool.current_num_threads(),
            started,
            cpu_start,
            units_seconds: started.elapsed().as_secs_f64(),
            stored: (resumed > 0).then(|| {
                format!(
                    "{resumed} of the unit results came from the checkpoint {}: results no run \
                     computes (a checkpoint edited, damaged past its checksum, or units swapped) \
                     fail this way; run with --restart to compute every unit again",
                    checkpoint_path.display()
                )
            }),
        };
        finish_and_write(&config.out, spec, job, units, &pool, &progress, tally)?
    };
    remove_checkpoint(&checkpoint_path)?;
    Ok(RunSummary {
        job: spec.name.clone(),
        files,
        units_run: todo.len(),
        units_resumed: resumed,
        wall_seconds: started.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds() - cpu_start,
        threads: pool.current_num_threads(),
        headline,
    })
}

/// What an output folder holds of an interrupted run, for `pipeline check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SavedProgress {
    /// No checkpoint: a run starts from the first unit.
    None,
    /// A checkpoint a run resumes from: `done` of the `total` units this run computes.
    Resumable { done: usize, total: usize },
    /// A checkpoint a run refuses, and why (the message says what to do).
    Refused(String),
}

/// The checkpoint a run of `spec` (or of one shard) into `out` would find.
pub fn saved_progress(
    out: &Path,
    spec: &JobSpec,
    shard: Option<Shard>,
    unit_count: usize,
) -> SavedProgress {
    let dir = out.join("tables").join(&spec.name);
    let shard_pair = shard.map(Shard::pair);
    let path = Checkpoint::path(&dir, shard_pair);
    if !path.exists() {
        return SavedProgress::None;
    }
    match resumable_units(&path, spec, shard_pair, unit_count) {
        Ok(units) => SavedProgress::Resumable {
            done: units.len(),
            total: units_of(unit_count, shard).len(),
        },
        Err(e) => SavedProgress::Refused(format!("{e:#}")),
    }
}

/// The unit results saved in the checkpoint at `path`, after checking that they belong to
/// this job, build and shard; every refusal says how to start over.
fn resumable_units(
    path: &Path,
    spec: &JobSpec,
    shard: Option<(u32, u32)>,
    unit_count: usize,
) -> anyhow::Result<Vec<(u32, Vec<u8>)>> {
    let restart = "run with --restart to discard it and start over";
    let cp = Checkpoint::load(path)
        .with_context(|| format!("cannot resume from {}; {restart}", path.display()))?;
    if cp.job_hash != spec.hash {
        bail!(
            "cannot resume: the checkpoint {} was made from a different version of {} (job hash {} ≠ {}); put that version back to finish it, or {restart}",
            path.display(),
            spec.path,
            cp.job_hash.get(..12).unwrap_or(&cp.job_hash),
            &spec.hash[..12]
        );
    }
    if cp.shard != shard || cp.unit_count as usize != unit_count {
        bail!(
            "cannot resume: the checkpoint {} belongs to another shard layout or build; {restart}",
            path.display()
        );
    }
    let mine = |u: u32| match shard {
        Some((i, n)) => u as usize % n as usize == i as usize,
        None => true,
    };
    if let Some((u, _)) = cp
        .units
        .iter()
        .find(|(u, _)| *u as usize >= unit_count || !mine(*u))
    {
        bail!(
            "cannot resume: the checkpoint {} holds unit {u}, which this run does not compute; {restart}",
            path.display()
        );
    }
    Ok(cp.units)
}

/// Removes the temporary files (`.NAME.tmp-PID`, see `sink::stage`) in `dir` whose target
/// `NAME` the caller's lock covers: left by a run that died while writing.
fn remove_stale_temps(dir: &Path, owned: impl Fn(&str) -> bool) -> anyhow::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(())
        }
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((target, pid)) = name.strip_prefix('.').and_then(|n| n.rsplit_once(".tmp-"))
        else {
            continue;
        };
        if pid.chars().all(|c| c.is_ascii_digit()) && !pid.is_empty() && owned(target) {
            let path = entry.path();
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove stale {}", path.display()))?;
        }
    }
    Ok(())
}

/// Finishes the output switch a dead run left (see [`switch`]), before anything else
/// touches the outputs; says so on stderr.
fn finish_pending_switch(out: &Path, name: &str) -> anyhow::Result<()> {
    if let Some(moved) = switch::finish_pending(out, name)? {
        eprintln!(
            "note: finished switching the outputs of an interrupted run of {name} ({moved} files moved into place)"
        );
    }
    Ok(())
}

/// The stale temporary files of a whole run's outputs: every one in its table folder
/// except the shards' checkpoints (their own locks cover those), and its report's.
fn remove_stale_output_temps(out: &Path, name: &str) -> anyhow::Result<()> {
    remove_stale_temps(&out.join("tables").join(name), |target| {
        !target.starts_with(".checkpoint-part-")
    })?;
    remove_stale_temps(&out.join("reports"), |target| {
        target == format!("{name}.md")
    })?;
    remove_stale_temps(&out.join("reports").join(name), |_| true)
}

fn remove_checkpoint(path: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("cannot remove checkpoint {}", path.display()))
        }
        _ => Ok(()),
    }
}

/// Joins shard parts (of the job `job` was built from: [`Parts::spec`]) into exactly the
/// files a single run writes.
pub fn merge(
    config: &MergeConfig,
    parts: Parts,
    job: &dyn ErasedJob,
) -> anyhow::Result<RunSummary> {
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let spec = &parts.spec;
    let _lock = OutputLock::acquire(&lock_path(
        &config.out.join("tables").join(&spec.name),
        None,
    ))?;
    finish_pending_switch(&config.out, &spec.name)?;
    remove_stale_output_temps(&config.out, &spec.name)?;
    if job.unit_count() != parts.unit_count as usize {
        bail!(
            "the parts expect {} units but this build of pipeline plans {}: merge with the version that ran them",
            parts.unit_count,
            job.unit_count()
        );
    }
    let pool = thread_pool(config.threads, spec.run.threads)?;
    let progress = Progress::units(1, 0, config.quiet, &spec.name);
    let tally = Tally {
        units: parts.unit_count,
        shards: parts.shards,
        threads: pool.current_num_threads(),
        started,
        cpu_start,
        units_seconds: 0.0,
        stored: Some(
            "the unit results came from shard parts: results no run computes (a part edited, \
             damaged past its checksum, or units swapped between parts) fail this way; run the \
             shards again"
                .to_string(),
        ),
    };
    let unit_count = parts.unit_count as usize;
    let (files, headline) =
        finish_and_write(&config.out, spec, job, parts.units, &pool, &progress, tally)?;
    Ok(RunSummary {
        job: spec.name.clone(),
        files,
        units_run: 0,
        units_resumed: unit_count,
        wall_seconds: started.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds() - cpu_start,
        threads: pool.current_num_threads(),
        headline,
    })
}
