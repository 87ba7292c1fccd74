//! `obbtree demo` (also what runs with no subcommand): loads every bundled mesh, builds the
//! trees, runs collision, self-collision and picking beside parry3d-f64, and writes pictures.

mod distance_picture;
mod gears_and_arm;
mod panda_contact;
mod robot_path;
mod scene_frames;
mod showcase;
mod tunnelling;

use super::{mesh::Summary, Error};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Show the engine at work on the bundled meshes: trees, collision, picking, pictures.
#[derive(Debug, Default, clap::Args)]
#[command(
    after_help = "Examples:\n  obbtree demo\n  obbtree demo --quick --out /tmp/pictures\n  obbtree demo --assets path/to/obbtree/assets"
)]
pub struct Args {
    /// Only the meshes under 1 MB on disk (skips the big dragon and the ring gear).
    #[arg(long)]
    quick: bool,
    /// Directory of the bundled meshes (default: assets/ beside the program, in the current
    /// directory, or in the source tree the program was built from).
    #[arg(long, value_name = "DIR")]
    assets: Option<PathBuf>,
    /// Folder for the pictures (created if missing).
    #[arg(long, value_name = "DIR", default_value = "target/obbtree-demo")]
    out: PathBuf,
}

const QUICK_BYTES: u64 = 1 << 20;

/// A file every copy of the bundled assets has.
const MARKER: &str = "bunny.obj";

/// The folders where the bundled meshes are looked for when `--assets` is not given, in
/// order: beside the program (an installed copy with its assets), two levels up from it (the
/// program in `target/release/` of a clone), the current directory, and the source tree the
/// program was built from.
fn asset_candidates() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        dirs.push(exe_dir.join("assets"));
        dirs.push(exe_dir.join("../../assets"));
    }
    if let Ok(cwd) = std::env::current_dir() {
        dirs.push(cwd.join("assets"));
    }
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets"));
    dirs
}

/// The folder of `--assets` when given (its absence is then an error naming it, not a reason to
/// look elsewhere), or the first [`asset_candidates`] folder holding the bundled meshes; an
/// error naming every folder looked at otherwise.
fn find_assets(given: Option<&Path>) -> Result<PathBuf, Error> {
    if let Some(dir) = given {
        return if dir.join(MARKER).is_file() {
            Ok(dir.to_path_buf())
        } else {
            Err(Error::Message(format!(
                "--assets {}: no {MARKER} there; pass the assets/ folder of obbtree (the bundled meshes)",
                dir.display()
            )))
        };
    }
    let candidates = asset_candidates();
    candidates
        .iter()
        .find(|dir| dir.join(MARKER).is_file())
        .cloned()
        .ok_or_else(|| {
            let looked: Vec<String> = candidates.iter().map(|d| d.display().to_string()).collect();
            Error::Message(format!(
                "cannot find the bundled meshes (a folder with {MARKER}); looked in {}; pass --assets DIR pointing at obbtree's assets/",
                looked.join(", ")
            ))
        })
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    let dir = find_assets(args.assets.as_deref())?;
    let mut files = mesh_files(&dir).map_err(|e| {
        Error::Message(format!(
            "cannot read {}: {e}; pass --assets DIR pointing at obbtree's assets/",
            dir.display()
        ))
    })?;
    if args.quick {
        files.retain(|f| f.metadata().is_ok_and(|m| m.len() <= QUICK_BYTES));
    }
    if files.is_empty() {
        return Err(Error::Message(format!(
            "no mesh files in {}; pass --assets DIR pointing at obbtree's assets/",
            dir.display()
        )));
    }
    let progress = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(files.len() as u64);
        let template = "{bar:30} {pos}/{len} {wide_msg}";
        bar.set_style(
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut rows = Vec::with_capacity(files.len());
    for file in &files {
        progress.set_message(
            file.strip_prefix(&dir)
                .unwrap_or(file)
                .display()
                .to_string(),
        );
        rows.push(Summary::load(file)?);
        progress.inc(1);
    }
    progress.finish_and_clear();

    let shown = |f: &Path| table_name(f.strip_prefix(&dir).unwrap_or(f));
    let name_width = files
        .iter()
        .map(|f| shown(f).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let header = format!(
        "{:<name_width$}  {:>8}  {:>9}  {:>10}  {:>6}  {:>26}  {:>9}",
        "mesh", "vertices", "triangles", "degenerate", "closed", "size (x y z)", "load ms"
    );
    writeln!(out, "{}", console::style(header).bold())?;
    for s in &rows {
        let [x, y, z] = s.extent();
        writeln!(
            out,
            "{:<name_width$}  {:>8}  {:>9}  {:>10}  {:>6}  {:>26}  {:>9.1}",
            shown(&s.path),
            s.vertices,
            s.triangles,
            s.degenerate_triangles,
            if s.closed { "yes" } else { "no" },
            format!("{x:.3} {y:.3} {z:.3}"),
            s.load_ms
        )?;
    }
    let triangles: usize = rows.iter().map(|s| s.triangles).sum();
    let ms: f64 = rows.iter().map(|s| s.load_ms).sum();
    writeln!(
        out,
        "{} meshes, {triangles} triangles, loaded and validated in {ms:.0} ms",
        rows.len()
    )?;
    let out_dir = if args.out.as_os_str().is_empty() {
        Path::new("target/obbtree-demo")
    } else {
        &args.out
    };
    showcase::run(&dir, out_dir, args.quick, out)
}

/// Names longer than this are shortened in the mesh table ([`table_name`]).
const NAME_MAX: usize = 40;

/// The mesh table's name of a file at `relative` path under the assets folder: the path, or
/// when it is longer than [`NAME_MAX`] characters its first folder, `…` and its last two
/// parts (`panda/…/collision/link0.stl`), so that a robot's deep package folders do not
/// widen every row.
fn table_name(relative: &Path) -> String {
    let full = relative.display().to_string();
    let parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if full.chars().count() <= NAME_MAX || parts.len() <= 3 {
        return full;
    }
    let sep = std::path::MAIN_SEPARATOR_STR;
    let last = parts[parts.len() - 2..].join(sep);
    format!("{}{sep}…{sep}{last}", parts[0])
}

/// Mesh files under `dir` (recursively), sorted by path. `large/` holds meshes fetched on demand
/// for benchmarks (`assets/fetch.sh --large`), not the bundled set, so it is skipped.
fn mesh_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    const EXTENSIONS: [&str; 4] = [".obj", ".stl", ".ply", ".off"];
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            let name = name.strip_suffix(".gz").unwrap_or(&name);
            if path.is_dir() {
                if name != "large" {
                    stack.push(path);
                }
            } else if EXTENSIONS.iter().any(|e| name.ends_with(e)) {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_table_names_keep_their_first_folder_and_last_two_parts() {
        let short = Path::new("differential").join("diff_carrier_cover.stl");
        assert_eq!(table_name(&short), short.display().to_string());
        let panda: PathBuf = [
            "panda",
            "example-robot-data",
            "robots",
            "panda_description",
            "meshes",
            "collision",
            "link0.stl",
        ]
        .iter()
        .collect();
        let sep = std::path::MAIN_SEPARATOR_STR;
        assert_eq!(
            table_name(&panda),
            format!("panda{sep}…{sep}collision{sep}link0.stl")
        );
    }
}
