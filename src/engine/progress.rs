//! Progress on stderr: a bar with ETA for units, a spinner for the phases after them.
//! Hidden with `--quiet` or when stderr is not a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress display that may be hidden; every method is cheap when hidden.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `units` work units, of which `done` are already finished.
    pub fn units(units: u64, done: u64, quiet: bool, label: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(units), target(quiet));
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:>12} [{elapsed_precise}] {wide_bar} {pos}/{len} units  ETA {eta}",
            )
            .expect("valid template"),
        );
        bar.set_message(label.to_string());
        bar.set_position(done);
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar }
    }

    /// A hidden progress display (for library callers and tests).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
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
    }

    /// Prints a line above the bar (or plainly when hidden and not quiet).
    pub fn println(&self, line: &str) {
        self.bar.println(line);
    }

    /// Removes the display.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn target(quiet: bool) -> ProgressDrawTarget {
    if quiet || !std::io::stderr().is_terminal() {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    }
}
