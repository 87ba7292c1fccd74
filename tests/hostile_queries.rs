//! Hostile geometry through the queries: every case of `tests/hostile.rs` (which checks the
//! trees) asked to `collide` and `pick`, each answer compared with the exact brute-force oracle.
//!
//! * collide: [`brute_force`] (every triangle pair through the exact predicate, B placed as the
//!   query places it); checked through the fuzz target's `collide_checked` for every volume type
//!   (AABB, OBB, sphere, 18-DOP): `Mode::All` returns exactly the oracle's pairs (with contacts
//!   and containment requested), `Mode::First` a witness among them, or nothing when they are
//!   none; containment only when no pair intersects and both meshes are closed.
//! * pick: `pick_oracle` (every triangle through the watertight test on the ray moved into the
//!   mesh frame as the queries move it); through `pick_checked`, `cast_ray`, `cast_ray_all` and
//!   `any_hit` on every volume's own tree (`RayIndex::ModelTree`) and the compact picking index
//!   (`RayIndex::Compact`) give exactly its hits, with finite `t` and barycentrics.
//!
//! Input outside the supported range is refused with an error naming the element: meshes by
//! `TriMesh::new`, poses by `Pose`, placements beyond the exact range by the queries.

mod common;
#[path = "../fuzz/src/lib.rs"]
mod targets;
#[path = "../crates/tree/tests/common/mod.rs"]
#[allow(clippy::duplicate_mod)] // both helper modules include the one case knob
mod tree_common;

use common::shapes::{fan, mapped, mesh, p, shared_centroid};
use tree_common::sheet;

use obbtree::brute::brute_force;
use obbtree::bv::range::RangeError;
use obbtree::bv::{
    Aabb, BoundingVolume, Kdop18, MeshError, Obb, Point, Pose, PoseError, Ray, Sphere, TriMesh,
    Vector,
};
use obbtree::error::Operand;
use obbtree::pick::MeshRay;
use obbtree::tree::BuildOptions;
use obbtree::{
    collide, collide_into, collide_many, contains_point, BatchError, CollisionRequest,
    CollisionResult, Containment, Mode, Model, ModelOptions, PosedOverlap, QueryError, RayIndex,
};
use obbtree_compare::rays::{crossing, Crossing};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use targets::{
    collide_checked, pick_checked, pick_model, pick_oracle, ties_to_lowest_index, PickModels,
};

fn translation(x: f64, y: f64, z: f64) -> Pose {
    Pose::from_translation([x, y, z]).unwrap()
}

fn rotation_vector_pose(t: [f64; 3], r: [f64; 3]) -> Pose {
    Pose::new(t, r).unwrap()
}

/// A few poses of B: identity, small and exact motions, arbitrary rotations.
fn poses(scale: f64) -> Vec<Pose> {
    let mut rng = Pcg64::seed_from_u64(11);
    let mut poses = vec![
        Pose::identity(),
        translation(0.5 * scale, 0.0, 0.0),
        translation(0.25 * scale, -0.5 * scale, 0.125 * scale),
    ];
    for _ in 0..3 {
        let t = [0; 3].map(|_| rng.gen_range(-0.5..0.5) * scale);
        let r = [0; 3].map(|_| rng.gen_range(-3.0..3.0));
        poses.push(rotation_vector_pose(t, r));
    }
    poses
}

/// `collide` of `a` (identity) and `b` (at `pose_b`) answers (B placed within the exact range)
/// and equals the oracle for every volume type and two leaf sizes; returns the oracle's pairs.
fn collide_case(a: &TriMesh, b: &TriMesh, pose_b: &Pose) -> Vec<[u32; 2]> {
    collide_posed(a, &Pose::identity(), b, pose_b)
}

/// [`collide_case`] with `a` placed at `pose_a` too.
fn collide_posed(a: &TriMesh, pose_a: &Pose, b: &TriMesh, pose_b: &Pose) -> Vec<[u32; 2]> {
    let oracle = brute_force(a, pose_a, b, pose_b);
    for leaf_size in [1, 4] {
        let case = (a, pose_a, b, pose_b, leaf_size, Some(&oracle[..]));
        let answered = |result: Result<(), QueryError>| {
            if let Err(e) = result {
                panic!("refused: {e} ({pose_a:?}, {pose_b:?})");
            }
        };
        answered(collide_checked::<Aabb>(case));
        answered(collide_checked::<Obb>(case));
        answered(collide_checked::<Sphere>(case));
        answered(collide_checked::<Kdop18>(case));
    }
    oracle
}

/// `collide` of `a` (identity) and `b` (at `pose_b`) is refused for every volume type and two
/// leaf sizes: B placed in A's frame leaves the exact range.
fn collide_refused(a: &TriMesh, b: &TriMesh, pose_b: &Pose) {
    let identity = Pose::identity();
    for leaf_size in [1, 4] {
        let case = (a, &identity, b, pose_b, leaf_size, None);
        let refused = |result: Result<(), QueryError>| {
            assert!(
                matches!(
                    result,
                    Err(QueryError::OutOfRange {
                        which: Operand::B,
                        ..
                    })
                ),
                "{result:?} for {pose_b:?}"
            );
        };
        refused(collide_checked::<Aabb>(case));
        refused(collide_checked::<Obb>(case));
        refused(collide_checked::<Sphere>(case));
        refused(collide_checked::<Kdop18>(case));
    }
}

/// A model of `mesh` with volume `V` and leaf size `leaf_size`.
fn model<V: PosedOverlap>(mesh: &TriMesh, leaf_size: usize) -> Model<V> {
    let options = BuildOptions {
        leaf_size,
        ..Default::default()
    };
    Model::build(mesh.clone(), &ModelOptions::from(options)).unwrap()
}

/// Every pick query through every volume's tree of `mesh`, and the compact index, equals the
/// oracle for each ray.
fn pick_case(mesh: &TriMesh, pose: &Pose, rays: &[Ray]) {
    for leaf_size in [1, 4] {
        let models = PickModels::new(mesh, leaf_size);
        for ray in rays {
            for max_t in [f64::INFINITY, 1.0] {
                models.check((mesh, pose, ray, max_t), true);
            }
        }
    }
}

