//! The `obbtree` command-line program; see `obbtree --help`.

use clap::Parser;
use std::process::ExitCode;

mod huge_pages;

/// glibc's allocator (tuned by [`keep_freed_memory`]), its large blocks on huge pages.
#[global_allocator]
static ALLOCATOR: huge_pages::HugePageSystem = huge_pages::HugePageSystem;

fn main() -> ExitCode {
    keep_freed_memory();
    // NO_COLOR (https://no-color.org) wins over CLICOLOR_FORCE, as it does for clap's help.
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        console::set_colors_enabled(false);
        console::set_colors_enabled_stderr(false);
    }
    let args = match obbtree_cli::Cli::try_parse() {
        Ok(args) => args,
        // --help and --version, printed as clap prints them.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprintln!("{}", one_line(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    match obbtree_cli::run(args, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of a pipe (`obbtree | head`) has all it wants.
        Err(obbtree_cli::Error::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{} {e}", console::style("error:").red().bold().for_stderr());
            ExitCode::FAILURE
        }
    }
}

/// Has glibc's allocator keep the memory the program frees for its next allocations instead of
/// handing it back to the system: blocks below 32 MiB come from the heap rather than from
/// mappings of their own, and the heap's top is never trimmed. A build frees large working
/// arrays (its triangles and their moments in tree order) just before the model's own arrays
/// are allocated, and the second model's build follows the first; with glibc's defaults each
/// of those arrays is a fresh mapping whose every page the system maps and zeroes on first
/// touch (measurements in `docs/performance.md`). The program's memory stays at its peak until
/// it exits, which a command that answers one query and exits can afford; the library leaves
/// the allocator to the application.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    // SAFETY: `mallopt` only sets two parameters of glibc's allocator, before any other
    // thread exists.
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, libc::c_int::MAX);
    }
}

/// Other systems' allocators are left as they are.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}

/// A clap usage error on one line: its message and hints without the usage block and the
/// "For more information" line, then where to look.
fn one_line(error: &str) -> String {
    let mut line = String::new();
    for part in error
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
    {
        if !line.is_empty() {
            line.push_str(if line.ends_with(':') { " " } else { "; " });
        }
        line.push_str(part);
    }
    format!("{line}; see --help")
}
