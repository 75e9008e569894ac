//! The `pipeline` binary: parse the command line, run the command, map errors to exit
//! codes (2 for a bad job file or arguments, 1 for anything else).

use clap::Parser;

fn main() {
    let cli = pipeline::cli::Cli::parse();
    if let Err(error) = pipeline::commands::execute(cli) {
        eprintln!("error: {error:#}");
        let usage = error
            .chain()
            .any(|cause| cause.downcast_ref::<pipeline::job::JobError>().is_some());
        std::process::exit(if usage { 2 } else { 1 });
    }
}