/// Rays from around the mesh's bounds towards its vertices, centroids and random points, plus
/// axis-parallel rays, scaled like the mesh.
fn rays_at(mesh: &TriMesh, count: usize, seed: u64) -> Vec<Ray> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let bounds = Aabb::from_points(mesh.vertices());
    let (center, size) = (
        bounds.center(),
        (bounds.maxs - bounds.mins).amax().max(1e-300),
    );
    let mut rays = Vec::new();
    for i in 0..count {
        let origin = center + Vector::from_fn(|_, _| rng.gen_range(-2.0..2.0)) * size;
        let target = match i % 3 {
            0 => mesh.vertices()[rng.gen_range(0..mesh.vertices().len())],
            1 => mesh
                .triangle(rng.gen_range(0..mesh.triangles().len()))
                .centroid(),
            _ => center + Vector::from_fn(|_, _| rng.gen_range(-0.5..0.5)) * size,
        };
        if target != origin {
            rays.push(Ray::new(origin, target - origin));
        }
        let axis = Vector::ith(i % 3, if i % 2 == 0 { 1.0 } else { -1.0 });
        rays.push(Ray::new(target - axis * size, axis));
    }
    rays
}

/// Closed unit cube `[0, 1]³` scaled by `s`, 12 triangles, outward winding.
fn cube(s: f64) -> TriMesh {
    TriMesh::cuboid(p(0.0, 0.0, 0.0), p(s, s, s)).unwrap()
}

fn soup(seed: u64, n: usize) -> TriMesh {
    let mut rng = Pcg64::seed_from_u64(seed);
    let vertices: Vec<Point> = (0..n * 2)
        .map(|_| Point::from(Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0))))
        .collect();
    let k = vertices.len() as u32;
    let triangles = (0..n)
        .map(|_| [0; 3].map(|_| rng.gen_range(0..k)))
        .collect();
    mesh(vertices, triangles)
}

fn one_triangle() -> TriMesh {
    mesh(
        vec![p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 0.)],
        vec![[0, 1, 2]],
    )
}

#[test]
fn one_triangle_against_one_triangle() {
    let a = one_triangle();
    let cases = [
        (translation(0.0, 0.0, 0.0), true), // coincident
        (translation(1.0, 0.0, 0.0), true), // touching at a vertex
        (translation(0.5, 0.5, 0.0), true), // vertex on the hypotenuse
        (translation(0.0, 0.0, 1e-70), false),
        (translation(0.25, 0.25, 0.0), true), // coplanar overlap
        (
            rotation_vector_pose([0.25, 0.25, -0.5], [std::f64::consts::FRAC_PI_2, 0.0, 0.0]),
            true,
        ),
        (translation(1.0 + 1e-15, 0.0, 0.0), false),
    ];
    for (pose, touches) in cases {
        assert_eq!(!collide_case(&a, &a, &pose).is_empty(), touches, "{pose:?}");
    }
    // A translation finer than the exact range (placed coordinates of 1e-300, which the exact
    // predicates cannot take): refused, not answered.
    collide_refused(&a, &a, &translation(0.0, 0.0, 1e-300));
    let rays = [
        Ray::new(p(0.25, 0.25, 1.0), Vector::new(0., 0., -1.)),
        Ray::new(p(0.0, 0.0, 1.0), Vector::new(0., 0., -1.)), // through a vertex
        Ray::new(p(0.5, 0.5, 1.0), Vector::new(0., 0., -1.)), // through the hypotenuse
        Ray::new(p(-1.0, 0.25, 0.0), Vector::new(1., 0., 0.)), // in the plane: a miss
        Ray::new(p(0.25, 0.25, 1e300), Vector::new(0., 0., -1.)),
        Ray::new(p(0.25, 0.25, 1.0), Vector::new(0., 0., 0.)), // refused
        Ray::new(p(0.25, 0.25, 1.0), Vector::new(0., f64::NAN, -1.)), // refused
    ];
    pick_case(&a, &Pose::identity(), &rays);
    pick_case(&a, &translation(0.0, 0.0, 0.5), &rays);
}

/// 100,000 references to one triangle (the tree tests build 1,000,000): every query must report
/// all of them, or the lowest index for the first hit.
#[test]
fn a_hundred_thousand_copies_of_one_triangle() {
    let copies = mesh(
        vec![p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 1.)],
        vec![[0, 1, 2]; 100_000],
    );
    let crossing = mesh(
        vec![p(0.2, -1., 0.3), p(0.2, 2., 0.3), p(0.2, 0.5, -2.)],
        vec![[0, 1, 2]],
    );
    assert_eq!(
        collide_case(&copies, &crossing, &Pose::identity()).len(),
        100_000
    );
    assert!(collide_case(&copies, &crossing, &translation(5.0, 0.0, 0.0)).is_empty());
    let rays = [
        Ray::new(p(0.25, 0.25, 5.0), Vector::new(0., 0., -1.)),
        Ray::new(p(0.0, 0.0, 5.0), Vector::new(0., 0., -1.)),
        Ray::new(p(5.0, 5.0, 5.0), Vector::new(0., 0., -1.)),
    ];
    pick_case(&copies, &Pose::identity(), &rays);
}

#[test]
fn all_triangles_share_one_centroid() {
    let shared = shared_centroid(300);
    for pose in poses(50.0).iter().take(4) {
        assert!(!collide_case(&shared, &shared, pose).is_empty());
    }
    pick_case(&shared, &Pose::identity(), &rays_at(&shared, 60, 2));
}

/// 200 needles (one edge 1e-9 long) and slivers (three nearly collinear vertices) up to 1e3
/// long, at random in a cube of side 20.
fn needles() -> TriMesh {
    let mut rng = Pcg64::seed_from_u64(2);
    let mut vertices = Vec::new();
    for i in 0..200 {
        let at = Vector::from_fn(|_, _| rng.gen_range(-10.0..10.0));
        let dir = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)).normalize();
        let off = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)) * 1e-9;
        let (a, b, c) = if i % 2 == 0 {
            (at, at + off, at + dir * 1e3)
        } else {
            (at, at + dir * 1e2, at + dir * 2e2 + off)
        };
        vertices.extend([a, b, c].map(Point::from));
    }
    let triangles = (0..200u32).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
    mesh(vertices, triangles)
}

#[test]
fn needles_and_slivers() {
    let spiky = needles();
    for pose in poses(10.0).iter().take(4) {
        collide_case(&spiky, &spiky, pose);
    }
    pick_case(&spiky, &Pose::identity(), &rays_at(&spiky, 60, 3));
}

