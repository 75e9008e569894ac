//! One writer per output: a lock file next to the outputs, so two runs into the same
//! folder (or two copies of the same shard) are refused instead of interleaved.
//!
//! The lock holds `host:pid`. A lock left by a process that died on this host (e.g. after
//! `kill -9`) is taken over with a note; a lock from another host (a shared cluster
//! filesystem) is never guessed at: the message says which file to delete once that run
//! is known to be gone.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

/// A held lock; dropping it removes the file.
#[derive(Debug)]
pub struct OutputLock {
    path: PathBuf,
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

fn process_alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks whether the process exists and may be signalled.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

impl OutputLock {
    /// Takes the lock at `path`, creating its folder.
    pub fn acquire(path: &Path) -> anyhow::Result<OutputLock> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create output folder {}", dir.display()))?;
        }
        let me = format!("{}:{}", host_name(), std::process::id());
        for _ in 0..3 {
            match OpenOptions::new().write(true).create_new(true).open(path) {
                Ok(mut file) => {
                    file.write_all(me.as_bytes())
                        .with_context(|| format!("cannot write lock {}", path.display()))?;
                    return Ok(OutputLock {
                        path: path.to_path_buf(),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let owner = std::fs::read_to_string(path).unwrap_or_default();
                    let (host, pid) = owner.rsplit_once(':').unwrap_or(("", ""));
                    let pid: Option<i32> = pid.trim().parse().ok();
                    match pid {
                        Some(pid) if host == host_name() && !process_alive(pid) => {
                            eprintln!(
                                "note: removing stale lock {} of process {pid}, which is gone",
                                path.display()
                            );
                            std::fs::remove_file(path).with_context(|| {
                                format!("cannot remove stale lock {}", path.display())
                            })?;
                        }
                        _ => bail!(
                            "another run ({}) is writing to this output: {} is locked; wait for it, or delete the lock if that run is gone",
                            if owner.is_empty() { "unknown owner" } else { owner.trim() },
                            path.display()
                        ),
                    }
                }
                Err(e) => {
                    return Err(e).with_context(|| {
                        format!(
                            "cannot create lock {} (is the output folder writable?)",
                            path.display()
                        )
                    })
                }
            }
        }
        bail!("cannot take the lock {}", path.display())
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
