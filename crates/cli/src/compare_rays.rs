//! `obbtree compare --rays RAYS.json MESH [--json]`: the same rays through obbtree's picking
//! (the compact AABB tree `obbtree pick` uses) and parry3d-f64's `cast_ray_and_get_normal`, one
//! thread each; agreement per ray (first-hit triangles, differences judged exactly by
//! [`obbtree_compare::rays`]) and speed.

use super::compare::{median, speed_table, Speed};
use super::{pick, Error};
use obbtree::bv::TriMesh;
use obbtree::load::load_mesh;
use obbtree::{cast_ray, Pose, RayIndex};
use obbtree_compare::rays::{parry_cast, Agreement, Difference, Hit, Judge, ReasonCount, Tally};
use obbtree_compare::trimesh;
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// How many times each tree is built for the build time's median.
const BUILD_RUNS: usize = 3;

#[derive(Serialize)]
struct Report {
    mesh: String,
    tris: usize,
    rays: usize,
    /// Rays on which both report the same triangle (or both nothing).
    same: usize,
    /// Rays on which both report different triangles at the same `t` (within 1e-12).
    ties: usize,
    /// Rays on which the answers really differ, each in `differences`.
    differ: usize,
    reasons: Vec<ReasonCount>,
    differences: Vec<RayDifference>,
    /// Median of [`BUILD_RUNS`] builds.
    build_ms: Speed,
    /// Median over the rays of one ray's time, one thread.
    query_median_us: Speed,
    /// Sum over the rays.
    query_total_ms: Speed,
}

#[derive(Serialize)]
struct RayDifference {
    ray: usize,
    #[serde(flatten)]
    difference: Difference,
}

pub fn run(
    mesh_path: &Path,
    rays_path: &Path,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Error> {
    let rays = crate::rays::load_rays(rays_path).map_err(|e| Error::Message(e.to_string()))?;
    if rays.is_empty() {
        return Err(Error::Message(format!(
            "{}: no rays to compare; give at least one",
            rays_path.display()
        )));
    }
    let mesh = load_mesh(mesh_path)?;
    // Each library's tree built BUILD_RUNS times: the median time, the last tree.
    let (mut ours_build, mut parry_build) = (Vec::new(), Vec::new());
    let (mut model, mut theirs) = (None, None);
    for _ in 0..BUILD_RUNS {
        let copy = mesh.clone();
        let start = Instant::now();
        let built = pick::build::<obbtree::bv::Aabb>(copy, RayIndex::Compact)?;
        built.prepare_rays();
        model = Some(built);
        ours_build.push(ms(start));
        let start = Instant::now();
        theirs = Some(
            trimesh(&mesh)
                .map_err(|e| Error::Message(format!("parry3d-f64 refuses the mesh: {e}")))?,
        );
        parry_build.push(ms(start));
    }
    let (Some(model), Some(theirs)) = (model, theirs) else {
        unreachable!("BUILD_RUNS > 0")
    };

    // Interleaved ray by ray, so that both libraries run under the same load and cache state.
    let n = rays.len();
    let (mut ours, mut ours_us) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let (mut parry, mut parry_us) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for ray in &rays {
        let start = Instant::now();
        let hit = cast_ray(&model, &Pose::identity(), ray, f64::INFINITY)
            .map_err(|e| Error::Message(e.to_string()))?;
        ours_us.push(us(start));
        ours.push(hit.map(|h| Hit {
            triangle: h.triangle,
            t: h.t,
        }));
        let start = Instant::now();
        let hit = parry_cast(&theirs, ray);
        parry_us.push(us(start));
        parry.push(hit);
    }

    let mut tally = Tally::default();
    let mut differences = Vec::new();
    let judge = Judge::new(&mesh);
    for (i, ray) in rays.iter().enumerate() {
        let agreement = judge.judge(ray, ours[i], parry[i]);
        tally.add(std::slice::from_ref(&agreement));
        if let Agreement::Differ(difference) = agreement {
            differences.push(RayDifference { ray: i, difference });
        }
    }
    let total = |us: &[f64]| us.iter().sum::<f64>() * 1e-3;
    let report = Report {
        mesh: mesh_path.display().to_string(),
        tris: mesh.triangles().len(),
        rays: rays.len(),
        same: tally.same,
        ties: tally.ties,
        differ: tally.differ,
        reasons: tally.reasons(),
        differences,
        build_ms: Speed::new(median(&mut ours_build), median(&mut parry_build)),
        query_total_ms: Speed::new(total(&ours_us), total(&parry_us)),
        query_median_us: Speed::new(median(&mut ours_us.clone()), median(&mut parry_us.clone())),
    };
    if json {
        serde_json::to_writer(&mut *out, &report)?;
        writeln!(out)?;
        return Ok(());
    }
    print_table(&report, &mesh, out)
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn us(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e6
}

fn print_table(report: &Report, mesh: &TriMesh, out: &mut impl Write) -> Result<(), Error> {
    writeln!(
        out,
        "{}: {} triangles{}, {} rays",
        report.mesh,
        report.tris,
        if mesh.is_closed() { " (closed)" } else { "" },
        report.rays,
    )?;
    writeln!(
        out,
        "first-hit triangle: {} same, {} ties (different triangles, same t within 1e-12), {} differ",
        report.same, report.ties, report.differ
    )?;
    speed_table(
        out,
        &[
            ("build median (ms)", &report.build_ms),
            ("query median (µs)", &report.query_median_us),
            ("query total (ms)", &report.query_total_ms),
        ],
    )?;
    if report.differences.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "differences, each checked with exact orientation tests:"
    )?;
    for r in &report.reasons {
        writeln!(out, "  {:>6} × {}: {}", r.count, r.wrong, r.reason)?;
    }
    super::compare::list(out, &report.differences, 10, |d| {
        format!("ray {}: {}", d.ray, d.difference.detail)
    })
}