/// Coordinates at the ends of the accepted range (`1e-70` and `1e100`, see
/// `obbtree::bv::MAX_COORDINATE`): exact answers, no NaN.
#[test]
fn coordinates_at_the_accepted_extremes() {
    for s in [4e-70, 1e-35, 2.5e99] {
        let c = cube(s);
        collide_case(&c, &c, &Pose::identity());
        let inner = mapped(&cube(s), |q| {
            p(
                q.x * 0.5 + s * 0.25,
                q.y * 0.5 + s * 0.25,
                q.z * 0.5 + s * 0.25,
            )
        });
        assert!(collide_case(&c, &inner, &Pose::identity()).is_empty());
        // Touching at a vertex, along an edge, on a face, at the scale of the coordinates.
        for (offset, touching) in [
            ([s, s, s], true),
            ([s, s, 0.0], true),
            ([s, 0.0, 0.0], true),
            ([s * 1.5, 0.0, 0.0], false),
        ] {
            let pose = rotation_vector_pose(offset, [0.0; 3]);
            assert_eq!(
                !collide_case(&c, &c, &pose).is_empty(),
                touching,
                "{s:e} {offset:?}"
            );
        }
        pick_case(&c, &Pose::identity(), &rays_at(&c, 40, 4));
    }
    // The ends themselves, mixed in one mesh.
    let edge = range_ends();
    // B moved by 1e100 along z reaches the end of the range exactly (its z was 0 or 1e-70).
    for pose in [
        Pose::identity(),
        translation(0.0, 0.0, 1e-70),
        translation(0.0, 0.0, 1e100),
    ] {
        collide_case(&edge, &edge, &pose);
    }
    // Moved by 1e100 along x, its vertex at x = 1e100 is placed at 2e100: still inside the
    // exact range (up to 2^339, about 1.1e102), so answered exactly; moved by 2e102, beyond it:
    // refused (the exact predicates are only exact within the range).
    collide_case(&edge, &edge, &translation(1e100, 0.0, 0.0));
    collide_refused(&edge, &edge, &translation(2e102, 0.0, 0.0));
    pick_case(&edge, &Pose::identity(), &rays_at(&edge, 40, 5));
}

/// The ends of the accepted range mixed in one mesh: coordinates of ±1e100 and 1e-70.
fn range_ends() -> TriMesh {
    mesh(
        vec![
            p(1e100, -1e-70, 0.),
            p(0., 1e100, 1e-70),
            p(-1e100, 0., 0.),
            p(0., 0., 1e-70),
        ],
        vec![[0, 1, 2], [0, 1, 3], [1, 2, 3]],
    )
}

/// Beyond the accepted range (`0 < |x| < 1e-70`, `|x| > 1e100`, e.g. 1e-300 and 1e300): meshes,
/// poses and the ray files are refused with the offending element named.
#[test]
fn coordinates_beyond_the_range_are_refused_by_element() {
    for (bad, vertex) in [(1e-300, 2), (1e300, 1), (-1e-71, 0), (1.1e100, 2)] {
        let mut vertices = vec![p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 0.)];
        vertices[vertex].z = bad;
        let err = TriMesh::new(vertices, vec![[0, 1, 2]]).unwrap_err();
        assert!(
            matches!(err, MeshError::CoordinateOutOfRange { vertex: v, .. } if v == vertex),
            "{err}"
        );
        let text = err.to_string();
        assert!(text.contains(&format!("vertex {vertex}")), "{text}");
    }
    let path = std::path::Path::new("poses.json");
    let err = obbtree_cli::poses::poses_from_str(
        r#"{"poses":[{"translation":[0,0,0],"rotation":[0,0,0]},{"translation":[0,1e300,0],"rotation":[0,0,0]}]}"#,
        path,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("pose 1: translation[1] is 1e300"),
        "{err}"
    );
}

/// A unit-scale soup moved 1e9 away, against a copy under small motions.
#[test]
fn translated_by_1e9() {
    let far = mapped(&soup(4, 150), |q| q + Vector::new(1e9, -1e9, 3e9));
    for pose in poses(1.0) {
        // Rotations about the origin would throw the copy 1e9 away: rotate about the mesh.
        let about = translation(1e9, -1e9, 3e9) * pose * translation(-1e9, 1e9, -3e9);
        collide_case(&far, &far, &about);
    }
    pick_case(&far, &Pose::identity(), &rays_at(&far, 60, 6));
}

/// A mesh against an exact copy of itself: every pair of triangles that share a point.
#[test]
fn exactly_coincident_meshes() {
    let c = cube(1.0);
    let pairs = collide_case(&c, &c, &Pose::identity());
    // Every triangle of a closed cube touches itself and its neighbours.
    assert!(pairs.len() > 12);
    let s = soup(5, 150);
    collide_case(&s, &s, &Pose::identity());
}

/// Cubes touching at a single vertex, along an edge, on a face, under exact rotations too, and
/// a cube nested in another (containment: B inside A) or beside it.
#[test]
fn touching_and_nested_cubes() {
    let c = cube(1.0);
    let quarter = rotation_vector_pose([0.0; 3], [0.0, 0.0, std::f64::consts::FRAC_PI_2]);
    for (pose, pairs_expected) in [
        (translation(1.0, 1.0, 1.0), true),
        (translation(1.0, 1.0, 0.0), true),
        (translation(1.0, 0.5, 0.0), true),
        (translation(1.0, 1.0, 1.0 + 1e-12), false),
        (translation(2.0, 2.0, 2.0), false),
        (quarter, true),
    ] {
        assert_eq!(
            !collide_case(&c, &c, &pose).is_empty(),
            pairs_expected,
            "{pose:?}"
        );
    }
    let small = cube(0.25);
    let inside = translation(0.5, 0.5, 0.5);
    assert!(collide_case(&c, &small, &inside).is_empty());
    let (a, b) = (model::<Obb>(&c, 4), model::<Obb>(&small, 4));
    let request = CollisionRequest::default().with_containment(true);
    let r = collide(&a, &Pose::identity(), &b, &inside, &request).unwrap();
    assert_eq!((r.intersects, r.contained), (false, Containment::BInA));
    let r = collide(&b, &inside, &a, &Pose::identity(), &request).unwrap();
    assert_eq!((r.intersects, r.contained), (false, Containment::AInB));
    let r = collide(
        &a,
        &Pose::identity(),
        &b,
        &translation(3.0, 0.0, 0.0),
        &request,
    )
    .unwrap();
    assert_eq!((r.intersects, r.contained), (false, Containment::Disjoint));
    pick_case(&c, &Pose::identity(), &rays_at(&c, 60, 7));
}

/// Two coplanar grid sheets (z = 0) overlapping with an offset, and one sheet above the other.
#[test]
fn coplanar_overlapping_sheets() {
    let sheet = sheet(8);
    for (pose, touching) in [
        (translation(0.5, 0.25, 0.0), true),
        (translation(3.0, 3.0, 0.0), true),
        (translation(0.0, 0.0, 1e-9), false),
        (rotation_vector_pose([4.0, 4.0, 0.0], [0.0, 0.0, 0.3]), true),
    ] {
        assert_eq!(
            !collide_case(&sheet, &sheet, &pose).is_empty(),
            touching,
            "{pose:?}"
        );
    }
    pick_case(&sheet, &Pose::identity(), &rays_at(&sheet, 60, 8));
}

