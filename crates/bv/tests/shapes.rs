//! Primitive shapes (`obbtree_bv::shape`) against exact rational oracles that share no code
//! with the engine: the distance oracle of `common/distance.rs` (Cramer's rule over integers,
//! for hulls of 1 to 3 points, extended here to polytopes by their boundary triples) and the
//! LP oracle `common::exact::hulls_meet_exact` (do two convex hulls meet). The oracles see only
//! the shapes' documented placed data: centres, segment ends, corners and vertices placed by
//! `Pose::transform_point`, radii unchanged, a halfspace's placed normal and offset.
//!
//! * random shapes and triangles at random poses, about half of them touching;
//! * hand-made exact contacts on a dyadic grid (distance exactly the radius or radius sum:
//!   touching; one ulp further: not), a capsule along a triangle's edge at distance `r`, a box
//!   face coplanar with a triangle, triangles wholly inside solids, halfspaces with non-unit
//!   normals, each also at power-of-two scales near `1e80` and `1e-60`;
//! * validation errors naming the bad field.

mod common;

use common::distance::hull_distance_squared;
use common::exact::{hulls_meet_exact, q};
use common::{tally, up};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use obbtree_bv::shape::{touches, touches_triangle, PlacedShape, Shape, ShapeError};
use obbtree_bv::{Point, Pose, Triangle, Vector};
use proptest::prelude::*;
use std::cell::Cell;

/// A shape as the test builds it.
#[derive(Clone, Debug)]
enum Spec {
    Sphere(f64),
    Capsule(f64, f64),
    Cuboid([f64; 3]),
    Convex(Vec<Point>),
    Halfspace([f64; 3], f64),
}

impl Spec {
    fn shape(&self) -> Result<Shape, ShapeError> {
        match self {
            Spec::Sphere(r) => Shape::sphere(*r),
            Spec::Capsule(r, l) => Shape::capsule(*r, *l),
            Spec::Cuboid(s) => Shape::cuboid(*s),
            Spec::Convex(points) => Shape::convex(points),
            Spec::Halfspace(n, d) => Shape::halfspace(*n, *d),
        }
    }
}

/// The oracle's view of a placed shape.
#[derive(Clone, Debug)]
enum Geo {
    /// Points within `r` of the hull of 1 or 2 points.
    Ball(Vec<Point>, f64),
    /// The hull of the points.
    Hull(Vec<Point>),
    /// `n·p <= d`.
    Half(Vector, f64),
}

/// The documented placed data of `spec` at `pose`, written out from the spec (not read from
/// the engine's hull).
fn geo(spec: &Spec, pose: &Pose, placed: &PlacedShape) -> Geo {
    let place = |p: Point| pose.transform_point(&p);
    match spec {
        Spec::Sphere(r) => Geo::Ball(vec![place(Point::origin())], *r),
        Spec::Capsule(r, l) => Geo::Ball(
            vec![
                place(Point::new(0.0, 0.0, -l / 2.0)),
                place(Point::new(0.0, 0.0, l / 2.0)),
            ],
            *r,
        ),
        Spec::Cuboid(s) => {
            let mut corners = Vec::new();
            for i in 0..8 {
                let c = |k: usize| {
                    if i >> k & 1 == 1 {
                        s[k] / 2.0
                    } else {
                        -s[k] / 2.0
                    }
                };
                corners.push(place(Point::new(c(0), c(1), c(2))));
            }
            Geo::Hull(corners)
        }
        Spec::Convex(points) => Geo::Hull(points.iter().map(|p| place(*p)).collect()),
        Spec::Halfspace(..) => match placed {
            PlacedShape::Halfspace { normal, offset } => Geo::Half(*normal, *offset),
            other => panic!("a halfspace placed as {other:?}"),
        },
    }
}

fn qv(v: &Vector) -> [BigRational; 3] {
    [q(v.x), q(v.y), q(v.z)]
}

