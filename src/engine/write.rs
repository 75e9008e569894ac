//! Writing: the one path from every unit result to files on disk, shared by `run` and
//! `merge`, so a merged job writes exactly the bytes a single run does.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::execute::cpu_seconds;
use super::manifest::{FileRecord, Manifest, Phases};
use super::progress::Progress;
use super::switch;
use super::{BinaryOutput, ErasedJob, JobMeta, Outputs, Stash, StreamedTable};
use crate::job::JobSpec;
use crate::sink::parquet::ParquetOutput;
use crate::sink::{self, Staged};

/// What the manifest says about how the outputs were made.
pub struct Tally {
    pub units: u32,
    pub shards: u32,
    pub threads: usize,
    pub started: Instant,
    pub cpu_start: f64,
    pub units_seconds: f64,
    /// Where unit results read back from disk came from, said when building the outputs
    /// from them fails (a damaged or forged file makes results no run computes).
    pub stored: Option<String>,
}

/// Builds the outputs from every unit result (in unit order) and writes them under
/// `root`; returns the paths written and the report's headline. The job's stash in
/// `tables/<job>/` keeps what the build saves as it goes until the outputs are written,
/// then is removed.
pub fn finish_and_write(
    root: &Path,
    spec: &JobSpec,
    job: &dyn ErasedJob,
    units: Vec<Vec<u8>>,
    pool: &rayon::ThreadPool,
    progress: &Progress,
    tally: Tally,
) -> anyhow::Result<(Vec<PathBuf>, Vec<String>)> {
    progress.phase("building tables");
    let build_start = Instant::now();
    let meta = JobMeta::of(spec);
    let stash = Stash::of(&root.join("tables").join(&spec.name), &spec.hash);
    let outputs = pool
        .install(|| job.finish_bytes(&meta, units, progress, &stash))
        .map_err(|e| match &tally.stored {
            Some(stored) => e.context(stored.clone()),
            None => e,
        })?;
    let build_seconds = build_start.elapsed().as_secs_f64();
    progress.phase("writing outputs");
    let written =
        pool.install(|| write_outputs(root, spec, outputs, &tally, build_seconds, progress))?;
    stash.remove()?;
    progress.finish();
    Ok(written)
}

/// Stages Parquet files and runtime tables side by side; the records keep a fixed order
/// (Parquet, then tables, then streamed tables) whatever finishes first.
fn stage_tables(
    table_dir: &Path,
    parquet: &[ParquetOutput],
    tables: &[BinaryOutput],
    streamed: Vec<StreamedTable>,
    metadata: &[(String, String)],
) -> anyhow::Result<Vec<(Staged, Option<u64>)>> {
    enum Write<'a> {
        Parquet(&'a ParquetOutput),
        Table(&'a BinaryOutput),
        Streamed(StreamedTable),
    }
    let jobs: Vec<(PathBuf, Write)> = parquet
        .iter()
        .map(|p| (table_dir.join(&p.file), Write::Parquet(p)))
        .chain(
            tables
                .iter()
                .map(|t| (table_dir.join(&t.file), Write::Table(t))),
        )
        .chain(
            streamed
                .into_iter()
                .map(|t| (table_dir.join(&t.file), Write::Streamed(t))),
        )
        .collect();
    let staged: Vec<anyhow::Result<(sink::Staged, u64)>> = jobs
        .into_par_iter()
        .map(|(path, write)| match write {
            Write::Parquet(p) => sink::parquet::write(&path, p, metadata),
            Write::Table(t) => Ok((
                sink::stage(&path, |w| Ok(std::io::Write::write_all(w, &t.bytes)?))?,
                t.entries,
            )),
            Write::Streamed(t) => {
                let entries = t.entries;
                Ok((sink::stage(&path, |w| (t.write)(w))?, entries))
            }
        })
        .collect();
    staged
        .into_iter()
        .map(|r| r.map(|(s, rows)| (s, Some(rows))))
        .collect()
}

/// Stages every output, step after step (see [`Later`](super::Later)), and the
/// manifest, then switches them into place as one set ([`switch`]); returns the paths
/// written, the manifest last, and the report's headline.
fn write_outputs(
    root: &Path,
    spec: &JobSpec,
    outputs: Outputs,
    tally: &Tally,
    build_seconds: f64,
    progress: &Progress,
) -> anyhow::Result<(Vec<PathBuf>, Vec<String>)> {
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
        (
            "pipeline.contract".to_string(),
            crate::sink::parquet::CONTRACT_VERSION.to_string(),
        ),
    ];
    let rel = |p: &Path| {
        p.strip_prefix(root)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/")
    };
    let Outputs {
        rules,
        parquet,
        tables,
        mut report,
        later,
    } = outputs;
    // Everything is staged first; only when every file is written and synced does the
    // switch begin, so a failure (a full disk) leaves the previous outputs untouched.
    let mut staged = stage_tables(&table_dir, &parquet, &tables, Vec::new(), &metadata)?;
    drop((parquet, tables));
    let mut next = later;
    while let Some(step) = next {
        super::release_freed_memory();
        let step = step(progress)?;
        staged.extend(stage_tables(
            &table_dir,
            &step.parquet,
            &step.tables,
            step.streamed,
            &metadata,
        )?);
        if let Some(r) = step.report {
            report = r;
        }
        next = step.later;
    }
    let report_path = report_dir.join(format!("{}.md", spec.name));
    for (name, svg) in &report.charts {
        let path = report_dir.join(&spec.name).join(name);
        staged.push((
            sink::stage(&path, |w| Ok(std::io::Write::write_all(w, svg.as_bytes())?))?,
            None,
        ));
    }
    staged.push((
        sink::stage(&report_path, |w| {
            Ok(std::io::Write::write_all(w, report.markdown.as_bytes())?)
        })?,
        None,
    ));
    let records = staged
        .iter()
        .filter(|(file, _)| file.path().extension().is_none_or(|e| e != "svg"))
        .map(|(file, rows)| FileRecord {
            path: rel(file.path()),
            sha256: file.written.sha256.clone(),
            bytes: file.written.bytes,
            rows: *rows,
        })
        .collect();
    let manifest = Manifest {
        job: spec.name.clone(),
        kind: spec.kind.clone(),
        description: spec.description.clone(),
        job_file: spec.file_name(),
        job_sha256: spec.hash.clone(),
        pipeline_version: env!("CARGO_PKG_VERSION").to_string(),
        rules,
        units: tally.units,
        shards: tally.shards,
        threads: tally.threads,
        wall_seconds: tally.started.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds() - tally.cpu_start,
        phases: Phases {
            units_seconds: tally.units_seconds,
            build_seconds,
            write_seconds: write_start.elapsed().as_secs_f64(),
        },
        files: records,
    };
    let json = serde_json::to_string_pretty(&manifest)? + "\n";
    let mut staged: Vec<Staged> = staged.into_iter().map(|(file, _)| file).collect();
    staged.push(sink::stage(&table_dir.join("manifest.json"), |w| {
        Ok(std::io::Write::write_all(w, json.as_bytes())?)
    })?);
    // Every file of the set is on disk under a temporary name: switch them as one.
    let paths = switch::switch(root, &spec.name, staged)?;
    Ok((paths, report.headline))
}
