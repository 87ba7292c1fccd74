//! `obbtree points MESH --points POINTS.json [--signed] [--max-distance D]`: each point's
//! closest point on a mesh, its distance and triangle; with `--signed`, negative inside the
//! mesh's solid.

use super::collide::{counted, spinner};
use super::report::{counting_bar, emit};
use super::Error;
use crate::shape_spec::Input;
use obbtree::{
    closest_points, spatial_order, ClosestPoint, Model, ModelOptions, Point, PointRequest, Pose,
    Side,
};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The closest point of a mesh to each point of a file: the distance (within 1e-12·(d + L) of
/// the exact distance, L the largest coordinate; 0 exactly on the surface), the triangle and
/// the point on it. With --signed the distance is negative inside the mesh's solid: decided
/// exactly on a closed mesh, by the winding number (above 1/2, with a rigorous bound) on an open
/// one, where a point the bound cannot decide is marked "undecided" and keeps its unsigned
/// distance.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  obbtree points assets/bunny.obj --points points.json\n  obbtree points assets/bunny.obj --points points.json --signed --json\n  obbtree points assets/bunny.obj --points points.json --max-distance 0.01 --out closest.json"
)]
pub struct Args {
    /// The mesh (.obj, .stl, .ply, .off, .dae, each optionally .gz).
    #[arg(value_name = "MESH")]
    mesh: PathBuf,
    /// JSON file {"points":[[x,y,z], ...]}, in the mesh's frame.
    #[arg(long, value_name = "POINTS.json")]
    points: PathBuf,
    /// Negative distances inside the mesh's solid (exact on a closed mesh; from the winding
    /// number on an open one).
    #[arg(long)]
    signed: bool,
    /// Points farther than D get null answers (decided exactly).
    #[arg(long, value_name = "D", allow_hyphen_values = true)]
    max_distance: Option<f64>,
    /// Print one JSON object {"build_ms", "query_total_ms", "results": [{"distance",
    /// "triangle", "point"}]} instead of a summary (a result whose sign is undecided also has
    /// "undecided": true).
    #[arg(long)]
    json: bool,
    /// Also write the JSON object to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// A points file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PointsFile {
    points: Vec<[f64; 3]>,
}

/// The JSON report (an interface: other tools compare against it).
#[derive(Serialize)]
struct Report {
    build_ms: f64,
    query_total_ms: f64,
    results: Vec<PointResult>,
}

/// One point's answer; all null beyond the maximum distance.
#[derive(Serialize)]
struct PointResult {
    distance: Option<f64>,
    triangle: Option<u32>,
    point: Option<[f64; 3]>,
    /// Present (true) only when the sign could not be decided on an open mesh.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    undecided: bool,
}

impl From<Option<ClosestPoint>> for PointResult {
    fn from(found: Option<ClosestPoint>) -> Self {
        Self {
            distance: found.map(|c| c.distance),
            triangle: found.map(|c| c.triangle),
            point: found.map(|c| c.point.coords.into()),
            undecided: found.is_some_and(|c| c.side == Some(Side::Undecided)),
        }
    }
}

/// Points per progress-bar step (each step runs in parallel).
const CHUNK: usize = 4096;

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    if let Some(d) = args.max_distance {
        if !(d.is_finite() && d >= 0.0) {
            return Err(Error::Message(format!(
                "--max-distance {d}: expected a finite distance of at least 0"
            )));
        }
    }
    let request = PointRequest::default()
        .with_signed(args.signed)
        .with_max_distance(args.max_distance);
    let points = load_points(&args.points)?;
    let mesh = read_mesh(&args.mesh, "points")?;
    let (model, build_ms) = point_model(mesh, args.signed, args.json)?;
    let (found, query_total_ms) = answer(&model, &points, &request, args.json)?;
    let report = Report {
        build_ms,
        query_total_ms,
        results: found.iter().copied().map(PointResult::from).collect(),
    };
    emit(args.out.as_deref(), args.json, &report, out, |out| {
        summary(out, &found, &report)
    })
}

/// The mesh of the file at `path`, or an error naming it when it is a shape, which `command`
/// cannot take.
pub(crate) fn read_mesh(path: &Path, command: &str) -> Result<obbtree::TriMesh, Error> {
    match Input::read(path)? {
        Input::Mesh(mesh) => Ok(mesh),
        Input::Shape(_) => Err(Error::Message(format!(
            "{}: {command} needs a mesh, not a primitive shape",
            path.display()
        ))),
    }
}