fn qdot(a: &[BigRational; 3], b: &[BigRational; 3]) -> BigRational {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

/// `n·p − d`, exactly.
fn plane_value(n: &Vector, d: f64, p: &Point) -> BigRational {
    qdot(&qv(n), &qv(&p.coords)) - q(d)
}

/// The exact squared distance between the hull of `a` (1 to 3 points) and the hull of `b`
/// (any number): 0 if they meet (LP oracle); else the closest point of `b`'s hull lies on its
/// boundary, in a face, hence (Carathéodory in the face's plane) in the hull of three of its
/// vertices, so the least over the triples of `b` is the distance.
fn hull_dist2(a: &[Point], b: &[Point]) -> BigRational {
    if b.len() <= 3 {
        return hull_distance_squared(a, b);
    }
    if hulls_meet(a, b) {
        return BigRational::zero();
    }
    let mut best: Option<BigRational> = None;
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            for k in j + 1..b.len() {
                let d = hull_distance_squared(a, &[b[i], b[j], b[k]]);
                if best.as_ref().is_none_or(|x| d < *x) {
                    best = Some(d);
                }
            }
        }
    }
    best.expect("three points or more")
}

/// Whether the ball of radius `r` about the hull of `points` (1 or 2) meets `n·p <= d`.
fn ball_half(points: &[Point], r: f64, n: &Vector, d: f64) -> bool {
    let nn = qdot(&qv(n), &qv(n));
    points.iter().any(|c| {
        let s = plane_value(n, d, c);
        !s.is_positive() || &s * &s <= q(r) * q(r) * &nn
    })
}

/// Whether the bounding boxes of two point sets meet (exact comparisons of the coordinates):
/// when they do not, neither do the hulls, and the slow LP is spared.
fn boxes_meet(a: &[Point], b: &[Point]) -> bool {
    (0..3).all(|k| {
        let lo = |s: &[Point]| s.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min);
        let hi = |s: &[Point]| s.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max);
        lo(a) <= hi(b) && lo(b) <= hi(a)
    })
}

/// [`hulls_meet_exact`] behind the exact box test.
fn hulls_meet(a: &[Point], b: &[Point]) -> bool {
    boxes_meet(a, b) && hulls_meet_exact(a, b)
}

/// The oracle for a shape against a triangle.
fn oracle_triangle(g: &Geo, t: &Triangle) -> bool {
    let tri = t.vertices();
    match g {
        Geo::Ball(p, r) => hull_distance_squared(p, &tri) <= q(*r) * q(*r),
        Geo::Hull(h) => hulls_meet(&tri, h),
        Geo::Half(n, d) => tri.iter().any(|v| !plane_value(n, *d, v).is_positive()),
    }
}

/// The oracle for two shapes.
fn oracle_pair(a: &Geo, b: &Geo) -> bool {
    match (a, b) {
        (Geo::Ball(p, r), Geo::Ball(s, t)) => {
            let sum = q(*r) + q(*t);
            hull_distance_squared(p, s) <= &sum * &sum
        }
        (Geo::Ball(p, r), Geo::Hull(h)) | (Geo::Hull(h), Geo::Ball(p, r)) => {
            hull_dist2(p, h) <= q(*r) * q(*r)
        }
        (Geo::Hull(g), Geo::Hull(h)) => hulls_meet(g, h),
        (Geo::Half(n, d), Geo::Ball(p, r)) | (Geo::Ball(p, r), Geo::Half(n, d)) => {
            ball_half(p, *r, n, *d)
        }
        (Geo::Half(n, d), Geo::Hull(h)) | (Geo::Hull(h), Geo::Half(n, d)) => {
            h.iter().any(|v| !plane_value(n, *d, v).is_positive())
        }
        (Geo::Half(n, d), Geo::Half(m, e)) => {
            // Disjoint iff m = −λn (λ > 0) and λd + e < 0, with λ = −(m·n)/(n·n):
            // e·(n·n) < (m·n)·d.
            let (nq, mq) = (qv(n), qv(m));
            let c = [
                &nq[1] * &mq[2] - &nq[2] * &mq[1],
                &nq[2] * &mq[0] - &nq[0] * &mq[2],
                &nq[0] * &mq[1] - &nq[1] * &mq[0],
            ];
            let mn = qdot(&mq, &nq);
            let opposite = c.iter().all(Zero::is_zero) && mn.is_negative();
            !(opposite && q(*e) * qdot(&nq, &nq) < mn * q(*d))
        }
    }
}

