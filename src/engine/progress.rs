//! Progress on stderr: while units run, how many are done, units per second and an ETA;
//! then the phase the run is in (building tables, writing outputs).
//!
//! Rates and ETAs count only the units this run computed, from this run's own clock:
//! units restored from a checkpoint are shown as done but never as speed. At a terminal
//! this is a bar; when stderr is a file or pipe (a batch log, `nohup`, a scheduler's
//! output file) it is a plain line every [`PLAIN_EVERY`] (or `PIPELINE_PROGRESS_SECS`
//! seconds), and a line at each phase change once the run has lasted that long. Nothing
//! is shown with `--quiet`.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Interval of the plain progress lines when stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(60);

/// A progress display that may be hidden; every method is cheap when hidden.
pub struct Progress {
    bar: ProgressBar,
    /// The plain-line printer's stop signal and thread, when stderr is not a terminal.
    plain: Option<Plain>,
}

struct Plain {
    stop: mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
    started: Instant,
    every: Duration,
}

impl Progress {
    /// A display over `units` work units, of which `done` are already finished (restored
    /// from a checkpoint).
    pub fn units(units: u64, done: u64, quiet: bool, label: &str) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(
            Some(units),
            if quiet || !terminal {
                ProgressDrawTarget::hidden()
            } else {
                ProgressDrawTarget::stderr()
            },
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:>12} [{elapsed_precise}] {wide_bar} {pos}/{len} units  {run_rate}  ETA {run_eta}",
            )
            .expect("valid template")
            .with_key("run_rate", move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate_text(s.pos().saturating_sub(done), s.elapsed()));
            })
            .with_key("run_eta", move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let eta = eta(s.pos().saturating_sub(done), s.len().unwrap_or(0).saturating_sub(s.pos()), s.elapsed());
                let _ = w.write_str(&eta.map_or("-".into(), duration_text));
            }),
        );
        bar.set_message(label.to_string());
        bar.set_position(done);
        let plain = (!quiet && !terminal).then(|| Plain::start(&bar, done, label));
        if !quiet && terminal {
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        Progress { bar, plain }
    }

    /// A hidden progress display (for library callers and tests).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            plain: None,
        }
    }

    /// Marks one more unit finished.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Switches to a spinner that names the current phase.
    pub fn phase(&self, what: &str) {
        self.bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}]")
                .expect("valid template"),
        );
        self.bar.set_message(what.to_string());
        if let Some(plain) = &self.plain {
            if plain.started.elapsed() >= plain.every {
                eprintln!("[{}] {what}", duration_text(plain.started.elapsed()));
            }
        }
    }

    /// Prints a line above the bar (or plainly when hidden and not quiet).
    pub fn println(&self, line: &str) {
        self.bar.println(line);
    }

    /// Removes the display.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
        if let Some(plain) = &self.plain {
            let _ = plain.stop.send(());
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(plain) = &mut self.plain {
            let _ = plain.stop.send(());
            if let Some(thread) = plain.thread.take() {
                let _ = thread.join();
            }
        }
    }
}

impl Plain {
    /// Starts the thread that prints a line every interval while units run.
    fn start(bar: &ProgressBar, done: u64, label: &str) -> Plain {
        let every = std::env::var("PIPELINE_PROGRESS_SECS")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .filter(|&s| (1..=86_400).contains(&s))
            .map_or(PLAIN_EVERY, Duration::from_secs);
        let (stop, stopped) = mpsc::channel::<()>();
        let started = Instant::now();
        let (bar, label) = (bar.clone(), label.to_string());
        let thread = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    let (pos, len) = (bar.position(), bar.length().unwrap_or(0));
                    if pos >= len {
                        continue; // finishing: phase lines say what happens
                    }
                    eprintln!("{}", plain_line(&label, pos, len, done, started.elapsed()));
                }
            })
            .ok();
        Plain {
            stop,
            thread,
            started,
            every,
        }
    }
}

/// One plain progress line: `[1m 00s] NAME: 120 of 400 units (30.0 %), 2.0 units/s, ETA 2m 20s`.
fn plain_line(label: &str, pos: u64, len: u64, done: u64, elapsed: Duration) -> String {
    let mut line = format!(
        "[{}] {label}: {pos} of {len} units ({:.1} %), {}",
        duration_text(elapsed),
        100.0 * pos as f64 / len.max(1) as f64,
        rate_text(pos.saturating_sub(done), elapsed)
    );
    if done > 0 {
        let _ = write!(line, " ({done} restored)");
    }
    let _ = write!(
        line,
        ", ETA {}",
        eta(pos.saturating_sub(done), len.saturating_sub(pos), elapsed)
            .map_or("-".into(), duration_text)
    );
    line
}

/// Units per second of this run's own units (`-` before the first).
fn rate_text(computed: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if computed == 0 || secs <= 0.0 {
        return "- units/s".into();
    }
    let rate = computed as f64 / secs;
    if rate >= 10.0 {
        format!("{rate:.0} units/s")
    } else if rate >= 0.1 {
        format!("{rate:.2} units/s")
    } else {
        format!("{:.1} min/unit", secs / computed as f64 / 60.0)
    }
}

/// The time left at this run's own average rate; `None` before its first unit.
fn eta(computed: u64, left: u64, elapsed: Duration) -> Option<Duration> {
    (computed > 0).then(|| elapsed.mul_f64(left as f64 / computed as f64))
}

/// `45s`, `12m 05s`, `3h 07m`.
fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restored_units_are_done_but_not_speed() {
        // 300 restored, 100 computed in 50 s: 2 units/s, 600 left -> 300 s.
        let line = plain_line("job", 400, 1000, 300, Duration::from_secs(50));
        assert_eq!(
            line,
            "[50s] job: 400 of 1000 units (40.0 %), 2.00 units/s (300 restored), ETA 5m 00s"
        );
        // Nothing computed yet: no rate, no ETA, however many were restored.
        let line = plain_line("job", 300, 1000, 300, Duration::from_secs(5));
        assert!(line.ends_with("- units/s (300 restored), ETA -"), "{line}");
    }

    #[test]
    fn durations_and_rates_read_as_people_write_them() {
        assert_eq!(duration_text(Duration::from_secs(59)), "59s");
        assert_eq!(duration_text(Duration::from_secs(725)), "12m 05s");
        assert_eq!(duration_text(Duration::from_secs(11_220)), "3h 07m");
        assert_eq!(rate_text(30, Duration::from_secs(1)), "30 units/s");
        assert_eq!(rate_text(1, Duration::from_secs(600)), "10.0 min/unit");
    }
}
