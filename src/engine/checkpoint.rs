//! Persisted unit results: checkpoints (a rerun resumes from them) and shard parts (for `merge`).
//!
//! Both are `cardtables`-format files (header + checksum + bincode), written atomically,
//! so a crash while writing leaves the previous version intact and a damaged file is
//! detected rather than trusted.

use std::path::{Path, PathBuf};

use anyhow::Context;
use cardtables::format::{self, Game};
use serde::{Deserialize, Serialize};

use crate::sink::atomic_write;

/// Revision of what a unit computes for a given job file, written in the header's rules-hash
/// field of every checkpoint and part. It goes up whenever a release changes a unit's
/// results for the same job file (a Monte Carlo stream consumed differently: see
/// `CHANGELOG.md`), so that an older build's checkpoint or parts are refused, never mixed
/// with this build's units into tables that no single build would write.
pub const UNITS_REVISION: u64 = 5;

/// File name prefix of shard parts: `part-00001-of-00004.bin`.
pub const PART_PREFIX: &str = "part-";

/// Unit results tagged with the job they belong to.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Checkpoint {
    pub job_hash: String,
    pub shard: Option<(u32, u32)>,
    pub unit_count: u32,
    pub units: Vec<(u32, Vec<u8>)>,
}

/// A checkpoint that borrows its unit results, for saving: encodes exactly as the
/// [`Checkpoint`] it describes (a byte slice and a `Vec<u8>` are both a length and the
/// bytes), without a copy of every result.
#[derive(Serialize)]
pub struct CheckpointRef<'a> {
    pub job_hash: &'a str,
    pub shard: Option<(u32, u32)>,
    pub unit_count: u32,
    pub units: Vec<(u32, &'a [u8])>,
}

impl CheckpointRef<'_> {
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        write_internal(path, self)
    }
}

/// The output of one shard: its unit results plus the whole job file, so that `merge`
/// needs nothing but the parts.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct PartFile {
    pub job_hash: String,
    pub job_path: String,
    pub job_text: String,
    pub shard: u32,
    pub shards: u32,
    pub unit_count: u32,
    pub units: Vec<(u32, Vec<u8>)>,
}

/// The largest payload of a checkpoint or part, written and read alike: a run never
/// saves what it could not read back. Far above any job the unit limit
/// ([`super::plan::MAX_UNITS`]) lets through, yet a bound on what a hostile file can make
/// a reader allocate.
pub const MAX_INTERNAL_PAYLOAD: u64 = 16 << 30;

pub(super) fn write_internal<T: Serialize>(path: &Path, value: &T) -> anyhow::Result<()> {
    // Measured, then encoded straight into the file: a checkpoint of hundreds of MB is
    // never held as bytes beside the units it encodes.
    let (payload, _) = format::measure(value)?;
    if payload > MAX_INTERNAL_PAYLOAD {
        anyhow::bail!(
            "cannot save {}: its {} GiB of unit results exceed the {} GiB a run can read back; \
             split the job into shards (--shard I/N) or lower its size settings",
            path.display(),
            payload >> 30,
            MAX_INTERNAL_PAYLOAD >> 30
        );
    }
    atomic_write(path, |w| {
        Ok(format::write_table_to(
            Game::Pipeline,
            UNITS_REVISION,
            value,
            w,
        )?)
    })?;
    Ok(())
}

/// What kind of internal file is read, for what its refusals say.
#[derive(Clone, Copy, Debug)]
pub(super) enum Internal {
    Checkpoint,
    Part,
    StashPiece,
}

impl Internal {
    fn noun(self) -> &'static str {
        match self {
            Internal::Checkpoint => "checkpoint",
            Internal::Part => "part file",
            Internal::StashPiece => "stash piece",
        }
    }

    /// What to do about a file of another units revision.
    fn remedy(self) -> &'static str {
        match self {
            Internal::Checkpoint => ": run the job again with --restart",
            Internal::Part => ": run every shard again with this build",
            // A stash piece of another build is computed again: nothing to do.
            Internal::StashPiece => "",
        }
    }
}