// ---------------------------------------------------------------------------------------
// Random cases.

fn local_point(r: f64) -> impl Strategy<Value = Point> {
    (-r..r, -r..r, -r..r).prop_map(|(x, y, z)| Point::new(x, y, z))
}

fn spec(halfspaces: bool) -> impl Strategy<Value = Spec> {
    let solids = prop_oneof![
        (0.2..1.5f64).prop_map(Spec::Sphere),
        (0.1..1.0f64, 0.0..2.5f64).prop_map(|(r, l)| Spec::Capsule(r, l)),
        [0.2..2.5f64, 0.2..2.5f64, 0.2..2.5f64].prop_map(Spec::Cuboid),
        prop::collection::vec(local_point(1.2), 4..6).prop_map(Spec::Convex),
    ];
    let half = ([-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64], -2.0..2.0f64)
        .prop_map(|(n, d)| Spec::Halfspace(n, d));
    if halfspaces {
        prop_oneof![4 => solids, 1 => half].boxed()
    } else {
        solids.boxed()
    }
}

fn pose(spread: f64) -> impl Strategy<Value = Pose> {
    (
        [-spread..spread, -spread..spread, -spread..spread],
        [-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64],
        any::<bool>(),
    )
        .prop_map(|(t, r, identity)| {
            if identity {
                Pose::from_translation(t).unwrap()
            } else {
                Pose::new(t, r).unwrap()
            }
        })
}

fn triangle(spread: f64) -> impl Strategy<Value = Triangle> {
    (
        local_point(spread),
        local_point(1.5),
        local_point(1.5),
        0..6u8,
    )
        .prop_map(|(c, u, v, kind)| {
            let (a, b) = (c + u.coords, c + v.coords);
            match kind {
                0 => Triangle::new(c, c, c),
                1 => Triangle::new(c, a, a),
                _ => Triangle::new(c, a, b),
            }
        })
}

/// Places `spec`, or `None` when the random points are flat (rejected).
fn placed(spec: &Spec, pose: &Pose) -> Option<(PlacedShape, Geo)> {
    let shape = match spec.shape() {
        Ok(s) => s,
        Err(ShapeError::Flat { .. }) => return None,
        Err(e) => panic!("{spec:?}: {e}"),
    };
    let p = shape.place(pose).expect("placement in range");
    let g = geo(spec, pose, &p);
    Some((p, g))
}

/// Runs `check` on random cases and requires both answers often (at least a fifth each).
fn balanced<S: Strategy>(cases: u32, strategy: S, check: impl Fn(S::Value) -> Option<(bool, bool)>)
where
    S::Value: std::fmt::Debug,
{
    let (touching, apart) = tally(cases, file!(), strategy, check);
    let total = apart + touching;
    assert!(
        5 * touching >= total && 5 * apart >= total,
        "unbalanced: {touching} touching, {apart} apart"
    );
}

#[test]
fn random_shape_against_triangle() {
    balanced(
        256,
        (spec(true), pose(0.75), triangle(0.75)),
        |(spec, pose, t)| {
            let (p, g) = placed(&spec, &pose)?;
            Some((touches_triangle(&p, &t), oracle_triangle(&g, &t)))
        },
    );
}

#[test]
fn random_shape_against_shape() {
    balanced(
        96,
        (spec(true), pose(1.5), spec(true), pose(1.5)),
        |(s1, p1, s2, p2)| {
            let (a, g) = placed(&s1, &p1)?;
            let (b, h) = placed(&s2, &p2)?;
            let got = touches(&a, &b);
            assert_eq!(got, touches(&b, &a), "symmetry");
            Some((got, oracle_pair(&g, &h)))
        },
    );
}

