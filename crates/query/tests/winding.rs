//! Winding numbers, open-mesh signs and batched containment against oracles sharing no code
//! with the engine: a direct sum of every triangle's solid angle by l'Huilier's theorem (the
//! spherical excess from the three arc lengths; the engine uses Van Oosterom & Strackee's
//! formula and a tree), exact box containment for the cube, and each point's own
//! `contains_point` for the batch. Hand-made cases: nested and inverted shells (winding 2 and
//! −1), points on faces, edges and corners of a closed mesh (the generalized winding number
//! ½, ¼ and ⅛), the centre of an open box's missing face (exactly ½, so its sign must be
//! reported undecided), huge and tiny scales; signed distance grids against the point queries.

mod common;

use common::*;
use obbtree_bv::shape::Shape;
use obbtree_bv::{Point, Pose, TriMesh, Vector};
use obbtree_query::{
    closest_points, contains_point, contains_points, sdf_grid, sdf_grid_into, winding_numbers,
    BatchError, Grid, Model, PointRequest, QueryError, Side, Winding, WindingRequest,
};
use obbtree_tree::{with_volume, VolumeKind};
use rand::Rng;
use std::f64::consts::PI;

/// How far the oracle's own rounding may be off on the tests' points (none lies within 1e-4
/// of a triangle's plane near the triangle, where both formulas lose digits).
const ORACLE_SLACK: f64 = 1e-9;

/// The solid angle of triangle `t` seen from `q` over `4π`, by l'Huilier's theorem: with the
/// arc lengths `a, b, c` between the unit vectors to the corners and `s` their half sum, the
/// spherical excess `E` has `tan(E/4)² = tan(s/2) tan((s−a)/2) tan((s−b)/2) tan((s−c)/2)`; its
/// sign is the sign of the triple product.
fn oracle_share(q: &Point, t: &[Point; 3]) -> f64 {
    let [u, v, w] = t.map(|p| (p - q).normalize());
    let arc = |x: &Vector, y: &Vector| x.cross(y).norm().atan2(x.dot(y));
    let (a, b, c) = (arc(&v, &w), arc(&w, &u), arc(&u, &v));
    let s = (a + b + c) / 2.0;
    let product =
        (s / 2.0).tan() * ((s - a) / 2.0).tan() * ((s - b) / 2.0).tan() * ((s - c) / 2.0).tan();
    let excess = 4.0 * product.max(0.0).sqrt().atan();
    let sign = u.dot(&v.cross(&w)).signum();
    sign * excess / (4.0 * PI)
}

/// The winding number of the triangles about `q`, summed directly.
fn oracle(q: &Point, tris: &[[Point; 3]]) -> f64 {
    tris.iter().map(|t| oracle_share(q, t)).sum()
}

fn placed(mesh: &TriMesh, pose: &Pose) -> Vec<[Point; 3]> {
    mesh.triangles()
        .iter()
        .map(|t| t.map(|i| pose.transform_point(&mesh.vertices()[i as usize])))
        .collect()
}

/// `mesh` without the triangles `drop` says to leave out (an open mesh).
fn without(mesh: &TriMesh, drop: impl Fn(usize) -> bool) -> TriMesh {
    let kept: Vec<[u32; 3]> = (mesh.triangles().iter().enumerate())
        .filter(|(i, _)| !drop(*i))
        .map(|(_, t)| *t)
        .collect();
    TriMesh::new(mesh.vertices().to_vec(), kept).unwrap()
}

/// Several meshes as one (their triangles side by side), each optionally turned inside out.
fn joined(parts: &[(&TriMesh, bool)]) -> TriMesh {
    let (mut v, mut t) = (Vec::new(), Vec::new());
    for (mesh, inverted) in parts {
        let base = v.len() as u32;
        v.extend_from_slice(mesh.vertices());
        t.extend(mesh.triangles().iter().map(|&[a, b, c]| {
            let tri = [a + base, b + base, c + base];
            if *inverted {
                [tri[0], tri[2], tri[1]]
            } else {
                tri
            }
        }));
    }
    TriMesh::new(v, t).unwrap()
}

/// `mesh` moved by `by` along every axis.
fn moved(mesh: &TriMesh, by: f64) -> TriMesh {
    let v = mesh
        .vertices()
        .iter()
        .map(|p| p + Vector::repeat(by))
        .collect();
    TriMesh::new(v, mesh.triangles().to_vec()).unwrap()
}

fn scaled(mesh: &TriMesh, s: f64) -> TriMesh {
    let v = mesh.vertices().iter().map(|p| p * s).collect();
    TriMesh::new(v, mesh.triangles().to_vec()).unwrap()
}

