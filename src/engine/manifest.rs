//! `manifest.json`: what a run produced and how, one per output folder.

use serde::Serialize;

/// One output file.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct FileRecord {
    /// Path relative to the output root, e.g. `tables/niuniu/hands.parquet`.
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
    /// Data rows for Parquet files, entries for table files, absent for reports.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<u64>,
}

/// The manifest of one job's outputs.
#[derive(Serialize, Debug, Clone)]
pub struct Manifest {
    pub job: String,
    pub kind: String,
    pub description: String,
    pub job_file: String,
    pub job_sha256: String,
    pub pipeline_version: String,
    pub rules: String,
    pub units: u32,
    /// Number of shard parts merged, or 1 for a single run.
    pub shards: u32,
    pub threads: usize,
    pub wall_seconds: f64,
    pub cpu_seconds: f64,
    /// Wall seconds of each phase: computing units, building tables, writing files.
    pub phases: Phases,
    pub files: Vec<FileRecord>,
}

/// Wall-clock seconds spent in each phase of a run (units is 0 for a merge).
#[derive(Serialize, Debug, Clone, Copy, Default, PartialEq)]
pub struct Phases {
    pub units_seconds: f64,
    pub build_seconds: f64,
    pub write_seconds: f64,
}
