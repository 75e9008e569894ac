//! Planning and sharding: which units this process computes, where its lock and
//! checkpoint live, and the validated set of shard parts a merge joins.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use super::checkpoint::{part_stem, PartFile, PART_PREFIX};
use crate::job::JobSpec;

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

    /// As a `(index, count)` pair, the form checkpoints record.
    pub fn pair(self) -> (u32, u32) {
        (self.index, self.count)
    }
}

/// Whether a run of job `name` can write its outputs under `out`, checked before any
/// work, by `run` and `check` alike: `out` is not a dangling link, `tables/<name>/` and
/// `reports/<name>/` can be created and written, and no folder stands where the report
/// goes (nor a file where a folder goes).
pub fn check_outputs(out: &Path, name: &str) -> anyhow::Result<()> {
    if let Ok(meta) = std::fs::symlink_metadata(out) {
        if meta.file_type().is_symlink() && !out.exists() {
            bail!(
                "--out {} is a link to {}, which does not exist",
                out.display(),
                std::fs::read_link(out)
                    .map(|t| t.display().to_string())
                    .unwrap_or_else(|_| "an unreadable target".into())
            );
        }
    }
    let report = out.join("reports").join(format!("{name}.md"));
    if report.is_dir() {
        bail!(
            "cannot write the report {}: a folder is in the way",
            report.display()
        );
    }
    for dir in [
        out.join("tables").join(name),
        out.join("reports"),
        out.join("reports").join(name),
    ] {
        if dir.exists() && !dir.is_dir() {
            bail!(
                "cannot write {}: a file is in the way of that folder",
                dir.display()
            );
        }
        writable(&dir)?;
    }
    Ok(())
}

/// Whether files can be created in `dir`, or in the nearest folder above it that exists
/// (the run creates the rest): a probe file is created and removed there.
fn writable(dir: &Path) -> anyhow::Result<()> {
    let mut existing = dir.to_path_buf();
    while !existing.exists() {
        existing = match existing.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
    }
    if !existing.is_dir() {
        anyhow::bail!(
            "cannot write {}: {} is not a folder",
            dir.display(),
            existing.display()
        );
    }
    let probe = existing.join(format!(".pipeline-check-{}", std::process::id()));
    std::fs::write(&probe, b"").with_context(|| {
        format!(
            "cannot write {}: {} is not writable",
            dir.display(),
            existing.display()
        )
    })?;
    std::fs::remove_file(&probe)
        .with_context(|| format!("cannot remove the probe file {}", probe.display()))?;
    Ok(())
}

/// The most work units a job may plan. Far above any useful job (the largest shipped
/// job plans about 5,000), and low enough that the plan, the progress and the checkpoint
/// of any job that passes stay small: a job planner refuses more, naming the setting.
pub const MAX_UNITS: u64 = 1_000_000;

/// Checks a planner's unit count, computed (with the planner's own arithmetic, widened so
/// it cannot overflow) before anything of that size is allocated: `Err` says how many
/// units the settings ask for and the limit, for the caller to put at its field.
pub fn check_unit_total(units: u128) -> Result<(), String> {
    if units <= u128::from(MAX_UNITS) {
        Ok(())
    } else {
        Err(format!(
            "asks for {units} work units, and a job may plan at most {MAX_UNITS}: lower it (or split the job into several)"
        ))
    }
}

/// Refuses a shard layout with more shards than the job has units (empty shards, and a
/// `merge` that would wait for parts that can never hold anything).
pub fn check_shard(shard: Option<Shard>, unit_count: usize) -> Result<(), String> {
    match shard {
        Some(s) if s.count as usize > unit_count => Err(format!(
            "--shard {}/{}: this job has {unit_count} work units, so at most {unit_count} shards",
            s.index, s.count
        )),
        _ => Ok(()),
    }
}

/// The units a run computes: all of them, or one shard's.
pub fn units_of(unit_count: usize, shard: Option<Shard>) -> Vec<usize> {
    (0..unit_count)
        .filter(|u| shard.is_none_or(|s| *u as u32 % s.count == s.index))
        .collect()
}

