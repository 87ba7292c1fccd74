//! Containment with shapes: a point in a shape (`contains_point`), and where a mesh and a shape
//! lie (`CollisionRequest::containment`).
//!
//! Oracles share no code with the engine: points and shapes on a dyadic grid, so that each
//! test is an exact comparison in integers (coordinates times 2^40, squared in `i128`), with
//! points exactly on the surface (inside) and one grid step outside (outside).

mod common;

use common::cube;
use obbtree_bv::shape::Shape;
use obbtree_bv::{Point, Pose, TriMesh, Vector};
use obbtree_query::{collide, contains_point, CollisionRequest, Containment, Mode, Model};
use proptest::prelude::*;

/// One grid step: small enough to sit just outside a surface, exact in every sum used here.
const STEP: f64 = 1.0 / (1u64 << 40) as f64;

/// `x` as an integer count of grid steps (exact for the grid's values).
fn steps(x: f64) -> i128 {
    let n = x / STEP;
    assert_eq!(n.fract(), 0.0, "{x} is not on the grid");
    n as i128
}

/// `|p − c|² <= r²` in grid steps.
fn in_ball(p: [f64; 3], c: [f64; 3], r: f64) -> bool {
    let d2: i128 = (0..3).map(|i| (steps(p[i]) - steps(c[i])).pow(2)).sum();
    d2 <= steps(r).pow(2)
}

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::from_translation([x, y, z]).unwrap()
}

fn inside(shape: &Shape, pose: &Pose, p: [f64; 3]) -> bool {
    let model: Model = Model::from_shape(shape.clone());
    contains_point(&model, pose, &Point::from(p)).unwrap()
}

#[test]
fn points_on_each_shapes_surface_are_inside_and_one_step_out_are_not() {
    let pose = at(1.0, -2.0, 0.5);
    let moved = |p: [f64; 3]| [p[0] + 1.0, p[1] - 2.0, p[2] + 0.5];
    // Radius 5, and the 3-4-5 triangle puts a grid point exactly on each curved surface.
    let sphere = Shape::sphere(5.0).unwrap();
    let capsule = Shape::capsule(5.0, 4.0).unwrap();
    let cylinder = Shape::cylinder(5.0, 4.0).unwrap();
    let cuboid = Shape::cuboid([2.0, 4.0, 6.0]).unwrap();
    let cases: [(&Shape, [f64; 3], [f64; 3]); 9] = [
        (&sphere, [3.0, 4.0, 0.0], [3.0, 4.0 + STEP, 0.0]),
        (&sphere, [0.0, 0.0, -5.0], [0.0, 0.0, -5.0 - STEP]),
        // The capsule's side at its segment's end, and the pole of its cap.
        (&capsule, [3.0, 4.0, 2.0], [3.0, 4.0, 2.0 + STEP]),
        (&capsule, [0.0, 0.0, 7.0], [0.0, 0.0, 7.0 + STEP]),
        // The cylinder's rim, and the centre of a cap.
        (&cylinder, [3.0, 4.0, 2.0], [3.0 + STEP, 4.0, 2.0]),
        (&cylinder, [0.0, 0.0, -2.0], [0.0, 0.0, -2.0 - STEP]),
        (&cylinder, [-4.0, 3.0, 0.0], [-4.0, 3.0 + STEP, 0.0]),
        // The box's corner and the middle of a face.
        (&cuboid, [1.0, 2.0, 3.0], [1.0 + STEP, 2.0, 3.0]),
        (&cuboid, [0.0, -2.0, 0.0], [0.0, -2.0 - STEP, 0.0]),
    ];
    for (shape, on, out) in cases {
        assert!(inside(shape, &pose, moved(on)), "{shape:?} at {on:?}");
        assert!(!inside(shape, &pose, moved(out)), "{shape:?} at {out:?}");
    }
}

#[test]
fn a_halfspace_holds_its_plane_and_what_lies_below() {
    // 2z <= 2: the plane z = 1, whatever the normal's length.
    let half = Shape::halfspace([0.0, 0.0, 2.0], 2.0).unwrap();
    let id = Pose::identity();
    assert!(inside(&half, &id, [7.0, -3.0, 1.0]));
    assert!(inside(&half, &id, [7.0, -3.0, -1e30]));
    assert!(!inside(&half, &id, [7.0, -3.0, 1.0 + STEP]));
}