/// An open strip of 38 triangles in the plane z = 0.
fn strip() -> TriMesh {
    mesh(
        (0..40)
            .map(|i| p(f64::from(i / 2) * 0.1, f64::from(i % 2) * 0.1, 0.0))
            .collect(),
        (0..38).map(|i| [i, i + 1, i + 2]).collect(),
    )
}

/// Non-manifold (four triangles on one edge) and open (a strip) meshes: queries answer like the
/// oracle; containment does not apply (`contained` is `OpenMesh`) and `contains_point` answers
/// without panicking.
#[test]
fn non_manifold_and_open_meshes() {
    let (fin, strip) = (fan(), strip());
    for m in [&fin, &strip] {
        assert!(!m.is_closed());
        for pose in poses(0.5) {
            collide_case(m, m, &pose);
            collide_case(m, &cube(0.05), &pose);
        }
        pick_case(m, &Pose::identity(), &rays_at(m, 40, 9));
        containment_does_not_apply::<Aabb>(m);
        containment_does_not_apply::<Obb>(m);
        containment_does_not_apply::<Sphere>(m);
        containment_does_not_apply::<Kdop18>(m);
    }
}

/// Two unit cubes meeting along one edge, welded there (four triangles on the edge, two each
/// way): a closed surface, so containment applies. A small cube inside either is contained,
/// one in the empty quarter beside the edge is disjoint, for every volume type; the points'
/// answers are exact box membership.
#[test]
fn cubes_meeting_along_an_edge_are_a_closed_solid() {
    let second = mapped(&cube(1.0), |q| q + Vector::new(1.0, 1.0, 0.0));
    let mut vertices = cube(1.0).vertices().to_vec();
    let mut triangles = cube(1.0).triangles().to_vec();
    for t in second.triangles() {
        triangles.push(t.map(|v| {
            let q = second.vertices()[v as usize];
            let at = vertices.iter().position(|w| *w == q);
            at.unwrap_or_else(|| {
                vertices.push(q);
                vertices.len() - 1
            }) as u32
        }));
    }
    let both = mesh(vertices, triangles);
    assert_eq!(both.vertices().len(), 14);
    assert!(both.is_closed());
    contained_in_either_cube::<Aabb>(&both);
    contained_in_either_cube::<Obb>(&both);
    contained_in_either_cube::<Sphere>(&both);
    contained_in_either_cube::<Kdop18>(&both);
}

fn contained_in_either_cube<V: PosedOverlap>(m: &TriMesh) {
    let model = Model::<V>::new(m.clone()).unwrap();
    let small = Model::<V>::new(cube(0.25)).unwrap();
    let request = CollisionRequest::default().with_containment(true);
    for (at, want) in [
        (translation(0.5, 0.5, 0.5), Containment::BInA),
        (translation(1.25, 1.5, 0.25), Containment::BInA),
        (translation(1.25, 0.5, 0.5), Containment::Disjoint),
    ] {
        let r = collide(&model, &Pose::identity(), &small, &at, &request).unwrap();
        assert_eq!((r.intersects, r.contained), (false, want), "{at:?}");
    }
    for (q, inside) in [
        (p(0.9, 0.9, 0.5), true),
        (p(1.1, 1.1, 0.5), true),
        (p(1.1, 0.9, 0.5), false),
        (p(0.9, 1.1, 0.5), false),
        (p(1.0, 1.0, 0.5), true),
    ] {
        assert_eq!(
            contains_point(&model, &Pose::identity(), &q),
            Ok(inside),
            "{q:?}"
        );
    }
}

fn containment_does_not_apply<V: PosedOverlap>(m: &TriMesh) {
    let model = Model::<V>::new(m.clone()).unwrap();
    assert!(!model.is_closed());
    let closed = Model::<V>::new(cube(100.0)).unwrap();
    let request = CollisionRequest::default().with_containment(true);
    let inside = translation(-50.0, -50.0, -50.0);
    // The open mesh lies inside the closed cube without touching it: not reported, since
    // containment needs both meshes closed.
    let r = collide(&model, &Pose::identity(), &closed, &inside, &request).unwrap();
    assert_eq!((r.intersects, r.contained), (false, Containment::OpenMesh));
    for q in [p(0.1, 0.1, 0.1), p(5.0, 5.0, 5.0), p(0.0, 0.0, 0.0)] {
        contains_point(&model, &Pose::identity(), &q).expect("a point within the range");
    }
}

/// Found here (fixed: exact edge signs in the triangle test, which made the `t` of a hit at a
/// shared vertex agree between its triangles, and slab entries shrunk by `1 - 2γ(3)` so that a
/// box entered exactly at the best `t` is still visited): with leaf size 1, the AABB tree and the compact `PickTree` break `cast_ray`'s
/// documented rule "the lowest `(t, triangle)`" for rays through a vertex shared by several
/// triangles: for the first ray they return triangle 3 where triangles 2 and 3 are hit at the
/// same `t`, for the second triangle 0 at `t = 1 - 2⁻⁵³` where triangle 2 is hit one ulp
/// earlier (`cast_ray_all` reports every hit with the right `t`). The OBB, sphere and 18-DOP
/// trees, and leaf size 4, answer triangle 2. (The traversal seems to drop a node whose entry
/// equals the best `t` so far, or to round an AABB entry up.)
#[test]
fn cast_ray_first_hit_and_ties_through_a_shared_vertex() {
    let fin = fan();
    let rays = [
        Ray::new(
            p(2.29652701087878, -0.3676067336690032, 3.672304732605614),
            Vector::new(-2.29652701087878, 0.3676067336690032, -3.672304732605614),
        ),
        Ray::new(
            p(2.32343592219193, -3.8175169029954095, -0.04755288976040539),
            Vector::new(-2.32343592219193, 3.8175169029954095, 1.0475528897604054),
        ),
    ];
    let obb = pick_model::<Obb>(&fin, 1, RayIndex::ModelTree);
    let aabb = pick_model::<Aabb>(&fin, 1, RayIndex::ModelTree);
    // The compact index of an AABB model is the copy of its own tree.
    let compact = pick_model::<Aabb>(&fin, 1, RayIndex::Compact);
    for ray in &rays {
        assert!(ties_to_lowest_index(&obb, ray));
        assert!(ties_to_lowest_index(&aabb, ray), "aabb {ray:?}");
        assert!(ties_to_lowest_index(&compact, ray), "compact {ray:?}");
    }
}