/// Grid data (boxes with integer half sizes at quarter-turn poses, grid triangles): exact
/// contacts, shared planes and edges happen often.
#[test]
fn grid_shapes_against_grid_triangles() {
    let quarter = prop_oneof![
        Just([0.0, 0.0, 0.0]),
        Just([std::f64::consts::FRAC_PI_2, 0.0, 0.0]),
        Just([0.0, std::f64::consts::FRAC_PI_2, 0.0]),
    ];
    let int = |n: i32| (-n..=n).prop_map(f64::from);
    let grid_point = move |n| (int(n), int(n), int(n)).prop_map(|(x, y, z)| Point::new(x, y, z));
    let shape = prop_oneof![
        (1..=3i32).prop_map(|r| Spec::Sphere(r.into())),
        (1..=2i32, 0..=2i32).prop_map(|(r, l)| Spec::Capsule(r.into(), (2 * l).into())),
        [1..=2i32, 1..=2i32, 1..=2i32].prop_map(|s| Spec::Cuboid(s.map(|x| (2 * x).into()))),
    ];
    balanced(
        512,
        (
            shape,
            quarter,
            grid_point(2),
            [grid_point(3), grid_point(3), grid_point(3)],
        ),
        |(spec, rotation, t, [a, b, c])| {
            // Quarter turns, snapped: entries exactly 0 and ±1.
            let r = nalgebra::Rotation3::new(Vector::from(rotation))
                .matrix()
                .map(f64::round);
            let pose = Pose::from_parts(t.coords, r).unwrap();
            let (p, g) = placed(&spec, &pose)?;
            let tri = Triangle::new(a, b, c);
            Some((touches_triangle(&p, &tri), oracle_triangle(&g, &tri)))
        },
    );
}

/// Scaling every coordinate, radius, offset and translation by a power of two scales every
/// placed value exactly (no rounding changes), so every answer is the same at `2²⁶⁶` and
/// `2⁻²⁰⁰` as at 1, and the answer at 1 is the oracle's.
#[test]
fn random_answers_are_scale_invariant() {
    let scaled = |spec: &Spec, s: f64| match spec {
        Spec::Sphere(r) => Spec::Sphere(r * s),
        Spec::Capsule(r, l) => Spec::Capsule(r * s, l * s),
        Spec::Cuboid(sizes) => Spec::Cuboid(sizes.map(|x| x * s)),
        Spec::Convex(points) => Spec::Convex(points.iter().map(|p| p * s).collect()),
        Spec::Halfspace(n, d) => Spec::Halfspace(*n, d * s),
    };
    let scaled_pose =
        |pose: &Pose, s: f64| Pose::from_parts(pose.translation() * s, *pose.rotation()).unwrap();
    let [placed_cases, skipped] = [Cell::new(0usize), Cell::new(0usize)];
    balanced(
        128,
        (
            spec(true),
            pose(0.75),
            triangle(0.75),
            spec(true),
            pose(1.5),
        ),
        |(spec, pose, t, other, other_pose)| {
            let (p, g) = placed(&spec, &pose)?;
            let (o, h) = placed(&other, &other_pose)?;
            let want = (touches_triangle(&p, &t), touches(&p, &o));
            assert_eq!(want.0, oracle_triangle(&g, &t));
            for s in SCALES {
                let place = |spec: &Spec, pose: &Pose| {
                    scaled(spec, s)
                        .shape()
                        .ok()?
                        .place(&scaled_pose(pose, s))
                        .ok()
                };
                let (Some(ps), Some(os)) = (place(&spec, &pose), place(&other, &other_pose)) else {
                    // A rotation entry times a tiny coordinate left the exact range.
                    skipped.set(skipped.get() + 1);
                    continue;
                };
                placed_cases.set(placed_cases.get() + 1);
                let ts = Triangle::new(t.a * s, t.b * s, t.c * s);
                assert_eq!(touches_triangle(&ps, &ts), want.0, "scale {s:e}");
                assert_eq!(touches(&ps, &os), want.1, "scale {s:e}");
            }
            // The pair's oracle is slow: checked on a third of the cases.
            let check_pair = matches!(spec, Spec::Sphere(_) | Spec::Halfspace(..));
            assert!(!check_pair || want.1 == oracle_pair(&g, &h));
            Some((want.0, want.0))
        },
    );
    let (placed_cases, skipped) = (placed_cases.get(), skipped.get());
    assert!(
        skipped * 10 <= placed_cases,
        "{skipped} skipped, {placed_cases} placed"
    );
}