/// The least distance from `q` to the planes of the triangles it projects into (a cheap test
/// that keeps the tests' points away from where both formulas lose digits).
fn clear_of_triangles(q: &Point, tris: &[[Point; 3]]) -> bool {
    tris.iter().all(|t| t.iter().all(|v| (v - q).norm() > 1e-4))
        && tris.iter().all(|t| {
            let n = (t[1] - t[0]).cross(&(t[2] - t[0])).normalize();
            (q - t[0]).dot(&n).abs() > 1e-4 || !projects_into(q, t, &n)
        })
}

fn projects_into(q: &Point, t: &[Point; 3], n: &Vector) -> bool {
    (0..3).all(|i| {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        (b - a).cross(&(q - a)).dot(n) >= -1e-3
    })
}

fn check_within(w: &Winding, truth: f64, what: &str) {
    assert!(
        (w.value - truth).abs() <= w.bound + ORACLE_SLACK,
        "{what}: {w:?}, direct sum {truth}"
    );
}

fn random_points_near(r: &mut impl Rng, tris: &[[Point; 3]], n: usize, grow: f64) -> Vec<Point> {
    let (lo, hi) = tris.iter().flatten().fold(
        (Point::from([f64::MAX; 3]), Point::from([f64::MIN; 3])),
        |(lo, hi), p| (lo.inf(p), hi.sup(p)),
    );
    let pad = (hi - lo) * grow;
    let (lo, hi) = (lo - pad, hi + pad);
    (0..n)
        .map(|_| Point::from(Vector::from_fn(|k, _| r.gen_range(lo[k]..=hi[k]))))
        .filter(|q| clear_of_triangles(q, tris))
        .collect()
}

/// On open meshes, at random poses and for every volume type, every estimate holds the direct
/// sum within its bound, meets the tolerance, and far tolerances use the expansion (bounds
/// above rounding) while a zero tolerance sums every near triangle.
#[test]
fn open_winding_numbers_hold_the_direct_sum_within_their_bounds() {
    let meshes = [
        terrain(3, 8, 0.6),
        without(&blob(4, 12, 18, 1.0, 0.25), |i| i % 17 == 3),
        without(&cube(3, 1.0), |i| i < 6),
    ];
    let mut r = rng(11);
    let mut expanded = 0;
    for kind in VolumeKind::ALL {
        with_volume!(kind, |V| {
            for mesh in &meshes {
                let model = common::model::<V>(mesh);
                let pose = random_pose(&mut r, 3.0);
                let tris = placed(mesh, &pose);
                let points = random_points_near(&mut r, &tris, 40, 1.5);
                for tolerance in [0.05, 1e-3, 0.0] {
                    let request = WindingRequest { tolerance };
                    let found = winding_numbers(&model, &pose, &points, &request).unwrap();
                    for (q, w) in points.iter().zip(&found) {
                        let what = format!("{kind:?}, tolerance {tolerance}, {q:?}");
                        check_within(w, oracle(q, &tris), &what);
                        assert!(w.bound <= tolerance.max(1e-10), "{what}: {w:?}");
                        expanded += usize::from(w.bound > 1e-9);
                    }
                }
            }
        });
    }
    assert!(expanded > 100, "the expansion was used {expanded} times");
}

/// A mesh of thousands of triangles seen from afar and from near its hole: the hierarchy's
/// bound holds where most of the sum comes from expansions.
#[test]
fn a_large_open_mesh_is_summed_within_the_bound_from_near_and_far() {
    let mesh = without(&blob(8, 40, 60, 1.0, 0.1), |i| (100..140).contains(&i));
    let model: Model = Model::new(mesh.clone()).unwrap();
    let tris = placed(&mesh, &Pose::identity());
    let mut r = rng(12);
    let mut points = random_points_near(&mut r, &tris, 60, 0.2);
    points.extend((0..20).map(|k| Point::new(3.0 + k as f64, -2.0, 1.5 * k as f64)));
    for tolerance in [0.2, 1e-2, 1e-5] {
        let request = WindingRequest { tolerance };
        let found = winding_numbers(&model, &Pose::identity(), &points, &request).unwrap();
        for (q, w) in points.iter().zip(&found) {
            check_within(
                w,
                oracle(q, &tris),
                &format!("tolerance {tolerance}, {q:?}"),
            );
            assert!(w.bound <= tolerance, "{q:?}: {w:?}");
        }
    }
}

