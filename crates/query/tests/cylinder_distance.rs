//! Distances and margins of a cylinder against every kind of model, against oracles that share
//! no code with the engine: the closed-form distance from a point to a solid cylinder (radial
//! and axial excess), and dense samples of the other solid's boundary. A sample set whose
//! every boundary point is within `h` of a sample gives `up − h <= d* <= up`, `up` the least
//! sampled distance (a convex solid's distance function is 1-Lipschitz, and a solid apart from
//! the cylinder is nearest it on its boundary). Hand-made cases have distances known in closed
//! form; random ones (proptest) check that the reported distance and interval agree with the
//! oracle's, that the points lie on the two solids and are the reported distance apart, and,
//! where the nearest points are known to be on the side, that the distance is the capsule
//! formula's. Halfspace margins are checked exact at the boundary.

mod common;

use common::{cube, random_pose, rng};
use obbtree_bv::shape::{PlacedShape, Shape};
use obbtree_bv::{Point, Pose, TriMesh, Vector};
use obbtree_query::{
    distance, distance_many, proximity_pairs, within_margin, DistanceRequest, DistanceResult, Model,
};
use proptest::prelude::*;
use rand::Rng;

/// A placed cylinder as the oracle sees it.
#[derive(Clone, Copy, Debug)]
struct Cyl {
    a: Point,
    b: Point,
    r: f64,
}

impl Cyl {
    fn placed(shape: &Shape, pose: &Pose) -> Self {
        match shape.place(pose).unwrap() {
            PlacedShape::Cylinder { a, b, radius } => Cyl { a, b, r: radius },
            other => panic!("not a cylinder: {other:?}"),
        }
    }

    /// The distance from `p` to the solid: `√(radial² + axial²)` of the excesses beyond the
    /// radius and beyond the caps.
    fn distance_to(&self, p: &Point) -> f64 {
        common::cylinder::point_solid_cylinder(&self.a, &self.b, self.r, p)
    }

    fn scale(&self) -> f64 {
        self.a.coords.amax().max(self.b.coords.amax()) + self.r
    }
}

