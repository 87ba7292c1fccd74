//! Triangle–triangle distance, closest points and the exact margin predicate against an exact
//! rational oracle (`common/distance.rs`, which shares no code with the engine): random, grid
//! (touching, coplanar, degenerate), sliver, nearly parallel and extreme-scale pairs.

mod common;

use common::config_with;
use common::distance::*;
use common::exact::*;
use nalgebra::{Matrix3, Rotation3, Unit};
use num_rational::BigRational;
use num_traits::Zero;
use obbtree_bv::distance::tri_tri::{self, TriangleDistance, DISTANCE_ERROR};
use obbtree_bv::distance::{point_segment, point_triangle, segment_segment};
use obbtree_bv::{Point, Triangle, Vector};
use proptest::prelude::*;

/// The unit roundoff.
const UNIT: f64 = f64::EPSILON / 2.0;

/// The largest absolute coordinate of the two triangles.
fn magnitude(p: &Triangle, q: &Triangle) -> f64 {
    p.vertices()
        .iter()
        .chain(&q.vertices())
        .fold(0.0, |m: f64, v| m.max(v.coords.amax()))
}

/// `x² <= y` for `x >= 0` (exact).
fn square_at_most(x: f64, y: &BigRational) -> bool {
    let x = rational(x);
    &x * &x <= *y
}

/// `y <= x²` (exact).
fn at_most_square(y: &BigRational, x: f64) -> bool {
    let x = rational(x);
    *y <= &x * &x
}

/// Whether `point` lies on the triangle up to `tolerance` (exact).
fn on_triangle(point: &Point, t: &Triangle, tolerance: f64) -> bool {
    at_most_square(
        &point_triangle_distance_squared(point, &t.vertices()),
        tolerance,
    )
}

/// Every documented property of `tri_tri::distance(p, q)` against the oracle.
fn check_distance(p: &Triangle, q: &Triangle) -> Result<(), TestCaseError> {
    let got = tri_tri::distance(p, q);
    let want = triangle_distance_squared(&p.vertices(), &q.vertices());
    prop_assert_eq!(
        tri_tri::exact_distance_squared(p, q),
        want.clone(),
        "exact path {:?} {:?}",
        p,
        q
    );
    if !obbtree_bv::intersect::tri_tri_exact::intersects(p, q) {
        // The search without the exact test is the same search.
        prop_assert_eq!(tri_tri::distance_disjoint(p, q), got);
    }
    check_against(p, q, &got, &want)
}

fn check_against(
    p: &Triangle,
    q: &Triangle,
    got: &TriangleDistance,
    want: &BigRational,
) -> Result<(), TestCaseError> {
    let m = magnitude(p, q);
    // Points on their triangles: within rounding of the coordinates.
    let rounding = 64.0 * UNIT * m;
    prop_assert!(
        on_triangle(&got.point_p, p, rounding),
        "point_p off {:?}",
        got
    );
    prop_assert!(
        on_triangle(&got.point_q, q, rounding),
        "point_q off {:?}",
        got
    );
    if want.is_zero() {
        prop_assert_eq!(got.distance, 0.0, "intersecting {:?} {:?}", p, q);
        prop_assert_eq!(got.point_p, got.point_q);
        return Ok(());
    }
    // |d − d*| <= error, as (d − error)² <= d*² <= (d + error)².
    let bound = DISTANCE_ERROR * (m + got.distance);
    prop_assert_eq!(got.error, bound);
    prop_assert!(
        !square_at_most(got.distance + got.error, want) || {
            let hi = rational(got.distance + got.error);
            &hi * &hi == *want
        },
        "distance too small: {} (error {}) vs {}",
        got.distance,
        got.error,
        approx(want).sqrt()
    );
    let lo = got.distance - got.error;
    prop_assert!(
        lo <= 0.0 || square_at_most(lo, want),
        "distance too large: {} (error {}) vs {}",
        got.distance,
        got.error,
        approx(want).sqrt()
    );
    {
        let w = approx(want).sqrt();
        let r = (got.distance - w).abs() / (f64::EPSILON * (m + w));
        if r > 0.5 {
            eprintln!("RATIO {r:.3} d={:e} m={:e}", got.distance, m);
        }
    }
    // The points realise the distance (up to rounding).
    let between = point_distance_squared(&got.point_p, &got.point_q);
    let slack = got.error + rounding;
    prop_assert!(square_at_most((got.distance - slack).max(0.0), &between));
    prop_assert!(!square_at_most(got.distance + slack, &between) || slack == 0.0);
    let root = got.distance_squared.sqrt();
    prop_assert!((root - got.distance).abs() <= 2.0 * UNIT * got.distance);
    Ok(())
}