/// Closed meshes: exact integers, equal to containment and to the rounded direct sum; nested
/// shells wind twice, an inverted shell −1.
#[test]
fn closed_winding_numbers_are_exact_integers() {
    let outer = cube(2, 2.0);
    let inner = moved(&cube(1, 1.0), 1.5);
    let cases = [
        (joined(&[(&outer, false)]), [1, 1]),
        (joined(&[(&outer, false), (&inner, false)]), [1, 2]),
        (joined(&[(&outer, true)]), [-1, -1]),
        (joined(&[(&outer, false), (&inner, true)]), [1, 0]),
    ];
    let between = Point::new(0.5, 0.5, 3.5);
    let within_inner = Point::new(2.0, 2.25, 1.75);
    let outside = Point::new(-0.5, 2.0, 2.0);
    for (mesh, [w_between, w_inner]) in &cases {
        let model: Model = Model::new(mesh.clone()).unwrap();
        let points = [between, within_inner, outside];
        let found = winding_numbers(
            &model,
            &Pose::identity(),
            &points,
            &WindingRequest::default(),
        )
        .unwrap();
        let exact: Vec<Option<i64>> = found.iter().map(Winding::exact).collect();
        assert_eq!(exact, [Some(*w_between), Some(*w_inner), Some(0)]);
        let tris = placed(mesh, &Pose::identity());
        for (q, w) in points.iter().zip(&found) {
            assert_eq!(oracle(q, &tris).round(), w.value);
        }
    }
    let blob_mesh = blob(5, 10, 14, 1.0, 0.3);
    let model: Model = Model::new(blob_mesh.clone()).unwrap();
    let mut r = rng(13);
    let pose = random_pose(&mut r, 2.0);
    let tris = placed(&blob_mesh, &pose);
    let points = random_points_near(&mut r, &tris, 300, 0.1);
    let found = winding_numbers(&model, &pose, &points, &WindingRequest::default()).unwrap();
    let inside = contains_points(&model, &pose, &points).unwrap();
    let mut kinds = [0, 0];
    for ((q, w), inside) in points.iter().zip(&found).zip(&inside) {
        assert_eq!(w.exact(), Some(i64::from(*inside)), "{q:?}");
        assert_eq!(oracle(q, &tris).round(), w.value, "{q:?}");
        kinds[usize::from(*inside)] += 1;
    }
    assert!(kinds.iter().all(|&n| n > 20), "{kinds:?}");
}

/// On the surface of a closed mesh the winding number is not an integer: the estimate holds
/// the generalized value (½ in a face, ¼ on an edge, ⅛ at a corner of a box).
#[test]
fn surface_points_of_a_closed_mesh_get_the_generalized_value() {
    let model: Model = Model::new(cube(2, 0.5)).unwrap();
    let cases = [
        (Point::new(0.25, 0.375, 0.0), 0.5),
        (Point::new(0.25, 0.0, 0.0), 0.25),
        (Point::new(0.0, 0.0, 0.0), 0.125),
        (Point::new(0.5, 0.5, 1.0), 0.5),
    ];
    let points: Vec<Point> = cases.iter().map(|c| c.0).collect();
    let request = WindingRequest { tolerance: 1e-6 };
    let found = winding_numbers(&model, &Pose::identity(), &points, &request).unwrap();
    for ((q, truth), w) in cases.iter().zip(&found) {
        assert_eq!(w.exact(), None, "{q:?}");
        check_within(w, *truth, &format!("{q:?}"));
        assert!(w.bound <= 3.5, "{q:?}: {w:?}");
    }
}

/// The open box: signed distances from the winding number; deep inside negative, outside
/// positive, the centre of the missing face (winding number exactly ½) undecided, never
/// guessed; the same at huge and tiny scales.
#[test]
fn open_mesh_signs_come_from_the_winding_number_and_say_when_undecided() {
    let closed_box = cube(2, 0.5);
    let open_box = without(&closed_box, |i| is_top(&closed_box, i));
    for scale in [1.0, 2f64.powi(200), 2f64.powi(-200)] {
        let mesh = scaled(&open_box, scale);
        let model: Model = Model::new(mesh.clone()).unwrap();
        let points = [
            Point::new(0.5, 0.5, 0.3),
            Point::new(0.2, 0.7, 0.5),
            Point::new(2.0, 0.5, 0.5),
            Point::new(0.5, 0.5, 1.0),
            Point::new(0.5, 0.5, 1.5),
            Point::new(0.5, 0.5, 0.0),
        ]
        .map(|p| p * scale);
        let request = PointRequest::default().with_signed(true);
        let found = closest_points(&model, &Pose::identity(), &points, &request).unwrap();
        let sides: Vec<Option<Side>> = found.iter().map(|c| c.unwrap().side).collect();
        use Side::*;
        assert_eq!(
            sides,
            [Inside, Inside, Outside, Undecided, Outside, Surface].map(Some),
            "scale {scale}"
        );
        let truth = [-0.3, -0.2, 1.0, 0.5, 0.5f64.hypot(0.5), 0.0];
        for (c, d) in found.iter().zip(truth) {
            let c = c.unwrap();
            assert!(
                (c.distance / scale - d).abs() <= 1e-12,
                "scale {scale}: {c:?}, {d}"
            );
        }
    }
}

