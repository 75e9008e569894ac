//! Execution: the worker pool, and computing units on it while finished units are
//! checkpointed, so an interrupted run resumes where it stopped.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use rayon::prelude::*;

use super::checkpoint::{Checkpoint, CheckpointRef};
use super::interrupt::{self, Interrupted};
use super::progress::Progress;
use super::ErasedJob;

/// How often finished units are persisted during a run.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(5);

/// A run whose units took at least this long saves them all before finishing.
const SAVE_AT_END_AFTER: Duration = Duration::from_secs(1);

/// The checkpoint interval: [`CHECKPOINT_EVERY`], or `PIPELINE_CHECKPOINT_MS` milliseconds
/// (tests use a short one to kill runs between checkpoints).
fn checkpoint_every() -> Duration {
    std::env::var("PIPELINE_CHECKPOINT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(CHECKPOINT_EVERY, Duration::from_millis)
}

/// Test hook: `PIPELINE_ABORT_AFTER_UNITS=k` aborts the process (like `kill -9`) right
/// after the first checkpoint that holds at least `k` units, so tests can prove resume.
fn abort_after_units() -> Option<usize> {
    std::env::var("PIPELINE_ABORT_AFTER_UNITS")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// CPU time (user + system) of this process so far, in seconds.
pub fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// A worker pool of `requested` threads (else the job's `[run] threads`); 0 means every
/// core.
pub fn thread_pool(
    requested: Option<usize>,
    job_threads: usize,
) -> anyhow::Result<rayon::ThreadPool> {
    let threads = match requested.unwrap_or(job_threads) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")
}

/// Computes the `todo` units on `pool`, adding each result to `finished` and saving
/// `checkpoint` (everything in `finished`) every few seconds, on failure, on a stop signal
/// ([`interrupt`]) and at the end of any run that lasted long enough to be worth saving.
/// `total` is the number of units this run owns (those in `finished` included).
///
/// A stop signal lets the units in flight finish, starts no other, saves, and returns
/// [`Interrupted`]. Returns how many units the checkpoint on disk holds.
pub fn compute_units(
    job: &dyn ErasedJob,
    todo: &[usize],
    total: usize,
    pool: &rayon::ThreadPool,
    finished: &mut BTreeMap<u32, Vec<u8>>,
    checkpoint: (&Path, &Checkpoint),
    progress: &Progress,
) -> anyhow::Result<usize> {
    let (checkpoint_path, template) = checkpoint;
    let mut saved = finished.len();
    interrupt::saved(saved, total);
    let save = |finished: &BTreeMap<u32, Vec<u8>>, saved: &mut usize| -> anyhow::Result<()> {
        CheckpointRef {
            job_hash: &template.job_hash,
            shard: template.shard,
            unit_count: template.unit_count,
            units: finished.iter().map(|(k, v)| (*k, v.as_slice())).collect(),
        }
        .save(checkpoint_path)?;
        *saved = finished.len();
        interrupt::saved(*saved, total);
        Ok(())
    };
    let abort_after = abort_after_units();
    let every = checkpoint_every();
    let started = Instant::now();
    let (tx, rx) = mpsc::channel::<anyhow::Result<(u32, Vec<u8>)>>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                // Every unit its own task, so an idle thread can take any unit not yet
                // started: units differ in cost (an analysis beside simulation chunks,
                // strong and weak hands), and rayon's default halving of the list left
                // whole runs of them on one thread.
                todo.par_iter().with_max_len(1).for_each_with(tx, |tx, &u| {
                    if interrupt::requested().is_some() {
                        return;
                    }
                    let result = job.run_unit_bytes(u).map(|bytes| (u as u32, bytes));
                    let _ = tx.send(result);
                })
            })
        });
        let mut last_save = Instant::now();
        let mut failure = None;
        for message in rx {
            match message {
                Ok((u, bytes)) => {
                    finished.insert(u, bytes);
                    progress.inc();
                }
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
            if last_save.elapsed() >= every || abort_after.is_some() {
                save(finished, &mut saved)?;
                last_save = Instant::now();
                if abort_after.is_some_and(|k| finished.len() >= k) {
                    std::process::abort();
                }
            }
        }
        if let Some(e) = failure {
            save(finished, &mut saved)?;
            return Err(e);
        }
        if let Some(signal) = interrupt::requested() {
            if saved < finished.len() || !checkpoint_path.exists() {
                save(finished, &mut saved)?;
            }
            return Err(Interrupted {
                signal,
                saved,
                total,
            }
            .into());
        }
        // A run that took a while keeps its results through the finish, so a signal or
        // crash while writing loses nothing but the writing.
        if saved < finished.len() && started.elapsed() >= SAVE_AT_END_AFTER {
            save(finished, &mut saved)?;
        }
        Ok(saved)
    })
}