/// The lock of a whole run's outputs, or of one shard's part.
pub fn lock_path(dir: &Path, shard: Option<Shard>) -> PathBuf {
    match shard {
        None => dir.join(".lock"),
        Some(s) => dir.join(format!(".lock-{}", part_stem(s.index, s.count))),
    }
}

/// Missing shards listed by name in `merge`'s error; the rest are counted.
const MISSING_SHOWN: usize = 10;

/// Every shard part of one job, checked to be complete and consistent: one part per
/// shard, all from the same job file and shard count, each unit in its own shard.
pub struct Parts {
    /// The job file the parts were run from, parsed again from the text they carry.
    pub spec: JobSpec,
    pub shards: u32,
    pub unit_count: u32,
    /// Every unit's stored result, in unit order.
    pub units: Vec<Vec<u8>>,
}

impl Parts {
    /// Loads the part files named directly or found (non-recursively) in the given
    /// folders, and checks them as a set.
    pub fn load(inputs: &[PathBuf]) -> anyhow::Result<Parts> {
        let files = collect_part_files(inputs)?;
        let mut parts = files
            .iter()
            .map(|p| PartFile::load(p).map(|part| (p.clone(), part)))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let (first_path, first) = match parts.first() {
            Some((p, f)) => (p.clone(), f.clone()),
            None => bail!("no part files given"),
        };
        for (path, part) in &parts {
            if part.shards == 0 || part.shard >= part.shards || part.shards > part.unit_count {
                bail!(
                    "{} is not a valid part: it says shard {} of {} for a job of {} units",
                    path.display(),
                    part.shard,
                    part.shards,
                    part.unit_count
                );
            }
            // The checksum guards against accidents only: the job text a merge would
            // label its tables with must be the one the units were computed from.
            let hash = JobSpec::parse(&part.job_path, part.job_text.clone())
                .map(|spec| spec.hash)
                .unwrap_or_default();
            if hash != part.job_hash {
                bail!(
                    "{} is damaged or forged: the job file it carries does not match the job hash of its units (run that shard again)",
                    path.display()
                );
            }
            if part.job_hash != first.job_hash {
                bail!(
                    "{} and {} come from different job files (hash {} vs {}): merge parts of one job only",
                    first_path.display(), path.display(), short(&first.job_hash), short(&part.job_hash)
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
        // Parts are sorted and distinct, so the number missing is a subtraction; list only
        // the first few, however many shards the parts claim.
        let present: Vec<u32> = parts.iter().map(|(_, p)| p.shard).collect();
        let missing_count = u64::from(first.shards) - present.len() as u64;
        if missing_count > 0 {
            let shown: Vec<String> = (0..first.shards)
                .filter(|s| present.binary_search(s).is_err())
                .take(MISSING_SHOWN)
                .map(|s| format!("{s}/{}", first.shards))
                .collect();
            let more = missing_count.saturating_sub(shown.len() as u64);
            bail!(
                "{missing_count} shard part(s) missing: {}{} (run them with --shard, then merge again)",
                shown.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            );
        }
        // Every unit is in exactly one part, so the parts must hold `unit_count` units in
        // all: checked before anything of that size is allocated.
        let held: u64 = parts.iter().map(|(_, p)| p.units.len() as u64).sum();
        if held != u64::from(first.unit_count) {
            bail!(
                "the parts hold {held} units but declare {}: a part is incomplete or corrupt",
                first.unit_count
            );
        }
        let spec = JobSpec::parse(&first.job_path, first.job_text.clone())?;
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
        let units = units
            .into_iter()
            .enumerate()
            .map(|(u, b)| {
                b.ok_or_else(|| anyhow::anyhow!("no part holds unit {u}: a part is incomplete"))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Parts {
            spec,
            shards: first.shards,
            unit_count: first.unit_count,
            units,
        })
    }
}

/// The first 12 characters of a hash, for messages (all of it if shorter).
fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
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
    fn shards_split_the_units_between_them() {
        let all = units_of(10, None);
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        let mut joined: Vec<usize> = (0..3)
            .flat_map(|index| units_of(10, Some(Shard { index, count: 3 })))
            .collect();
        joined.sort();
        assert_eq!(joined, all);
        assert_eq!(units_of(10, Some(Shard { index: 1, count: 3 })), [1, 4, 7]);
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