/// Whether triangle `i` of `mesh` lies in the plane z = max (the top face).
fn is_top(mesh: &TriMesh, i: usize) -> bool {
    let top = mesh.vertices().iter().map(|p| p.z).fold(f64::MIN, f64::max);
    mesh.triangles()[i]
        .iter()
        .all(|&v| mesh.vertices()[v as usize].z == top)
}

/// Batched containment answers as each point alone, on meshes and shapes at random poses, and
/// equals exact box containment for the cube.
#[test]
fn batched_containment_answers_as_each_point_alone() {
    let mut r = rng(14);
    let models: [Model; 3] = [
        Model::new(cube(2, 0.5)).unwrap(),
        Model::new(blob(2, 8, 10, 1.0, 0.3)).unwrap(),
        Model::from_shape(Shape::capsule(0.5, 1.0).unwrap()),
    ];
    for (k, model) in models.iter().enumerate() {
        let pose = if k == 0 {
            Pose::identity()
        } else {
            random_pose(&mut r, 1.0)
        };
        let mut points: Vec<Point> = (0..300)
            .map(|_| Point::from(Vector::from_fn(|_, _| r.gen_range(-2.0..2.0))))
            .collect();
        if k == 0 {
            // On faces, edges and corners, exactly.
            points.extend([[0.0, 0.5, 0.5], [1.0, 1.0, 0.25], [1.0, 1.0, 1.0]].map(Point::from));
        }
        let batch = contains_points(model, &pose, &points).unwrap();
        for (q, inside) in points.iter().zip(&batch) {
            assert_eq!(*inside, contains_point(model, &pose, q).unwrap(), "{q:?}");
            if k == 0 {
                let in_box = q.iter().all(|c| (0.0..=1.0).contains(c));
                assert_eq!(*inside, in_box, "{q:?}");
            }
        }
    }
}

/// Consecutive points of a batch decide each other's side and winding number on a closed
/// mesh (the segment between them): on a dyadic grid through a cube's corners, edges and
/// faces, where many of those segments run along a face or through an edge or a corner, every
/// side is still the exact box test's, at poses that place the cube exactly; turned inside
/// out, the cube still holds its inside (odd winding number −1).
#[test]
fn sides_along_a_batch_match_the_box_through_corners_edges_and_faces() {
    let cube = TriMesh::cuboid(Point::new(-1.0, -1.0, -1.0), Point::new(1.0, 1.0, 1.0)).unwrap();
    let steps = || (0..17).map(|k| -2.0 + 0.25 * f64::from(k));
    let grid: Vec<Point> = steps()
        .flat_map(|x| steps().flat_map(move |y| steps().map(move |z| Point::new(x, y, z))))
        .collect();
    let inverted: Model = Model::new(joined(&[(&cube, true)])).unwrap();
    let inside = contains_points(&inverted, &Pose::identity(), &grid).unwrap();
    let windings = winding_numbers(
        &inverted,
        &Pose::identity(),
        &grid,
        &WindingRequest::default(),
    );
    for ((p, inside), w) in grid.iter().zip(&inside).zip(windings.unwrap()) {
        let farthest = p.iter().fold(0.0_f64, |m, c| m.max(c.abs()));
        assert_eq!(*inside, farthest <= 1.0, "{p:?} inverted");
        if farthest != 1.0 {
            assert_eq!(
                w.exact(),
                Some(-i64::from(farthest < 1.0)),
                "{p:?} inverted"
            );
        }
    }
    let model: Model = Model::new(cube).unwrap();
    for shift in [Vector::zeros(), Vector::new(0.5, -0.25, 3.0)] {
        let pose = Pose::from_translation(shift).unwrap();
        let points: Vec<Point> = grid.iter().map(|p| p + shift).collect();
        let inside = contains_points(&model, &pose, &points).unwrap();
        let request = PointRequest::default().with_signed(true);
        let found = closest_points(&model, &pose, &points, &request).unwrap();
        for ((p, inside), found) in grid.iter().zip(&inside).zip(&found) {
            let farthest = p.iter().fold(0.0_f64, |m, c| m.max(c.abs()));
            assert_eq!(*inside, farthest <= 1.0, "{p:?} at {shift:?}");
            let want = match farthest {
                f if f < 1.0 => Side::Inside,
                1.0 => Side::Surface,
                _ => Side::Outside,
            };
            assert_eq!(found.unwrap().side, Some(want), "{p:?} at {shift:?}");
        }
    }
}