/// Both argument orders and every vertex rotation give distances within the bound of each
/// other (and pass the checks).
fn rotations(t: &Triangle, k: usize) -> Triangle {
    let v = t.vertices();
    Triangle::new(v[k % 3], v[(k + 1) % 3], v[(k + 2) % 3])
}

fn rotation_matrix(axis: Vector, angle: f64) -> Matrix3<f64> {
    match Unit::try_new(axis, 1e-9) {
        Some(axis) => Rotation3::from_axis_angle(&axis, angle).into_inner(),
        None => Matrix3::identity(),
    }
}

fn unit_vector() -> impl Strategy<Value = Vector> {
    [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64].prop_filter_map("short", |v| {
        let v = Vector::from(v);
        (v.norm() > 0.1).then(|| v.normalize())
    })
}

fn moved(t: &Triangle, r: &Matrix3<f64>, shift: &Vector, scale: f64) -> Triangle {
    let m = |p: &Point| Point::from(r * p.coords * scale + shift);
    Triangle::new(m(&t.a), m(&t.b), m(&t.c))
}

/// Scales from 1e-60 to 1e90 (every coordinate stays within the mesh range 1e-70 … 1e100).
fn scale() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => Just(1.0),
        1 => Just(1e-60),
        1 => Just(3.0e-9),
        1 => Just(7.0e12),
        1 => Just(1e90),
    ]
}

/// A shift relative to the scale: none, small, or far from the origin.
fn shift() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(0.37), Just(1e6)]
}

