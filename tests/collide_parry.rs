//! obbtree's collision against parry3d-f64 (its BVH `leaf_pairs` plus its triangle
//! `intersection_test`, which is how parry enumerates intersecting pairs) on bundled meshes,
//! poses about half in contact (B's centroid near a random vertex of A, or anywhere where the
//! bounding spheres overlap). B's vertices are placed by obbtree's placement and handed to
//! parry at the identity, so both see the same coordinates and only the triangle predicates can
//! differ. Every differing pair is printed and must be a near-touching pair: parry's GJK works
//! to a tolerance, the exact predicate does not; the test checks that the two triangles are
//! within a small distance of each other (by parry's distance query), so no difference is
//! unexplained.

mod common;
use obbtree::compare as parry;

use common::{asset, cases};
use nalgebra::{Rotation3, Translation3, Vector3};
use obbtree::bv::{Obb, Point, TriMesh};
use obbtree::load::load_mesh;
use obbtree::query::collide::{collide, place, Pose};
use obbtree::query::{CollisionRequest, Mode, Model};
use obbtree::tree::Bvh;
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
            Pose::from_parts(Translation3::from(target - rot * cb), rot)
        })
        .collect()
}

fn compare(a_name: &str, b_name: &str, n: usize) {
    let (a, b) = (
        load_mesh(&asset(a_name)).unwrap(),
        load_mesh(&asset(b_name)).unwrap(),
    );
    let (ta, tb) = (
        Bvh::<Obb>::build(&a, &Default::default()).unwrap(),
        Bvh::<Obb>::build(&b, &Default::default()).unwrap(),
    );
    let (ma, mb) = (Model::new(&a, &ta).unwrap(), Model::new(&b, &tb).unwrap());
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
        .pairs;
        let placed = TriMesh::new(
            b.vertices().iter().map(|p| place(pose, p)).collect(),
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
            println!(
                "{a_name} × {b_name} pose {k}: pair {pair:?} obbtree {} parry {} (distance {d:e})",
                ours.contains(pair),
                theirs.contains(pair)
            );
            assert!(d <= 1e-9 * size, "unexplained difference: distance {d:e}");
            explained += 1;
        }
    }
    println!(
        "{a_name} × {b_name}: {n} poses, {hits} in contact, {explained} near-touching differences"
    );
    assert!(hits * 4 >= n, "too few poses in contact: {hits} of {n}");
}

#[test]
fn bunny_bunny() {
    compare("bunny.obj", "bunny.obj", cases(100) as usize);
}

#[test]
fn kuka_links() {
    compare(
        "kuka_iiwa/link_2.obj",
        "kuka_iiwa/link_3.obj",
        cases(100) as usize,
    );
}

#[test]
fn duck_duck() {
    compare("duck/duck.obj", "duck/duck.obj", cases(100) as usize);
}
