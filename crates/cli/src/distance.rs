//! `obbtree distance A B --poses POSES.json | --pose "tx ty tz rx ry rz"`: the distance between
//! two meshes, the closest triangle pair and points, for each pose of B in A's frame; with
//! `--margin D`, whether B is within D of A (decided exactly), and with `--pairs` every triangle
//! pair within D.

use super::collide::{counted, spinner};
use super::report::{counting_bar, emit};
use super::tree::volume_parser;
use super::Error;
use crate::poses::{load_poses, PoseEntry};
use crate::shape_spec::{both, Input};
use crate::steps::{in_steps, STEP_TIME};
use indicatif::ProgressBar;
use obbtree::tree::{with_volume, TreeVolume, VolumeKind};
use obbtree::{
    distance_many, proximity_pairs, within_margin, BatchError, DistanceRequest, DistanceResult,
    DistanceTracker, Model, ModelOptions, Pose, PosedOverlap, QueryError,
};
use rayon::prelude::*;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// The distance between mesh A and mesh B, B placed by each pose (A stays put): the closest
/// triangle pair and points; or, with --margin, whether B is within the margin of A.
///
/// A pose maps B's vertex p to R·p + t, R the rotation matrix of the rotation vector (axis ×
/// angle, radians); points are given in A's frame. Distances are within 1e-12·(d + L) of the
/// exact distance (L the largest coordinate), 0 exactly when the meshes touch; margins are
/// decided exactly.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  obbtree distance assets/bunny.obj assets/bunny.obj --pose \"0.2 0 0 0 0 0.3\"\n  obbtree distance A.obj B.obj --poses poses.json --json\n  obbtree distance A.obj B.obj --poses poses.json --margin 0.001 --pairs --json"
)]
pub struct Args {
    /// Mesh A (.obj, .stl, .ply, .off, .dae, each optionally .gz), or a primitive solid:
    /// sphere:R, capsule:R:L, box:X:Y:Z, convex:PATH (a shape's feature is 0).
    #[arg(value_name = "A")]
    a: PathBuf,
    /// Mesh B, or a primitive solid as for A.
    #[arg(value_name = "B")]
    b: PathBuf,
    /// JSON file {"poses":[{"translation":[x,y,z],"rotation":[rx,ry,rz]}, ...]}.
    #[arg(long, value_name = "POSES.json", conflicts_with = "pose")]
    poses: Option<PathBuf>,
    /// One pose "tx ty tz rx ry rz" instead of a file.
    #[arg(long, value_name = "\"tx ty tz rx ry rz\"", allow_hyphen_values = true)]
    pose: Option<String>,
    /// Bounding volume of the trees (the distance walk also builds a rectangle swept sphere
    /// around each node).
    #[arg(long, value_parser = volume_parser(), default_value = "obb")]
    bv: VolumeKind,
    /// Decide "is B within D of A?" exactly instead of measuring the distance.
    #[arg(long, value_name = "D", allow_hyphen_values = true)]
    margin: Option<f64>,
    /// With --margin: list every triangle pair within D.
    #[arg(long, requires = "margin")]
    pairs: bool,
    /// Start each pose's query where the previous pose's stopped: its closest pair and the
    /// node pairs its walk left out (for a sequence of nearby poses); the queries then run in
    /// order, on one thread.
    #[arg(long, conflicts_with = "margin")]
    hints: bool,
    /// Closed meshes count as solids: one inside the other is at distance 0.
    #[arg(long, conflicts_with = "margin")]
    solids: bool,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    json: bool,
    /// Also write the JSON object to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The JSON report (the interface other tools' harnesses mirror).
#[derive(Serialize)]
struct Report {
    bv: VolumeKind,
    tris_a: usize,
    tris_b: usize,
    /// The trees and the distance indexes.
    build_ms: f64,
    /// Every query, after [`super::WARM_UP_QUERIES`] untimed ones.
    query_total_ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    margin: Option<f64>,
    results: Vec<PoseResult>,
}

/// One pose's answer: the distance, or the margin's.
#[derive(Serialize)]
#[serde(untagged)]
enum PoseResult {
    Distance {
        intersects: bool,
        distance: f64,
        pair: [u32; 2],
        point_a: [f64; 3],
        point_b: [f64; 3],
    },
    Margin {
        within: bool,
        pair: Option<[u32; 2]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pairs: Option<Vec<[u32; 2]>>,
    },
}

impl From<DistanceResult> for PoseResult {
    fn from(r: DistanceResult) -> Self {
        PoseResult::Distance {
            intersects: r.intersects,
            distance: r.distance,
            pair: r.pair,
            point_a: r.point_a.coords.into(),
            point_b: r.point_b.coords.into(),
        }
    }
}

/// What each pose asks.
#[derive(Clone, Copy)]
enum Question {
    Distance {
        request: DistanceRequest,
        hints: bool,
    },
    Within(f64),
    Pairs(f64),
}

/// Poses in the first progress step; later steps grow with the pace ([`crate::steps`]).
const FIRST_STEP: usize = 64;

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    let question = match args.margin {
        Some(d) if !(d.is_finite() && d >= 0.0) => {
            return Err(Error::Message(format!(
                "--margin: {}",
                QueryError::InvalidMargin(d)
            )))
        }
        Some(d) if args.pairs => Question::Pairs(d),
        Some(d) => Question::Within(d),
        None => Question::Distance {
            request: DistanceRequest::default().with_solids(args.solids),
            hints: args.hints,
        },
    };
    let poses = read_poses(args)?;
    let (a, b) = (Input::read(&args.a)?, Input::read(&args.b)?);
    if args.solids {
        for (input, path) in [(&a, &args.a), (&b, &args.b)] {
            // A shape is a solid already.
            let Input::Mesh(mesh) = input else { continue };
            if !mesh.is_closed() {
                return Err(Error::Message(format!(
                    "--solids needs closed meshes, and {} is not closed (some edge is a boundary: its triangles do not pair up in opposite directions)",
                    path.display()
                )));
            }
        }
    }
    let (tris_a, tris_b) = (a.triangles(), b.triangles());
    let quiet = args.json;
    let (build_ms, query_total_ms, results) =
        with_volume!(args.bv, |V| run_query::<V>(a, b, &poses, question, quiet))?;
    let report = Report {
        bv: args.bv,
        tris_a,
        tris_b,
        build_ms,
        query_total_ms,
        margin: args.margin,
        results,
    };
    emit(args.out.as_deref(), args.json, &report, out, |out| {
        summary(args, &report, out)
    })
}

