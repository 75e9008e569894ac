//! Replacing a job's output set as one: its tables, runtime tables, report, charts and
//! `manifest.json` are either all the previous run's or all the new run's.
//!
//! The outputs live in two folders (`tables/<job>/` and `reports/`), so no single rename
//! can switch them. Instead the switch is journaled, as a database commits:
//! 1. every new file is written under a temporary name beside its final path and synced
//!    (a crash here leaves the previous set untouched; the temporaries are removed by the
//!    next run);
//! 2. the journal `tables/<job>/.switch.json`, listing each temporary file, its final path
//!    and its SHA-256, is written atomically: this is the moment the new set wins;
//! 3. the files are renamed into place, `manifest.json` last, and their folders synced;
//! 4. the journal is removed.
//!
//! A crash in step 3 leaves the journal behind. The next `run` or `merge` of the job
//! finishes the switch before anything else (roll forward), `query` refuses to read a
//! table from a folder with an unfinished switch, and `check` reports it.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use crate::sink::{self, Staged};

/// The journal's file name inside `tables/<job>/`.
pub const JOURNAL: &str = ".switch.json";

/// The journal format this build writes and reads.
const JOURNAL_VERSION: u32 = 1;

/// A journal is a few hundred bytes per file; anything larger is not ours.
const MAX_JOURNAL_BYTES: u64 = 1 << 20;

