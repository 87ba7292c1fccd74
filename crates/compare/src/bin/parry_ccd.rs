//! parry3d-f64's continuous collision of two triangle meshes on the inputs of `obbtree ccd`.
//!
//! ```text
//! parry_ccd A.obj B.obj motions.json [--tolerance D]
//! ```
//!
//! `motions.json` is `{"motions":[{"start":POSE,"end":POSE}, ...]}`, POSE
//! `{"translation":[x,y,z],"rotation":[rx,ry,rz]}`: B's pose in A's frame (A stays at the
//! identity). Over t in [0, 1] B's origin moves linearly and B turns at constant angular velocity
//! about a fixed axis through its origin, the shortest arc from R0 to R1:
//! `R(t) = R0 exp(t log(R0ᵀ R1))`. Each motion is one `cast_shapes_nonlinear` of the two
//! TriMeshes (parry's BVH of A's triangles against its BVH of B's, a nonlinear cast per
//! triangle pair), stopping at penetration, so a pair already in contact at t = 0 is a hit at 0.
//!
//! Prints one JSON line: `engine`, `command`, `motions`, `tris_a`, `tris_b`, `tolerance`,
//! `build_ms` (parry's TriMeshes and their BVHs), `query_total_ms` (every motion, after the
//! first 10 have run once untimed, as the anchor harnesses do), `query_median_us`, `hits` and
//! `results`: `{"hit", "toi":[t,t] | null, "pair":[ia,ib] | null}` per motion, the pair being
//! the triangles parry names. parry's nonlinear cast takes no tolerance: `--tolerance` is
//! recorded (`"tolerance_applied": false`) and changes nothing. Meshes are read as the anchor
//! harnesses read OBJ files: `v` and `f` lines, polygons fanned, triangles in file order.

use obbtree_bv::{Point, Pose, TriMesh};
use parry3d_f64::math::Vector as PVec;
use parry3d_f64::query::{cast_shapes_nonlinear, NonlinearRigidMotion};
use parry3d_f64::shape::TriMesh as PTriMesh;
use serde::{Deserialize, Serialize};
use std::process::ExitCode;
use std::time::Instant;

/// Motions run once untimed before the timed loop (as the anchor harnesses do).
const WARM_UP: usize = 10;

#[derive(Deserialize)]
struct MotionFile {
    motions: Vec<MotionEntry>,
}

#[derive(Deserialize)]
struct MotionEntry {
    start: PoseEntry,
    end: PoseEntry,
}

#[derive(Deserialize, PartialEq)]
struct PoseEntry {
    translation: [f64; 3],
    rotation: [f64; 3],
}

#[derive(Serialize)]
struct Report {
    engine: &'static str,
    command: &'static str,
    motions: usize,
    tris_a: usize,
    tris_b: usize,
    tolerance: Option<f64>,
    tolerance_applied: bool,
    build_ms: f64,
    query_total_ms: f64,
    query_median_us: f64,
    hits: usize,
    results: Vec<Answer>,
}

#[derive(Serialize, Clone, Copy, Default)]
struct Answer {
    hit: bool,
    toi: Option<[f64; 2]>,
    pair: Option<[u32; 2]>,
}

/// The command line: three files and an optional tolerance.
struct Args {
    a: String,
    b: String,
    motions: String,
    tolerance: Option<f64>,
}

fn parse_args() -> Result<Args, String> {
    let usage = "usage: parry_ccd A.obj B.obj motions.json [--tolerance D]";
    let mut positional = Vec::new();
    let mut tolerance = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--tolerance" {
            let value = args.next().ok_or("--tolerance needs a value")?;
            let d: f64 = value
                .parse()
                .map_err(|_| format!("--tolerance must be a number, not '{value}'"))?;
            tolerance = Some(d);
        } else if arg.starts_with("--") {
            return Err(format!("unknown option {arg}\n{usage}"));
        } else {
            positional.push(arg);
        }
    }
    let [a, b, motions]: [String; 3] = positional.try_into().map_err(|_| usage.to_string())?;
    Ok(Args {
        a,
        b,
        motions,
        tolerance,
    })
}

/// The vertex index (0-based) of an OBJ face corner `i`, `i/t`, `i//n` or `i/t/n`; negative
/// indices count back from the last vertex read.
fn corner(field: &str, count: usize) -> Option<u32> {
    let k: i64 = field.split('/').next()?.parse().ok()?;
    let index = if k > 0 { k - 1 } else { count as i64 + k };
    (k != 0 && (0..count as i64).contains(&index)).then_some(index as u32)
}

/// An OBJ file's `v` and `f` lines: polygons fanned (v0, v1, v2), (v0, v2, v3), ...
fn read_obj(path: &str) -> Result<TriMesh, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let (mut vertices, mut triangles) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let mut fields = line.split('#').next().unwrap_or("").split_whitespace();
        match fields.next() {
            Some("v") => {
                let c: Vec<f64> = fields.take(3).map_while(|f| f.parse().ok()).collect();
                let [x, y, z] = c[..] else {
                    return Err(format!("{path}: bad vertex line: {line}"));
                };
                vertices.push(Point::new(x, y, z));
            }
            Some("f") => {
                let corners: Option<Vec<u32>> = fields.map(|f| corner(f, vertices.len())).collect();
                let corners = corners.ok_or_else(|| format!("{path}: bad face line: {line}"))?;
                for k in 1..corners.len().saturating_sub(1) {
                    triangles.push([corners[0], corners[k], corners[k + 1]]);
                }
            }
            _ => {}
        }
    }
    TriMesh::new(vertices, triangles).map_err(|e| format!("{path}: {e}"))
}

