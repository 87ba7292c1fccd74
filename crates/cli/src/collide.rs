//! `obbtree collide A B --poses POSES.json | --pose "tx ty tz rx ry rz"`: which triangle pairs of
//! two meshes intersect, for each pose of B in A's frame; `obbtree collide A --self`: which
//! triangles of one mesh intersect others they share no vertex with.

use super::report::emit;
use super::tree::volume_parser;
use super::{Error, ModeArg};
use crate::poses::{load_poses, PoseEntry};
use crate::shape_spec::{both, Input};
use crate::steps::{in_steps, STEP_TIME};
use indicatif::{ProgressBar, ProgressStyle};
use obbtree::bv::{Obb, ObbFit};
use obbtree::tree::{with_volume, TreeVolume, VolumeKind};
use obbtree::{
    collide_many, self_collide, BuildOptions, CollisionRequest, CollisionResult, Containment, Mode,
    Model, ModelOptions, Pose, PosedOverlap,
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
    after_help = "Examples:\n  obbtree collide assets/bunny.obj assets/bunny.obj --pose \"0.05 0 0 0 0 0.3\"\n  obbtree collide A.obj B.obj --poses poses.json --mode first --json\n  obbtree collide assets/duck/duck.obj assets/bunny.obj --pose \"0 0 0 0 0 0\" --containment\n  obbtree collide assets/kuka_iiwa/link_3.obj --self"
)]
pub struct Args {
    /// Mesh A (.obj, .stl, .ply, .off, .dae, each optionally .gz), or a primitive solid:
    /// sphere:R, capsule:R:L or cylinder:R:L (along z), box:X:Y:Z (full sizes), convex:PATH (hull of a mesh
    /// file's vertices). A shape's one feature is index 0 in the pairs, and it has 0 triangles.
    #[arg(value_name = "A")]
    a: PathBuf,
    /// Mesh B, or a primitive solid as for A (not with --self).
    #[arg(value_name = "B", required_unless_present = "self_collision")]
    b: Option<PathBuf>,
    /// Collide A with itself: pairs of triangles that intersect and share no vertex.
    #[arg(
        long = "self",
        id = "self_collision",
        conflicts_with_all = ["b", "poses", "pose", "containment"]
    )]
    self_collision: bool,
    /// JSON file {"poses":[{"translation":[x,y,z],"rotation":[rx,ry,rz]}, ...]}.
    #[arg(long, value_name = "POSES.json", conflicts_with = "pose")]
    poses: Option<PathBuf>,
    /// One pose "tx ty tz rx ry rz" instead of a file.
    #[arg(long, value_name = "\"tx ty tz rx ry rz\"", allow_hyphen_values = true)]
    pose: Option<String>,
    /// Bounding volume of the trees.
    #[arg(long, value_parser = volume_parser(), default_value = "obb")]
    bv: VolumeKind,
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
    /// Minimum-volume boxes (Eberly's refinement): faster queries, a much slower build; for
    /// meshes whose trees are built once.
    MinVolume,
    /// Larsson & Källberg's ditetrahedron frame: near minimum-area boxes in linear time.
    Ditetrahedron,
}

impl From<FitArg> for ObbFit {
    fn from(fit: FitArg) -> Self {
        match fit {
            FitArg::Covariance => ObbFit::TriangleCovariance,
            FitArg::MinVolume => ObbFit::MinVolume,
            FitArg::Ditetrahedron => ObbFit::Ditetrahedron,
        }
    }
}

