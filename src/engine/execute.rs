//! Execution: the worker pool, and computing units on it while finished units are
//! checkpointed, so an interrupted run resumes where it stopped.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use rayon::prelude::*;

use super::checkpoint::Checkpoint;
use super::progress::Progress;
use super::ErasedJob;

/// How often finished units are persisted during a run.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(5);

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
/// `checkpoint` (everything in `finished`) every few seconds and on failure.
pub fn compute_units(
    job: &dyn ErasedJob,
    todo: &[usize],
    pool: &rayon::ThreadPool,
    finished: &mut BTreeMap<u32, Vec<u8>>,
    checkpoint: (&Path, &Checkpoint),
    progress: &Progress,
) -> anyhow::Result<()> {
    let (checkpoint_path, template) = checkpoint;
    let save = |finished: &BTreeMap<u32, Vec<u8>>| -> anyhow::Result<()> {
        Checkpoint {
            units: finished.iter().map(|(k, v)| (*k, v.clone())).collect(),
            ..template.clone()
        }
        .save(checkpoint_path)
    };
    let abort_after = abort_after_units();
    let every = checkpoint_every();
    let (tx, rx) = mpsc::channel::<anyhow::Result<(u32, Vec<u8>)>>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                // Every unit its own task, so an idle thread can take any unit not yet
                // started: units differ in cost (an analysis beside simulation chunks,
                // strong and weak hands), and rayon's default halving of the list left
                // whole runs of them on one thread.
                todo.par_iter().with_max_len(1).for_each_with(tx, |tx, &u| {
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
                save(finished)?;
                last_save = Instant::now();
                if abort_after.is_some_and(|k| finished.len() >= k) {
                    std::process::abort();
                }
            }
        }
        match failure {
            Some(e) => {
                save(finished)?;
                Err(e)
            }
            None => Ok(()),
        }
    })
}
