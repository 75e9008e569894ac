//! `pipeline run` and `pipeline merge`: execute units, persist progress, write outputs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use rayon::prelude::*;

use super::checkpoint::{Checkpoint, PartFile, PART_PREFIX};
use super::lock::OutputLock;
use super::manifest::{FileRecord, Manifest, Phases};
use super::progress::Progress;
use super::{BinaryOutput, Outputs};
use crate::job::JobSpec;
use crate::sink::parquet::ParquetOutput;
use crate::sink::{self, atomic_write_bytes};

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

/// This process's share of a sharded run: units `u` with `u % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Parses `I/N` with `0 <= I < N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?} is not I/N (e.g. 0/4 for the first of four shards)"))?;
        let index: u32 = i
            .trim()
            .parse()
            .map_err(|_| format!("shard index {i:?} is not a whole number"))?;
        let count: u32 = n
            .trim()
            .parse()
            .map_err(|_| format!("shard count {n:?} is not a whole number"))?;
        if count == 0 || index >= count {
            return Err(format!(
                "shard {index}/{count} does not exist: use I/N with 0 <= I < N"
            ));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The shard a cluster scheduler assigned to this process, when `--shard` is absent:
    /// Slurm job arrays (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`, offset by
    /// `SLURM_ARRAY_TASK_MIN`), Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`) and AWS
    /// Batch array jobs (`AWS_BATCH_JOB_ARRAY_INDEX`); the last two need the shard count
    /// from `--shards N` (or `PIPELINE_SHARDS`). Returns the shard and where it came from.
    pub fn from_env(
        var: impl Fn(&str) -> Option<String>,
        count: Option<u32>,
    ) -> Result<Option<(Shard, &'static str)>, String> {
        let number = |name: &str| -> Result<Option<u32>, String> {
            match var(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("{name}={v:?} is not a whole number")),
            }
        };
        let count = match count {
            Some(n) => Some(n),
            None => number("PIPELINE_SHARDS")?,
        };
        let make = |index: u32, count: Option<u32>, source: &'static str, hint: &str| {
            let count = count.ok_or_else(|| {
                format!("{source} is set but the number of shards is not: pass --shards N{hint}")
            })?;
            format!("{index}/{count}")
                .parse::<Shard>()
                .map(|s| Some((s, source)))
                .map_err(|e| format!("{source}: {e}"))
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let index = id.checked_sub(min).ok_or_else(|| {
                format!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}")
            })?;
            let count = count.or(number("SLURM_ARRAY_TASK_COUNT")?);
            return make(
                index,
                count,
                "SLURM_ARRAY_TASK_ID",
                " (or run as an sbatch --array job)",
            );
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            return make(
                index,
                count,
                "JOB_COMPLETION_INDEX",
                " (the Job's completions)",
            );
        }
        if let Some(index) = number("AWS_BATCH_JOB_ARRAY_INDEX")? {
            return make(
                index,
                count,
                "AWS_BATCH_JOB_ARRAY_INDEX",
                " (the array size)",
            );
        }
        Ok(None)
    }
}

/// Everything `pipeline run` needs, validated from the command line.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub job: PathBuf,
    /// Root of the outputs: tables go to `<out>/tables/<name>/`, reports to `<out>/reports/`.
    pub out: PathBuf,
    /// Overrides `[run] threads`; 0 or absent with `threads = 0` means every core.
    pub threads: Option<usize>,
    pub quiet: bool,
    pub shard: Option<Shard>,
    pub resume: bool,
}

/// Everything `pipeline merge` needs.
#[derive(Clone, Debug)]
pub struct MergeConfig {
    /// Part files, or folders holding them.
    pub parts: Vec<PathBuf>,
    pub out: PathBuf,
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
}

/// CPU time (user + system) of this process so far, in seconds.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

fn thread_pool(requested: Option<usize>, spec: &JobSpec) -> anyhow::Result<rayon::ThreadPool> {
    let threads = match requested.unwrap_or(spec.run.threads) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")
}

