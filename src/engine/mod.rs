//! The engine: plans a job as numbered work units, runs them on every core, checkpoints,
//! shards, merges, and hands the results to the sinks. It is handed a built job (a
//! [`Job`], erased to [`ErasedJob`]) and imports nothing from the games: the command
//! layer resolves a job kind through the games registry, as ripgrep's searcher knows only
//! the `Sink` its printer implements.
//!
//! A unit is a pure function of (rules, unit index), so results do not depend on thread
//! count, scheduling, interruption or sharding: the final outputs are a function of the
//! unit results taken in index order.
//!
//! - [`plan`]: which units a process computes (shards, scheduler variables), locks, and
//!   the validated set of shard parts a merge joins;
//! - `execute`: the worker pool and checkpointed unit execution;
//! - [`interrupt`]: stopping cleanly on SIGINT / SIGTERM, with the work saved;
//! - `write`: the one finish-and-write path shared by run and merge, and the manifest;
//! - [`Stash`]: what a job keeps of a long finish, so a run stopped there resumes past it;
//! - [`run()`](fn@run) / [`merge()`](fn@merge): the two entry points.

mod checkpoint;
mod execute;
pub mod interrupt;
mod lock;
mod manifest;
pub mod plan;
mod progress;
mod run;
mod stash;
pub mod switch;
mod write;

use serde::{de::DeserializeOwned, Serialize};

pub use crate::job::JobMeta;
pub use checkpoint::{PartFile, PART_PREFIX};
pub use execute::thread_pool;
pub use interrupt::Interrupted;
pub use lock::OutputLock;
pub use manifest::{FileRecord, Manifest, Phases};
pub use plan::{Parts, Shard};
pub use progress::Progress;
pub use run::{merge, run, saved_progress, MergeConfig, RunConfig, RunSummary, SavedProgress};
pub use stash::Stash;

use crate::report::Report;
use crate::sink::parquet::ParquetOutput;

/// Hands memory the allocator holds freed back to the system (glibc keeps freed blocks
/// of a few MB in its heaps, where they count as resident), between the steps of a job
/// that frees hundreds of MB at a time. A hint only: elsewhere it does nothing.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's own heaps to the
    // system; it touches no live allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The random stream of one work unit: PCG-64 with a state from the job seed and the unit
/// index as its stream selector, so units never share a sequence.
pub fn stream(seed: u64, unit: u64) -> rand_pcg::Pcg64 {
    let state = (u128::from(seed) << 64) | u128::from(seed.rotate_left(32) ^ 0x9e37_79b9_7f4a_7c15);
    rand_pcg::Pcg64::new(state, u128::from(unit))
}

/// The warning for a Monte Carlo target that a cell with outcomes near even odds cannot
/// reach within `max_trials` (its standard error is about √(1/4 / trials)), if any.
pub fn monte_carlo_warning(target_std_error: f64, max_trials: u64) -> Option<String> {
    let needed = 0.25 / (target_std_error * target_std_error);
    (needed > max_trials as f64).then(|| {
        format!(
            "target_std_error = {target_std_error:e} needs about {needed:.1e} trials for a cell near even odds, more than max_trials = {max_trials}: such cells stop at max_trials with a standard error of about {:.1e}",
            (0.25 / max_trials as f64).sqrt()
        )
    })
}

/// Everything a finished job produces, before anything touches the disk.
pub struct Outputs {
    /// The rule set the results were computed under, as TOML (goes into every file's
    /// metadata and the report).
    pub rules: String,
    /// Parquet tables, written to `tables/<name>/`.
    pub parquet: Vec<ParquetOutput>,
    /// Runtime table files, already in the `cardtables` format.
    pub tables: Vec<BinaryOutput>,
    /// The Markdown report and its charts.
    pub report: Report,
    /// More outputs, built only once these are written (see [`Later`]); `None` for a
    /// job that builds every output at once.
    pub later: Option<Later>,
}

/// The next step of a job that builds its outputs in steps: called once the outputs
/// before it are written and dropped, so that the job never holds every table at once
/// (the hold'em post-flop job, whose four streets' tables are several GB together). A
/// step's report, when it has one, replaces the earlier one. The manifest counts the time
/// of later steps as writing.
pub type Later = Box<dyn FnOnce(&Progress) -> anyhow::Result<Step> + Send>;

/// The outputs of one later step.
pub struct Step {
    pub parquet: Vec<ParquetOutput>,
    pub tables: Vec<BinaryOutput>,
    /// Runtime tables written straight into their files, never held as bytes.
    pub streamed: Vec<StreamedTable>,
    pub report: Option<Report>,
    pub later: Option<Later>,
}

/// A runtime table that `write` writes into its file (the `cardtables` `write_to` of its
/// payload), so that its bytes are never held in memory beside the payload.
pub struct StreamedTable {
    /// File name inside the job's output folder.
    pub file: String,
    /// Number of entries the table answers for; goes into the manifest.
    pub entries: u64,
    pub write: Box<TableWriter>,
}

