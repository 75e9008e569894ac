//! One writer per output: a lock file next to the outputs, so two runs into the same
//! folder (or two copies of the same shard) are refused instead of interleaved.
//!
//! The lock file is held with an OS advisory lock for the run's lifetime and holds
//! `host:pid`, which names the owner in messages. Whether the owner is alive is the OS
//! lock's answer alone: the kernel (or, on a network filesystem, its lock manager) drops
//! the lock when the owning process ends in any way, `kill -9` included. So a lock file
//! left by a run that died, on this host or another (a preempted Slurm task requeued
//! elsewhere, a Kubernetes pod replaced on a new node), is taken over with a note, by
//! exactly one of the runs that try at once.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

/// A held lock; dropping it removes the file, then releases the OS lock.
#[derive(Debug)]
pub struct OutputLock {
    path: PathBuf,
    /// Holds the advisory lock until the run ends.
    _file: File,
}

fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most buf.len() bytes into buf.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "unknown-host".to_string();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

impl OutputLock {
    /// Takes the lock at `path`, creating its folder.
    ///
    /// The OS advisory lock (`flock`) held for the run's lifetime decides: of any number
    /// of runs that try at once exactly one gets it, and it is free again as soon as its
    /// owner's process is gone, even by `kill -9`. The `host:pid` left in the file by a
    /// dead owner is only reported.
    pub fn acquire(path: &Path) -> anyhow::Result<OutputLock> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create output folder {}", dir.display()))?;
        }
        let me = format!("{}:{}", host_name(), std::process::id());
        let refuse = |owner: &str| {
            anyhow::anyhow!(
                "another run ({}) is writing to this output: {} is locked; wait for it to finish, or stop it (Ctrl-C or SIGTERM saves its work)",
                if owner.is_empty() { "unknown owner" } else { owner },
                path.display()
            )
        };
        for _ in 0..3 {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)
                .with_context(|| {
                    format!(
                        "cannot create lock {} (is the output folder writable?)",
                        path.display()
                    )
                })?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => return Err(refuse(read_owner(&mut file).trim())),
                Err(TryLockError::Error(e)) => {
                    return Err(e).with_context(|| format!("cannot lock {}", path.display()))
                }
            }
            // The run that held it may have removed the file between our open and lock:
            // then we hold a lock on a file nobody else will see. Start again.
            if !is_same_file(&file, path) {
                continue;
            }
            let owner = read_owner(&mut file);
            let owner = owner.trim();
            if !owner.is_empty() && owner != me {
                eprintln!(
                    "note: taking over the lock {} of run {owner}, which is gone",
                    path.display()
                );
            }
            file.set_len(0)
                .and_then(|()| file.seek(SeekFrom::Start(0)))
                .and_then(|_| file.write_all(me.as_bytes()))
                .with_context(|| format!("cannot write lock {}", path.display()))?;
            return Ok(OutputLock {
                path: path.to_path_buf(),
                _file: file,
            });
        }
        bail!("cannot take the lock {}", path.display())
    }
}

/// The `host:pid` in a lock file (at most a few hundred bytes of it).
fn read_owner(file: &mut File) -> String {
    let mut owner = String::new();
    let _ = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.take(512).read_to_string(&mut owner));
    owner
}

/// Whether `path` still names the file `file` has open.
fn is_same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Barrier};

    #[test]
    fn of_many_runs_taking_over_a_stale_lock_at_once_exactly_one_wins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".lock");
        for round in 0..40 {
            // A lock left by a process that is gone, of this host or another.
            let host = if round % 2 == 0 {
                host_name()
            } else {
                "elsewhere".into()
            };
            std::fs::write(&path, format!("{host}:2147483600")).unwrap();
            let threads = 8;
            let barrier = Arc::new(Barrier::new(threads));
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let (barrier, path) = (Arc::clone(&barrier), path.clone());
                    std::thread::spawn(move || {
                        barrier.wait();
                        let lock = OutputLock::acquire(&path);
                        // Hold what we got until every thread has tried.
                        barrier.wait();
                        lock.is_ok()
                    })
                })
                .collect();
            let winners = handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .filter(|&won| won)
                .count();
            assert_eq!(winners, 1, "round {round}");
            assert!(!path.exists(), "the winner's lock is removed when it ends");
        }
    }

    #[test]
    fn a_held_lock_refuses_a_second_run_and_names_the_owner() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out/.lock");
        let held = OutputLock::acquire(&path).unwrap();
        let e = OutputLock::acquire(&path).unwrap_err().to_string();
        assert!(
            e.contains(&format!(":{}", std::process::id())) && e.contains("is locked"),
            "{e}"
        );
        drop(held);
        assert!(!path.exists());
        assert!(OutputLock::acquire(&path).is_ok());
    }
}
