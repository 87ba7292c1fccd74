//! `closest_points` against brute force with exact rational point–triangle squared distances
//! over every triangle (`common::distance`, the bv tests' oracle: a quadratic programme solved
//! in integers, sharing no code with the engine), for every volume type, on small closed and
//! open meshes at random poses; signs against exact containment in a box (coordinates compared
//! exactly) and in a convex polyhedron (the signs of every face's orientation determinant in
//! rationals); hand-made points on vertices, edges and faces, equidistant from several faces,
//! far away, at huge and tiny scales, beside degenerate triangles; the maximum distance decided
//! exactly at the distance and one ulp below; and the typed errors.

mod common;

use common::distance::point_triangle_distance_squared;
use common::exact::{approx, cross, dot, q, q3, sub};
use common::*;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use obbtree_bv::shape::Shape;
use obbtree_bv::{Point, Pose, TriMesh};
use obbtree_query::{
    closest_points, sdf_grid, spatial_order, winding_numbers, BatchError, ClosestPoint, Grid,
    Model, PointRequest, PosedOverlap, QueryError, WindingRequest,
};
use obbtree_tree::{with_volume, VolumeKind};
use rand::Rng;

/// The relative bound of the guarantee.
const PROMISE: f64 = 1e-12;

/// The mesh's triangles placed by `pose` (as the tests place them; the rounding is far inside
/// the guarantee), and the largest coordinate magnitude `L`.
fn placed(mesh: &TriMesh, pose: &Pose) -> (Vec<[Point; 3]>, f64) {
    let tris: Vec<[Point; 3]> = mesh
        .triangles()
        .iter()
        .map(|t| t.map(|i| pose.transform_point(&mesh.vertices()[i as usize])))
        .collect();
    let size = tris
        .iter()
        .flatten()
        .fold(0.0, |m: f64, p| m.max(p.coords.amax()));
    (tris, size)
}

/// The exact least squared distance from `p` to the triangles.
fn exact_distance_squared(p: &Point, tris: &[[Point; 3]]) -> BigRational {
    tris.iter()
        .map(|t| point_triangle_distance_squared(p, t))
        .min()
        .expect("triangles")
}

/// Every point of the guarantee for the unsigned answer `c` at `p`; returns `d*²`.
fn check_answer(
    p: &Point,
    c: &ClosestPoint,
    tris: &[[Point; 3]],
    size: f64,
    what: &str,
) -> BigRational {
    let exact = exact_distance_squared(p, tris);
    let d_star = approx(&exact).sqrt();
    let tau = PROMISE * (d_star + size.max(p.coords.amax()));
    let d = c.distance.abs();
    assert!(
        (d - d_star).abs() <= tau,
        "{what}: {d} but d* = {d_star} ({c:?})"
    );
    let own = approx(&point_triangle_distance_squared(
        p,
        &tris[c.triangle as usize],
    ))
    .sqrt();
    assert!(
        (own - d_star).abs() <= tau,
        "{what}: triangle {} is {own} away, d* = {d_star}",
        c.triangle
    );
    let off = approx(&point_triangle_distance_squared(
        &c.point,
        &tris[c.triangle as usize],
    ))
    .sqrt();
    assert!(off <= tau, "{what}: point {off} off its triangle ({c:?})");
    assert!(
        ((c.point - p).norm() - d).abs() <= tau,
        "{what}: point not {d} away ({c:?})"
    );
    assert!(
        q(c.lower) * q(c.lower) <= exact && q(c.upper) * q(c.upper) >= exact,
        "{what}: interval {c:?} misses d*"
    );
    assert_eq!(d == 0.0, exact.is_zero(), "{what}: zero iff d* = 0 ({c:?})");
    exact
}

