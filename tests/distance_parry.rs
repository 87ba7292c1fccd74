//! obbtree's mesh distance against parry3d-f64's (`parry3d_f64::query::distance` between two
//! triangle meshes: its BVH against single triangles by GJK) on every bundled mesh against
//! itself and a KUKA link pair, under random poses, most of them separated (B's centroid at
//! 0.3 to 1.5 times the sum of the bounding radii from A's) and some in contact. B's vertices
//! are placed by obbtree's placement and handed to parry at the identity, so both measure the
//! same coordinates.
//!
//! Every pose where the two answers differ by more than parry's tolerance (1e-7 of the meshes'
//! size) is decided by an exact oracle that shares no code with either (the bv tests' rational
//! triangle distance, `oracles::distance`): when parry is nearer, every triangle pair whose
//! boxes are within parry's distance is measured exactly, and obbtree fails if one is nearer
//! than obbtree's answer allows; when obbtree is nearer, its pair's exact distance must be its
//! answer. Each difference is listed (`--nocapture`).
//!
//! Poses per mesh: 50 (scaled by `OBBTREE_PROPTEST_CASES`, see `common::knob`), capped at
//! 40,000 / triangles (parry takes about a millisecond per thousand triangles here) and at
//! least 3; `OBBTREE_PARRY_POSES=1000 OBBTREE_PARRY_BUDGET=1e12` for the 1,000 poses.

mod common;
mod oracles;
use obbtree_compare as parry;

use common::{asset, cases};
use nalgebra::{Rotation3, Vector3};
use obbtree::bv::{Obb, Point, Pose, TriMesh};
use obbtree::load::load_mesh;
use obbtree::{distance, DistanceRequest, Model};
use oracles::distance::triangle_distance_squared;
use oracles::exact::approx;
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

/// Random poses of B: its centroid at 0.3 to 1.5 times `r_A + r_B` from A's, in a random
/// direction, at a random rotation.
fn poses(a: &TriMesh, b: &TriMesh, n: usize, seed: u64) -> Vec<Pose> {
    let mut r = rand_pcg::Pcg64::seed_from_u64(seed);
    let ((ca, ra), (cb, rb)) = (centroid_radius(a), centroid_radius(b));
    let unit = |r: &mut rand_pcg::Pcg64| loop {
        let v = Vector3::from_fn(|_, _| r.gen_range(-1.0..1.0));
        if v.norm_squared() <= 1.0 && v.norm_squared() > 1e-6 {
            break v.normalize();
        }
    };
    (0..n)
        .map(|_| {
            let rot = Rotation3::new(unit(&mut r) * r.gen_range(0.0..std::f64::consts::PI));
            let target = ca + unit(&mut r) * (ra + rb) * r.gen_range(0.3..1.5);
            Pose::from_parts(target - rot * cb, *rot.matrix()).unwrap()
        })
        .collect()
}

/// The pairs of triangles of `a` and `b` whose boxes are at most `reach` apart (with room for
/// rounding).
fn pairs_within(a: &TriMesh, b: &TriMesh, reach: f64) -> Vec<[usize; 2]> {
    let boxes = |m: &TriMesh| -> Vec<([f64; 3], [f64; 3])> {
        (0..m.triangles().len())
            .map(|t| {
                let v = m.triangle(t).vertices();
                let lo = [0, 1, 2].map(|k| v.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min));
                let hi =
                    [0, 1, 2].map(|k| v.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max));
                (lo, hi)
            })
            .collect()
    };
    let (ba, bb) = (boxes(a), boxes(b));
    let limit = reach * (1.0 + 1e-9) + 1e-300;
    let mut out = Vec::new();
    for (i, x) in ba.iter().enumerate() {
        for (j, y) in bb.iter().enumerate() {
            let gap: f64 = (0..3)
                .map(|k| (y.0[k] - x.1[k]).max(x.0[k] - y.1[k]).max(0.0).powi(2))
                .sum();
            if gap.sqrt() <= limit {
                out.push([i, j]);
            }
        }
    }
    out
}

/// The exact distance between triangle `i` of `a` and `j` of `b` (to double precision).
fn exact_pair(a: &TriMesh, b: &TriMesh, [i, j]: [usize; 2]) -> f64 {
    approx(&triangle_distance_squared(
        &a.triangle(i).vertices(),
        &b.triangle(j).vertices(),
    ))
    .sqrt()
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
    let size = centroid_radius(&a).1 + centroid_radius(&b).1;
    let mut differences = 0;
    for (k, pose) in poses(&a, &b, n, 23).iter().enumerate() {
        let ours = distance(
            &ma,
            &Pose::identity(),
            &mb,
            pose,
            &DistanceRequest::default(),
        )
        .unwrap();
        let placed = TriMesh::new(
            b.vertices()
                .iter()
                .map(|p| pose.transform_point(p))
                .collect(),
            b.triangles().to_vec(),
        )
        .unwrap();
        let pb = parry::trimesh(&placed).unwrap();
        let theirs = parry3d_f64::query::distance(&identity, &pa, &identity, &pb)
            .unwrap()
            .distance;
        if (ours.distance - theirs).abs() <= 1e-7 * size {
            continue;
        }
        differences += 1;
        let magnitude = a
            .vertices()
            .iter()
            .chain(placed.vertices())
            .fold(0.0, |m: f64, p| m.max(p.coords.amax()));
        let promise = 1e-12 * (ours.distance + magnitude) * 1.001;
        let pair = exact_pair(&a, &placed, ours.pair.map(|x| x as usize));
        assert!(
            (pair - ours.distance).abs() <= promise,
            "{a_name} × {b_name} pose {k}: obbtree's pair {:?} is {pair:e} apart, it said {:e}",
            ours.pair,
            ours.distance
        );
        let exact = if theirs < ours.distance {
            pairs_within(&a, &placed, theirs + 1e-6 * size)
                .into_iter()
                .map(|p| exact_pair(&a, &placed, p))
                .fold(f64::INFINITY, f64::min)
        } else {
            pair
        };
        assert!(
            ours.distance <= exact + promise,
            "{a_name} × {b_name} pose {k}: obbtree {:e}, parry {theirs:e}, exact {exact:e}",
            ours.distance
        );
        println!(
            "{a_name} × {b_name} pose {k}: obbtree {:e}, parry {theirs:e}, exact {exact:e}: parry off by {:e}",
            ours.distance,
            theirs - exact
        );
    }
    println!("{a_name} × {b_name}: {n} poses, {differences} beyond parry's tolerance");
}

/// Poses per mesh: see the module docs.
fn pose_count(triangles: usize) -> usize {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<f64>().ok());
    let n = var("OBBTREE_PARRY_POSES").unwrap_or(f64::from(cases(50)));
    let budget = var("OBBTREE_PARRY_BUDGET").unwrap_or(4e4) / triangles as f64;
    n.min(budget.max(3.0)) as usize
}

#[test]
fn bundled_meshes() {
    for m in common::BUNDLED
        .iter()
        .filter(|m| !m.name.starts_with("dragon_res2"))
    {
        compare(m.name, m.name, pose_count(m.triangles));
    }
    compare(
        "kuka_iiwa/link_2.obj",
        "kuka_iiwa/link_3.obj",
        pose_count(1938),
    );
}