/// The poses of B, from `--poses` or `--pose`.
fn read_poses(args: &Args) -> Result<Vec<Pose>, Error> {
    match (&args.poses, &args.pose) {
        (Some(path), _) => load_poses(path),
        (None, Some(text)) => PoseEntry::parse(text)
            .and_then(|p| p.to_pose(0))
            .map(|p| vec![p]),
        (None, None) => return Err(Error::Message(
            "give the pose of B in A's frame: --pose \"tx ty tz rx ry rz\" or --poses POSES.json"
                .into(),
        )),
    }
    .map_err(|e| Error::Message(e.to_string()))
}

/// Builds both models (trees and distance indexes) and answers `question` at every pose;
/// returns build and query times (ms) and the results.
fn run_query<V: PosedOverlap + TreeVolume>(
    a: Input,
    b: Input,
    poses: &[Pose],
    question: Question,
    quiet: bool,
) -> Result<(f64, f64, Vec<PoseResult>), Error> {
    let start = Instant::now();
    let building = spinner(quiet, "building the trees");
    // The closest-pair query's RSS index is built with the trees (as other engines build
    // theirs); the margin questions walk the trees alone.
    let measures = matches!(question, Question::Distance { .. });
    let build = |input: Input| {
        let model = input.model::<V>(&ModelOptions::default())?;
        if measures {
            model.prepare_distance();
        }
        Ok::<_, Error>(model)
    };
    let models = both(a, b, build);
    building.finish_and_clear();
    let (ma, mb) = models?;
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let progress = counting_bar(poses.len(), "poses", "", FIRST_STEP + 1, quiet);
    let refused = |offset: usize| {
        move |e: BatchError| Error::Message(format!("pose {}: {}", offset + e.index, e.source))
    };
    // The warm-up runs where the timed queries will: a tracked sequence on this thread, the
    // others on the pool, so that each thread's one-time setup (its caches) is not timed.
    let warm_up = &poses[..poses.len().min(super::WARM_UP_QUERIES)];
    let tracked = match question {
        Question::Distance {
            request,
            hints: true,
        } => Some(request),
        _ => None,
    };
    match tracked {
        Some(request) => drop(track(&ma, &mb, warm_up, &request, &ProgressBar::hidden())?),
        None => drop(answer(&ma, &mb, warm_up, question).map_err(refused(0))?),
    }
    let start = Instant::now();
    let results = match tracked {
        Some(request) => track(&ma, &mb, poses, &request, &progress)?,
        None => {
            let mut results = Vec::with_capacity(poses.len());
            in_steps::<Error>(poses.len(), FIRST_STEP, STEP_TIME, |step| {
                let answers = answer(&ma, &mb, &poses[step.clone()], question);
                results.extend(answers.map_err(refused(step.start))?);
                progress.inc(step.len() as u64);
                Ok(())
            })?;
            results
        }
    };
    let query_ms = start.elapsed().as_secs_f64() * 1e3;
    progress.finish_and_clear();
    Ok((build_ms, query_ms, results))
}