/// The meshes of the random tests: a closed bumpy blob, an open terrain, a subdivided cube.
fn blob_terrain_cube() -> [(&'static str, TriMesh); 3] {
    [
        ("blob", blob(3, 6, 9, 1.0, 0.2)),
        ("terrain", terrain(4, 5, 0.7)),
        ("cube", cube(3, 0.5)),
    ]
}

/// The least and greatest corners of the triangles' box.
fn corners(tris: &[[Point; 3]]) -> (Point, Point) {
    tris.iter().flatten().fold(
        (Point::from([f64::MAX; 3]), Point::from([f64::MIN; 3])),
        |(lo, hi), p| (lo.inf(p), hi.sup(p)),
    )
}

/// Random points around the placed mesh: within its box grown by half its size, a few far.
fn random_points(r: &mut impl Rng, tris: &[[Point; 3]], count: usize) -> Vec<Point> {
    points_around(r, tris, count, 0.5)
}

/// Random points within the placed mesh's box grown by `grow` times its size on each side,
/// a tenth of them twenty times as spread.
fn points_around(r: &mut impl Rng, tris: &[[Point; 3]], count: usize, grow: f64) -> Vec<Point> {
    let (lo, hi) = corners(tris);
    let grow = (hi - lo) * grow;
    (0..count)
        .map(|k| {
            let spread = if k % 10 == 0 { 20.0 } else { 1.0 };
            Point::from(std::array::from_fn::<f64, 3, _>(|i| {
                let (a, b) = (lo[i] - grow[i] * spread, hi[i] + grow[i] * spread);
                r.gen_range(a..=b)
            }))
        })
        .collect()
}

fn answers<V: PosedOverlap>(
    model: &Model<V>,
    pose: &Pose,
    points: &[Point],
    request: &PointRequest,
) -> Vec<Option<ClosestPoint>> {
    closest_points(model, pose, points, request).expect("valid points")
}

#[test]
fn random_points_meet_the_guarantee_for_every_volume() {
    let meshes = blob_terrain_cube();
    let mut r = rng(39);
    for (name, mesh) in &meshes {
        for kind in VolumeKind::ALL {
            with_volume!(kind, |V| {
                let model = common::model::<V>(mesh);
                for _ in 0..2 {
                    let pose = random_pose(&mut r, 3.0);
                    let (tris, size) = placed(mesh, &pose);
                    let points = random_points(&mut r, &tris, 60);
                    let found = answers(&model, &pose, &points, &PointRequest::default());
                    for (p, c) in points.iter().zip(&found) {
                        let what = format!("{name} {} {p:?}", kind.name());
                        check_answer(p, c.as_ref().expect("no limit"), &tris, size, &what);
                    }
                }
            });
        }
    }
}

/// A distance grid's values have the exact distances of its points (the rational brute
/// force), for every volume: rows of eleven points, walked in packets and a tail, around a
/// bumpy closed blob and an open terrain, and over a cube whose faces hold whole rows and
/// grid points (distance 0, the certified path), far points and near ones.
#[test]
fn grid_values_are_the_exact_distances_for_every_volume() {
    let meshes = blob_terrain_cube();
    for (name, mesh) in &meshes {
        let (tris, size) = placed(mesh, &Pose::identity());
        let (lo, hi) = corners(&tris);
        let grow = (hi - lo) * 0.5;
        let grid = Grid {
            min: lo - grow,
            max: hi + grow,
            resolution: [4, 5, 11],
        };
        let [nx, ny, nz] = grid.resolution;
        for kind in VolumeKind::ALL {
            with_volume!(kind, |V| {
                let model = common::model::<V>(mesh);
                let values = sdf_grid(&model, &grid).expect("a valid grid");
                let mut zeros = 0;
                for (n, value) in values.iter().enumerate() {
                    let p = grid.point([n / (ny * nz), n / nz % ny, n % nz]);
                    let exact = exact_distance_squared(&p, &tris);
                    let d_star = approx(&exact).sqrt();
                    let tau = PROMISE * (d_star + size.max(p.coords.amax()));
                    let what = format!("{name} {} {p:?}", kind.name());
                    if value.is_nan() {
                        assert_eq!(*name, "terrain", "{what}: NaN on a closed mesh");
                        continue;
                    }
                    assert!(
                        (value.abs() - d_star).abs() <= tau,
                        "{what}: {value}, d* = {d_star}"
                    );
                    assert_eq!(*value == 0.0, exact.is_zero(), "{what}: zero iff d* = 0");
                    zeros += usize::from(exact.is_zero());
                }
                assert_eq!(values.len(), nx * ny * nz);
                if *name == "cube" {
                    assert!(zeros > 0, "{name}: no grid point on the surface");
                }
            });
        }
    }
}

/// Whether `p` is in the closed convex polyhedron with outward triangles `tris`, exactly: on
/// the inner side of (or on) every face's plane.
fn in_convex(p: &Point, tris: &[[Point; 3]]) -> bool {
    let x = q3(p);
    tris.iter().all(|t| {
        let [a, b, c] = t.map(|v| q3(&v));
        let n = cross(&sub(&b, &a), &sub(&c, &a));
        !dot(&n, &sub(&x, &a)).is_positive()
    })
}

#[test]
fn signs_are_exact_containment_in_a_box_and_a_convex_polyhedron() {
    let mut r = rng(40);
    // A UV sphere without bumps is convex (each quad between two rings is planar up to the
    // rounding of its corners, far below the random points' distances).
    let sphere = blob(5, 7, 10, 1.0, 0.0);
    let meshes = [("cube", cube(2, 0.75)), ("sphere", sphere)];
    let request = PointRequest::default().with_signed(true);
    let mut signs = [0usize; 2];
    for (name, mesh) in &meshes {
        let model: Model = Model::new(mesh.clone()).unwrap();
        let pose = Pose::identity();
        let (tris, size) = placed(mesh, &pose);
        let points = points_around(&mut r, &tris, 300, 0.1);
        for (p, c) in points.iter().zip(answers(&model, &pose, &points, &request)) {
            let c = c.unwrap();
            let what = format!("{name} {p:?}");
            let exact = check_answer(p, &c, &tris, size, &what);
            let inside = if *name == "cube" {
                p.iter().all(|&x| (0.0..=1.5).contains(&x))
            } else {
                in_convex(p, &tris)
            };
            if exact.is_zero() {
                assert_eq!(c.distance, 0.0, "{what}");
            } else {
                assert_eq!(c.distance < 0.0, inside, "{what}: {c:?}");
            }
            signs[usize::from(inside)] += 1;
        }
    }
    assert!(
        signs.iter().all(|&n| n >= 50),
        "inside and outside points: {signs:?}"
    );
}

fn p(x: f64, y: f64, z: f64) -> Point {
    Point::new(x, y, z)
}

/// Points on the surface are at distance 0 with either sign; the centre is equidistant from
/// six faces; far points, huge and tiny scales, as exact values.
#[test]
fn hand_made_points_have_their_exact_distances() {
    for scale in [1.0, 2f64.powi(200), 2f64.powi(-200)] {
        let mesh = cube(2, scale);
        let model: Model = Model::new(mesh.clone()).unwrap();
        let signed = PointRequest::default().with_signed(true);
        let s = scale;
        let cases = [
            (p(0.0, 0.0, 0.0) * s, 0.0),                // a corner
            (p(1.0, 0.0, 0.0) * s, 0.0),                // a vertex in an edge
            (p(0.5, 0.0, 0.0) * s, 0.0),                // inside an edge
            (p(0.5, 0.5, 0.0) * s, 0.0),                // on a diagonal of a face
            (p(0.25, 0.75, 2.0) * s, 0.0),              // inside a face
            (p(1.0, 1.0, 1.0) * s, -s),                 // the centre: six faces at 1
            (p(1.0, 1.0, 0.25) * s, -0.25 * s),         // inside, nearest the bottom
            (p(3.0, 1.0, 1.0) * s, 1.0 * s),            // outside a face
            (p(3.0, 3.0, 1.0) * s, 2f64.sqrt() * s),    // outside an edge
            (p(-1.0, -1.0, -1.0) * s, 3f64.sqrt() * s), // outside a corner
            (p(1e6, 1.0, 1.0) * s, (1e6 - 2.0) * s),    // far away
        ];
        let points: Vec<Point> = cases.iter().map(|c| c.0).collect();
        let found = answers(&model, &Pose::identity(), &points, &signed);
        let (tris, size) = placed(&mesh, &Pose::identity());
        for ((point, want), c) in cases.iter().zip(&found) {
            let c = c.unwrap();
            let what = format!("scale {scale:e}, {point:?}");
            check_answer(point, &c, &tris, size, &what);
            let tau = PROMISE * (want.abs() + size.max(point.coords.amax()));
            assert!(
                (c.distance - want).abs() <= tau,
                "{what}: {} not {want}",
                c.distance
            );
        }
    }
}

/// A soup with a zero-area triangle (a segment) and a point-like one beside a proper one.
#[test]
fn degenerate_triangles_are_their_segments_and_points() {
    let vertices = vec![
        p(0.0, 0.0, 0.0),
        p(1.0, 0.0, 0.0),
        p(2.0, 0.0, 0.0),
        p(5.0, 5.0, 5.0),
        p(0.0, 3.0, 0.0),
        p(1.0, 3.0, 0.0),
        p(0.0, 4.0, 0.0),
    ];
    let mesh = TriMesh::new(vertices, vec![[0, 1, 2], [3, 3, 3], [4, 5, 6]]).unwrap();
    let model: Model = Model::new(mesh.clone()).unwrap();
    let (tris, size) = placed(&mesh, &Pose::identity());
    let points = [
        p(1.5, -1.0, 0.0),
        p(5.0, 5.0, 6.0),
        p(0.25, 3.25, -2.0),
        p(3.0, 0.0, 0.0),
    ];
    let wants = [(1.0, 0), (1.0, 1), (2.0, 2), (1.0, 0)];
    let found = answers(&model, &Pose::identity(), &points, &PointRequest::default());
    for ((point, (want, triangle)), c) in points.iter().zip(wants).zip(&found) {
        let c = c.unwrap();
        check_answer(point, &c, &tris, size, &format!("{point:?}"));
        assert_eq!((c.distance, c.triangle), (want, triangle), "{point:?}");
    }
}

/// A point at exactly the maximum distance is answered; one ulp less leaves it unanswered;
/// random limits agree with the exact distance.
#[test]
fn the_maximum_distance_is_decided_exactly() {
    let mesh = cube(2, 0.5);
    let model: Model = Model::new(mesh.clone()).unwrap();
    let point = [p(3.0, 0.5, 0.5)]; // 2 from the face x = 1
    let at = |max: f64| {
        let request = PointRequest::default().with_max_distance(Some(max));
        answers(&model, &Pose::identity(), &point, &request)[0]
    };
    assert_eq!(at(2.0).map(|c| c.distance), Some(2.0));
    assert_eq!(at(f64::from_bits(2f64.to_bits() - 1)), None);
    let mut r = rng(41);
    let (tris, _) = placed(&mesh, &Pose::identity());
    let points = random_points(&mut r, &tris, 200);
    let max = 0.4;
    let request = PointRequest::default().with_max_distance(Some(max));
    let found = answers(&model, &Pose::identity(), &points, &request);
    let mut kinds = [0usize; 2];
    for (point, c) in points.iter().zip(&found) {
        let within = exact_distance_squared(point, &tris) <= q(max) * q(max);
        assert_eq!(c.is_some(), within, "{point:?}: {c:?}");
        kinds[usize::from(within)] += 1;
    }
    assert!(
        kinds.iter().all(|&n| n >= 20),
        "beyond and within: {kinds:?}"
    );
}

/// The closed bumpy blob of the batch tests, its model, a random pose (from `seed`), its
/// placed triangles and their largest coordinate.
fn posed_blob(seed: u64) -> (Model, Pose, Vec<[Point; 3]>, f64) {
    let mesh = blob(6, 8, 12, 1.0, 0.3);
    let model: Model = Model::new(mesh.clone()).unwrap();
    let pose = random_pose(&mut rng(seed), 2.0);
    let (tris, size) = placed(&mesh, &pose);
    (model, pose, tris, size)
}

/// A batch's answers are the single points' answers, whatever the order the batch hints from.
#[test]
fn a_batch_answers_as_its_points_one_by_one() {
    let (model, pose, tris, size) = posed_blob(42);
    let mut points = random_points(&mut rng(43), &tris, 700);
    points.sort_by(|a, b| a.x.total_cmp(&b.x)); // spatial order, as hints like it
    let batch = answers(&model, &pose, &points, &PointRequest::default());
    for (point, c) in points.iter().zip(&batch).step_by(7) {
        let one = answers(&model, &pose, &[*point], &PointRequest::default())[0].unwrap();
        let c = c.unwrap();
        let tau = PROMISE * (one.distance + size);
        assert!(
            (c.distance - one.distance).abs() <= 2.0 * tau,
            "{point:?}: {c:?} vs {one:?}"
        );
        check_answer(point, &c, &tris, size, &format!("{point:?}"));
    }
}

/// On a pool of one thread a batch runs on the calling thread, and answers bit for bit as on
/// the default pool (several threads): closest points, signed distances on a closed blob
/// (each chunk carries signs from point to point) and winding numbers, over many chunks; the
/// same spatial order; the same first bad point named. Every tenth answer alone is checked
/// against the exact distance too.
#[test]
fn one_thread_answers_as_the_pool_does() {
    let (model, pose, tris, size) = posed_blob(44);
    let points = random_points(&mut rng(45), &tris, 3_000);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    assert_eq!(one.install(rayon::current_num_threads), 1);
    for request in [
        PointRequest::default(),
        PointRequest::default().with_signed(true),
    ] {
        let pooled = answers(&model, &pose, &points, &request);
        let alone = one.install(|| answers(&model, &pose, &points, &request));
        assert_eq!(format!("{pooled:?}"), format!("{alone:?}"), "{request:?}");
        for (point, c) in points.iter().zip(&alone).step_by(10) {
            check_answer(point, &c.unwrap(), &tris, size, &format!("{point:?}"));
        }
    }
    let winding = |points: &[Point]| {
        format!(
            "{:?}",
            winding_numbers(&model, &pose, points, &WindingRequest::default())
        )
    };
    assert_eq!(winding(&points), one.install(|| winding(&points)));
    assert_eq!(
        spatial_order(&points),
        one.install(|| spatial_order(&points))
    );
    let mut bad = points.clone();
    bad[2_100] = p(f64::NAN, 0.0, 0.0);
    bad[1_700] = p(0.0, f64::INFINITY, 0.0);
    let first_bad = |points: &[Point]| {
        closest_points(&model, &pose, points, &PointRequest::default())
            .unwrap_err()
            .index
    };
    assert_eq!(first_bad(&bad), 1_700);
    assert_eq!(one.install(|| first_bad(&bad)), 1_700);
}

#[test]
fn bad_requests_and_points_are_typed_errors() {
    let open: Model = Model::new(terrain(7, 3, 0.5)).unwrap();
    let closed: Model = Model::new(cube(1, 1.0)).unwrap();
    let good = [p(0.5, 0.5, 3.0)];
    let id = Pose::identity();
    let error = |m: &Model, points: &[Point], r: &PointRequest| {
        closest_points(m, &id, points, r).unwrap_err()
    };
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let r = PointRequest::default().with_max_distance(Some(bad));
        let e = error(&closed, &good, &r);
        assert!(
            matches!(
                e.source,
                QueryError::InvalidTolerance {
                    name: "max_distance",
                    ..
                }
            ),
            "{e}"
        );
    }
    let points = [good[0], good[0], p(f64::NAN, 0.0, 0.0), p(1e300, 0.0, 0.0)];
    let e = error(&closed, &points, &PointRequest::default());
    assert!(
        matches!(
            e,
            BatchError {
                index: 2,
                source: QueryError::InvalidPoint(_)
            }
        ),
        "{e}"
    );
    let ball: Model = Model::from_shape(Shape::sphere(1.0).unwrap());
    let e = error(&ball, &good, &PointRequest::default());
    assert!(
        matches!(
            e.source,
            QueryError::NotAMesh {
                query: "closest_points",
                ..
            }
        ),
        "{e}"
    );
    assert!(closest_points(&open, &id, &[], &PointRequest::default())
        .unwrap()
        .is_empty());
}