#[test]
fn a_convex_hull_holds_its_faces_and_not_beyond() {
    let tetrahedron = Shape::convex(&[
        Point::new(0.0, 0.0, 0.0),
        Point::new(4.0, 0.0, 0.0),
        Point::new(0.0, 4.0, 0.0),
        Point::new(0.0, 0.0, 4.0),
    ])
    .unwrap();
    let id = Pose::identity();
    // On the slanted face x + y + z = 4, inside, and a step beyond it.
    assert!(inside(&tetrahedron, &id, [1.0, 1.0, 2.0]));
    assert!(inside(&tetrahedron, &id, [0.5, 0.5, 0.5]));
    assert!(!inside(&tetrahedron, &id, [1.0, 1.0, 2.0 + STEP]));
    assert!(!inside(&tetrahedron, &id, [-STEP, 1.0, 1.0]));
}

#[test]
fn a_point_out_of_range_is_refused_for_a_shape_too() {
    let model: Model = Model::from_shape(Shape::sphere(1.0).unwrap());
    let far = Point::new(f64::NAN, 0.0, 0.0);
    assert!(contains_point(&model, &Pose::identity(), &far).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Random grid points against a sphere and a box at random grid positions: the exact
    /// integer oracle decides.
    #[test]
    fn random_grid_points_match_the_integer_oracle(
        c in prop::array::uniform3(-64i32..64),
        r in 1i32..40,
        p in prop::array::uniform3(-128i32..128),
        h in prop::array::uniform3(1i32..40),
    ) {
        let grid = |k: i32| f64::from(k) / 8.0;
        let (c, p) = (c.map(grid), p.map(grid));
        let pose = at(c[0], c[1], c[2]);
        let sphere = Shape::sphere(grid(r)).unwrap();
        prop_assert_eq!(inside(&sphere, &pose, p), in_ball(p, c, grid(r)));
        let half = h.map(grid);
        let cuboid = Shape::cuboid(Vector::from(half.map(|x| 2.0 * x))).unwrap();
        let in_box = (0..3).all(|i| (steps(p[i]) - steps(c[i])).abs() <= steps(half[i]));
        prop_assert_eq!(inside(&cuboid, &pose, p), in_box);
    }
}

/// The containment a collision query with `containment` reports for `a` and `b`.
fn containment(a: &Model, pose_a: &Pose, b: &Model, pose_b: &Pose) -> (bool, Containment) {
    let request = CollisionRequest {
        containment: true,
        ..CollisionRequest::new(Mode::First)
    };
    let result = collide(a, pose_a, b, pose_b, &request).unwrap();
    (result.intersects, result.contained)
}

/// A closed cube of side 4 from the origin, and the same cube with one face's triangles gone.
fn cubes() -> (Model, Model) {
    let closed = cube(1, 4.0);
    assert!(closed.is_closed());
    let kept: Vec<[u32; 3]> = (0..closed.triangles().len())
        .filter(|&t| {
            let tri = closed.triangle(t);
            !tri.vertices().iter().all(|v| v.z == 0.0)
        })
        .map(|t| closed.triangles()[t])
        .collect();
    let open = TriMesh::new(closed.vertices().to_vec(), kept).unwrap();
    assert!(!open.is_closed());
    (Model::new(closed).unwrap(), Model::new(open).unwrap())
}

#[test]
fn a_ball_inside_a_closed_cube_is_contained_and_one_outside_is_disjoint() {
    let (closed, open) = cubes();
    let ball: Model = Model::from_shape(Shape::sphere(1.0).unwrap());
    let id = Pose::identity();
    let centre = at(2.0, 2.0, 2.0);
    assert_eq!(
        containment(&closed, &id, &ball, &centre),
        (false, Containment::BInA)
    );
    assert_eq!(
        containment(&ball, &centre, &closed, &id),
        (false, Containment::AInB)
    );
    let beside = at(6.0, 2.0, 2.0);
    assert_eq!(
        containment(&closed, &id, &ball, &beside),
        (false, Containment::Disjoint)
    );
    assert_eq!(
        containment(&open, &id, &ball, &centre),
        (false, Containment::OpenMesh)
    );
    // Touching a face from inside: the surfaces meet.
    let touching = at(3.0, 2.0, 2.0);
    assert_eq!(
        containment(&closed, &id, &ball, &touching),
        (true, Containment::SurfacesIntersect)
    );
}

#[test]
fn a_cube_inside_a_ball_or_a_halfspace_lies_in_it() {
    let (closed, open) = cubes();
    let id = Pose::identity();
    // The cube's corners are 2·√3 < 4 from its centre.
    let ball: Model = Model::from_shape(Shape::sphere(4.0).unwrap());
    let centre = at(2.0, 2.0, 2.0);
    assert_eq!(
        containment(&closed, &id, &ball, &centre),
        (true, Containment::AInB)
    );
    assert_eq!(
        containment(&ball, &centre, &closed, &id),
        (true, Containment::BInA)
    );
    assert_eq!(
        containment(&open, &id, &ball, &centre),
        (true, Containment::OpenMesh)
    );
    // z <= 4 holds the cube, its top face on the plane; z <= 3 cuts it.
    let below = |offset: f64| Model::from_shape(Shape::halfspace([0.0, 0.0, 1.0], offset).unwrap());
    assert_eq!(
        containment(&closed, &id, &below(4.0), &id),
        (true, Containment::AInB)
    );
    assert_eq!(
        containment(&closed, &id, &below(3.0), &id),
        (true, Containment::SurfacesIntersect)
    );
    // z <= −1 misses the cube: a halfspace is never inside.
    assert_eq!(
        containment(&closed, &id, &below(-1.0), &id),
        (false, Containment::Disjoint)
    );
}

#[test]
fn two_shapes_are_not_checked_for_containment() {
    let small: Model = Model::from_shape(Shape::sphere(1.0).unwrap());
    let big: Model = Model::from_shape(Shape::sphere(4.0).unwrap());
    let id = Pose::identity();
    assert_eq!(
        containment(&small, &id, &big, &id),
        (true, Containment::NotChecked)
    );
}

/// With `solids`, a shape inside a closed mesh is at distance 0 and the result says so; without
/// it (and for an open mesh) the distance is to the surface: the cube of side 4 and a shape of
/// each kind with a core centred in it, reaching 1 from the centre, so exactly 1 from the
/// nearest face.
#[test]
fn a_shape_inside_a_closed_mesh_is_at_distance_zero_for_solids() {
    use obbtree_query::{distance, DistanceRequest};
    let (closed, open) = cubes();
    let centre = at(2.0, 2.0, 2.0);
    let id = Pose::identity();
    let solids = DistanceRequest::default().with_solids(true);
    for shape in [
        Shape::sphere(1.0).unwrap(),
        Shape::capsule(1.0, 0.0).unwrap(),
        Shape::cuboid([2.0, 2.0, 2.0]).unwrap(),
        Shape::cylinder(1.0, 2.0).unwrap(),
    ] {
        let inner: Model = Model::from_shape(shape.clone());
        let surface = distance(&closed, &id, &inner, &centre, &DistanceRequest::default()).unwrap();
        assert!(
            (surface.distance - 1.0).abs() < 1e-12,
            "{shape:?}: {}",
            surface.distance
        );
        assert_eq!(surface.contained, Containment::NotChecked);
        let solid = distance(&closed, &id, &inner, &centre, &solids).unwrap();
        assert_eq!((solid.distance, solid.lower, solid.upper), (0.0, 0.0, 0.0));
        assert_eq!(solid.contained, Containment::BInA, "{shape:?}");
        let swapped = distance(&inner, &centre, &closed, &id, &solids).unwrap();
        assert_eq!(
            (swapped.distance, swapped.contained),
            (0.0, Containment::AInB)
        );
        let open_mesh = distance(&open, &id, &inner, &centre, &solids).unwrap();
        assert_eq!(open_mesh.contained, Containment::OpenMesh, "{shape:?}");
        assert!(
            open_mesh.distance > 0.99,
            "{shape:?}: {}",
            open_mesh.distance
        );
        // Beside the cube, solids change nothing.
        let beside = distance(&closed, &id, &inner, &at(7.0, 2.0, 2.0), &solids).unwrap();
        assert_eq!(beside.contained, Containment::Disjoint);
        assert!(
            (beside.distance - 2.0).abs() < 1e-12,
            "{shape:?}: {}",
            beside.distance
        );
    }
}
