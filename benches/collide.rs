//! Mesh–mesh collision, obbtree beside parry3d-f64 in the same run: dragon_res3 × dragon_res3
//! (47,794 triangles each), the 500 poses of `benches/data/poses_dragon_res3_500.json`
//! (random poses of B relative to A with RNG seed 1: rotations uniform on SO(3); at even
//! indices B's centroid at a random vertex of A plus an offset within `0.1 r_B`, at odd ones
//! uniform in the ball of radius `r_A + r_B` about A's centroid; OBJ copies made by
//! `benches/data/ply2obj.py`; about half in contact), and dragon_res2 × dragon_res2 with the 200
//! poses of `benches/data/poses_dragon_res2_200.json` (made the same way). One thread (and, for
//! obbtree, `_all_threads`: the poses spread over every core), total time for all poses:
//! `All` (every intersecting pair) and `First` (a witness, i.e. yes/no). Trees are built once,
//! outside the measurement.
//!
//! Near misses: dragon_res3 × dragon_res3 and dragon_res2 × dragon_res2 at the 100 poses of
//! `benches/data/poses_dragon_res{3,2}_near_100.json` (`examples/near_miss_poses.rs` on the
//! first poses in contact of the sets above), each within 1e-3 of the meshes' size of touching
//! and not touching: `First` has to prove disjointness.
//!
//! Also the differential's gear set meshing (see `gear_case`).
//!
//! Run: `cargo bench --bench collide` (`-- obbtree` for ours only, `-- gears` for the gear set, `-- res3` for one dragon).
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use obbtree_compare as parry;

use criterion::{criterion_group, criterion_main, Criterion};
use obbtree::bv::{Aabb, Kdop18, Obb, ObbFit, Sphere, TriMesh};
use obbtree::load::load_mesh;
use obbtree::urdf::Robot;
use obbtree::{
    collide_into, collide_many, BuildOptions, CollisionRequest, CollisionResult, Mode, Model,
    ModelOptions, Pose, PosedOverlap,
};
use obbtree_cli::poses::{load_poses, PoseEntry};
use std::io::Write;
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
            collide_into(a, &Pose::identity(), b, p, req, out).unwrap();
            out.pairs.len()
        })
        .sum()
}

fn bench_volume<V: PosedOverlap>(
    c: &mut Criterion,
    group: &str,
    name: &str,
    (a, b): (&TriMesh, &TriMesh),
    poses: &[Pose],
    leaf_size: Option<usize>,
    method: V::Method,
) {
    let defaults = BuildOptions::<V>::default();
    let leaf_size = leaf_size.unwrap_or(defaults.leaf_size);
    let options = BuildOptions::<V> {
        leaf_size,
        method,
        ..defaults
    };
    let options = ModelOptions::from(options);
    let (ma, mb) = (
        Model::<V>::build(a.clone(), &options).unwrap(),
        Model::<V>::build(b.clone(), &options).unwrap(),
    );
    let mut out = CollisionResult::default();
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for mode in [Mode::All, Mode::First] {
        let req = CollisionRequest::new(mode);
        g.bench_function(format!("obbtree_{name}_leaf{leaf_size}_{mode:?}"), |bch| {
            bch.iter(|| run_all(&ma, &mb, poses, &req, &mut out))
        });
        // The same poses spread over every core (`collide_many`, rayon), as `obbtree collide`
        // runs them.
        g.bench_function(
            format!("obbtree_{name}_leaf{leaf_size}_{mode:?}_all_threads"),
            |bch| {
                bch.iter(|| {
                    collide_many(&ma, &Pose::identity(), &mb, poses, &req)
                        .unwrap()
                        .len()
                })
            },
        );
    }
    g.finish();
}

/// obbtree (OBB; every volume type with `OBBTREE_BENCH_ALL_VOLUMES`) and parry on one case.
fn bench_case(c: &mut Criterion, group: &str, a: &TriMesh, b: &TriMesh, poses: &[Pose]) {
    // Each volume type's default leaf size unless `OBBTREE_BENCH_LEAF` says otherwise.
    let leaf: Option<usize> = std::env::var("OBBTREE_BENCH_LEAF")
        .ok()
        .and_then(|s| s.parse().ok());
    bench_volume::<Obb>(c, group, "obb", (a, b), poses, leaf, ObbFit::default());
    // Minimum-volume boxes: a tree for static meshes, built once (~20 times the default's build
    // time) and saved.
    bench_volume::<Obb>(
        c,
        group,
        "obb_minvol",
        (a, b),
        poses,
        leaf,
        ObbFit::MinVolume,
    );
    if std::env::var_os("OBBTREE_BENCH_ALL_VOLUMES").is_some() {
        bench_volume::<Aabb>(c, group, "aabb", (a, b), poses, leaf, ());
        bench_volume::<Kdop18>(c, group, "kdop18", (a, b), poses, leaf, ());
        bench_volume::<Sphere>(c, group, "sphere", (a, b), poses, leaf, Default::default());
    }
    let (pa, pb) = (parry::trimesh(a).unwrap(), parry::trimesh(b).unwrap());
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
                        .map(|p| parry::pairs(&pa, &pb, p, first).len())
                        .sum::<usize>()
                })
            },
        );
    }
    g.finish();
}

