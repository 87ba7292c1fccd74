//! obbtree's collision against parry3d-f64 (its BVH `leaf_pairs` plus its triangle
//! `intersection_test`, which is how parry enumerates intersecting pairs) on bundled meshes,
//! every bundled mesh against itself (and a few pairs of different meshes), under random poses
//! (see `pose_count`), about half in contact (B's centroid near a random vertex of A, or
//! anywhere where the bounding spheres overlap). B's vertices are placed by obbtree's placement
//! and handed to parry at the identity, so both see the same coordinates and only the triangle
//! predicates can differ.
//!
//! Every pair on which the two libraries differ is decided by an exact oracle that shares no code
//! with either: the big-integer separating-axis test of the bv tests (`oracles::sat`). obbtree's
//! answer must be the oracle's, so a contact that parry finds and obbtree misses fails the test
//! (and so does one that obbtree invents). parry's GJK works to a tolerance, so where parry is
//! the one that is wrong the two triangles must be within 1e-8 of the mesh's size of each other
//! (by parry's distance query): no difference is unexplained.

mod common;
mod oracles;
use obbtree_compare as parry;

use common::asset;
use nalgebra::{Rotation3, Vector3};
use obbtree::bv::{Obb, Point, Pose, TriMesh};
use obbtree::load::load_mesh;
use obbtree::{collide, CollisionRequest, Mode, Model};
use rand::{Rng, SeedableRng};

fn centroid_radius(m: &TriMesh) -> (Point, f64) {
    let n = m.vertices().len() as f64;
    let c = Point::from(m.vertices().iter().map(|p| p.coords).sum::<Vector3<f64>>() / n);
    let r = m
        .vertices()
        .iter()
        .map(|p| (p - c).norm())
        .fold(0.0, f64::max);
    (c, r)
}

/// Poses like `shared/bench/poses.py`: even ones put B's centroid within `0.1 r_B` of a vertex of
/// A, odd ones anywhere in the ball where the bounding spheres overlap.
fn poses(a: &TriMesh, b: &TriMesh, n: usize, seed: u64) -> Vec<Pose> {
    let mut r = rand_pcg::Pcg64::seed_from_u64(seed);
    let ((ca, ra), (cb, rb)) = (centroid_radius(a), centroid_radius(b));
    let ball = |radius: f64, r: &mut rand_pcg::Pcg64| loop {
        let v = Vector3::from_fn(|_, _| r.gen_range(-1.0..1.0));
        if v.norm_squared() <= 1.0 {
            break v * radius;
        }
    };
    (0..n)
        .map(|i| {
            let rot = Rotation3::new(ball(std::f64::consts::PI, &mut r));
            let target = if i % 2 == 0 {
                a.vertices()[r.gen_range(0..a.vertices().len())] + ball(0.1 * rb, &mut r)
            } else {
                ca + ball(ra + rb, &mut r)
            };
            Pose::from_parts(target - rot * cb, *rot.matrix()).unwrap()
        })
        .collect()
}

fn compare(a_name: &str, b_name: &str, n: usize) {
    let (a, b) = (
        load_mesh(&asset(a_name)).unwrap(),
        load_mesh(&asset(b_name)).unwrap(),
    );
    let (ma, mb): (Model<Obb>, Model<Obb>) = (
        Model::new(a.clone()).unwrap(),
        Model::new(b.clone()).unwrap(),
    );
    let pa = parry::trimesh(&a).unwrap();
    let identity = parry3d_f64::math::Pose::IDENTITY;
    let (mut hits, mut explained) = (0, 0);
    for (k, pose) in poses(&a, &b, n, 7).iter().enumerate() {
        let ours = collide(
            &ma,
            &Pose::identity(),
            &mb,
            pose,
            &CollisionRequest::new(Mode::All),
        )
        .unwrap()
        .pairs;
        let placed = TriMesh::new(
            b.vertices()
                .iter()
                .map(|p| pose.transform_point(p))
                .collect(),
            b.triangles().to_vec(),
        )
        .unwrap();
        let pb = parry::trimesh(&placed).unwrap();
        let theirs = parry::pairs(&pa, &pb, &identity, false);
        hits += !ours.is_empty() as usize;
        for pair in ours
            .iter()
            .filter(|p| !theirs.contains(p))
            .chain(theirs.iter().filter(|p| !ours.contains(p)))
        {
            let (t1, t2) = (pa.triangle(pair[0]), pb.triangle(pair[1]));
            let d = parry3d_f64::query::distance(&identity, &t1, &identity, &t2)
                .unwrap()
                .distance;
            let size = centroid_radius(&a).1;
            // The independent exact oracle decides; obbtree must agree with it.
            let exact = oracles::sat::triangles_meet(
                &a.triangle(pair[0] as usize).vertices(),
                &placed.triangle(pair[1] as usize).vertices(),
            );
            assert_eq!(
                exact,
                ours.contains(pair),
                "{a_name} × {b_name} pose {k}: obbtree {} pair {pair:?}, the exact oracle says \
                 they {} (parry {}, distance {d:e})",
                if ours.contains(pair) {
                    "reports"
                } else {
                    "misses"
                },
                if exact { "meet" } else { "are apart" },
                theirs.contains(pair)
            );
            println!(
                "{a_name} × {b_name} pose {k}: pair {pair:?} obbtree {} parry {} (distance {d:e})",
                ours.contains(pair),
                theirs.contains(pair)
            );
            assert!(
                d <= 1e-8 * size,
                "unexplained difference: distance {d:e}, size {size:e}"
            );
            explained += 1;
        }
    }
    println!(
        "{a_name} × {b_name}: {n} poses, {hits} in contact, {explained} near-touching differences"
    );
    assert!(hits * 4 >= n, "too few poses in contact: {hits} of {n}");
}