/// The distances at `poses` in order on this thread, each query starting where the last one
/// stopped (a [`DistanceTracker`]).
fn track<V: PosedOverlap>(
    ma: &Model<V>,
    mb: &Model<V>,
    poses: &[Pose],
    request: &DistanceRequest,
    progress: &ProgressBar,
) -> Result<Vec<PoseResult>, Error> {
    let mut tracker = DistanceTracker::new();
    let mut results = Vec::with_capacity(poses.len());
    for (k, pose) in poses.iter().enumerate() {
        let r = tracker
            .distance(ma, &Pose::identity(), mb, pose, request)
            .map_err(|e| Error::Message(format!("pose {k}: {e}")))?;
        results.push(PoseResult::from(r));
        progress.inc(1);
    }
    Ok(results)
}

/// The answers at `poses`, in parallel (without hints).
fn answer<V: PosedOverlap>(
    ma: &Model<V>,
    mb: &Model<V>,
    poses: &[Pose],
    question: Question,
) -> Result<Vec<PoseResult>, BatchError> {
    let id = Pose::identity();
    let margin = |d: f64, all: bool| {
        poses
            .par_iter()
            .enumerate()
            .map(|(index, pose)| {
                let fail = |source| BatchError { index, source };
                Ok(if all {
                    let pairs = proximity_pairs(ma, &id, mb, pose, d).map_err(fail)?;
                    PoseResult::Margin {
                        within: !pairs.is_empty(),
                        pair: pairs.first().copied(),
                        pairs: Some(pairs),
                    }
                } else {
                    let pair = within_margin(ma, &id, mb, pose, d).map_err(fail)?;
                    PoseResult::Margin {
                        within: pair.is_some(),
                        pair,
                        pairs: None,
                    }
                })
            })
            .collect()
    };
    match question {
        Question::Distance { request, .. } => Ok(distance_many(ma, &id, mb, poses, &request)?
            .into_iter()
            .map(PoseResult::from)
            .collect()),
        Question::Within(d) => margin(d, false),
        Question::Pairs(d) => margin(d, true),
    }
}

/// Poses listed one per line when there are at most this many.
const LIST_MAX: usize = 20;

fn summary(args: &Args, r: &Report, out: &mut impl Write) -> Result<(), Error> {
    let n = r.results.len();
    writeln!(out, "A  {} ({} triangles)", args.a.display(), r.tris_a)?;
    writeln!(out, "B  {} ({} triangles)", args.b.display(), r.tris_b)?;
    writeln!(out, "trees ({:?}) built in {:.1} ms", args.bv, r.build_ms)?;
    writeln!(
        out,
        "{} in {:.2} ms ({:.1} µs per pose)",
        counted(n, "pose", "poses"),
        r.query_total_ms,
        r.query_total_ms * 1e3 / n.max(1) as f64,
    )?;
    let mut distances = Vec::new();
    let (mut touching, mut within) = (0, 0);
    for x in &r.results {
        match x {
            PoseResult::Distance {
                intersects,
                distance,
                ..
            } => {
                touching += usize::from(*intersects);
                distances.push(*distance);
            }
            PoseResult::Margin { within: w, .. } => within += usize::from(*w),
        }
    }
    match r.margin {
        Some(d) => writeln!(out, "within {d}: {within} of {n} poses")?,
        None if n > 0 => {
            distances.sort_by(f64::total_cmp);
            writeln!(
                out,
                "intersecting poses: {touching} of {n}; distance min {:.6e}, median {:.6e}, max {:.6e}",
                distances[0],
                distances[n / 2],
                distances[n - 1]
            )?;
        }
        None => {}
    }
    if n <= LIST_MAX {
        for (i, x) in r.results.iter().enumerate() {
            let line = match x {
                PoseResult::Distance {
                    intersects: true,
                    pair,
                    ..
                } => format!("intersect (e.g. pair {pair:?})"),
                PoseResult::Distance {
                    distance,
                    pair,
                    point_a,
                    point_b,
                    ..
                } => format!(
                    "distance {distance:.9e}, pair {pair:?}, A {} B {}",
                    point(point_a),
                    point(point_b)
                ),
                PoseResult::Margin { within: false, .. } => "farther than the margin".into(),
                PoseResult::Margin { pair, pairs, .. } => match pairs {
                    Some(all) => format!(
                        "within ({}, e.g. {:?})",
                        counted(all.len(), "pair", "pairs"),
                        pair.unwrap_or_default()
                    ),
                    None => format!("within (witness {:?})", pair.unwrap_or_default()),
                },
            };
            writeln!(out, "  pose {i}: {line}")?;
        }
    }
    Ok(())
}

fn point(p: &[f64; 3]) -> String {
    format!("({:.6}, {:.6}, {:.6})", p[0], p[1], p[2])
}