/// Test hook: `PIPELINE_ABORT_AFTER_UNITS=k` aborts the process (like `kill -9`) right
/// after the first checkpoint that holds at least `k` units, so tests can prove resume.
fn abort_after_units() -> Option<usize> {
    std::env::var("PIPELINE_ABORT_AFTER_UNITS")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// Runs a job (or one shard of it) and writes its outputs.
pub fn run(config: &RunConfig) -> anyhow::Result<RunSummary> {
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let spec = JobSpec::load(&config.job)?;
    let job = crate::games::build(&spec)?;
    let pool = thread_pool(config.threads, &spec)?;
    let unit_count = job.unit_count();
    let dir = config.out.join("tables").join(&spec.name);
    let shard_pair = config.shard.map(|s| (s.index, s.count));
    let checkpoint_path = Checkpoint::path(&dir, shard_pair);
    let _lock = OutputLock::acquire(&lock_path(&dir, shard_pair))?;

    let mut finished: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    if config.resume {
        if checkpoint_path.exists() {
            let cp = Checkpoint::load(&checkpoint_path)?;
            if cp.job_hash != spec.hash {
                bail!(
                    "cannot resume: the checkpoint {} was made from a different version of {} (job hash {} ≠ {}); run without --resume to start over",
                    checkpoint_path.display(), spec.path, &cp.job_hash[..12], &spec.hash[..12]
                );
            }
            if cp.shard != shard_pair || cp.unit_count as usize != unit_count {
                bail!(
                    "cannot resume: the checkpoint {} belongs to another shard layout; run without --resume to start over",
                    checkpoint_path.display()
                );
            }
            finished.extend(cp.units);
        }
    } else if checkpoint_path.exists() {
        eprintln!(
            "note: {} holds progress of an interrupted run; starting over (use --resume to continue it)",
            checkpoint_path.display()
        );
    }

    let mine: Vec<usize> = (0..unit_count)
        .filter(|u| shard_pair.is_none_or(|(i, n)| *u as u32 % n == i))
        .collect();
    let todo: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|u| !finished.contains_key(&(*u as u32)))
        .collect();
    let resumed = mine.len() - todo.len();
    let progress = Progress::units(mine.len() as u64, resumed as u64, config.quiet, &spec.name);

    let save = |finished: &BTreeMap<u32, Vec<u8>>| -> anyhow::Result<()> {
        Checkpoint {
            job_hash: spec.hash.clone(),
            shard: shard_pair,
            unit_count: unit_count as u32,
            units: finished.iter().map(|(k, v)| (*k, v.clone())).collect(),
        }
        .save(&checkpoint_path)
    };
    let abort_after = abort_after_units();
    let every = checkpoint_every();
    let (tx, rx) = mpsc::channel::<anyhow::Result<(u32, Vec<u8>)>>();
    let outcome: anyhow::Result<()> = std::thread::scope(|scope| {
        let job = &*job;
        let todo = &todo;
        let pool = &pool;
        scope.spawn(move || {
            pool.install(|| {
                todo.par_iter().for_each_with(tx, |tx, &u| {
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
                save(&finished)?;
                last_save = Instant::now();
                if abort_after.is_some_and(|k| finished.len() >= k) {
                    std::process::abort();
                }
            }
        }
        match failure {
            Some(e) => {
                save(&finished)?;
                Err(e)
            }
            None => Ok(()),
        }
    });
    outcome?;

    if let Some(shard) = config.shard {
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
        remove_checkpoint(&checkpoint_path)?;
        return Ok(RunSummary {
            job: spec.name.clone(),
            files: vec![path],
            units_run: todo.len(),
            units_resumed: resumed,
            wall_seconds: started.elapsed().as_secs_f64(),
            cpu_seconds: cpu_seconds() - cpu_start,
            threads: pool.current_num_threads(),
        });
    }

    let units: Vec<Vec<u8>> = finished.into_values().collect();
    let units_seconds = started.elapsed().as_secs_f64();
    progress.phase("building tables");
    let outputs = pool.install(|| job.finish_bytes(units, &progress))?;
    let build_seconds = started.elapsed().as_secs_f64() - units_seconds;
    progress.phase("writing outputs");
    let files = pool.install(|| {
        write_outputs(
            &config.out,
            &spec,
            outputs,
            Tally {
                units: unit_count as u32,
                shards: 1,
                threads: pool.current_num_threads(),
                started,
                cpu_start,
                units_seconds,
                build_seconds,
            },
        )
    })?;
    progress.finish();
    remove_checkpoint(&checkpoint_path)?;
    Ok(RunSummary {
        job: spec.name.clone(),
        files,
        units_run: todo.len(),
        units_resumed: resumed,
        wall_seconds: started.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds() - cpu_start,
        threads: pool.current_num_threads(),
    })
}

/// The lock of a whole run's outputs, or of one shard's part.
fn lock_path(dir: &Path, shard: Option<(u32, u32)>) -> PathBuf {
    match shard {
        None => dir.join(".lock"),
        Some((i, n)) => dir.join(format!(".lock-{}", super::checkpoint::part_stem(i, n))),
    }
}

fn remove_checkpoint(path: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("cannot remove checkpoint {}", path.display()))
        }
        _ => Ok(()),
    }
}

/// Part files named directly or found (non-recursively) in the given folders.
fn collect_part_files(inputs: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(input)
                .with_context(|| format!("cannot list {}", input.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name().is_some_and(|n| {
                        let n = n.to_string_lossy();
                        n.starts_with(PART_PREFIX) && n.ends_with(".bin")
                    })
                })
                .collect();
            found.sort();
            if found.is_empty() {
                bail!("{} holds no part-*.bin files", input.display());
            }
            files.extend(found);
        } else if input.is_file() {
            files.push(input.clone());
        } else {
            bail!("{} does not exist", input.display());
        }
    }
    Ok(files)
}