/// Found here (fixed: the volume tests now run on the ray with its direction scaled by a power
/// of two, `MeshRay::unit`): a valid ray of
/// direction `(0, 0, -1e-300)` hits the triangle (the oracle and every other tree agree, at
/// `t ≈ 1e300`), but the sphere tree misses it: the sphere test squares the direction, which
/// underflows to zero.
#[test]
fn sphere_tree_with_a_tiny_direction() {
    let one = one_triangle();
    let ray = Ray::new(p(0.25, 0.25, 1.0), Vector::new(0., 0., -1e-300));
    assert_eq!(
        pick_oracle(&one, &Pose::identity(), &ray, f64::INFINITY).len(),
        1
    );
    pick_case(&one, &Pose::identity(), &[ray]);
}

/// Found by the `collide` fuzz target (`fuzz/corpus/collide/crash-3acf…`; fixed: the posed k-DOP
/// test now pads for the rounding of B's placement, translation included): A is a triangle
/// collapsed to the point (1.25, 1.25, 1.25), B one collapsed to (1.25e-60, …) placed by a
/// translation of (1.25, 1.25, 1.25), which lands it exactly on A's point (1.25 + 1.25e-60
/// rounds to 1.25). The oracle reports the contact; the AABB, OBB and sphere trees found it, the
/// 18-DOP tree did not.
#[test]
fn kdop_single_point_contact() {
    let a = mesh(vec![p(1.25, 1.25, 1.25)], vec![[0, 0, 0]]);
    let b = mesh(vec![p(1.25e-60, 1.25e-60, 1.25e-60)], vec![[0, 0, 0]]);
    let pose = translation(1.25, 1.25, 1.25);
    assert_eq!(collide_case(&a, &b, &pose), [[0, 0]]);
}

/// Found by the `pick` fuzz target (`fuzz/corpus/pick/crash-c6cc…`): a needle triangle with a
/// vertex at 1.9e86 (inside the accepted range), a rotated pose, and a ray that misses it —
/// exactly (rational arithmetic, `compare::rays::crossing`), and plainly: for `t >= 0` the
/// ray's `z` in the mesh frame grows from -0.35 while the needle has `z <= -1.25`. The old
/// sheared watertight test rounded the 1e86 vertex by ~1e70 and reported a hit at `t = 0`,
/// which the OBB, sphere and 18-DOP trees passed on while the AABB trees (rightly) pruned it.
/// Every tree and the brute force now agree on the miss.
#[test]
fn aabb_pick_on_a_huge_needle() {
    use obbtree::bv::nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};
    let needle = mesh(
        vec![
            p(1.9036917412555824e86, -4.25, -3.0),
            p(-2.5, -2.0, -1.5),
            p(-2.71213219440533e84, -1.25, -1.25),
        ],
        vec![[0, 1, 2]],
    );
    let pose = Pose::try_from(Isometry3::from_parts(
        Translation3::new(-2.0, -0.75, -0.5),
        UnitQuaternion::new_unchecked(Quaternion::new(
            0.9001450589024809,
            0.0,
            -0.36243300244544324,
            -0.2416220016302955,
        )),
    ))
    .unwrap();
    let ray = Ray::new(
        p(0.75, -2.0, 1.75),
        Vector::new(-1.5, 0.42857142857142855, -0.75),
    );
    let local = MeshRay::new(&pose, &ray).ray;
    assert_eq!(crossing(&local, &needle.triangle(0)), Crossing::Misses);
    assert!(pick_oracle(&needle, &pose, &ray, f64::INFINITY).is_empty());
    pick_case(&needle, &pose, &[ray]);
}

/// Found by the `collide` fuzz target (`fuzz/corpus/collide/crash-04e8…`, reduced here; fixed:
/// the posed AABB, OBB and k-DOP tests now pad for the rounding of B's vertices' placement, not
/// only of its volumes' centres): B is one degenerate triangle, a needle from
/// (-3, -3, -1e40) to (-3, -3, 1e40), A five small triangles, A rotated. Placing the needle in
/// A's frame rounds its far vertices by ~1e24, and the placed triangle is what the exact leaf
/// test and the oracle see; the AABB, OBB and 18-DOP pair tests did not pad for that rounding
/// and missed the pairs the oracle reports. The sphere trees find them.
#[test]
fn rotated_needle_of_1e40() {
    use obbtree::bv::nalgebra::Matrix3;
    let a = mesh(
        vec![
            p(1.25, 1e-70, 2.0),
            p(0.25, -2.0, -2.0),
            p(-0.25, -0.5, -1.0),
            p(0.75, 1.5, 2.0),
            p(-1e-70, -1.25, 1.0),
        ],
        vec![
            [1, 1, 1],
            [1, 3, 3],
            [4, 1, 2],
            [4, 4, 2],
            [3, 3, 4],
            [4, 2, 3],
        ],
    );
    let needle = mesh(
        vec![
            p(-3.0, -3.0, 1e40),
            p(-3.0, -3.0, -1e40),
            p(-3.0, -3.0, -3.0),
        ],
        vec![[0, 1, 2]],
    );
    let r = Matrix3::from_columns(&[
        Vector::new(-0.5145531551939296, -0.466820004891049, 0.7192455307567039),
        Vector::new(0.7192455307567039, 0.22168796191423057, 0.6584377829596522),
        Vector::new(-0.466820004891049, 0.8561153722342776, 0.22168796191423057),
    ]);
    let pose_a = Pose::from_parts(Vector::new(-2.0, -1.25, -1.0), r).unwrap();
    let pose_b = translation(-2.0, -2.0, -2.0);
    assert_eq!(
        collide_posed(&a, &pose_a, &needle, &pose_b),
        [[1, 0], [2, 0], [3, 0], [5, 0]]
    );
}