// ---------------------------------------------------------------------------------------
// Hand-made exact contacts, at three scales.

/// `1`, `2²⁶⁶ ≈ 1.2e80` and `2⁻²⁰⁰ ≈ 6.2e-61`: powers of two, so scaling every coordinate and
/// radius keeps every contact exact.
const SCALES: [f64; 3] = [1.0, 1.1857109937901178e80, 6.223015277861142e-61];

fn at(scale: f64, p: [f64; 3]) -> Pose {
    Pose::from_translation([p[0] * scale, p[1] * scale, p[2] * scale]).unwrap()
}

fn place(shape: Shape, pose: &Pose) -> PlacedShape {
    shape.place(pose).unwrap()
}

fn sphere(r: f64, scale: f64, c: [f64; 3]) -> PlacedShape {
    place(Shape::sphere(r * scale).unwrap(), &at(scale, c))
}

fn cube(size: f64, scale: f64, c: [f64; 3]) -> PlacedShape {
    let s = size * scale;
    place(Shape::cuboid([s, s, s]).unwrap(), &at(scale, c))
}

fn tri(scale: f64, v: [[f64; 3]; 3]) -> Triangle {
    let p = |v: [f64; 3]| Point::new(v[0] * scale, v[1] * scale, v[2] * scale);
    Triangle::new(p(v[0]), p(v[1]), p(v[2]))
}

#[test]
fn scales_are_powers_of_two() {
    assert_eq!(SCALES, [1.0, 2f64.powi(266), 2f64.powi(-200)]);
}

#[test]
fn spheres_in_exact_contact() {
    for s in SCALES {
        // Centres 5 apart along (3, 4, 0), radii 2 and 3.
        let a = sphere(2.0, s, [0.0; 3]);
        assert!(touches(&a, &sphere(3.0, s, [3.0, 4.0, 0.0])), "{s:e}");
        let b = place(
            Shape::sphere(3.0 * s).unwrap(),
            &Pose::from_translation([3.0 * s, up(4.0 * s), 0.0]).unwrap(),
        );
        assert!(!touches(&a, &b), "one ulp further, {s:e}");
        assert!(!touches(
            &a,
            &sphere(3.0f64.next_down(), s, [3.0, 4.0, 0.0])
        ));
        // A radius sum that is not an f64: 1 + 2⁻⁵² and 2⁻⁵³ at a distance of exactly
        // 1 + 1.5·2⁻⁵².
        let r1 = (1.0 + f64::EPSILON) * s;
        let r2 = f64::EPSILON / 2.0 * s;
        let left = place(
            Shape::sphere(r1).unwrap(),
            &Pose::from_translation([-f64::EPSILON / 2.0 * s, 0.0, 0.0]).unwrap(),
        );
        let right = |x: f64| {
            place(
                Shape::sphere(r2).unwrap(),
                &Pose::from_translation([x, 0.0, 0.0]).unwrap(),
            )
        };
        let x = (1.0 + f64::EPSILON) * s;
        assert!(touches(&left, &right(x)), "exact sum, {s:e}");
        assert!(
            !touches(&left, &right(x.next_up())),
            "one ulp beyond, {s:e}"
        );
        // The same contact between capsules and between a sphere and a capsule.
        let capsule = |r: f64, x: f64| {
            place(
                Shape::capsule(r, 2.0 * s).unwrap(),
                &Pose::new([x, 0.0, 0.0], [0.0; 3]).unwrap(),
            )
        };
        assert!(touches(&capsule(r1, -f64::EPSILON / 2.0 * s), &right(x)));
        assert!(touches(
            &capsule(r1, -f64::EPSILON / 2.0 * s),
            &capsule(r2, x)
        ));
        assert!(!touches(
            &capsule(r1, -f64::EPSILON / 2.0 * s),
            &capsule(r2, x.next_up())
        ));
        assert!(!touches(
            &capsule(r1, -f64::EPSILON / 2.0 * s),
            &right(x.next_up())
        ));
    }
}