/// The distance from `p` to the triangle `t` (projection inside, else the nearest edge).
fn point_triangle(p: &Point, t: &[Point; 3]) -> f64 {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let inside = (0..3).all(|i| {
        let (x, y) = (t[i], t[(i + 1) % 3]);
        (y - x).cross(&(p - x)).dot(&n) >= 0.0
    });
    if inside && n.norm() > 0.0 {
        return ((p - t[0]).dot(&n) / n.norm()).abs();
    }
    (0..3)
        .map(|i| point_segment(p, &t[i], &t[(i + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
}

fn point_segment(p: &Point, a: &Point, b: &Point) -> f64 {
    let d = b - a;
    let s = if d.norm_squared() > 0.0 {
        ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + d * s)).norm()
}

/// Samples of a triangle on a barycentric grid of `n` steps, and their covering radius (the
/// longest edge over `n`).
fn triangle_samples(t: &[Point; 3], n: usize) -> (Vec<Point>, f64) {
    let mut out = Vec::new();
    for i in 0..=n {
        for j in 0..=n - i {
            let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
            out.push(t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v);
        }
    }
    let longest = (0..3)
        .map(|i| (t[(i + 1) % 3] - t[i]).norm())
        .fold(0.0, f64::max);
    (out, longest / n as f64)
}

/// Samples of a cylinder's boundary (side and caps, `n` steps around and along and across),
/// and a bound on their covering radius.
fn cylinder_samples(c: &Cyl, n: usize) -> (Vec<Point>, f64) {
    let axis = c.b - c.a;
    let u = axis.normalize();
    let x = if u.x.abs() < 0.9 {
        Vector::x()
    } else {
        Vector::y()
    };
    let e1 = (x - u * x.dot(&u)).normalize();
    let e2 = u.cross(&e1);
    let step = std::f64::consts::TAU / n as f64;
    let mut out = Vec::new();
    for i in 0..n {
        let (s, co) = (i as f64 * step).sin_cos();
        let around = e1 * co + e2 * s;
        for k in 0..=n {
            out.push(c.a + axis * (k as f64 / n as f64) + around * c.r);
            let rho = c.r * k as f64 / n as f64;
            out.push(c.a + around * rho);
            out.push(c.b + around * rho);
        }
    }
    let h = (c.r * step)
        .hypot(axis.norm() / n as f64)
        .hypot(c.r / n as f64);
    (out, h)
}

/// The oracle's interval `[up − h, up]` from samples of the other solid's boundary.
fn sampled(c: &Cyl, samples: &(Vec<Point>, f64), less: f64) -> (f64, f64) {
    let up = samples
        .0
        .iter()
        .map(|p| c.distance_to(p))
        .fold(f64::INFINITY, f64::min)
        - less;
    ((up - samples.1).max(0.0), up.max(0.0))
}

/// The reported distance and interval agree with the oracle's interval `[lo, up]`, within the
/// promise `1e-12·(d + L)`, and the points are the distance apart.
///
/// The few searches that do not settle report a wider, still certified, interval (their rate
/// is counted in the bv crate's `tests/cylinder_distance.rs`): the distance is then held to
/// the interval's width.
fn check_interval(got: &DistanceResult, (lo, up): (f64, f64), scale: f64) {
    let tol = 1e-12 * (up + scale) + (got.upper - got.lower);
    assert!(
        got.lower <= got.distance + tol && got.distance <= got.upper + tol,
        "{got:?}"
    );
    assert!(
        got.lower <= up + tol,
        "lower {} above the oracle's {up}",
        got.lower
    );
    assert!(
        got.upper >= lo - tol,
        "upper {} below the oracle's {lo}",
        got.upper
    );
    assert!(
        got.distance >= lo - tol && got.distance <= up + tol,
        "{} outside [{lo}, {up}]",
        got.distance
    );
    let apart = (got.point_a - got.point_b).norm();
    assert!((apart - got.distance).abs() <= tol, "{apart} vs {got:?}");
}

fn id() -> Pose {
    Pose::identity()
}

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::from_translation([x, y, z]).unwrap()
}

fn query(a: &Model, pa: &Pose, b: &Model, pb: &Pose) -> DistanceResult {
    distance(a, pa, b, pb, &DistanceRequest::default()).unwrap()
}

/// A single-triangle mesh model.
fn triangle_model(t: [Point; 3]) -> Model {
    Model::new(TriMesh::new(t.to_vec(), vec![[0, 1, 2]]).unwrap()).unwrap()
}

/// The unit drum: radius 1, axis from z = −1 to z = 1, scaled by `s`.
fn drum(s: f64) -> Shape {
    Shape::cylinder(s, 2.0 * s).unwrap()
}

fn close(got: f64, want: f64, scale: f64) -> bool {
    (got - want).abs() <= 1e-12 * (want + scale)
}

#[test]
fn a_side_a_rim_and_a_cap_against_triangles() {
    let c = Model::from_shape(drum(1.0));
    // A face parallel to the side, 0.5 from it.
    let side = triangle_model([
        Point::new(1.5, -3.0, -2.0),
        Point::new(1.5, 3.0, -2.0),
        Point::new(1.5, 0.0, 3.0),
    ]);
    // A face in the plane x + z = 3: nearest the rim point (1, 0, 1), 1/√2 away.
    let rim = triangle_model([
        Point::new(1.0, -3.0, 2.0),
        Point::new(1.0, 3.0, 2.0),
        Point::new(3.0, 0.0, 0.0),
    ]);
    // A vertex 0.75 above the top cap, the rest higher.
    let cap = triangle_model([
        Point::new(0.25, 0.0, 1.75),
        Point::new(1.0, 1.0, 3.0),
        Point::new(-1.0, 1.0, 3.0),
    ]);
    for (mesh, want) in [
        (&side, 0.5),
        (&rim, std::f64::consts::FRAC_1_SQRT_2),
        (&cap, 0.75),
    ] {
        for (got, cylinder_point) in [
            (query(&c, &id(), mesh, &id()), 0),
            (query(mesh, &id(), &c, &id()), 1),
        ] {
            assert!(close(got.distance, want, 3.0), "{want}: {got:?}");
            assert!(got.lower <= want && want <= got.upper, "{want}: {got:?}");
            assert!(!got.intersects && got.pair == [0, 0]);
            let p = [got.point_a, got.point_b][cylinder_point];
            assert!(Cyl::placed(&drum(1.0), &id()).distance_to(&p) <= 1e-12);
        }
    }
}

/// Sphere, capsule and boxes at dyadic positions around the drum, at scales 1, 1e6 and 1e-6:
/// side, cap and rim nearest, each distance known in closed form.
#[test]
fn spheres_capsules_and_boxes_on_a_dyadic_grid_at_every_scale() {
    for s in [1.0, 1e6, 1e-6] {
        let c = Model::from_shape(drum(s));
        let cases = [
            (
                Shape::sphere(0.5 * s).unwrap(),
                at(3.0 * s, 0.0, 0.5 * s),
                1.5,
            ),
            (
                Shape::capsule(0.25 * s, 4.0 * s).unwrap(),
                at(-4.0 * s, 0.0, 0.0),
                2.75,
            ),
            (
                Shape::cuboid([2.0 * s; 3]).unwrap(),
                at(0.0, 0.0, 4.0 * s),
                2.0,
            ),
            (
                Shape::cuboid([2.0 * s; 3]).unwrap(),
                at(3.0 * s, 0.0, 3.0 * s),
                std::f64::consts::SQRT_2,
            ),
            (drum(s), at(3.0 * s, 0.0, 0.25 * s), 1.0),
            (
                drum(s),
                Pose::new([0.0, 0.0, 4.0 * s], [std::f64::consts::FRAC_PI_2, 0.0, 0.0]).unwrap(),
                2.0,
            ),
        ];
        for (shape, pose, want) in cases {
            let other = Model::from_shape(shape);
            let want = want * s;
            for got in [
                query(&c, &id(), &other, &pose),
                query(&other, &pose, &c, &id()),
            ] {
                assert!(close(got.distance, want, 5.0 * s), "{s} {want}: {got:?}");
                assert!(got.lower <= want && want <= got.upper, "{want}: {got:?}");
                assert!(got.upper - got.lower <= 1e-12 * (want + 5.0 * s), "{got:?}");
            }
            assert!(within_margin(&c, &id(), &other, &pose, want)
                .unwrap()
                .is_some());
            let below = want * (1.0 - 1e-9);
            assert!(within_margin(&c, &id(), &other, &pose, below)
                .unwrap()
                .is_none());
            assert_eq!(
                proximity_pairs(&other, &pose, &c, &id(), want).unwrap(),
                [[0, 0]]
            );
            assert!(proximity_pairs(&other, &pose, &c, &id(), below)
                .unwrap()
                .is_empty());
        }
    }
}

#[test]
fn touching_solids_are_at_distance_zero() {
    let c = Model::from_shape(drum(1.0));
    // A unit ball touching the side at (1, 0, 0), a triangle touching the cap, and a triangle
    // wholly inside.
    let ball = Model::from_shape(Shape::sphere(1.0).unwrap());
    let got = query(&c, &id(), &ball, &at(2.0, 0.0, 0.0));
    assert!(
        got.intersects && got.distance == 0.0 && got.upper == 0.0,
        "{got:?}"
    );
    assert_eq!(got.pair, [0, 0]);
    let on_cap = triangle_model([
        Point::new(0.0, 0.0, 1.0),
        Point::new(1.0, 1.0, 3.0),
        Point::new(-1.0, 1.0, 3.0),
    ]);
    let inside = triangle_model([
        Point::new(0.0, 0.0, 0.0),
        Point::new(0.5, 0.0, 0.0),
        Point::new(0.0, 0.5, 0.5),
    ]);
    for mesh in [&on_cap, &inside] {
        let got = query(mesh, &id(), &c, &id());
        assert!(got.intersects && got.distance == 0.0, "{got:?}");
        assert!(within_margin(mesh, &id(), &c, &id(), 0.0)
            .unwrap()
            .is_some());
        assert_eq!(
            proximity_pairs(mesh, &id(), &c, &id(), 0.0).unwrap(),
            [[0, 0]]
        );
    }
}

/// Against a meshed box: the distance is the least over its triangles (the oracle per
/// triangle), and the proximity pairs are exactly the triangles within the margin, on every
/// triangle whose oracle interval is clear of it.
#[test]
fn a_mesh_box_lists_exactly_the_triangles_within_the_margin() {
    let mesh = cube(3, 1.0);
    let model: Model = Model::new(mesh.clone()).unwrap();
    let mut r = rng(7);
    let (mut inside, mut outside) = (0, 0);
    for case in 0..24 {
        let radius = r.gen_range(0.2..0.8);
        let shape = Shape::cylinder(radius, r.gen_range(0.3..2.0)).unwrap();
        let mut pose = random_pose(&mut r, 1.0);
        pose = Pose::from_parts(
            pose.translation() + Vector::new(1.5, 1.5, 5.0),
            *pose.rotation(),
        )
        .unwrap();
        let c = Cyl::placed(&shape, &pose);
        let cyl = Model::from_shape(shape);
        let per_triangle: Vec<(f64, f64)> = (0..mesh.triangles().len())
            .map(|t| {
                let tri = mesh.triangle(t).vertices();
                sampled(&c, &triangle_samples(&tri, 40), 0.0)
            })
            .collect();
        let lo = per_triangle
            .iter()
            .map(|x| x.0)
            .fold(f64::INFINITY, f64::min);
        let up = per_triangle
            .iter()
            .map(|x| x.1)
            .fold(f64::INFINITY, f64::min);
        let got = query(&model, &id(), &cyl, &pose);
        check_interval(&got, (lo, up), c.scale().max(3.0));
        let tri = mesh.triangle(got.pair[0] as usize).vertices();
        assert!(point_triangle(&got.point_a, &tri) <= 1e-12, "case {case}");
        assert!(c.distance_to(&got.point_b) <= 1e-12, "case {case}");
        let margin = up + 0.3;
        let pairs = proximity_pairs(&model, &id(), &cyl, &pose, margin).unwrap();
        for (t, &(tlo, tup)) in per_triangle.iter().enumerate() {
            let listed = pairs.contains(&[t as u32, 0]);
            if tup < margin - 1e-9 {
                assert!(listed, "case {case}: triangle {t} at most {tup}");
                inside += 1;
            } else if tlo > margin + 1e-9 {
                assert!(!listed, "case {case}: triangle {t} at least {tlo}");
                outside += 1;
            }
        }
        assert!(within_margin(&model, &id(), &cyl, &pose, up)
            .unwrap()
            .is_some());
        assert!(within_margin(&model, &id(), &cyl, &pose, lo * 0.999)
            .unwrap()
            .is_none());
    }
    assert!(inside > 24 && outside > 24, "{inside} {outside}");
}

/// `distance_many` answers as one query at a time.
#[test]
fn many_poses_match_one_at_a_time() {
    let model: Model = Model::new(cube(2, 1.0)).unwrap();
    let cyl = Model::from_shape(drum(0.25));
    let mut r = rng(3);
    let poses: Vec<Pose> = (0..8).map(|_| random_pose(&mut r, 3.0)).collect();
    let many = distance_many(&model, &id(), &cyl, &poses, &DistanceRequest::default()).unwrap();
    for (pose, got) in poses.iter().zip(many) {
        assert_eq!(got, query(&model, &id(), &cyl, pose));
    }
}

/// The other solid of a random case, its samples and the radius to take off them.
fn other_solid(kind: u8, size: f64) -> Shape {
    match kind {
        0 => Shape::sphere(size).unwrap(),
        1 => Shape::capsule(size, 2.0 * size).unwrap(),
        2 => Shape::cuboid([size, 2.0 * size, 1.5 * size]).unwrap(),
        _ => Shape::cylinder(size, 1.5 * size).unwrap(),
    }
}

/// Boundary samples of a placed sphere's centre, capsule's segment (with the radius to take
/// off), box's faces or cylinder's boundary.
fn samples_of(placed: &PlacedShape, n: usize) -> ((Vec<Point>, f64), f64) {
    match placed {
        PlacedShape::Sphere { center, radius } => ((vec![*center], 0.0), *radius),
        PlacedShape::Capsule { a, b, radius } => {
            let points = (0..=n)
                .map(|k| a + (b - a) * (k as f64 / n as f64))
                .collect();
            ((points, (b - a).norm() / n as f64), *radius)
        }
        PlacedShape::Polytope(p) => {
            let (v, mut all, mut h) = (p.vertices(), Vec::new(), 0.0f64);
            for t in p.triangles() {
                let (s, hs) = triangle_samples(&t.map(|i| v[i as usize]), n);
                all.extend(s);
                h = h.max(hs);
            }
            ((all, h), 0.0)
        }
        PlacedShape::Cylinder { a, b, radius } => {
            let c = Cyl {
                a: *a,
                b: *b,
                r: *radius,
            };
            (cylinder_samples(&c, 2 * n), 0.0)
        }
        PlacedShape::Halfspace { .. } => unreachable!(),
    }
}

/// Whether `p` lies in the placed solid (up to `tol`).
fn in_solid(placed: &PlacedShape, p: &Point, tol: f64) -> bool {
    match placed {
        PlacedShape::Sphere { center, radius } => (p - center).norm() <= radius + tol,
        PlacedShape::Capsule { a, b, radius } => point_segment(p, a, b) <= radius + tol,
        PlacedShape::Polytope(poly) => {
            let v = poly.vertices();
            poly.triangles().iter().all(|t| {
                let [x, y, z] = t.map(|i| v[i as usize]);
                let n = (y - x).cross(&(z - x));
                (p - x).dot(&n) <= tol * n.norm()
            })
        }
        PlacedShape::Cylinder { a, b, radius } => {
            Cyl {
                a: *a,
                b: *b,
                r: *radius,
            }
            .distance_to(p)
                <= tol
        }
        PlacedShape::Halfspace { .. } => unreachable!(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// A random cylinder against a random sphere, capsule, box or cylinder: the interval
    /// holds the oracle's, the points lie on the solids.
    #[test]
    fn random_shapes_agree_with_the_sampled_oracle(seed in any::<u64>(), kind in 0u8..4) {
        let mut r = rng(seed);
        let shape = Shape::cylinder(r.gen_range(0.1..1.0), r.gen_range(0.1..2.0)).unwrap();
        let pose = random_pose(&mut r, 2.0);
        let other = other_solid(kind, r.gen_range(0.1..1.0));
        let other_pose = random_pose(&mut r, 3.0);
        let c = Cyl::placed(&shape, &pose);
        let placed = other.place(&other_pose).unwrap();
        let (samples, less) = samples_of(&placed, 60);
        let (lo, up) = sampled(&c, &samples, less);
        let got = query(&Model::from_shape(shape), &pose, &Model::from_shape(other), &other_pose);
        let scale = 6.0;
        if got.intersects {
            prop_assert!(lo <= 1e-12 * scale, "touching, but the oracle says {lo}");
            return Ok(());
        }
        check_interval(&got, (lo, up), scale);
        prop_assert!(c.distance_to(&got.point_a) <= 1e-12 * scale, "{got:?}");
        prop_assert!(in_solid(&placed, &got.point_b, 1e-12 * scale), "{got:?}");
    }

    /// A sphere whose centre lies beside the side (its projection strictly between the caps):
    /// the distance is the capsule formula's, `|centre − axis| − r − r_s`.
    #[test]
    fn beside_the_side_the_distance_is_the_capsule_formula(seed in any::<u64>()) {
        let mut r = rng(seed);
        let (radius, length) = (r.gen_range(0.1..1.0), r.gen_range(0.5..2.0));
        let shape = Shape::cylinder(radius, length).unwrap();
        let pose = random_pose(&mut r, 2.0);
        let c = Cyl::placed(&shape, &pose);
        let u = (c.b - c.a).normalize();
        let across = u.cross(&Vector::new(r.gen_range(-1.0..1.0), 1.0, r.gen_range(-1.0..1.0)));
        let along = r.gen_range(0.1..0.9);
        let gap = r.gen_range(0.01..2.0);
        let rs = r.gen_range(0.05..0.5);
        let centre = c.a + (c.b - c.a) * along + across.normalize() * (radius + gap + rs);
        let ball = Model::from_shape(Shape::sphere(rs).unwrap());
        let ball_pose = Pose::from_translation(centre.coords).unwrap();
        let want = point_segment(&centre, &c.a, &c.b) - radius - rs;
        let got = query(&Model::from_shape(shape), &pose, &ball, &ball_pose);
        prop_assert!(close(got.distance, want, 6.0), "{want}: {got:?}");
        prop_assert!(got.lower <= want + 1e-12 * 6.0 && want <= got.upper + 1e-12 * 6.0);
    }

    /// A random cylinder against a random triangle mesh face: as above, the mesh's point on
    /// its triangle.
    #[test]
    fn random_triangles_agree_with_the_sampled_oracle(seed in any::<u64>()) {
        let mut r = rng(seed);
        let shape = Shape::cylinder(r.gen_range(0.1..1.0), r.gen_range(0.1..2.0)).unwrap();
        let pose = random_pose(&mut r, 2.0);
        let tri = [0; 3].map(|_| Point::new(
            r.gen_range(-3.0..3.0), r.gen_range(-3.0..3.0), r.gen_range(-3.0..3.0)));
        let c = Cyl::placed(&shape, &pose);
        let (lo, up) = sampled(&c, &triangle_samples(&tri, 120), 0.0);
        let got = query(&triangle_model(tri), &id(), &Model::from_shape(shape), &pose);
        if got.intersects {
            prop_assert!(lo <= 1e-12 * 6.0, "touching, but the oracle says {lo}");
            return Ok(());
        }
        check_interval(&got, (lo, up), 6.0);
        prop_assert!(point_triangle(&got.point_a, &tri) <= 1e-12 * 6.0, "{got:?}");
        prop_assert!(c.distance_to(&got.point_b) <= 1e-12 * 6.0, "{got:?}");
    }
}

/// A cylinder against a halfspace in the margin queries: by the certified interval, here a
/// rim 0.5 above the plane.
#[test]
fn a_cylinder_and_a_halfspace_within_a_margin() {
    let c = Model::from_shape(drum(1.0));
    let floor = Model::from_shape(Shape::halfspace([0.0, 0.0, 1.0], -1.5).unwrap());
    assert!(within_margin(&c, &id(), &floor, &id(), 0.5)
        .unwrap()
        .is_some());
    assert!(within_margin(&floor, &id(), &c, &id(), 0.4999)
        .unwrap()
        .is_none());
    let got = query(&c, &id(), &floor, &id());
    assert_eq!(got.distance, 0.5);
}
