//! `predicates::orient3d` (an inlined float stage in front of Shewchuk's adaptive predicate)
//! and `orient3d_pair` (two points against one triangle, the float stage sharing the
//! triangle's cross product) against the exact rational sign: on random points, on points
//! rounded onto the plane of the other three (where the float stage cannot decide and a wrong
//! shortcut would show), exactly coplanar grid points, coordinates from 1e-40 to 1e40, and
//! coordinates of any magnitude from the smallest subnormal to `2¹⁰⁰⁰` (far outside the exact
//! range, where products underflow).

mod common;

use common::config;
use common::exact::{cross, dot, q3, sub};
use num_traits::Signed;
use obbtree_bv::predicates::{orient3d, orient3d_pair, underflow_bound, UNDERFLOW_ERROR};
use obbtree_bv::Point;
use proptest::prelude::*;

/// The exact sign of `orient3d(a, b, c, d)`: of `(a - d)·((b - d)×(c - d))`, Shewchuk's
/// determinant.
fn exact_sign(a: &Point, b: &Point, c: &Point, d: &Point) -> i8 {
    let (qa, qb, qc, qd) = (q3(a), q3(b), q3(c), q3(d));
    let det = dot(&sub(&qa, &qd), &cross(&sub(&qb, &qd), &sub(&qc, &qd)));
    if det.is_positive() {
        1
    } else if det.is_negative() {
        -1
    } else {
        0
    }
}

fn point() -> impl Strategy<Value = Point> {
    [-10.0..10.0f64, -10.0..10.0f64, -10.0..10.0f64].prop_map(|[x, y, z]| Point::new(x, y, z))
}

fn grid() -> impl Strategy<Value = [i32; 3]> {
    [-3i32..=3, -3i32..=3, -3i32..=3]
}

fn scale() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(1.0),
        Just(1e-40),
        Just(1e40),
        Just(3.0e-7),
        Just(2.5e9)
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn matches_exact_sign_on_random_points(a in point(), b in point(), c in point(), d in point(), s in scale()) {
        let [a, b, c, d] = [a, b, c, d].map(|p| p * s);
        prop_assert_eq!(orient3d(&a, &b, &c, &d), exact_sign(&a, &b, &c, &d));
        let pair = [exact_sign(&a, &b, &c, &d), exact_sign(&a, &b, &c, &a)];
        prop_assert_eq!(orient3d_pair(&a, &b, &c, &d, &a), pair);
    }

    /// `d` is a combination of `a, b, c` rounded to `f64` (and nudged by a few ulps): within
    /// rounding of their plane, the float stage's blind spot.
    #[test]
    fn matches_exact_sign_near_the_plane(
        a in point(), b in point(), c in point(),
        u in -2.0..2.0f64, v in -2.0..2.0f64, ulps in -2i64..=2, axis in 0usize..3, s in scale(),
    ) {
        let [a, b, c] = [a, b, c].map(|p| p * s);
        let mut d = a + (b - a) * u + (c - a) * v;
        d[axis] = f64::from_bits((d[axis].to_bits() as i64 + ulps) as u64);
        let got = orient3d(&a, &b, &c, &d);
        prop_assert_eq!(got, exact_sign(&a, &b, &c, &d));
        let e = a + (c - a) * u - (b - a) * v;
        let pair = [exact_sign(&a, &b, &c, &d), exact_sign(&a, &b, &c, &e)];
        prop_assert_eq!(orient3d_pair(&a, &b, &c, &d, &e), pair);
        // Permuting the points flips the sign with the permutation's parity.
        prop_assert_eq!(orient3d(&b, &a, &c, &d), -got);
        prop_assert_eq!(orient3d(&b, &c, &a, &d), got);
    }

    /// Integer points, many exactly coplanar.
    #[test]
    fn matches_exact_sign_on_the_grid(p in [grid(), grid(), grid(), grid(), grid()], s in scale()) {
        let [a, b, c, d, e] = p.map(|[x, y, z]| Point::new(x.into(), y.into(), z.into()) * s);
        prop_assert_eq!(orient3d(&a, &b, &c, &d), exact_sign(&a, &b, &c, &d));
        let pair = [exact_sign(&a, &b, &c, &d), exact_sign(&a, &b, &c, &e)];
        prop_assert_eq!(orient3d_pair(&a, &b, &c, &d, &e), pair);
    }
}

#[test]
fn decides_the_near_plane_cases_it_is_given() {
    // The generators above must reach both signs within rounding of the plane, or they prove
    // little: rounded combinations of a, b, c fall on both sides.
    let (a, b, c) = (
        Point::new(0.1, 0.2, 0.3),
        Point::new(1.7, -0.4, 0.9),
        Point::new(-0.6, 1.3, 2.2),
    );
    let mut signs = [0usize; 3];
    for k in 0..200 {
        let (u, v) = (0.013 * f64::from(k), 0.7 - 0.011 * f64::from(k));
        let d = a + (b - a) * u + (c - a) * v;
        let got = orient3d(&a, &b, &c, &d);
        assert_eq!(got, exact_sign(&a, &b, &c, &d));
        signs[(got + 1) as usize] += 1;
    }
    assert!(signs[0] > 0 && signs[2] > 0, "{signs:?}");
    // Exactly coplanar (dyadic) points: the float stage sees a zero it cannot certify, and the
    // adaptive stage returns the exact zero.
    let (a, b, c) = (
        Point::new(0.5, 0.25, 3.0),
        Point::new(1.75, -0.5, 1.0),
        Point::new(-2.0, 1.5, 0.125),
    );
    for k in 0..64 {
        let (u, v) = (f64::from(k) / 8.0 - 4.0, 1.5 - f64::from(k) / 16.0);
        let d = a + (b - a) * u + (c - a) * v;
        assert_eq!(exact_sign(&a, &b, &c, &d), 0);
        assert_eq!(orient3d(&a, &b, &c, &d), 0);
    }
}