/// The JSON report (the interface other tools' harnesses mirror).
#[derive(Serialize)]
struct Report {
    bv: VolumeKind,
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

/// Poses in the first progress step; later steps grow with the pace ([`crate::steps`]).
const FIRST_STEP: usize = 64;

/// What the trees are queried with: B at every pose, or A against itself.
enum Query {
    Poses(Input, Vec<Pose>),
    SelfCollision,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    let query = read_query(args)?;
    let a = Input::read(&args.a)?;
    if let Query::Poses(b, _) = &query {
        check_containment(
            args,
            [(&a, &args.a), (b, args.b.as_deref().unwrap_or(&args.a))],
        )?;
    }
    if args.fit != FitArg::Covariance && args.bv != VolumeKind::Obb {
        return Err(Error::Message(
            "--fit chooses how OBBs are fitted: it needs --bv obb".into(),
        ));
    }
    let request = CollisionRequest::new(match args.mode {
        ModeArg::First => Mode::First,
        ModeArg::All => Mode::All,
    })
    .with_containment(args.containment);
    let obb = BuildOptions {
        method: args.fit.into(),
        ..Default::default()
    };
    let tris_a = a.triangles();
    let tris_b = match &query {
        Query::Poses(b, _) => b.triangles(),
        Query::SelfCollision => tris_a,
    };
    let quiet = args.json;
    let (build_ms, query_total_ms, results) = match args.bv {
        // `--fit` applies to boxes only.
        VolumeKind::Obb => run_query::<Obb>(a, query, &obb, &request, quiet),
        kind => with_volume!(kind, |V| run_query::<V>(
            a,
            query,
            &Default::default(),
            &request,
            quiet
        )),
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
    emit(args.out.as_deref(), args.json, &report, out, |out| {
        summary(args, &report, out)
    })
}

/// Mesh B and its poses, or self-collision, from the arguments.
fn read_query(args: &Args) -> Result<Query, Error> {
    if args.self_collision {
        return Ok(Query::SelfCollision);
    }
    let b = args
        .b
        .as_deref()
        .ok_or_else(|| Error::Message("give mesh B, or --self to collide A with itself".into()))?;
    let poses = match (&args.poses, &args.pose) {
        (Some(path), _) => load_poses(path),
        (None, Some(text)) => PoseEntry::parse(text)
            .and_then(|p| p.to_pose(0))
            .map(|p| vec![p]),
        (None, None) => return Err(Error::Message(
            "give the pose of B in A's frame: --pose \"tx ty tz rx ry rz\" or --poses POSES.json"
                .into(),
        )),
    }
    .map_err(|e| Error::Message(e.to_string()))?;
    Ok(Query::Poses(Input::read(b)?, poses))
}

/// With `--containment`, an error naming the first mesh that is not closed, or the first
/// shape (a solid: touching already says all).
fn check_containment(args: &Args, inputs: [(&Input, &Path); 2]) -> Result<(), Error> {
    if !args.containment {
        return Ok(());
    }
    let mut meshes = Vec::new();
    for (input, path) in inputs {
        match input {
            Input::Mesh(mesh) => meshes.push((mesh, path)),
            Input::Shape(_) => {
                return Err(Error::Message(format!(
                    "--containment is for two closed meshes, and {} is a primitive shape (a solid: \
                     it collides with whatever lies inside it)",
                    path.display()
                )))
            }
        }
    }
    match meshes.iter().find(|(mesh, _)| !mesh.is_closed()) {
        Some((_, path)) => Err(Error::Message(format!(
            "--containment needs closed meshes, and {} is not closed (some edge is a boundary: its triangles do not pair up in opposite directions)",
            path.display()
        ))),
        None => Ok(()),
    }
}

/// A spinner on standard error while `what` runs (hidden when quiet or not on a terminal).
pub(crate) fn spinner(quiet: bool, message: &'static str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::new_spinner().with_message(message);
    spinner.enable_steady_tick(std::time::Duration::from_millis(100));
    spinner
}

/// Builds the trees by `options` and runs the query; returns build and query times (ms) and
/// the results (one per pose, or one for self-collision).
fn run_query<V: PosedOverlap + TreeVolume>(
    a: Input,
    query: Query,
    options: &BuildOptions<V>,
    request: &CollisionRequest,
    quiet: bool,
) -> Result<(f64, f64, Vec<CollisionResult>), Error> {
    let start = Instant::now();
    let building = spinner(quiet, "building the trees");
    let options = ModelOptions::from(*options);
    let build = |input: Input| input.model::<V>(&options);
    let models = match query {
        Query::Poses(b, poses) => both(a, b, build).map(|(ma, mb)| (ma, Some((mb, poses)))),
        Query::SelfCollision => build(a).map(|ma| (ma, None)),
    };
    building.finish_and_clear();
    let (ma, rest) = models?;
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let (query_ms, results) = match rest {
        Some((mb, poses)) => collide_poses(&ma, &mb, &poses, request, quiet)?,
        None => {
            let start = Instant::now();
            let result = self_collide(&ma, &Pose::identity(), request)
                .map_err(|e| Error::Message(format!("cannot collide mesh A with itself: {e}")))?;
            (start.elapsed().as_secs_f64() * 1e3, vec![result])
        }
    };
    Ok((build_ms, query_ms, results))
}

/// Every pose of B, after [`super::WARM_UP_QUERIES`] untimed ones, in steps that advance a
/// progress bar; the query time (ms) and the results.
fn collide_poses<V: PosedOverlap>(
    ma: &Model<V>,
    mb: &Model<V>,
    poses: &[Pose],
    request: &CollisionRequest,
    quiet: bool,
) -> Result<(f64, Vec<CollisionResult>), Error> {
    let progress = if !quiet && poses.len() > FIRST_STEP && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(poses.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} poses {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let refused = |offset: usize| {
        move |e: obbtree::BatchError| {
            Error::Message(format!("pose {}: {}", offset + e.index, e.source))
        }
    };
    let warm_up = &poses[..poses.len().min(super::WARM_UP_QUERIES)];
    collide_many(ma, &Pose::identity(), mb, warm_up, request).map_err(refused(0))?;
    let start = Instant::now();
    let mut results = Vec::with_capacity(poses.len());
    in_steps::<Error>(poses.len(), FIRST_STEP, STEP_TIME, |step| {
        let answers = collide_many(ma, &Pose::identity(), mb, &poses[step.clone()], request);
        results.extend(answers.map_err(refused(step.start))?);
        progress.inc(step.len() as u64);
        Ok(())
    })?;
    let query_ms = start.elapsed().as_secs_f64() * 1e3;
    progress.finish_and_clear();
    Ok((query_ms, results))
}

/// Poses listed one per line when there are at most this many.
const LIST_MAX: usize = 20;

fn summary(args: &Args, r: &Report, out: &mut impl Write) -> Result<(), Error> {
    let hits = r.results.iter().filter(|x| x.intersects).count();
    let pairs: usize = r.results.iter().map(|x| x.pairs.len()).sum();
    let n = r.results.len();
    writeln!(out, "A  {} ({} triangles)", args.a.display(), r.tris_a)?;
    if args.self_collision {
        writeln!(out, "tree ({:?}) built in {:.1} ms", args.bv, r.build_ms)?;
        let x = &r.results[0];
        let example = x
            .pairs
            .first()
            .map_or(String::new(), |p| format!(", e.g. {p:?}"));
        writeln!(
            out,
            "self-collision in {:.2} ms, mode {:?}: {}{example}",
            r.query_total_ms,
            args.mode,
            counted(x.pairs.len(), "intersecting pair", "intersecting pairs"),
        )?;
        return Ok(());
    }
    if let Some(b) = &args.b {
        writeln!(out, "B  {} ({} triangles)", b.display(), r.tris_b)?;
    }
    writeln!(out, "trees ({:?}) built in {:.1} ms", args.bv, r.build_ms)?;
    writeln!(
        out,
        "{} in {:.2} ms ({:.1} µs per pose), mode {:?}",
        counted(n, "pose", "poses"),
        r.query_total_ms,
        r.query_total_ms * 1e3 / n.max(1) as f64,
        args.mode
    )?;
    writeln!(
        out,
        "intersecting poses: {hits} of {n}; {}",
        counted(pairs, "triangle pair", "triangle pairs")
    )?;
    if n <= LIST_MAX {
        for (i, x) in r.results.iter().enumerate() {
            let state = match (x.intersects, x.contained) {
                (true, _) => format!(
                    "intersect ({}, e.g. {:?})",
                    counted(x.pairs.len(), "pair", "pairs"),
                    x.pairs[0]
                ),
                (false, Some(Containment::AInB)) => "disjoint surfaces, A inside B".into(),
                (false, Some(Containment::BInA)) => "disjoint surfaces, B inside A".into(),
                (false, Some(Containment::Overlapping)) => {
                    "disjoint surfaces, the solids overlap (part of one inside the other)".into()
                }
                (false, _) => "disjoint".into(),
            };
            writeln!(out, "  pose {i}: {state}")?;
        }
    }
    Ok(())
}

/// `n` followed by the singular or plural noun: "1 pair", "2 pairs", "0 pairs".
pub(crate) fn counted(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}