proptest! {
    #![proptest_config(config_with(400))]

    /// Grid pairs: shared vertices and edges, coplanar, vertex-on-edge, collinear and point
    /// triangles (touching, intersecting, degenerate), at scales 1e-8 … 1e8.
    #[test]
    fn grid_pairs_match_oracle((p, q, _rel) in grid_pair(), placement in grid_scale(),
                               offset in grid_point(2), k in 0usize..3) {
        let offset = offset.map(|c| c as i64);
        let q = q.map(|v| [0, 1, 2].map(|i| v[i] + offset[i]));
        let (p, q) = (place(&p, placement), place(&q, placement));
        check_distance(&p, &q)?;
        check_distance(&rotations(&q, k), &rotations(&p, k + 1))?;
    }

    /// Generic float triangles at every scale, near and far.
    #[test]
    fn float_pairs_match_oracle(p in float_triangle(), q in float_triangle(),
                                gap in prop_oneof![Just(0.0), Just(1e-9), Just(0.5), Just(3.0)],
                                dir in unit_vector(), s in scale(), sh in shift()) {
        let (p, q) = (place_f(&p, (1.0, 0.0)), place_f(&q, (1.0, 0.0)));
        let q = Triangle::new(q.a + dir * gap, q.b + dir * gap, q.c + dir * gap);
        let shift = Vector::repeat(sh * s);
        let (p, q) = (moved(&p, &Matrix3::identity(), &shift, s), moved(&q, &Matrix3::identity(), &shift, s));
        check_distance(&p, &q)?;
    }

    /// Slivers (caps and needles of width down to 1e-14 of their length) against a triangle
    /// touching, just above or far above them: the case where Voronoi-region formulas cancel.
    #[test]
    fn slivers_match_oracle(width in prop_oneof![Just(1e-3), Just(1e-7), Just(1.5e-8), Just(1e-11), Just(1e-14)],
                            apex in 0.0..1.0f64, needle in any::<bool>(),
                            height in prop_oneof![Just(0.0), Just(1e-12), Just(1e-6), Just(0.3), Just(2.0)],
                            spot in (0.0..1.0f64, 0.0..1.0f64),
                            axis in unit_vector(), angle in -3.0..3.0f64, s in scale(), sh in shift(),
                            other in float_triangle()) {
        let sliver = if needle {
            Triangle::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, width, 0.0), Point::new(1.0, 0.0, 0.0))
        } else {
            Triangle::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(apex, width, 0.0))
        };
        // A point above the sliver's interior (or near it), as a vertex of the other triangle.
        let (u, v) = spot;
        let below = Point::from(sliver.a.coords * (1.0 - u) + (sliver.b.coords * (1.0 - v) + sliver.c.coords * v) * u);
        let top = below + Vector::new(0.0, 0.0, height);
        let o = place_f(&other, (1.0, 0.0));
        let q = Triangle::new(top, top + (o.b - o.a) + Vector::new(0.0, 0.0, 1.0), top + (o.c - o.a) + Vector::new(0.0, 0.0, 1.5));
        let r = rotation_matrix(axis, angle);
        let shift = Vector::repeat(sh * s);
        check_distance(&moved(&sliver, &r, &shift, s), &moved(&q, &r, &shift, s))?;
    }

    /// Edges crossing (at a tiny distance or touching) at angles down to 1e-13: the case where
    /// the line–line determinant cancels.
    #[test]
    fn nearly_parallel_edges_match_oracle(angle in prop_oneof![Just(1e-2f64), Just(1e-5), Just(1.5e-8), Just(3e-11), Just(1e-13)],
                                          gap in prop_oneof![Just(0.0), Just(1e-13), Just(1e-9), Just(1e-4)],
                                          at in (0.05..0.95f64, 0.05..0.95f64),
                                          axis in unit_vector(), turn in -3.0..3.0f64, s in scale(), sh in shift()) {
        // Edge p0p1 along x; edge q0q1 crosses it at parameter `at.0` with a small angle, `gap`
        // above it; the third vertices lie away on either side.
        let (a, b) = at;
        let p = Triangle::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.4, -0.7, -0.6));
        let dir = Vector::new(angle.cos(), angle.sin(), 0.0);
        let cross = Point::new(a, 0.0, gap);
        let q0 = cross - dir * b;
        let q1 = cross + dir * (1.0 - b);
        let q = Triangle::new(q0, q1, Point::new(0.5, 0.8, gap + 0.7));
        let r = rotation_matrix(axis, turn);
        let shift = Vector::repeat(sh * s);
        check_distance(&moved(&p, &r, &shift, s), &moved(&q, &r, &shift, s))?;
    }

    /// Parallel planes, overlapping or not, rotated: face–face configurations.
    #[test]
    fn parallel_planes_match_oracle(p in float_triangle(), q in float_triangle(),
                                    height in prop_oneof![Just(0.0), Just(1e-10), Just(0.25)],
                                    axis in unit_vector(), turn in -3.0..3.0f64, s in scale()) {
        let flat = |t: &[[f64; 3]; 3], z: f64| {
            let v = t.map(|v| Point::new(v[0], v[1], z));
            Triangle::new(v[0], v[1], v[2])
        };
        let r = rotation_matrix(axis, turn);
        check_distance(&moved(&flat(&p, 0.0), &r, &Vector::zeros(), s), &moved(&flat(&q, height), &r, &Vector::zeros(), s))?;
    }
}