/// A point's side on a closed mesh may come from a recent point of its batch without a look at
/// the tree, when the two balls about them that the surface does not enter cover the segment
/// between them, and otherwise from the crossings of the part between the balls. Here walls
/// 0.02 thick (a hollow box: a cube with an inverted cube inside) and nested shells (winding
/// number 2 in the inner one, outside by parity) at random poses, with dense points within
/// 0.06 of the walls, so that the balls are small and many segments between neighbours cross
/// a wall: every side is the direct sum's parity.
#[test]
fn sides_from_recent_points_match_the_direct_sum_across_thin_walls() {
    let outer = cube(4, 0.5);
    let inner = moved(&cube(4, 0.49), 0.02);
    let mut r = rng(41);
    let request = PointRequest::default().with_signed(true);
    for inverted in [true, false] {
        let mesh = joined(&[(&outer, false), (&inner, inverted)]);
        let model: Model = Model::new(mesh.clone()).unwrap();
        for pose in [Pose::identity(), random_pose(&mut r, 3.0)] {
            let near_walls: Vec<Point> = (0..1500)
                .map(|_| {
                    let mut q = Point::from(Vector::from_fn(|_, _| r.gen_range(-0.1..2.1)));
                    let wall = [0.0, 2.0][r.gen_range(0..2)];
                    q[r.gen_range(0..3)] = wall + r.gen_range(-0.06..0.06);
                    pose.transform_point(&q)
                })
                .collect();
            let tris = placed(&mesh, &pose);
            let points: Vec<Point> = near_walls
                .into_iter()
                .filter(|q| clear_of_triangles(q, &tris))
                .collect();
            let found = closest_points(&model, &pose, &points, &request).unwrap();
            let contained = contains_points(&model, &pose, &points).unwrap();
            let mut sides = [0; 2];
            for ((q, found), contained) in points.iter().zip(&found).zip(&contained) {
                let inside = (oracle(q, &tris).round() as i64).rem_euclid(2) == 1;
                let want = if inside { Side::Inside } else { Side::Outside };
                let what = format!("{q:?} inverted {inverted} at {pose:?}");
                assert_eq!(found.unwrap().side, Some(want), "{what}");
                assert_eq!(*contained, inside, "{what}");
                sides[usize::from(inside)] += 1;
            }
            assert!(sides.iter().all(|&n| n > 150), "{sides:?}");
        }
    }
}

/// A closed mesh's crossings are found over the model's own tree until a point query has built
/// the picking tree, and over that tree after: the same sides either way, each the direct
/// sum's parity (thin walls and nested shells at random poses), and the exact box test's on a
/// dyadic grid through a cube's corners, edges and faces (rays and segments that graze).
#[test]
fn containment_is_the_same_over_either_tree() {
    let outer = cube(4, 0.5);
    let inner = moved(&cube(4, 0.49), 0.02);
    let mut r = rng(43);
    for inverted in [true, false] {
        let mesh = joined(&[(&outer, false), (&inner, inverted)]);
        let pose = random_pose(&mut r, 3.0);
        let tris = placed(&mesh, &pose);
        let points: Vec<Point> = (0..1500)
            .map(|_| {
                let mut q = Point::from(Vector::from_fn(|_, _| r.gen_range(-0.1..2.1)));
                q[r.gen_range(0..3)] = [0.0, 2.0][r.gen_range(0..2)] + r.gen_range(-0.06..0.06);
                pose.transform_point(&q)
            })
            .filter(|q| clear_of_triangles(q, &tris))
            .collect();
        let model: Model = Model::new(mesh).unwrap();
        let own_tree = contains_points(&model, &pose, &points).unwrap();
        model.prepare_points();
        let picking_tree = contains_points(&model, &pose, &points).unwrap();
        let mut sides = [0; 2];
        for ((q, own), picking) in points.iter().zip(&own_tree).zip(&picking_tree) {
            let inside = (oracle(q, &tris).round() as i64).rem_euclid(2) == 1;
            assert_eq!(
                (*own, *picking),
                (inside, inside),
                "{q:?} inverted {inverted}"
            );
            sides[usize::from(inside)] += 1;
        }
        assert!(sides.iter().all(|&n| n > 150), "{sides:?}");
    }
    let unit = TriMesh::cuboid(Point::new(-1.0, -1.0, -1.0), Point::new(1.0, 1.0, 1.0)).unwrap();
    let steps = || (0..17).map(|k| -2.0 + 0.25 * f64::from(k));
    let grid: Vec<Point> = steps()
        .flat_map(|x| steps().flat_map(move |y| steps().map(move |z| Point::new(x, y, z))))
        .collect();
    let model: Model = Model::new(unit).unwrap();
    let want: Vec<bool> = grid
        .iter()
        .map(|p| p.iter().all(|c| c.abs() <= 1.0))
        .collect();
    let alone = |model: &Model| -> Vec<bool> {
        let id = Pose::identity();
        grid.iter()
            .map(|p| contains_point(model, &id, p).unwrap())
            .collect()
    };
    assert_eq!(alone(&model), want);
    assert_eq!(
        contains_points(&model, &Pose::identity(), &grid).unwrap(),
        want
    );
    model.prepare_points();
    assert_eq!(alone(&model), want);
    assert_eq!(
        contains_points(&model, &Pose::identity(), &grid).unwrap(),
        want
    );
}

