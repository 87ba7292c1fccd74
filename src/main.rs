//! The `obbtree` command-line program; see `obbtree --help`.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of a pipe (`obbtree | head`) has all it wants.
        Err(cli::Error::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{} {e}", console::style("error:").red().bold().for_stderr());
            ExitCode::FAILURE
        }
    }
}