/// Found by the `pick` fuzz target (`fuzz/corpus/pick/crash-a16e…`): a mesh of 1e-60 scale
/// around its origin (with six triangles collapsed to one vertex, which shape the tree), placed
/// at (1.25, 1.25, 1.25), and a ray starting exactly there with the valid direction (1.25, 1.25,
/// -1.08e207). The ray crosses one triangle at `t ≈ 3.47e-268`; the old sheared watertight
/// test reported that hit at `t = 0`, and the OBB tree's entry test (rightly) put the box
/// beyond `max_t = 0`. Now the hit has its exact `t` (rounded) and every tree agrees, for
/// `max_t = 0` (no hit) and `max_t = ∞`.
#[test]
fn obb_pick_with_a_huge_direction() {
    let tiny = mesh(
        vec![
            p(-1.25e-60, -1e-60, -1.25e-60),
            p(1.25e-60, -1.25e-60, 0.0),
            p(1.4999999999999998e-60, 5e-61, -5e-61),
            p(-1.75e-60, -5e-61, -7.499999999999999e-61),
            p(-2e-60, 5e-61, 1.75e-60),
            p(-2e-60, -1.4999999999999998e-60, 1.25e-60),
        ],
        vec![
            [1, 3, 4],
            [2, 0, 4],
            [2, 0, 0],
            [3, 1, 5],
            [3, 4, 2],
            [0, 2, 2],
            [0, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
        ],
    );
    let pose = translation(1.25, 1.25, 1.25);
    let ray = Ray::new(
        p(1.25, 1.25, 1.25),
        Vector::new(1.25, 1.25, -1.0802496466013001e207),
    );
    // Exactly: triangle 1 is crossed through its interior at t ≈ 3.47e-268, no other triangle.
    let local = MeshRay::new(&pose, &ray).ray;
    let crossed: Vec<usize> = (0..tiny.triangles().len())
        .filter(|&t| {
            matches!(
                crossing(&local, &tiny.triangle(t)),
                Crossing::Through { .. }
            )
        })
        .collect();
    assert_eq!(crossed, [1]);
    let hits = pick_oracle(&tiny, &pose, &ray, f64::INFINITY);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].1, 1);
    let t = f64::from_bits(hits[0].0);
    assert!(t > 3.4e-268 && t < 3.5e-268, "{t:e}");
    assert!(pick_oracle(&tiny, &pose, &ray, 0.0).is_empty());
    for leaf_size in 1..=3 {
        for max_t in [0.0, f64::INFINITY] {
            pick_checked(
                &pick_model::<Obb>(&tiny, leaf_size, RayIndex::ModelTree),
                (&tiny, &pose, &ray, max_t),
                true,
            );
        }
    }
}

/// The bunny (closed, 3,674 triangles) as a model with the default options.
fn bunny() -> Model {
    let mesh = obbtree::load::load_mesh(&common::asset("bunny.obj")).unwrap();
    Model::new(mesh).unwrap()
}

/// Found here (fixed: poses are checked when made, placements by the queries): on the bunny
/// against itself, where the identity finds 50,606 intersecting pairs, a rotation vector with a
/// NaN on both models (so that the relative pose is "on paper" the identity) gave `intersects =
/// false` with no pair, and so did a translation of B by +∞. Both poses are now refused by
/// `Pose` itself, naming the part and the value.
#[test]
fn non_finite_poses_are_refused_when_made() {
    let bunny = bunny();
    let all = CollisionRequest::new(Mode::All);
    let identity = collide(&bunny, &Pose::identity(), &bunny, &Pose::identity(), &all).unwrap();
    assert_eq!((identity.intersects, identity.pairs.len()), (true, 50_606));
    assert!(!identity.truncated);
    let nan_rotation = Pose::new([0.0; 3], [f64::NAN, 0.0, 0.0]);
    assert!(
        matches!(
            nan_rotation,
            Err(PoseError::NonFinite { part: "rotation", value }) if value.is_nan()
        ),
        "{nan_rotation:?}"
    );
    assert_eq!(
        Pose::new([f64::INFINITY, 0.0, 0.0], [0.0; 3]),
        Err(PoseError::NonFinite {
            part: "translation",
            value: f64::INFINITY
        })
    );
    assert_eq!(
        Pose::from_translation([0.0, f64::NEG_INFINITY, 0.0]),
        Err(PoseError::NonFinite {
            part: "translation",
            value: f64::NEG_INFINITY
        })
    );
    let nan_matrix = Pose::from_parts(
        Vector::zeros(),
        obbtree::bv::nalgebra::Matrix3::from_diagonal_element(f64::NAN),
    );
    assert!(
        matches!(nan_matrix, Err(PoseError::NonFinite { part: "rotation", value }) if value.is_nan()),
        "{nan_matrix:?}"
    );
}

/// Found here (fixed: every collision path checks that B, placed in A's frame, stays within
/// `MAX_COORDINATE`): a finite translation of B by 1e300 was accepted and answered `false`,
/// though the placed bunny's coordinates are far beyond the range in which the exact predicates
/// are exact. `collide`, `collide_with` and `collide_many` (naming the first bad pose) refuse it,
/// and `contains_point` refuses a model placed there. Moving both bunnies by the same 1e300 is
/// answered, and exactly: only the relative pose matters, and it is the identity.
#[test]
fn placements_beyond_the_range_are_refused_by_every_collision_path() {
    let bunny = bunny();
    let all = CollisionRequest::new(Mode::All);
    let identity = Pose::identity();
    let far = translation(1e300, 0.0, 0.0);
    let expected = collide(&bunny, &identity, &bunny, &identity, &all).unwrap();
    assert_eq!(expected.pairs.len(), 50_606);
    let out_of_range_b = |e: &QueryError| matches!(e, QueryError::OutOfRange { which: Operand::B, reason: RangeError::TooLarge { reach, .. } } if *reach > 1e299);

    let refused = collide(&bunny, &identity, &bunny, &far, &all).unwrap_err();
    assert!(out_of_range_b(&refused), "{refused}");
    // A far, B at the origin: B is 1e300 away in A's frame.
    let refused = collide(&bunny, &far, &bunny, &identity, &all).unwrap_err();
    assert!(out_of_range_b(&refused), "{refused}");
    let both_far = collide(&bunny, &far, &bunny, &far, &all).unwrap();
    assert_eq!(both_far.pairs, expected.pairs);
    assert!(both_far.intersects);

    let mut result = CollisionResult::default();
    let refused = collide_into(&bunny, &identity, &bunny, &far, &all, &mut result).unwrap_err();
    assert!(out_of_range_b(&refused), "{refused}");
    collide_into(&bunny, &far, &bunny, &far, &all, &mut result).unwrap();
    assert_eq!(result.pairs, expected.pairs);

    let poses_b = [
        identity,
        translation(0.5, 0.0, 0.0),
        far,
        translation(-1e300, 0.0, 0.0),
    ];
    let BatchError { index, source } =
        collide_many(&bunny, &identity, &bunny, &poses_b, &all).unwrap_err();
    assert_eq!(index, 2);
    assert!(out_of_range_b(&source), "{source}");
    let answered = collide_many(&bunny, &far, &bunny, &[far, far], &all).unwrap();
    assert!(answered.iter().all(|r| r.pairs == expected.pairs));

    // A point inside the bunny (the middle of a segment through the solid: the first two hits
    // of a ray through its centre), with the bunny at the origin, then the bunny moved by 1e300
    // (the point, moved with it, would be refused as a point beyond the range).
    let inside = point_inside(&bunny);
    assert_eq!(contains_point(&bunny, &identity, &inside), Ok(true));
    let refused = contains_point(&bunny, &far, &inside).unwrap_err();
    assert!(
        matches!(refused, QueryError::OutOfRange { which: Operand::Model, reason: RangeError::TooLarge { reach, .. } } if reach > 1e299),
        "{refused}"
    );
    let beyond = p(1e300, 0.0, 0.0);
    assert_eq!(
        contains_point(&bunny, &identity, &beyond),
        Err(QueryError::InvalidPoint([1e300, 0.0, 0.0]))
    );
    let nan = contains_point(&bunny, &identity, &p(0.0, f64::NAN, 0.0)).unwrap_err();
    assert!(
        matches!(nan, QueryError::InvalidPoint([x, y, z]) if x == 0.0 && y.is_nan() && z == 0.0),
        "{nan}"
    );
}

