//! The `pipeline` binary: parse the command line, run the command, map errors to exit
//! codes: 0 done, 1 a failure while running, 2 bad input (a bad job file, card text or
//! argument), 130 / 143 a run stopped by SIGINT / SIGTERM with its work saved.

use clap::Parser;

fn main() {
    // Behave like other Unix tools when the reader of stdout goes away (`| head`).
    #[cfg(unix)]
    // SAFETY: restoring the default SIGPIPE disposition before any other thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = pipeline::cli::Cli::parse();
    if let Err(error) = pipeline::commands::execute(cli) {
        if let Some(stop) = error.downcast_ref::<pipeline::engine::Interrupted>() {
            eprintln!("{stop}");
            std::process::exit(stop.exit_code());
        }
        eprintln!("error: {error:#}");
        let usage = error.chain().any(|cause| {
            cause.downcast_ref::<pipeline::job::JobError>().is_some()
                || cause.downcast_ref::<cardtables::CardError>().is_some()
                || cause
                    .downcast_ref::<pipeline::commands::UsageError>()
                    .is_some()
        });
        std::process::exit(if usage { 2 } else { 1 });
    }
}