pub(super) fn read_internal<T: serde::de::DeserializeOwned>(
    path: &Path,
    kind: Internal,
) -> anyhow::Result<T> {
    let unusable = || format!("{} is not a usable {}", path.display(), kind.noun());
    let bytes = format::read_file_up_to(path, MAX_INTERNAL_PAYLOAD).with_context(unusable)?;
    let (header, payload) = format::open_payload(&bytes, Game::Pipeline).with_context(unusable)?;
    if header.rules_hash != UNITS_REVISION {
        anyhow::bail!(
            "{} holds unit results of revision {}, and this pipeline computes revision {} \
             (CHANGELOG.md says what changed){}",
            path.display(),
            header.rules_hash,
            UNITS_REVISION,
            kind.remedy()
        );
    }
    format::decode(payload).with_context(|| format!("{} does not decode", path.display()))
}

impl Checkpoint {
    /// Where a run into `dir` keeps its checkpoint.
    pub fn path(dir: &Path, shard: Option<(u32, u32)>) -> PathBuf {
        match shard {
            None => dir.join(".checkpoint.bin"),
            Some((i, n)) => dir.join(format!(".checkpoint-{}.bin", part_stem(i, n))),
        }
    }

    /// Saved through [`CheckpointRef`], as a run saves it.
    #[cfg(test)]
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        CheckpointRef {
            job_hash: &self.job_hash,
            shard: self.shard,
            unit_count: self.unit_count,
            units: self.units.iter().map(|(k, v)| (*k, v.as_slice())).collect(),
        }
        .save(path)
    }

    pub fn load(path: &Path) -> anyhow::Result<Checkpoint> {
        read_internal(path, Internal::Checkpoint)
    }
}

/// `part-IIIII-of-NNNNN`, with 0-based I.
pub fn part_stem(shard: u32, shards: u32) -> String {
    format!("{PART_PREFIX}{shard:05}-of-{shards:05}")
}

impl PartFile {
    pub fn file_name(&self) -> String {
        format!("{}.bin", part_stem(self.shard, self.shards))
    }

    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        write_internal(path, self)
    }

    pub fn load(path: &Path) -> anyhow::Result<PartFile> {
        read_internal(path, Internal::Part)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint() -> Checkpoint {
        Checkpoint {
            job_hash: "ab".repeat(32),
            shard: None,
            unit_count: 3,
            units: vec![(1, vec![7, 8, 9])],
        }
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoint::path(dir.path(), None);
        checkpoint().save(&path).unwrap();
        let back = Checkpoint::load(&path).unwrap();
        assert_eq!(back.units, checkpoint().units);
        assert_eq!(back.unit_count, 3);
    }

    #[test]
    fn checkpoints_are_read_up_to_the_size_they_may_be_written() {
        // A header declaring 3 GiB, past a runtime table's 2 GiB limit but within a
        // checkpoint's, with no payload behind it: refused as truncated, not as too large.
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoint::path(dir.path(), None);
        let mut bytes = format::write_table(Game::Pipeline, UNITS_REVISION, &checkpoint()).unwrap();
        bytes.truncate(format::HEADER_LEN);
        bytes[24..32].copy_from_slice(&(3u64 << 30).to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let err = format!("{:#}", Checkpoint::load(&path).unwrap_err());
        assert!(err.contains("truncated"), "{err}");
        // One byte past the limit both sides share: refused as too large.
        bytes[24..32].copy_from_slice(&(MAX_INTERNAL_PAYLOAD + 1).to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let err = format!("{:#}", Checkpoint::load(&path).unwrap_err());
        assert!(err.contains("limit"), "{err}");
    }

    #[test]
    fn files_of_another_units_revision_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoint::path(dir.path(), None);
        for revision in [0, UNITS_REVISION + 1] {
            let bytes = format::write_table(Game::Pipeline, revision, &checkpoint()).unwrap();
            crate::sink::atomic_write_bytes(&path, &bytes).unwrap();
            let err = format!("{:#}", Checkpoint::load(&path).unwrap_err());
            assert!(
                err.contains(&format!(
                    "revision {revision}, and this pipeline computes revision {UNITS_REVISION}"
                )),
                "{err}"
            );
            assert!(err.contains("with --restart"), "{err}");
        }
    }
}
