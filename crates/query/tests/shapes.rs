//! Collision of primitive shapes with meshes and with each other, through the query crate.
//!
//! The per-pair yes/no ([`touches_triangle`], [`touches`]) is checked against rational oracles
//! in the bv crate's own tests; what these tests check is everything around it: that the
//! shape is placed in the mesh's frame as documented (`pose_mesh⁻¹ · pose_shape`), that the
//! tree search with the shape's box never drops a touching triangle (every triangle through
//! the per-pair test is the oracle here), that pairs are `[triangle, 0]` or `[0, triangle]`,
//! that `First` and pair limits behave, and that queries which need a mesh refuse a shape by
//! name. Every volume type is run.

mod common;

use common::{blob, cube, for_each_volume, random_pose, rng, with_models, Models};
use obbtree_bv::shape::{touches, touches_triangle, Shape};
use obbtree_bv::{Point, Pose, TriMesh, Triangle};
use obbtree_query::error::Operand;
use obbtree_query::{
    cast_ray, collide, collide_many, distance, CollisionRequest, DistanceRequest, Mode, Model,
    PosedOverlap, QueryError,
};
use rand::Rng;

/// The shapes the random cases draw from (a halfspace among them).
fn shapes(r: &mut impl Rng) -> Vec<Shape> {
    let s = |r: &mut dyn rand::RngCore| r.gen_range(0.05..0.6);
    vec![
        Shape::sphere(s(r)).unwrap(),
        Shape::capsule(s(r), s(r)).unwrap(),
        Shape::cuboid([s(r), s(r), s(r)]).unwrap(),
        Shape::convex(&[
            Point::new(0.0, 0.0, 0.0),
            Point::new(s(r), 0.0, 0.0),
            Point::new(0.0, s(r), 0.0),
            Point::new(0.0, 0.0, s(r)),
            Point::new(s(r), s(r), s(r)),
        ])
        .unwrap(),
        Shape::halfspace([s(r) - 0.3, s(r) - 0.3, 1.0], s(r) - 0.3).unwrap(),
    ]
}

/// Every triangle of `mesh` that touches `shape` placed by `pose` (in the mesh's frame).
fn brute(mesh: &TriMesh, shape: &Shape, pose: &Pose) -> Vec<u32> {
    let placed = shape.place(pose).unwrap();
    (0..mesh.triangles().len())
        .filter(|&t| touches_triangle(&placed, &mesh.triangle(t)))
        .map(|t| t as u32)
        .collect()
}

/// `collide` both ways round, `All`, `First` and a limit of 2, against [`brute`].
fn check_pair<V: PosedOverlap>(
    mesh: &Model<V>,
    pose_m: &Pose,
    shape: &Shape,
    pose_s: &Pose,
) -> bool {
    let triangles = brute(mesh.mesh().unwrap(), shape, &pose_m.inv_mul(pose_s));
    let model = Model::<V>::from_shape(shape.clone());
    let all = CollisionRequest::new(Mode::All);
    let got = collide(mesh, pose_m, &model, pose_s, &all).unwrap();
    let want: Vec<[u32; 2]> = triangles.iter().map(|&t| [t, 0]).collect();
    assert_eq!(got.pairs, want, "{shape:?} at {pose_s:?}");
    assert_eq!(got.intersects, !want.is_empty());
    let swapped = collide(&model, pose_s, mesh, pose_m, &all).unwrap();
    let want_swapped: Vec<[u32; 2]> = triangles.iter().map(|&t| [0, t]).collect();
    // The swapped query places the shape by `pose_m⁻¹ · pose_s` too.
    assert_eq!(swapped.pairs, want_swapped);
    let first = collide(
        mesh,
        pose_m,
        &model,
        pose_s,
        &CollisionRequest::new(Mode::First),
    )
    .unwrap();
    assert_eq!(first.intersects, !want.is_empty());
    assert!(first.pairs.len() <= 1 && first.pairs.iter().all(|p| want.contains(p)));
    let limited = collide(
        mesh,
        pose_m,
        &model,
        pose_s,
        &CollisionRequest::new(Mode::All).with_max_pairs(2),
    )
    .unwrap();
    assert_eq!(limited.pairs.len(), want.len().min(2));
    // "Truncated" says the limit stopped the search: certainly so when more pairs touch.
    assert!(limited.truncated || want.len() <= 2);
    !want.is_empty()
}

#[test]
fn random_shapes_against_meshes_match_every_triangle() {
    let mut r = rng(11);
    let mesh = blob(3, 12, 16, 1.0, 0.3);
    let mut touching = 0;
    let mut total = 0;
    for_each_volume(&mesh, &mesh, |_, models| {
        with_models!(models, |ma, _mb| {
            for _ in 0..common::cases(40) {
                let pose_m = random_pose(&mut r, 0.5);
                for shape in shapes(&mut r) {
                    let pose_s = random_pose(&mut r, 1.5);
                    touching += usize::from(check_pair(ma, &pose_m, &shape, &pose_s));
                    total += 1;
                }
            }
        })
    });
    // The poses put roughly half the shapes against the blob's surface.
    assert!(
        touching * 5 > total && touching * 5 < total * 4,
        "{touching} of {total}"
    );
}

#[test]
fn a_mesh_wholly_inside_a_sphere_touches_it_by_every_triangle() {
    // The box [0, 0.75]³; the unit ball about its centre holds it (corners at 0.65).
    let mesh = cube(3, 0.25);
    let model: Model = Model::new(mesh.clone()).unwrap();
    let ball = Model::from_shape(Shape::sphere(1.0).unwrap());
    let centre = Pose::from_translation([0.375; 3]).unwrap();
    let got = collide(
        &model,
        &Pose::identity(),
        &ball,
        &centre,
        &CollisionRequest::default(),
    )
    .unwrap();
    assert_eq!(got.pairs.len(), mesh.triangles().len());
    // Moved away, nothing touches.
    let away = Pose::from_translation([2.0, 0.375, 0.375]).unwrap();
    assert!(
        !collide(
            &model,
            &Pose::identity(),
            &ball,
            &away,
            &CollisionRequest::default()
        )
        .unwrap()
        .intersects
    );
}