/// Poses per mesh pair: 1,000, capped at 250,000 / triangles (at least 10) so that the file
/// stays within about half a minute of CPU (parry builds a tree of B placed anew for every pose);
/// both scale with the one knob `OBBTREE_PROPTEST_CASES` (`common::cases`), so the long run
/// (`OBBTREE_PROPTEST_CASES=2560`) gives 10,000 poses to the small meshes and ten times the
/// budget to the large ones.
fn pose_count(triangles: usize) -> usize {
    let poses = common::cases(1000) as usize;
    let budget = common::cases(250_000) as usize / triangles;
    poses.min(budget.max(10))
}

/// Every bundled mesh whose path starts with `prefix`, against itself.
fn each_bundled(prefix: &str, exclude: &[&str]) {
    for m in common::BUNDLED
        .iter()
        .filter(|m| m.name.starts_with(prefix) && !exclude.iter().any(|e| m.name.starts_with(e)))
    {
        compare(m.name, m.name, pose_count(m.triangles));
    }
}

#[test]
fn objects() {
    each_bundled("", &["kuka_iiwa", "differential", "dragon"]);
}

#[test]
fn dragons() {
    each_bundled("dragon", &[]);
}

#[test]
fn kuka_links() {
    each_bundled("kuka_iiwa", &[]);
    compare(
        "kuka_iiwa/link_2.obj",
        "kuka_iiwa/link_3.obj",
        pose_count(1938),
    );
}

#[test]
fn gear_parts() {
    each_bundled("differential", &[]);
    compare(
        "differential/diff_spider.stl",
        "differential/diff_side.stl",
        pose_count(11_840),
    );
}

/// The near-miss poses of the `First` benchmark (`benches/data/poses_dragon_res*_near_100.json`,
/// made by `examples/near_miss_poses.rs`): every one is disjoint for obbtree's exact test and
/// for parry3d-f64 alike, so the benchmark times the same answer on both sides.
#[test]
fn benchmark_near_misses_are_disjoint_for_both() {
    for dragon in ["dragon_res3", "dragon_res2"] {
        near_misses_are_disjoint(dragon);
    }
}

fn near_misses_are_disjoint(dragon: &str) {
    let mesh = load_mesh(&asset(&format!("{dragon}.ply.gz"))).unwrap();
    let model: Model<Obb> = Model::new(mesh.clone()).unwrap();
    let p = parry::trimesh(&mesh).unwrap();
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("benches/data/poses_{dragon}_near_100.json"));
    let poses = obbtree_cli::poses::load_poses(&file).unwrap();
    assert_eq!(poses.len(), 100);
    for (k, pose) in poses.iter().enumerate() {
        let ours = collide(
            &model,
            &Pose::identity(),
            &model,
            pose,
            &CollisionRequest::new(Mode::First),
        )
        .unwrap();
        assert!(!ours.intersects, "pose {k}: obbtree reports contact");
        let theirs = parry::pairs(&p, &p, &parry::pose(pose), true);
        assert!(
            theirs.is_empty(),
            "pose {k}: parry3d-f64 reports {theirs:?}"
        );
    }
}