/// `mesh` with vertices at equal coordinates made one (so that two parts meeting along an
/// edge share its vertex indices).
fn welded(mesh: &TriMesh) -> TriMesh {
    let mut vertices: Vec<Point> = Vec::new();
    let index: Vec<u32> = (mesh.vertices().iter())
        .map(|p| match vertices.iter().position(|v| v == p) {
            Some(i) => i as u32,
            None => {
                vertices.push(*p);
                vertices.len() as u32 - 1
            }
        })
        .collect();
    let triangles = mesh
        .triangles()
        .iter()
        .map(|t| t.map(|v| index[v as usize]));
    TriMesh::new(vertices, triangles.collect()).unwrap()
}

/// Two cubes meeting along one edge, welded there (the edge's triangles four, two each way,
/// as in a reconstructed scan's non-manifold edges): a closed surface, so winding numbers are
/// exact integers and signs exact, from the crossings as on a manifold. Points within 0.3 of
/// the shared edge, at the identity and a random pose: winding numbers, `contains_points`,
/// signed closest points and a signed grid against the direct sum.
#[test]
fn cubes_meeting_along_an_edge_are_closed_with_exact_signs() {
    let first = cube(2, 0.5);
    let second = moved(&cube(2, 0.5), 1.0);
    let second = TriMesh::new(
        (second.vertices().iter())
            .map(|p| Point::new(p.x, p.y, p.z - 1.0))
            .collect(),
        second.triangles().to_vec(),
    )
    .unwrap();
    let mesh = welded(&joined(&[(&first, false), (&second, false)]));
    assert_eq!(
        mesh.vertices().len(),
        2 * 26 - 3,
        "the shared edge's three vertices"
    );
    assert!(mesh.is_closed());
    let model: Model = Model::new(mesh.clone()).unwrap();
    let mut r = rng(43);
    let request = PointRequest::default().with_signed(true);
    for pose in [Pose::identity(), random_pose(&mut r, 3.0)] {
        let tris = placed(&mesh, &pose);
        let points: Vec<Point> = (0..1500)
            .map(|_| {
                let z = r.gen_range(-0.1..1.1);
                let (x, y) = (r.gen_range(0.7..1.3), r.gen_range(0.7..1.3));
                pose.transform_point(&Point::new(x, y, z))
            })
            .filter(|q| clear_of_triangles(q, &tris))
            .collect();
        let windings = winding_numbers(&model, &pose, &points, &WindingRequest::default()).unwrap();
        let found = closest_points(&model, &pose, &points, &request).unwrap();
        let contained = contains_points(&model, &pose, &points).unwrap();
        let mut sides = [0; 2];
        for (i, q) in points.iter().enumerate() {
            let truth = oracle(q, &tris).round();
            let inside = truth == 1.0;
            let want = if inside { Side::Inside } else { Side::Outside };
            assert_eq!(windings[i].exact(), Some(truth as i64), "{q:?} at {pose:?}");
            assert_eq!(found[i].unwrap().side, Some(want), "{q:?} at {pose:?}");
            assert_eq!(contained[i], inside, "{q:?} at {pose:?}");
            sides[usize::from(inside)] += 1;
        }
        assert!(sides.iter().all(|&n| n > 300), "{sides:?}");
    }
    let grid = Grid {
        min: Point::new(0.55, 0.55, -0.05),
        max: Point::new(1.45, 1.45, 1.05),
        resolution: [10, 10, 12],
    };
    let values = sdf_grid(&model, &grid).unwrap();
    let tris = placed(&mesh, &Pose::identity());
    let mut inside = 0;
    for (n, value) in values.iter().enumerate() {
        let ijk = [n / 120, n / 12 % 10, n % 12];
        let q = grid.point(ijk);
        if *value != 0.0 {
            assert_eq!(
                *value < 0.0,
                oracle(&q, &tris).round() == 1.0,
                "{ijk:?}: {value}"
            );
            inside += usize::from(*value < 0.0);
        }
    }
    assert!(inside > 100, "{inside}");
}

#[test]
fn bad_requests_and_points_are_typed_errors() {
    let closed: Model = Model::new(cube(1, 1.0)).unwrap();
    let id = Pose::identity();
    let good = [Point::new(0.5, 0.5, 3.0)];
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let e =
            winding_numbers(&closed, &id, &good, &WindingRequest { tolerance: bad }).unwrap_err();
        assert!(
            matches!(
                e.source,
                QueryError::InvalidTolerance {
                    name: "tolerance",
                    ..
                }
            ),
            "{e}"
        );
    }
    let points = [good[0], Point::new(0.0, f64::NAN, 0.0)];
    let request = WindingRequest::default();
    for e in [
        winding_numbers(&closed, &id, &points, &request).unwrap_err(),
        contains_points(&closed, &id, &points).unwrap_err(),
    ] {
        assert!(
            matches!(
                e,
                BatchError {
                    index: 1,
                    source: QueryError::InvalidPoint(_)
                }
            ),
            "{e}"
        );
    }
    let ball: Model = Model::from_shape(Shape::sphere(1.0).unwrap());
    let e = winding_numbers(&ball, &id, &good, &request).unwrap_err();
    assert!(matches!(e.source, QueryError::NotAMesh { .. }), "{e}");
    assert!(winding_numbers(&closed, &id, &[], &request)
        .unwrap()
        .is_empty());
}

