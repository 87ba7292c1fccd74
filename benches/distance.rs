//! Mesh distance, obbtree beside parry3d-f64 in the same run: dragon_res3 × dragon_res3 (47,794
//! triangles each) at the 100 near misses of `benches/data/poses_dragon_res3_near_100.json` (B
//! within 1e-3 of the meshes' size of touching, not touching) and at the same poses with B
//! moved away by `r_A + r_B` along the line between the centroids (far). One thread, total time
//! for the poses: obbtree's `distance` cold, with each pose hinted by its own answer of a first
//! pass (the best a hint can do), and `within_margin` at the median near distance; parry3d-f64's
//! TriMesh distance on the first 10 poses only (it is far slower per pose; see
//! `docs/performance.md`). A sequence of 1,000 nearby poses from the first near miss, cold and
//! with a `DistanceTracker`. Trees are built once, outside the measurement. The anchors (FCL,
//! coal) run through `bench/anchors` (see `docs/performance.md`).
//!
//! Run: `cargo bench --bench distance` (`-- obbtree` for ours only).
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use obbtree_compare as parry;

use criterion::{criterion_group, criterion_main, Criterion};
use obbtree::bv::{Obb, TriMesh, Vector};
use obbtree::load::load_mesh;
use obbtree::{distance, within_margin, DistanceRequest, DistanceTracker, Model, Pose};
use obbtree_cli::poses::load_poses;
use std::path::Path;
use std::time::Duration;

fn root(p: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// The poses moved so that B's centroid is `r_A + r_B` further from A's (far apart).
fn pushed_away(mesh: &TriMesh, poses: &[Pose]) -> Vec<Pose> {
    let n = mesh.vertices().len() as f64;
    let c = mesh.vertices().iter().map(|p| p.coords).sum::<Vector>() / n;
    let r = mesh
        .vertices()
        .iter()
        .map(|p| (p.coords - c).norm())
        .fold(0.0, f64::max);
    poses
        .iter()
        .map(|pose| {
            let moved = pose.transform_point(&c.into()).coords;
            let direction = (moved - c).try_normalize(0.0).unwrap_or(Vector::x());
            let t = pose.translation() + direction * 2.0 * r;
            Pose::from_parts(t, *pose.rotation()).unwrap()
        })
        .collect()
}

/// The sum of `a`'s distances to itself at `poses`, each query cold.
fn cold_distances(a: &Model<Obb>, poses: &[Pose]) -> f64 {
    let (id, cold) = (Pose::identity(), DistanceRequest::default());
    poses
        .iter()
        .map(|p| distance(a, &id, a, p, &cold).unwrap().distance)
        .sum()
}

fn bench_case(c: &mut Criterion, group: &str, a: &Model<Obb>, poses: &[Pose]) {
    let id = Pose::identity();
    let cold = DistanceRequest::default();
    let answers: Vec<_> = poses
        .iter()
        .map(|p| distance(a, &id, a, p, &cold).unwrap())
        .collect();
    let mut distances: Vec<f64> = answers.iter().map(|r| r.distance).collect();
    distances.sort_by(f64::total_cmp);
    let margin = distances[distances.len() / 2];
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("obbtree_distance", |bench| {
        bench.iter(|| cold_distances(a, poses))
    });
    g.bench_function("obbtree_distance_hinted", |bench| {
        bench.iter(|| {
            poses
                .iter()
                .zip(&answers)
                .map(|(p, r)| {
                    distance(a, &id, a, p, &cold.with_hint(Some(r.pair)))
                        .unwrap()
                        .distance
                })
                .sum::<f64>()
        })
    });
    g.bench_function("obbtree_within_margin", |bench| {
        bench.iter(|| {
            poses
                .iter()
                .filter(|p| within_margin(a, &id, a, p, margin).unwrap().is_some())
                .count()
        })
    });
    let pa = parry::trimesh(a.mesh().unwrap()).unwrap();
    let few = &poses[..poses.len().min(10)];
    g.bench_function("parry_distance_10_poses", |bench| {
        bench.iter(|| {
            few.iter()
                .map(|p| {
                    parry3d_f64::query::distance(
                        &parry3d_f64::math::Pose::IDENTITY,
                        &pa,
                        &parry::pose(p),
                        &pa,
                    )
                    .unwrap()
                    .distance
                })
                .sum::<f64>()
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let mesh = load_mesh(&root("assets/dragon_res3.ply.gz")).unwrap();
    let model: Model<Obb> = Model::new(mesh.clone()).unwrap();
    model.prepare_distance();
    let near = load_poses(&root("benches/data/poses_dragon_res3_near_100.json")).unwrap();
    bench_case(c, "distance_dragon_res3_near", &model, &near);
    bench_case(
        c,
        "distance_dragon_res3_far",
        &model,
        &pushed_away(&mesh, &near),
    );
    bench_sequence(c, &model, &sequence(&near[0], 1000));
}

/// `n` nearby poses from `start`: B turns by 1e-4 rad about a fixed axis and drifts by 2e-5
/// along a fixed direction from one pose to the next.
fn sequence(start: &Pose, n: usize) -> Vec<Pose> {
    let axis = Vector::new(0.48, -0.6, 0.64);
    let drift = Vector::new(-0.36, 0.48, 0.8);
    (0..n)
        .map(|k| {
            let k = k as f64;
            let turn = Pose::new(drift * 2e-5 * k, axis * 1e-4 * k).unwrap();
            turn * *start
        })
        .collect()
}

/// A sequence of nearby poses cold, and with a [`DistanceTracker`] starting each query where
/// the last one stopped.
fn bench_sequence(c: &mut Criterion, a: &Model<Obb>, poses: &[Pose]) {
    let id = Pose::identity();
    let request = DistanceRequest::default();
    let mut g = c.benchmark_group("distance_dragon_res3_sequence_1000");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("obbtree_distance", |bench| {
        bench.iter(|| cold_distances(a, poses))
    });
    g.bench_function("obbtree_distance_tracked", |bench| {
        bench.iter(|| {
            let mut tracker = DistanceTracker::new();
            poses
                .iter()
                .map(|p| tracker.distance(a, &id, a, p, &request).unwrap().distance)
                .sum::<f64>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