/// A point exactly on a tilted face (where the float projection rounds), beside a sliver
/// `2⁻¹⁰⁰` below it: the distance is 0, found by the exact test, whichever triangle the float
/// walk prefers, alone and on a grid's row; and the point moved `2⁻¹⁰⁰` off the face is not
/// at 0.
#[test]
fn a_point_on_a_tilted_face_beside_a_sliver_is_at_zero() {
    let tiny = 2f64.powi(-100);
    let vertices = vec![
        p(0.0, 0.0, -1.0),
        p(4.0, 0.0, 0.0),
        p(0.0, 4.0, 2.0),
        p(0.9, 0.9, -tiny),
        p(1.2, 0.9, -tiny),
        p(0.9, 1.2, -tiny),
    ];
    let mesh = TriMesh::new(vertices, vec![[0, 1, 2], [3, 4, 5]]).unwrap();
    let model: Model = Model::new(mesh.clone()).unwrap();
    let (tris, size) = placed(&mesh, &Pose::identity());
    // (1, 1, 0) = (4, 0, 0)/4 + (0, 4, 2)/4 + (0, 0, -1)/2: on the tilted face.
    let points = [
        p(1.0, 1.0, 0.0),
        p(1.0, 1.0, tiny),
        p(1.0, 1.0, -tiny / 2.0),
    ];
    let found = answers(&model, &Pose::identity(), &points, &PointRequest::default());
    for (point, c) in points.iter().zip(&found) {
        check_answer(point, &c.unwrap(), &tris, size, &format!("{point:?}"));
    }
    assert_eq!(
        (found[0].unwrap().distance, found[0].unwrap().triangle),
        (0.0, 0)
    );
    // A grid row through the point (its fourth, in a packet with three far points): 0 there
    // too, and its other points off the surface.
    let row = Grid {
        min: p(1.0, 1.0, -3.0),
        max: p(1.0, 1.0, 3.0),
        resolution: [1, 1, 7],
    };
    let values = sdf_grid(&model, &row).unwrap();
    assert_eq!(row.point([0, 0, 3]), points[0]);
    for (k, value) in values.iter().enumerate() {
        assert_eq!(*value == 0.0, k == 3, "{k}: {value}");
    }
}
