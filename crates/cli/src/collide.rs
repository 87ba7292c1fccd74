//! `obbtree collide A B --poses POSES.json | --pose "tx ty tz rx ry rz"`: which triangle pairs of
//! two meshes intersect, for each pose of B in A's frame.

use super::tree::Kind as Volume;
use super::{Error, ModeArg};
use crate::poses::{load_poses, PoseEntry};
use indicatif::{ProgressBar, ProgressStyle};
use obbtree::bv::{Aabb, Kdop18, Obb, ObbFit, Sphere, TriMesh};
use obbtree::load::load_mesh;
use obbtree::tree::TreeVolume;
use obbtree::{
    collide_many, BuildOptions, CollisionRequest, CollisionResult, Containment, Mode, Model,
    ModelOptions, Pose, PosedOverlap,
};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which triangle pairs of mesh A and mesh B intersect, B placed by each pose (A stays put).
///
/// A pose maps B's vertex p to R·p + t, R the rotation matrix of the rotation vector (axis ×
/// angle, radians). Answers are exact; touching counts as intersecting.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  obbtree collide assets/bunny.obj assets/bunny.obj --pose \"0.05 0 0 0 0 0.3\"\n  obbtree collide A.obj B.obj --poses poses.json --mode first --json\n  obbtree collide assets/duck/duck.obj assets/bunny.obj --pose \"0 0 0 0 0 0\" --containment"
)]
pub struct Args {
    /// Mesh A (.obj, .stl, .ply, .off, each optionally .gz).
    #[arg(value_name = "A")]
    a: PathBuf,
    /// Mesh B.
    #[arg(value_name = "B")]
    b: PathBuf,
    /// JSON file {"poses":[{"translation":[x,y,z],"rotation":[rx,ry,rz]}, ...]}.
    #[arg(
        long,
        value_name = "POSES.json",
        required_unless_present = "pose",
        conflicts_with = "pose"
    )]
    poses: Option<PathBuf>,
    /// One pose "tx ty tz rx ry rz" instead of a file.
    #[arg(long, value_name = "\"tx ty tz rx ry rz\"", allow_hyphen_values = true)]
    pose: Option<String>,
    /// Bounding volume of the trees.
    #[arg(long, value_enum, default_value_t = Volume::Obb)]
    bv: Volume,
    /// How the OBBTree's boxes are fitted (with `--bv obb`).
    #[arg(long, value_enum, default_value_t = FitArg::Covariance)]
    fit: FitArg,
    /// `first`: stop at one witness pair per pose; `all`: every intersecting pair.
    #[arg(long, value_enum, default_value_t = ModeArg::All)]
    mode: ModeArg,
    /// For closed meshes whose surfaces do not meet, say whether one lies inside the other.
    #[arg(long)]
    containment: bool,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    json: bool,
    /// Also write the JSON object to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `--fit`: the OBB fits of [`ObbFit`]. Every fit gives the tree the same triangles per node
/// (they split along the triangle covariance's axes); only the boxes differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FitArg {
    /// Eigenvectors of the triangles' area-weighted covariance (the default: the fastest build).
    Covariance,
    /// Minimum-volume boxes (Eberly's refinement): queries ~10% faster, the build ~20 times
    /// slower; for meshes whose trees are built once.
    MinVolume,
}

impl From<FitArg> for ObbFit {
    fn from(fit: FitArg) -> Self {
        match fit {
            FitArg::Covariance => ObbFit::TriangleCovariance,
            FitArg::MinVolume => ObbFit::MinVolume,
        }
    }
}

/// The JSON report (the interface other tools' harnesses mirror).
#[derive(Serialize)]
struct Report {
    bv: Volume,
    mode: ModeArg,
    tris_a: usize,
    tris_b: usize,
    build_ms: f64,
    /// Every query, after [`super::WARM_UP_QUERIES`] untimed ones.
    query_total_ms: f64,
    results: Vec<PoseResult>,
}

#[derive(Serialize)]
struct PoseResult {
    intersects: bool,
    pairs: Vec<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contained: Option<Containment>,
}

/// Poses per progress-bar step (each step runs in parallel).
const CHUNK: usize = 64;

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    let poses = match (&args.poses, &args.pose) {
        (Some(path), _) => load_poses(path),
        // clap requires one of the two; an absent --pose reads as an empty, malformed one.
        (None, s) => PoseEntry::parse(s.as_deref().unwrap_or(""))
            .and_then(|p| p.to_pose(0))
            .map(|p| vec![p]),
    }
    .map_err(|e| Error::Message(e.to_string()))?;
    let (a, b) = (load_mesh(&args.a)?, load_mesh(&args.b)?);
    if args.containment {
        for (mesh, path) in [(&a, &args.a), (&b, &args.b)] {
            if !mesh.is_closed() {
                return Err(Error::Message(format!(
                    "--containment needs closed meshes, and {} is not closed (some edge is not shared by exactly two triangles)",
                    path.display()
                )));
            }
        }
    }
    let request = CollisionRequest::new(match args.mode {
        ModeArg::First => Mode::First,
        ModeArg::All => Mode::All,
    })
    .with_containment(args.containment);
    if args.fit != FitArg::Covariance && args.bv != Volume::Obb {
        return Err(Error::Message(
            "--fit chooses how OBBs are fitted: it needs --bv obb".into(),
        ));
    }
    let obb = BuildOptions {
        method: args.fit.into(),
        ..Default::default()
    };
    let (tris_a, tris_b) = (a.triangles().len(), b.triangles().len());
    let (build_ms, query_total_ms, results) = match args.bv {
        Volume::Obb => query::<Obb>(a, b, &obb, &poses, &request, args.json),
        Volume::Aabb => query::<Aabb>(a, b, &Default::default(), &poses, &request, args.json),
        Volume::Kdop18 => query::<Kdop18>(a, b, &Default::default(), &poses, &request, args.json),
        Volume::Sphere => query::<Sphere>(a, b, &Default::default(), &poses, &request, args.json),
    }?;
    let report = Report {
        bv: args.bv,
        mode: args.mode,
        tris_a,
        tris_b,
        build_ms,
        query_total_ms,
        results: results
            .into_iter()
            .map(|r| PoseResult {
                intersects: r.intersects,
                pairs: r.pairs,
                contained: args.containment.then_some(r.contained),
            })
            .collect(),
    };
    if let Some(path) = &args.out {
        write_json(path, &report)?;
    }
    if args.json {
        // Serialised first, so that a closed pipe is an output error like any other write.
        let text = serde_json::to_string(&report)?;
        writeln!(out, "{text}")?;
    } else {
        summary(args, &report, out)?;
    }
    Ok(())
}