/// Coordinates far outside the exact range, where products fall among the subnormals. Found
/// wrong before the float stage's bound carried an underflow term and the adaptive predicate was
/// kept to the exact range: the float stage returned -1 here (products of `2⁻⁵³⁷`-sized
/// differences rounded on the subnormal grid, multiplied by `2³⁰`), and the adaptive predicate
/// returned 0 for a point `2⁻¹⁰⁰⁰` off the plane of a triangle with coordinates near `1e-30`.
#[test]
fn exact_far_below_the_exact_range() {
    let u = 2f64.powi(-537);
    let (a, b, c) = (
        Point::new(u, 0.65 * u, 1.0),
        Point::new(u, u, 2f64.powi(30)),
        Point::new(2.0 * u, u, 0.0),
    );
    let o = Point::origin();
    assert_eq!(exact_sign(&a, &b, &c, &o), 1);
    assert_eq!(orient3d(&a, &b, &c, &o), 1);
    for s in [1.0, 1e-30, 1e-70, 1e-150] {
        let (a, b, c) = (
            Point::new(-s, -s, 0.0),
            Point::new(s, -s, 0.0),
            Point::new(0.0, s, 0.0),
        );
        let above = Point::new(0.0, 0.0, 2f64.powi(-1000));
        assert_eq!(exact_sign(&a, &b, &c, &above), -1, "{s:e}");
        assert_eq!(orient3d(&a, &b, &c, &above), -1, "{s:e}");
    }
}

/// A coordinate `±m · 2^e` with `e` anywhere from the smallest subnormal to `2¹⁰⁰⁰`, or 0.
fn any_magnitude() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(0.0),
        6 => (-2.0..2.0f64, -1074i32..1000).prop_map(|(m, e)| m * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// Exact for all finite coordinates: points of wildly mixed magnitudes (tiny ones whose
    /// products underflow, huge ones whose differences overflow), and points near the plane of
    /// three others at a tiny or huge common scale.
    #[test]
    fn matches_exact_sign_at_any_magnitude(
        p in prop::array::uniform4([any_magnitude(), any_magnitude(), any_magnitude()]),
        near in (point(), point(), point(), -2.0..2.0f64, -2.0..2.0f64, -1074i32..=1000),
    ) {
        let [a, b, c, d] = p.map(Point::from);
        prop_assert_eq!(orient3d(&a, &b, &c, &d), exact_sign(&a, &b, &c, &d));
        let half = Point::from(d.coords * 0.5);
        let pair = [exact_sign(&a, &b, &c, &d), exact_sign(&a, &b, &c, &half)];
        prop_assert_eq!(orient3d_pair(&a, &b, &c, &d, &half), pair);
        let (a, b, c, u, v, e) = near;
        let s = |p: Point| p * 2f64.powi(e / 2) * 2f64.powi(e - e / 2);
        let (a, b, c) = (s(a), s(b), s(c));
        let d = a + (b - a) * u + (c - a) * v;
        prop_assert_eq!(orient3d(&a, &b, &c, &d), exact_sign(&a, &b, &c, &d));
        let e = a + (c - a) * u + (b - a) * v;
        let pair = [exact_sign(&a, &b, &c, &d), exact_sign(&a, &b, &c, &e)];
        prop_assert_eq!(orient3d_pair(&a, &b, &c, &d, &e), pair);
    }
}

/// `underflow_bound(s)` is at least the rounded product `UNDERFLOW_ERROR · (s + 1)` it stands
/// for, is a normal number (the point of it: no subnormal arithmetic), and below `s = 2⁵⁰` stays
/// under `2⁻¹⁰²⁰`: at 0, at the edges of `2⁵⁰`, `2¹⁰³` and `2¹⁰⁴` (where adding the shift stops
/// being exact), at huge values, and at random magnitudes.
#[test]
fn underflow_bound_covers_the_product_in_normal_numbers() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    let mut cases = vec![0.0, 1e-300, 0.5, 1.0, 3.0, 1e10, 1e300, f64::MAX / 4.0];
    for k in [49, 50, 51, 103, 104, 105] {
        let p = 2f64.powi(k);
        cases.extend([
            p,
            p * (1.0 - f64::EPSILON),
            p * (1.0 + 2.0 * f64::EPSILON),
            p + 1.0,
        ]);
    }
    cases.extend((0..10_000).map(|_| 2f64.powf(rng.gen_range(-60.0..200.0))));
    for s in cases {
        let product = UNDERFLOW_ERROR * (s + 1.0);
        let bound = underflow_bound(s);
        assert!(bound >= product, "s {s:e}: {bound:e} < {product:e}");
        assert!(bound.is_normal(), "s {s:e}: {bound:e} is not normal");
        if s < 2f64.powi(50) {
            assert!(bound < 2f64.powi(-1020), "s {s:e}: {bound:e}");
        }
    }
}