/// A point inside a closed model: the midpoint of the first two hits of a ray through the
/// centre of its bounds (entering, then leaving the solid), checked by the exact oracle.
fn point_inside(model: &Model) -> Point {
    let bounds = model.bounds();
    let center = bounds.center();
    let from = Point::new(center.x, center.y, bounds.maxs.z + 1.0);
    let ray = Ray::new(from, Vector::new(0.0, 0.0, -1.0));
    let hits = pick_oracle(
        model.mesh().unwrap(),
        &Pose::identity(),
        &ray,
        f64::INFINITY,
    );
    assert!(hits.len() >= 2 && hits[0].0 != hits[1].0, "{hits:?}");
    let t = (f64::from_bits(hits[0].0) + f64::from_bits(hits[1].0)) / 2.0;
    from + ray.dir * t
}

/// Poses that are each valid but whose relative pose overflows: A and B translated by ±1.5e308
/// (B is 3e308 away from A, beyond `f64`), with and without a rotation of A. The relative pose
/// then holds infinities (and NaN, where a zero entry of the rotation meets them): refused as
/// out of range, never answered.
#[test]
fn relative_pose_overflowing_f64_is_refused() {
    let bunny = bunny();
    let all = CollisionRequest::new(Mode::All);
    for rotation in [
        [0.0; 3],
        [0.0, 0.0, std::f64::consts::FRAC_PI_2],
        [0.3, -0.2, 0.1],
    ] {
        let pose_a = rotation_vector_pose([-1.5e308, 0.0, 0.0], rotation);
        let pose_b = translation(1.5e308, 0.0, 0.0);
        let refused = collide(&bunny, &pose_a, &bunny, &pose_b, &all);
        assert!(
            matches!(
                refused,
                Err(QueryError::OutOfRange {
                    which: Operand::B,
                    ..
                })
            ),
            "{rotation:?}: {refused:?}"
        );
        let many = collide_many(&bunny, &pose_a, &bunny, &[pose_b], &all);
        assert!(
            matches!(
                many,
                Err(BatchError {
                    index: 0,
                    source: QueryError::OutOfRange {
                        which: Operand::B,
                        ..
                    }
                })
            ),
            "{rotation:?}: {many:?}"
        );
    }
}

/// A product of valid poses whose translation overflows `f64` (1e308 + 1e308; turned a quarter,
/// so that NaN appears where the rotation's zeros meet the infinity): every query refuses it.
#[test]
fn composed_poses_overflowing_f64_are_refused() {
    let bunny = bunny();
    let all = CollisionRequest::new(Mode::All);
    let identity = Pose::identity();
    let huge = translation(1e308, 0.0, 0.0);
    let quarter = rotation_vector_pose([0.0; 3], [0.0, 0.0, std::f64::consts::FRAC_PI_2]);
    for pose in [huge * huge, quarter * (huge * huge)] {
        let refused = collide(&bunny, &identity, &bunny, &pose, &all);
        assert!(
            matches!(
                refused,
                Err(QueryError::OutOfRange {
                    which: Operand::B,
                    ..
                })
            ),
            "{pose:?}: {refused:?}"
        );
        let inside = contains_point(&bunny, &pose, &p(0.0, 0.0, 0.0));
        assert!(
            matches!(
                inside,
                Err(QueryError::OutOfRange {
                    which: Operand::Model,
                    ..
                })
            ),
            "{pose:?}: {inside:?}"
        );
        let ray = Ray::new(p(0.0, 0.0, 1.0), Vector::new(0.0, 0.0, -1.0));
        let cast = obbtree::cast_ray(&bunny, &pose, &ray, f64::INFINITY);
        assert!(
            matches!(cast, Err(QueryError::TranslationOutOfRange { .. })),
            "{pose:?}: {cast:?}"
        );
    }
}

/// Poses of a mesh of centre `c` and size `s` that are not the identity: random rotations
/// about the mesh, a turn by 1e-9 rad (nearly parallel to the identity), an exact quarter turn
/// about the origin (exact coordinates), a random rotation about the origin, and translations
/// by a hundred and a million sizes (kept within the range of poses that picking accepts).
fn posed_views(c: &Point, s: f64, rng: &mut Pcg64) -> Vec<Pose> {
    let about = |r: Pose| translation(c.x, c.y, c.z) * r * translation(-c.x, -c.y, -c.z);
    let random = |rng: &mut Pcg64| {
        let v = Vector::from_fn(|_, _| rng.gen_range(-3.0..3.0));
        rotation_vector_pose([0.0; 3], v.into())
    };
    let room = (1e99 - c.coords.amax()).max(0.0);
    let far = |k: f64| (k * s).min(room);
    vec![
        about(random(rng)),
        about(random(rng)),
        about(rotation_vector_pose([0.0; 3], [1e-9, -2e-9, 0.5e-9])),
        rotation_vector_pose([0.0; 3], [0.0, 0.0, std::f64::consts::FRAC_PI_2]),
        random(rng),
        translation(far(100.0), -far(100.0), 0.0) * about(random(rng)),
        translation(far(1e6), 0.0, far(1e6)),
    ]
}