/// Test hook: `PIPELINE_ABORT_AFTER_RENAMES=k` aborts the process (like `kill -9`) once
/// the journal is written and `k` files are renamed, so tests can crash a switch at every
/// step.
fn abort_after_renames() -> Option<usize> {
    std::env::var("PIPELINE_ABORT_AFTER_RENAMES")
        .ok()
        .and_then(|v| v.parse().ok())
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
struct Journal {
    version: u32,
    job: String,
    moves: Vec<Move>,
}

impl Journal {
    fn of(root: &Path, job: &str, staged: &[Staged]) -> anyhow::Result<Journal> {
        let moves = staged
            .iter()
            .map(|s| {
                Ok(Move {
                    staged: relative(root, s.temp_path())?,
                    path: relative(root, s.path())?,
                    sha256: s.written.sha256.clone(),
                    bytes: s.written.bytes,
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Journal {
            version: JOURNAL_VERSION,
            job: job.to_string(),
            moves,
        })
    }
}

/// One file of the new set: paths relative to the output root, `/`-separated.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
struct Move {
    staged: String,
    path: String,
    sha256: String,
    bytes: u64,
}

/// Whether the table folder `dir` holds an unfinished switch.
pub fn pending(dir: &Path) -> bool {
    dir.join(JOURNAL).exists()
}

fn journal_path(root: &Path, job: &str) -> PathBuf {
    root.join("tables").join(job).join(JOURNAL)
}

fn relative(root: &Path, path: &Path) -> anyhow::Result<String> {
    let rel = path
        .strip_prefix(root)
        .with_context(|| format!("{} is outside the output root", path.display()))?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| match c {
            Component::Normal(part) => part
                .to_str()
                .map(str::to_string)
                .with_context(|| format!("{} is not UTF-8", path.display())),
            _ => bail!(
                "{} is not a plain path under the output root",
                path.display()
            ),
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(parts.join("/"))
}

/// Renames the staged files into place as one set (see the module docs); `staged` ends
/// with the manifest. Returns the final paths in the order given.
pub fn switch(root: &Path, job: &str, staged: Vec<Staged>) -> anyhow::Result<Vec<PathBuf>> {
    let journal = Journal::of(root, job, &staged)?;
    // A rename cannot replace a folder: found now, the previous set stays untouched.
    if let Some(dir) = staged.iter().map(Staged::path).find(|p| p.is_dir()) {
        bail!("cannot write {}: a folder is in the way", dir.display());
    }
    let path = journal_path(root, job);
    let text = serde_json::to_string_pretty(&journal)? + "\n";
    // The commit point: until the journal is in place the previous set stands (and a
    // failure deletes the staged files); from here on the new set does, so the staged
    // files are kept whatever happens until they are renamed.
    sink::atomic_write_bytes(&path, text.as_bytes())
        .with_context(|| format!("cannot write the switch journal {}", path.display()))?;
    let paths: Vec<PathBuf> = staged.iter().map(|s| s.path().to_path_buf()).collect();
    for file in staged {
        file.keep();
    }
    roll_forward(root, &journal, abort_after_renames())
        .and_then(|_| remove_stale(root, &journal))
        .with_context(|| {
            format!(
                "the new outputs of {job} are only partly in place; the next `pipeline run` or `pipeline merge` of this job finishes the switch ({} stays until then)",
                path.display()
            )
        })?;
    remove_journal(&path)?;
    Ok(paths)
}

/// Finishes the switch a crashed run left in `root` for `job`, if any; returns how many
/// files it moved into place. Call it holding the job's output lock.
pub fn finish_pending(root: &Path, job: &str) -> anyhow::Result<Option<usize>> {
    let path = journal_path(root, job);
    let journal = match load(&path, job) {
        Ok(Some(journal)) => journal,
        Ok(None) => return Ok(None),
        Err(e) => return Err(e.context(unrecoverable(&path))),
    };
    let moved = roll_forward(root, &journal, None)
        .and_then(|moved| remove_stale(root, &journal).map(|()| moved))
        .with_context(|| unrecoverable(&path))?;
    remove_journal(&path)?;
    Ok(Some(moved))
}

fn unrecoverable(path: &Path) -> String {
    format!(
        "cannot finish the output switch recorded in {}; delete it and rerun the job to write a complete set",
        path.display()
    )
}

fn load(path: &Path, job: &str) -> anyhow::Result<Option<Journal>> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot open {}", path.display())),
    };
    let mut bytes = Vec::new();
    file.take(MAX_JOURNAL_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > MAX_JOURNAL_BYTES {
        bail!("{} is larger than a switch journal can be", path.display());
    }
    let journal: Journal = serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is not a switch journal", path.display()))?;
    if journal.version != JOURNAL_VERSION {
        bail!(
            "{} has journal version {}; this build reads version {JOURNAL_VERSION}",
            path.display(),
            journal.version
        );
    }
    if journal.job != job {
        bail!(
            "{} belongs to job `{}`, not `{job}`",
            path.display(),
            journal.job
        );
    }
    let mut finals = BTreeSet::new();
    for m in &journal.moves {
        check_move(m, job).with_context(|| format!("{}: bad entry", path.display()))?;
        if !finals.insert(m.path.as_str()) {
            bail!("{} lists {} twice", path.display(), m.path);
        }
    }
    Ok(Some(journal))
}

/// A journal entry may only move a temporary file of this job's outputs onto its own
/// final name in the same folder: a forged journal cannot touch anything else.
fn check_move(m: &Move, job: &str) -> anyhow::Result<()> {
    let parts: Vec<&str> = m.path.split('/').collect();
    let owned = match parts.as_slice() {
        ["tables", j, file] => *j == job && !file.starts_with('.'),
        ["reports", file] => *file == format!("{job}.md"),
        ["reports", j, file] => *j == job && !file.starts_with('.'),
        _ => false,
    };
    let plain = parts
        .iter()
        .all(|p| !p.is_empty() && *p != "." && *p != ".." && !p.contains('\\'));
    if !owned || !plain {
        bail!("`{}` is not an output of job `{job}`", m.path);
    }
    let (dir, file) = m.path.rsplit_once('/').unwrap_or(("", &m.path));
    let temp_ok = m
        .staged
        .strip_prefix(dir)
        .and_then(|rest| rest.strip_prefix('/'))
        .and_then(|name| name.strip_prefix('.'))
        .and_then(|name| name.strip_prefix(file))
        .and_then(|rest| rest.strip_prefix(".tmp-"))
        .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
    if !temp_ok {
        bail!("`{}` is not a temporary file of `{}`", m.staged, m.path);
    }
    let hex = m.sha256.len() == 64 && m.sha256.bytes().all(|b| b.is_ascii_hexdigit());
    if !hex {
        bail!("`{}` is not a SHA-256 (for `{}`)", m.sha256, m.path);
    }
    Ok(())
}

/// Moves every staged file of `journal` into place, or checks it already is (a file
/// whose temporary is gone must be the one the journal names); syncs the folders.
fn roll_forward(
    root: &Path,
    journal: &Journal,
    abort_after: Option<usize>,
) -> anyhow::Result<usize> {
    let mut moved = 0;
    let mut folders = BTreeSet::new();
    for (k, m) in journal.moves.iter().enumerate() {
        if abort_after == Some(k) {
            std::process::abort();
        }
        let staged = root.join(&m.staged);
        let target = root.join(&m.path);
        if staged.exists() {
            std::fs::rename(&staged, &target)
                .with_context(|| format!("cannot move {} into place", target.display()))?;
            moved += 1;
        } else {
            let written = sink::hash_file(&target).with_context(|| {
                format!(
                    "{} is missing and its new version {} is gone",
                    target.display(),
                    staged.display()
                )
            })?;
            if written.sha256 != m.sha256 || written.bytes != m.bytes {
                bail!(
                    "{} is not the file the switch wrote (SHA-256 {}, expected {})",
                    target.display(),
                    written.sha256,
                    m.sha256
                );
            }
        }
        if let Some(dir) = target.parent() {
            folders.insert(dir.to_path_buf());
        }
    }
    if abort_after == Some(journal.moves.len()) {
        std::process::abort();
    }
    for dir in folders {
        sink::sync_dir(&dir)?;
    }
    Ok(moved)
}

/// Removes the outputs of an earlier set that the new set does not have (a rule set
/// dropped from a grid, another job kind under the same name), so the folders hold one
/// set and `query --table` can never answer from a table the last run did not write.
/// Only the job's own kinds of output file are touched: `tables/<job>/*.parquet`, `*.bin`
/// and `*.json`, and `reports/<job>/*.svg`; hidden files (checkpoints, locks, this
/// journal) and folders (`parts/`) stay.
fn remove_stale(root: &Path, journal: &Journal) -> anyhow::Result<()> {
    let kept: BTreeSet<PathBuf> = journal.moves.iter().map(|m| root.join(&m.path)).collect();
    let places: [(PathBuf, &[&str]); 2] = [
        (
            root.join("tables").join(&journal.job),
            &["parquet", "bin", "json"],
        ),
        (root.join("reports").join(&journal.job), &["svg"]),
    ];
    for (dir, extensions) in places {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
        };
        let mut removed = false;
        for entry in entries {
            let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
            let path = entry.path();
            let name = entry.file_name();
            let ours = !name.to_string_lossy().starts_with('.')
                && entry.file_type().is_ok_and(|t| t.is_file())
                && path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| extensions.contains(&e));
            if ours && !kept.contains(&path) {
                std::fs::remove_file(&path).with_context(|| {
                    format!("cannot remove the stale output {}", path.display())
                })?;
                removed = true;
            }
        }
        if removed {
            sink::sync_dir(&dir)?;
        }
    }
    Ok(())
}

fn remove_journal(path: &Path) -> anyhow::Result<()> {
    std::fs::remove_file(path)
        .with_context(|| format!("cannot remove the switch journal {}", path.display()))?;
    if let Some(dir) = path.parent() {
        sink::sync_dir(dir)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn stage(root: &Path, rel: &str, text: &str) -> Staged {
        sink::stage(&root.join(rel), |w| Ok(w.write_all(text.as_bytes())?)).unwrap()
    }

    const FILES: [&str; 4] = [
        "tables/job/a.parquet",
        "tables/job/job.bin",
        "reports/job.md",
        "tables/job/manifest.json",
    ];

    fn write_set(root: &Path, version: &str) -> Vec<Staged> {
        FILES
            .iter()
            .map(|f| stage(root, f, &format!("{version} {f}")))
            .collect()
    }

    fn write_journal(root: &Path, journal: &Journal) {
        std::fs::create_dir_all(root.join("tables/job")).unwrap();
        let text = serde_json::to_string(journal).unwrap();
        std::fs::write(journal_path(root, "job"), text).unwrap();
    }

    /// `Some(version)` when every file of the set is that version's, `None` for a mix.
    fn set_version(root: &Path) -> Option<String> {
        let versions: BTreeSet<String> = FILES
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(root.join(f)).unwrap();
                text.split(' ').next().unwrap().to_string()
            })
            .collect();
        (versions.len() == 1).then(|| versions.into_iter().next().unwrap())
    }

    #[test]
    fn a_switch_replaces_the_whole_set_and_leaves_no_journal() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let paths = switch(root, "job", write_set(root, "old")).unwrap();
        assert_eq!(paths.len(), FILES.len());
        assert_eq!(set_version(root).as_deref(), Some("old"));
        switch(root, "job", write_set(root, "new")).unwrap();
        assert_eq!(set_version(root).as_deref(), Some("new"));
        assert!(!pending(&root.join("tables/job")));
        assert_eq!(finish_pending(root, "job").unwrap(), None);
    }

    /// A crash after each rename, simulated by leaving the journal and the remaining
    /// staged files as a killed process would; finishing gives the whole new set.
    #[test]
    fn an_interrupted_switch_is_finished_from_its_journal_after_every_rename() {
        for k in 0..=FILES.len() {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            switch(root, "job", write_set(root, "old")).unwrap();
            let staged = write_set(root, "new");
            write_journal(root, &Journal::of(root, "job", &staged).unwrap());
            for (i, file) in staged.into_iter().enumerate() {
                if i < k {
                    std::fs::rename(file.temp_path(), file.path()).unwrap();
                }
                file.keep();
            }
            assert!(pending(&root.join("tables/job")));
            let moved = finish_pending(root, "job").unwrap();
            assert_eq!(moved, Some(FILES.len() - k), "after {k} renames");
            assert_eq!(
                set_version(root).as_deref(),
                Some("new"),
                "after {k} renames"
            );
            assert!(!pending(&root.join("tables/job")));
        }
    }

    #[test]
    fn a_folder_in_the_way_is_refused_before_anything_moves() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        switch(root, "job", write_set(root, "old")).unwrap();
        std::fs::remove_file(root.join("reports/job.md")).unwrap();
        std::fs::create_dir(root.join("reports/job.md")).unwrap();
        let err = switch(root, "job", write_set(root, "new")).unwrap_err();
        assert!(format!("{err}").contains("a folder is in the way"), "{err}");
        assert!(!pending(&root.join("tables/job")));
        for f in ["tables/job/a.parquet", "tables/job/manifest.json"] {
            assert!(std::fs::read_to_string(root.join(f))
                .unwrap()
                .starts_with("old"));
        }
        let left = std::fs::read_dir(root.join("tables/job")).unwrap().count();
        assert_eq!(left, 3, "the staged files are removed");
    }

    #[test]
    fn a_forged_journal_cannot_move_anything_else() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let forged = [
            ("tables/other/x.bin", "tables/other/.x.bin.tmp-1"),
            ("tables/job/../../etc/passwd", "tables/job/.passwd.tmp-1"),
            ("/etc/passwd", "/etc/.passwd.tmp-1"),
            ("tables/job/a.bin", "tables/job/.b.bin.tmp-1"),
            ("tables/job/a.bin", "reports/.a.bin.tmp-1"),
            ("tables/job/a.bin", "tables/job/.a.bin.tmp-x"),
            ("tables/job/.switch.json", "tables/job/..switch.json.tmp-1"),
            ("reports/other.md", "reports/.other.md.tmp-1"),
        ];
        for (path, staged) in forged {
            let journal = Journal {
                version: JOURNAL_VERSION,
                job: "job".into(),
                moves: vec![Move {
                    staged: staged.into(),
                    path: path.into(),
                    sha256: "0".repeat(64),
                    bytes: 0,
                }],
            };
            write_journal(root, &journal);
            let err = finish_pending(root, "job").unwrap_err();
            assert!(
                format!("{err:#}").contains("cannot finish the output switch"),
                "{path}: {err:#}"
            );
        }
        for junk in [
            "",
            "{",
            "[]",
            "{\"version\":2,\"job\":\"job\",\"moves\":[]}",
        ] {
            std::fs::write(journal_path(root, "job"), junk).unwrap();
            assert!(finish_pending(root, "job").is_err(), "{junk:?}");
        }
    }

    #[test]
    fn a_journal_whose_files_are_gone_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        switch(root, "job", write_set(root, "old")).unwrap();
        let staged = write_set(root, "new");
        let journal = Journal::of(root, "job", &staged).unwrap();
        drop(staged); // the new files vanish: the old ones do not match the journal
        write_journal(root, &journal);
        let err = format!("{:#}", finish_pending(root, "job").unwrap_err());
        assert!(err.contains("is not the file the switch wrote"), "{err}");
    }
}
