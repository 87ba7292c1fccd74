//! Mesh–mesh collision, obbtree beside parry3d-f64 in the same run: dragon_res3 × dragon_res3
//! (47,794 triangles each), the 500 poses of `benches/data/poses_dragon_res3_500.json`
//! (`/work/shared/bench/poses.py A.obj B.obj 500 1`, OBJ copies made by
//! `benches/data/ply2obj.py`, about half in contact), and dragon_res2 × dragon_res2 with the 200
//! poses of `benches/data/poses_dragon_res2_200.json` (made the same way). One thread, total
//! time for all poses: `All` (every intersecting pair) and `First` (a witness, i.e. yes/no).
//! Trees are built once, outside the measurement.
//!
//! Run: `cargo bench --bench collide` (`-- obbtree` for ours only, `-- res3` for one mesh).

use obbtree::compare as parry;

use criterion::{criterion_group, criterion_main, Criterion};
use obbtree::bv::{Aabb, Kdop18, Obb, Sphere, TriMesh};
use obbtree::load::load_mesh;
use obbtree::poses::load_poses;
use obbtree::query::collide::{collide_with, Pose};
use obbtree::query::{CollisionRequest, CollisionResult, Mode, Model, PosedOverlap};
use obbtree::tree::{BuildOptions, Bvh};
use std::path::Path;
use std::time::Duration;

fn root(p: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// Runs every pose once; returns the number of pairs (kept so the work is not optimised away).
fn run_all<V: PosedOverlap>(
    a: &Model<V>,
    b: &Model<V>,
    poses: &[Pose],
    req: &CollisionRequest,
    out: &mut CollisionResult,
) -> usize {
    poses
        .iter()
        .map(|p| {
            collide_with(a, &Pose::identity(), b, p, req, out);
            out.pairs.len()
        })
        .sum()
}

fn bench_volume<V: PosedOverlap>(
    c: &mut Criterion,
    group: &str,
    name: &str,
    mesh: &TriMesh,
    poses: &[Pose],
    leaf_size: usize,
) {
    let options = BuildOptions::<V> {
        leaf_size,
        ..BuildOptions::default()
    };
    let tree = Bvh::<V>::build(mesh, &options).unwrap();
    let model = Model::new(mesh, &tree).unwrap();
    let mut out = CollisionResult::default();
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for mode in [Mode::All, Mode::First] {
        let req = CollisionRequest::new(mode);
        g.bench_function(format!("obbtree_{name}_leaf{leaf_size}_{mode:?}"), |bch| {
            bch.iter(|| run_all(&model, &model, poses, &req, &mut out))
        });
    }
    g.finish();
}

/// obbtree (OBB, and every volume type with `OBBTREE_BENCH_ALL_VOLUMES`) and parry on one mesh
/// against itself under the poses of `poses`, as criterion group `group`.
fn bench_mesh(c: &mut Criterion, group: &str, mesh: &str, poses: &str) {
    let mesh = load_mesh(&root(mesh)).unwrap();
    let poses = load_poses(&root(poses)).unwrap();
    let leaf = std::env::var("OBBTREE_BENCH_LEAF")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(obbtree::tree::DEFAULT_LEAF_SIZE);
    bench_volume::<Obb>(c, group, "obb", &mesh, &poses, leaf);
    if std::env::var_os("OBBTREE_BENCH_ALL_VOLUMES").is_some() {
        bench_volume::<Aabb>(c, group, "aabb", &mesh, &poses, leaf);
        bench_volume::<Kdop18>(c, group, "kdop18", &mesh, &poses, leaf);
        bench_volume::<Sphere>(c, group, "sphere", &mesh, &poses, leaf);
    }
    let pm = parry::trimesh(&mesh).unwrap();
    let pposes: Vec<_> = poses.iter().map(parry::pose).collect();
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for first in [false, true] {
        g.bench_function(
            if first {
                "parry_leaf_pairs_First"
            } else {
                "parry_leaf_pairs_All"
            },
            |bch| {
                bch.iter(|| {
                    pposes
                        .iter()
                        .map(|p| parry::pairs(&pm, &pm, p, first).len())
                        .sum::<usize>()
                })
            },
        );
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    bench_mesh(
        c,
        "collide_dragon_res3_500",
        "assets/dragon_res3.ply.gz",
        "benches/data/poses_dragon_res3_500.json",
    );
    bench_mesh(
        c,
        "collide_dragon_res2_200",
        "assets/dragon_res2.ply.gz",
        "benches/data/poses_dragon_res2_200.json",
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