/// The model of `mesh` with what point queries walk built, and with `signed` what their signs
/// need too (whether the mesh is closed), and the time that took (ms), with a spinner unless
/// `quiet`. Both are the model's, so they count as its build, not as the first queries.
pub(crate) fn point_model(
    mesh: obbtree::TriMesh,
    signed: bool,
    quiet: bool,
) -> Result<(Model, f64), Error> {
    let start = Instant::now();
    let building = spinner(quiet, "building the tree");
    let model = Input::Mesh(mesh).model::<obbtree::bv::Obb>(&ModelOptions::default());
    building.finish_and_clear();
    let model = model?;
    model.prepare_points();
    if signed {
        model.is_closed();
    }
    Ok((model, start.elapsed().as_secs_f64() * 1e3))
}

/// Reads a points file: an error names the file, and serde's line and column.
fn load_points(path: &Path) -> Result<Vec<Point>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Message(format!("cannot read {}: {e}", path.display())))?;
    let file: PointsFile = serde_json::from_str(&text).map_err(|e| {
        Error::Message(format!(
            "malformed points file {}: {e} (expected {{\"points\":[[x,y,z], ...]}})",
            path.display()
        ))
    })?;
    Ok(file.points.into_iter().map(Point::from).collect())
}

/// Every point's answer, chunk by chunk with a progress bar, and the time of all (ms) after
/// [`super::WARM_UP_QUERIES`] untimed ones. The chunks follow the points' spatial order (one
/// call per chunk, each chunk's points near each other, as in one call over all), and the answers
/// come back in the file's order. An error names the first point it concerns.
fn answer(
    model: &Model,
    points: &[Point],
    request: &PointRequest,
    quiet: bool,
) -> Result<(Vec<Option<ClosestPoint>>, f64), Error> {
    let id = Pose::identity();
    let refused =
        |e: obbtree::BatchError| Error::Message(format!("point {}: {}", e.index, e.source));
    let warm_up = &points[..points.len().min(super::WARM_UP_QUERIES)];
    closest_points(model, &id, warm_up, request).map_err(refused)?;
    let progress = counting_bar(points.len(), "points", "", CHUNK + 1, quiet);
    let start = Instant::now();
    let order = spatial_order(points);
    let mut found = vec![None; points.len()];
    for chunk in order.chunks(CHUNK) {
        let ordered: Vec<Point> = chunk.iter().map(|&index| points[index]).collect();
        let answers = closest_points(model, &id, &ordered, request).map_err(|e| {
            // The points are checked before any is answered, in the file's order over all of
            // them, so the first bad one is named.
            let first = closest_points(model, &id, points, request).err();
            refused(first.unwrap_or(obbtree::BatchError {
                index: chunk[e.index],
                ..e
            }))
        })?;
        for (&index, answer) in chunk.iter().zip(answers) {
            found[index] = answer;
        }
        progress.inc(chunk.len() as u64);
    }
    let ms = start.elapsed().as_secs_f64() * 1e3;
    progress.finish_and_clear();
    Ok((found, ms))
}

fn summary(
    out: &mut impl Write,
    found: &[Option<ClosestPoint>],
    report: &Report,
) -> Result<(), Error> {
    let answered: Vec<f64> = found.iter().flatten().map(|c| c.distance).collect();
    let inside = answered.iter().filter(|d| **d < 0.0).count();
    let range = answered
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| {
            (lo.min(*d), hi.max(*d))
        });
    writeln!(
        out,
        "{}, {} answered",
        counted(found.len(), "point", "points"),
        answered.len()
    )?;
    if !answered.is_empty() {
        writeln!(out, "distances from {} to {}", range.0, range.1)?;
    }
    if inside > 0 {
        writeln!(out, "inside the solid: {inside}")?;
    }
    let undecided = report.results.iter().filter(|r| r.undecided).count();
    if undecided > 0 {
        writeln!(
            out,
            "side undecided (winding number within its bound of 1/2): {undecided}"
        )?;
    }
    let per_point = 1e3 * report.query_total_ms / found.len().max(1) as f64;
    writeln!(
        out,
        "build {:.3} ms, queries {:.3} ms ({per_point:.3} µs per point)",
        report.build_ms, report.query_total_ms
    )?;
    Ok(())
}