#[test]
fn a_sphere_touching_a_face_exactly_counts_and_one_step_further_does_not() {
    // The box [0, 2]³ (times the scale) has the face x = 2; a ball of radius 0.5 centred at
    // (2.5, 1, 1) touches it at one point; at the next float above 2.5, it does not.
    for scale in [1.0, 2f64.powi(-40), 2f64.powi(40)] {
        let mesh = cube(2, scale);
        let model: Model = Model::new(mesh).unwrap();
        let ball = Model::from_shape(Shape::sphere(0.5 * scale).unwrap());
        let at = |x: f64| Pose::from_translation([x, scale, scale]).unwrap();
        let hit = collide(
            &model,
            &Pose::identity(),
            &ball,
            &at(2.5 * scale),
            &CollisionRequest::default(),
        );
        assert!(hit.unwrap().intersects, "scale {scale}");
        let miss = collide(
            &model,
            &Pose::identity(),
            &ball,
            &at((2.5 * scale).next_up()),
            &CollisionRequest::default(),
        );
        assert!(!miss.unwrap().intersects, "scale {scale}");
    }
}

#[test]
fn two_shapes_collide_as_their_placed_solids_touch() {
    let mut r = rng(5);
    let (mut yes, mut no) = (0, 0);
    for _ in 0..common::cases(200) {
        let (sa, sb) = (shapes(&mut r), shapes(&mut r));
        for (a, b) in sa.iter().zip(sb.iter().rev()) {
            let (pa, pb) = (random_pose(&mut r, 0.6), random_pose(&mut r, 0.6));
            let want = touches(&a.place(&pa).unwrap(), &b.place(&pb).unwrap());
            let (ma, mb) = (
                Model::<obbtree_bv::Obb>::from_shape(a.clone()),
                Model::from_shape(b.clone()),
            );
            let got = collide(&ma, &pa, &mb, &pb, &CollisionRequest::default()).unwrap();
            assert_eq!(got.intersects, want);
            assert_eq!(got.pairs, if want { vec![[0, 0]] } else { vec![] });
            if want {
                yes += 1
            } else {
                no += 1
            }
        }
    }
    assert!(yes > 0 && no > 0);
}

#[test]
fn many_poses_of_a_shape_match_one_at_a_time() {
    let mut r = rng(8);
    let model: Model = Model::new(blob(1, 10, 12, 1.0, 0.2)).unwrap();
    let ball = Model::from_shape(Shape::capsule(0.2, 0.5).unwrap());
    let poses: Vec<Pose> = (0..50).map(|_| random_pose(&mut r, 1.5)).collect();
    let request = CollisionRequest::new(Mode::All);
    let many = collide_many(&model, &Pose::identity(), &ball, &poses, &request).unwrap();
    for (pose, got) in poses.iter().zip(&many) {
        assert_eq!(
            got,
            &collide(&model, &Pose::identity(), &ball, pose, &request).unwrap()
        );
    }
}

#[test]
fn queries_that_need_a_mesh_name_the_shape() {
    let model: Model = Model::new(cube(1, 1.0)).unwrap();
    let ball = Model::from_shape(Shape::sphere(1.0).unwrap());
    let at = Pose::identity();
    let err = distance(&model, &at, &ball, &at, &DistanceRequest::default()).unwrap_err();
    assert!(
        matches!(
            err,
            QueryError::NotAMesh {
                which: Operand::B,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("primitive shape"), "{err}");
    let ray = obbtree_bv::Ray::new(Point::origin(), obbtree_bv::Vector::x());
    let err = cast_ray(&ball, &at, &ray, 1.0).unwrap_err();
    assert!(matches!(
        err,
        QueryError::NotAMesh {
            which: Operand::Model,
            ..
        }
    ));
}

#[test]
fn a_shape_placed_out_of_the_exact_range_is_refused() {
    let model: Model = Model::new(cube(1, 1.0)).unwrap();
    let ball = Model::from_shape(Shape::sphere(1.0).unwrap());
    let far = Pose::from_translation([1e200, 0.0, 0.0]).unwrap();
    let err = collide(
        &model,
        &Pose::identity(),
        &ball,
        &far,
        &CollisionRequest::default(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            QueryError::ShapePlacement {
                which: Operand::B,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_halfspace_touches_exactly_the_triangles_that_reach_below_its_plane() {
    let mesh = cube(4, 1.0);
    let model: Model = Model::new(mesh.clone()).unwrap();
    // The box [0, 4]³: z <= 0 holds exactly the bottom face's triangles (touching counts), and
    // the side faces' triangles that have a vertex on z = 0.
    let floor = Shape::halfspace([0.0, 0.0, 1.0], 0.0).unwrap();
    let want: Vec<u32> = (0..mesh.triangles().len() as u32)
        .filter(|&t| {
            let Triangle { a, b, c } = mesh.triangle(t as usize);
            [a, b, c].iter().any(|p| p.z <= 0.0)
        })
        .collect();
    let got = collide(
        &model,
        &Pose::identity(),
        &Model::from_shape(floor),
        &Pose::identity(),
        &CollisionRequest::new(Mode::All),
    )
    .unwrap();
    assert_eq!(got.pairs, want.iter().map(|&t| [t, 0]).collect::<Vec<_>>());
}
