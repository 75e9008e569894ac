//! Stopping a run cleanly when it is asked to: Ctrl-C (SIGINT) at a terminal, SIGTERM from
//! a cluster scheduler (Slurm preemption or time limit, Kubernetes eviction).
//!
//! The first signal only sets a flag. While units are being computed, the workers start no
//! new unit, the units in flight finish, the checkpoint is written, the lock is released
//! and the run returns [`Interrupted`], which the binary prints as
//! `interrupted: N of M units saved; …` and turns into exit code 130 (SIGINT) or 143
//! (SIGTERM). Once every unit is saved and the run is finishing and writing, nothing more
//! can be lost, so a signal then stops the process at once with the same message: the
//! next run takes the saved units and redoes only the finish. A second signal at any time
//! also stops at once, keeping the last checkpoint.
//!
//! Without [`install`] (library callers, tests) the flag is never set and runs behave as
//! before.

use std::sync::atomic::{AtomicI32, AtomicU64, AtomicU8, Ordering};

/// The first signal received (0 while none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// What a signal does now: [`COOPERATE`] or [`EXIT_AT_ONCE`].
static MODE: AtomicU8 = AtomicU8::new(COOPERATE);
/// Units the checkpoint on disk holds, and units in all (for the message of a stop at
/// once).
static SAVED: AtomicU64 = AtomicU64::new(0);
static TOTAL: AtomicU64 = AtomicU64::new(0);

const COOPERATE: u8 = 0;
const EXIT_AT_ONCE: u8 = 1;

/// A run stopped by a signal after saving its work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("interrupted: {saved} of {total} units saved; run the same command again to resume")]
pub struct Interrupted {
    /// The signal that stopped the run (`SIGINT` or `SIGTERM`).
    pub signal: i32,
    /// Units the checkpoint holds.
    pub saved: usize,
    /// Units this run (or shard) computes in all.
    pub total: usize,
}

impl Interrupted {
    /// The exit code a shell gives a process killed by the signal: 128 + its number.
    pub fn exit_code(&self) -> i32 {
        128 + self.signal
    }
}

/// Routes SIGINT and SIGTERM to this module for the rest of the process. Called by the
/// binary before a run starts; idempotent.
#[cfg(unix)]
pub fn install() -> std::io::Result<()> {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction with a handler that only touches atomics and calls
        // async-signal-safe functions (write, _exit); sa_mask is emptied before use.
        let rc = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            action.sa_flags = libc::SA_RESTART;
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if rc != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Signals are not handled off Unix: the process stops as the platform stops it.
#[cfg(not(unix))]
pub fn install() -> std::io::Result<()> {
    Ok(())
}

/// The signal that asked this run to stop, if any.
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// Records how many units the checkpoint on disk holds, of how many.
pub(crate) fn saved(saved: usize, total: usize) {
    SAVED.store(saved as u64, Ordering::SeqCst);
    TOTAL.store(total as u64, Ordering::SeqCst);
}

/// The units are computed and `saved` of them are in the checkpoint (all of them unless
/// the run was too short to be worth saving): from now on a signal stops the process at
/// once. Returns a signal that came before this call, which the caller honours.
pub(crate) fn finishing(saved_units: usize, total: usize) -> Option<i32> {
    saved(saved_units, total);
    MODE.store(EXIT_AT_ONCE, Ordering::SeqCst);
    requested()
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    let first = SIGNAL
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok();
    if first && MODE.load(Ordering::SeqCst) == COOPERATE {
        write_stderr(&[b"\nstopping: finishing the units in progress and saving them (signal again to stop at once)\n"]);
        return;
    }
    let mut saved = [0u8; 20];
    let mut total = [0u8; 20];
    let saved = decimal(SAVED.load(Ordering::SeqCst), &mut saved);
    let total = decimal(TOTAL.load(Ordering::SeqCst), &mut total);
    write_stderr(&[
        b"\ninterrupted: ",
        saved,
        b" of ",
        total,
        b" units saved; run the same command again to resume\n",
    ]);
    // SAFETY: _exit is async-signal-safe; the kernel releases the output lock with the
    // process, and every file this run writes is replaced atomically.
    unsafe { libc::_exit(128 + signal) }
}

/// Writes the pieces to stderr with `write(2)` (async-signal-safe).
#[cfg(unix)]
fn write_stderr(pieces: &[&[u8]]) {
    for piece in pieces {
        // SAFETY: writes a valid buffer of its own length to fd 2.
        unsafe {
            libc::write(2, piece.as_ptr().cast(), piece.len());
        }
    }
}

/// `n` in decimal in `buf`, without allocating (for the signal handler).
fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[at..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_writes_every_width() {
        for n in [0, 7, 10, 99, 12_345, u64::MAX] {
            let mut buf = [0u8; 20];
            assert_eq!(decimal(n, &mut buf), n.to_string().as_bytes());
        }
    }

    #[test]
    fn the_exit_code_is_the_shells() {
        let stop = |signal| Interrupted {
            signal,
            saved: 3,
            total: 9,
        };
        assert_eq!(stop(libc::SIGINT).exit_code(), 130);
        assert_eq!(stop(libc::SIGTERM).exit_code(), 143);
        assert_eq!(
            stop(libc::SIGINT).to_string(),
            "interrupted: 3 of 9 units saved; run the same command again to resume"
        );
    }
}
