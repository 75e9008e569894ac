//! Sinks write results to disk. They know file formats, not the math: a game states its
//! tables' schemas through [`columns::Columns`] and hands the batches over.
//!
//! Every file is written to a temporary name in its final folder, flushed to disk and
//! renamed into place, so a crash or a full disk never leaves a half-written table under
//! the real name.

pub mod columns;
pub mod parquet;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use sha2::{Digest, Sha256};

/// The `rules_hash` of a table file's header: the first 8 bytes (little-endian) of the
/// SHA-256 of the resolved rules as TOML.
pub fn rules_hash(rules_toml: &str) -> u64 {
    u64::from_le_bytes(
        Sha256::digest(rules_toml.as_bytes())[..8]
            .try_into()
            .expect("a SHA-256 digest has 32 bytes"),
    )
}

/// A writer that hashes and counts what passes through it.
pub struct HashingWriter<W> {
    inner: W,
    hasher: Sha256,
    bytes: u64,
}

impl<W: Write> HashingWriter<W> {
    pub fn new(inner: W) -> Self {
        HashingWriter {
            inner,
            hasher: Sha256::new(),
            bytes: 0,
        }
    }

    /// Hex SHA-256 and length of everything written, and the inner writer.
    pub fn finish(self) -> (String, u64, W) {
        (
            crate::job::hex(&self.hasher.finalize()),
            self.bytes,
            self.inner,
        )
    }
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What an atomic write produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub sha256: String,
    pub bytes: u64,
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// A file written and synced under a temporary name, waiting to be renamed into place.
/// Dropping it without [`Staged::commit`] deletes the temporary file.
#[derive(Debug)]
pub struct Staged {
    tmp: PathBuf,
    path: PathBuf,
    pub written: Written,
    committed: bool,
}

impl Staged {
    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary file the content waits in.
    pub fn temp_path(&self) -> &Path {
        &self.tmp
    }

    /// Keeps the temporary file (it is no longer deleted on drop): a journal now owns it.
    pub fn keep(mut self) {
        self.committed = true;
    }

    /// Renames the file into place.
    pub fn commit(mut self) -> anyhow::Result<Written> {
        std::fs::rename(&self.tmp, &self.path)
            .with_context(|| format!("cannot move {} into place", self.path.display()))?;
        self.committed = true;
        Ok(self.written.clone())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `fill`'s output to a temporary file beside `path` and syncs it, without
/// replacing `path` yet; see [`Staged::commit`].
pub fn stage<F>(path: &Path, fill: F) -> anyhow::Result<Staged>
where
    F: FnOnce(&mut HashingWriter<BufWriter<File>>) -> anyhow::Result<()>,
{
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output folder {}", dir.display()))?;
    }
    let tmp = temp_path(path);
    let result = (|| -> anyhow::Result<Written> {
        let file = File::create(&tmp).with_context(|| {
            format!("cannot create {} (is the folder writable?)", tmp.display())
        })?;
        let mut writer = HashingWriter::new(BufWriter::with_capacity(1 << 20, file));
        fill(&mut writer)?;
        writer.flush()?;
        let (sha256, bytes, buffered) = writer.finish();
        let file = buffered.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        Ok(Written { sha256, bytes })
    })()
    .with_context(|| format!("cannot write {}", path.display()));
    match result {
        Ok(written) => Ok(Staged {
            tmp,
            path: path.to_path_buf(),
            written,
            committed: false,
        }),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// SHA-256 and length of the file at `path`.
pub fn hash_file(path: &Path) -> anyhow::Result<Written> {
    let mut file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut writer = HashingWriter::new(io::sink());
    io::copy(&mut file, &mut writer).with_context(|| format!("cannot read {}", path.display()))?;
    let (sha256, bytes, _) = writer.finish();
    Ok(Written { sha256, bytes })
}

/// Flushes a folder's entries (the renames into it) to disk.
pub fn sync_dir(dir: &Path) -> anyhow::Result<()> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .with_context(|| format!("cannot sync folder {}", dir.display()))
}

/// Writes `path` atomically: `fill` writes into a temporary file in the same folder,
/// which is synced and renamed over `path` only if `fill` succeeds.
pub fn atomic_write<F>(path: &Path, fill: F) -> anyhow::Result<Written>
where
    F: FnOnce(&mut HashingWriter<BufWriter<File>>) -> anyhow::Result<()>,
{
    stage(path, fill)?.commit()
}

/// Writes bytes to `path` atomically.
pub fn atomic_write_bytes(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    atomic_write(path, |w| Ok(w.write_all(bytes)?)).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_write_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.bin");
        std::fs::write(&path, b"old").unwrap();
        let err = atomic_write(&path, |w| {
            w.write_all(b"partial")?;
            anyhow::bail!("disk full")
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1);
    }

    #[test]
    fn hash_matches_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/t.bin");
        let written = atomic_write(&path, |w| Ok(w.write_all(b"abc")?)).unwrap();
        assert_eq!(written.bytes, 3);
        assert_eq!(
            written.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
