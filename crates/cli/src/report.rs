//! How every subcommand hands out its report: the JSON object to `--out FILE` when given, then
//! either the JSON object on one line (`--json`) or the readable summary.

use super::Error;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// Writes `report` to `out_file` if given, then prints it as one JSON line when `json`, or
/// else runs `summary`. The JSON is serialised before it is printed, so a closed pipe is an
/// output error like any other write.
pub(crate) fn emit<W: Write, R: Serialize>(
    out_file: Option<&Path>,
    json: bool,
    report: &R,
    out: &mut W,
    summary: impl FnOnce(&mut W) -> Result<(), Error>,
) -> Result<(), Error> {
    if let Some(path) = out_file {
        write_json(path, report)?;
    }
    if json {
        let text = serde_json::to_string(report)?;
        writeln!(out, "{text}")?;
        Ok(())
    } else {
        summary(out)
    }
}

/// `report` as one JSON line in the file at `path`; an error naming the file.
pub(crate) fn write_json(path: &Path, report: &impl Serialize) -> Result<(), Error> {
    let fail =
        |e: &dyn std::fmt::Display| Error::Message(format!("cannot write {}: {e}", path.display()));
    let file = std::fs::File::create(path).map_err(|e| fail(&e))?;
    let mut w = std::io::BufWriter::new(file);
    serde_json::to_writer(&mut w, report).map_err(|e| fail(&e))?;
    writeln!(w).and_then(|()| w.flush()).map_err(|e| fail(&e))
}

/// A bar on standard error counting `count` items named `unit` (`"poses"`, `"points"`, ...),
/// with `prefix` before it; hidden when `quiet`, off a terminal, or for fewer than `least`
/// items.
pub(crate) fn counting_bar(
    count: usize,
    unit: &str,
    prefix: &str,
    least: usize,
    quiet: bool,
) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if quiet || count < least || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(count as u64);
    let template = format!("{prefix}{{bar:30}} {{pos}}/{{len}} {unit} {{eta}}");
    bar.set_style(
        indicatif::ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