/// `Winding`'s own decisions.
#[test]
fn a_winding_decides_its_side_only_when_the_bound_allows() {
    let w = |value, bound| Winding { value, bound };
    assert_eq!(w(1.0, 0.0).exact(), Some(1));
    assert_eq!(w(0.75, 0.0).exact(), None);
    assert_eq!(w(1.0, 1e-9).exact(), None);
    assert_eq!(w(0.6, 0.09).inside(), Some(true));
    assert_eq!(w(0.6, 0.1).inside(), None);
    assert_eq!(w(0.4, 0.09).inside(), Some(false));
    assert_eq!(w(0.4, 0.1).inside(), None);
}

/// A signed distance grid equals the signed closest-point query at each of its points (NaN
/// where the side is undecided), on a closed box whose grid rows run exactly along its faces
/// and edges (the row's exact segment grazes, and each point is decided alone), a closed blob
/// (with rows starting outside and inside it) and an open box.
#[test]
fn a_grid_is_the_signed_distance_of_each_of_its_points() {
    let closed_box = cube(2, 0.5);
    let open_box = without(&closed_box, |i| is_top(&closed_box, i));
    let blob_mesh = blob(9, 10, 14, 1.0, 0.3);
    let cases = [
        (
            closed_box,
            Point::new(-0.25, -0.25, -0.25),
            Point::new(1.25, 1.25, 1.25),
            [7, 7, 7],
        ),
        (
            open_box,
            Point::new(-0.25, -0.25, -0.25),
            Point::new(1.25, 1.25, 1.25),
            [7, 7, 7],
        ),
        (
            blob_mesh.clone(),
            Point::new(-1.3, -1.2, -1.1),
            Point::new(1.2, 1.3, 1.4),
            [11, 10, 12],
        ),
        // Every row starts inside the solid (so its crossings are odd in number).
        (
            blob_mesh,
            Point::new(-0.2, -0.25, -0.3),
            Point::new(1.2, 1.1, 1.3),
            [6, 5, 7],
        ),
    ];
    let signed = PointRequest::default().with_signed(true);
    let mut sides = [0; 4];
    for (mesh, min, max, resolution) in cases {
        let model: Model = Model::new(mesh).unwrap();
        let grid = Grid {
            min,
            max,
            resolution,
        };
        let [nx, ny, nz] = resolution;
        let values = sdf_grid(&model, &grid).unwrap();
        let mut points = Vec::new();
        for i in 0..nx {
            for j in 0..ny {
                for k in 0..nz {
                    points.push(grid.point([i, j, k]));
                }
            }
        }
        let found = closest_points(&model, &Pose::identity(), &points, &signed).unwrap();
        for ((p, value), c) in points.iter().zip(&values).zip(&found) {
            let c = c.unwrap();
            sides[c.side.unwrap() as usize] += 1;
            if c.side == Some(Side::Undecided) {
                assert!(value.is_nan(), "{p:?}");
            } else {
                // The same sign, 0 exactly together, and the same distance up to how far apart
                // two walks may settle near-tied triangles (far within the guarantee).
                let near = 1e-13 * (p.coords.abs().sum() + 2.0);
                assert_eq!(value.signum(), c.distance.signum(), "{p:?}");
                assert_eq!(*value == 0.0, c.distance == 0.0, "{p:?}");
                assert!(
                    (value - c.distance).abs() <= near,
                    "{p:?}: {value} against {}",
                    c.distance
                );
            }
        }
    }
    assert!(
        sides.iter().all(|&n| n > 0),
        "outside, surface, inside, undecided: {sides:?}"
    );
}