/// The gear set of `assets/differential/diff_ring.urdf` (scaled to metres by the URDF): spider
/// gear A (11,840 triangles) against side gear A (11,722), the side gear turned about its axis
/// in 200 steps over ±0.2 rad with the spider at 0, teeth meshing at every step. The poses go
/// through the pose-file contract (rotation vectors), so with `OBBTREE_BENCH_EXPORT=DIR` the
/// files written there (`gear_spider.obj`, `gear_side.obj`, `poses_gears_200.json`) give FCL
/// and coal exactly the same query.
fn gear_case() -> (TriMesh, TriMesh, Vec<Pose>) {
    let robot = Robot::from_file(root("assets/differential/diff_ring.urdf")).unwrap();
    let (spider, side) = (
        robot.link("diff_spiderA").unwrap(),
        robot.link("diff_sideA").unwrap(),
    );
    let side_joint = robot.moving_joints().position(|j| j.child == side).unwrap();
    let entries: Vec<PoseEntry> = (0..200)
        .map(|k| {
            let mut q = vec![0.0; robot.moving_joints().count()];
            q[side_joint] = -0.2 + 0.4 * k as f64 / 199.0;
            let v = robot.mesh_poses(&q).unwrap();
            let at = |link| v.iter().find(|x| x.0 == link).unwrap().2;
            let rel = at(spider).inv_mul(&at(side));
            PoseEntry {
                translation: (*rel.translation()).into(),
                rotation: rel.rotation_vector().into(),
            }
        })
        .collect();
    let (a, b) = (
        robot.links[spider].meshes[0].mesh.clone(),
        robot.links[side].meshes[0].mesh.clone(),
    );
    if let Ok(dir) = std::env::var("OBBTREE_BENCH_EXPORT") {
        let dir = Path::new(&dir);
        std::fs::create_dir_all(dir).unwrap();
        write_obj(&dir.join("gear_spider.obj"), &a).unwrap();
        write_obj(&dir.join("gear_side.obj"), &b).unwrap();
        let json = serde_json::json!({ "poses": entries });
        std::fs::write(dir.join("poses_gears_200.json"), json.to_string()).unwrap();
    }
    let poses = entries
        .iter()
        .enumerate()
        .map(|(i, e)| e.to_pose(i).unwrap())
        .collect();
    (a, b, poses)
}

/// The mesh as OBJ, coordinates printed so that they parse back to the same `f64`s.
fn write_obj(path: &Path, mesh: &TriMesh) -> std::io::Result<()> {
    let mut obj = std::io::BufWriter::new(std::fs::File::create(path)?);
    for v in mesh.vertices() {
        writeln!(obj, "v {:?} {:?} {:?}", v.x, v.y, v.z)?;
    }
    for t in mesh.triangles() {
        writeln!(obj, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1)?;
    }
    obj.flush()
}

fn bench(c: &mut Criterion) {
    let (a, b, poses) = gear_case();
    bench_case(c, "collide_gears_200", &a, &b, &poses);
    let mesh = load_mesh(&root("assets/dragon_res3.ply.gz")).unwrap();
    let poses = load_poses(&root("benches/data/poses_dragon_res3_500.json")).unwrap();
    bench_case(c, "collide_dragon_res3_500", &mesh, &mesh, &poses);
    let poses = load_poses(&root("benches/data/poses_dragon_res3_near_100.json")).unwrap();
    bench_case(c, "collide_dragon_res3_near_100", &mesh, &mesh, &poses);
    let mesh = load_mesh(&root("assets/dragon_res2.ply.gz")).unwrap();
    let poses = load_poses(&root("benches/data/poses_dragon_res2_200.json")).unwrap();
    bench_case(c, "collide_dragon_res2_200", &mesh, &mesh, &poses);
    let poses = load_poses(&root("benches/data/poses_dragon_res2_near_100.json")).unwrap();
    bench_case(c, "collide_dragon_res2_near_100", &mesh, &mesh, &poses);
}

criterion_group!(benches, bench);
criterion_main!(benches);
