//! Self-collision of the merged KUKA iiwa arm (its eight links in one mesh, posed by
//! `assets/kuka_iiwa/model.urdf` at random joint angles within the joint limits), against an
//! exact oracle: a sweep over the triangles' bounding boxes (boxes compared exactly, so the sweep
//! drops only pairs that cannot touch) and the exact predicate on what is left (`common::sweep`).
//! The arm has 14,758 triangles, too many for the all-pairs oracle at every pose. The sweep's
//! predicate is the engine's; on a sample of its candidate pairs (boxes meeting: the near misses
//! and the contacts) the independent big-integer separating-axis oracle of the bv tests
//! (`oracles::sat`) must give the same answers.

mod common;
mod oracles;

use common::{asset, cases};
use obbtree::bv::{Kdop18, Obb, Point, Pose, Sphere, TriMesh};
use obbtree::urdf::Robot;
use obbtree::{self_collide, CollisionRequest, Mode, Model, PosedOverlap};
use rand::{Rng, SeedableRng};

/// The arm's eight link meshes posed by the URDF at joint values `q`, in one mesh (vertex
/// indices offset per link).
fn arm(robot: &Robot, q: &[f64]) -> TriMesh {
    let (mut vertices, mut triangles) = (Vec::<Point>::new(), Vec::<[u32; 3]>::new());
    for (link, k, pose) in robot.mesh_poses(q).unwrap() {
        let mesh = &robot.links[link].meshes[k].mesh;
        let offset = vertices.len() as u32;
        vertices.extend(mesh.vertices().iter().map(|p| pose.transform_point(p)));
        triangles.extend(mesh.triangles().iter().map(|t| t.map(|i| i + offset)));
    }
    TriMesh::new(vertices, triangles).unwrap()
}

fn check<V: PosedOverlap>(mesh: &TriMesh, want: &[[u32; 2]]) {
    let model = Model::<V>::new(mesh.clone()).unwrap();
    let all = self_collide(&model, &Pose::identity(), &CollisionRequest::new(Mode::All)).unwrap();
    assert_eq!(all.pairs, want, "{}", std::any::type_name::<V>());
    let first = self_collide(
        &model,
        &Pose::identity(),
        &CollisionRequest::new(Mode::First),
    )
    .unwrap();
    assert_eq!(first.intersects, !want.is_empty());
    assert!(first.pairs.iter().all(|p| want.contains(p)));
}

/// Four arm poses in CI (`OBBTREE_PROPTEST_CASES` scales them), every volume type.
#[test]
fn kuka_arm_self_collision_matches_oracle() {
    let robot = Robot::from_file(asset("kuka_iiwa/model.urdf")).unwrap();
    let mut r = rand_pcg::Pcg64::seed_from_u64(11);
    let n = cases(4);
    for k in 0..n {
        let q: Vec<f64> = robot
            .moving_joints()
            .map(|j| {
                let (lo, hi) = j.limits.unwrap();
                r.gen_range(lo..=hi)
            })
            .collect();
        let mesh = arm(&robot, &q);
        let want = common::sweep::sweep_self(&mesh);
        // Neighbouring links overlap at their joints, so every pose has pairs; the no-contact
        // answer is covered by the link pairs of tests/collide_gears.rs and collide_parry.rs.
        assert!(!want.is_empty(), "pose {k} ({q:?}): no intersecting pair");
        sweep_agrees_with_exact_oracle(&mesh, &want, &mut r, k as usize);
        check::<Obb>(&mesh, &want);
        check::<obbtree::bv::Aabb>(&mesh, &want);
        check::<Kdop18>(&mesh, &want);
        check::<Sphere>(&mesh, &want);
    }
}

/// The sweep's decisions on 1,000 of its candidate pairs (bounding boxes meeting) and on every
/// pair it reports, against the independent exact oracle.
fn sweep_agrees_with_exact_oracle(mesh: &TriMesh, want: &[[u32; 2]], r: &mut impl Rng, k: usize) {
    let tris = common::sweep::triangles(mesh);
    let candidates =
        common::sweep::candidates(&tris, |i, j| common::sweep::share_no_vertex(mesh, i, j));
    let sample = (0..1000).map(|_| candidates[r.gen_range(0..candidates.len())]);
    let mut apart = 0;
    for pair in sample.chain(want.iter().copied()) {
        let [i, j] = pair.map(|t| tris[t as usize].vertices());
        let exact = oracles::sat::triangles_meet(&i, &j);
        assert_eq!(exact, want.contains(&pair), "pose {k}: pair {pair:?}");
        apart += usize::from(!exact);
    }
    // Most candidates are near misses: the sample tests the predicate's "apart" too.
    assert!(
        apart >= 100,
        "pose {k}: only {apart} sampled candidates apart"
    );
}