#[test]
fn boxes_and_spheres_in_exact_contact() {
    for s in SCALES {
        let a = cube(2.0, s, [0.0; 3]);
        // Face to face at x = 1, offset sideways.
        assert!(touches(&a, &cube(2.0, s, [2.0, 0.5, 0.25])), "{s:e}");
        let far = place(
            Shape::cuboid([2.0 * s; 3]).unwrap(),
            &Pose::from_translation([up(2.0 * s), 0.5 * s, 0.25 * s]).unwrap(),
        );
        assert!(!touches(&a, &far), "one ulp apart, {s:e}");
        // Edge to edge, corner to corner.
        assert!(touches(&a, &cube(2.0, s, [2.0, 2.0, 0.0])));
        assert!(touches(&a, &cube(2.0, s, [2.0, 2.0, 2.0])));
        // A sphere on a face, and on a corner at distance 5 along (3, 4, 0).
        assert!(touches(&a, &sphere(0.5, s, [1.5, 0.0, 0.0])));
        assert!(!touches(
            &a,
            &sphere(0.5f64.next_down(), s, [1.5, 0.0, 0.0])
        ));
        assert!(touches(&a, &sphere(5.0, s, [4.0, 5.0, 1.0])));
        assert!(!touches(
            &a,
            &sphere(5.0f64.next_down(), s, [4.0, 5.0, 1.0])
        ));
        // A box rotated by a quarter turn about z, snapped (exact), touching a face.
        let r = nalgebra::Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
        let b = place(
            Shape::cuboid([4.0 * s, 2.0 * s, 2.0 * s]).unwrap(),
            &Pose::from_parts(Vector::new(0.0, 3.0 * s, 0.0), r).unwrap(),
        );
        assert!(touches(&a, &b), "rotated, {s:e}");
        // A box and a capsule lying on its top face.
        let capsule = place(
            Shape::capsule(0.5 * s, 8.0 * s).unwrap(),
            &Pose::new([0.0, 0.0, 1.5 * s], [0.0, std::f64::consts::FRAC_PI_2, 0.0]).unwrap(),
        );
        // The rotation is not exact, so compare with the oracle rather than assume.
        if let PlacedShape::Capsule { a: e, b: f, radius } = &capsule {
            let want = hull_dist2(&[*e, *f], &corners(2.0 * s)) <= q(*radius) * q(*radius);
            assert_eq!(touches(&a, &capsule), want);
        }
    }
}

/// The corners of the cube of size `size` centred at the origin.
fn corners(size: f64) -> Vec<Point> {
    let h = size / 2.0;
    (0..8)
        .map(|i| {
            let c = |k: usize| if i >> k & 1 == 1 { h } else { -h };
            Point::new(c(0), c(1), c(2))
        })
        .collect()
}