/// `|p − closest_point(p, t)|` against the exact point–triangle distance: within
/// `DISTANCE_ERROR · (M + d*)` (`M` the largest absolute coordinate of `p` and `t`), the bound
/// `point_triangle::closest_point` documents.
fn check_point_distance(p: &Point, t: &Triangle) -> Result<(), TestCaseError> {
    let got = (point_triangle::closest_point(p, t) - p).norm();
    let want = point_triangle_distance_squared(p, &t.vertices());
    let m = t
        .vertices()
        .iter()
        .fold(p.coords.amax(), |m, v| m.max(v.coords.amax()));
    // |d − d*| <= DISTANCE_ERROR·(M + d*) follows from these two with d* in the bound.
    let error = DISTANCE_ERROR * (m + got);
    prop_assert!(
        !square_at_most(got + error * (1.0 + 4.0 * UNIT), &want) || {
            let hi = rational(got + error * (1.0 + 4.0 * UNIT));
            &hi * &hi == want
        },
        "distance too small: {} vs {} ({:?} {:?})",
        got,
        approx(&want).sqrt(),
        p,
        t
    );
    let lo = got - error;
    prop_assert!(
        lo <= 0.0 || square_at_most(lo, &want),
        "distance too large: {} vs {} ({:?} {:?})",
        got,
        approx(&want).sqrt(),
        p,
        t
    );
    Ok(())
}

proptest! {
    #![proptest_config(config_with(400))]

    /// Points on, near and far from generic float triangles at every scale and shift, and
    /// points on grid triangles' vertices, edges and planes (degenerate triangles included).
    #[test]
    fn point_distances_stay_within_the_bound(t in float_triangle(), at in (0.0..1.0f64, 0.0..1.0f64),
                                             height in prop_oneof![Just(0.0), Just(1e-12), Just(1e-6), Just(0.3), Just(40.0)],
                                             dir in unit_vector(), s in scale(), sh in shift(),
                                             (g, _, _) in grid_pair(), placement in grid_scale(), corner in grid_point(2)) {
        let t = place_f(&t, (1.0, 0.0));
        let (u, v) = at;
        let on = Point::from(t.a.coords * (1.0 - u) + (t.b.coords * (1.0 - v) + t.c.coords * v) * u);
        let p = on + dir * height;
        let shift = Vector::repeat(sh * s);
        let t = moved(&t, &Matrix3::identity(), &shift, s);
        let p = Point::from(p.coords * s + shift);
        check_point_distance(&p, &t)?;
        let g = place(&g, placement);
        let corner = place(&[corner.map(i64::from); 3], placement).a;
        for p in [corner, g.a, Point::from((g.a.coords + g.b.coords) * 0.5)] {
            check_point_distance(&p, &g)?;
        }
    }

    /// Points above slivers (width down to 1e-14 of their length): where Voronoi-region
    /// formulas cancel.
    #[test]
    fn point_distances_to_slivers_stay_within_the_bound(
        width in prop_oneof![Just(1e-3), Just(1e-7), Just(1.5e-8), Just(1e-11), Just(1e-14)],
        apex in 0.0..1.0f64, needle in any::<bool>(),
        height in prop_oneof![Just(0.0), Just(1e-12), Just(1e-6), Just(0.3), Just(2.0)],
        spot in (-0.2..1.2f64, -0.2..1.2f64),
        axis in unit_vector(), angle in -3.0..3.0f64, s in scale(), sh in shift()) {
        let sliver = if needle {
            Triangle::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, width, 0.0), Point::new(1.0, 0.0, 0.0))
        } else {
            Triangle::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(apex, width, 0.0))
        };
        let (u, v) = spot;
        let p = Point::new(u, v * width, height);
        let r = rotation_matrix(axis, angle);
        let shift = Vector::repeat(sh * s);
        let p = Point::from(r * p.coords * s + shift);
        check_point_distance(&p, &moved(&sliver, &r, &shift, s))?;
    }
}