/// Writes one runtime table into its file.
pub type TableWriter = dyn FnOnce(&mut dyn std::io::Write) -> anyhow::Result<()> + Send;

/// One runtime table file.
pub struct BinaryOutput {
    /// File name inside the job's output folder, e.g. `niuniu.bin`.
    pub file: String,
    pub bytes: Vec<u8>,
    /// Number of entries (hands, cells) the table answers for; goes into the manifest.
    pub entries: u64,
}

/// A job kind, typed: what one unit computes and how unit results become outputs.
pub trait Job: Send + Sync {
    /// The result of one unit; persisted in checkpoints and shard parts.
    type Unit: Serialize + DeserializeOwned + Send;

    /// Number of work units; fixed by the rules alone.
    fn unit_count(&self) -> usize;

    /// What a run would do beyond its unit count, one line each (rule sets, Monte Carlo
    /// targets, simulated rounds), for `pipeline check`.
    fn describe(&self) -> Vec<String> {
        Vec::new()
    }

    /// A rough cost model for `pipeline check`: the CPU-seconds a run needs on one core
    /// of a current server (rates measured in `reports/BENCHMARKS.md`), where the work
    /// depends on settings enough to make a run surprisingly long. `None`: seconds or
    /// minutes whatever the settings.
    fn cpu_seconds(&self) -> Option<f64> {
        None
    }

    /// Settings that are valid but probably not meant (a Monte Carlo target that no cell
    /// can reach within its trial budget), one line each, for `pipeline check`.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// Computes unit `index` (`< unit_count()`). Must be a pure function of the rules,
    /// the job seed and `index`.
    fn run_unit(&self, index: usize) -> Self::Unit;

    /// A key to start units in (lowest first), where the order in which they start
    /// matters for speed only: units whose work another unit reuses can be placed next to
    /// it, so that threads taking different parts of the list do not wait on each other.
    /// Results never depend on it. The default is the unit's index.
    fn start_order(&self, index: usize) -> usize {
        index
    }

    /// Checks that a stored unit result (read back from a checkpoint or a shard part,
    /// which a checksum protects only from accidents) is one `run_unit(index)` could
    /// produce: its kind, its lengths and the bounds `finish` relies on, so `finish` never
    /// panics on a forged file. The default accepts everything.
    fn check_unit(&self, index: usize, unit: &Self::Unit) -> Result<(), String> {
        let _ = (index, unit);
        Ok(())
    }

    /// Builds all outputs from every unit result, in index order. Work that takes long
    /// here can be kept in `stash` as it is done, so that a run stopped before its
    /// outputs are written resumes past it.
    fn finish(
        &self,
        meta: &JobMeta,
        units: Vec<Self::Unit>,
        progress: &Progress,
        stash: &Stash,
    ) -> anyhow::Result<Outputs>;
}

/// A [`Job`] with its unit type erased to bytes, so the engine can hold any kind.
pub trait ErasedJob: Send + Sync {
    fn unit_count(&self) -> usize;
    fn describe(&self) -> Vec<String>;
    fn cpu_seconds(&self) -> Option<f64>;
    fn warnings(&self) -> Vec<String>;
    fn start_order(&self, index: usize) -> usize;
    fn run_unit_bytes(&self, index: usize) -> anyhow::Result<Vec<u8>>;
    fn finish_bytes(
        &self,
        meta: &JobMeta,
        units: Vec<Vec<u8>>,
        progress: &Progress,
        stash: &Stash,
    ) -> anyhow::Result<Outputs>;
}

impl<J: Job> ErasedJob for J {
    fn unit_count(&self) -> usize {
        Job::unit_count(self)
    }

    fn describe(&self) -> Vec<String> {
        Job::describe(self)
    }

    fn cpu_seconds(&self) -> Option<f64> {
        Job::cpu_seconds(self)
    }

    fn warnings(&self) -> Vec<String> {
        Job::warnings(self)
    }

    fn start_order(&self, index: usize) -> usize {
        Job::start_order(self, index)
    }

    fn run_unit_bytes(&self, index: usize) -> anyhow::Result<Vec<u8>> {
        Ok(cardtables::format::encode(&self.run_unit(index))?)
    }

    fn finish_bytes(
        &self,
        meta: &JobMeta,
        units: Vec<Vec<u8>>,
        progress: &Progress,
        stash: &Stash,
    ) -> anyhow::Result<Outputs> {
        // Each stored result is dropped once decoded, so the two forms of every unit are
        // never held at once.
        let units = units
            .into_iter()
            .enumerate()
            .map(|(i, bytes)| {
                let unit: J::Unit = cardtables::format::decode(&bytes).map_err(|e| {
                    anyhow::anyhow!("stored result of unit {i} does not decode ({e}): delete the checkpoint or part and rerun")
                })?;
                self.check_unit(i, &unit).map_err(|e| {
                    anyhow::anyhow!("stored result of unit {i} is not one this job produces ({e}): delete the checkpoint or part and rerun")
                })?;
                Ok(unit)
            })
            .collect::<anyhow::Result<Vec<J::Unit>>>()?;
        self.finish(meta, units, progress, stash)
    }
}
