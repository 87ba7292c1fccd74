//! `obbtree compare A B --distance`: the mesh distance through obbtree and parry3d-f64 at the
//! same poses; every pose where they differ beyond parry's tolerance is checked exactly and the
//! wrong answer named.

use super::compare::{list, median, speed_table, Speed};
use super::Error;
use num_traits::ToPrimitive;
use obbtree::bv::distance::tri_tri::exact_distance_squared;
use obbtree::bv::{Obb, TriMesh, Triangle};
use obbtree::{distance, proximity_pairs, DistanceRequest, Model, Pose};
use obbtree_compare as parry;
use parry3d_f64::shape::TriMesh as PTriMesh;
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// parry's distances are computed by GJK to a tolerance: differences below this fraction of the
/// meshes' size (the sum of their bounding-box diagonals) are not checked.
const PARRY_TOLERANCE: f64 = 1e-7;

/// obbtree's guarantee: `|d − d*| <= 1e-12·(d* + L)`.
const PROMISE: f64 = 1e-12;

#[derive(Serialize)]
struct Report {
    poses: usize,
    query: &'static str,
    agreeing_poses: usize,
    differences: Vec<Difference>,
    build_ms: Speed,
    query_median_us: Speed,
}

/// A pose where the two distances differ beyond parry's tolerance, with the exact distance.
#[derive(Serialize)]
struct Difference {
    pose: usize,
    obbtree: f64,
    parry: f64,
    exact: f64,
    verdict: String,
}

/// The two libraries' models and timings of building them.
pub(super) struct Built<'a> {
    pub a: &'a Model<Obb>,
    pub b: &'a Model<Obb>,
    pub mesh_a: &'a TriMesh,
    pub mesh_b: &'a TriMesh,
    pub pa: &'a PTriMesh,
    pub pb: &'a PTriMesh,
    pub build_ms: Speed,
}

pub(super) fn run(
    built: Built,
    poses: &[Pose],
    json: bool,
    out: &mut impl Write,
) -> Result<(), Error> {
    let diagonal = |m: &Model<Obb>| (m.bounds().maxs - m.bounds().mins).norm();
    let tolerance = PARRY_TOLERANCE * (diagonal(built.a) + diagonal(built.b));
    let (mut ours_us, mut parry_us) = (Vec::new(), Vec::new());
    let mut differences = Vec::new();
    let id = Pose::identity();
    for (index, pose) in poses.iter().enumerate() {
        let start = Instant::now();
        let ours = distance(built.a, &id, built.b, pose, &DistanceRequest::default())
            .map_err(|e| Error::Message(format!("pose {index}: {e}")))?;
        ours_us.push(start.elapsed().as_secs_f64() * 1e6);
        let start = Instant::now();
        let theirs = parry3d_f64::query::distance(
            &parry3d_f64::math::Pose::IDENTITY,
            built.pa,
            &parry::pose(pose),
            built.pb,
        )
        .map_err(|e| Error::Message(format!("pose {index}: parry3d-f64: {e}")))?
        .distance;
        parry_us.push(start.elapsed().as_secs_f64() * 1e6);
        if (ours.distance - theirs).abs() > tolerance {
            let (exact, verdict) = judge(&built, pose, ours.distance, ours.pair, theirs, tolerance);
            differences.push(Difference {
                pose: index,
                obbtree: ours.distance,
                parry: theirs,
                exact,
                verdict,
            });
        }
    }
    let report = Report {
        poses: poses.len(),
        query: "distance",
        agreeing_poses: poses.len() - differences.len(),
        differences,
        build_ms: built.build_ms,
        query_median_us: Speed::new(median(&mut ours_us), median(&mut parry_us)),
    };
    if json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} poses, distance: {} agree (within {tolerance:.1e}), {} differ",
        report.poses,
        report.agreeing_poses,
        report.differences.len()
    )?;
    speed_table(
        out,
        &[
            ("build (ms)", &report.build_ms),
            ("query median (µs)", &report.query_median_us),
        ],
    )?;
    list(out, &report.differences, 20, |d| {
        format!(
            "pose {}: obbtree {:e}, parry {:e}, exact {:e}: {}",
            d.pose, d.obbtree, d.parry, d.exact, d.verdict
        )
    })
}

/// The exact distance at a pose where the libraries differ, and whose answer is wrong: obbtree's
/// if its pair is not as far as it says or if an exactly nearer pair exists (every pair within
/// parry's distance, found by the exact `proximity_pairs`, measured exactly), else parry's.
fn judge(
    built: &Built,
    pose: &Pose,
    ours: f64,
    pair: [u32; 2],
    theirs: f64,
    tolerance: f64,
) -> (f64, String) {
    let (a, b) = (built.mesh_a, built.mesh_b);
    let placed = |j: usize| {
        let t = b.triangle(j);
        Triangle::new(
            pose.transform_point(&t.a),
            pose.transform_point(&t.b),
            pose.transform_point(&t.c),
        )
    };
    let exact = |[i, j]: [u32; 2]| {
        let d2 = exact_distance_squared(&a.triangle(i as usize), &placed(j as usize));
        d2.to_f64().unwrap_or(f64::INFINITY).sqrt()
    };
    let id = Pose::identity();
    let magnitude = built
        .a
        .bounds()
        .mins
        .coords
        .amax()
        .max(built.a.bounds().maxs.coords.amax())
        + placed_reach(built.b, pose);
    let promise = PROMISE * (ours + magnitude);
    let ours_pair = exact(pair);
    if (ours_pair - ours).abs() > promise {
        return (
            ours_pair,
            format!("obbtree: its pair {pair:?} is {ours_pair:e} apart"),
        );
    }
    let nearest = proximity_pairs(built.a, &id, built.b, pose, theirs + tolerance)
        .unwrap_or_default()
        .into_iter()
        .map(exact)
        .fold(ours_pair, f64::min);
    if nearest < ours - promise {
        (nearest, "obbtree: misses a nearer pair".into())
    } else {
        (nearest, format!("parry: off by {:e}", theirs - nearest))
    }
}

/// The largest absolute coordinate of B's box placed by `pose` (a bound on `L` for B).
fn placed_reach(b: &Model<Obb>, pose: &Pose) -> f64 {
    let bounds = b.bounds();
    (0..8)
        .map(|corner: usize| {
            let at = |k: usize| {
                if corner >> k & 1 == 0 {
                    bounds.mins[k]
                } else {
                    bounds.maxs[k]
                }
            };
            let p = obbtree::Point::new(at(0), at(1), at(2));
            pose.transform_point(&p).coords.amax()
        })
        .fold(0.0, f64::max)
}