/// The float distance's largest error seen on adversarial pairs, in units of the bound.
#[test]
fn error_stays_well_inside_the_bound() {
    let mut runner = proptest::test_runner::TestRunner::new(config_with(300));
    let worst = std::cell::Cell::new(0.0f64);
    let angles = prop_oneof![Just(1e-4f64), Just(1.5e-8), Just(1e-11)];
    runner
        .run(
            &(angles, 0.05..0.95f64, unit_vector(), -3.0..3.0f64),
            |(angle, a, axis, turn)| {
                let p = Triangle::new(
                    Point::new(0.0, 0.0, 0.0),
                    Point::new(1.0, 0.0, 0.0),
                    Point::new(0.4, -0.7, -0.6),
                );
                let dir = Vector::new(angle.cos(), angle.sin(), 0.0);
                let cross = Point::new(a, 0.0, 1e-12);
                let q = Triangle::new(
                    cross - dir * 0.5,
                    cross + dir * 0.5,
                    Point::new(0.5, 0.8, 0.7),
                );
                let r = rotation_matrix(axis, turn);
                let (p, q) = (
                    moved(&p, &r, &Vector::zeros(), 1.0),
                    moved(&q, &r, &Vector::zeros(), 1.0),
                );
                let got = tri_tri::distance(&p, &q);
                let want = approx(&triangle_distance_squared(&p.vertices(), &q.vertices())).sqrt();
                let ratio = (got.distance - want).abs() / got.error.max(f64::MIN_POSITIVE);
                worst.set(worst.get().max(ratio));
                Ok(())
            },
        )
        .unwrap();
    assert!(
        worst.get() < 0.25,
        "largest error {} of the bound",
        worst.get()
    );
}