fn write_json(path: &Path, report: &Report) -> Result<(), Error> {
    let fail =
        |e: &dyn std::fmt::Display| Error::Message(format!("cannot write {}: {e}", path.display()));
    let file = std::fs::File::create(path).map_err(|e| fail(&e))?;
    let mut w = std::io::BufWriter::new(file);
    serde_json::to_writer(&mut w, report).map_err(|e| fail(&e))?;
    writeln!(w).and_then(|()| w.flush()).map_err(|e| fail(&e))
}

/// Builds both trees by `options` and runs every pose; returns build and query times (ms) and
/// the results.
fn query<V: PosedOverlap + TreeVolume>(
    a: TriMesh,
    b: TriMesh,
    options: &BuildOptions<V>,
    poses: &[Pose],
    request: &CollisionRequest,
    quiet: bool,
) -> Result<(f64, f64, Vec<CollisionResult>), Error> {
    let start = Instant::now();
    let building = if !quiet && std::io::stderr().is_terminal() {
        let spinner = ProgressBar::new_spinner().with_message("building the trees");
        spinner.enable_steady_tick(std::time::Duration::from_millis(100));
        spinner
    } else {
        ProgressBar::hidden()
    };
    let options = ModelOptions::from(*options);
    let build = |m: TriMesh| {
        Model::<V>::build(m, &options)
            .map_err(|e| Error::Message(format!("cannot build the tree: {e}")))
    };
    let built = build(a).and_then(|ma| Ok((ma, build(b)?)));
    building.finish_and_clear();
    let (ma, mb) = built?;
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let progress = if !quiet && poses.len() > CHUNK && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(poses.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} poses {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let warm_up = &poses[..poses.len().min(super::WARM_UP_QUERIES)];
    let refused =
        |e: obbtree::BatchError| Error::Message(format!("pose {}: {}", e.index, e.source));
    collide_many(&ma, &Pose::identity(), &mb, warm_up, request).map_err(refused)?;
    let start = Instant::now();
    let mut results = Vec::with_capacity(poses.len());
    for (k, chunk) in poses.chunks(CHUNK).enumerate() {
        let chunk_results = collide_many(&ma, &Pose::identity(), &mb, chunk, request)
            .map_err(|e| obbtree::BatchError {
                index: k * CHUNK + e.index,
                ..e
            })
            .map_err(refused)?;
        results.extend(chunk_results);
        progress.inc(chunk.len() as u64);
    }
    let query_ms = start.elapsed().as_secs_f64() * 1e3;
    progress.finish_and_clear();
    Ok((build_ms, query_ms, results))
}

/// Poses listed one per line when there are at most this many.
const LIST_MAX: usize = 20;

fn summary(args: &Args, r: &Report, out: &mut impl Write) -> Result<(), Error> {
    let hits = r.results.iter().filter(|x| x.intersects).count();
    let pairs: usize = r.results.iter().map(|x| x.pairs.len()).sum();
    let n = r.results.len();
    writeln!(out, "A  {} ({} triangles)", args.a.display(), r.tris_a)?;
    writeln!(out, "B  {} ({} triangles)", args.b.display(), r.tris_b)?;
    writeln!(out, "trees ({:?}) built in {:.1} ms", args.bv, r.build_ms)?;
    writeln!(
        out,
        "{n} pose{} in {:.2} ms ({:.1} µs per pose), mode {:?}",
        if n == 1 { "" } else { "s" },
        r.query_total_ms,
        r.query_total_ms * 1e3 / n.max(1) as f64,
        args.mode
    )?;
    writeln!(
        out,
        "intersecting poses: {hits} of {n}; triangle pairs: {pairs}"
    )?;
    if n <= LIST_MAX {
        for (i, x) in r.results.iter().enumerate() {
            let state = match (x.intersects, x.contained) {
                (true, _) => format!("intersect ({} pairs, e.g. {:?})", x.pairs.len(), x.pairs[0]),
                (false, Some(Containment::AInB)) => "disjoint surfaces, A inside B".into(),
                (false, Some(Containment::BInA)) => "disjoint surfaces, B inside A".into(),
                (false, _) => "disjoint".into(),
            };
            writeln!(out, "  pose {i}: {state}")?;
        }
    }
    Ok(())
}