/// Joins shard parts into exactly the files a single run writes.
pub fn merge(config: &MergeConfig) -> anyhow::Result<RunSummary> {
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let files = collect_part_files(&config.parts)?;
    let mut parts = files
        .iter()
        .map(|p| PartFile::load(p).map(|part| (p.clone(), part)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (first_path, first) = match parts.first() {
        Some((p, f)) => (p.clone(), f.clone()),
        None => bail!("no part files given"),
    };
    for (path, part) in &parts {
        if part.job_hash != first.job_hash {
            bail!(
                "{} and {} come from different job files (hash {} vs {}): merge parts of one job only",
                first_path.display(), path.display(), &first.job_hash[..12], &part.job_hash[..12]
            );
        }
        if part.shards != first.shards || part.unit_count != first.unit_count {
            bail!(
                "{} was run as one of {} shards, {} as one of {}: all parts must use the same --shard I/N count",
                path.display(), part.shards, first_path.display(), first.shards
            );
        }
    }
    parts.sort_by_key(|(_, p)| p.shard);
    for pair in parts.windows(2) {
        if pair[0].1.shard == pair[1].1.shard {
            bail!(
                "shard {} is given twice ({} and {})",
                pair[0].1.shard,
                pair[0].0.display(),
                pair[1].0.display()
            );
        }
    }
    let present: Vec<u32> = parts.iter().map(|(_, p)| p.shard).collect();
    let missing: Vec<String> = (0..first.shards)
        .filter(|s| !present.contains(s))
        .map(|s| format!("{s}/{}", first.shards))
        .collect();
    if !missing.is_empty() {
        bail!(
            "missing shard parts: {} (run them with --shard, then merge again)",
            missing.join(", ")
        );
    }
    let spec = JobSpec::parse(&first.job_path, first.job_text.clone())?;
    let job = crate::games::build(&spec)?;
    let _lock = OutputLock::acquire(&lock_path(
        &config.out.join("tables").join(&spec.name),
        None,
    ))?;
    if job.unit_count() != first.unit_count as usize {
        bail!(
            "the parts expect {} units but this build of pipeline plans {}: merge with the version that ran them",
            first.unit_count,
            job.unit_count()
        );
    }
    let mut units: Vec<Option<Vec<u8>>> = vec![None; first.unit_count as usize];
    for (path, part) in parts {
        for (u, bytes) in part.units {
            let ok = (u % part.shards == part.shard) && (u < part.unit_count);
            let slot = units.get_mut(u as usize).filter(|_| ok).ok_or_else(|| {
                anyhow::anyhow!(
                    "{} holds unit {u}, which is not its shard's",
                    path.display()
                )
            })?;
            if slot.replace(bytes).is_some() {
                bail!("unit {u} appears twice in {}", path.display());
            }
        }
    }
    let units: Vec<Vec<u8>> = units
        .into_iter()
        .enumerate()
        .map(|(u, b)| {
            b.ok_or_else(|| anyhow::anyhow!("no part holds unit {u}: a part is incomplete"))
        })
        .collect::<anyhow::Result<_>>()?;
    let pool = thread_pool(config.threads, &spec)?;
    let progress = Progress::units(1, 0, config.quiet, &spec.name);
    progress.phase("building tables");
    let units_seconds = started.elapsed().as_secs_f64();
    let outputs = pool.install(|| job.finish_bytes(units, &progress))?;
    let build_seconds = started.elapsed().as_secs_f64() - units_seconds;
    progress.phase("writing outputs");
    let files = pool.install(|| {
        write_outputs(
            &config.out,
            &spec,
            outputs,
            Tally {
                units: first.unit_count,
                shards: first.shards,
                threads: pool.current_num_threads(),
                started,
                cpu_start,
                units_seconds: 0.0,
                build_seconds,
            },
        )
    })?;
    progress.finish();
    Ok(RunSummary {
        job: spec.name.clone(),
        files,
        units_run: 0,
        units_resumed: first.unit_count as usize,
        wall_seconds: started.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds() - cpu_start,
        threads: pool.current_num_threads(),
    })
}

/// What the manifest says about how the outputs were made.
struct Tally {
    units: u32,
    shards: u32,
    threads: usize,
    started: Instant,
    cpu_start: f64,
    units_seconds: f64,
    build_seconds: f64,
}

/// Writes every output atomically, then the manifest; returns the paths written.
fn write_outputs(
    root: &Path,
    spec: &JobSpec,
    outputs: Outputs,
    tally: Tally,
) -> anyhow::Result<Vec<PathBuf>> {
    let write_start = Instant::now();
    let table_dir = root.join("tables").join(&spec.name);
    let report_dir = root.join("reports");
    let metadata = vec![
        ("pipeline.job".to_string(), spec.name.clone()),
        ("pipeline.kind".to_string(), spec.kind.clone()),
        ("pipeline.job_sha256".to_string(), spec.hash.clone()),
        (
            "pipeline.version".to_string(),
            env!("CARGO_PKG_VERSION").to_string(),
        ),
        ("pipeline.rules".to_string(), outputs.rules.clone()),
    ];
    let rel = |p: &Path| {
        p.strip_prefix(root)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/")
    };

    // Parquet files and runtime tables are written side by side; records keep a fixed
    // order (Parquet first, then tables) whatever finishes first.
    let parquet_jobs = outputs.parquet.iter().map(|table| {
        let path = table_dir.join(&table.file);
        (path, Some(table), None)
    });
    let table_jobs = outputs
        .tables
        .iter()
        .map(|table| (table_dir.join(&table.file), None, Some(table)));
    let jobs: Vec<(PathBuf, Option<&ParquetOutput>, Option<&BinaryOutput>)> =
        parquet_jobs.chain(table_jobs).collect();
    // Everything is staged first; only when every file is written and synced are they
    // renamed into place, so a failure (a full disk) leaves the previous outputs, or
    // none, but never a mix.
    let staged: Vec<anyhow::Result<(sink::Staged, u64)>> = jobs
        .par_iter()
        .map(|(path, parquet, table)| match (parquet, table) {
            (Some(p), _) => Ok((sink::parquet::write(path, p, &metadata)?, p.rows())),
            (_, Some(t)) => Ok((
                sink::stage(path, |w| Ok(std::io::Write::write_all(w, &t.bytes)?))?,
                t.entries,
            )),
            _ => unreachable!("every write job is a Parquet file or a table"),
        })
        .collect();
    let mut staged = staged
        .into_iter()
        .map(|r| r.map(|(s, rows)| (s, Some(rows))))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let report_path = report_dir.join(format!("{}.md", spec.name));
    for (name, svg) in &outputs.report.charts {
        let path = report_dir.join(&spec.name).join(name);
        staged.push((
            sink::stage(&path, |w| Ok(std::io::Write::write_all(w, svg.as_bytes())?))?,
            None,
        ));
    }
    staged.push((
        sink::stage(&report_path, |w| {
            Ok(std::io::Write::write_all(
                w,
                outputs.report.markdown.as_bytes(),
            )?)
        })?,
        None,
    ));
    let mut records = Vec::new();
    let mut paths = Vec::new();
    for (file, rows) in staged {
        let path = file.path().to_path_buf();
        let is_chart = path.extension().is_some_and(|e| e == "svg");
        let written = file.commit()?;
        if !is_chart {
            records.push(FileRecord {
                path: rel(&path),
                sha256: written.sha256,
                bytes: written.bytes,
                rows,
            });
        }
        paths.push(path);
    }

    let manifest = Manifest {
        job: spec.name.clone(),
        kind: spec.kind.clone(),
        description: spec.description.clone(),
        job_file: spec.file_name(),
        job_sha256: spec.hash.clone(),
        pipeline_version: env!("CARGO_PKG_VERSION").to_string(),
        rules: outputs.rules,
        units: tally.units,
        shards: tally.shards,
        threads: tally.threads,
        wall_seconds: tally.started.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds() - tally.cpu_start,
        phases: Phases {
            units_seconds: tally.units_seconds,
            build_seconds: tally.build_seconds,
            write_seconds: write_start.elapsed().as_secs_f64(),
        },
        files: records,
    };
    let manifest_path = table_dir.join("manifest.json");
    let json = serde_json::to_string_pretty(&manifest)? + "\n";
    atomic_write_bytes(&manifest_path, json.as_bytes())?;
    paths.push(manifest_path);
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn shard_flag_parses_and_checks_range() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("x/4".parse::<Shard>().is_err());
        assert!("3".parse::<Shard>().is_err());
    }

    #[test]
    fn schedulers_assign_shards() {
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ];
        assert_eq!(
            Shard::from_env(env(&slurm), None).unwrap(),
            Some((Shard { index: 1, count: 3 }, "SLURM_ARRAY_TASK_ID"))
        );
        let k8s = [("JOB_COMPLETION_INDEX", "2")];
        assert!(Shard::from_env(env(&k8s), None)
            .unwrap_err()
            .contains("--shards"));
        assert_eq!(
            Shard::from_env(env(&k8s), Some(8)).unwrap().map(|s| s.0),
            Some(Shard { index: 2, count: 8 })
        );
        let aws = [("AWS_BATCH_JOB_ARRAY_INDEX", "7"), ("PIPELINE_SHARDS", "4")];
        assert!(Shard::from_env(env(&aws), None)
            .unwrap_err()
            .contains("does not exist"));
        assert_eq!(Shard::from_env(env(&[]), None).unwrap(), None);
        let bad = [("SLURM_ARRAY_TASK_ID", "one")];
        assert!(Shard::from_env(env(&bad), None).is_err());
    }
}