#[test]
fn capsule_along_a_triangle_edge() {
    // Turns z into x exactly.
    let r = nalgebra::Matrix3::new(0.0, 0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 0.0);
    for s in SCALES {
        let t = tri(s, [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]]);
        let radius = 0.75 * s;
        let capsule = |offset: Vector| {
            place(
                Shape::capsule(radius, 2.0 * s).unwrap(),
                &Pose::from_parts(Vector::new(2.0 * s, 0.0, 0.0) + offset, r).unwrap(),
            )
        };
        // Above the edge, and beside it in the triangle's plane, at distance exactly r.
        assert!(
            touches_triangle(&capsule(Vector::new(0.0, 0.0, radius)), &t),
            "{s:e}"
        );
        assert!(!touches_triangle(
            &capsule(Vector::new(0.0, 0.0, radius.next_up())),
            &t
        ));
        assert!(touches_triangle(
            &capsule(Vector::new(0.0, -radius, 0.0)),
            &t
        ));
        assert!(!touches_triangle(
            &capsule(Vector::new(0.0, -radius.next_up(), 0.0)),
            &t
        ));
        // A sphere at distance exactly r from the edge's end.
        let ball = |x: f64| sphere(0.75, s, [x, 0.0, 0.0]);
        assert!(touches_triangle(&ball(-0.75), &t));
        assert!(!touches_triangle(
            &sphere(0.75f64.next_down(), s, [-0.75, 0.0, 0.0]),
            &t
        ));
    }
}

#[test]
fn box_face_coplanar_with_a_triangle() {
    for s in SCALES {
        let a = cube(2.0, s, [0.0; 3]);
        // In the plane z = 1 of the top face: over it, and meeting only its edge x = 1.
        assert!(touches_triangle(
            &a,
            &tri(s, [[0.0, 0.0, 1.0], [3.0, 0.0, 1.0], [0.0, 3.0, 1.0]])
        ));
        assert!(touches_triangle(
            &a,
            &tri(s, [[1.0, -3.0, 1.0], [3.0, 0.0, 1.0], [1.0, 3.0, 1.0]])
        ));
        let above = up(s);
        let t = Triangle::new(
            Point::new(0.0, 0.0, above),
            Point::new(3.0 * s, 0.0, above),
            Point::new(0.0, 3.0 * s, above),
        );
        assert!(!touches_triangle(&a, &t), "one ulp above, {s:e}");
        let beside = Triangle::new(
            Point::new(up(s), -3.0 * s, s),
            Point::new(3.0 * s, 0.0, s),
            Point::new(up(s), 3.0 * s, s),
        );
        assert!(!touches_triangle(&a, &beside), "one ulp beside, {s:e}");
    }
}

#[test]
fn triangles_wholly_inside_solids() {
    for s in SCALES {
        let t = tri(s, [[0.125, 0.0, 0.0], [0.0, 0.125, 0.0], [0.0, 0.0, 0.125]]);
        assert!(touches_triangle(&sphere(10.0, s, [0.0; 3]), &t));
        assert!(touches_triangle(&cube(2.0, s, [0.0; 3]), &t));
        let capsule = place(Shape::capsule(s, 4.0 * s).unwrap(), &at(s, [0.0; 3]));
        assert!(touches_triangle(&capsule, &t));
        // And solids wholly inside each other.
        assert!(touches(
            &cube(8.0, s, [0.0; 3]),
            &sphere(0.5, s, [1.0, 1.0, 1.0])
        ));
        assert!(touches(
            &sphere(8.0, s, [0.0; 3]),
            &cube(1.0, s, [1.0, 1.0, 1.0])
        ));
        assert!(touches(
            &cube(8.0, s, [0.0; 3]),
            &cube(1.0, s, [1.0, 1.0, 1.0])
        ));
        assert!(touches(&capsule, &sphere(0.5, s, [0.0, 0.0, 1.0])));
    }
}