proptest! {
    #![proptest_config(config_with(300))]

    /// Pairs whose exact distance is a float `d*` by construction: `P` in the half-space
    /// `x·n <= 0` through its vertex 0 at the origin, `Q` in `x·n >= |n|²` through its vertex 0
    /// at `n`, for a Pythagorean `n` (integer length), the other vertices random grid points
    /// reflected into their half-spaces or lying on the slab's planes (vertex–vertex,
    /// vertex–face, edge–edge and face–face contacts), scaled by a power of two, shifted and
    /// permuted exactly. `within(d*)` holds and `within(prev_float(d*))` does not: the exact
    /// fallback decides both.
    #[test]
    fn within_is_exact_at_the_boundary(n in prop_oneof![Just([3i64, 4, 0]), Just([1, 2, 2]), Just([2, 3, 6]), Just([1, 4, 8]), Just([2, 6, 9]), Just([0, 0, 1])],
                                       others in [grid_point(4), grid_point(4), grid_point(4), grid_point(4)],
                                       on_plane in [any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()],
                                       scale in prop_oneof![Just(1.0), Just(0.5f64.powi(30)), Just(2f64.powi(40))],
                                       shift in grid_point(3), perm in 0usize..6, k in 0usize..3) {
        let dot = |a: &[i64; 3], b: &[i64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let cross = |a: &[i64; 3], b: &[i64; 3]| [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
        // Into the half-space `x·n <= 0` (sign -1) or `>= 0` (sign 1), or onto its plane.
        let side = |v: [i32; 3], flat: bool, sign: i64| {
            let v = v.map(i64::from);
            if flat {
                cross(&n, &v)
            } else if dot(&v, &n) * sign < 0 {
                v.map(|c| -c)
            } else {
                v
            }
        };
        let add = |a: [i64; 3], b: [i64; 3]| [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
        let p = [[0; 3], side(others[0], on_plane[0], -1), side(others[1], on_plane[1], -1)];
        let q = [n, add(n, side(others[2], on_plane[2], 1)), add(n, side(others[3], on_plane[3], 1))];
        let axes = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]][perm];
        let shift = shift.map(|c| c as f64 * 1024.0 * scale);
        let place = |t: &[[i64; 3]; 3]| {
            let v = t.map(|v| Point::new(
                v[axes[0]] as f64 * scale + shift[0],
                v[axes[1]] as f64 * scale + shift[1],
                v[axes[2]] as f64 * scale + shift[2],
            ));
            Triangle::new(v[0], v[1], v[2])
        };
        let (p, q) = (rotations(&place(&p), k), rotations(&place(&q), 2 * k));
        let d = (dot(&n, &n) as f64).sqrt() * scale;
        prop_assert_eq!(triangle_distance_squared(&p.vertices(), &q.vertices()), rational(d) * rational(d));
        prop_assert!(tri_tri::within(&p, &q, d), "{:?} {:?} at {}", p, q, d);
        prop_assert!(tri_tri::within(&q, &p, d));
        prop_assert!(tri_tri::within(&p, &q, d.next_up()));
        prop_assert!(!tri_tri::within(&p, &q, d.next_down()), "{:?} {:?} below {}", p, q, d);
        prop_assert!(!tri_tri::within(&q, &p, d.next_down()));
    }

    /// Touching and intersecting grid pairs are within 0; the others are not.
    #[test]
    fn within_zero_is_intersection((p, q, _rel) in grid_pair(), placement in grid_scale()) {
        let (p, q) = (place(&p, placement), place(&q, placement));
        let want = triangle_distance_squared(&p.vertices(), &q.vertices());
        prop_assert_eq!(tri_tri::within(&p, &q, 0.0), want.is_zero());
    }

    /// Random pairs and margins near the distance (where the filter fails and the exact
    /// arithmetic decides) and away from it agree with the oracle.
    #[test]
    fn within_matches_oracle(p in float_triangle(), q in float_triangle(),
                             gap in prop_oneof![Just(0.0), Just(1e-9), Just(0.5)],
                             dir in unit_vector(), s in scale(), ulps in -300i32..300, far in 0.0..2.0f64) {
        let (p, q) = (place_f(&p, (s, 0.0)), place_f(&q, (s, 0.0)));
        let q = Triangle::new(q.a + dir * gap * s, q.b + dir * gap * s, q.c + dir * gap * s);
        let want = triangle_distance_squared(&p.vertices(), &q.vertices());
        let d = tri_tri::distance(&p, &q).distance;
        let mut near = d;
        for _ in 0..ulps.unsigned_abs() {
            near = if ulps > 0 { near.next_up() } else { near.next_down() };
        }
        for margin in [near, d * far, d + 1e-15 * s, d - 1e-15 * s] {
            let expected = margin >= 0.0 && at_most_square(&want, margin);
            prop_assert_eq!(tri_tri::within(&p, &q, margin), expected, "{:?} {:?} at {}", p, q, margin);
        }
    }

    /// The point–triangle and segment–segment closest points: on their sets, and at the exact
    /// distance up to the error bound's size.
    #[test]
    fn primitive_closest_points_match_oracle(t in float_triangle(), x in [-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64],
                                             e in float_triangle(), s in scale()) {
        let t = place_f(&t, (s, 0.0));
        let x = Point::from(Vector::from(x) * s);
        let m = t.vertices().iter().fold(x.coords.amax(), |m, v| m.max(v.coords.amax()));
        let c = point_triangle::closest_point(&x, &t);
        prop_assert!(on_triangle(&c, &t, 64.0 * UNIT * m));
        let want = point_triangle_distance_squared(&x, &t.vertices());
        let got = (c - x).norm();
        prop_assert!(square_at_most((got - DISTANCE_ERROR * m).max(0.0), &want));
        prop_assert!(!square_at_most(got + DISTANCE_ERROR * m, &want));

        let e = place_f(&e, (s, 0.0));
        let (a, b) = segment_segment::closest_points(&t.a, &t.b, &e.a, &e.b);
        let want = hull_distance_squared(&[t.a, t.b], &[e.a, e.b]);
        let m = m.max(magnitude(&t, &e));
        prop_assert!(at_most_square(&hull_distance_squared(&[a], &[t.a, t.b]), 64.0 * UNIT * m));
        prop_assert!(at_most_square(&hull_distance_squared(&[b], &[e.a, e.b]), 64.0 * UNIT * m));
        let got = (b - a).norm();
        prop_assert!(square_at_most((got - DISTANCE_ERROR * m).max(0.0), &want));
        prop_assert!(!square_at_most(got + DISTANCE_ERROR * m, &want));

        let c = point_segment::closest_point(&x, &e.a, &e.b);
        let want = hull_distance_squared(&[x], &[e.a, e.b]);
        let got = (c - x).norm();
        prop_assert!(square_at_most((got - DISTANCE_ERROR * m).max(0.0), &want));
        prop_assert!(!square_at_most(got + DISTANCE_ERROR * m, &want));
    }
}

/// The exact value of `x` (a second name: the checks bind `q` to a triangle).
fn rational(x: f64) -> BigRational {
    q(x)
}