/// Picking on the hostile meshes of this file (a lone triangle, shared centroids, needles and
/// slivers, cubes at 4e-70, 1e-35 and 2.5e99, the range's ends mixed, a soup 1e9 away, coplanar
/// sheets, a non-manifold fan, an open strip) under poses that are not the identity
/// ([`posed_views`]), rays aimed at vertices, centroids and random points and along the axes,
/// moved with the mesh: through every volume's tree and the compact index (leaf sizes 1 and
/// 4), against the independent exact oracle (`ExactHits` of the fuzz bodies: rational
/// crossings on the ray moved into the mesh frame) as well as the brute force over the
/// triangle test. About 2,200 rays, each with `max_t` infinite and 1.
#[test]
fn picking_under_poses_matches_exact_crossings() {
    let meshes = [
        ("one triangle", one_triangle()),
        ("shared centroid", shared_centroid(150)),
        ("needles", needles()),
        ("cube 4e-70", cube(4e-70)),
        ("cube 1e-35", cube(1e-35)),
        ("cube 2.5e99", cube(2.5e99)),
        ("range ends", range_ends()),
        (
            "soup at 1e9",
            mapped(&soup(4, 150), |q| q + Vector::new(1e9, -1e9, 3e9)),
        ),
        ("sheet", sheet(8)),
        ("fan", fan()),
        ("strip", strip()),
    ];
    let mut rng = Pcg64::seed_from_u64(31);
    let mut rays = 0;
    for (k, (name, m)) in meshes.iter().enumerate() {
        let bounds = Aabb::from_points(m.vertices());
        let size = (bounds.maxs - bounds.mins).amax();
        let models = [1, 4].map(|leaf_size| PickModels::new(m, leaf_size));
        for (j, pose) in posed_views(&bounds.center(), size, &mut rng)
            .iter()
            .enumerate()
        {
            for local in rays_at(m, 15, 100 * k as u64 + j as u64) {
                let ray = Ray::new(
                    pose.transform_point(&local.origin),
                    pose.transform_vector(&local.dir),
                );
                rays += 1;
                for models in &models {
                    for max_t in [f64::INFINITY, 1.0] {
                        let case = (m, pose, &ray, max_t);
                        let checked =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                models.check(case, true)
                            }));
                        assert!(checked.is_ok(), "{name}, pose {j}: {pose:?}, ray {ray:?}");
                    }
                }
            }
        }
    }
    assert!(rays >= 2000, "{rays} rays");
}

/// `contains_point` on a millimetre cube placed a hundred kilometres away (translation about
/// 1e5, turned at random), through every volume's tree (one triangle per leaf): points on its
/// placed faces and up to 4 ulps to either side, each against the exact parity oracle
/// (`oracles::parity`, rational crossings on the triangles placed as the query places them).
/// The query culls triangles in the mesh frame, where moving the point there rounds by about
/// 1e-11, far beyond the cube's own relative pad (1e-9 of 1e-3): the culling must be padded for
/// that move (`segment_pad` in `containment.rs`, passed to `PosedOverlap::meets_segment`).
/// Checked to fail with that pad set to 0.
#[test]
fn contains_point_near_the_faces_of_a_small_cube_placed_far() {
    let mut rng = Pcg64::seed_from_u64(41);
    let poses: Vec<Pose> = (0..common::cases(16))
        .map(|_| {
            let t = [0; 3].map(|_| rng.gen_range(0.5..1.5) * 1e5);
            rotation_vector_pose(t, [0; 3].map(|_| rng.gen_range(-3.0..3.0)))
        })
        .collect();
    contains_point_near_faces(&cube(1e-3), &poses, &mut rng);
}

/// `contains_point` on a millimetre cube lying 10 from its mesh's origin, turned by rotation
/// matrices that are orthonormal only to about 4e-11 (inside the 1e-10 a pose accepts): the
/// query moves the point into the mesh frame by `Rᵀ`, which is then not `R⁻¹` (about 1e-9 off at
/// 17 from the origin), and places the triangles by `R`; points on the placed faces and a few
/// ulps to either side, against the exact parity oracle. (The culling's pads cover the
/// deviation twice over: the volumes' own relative pad in `meets_segment` and the tolerance
/// term of `segment_pad`; removing the latter alone changes no answer here.)
#[test]
fn contains_point_under_rotations_orthonormal_only_to_the_tolerance() {
    let mut rng = Pcg64::seed_from_u64(43);
    let poses: Vec<Pose> = (0..common::cases(8))
        .map(|_| {
            let turn = rotation_vector_pose([0.0; 3], [0; 3].map(|_| rng.gen_range(-3.0..3.0)));
            let skew = nalgebra::Matrix3::from_fn(|_, _| rng.gen_range(-1.0..1.0) * 2e-11);
            let t = Vector::from_fn(|_, _| rng.gen_range(0.5..1.5));
            Pose::from_parts(t, turn.rotation() + skew).expect("within the tolerance")
        })
        .collect();
    let off_origin = mapped(&cube(1e-3), |v| v + Vector::repeat(10.0));
    contains_point_near_faces(&off_origin, &poses, &mut rng);
}

/// Points on each placed face of `cube` (three per triangle) and up to 4 ulps to either side,
/// under each pose, through every volume's tree (one triangle per leaf), against the exact parity
/// oracle; both answers must occur often.
fn contains_point_near_faces(cube: &TriMesh, poses: &[Pose], rng: &mut Pcg64) {
    fn one_per_leaf<V: obbtree::tree::TreeVolume>(mesh: &TriMesh) -> Model<V> {
        let tree = BuildOptions {
            leaf_size: 1,
            ..Default::default()
        };
        Model::build(mesh.clone(), &ModelOptions::from(tree)).unwrap()
    }
    let (obb, aabb) = (one_per_leaf::<Obb>(cube), one_per_leaf::<Aabb>(cube));
    let (sphere, kdop) = (one_per_leaf::<Sphere>(cube), one_per_leaf::<Kdop18>(cube));
    let nudged = |x: f64, k: i32| {
        (0..k.abs()).fold(x, |x, _| if k > 0 { x.next_up() } else { x.next_down() })
    };
    let mut seen = [0usize; 2];
    for pose in poses {
        for tri in 0..cube.triangles().len() {
            let [a, b, c] = cube
                .triangle(tri)
                .vertices()
                .map(|v| pose.transform_point(&v));
            for _ in 0..3 {
                let (u, v) = (rng.gen_range(0.0..0.5), rng.gen_range(0.0..0.5));
                let on = a + (b - a) * u + (c - a) * v;
                for k in -4..=4 {
                    let p = on.map(|x| nudged(x, k));
                    let Some(want) = targets::oracles::parity::inside(cube, pose, &p) else {
                        continue;
                    };
                    seen[usize::from(want)] += 1;
                    let got = [
                        contains_point(&obb, pose, &p),
                        contains_point(&aabb, pose, &p),
                        contains_point(&sphere, pose, &p),
                        contains_point(&kdop, pose, &p),
                    ];
                    assert!(
                        got.iter().all(|g| *g == Ok(want)),
                        "{p:?} (triangle {tri}, {k} ulps) under {pose:?}: exactly inside {want}, \
                         obb/aabb/sphere/kdop say {got:?}"
                    );
                }
            }
        }
    }
    assert!(
        seen.iter().all(|&n| n > 100),
        "points outside/inside: {seen:?}"
    );
}
