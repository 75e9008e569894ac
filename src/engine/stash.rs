//! What a job keeps while it builds its outputs, so that a run stopped there resumes past
//! it: [`Stash`].
//!
//! Most jobs build their outputs in seconds, and the checkpoint of their units is all a
//! rerun needs. A few do hours of work after their units (`holdem.pushfold3` solves each
//! spot from every unit's counts), and a crash there would lose it all. Such a job saves
//! each piece as it is done, under a key of its own, and looks for it first. The pieces
//! live in `tables/<job>/.stash/`, one checksummed file each, tagged with the job file's
//! hash and the units' revision: a piece of another job file or another build is not used.
//! A piece that does not read back (damaged, forged, of another build) is said and done
//! again, never trusted: the job checks what it loads as it checks a unit read from a
//! checkpoint. The folder goes when the outputs are written, or with `--restart`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use super::checkpoint::{read_internal, write_internal, Internal};

/// The folder inside `tables/<job>/`.
const FOLDER: &str = ".stash";

/// Longest key: keys name files.
const MAX_KEY: usize = 64;

/// Test hook: `PIPELINE_ABORT_AFTER_STASHED=k` aborts the process (like `kill -9`) right
/// after the `k`-th piece is saved, so tests can stop a run in the middle of its outputs.
fn abort_after_stashed() -> Option<usize> {
    std::env::var("PIPELINE_ABORT_AFTER_STASHED")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// One saved piece, tagged with what it belongs to.
#[derive(Serialize, Deserialize)]
struct Piece {
    job_hash: String,
    key: String,
    value: Vec<u8>,
}

/// Where a job's finish keeps pieces of work across a crash (see the module doc). A
/// stash of no folder keeps nothing: tests, benchmarks and shard merges that run a
/// finish in memory use [`Stash::none`].
#[derive(Debug)]
pub struct Stash {
    dir: Option<PathBuf>,
    job_hash: String,
    saved: std::sync::atomic::AtomicUsize,
}

impl Stash {
    /// A stash that keeps nothing.
    pub fn none() -> Stash {
        Stash {
            dir: None,
            job_hash: String::new(),
            saved: Default::default(),
        }
    }

    /// The stash of the job whose hash is `job_hash`, in its tables folder `table_dir`.
    pub(super) fn of(table_dir: &Path, job_hash: &str) -> Stash {
        Stash {
            dir: Some(Self::folder(table_dir)),
            job_hash: job_hash.to_string(),
            saved: Default::default(),
        }
    }

    /// The stash folder of the tables folder `table_dir`.
    pub(super) fn folder(table_dir: &Path) -> PathBuf {
        table_dir.join(FOLDER)
    }

    /// Whether `table_dir` holds a stash.
    pub(super) fn exists_in(table_dir: &Path) -> bool {
        Self::folder(table_dir).exists()
    }

    fn path(&self, key: &str) -> Option<PathBuf> {
        let ok = !key.is_empty()
            && key.len() <= MAX_KEY
            && key
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        assert!(ok, "stash keys are short lowercase names: {key:?}");
        Some(self.dir.as_ref()?.join(format!("{key}.bin")))
    }

    /// The piece saved under `key` by a run of this job file and build, if any. A file
    /// that is there but unusable is said on standard error and left for `save` to
    /// replace.
    pub fn load<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        self.read(key).unwrap_or_else(|e| {
            eprintln!("note: {e:#}; computing it again");
            None
        })
    }

    /// The piece saved under `key`, none if there is none, or why the file there is
    /// unusable.
    fn read<T: DeserializeOwned>(&self, key: &str) -> anyhow::Result<Option<T>> {
        let Some(path) = self.path(key) else {
            return Ok(None);
        };
        if !path.exists() {
            return Ok(None);
        }
        let piece = read_internal::<Piece>(&path, Internal::StashPiece)?;
        anyhow::ensure!(
            piece.job_hash == self.job_hash && piece.key == key,
            "{} was saved by a run of another job file",
            path.display()
        );
        cardtables::format::decode::<T>(&piece.value)
            .map(Some)
            .with_context(|| format!("{}: its contents do not decode", path.display()))
    }

    /// Saves `value` under `key` (atomically: a crash leaves the previous file or none).
    pub fn save<T: Serialize>(&self, key: &str, value: &T) -> anyhow::Result<()> {
        let Some(path) = self.path(key) else {
            return Ok(());
        };
        if let Some(dir) = &self.dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let piece = Piece {
            job_hash: self.job_hash.clone(),
            key: key.to_string(),
            value: cardtables::format::encode(value)?,
        };
        write_internal(&path, &piece)?;
        let saved = 1 + self
            .saved
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if abort_after_stashed().is_some_and(|k| saved >= k) {
            std::process::abort();
        }
        Ok(())
    }

    /// Removes the stash folder (after the outputs are written, or on `--restart`).
    pub(super) fn remove(&self) -> anyhow::Result<()> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        match std::fs::remove_dir_all(dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("cannot remove {}", dir.display()))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_reads_back_only_for_its_job_and_key() {
        let dir = tempfile::tempdir().unwrap();
        let stash = Stash::of(dir.path(), "hash-a");
        assert_eq!(stash.load::<Vec<f64>>("spot-1"), None);
        stash.save("spot-1", &vec![0.25f64, 1.0]).unwrap();
        assert_eq!(stash.load::<Vec<f64>>("spot-1"), Some(vec![0.25, 1.0]));
        // Another job file's run does not use it, nor does another key.
        let other = Stash::of(dir.path(), "hash-b").read::<Vec<f64>>("spot-1");
        let err = format!("{:#}", other.unwrap_err());
        assert!(
            err.contains("spot-1.bin was saved by a run of another job file"),
            "{err}"
        );
        assert_eq!(stash.load::<Vec<f64>>("spot-2"), None);
        // A damaged file is not used, and saving again replaces it.
        let path = dir.path().join(FOLDER).join("spot-1.bin");
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let err = format!("{:#}", stash.read::<Vec<f64>>("spot-1").unwrap_err());
        assert!(
            err.contains("spot-1.bin is not a usable stash piece"),
            "{err}"
        );
        assert_eq!(stash.load::<Vec<f64>>("spot-1"), None);
        // One of another build's units revision: said as such, with nothing to do.
        let piece = Piece {
            job_hash: "hash-a".into(),
            key: "spot-1".into(),
            value: vec![],
        };
        let bytes = cardtables::format::write_table(
            cardtables::format::Game::Pipeline,
            super::super::checkpoint::UNITS_REVISION + 1,
            &piece,
        )
        .unwrap();
        std::fs::write(&path, &bytes).unwrap();
        let err = format!("{:#}", stash.read::<Vec<f64>>("spot-1").unwrap_err());
        assert!(err.contains("holds unit results of revision"), "{err}");
        assert!(err.ends_with("(CHANGELOG.md says what changed)"), "{err}");
        std::fs::write(&path, b"not a stash").unwrap();
        assert_eq!(stash.load::<Vec<f64>>("spot-1"), None);
        stash.save("spot-1", &vec![0.5f64]).unwrap();
        assert_eq!(stash.load::<Vec<f64>>("spot-1"), Some(vec![0.5]));
        assert!(Stash::exists_in(dir.path()));
        stash.remove().unwrap();
        assert!(!Stash::exists_in(dir.path()));
        stash.remove().unwrap();
    }

    #[test]
    fn a_stash_of_no_folder_keeps_nothing() {
        let stash = Stash::none();
        stash.save("spot-1", &1u32).unwrap();
        assert_eq!(stash.load::<u32>("spot-1"), None);
        stash.remove().unwrap();
    }
}