fn read_motions(path: &str) -> Result<Vec<MotionEntry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let file: MotionFile = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    Ok(file.motions)
}

fn pose(entry: &PoseEntry) -> Result<Pose, String> {
    Pose::new(entry.translation, entry.rotation).map_err(|e| e.to_string())
}

/// The angular velocity (A's frame, radians per unit of t) that turns R0 into R1 over t in
/// [0, 1] along the shortest arc: log(R1 R0ᵀ) = R0 log(R0ᵀ R1). The angle comes from atan2 of
/// the quaternion's parts (exact near 0 and π, unlike an arccosine); zero when the two
/// rotations are the same input.
fn angular_velocity(start: &Pose, end: &Pose) -> PVec {
    let delta = end.isometry().rotation * start.isometry().rotation.inverse();
    let q = nalgebra::UnitQuaternion::from_rotation_matrix(&delta);
    let (w, v) = if q.w < 0.0 {
        (-q.w, -q.vector())
    } else {
        (q.w, q.vector().into_owned())
    };
    let s = v.norm();
    if s == 0.0 {
        return PVec::ZERO;
    }
    let scale = 2.0 * s.atan2(w) / s;
    PVec::new(v.x * scale, v.y * scale, v.z * scale)
}

/// parry's motion equal to the contract's: it turns B about `local_center` (B's origin here)
/// by `angvel · t` in A's frame, after the start rotation, and moves that centre by `linvel · t`
/// (parry's `NonlinearRigidMotion::position_at_time`).
fn motion(entry: &MotionEntry) -> Result<NonlinearRigidMotion, String> {
    let (start, end) = (pose(&entry.start)?, pose(&entry.end)?);
    let d = end.translation() - start.translation();
    let angvel = if entry.start.rotation == entry.end.rotation {
        PVec::ZERO
    } else {
        angular_velocity(&start, &end)
    };
    Ok(NonlinearRigidMotion::new(
        obbtree_compare::pose(&start),
        PVec::ZERO,
        PVec::new(d.x, d.y, d.z),
        angvel,
    ))
}

/// One motion: `None` when parry does not support the pair of shapes.
fn cast(a: &PTriMesh, b: &PTriMesh, m: &NonlinearRigidMotion) -> Option<Answer> {
    let fixed = NonlinearRigidMotion::identity();
    let hit = cast_shapes_nonlinear(&fixed, a, m, b, 0.0, 1.0, true).ok()?;
    Some(hit.map_or(Answer::default(), |h| Answer {
        hit: true,
        toi: Some([h.time_of_impact, h.time_of_impact]),
        pair: Some([h.subshape1, h.subshape2]),
    }))
}

fn median(mut times: Vec<f64>) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2]
    } else {
        0.5 * (times[n / 2 - 1] + times[n / 2])
    }
}

/// The warm-up, then every motion under the clock: answers, total ms and each motion's µs.
fn timed(
    a: &PTriMesh,
    b: &PTriMesh,
    motions: &[NonlinearRigidMotion],
) -> Option<(Vec<Answer>, f64, Vec<f64>)> {
    for m in motions.iter().take(WARM_UP) {
        cast(a, b, m)?;
    }
    let mut answers = Vec::with_capacity(motions.len());
    let mut each_us = Vec::with_capacity(motions.len());
    let start = Instant::now();
    let mut previous = start;
    for m in motions {
        answers.push(cast(a, b, m)?);
        let now = Instant::now();
        each_us.push((now - previous).as_secs_f64() * 1e6);
        previous = now;
    }
    Some((answers, (previous - start).as_secs_f64() * 1e3, each_us))
}

fn run() -> Result<ExitCode, String> {
    let args = parse_args()?;
    let (mesh_a, mesh_b) = (read_obj(&args.a)?, read_obj(&args.b)?);
    let motions = read_motions(&args.motions)?
        .iter()
        .map(motion)
        .collect::<Result<Vec<_>, _>>()?;
    let start = Instant::now();
    let a = obbtree_compare::trimesh(&mesh_a).map_err(|e| format!("{}: {e}", args.a))?;
    let b = obbtree_compare::trimesh(&mesh_b).map_err(|e| format!("{}: {e}", args.b))?;
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let Some((results, query_total_ms, each_us)) = timed(&a, &b, &motions) else {
        println!(r#"{{"engine":"parry","command":"ccd","supported":false}}"#);
        return Ok(ExitCode::from(3));
    };
    let report = Report {
        engine: "parry",
        command: "ccd",
        motions: motions.len(),
        tris_a: mesh_a.triangles().len(),
        tris_b: mesh_b.triangles().len(),
        tolerance: args.tolerance,
        tolerance_applied: false,
        build_ms,
        query_total_ms,
        query_median_us: median(each_us),
        hits: results.iter().filter(|r| r.hit).count(),
        results,
    };
    println!(
        "{}",
        serde_json::to_string(&report).map_err(|e| e.to_string())?
    );
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    run().unwrap_or_else(|message| {
        eprintln!("{message}");
        ExitCode::from(2)
    })
}