#[test]
fn halfspaces_in_exact_contact() {
    for s in SCALES {
        // n = (3, 4, 0), |n| = 5, d = 0: the sphere of radius 5s about (3s, 4s, 0) touches.
        let half = place(
            Shape::halfspace([3.0, 4.0, 0.0], 0.0).unwrap(),
            &Pose::identity(),
        );
        assert!(touches(&half, &sphere(5.0, s, [3.0, 4.0, 0.0])), "{s:e}");
        assert!(!touches(
            &half,
            &sphere(5.0f64.next_down(), s, [3.0, 4.0, 0.0])
        ));
        // A capsule whose lower end touches.
        let capsule = place(
            Shape::capsule(5.0 * s, 2.0 * s).unwrap(),
            &at(s, [3.0, 4.0, 0.0]),
        );
        assert!(touches(&half, &capsule));
        // Boxes and triangles on the plane z = s.
        let top = place(
            Shape::halfspace([0.0, 0.0, -2.0], -2.0 * s).unwrap(),
            &Pose::identity(),
        );
        assert!(touches(&top, &cube(2.0, s, [0.0; 3])));
        assert!(!touches(&top, &cube(2.0f64.next_down(), s, [0.0; 3])));
        assert!(touches_triangle(
            &top,
            &tri(s, [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
        ));
        let below = Triangle::new(
            Point::new(0.0, 0.0, s.next_down()),
            Point::new(s, 0.0, 0.0),
            Point::new(0.0, s, 0.0),
        );
        assert!(!touches_triangle(&top, &below));
        // Opposite halfspaces meeting in one plane, and one ulp apart.
        let bottom = |d: f64| {
            place(
                Shape::halfspace([0.0, 0.0, 1.0], d).unwrap(),
                &Pose::identity(),
            )
        };
        assert!(touches(&top, &bottom(s)));
        assert!(!touches(&top, &bottom(s.next_down())));
        assert!(touches(&top, &bottom(s.next_up())));
    }
    // |n| irrational: n = (1, 1, 0), the unit sphere about (x, x, 0) touches iff 2x <= √2.
    let half = place(
        Shape::halfspace([1.0, 1.0, 0.0], 0.0).unwrap(),
        &Pose::identity(),
    );
    let mut x = 0.5f64.sqrt();
    for _ in 0..3 {
        x = x.next_down();
    }
    let mut seen = [false; 2];
    for _ in 0..6 {
        let ball = sphere(1.0, 1.0, [x, x, 0.0]);
        let want = ball_half(
            &[Point::new(x, x, 0.0)],
            1.0,
            &Vector::new(1.0, 1.0, 0.0),
            0.0,
        );
        assert_eq!(touches(&half, &ball), want, "{x:e}");
        seen[usize::from(want)] = true;
        x = x.next_up();
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn validation_names_the_field() {
    let not_positive = |r: Result<Shape, ShapeError>| match r {
        Err(ShapeError::NotPositive { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    assert_eq!(not_positive(Shape::sphere(0.0)), "radius");
    assert_eq!(not_positive(Shape::sphere(f64::NAN)), "radius");
    assert_eq!(not_positive(Shape::capsule(1.0, -1.0)), "length");
    assert_eq!(
        not_positive(Shape::cuboid([1.0, f64::INFINITY, 1.0])),
        "size y"
    );
    assert!(Shape::capsule(1.0, 0.0).is_ok());
    assert!(matches!(
        Shape::sphere(1e-300),
        Err(ShapeError::OutOfRange {
            field: "radius",
            ..
        })
    ));
    assert!(matches!(
        Shape::halfspace([0.0; 3], 1.0),
        Err(ShapeError::ZeroNormal)
    ));
    let square = [
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
        Point::new(1.0, 1.0, 0.0),
    ];
    assert!(matches!(
        Shape::convex(&square),
        Err(ShapeError::Flat { .. })
    ));
    assert!(matches!(
        Shape::convex(&square[..3]),
        Err(ShapeError::Flat { .. })
    ));
    assert!(matches!(
        Shape::convex(&square.map(|p| p * 2.0 + Vector::new(0.0, 0.0, 1.0))),
        Err(ShapeError::Flat {
            field: "convex points"
        })
    ));
    let mut spread = square;
    spread[3].z = 1e-70;
    assert!(matches!(
        Shape::convex(&spread),
        Err(ShapeError::HullSpan { .. })
    ));
    let far = Pose::from_translation([1e200, 0.0, 0.0]).unwrap();
    assert!(matches!(
        Shape::sphere(1.0).unwrap().place(&far),
        Err(ShapeError::PlacedOutOfRange { .. })
    ));
    // The message names the field.
    let message = Shape::cuboid([1.0, -2.0, 1.0]).unwrap_err().to_string();
    assert!(message.contains("size y"), "{message}");
}
