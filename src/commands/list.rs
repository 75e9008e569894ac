//! `pipeline list`: the job files of a folder with their kind and description, or every
//! job kind of the registry (`--kinds`).

use std::path::Path;

use anyhow::{bail, Context};

use crate::job::{job_files, JobSpec};

pub fn list(dir: &Path) -> anyhow::Result<()> {
    let files =
        job_files(dir).with_context(|| format!("cannot list job folder {}", dir.display()))?;
    if files.is_empty() {
        bail!("{} holds no .toml job files", dir.display());
    }
    let specs: Vec<(String, Result<JobSpec, String>)> = files
        .iter()
        .map(|f| {
            (
                f.display().to_string(),
                JobSpec::load(f).map_err(|e| e.to_string()),
            )
        })
        .collect();
    let width = specs
        .iter()
        .map(|(f, _)| f.chars().count())
        .max()
        .unwrap_or(0);
    let kind_width = specs
        .iter()
        .filter_map(|(_, s)| s.as_ref().ok().map(|s| s.kind.chars().count()))
        .max()
        .unwrap_or(0);
    for (file, spec) in specs {
        match spec {
            Ok(s) => println!("{file:width$}  {:kind_width$}  {}", s.kind, s.description),
            Err(e) => println!("{file:width$}  (invalid) {e}"),
        }
    }
    Ok(())
}

/// Every job kind of the registry: name, the tables beyond `[job]`, `[rules]` and `[run]`
/// its job files may hold, and what it computes.
pub fn kinds() {
    let width = crate::games::KINDS
        .iter()
        .map(|k| k.name.len())
        .max()
        .unwrap_or(0);
    for k in crate::games::KINDS {
        let tables: Vec<String> = k.tables.iter().map(|t| format!("[{t}]")).collect();
        let tables = if tables.is_empty() {
            String::new()
        } else {
            format!(" (also {})", tables.join(" "))
        };
        println!("{:width$}  {}{tables}", k.name, k.description);
    }
}