/// Signed grids and batches on open meshes (a box without its top, a bumpy sphere without its cap) whose
/// winding number passes ½ away from the surface, across the opening: along a row the grid
/// carries a point's winding-number interval to the next, shifted by the segment's crossings
/// of the surface and widened by the bound on its change off it, so a bound too small, or a
/// crossing missed or counted the wrong way, carries sides across ½. Every decided sign is
/// the direct sum's side of ½, and a point is left undecided only where the sum is ½ to
/// within 1e-6.
#[test]
fn open_grids_carry_sides_only_where_the_winding_number_cannot_reach_half() {
    let closed_box = cube(4, 0.25);
    let open_box = without(&closed_box, |i| is_top(&closed_box, i));
    let round = blob(17, 12, 16, 1.0, 0.2);
    let capped = without(&round, |i| {
        let t = round.triangle(i);
        t.a.z.min(t.b.z).min(t.c.z) > 0.5
    });
    let cases = [
        (
            open_box,
            Point::new(-0.3, -0.3, -0.3),
            Point::new(1.3, 1.3, 1.9),
        ),
        (
            capped,
            Point::new(-1.3, -1.3, -1.3),
            Point::new(1.3, 1.3, 2.4),
        ),
    ];
    for (mesh, min, max) in cases {
        let model: Model = Model::new(mesh.clone()).unwrap();
        let grid = Grid {
            min,
            max,
            resolution: [19, 19, 41],
        };
        let values = sdf_grid(&model, &grid).unwrap();
        let tris = placed(&mesh, &Pose::identity());
        let mut sides = [0; 2];
        for (n, value) in values.iter().enumerate() {
            let q = grid.point([n / (19 * 41), n / 41 % 19, n % 41]);
            if *value == 0.0 || !clear_of_triangles(&q, &tris) {
                continue;
            }
            let truth = oracle(&q, &tris);
            if value.is_nan() {
                assert!((truth - 0.5).abs() < 1e-6, "{q:?}: undecided, sum {truth}");
            } else if (truth - 0.5).abs() > 1e-6 {
                assert_eq!(*value < 0.0, truth > 0.5, "{q:?}: {value}, sum {truth}");
                sides[usize::from(*value < 0.0)] += 1;
            }
        }
        assert!(sides.iter().all(|&n| n > 1000), "{sides:?}");
        batch_signs_match_the_direct_sum(&model, &mesh, &grid);
    }
}

/// The signed closest points of a grid's points as one batch (which carries each point's
/// bracket to the next along its spatial order, across the opening and the walls), at a random
/// pose: every decided side is the direct sum's, undecided only where the sum is ½ to 1e-6.
fn batch_signs_match_the_direct_sum(model: &Model, mesh: &TriMesh, grid: &Grid) {
    let pose = random_pose(&mut rng(47), 2.0);
    let tris = placed(mesh, &pose);
    let [nx, ny, nz] = grid.resolution;
    let points: Vec<Point> = (0..nx * ny * nz)
        .map(|n| pose.transform_point(&grid.point([n / (ny * nz), n / nz % ny, n % nz])))
        .filter(|q| clear_of_triangles(q, &tris))
        .collect();
    let request = PointRequest::default().with_signed(true);
    let found = closest_points(model, &pose, &points, &request).unwrap();
    let mut sides = [0; 2];
    for (q, found) in points.iter().zip(&found) {
        let truth = oracle(q, &tris);
        match found.unwrap().side {
            Some(Side::Undecided) => assert!((truth - 0.5).abs() < 1e-6, "{q:?}: sum {truth}"),
            Some(side) if (truth - 0.5).abs() > 1e-6 => {
                let inside = side == Side::Inside;
                assert_eq!(inside, truth > 0.5, "{q:?}: {side:?}, sum {truth}");
                sides[usize::from(inside)] += 1;
            }
            _ => {}
        }
    }
    assert!(sides.iter().all(|&n| n > 1000), "batch: {sides:?}");
}

#[test]
fn malformed_grids_are_typed_errors() {
    let model: Model = Model::new(cube(1, 1.0)).unwrap();
    let good = Grid {
        min: Point::origin(),
        max: Point::new(1.0, 1.0, 1.0),
        resolution: [2, 2, 2],
    };
    let bad = [
        Grid {
            resolution: [2, 0, 2],
            ..good
        },
        Grid {
            min: Point::new(2.0, 0.0, 0.0),
            ..good
        },
        Grid {
            max: Point::new(1.0, f64::NAN, 1.0),
            ..good
        },
        Grid {
            resolution: [usize::MAX, 2, 2],
            ..good
        },
    ];
    for grid in bad {
        assert!(
            matches!(sdf_grid(&model, &grid), Err(QueryError::InvalidGrid(_))),
            "{grid:?}"
        );
    }
    let mut short = vec![0.0; 3];
    assert!(matches!(
        sdf_grid_into(&model, &good, 0, &mut short),
        Err(QueryError::InvalidGrid(_))
    ));
    let mut slice = vec![0.0; 4];
    assert!(matches!(
        sdf_grid_into(&model, &good, 2, &mut slice),
        Err(QueryError::InvalidGrid(_))
    ));
    assert_eq!(sdf_grid_into(&model, &good, 1, &mut slice), Ok(0));
    let ball: Model = Model::from_shape(Shape::sphere(1.0).unwrap());
    assert!(matches!(
        sdf_grid(&ball, &good),
        Err(QueryError::NotAMesh { .. })
    ));
}
