//! The `pipeline` binary: parse the command line, run the command, map errors to exit
//! codes (2 for a bad job file, bad card text or bad arguments; 1 for anything else).

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
