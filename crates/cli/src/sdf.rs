//! `obbtree sdf MESH --resolution N [--padding P] --out FILE.npy [--json]`: the signed distance
//! from every point of an `N × N × N` grid around a mesh, written as a NumPy array.

use super::points::{point_model, read_mesh};
use super::report::{counting_bar, emit};
use super::Error;
use npyz::WriterBuilder;
use obbtree::{sdf_grid_into, Grid};
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The signed distance from each point of an N×N×N grid to a mesh (within 1e-12·(d + L) of
/// the exact distance, 0 exactly on the surface, negative inside: exact on a closed mesh, by the
/// winding number on an open one, NaN where that cannot be decided), written as a float64
/// NumPy array of shape (N, N, N) indexed [x][y][z]. The grid spans the cube centred on the
/// mesh's bounding box, its side the box's largest extent times 1 + 2·P, both ends included.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  obbtree sdf assets/bunny.obj --resolution 128 --out bunny_sdf.npy\n  obbtree sdf assets/bunny.obj --resolution 64 --padding 0.2 --out sdf.npy --json"
)]
pub struct Args {
    /// The mesh (.obj, .stl, .ply, .off, .dae, each optionally .gz).
    #[arg(value_name = "MESH")]
    mesh: PathBuf,
    /// Points along each axis (at least 1).
    #[arg(long, value_name = "N")]
    resolution: usize,
    /// Space left around the mesh on each side, as a fraction of its box's largest extent.
    #[arg(
        long,
        value_name = "P",
        default_value_t = 0.1,
        allow_hyphen_values = true
    )]
    padding: f64,
    /// The NumPy file to write.
    #[arg(long, value_name = "FILE.npy")]
    out: PathBuf,
    /// Print one JSON object {"min", "max", "resolution", "spacing", "build_ms",
    /// "query_total_ms", "inside", "undecided"} instead of a summary.
    #[arg(long)]
    json: bool,
}

/// The JSON report: the grid's corners and spacing, the times, and how many points are inside
/// and undecided.
#[derive(Serialize)]
struct Report {
    min: [f64; 3],
    max: [f64; 3],
    resolution: usize,
    spacing: f64,
    build_ms: f64,
    query_total_ms: f64,
    inside: usize,
    undecided: usize,
}

/// x-slices computed (and written) at a time: a slab bounds the memory held.
const SLAB: usize = 4;

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    check(args)?;
    let mesh = read_mesh(&args.mesh, "sdf")?;
    let (model, build_ms) = point_model(mesh, true, args.json)?;
    let grid = Grid::cube_around(model.bounds(), args.resolution, args.padding);
    let start = Instant::now();
    let (inside, undecided) = write_grid(&model, &grid, &args.out, args.json)?;
    let n = args.resolution;
    let report = Report {
        min: grid.min.coords.into(),
        max: grid.max.coords.into(),
        resolution: n,
        spacing: if n > 1 {
            (grid.max.x - grid.min.x) / (n - 1) as f64
        } else {
            0.0
        },
        build_ms,
        query_total_ms: start.elapsed().as_secs_f64() * 1e3,
        inside,
        undecided,
    };
    emit(None, args.json, &report, out, |out| {
        summary(out, &report, &args.out)
    })
}

/// The arguments' own checks.
fn check(args: &Args) -> Result<(), Error> {
    if args.resolution == 0 {
        return Err(Error::Message(
            "--resolution 0: expected at least 1 point along each axis".into(),
        ));
    }
    if !(args.padding.is_finite() && args.padding >= 0.0) {
        return Err(Error::Message(format!(
            "--padding {}: expected a finite fraction of at least 0",
            args.padding
        )));
    }
    Ok(())
}

/// Computes the grid a slab at a time with a progress bar, streaming each slab into the NumPy
/// file at `path`; returns how many values are negative and how many NaN.
fn write_grid(
    model: &obbtree::Model,
    grid: &Grid,
    path: &Path,
    quiet: bool,
) -> Result<(usize, usize), Error> {
    let cannot =
        |e: std::io::Error| Error::Message(format!("cannot write {}: {e}", path.display()));
    let [nx, ny, nz] = grid.resolution;
    let too_large = || {
        Error::Message(format!(
            "--resolution {nx}: {SLAB} slices of {ny}×{nz} values do not fit in memory"
        ))
    };
    let slab_len = (SLAB * ny).checked_mul(nz).ok_or_else(too_large)?;
    let mut slab = Vec::new();
    slab.try_reserve_exact(slab_len).map_err(|_| too_large())?;
    slab.resize(slab_len, 0.0);
    let file = File::create(path).map_err(cannot)?;
    let shape = [nx, ny, nz].map(|n| n as u64);
    let mut writer = npyz::WriteOptions::new()
        .default_dtype()
        .shape(&shape)
        .writer(BufWriter::new(file))
        .begin_nd()
        .map_err(cannot)?;
    let progress = counting_bar(nx, "x-slices", "", 2 * SLAB, quiet);
    let (mut inside, mut undecided) = (0, 0);
    for first in (0..nx).step_by(SLAB) {
        let values = &mut slab[..(nx - first).min(SLAB) * ny * nz];
        undecided += sdf_grid_into(model, grid, first, values)
            .map_err(|e| Error::Message(format!("sdf: {e}")))?;
        inside += values.iter().filter(|v| **v < 0.0).count();
        writer.extend(values.iter().copied()).map_err(cannot)?;
        progress.inc((values.len() / (ny * nz)) as u64);
    }
    writer.finish().map_err(cannot)?;
    progress.finish_and_clear();
    Ok((inside, undecided))
}

fn summary(out: &mut impl Write, report: &Report, path: &Path) -> Result<(), Error> {
    let n = report.resolution;
    writeln!(
        out,
        "{n}×{n}×{n} signed distances written to {} (spacing {})",
        path.display(),
        report.spacing
    )?;
    writeln!(out, "from {:?} to {:?}", report.min, report.max)?;
    writeln!(out, "inside the solid: {}", report.inside)?;
    if report.undecided > 0 {
        writeln!(
            out,
            "side undecided (NaN; winding number within its bound of 1/2): {}",
            report.undecided
        )?;
    }
    let per_point = 1e3 * report.query_total_ms / (n * n * n) as f64;
    writeln!(
        out,
        "build {:.3} ms, grid {:.3} ms ({per_point:.3} µs per point)",
        report.build_ms, report.query_total_ms
    )?;
    Ok(())
}
