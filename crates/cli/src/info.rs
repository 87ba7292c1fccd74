//! `obbtree info MESH...`: what is in mesh files.

use super::{mesh::Summary, Error};
use std::io::Write;
use std::path::PathBuf;

/// Show vertices, triangles, bounds, degenerate triangles, closedness and load time of meshes.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  obbtree info assets/bunny.obj\n  obbtree info --json assets/kuka_iiwa/*.obj\n  obbtree info --tree obb assets/dragon_res3.ply.gz"
)]
pub struct Args {
    /// Mesh files (.obj, .stl, .ply, .off, .dae, each optionally .gz).
    #[arg(required = true, value_name = "MESH")]
    meshes: Vec<PathBuf>,
    /// Print a JSON array (one object per mesh) instead of text.
    #[arg(long)]
    json: bool,
    /// Also build this hierarchy over each mesh (default options) and print its statistics
    /// (with --json: build_ms, nodes, leaves, depth, bytes_per_triangle, leaf_sizes, levels).
    #[arg(long, value_parser = super::tree::volume_parser(), value_name = "KIND")]
    tree: Option<obbtree::tree::VolumeKind>,
}

/// Describes every file, the good ones even when others fail: the text report (or the JSON
/// array, where a file that failed is `{"path": ..., "error": ...}`) comes first, then the
/// error, which names every file that failed.
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    let loaded: Vec<Result<Summary, _>> = args
        .meshes
        .iter()
        .map(|path| Summary::load_with_tree(path, args.tree))
        .collect();
    if args.json {
        let entries: Vec<serde_json::Value> = loaded
            .iter()
            .zip(&args.meshes)
            .map(|(l, path)| match l {
                Ok(summary) => serde_json::to_value(summary),
                Err(e) => Ok(serde_json::json!({"path": path, "error": e.to_string()})),
            })
            .collect::<Result<_, _>>()?;
        serde_json::to_writer_pretty(&mut *out, &entries)?;
        writeln!(out)?;
    } else {
        for summary in loaded.iter().flatten() {
            print_summary(summary, out)?;
        }
    }
    let failed: Vec<String> = loaded
        .iter()
        .filter_map(|l| l.as_ref().err().map(ToString::to_string))
        .collect();
    match failed.len() {
        0 => Ok(()),
        1 => Err(Error::Message(failed[0].clone())),
        n => Err(Error::Message(format!(
            "{n} of {} files could not be read: {}",
            args.meshes.len(),
            failed.join("; ")
        ))),
    }
}

/// One file's text report.
fn print_summary(s: &Summary, out: &mut impl Write) -> Result<(), Error> {
    let surface = if s.closed {
        "closed"
    } else {
        "open (some edge is a boundary: its triangles do not pair up in opposite directions)"
    };
    writeln!(out, "{}", console::style(s.path.display()).bold())?;
    writeln!(out, "  vertices    {}", s.vertices)?;
    writeln!(
        out,
        "  triangles   {} ({} degenerate)",
        s.triangles, s.degenerate_triangles
    )?;
    writeln!(
        out,
        "  bounds      {:?} .. {:?}",
        s.bounds_min, s.bounds_max
    )?;
    writeln!(out, "  size        {:?}", s.extent())?;
    writeln!(out, "  surface     {surface}")?;
    writeln!(out, "  load time   {:.1} ms", s.load_ms)?;
    if let Some(tree) = &s.tree {
        for line in tree.text.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}
