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
use obbtree_bv::distance::tri_tri::exact_distance_squared;
use obbtree_bv::shape::{touches, touches_triangle, PlacedShape, Shape};
use obbtree_bv::{Point, Pose, TriMesh, Triangle};
use obbtree_query::error::Operand;
use obbtree_query::{
    collide, collide_many, distance, proximity_pairs, within_margin, CollisionRequest,
    DistanceRequest, Mode, Model, PosedOverlap, QueryError,
};
use rand::Rng;

/// The shapes the random cases draw from (a cylinder and a halfspace among them).
fn shapes(r: &mut impl Rng) -> Vec<Shape> {
    let s = |r: &mut dyn rand::RngCore| r.gen_range(0.05..0.6);
    vec![
        Shape::sphere(s(r)).unwrap(),
        Shape::capsule(s(r), s(r)).unwrap(),
        Shape::cylinder(s(r), s(r)).unwrap(),
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

/// A batch of a shape's poses names its first failing pose by position, however the pool
/// splits the batch: one bad pose early, and every pose of the batch's second half bad.
#[test]
fn many_poses_of_a_shape_name_the_first_bad_one() {
    let mut r = rng(9);
    let model: Model = Model::new(blob(1, 10, 12, 1.0, 0.2)).unwrap();
    let ball = Model::from_shape(Shape::capsule(0.2, 0.5).unwrap());
    let far = Pose::from_translation([1e120, 0.0, 0.0]).unwrap();
    let mut poses: Vec<Pose> = (0..400).map(|_| random_pose(&mut r, 1.5)).collect();
    poses[7] = far;
    poses[200..].fill(far);
    let request = CollisionRequest::new(Mode::All);
    let alone = collide(&model, &Pose::identity(), &ball, &far, &request).unwrap_err();
    for _ in 0..20 {
        let error = collide_many(&model, &Pose::identity(), &ball, &poses, &request).unwrap_err();
        assert_eq!(error.index, 7);
        assert_eq!(error.source, alone);
    }
}

/// The distance between `mesh` (at the identity) and a sphere or capsule at `pose`: the exact
/// distance from its placed segment (a zero-area triangle) to every triangle, less the radius,
/// or 0 when some triangle touches the solid.
fn brute_distance(mesh: &TriMesh, shape: &Shape, pose: &Pose) -> f64 {
    use num_traits::ToPrimitive;
    let placed = shape.place(pose).unwrap();
    let (a, b, r) = match &placed {
        PlacedShape::Sphere { center, radius } => (*center, *center, *radius),
        PlacedShape::Capsule { a, b, radius } => (*a, *b, *radius),
        _ => unreachable!("spheres and capsules only"),
    };
    let segment = Triangle::new(a, b, b);
    let closest = (0..mesh.triangles().len())
        .map(|t| {
            exact_distance_squared(&segment, &mesh.triangle(t))
                .to_f64()
                .unwrap()
                .sqrt()
        })
        .fold(f64::INFINITY, f64::min);
    (closest - r).max(0.0)
}

#[test]
fn distances_to_spheres_and_capsules_match_the_exact_core_distance() {
    let mut r = rng(21);
    let mesh = blob(4, 10, 12, 1.0, 0.3);
    let model: Model = Model::new(mesh.clone()).unwrap();
    let (mut apart, mut touching) = (0, 0);
    for _ in 0..common::cases(60) {
        let shape = if r.gen_bool(0.5) {
            Shape::sphere(r.gen_range(0.05..0.5)).unwrap()
        } else {
            Shape::capsule(r.gen_range(0.05..0.5), r.gen_range(0.0..1.0)).unwrap()
        };
        let pose = random_pose(&mut r, 2.0);
        let ball = Model::from_shape(shape.clone());
        let want = brute_distance(&mesh, &shape, &pose);
        let got = distance(
            &model,
            &Pose::identity(),
            &ball,
            &pose,
            &DistanceRequest::default(),
        )
        .unwrap();
        let scale = want + 4.0;
        assert!(
            (got.distance - want).abs() <= 1e-12 * scale,
            "{} vs {want}",
            got.distance
        );
        assert!(got.lower <= want && want <= got.upper, "{got:?} {want}");
        assert_eq!(got.pair[1], 0);
        assert_eq!(got.intersects, !brute(&mesh, &shape, &pose).is_empty());
        // The closest points are that far apart, and the swapped query agrees.
        let gap = (got.point_a - got.point_b).norm();
        assert!(
            (gap - got.distance).abs() <= 1e-9 * scale,
            "{gap} vs {}",
            got.distance
        );
        let swapped = distance(
            &ball,
            &pose,
            &model,
            &Pose::identity(),
            &DistanceRequest::default(),
        )
        .unwrap();
        assert!((swapped.distance - got.distance).abs() <= 1e-12 * scale);
        assert_eq!(swapped.pair[0], 0);
        if got.intersects {
            touching += 1
        } else {
            apart += 1
        }
    }
    assert!(
        apart > 0 && touching > 0,
        "{apart} apart, {touching} touching"
    );
}

#[test]
fn margins_to_spheres_and_boxes_are_exact_on_a_dyadic_grid() {
    // The box [0, 2]³ and a ball of radius 0.5 about (3, 1, 1): the gap is exactly 0.5.
    let model: Model = Model::new(cube(2, 1.0)).unwrap();
    let ball = Model::from_shape(Shape::sphere(0.5).unwrap());
    let at = Pose::from_translation([3.0, 1.0, 1.0]).unwrap();
    let id = Pose::identity();
    assert!(within_margin(&model, &id, &ball, &at, 0.5)
        .unwrap()
        .is_some());
    // Just below the gap, where margin + radius is a float (1 - 2^-53): exactly "no".
    let below = 0.5 - 2f64.powi(-53);
    assert!(within_margin(&model, &id, &ball, &at, below)
        .unwrap()
        .is_none());
    // One step below 0.5, margin + radius is not a float: rounded up, the documented "yes".
    assert!(within_margin(&model, &id, &ball, &at, 0.5f64.next_down())
        .unwrap()
        .is_some());
    let d = distance(&model, &id, &ball, &at, &DistanceRequest::default()).unwrap();
    assert_eq!(d.distance, 0.5);
    assert_eq!(d.point_b, Point::new(2.5, 1.0, 1.0));
    let near = proximity_pairs(&model, &id, &ball, &at, 0.5).unwrap();
    assert!(!near.is_empty() && near.iter().all(|&[_, f]| f == 0));
    // A unit box about the same point (a core of radius 0): its face x = 2.5 is 0.5 away.
    let block = Model::from_shape(Shape::cuboid([1.0, 1.0, 1.0]).unwrap());
    assert!(within_margin(&model, &id, &block, &at, 0.5)
        .unwrap()
        .is_some());
    assert!(within_margin(&model, &id, &block, &at, 0.5f64.next_down())
        .unwrap()
        .is_none());
    let d = distance(&model, &id, &block, &at, &DistanceRequest::default()).unwrap();
    assert_eq!(d.distance, 0.5);
    // Moved onto the face, both touch: distance 0.
    let on = Pose::from_translation([2.5, 1.0, 1.0]).unwrap();
    let d = distance(&model, &id, &ball, &on, &DistanceRequest::default()).unwrap();
    assert!(d.intersects && d.distance == 0.0);
}

#[test]
fn queries_that_need_a_mesh_name_the_shape() {
    let model: Model = Model::new(cube(1, 1.0)).unwrap();
    let ball: Model = Model::from_shape(Shape::sphere(1.0).unwrap());
    let at = Pose::identity();
    let err = obbtree_query::self_collide(&ball, &at, &CollisionRequest::default()).unwrap_err();
    assert!(matches!(
        err,
        QueryError::NotAMesh {
            which: Operand::Model,
            ..
        }
    ));
    assert!(err.to_string().contains("primitive shape"), "{err}");
    // The tracker measures shapes as `distance` does, and then tracks meshes again.
    let mut tracker = obbtree_query::DistanceTracker::new();
    let drum = Model::from_shape(Shape::cylinder(0.5, 1.0).unwrap());
    let request = DistanceRequest::default();
    for (shape, x) in [(&ball, 3.0), (&drum, 2.75), (&model, 1.5)] {
        let pose = Pose::from_translation([x, 0.25, 0.5]).unwrap();
        let want = distance(&model, &at, shape, &pose, &request).unwrap();
        let got = tracker
            .distance(&model, &at, shape, &pose, &request)
            .unwrap();
        assert_eq!(got.distance, want.distance);
        if shape.as_shape().is_some() {
            assert_eq!(got, want);
        }
    }
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

/// The exact height of `p` above the plane `n·x = d` (squared, with its sign): rational
/// arithmetic on the f64 inputs, sharing nothing with the engine's float computation.
fn exact_signed_height(n: &obbtree_bv::Vector, d: f64, p: &Point) -> f64 {
    use num_rational::BigRational;
    use num_traits::{FromPrimitive, Signed, ToPrimitive, Zero};
    let q = |x: f64| BigRational::from_f64(x).unwrap();
    let numerator = (0..3).fold(BigRational::zero(), |acc, i| acc + q(n[i]) * q(p[i])) - q(d);
    let length_squared = (0..3).fold(BigRational::zero(), |acc, i| acc + q(n[i]) * q(n[i]));
    let squared = (&numerator * &numerator / length_squared).to_f64().unwrap();
    squared
        .sqrt()
        .copysign(if numerator.is_negative() { -1.0 } else { 1.0 })
}

/// A halfspace's distance to a mesh is the exact height of the mesh's lowest vertex above the
/// placed plane, and to a sphere, capsule, box or cylinder that of the solid's lowest point;
/// 0 exactly when the collision test finds them touching. Each against rational arithmetic
/// (meshes, centres, segment ends, corners) or the cap rim's closed form (cylinders).
#[test]
fn distances_to_a_halfspace_are_the_lowest_points_height() {
    let mut r = rng(33);
    let mesh = blob(5, 8, 10, 1.0, 0.3);
    let model: Model = Model::new(mesh.clone()).unwrap();
    let id = Pose::identity();
    let (mut apart, mut touching) = (0, 0);
    for case in 0..common::cases(80) {
        let normal = [0; 3].map(|_| r.gen_range(-1.0..1.0));
        let floor = Shape::halfspace(normal, r.gen_range(-1.5..1.5)).unwrap();
        let pose = random_pose(&mut r, 1.0);
        let PlacedShape::Halfspace {
            normal: n,
            offset: d,
        } = floor.place(&pose).unwrap()
        else {
            unreachable!()
        };
        let plane = Model::from_shape(floor.clone());
        // Against the mesh (at the identity): its lowest vertex.
        let want = mesh
            .vertices()
            .iter()
            .map(|v| exact_signed_height(&n, d, v))
            .fold(f64::INFINITY, f64::min)
            .max(0.0);
        let got = distance(&plane, &pose, &model, &id, &DistanceRequest::default()).unwrap();
        check_height(&got, want, 4.0, case);
        assert_eq!(got.intersects, want == 0.0, "case {case}: {got:?}");
        let swapped = distance(&model, &id, &plane, &pose, &DistanceRequest::default()).unwrap();
        assert_eq!(swapped.distance, got.distance);
        assert_eq!(swapped.point_a, got.point_b);
        if got.intersects {
            touching += 1;
        } else {
            apart += 1;
            assert!(
                holds_least_height(&got, &n, d, mesh.vertices()),
                "case {case}: {got:?}"
            );
            assert_eq!(got.pair[0], 0);
            let t = mesh.triangles()[got.pair[1] as usize];
            assert!(t
                .iter()
                .any(|&i| mesh.vertices()[i as usize] == got.point_b));
        }
        // Against each solid, placed by its own pose: the lowest point.
        let at = random_pose(&mut r, 2.0);
        for solid in &shapes(&mut r)[..4] {
            let placed = solid.place(&at).unwrap();
            let want = lowest_height(&placed, &n, d).max(0.0);
            let got = distance(
                &plane,
                &pose,
                &Model::from_shape(solid.clone()),
                &at,
                &DistanceRequest::default(),
            )
            .unwrap();
            check_height(&got, want, 8.0, case);
            assert_eq!(
                got.intersects,
                touches(&floor.place(&pose).unwrap(), &placed)
            );
        }
    }
    assert!(
        apart > 0 && touching > 0,
        "{apart} apart, {touching} touching"
    );
}

/// The certified interval of a halfspace's distance holds the exact one at the unit scale and
/// at 10⁴, for planes through the origin (offset 0, so the rounding bound rests on the normal
/// and the coordinates alone) and for normals of length about 10⁻³.
#[test]
fn halfspace_intervals_hold_at_large_scales_and_zero_offsets() {
    let mut r = rng(34);
    let mut apart = 0;
    for scale in [1.0, 1e4] {
        // In the positive octant, so that planes through the origin with positive normals pass
        // below it.
        let round = blob(6, 8, 10, scale, 0.3);
        let shift = obbtree_bv::Vector::repeat(3.0 * scale);
        let lifted = round.vertices().iter().map(|v| v + shift).collect();
        let mesh = TriMesh::new(lifted, round.triangles().to_vec()).unwrap();
        let model: Model = Model::new(mesh.clone()).unwrap();
        let id = Pose::identity();
        for case in 0..common::cases(40) {
            let (normal, offset) = if case % 2 == 0 {
                ([0; 3].map(|_| r.gen_range(0.01..1.0)), 0.0)
            } else {
                let normal = [0; 3].map(|_| r.gen_range(-1.0..1.0));
                (normal, r.gen_range(-2.0..2.0) * scale)
            };
            // Every third normal short, so that the division by its length matters.
            let normal = normal.map(|c| if case % 3 == 0 { c * 1e-3 } else { c });
            let floor = Shape::halfspace(normal, offset).unwrap();
            let n = obbtree_bv::Vector::from(normal);
            let plane = Model::from_shape(floor);
            let got = distance(&plane, &id, &model, &id, &DistanceRequest::default()).unwrap();
            if !got.intersects {
                apart += 1;
                assert!(
                    holds_least_height(&got, &n, offset, mesh.vertices()),
                    "scale {scale}, case {case}: {got:?}"
                );
            }
        }
    }
    assert!(apart > 20, "{apart}");
}

/// Two halfspaces facing away, with normals of other lengths than 1: their distance is the
/// gap between the planes, and the closest points lie on the planes (each plane's point, and
/// its foot on the other), in either order.
#[test]
fn halfspaces_facing_away_are_the_gap_apart() {
    let id = Pose::identity();
    let cases = [
        // z <= 1 and z >= 3.
        (([0.0, 0.0, 2.0], 2.0), ([0.0, 0.0, -4.0], -12.0)),
        // 3x + 4y <= 5 and 3x + 4y >= 15: 1 and 3 from the origin along (0.6, 0.8).
        (([3.0, 4.0, 0.0], 5.0), ([-6.0, -8.0, 0.0], -30.0)),
    ];
    for ((na, da), (nb, db)) in cases {
        let below: Model = Model::from_shape(Shape::halfspace(na, da).unwrap());
        let above: Model = Model::from_shape(Shape::halfspace(nb, db).unwrap());
        let on = |p: &Point, n: [f64; 3], d: f64| {
            let n = obbtree_bv::Vector::from(n);
            (n.dot(&p.coords) - d).abs() <= 1e-12 * n.norm()
        };
        let got = distance(&below, &id, &above, &id, &DistanceRequest::default()).unwrap();
        assert!((got.distance - 2.0).abs() <= 1e-12, "{got:?}");
        assert!(got.lower <= 2.0 && 2.0 <= got.upper, "{got:?}");
        assert!(!got.intersects);
        assert!(
            on(&got.point_a, na, da) && on(&got.point_b, nb, db),
            "{got:?}"
        );
        assert!(
            ((got.point_a - got.point_b).norm() - 2.0).abs() <= 1e-12,
            "{got:?}"
        );
        let swapped = distance(&above, &id, &below, &id, &DistanceRequest::default()).unwrap();
        assert_eq!(swapped.distance, got.distance);
        assert!(
            on(&swapped.point_a, nb, db) && on(&swapped.point_b, na, da),
            "{swapped:?}"
        );
    }
}

/// Whether the certified interval holds the exact distance from the plane `n·x = d` to the
/// lowest of `points` (above it), decided in rational arithmetic: `lower² |n|² ≤ h² ≤ upper²
/// |n|²` for the least `h = n·v − d`. The float distance is rarely exact here (`|n|` is a square
/// root), so an interval without its rounding bound fails.
fn holds_least_height(
    got: &obbtree_query::DistanceResult,
    n: &obbtree_bv::Vector,
    d: f64,
    points: &[Point],
) -> bool {
    use num_rational::BigRational;
    use num_traits::{FromPrimitive, Signed, Zero};
    let q = |x: f64| BigRational::from_f64(x).unwrap();
    let height = |v: &Point| (0..3).fold(-q(d), |acc, i| acc + q(n[i]) * q(v[i]));
    let least = points.iter().map(height).min().unwrap();
    let length_squared = (0..3).fold(BigRational::zero(), |acc, i| acc + q(n[i]) * q(n[i]));
    let (lower, upper) = (q(got.lower), q(got.upper));
    let squared = &least * &least;
    least.is_positive()
        && &lower * &lower * &length_squared <= squared
        && squared <= &upper * &upper * &length_squared
}

/// The height of a placed solid's lowest point above the plane `n·x = d`.
fn lowest_height(placed: &PlacedShape, n: &obbtree_bv::Vector, d: f64) -> f64 {
    let unit = n / n.norm();
    match placed {
        PlacedShape::Sphere { center, radius } => exact_signed_height(n, d, center) - radius,
        PlacedShape::Capsule { a, b, radius } => {
            exact_signed_height(n, d, a).min(exact_signed_height(n, d, b)) - radius
        }
        PlacedShape::Cylinder { a, b, radius } => {
            let axis = (b - a).normalize();
            let tilt = (1.0 - unit.dot(&axis).powi(2)).max(0.0).sqrt();
            exact_signed_height(n, d, a).min(exact_signed_height(n, d, b)) - radius * tilt
        }
        PlacedShape::Polytope(p) => p
            .vertices()
            .iter()
            .map(|v| exact_signed_height(n, d, v))
            .fold(f64::INFINITY, f64::min),
        PlacedShape::Halfspace { .. } => unreachable!("not drawn"),
    }
}

/// The answer is `want` within the distance guarantee (`scale` standing for `L`), inside its
/// certified interval, with closest points that far apart.
fn check_height(got: &obbtree_query::DistanceResult, want: f64, scale: f64, case: u32) {
    let bound = 1e-12 * (want + scale);
    assert!(
        (got.distance - want).abs() <= bound,
        "case {case}: {} vs {want}",
        got.distance
    );
    assert!(
        got.lower - bound <= want && want <= got.upper + bound,
        "case {case}: {got:?} {want}"
    );
    let gap = (got.point_a - got.point_b).norm();
    assert!(
        (gap - got.distance).abs() <= 1e-9 * (want + scale),
        "case {case}"
    );
}

/// Margins against a halfspace are exact: a vertex, a sphere's surface or a box's corner
/// exactly `m` above the plane (normals of any length) is within `m`, and not within the float
/// just below it.
#[test]
fn halfspace_margins_are_exact_at_the_boundary() {
    let id = Pose::identity();
    // z <= 0 written with normal (0, 0, 2); the box [0, 4]³ lifted by 0.5 has its bottom face
    // 0.5 above: its bottom triangles are the ones within 0.5.
    let floor = Model::from_shape(Shape::halfspace([0.0, 0.0, 2.0], 0.0).unwrap());
    let mesh = cube(4, 1.0);
    let model: Model = Model::new(mesh.clone()).unwrap();
    let lifted = Pose::from_translation([0.0, 0.0, 0.5]).unwrap();
    let bottom: Vec<[u32; 2]> = (0..mesh.triangles().len() as u32)
        .filter(|&t| {
            mesh.triangle(t as usize)
                .vertices()
                .iter()
                .any(|p| p.z == 0.0)
        })
        .map(|t| [t, 0])
        .collect();
    assert_eq!(
        proximity_pairs(&model, &lifted, &floor, &id, 0.5).unwrap(),
        bottom
    );
    assert!(within_margin(&model, &lifted, &floor, &id, 0.5)
        .unwrap()
        .is_some());
    let below = 0.5f64.next_down();
    assert!(proximity_pairs(&model, &lifted, &floor, &id, below)
        .unwrap()
        .is_empty());
    assert!(within_margin(&floor, &id, &model, &lifted, below)
        .unwrap()
        .is_none());
    // A long normal and a wide margin (m·|n| = 10 well above m + |n|): z <= 0 written with
    // normal (0, 0, 4), the box lifted by 2.5.
    let long = Model::from_shape(Shape::halfspace([0.0, 0.0, 4.0], 0.0).unwrap());
    let high = Pose::from_translation([0.0, 0.0, 2.5]).unwrap();
    assert_eq!(
        proximity_pairs(&model, &high, &long, &id, 2.5).unwrap(),
        bottom
    );
    assert!(
        proximity_pairs(&model, &high, &long, &id, 2.5f64.next_down())
            .unwrap()
            .is_empty()
    );
    // A tilted plane 3x + 4y <= 0 (|n| = 5): the vertex (0.5, 0.25, 0) is at height 0.5.
    let tilted = Model::from_shape(Shape::halfspace([3.0, 4.0, 0.0], 0.0).unwrap());
    let corner = Pose::from_translation([0.5, 0.25, 0.0]).unwrap();
    assert!(within_margin(&model, &corner, &tilted, &id, 0.5)
        .unwrap()
        .is_some());
    assert!(within_margin(&model, &corner, &tilted, &id, below)
        .unwrap()
        .is_none());
    // A unit ball 1.5 above z <= 0, a unit box whose lowest corner is 0.5 above, a capsule
    // whose lower end is 1.25 above with radius 0.75. Just below 0.5: the float below for the
    // box; for the ball and the capsule, a margin whose sum with the radius is a float
    // (otherwise the sum is rounded up, the documented "yes").
    let ball = Model::from_shape(Shape::sphere(1.0).unwrap());
    let block = Model::from_shape(Shape::cuboid([1.0, 1.0, 1.0]).unwrap());
    let pill = Model::from_shape(Shape::capsule(0.75, 1.0).unwrap());
    let swept_below = 0.5 - 2f64.powi(-40);
    for (shape, z, below) in [
        (&ball, 1.5, swept_below),
        (&block, 1.0, below),
        (&pill, 1.75, swept_below),
    ] {
        let pose = Pose::from_translation([0.25, -0.5, z]).unwrap();
        assert_eq!(
            proximity_pairs(shape, &pose, &floor, &id, 0.5).unwrap(),
            [[0, 0]]
        );
        assert!(within_margin(&floor, &id, shape, &pose, below)
            .unwrap()
            .is_none());
    }
    // Two parallel halfspaces facing away, 0.5 apart.
    let ceiling = Model::from_shape(Shape::halfspace([0.0, 0.0, -1.0], -0.5).unwrap());
    assert!(within_margin(&floor, &id, &ceiling, &id, 0.5)
        .unwrap()
        .is_some());
    assert!(within_margin(&floor, &id, &ceiling, &id, 0.25)
        .unwrap()
        .is_none());
}
